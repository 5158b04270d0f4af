#!/usr/bin/python3
"""fray serve answers a request that waited its turn too long when its wait
passes, not when a worker is free at last (the adversary's review: a
request queued behind three heavy ones was told it waited too long only
once one of them ended, 10 s later). The wait is fray serve --wait 1 here
(30 s by default); three addresses' heavy exact odds hold the three
workers until their 10 s time budget, and a fourth address's small request
waits its turn. Checked as an order of events against the server's own
deadlines, never a machine's speed: the small one is answered 503 (JSON,
Retry-After) before any heavy one is answered at all, and before the heavy
ones' time budget (RUN_S, counted by the server from when a worker took
each, after it was sent) could have passed since they were sent: a server
that answers it only when a worker is free answers it after that.
Usage: FRAY"""
import http.client
import json
import os
import sys
import threading
import time

from serve_util import Server

failures = []


def check(cond, msg):
    if not cond:
        failures.append(msg)
        print("FAIL " + msg, file=sys.stderr)


# A battle walked whole, exact with a budget it never reaches: 16 s of one
# core in the Release build, so the three hold the workers until their 10 s
# time budget in any build. (Blue Licks with one side's best play was used
# here: its exact odds now fall back to simulation within 0.3 s in the
# Release build, so the test passed under ASan only.
# A melee of 1000 figures a side passed the server's memory budget in under
# 2 s and freed its worker early.) Each asks other fallback trials, so no
# answer is shared.
# It goes as a player's upload does: the file's text, not a path (the
# server reads only shipped files).
SLOW = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data", "adbg",
                    "walked-whole-slow.yaml")
with open(SLOW) as f:
    HEAVY = {"procedure": "adbg.battle", "mode": "odds",
             "inputs": {"scenario": {"name": "walked-whole-slow.yaml", "text": f.read()}, "budget": 30000000}}
RUN_S = 10  # src/serve/serve_handler.h's SERVE_RUN_SECONDS (FRAY_API_RUN_SECONDS)
SMALL = {"procedure": "adbg.fire", "mode": "odds", "inputs": {"type": "rifle", "cf": 3, "terrain": "rough"}}


def post(port, source, request, answers, name):
    """POST api/v1/run from source; (name, status, Retry-After, Content-Type,
    body) appended to answers when it is answered."""
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=120, source_address=(source, 0))
    try:
        c.request("POST", "/api/v1/run", body=json.dumps(request), headers={"Content-Type": "application/json"})
        r = c.getresponse()
        data = r.read()
        answers.append((name, r.status, r.getheader("Retry-After"), r.getheader("Content-Type") or "", data))
    except OSError as e:
        answers.append((name, None, None, "", repr(e).encode()))
    finally:
        c.close()


def main():
    fray = sys.argv[1]
    srv = Server(fray, "--wait", "1")
    answers = []
    heavy = [threading.Thread(target=post, args=(srv.port, "127.0.0.%d" % (81 + k), dict(HEAVY, trials=10000 - k),
                                                 answers, "heavy"), daemon=True) for k in range(3)]
    sent = time.monotonic()
    for t in heavy:
        t.start()
    time.sleep(1)  # read, and taken by the three workers
    mine = []
    post(srv.port, "127.0.0.84", SMALL, mine, "small")
    waited = time.monotonic() - sent
    before = [a[:2] for a in answers]  # the heavy ones answered before the small one was
    srv.stop(60)  # the heavy ones are not waited for: the stop answers them
    for t in heavy:
        t.join(timeout=60)
    check(len(mine) == 1 and mine[0][1] == 503,
          "the small request after its wait: %r" % (mine[0][:2] if mine else None,))
    if mine and mine[0][1] == 503:
        name, status, retry, ctype, data = mine[0]
        check(ctype.startswith("application/json"), "the 503's Content-Type: %r" % ctype)
        check(retry == "1", "the 503's Retry-After: %r" % retry)
        try:
            error = json.loads(data).get("error", "")
        except ValueError:
            error = ""
        check("waited its turn too long (1 s)" in error, "the 503's error: %r" % data)
    check(before == [], "answered before the small one's wait was: %r (it waited for a worker)" % before)
    check(waited < RUN_S, "the small one answered %.1f s after the heavy ones were sent: not before their %d s "
          "budget (it waited for a worker)" % (waited, RUN_S))
    check(len(answers) == 3, "the heavy ones all answered at the stop: %r" % [a[:2] for a in answers])
    print("queue_wait: the small request %r, %.1f s after the heavy ones were sent, heavy ones answered before "
          "it: %r; %d failures" % (mine[0][:2] if mine else None, waited, before, len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
