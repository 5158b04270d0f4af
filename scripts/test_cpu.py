#!/usr/bin/env python3
"""Each ctest test's CPU time (user + system of the test and every process
it starts), wall time and the load average, for measuring `make test` on a
shared machine (docs/performance.md): wall clock moves with the other
users' load, CPU time barely does.

    scripts/test_cpu.py BUILD_DIR [-j N] [-R REGEX] [-L LABEL] [-E REGEX] [-LE LABEL] [--csv FILE]

Each test runs through `ctest -R ^NAME$` under a child subreaper, so the
processes a test leaves behind (a browser's helpers outliving its driver)
are reaped here and their CPU counted too. N tests at a time (default 1).
"""
import argparse
import concurrent.futures
import ctypes
import os
import re
import resource
import subprocess
import sys
import time

PR_SET_CHILD_SUBREAPER = 36


def one(build, name):
    """(name, cpu, wall, status) of one test, from a child that is the
    subreaper of everything the test starts."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
        t0 = time.monotonic()
        p = subprocess.Popen(["ctest", "--test-dir", build, "-R", "^%s$" % re.escape(name), "--output-on-failure"],
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        out = p.communicate()[0]
        wall = time.monotonic() - t0
        # orphans (reparented here) until none is left
        while True:
            try:
                os.wait()
            except ChildProcessError:
                break
        ru = resource.getrusage(resource.RUSAGE_CHILDREN)
        ok = b"100% tests passed" in out
        os.write(w, ("%f %f %d\n" % (ru.ru_utime + ru.ru_stime, wall, 0 if ok else 1)).encode())
        if not ok:
            sys.stderr.buffer.write(out[-4000:])
        os._exit(0)
    os.close(w)
    data = b""
    while True:
        chunk = os.read(r, 4096)
        if not chunk:
            break
        data += chunk
    os.close(r)
    os.waitpid(pid, 0)
    cpu, wall, status = data.split()
    return name, float(cpu), float(wall), int(status)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("build")
    ap.add_argument("-j", type=int, default=1)
    ap.add_argument("-R")
    ap.add_argument("-E")
    ap.add_argument("-L")
    ap.add_argument("-LE", dest="LE")
    ap.add_argument("--csv")
    a = ap.parse_args()
    args = ["ctest", "--test-dir", a.build, "-N"]
    for flag in ("R", "E", "L", "LE"):
        if getattr(a, flag):
            args += ["-" + flag, getattr(a, flag)]
    listing = subprocess.run(args, capture_output=True, text=True, check=True).stdout
    names = re.findall(r"Test\s+#\d+: (\S+)", listing)
    load0 = os.getloadavg()
    t0 = time.monotonic()
    rows = []
    with concurrent.futures.ThreadPoolExecutor(a.j) as ex:
        for row in ex.map(lambda n: one(a.build, n), names):
            rows.append(row)
            print("%-40s %8.1f s CPU %8.1f s wall %s  load %.1f" %
                  (row[0], row[1], row[2], "ok" if row[3] == 0 else "FAILED", os.getloadavg()[0]), flush=True)
    total = time.monotonic() - t0
    rows.sort(key=lambda r: -r[1])
    print("\n%d tests, %.1f s CPU, %.1f s wall (-j%d); load at start %.1f %.1f %.1f, at end %.1f %.1f %.1f" %
          ((len(rows), sum(r[1] for r in rows), total, a.j) + load0 + os.getloadavg()))
    for r in rows[:25]:
        print("  %-40s %7.1f s CPU %7.1f s wall%s" % (r[0], r[1], r[2], "" if r[3] == 0 else "  FAILED"))
    if a.csv:
        with open(a.csv, "w") as f:
            f.write("test,cpu,wall,failed\n")
            for r in rows:
                f.write("%s,%.2f,%.2f,%d\n" % r)
    return 1 if any(r[3] for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
