#!/usr/bin/env python3
"""fray adbg sweep as a designer uses it (issue 33): ranges under a points
budget, CSV and JSON with the baseline row, --target, --set on odds,
simulate, battle and sweep, --write, units added and removed by name, the
sensitivity summary, and a copied example run from another folder.

Every expectation is computed here: the grid from Python's own range and
product, a point's numbers from `simulate` of a copy of the scenario that
this test edits itself (PyYAML), the target's filter and order and the
sensitivity's means and ranking from the rows.

usage: sweep_tools.py FRAY EXAMPLES_DIR DATA_DIR"""
import copy
import csv
import io
import itertools
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile

import yaml

FRAY, EXAMPLES, DATA = (os.path.abspath(a) for a in sys.argv[1:4])
BLUE = os.path.join(EXAMPLES, "adbg", "blue-licks-1782.yaml")
LOCHRY = os.path.join(EXAMPLES, "adbg", "lochry-1781.yaml")
CRT = os.path.abspath(os.path.join(DATA, "adbg", "example-melee-crt.yaml"))
TRIALS = "1000"
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


def run(*args, cwd=None):
    return subprocess.run([FRAY, *args], capture_output=True, text=True, cwd=cwd, timeout=300)


def sweep_csv(*args):
    r = run("adbg", "sweep", *args, "--trials", TRIALS, "--quiet", "--csv")
    assert r.returncode == 0, r.stderr
    return list(csv.DictReader(io.StringIO(r.stdout)))


def sim_json(path, *args):
    r = run("adbg", "simulate", path, "--trials", TRIALS, "--quiet", "--json", *args)
    assert r.returncode == 0, r.stderr
    j = json.loads(r.stdout)
    return [j["sides"][0]["win"]["p"], j["sides"][1]["win"]["p"], j["draw"]["p"]]


def row_rates(row):
    return [float(row["side1_win"]), float(row["side2_win"]), float(row["draw"])]


tmp = tempfile.mkdtemp(prefix="fray-sweep-")


def edited(src, edit, name):
    """A copy of the scenario, changed by edit(doc), with the CRT named by
    its absolute path so the copy runs from anywhere."""
    with open(src) as f:
        doc = yaml.safe_load(f)
    doc["melee_crt"] = CRT
    edit(doc)
    path = os.path.join(tmp, name)
    with open(path, "w") as f:
        yaml.safe_dump(doc, f, sort_keys=False)
    return path


with open(BLUE) as f:
    blue = yaml.safe_load(f)

# ---- ranges and the budget ----
rows = sweep_csv(BLUE, "--vary", "sides.kentucky.level=1..3", "--vary", "terrain=rough,settled")
want = [(str(a), b) for a, b in itertools.product(range(1, 4), ["rough", "settled"])]
check([(r["sides.kentucky.level"], r["terrain"]) for r in rows] == want, "1..3 x 2 values: the grid in order")
rows9 = sweep_csv(BLUE, "--vary", "sides.raiders.level=1..6:2")
check([r["sides.raiders.level"] for r in rows9] == [str(v) for v in range(1, 7, 2)],
      "1..6:2 is 1, 3, 5")
r = run("adbg", "sweep", BLUE, "--vary", "sides.kentucky.level=3..1")
check(r.returncode == 2 and "--vary" in r.stderr, "a backwards range is refused naming --vary")
r = run("adbg", "sweep", BLUE, "--vary", "sides.kentucky.level=0..6", "--vary", "terrain=rough,settled",
        "--max-points", "10")
check(r.returncode == 2 and "--max-points" in r.stderr and "14" in r.stderr,
      "14 points over a budget of 10: refused naming --max-points")

# ---- the baseline row ----
base_level = str(blue["sides"]["kentucky"]["level"])
marked = [r for r in rows if r["baseline"] == "1"]
check(len(marked) == 1 and marked[0]["sides.kentucky.level"] == base_level and marked[0]["terrain"] == blue["terrain"],
      "the grid point with the file's own values is the one baseline row")
# the raiders' own level (3) is in 1, 3, 5; a grid without it gets it added first
rows_nb = sweep_csv(BLUE, "--vary", "sides.raiders.level=1,2")
check(rows_nb[0]["baseline"] == "1" and rows_nb[0]["sides.raiders.level"] == str(blue["sides"]["raiders"]["level"])
      and [r["baseline"] for r in rows_nb[1:]] == ["0", "0"], "a baseline outside the grid is added as point 1")
base_sim = sim_json(BLUE)
check(row_rates(marked[0]) == base_sim, "the baseline row is the unchanged scenario's simulation")

# ---- each row is the simulation of the file changed by hand; the CSV's interval is Wilson's ----
def wilson(k, n, z=1.959963984540054):
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return c - h, c + h


for row in (rows[0], rows[5]):
    def change(doc, row=row):
        doc["sides"]["kentucky"]["level"] = int(row["sides.kentucky.level"])
        doc["terrain"] = row["terrain"]
    p = edited(BLUE, change, "point.yaml")
    check(row_rates(row) == sim_json(p), "row %s equals simulate of the file changed by the test" % row["point"])
    k = round(float(row["side1_win"]) * int(TRIALS))
    lo, hi = wilson(k, int(TRIALS))
    check(abs(float(row["side1_lo"]) - lo) < 1e-12 and abs(float(row["side1_hi"]) - hi) < 1e-12,
          "row %s: side 1's interval is the Wilson score interval" % row["point"])
    check(abs(sum(row_rates(row)) - 1) < 1e-12, "row %s: the three outcomes add to 1" % row["point"])

# ---- JSON: the same points, the baseline field ----
r = run("adbg", "sweep", BLUE, "--vary", "sides.kentucky.level=1..3", "--vary", "terrain=rough,settled",
        "--trials", TRIALS, "--quiet", "--json")
j = json.loads(r.stdout)
check([p["baseline"] for p in j["points"]] == [r_["baseline"] == "1" for r_ in rows], "JSON marks the same baseline")
check([p["wins"][0]["p"] for p in j["points"]] == [float(r_["side1_win"]) for r_ in rows], "JSON and CSV agree")

# ---- --target: the rows meeting it, closest first ----
def target_rows(expr, value, keep, key, filters=True):
    got = sweep_csv(BLUE, "--vary", "sides.kentucky.level=1..3", "--vary", "terrain=rough,settled", "--target", expr)
    exp = sorted((r_ for r_ in rows if keep(value(r_))), key=lambda r_: (key(value(r_)), int(r_["point"])))
    # a target no row meets (or every row, for a filter) would pass whatever --target does
    check(len(exp) >= 2 and (not filters or len(exp) < len(rows)),
          "--target %s: %d of %d rows meet it here, a case that cannot tell filtering from none" %
          (expr, len(exp), len(rows)))
    check([g["point"] for g in got] == [e["point"] for e in exp], "--target %s: the rows and their order" % expr)
    for g in got:
        check(abs(float(g["target"]) - value(g)) < 1e-12, "--target %s: the target column" % expr)


gap = lambda r_: abs(float(r_["side1_win"]) - float(r_["side2_win"]))
target_rows("|A-B|<0.4", gap, lambda v: v < 0.4, lambda v: v)
target_rows("|Kentucky militia-raiders|<0.4", gap, lambda v: v < 0.4, lambda v: v)
target_rows("draw>0.45", lambda r_: float(r_["draw"]), lambda v: v > 0.45, lambda v: -v)
target_rows("B=40%", lambda r_: float(r_["side2_win"]), lambda v: True, lambda v: abs(v - 0.4), filters=False)
r = run("adbg", "sweep", BLUE, "--vary", "terrain=rough", "--target", "wins<0.4")
check(r.returncode == 2 and "--target" in r.stderr, "an unknown outcome in --target is refused naming it")

# ---- --set on simulate, odds, battle and sweep ----
def set_level3(doc):
    doc["sides"]["kentucky"]["level"] = 3


lv3 = edited(BLUE, set_level3, "level3.yaml")
check(sim_json(BLUE, "--set", "sides.kentucky.level=3") == sim_json(lv3), "simulate --set equals the edited file")
# (simulated odds: exact ones take too long under the sanitizers)
r1 = run("adbg", "odds", LOCHRY, "--set", "sides.brant.level=1", "--json", "--budget", "0", "--trials", TRIALS)
lo1 = edited(LOCHRY, lambda d: d["sides"]["brant"].__setitem__("level", 1), "lochry-b1.yaml")
r2 = run("adbg", "odds", lo1, "--json", "--budget", "0", "--trials", TRIALS)
check(r1.returncode == 0 and json.loads(r1.stdout)["outcomes"] == json.loads(r2.stdout)["outcomes"],
      "odds --set equals the odds of the edited file")
b1 = run("adbg", "battle", BLUE, "--seed", "7", "--set", "sides.kentucky.level=3")
b2 = run("adbg", "battle", lv3, "--seed", "7")
check(b1.returncode == 0 and b1.stdout == b2.stdout, "battle --set tells the same battle as the edited file")
srows = sweep_csv(BLUE, "--set", "sides.kentucky.level=3", "--vary", "terrain=rough")
check(row_rates(srows[0]) == sim_json(lv3) and srows[0]["baseline"] == "1", "sweep --set: its baseline is the set file")
r = run("adbg", "simulate", BLUE, "--set", "sides.kentucky.levle=3")
check(r.returncode == 2 and "sides.kentucky.levle" in r.stderr and "--set" in r.stderr,
      "a --set path that names nothing: exit 2 naming the option and the path")
r = run("adbg", "odds", BLUE, "--set", "sides.kentucky.level=9")
check(r.returncode == 2 and "sides.kentucky.level=9" in r.stderr, "a --set value out of range names the path")

# ---- units removed and added by name ----
def remove_lincoln(doc):
    k = doc["sides"]["kentucky"]
    del k["stacks"][1]                 # Lincoln militia is stack 2's only unit
    for l in k["leaders"]:
        if l["stack"] == 2:
            del l["stack"]             # its leader is left with no stack
        elif l["stack"] > 2:
            l["stack"] -= 1            # later stacks move up one


def add_boone(doc):
    st = doc["sides"]["kentucky"]["stacks"][2]
    unit = copy.deepcopy(st[0])
    unit["name"] += " (2)"
    st.insert(1, unit)


def add_mingo_new(doc):
    st = doc["sides"]["raiders"]["stacks"]
    unit = copy.deepcopy(st[3][0])
    unit["name"] += " (2)"
    st.append([unit])


urows = sweep_csv(BLUE, "--vary", "units=none,remove:Lincoln militia,add:Boone's company,add:Mingo warriors@new")
check([r_["units"] for r_ in urows] == ["none", "remove:Lincoln militia", "add:Boone's company",
                                         "add:Mingo warriors@new"] and urows[0]["baseline"] == "1",
      "the units knob: its values in order, none the baseline")
check(row_rates(urows[0]) == base_sim, "units=none is the scenario as it is")
for row, edit, name in ((urows[1], remove_lincoln, "removed"), (urows[2], add_boone, "added"),
                        (urows[3], add_mingo_new, "new-stack")):
    check(row_rates(row) == sim_json(edited(BLUE, edit, name + ".yaml")),
          "units=%s equals the file changed by the test" % row["units"])
r = run("adbg", "sweep", BLUE, "--vary", "units=remove:Nobody")
check(r.returncode == 2 and "Nobody" in r.stderr and "--vary" in r.stderr, "an unknown name is refused")

# ---- --write: the point as a file that runs and gives the point's numbers ----
wfile = os.path.join(tmp, "written.yaml")
r = run("adbg", "sweep", BLUE, "--vary", "units=none,remove:Lincoln militia", "--vary", "sides.kentucky.level=1..3",
        "--write", "5", wfile)
check(r.returncode == 0 and os.path.exists(wfile), "--write 5 FILE writes the file")
wrows = sweep_csv(BLUE, "--vary", "units=none,remove:Lincoln militia", "--vary", "sides.kentucky.level=1..3")
check(row_rates(wrows[4]) == sim_json(wfile), "the written point runs and gives point 5's numbers")
with open(wfile) as f:
    wdoc = yaml.safe_load(f)
check(wdoc["sides"]["kentucky"]["level"] == 2 and len(wdoc["sides"]["kentucky"]["stacks"]) == 2,
      "the written file holds point 5's values")
copy_in = os.path.join(tmp, "mine.yaml")
shutil.copy(BLUE, copy_in)
before = open(copy_in).read()
r = run("adbg", "sweep", copy_in, "--vary", "terrain=rough", "--write", "1", copy_in)
check(r.returncode == 2 and "--write" in r.stderr and open(copy_in).read() == before,
      "--write refuses to write over its input, which is left as it was")

# ---- sensitivity: means per value, ranked; a knob that changes nothing ----
r = run("adbg", "sweep", BLUE, "--vary", "sides.kentucky.level=1..3", "--vary", "terrain=rough,settled",
        "--vary", "battle=Blue Licks,Another name", "--trials", TRIALS, "--quiet", "--json")
j = json.loads(r.stdout)
pts = [p for p in j["points"] if p["grid"]]   # not the baseline added before the grid
rates = lambda p: [p["wins"][0]["p"], p["wins"][1]["p"], p["draw"]["p"]]
expect = []
for k, knob in enumerate(j["vary"]):
    values = list(dict.fromkeys(p["values"][k] for p in pts))
    means = [[sum(rates(p)[o] for p in pts if p["values"][k] == v) / sum(1 for p in pts if p["values"][k] == v)
              for o in range(3)] for v in values]
    lo = [min(m[o] for m in means) for o in range(3)]
    hi = [max(m[o] for m in means) for o in range(3)]
    expect.append((knob, lo, hi, max(hi[0] - lo[0], hi[1] - lo[1])))
sens = j["sensitivity"]
check(sorted(s["knob"] for s in sens) == sorted(e[0] for e in expect),
      "sensitivity: a line for every knob varied (%s)" % [s["knob"] for s in sens])
for s in sens:
    knob, lo, hi, _ = next(e for e in expect if e[0] == s["knob"])
    for o, name in enumerate(("side1", "side2", "draw")):
        check(abs(s[name]["lo"] - lo[o]) < 1e-12 and abs(s[name]["hi"] - hi[o]) < 1e-12,
              "sensitivity of %s, %s: the lowest and highest mean" % (knob, name))
label = next(s for s in sens if s["knob"] == "battle")
check(label["no_effect"] and sens[-1]["knob"] == "battle", "the battle's name changes nothing and ranks last")
moving = [e for e in expect if e[0] != "battle"]
check([s["knob"] for s in sens[:2]] == [e[0] for e in sorted(moving, key=lambda e: -e[3])],
      "the knobs ranked by how far they move a side's win rate")
txt = run("adbg", "sweep", BLUE, "--vary", "battle=Blue Licks,Another name", "--trials", "300", "--quiet").stdout
check("battle: changes nothing: the scenario reads the same for the battle" in txt and "never reads" in txt,
      "the text says the battle's name changes nothing, and why: the battle never reads it")
# values in one same-battles class have the same rows wherever the other knobs agree
r = run("adbg", "sweep", LOCHRY, "--vary", "sides.brant.stacks.1.1.melee=1..9", "--vary", "sides.brant.level=3,4",
        "--trials", TRIALS, "--quiet", "--json")
j = json.loads(r.stdout)
same = j["sensitivity"][[s["knob"] for s in j["sensitivity"]].index("sides.brant.stacks.1.1.melee")]["same_battles"]
row_of = {tuple(p["values"]): (rates(p), p["mean_losses"]) for p in j["points"]}
for cls in same:
    for lvl in ("3", "4"):
        check(len({json.dumps(row_of[(v, lvl)]) for v in cls}) == 1,
              "melee values %s give the same rows (level %s)" % (cls, lvl))
check(any(len(c) >= 2 for c in same), "a melee past the CRT's cap is named among values giving the same battles")
# two melee CFs are two different scenarios: the same battles come from the battle, not from a value unread
txt = run("adbg", "sweep", LOCHRY, "--vary", "sides.brant.stacks.1.1.melee=1..9", "--vary", "sides.brant.level=3,4",
          "--trials", TRIALS, "--quiet").stdout
line = next((l for l in txt.splitlines() if "the same battles (same dice" in l), "")
check("the scenarios differ, the battles do not" in line and "cap" in line,
      "the melee values giving the same battles: said to differ as scenarios (a cap, or a unit never fighting)")

# ---- a copied example runs from any folder ----
away = tempfile.mkdtemp(prefix="fray-copy-")
shutil.copy(LOCHRY, away)
elsewhere = tempfile.mkdtemp(prefix="fray-cwd-")
r = run("adbg", "simulate", os.path.join(away, "lochry-1781.yaml"), "--trials", TRIALS, "--quiet", "--json",
        cwd=elsewhere)
check(r.returncode == 0, "a copied example runs from another folder: " + r.stderr.strip())
if r.returncode == 0:
    jj = json.loads(r.stdout)
    check([jj["sides"][0]["win"]["p"], jj["sides"][1]["win"]["p"], jj["draw"]["p"]] == sim_json(LOCHRY),
          "the copy gives the example's numbers (the shipped CRT found)")
r = run("adbg", "sweep", "lochry-1781.yaml", "--vary", "sides.brant.level=3,4", "--trials", "200", "--quiet", cwd=away)
check(r.returncode == 0, "sweep of the copy, run in its folder")

shutil.rmtree(tmp)
shutil.rmtree(away)
shutil.rmtree(elsewhere)
if failures:
    print("%d failures" % len(failures))
    sys.exit(1)
print("sweep tools: all checks passed")
