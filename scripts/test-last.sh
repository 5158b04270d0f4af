#!/bin/sh
# make test's last phase, after the ASan tests and the builds beside them:
# four groups at once, each with its own log, printed after all end in a
# fixed order with each group's seconds and status:
#   release  the Release build's tests (label release) and the memory limit;
#   site     the static site in headless Chromium and node, as the archive
#            unzipped (what a host gets);
#   safety   the same site's safety cases, then the fork prompt (each its
#            own Chromium: mostly waits, the page's 10 s budget among them);
#   fuzz     the fuzzers, each for its seconds, one at a time.
# They overlap well: the browser tests spend most of their time waiting on
# Chromium, the server and their polls (serve/page: 79 s of wall clock, 35 s
# of CPU), and a fuzzer runs for its seconds whatever share of a core it
# gets. One after the other they took 4.6 minutes on 2 cores.
# usage: scripts/test-last.sh JOBS SITE_ARCHIVE   (run from the source tree)
set -u
jobs=$1
archive=$2
logs=build/test-last
rm -rf "$logs" && mkdir -p "$logs"

group() { # name command...: the command's output to the group's log, then its status and seconds
	name=$1
	shift
	began=$(date +%s)
	"$@" > "$logs/$name.log" 2>&1
	echo "$? $(($(date +%s) - began))" > "$logs/$name.status"
}

safety() {
	fail=0
	/usr/bin/python3 tests/site/page_safety_test.py build/fray build/site-unzipped || fail=1
	/usr/bin/python3 tests/site/fork_prompt_test.py build/fray build/site-unzipped || fail=1
	return $fail
}

fuzz() {
	if command -v clang > /dev/null 2>&1; then
		ctest --test-dir build-fuzz --output-on-failure -j 1
	else
		echo "clang not found: fuzz targets skipped (apt-get install clang)"
	fi
}

rm -rf build/site-unzipped && python3 -m zipfile -e "$archive" build/site-unzipped || exit 1
group release ctest --test-dir build --output-on-failure -j "$jobs" -L 'memlimit|release' &
group site /usr/bin/python3 tests/site/site_test.py build/fray build/site-unzipped &
group safety safety &
group fuzz fuzz &
wait

status=0
for name in release site safety fuzz; do
	read -r rc seconds < "$logs/$name.status" || rc=1 seconds=?
	echo "---- $name: exit $rc after $seconds s"
	cat "$logs/$name.log"
	[ "$rc" -eq 0 ] || status=1
done
exit $status
