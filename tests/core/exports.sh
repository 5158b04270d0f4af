#!/bin/sh
# The library's symbols (STYLE.md, API conventions; issue 30 item 3):
#   libfray.so exports fray_* only (the public API; everything else is hidden);
#   libfray.a defines no global outside fray_* (public) and frayi_* (internal:
#   shared between the library's files, never API; docs/design.md, Symbols);
#   every fray_* global that libfray.a or a program defines is declared in
#   include/fray/ (issue 42 item 4: an internal helper is frayi_, so a new
#   one named fray_ fails here), and no public header names a frayi_ one.
# A library that is missing, or that nm cannot read, fails the test (it once
# passed, nm's error and an empty list looking like a clean library).
# AddressSanitizer adds an "__odr_asan.NAME" beside each global NAME: NAME is
# what is checked.
# usage: exports.sh LIBFRAY.so LIBFRAY.a INCLUDE_DIR [PROGRAM...]
#   (PROGRAM: fray, libfray_serve.a: objects that may define globals too)
set -u
shared=$1 static=$2 include=$3
shift 3
status=0

# Unprefixed globals allowed for now: none (the catalogue's were renamed
# frayi_ by issue 30). A name may join only with a reason beside it.
allowed=""

# the global names nm lists (one a line), or exit 1 when it cannot read $2
globals() {
	if [ ! -f "$2" ]; then
		echo "exports: $2: no such library (build it first)"
		exit 1
	fi
	out=$(nm $1 "$2") || { echo "exports: nm $1 $2 failed"; exit 1; }
	printf '%s\n' "$out" | awk 'NF == 3 {print $3}' | sed 's/^__odr_asan\.//' | sort -u
}

names=$(globals "-D --defined-only" "$shared") || { echo "$names"; exit 1; }
if ! printf '%s\n' "$names" | grep -qx 'fray_version'; then
	echo "exports: $shared does not export fray_version: not the library?"
	status=1
fi
bad=$(printf '%s\n' "$names" | grep -v '^fray_')
if [ -n "$bad" ]; then
	echo "exports: $shared exports names outside fray_*:"
	printf '  %s\n' $bad
	status=1
fi

names=$(globals "-g --defined-only" "$static") || { echo "$names"; exit 1; }
if ! printf '%s\n' "$names" | grep -qx 'fray_version'; then
	echo "exports: $static does not define fray_version: not the library?"
	status=1
fi
bad=""
for n in $(printf '%s\n' "$names" | grep -v '^fray_' | grep -v '^frayi_'); do
	case " $(echo $allowed) " in
	*" $n "*) ;;
	*) bad="$bad $n" ;;
	esac
done
if [ -n "$bad" ]; then
	echo "exports: $static defines globals outside fray_* and frayi_* (prefix them frayi_, or make them static):"
	printf '  %s\n' $bad
	status=1
fi
# What include/fray/ declares: its headers through the preprocessor (no
# comments, so a name only mentioned in one does not count), every word
# fray_* or frayi_* in them.
hdrs=$(mktemp) || exit 1
trap 'rm -f "$hdrs"' EXIT
for h in "$include"/fray/*.h; do
	echo "#include <fray/${h##*/}>"
done >"$hdrs.c"
decl=$(${CC:-cc} -std=c17 -E -P -I "$include" "$hdrs.c") || { echo "exports: cannot preprocess $include/fray/*.h"; rm -f "$hdrs.c"; exit 1; }
rm -f "$hdrs.c"
printf '%s\n' "$decl" | grep -oE '\bfrayi?_[A-Za-z0-9_]+' | sort -u >"$hdrs"
if ! grep -qx 'fray_version' "$hdrs"; then
	echo "exports: $include/fray/*.h declare no fray_version: not the headers?"
	status=1
fi
bad=$(grep '^frayi_' "$hdrs")
if [ -n "$bad" ]; then
	echo "exports: public headers name internal (frayi_) names:"
	printf '  %s\n' $bad
	status=1
fi
undeclared=""
for obj in "$static" "$@"; do
	g=$(globals "-g --defined-only" "$obj") || { echo "$g"; exit 1; }
	for n in $(printf '%s\n' "$g" | grep '^fray_' | grep -vxF -f "$hdrs"); do
		undeclared="$undeclared $n(${obj##*/})"
	done
done
if [ -n "$undeclared" ]; then
	echo "exports: globals named fray_* that no header of $include/fray/ declares (an internal"
	echo "helper is frayi_: rename it, scripts/rename_internal.sh; or make it static):"
	printf '  %s\n' $undeclared
	status=1
fi

# a name renamed or made static since: said, so the list only shrinks
for n in $allowed; do
	if ! printf '%s\n' "$names" | grep -qx "$n"; then
		echo "exports: $n is no longer global: take it off the allow-list"
		status=1
	fi
done
exit $status
