#!/usr/bin/env python3
"""Game files people share (fray table, issue 29): a file is read with care
and written so that it reads back.

1. A unit's absent field gets its default or is required; ranges and the
   fields against each other (lead within the battalions, figures at most
   start_figures...) are checked on load, with file:line:col and exit 2.
2. Malformed log entries and undo records are refused on load (never a
   crash in log, log --markdown, log --json, report --html, undo).
4. An action that would write a value the reader refuses (turn, dice, chit
   hits, fatigue past their limits) is refused with the file unchanged.
9. Text from a file is escaped for what it is written into (JSON, Markdown,
   HTML, the terminal); names with control characters are refused.

Every bad file is checked through every reader (status, log in each format,
undo, report): each exits 2 naming the file, line and column, and none
crashes. Expected lines and columns are found in the file's text here.

Usage: table_files.py FRAY EXAMPLES_DIR"""
import json
import os
import re
import subprocess
import sys
import tempfile

from tablelib import EXAMPLES, check, failures, fray, run
import tablelib


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def write(path, text):
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def new_game(tmp, rules, name, seed=7):
    return tablelib.new_game(os.path.join(tmp, name), rules, os.path.join(EXAMPLES, rules, "forces.yaml"), seed)


def entry_list(text, key, start):
    """The first log entry's list under key from start, whole: '[]' or its
    lines (a turn tells what it did)."""
    return re.compile(rf"^    {key}:(?: \[\]\n|\n(?:      - .*\n)+)", re.M).search(text, start).group(0)


def unit_block(text, name):
    """(start, end) of a unit's lines in a game file fray wrote."""
    start = text.index(f'  - name: "{name}"\n')
    nxt = re.compile(r"^(  - name: |log:|# the chit mix|mix:)", re.M).search(text, start + 1)
    return start, nxt.start() if nxt else len(text)


def edit_unit(text, name, fn):
    a, b = unit_block(text, name)
    return text[:a] + fn(text[a:b]) + text[b:]


def place(text, needle, start=0):
    """1-based line and column of needle's first occurrence from start."""
    i = text.index(needle, start)
    line = text.count("\n", 0, i) + 1
    return line, i - (text.rfind("\n", 0, i) + 1) + 1


READERS = [("status",), ("status", "--json"), ("log",), ("log", "--markdown"), ("log", "--json"), ("undo",)]
# a unit's field: every reader reads it the same way (table_load)
UNIT_READERS = [("status",), ("log", "--json")]


def refused_everywhere(game, what, at=None, words=None, readers=READERS):
    """Every reader of the game file exits 2 with file:line:col (at: the
    line and column expected), and none crashes; the file is unchanged."""
    before = read(game)
    outs = [run("table", game, *r) for r in readers]
    html = game + ".html"
    if os.path.exists(html):
        os.remove(html)
    outs.append(run("report", "--html", html, game))
    for args, p in zip(list(readers) + [("report",)], outs):
        check(p.returncode == 2, f"{what}: '{' '.join(args)}' exits 2 (got {p.returncode}: {p.stderr[-300:]})")
        m = re.search(re.escape(game) + r":(\d+):(\d+): (.*)", p.stderr)
        check(m is not None, f"{what}: '{' '.join(args)}' names the file, line and column ({p.stderr.strip()})")
        if m and at:
            check((int(m.group(1)), int(m.group(2))) == at,
                  f"{what}: the message is at line {at[0]}, column {at[1]} (got {m.group(1)}:{m.group(2)})")
        if m and words:
            check(words in m.group(3), f"{what}: the message says '{words}' (got '{m.group(3)}')")
    check(read(game) == before, f"{what}: the file is left as it was")
    check(not os.path.exists(html), f"{what}: no report written")


# ---- 1. every field its default or required; ranges and cross-field checks ----

def fields(tmp):
    game = new_game(tmp, "chits", "fields.yaml")
    good = read(game)
    # lead left out: the default, 1 (a combat then rolls: it crashed with lead 0)
    no_lead = os.path.join(tmp, "no-lead.yaml")
    write(no_lead, edit_unit(good, "Bylant", lambda u: u.replace("    lead: 1\n", "")))
    st = json.loads(fray("table", no_lead, "status", "--json").stdout)
    check(st["units"][0]["lead"] == 1, "a chits unit without lead leads with battalion 1")
    p = run("table", no_lead, "combat", "Bylant", "--at", "Karl Franz", "--tactic", "hasty", "--stance", "defend",
            "--terrain", "village", "--attacker-cdr", "17", "--defender-cdr", "6", "--draw", "5",
            "--script", "C01,C02,C03,C04,C05")
    check(p.returncode == 0, f"a combat with the default lead is fought ({p.stderr[-300:]})")
    check(json.loads(fray("table", no_lead, "status", "--json").stdout)["units"][0]["hits"] == [1, 0, 0, 0],
          "worked example 1: the attacker's hit on battalion 1, the default lead")
    # lead and battalions left out: battalions is required
    bad = os.path.join(tmp, "no-battalions.yaml")
    text = edit_unit(good, "Bylant", lambda u: u.replace("    lead: 1\n", "").replace("    battalions: 4\n", "")
                     .replace("    hits: [0, 0, 0, 0]\n", ""))
    write(bad, text)
    refused_everywhere(bad, "a unit without battalions", place(text, 'name: "Bylant"'),
                       "missing 'battalions'", readers=UNIT_READERS)
    # at: where the message points, the first character of this text in the unit
    for what, old, new, at, words in [
            ("lead 0", "    lead: 1\n", "    lead: 0\n", "0\n", "lead"),
            ("lead past the battalions", "    lead: 1\n", "    lead: 5\n", "5\n", "lead: battalion 5 of 4"),
            ("hits shorter than the battalions", "hits: [0, 0, 0, 0]", "hits: [0, 0]", "[0, 0]", "hits"),
            ("hits past their limit", "hits: [0, 0, 0, 0]", "hits: [0, 100, 0, 0]", "100", "hits"),
            ("battalions past 8", "battalions: 4", "battalions: 9", "9\n", "battalions"),
            ("negative fatigue", "fatigue: 0", "fatigue: -1", "-1", "fatigue"),
            ("a name with a line break", 'name: "Bylant"', 'name: "By\\nlant"', '"By', "control character"),
            ("a side with a C1 control", 'side: "Brent"', 'side: "Br\\u0085ent"', '"Br', "control character")]:
        text = edit_unit(good, "Bylant", lambda u: u.replace(old, new))
        write(bad, text)
        refused_everywhere(bad, f"chits: {what}", place(text, at, start=unit_block(good, "Bylant")[0]), words)
    # BBB and Presidio: strength at most the start, the required fields
    bbb = new_game(tmp, "bbb", "fields-bbb.yaml")
    good = read(bbb)
    text = edit_unit(good, "Iron Brigade", lambda u: re.sub(r"    bases: \d+\n", "    bases: 9\n", u))
    write(bbb, text)
    refused_everywhere(bbb, "bbb: more bases than start_bases", place(text, "9\n", text.index("bases: 9")),
                       "start_bases")
    text = edit_unit(good, "Iron Brigade", lambda u: re.sub(r"    start_bases: \d+\n", "", u))
    write(bbb, text)
    check(run("table", bbb, "status").returncode == 0, "bbb: start_bases left out is the bases")
    text = edit_unit(good, "Iron Brigade", lambda u: re.sub(r"    arm: .*\n", "", u))
    write(bbb, text)
    refused_everywhere(bbb, "bbb: a unit without its arm", None, "missing 'arm'", readers=UNIT_READERS)
    pres = new_game(tmp, "presidio", "fields-presidio.yaml")
    good = read(pres)
    text = edit_unit(good, "Cueras", lambda u: u.replace("    figures: 8\n", "    figures: 9\n"))
    write(pres, text)
    refused_everywhere(pres, "presidio: more figures than start_figures",
                       place(text, "9\n", text.index("figures: 9")),
                       "start_figures")
    text = edit_unit(good, "Cueras", lambda u: re.sub(r"    figures: \d+\n", "", u))
    write(pres, text)
    refused_everywhere(pres, "presidio: a unit without figures", None, "missing 'figures'", readers=UNIT_READERS)
    text = edit_unit(good, "Cueras", lambda u: u.replace('    weapon: "', '    weapon: "x'))
    write(pres, text)
    refused_everywhere(pres, "presidio: a weapon Section 10 does not know", None, "unknown weapon", readers=UNIT_READERS)
    # set keeps the same checks
    game = new_game(tmp, "chits", "fields-set.yaml")
    was = read(game)
    for change in ["lead=5", "battalions=2", "side=A\u0085B"]:   # battalions=2: hits not given with it
        p = run("table", game, "set", "Bylant", change)
        check(p.returncode == 2, f"set {change}: refused (exit {p.returncode})")
    check(read(game) == was, "set: a refused change writes nothing")
    fray("table", game, "set", "Bylant", "battalions=2", "hits=[0,1]", "lead=2")
    check(json.loads(fray("table", game, "status", "--json").stdout)["units"][0]["hits"] == [0, 1],
          "set: battalions with their hits")
    # a Presidio weapon set to one Section 10 does not know: refused at the
    # value, with the weapons the field takes (the forces reader's rule and
    # words), not as a file that would not read back; nothing written
    pres = new_game(tmp, "presidio", "fields-presidio-set.yaml")
    was = read(pres)
    with open(os.path.join(EXAMPLES, "presidio", "forces.yaml")) as f:
        shipped = set(re.findall(r"^\s+(?:melee_)?weapon: (.+?)\s*$", f.read(), re.M))
    check(len(shipped) >= 3, f"set: the example forces' weapons: {shipped}")
    for key in ("weapon", "melee_weapon"):
        p = run("table", pres, "set", "Cueras", f"{key}=nuke")
        said = p.stderr.strip()
        check(p.returncode == 2 and re.search(rf"set:2:\d+: {key}: unknown weapon 'nuke'", said) is not None
              and "read back" not in said and said.count("\n") == 0,
              f"set {key}=nuke: refused at the value, one line (exit {p.returncode}: {said[:300]})")
        listed = said.partition("expected one of Presidio Section 10's weapons: ")[2].split(", ")
        check(shipped <= set(listed), f"set {key}=nuke: names the weapons it takes ({shipped - set(listed)} "
              f"missing from {listed[:5]}...)")
    check(read(pres) == was, "set: a refused weapon writes nothing")


# ---- 2. log entries and undo records checked on load ----

def logs(tmp):
    game = new_game(tmp, "chits", "logs.yaml")
    fray("table", game, "turn")
    fray("table", game, "combat", "Bylant", "--at", "Karl Franz", "--tactic", "hasty", "--stance", "defend",
         "--terrain", "village", "--attacker-cdr", "17", "--defender-cdr", "6", "--draw", "5",
         "--script", "C01,C02,C03,C04,C05")
    good = read(game)
    bad = os.path.join(tmp, "bad-log.yaml")
    first = good.index("  - command: ")
    story, steps, changes = (entry_list(good, key, first) for key in ("story", "steps", "changes"))
    for what, old, new, words in [
            ("a story that is a mapping", story, "    story: {a: b}\n", "story"),
            ("an entry without its turn", "    turn: 1\n    dice", "    dice", "missing 'turn'"),
            ("a step that is a list", steps, "    steps: [[1]]\n", "step"),
            ("a step with a member of the action's", steps, "    steps: [{procedure: x, turn: 9}]\n",
             "unknown key 'turn'"),
            ("changes that are a number", changes, "    changes: 5\n", "changes"),
            ("dice of one number", "    dice: [0, 0]", "    dice: [0]", "dice"),
            ("a turn of .5", "    turn: 1\n    dice", "    turn: .5\n    dice", "turn"),
            ("a turn of 00", "    turn: 1\n    dice", "    turn: 00\n    dice", "turn"),
            ("a command that is a list", '  - command: "turn"', "  - command: [turn]", "command"),
            ("an entry that is a number", '  - command: "turn"\n', "  - 5\n  - command: \"turn\"\n", "log entry"),
            ("an undo with lead 0", 'undo: {"dice": 0, "turn": 2, "units": [{"name": "Bylant", "side": "Brent", '
             '"arm": "infantry", "battalions": 4, "hits": [0, 0, 0, 0], "lead": 1',
             'undo: {"dice": 0, "turn": 2, "units": [{"name": "Bylant", "side": "Brent", '
             '"arm": "infantry", "battalions": 4, "hits": [0, 0, 0, 0], "lead": 0', "lead"),
            ("an undo of a unit not in the game", 'undo: {"dice": 0, "turn": 2, "units": [{"name": "Bylant"',
             'undo: {"dice": 0, "turn": 2, "units": [{"name": "Nobody"', "no unit named"),
            ("an undo without its dice", '    undo: {"dice": 0, ', '    undo: {', "missing 'dice'")]:
        i = good.index(old, first)
        text = good[:i] + new + good[i + len(old):]
        write(bad, text)
        refused_everywhere(bad, f"log: {what}", None, words)
    # log that is not a list, a mix that is not a mix
    write(bad, good.replace("\nlog:\n", "\nlog: 5\nx:\n", 1))
    refused_everywhere(bad, "a log that is a number", None)
    write(bad, re.sub(r"\n  chits:\n", "\n  chitz:\n", good, 1))
    refused_everywhere(bad, "a mix with an unknown key", None, "mix")


# ---- 4. the writer keeps the reader's limits ----

def limits(tmp):
    combat = ["combat", "Bylant", "--at", "Karl Franz", "--tactic", "hasty", "--stance", "defend", "--terrain",
              "village", "--attacker-cdr", "17", "--defender-cdr", "6", "--draw", "5", "--script",
              "C01,C02,C03,C04,C05"]
    game = new_game(tmp, "chits", "limits.yaml")
    good = read(game)
    # a battalion at 99 hits or fatigue 99 is held there by the combat
    # itself (docs/chits.md, "Levels held at 99"; issue 40 item 9): the
    # game file never sees 100, so the action is played, not refused
    for what, edit in [
            ("a battalion at 99 hits takes one more",
             lambda t: edit_unit(t, "Bylant", lambda u: u.replace("hits: [0, 0, 0, 0]", "hits: [99, 0, 0, 0]"))),
            ("fatigue 99 takes a point more",
             lambda t: edit_unit(t, "Bylant", lambda u: u.replace("fatigue: 0", "fatigue: 99")))]:
        text = edit(good)
        check(text != good, f"limits: {what}: the edit applies")
        write(game, text)
        p = run("table", game, *combat)
        check(p.returncode == 0, f"limits: {what}: played (exit {p.returncode}: {p.stderr[-300:]})")
        after = read(game)
        check(not re.search(r"\b(100|1[0-9][0-9])\b", after.split("\nlog:")[0]),
              f"limits: {what}: no level past 99 in the forces")
        check(run("table", game, "status").returncode == 0, f"limits: {what}: the game still loads")
    write(game, good)
    for what, edit, action in [
            ("turn 100000, then the next turn", lambda t: t.replace("\nturn: 1\n", "\nturn: 100000\n"), ["turn"]),
            ("the dice at their limit",
             lambda t: t.replace("\ndice: 0\n", f"\ndice: {2**63 - 1}\n"), combat)]:
        text = edit(good)
        check(text != good, f"limits: {what}: the edit applies")
        write(game, text)
        fray("table", game, "status")      # the file itself reads
        p = run("table", game, *action)
        check(p.returncode == 2, f"limits: {what}: refused (exit {p.returncode}: {p.stderr[-300:]})")
        check("nothing was written" in p.stderr, f"limits: {what}: says nothing was written ({p.stderr.strip()})")
        check(read(game) == text, f"limits: {what}: the file byte for byte as it was")
        check(run("table", game, "status").returncode == 0, f"limits: {what}: the game still loads")


# ---- one budget for a game file (issue 41 case 5) ----

# docs/table.md: a game file of at most 2016 KiB, so that as a JSON string
# (each byte at most two) with 64 KiB for the request's other fields it fits
# the 4 MiB a JSON request may have
GAME_BUDGET = (4 * 2**20 - 64 * 2**10) // 2


def grown(tmp, name, size):
    """A real game (a shot) whose log entry is repeated until the file is
    as near size bytes as whole entries go (a log is read entry by entry;
    the writer gives the same bytes back)."""
    game = new_game(tmp, "presidio", name, seed=3)
    fray("table", game, "shoot", "Presidials", "--at", "Apaches", "--range", "10")
    text = read(game)
    i = text.index("\nlog:\n") + 6
    head, entry = text[:i], text[i:]
    write(game, head + entry * ((size - len(head)) // len(entry)))
    return game


def one_budget(tmp):
    """fray report reads every game file fray table plays: one of 1.5 MiB
    (past the 1 MiB a request may have: today's report refused it) takes a
    turn at the table and makes its report; one past the game file's budget
    is refused by both, the same limit named."""
    game = grown(tmp, "long.yaml", 3 * 2**19)
    check(2**20 < os.path.getsize(game) <= 3 * 2**19, "one budget: the game is between 1 and 1.5 MiB")
    fray("table", game, "turn")
    html = os.path.join(tmp, "long.html")
    p = run("report", "--html", html, game)
    check(p.returncode == 0, f"one budget: report reads a game fray table plays (exit {p.returncode}: "
          f"{p.stderr.strip()[-300:]})")
    check(p.returncode == 0 and "turn 2 begins" in read(html), "one budget: the report has the game's last action")
    past = grown(tmp, "past.yaml", GAME_BUDGET + 5000)
    check(os.path.getsize(past) > GAME_BUDGET, "one budget: the game is past the budget")
    for args in (("table", past, "status"), ("report", "--html", os.path.join(tmp, "past.html"), past)):
        p = run(*args)
        check(p.returncode == 2 and str(GAME_BUDGET) in p.stderr,
              f"one budget: {args[0]} refuses a game past {GAME_BUDGET} bytes, naming it "
              f"(exit {p.returncode}: {p.stderr.strip()[-300:]})")


# ---- 9. escaped for every format; names refused ----

def fences(md):
    """The Markdown's fenced blocks as CommonMark reads them: (opening
    line, closing line) pairs, and the lines outside any block."""
    lines, blocks, outside, i = md.split("\n"), [], [], 0
    while i < len(lines):
        m = re.match(r"^ {0,3}(~{3,}|`{3,})", lines[i])
        if not m:
            outside.append(lines[i])
            i += 1
            continue
        fence, j = m.group(1), i + 1
        while j < len(lines) and not re.match(r"^ {0,3}" + re.escape(fence[0]) + "{%d,} *$" % len(fence), lines[j]):
            j += 1
        blocks.append((i, j))
        i = j + 1
    return blocks, outside


def injection(tmp):
    # a name with a control character is refused in a forces file
    forces = os.path.join(tmp, "forces-nl.yaml")
    write(forces, read(os.path.join(EXAMPLES, "chits", "forces.yaml")).replace("name: Bylant", 'name: "By\\nlant"')
          .replace("mix: sample-mix.yaml", "mix: " + os.path.join(os.path.abspath(EXAMPLES), "chits", "sample-mix.yaml")))
    p = run("table", "new", os.path.join(tmp, "nl.yaml"), "--rules", "chits", "--forces", forces)
    check(p.returncode == 2 and "control character" in p.stderr and not os.path.exists(os.path.join(tmp, "nl.yaml")),
          f"a forces file's name with a line break is refused ({p.stderr.strip()})")
    # a log written by someone else: its turn, command and story as text
    game = new_game(tmp, "chits", "inject.yaml")
    fray("table", game, "turn")
    text = read(game)
    evil = '~~~\\n</pre><script>alert(1)</script>\\n# forged\\n\\u001b[31m\\t\\u202e'
    text = text.replace('  - command: "turn"\n    turn: 1\n',
                        f'  - command: "turn {evil}"\n    turn: 01\n', 1)
    first = text.index("  - command: ")
    text = text.replace(entry_list(text, "story", first), f'    story: ["~~~~~~", "{evil}", "```"]\n', 1)
    text = text.replace(entry_list(text, "steps", first), '    steps: [{procedure: x, seed: 01, dice: .5, inputs: {12: 1., "a\\"b": '
                        '-0, c: 1e5, d: 1.5e+3}, outcome: {}, events: []}]\n', 1)
    write(game, text)
    log = json.loads(fray("table", game, "log", "--json").stdout)   # strict: 01, .5 or 1. would not parse
    check(log[0]["turn"] == 1, "log --json: the turn as a number")
    check(log[0]["seed"] == "01" and log[0]["dice"] == ".5" and log[0]["inputs"]["12"] == "1." and
          log[0]["inputs"]['a"b'] == 0 and log[0]["inputs"]["c"] == 1e5 and log[0]["inputs"]["d"] == 1500,
          f"log --json: numbers by JSON's grammar stay numbers, other scalars are strings ({log[0]})")
    check(log[0]["command"] == "turn " + evil.replace("\\n", "\n").replace("\\u001b", "\x1b")
          .replace("\\t", "\t").replace("\\u202e", "\u202e"), "log --json: the command whole, as a JSON string")
    raw = fray("table", game, "log", "--json").stdout
    check("[31m\\t" in raw and "\\u0009" not in raw, "log --json: the library's escaper (fray_json_string): "
          "a tab as \\t")
    md = fray("table", game, "log", "--markdown").stdout
    blocks, outside = fences(md)
    check(len(blocks) == 1, f"log --markdown: one fenced block for one action (got {len(blocks)})")
    check(not any("<script" in line or "forged" in line for line in outside),
          "log --markdown: nothing from the file outside its fence")
    check("\x1b" not in md and "## 1. Turn 1\n" in md, "log --markdown: controls escaped, the turn a number")
    out = fray("table", game, "log").stdout
    check("\x1b" not in out and not re.search(r"^# forged", out, re.M), "log: controls shown escaped")
    check("\u202e" not in out and "\\u202e" in out and "\t" not in out,
          "log: a bidirectional control and a tab shown escaped (fray_term_string)")
    html = os.path.join(tmp, "inject.html")
    fray("report", "--html", html, game)
    page = read(html)
    check("<script" not in page and "&lt;script&gt;" in page, "report: the file's text escaped as HTML")


with tempfile.TemporaryDirectory() as tmp:
    fields(tmp)
    logs(tmp)
    limits(tmp)
    one_budget(tmp)
    injection(tmp)

if failures:
    print(f"table_files: {len(failures)} checks failed", file=sys.stderr)
    sys.exit(1)
print("table_files: bad game files refused with their places, limits kept by the writer, text escaped")
