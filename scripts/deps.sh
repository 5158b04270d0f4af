#!/usr/bin/env bash
# Makes sure fray's build dependencies (Debian 12 packages) are present.
# As root it installs what is missing; otherwise it prints the apt-get line
# to run and fails. Usage: scripts/deps.sh [extra-package ...]
set -euo pipefail
need=(cmake make gcc pkgconf libfyaml-dev libcmocka-dev libgmp-dev libmicrohttpd-dev python3-yaml python3-jsonschema chromium chromium-driver python3-selenium parallel "$@")
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
  echo "fray: missing build dependencies; run:" >&2
  echo "  sudo apt-get install ${missing[*]}" >&2
  exit 1
fi
