#!/bin/sh
# Same outcomes check for the ADBG battle fast path (issue 45 item 2).
# Usage: scripts/adbg_golden.sh FRAY OUTDIR
# Writes fray adbg simulate --json of the examples, the tests' small
# scenarios and two written below (seeds 1, 7, 12345; policies heuristic and random:3; --threads 1
# and 2), a few narrated battles and the exact odds of Lochry into OUTDIR.
# Compare two OUTDIRs with `diff -r`.
set -eu
fray=$1
out=$2
src=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out"
# Two battles written here (kept out of OUTDIR: the same files either way):
# crowd, stacks of more firers than the enemy column has units (a choice
# among targets already chosen, after a hit) and disrupted units to split
# off; many, a side of 16 units in 8 stacks, past the fast path's few
# slots and units (battle_fast.h FAST_FEW).
gen=$(mktemp -d)
trap 'rm -rf "$gen"' EXIT
head_of() { # name terrain
	cat <<EOF
battle: $1
terrain: $2
weather: normal
initiative: red
surprise: none
melee_crt: $src/tests/data/adbg/crt-small.yaml
leader_loss:
  after_fire: {roll: 1d6, lost_on: [6]}
  after_melee: {roll: 1d6, lost_on: [5, 6]}
victory:
  rule: losses
  routed: {roll: 1d6, eliminated_on: [1, 2, 3]}
sides:
EOF
}
side_of() { # key name level rating: a side's head, its primary leader with stack 1
	printf '  %s:\n    name: %s\n    level: %s\n' "$1" "$2" "$3"
	printf '    primary_leader: {name: %s Leader, rating: %s, stack: 1}\n' "$2" "$4"
}
{
	head_of Crowd settled
	side_of red Red 3 2
	cat <<EOF
    leaders:
      - {name: Trigg, rating: 1, stack: 2}
    stacks:
      - - {name: R1, type: militia, fire: 4, melee: 2}
        - {name: R2, type: rifle, fire: 4, melee: 2}
        - {name: R3, type: militia, fire: 4, melee: 1}
        - {name: R4, type: rifle, fire: 3, melee: 1}
      - - {name: R5, type: militia, fire: 3, melee: 2}
        - {name: R6, type: militia, fire: 3, melee: 1, status: disrupted}
        - {name: R7, type: rifle, fire: 4, melee: 1}
      - - {name: R8, type: militia, fire: 3, melee: 2}
EOF
	side_of blue Blue 2 1
	cat <<EOF
    leaders:
      - {name: Girty, rating: 2, stack: 2}
    stacks:
      - - {name: B1, type: militia, fire: 3, melee: 2}
        - {name: B2, type: militia, fire: 3, melee: 1}
      - - {name: B3, type: warrior, fire: 3, melee: 2}
        - {name: B4, type: warrior, fire: 2, melee: 2, status: disrupted}
      - - {name: B5, type: militia, fire: 3, melee: 1}
      - - {name: B6, type: militia, fire: 2, melee: 1}
EOF
} >"$gen/crowd.yaml"
{
	head_of Many wilderness
	side_of red Red 3 2
	printf '    leaders:\n      - {name: R2, rating: 1, stack: 2}\n'
	printf '      - {name: R3, rating: 1, stack: 3}\n    stacks:\n'
	for k in 1 2 3 4 5 6 7 8; do
		printf '      - - {name: R%sa, type: regular, fire: 3, melee: 3}\n' $k
		printf '        - {name: R%sb, type: militia, fire: 2, melee: 1, status: disrupted}\n' $k
	done
	side_of blue Blue 2 1
	printf '    stacks:\n'
	for k in 1 2 3 4; do
		printf '      - - {name: B%s, type: militia, fire: 4, melee: 2}\n' $k
	done
} >"$gen/many.yaml"
for sc in "$src"/examples/adbg/*.yaml "$src"/tests/data/adbg/tiny.yaml \
	  "$src"/tests/data/adbg/tiny-surprise.yaml "$src"/tests/data/adbg/mirror.yaml \
	  "$src"/tests/data/adbg/one-round.yaml "$gen"/crowd.yaml "$gen"/many.yaml; do
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
