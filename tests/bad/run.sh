#!/bin/sh
# Runs the bad-input corpus (cases.txt) against FRAY: every case must exit
# with its status and write exactly its first line of error on stderr.
# Usage: run.sh FRAY   (from any folder; the cases run in this one)
set -u
fray=$1
cd "$(dirname "$0")"
fail=0 n=0
err=$(mktemp) || exit 2
trap 'rm -f "$err"' EXIT
while IFS= read -r line; do
	case $line in '#'*|'') continue ;; esac
	file=${line%% | *}; rest=${line#* | }
	args=${rest%% | *}; rest=${rest#* | }
	want_status=${rest%% | *}; want=${rest#* | }
	args=$(printf '%s' "$args" | sed "s|FILE|$file|g")
	# one run for both (it was one for the message, one for the status)
	eval "\"\$fray\" $args" >/dev/null 2>"$err" </dev/null
	status=$?
	got=$(head -n 1 "$err")
	n=$((n + 1))
	if [ "$status" != "$want_status" ] || [ "$got" != "$want" ]; then
		fail=$((fail + 1))
		printf 'FAIL %s: fray %s\n  want (%s) %s\n  got  (%s) %s\n' "$file" "$args" "$want_status" "$want" "$status" "$got"
	fi
done < cases.txt
echo "bad inputs: $n cases, $fail failed"
[ $fail -eq 0 ]
