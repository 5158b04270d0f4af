#!/bin/sh
# Same outcomes check for the ADBG battle fast path (issue 45 item 2).
# Usage: scripts/adbg_golden.sh FRAY OUTDIR
# Writes fray adbg simulate --json of the examples and the tests' small
# scenarios (crowd.yaml and many.yaml for the fast path's corners; seeds
# 1, 7, 12345; policies heuristic and random:3; --threads 1 and 2), a few
# narrated battles and the exact odds of Lochry into OUTDIR.
# Compare two OUTDIRs with `diff -r`.
set -eu
fray=$1
out=$2
src=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out"
for sc in "$src"/examples/adbg/*.yaml "$src"/tests/data/adbg/tiny.yaml \
	  "$src"/tests/data/adbg/tiny-surprise.yaml "$src"/tests/data/adbg/mirror.yaml \
	  "$src"/tests/data/adbg/one-round.yaml "$src"/tests/data/adbg/crowd.yaml \
	  "$src"/tests/data/adbg/many.yaml; do
	name=$(basename "$sc" .yaml)
	for seed in 1 7 12345; do
		for t in 1 2; do
			"$fray" adbg simulate "$sc" --json --quiet --trials 20000 --seed $seed \
				--threads $t --policy heuristic >"$out/$name-h-$seed-$t.json"
			"$fray" adbg simulate "$sc" --json --quiet --trials 2000 --seed $seed \
				--threads $t --policy random:3 >"$out/$name-r-$seed-$t.json"
		done
		"$fray" adbg battle "$sc" --seed $seed >"$out/$name-battle-$seed.txt"
		"$fray" adbg battle "$sc" --seed $seed --json >"$out/$name-battle-$seed.json"
	done
	"$fray" adbg simulate "$sc" --json --quiet --trials 2000 --seed 3 --threads 2 \
		--policy-a heuristic --policy-b random:3 >"$out/$name-hr.json"
done
"$fray" adbg odds "$src"/examples/adbg/lochry-1781.yaml --json --quiet >"$out/lochry-odds.json"
