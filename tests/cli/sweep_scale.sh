#!/bin/sh
# Sweeps of any size across machines (issue 45 item 4): a 1,000-point
# sweep run once, and in 8 shards of 125 points by GNU parallel through its
# --sshlogin machinery (":" is this machine, the loopback of the recipe in
# docs/simulate.md), merged by fray merge: exactly the one run's CSV and
# JSON, byte for byte. A grid of 147 points split by trials (every shard
# has every point) the same. Before, fray merge refused a shard of more
# than about 75 points. Work is bounded by counts (20 battles a point).
# usage: sweep_scale.sh FRAY EXAMPLES_DIR
set -eu
FRAY=$1
SCEN=$2/adbg/blue-licks-1782.yaml
if ! parallel --version 2>/dev/null | grep -q 'GNU parallel'; then
	echo "sweep_scale: GNU parallel is needed (Debian package parallel: scripts/deps.sh installs it)" >&2
	exit 1
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail=0
same() { # what, expected file, merged file
	if cmp -s "$2" "$3"; then
		echo "ok: $1"
	else
		echo "FAIL: $1: the merged shards differ from one run" >&2
		diff "$2" "$3" | head -10 >&2
		fail=1
	fi
}

# 10 x 10 x 10 values: 1,000 points, the baseline (fire 2, 2; melee 2) among them
set -- --vary sides.kentucky.stacks.1.1.fire=0..9 --vary sides.raiders.stacks.1.1.fire=0..9 \
	--vary sides.kentucky.stacks.1.1.melee=0..9 --trials 20 --seed 3 --quiet
"$FRAY" adbg sweep "$SCEN" "$@" --csv > "$dir/one.csv"
rows=$(($(wc -l < "$dir/one.csv") - 1))
if [ "$rows" -ne 1000 ]; then
	echo "FAIL: the sweep has $rows points, not 1000" >&2
	exit 1
fi
parallel --will-cite --sshlogin 2/: "$FRAY" adbg sweep "$SCEN" "$@" --shard {}/8 \
	--output "$dir/shard-{}.json" ::: 1 2 3 4 5 6 7 8
# each shard has its 125 points, one a line after the run's 4 lines
for i in 1 2 3 4 5 6 7 8; do
	n=$(($(wc -l < "$dir/shard-$i.json") - 4))
	if [ "$n" -ne 125 ]; then
		echo "FAIL: shard $i has $n point lines, not 125" >&2
		fail=1
	fi
done
"$FRAY" merge --csv "$dir"/shard-*.json > "$dir/merged.csv"
same "1000 points, 8 shards by points, CSV" "$dir/one.csv" "$dir/merged.csv"
# the shards in another order merge to the same
"$FRAY" merge --csv "$dir"/shard-8.json "$dir"/shard-[1-7].json > "$dir/merged2.csv"
same "1000 points, shards in another order" "$dir/one.csv" "$dir/merged2.csv"

# a grid split by trials: each of 3 shards has all 147 points
set -- --vary sides.kentucky.level=0..6 --vary terrain=rough,settled,wilderness \
	--vary sides.raiders.level=0..6 --trials 30 --seed 4 --quiet
"$FRAY" adbg sweep "$SCEN" "$@" --json > "$dir/one.json"
parallel --will-cite --sshlogin 2/: "$FRAY" adbg sweep "$SCEN" "$@" --shard {}/3 --split trials \
	--output "$dir/trials-{}.json" ::: 1 2 3
"$FRAY" merge --json "$dir"/trials-*.json > "$dir/merged.json"
same "147 points, 3 shards by trials, JSON" "$dir/one.json" "$dir/merged.json"

# a shard cut short is refused, naming it, and nothing is printed
head -n 50 "$dir/shard-3.json" > "$dir/cut.json"
rc=0
"$FRAY" merge --csv "$dir"/shard-[12].json "$dir/cut.json" > "$dir/out" 2> "$dir/err" || rc=$?
if [ "$rc" -ne 2 ] || [ -s "$dir/out" ] || ! grep -q 'cut.json: ends after 46 of its 125 points' "$dir/err"; then
	echo "FAIL: a shard cut short: exit $rc" >&2
	cat "$dir/err" >&2
	fail=1
else
	echo "ok: a shard cut short is refused"
fi
exit $fail
