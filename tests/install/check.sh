#!/bin/sh
# Installs the build in $2 and builds $3 against it with pkg-config, shared
# then static; each program must run and print the right answer.
set -eu
build=$1 prefix=$2 prog=$3 san=${4:-}  # $4: the build's sanitizer flags
rm -rf "$prefix"
cmake --install "$build" --prefix "$prefix" >/dev/null
pc=$(dirname "$(find "$prefix" -name fray.pc | head -n 1)")
export PKG_CONFIG_PATH="$pc"
libdir=$(pkg-config --variable=libdir fray)
cc $san "$prog" $(pkg-config --cflags --libs fray) -Wl,-rpath,"$libdir" -o "$prefix/use_shared"
"$prefix/use_shared"
cc $san "$prog" $(pkg-config --cflags fray) "$libdir/libfray.a" \
  $(pkg-config --static --libs-only-other --libs-only-l fray | sed 's/-lfray//') -o "$prefix/use_static"
"$prefix/use_static"
