#!/usr/bin/env bash
# make demo: fray fights the sample Blue Licks battle with narration, then
# gives its odds; and shows a Presidio-style morale roll's exact odds.
set -euo pipefail
fray=${1:-build/fray}
top=$(cd "$(dirname "$0")/.." && pwd)
if [ -t 1 ] && [ -z "${NO_COLOR+x}" ]; then bold=$'\033[1m' plain=$'\033[0m'; else bold= plain=; fi
say() { printf '\n%s$ %s%s\n' "$bold" "$*" "$plain"; "$@"; }
echo "fray $("$fray" --version | cut -d' ' -f2): roll, odds, battle"
say "$fray" adbg battle "$top/examples/adbg/blue-licks-1782.yaml" --seed 1782
say "$fray" adbg odds "$top/examples/adbg/blue-licks-1782.yaml" --trials 200000
say "$fray" odds 'd6!' --at-least 7
