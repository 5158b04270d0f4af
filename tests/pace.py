"""Wall-clock limits that hold on a slow or busy machine (issue 41 case 12).

A test's work is bounded by counts; a limit in seconds is only there to
catch a hang. It is given as what the wait may take on a quiet machine and
scaled by the machine's pace now: a calibration run of fray (its catalogue,
a fixed piece of work) whose wall-clock time is divided by the CPU time it
used. On a quiet machine that is about 1; with load 15 on 2 cores it is 7 or
more, and every limit grows with it. A limit that runs out is measured
again before it is called a failure, so load that rises during a test
(another `make test` starting beside it) is seen too. The pace is capped
(MAX_PACE): a hang is still caught, only later.

    pace = Pace(fray)
    pace.limit(60)                          # seconds, scaled
    pace.run([fray, ...], 60, ...)          # subprocess.run, a scaled timeout
    pace.until(lambda: cond() or None, 60, "what")   # polls, 0.1 s"""
import os
import subprocess
import time

MAX_PACE = 40


class Pace:
    def __init__(self, fray, runs=3):
        self.fray = fray
        self.runs = runs
        self.pace = self.measure()

    def measure(self):
        """Wall-clock time over CPU time of a calibration run of fray (at
        least 1, at most MAX_PACE)."""
        wall = cpu = 0.0
        for _ in range(self.runs):
            t0 = time.monotonic()
            p = subprocess.Popen([self.fray, "procedures", "--json"], stdout=subprocess.DEVNULL,
                                 stderr=subprocess.DEVNULL)
            _, status, usage = os.wait4(p.pid, 0)
            p.returncode = os.waitstatus_to_exitcode(status)
            wall += time.monotonic() - t0
            cpu += usage.ru_utime + usage.ru_stime
            if p.returncode != 0:
                raise SystemExit("pace: %s procedures --json exited %d" % (self.fray, p.returncode))
        self.pace = min(MAX_PACE, max(1.0, wall / max(cpu, 1e-3)))
        return self.pace

    def limit(self, seconds):
        return seconds * self.pace

    def _extended(self, start, seconds):
        """After a limit ran out: measured again, whether the new limit
        (from start) is still ahead."""
        self.measure()
        return time.monotonic() - start < self.limit(seconds)

    def until(self, cond, seconds, what):
        """cond()'s first true value, polled every 0.1 s within the scaled
        limit; TimeoutError naming what past it."""
        start = time.monotonic()
        while True:
            got = cond()
            if got:
                return got
            if time.monotonic() - start >= self.limit(seconds) and not self._extended(start, seconds):
                raise TimeoutError("%s: not within %.0f s (%.0f s on a quiet machine, pace %.1f)" %
                                   (what, self.limit(seconds), seconds, self.pace))
            time.sleep(0.1)

    def run(self, args, seconds, input=None, **kw):
        """subprocess.run(args, **kw) within the scaled limit: a run past
        it is killed and TimeoutError raised."""
        if kw.pop("capture_output", False):
            kw["stdout"] = kw["stderr"] = subprocess.PIPE
        start = time.monotonic()
        with subprocess.Popen(args, stdin=subprocess.PIPE if input is not None else None, **kw) as p:
            feed = input
            while True:
                try:
                    out, err = p.communicate(feed, timeout=max(0.1, start + self.limit(seconds) - time.monotonic()))
                    break
                except subprocess.TimeoutExpired:
                    feed = None  # communicate keeps what it has not sent yet
                    if not self._extended(start, seconds):
                        p.kill()
                        p.communicate()
                        raise TimeoutError("%s: still running after %.0f s (%.0f s on a quiet machine, pace %.1f)"
                                           % (" ".join(map(str, args[:4])), time.monotonic() - start, seconds,
                                              self.pace))
            return subprocess.CompletedProcess(args, p.returncode, out, err)
