#!/usr/bin/python3
"""Advice and solo play on the game screen (issue 44), in headless Chromium
at 412x915, found by visible text, on `fray serve`:

- a new Presidio game offers "fray plays Spain" and "fray plays Apache";
- a unit tapped: its best action's button is marked "best", and "Best now"
  names what the game's own advise op ranks first for that unit and game
  (asked here through api/v1/game, the page's door: the page must show
  the game's ranking, not one of its own); "Advice" shows every ranked
  action, as many as the game lists, their worths never rising down the
  list; "Take it" fills the action's form with the advice (target, fire
  mode);
- solo play: with "fray plays Apache" chosen, the player's roll is
  followed by fray's own action for a unit of the Apache side, in the log
  with its reason ("fray plays Apache, because ..."), and the game file
  holds both actions, in that order;
- no request of the page's answered 5xx (Chromium's network log).
Skipped (exit 77) when the game has no advise op. Usage: FRAY SHOTS_DIR"""
import json
import os
import re
import sys
import urllib.error
import urllib.request

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

import game_screen_test as gs
from game_screen_test import browser, button, check, control, failures, responses, text_of, unit, until
from serve_util import Server

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tests"))
from pace import Pace  # noqa: E402 (tests/pace.py)

SEED = 5


def ask(url, req):
    r = urllib.request.Request(url + "api/v1/game", data=json.dumps(req).encode(),
                               headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(r, timeout=gs.PACE.limit(60)) as f:
            return f.status, json.loads(f.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def game_text(d):
    return d.execute_script("return JSON.parse(localStorage.getItem('fray.game')).text")


def pct(p):
    return "%.1f%%" % (100 * p)


def main():
    fray, shots = sys.argv[1], sys.argv[2]
    os.makedirs(shots, exist_ok=True)
    gs.PACE = Pace(fray)
    srv = Server(fray)
    d = None
    try:
        _, new = ask(srv.url, {"op": "new", "rules": "presidio", "forces_name": "examples/presidio/forces.yaml",
                               "seed": SEED})
        status, probe = ask(srv.url, {"op": "advise", "game": new["game"], "actor": "Presidials"})
        if status != 200 and probe.get("input") == "op":
            print("game advice: skipped, this fray has no advise op: %s" % probe.get("error"))
            sys.exit(77)
        d = browser()
        d.get(srv.url + "game.html")
        d.execute_script("localStorage.clear()")
        d.get(srv.url + "game.html")
        until(lambda: len(d.find_elements(By.CSS_SELECTOR, "#forces-pick option")) > 1, 30, "the shipped forces")
        Select(control(d, "Forces")).select_by_value("examples/presidio/forces.yaml")
        s = control(d, "Seed")
        s.clear()
        s.send_keys(str(SEED))
        button(d, "Start the game").click()
        # solo play offered for each side of the forces
        until(lambda: button(d, "fray plays Apache"), 60, "the solo offer")
        check(button(d, "fray plays Spain").is_displayed(), "no offer to play Spain")
        button(d, "fray plays Apache").click()
        until(lambda: "fray plays Apache" in text_of(d, "solo-on"), 10, "solo play on")

        # the advice for the Presidials: the game's own ranking
        _, want = ask(srv.url, {"op": "advise", "game": game_text(d), "actor": "Presidials", "goal": "win"})
        best = want["actions"][0]
        unit(d, "Presidials").click()
        until(lambda: "Best now" in text_of(d, "advice-best"), 60, "the advice")
        said = text_of(d, "advice-best")
        check(said.startswith("Best now (goal: win): %s at %s" % (best["action"], best["target"])),
              "the best action said %r, the game's best %s at %s" % (said, best["action"], best["target"]))
        check(best["headline"] in said, "the best's headline %r not in %r" % (best["headline"], said))
        marked = [b.text for b in d.find_elements(By.CSS_SELECTOR, "#act-buttons button") if "best" in b.text]
        check(marked == ["%s · best" % best["action"]], "the buttons marked best: %r" % marked)
        check(not d.find_element(By.ID, "advice-ranking").is_displayed(), "the ranking shown before it was asked")
        button(d, "Advice").click()
        items = until(lambda: [e for e in d.find_elements(By.CSS_SELECTOR, "#advice-list li") if e.is_displayed()],
                      10, "the ranking")
        check(len(items) == len(want["actions"]), "%d actions ranked on the page, %d by the game" %
              (len(items), len(want["actions"])))
        worths = []
        for li, w in zip(items, want["actions"]):
            m = re.search(r"worth ([0-9.]+)%", li.text)
            worths.append(float(m.group(1)) if m else None)
            check(m and m.group(1) + "%" == pct(w["value"]), "ranked %r, the game's worth %s" % (li.text, pct(w["value"])))
        check(None not in worths and worths == sorted(worths, reverse=True), "the worths rise down the list: %r" % worths)
        d.execute_script("document.getElementById('advice').scrollIntoView()")
        d.save_screenshot(os.path.join(shots, "game-advice-412.png"))
        items[0].find_element(By.XPATH, ".//button[normalize-space(.)='Take it']").click()
        until(lambda: d.find_element(By.ID, "act-target").get_attribute("value") == best["target"], 10,
              "the form filled with the advice")
        for k, v in best["options"].items():
            c = d.find_element(By.ID, "opt-" + k.replace("_", "-"))
            check(c.get_attribute("value") == str(v), "the form's %s is %r, advised %r" % (k, c.get_attribute("value"), v))

        # the player's roll, then fray's for the Apache side
        until(lambda: "odds before the roll" in text_of(d, "odds"), 60, "the odds")
        roll = button(d, "Roll it")
        d.execute_script("arguments[0].scrollIntoView({block: 'center'})", roll)
        roll.click()
        until(lambda: d.find_elements(By.CSS_SELECTOR, "#log .entry[data-action='2']"), 120, "fray's move in the log")
        entry = d.find_element(By.CSS_SELECTOR, "#log .entry[data-action='2']")
        says = entry.find_element(By.CSS_SELECTOR, ".says").text
        actor = re.sub(r"^#2\s*", "", says).split(":")[0]
        _, view = ask(srv.url, {"op": "units", "game": game_text(d)})
        sides = {u["name"]: u["side"] for u in view["status"]["units"]}
        check(sides.get(actor) == "Apache", "fray's move %r is not an Apache unit's (%r)" % (says, sides))
        reason = entry.find_elements(By.CSS_SELECTOR, ".reason")
        check(reason and reason[0].text.startswith("fray plays Apache, because "),
              "fray's move without its reason: %r" % entry.text)
        check("--" not in entry.text, "command-line words in fray's log entry: %r" % entry.text)
        until(lambda: "fray plays Apache:" in text_of(d, "solo-said"), 30, "fray's move said")
        text = game_text(d)
        check(text.count("\n  - ") >= 2 and text.index("command: \"shoot Presidials") < text.index("fray plays Apache"),
              "the game file: the player's action, then fray's")
        d.execute_script("document.getElementById('log').scrollIntoView()")
        d.save_screenshot(os.path.join(shots, "game-solo-412.png"))
        d.execute_script("document.getElementById('solo').scrollIntoView()")
        d.save_screenshot(os.path.join(shots, "game-solo-top-412.png"))
        responses(d)
    except Exception:
        if d:
            d.save_screenshot(os.path.join(shots, "game-advice-failed.png"))
            for m in d.get_log("browser"):
                print("console: %s" % m.get("message"), file=sys.stderr)
        raise
    finally:
        if d:
            d.quit()
        srv.stop()
    bad = [(s, u) for s, u in gs.SEEN if s >= 500]
    check(gs.SEEN and not bad, "answered 5xx: %r" % bad)
    print("game advice: %d responses seen, %d failures" % (len(gs.SEEN), len(failures)))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
