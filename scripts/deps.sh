#!/usr/bin/env bash
# Makes sure fray's dependencies (Debian 12 packages) are present: what
# builds fray (make demo, make build), and with --test what its tests need
# too (make test: Python's modules, headless Chromium and its driver for
# the page, zbar-tools to decode the QR codes of fray serve --lan, GNU parallel
# to run shards as a cluster would, rsync for its transfers between hosts).
# As root it installs what is missing; otherwise it prints the apt-get line
# to run and fails. Usage: scripts/deps.sh [--test] [extra-package ...]
set -euo pipefail
build=(cmake make gcc pkgconf libfyaml-dev libcmocka-dev libgmp-dev libmicrohttpd-dev libqrencode-dev)
test=(clang python3-yaml python3-jsonschema chromium chromium-driver python3-selenium zbar-tools parallel rsync)
need=("${build[@]}")
if [ "${1-}" = --test ]; then
  need+=("${test[@]}")
  shift
fi
need+=("$@")
missing=()
for p in "${need[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -eq 0 ]; then
  echo "fray: installing ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
else
  echo "fray: missing dependencies; run:" >&2
  echo "  sudo apt-get install ${missing[*]}" >&2
  exit 1
fi
