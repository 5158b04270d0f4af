#!/usr/bin/python3
"""The page in a real browser: headless Chromium driven by Selenium. For
one procedure of each rule set it fills the form from the catalogue's
example, asks the odds and checks every row against `fray request` (the
command line's JSON) for the same inputs; it rolls with a seed and checks
the story is the command line's, word for word; it checks a phone's
412 px has no horizontal scroll, and saves screenshots (412x915,
1280x800). Usage: FRAY SCREENSHOT-DIR [phone|laptop]"""
import json
import os
import subprocess
import sys
from urllib.parse import quote

from selenium.common.exceptions import TimeoutException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

import browser as chrome
import player_test
import serve_util
from browser import waiter
from serve_util import Server

# one procedure of each rule set, with the catalogue's example inputs
PROCEDURES = ["presidio.morale", "adbg.fire", "bbb.fire", "chits.combat"]
failures = []


def check(cond, msg):
    if not cond:
        failures.append(msg)
        print("FAIL " + msg, file=sys.stderr)


def browser(phone):
    return chrome.phone() if phone else chrome.chromium(chrome.LAPTOP)


def fray_request(fray, req):
    return serve_util.fray_request(fray, req, ROOT)


def fill(d, inputs):
    # folded under "more": unfolded first, as a player would
    chrome.fill(d, inputs)


def story_of(d):
    """The story as the page tells it: its sections (folded by round) put
    back together."""
    return d.execute_script("return [...document.querySelectorAll('#result div.story pre')]"
                            ".map((p) => p.textContent).join('')")


def pick(d, name):
    chrome.select(d, "procedure", name)
    waiter(d, 10).until(lambda d: d.find_element(By.CSS_SELECTOR, "#form [data-input]"))


def odds_rows(d):
    waiter(d, 30).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#result tr[data-p]") or
                               d.find_element(By.ID, "error").text)
    check(not d.find_element(By.ID, "error").text, "an error: " + d.find_element(By.ID, "error").text)
    return rows_in(d, "#result")


def ask_page(d, action, where="#result"):
    """Clears the answer, presses the button and waits for the new one."""
    d.execute_script("document.getElementById('result').replaceChildren()")
    chrome.press(d, "button[data-action=%s]" % action)
    chrome.answered(d, 60, where)
    check(not d.find_element(By.ID, "error").text, "%s: an error: %s" % (action, d.find_element(By.ID, "error").text))


def rows_in(d, where):
    return {json.dumps(json.loads(k), sort_keys=True): p
            for k, p in chrome.rows(d, where + " tr[data-p]", "data-outcome", "data-p").items()}


def same_rows(got, cli, what):
    want = {json.dumps(o["outcome"], sort_keys=True): o["p"] for o in cli["outcomes"]}
    check(got.keys() == want.keys(), "%s: outcomes %s, the CLI's %s" % (what, sorted(got), sorted(want)))
    for k, v in want.items():
        check(abs(got.get(k, -1) - v) < 1e-12, "%s: %s is %s, the CLI says %s" % (what, k, got.get(k), v))


def modifiers(d):
    """BBB movement: the modifiers listed one by one, as the sheet prices
    them: in command +1, column +1, spent -2."""
    pick(d, "bbb.move")
    fill(d, {"training": "veteran", "in_command": True, "column": True, "spent": True})
    ask_page(d, "odds")
    waiter(d, 20).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#result li[data-modifier]"))
    got = [int(e.get_attribute("data-modifier")) for e in
           d.find_elements(By.CSS_SELECTOR, "#result li[data-modifier]")]
    check(all(got.count(v) >= n for v, n in ((1, 2), (-2, 1))), "bbb.move modifiers: %s" % got)
    # each closing line (a TOTAL told, or the page's sum) is the sum of its terms
    acc, closed = 0, 0
    for li in d.find_elements(By.CSS_SELECTOR, "#result ul.modifiers li"):
        if li.get_attribute("data-modifier") is not None:
            acc += int(li.get_attribute("data-modifier"))
        elif li.get_attribute("data-total") is not None:
            check(int(li.get_attribute("data-total")) == acc, "bbb.move: %r closes terms summing to %d" % (li.text, acc))
            acc, closed = 0, closed + 1
    check(closed >= 1, "bbb.move: no line closes the modifiers")


def totals(d):
    """A TOTAL event closes the modifiers told before it (events.h
    FRAY_EV_TOTAL): shown as their closing line, with no sum of the
    page's own; the terms after it start afresh."""
    events = [{"event": "modifier", "what": "base", "value": 4, "rule": "R1"},
              {"event": "modifier", "what": "cover", "value": -1, "rule": "R2"},
              {"event": "total", "what": "to hit", "value": 3, "rule": "R3"},
              {"event": "modifier", "what": "range", "value": 2, "rule": "R4"},
              {"event": "total", "what": "morale", "value": 2, "rule": "R5"},
              {"event": "roll", "what": "d6", "value": 5}]
    got = d.execute_script("""
        const l = typeof modifierList === 'function' ? modifierList(arguments[0]) : null;
        return l ? [...l.children].map((li) => [li.className, li.textContent]) : null;""", events)
    want = [["", "base: +4 [R1]"], ["", "cover: -1 [R2]"], ["total", "to hit: 3 [R3]"],
            ["", "range: +2 [R4]"], ["total", "morale: 2 [R5]"]]
    check(got == want, "totals: the list %s, expected %s" % (got, want))


def costly_link(d, url):
    """A link whose fragment asks for a million battles runs nothing until
    asked (issue 29, case 13): the page asks first."""
    state = {"p": "adbg.battle", "i": {"scenario": "examples/adbg/blue-licks-1782.yaml"}, "s": "1",
             "t": "1000000", "m": "simulate"}
    d.get("about:blank")
    d.get(url + "#" + quote(json.dumps(state)))
    waiter(d, 20).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#form [data-input]"))
    # the page asks or runs as it opens (app.js, one decision): the question
    # shown is the page's answer, waited for as long as a slow machine needs
    try:
        waiter(d, 10).until(lambda d: d.find_element(By.ID, "confirm").is_displayed())
    except TimeoutException:
        pass
    asking = d.find_elements(By.ID, "confirm")
    check(asking and asking[0].is_displayed() and "1,000,000" in asking[0].text,
          "a costly link: no question: %r" % (asking[0].text if asking else None))
    check(not d.find_element(By.ID, "progress").is_displayed(), "a costly link started a job on open")
    if asking:
        d.find_element(By.CSS_SELECTOR, "button[data-action=confirm-no]").click()
        check(not asking[0].is_displayed(), "a costly link: the question stays after Not now")


def compare(d, fray, size, shots):
    """A pinned beside B, each with the CLI's numbers."""
    pick(d, "adbg.fire")
    a = {"type": "regular", "cf": 3, "terrain": "wilderness"}
    b = {**a, "cf": 5}
    fill(d, a)
    ask_page(d, "odds")
    d.find_element(By.CSS_SELECTOR, "button[data-action=pin]").click()
    fill(d, {"cf": 5})
    ask_page(d, "odds")
    for where, inputs in (("#pinned", a), ("#result", b)):
        cli = json.loads(fray_request(fray, {"procedure": "adbg.fire", "mode": "odds", "inputs": inputs}))
        same_rows(rows_in(d, where), cli, "compare %s" % where)
    no_horizontal_scroll(d, "compare at %s px" % size)
    d.save_screenshot(os.path.join(shots, "serve-compare-%s.png" % size))
    d.find_element(By.CSS_SELECTOR, "button[data-action=unpin]").click()


def battle(d, fray, size, shots):
    """ADBG: a whole battle simulated as a job (progress, loss charts),
    its odds, Stop, and a scenario uploaded from this device."""
    pick(d, "adbg.battle")
    scenario = "examples/adbg/lochry-1781.yaml"
    fill(d, {"scenario": scenario, "trials": 20000, "seed": 7})
    ask_page(d, "simulate")
    cli = json.loads(fray_request(fray, {"procedure": "adbg.battle", "mode": "simulate", "trials": 20000, "seed": 7,
                                         "inputs": {"scenario": scenario}}))
    got = rows_in(d, "#result")
    want = {json.dumps({"winner": s["name"]}): s["win"]["p"] for s in cli["sides"]}
    want[json.dumps({"winner": None})] = cli["draw"]["p"]
    check(got == want, "battle simulated: %s, the CLI %s" % (got, want))
    charts = d.find_elements(By.CSS_SELECTOR, "#result .losses svg")
    check(len(charts) == 2, "battle: %d loss charts" % len(charts))
    no_horizontal_scroll(d, "battle at %s px" % size)
    d.save_screenshot(os.path.join(shots, "serve-battle-%s.png" % size))
    # the old default budget given (exact by default walks Lochry's 2.46
    # million paths: minutes under ASan; exact on the static site: site_test)
    fill(d, {"budget": 100000})
    ask_page(d, "odds")
    # the request the page made, as the command line answers it
    sent = json.loads(d.execute_script("return JSON.stringify(last.request)"))
    check(sent["inputs"].get("budget") == 100000, "battle odds: the budget given is not sent: %s" % sent)
    cli = json.loads(fray_request(fray, sent))
    same_rows(rows_in(d, "#result"), cli, "battle odds")
    check(len(d.find_elements(By.CSS_SELECTOR, "#result .losses svg")) == 2, "battle odds: loss charts")
    # Stop: a million battles, stopped under way
    fill(d, {"scenario": "examples/adbg/blue-licks-1782.yaml", "trials": 1000000})
    d.find_element(By.CSS_SELECTOR, "button[data-action=simulate]").click()
    waiter(d, 30).until(lambda d: float(d.find_element(By.ID, "progress-bar").get_attribute("value")) > 0)
    d.find_element(By.CSS_SELECTOR, "button[data-action=stop]").click()
    waiter(d, 30).until(lambda d: d.find_element(By.ID, "error").text)
    check(d.find_element(By.ID, "error").text == "stopped", "Stop: %r" % d.find_element(By.ID, "error").text)
    check(not d.find_element(By.ID, "progress").is_displayed(), "Stop: the progress bar stays")
    d.execute_script("document.getElementById('error').hidden = true; document.getElementById('error').textContent = ''")
    # a scenario uploaded from this device goes as text (its CRT: the shipped one)
    path = os.path.join(ROOT, "examples/adbg/sandusky-1782.yaml")
    d.find_element(By.NAME, "scenario__upload").send_keys(path)
    waiter(d, 10).until(lambda d: d.find_element(By.NAME, "scenario__text").get_attribute("value"))
    with open(path) as f:
        check(d.find_element(By.NAME, "scenario__text").get_attribute("value") == f.read(), "upload: the text")
    fill(d, {"seed": 42})
    ask_page(d, "roll")
    story = story_of(d)
    want = fray_request(fray, {"procedure": "adbg.battle", "seed": 42, "inputs": {"scenario": "examples/adbg/sandusky-1782.yaml"},
                               "format": "text"})
    check(story == want, "uploaded battle roll: %r, the CLI %r" % (story[:200], want[:200]))


def no_horizontal_scroll(d, what):
    wide = d.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
    check(wide[0] <= wide[1], "%s: %d px wide in a %d px window" % (what, wide[0], wide[1]))


def run_page(fray, url, phone, shots):
    d = browser(phone)
    try:
        d.get(url)
        waiter(d, 20).until(lambda d: d.find_elements(By.CSS_SELECTOR, "select[name=procedure] option"))
        catalogue = json.loads(subprocess.run([fray, "procedures", "--json"], capture_output=True, text=True,
                                              check=True).stdout)["procedures"]
        by_name = {p["name"]: p for p in catalogue}
        size = "412" if phone else "1280"
        for name in PROCEDURES:
            p = by_name[name]
            pick(d, name)
            fill(d, p["example"])
            d.find_element(By.CSS_SELECTOR, "button[data-action=odds]").click()
            rows = odds_rows(d)
            cli = json.loads(fray_request(fray, {"procedure": name, "mode": "odds", "inputs": p["example"]}))
            want = {json.dumps(o["outcome"], sort_keys=True): o["p"] for o in cli["outcomes"]}
            check(rows.keys() == want.keys(), "%s odds: outcomes %s, the CLI's %s" % (name, sorted(rows), sorted(want)))
            for k, v in want.items():
                check(abs(rows.get(k, -1) - v) < 1e-12, "%s odds: %s is %s, the CLI says %s" % (name, k, rows.get(k), v))
            no_horizontal_scroll(d, "%s odds at %s px" % (name, size))
            if name == "presidio.morale":
                d.save_screenshot(os.path.join(shots, "serve-odds-%s.png" % size))
            seed = d.find_element(By.NAME, "seed")
            seed.clear()
            seed.send_keys("42")
            d.find_element(By.CSS_SELECTOR, "button[data-action=roll]").click()
            waiter(d, 30).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#result div.story pre") or
                                       d.find_element(By.ID, "error").text)
            story = story_of(d)
            want = fray_request(fray, {"procedure": name, "seed": 42, "inputs": p["example"], "format": "text"})
            check(story == want, "%s roll: the page says %r, the CLI %r" % (name, story[:300], want[:300]))
            no_horizontal_scroll(d, "%s roll at %s px" % (name, size))
            if name == "chits.combat":
                d.save_screenshot(os.path.join(shots, "serve-roll-%s.png" % size))
        modifiers(d)
        totals(d)
        compare(d, fray, size, shots)
        battle(d, fray, size, shots)
        # the command line itself, word for word: fray presidio morale --seed 42 ...
        pick(d, "presidio.morale")
        fill(d, {"level": "veteran", "size": "platoon", "casualties": 2, "seed": 42})
        d.find_element(By.CSS_SELECTOR, "button[data-action=roll]").click()
        waiter(d, 30).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#result div.story pre"))
        story = story_of(d)
        cli = subprocess.run([fray, "presidio", "morale", "--seed", "42", "--level", "veteran", "--size", "platoon",
                              "--casualties", "2"], capture_output=True, text=True, check=True).stdout
        check(story == cli, "presidio morale --seed 42: the page %r, the command line %r" % (story, cli))
        # the link is the view: the fragment brings back the procedure and inputs
        link = d.current_url
        d.get("about:blank")
        d.get(link)
        waiter(d, 20).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#form [data-input]"))
        check(Select(d.find_element(By.NAME, "procedure")).first_selected_option.get_attribute("value") ==
              "presidio.morale", "a copied link: another procedure")
        check(d.find_element(By.NAME, "casualties").get_attribute("value") == "2", "a copied link: the inputs lost")
        costly_link(d, url)
        player_test.run(d, fray, ROOT, url, size, shots, check)
    finally:
        d.quit()


def main():
    global ROOT
    fray, shots = sys.argv[1], sys.argv[2]
    # phone, laptop or (by default) both: ctest runs the two as two tests,
    # side by side and each within its own time limit
    sizes = {"phone": [True], "laptop": [False]}.get(sys.argv[3] if len(sys.argv) > 3 else "", [True, False])
    ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    os.makedirs(shots, exist_ok=True)
    player_test.install_axe()
    srv = Server(fray)
    try:
        for phone in sizes:
            run_page(fray, srv.url, phone, shots)
    finally:
        srv.stop()
    print("page: %d failures; screenshots in %s" % (len(failures), shots))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
