#!/usr/bin/python3
"""fray serve's api/v1/game (1 MiB bodies, fray_game_request) against a
client trying to take the server down; every client is on this machine
(127.0.0.N). Usage: FRAY [CASE...] (cases: flood, stall; all by default)
  flood  64 connections (8 addresses x 8) each posting a 1 MiB game body
         at once: every one answered (400/413/503, never a dropped
         connection; one past its address's share of the pool is answered
         503 at once), another client's GET of the page still answered
         (within 25 times a GET alone, 5 s at least),
         and the server's RSS grows by less than the budget table says
         (docs/serve.md: 64 connections' bodies, the answers' budget)
  stall  4 clients posting 1 MiB bodies that are slow to read (a list of
         a million values, nested brackets) one after another: the
         page's GETs answer while they are read, not after (abuse_test.py
         not_held: 9 GETs in 10 within a quarter of a slow body's
         time, or 200 ms), as they do while heavy exact odds run"""
import json
import os
import socket
import sys
import threading
import time

from abuse_test import calibrate, median, not_held, rss_mib, timed_get
from security_test import call, check, failures
from serve_util import Server

JTYPE = {"Content-Type": "application/json"}
MIB = 1 << 20


def slow_body(kind):
    """A body just under 1 MiB that the JSON reader works through before it refuses."""
    if kind == 0:
        return '{"op": "status", "options": [' + ",".join(["1"] * (MIB // 2 - 32)) + "]}"
    return '{"op": "status", "game": ' + "[" * (MIB // 2 - 32) + "]" * (MIB // 2 - 32) + "}"


def post_raw(port, source, body, answers):
    """POST body to api/v1/game on a connection of its own; the status or the failure."""
    try:
        s = socket.create_connection(("127.0.0.1", port), timeout=60, source_address=(source, 0))
        head = ("POST /api/v1/game HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nContent-Type: application/json\r\n"
                "Content-Length: %d\r\nConnection: close\r\n\r\n" % (port, len(body))).encode()
        try:
            s.sendall(head + body)
        except OSError:  # answered and closed before the body was all sent (a refusal): the answer is read
            pass
        got = b""
        try:
            while True:
                data = s.recv(65536)
                if not data:
                    break
                got += data
        except OSError:
            if not got:
                raise
        s.close()
        answers.append(int(got.split(b" ", 2)[1]) if got.startswith(b"HTTP/1.1 ") else "no answer %r" % got[:80])
    except OSError as e:
        answers.append(str(e))


def case_flood(fray):
    # under ASan freed memory waits in its quarantine (256 MiB): none here, so the RSS is what is held
    asan = os.environ.get("ASAN_OPTIONS", "")
    os.environ["ASAN_OPTIONS"] = (asan + ":" if asan else "") + "quarantine_size_mb=0"
    srv = Server(fray)
    os.environ["ASAN_OPTIONS"] = asan
    p = srv.port
    calib = calibrate(p, source="127.0.0.99")
    before = rss_mib(srv.proc.pid)
    # a body of 1 MiB less a little: JSON text the reader reads whole before it refuses it
    body = ('{"op": "status", "game": "' + "x" * (MIB - 64) + '", "nope": 1}').encode()
    assert len(body) <= MIB
    answers, threads = [], []
    for k in range(64):
        t = threading.Thread(target=post_raw, args=(p, "127.0.0.%d" % (30 + k // 8), body, answers))
        threads.append(t)
        t.start()
    peak = before
    got, took = timed_get(p, source="127.0.0.99")
    while any(t.is_alive() for t in threads):
        peak = max(peak, rss_mib(srv.proc.pid))
        time.sleep(0.05)
    for t in threads:
        t.join()
    peak = max(peak, rss_mib(srv.proc.pid))
    # its bound scaled by the calibration (5 s on a quiet machine: 25 times a GET alone)
    bound = max(5, 25 * max(calib))
    check(got == 200 and took < bound, "flood: another client's GET while 64 post 1 MiB: %s in %.2f s (bound %.1f s)"
          % (got, took, bound))
    check(len(answers) == 64 and all(a in (400, 503) for a in answers),
          "flood: the 64 posts' answers: %s" % sorted((str(a), answers.count(a)) for a in set(answers)))
    # docs/serve.md: 64 connections of at most 128 KiB (HTTP) and 1 MiB (a body): 72 MiB, twice for the
    # allocator's slack, and 3 workers reading a 1 MiB string (a few MiB each)
    check(peak - before < 2 * 72 + 3 * 16, "flood: RSS %.0f -> %.0f MiB at its peak" % (before, peak))
    print("flood: RSS %.0f -> %.0f MiB at its peak; answers %s" % (before, peak, sorted(set(map(str, answers)))))
    srv.stop()


def case_stall(fray):
    srv = Server(fray)
    p = srv.port
    until, answers, work = time.time() + 10, [], []

    def staller(source, kind):
        while time.time() < until:
            t = time.time()
            post_raw(p, source, slow_body(kind).encode(), answers)
            work.append(time.time() - t)

    threads = [threading.Thread(target=staller, args=("127.0.0.%d" % (40 + k), k % 2)) for k in range(4)]
    for t in threads:
        t.start()
    time.sleep(1.5)  # the slow bodies are being read
    times, bad = [], []
    while time.time() < until - 1:
        got, took = timed_get(p)
        times.append(took)
        if got != 200:
            bad.append(got)
        time.sleep(0.1)
    for t in threads:
        t.join()
    worst = max(times)
    check(not bad and not_held(times, work), "stall: the page's GETs while slow game bodies are read: worst %.3f s, "
          "median %.3f s; a slow body took %.2f s (median of %d), not 200: %s"
          % (worst, median(times), median(work or [0]), len(work), bad))
    check(answers and all(a in (400, 422, 503) for a in answers), "stall: their answers: %s" %
          sorted((str(a), answers.count(a)) for a in set(answers)))
    print("stall: worst GET %.3f s; %d slow bodies answered" % (worst, len(answers)))
    srv.stop()


CASES = {"flood": case_flood, "stall": case_stall}


def main():
    fray = sys.argv[1]
    for name in sys.argv[2:] or CASES:
        t = time.time()
        before = len(failures)
        CASES[name](fray)
        print("%s: %s (%.1f s)" % (name, "ok" if len(failures) == before else "FAILED", time.time() - t))
    print("serve game adversary: %d failures" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
