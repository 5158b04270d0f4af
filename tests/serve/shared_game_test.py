#!/usr/bin/python3
"""One game on many phones (issue 43 item 1): the games `fray serve --games
DIR` keeps, through HTTP alone (the page's part is shared_game_page_test.py).

Two clients A and B on one game: B, waiting on the events endpoint, sees
A's shot within 2 s; B's own shot made against the version before A's is
refused 409 "the game changed" with A's shot named, and the game holds
exactly one shot: the file is byte for byte what `fray table` writes for
the same forces, seed and one shot; undo wakes both and takes the shot
back. A bad name is refused 400 and no file is made; the folder's budget
of 64 games is held (422); `fray table` acting on the same file waits
for a lock the test holds (flock on the game file, as the server takes
it), the server's change waits as well, and once the lock goes both are
applied, each once, the server's counting the terminal's as a version
("changed outside the server"). Held events requests are capped (8 an
address, 503 beyond) and the page's other requests are answered while
they are held. Requests to 127.0.0.1 only; every loop bounded.
Usage: FRAY"""
import fcntl
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request

from serve_util import Server

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FORCES = os.path.join(ROOT, "examples/presidio/forces.yaml")
SHOT = {"op": "apply", "action": "shoot", "actor": "Presidials", "target": "Apaches", "options": {"range": 10}}
failures = []


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failures.append(what)


def call(url, method="GET", body=None, timeout=30):
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(url, data=data, method=method,
                                 headers={"Content-Type": "application/json"} if data else {})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def table(fray, *args):
    r = subprocess.run([fray, "table", *args], capture_output=True, text=True, timeout=120)
    check(r.returncode == 0, "fray table %s: exit %d %s" % (" ".join(args), r.returncode, r.stderr.strip()))
    return r


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def log_of(api, name):
    """The game's actions (the log's entries by their action's number: a
    shot and its follow-up morale are one action)."""
    status, a = call(api + "/" + name, "POST", {"op": "log"})
    return sorted({e["action"] for e in a.get("log", [])}) if status == 200 else None


class Events(threading.Thread):
    """A client waiting on the events endpoint: when its answer came."""

    def __init__(self, api, name, after):
        super().__init__(daemon=True)
        self.url = "%s/%s/events?after=%d" % (api, name, after)
        self.answer, self.at = None, None
        self.start()

    def run(self):
        self.answer = call(self.url, timeout=40)
        self.at = time.monotonic()


def two_phones(fray, api, games, tmp):
    status, a = call(api + "/table1", "POST", {"op": "new", "rules": "presidio",
                                              "forces_name": "examples/presidio/forces.yaml", "seed": 7})
    check(status == 200 and a.get("version") == 1, "a game made: version 1 (%s %s)" % (status, a.get("error")))
    status, a = call(api)
    check(status == 200 and [g["name"] for g in a["games"]] == ["table1"] and a["games"][0]["rules"] == "presidio"
          and a["games"][0]["turn"] == 1 and a["games"][0]["version"] == 1, "listed with its rules, turn, version: %r" % a)
    status, b = call(api + "/table1")
    check(status == 200 and b["version"] == 1 and b["game"] == read(os.path.join(games, "table1.yaml")),
          "B opens it: version 1, the file's text")

    # B waits for a change; A shoots; B hears of it within 2 s
    waiting = Events(api, "table1", 1)
    time.sleep(0.5)
    check(waiting.answer is None, "events: held while nothing changed")
    status, a = call(api + "/table1?version=1", "POST", SHOT)
    done = time.monotonic()
    check(status == 200 and a.get("version") == 2, "A's shot against version 1: applied, version 2 (%s %s)"
          % (status, a.get("error")))
    waiting.join(10)
    check(waiting.answer is not None and waiting.answer[1].get("version") == 2 and waiting.at - done < 2.0,
          "B's events answer says version 2, %.2f s after A's shot" % ((waiting.at or 1e9) - done))
    # a version past what a number holds is no version (it was read as
    # 2^63 - 1 and answered 409 "made against version 9223372036854775807")
    status, a = call(api + "/table1?version=99999999999999999999", "POST", SHOT)
    check(status == 400 and "version" in a.get("error", ""), "a version of 20 digits: 400 (%s %r)" % (status, a))
    # a phone that asks after a version already passed (two changes close
    # together) is answered at once with the version now; it was a 404
    # ("no such game"), and the page stopped following the game
    t0 = time.monotonic()
    status, a = call(api + "/table1/events?after=1", timeout=10)
    check(status == 200 and a.get("version") == 2 and a.get("name") == "table1" and time.monotonic() - t0 < 2.0,
          "events after a passed version: version 2 at once (%s %r)" % (status, a))

    # B's shot, chosen when the game was at version 1: refused, A's named
    status, c = call(api + "/table1?version=1", "POST", SHOT)
    check(status == 409 and c.get("error", "").startswith("the game changed") and c.get("version") == 2
          and [s["version"] for s in c.get("since", [])] == [2] and "shoot" in c["since"][0]["what"]
          and "Presidials" in c["since"][0]["what"], "B's stale shot: 409, what happened since named: %r" % c)
    entries = log_of(api, "table1")
    check(entries is not None and len(entries) == 1, "the game holds exactly one shot (%r actions)"
          % (None if entries is None else len(entries)))
    # the file is fray table's for the same forces, seed and one shot: nothing lost, nothing twice
    ref = os.path.join(tmp, "ref.yaml")
    table(fray, "new", ref, "--rules", "presidio", "--forces", FORCES, "--seed", "7")
    table(fray, ref, "shoot", "Presidials", "--at", "Apaches", "--range", "10")
    check(read(os.path.join(games, "table1.yaml")) == read(ref), "the kept game is byte for byte fray table's file")
    status, c = call(api + "/table1", "POST", SHOT)
    check(status == 400 and "version" in c.get("error", ""), "a change without its version: 400 (%s)" % status)
    status, c = call(api + "/table1", "POST", dict(SHOT, game="x"))
    check(status == 400, "a request carrying its own game: 400 (%s)" % status)

    # undo: the game's, seen by both
    a_wait, b_wait = Events(api, "table1", 2), Events(api, "table1", 2)
    time.sleep(0.3)
    status, u = call(api + "/table1?version=2", "POST", {"op": "undo"})
    done = time.monotonic()
    check(status == 200 and u.get("version") == 3, "undo against version 2: version 3 (%s)" % status)
    for who, w in (("A", a_wait), ("B", b_wait)):
        w.join(10)
        check(w.answer is not None and w.answer[1].get("version") == 3 and w.at - done < 2.0,
              "%s sees the undo (version 3) within 2 s" % who)
    check(log_of(api, "table1") == [], "after undo the game's log is empty")
    table(fray, "new", ref + "2", "--rules", "presidio", "--forces", FORCES, "--seed", "7")
    check(read(os.path.join(games, "table1.yaml")) == read(ref + "2"), "after undo the file is a new game's again")
    status, c = call(api + "/table1?version=3", "POST", {"op": "new", "rules": "presidio",
                                                         "forces_name": "examples/presidio/forces.yaml", "seed": 8})
    check(status == 409 and read(os.path.join(games, "table1.yaml")) == read(ref + "2"),
          "new over a game that exists: 409, the game untouched")


def bad_names(api, games):
    before = sorted(os.listdir(games))
    for name in ("..%2F..%2Fescape", "..", ".hidden", "a.b", "Caps", "-dash", "x" * 33, "a%00b", "a%2Fb", "%C3%A9"):
        status, a = call(api + "/" + name, "POST", {"op": "new", "rules": "presidio",
                                                   "forces_name": "examples/presidio/forces.yaml", "seed": 1})
        check(status in (400, 404) and "error" in a, "name %r refused: %s" % (name, status))
        check(status == 400 or name == "a%2Fb", "name %r: 400 (%s)" % (name, status))  # a/b: no such page, 404
    status, a = call(api + "/../../etc")
    check(status in (400, 404), "a path out of the folder: %s" % status)
    check(sorted(os.listdir(games)) == before, "no file made by a bad name: %r" % sorted(os.listdir(games)))
    check(not os.path.exists(os.path.join(os.path.dirname(games), "escape.yaml")), "nothing made beside the folder")
    status, a = call(api + "/nosuch")
    check(status == 404, "a game that is not there: 404 (%s)" % status)


def version_file_tampered(api, games):
    """A version file saying a version past any number (by hand, or a disk's
    garbage): the server read it as it was, and the next change overflowed
    it (the ASan server died); now it is no version file: the game is at
    version 1 again and takes a change."""
    status, a = call(api + "/tampered", "POST", {"op": "new", "rules": "presidio",
                                                "forces_name": "examples/presidio/forces.yaml", "seed": 2})
    check(status == 200, "a game made (%s)" % status)
    path = os.path.join(games, "tampered.version")
    check(os.path.exists(path), "the game has a version file")
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    lines[1] = "version 9223372036854775807"
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    status, g = call(api + "/tampered")
    check(status == 200 and g["version"] == 1, "a tampered version: read as none, version 1 (%s %r)"
          % (status, g.get("version")))
    status, a = call(api + "/tampered?version=1", "POST", {"op": "apply", "action": "turn"})
    check(status == 200 and a.get("version") == 2, "a change after it: version 2 (%s %r)" % (status, a))
    for ext in ("yaml", "version"):  # the folder's budget is counted next
        os.remove(os.path.join(games, "tampered." + ext))
    # a game file put there by hand past the game's budget (2,064,384
    # bytes): refused, where its text was handed on cut short
    with open(os.path.join(games, "huge.yaml"), "w", encoding="utf-8") as f:
        f.write(read(os.path.join(games, "table1.yaml")) + "# " + "x" * 2100000 + "\n")
    status, a = call(api + "/huge")
    check(status == 422 and "budget" in a.get("error", "") and "game" not in a,
          "a game file past its budget: 422 (%s %r)" % (status, str(a)[:200]))
    for f in os.listdir(games):
        if f.startswith("huge."):
            os.remove(os.path.join(games, f))


def budget(api, games):
    text = read(os.path.join(games, "table1.yaml"))
    for i in range(63):  # 64 with table1: the folder's budget
        with open(os.path.join(games, "filler%02d.yaml" % i), "w", encoding="utf-8") as f:
            f.write(text)
    status, a = call(api + "/one-more", "POST", {"op": "new", "rules": "presidio",
                                                "forces_name": "examples/presidio/forces.yaml", "seed": 1})
    check(status == 422 and "64" in a.get("error", "") and not os.path.exists(os.path.join(games, "one-more.yaml")),
          "the 65th game refused 422, the budget named: %s %r" % (status, a))
    status, a = call(api + "/filler00")
    check(status == 200 and a.get("version") == 1, "a game put in the folder by hand: version 1")
    for i in range(63):
        os.unlink(os.path.join(games, "filler%02d.yaml" % i))
        if os.path.exists(os.path.join(games, "filler%02d.version" % i)):
            os.unlink(os.path.join(games, "filler%02d.version" % i))


def shared_lock(fray, api, games):
    path = os.path.join(games, "table1.yaml")
    status, g = call(api + "/table1")
    v = g["version"]
    errfile = os.path.join(os.path.dirname(games), "table.err")
    with open(path, encoding="utf-8") as held, open(errfile, "w+", encoding="utf-8") as err_out:
        fcntl.flock(held, fcntl.LOCK_EX)
        t0 = time.monotonic()
        term = subprocess.Popen([fray, "table", path, "shoot", "Presidials", "--at", "Apaches", "--range", "10"],
                                stdout=subprocess.PIPE, stderr=err_out, text=True)
        # fray table says it waits after a second of waiting (a slow start under ASan is not a wait)
        for _ in range(600):
            if "waiting" in read(errfile) or term.poll() is not None:
                break
            time.sleep(0.1)
        check(term.poll() is None and "waiting" in read(errfile), "fray table waits for the lock the test holds (%r)"
              % read(errfile))
        box = {}
        server = threading.Thread(target=lambda: box.update(r=call(api + "/table1?version=%d" % v, "POST",
                                                                    dict(SHOT, actor="Cueras"))), daemon=True)
        server.start()
        time.sleep(1.5)
        check("r" not in box, "the server's change waits for it too")
        check(term.poll() is None, "fray table still waits")
        held_for = time.monotonic() - t0
        fcntl.flock(held, fcntl.LOCK_UN)
    term.communicate(timeout=60)
    server.join(30)
    check(term.returncode == 0, "fray table went on once the lock was free (exit %s)" % term.returncode)
    check(held_for >= 1.5, "neither ran while the lock was held")
    status, a = box.get("r", (0, {}))
    entries = log_of(api, "table1")
    if status == 200:  # the server went first: fray table's shot came after, an outside change
        check(len(entries) == 2, "both actions in the game, once each (%d)" % len(entries))
    else:  # fray table went first: the server saw the outside change, and refused the stale version
        check(status == 409 and any("outside" in s["what"] for s in a.get("since", [])),
              "the server's change after fray table's: 409, the terminal's change named (%s %r)" % (status, a))
        check(len(entries) == 1, "fray table's shot in the game, once (%d)" % len(entries))
    status, g2 = call(api + "/table1")
    check(g2["version"] >= v + 1 and g2["game"] == read(path), "the version counts fray table's change: %d -> %d"
          % (v, g2["version"]))
    # fray table alone (no lock held): an events request hears of it
    w = Events(api, "table1", g2["version"])
    time.sleep(0.3)
    table(fray, path, "undo")
    done = time.monotonic()
    w.join(10)
    check(w.answer is not None and w.answer[1]["version"] == g2["version"] + 1 and w.at - done < 2.0,
          "fray table's undo heard on the events endpoint within 2 s")


def holds_capped(api, url):
    status, g = call(api + "/table1")
    waits = [Events(api, "table1", g["version"]) for _ in range(8)]
    time.sleep(1.0)
    t0 = time.monotonic()
    status, a = call(api + "/table1/events?after=%d" % g["version"], timeout=10)
    check(status == 503 and "busy" in a.get("error", "") and time.monotonic() - t0 < 5,
          "a ninth events request of one address: 503 at once (%s)" % status)
    status, _ = call(url + "api/v1/procedures")
    check(status == 200, "the catalogue answers while 8 are held")
    status, a = call(api)
    check(status == 200, "the list answers while 8 are held")
    check(all(w.answer is None for w in waits), "the 8 still held")
    status, u = call(api + "/table1?version=%d" % g["version"], "POST", SHOT)
    for w in waits:
        w.join(10)
    check(all(w.answer and w.answer[1]["version"] == g["version"] + 1 for w in waits), "all 8 woken by the change")
    # one left held as the server stops: it is answered, and fray serve exits 0 (MHD aborts when
    # stopped with a connection suspended)
    left = Events(api, "table1", g["version"] + 1)
    time.sleep(0.5)
    return left


def main():
    fray = sys.argv[1]
    tmp = tempfile.mkdtemp(prefix="fray-shared-")
    games = os.path.join(tmp, "games")
    srv = Server(fray, "--games", games)
    api = srv.url + "api/v1/games"
    try:
        two_phones(fray, api, games, tmp)
        bad_names(api, games)
        version_file_tampered(api, games)
        budget(api, games)
        shared_lock(fray, api, games)
        left = holds_capped(api, srv.url)
    finally:
        srv.stop()
        shutil.rmtree(tmp, ignore_errors=True)
    left.join(10)
    check(left.answer is not None and left.answer[0] == 200, "the request held at the stop answered: %r"
          % (left.answer,))
    # no --games, no home: no games kept, said
    env = dict(os.environ, HOME="", XDG_DATA_HOME="")
    p = subprocess.Popen([fray, "serve", "--port", "0"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         env=env)
    first, second = p.stdout.readline(), p.stdout.readline()
    p.send_signal(2)
    p.communicate(timeout=20)
    check("no games kept" in second, "no home: fray serve says no games are kept (%r)" % second)
    if failures:
        print("%d failed" % len(failures))
        sys.exit(1)
    print("all passed")


if __name__ == "__main__":
    main()
