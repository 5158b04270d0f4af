#!/usr/bin/env bash
# make demo: fray at work on a Presidio-style roll, until a rule set lands
# and a sample battle takes its place.
set -euo pipefail
fray=${1:-build/fray}
if [ -t 1 ] && [ -z "${NO_COLOR+x}" ]; then bold=$'\033[1m' plain=$'\033[0m'; else bold= plain=; fi
say() { printf '\n%s$ %s%s\n' "$bold" "$*" "$plain"; "$@"; }
echo "fray $("$fray" --version | cut -d' ' -f2): roll, odds, replay"
say "$fray" roll 'd6!' --seed 1782
say "$fray" odds 'd6!' --at-least 7
say "$fray" roll 3d12 --seed 42
say "$fray" odds 2d6 --at-least 8
