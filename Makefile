# fray: the two commands. Everything else is CMake (see README.md).
#   make demo   set up, build, and show fray at work
#   make test   set up, build with ASan+UBSan, run every test (and the
#               fuzzers briefly when clang is present)
JOBS   ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE  ?= cmake

.PHONY: all demo test deps build memcheck bench exact-battles clean

all: build

deps:
	@scripts/deps.sh

# the build log is shown only when the build fails
build: deps
	@$(CMAKE) -S . -B build -DCMAKE_BUILD_TYPE=Release -DFRAY_WERROR=OFF >/dev/null
	@echo "building fray (Release) ..."
	@$(CMAKE) --build build -j $(JOBS) > build/build.log 2>&1 || { cat build/build.log; exit 1; }

demo: build
	@scripts/demo.sh build/fray

test: deps
	$(CMAKE) -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DFRAY_SANITIZE=ON -DFRAY_WERROR=ON -DFRAY_BENCH=OFF
	$(CMAKE) --build build-asan -j $(JOBS)
	ctest --test-dir build-asan --output-on-failure -j $(JOBS)
	@# the memory-limit test needs a build without AddressSanitizer
	$(CMAKE) -S . -B build -DCMAKE_BUILD_TYPE=Release -DFRAY_WERROR=OFF >/dev/null
	$(CMAKE) --build build -j $(JOBS) --target fray
	ctest --test-dir build --output-on-failure -L memlimit
	@# whole-battle exact odds against simulation: seconds optimised, minutes under ASan
	python3 tests/reference/exact_battle.py build/fray 200000 examples/adbg/*.yaml
	@if command -v clang >/dev/null 2>&1; then \
	  $(CMAKE) -S . -B build-fuzz -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=Debug \
	    -DFRAY_FUZZ=ON -DFRAY_TESTS=OFF -DFRAY_BENCH=OFF -DFRAY_WERROR=ON && \
	  $(CMAKE) --build build-fuzz -j $(JOBS) && \
	  ctest --test-dir build-fuzz --output-on-failure; \
	else echo "clang not found: fuzz targets skipped (apt-get install clang)"; fi

# the CLI tests (and every fray they start) under valgrind: no errors, no leaks
memcheck:
	@scripts/deps.sh valgrind
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
	python3 tests/reference/exact_battle.py build/fray 200000 examples/adbg/*.yaml

clean:
	rm -rf build build-asan build-fuzz build-memcheck
