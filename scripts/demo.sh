#!/usr/bin/env bash
# make demo: fray fights the sample Blue Licks battle with narration, then
# gives its exact odds and simulates a million of it; and shows a Presidio morale
# roll's exact odds.
set -euo pipefail
fray=${1:-build/fray}
top=$(cd "$(dirname "$0")/.." && pwd)
if [ -t 1 ] && [ -z "${NO_COLOR+x}" ]; then bold=$'\033[1m' plain=$'\033[0m'; else bold= plain=; fi
say() { printf '\n%s$ %s%s\n' "$bold" "$*" "$plain"; "$@"; }
echo "fray $("$fray" --version | cut -d' ' -f2): roll, odds, battle"
say "$fray" adbg battle "$top/examples/adbg/blue-licks-1782.yaml" --seed 1782
say "$fray" adbg odds "$top/examples/adbg/blue-licks-1782.yaml"
say "$fray" adbg simulate "$top/examples/adbg/blue-licks-1782.yaml" --trials 1000000
say "$fray" presidio morale --level average --size squad --casualties 1 --leader-rank sergeant --odds
# where the newcomer goes next: the binary is here, not on the PATH
printf '\n%sfray is %s%s (not installed: type the path, or add its folder to PATH).\n' "$bold" "$fray" "$plain"
printf 'At the table: %s serve --lan, then scan its QR code with a phone on the same network.\n' "$fray"
