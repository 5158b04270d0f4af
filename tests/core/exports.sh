#!/bin/sh
# The library's symbols (STYLE.md, API conventions; issue 30 item 3):
#   libfray.so exports fray_* only (the public API; everything else is hidden);
#   libfray.a defines no global outside fray_* (public) and frayi_* (internal:
#   shared between the library's files, never API; docs/design.md, Symbols).
# A library that is missing, or that nm cannot read, fails the test (it once
# passed, nm's error and an empty list looking like a clean library).
# AddressSanitizer adds an "__odr_asan.NAME" beside each global NAME: NAME is
# what is checked.
# usage: exports.sh LIBFRAY.so LIBFRAY.a
set -u
shared=$1 static=$2
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
# a name renamed or made static since: said, so the list only shrinks
for n in $allowed; do
	if ! printf '%s\n' "$names" | grep -qx "$n"; then
		echo "exports: $n is no longer global: take it off the allow-list"
		status=1
	fi
done
exit $status
