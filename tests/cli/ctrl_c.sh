#!/bin/sh
# Ctrl-C stops a long catalogue simulation or odds with what it did and the
# shell's status for SIGINT, 130 (issue #16: "Ctrl-C (partial work
# reported, exit 130)").
# Usage: ctrl_c.sh FRAY
set -u
fray=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "ctrl_c: $*" >&2; exit 1; }

# interrupted WHAT WORD FRAY-ARGS...: fray started, SIGINT a second later;
# it must end with status 130 and WORD in what it says of the stop
interrupted() {
	what=$1 word=$2
	shift 2
	"$fray" "$@" > "$dir/out" 2> "$dir/err" &
	pid=$!
	sleep 1
	kill -INT $pid
	wait $pid
	status=$?
	[ $status -eq 130 ] || fail "$what: exit status $status after SIGINT, expected 130"
	grep -q "$word" "$dir/err" || fail "$what: no word of the stop: $(cat "$dir/err")"
	echo "ctrl_c: $what stopped with status 130: $(cat "$dir/err")"
}

interrupted "a simulation" stopped presidio pursuit --trials 100000000

# `fray request` too: a request's long simulation stops with one line and
# no half answer on standard output
echo '{"procedure": "presidio.pursuit", "mode": "simulate", "trials": 100000000, "seed": 1}' > "$dir/req.json"
interrupted "a request" interrupted request "$dir/req.json"
[ ! -s "$dir/out" ] || fail "request: printed a half answer: $(head -c 200 "$dir/out")"
