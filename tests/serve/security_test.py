#!/usr/bin/python3
"""fray serve against requests a page never sends: a foreign Host (DNS
rebinding), oversized and malformed bodies, unknown procedures and paths,
wrong methods and types, a burst of concurrent requests, and --lan's token.
Every answer is a status and, for errors, a JSON body. Usage: FRAY"""
import http.client
import json
import sys
import threading
import time

from serve_util import Server

failures = []


def check(cond, msg):
    if not cond:
        failures.append(msg)
        print("FAIL " + msg, file=sys.stderr)


def run_cases(fray, cases, names, aside=(), last=()):
    """Runs the named cases (each on a server of its own), saying how each
    went: those in aside, which mostly wait out one of the server's
    deadlines, in threads beside the others; those in last once the aside
    ones are done (cases that time the server with no other case beside
    them). A case that raises is a failure. The number of failures."""
    def one(name):
        t = time.time()
        try:
            cases[name](fray)
        except Exception as e:
            check(False, "%s: raised %r" % (name, e))
        said = [f for f in failures if f.startswith(name + ":")]
        print("%s: %s (%.1f s)" % (name, "FAILED" if said else "ok", time.time() - t))
    names = list(names)
    beside = [threading.Thread(target=one, args=(n,)) for n in names if n in aside and len(names) > 1]
    for t in beside:
        t.start()
    for n in names:
        if not beside or n not in aside and n not in last:
            one(n)
    for t in beside:
        t.join()
    for n in names:
        if beside and n in last:
            one(n)
    return len(failures)


def call(port, method, path, body=None, headers=None, source=None):
    """One request; source: the client's own address (127.0.0.N: another
    client to the server, which counts shares by address)."""
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=30,
                                   source_address=(source, 0) if source else None)
    c.request(method, path, body=body, headers=headers or {})
    r = c.getresponse()
    data = r.read()
    c.close()
    return r.status, r.getheader("Content-Type") or "", data


def error_case(port, what, status, method, path, body=None, headers=None, source=None):
    got, ctype, data = call(port, method, path, body, headers, source)
    check(got == status, "%s: status %d, expected %d" % (what, got, status))
    if got >= 400:
        try:
            check("error" in json.loads(data), "%s: no error in %r" % (what, data))
        except ValueError:
            check(False, "%s: the error body is not JSON: %r" % (what, data[:200]))


def main():
    fray = sys.argv[1]
    srv = Server(fray)
    p = srv.port
    jtype = {"Content-Type": "application/json"}
    ok = json.dumps({"procedure": "adbg.fire", "mode": "odds",
                     "inputs": {"type": "rifle", "cf": 3, "terrain": "rough"}})
    got, ctype, data = call(p, "POST", "/api/v1/run", ok, jtype)
    check(got == 200 and json.loads(data)["procedure"] == "adbg.fire", "a good request: %d %r" % (got, data[:200]))
    got, _, _ = call(p, "GET", "/", headers={"Host": "localhost:%d" % p})
    check(got == 200, "Host localhost: %d" % got)
    error_case(p, "foreign Host", 421, "GET", "/", headers={"Host": "evil.example:%d" % p})
    error_case(p, "foreign Host on the API", 421, "POST", "/api/v1/run", ok, {**jtype, "Host": "evil.example"})
    error_case(p, "oversized body", 413, "POST", "/api/v1/run", b" " * (64 * 1024 + 1), jtype)
    error_case(p, "bad JSON", 400, "POST", "/api/v1/run", b'{"procedure": ', jtype)
    error_case(p, "a NUL byte", 400, "POST", "/api/v1/run", b'{"procedure": "adbg.fire"}\0', jtype)
    error_case(p, "unknown procedure", 400, "POST", "/api/v1/run", b'{"procedure": "adbg.teleport"}', jtype)
    error_case(p, "a file path", 400, "POST", "/api/v1/run",
               json.dumps({"procedure": "adbg.battle", "inputs": {"scenario": "/etc/passwd"}}), jtype)
    error_case(p, "not JSON", 415, "POST", "/api/v1/run", ok, {"Content-Type": "text/plain"})
    error_case(p, "GET on run", 405, "GET", "/api/v1/run")
    error_case(p, "DELETE", 405, "DELETE", "/")
    error_case(p, "unknown path", 404, "GET", "/nothing.html")
    error_case(p, "a path out of the page", 404, "GET", "/../../etc/passwd")
    error_case(p, "too many trials", 400, "POST", "/api/v1/run",
               json.dumps({"procedure": "presidio.pursuit", "mode": "simulate", "trials": 10001}), jtype)
    got, _, data = call(p, "GET", "/api/v1/procedures")
    check(got == 200 and len(json.loads(data)["procedures"]) >= 40, "the catalogue: %d" % got)
    # a burst: 30 requests at once, 5 from each of 6 clients (a client's
    # share: 5 waiting or worked on), each answered in full: what the
    # server holds by design even if no worker has taken one yet when
    # the last comes (32 places for a client with one waiting,
    # docs/serve.md); 40 from 8 passed its 36 places when no answer
    # came before the last request (a loaded machine: 503s)
    results = []

    def one(source):
        results.append(call(p, "POST", "/api/v1/run", ok, jtype, source=source)[0])
    threads = [threading.Thread(target=one, args=("127.0.0.%d" % (10 + i % 6),)) for i in range(30)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    check(results == [200] * 30, "a burst of 30: %s" % results)
    srv.stop()
    # --lan: the token is needed on every request, any Host
    lan = Server(fray, "--lan")
    prefix = lan.url.split(str(lan.port), 1)[1]
    check(prefix.startswith("/t/") and len(prefix) > 20, "the token path: %r" % prefix)
    error_case(lan.port, "--lan without the token", 403, "GET", "/")
    error_case(lan.port, "--lan with a wrong token", 403, "GET", "/t/00000000000000000000000000000000/")
    got, _, _ = call(lan.port, "GET", prefix, headers={"Host": "192.168.1.20:%d" % lan.port})
    check(got == 200, "--lan with the token: %d" % got)
    lan.stop()
    print("serve security: %d failures" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
