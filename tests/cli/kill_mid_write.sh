#!/bin/sh
# fray killed in the middle of writing a save or a shard file leaves the
# old file as it was (files are written to a temporary and renamed); a new
# file is never put over one made meanwhile (no-replace semantics).
# Usage: kill_mid_write.sh FRAY KILL_LIBRARY SCENARIO
set -u
fray=$1 lib=$2 scenario=$3
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "kill_mid_write: $*" >&2; exit 1; }
export ASAN_OPTIONS=verify_asan_link_order=0

printf 'the old save\n' > "$dir/save.yaml"
LD_PRELOAD=$lib "$fray" adbg battle "$scenario" --seed 1 --save "$dir/save.yaml" \
	--stop-after 1 > /dev/null 2>&1
status=$?
[ $status -eq 137 ] || fail "fray adbg battle --save was not killed (exit status $status)"
[ "$(cat "$dir/save.yaml")" = "the old save" ] || fail "the save was damaged by a killed write"

printf 'the old shard\n' > "$dir/shard.json"
LD_PRELOAD=$lib "$fray" adbg simulate "$scenario" --trials 1000 --shard 1/2 \
	--output "$dir/shard.json" --quiet > /dev/null 2>&1
status=$?
[ $status -eq 137 ] || fail "fray adbg simulate --output was not killed (exit status $status)"
[ "$(cat "$dir/shard.json")" = "the old shard" ] || fail "the shard was damaged by a killed write"

# a game file: the action killed mid-write leaves the game as it was
forces=$(dirname "$scenario")/../presidio/forces.yaml
"$fray" table new "$dir/game.yaml" --rules presidio --forces "$forces" --seed 5 > /dev/null ||
	fail "table new failed"
cp "$dir/game.yaml" "$dir/game.before"
LD_PRELOAD=$lib "$fray" table "$dir/game.yaml" shoot Presidials --at Apaches --range 10 > /dev/null 2>&1
status=$?
[ $status -eq 137 ] || fail "fray table shoot was not killed (exit status $status)"
cmp -s "$dir/game.yaml" "$dir/game.before" || fail "the game file was damaged by a killed action"
"$fray" table "$dir/game.yaml" shoot Presidials --at Apaches --range 10 > /dev/null ||
	fail "the game does not go on after a killed action"

# a new game, or a template, put in place never over a file made since
# fray checked the name was free (the preload makes it at the first write)
other='made by another program'
LD_PRELOAD=$lib KILL_MID_WRITE_MAKE="$dir/raced.yaml" "$fray" table new "$dir/raced.yaml" --rules presidio \
	--forces "$forces" --seed 5 > /dev/null 2>&1
status=$?
[ $status -eq 2 ] || fail "table new over a file made meanwhile: exit status $status, expected 2"
[ "$(cat "$dir/raced.yaml")" = "$other" ] || fail "table new wrote over a file made meanwhile"
LD_PRELOAD=$lib KILL_MID_WRITE_MAKE="$dir/raced-forces.yaml" "$fray" scenario new bbb "$dir/raced-forces.yaml" \
	> /dev/null 2>&1
status=$?
[ $status -eq 2 ] || fail "scenario new over a file made meanwhile: exit status $status, expected 2"
[ "$(cat "$dir/raced-forces.yaml")" = "$other" ] || fail "scenario new wrote over a file made meanwhile"
ls "$dir" | grep -q 'raced.*\.tmp-' && fail "a refused new file left its temporary behind"

# and without the kill both are written whole, replacing the old files
"$fray" adbg battle "$scenario" --seed 1 --save "$dir/save.yaml" --stop-after 1 > /dev/null ||
	fail "the save failed"
"$fray" adbg resume "$dir/save.yaml" > /dev/null || fail "the new save does not resume"
"$fray" adbg simulate "$scenario" --trials 1000 --shard 1/2 --output "$dir/shard.json" --quiet ||
	fail "the shard failed"
# one shard of two merges, marked partial (exit status 1: not the whole run)
"$fray" merge "$dir/shard.json" > "$dir/merged.txt" 2> /dev/null
[ $? -eq 1 ] && grep -q "PARTIAL: 1 of 2 shards merged" "$dir/merged.txt" ||
	fail "the new shard does not merge"
echo "kill_mid_write: old files intact after a kill; new files whole"
