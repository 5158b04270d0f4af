#!/bin/sh
# Benchmark: the best policy's exact odds against the heuristic's (issue 44:
# within 10x the time and memory of the heuristic's exact odds), for each
# scenario: `fray adbg odds` with the heuristic, then --policy-a best
# --policy-b heuristic, then --policy best; CPU seconds (user + system: on a
# shared machine the wall clock is not the program's) and peak memory (GNU
# time's %M) of each, and the ratios. Results are recorded in
# docs/performance.md ("The best policy").
# usage: bench/bench_best.sh FRAY [scenario.yaml...]   (default: examples/adbg/)
set -eu
fray=$1
shift
[ $# -gt 0 ] || set -- "$(dirname "$0")/../examples/adbg/"*.yaml
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
run() { # prints "CPU-SECONDS KB"
	/usr/bin/time -f "%U %S %M" -o "$tmp" "$fray" adbg odds "$@" --quiet > /dev/null
	awk '{ printf "%.2f %s\n", $1 + $2, $3 }' "$tmp"
}
printf '%-22s %-20s %9s %9s %7s %7s\n' scenario policy cpu-s MiB "x time" "x mem"
for s in "$@"; do
	name=$(basename "$s" .yaml)
	set -- $(run "$s")
	ht=$1 hk=$2
	awk -v n="$name" -v t="$ht" -v k="$hk" 'BEGIN { printf "%-22s %-20s %9.2f %9.1f\n", n, "heuristic", t, k / 1024 }'
	for pol in "--policy-a best --policy-b heuristic" "--policy best"; do
		set -- $(run "$s" $pol)
		label=$(echo "$pol" | sed 's/--policy-a best --policy-b heuristic/best vs heuristic/; s/--policy best/best (both)/')
		awk -v n="$name" -v p="$label" -v t="$1" -v k="$2" -v ht="$ht" -v hk="$hk" \
			'BEGIN { printf "%-22s %-20s %9.2f %9.1f %7.1f %7.1f\n", n, p, t, k / 1024, t / ht, k / hk }'
	done
done
