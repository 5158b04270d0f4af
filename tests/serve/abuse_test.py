#!/usr/bin/python3
"""fray serve against one client trying to take it down (issue 29), case by
case; every client is on this machine (127.0.0.N: the server tells clients
apart by address). Usage: FRAY [CASE...] (cases: slow, lan, compute,
memory, cap, chunked, budget0; all by default)
  slow     64 slow connections from one address do not lock another out
           (its share of the pool), and a client trickling its headers is cut at
           the request's deadline (10 s), not kept alive by each byte
  lan      --lan: a request line without the token is answered 403 and
           dropped before its headers come
  compute  heavy exact odds from a few clients: GETs of the page answer
           while they run, not after (not_held: 9 GETs in 10 within a
           quarter of a heavy request's time, or 200 ms)
  memory   60 GETs of a finished job's 5 MB answer share it (the old
           server built a copy at 8x for each); past --memory a job's
           answer is refused (503, the budget named); a DELETE frees it
  cap      the 64 MiB answer cap is a budget: 422 naming it, not 503
           "out of memory"
  chunked  a chunked body past 64 KiB is answered 413, like a long
           Content-Length
  budget0  adbg.battle's "budget": 0 simulates at once (it walked a
           million paths first)
  slowbody a body trickled a byte every 0.5 s after its headers is cut at
           the request's deadline (10 s) too
  blanks   a game body of 1 MiB of blank lines is refused in seconds (the
           YAML reader took time as the square of their number: hours)
  gameodds a game's odds of a melee of 1000 figures a side stop at the
           time budget (they held a worker 88 s, optimised)"""
import http.client
import json
import socket
import sys
import threading
import time

from security_test import call, check, failures, run_cases
from serve_util import Server

JTYPE = {"Content-Type": "application/json"}


def rss_mib(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0


def connect(port, source):
    s = socket.create_connection(("127.0.0.1", port), timeout=30, source_address=(source, 0))
    return s


def closed_within(s, seconds):
    """Whether the server closes s (EOF or reset) within seconds; what it sent."""
    s.settimeout(0.2)
    end, got = time.time() + seconds, b""
    while time.time() < end:
        try:
            data = s.recv(4096)
        except socket.timeout:
            continue
        except OSError:
            return True, got
        if not data:
            return True, got
        got += data
    return False, got


def timed_get(port, path="/", source="127.0.0.1"):
    t = time.time()
    try:
        got, _, _ = call(port, "GET", path, source=source)
    except OSError:
        got = 0
    return got, time.time() - t


def calibrate(port, n=20, source="127.0.0.1"):
    """n GETs of the page one after another on a server doing nothing else:
    how long this machine, as loaded as it is now, takes to answer one."""
    times = []
    for _ in range(n):
        got, took = timed_get(port, source=source)
        if got == 200:
            times.append(took)
    return sorted(times) or [1.0]


def median(xs):
    return sorted(xs)[len(xs) // 2]


def not_held(times, work, floor=0.2):
    """Whether the page's GETs (times, seconds) were answered while the work
    (the seconds each heavy request took, asked at the same time) went on,
    not after it: nine GETs in ten within a quarter of the work's median, or
    floor (a quiet machine's bound, 200 ms). A ratio, not a time: a loaded
    machine slows both alike (and a scheduler's pause now and then is the
    tenth), while with the HTTP threads held by the work a GET waits for a
    piece of it, most of them longer than that."""
    if not times or not work:
        return False
    ninth = sorted(times)[(len(times) * 9) // 10 - (len(times) % 10 == 0)]
    return ninth <= max(floor, median(work) / 4)


def case_slow(fray):
    srv = Server(fray)
    p = srv.port
    slow, begun = [], time.time()
    for _ in range(64):  # the adversary: one address, 64 connections, a byte now and then
        try:
            s = connect(p, "127.0.0.2")
            s.sendall(b"GET / HTTP/1.1\r\n")
            slow.append(s)
        except OSError:
            pass
    time.sleep(0.3)
    got, took = timed_get(p, source="127.0.0.3")
    # answered before any slow one reaches its deadline (10 s: a place freed by it), whatever the machine's load
    check(got == 200 and time.time() < begun + 10, "slow: another client while 64 slow ones wait: %d in %.2f s, "
          "%.1f s after the first slow one" % (got, took, time.time() - begun))
    for s in slow:
        s.close()
    # a client trickling its headers, a byte every 0.5 s: cut at 10 s
    s = connect(p, "127.0.0.4")
    s.sendall(b"GET / HTTP/1.1\r\n")
    start, cut = time.time(), False
    s.settimeout(0.5)
    while time.time() - start < 30 and not cut:  # the deadline (10 s), or the server's tick late on a loaded machine
        try:
            s.sendall(b"X")
            if s.recv(4096) == b"":
                cut = True
        except socket.timeout:
            pass
        except OSError:
            cut = True
    took = time.time() - start
    check(cut and took < 30, "slow: a trickling client cut at the deadline: cut %s after %.1f s" % (cut, took))
    s.close()
    srv.stop()


def case_lan(fray):
    srv = Server(fray, "--lan")
    s = connect(srv.port, "127.0.0.1")
    s.sendall(b"GET / HTTP/1.1\r\n")  # the request line, no headers (yet)
    closed, got = closed_within(s, 2)
    check(closed and got.startswith(b"HTTP/1.1 403"), "lan: no token, request line only: closed %s, %r" %
          (closed, got[:80]))
    s.close()
    prefix = srv.url.split(str(srv.port), 1)[1]
    got, _, _ = call(srv.port, "GET", prefix, headers={"Host": "192.168.1.20:%d" % srv.port})
    check(got == 200, "lan: with the token: %d" % got)
    srv.stop()


HEAVY = [{"procedure": "presidio.villagers", "mode": "odds", "inputs": {"villagers": 160}},
         {"procedure": "adbg.battle", "mode": "odds", "inputs": {"scenario": "examples/adbg/sandusky-1782.yaml"}},
         {"procedure": "presidio.into_melee", "mode": "odds", "inputs": {"hits": 30, "enemy": 200, "friends": 200}}]


def heavy_client(port, source, until, answers, took=None):
    """Posts heavy exact odds, one after another, until the time is up; the
    seconds each took in took."""
    i = 0
    while time.time() < until:
        t = time.time()
        try:
            got, _, _ = call(port, "POST", "/api/v1/run", json.dumps(HEAVY[i % len(HEAVY)]), JTYPE, source)
        except OSError as e:
            got = str(e)
        answers.append(got)
        if took is not None:
            took.append(time.time() - t)
        i += 1


def case_compute(fray):
    srv = Server(fray)
    p = srv.port
    until, answers, work = time.time() + 10, [], []
    heavy = [threading.Thread(target=heavy_client, args=(p, "127.0.0.%d" % (20 + k), until, answers, work))
             for k in range(4)]
    for t in heavy:
        t.start()
    time.sleep(1.5)  # the heavy ones are computing
    times, bad = [], []
    while time.time() < until - 1:
        got, took = timed_get(p)
        times.append(took)
        if got != 200:
            bad.append(got)
        time.sleep(0.1)
    for t in heavy:
        t.join()
    check(not bad and not_held(times, work), "compute: the page's GETs while heavy odds run: worst %.3f s, median "
          "%.3f s; the heavy ones took %.2f s (median of %d), not 200: %s" % (max(times), median(times),
                                                                            median(work or [0]), len(work), bad))
    check(answers and all(a in (200, 422, 503) for a in answers), "compute: the heavy ones' answers: %s" % answers)
    srv.stop()


BIG = {"procedure": "presidio.villagers", "mode": "odds", "inputs": {"villagers": 200}}  # a 5 MB answer


def start_job(port, request, source="127.0.0.1"):
    got, _, data = call(port, "POST", "/api/v1/jobs", json.dumps(request), JTYPE, source)
    check(got == 202, "a job: %d %r" % (got, data[:200]))
    return json.loads(data).get("id", "0" * 32)


def wait_job(port, job_id, limit=90):
    end = time.time() + limit
    while time.time() < end:
        got, _, data = call(port, "GET", "/api/v1/jobs/" + job_id)
        state = json.loads(data)
        if state.get("state") != "running":
            return state
        time.sleep(0.2)
    check(False, "job %s still running after %d s" % (job_id, limit))
    return {}


def case_memory(fray):
    srv = Server(fray, "--memory", "12")
    p = srv.port
    first = start_job(p, BIG)
    state = wait_job(p, first)
    check(state.get("state") == "done" and len(state.get("result", {}).get("outcomes", [])) > 1000,
          "memory: the big job: %s" % str(state)[:200])
    before = rss_mib(srv.proc.pid)
    # 60 GETs of it at once, none read: 8 addresses (8 connections each at most)
    held = []
    for k in range(60):
        s = connect(p, "127.0.0.%d" % (30 + k // 8))
        s.sendall(("GET /api/v1/jobs/%s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n" % (first, p)).encode())
        held.append(s)
    time.sleep(2)
    after = rss_mib(srv.proc.pid)
    check(after - before < 60, "memory: 60 unread GETs of a 5 MB answer: RSS %.0f -> %.0f MiB" % (before, after))
    for s in held:
        s.close()
    # the budget (12 MiB): a second 5 MB answer fits, a third does not
    second = wait_job(p, start_job(p, BIG))
    check(second.get("state") == "done", "memory: a second answer within the budget: %s" % str(second)[:200])
    third = wait_job(p, start_job(p, BIG))
    check(third.get("state") == "failed" and third.get("status") == 503 and
          "memory budget (12 MiB)" in third.get("error", ""),
          "memory: an answer past the budget: %s" % str(third)[:300])
    got, _, _ = call(p, "DELETE", "/api/v1/jobs/" + first)
    fourth = wait_job(p, start_job(p, BIG))
    check(got == 200 and fourth.get("state") == "done", "memory: after a DELETE it fits: %s" % str(fourth)[:200])
    srv.stop()


def case_cap(fray):
    srv = Server(fray)
    request = {"procedure": "presidio.livestock_return", "mode": "odds", "inputs": {"animals": 500, "search": True}}
    state = wait_job(srv.port, start_job(srv.port, request), 110)
    check(state.get("state") == "failed" and state.get("status") == 422 and "64 MiB" in state.get("error", ""),
          "cap: an answer past 64 MiB: %s" % str(state)[:300])
    srv.stop(120)  # its exit checks a large heap for leaks (ASan): slow on a busy machine


def case_chunked(fray):
    srv = Server(fray)
    c = http.client.HTTPConnection("127.0.0.1", srv.port, timeout=30)
    chunks = (b" " * 16384 for _ in range(6))  # 96 KiB, its size said only at its end
    try:
        c.request("POST", "/api/v1/run", body=chunks, headers={**JTYPE, "Transfer-Encoding": "chunked"},
                  encode_chunked=True)
        r = c.getresponse()
        got, data = r.status, r.read()
    except OSError as e:
        got, data = str(e), b""
    check(got == 413 and b"64 KiB" in data, "chunked: a chunked body past 64 KiB: %s %r" % (got, data[:200]))
    c.close()
    srv.stop()


def case_budget0(fray):
    srv = Server(fray)
    request = {"procedure": "adbg.battle", "mode": "odds", "trials": 2000,
               "inputs": {"scenario": "examples/adbg/lochry-1781.yaml", "budget": 0}}
    got, _, data = call(srv.port, "POST", "/api/v1/run", json.dumps(request), JTYPE)
    resp = json.loads(data)
    check(got == 200 and resp.get("method") == "simulation", "budget0: %d %s" % (got, str(resp)[:300]))
    srv.stop()


def case_slowbody(fray):
    srv = Server(fray)
    p = srv.port
    s = connect(p, "127.0.0.5")
    s.sendall(("POST /api/v1/run HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nContent-Type: application/json\r\n"
               "Content-Length: 1000\r\n\r\n" % p).encode())
    start, cut = time.time(), False
    s.settimeout(0.5)
    while time.time() - start < 30 and not cut:  # the deadline (10 s), or the server's tick late on a loaded machine
        try:
            s.sendall(b" ")
            if s.recv(4096) == b"":
                cut = True
        except socket.timeout:
            pass
        except OSError:
            cut = True
    took = time.time() - start
    check(cut and took < 30, "slowbody: a trickled body cut at the deadline: cut %s after %.1f s" % (cut, took))
    s.close()
    srv.stop()


def case_blanks(fray):
    srv = Server(fray)
    # the calibration: a body of the same size read in linear time (one long string) on this machine now
    plain = '{"op": "status", "game": "' + "x" * ((1 << 20) - 64) + '"}'
    t = time.time()
    call(srv.port, "POST", "/api/v1/game", plain, JTYPE)
    alone = time.time() - t
    body = '{"op": "status",' + "\n" * ((1 << 20) - 64) + '"game": "x"}'  # within the game's 1 MiB
    t = time.time()
    got, _, data = call(srv.port, "POST", "/api/v1/game", body, JTYPE)
    took = time.time() - t
    # 5 s on a quiet machine, 20 times the linear read on a busy one (the square of the lines: hours)
    check(got == 400 and b"blank lines in a row" in data and took < max(5, 20 * alone),
          "blanks: 1 MiB of blank lines: %d in %.1f s (a string of 1 MiB: %.2f s) %r" % (got, took, alone, data[:200]))
    srv.stop()


def case_gameodds(fray):
    srv = Server(fray)
    p = srv.port
    new = {"op": "new", "rules": "presidio", "forces_name": "examples/presidio/forces.yaml", "seed": 7}
    got, _, data = call(p, "POST", "/api/v1/game", json.dumps(new), JTYPE)
    game = json.loads(data)["game"]
    for n in (12, 10):  # the Presidials' and the Apaches' figures
        game = game.replace("figures: %d\n    start_figures: %d" % (n, n), "figures: 1000\n    start_figures: 1000")
    odds = {"op": "odds", "game": game, "action": "melee", "actor": "Presidials", "target": "Apaches"}
    t = time.time()
    got, _, data = call(p, "POST", "/api/v1/game", json.dumps(odds), JTYPE)
    took = time.time() - t
    # the time budget (10 s) is checked every 65,536 paths: about 3 s of this walk optimised, 6 s under ASan
    check(got == 422 and b"time budget" in data and took < 30,
          "gameodds: a melee of 1000 figures a side: %d in %.1f s %r" % (got, took, data[:200]))
    srv.stop()


CASES = {"slow": case_slow, "lan": case_lan, "compute": case_compute, "memory": case_memory, "cap": case_cap,
         "chunked": case_chunked, "budget0": case_budget0, "slowbody": case_slowbody, "blanks": case_blanks,
         "gameodds": case_gameodds}


def main():
    # slow and slowbody wait out SERVE_READ_S, mostly asleep: the cases
    # after them run meanwhile (issue 45: 11 s of the test's 29), but
    # compute, which times the server, runs alone after them
    run_cases(sys.argv[1], CASES, sys.argv[2:] or CASES, aside=("slow", "slowbody"), last=("compute",))
    print("serve abuse: %d failures" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
