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

"$fray" presidio pursuit --trials 100000000 > "$dir/out" 2> "$dir/err" &
pid=$!
sleep 1
kill -INT $pid
wait $pid
status=$?
[ $status -eq 130 ] || fail "exit status $status after SIGINT, expected 130"
grep -q "stopped" "$dir/err" || fail "no word of the stop: $(cat "$dir/err")"
echo "ctrl_c: stopped with status 130: $(cat "$dir/err")"

# `fray request` too: a request's long simulation stops at Ctrl-C with one
# line, status 130 and no half answer on standard output
echo '{"procedure": "presidio.pursuit", "mode": "simulate", "trials": 100000000, "seed": 1}' > "$dir/req.json"
"$fray" request "$dir/req.json" > "$dir/out" 2> "$dir/err" &
pid=$!
sleep 1
kill -INT $pid
wait $pid
status=$?
[ $status -eq 130 ] || fail "request: exit status $status after SIGINT, expected 130"
grep -q "interrupted" "$dir/err" || fail "request: no word of the stop: $(cat "$dir/err")"
[ ! -s "$dir/out" ] || fail "request: printed a half answer: $(head -c 200 "$dir/out")"
echo "ctrl_c: request stopped with status 130: $(cat "$dir/err")"
