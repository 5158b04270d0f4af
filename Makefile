# fray: the two commands. Everything else is CMake (see README.md).
#   make demo   set up, build, and show fray at work
#   make test   set up, build with ASan+UBSan, run every test (and the
#               fuzzers briefly when clang is present)
#   make site   the static page with libfray in WebAssembly, in build/site
#               (docs/site.md); make site-archive: the same as a dated zip
JOBS   ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE  ?= cmake

.PHONY: all demo test test-side deps deps-test build memcheck bench exact-battles site site-archive site-test clean

all: build

# what builds fray (all make demo needs); deps-test adds the tests' own
# (Python modules, headless Chromium, zbar-tools): only make test asks them
deps:
	@scripts/deps.sh

deps-test:
	@scripts/deps.sh --test

# the build log is shown only when the build fails
build: deps
	@$(CMAKE) -S . -B build -DCMAKE_BUILD_TYPE=Release -DFRAY_WERROR=OFF >/dev/null
	@echo "building fray (Release) ..."
	@$(CMAKE) --build build -j $(JOBS) > build/build.log 2>&1 || { cat build/build.log; exit 1; }

demo: build
	@scripts/demo.sh build/fray

# make test says how far in each phase ended (docs/performance.md keeps them)
TEST_BEGAN := $(shell date +%s)
phase = @echo "make test: $(1) at +$$(($$(date +%s) - $(TEST_BEGAN))) s"

test: deps-test
	$(call phase,dependencies checked)
	@# linked without PIE: each ASan fray the tests start (thousands) then has no
	@# relocations to apply to its 4.7 MB of sanitizer data at start-up, a fifth of
	@# the CPU of a short run; the checks are the same
	@# While the ASan build and then its tests run, the rest builds at the
	@# lowest priority on the CPU they leave idle (the build's configure and
	@# links, the tests' server, browser and leak-check waits), its output
	@# shown after them (test-side): the Release build, the whole-battle exact
	@# odds against simulation, the static site (WebAssembly) and the fuzz
	@# targets. It starts with the ASan build (its own build folders), not
	@# after it, so less of it is left when the tests end. Waited for whatever
	@# the build and the tests say, so nothing is left running.
	@mkdir -p build-asan && rm -f build-asan/test-side.log build-asan/test-side.status
	@echo "the ASan build and tests, while the Release build, the exact battles, the site and the fuzz targets build beside them at low priority ..."
	@{ nice -n 19 $(MAKE) --no-print-directory test-side > build-asan/test-side.log 2>&1; \
	   echo $$? > build-asan/test-side.status; } & side=$$!; \
	 echo "$(CMAKE) -S . -B build-asan ... && $(CMAKE) --build build-asan -j $(JOBS)"; \
	 $(CMAKE) -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DFRAY_SANITIZE=ON -DFRAY_WERROR=ON -DFRAY_BENCH=OFF \
	   -DCMAKE_EXE_LINKER_FLAGS=-no-pie && $(CMAKE) --build build-asan -j $(JOBS); asan=$$?; \
	 echo "make test: the ASan build at +$$(($$(date +%s) - $(TEST_BEGAN))) s"; \
	 if test $$asan -eq 0; then \
	   ctest --test-dir build-asan --output-on-failure -j $(JOBS) -LE release; asan=$$?; \
	   echo "make test: the ASan tests at +$$(($$(date +%s) - $(TEST_BEGAN))) s"; \
	 fi; \
	 wait $$side; echo "---- beside the ASan build and tests:"; cat build-asan/test-side.log; \
	 test $$asan -eq 0 && test "$$(cat build-asan/test-side.status)" -eq 0
	$(call phase,the builds beside them)
	@# then four groups at once (scripts/test-last.sh): the tests labelled
	@# release (statistics and rules over many seeds: minutes under ASan,
	@# seconds optimised; the code they run is under ASan in other tests; the
	@# page's behaviour in Chromium) and the memory-limit test (no limit fits
	@# AddressSanitizer); the static site as the archive unzipped, in Chromium
	@# and node, its safety cases and the fork prompt; the fuzzers
	scripts/test-last.sh $(JOBS) build/fray-site.zip
	$(call phase,the last phase)

# make test's work beside its ASan tests (run there at nice 19): the Release
# build's fray and the two tests labelled release that need their own
# targets; then the whole-battle exact odds against 200,000 simulated
# battles (mostly one core: the Python reference) beside the site as an
# archive and the fuzz
# targets only (fuzz/CMakeLists.txt's fray_fuzz lines), not the fray
# command, the server library or the shared library, which no fuzz test
# runs (a fifth of that build's CPU)
test-side:
	$(CMAKE) -S . -B build -DCMAKE_BUILD_TYPE=Release -DFRAY_WERROR=OFF >/dev/null
	$(CMAKE) --build build -j $(JOBS) --target fray test_enum_estimate test_adbg_exact_merge
	@# the exact battles (one core) beside the two builds, their output after
	@# and Lochry with 1 more unit (issue 45 item 1) against a million battles
	@{ python3 tests/reference/exact_battle.py build/fray 200000 examples/adbg/*.yaml \
	     bench/adbg/blue-licks-doubled.yaml --too-big bench/adbg/blue-licks-doubled-surprised.yaml && \
	   python3 tests/reference/exact_battle.py build/fray 1000000 bench/adbg/lochry-plus1.yaml; \
	 } > build/exact-battles.log 2>&1 & exact=$$!; \
	 $(MAKE) --no-print-directory site-archive SITE_ARCHIVE=build/fray-site.zip && \
	 if command -v clang >/dev/null 2>&1; then \
	   $(CMAKE) -S . -B build-fuzz -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=Debug \
	     -DFRAY_FUZZ=ON -DFRAY_TESTS=OFF -DFRAY_BENCH=OFF -DFRAY_WERROR=ON && \
	   $(CMAKE) --build build-fuzz -j $(JOBS) --target \
	     $$(sed -n 's/^fray_fuzz(\(fuzz_[a-z_]*\).*/\1/p' fuzz/CMakeLists.txt); \
	 fi; builds=$$?; wait $$exact; battles=$$?; \
	 echo "python3 tests/reference/exact_battle.py build/fray 200000 ..."; cat build/exact-battles.log; \
	 test $$builds -eq 0 && test $$battles -eq 0

# The static site: page/ and libfray in WebAssembly (src/wasm/), a folder any
# static host serves as it is. The dependencies' emscripten builds are cached
# outside the tree (scripts/wasm-deps.sh); Debian's emscripten finds its node
# modules only with NODE_PATH when another node comes first.
SITE     ?= build/site
EMS_ENV   = NODE_PATH=/usr/share/nodejs$${NODE_PATH:+:$$NODE_PATH}
site:
	@deps=$$(scripts/wasm-deps.sh) && \
	  $(EMS_ENV) emcmake $(CMAKE) -S src/wasm -B build-wasm -DCMAKE_BUILD_TYPE=Release -DFRAY_WASM_DEPS=$$deps >/dev/null
	@echo "building libfray.wasm ..."
	@$(EMS_ENV) $(CMAKE) --build build-wasm -j $(JOBS) > build-wasm/build.log 2>&1 || { cat build-wasm/build.log; exit 1; }
	@# the page and the build, stamped with a build id (the cache's name, ?v= on the assets)
	@id=$$(scripts/site-assemble.sh page build-wasm $(SITE)) && \
	  echo "the static site is in $(SITE), build $$id (serve it: python3 -m http.server -d $(SITE))"

# the site as one dated zip that any static host or a USB stick serves as it
# is (unzip -d fray-site THE.zip, then python3 -m http.server -d fray-site); Python's
# own zipfile, so no new dependency
SITE_ARCHIVE ?= build/fray-site-$(shell date -u +%Y-%m-%d).zip
site-archive: site
	@rm -f $(SITE_ARCHIVE) && cd $(SITE) && python3 -m zipfile -c $(abspath $(SITE_ARCHIVE)) .
	@echo "the static site is in $(SITE_ARCHIVE)"

# the site in headless Chromium from a plain static server, against `fray request`
site-test: site build
	/usr/bin/python3 tests/site/site_test.py build/fray $(SITE)
	/usr/bin/python3 tests/site/page_safety_test.py build/fray $(SITE)
	/usr/bin/python3 tests/site/fork_prompt_test.py build/fray $(SITE)

# the CLI tests (and every fray they start) under valgrind: no errors, no leaks
memcheck:
	@scripts/deps.sh --test valgrind
	$(CMAKE) -S . -B build-memcheck -DCMAKE_BUILD_TYPE=Debug -DFRAY_WERROR=ON -DFRAY_BENCH=OFF
	$(CMAKE) --build build-memcheck -j $(JOBS)
	scripts/memcheck.sh build-memcheck

bench: build
	build/bench/bench_dice
	build/bench/bench_battle
	build/bench/bench_odds
	build/bench/bench_exact

# Whole-battle exact odds of the shipped scenarios against 200,000 simulated
# battles each (about 20 s; `make test` runs it too).
exact-battles: build
	python3 tests/reference/exact_battle.py build/fray 200000 examples/adbg/*.yaml --too-big bench/adbg/blue-licks-doubled.yaml
	python3 tests/reference/exact_battle.py build/fray 1000000 bench/adbg/lochry-plus1.yaml

clean:
	rm -rf build build-asan build-fuzz build-memcheck build-wasm
