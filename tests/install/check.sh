#!/bin/sh
# Installs the build in $2 and builds $3 against it with pkg-config, shared
# then static; each program must run and print the right answer.
set -eu
build=$1 prefix=$2 prog=$3 san=${4:-}  # $4: the build's sanitizer flags
example=${5:-}                          # $5: docs/library.md's example
rm -rf "$prefix"
cmake --install "$build" --prefix "$prefix" >/dev/null
pc=$(dirname "$(find "$prefix" -name fray.pc | head -n 1)")
# the man page and the bash completion land where man and bash look
test -s "$prefix/share/man/man1/fray.1"
test -s "$prefix/share/bash-completion/completions/fray"
test -s "$prefix/share/doc/fray/json/procedure-odds.schema.json"
test -s "$prefix/share/doc/fray/rulings.md"
# the examples install with the CRT they name, and still read together
test -s "$prefix/share/fray/data/adbg/example-melee-crt.yaml"
"$prefix/bin/fray" check "$prefix"/share/fray/examples/adbg/*.yaml >/dev/null
if command -v groff >/dev/null 2>&1; then
  # the page renders without a warning
  groff -man -Tutf8 -ww -z "$prefix/share/man/man1/fray.1" 2>"$prefix/man.err"
  test ! -s "$prefix/man.err"
fi
export PKG_CONFIG_PATH="$pc"
libdir=$(pkg-config --variable=libdir fray)
cc $san "$prog" $(pkg-config --cflags --libs fray) -Wl,-rpath,"$libdir" -o "$prefix/use_shared"
"$prefix/use_shared"
cc $san "$prog" $(pkg-config --cflags fray) "$libdir/libfray.a" \
  $(pkg-config --static --libs-only-other --libs-only-l fray | sed 's/-lfray//') -o "$prefix/use_static"
"$prefix/use_static"
if [ -n "$example" ]; then
  cc $san "$example" $(pkg-config --cflags --libs fray) -Wl,-rpath,"$libdir" -o "$prefix/request"
  "$prefix/request" >/dev/null
fi
