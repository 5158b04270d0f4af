#!/usr/bin/python3
"""fray report --html: one self-contained file, opened from disk in
headless Chromium with no server, shows the command line's numbers and
words; names from a scenario stay text (no tag of theirs reaches the
page); bad uses exit 2 and write nothing. Usage: FRAY SOURCE_DIR SHOTS"""
import json
import os
import subprocess
import sys
import tempfile

from selenium.webdriver.common.by import By

from browser import waiter as WebDriverWait
from page_test import browser, check, failures

HOSTILE = '<img src=x onerror="document.title=1"></script><script>document.title=2</script>'


def fray_out(fray, source, args, stdin=None):
    return subprocess.run([fray, *args], input=stdin, capture_output=True, text=True, cwd=source)


GAME_HOSTILE = '<img src=x onerror="document.title=3">'


def game_report(fray, source, tmp, shots, d):
    """A game file's report: its forces and its log as fray table tells
    them, a unit's hostile name as text."""
    with open(os.path.join(source, "examples/bbb/forces.yaml")) as f:
        forces = f.read().replace("name: Battery B", "name: '%s'" % GAME_HOSTILE, 1)
    with open(os.path.join(tmp, "forces.yaml"), "w") as f:
        f.write(forces)
    game = os.path.join(tmp, "game.yaml")
    for args in (["table", "new", game, "--rules", "bbb", "--forces", os.path.join(tmp, "forces.yaml"), "--seed", "5"],
                 # each in its phase (BBB Sequence of Play)
                 ["table", game, "phase", "offensive-fire"],
                 ["table", game, "fire", "Iron Brigade", "--at", "Texas Brigade", "--range", "5"],
                 ["table", game, "fire", GAME_HOSTILE, "--at", "Georgia Brigade", "--range", "8"],
                 ["table", game, "turn"],
                 ["table", game, "phase", "assault"],
                 ["table", game, "assault", "Texas Brigade", "--at", "1st Brigade"]):
        r = fray_out(fray, source, args)
        check(r.returncode == 0, "%s: exit %d %s" % (args, r.returncode, r.stderr))
    html = os.path.join(tmp, "game.html")
    r = fray_out(fray, source, ["report", "--html", html, game])
    check(r.returncode == 0, "game report: exit %d: %s" % (r.returncode, r.stderr))
    status = json.loads(fray_out(fray, source, ["table", game, "status", "--json"]).stdout)
    log = fray_out(fray, source, ["table", game, "log", "--json"]).stdout
    d.get("file://" + html)
    cards = d.find_elements(By.CSS_SELECTOR, "#forces article.unit")
    check(len(cards) == len(status["units"]), "game report: a card a unit")
    names = [c.find_element(By.CSS_SELECTOR, "h3 .name").text for c in cards]
    check(names == [u["name"] for u in status["units"]], "game report: the units %r" % names)
    # the stories are folded (details): their text, shown or not
    stories = [e.get_attribute("textContent").rstrip("\n")
               for e in d.find_elements(By.CSS_SELECTOR, "section.action pre.story")]
    # each action in the library's words (log --json's says), no command line
    commands = [e.text for e in d.find_elements(By.CSS_SELECTOR, "section.action h4 .says")]
    check(not d.find_elements(By.CSS_SELECTOR, "section.action h4 code"), "game report: a command line in the log")
    # status first: where each side stands comes before the forces and the log
    order = d.execute_script("return [...document.querySelectorAll('h2')].map((h) => h.textContent)")
    check(order[:3] == ["Where the game stands", "The forces", "The log"], "game report: status first: %r" % order)
    sides = [e.text for e in d.find_elements(By.CSS_SELECTOR, "#sides section.side h3")]
    check(sides == list(dict.fromkeys(u["side"] for u in status["units"])), "game report: a summary a side %r" % sides)
    # the log grouped by turn: a section a turn the log names
    turns = [e.text for e in d.find_elements(By.CSS_SELECTOR, "section.turn > h3")]
    check(turns == ["Turn %d" % t for t in dict.fromkeys(e["turn"] for e in json.loads(log))],
          "game report: the log by turn %r" % turns)
    entries = {}
    for e in json.loads(log):
        entries.setdefault(e["action"], e["says"])
    check(commands == list(entries.values()) and all("--" not in c for c in commands),
          "game report: the actions in words %r" % commands)
    told, cur = [], None
    for line in fray_out(fray, source, ["table", game, "log"]).stdout.splitlines():
        if line.startswith("#"):
            cur = []
            told.append(cur)
        elif line.startswith("  ") and not line.startswith("  => "):
            cur.append(line[2:])
    # an action with no roll (turn, a BBB phase's next) has no story to fold
    check(stories == ["\n".join(t) for t in told if t], "game report: the stories as fray table log tells them")
    check(GAME_HOSTILE in d.find_element(By.TAG_NAME, "body").text and not d.find_elements(By.CSS_SELECTOR, "img")
          and d.title == "fray game report", "game report: a unit's name made markup (title %r)" % d.title)
    d.save_screenshot(os.path.join(shots, "report-game-1280.png"))


def main():
    fray, source, shots = sys.argv[1], sys.argv[2], sys.argv[3]
    os.makedirs(shots, exist_ok=True)
    tmp = tempfile.mkdtemp()
    with open(os.path.join(source, "examples/adbg/lochry-1781.yaml")) as f:
        scenario = f.read().replace("battle: ", "battle: '%s' # " % HOSTILE.replace("'", "''"), 1)
    check(HOSTILE in scenario.replace("''", "'"), "the scenario carries the hostile name")
    cases = {
        "battle": {"procedure": "adbg.battle", "mode": "simulate", "trials": 20000, "seed": 3,
                   "inputs": {"scenario": {"name": "examples/adbg/mine.yaml", "text": scenario}}},
        "odds": {"procedure": "bbb.fire", "mode": "odds", "inputs": {"weapons": "RR:4", "range": 6,
                                                                     "target": "infantry", "cover": 1}},
        "roll": {"procedure": "presidio.morale", "seed": 42, "inputs": {"level": "veteran", "size": "platoon",
                                                                       "casualties": 2}},
    }
    d = browser(False)
    try:
        for name, request in cases.items():
            req = os.path.join(tmp, name + ".json")
            with open(req, "w") as f:
                json.dump(request, f)
            html = os.path.join(tmp, name + ".html")
            r = fray_out(fray, source, ["report", "--html", html, req])
            check(r.returncode == 0, "%s: fray report exited %d: %s" % (name, r.returncode, r.stderr))
            cli_json = json.loads(fray_out(fray, source, ["request", req]).stdout)
            cli_text = fray_out(fray, source, ["request"], json.dumps({**request, "format": "text"})).stdout
            d.get("file://" + html)
            WebDriverWait(d, 20).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#result pre.story"))
            story = d.execute_script("return document.querySelector('#result pre.story').textContent")
            check(story == cli_text, "%s: the story %r, the CLI %r" % (name, story[:200], cli_text[:200]))
            rows = {json.dumps(json.loads(r.get_attribute("data-outcome")), sort_keys=True):
                    float(r.get_attribute("data-p")) for r in d.find_elements(By.CSS_SELECTOR, "#result tr[data-p]")}
            if name == "odds":
                want = {json.dumps(o["outcome"], sort_keys=True): o["p"] for o in cli_json["outcomes"]}
                check(rows.keys() == want.keys(), "odds rows: %s, the CLI %s" % (sorted(rows), sorted(want)))
                for k, v in want.items():
                    check(abs(rows.get(k, -1) - v) < 1e-12, "odds %s: %s, the CLI %s" % (k, rows.get(k), v))
            if name == "battle":
                want = {json.dumps({"winner": s["name"]}): s["win"]["p"] for s in cli_json["sides"]}
                want[json.dumps({"winner": None})] = cli_json["draw"]["p"]
                check(rows == want, "battle rows %s, the CLI %s" % (rows, want))
                check(len(d.find_elements(By.CSS_SELECTOR, "#result .losses svg")) == 2, "battle: loss charts")
                page_text = d.find_element(By.TAG_NAME, "body").text
                check(HOSTILE in page_text, "the hostile name is shown as text")
                check(not d.find_elements(By.CSS_SELECTOR, "img") and d.title == "fray report",
                      "a name from the scenario made markup: title %r" % d.title)
                d.save_screenshot(os.path.join(shots, "report-battle-1280.png"))
        game_report(fray, source, tmp, shots, d)
        p = browser(True)
        try:
            p.get("file://" + os.path.join(tmp, "game.html"))
            p.save_screenshot(os.path.join(shots, "report-game-phone.png"))
            wide = p.execute_script("return document.documentElement.scrollWidth > window.innerWidth")
            check(not wide, "the game report scrolls sideways on a phone (only its forces table may)")
        finally:
            p.quit()
    finally:
        d.quit()
    # bad uses: exit 2, a message, nothing written
    req = os.path.join(tmp, "odds.json")
    fifo = os.path.join(tmp, "fifo")
    os.mkfifo(fifo)
    with open(os.path.join(source, "examples/adbg/lochry-1781.yaml")) as f, \
            open(os.path.join(tmp, "copy.yaml"), "w") as g:
        g.write(f.read().replace("../../data/adbg/", os.path.join(source, "data/adbg/")))
    with open(os.path.join(tmp, "uses-copy.json"), "w") as f:
        json.dump({"procedure": "adbg.battle", "seed": 1, "inputs": {"scenario": os.path.join(tmp, "copy.yaml")}}, f)
    with open(os.path.join(tmp, "format.json"), "w") as f:
        f.write('{"procedure": "adbg.fire",\n "format": "text"}')
    bad = [
        (["report", req], "--html FILE is needed"),
        (["report", "--html", req, req], "that is the request"),
        (["report", "--html", fifo, req], "not a regular file"),
        (["report", "--html", os.path.join(tmp, "copy.yaml"), os.path.join(tmp, "uses-copy.json")],
         "a file this run reads"),
        (["report", "--html", os.path.join(tmp, "no.html"), os.path.join(tmp, "format.json")], "format.json:2:2"),
        (["report", "--html", os.path.join(tmp, "no.html"), "--bogus"], "unexpected argument"),
    ]
    for args, words in bad:
        r = fray_out(fray, source, args)
        check(r.returncode == 2 and words in r.stderr, "%s: exit %d, %r" % (args, r.returncode, r.stderr))
    check(not os.path.exists(os.path.join(tmp, "no.html")), "a failed report left a file")
    with open(os.path.join(tmp, "copy.yaml")) as f:
        check(f.read().startswith(("#", "battle")), "the scenario was written over")
    with open(req) as f:
        check(json.load(f)["procedure"] == "bbb.fire", "the request was written over")
    print("report: %d failures" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
