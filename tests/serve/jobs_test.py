#!/usr/bin/python3
"""fray serve's jobs: a job's result is the command line's JSON for the
same request; progress is reported while it runs; DELETE stops and forgets
it; at most two run at once, a third waits its turn; bad requests are refused at once or fail with
a status; a pasted scenario cannot make the server read a file (its CRT
path). Usage: FRAY SOURCE_DIR"""
import json
import os
import subprocess
import sys
import time

from security_test import call, check, error_case, failures
from serve_util import Server

JTYPE = {"Content-Type": "application/json"}
LONG = {"procedure": "adbg.battle", "mode": "simulate", "trials": 1000000, "seed": 9,
        "inputs": {"scenario": "examples/adbg/blue-licks-1782.yaml"}}


def start(port, request, source=None):
    got, _, data = call(port, "POST", "/api/v1/jobs", json.dumps(request), JTYPE, source)
    return got, json.loads(data)


def wait(port, job_id, limit=60):
    """Polls the job until it ends; returns its last state and every state
    seen. It fails once the job made no progress for limit seconds (a busy
    machine runs a job slowly, not never; the job's own time budget, 120 s,
    ends it all the same)."""
    seen = []
    end, done = time.time() + limit, -1
    while time.time() < end:
        got, _, data = call(port, "GET", "/api/v1/jobs/" + job_id)
        check(got == 200, "GET job: %d %r" % (got, data[:200]))
        state = json.loads(data)
        seen.append(state)
        if state["state"] != "running":
            return state, seen
        if state.get("done", 0) > done:  # progress: the limit counts from here
            end, done = time.time() + limit, state.get("done", 0)
        time.sleep(0.05)
    check(False, "job %s made no progress for %d s: %s" % (job_id, limit, seen[-1] if seen else None))
    return seen[-1], seen


def main():
    fray, source = sys.argv[1], sys.argv[2]
    srv = Server(fray)
    p = srv.port
    # beyond api/v1/run's 10,000 trials, the same JSON as the command line
    request = {"procedure": "presidio.pursuit", "mode": "simulate", "trials": 30000, "seed": 5,
               "inputs": {"recon": 2, "camou": 1, "forced_march": True}}
    got, job = start(p, request)
    check(got == 202 and len(job.get("id", "")) == 32, "POST job: %d %r" % (got, job))
    state, _ = wait(p, job["id"])
    cli = subprocess.run([fray, "request"], input=json.dumps(request), capture_output=True, text=True, cwd=source)
    check(state["state"] == "done" and state.get("result") == json.loads(cli.stdout),
          "the job's result is the CLI's: %r" % str(state)[:300])
    check(state["done"] == state["total"] == 30000, "progress at the end: %r" % str(state)[:200])
    # a battle's exact odds by a shipped path (its CRT is the shipped one)
    odds = {"procedure": "adbg.battle", "mode": "odds", "inputs": {"scenario": "examples/adbg/lochry-1781.yaml"}}
    got, job = start(p, odds)
    state, _ = wait(p, job["id"])
    cli = subprocess.run([fray, "request"], input=json.dumps(odds), capture_output=True, text=True, cwd=source)
    check(state["state"] == "done" and state.get("result") == json.loads(cli.stdout),
          "battle odds as a job: %r" % str(state)[:300])
    # a long one: progress while it runs, then DELETE stops and forgets it
    got, long1 = start(p, LONG)
    check(got == 202, "a long job: %d" % got)
    end = time.time() + 30  # under ASan and a parallel browser test, the first chunks take a while
    while time.time() < end:
        got, _, data = call(p, "GET", "/api/v1/jobs/" + long1["id"])
        state = json.loads(data)
        if state["done"] > 0:
            break
        time.sleep(0.05)
    check(state["state"] == "running" and state["total"] == 1000000 and 0 < state["done"] < 1000000,
          "progress while running: %r" % str(state)[:200])
    # the fair share: one job a client, so one client cannot hold both
    # places (issue 29, case 6); another client (another address) may
    error_case(p, "a second job of the same client", 503, "POST", "/api/v1/jobs", json.dumps(LONG), JTYPE)
    got, long2 = start(p, LONG, source="127.0.0.2")
    check(got == 202, "a second long job, another client: %d" % got)
    # the cap: two run at once; a third address's job waits its turn (issue 41, case 3), said running
    # with "waiting" (the page polls it as any running job) and no progress
    got, long3 = start(p, LONG, source="127.0.0.3")
    check(got == 202 and long3.get("waiting") is True, "a third job at once waits: %d %r" % (got, long3))
    if got == 202:
        got, _, data = call(p, "GET", "/api/v1/jobs/" + long3["id"])
        state = json.loads(data)
        check(state["state"] == "running" and state.get("waiting") is True and state["done"] == 0,
              "a waiting job's state: %r" % state)
        got, _, data = call(p, "DELETE", "/api/v1/jobs/" + long3["id"])
        check(got == 200, "DELETE a waiting job: %d" % got)
        error_case(p, "a deleted waiting job", 404, "GET", "/api/v1/jobs/" + long3["id"])
    for j in (long1, long2):
        got, _, data = call(p, "DELETE", "/api/v1/jobs/" + j["id"])
        check(got == 200 and json.loads(data)["state"] == "stopped", "DELETE: %d %r" % (got, data))
        error_case(p, "a deleted job", 404, "GET", "/api/v1/jobs/" + j["id"])
    # the stopped jobs' threads end and free their places
    end = time.time() + 10
    while time.time() < end:
        got, job = start(p, request)
        if got == 202:
            break
        time.sleep(0.05)
    check(got == 202, "a job after two were stopped: %d" % got)
    if got == 202:  # let it end, so the cap does not refuse the next ones
        wait(p, job["id"])
    # refused at once, or failed with the status api/v1/run would give
    error_case(p, "a job of bad JSON", 400, "POST", "/api/v1/jobs", b'{"procedure": ', JTYPE)
    error_case(p, "a job of text", 415, "POST", "/api/v1/jobs", b'{}', {"Content-Type": "text/plain"})
    error_case(p, "GET on jobs", 405, "GET", "/api/v1/jobs")
    error_case(p, "PUT on a job", 405, "PUT", "/api/v1/jobs/" + job.get("id", "x"), b"{}", JTYPE)
    error_case(p, "an unknown job", 404, "GET", "/api/v1/jobs/" + "0" * 32)
    error_case(p, "a malformed job id", 404, "GET", "/api/v1/jobs/../../etc/passwd")
    got, bad = start(p, {"procedure": "adbg.teleport"})
    check(got == 202, "a job of an unknown procedure: %d %r" % (got, bad))
    state, _ = wait(p, bad.get("id", "0" * 32))
    check(state["state"] == "failed" and state.get("status") == 400 and "adbg.teleport" in state.get("error", ""),
          "an unknown procedure's job: %r" % state)
    # a pasted scenario naming a file: refused, never read
    with open(os.path.join(source, "examples/adbg/lochry-1781.yaml")) as f:
        text = f.read().replace("../../data/adbg/example-melee-crt.yaml", "/etc/passwd")
    check("/etc/passwd" in text, "the scenario names the CRT by path")
    got, _, data = call(p, "POST", "/api/v1/run", json.dumps(
        {"procedure": "adbg.battle", "inputs": {"scenario": {"name": "mine.yaml", "text": text}}}), JTYPE)
    check(got == 400 and "reads no files" in json.loads(data).get("error", ""),
          "a CRT path in a pasted scenario: %d %r" % (got, data[:300]))
    srv.stop()
    print("serve jobs: %d failures" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
