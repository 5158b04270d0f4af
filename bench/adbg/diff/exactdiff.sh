#!/bin/sh
# bench/adbg/diff/exactdiff.sh FIRST LAST [MAXUNITS [MODE]]: the
# differential check of exact ADBG battle odds, main's plans (a reserve's
# move as an event between positions, dd62568) against the whole walk
# before them (8746bc0). For each seed, gen_scenarios.py writes a small
# scenario of MAXUNITS units at most (MODE any, plans, deep; mode blue:
# mutate_example.py, a Blue Licks variant), made again with another seed
# while `fray check` refuses it; then `fray adbg odds FILE --json` runs
# under each build, one run at a time, and the outputs are compared byte
# for byte when both are exact; the same for --policy best and --policy-a
# best --policy-b heuristic every BEST_EVERY-th seed (default 3).
# plan_probe (build it: see plan_probe.c) says whether the new build's
# walk used plans. One line a scenario in $OUT/log.tsv (summarize.py sums
# them); a mismatch, or a run that exited with another status on one
# build than the other (a crash, a hang past `timeout`), is copied to
# bench/adbg/diff-found/ with both outputs.
# NEW, OLD: the two Release build directories (default
# /work/wt-exactdiff/build, /work/wt-exactold/build). One fray run at a time.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
NEW=${NEW:-/work/wt-exactdiff/build}
OLD=${OLD:-/work/wt-exactold/build}
OUT=${OUT:-/tmp/exactdiff-run}
FOUND=$HERE/../diff-found
MAXU=${3:-9}
MODE=${4:-any}
mkdir -p "$OUT" "$FOUND"
run() { # build file tag args...: rc, method and seconds into $OUT/<tag>.*
	b=$1; f=$2; tag=$3; shift 3
	/usr/bin/time -f "%U+%S" -o "$OUT/$tag.time" timeout 90 "$b/fray" adbg odds "$f" --json --max-seconds 40 "$@" \
		>"$OUT/$tag.json" 2>"$OUT/$tag.err" </dev/null
	echo $? >"$OUT/$tag.rc"
}
method() { grep -o '"method": "[a-z]*"' "$1" | head -1 | sed 's/.*: "//; s/"//'; }
for seed in $(seq "$1" "$2"); do
	f=$OUT/s$seed.yaml
	try=0
	while :; do
		if [ "$MODE" = blue ]; then
			python3 "$HERE/mutate_example.py" $((seed + 1000000 * try)) "$f"
		else
			python3 "$HERE/gen_scenarios.py" $((seed + 1000000 * try)) "$f" "$MAXU" "$MODE"
		fi
		"$NEW/fray" check "$f" >/dev/null 2>&1 && break
		try=$((try + 1))
	done
	probe=$("$NEW/plan_probe" "$f" | cut -d' ' -f2-)
	line="$seed	try=$try	probe=$probe"
	variants=heuristic
	[ $((seed % ${BEST_EVERY:-3})) -eq 0 ] && variants="heuristic best besta"
	for variant in $variants; do
		case $variant in
		heuristic) args="" ;;
		best) args="--policy best" ;;
		besta) args="--policy-a best --policy-b heuristic" ;;
		esac
		# shellcheck disable=SC2086
		run "$NEW" "$f" new-$variant $args
		# shellcheck disable=SC2086
		run "$OLD" "$f" old-$variant $args
		rn=$(cat "$OUT/new-$variant.rc"); ro=$(cat "$OUT/old-$variant.rc")
		mn=$(method "$OUT/new-$variant.json"); mo=$(method "$OUT/old-$variant.json")
		tn=$(tail -1 "$OUT/new-$variant.time"); to=$(tail -1 "$OUT/old-$variant.time")
		verdict=skip
		if [ "$mn" = exact ] && [ "$mo" = exact ]; then
			if cmp -s "$OUT/new-$variant.json" "$OUT/old-$variant.json"; then verdict=same; else verdict=MISMATCH; fi
		elif [ "$rn" != "$ro" ]; then
			verdict=RC
		fi
		line="$line	$variant:$verdict:new=$rn/$mn/$tn:old=$ro/$mo/$to"
		if [ $verdict = MISMATCH ] || [ $verdict = RC ]; then
			cp "$f" "$FOUND/s$seed.yaml"
			for w in new old; do
				cp "$OUT/$w-$variant.json" "$FOUND/s$seed-$variant.$w.json"
				cp "$OUT/$w-$variant.err" "$FOUND/s$seed-$variant.$w.err"
			done
		fi
	done
	printf '%s\n' "$line" | tee -a "$OUT/log.tsv"
done
