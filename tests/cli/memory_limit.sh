#!/bin/sh
# Exact odds under a memory limit (ulimit -v): past what the system gives,
# the enumeration ends with a message and exit status 1 (out of memory);
# past fray's own budget (--max-memory), one line and exit 2, as every
# budget passed; never GMP's abort (134) or the kernel's kill (137).
# Usage: memory_limit.sh FRAY. A plain build only: AddressSanitizer
# reserves far more address space than any such limit.
set -u
fray=$1
fail() { echo "memory_limit: $*" >&2; exit 1; }
melee() {
	"$fray" presidio melee --weapon "metal lance/knife" --figures 1000 --both \
		--defender-weapon "metal lance/knife" --defender-figures 1000 --armor 0 --odds "$@"
}
out=$(mktemp) err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT

# the system gives less than the budget: out of memory, said, exit 1
(ulimit -v 400000; melee > "$out" 2> "$err")
status=$?
[ $status -eq 1 ] || fail "under ulimit -v 400000: exit status $status, expected 1 ($(cat "$err"))"
grep -q "out of memory while enumerating; simulate instead" "$err" || fail "no message: $(cat "$err")"
grep -q "GNU MP" "$err" && fail "GMP's own abort message"
[ -s "$out" ] && fail "something on stdout"

# the budget is below what the system gives: the budget says so, exit 2
(ulimit -v 1000000; melee --max-memory 64 > "$out" 2> "$err")
status=$?
[ $status -eq 2 ] || fail "--max-memory 64: exit status $status, expected 2 ($(cat "$err"))"
[ -s "$out" ] && fail "--max-memory 64: something on stdout"
grep -q "exact odds need more than 64 MiB of memory" "$err" || fail "no message: $(cat "$err")"

# and the odds that fit are still exact under the same limit
(ulimit -v 1000000; "$fray" presidio melee --weapon "metal lance/knife" --figures 3 --odds > "$out" 2> "$err") ||
	fail "a small melee failed under the limit: $(cat "$err")"
grep -q "exact odds" "$out" || fail "no odds: $(cat "$out")"
echo "memory_limit: ends with a message and exit status 1 (the system's limit) or 2 (the budget), never an abort"
