#!/bin/sh
# Many machines on one (issue 33): GNU parallel runs N shards of a
# simulation and of sweeps (split by points and by trials) at once, fray
# merge adds them, and the merged output must equal one run's, byte for
# byte (battle i always draws from stream i of the seed, ruling R24).
# Trials are few (4,000 a simulation, 600 a point): the shards cut them
# the same way whatever their number (7 s of CPU under ASan with 20,000
# and 3,000, issue 45).
# usage: shard_parallel.sh FRAY EXAMPLES_DIR
set -eu
FRAY=$1
SCEN=$2/adbg/blue-licks-1782.yaml
if ! parallel --version 2>/dev/null | grep -q 'GNU parallel'; then
	echo "shard_parallel: GNU parallel is needed (Debian package parallel: scripts/deps.sh installs it)" >&2
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
		diff "$2" "$3" | head -20 >&2
		fail=1
	fi
}

# a simulation: one run, then 4 shards at once
"$FRAY" adbg simulate "$SCEN" --trials 4000 --seed 5 --quiet --json > "$dir/one.json"
"$FRAY" adbg simulate "$SCEN" --trials 4000 --seed 5 --quiet > "$dir/one.txt"
parallel --will-cite -j 4 "$FRAY" adbg simulate "$SCEN" --trials 4000 --seed 5 --quiet \
	--shard {}/4 --output "$dir/sim-{}.json" ::: 1 2 3 4
"$FRAY" merge --json "$dir"/sim-*.json > "$dir/merged.json"
"$FRAY" merge "$dir"/sim-*.json > "$dir/merged.txt"
same "simulate, 4 shards, JSON" "$dir/one.json" "$dir/merged.json"
same "simulate, 4 shards, text" "$dir/one.txt" "$dir/merged.txt"

# a sweep of 7 points (the baseline added to 2 x 3), split by points and by trials
set -- --vary sides.kentucky.level=1,3 --vary terrain=rough,settled,wilderness --trials 600 --seed 9 --quiet
"$FRAY" adbg sweep "$SCEN" "$@" --csv > "$dir/sweep.csv"
"$FRAY" adbg sweep "$SCEN" "$@" > "$dir/sweep.txt"
"$FRAY" adbg sweep "$SCEN" "$@" --json > "$dir/sweep.json"
for split in points trials; do
	parallel --will-cite -j 3 "$FRAY" adbg sweep "$SCEN" "$@" --shard {}/3 --split $split \
		--output "$dir/sw-$split-{}.json" ::: 1 2 3
	"$FRAY" merge --csv "$dir"/sw-$split-*.json > "$dir/m.csv"
	"$FRAY" merge "$dir"/sw-$split-*.json > "$dir/m.txt"
	"$FRAY" merge --json "$dir"/sw-$split-*.json > "$dir/m.json"
	same "sweep by $split, 3 shards, CSV" "$dir/sweep.csv" "$dir/m.csv"
	same "sweep by $split, 3 shards, text" "$dir/sweep.txt" "$dir/m.txt"
	same "sweep by $split, 3 shards, JSON" "$dir/sweep.json" "$dir/m.json"
done
# the rows really differ (a merge of anything would not pass by accident)
if [ "$(cut -d, -f1 "$dir/sweep.csv" | wc -l)" -ne 8 ]; then
	echo "FAIL: the sweep has 7 points and a header" >&2
	fail=1
fi

# a shard missing: the merge says partial and exits 1
rm "$dir/sw-points-2.json"
if "$FRAY" merge --csv "$dir"/sw-points-*.json > /dev/null 2> "$dir/err"; then
	echo "FAIL: a merge missing a shard succeeded" >&2
	fail=1
elif ! grep -q '2 of 3 shards' "$dir/err"; then
	echo "FAIL: a merge missing a shard does not say so" >&2
	cat "$dir/err" >&2
	fail=1
else
	echo "ok: a missing shard is reported"
fi
# shards of different sweeps are refused
"$FRAY" adbg sweep "$SCEN" --vary sides.kentucky.level=1,2 --trials 3000 --seed 9 --quiet --shard 2/3 \
	--output "$dir/other.json"
# (refused for that reason: exit 2 naming the shard, not any failure at all)
rc=0
"$FRAY" merge "$dir/sw-points-1.json" "$dir/other.json" > /dev/null 2> "$dir/err" || rc=$?
if [ "$rc" -ne 2 ] || ! grep -q 'other.json: not a shard of the same sweep' "$dir/err"; then
	echo "FAIL: shards of two sweeps: exit $rc, not 2 with the reason" >&2
	cat "$dir/err" >&2
	fail=1
else
	echo "ok: shards of two sweeps are refused"
fi
exit $fail
