#!/usr/bin/env bash
# scripts/deps.sh's two lists: what make demo needs (the build) and what
# make test adds (--test). Run as a user with nothing installed (a fake id
# and dpkg-query first on the PATH): it installs nothing, it prints the
# apt-get line, which must name the build's packages and libqrencode-dev
# always, and Chromium, Selenium and zbar-tools only with --test.
# Usage: SOURCE_DIR
set -uo pipefail
fake=$(mktemp -d)
trap 'rm -rf "$fake"' EXIT
printf '#!/bin/sh\necho 1000\n' >"$fake/id"
printf '#!/bin/sh\nexit 1\n' >"$fake/dpkg-query"
chmod +x "$fake/id" "$fake/dpkg-query"
fail=0
line() { PATH="$fake:$PATH" "$1/scripts/deps.sh" "${@:2}" 2>&1 | grep 'apt-get install' ; }
has() { [[ " $1 " == *" $2 "* ]]; }
demo=$(line "$1")
test=$(line "$1" --test)
for p in cmake gcc libfyaml-dev libgmp-dev libmicrohttpd-dev libqrencode-dev; do
  has "$demo" "$p" || { echo "FAIL make demo's dependencies lack $p: $demo"; fail=1; }
  has "$test" "$p" || { echo "FAIL make test's dependencies lack $p: $test"; fail=1; }
done
for p in chromium chromium-driver python3-selenium zbar-tools parallel rsync python3-jsonschema; do
  has "$demo" "$p" && { echo "FAIL make demo would install $p (a test's): $demo"; fail=1; }
  has "$test" "$p" || { echo "FAIL make test's dependencies lack $p: $test"; fail=1; }
done
extra=$(line "$1" --test valgrind)
has "$extra" valgrind || { echo "FAIL an extra package is not asked: $extra"; fail=1; }
exit $fail
