#!/bin/sh
# Exact whole-battle odds at a designer's size (issue 45 item 1): `fray adbg
# odds SCENARIO --json` of each shipped example and of its scaled copies
# (bench/adbg/make_scaled.py: +1..+4 engaged units, Blue Licks in 3 rounds),
# each with its user+system CPU seconds, wall seconds and peak resident
# memory (/usr/bin/time), whether it was exact (or refused, and why), and the
# paths the walk took (bench_exact's child: the same walk and limits, paths
# counted from fray_enumerate's estimate; before its refusal when refused;
# since issue 45's third pass with every path of the positions walked on
# their own and convolved, docs/performance.md).
# The target: exact within 10 s of CPU and 256 MiB.
#
# Usage: bench/adbg/bench_scaled.sh [--no-paths] [FRAY [BENCH_EXACT]] [-- SCENARIO...]
#   (default build/fray and build/bench/bench_exact, run from the source;
#   a refused walk's paths are those its refusal says it took)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
paths=1
if [ "${1:-}" = --no-paths ]; then paths=0; shift; fi
fray=$src/build/fray
bench=$src/build/bench/bench_exact
if [ $# -gt 0 ] && [ "$1" != -- ]; then fray=$1; shift; fi
if [ $# -gt 0 ] && [ "$1" != -- ]; then bench=$1; shift; fi
if [ "${1:-}" = -- ]; then shift; fi
if [ $# -eq 0 ]; then
	for s in lochry:lochry-1781 sandusky:sandusky-1782 blue-licks:blue-licks-1782; do
		set -- "$@" "$src/examples/adbg/${s#*:}.yaml"
		for n in 1 2 3 4; do set -- "$@" "$here/${s%%:*}-plus$n.yaml"; done
	done
	set -- "$@" "$here/blue-licks-3rounds.yaml"
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '%-26s %-34s %9s %8s %9s %12s\n' scenario answer "CPU s" "wall s" "peak MiB" paths
for f in "$@"; do
	/usr/bin/time -f '%U %S %e %M' -o "$tmp/time" "$fray" adbg odds "$f" --json --quiet \
		</dev/null >"$tmp/out" 2>"$tmp/err" || { echo "$f: fray failed"; cat "$tmp/err"; exit 1; }
	answer=$(python3 -c '
import json, re, sys
d = json.load(open(sys.argv[1]))
if d["method"] == "exact":
    print("exact")
else:
    why = d["not_exact"]
    after = re.search(r"after (\d+)", why["message"])
    print("refused (%s)%s" % (why["reason"], " after " + after.group(1) if after else ""))' "$tmp/out")
	read -r user sys wall kib <<EOT
$(tail -n 1 "$tmp/time")
EOT
	cpu=$(printf "%.2f" "$(echo "$user + $sys" | bc)")
	mib=$(echo "scale=1; $kib / 1024" | bc)
	p=-
	if [ $paths = 1 ] && [ "$answer" = exact ]; then
		p=$("$bench" "$f" 2>/dev/null | sed -n 's/.* \([0-9][0-9]*\) paths.*/\1/p' || true)
	fi
	mark=""
	if [ "$answer" != exact ] || [ "$(echo "$cpu > 10" | bc)" = 1 ] || [ "$(echo "$kib > 262144" | bc)" = 1 ]; then
		mark="  (not within 10 s and 256 MiB)"
	fi
	printf '%-26s %-34s %9s %8s %9s %12s%s\n' "$(basename "$f" .yaml)" "$answer" "$cpu" "$wall" "$mib" "$p" "$mark"
done
