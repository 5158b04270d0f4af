#!/usr/bin/python3
"""fray report --html draws its plots as inline SVG made by fray itself: a
sweep of one knob (a line plot with bands), of two knobs (a heat map a side,
a cell a point), a simulation (who wins, units lost) and exact odds (a bar an
outcome). Opened from disk in headless Chromium: every mark's data-*
attributes and position equal the numbers this test read from fray's own
JSON; names stay text; no page scrolls sideways at 412 px; the sweep's file
has no script at all and the other plots are in the file's HTML, not made
by the page's script. Usage: FRAY SOURCE_DIR SHOTS"""
import json
import os
import re
import subprocess
import sys
import tempfile

import yaml

from selenium.webdriver.common.by import By

from page_test import browser, check, failures

HOSTILE = '<img src=x onerror="document.title=1">&amp;'
TOL = 5e-7  # the data-* attributes carry six decimals


def run(fray, source, args, stdin=None):
    r = subprocess.run([fray, *args], input=stdin, capture_output=True, text=True, cwd=source)
    check(r.returncode == 0, "%s: exit %d %s" % (args, r.returncode, r.stderr))
    return r.stdout


def near(a, b, tol=TOL):
    return abs(float(a) - b) <= tol


def report(fray, source, tmp, name, data):
    src = os.path.join(tmp, name + ".json")
    with open(src, "w") as f:
        json.dump(data, f)
    html = os.path.join(tmp, name + ".html")
    run(fray, source, ["report", "--html", html, src])
    if not os.path.exists(html):  # refused (checked in run): an empty page, so every check below fails
        open(html, "w").close()
    with open(html) as f:
        return html, f.read()


def no_sideways_scroll(phone, html, what, shot=None):
    phone.get("file://" + html)
    wide = phone.execute_script("return document.documentElement.scrollWidth > window.innerWidth")
    check(not wide, "%s: scrolls sideways at 412 px" % what)
    if shot:
        phone.execute_script("var e = document.querySelector('svg.plot'); if (e) e.scrollIntoView()")
        phone.save_screenshot(shot)


def attrs(e, *names):
    return [e.get_attribute(n) for n in names]


def check_line(d, sweep, names, baseline):
    """One knob: a mark a point and a series (each side, the draw), at the
    height its rate gives on the plot's own 0-100% axis."""
    svgs = d.find_elements(By.CSS_SELECTOR, "svg[data-plot=line]")
    check(len(svgs) == 1, "one knob: one line plot, %d" % len(svgs))
    if not svgs:
        return
    g = svgs[0].find_element(By.CSS_SELECTOR, "g[data-top]")
    top, bottom = float(g.get_attribute("data-top")), float(g.get_attribute("data-bottom"))
    marks = svgs[0].find_elements(By.CSS_SELECTOR, "circle.mark")
    check(len(marks) == 3 * len(sweep["points"]), "a mark a point and series: %d" % len(marks))
    got = {(m.get_attribute("data-series"), m.get_attribute("data-x")): m for m in marks}
    xs = sorted(float(pt["values"][0]) for pt in sweep["points"])
    for pt in sweep["points"]:
        rates = pt["wins"] + [pt["draw"]]
        for k, rate in enumerate(rates):
            m = got.get((str(k), pt["values"][0]))
            check(m is not None, "no mark for series %d at %s" % (k, pt["values"][0]))
            if m is None:
                continue
            p, lo, hi, cx, cy = attrs(m, "data-p", "data-lo", "data-hi", "cx", "cy")
            check(near(p, rate["p"]) and near(lo, rate["lo"]) and near(hi, rate["hi"]),
                  "series %d at %s: %s %s %s, the sweep %s" % (k, pt["values"][0], p, lo, hi, rate))
            check(near(cy, bottom - (bottom - top) * rate["p"], 0.006), "series %d at %s: cy %s" % (k, p, cy))
        # the values in order along x, left to right
        cx = float(got[("0", pt["values"][0])].get_attribute("cx"))
        rank = xs.index(float(pt["values"][0]))
        others = sorted(float(got[("0", q["values"][0])].get_attribute("cx")) for q in sweep["points"])
        check(others[rank] == cx, "value %s is not at its place along x" % pt["values"][0])
    text = svgs[0].text
    for n in names:
        check(n[:30] in text, "the legend names %r: %r" % (n, text))  # long names are cut at 40 bytes
    lines = svgs[0].find_elements(By.CSS_SELECTOR, "line.baseline")
    if baseline is None:
        check(not lines, "a baseline drawn where the sweep has none")
    else:
        check(len(lines) == 1 and lines[0].get_attribute("data-x") == baseline, "the baseline at %s" % baseline)


def check_heat(d, sweep):
    """Two knobs: a heat map a side; a cell a point, its value that side's
    win rate, the point's values on its row (knob 1) and column (knob 2)."""
    svgs = d.find_elements(By.CSS_SELECTOR, "svg[data-plot=heat]")
    check(len(svgs) == 2, "two knobs: a heat map a side, %d" % len(svgs))
    for side, svg in enumerate(svgs):
        cells = svg.find_elements(By.CSS_SELECTOR, "rect.cell")
        check(len(cells) == len(sweep["points"]), "side %d: %d cells, %d points" % (side, len(cells),
                                                                                  len(sweep["points"])))
        got = {(c.get_attribute("data-y"), c.get_attribute("data-x")): c.get_attribute("data-v") for c in cells}
        for pt in sweep["points"]:
            v = got.get(tuple(pt["values"]))
            check(v is not None and near(v, pt["wins"][side]["p"]),
                  "side %d at %s: %s, the sweep %s" % (side, pt["values"], v, pt["wins"][side]["p"]))
        # the number written in each cell is the rate in percent
        shown = [t.text for t in svg.find_elements(By.CSS_SELECTOR, "rect.cell + text")]
        want = ["%.1f%%" % (100 * float(c.get_attribute("data-v"))) for c in cells]
        check(shown == want, "side %d: the cells say %s, their values %s" % (side, shown, want))


def check_bars(svg, want, what):
    bars = svg.find_elements(By.CSS_SELECTOR, "rect.bar")
    got = [float(b.get_attribute("data-v")) for b in bars]
    check(len(got) == len(want) and all(near(g, w) for g, w in zip(got, want)), "%s: bars %s, the JSON %s"
          % (what, got, want))
    g = svg.find_element(By.CSS_SELECTOR, "g[data-left]")
    span = float(g.get_attribute("data-right")) - float(g.get_attribute("data-left"))
    for b, w in zip(bars, want):
        check(near(b.get_attribute("width"), span * w, 0.006), "%s: a bar's length is not its value" % what)


FIREPOWER_UP_TO = [0.25, 0.5, 1, 2, 4, 6, 9, 12, 16, 20, 25, 30, 36, 42, 49, float("inf")]


def bbb_fire_odds(firepower, shift):
    """BBB sheet, The Firefight, ruling R18: the column is the first whose
    "up to" is at least the firepower, moved by the shifts, clamped; each
    row of 2d6 reads the diagonal pattern R, T, V, 1, 1, 1, 2, 2, 2, 3 ...
    from column 12 - row (row 12 from column 0, row 11 from column 1); rows
    11 and 12 also put the firer Low on Ammo. {(result, low ammo): p}, the
    2d6 faces counted here."""
    col = next(i for i, up in enumerate(FIREPOWER_UP_TO) if firepower <= up)
    col = min(max(col + shift, 0), len(FIREPOWER_UP_TO) - 1)
    pattern = ["R", "T", "V", "1", "1", "1", "2", "2", "2"]
    odds = {}
    for a in range(1, 7):
        for b in range(1, 7):
            row = a + b
            k = col - (0 if row == 12 else 1 if row == 11 else 12 - row)
            result = "none" if k < 0 else pattern[k] if k < len(pattern) else "3"
            key = (result, row >= 11)
            odds[key] = odds.get(key, 0) + 1 / 36
    return odds


def main():
    fray, source, shots = sys.argv[1], sys.argv[2], sys.argv[3]
    os.makedirs(shots, exist_ok=True)
    tmp = tempfile.mkdtemp()
    lochry = "examples/adbg/lochry-1781.yaml"
    one = json.loads(run(fray, source, ["adbg", "sweep", lochry, "--vary", "sides.pennsylvania.level=3,1,2",
                                        "--trials", "400", "--json"]))
    two = json.loads(run(fray, source, ["adbg", "sweep", lochry, "--vary", "sides.pennsylvania.level=1,2,3",
                                        "--vary", "sides.brant.level=2,4", "--trials", "300", "--json"]))
    # the shape of a sweep from before the side names and the baseline mark
    plain = json.loads(json.dumps(one))
    plain.pop("sides", None)
    for pt in plain["points"]:
        pt.pop("baseline", None)
    # a sweep with the side names and the baseline mark fray writes (set
    # here, so the expectations do not come from fray), and names that must
    # stay text
    sides = ["Lochry's Pennsylvanians", "Brant's warriors"]
    marked = json.loads(json.dumps(one))
    marked["sides"] = sides
    for pt in marked["points"]:
        pt["baseline"] = pt["values"] == ["2"]
        pt["grid"] = True
    hostile = json.loads(json.dumps(marked))
    hostile["sides"] = [HOSTILE, sides[1]]
    hostile["scenario"] = HOSTILE
    two["sides"] = sides
    battle = {"procedure": "adbg.battle", "mode": "simulate", "trials": 3000, "seed": 5,
              "inputs": {"scenario": lochry}}
    odds = {"procedure": "bbb.fire", "mode": "odds", "inputs": {"weapons": "RR:4", "range": 6,
                                                                "target": "infantry", "cover": 1}}
    # read tolerantly: odd members give a note, "n/a" or an empty cell, never a crash (ASan) or a refusal
    odd = [({"vary": [], "points": []}, 0),
           ({"vary": ["a"], "points": [1, "x", {"values": 3}, {"values": ["1"], "wins": 5, "draw": "x"},
                                      {"values": ["2"], "wins": [{"p": "nan"}, {"p": 1e400}], "draw": {"p": -1}}]}, 1),
           ({"vary": ["a", "b"], "points": [{"values": ["1"]}, {"values": [[1], {"x": 1}]},
                                            {"values": ["1", "2"], "wins": [{"p": 0.5}]}]}, 2),
           ({"vary": [{"x": 1}], "sides": [{"name": "A"}, ["B"]],
             "points": [{"values": ["1"], "baseline": True, "wins": [{"p": 0.5}, {"p": 0.5}], "draw": {"p": 0}}]}, 1)]
    for i, (sweep, plots) in enumerate(odd):
        html, text = report(fray, source, tmp, "odd-%d" % i, sweep)
        check(text.count("<svg") == plots, "odd sweep %d: %d plots, want %d" % (i, text.count("<svg"), plots))
    d = browser(False)
    phone = browser(True)
    try:
        # fray's own sweep: the legend names the scenario's sides and the
        # baseline is the scenario's own level, both read here from the file
        with open(os.path.join(source, lochry), encoding="utf-8") as f:
            scen = yaml.safe_load(f)
        own = [scen["sides"][k]["name"] for k in ("pennsylvania", "brant")] + ["draw"]
        own_level = str(scen["sides"]["pennsylvania"]["level"])
        for name, sweep, names, baseline in (("sweep-1", one, own, own_level),
                                             ("sweep-plain", plain, ["side 1", "side 2", "draw"], None),
                                             ("sweep-marked", marked, sides + ["draw"], "2"),
                                             ("sweep-hostile", hostile, [HOSTILE, sides[1]], "2")):
            html, text = report(fray, source, tmp, name, sweep)
            check("<script" not in text, "%s: the sweep's file has a script" % name)
            d.get("file://" + html)
            check_line(d, sweep, names, baseline)
            rows = d.find_elements(By.CSS_SELECTOR, "#sweep-points tr")
            check(len(rows) == len(sweep["points"]) + 1, "%s: a row a point and a header" % name)
            check(not d.find_elements(By.TAG_NAME, "img") and d.title == "fray sweep report",
                  "%s: a name made markup (title %r)" % (name, d.title))
            if name == "sweep-hostile":
                check(HOSTILE in d.find_element(By.TAG_NAME, "body").text, "the hostile name shown as text")
            if name == "sweep-marked":
                base = d.find_elements(By.CSS_SELECTOR, "#sweep-points tr.baseline td")
                check(base and base[0].text == "2", "the baseline row")
                d.save_screenshot(os.path.join(shots, "report-sweep-line-1280.png"))
                no_sideways_scroll(phone, html, name, os.path.join(shots, "report-sweep-line-412.png"))
            else:
                no_sideways_scroll(phone, html, name)
        # three knobs: no plot, a note, the table of every point
        three = json.loads(json.dumps(two))
        three["vary"].append("sides.brant.primary_leader.rating")
        for pt in three["points"]:
            pt["values"].append("3")
        html, text = report(fray, source, tmp, "sweep-3", three)
        d.get("file://" + html)
        check(not d.find_elements(By.CSS_SELECTOR, "svg.plot"), "three knobs: a plot")
        notes = d.find_elements(By.CSS_SELECTOR, "#sweep p.note")
        check(notes and "3 knobs" in notes[0].text, "three knobs: the note")
        check(len(d.find_elements(By.CSS_SELECTOR, "#sweep-points tr")) == len(three["points"]) + 1,
              "three knobs: a row a point")
        html, text = report(fray, source, tmp, "sweep-2", two)
        d.get("file://" + html)
        check_heat(d, two)
        d.execute_script("var e = document.querySelector('svg[data-plot=heat]'); if (e) e.scrollIntoView()")
        d.save_screenshot(os.path.join(shots, "report-sweep-heat-1280.png"))
        no_sideways_scroll(phone, html, "sweep-2", os.path.join(shots, "report-sweep-heat-412.png"))

        answer = json.loads(run(fray, source, ["request", "-"], json.dumps(battle)))
        html, text = report(fray, source, tmp, "battle", battle)
        # drawn by fray, in the file's HTML: they show with scripts off
        section = re.search(r'<section id="report-plots">(.*?)</section>', text, re.S)
        check(section and section.group(1).count("<svg") == 3, "battle: the plots are not in the file's HTML")
        d.get("file://" + html)
        svgs = d.find_elements(By.CSS_SELECTOR, "#report-plots svg[data-plot=bars]")
        check(len(svgs) == 3, "battle: who wins and each side's losses, %d plots" % len(svgs))
        if len(svgs) == 3:
            check_bars(svgs[0], [s["win"]["p"] for s in answer["sides"]] + [answer["draw"]["p"]], "who wins")
            for i, s in enumerate(answer["sides"]):
                check_bars(svgs[1 + i], s["losses"]["p"], "%s's losses" % s["name"])
            los = [float(b.get_attribute("data-lo")) for b in svgs[0].find_elements(By.CSS_SELECTOR, "rect.bar")]
            check(all(near(a, b) for a, b in zip(los, [s["win"]["lo"] for s in answer["sides"]])),
                  "who wins: the intervals %s" % los)
        d.execute_script("var e = document.getElementById('report-plots'); if (e) e.scrollIntoView()")
        d.save_screenshot(os.path.join(shots, "report-battle-plots-1280.png"))
        no_sideways_scroll(phone, html, "battle", os.path.join(shots, "report-battle-plots-412.png"))

        answer = json.loads(run(fray, source, ["request", "-"], json.dumps(odds)))
        html, text = report(fray, source, tmp, "odds", odds)
        d.get("file://" + html)
        svgs = d.find_elements(By.CSS_SELECTOR, "#report-plots svg[data-plot=bars]")
        check(len(svgs) == 1, "odds: one bar chart, %d" % len(svgs))
        if svgs:
            check_bars(svgs[0], [o["p"] for o in answer["outcomes"]], "odds")
            # and the bars are the rules' odds: 4 bases of RR at 6" fire 4 x 3
            # = 12 (Fire Factors), cover 1 Left (Terrain Table); the target is
            # Trained, so an R leaves it as it was (ruling R19) but is still
            # its own result on the table
            want = sorted(bbb_fire_odds(4 * 3, -1).values())
            got = sorted(float(b.get_attribute("data-v")) for b in svgs[0].find_elements(By.CSS_SELECTOR, "rect.bar"))
            check(len(got) == len(want) and all(near(g, w) for g, w in zip(got, want)),
                  "odds: the bars %s, the Firefight table's %s" % (got, want))
        no_sideways_scroll(phone, html, "odds")
    finally:
        d.quit()
        phone.quit()
    print("report plots: %d failures" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
