#!/bin/sh
# make memcheck: the command-line tests, and every fray they start, under
# valgrind. Any memory error or leak (definite, indirect or possible) makes
# the fray it happened in exit 99, which fails its test.
set -e
build=${1:-build-memcheck}
status=0
for t in "$build"/tests/test_cli*; do
	[ -x "$t" ] || continue
	echo "memcheck: $t"
	valgrind -q --trace-children=yes --error-exitcode=99 --leak-check=full \
		--errors-for-leak-kinds=definite,indirect,possible \
		--show-leak-kinds=definite,indirect,possible "$t" || status=1
done
[ $status = 0 ] && echo "memcheck: no errors, no leaks"
exit $status
