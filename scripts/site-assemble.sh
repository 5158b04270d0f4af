#!/usr/bin/env bash
# The static site's folder (`make site`): the page's files and the
# WebAssembly build, stamped with a build id, the first 12 hex digits of a
# SHA-256 of every file's content. The id goes into sw.js (its cache's
# name), into each page's <meta name="fray-build"> and as ?v= on the
# assets the pages load (transport.js and worker.js carry it on to
# worker.js, fray.js and fray.wasm): a new build is new URLs, so no cache
# (the browser's HTTP cache, which a plain static host leaves to the
# browser's guess, or the service worker's) gives a new page an old script.
# Usage: scripts/site-assemble.sh PAGE-DIR WASM-BUILD-DIR OUT-DIR
# Prints the build id.
set -euo pipefail
page=$1 wasm=$2 out=$3
rm -rf "$out"
mkdir -p "$out"
cp -r "$page"/. "$out"/
cp "$wasm/fray.js" "$wasm/fray.wasm" "$out"/
id=$(cd "$out" && find . -type f -print0 | LC_ALL=C sort -z | xargs -0 sha256sum | sha256sum | cut -c1-12)
sed -i "s/^const VERSION = 'dev';/const VERSION = '$id';/" "$out/sw.js"
grep -q "^const VERSION = '$id';" "$out/sw.js" || { echo "site-assemble: sw.js has no VERSION line" >&2; exit 1; }
for h in "$out"/*.html; do
  sed -i -E -e "s/(<meta name=\"fray-build\" content=\")dev\"/\1$id\"/" \
    -e "s/((src|href)=\"[A-Za-z0-9_.\/-]+\.(js|css|svg|png|webmanifest))\"/\1?v=$id\"/g" "$h"
  grep -q "<meta name=\"fray-build\" content=\"$id\">" "$h" || { echo "site-assemble: $h has no fray-build meta" >&2; exit 1; }
done
echo "$id"
