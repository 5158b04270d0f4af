#!/usr/bin/env python3
"""Files fray writes, with other frays and other programs about (issue 29):

- several `fray table G ACTION` at once: every action lands (4 writers x 10
  actions each: 40 entries in the log, turn 41, the file loads); an action
  waits while another holds the lock, then acts on the file the holder
  renamed in, not on the one it opened first;
- the statuses say what happened: a game saved whose output could not be
  printed (/dev/full) is 3, not 1, and says "saved" (a caller that retries on
  1 would act twice); the same for `table new`, `undo` and `scenario new`;
- names that cannot be a game file are refused before anything is rolled,
  with 2: "-" (standard input cannot be written back), a symbolic link, a
  FIFO (without hanging); "-" as an output file (`report --html -`,
  `scenario new KIND -`, `adbg simulate --output -`) is refused too;
- `fray report` carries the request as JSON written from what was read: a
  request with comments, single quotes, block style or numbers spelled
  007 / +2 gives a page whose data block is JSON holding that request; a
  refused one is 2 with nothing written.

Expected values are written here (the request each YAML spelling means, the
number of actions run), not taken from fray's output.

Usage: table_writers.py FRAY EXAMPLES_DIR"""
import json
import os
import re
import subprocess
import sys
import tempfile

FRAY, EXAMPLES = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
FORCES = os.path.join(EXAMPLES, "presidio", "forces.yaml")
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what, file=sys.stderr)


def fray(*args, stdin=None, stdout=subprocess.PIPE, cwd=None, timeout=60):
    return subprocess.run([FRAY, *args], stdin=stdin, stdout=stdout, stderr=subprocess.PIPE, cwd=cwd,
                          timeout=timeout)


def new_game(path, seed=5):
    p = fray("table", "new", path, "--rules", "presidio", "--forces", FORCES, "--seed", str(seed))
    if p.returncode != 0:
        raise SystemExit(f"table new {path}: exit {p.returncode}\n{p.stderr.decode()}")


def read(path):
    with open(path, "rb") as f:
        return f.read()


def log_of(game):
    p = fray("table", game, "log", "--json")
    check(p.returncode == 0, f"{game} loads after the writers (exit {p.returncode}: {p.stderr.decode()[:200]})")
    return json.loads(p.stdout) if p.returncode == 0 else []


def turn_of(game):
    return json.loads(fray("table", game, "status", "--json").stdout)["turn"]


# ---- several writers on one game file: no action lost ----
WRITERS, ACTIONS = 4, 10


def concurrent_writers(d):
    game = os.path.join(d, "busy.yaml")
    new_game(game)
    # each writer is a shell loop of ACTIONS turns, all started together
    loop = f'for i in $(seq {ACTIONS}); do "$0" table "$1" turn > /dev/null || echo "exit $?" >&2; done'
    procs = [subprocess.Popen(["sh", "-c", loop, FRAY, game], stderr=subprocess.PIPE) for _ in range(WRITERS)]
    errors = b""
    for p in procs:
        try:
            _, err = p.communicate(timeout=240)
        except subprocess.TimeoutExpired:
            p.kill()
            _, err = p.communicate()
            check(False, "the concurrent writers ended within 240 s")
        errors += err
    check(b"exit " not in errors, f"every concurrent action succeeded: {errors.decode()[-400:]}")
    entries = log_of(game)
    check(len(entries) == WRITERS * ACTIONS,
          f"{WRITERS} writers x {ACTIONS} actions: all {WRITERS * ACTIONS} in the log (got {len(entries)})")
    check(turn_of(game) == 1 + WRITERS * ACTIONS, f"turn {1 + WRITERS * ACTIONS} after {WRITERS * ACTIONS} turns "
          f"(got {turn_of(game)})")
    check([e["action"] for e in entries] == list(range(1, len(entries) + 1)), "the log's actions are numbered 1..N")
    check(not [n for n in os.listdir(d) if ".tmp-" in n], "no temporary file left by the writers")


# ---- the lock: an action waits for it, then acts on the file as it is then ----
def waits_for_the_lock(d):
    import fcntl
    import shutil
    import time
    game, nxt = os.path.join(d, "held.yaml"), os.path.join(d, "held.next")
    new_game(game)
    shutil.copy(game, nxt)
    p = fray("table", nxt, "turn")  # the file another fray will have written: turn 2
    check(p.returncode == 0, "a turn on the copy")
    with open(game, "rb") as held:
        fcntl.flock(held, fcntl.LOCK_EX)  # as a fray in the middle of an action holds it
        waiting = subprocess.Popen([FRAY, "table", game, "turn"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        time.sleep(2)
        check(waiting.poll() is None, "an action waits while another holds the game file's lock")
        os.rename(nxt, game)  # the holder's new file goes in, then its lock goes
    try:
        out, err = waiting.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        waiting.kill()
        out, err = waiting.communicate()
        check(False, "the waiting action goes on once the lock is free")
    check(waiting.returncode == 0, f"the waiting action is done (exit {waiting.returncode}: {err.decode()[:200]})")
    check(b"waiting" in err, f"it said that it waited: {err.decode()[:200]}")
    entries = log_of(game)
    check(turn_of(game) == 3 and len(entries) == 2,
          f"it acted on the file the holder renamed in (turn 3, 2 entries; got turn {turn_of(game)}, "
          f"{len(entries)} entries)")


# ---- saved but not printed: 3, and said ----
def saved_unprinted(d):
    game = os.path.join(d, "full.yaml")
    new_game(game)
    with open("/dev/full", "wb") as full:
        p = fray("table", game, "turn", stdout=full)
        check(p.returncode == 3, f"an action saved but not printed (/dev/full) is exit 3 (got {p.returncode})")
        check(b"saved" in p.stderr and b"could not print" in p.stderr,
              f"the message says it was saved and not printed: {p.stderr.decode()}")
        check(len(log_of(game)) == 1, "the action is in the log")
        p = fray("table", game, "undo", stdout=full)
        check(p.returncode == 3, f"an undo saved but not printed is exit 3 (got {p.returncode})")
        check(len(log_of(game)) == 0, "the undo was saved")
        made = os.path.join(d, "made.yaml")
        p = fray("table", "new", made, "--rules", "presidio", "--forces", FORCES, "--seed", "1", stdout=full)
        check(p.returncode == 3 and os.path.exists(made),
              f"table new made but not printed is exit 3 (got {p.returncode}), the game made")
        tmpl = os.path.join(d, "made-forces.yaml")
        p = fray("scenario", "new", "bbb", tmpl, stdout=full)
        check(p.returncode == 3 and os.path.exists(tmpl),
              f"scenario new written but not printed is exit 3 (got {p.returncode})")
        # the class: any command that wrote its file first (a battle resumed
        # over its save advances it: run again, it would play on)
        save = os.path.join(d, "battle.yaml")
        p = fray("adbg", "battle", os.path.join(EXAMPLES, "adbg", "lochry-1781.yaml"), "--seed", "1", "--save", save,
                 "--stop-after", "1")
        check(p.returncode == 0, f"adbg battle --save: {p.stderr.decode()}")
        before = read(save)
        p = fray("adbg", "resume", save, "--save", save, "--stop-after", "2", stdout=full)
        check(p.returncode == 3 and b"saved" in p.stderr and read(save) != before,
              f"adbg resume --save, saved but not printed, is exit 3 (got {p.returncode}: {p.stderr.decode()})")
        # a refused action is still 2, and a failure to print with nothing saved still 1
        p = fray("table", game, "turn", "extra", stdout=full)
        check(p.returncode == 2, f"a refused action is 2 even to /dev/full (got {p.returncode})")
        p = fray("table", game, "status", stdout=full)
        check(p.returncode == 1, f"status (nothing saved) not printed is 1 (got {p.returncode})")


# ---- names that cannot be a game file: 2, before anything is rolled ----
def no_dash_file(d, what):
    """True when no file called "-" was made in d (one made is removed, so
    that each refusal is checked on its own)."""
    dash = os.path.join(d, "-")
    if os.path.lexists(dash):
        os.remove(dash)
        return False
    return True


def refused_names(d):
    game = os.path.join(d, "named.yaml")
    new_game(game)
    before = read(game)
    # "-": standard input cannot be written back; no file called "-" appears
    with open(game, "rb") as f:
        p = fray("table", "-", "turn", stdin=f, cwd=d)
    check(p.returncode == 2, f"fray table - turn is 2 (got {p.returncode})")
    check(no_dash_file(d, "table"), "fray table - turn writes no file called -")
    p = fray("table", "new", "-", "--rules", "presidio", "--forces", FORCES, cwd=d)
    check(no_dash_file(d, "new") and p.returncode == 2, f"table new - is 2, no file called - (got {p.returncode})")
    with open(game, "rb") as f:  # reading a game from standard input is fine
        p = fray("table", "-", "status", stdin=f, cwd=d)
    check(p.returncode == 0, f"fray table - status reads standard input (got {p.returncode})")
    # a symbolic link: refused before the dice are rolled, the game as it was
    link = os.path.join(d, "link.yaml")
    os.symlink(game, link)
    p = fray("table", link, "shoot", "Presidials", "--at", "Apaches", "--range", "10")
    check(p.returncode == 2, f"an action through a symbolic link is 2 (got {p.returncode})")
    check(p.stdout == b"", "nothing rolled through a symbolic link (no story printed)")
    check(b"link" in p.stderr, f"the message says it is a link: {p.stderr.decode()}")
    check(read(game) == before, "the game behind the link is as it was")
    # a FIFO: refused at once, not waited on
    fifo = os.path.join(d, "fifo.yaml")
    os.mkfifo(fifo)
    try:
        p = fray("table", fifo, "turn", timeout=20)
        check(p.returncode == 2, f"a FIFO as the game file is 2 (got {p.returncode})")
    except subprocess.TimeoutExpired:
        check(False, "a FIFO as the game file does not hang")
    # "-" as an output file is a file nobody meant
    req = os.path.join(d, "req.json")
    with open(req, "w") as f:
        f.write('{"procedure": "adbg.rounds", "seed": 1}')
    for args in (["report", "--html", "-", req], ["scenario", "new", "bbb", "-"],
                 ["adbg", "simulate", os.path.join(EXAMPLES, "adbg", "lochry-1781.yaml"), "--trials", "10",
                  "--output", "-"]):
        p = fray(*args, cwd=d)
        check(no_dash_file(d, args[0]) and p.returncode == 2,
              f"{' '.join(args[:2])} with - as the output file is 2, no file called - (got {p.returncode})")
    check(read(game) == before, "the game is as it was after every refusal")


# ---- fray report: the request as read, as JSON ----
REQUEST = {"procedure": "adbg.fire", "inputs": {"cf": 2, "type": "regular", "terrain": "settled"}, "seed": 7}
SPELLINGS = {
    "comments and single quotes":
        "# a fire by two companies\n{'procedure': 'adbg.fire', # the procedure\n"
        " 'inputs': {'cf': 2, 'type': 'regular', 'terrain': 'settled'}, 'seed': 7}\n",
    "block style":
        '"procedure": "adbg.fire"\n"inputs":\n  "cf": 2\n  "type": "regular"\n  "terrain": "settled"\n"seed": 7\n',
    "block style, a flow mapping inside":
        '"procedure": "adbg.fire"\n"inputs": {"cf": 2, "type": "regular", "terrain": "settled"}\n"seed": 7\n',
    "numbers as strtoll reads them (007, +2)":
        '{"procedure": "adbg.fire", "inputs": {"cf": +2, "type": "regular", "terrain": "settled"}, "seed": 007}',
}


def data_block(html):
    m = re.search(r'<script type="application/json" id="fray-report">(.*?)</script>', html, re.S)
    return m and m.group(1)


def reports(d):
    canonical = os.path.join(d, "canonical.json")
    with open(canonical, "w") as f:
        json.dump(REQUEST, f)
    expected = fray("request", canonical)
    check(expected.returncode == 0, f"the plain JSON request runs: {expected.stderr.decode()}")
    want = json.loads(expected.stdout)
    for what, text in SPELLINGS.items():
        req, out = os.path.join(d, "req.yaml"), os.path.join(d, "report.html")
        with open(req, "w") as f:
            f.write(text)
        if os.path.exists(out):
            os.remove(out)
        p = fray("report", "--html", out, req)
        check(p.returncode == 0, f"report of a request with {what}: exit 0 (got {p.returncode}: "
              f"{p.stderr.decode()[:200]})")
        if p.returncode != 0:
            continue
        block = data_block(open(out, encoding="utf-8").read())
        try:
            data = json.loads(block.replace("\\u003c", "<")) if block else None
        except ValueError as e:
            data = None
            check(False, f"report of a request with {what}: the data block is JSON ({e}): {block[:120]!r}")
        if not data:
            check(False, f"report of a request with {what}: a data block")
            continue
        check(data["request"] == REQUEST, f"report of a request with {what}: the request as read ({data['request']})")
        check(data["response"] == want, f"report of a request with {what}: the response is the request's")
        check(isinstance(data["text"], str) and "fire" in data["text"].lower(),
              f"report of a request with {what}: the words")
    # refused: 2 and nothing written
    for what, text in {"an unknown key": '{"procedure": "adbg.fire", "colour": "red"}',
                       "an empty mapping": "{}", "a plain key": "procedure: adbg.fire\n",
                       "a number in quotes": '{"procedure": "adbg.fire", "inputs": {"cf": "2", '
                                             '"type": "regular", "terrain": "settled"}}'}.items():
        req, out = os.path.join(d, "bad.yaml"), os.path.join(d, "bad.html")
        with open(req, "w") as f:
            f.write(text)
        p = fray("report", "--html", out, req)
        check(p.returncode == 2 and not os.path.exists(out),
              f"report of a request with {what}: exit 2, nothing written (got {p.returncode})")


with tempfile.TemporaryDirectory() as d:
    concurrent_writers(d)
with tempfile.TemporaryDirectory() as d:
    waits_for_the_lock(d)
with tempfile.TemporaryDirectory() as d:
    saved_unprinted(d)
with tempfile.TemporaryDirectory() as d:
    refused_names(d)
with tempfile.TemporaryDirectory() as d:
    reports(d)

if failures:
    print(f"table_writers: {len(failures)} failed", file=sys.stderr)
    sys.exit(1)
print("table_writers: all passed")
