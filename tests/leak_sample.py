"""Leak checks on a sample of a test's many fray runs.

LeakSanitizer scans the heap at each ASan fray's exit: about half the
CPU of a short run (45 runs of `fray odds 3d6 --json`: 4.2 s with the
scan, 2.1 s without, docs/performance.md). A test that starts hundreds of
runs of the same commands (a whole game through `fray table`, random
command lines) keeps the scan on its first run and every LEAK_EVERY-th
after, the same runs for the same seed, and turns it off on the others;
every other test keeps it on every run. In a Release build the variable
is read by nothing."""
import os

LEAK_EVERY = 4
_runs = 0


def run_env():
    """The environment of the next fray run: None (this process's own,
    leak checks as the test was started with) on a sampled run, else a
    copy with detect_leaks=0 added to ASAN_OPTIONS."""
    global _runs
    _runs += 1
    if (_runs - 1) % LEAK_EVERY == 0:
        return None
    env = dict(os.environ)
    env["ASAN_OPTIONS"] = ":".join(o for o in (env.get("ASAN_OPTIONS", ""), "detect_leaks=0") if o)
    return env
