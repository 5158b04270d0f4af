#!/bin/sh
# make memcheck: the command-line tests and the request test, and every fray they start, under
# valgrind; then every --json command of tests/json/cases.txt the same way.
# Any memory error or leak (definite, indirect or possible) makes the fray
# it happened in exit 99, which fails its test.
set -e
build=${1:-build-memcheck}
vg="valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect,possible --show-leak-kinds=definite,indirect,possible"
status=0
for t in "$build"/tests/test_cli* "$build"/tests/test_request; do
	[ -x "$t" ] || continue
	echo "memcheck: $t"
	$vg --trace-children=yes "$t" || status=1
done
# validate.py runs one program: a wrapper puts each fray under valgrind
if /usr/bin/python3 -c "import jsonschema" 2>/dev/null; then
	echo "memcheck: tests/json (every --json command)"
	wrapper=$(cd "$build" && pwd)/fray-under-valgrind
	printf '#!/bin/sh\nexec %s "%s" "$@"\n' "$vg" "$(cd "$build" && pwd)/fray" >"$wrapper"
	chmod +x "$wrapper"
	/usr/bin/python3 tests/json/validate.py "$wrapper" "$(pwd)" || status=1
else
	echo "memcheck: python3-jsonschema missing: tests/json skipped" >&2
fi
[ $status = 0 ] && echo "memcheck: no errors, no leaks"
exit $status
