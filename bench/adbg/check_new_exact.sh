#!/bin/sh
# The exact answers issue 45 item 1's fifth pass added (a reserve's move by
# plans: Blue Licks +3, +4, in 3 rounds, and twice its size), each against
# 1,000,000 simulated battles: tests/reference/exact_battle.py (every
# chance of a win, the draw and each side's losses within 4.5 standard
# errors; the exact fractions summing to 1; under 128 MiB).
#
# Usage: bench/adbg/check_new_exact.sh [FRAY [TRIALS]]   (default build/fray, 1000000)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
fray=${1:-$src/build/fray}
trials=${2:-1000000}
status=0
for s in blue-licks-plus3 blue-licks-plus4 blue-licks-3rounds blue-licks-doubled; do
	if python3 "$src/tests/reference/exact_battle.py" "$fray" "$trials" "$here/$s.yaml"; then
		echo "$s: exact, within 4.5 standard errors of $trials simulated battles"
	else
		echo "$s: FAILED"
		status=1
	fi
done
exit $status
