#!/usr/bin/env bash
# make demo: fray at work on a Presidio-style roll, until a rule set lands
# and a sample battle takes its place.
set -euo pipefail
fray=${1:-build/fray}
say() { printf '\n\033[1m$ %s\033[0m\n' "$*"; "$@"; }
echo "fray $("$fray" --version | cut -d' ' -f2): roll, odds, replay"
say "$fray" roll 'd6!' --seed 1782
say "$fray" odds 'd6!' --at-least 7
say "$fray" roll 3d12 --seed 42
say "$fray" odds 2d6 --at-least 8
