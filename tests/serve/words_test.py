#!/usr/bin/python3
"""The page in a player's words (issue 43), on fray serve at a phone's
412x915, found by what the page shows:
- a first visit opens on the rule sets (the catalogue's titles), no form
  until one is chosen; choosing one lists only its procedures;
- Find knows a player's words: volley, charge, 2d6, fire, rally, battle;
- labels in words ("Combat die roll", never "Cdr"), and - / + steppers on
  a small count, held to its range;
- the examples answer: the chits example is a combat drawn from the mix
  (both sides' chance of a hit, strictly between 0 and 1, counted here
  from the mix's chits), a BBB assault says "the attacker carries the
  position" (faces counted here), the morale example passes 1/6 (faces
  counted here);
- every procedure's example, its odds and a roll, shows no engine key
  (snake_case) in the page's text.
Usage: words_test.py FRAY SCREENSHOT-DIR"""
import itertools
import json
import os
import re
import subprocess
import sys
import time
from fractions import Fraction

from selenium.webdriver.common.by import By

import browser as chrome
import player_test
from browser import waiter
from serve_util import Server

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SNAKE = re.compile(r"\b[a-z][a-z0-9]*_[a-z0-9_]+\b")
failures = []


def check(cond, msg):
    if not cond:
        failures.append(msg)
        print("FAIL " + msg, file=sys.stderr)


# ---- the rules, counted here ----

def chits_hit_chances(mix_path, draw, **s):
    """Chit combat, rulings R21, R22 (as player_test.chits_defender_hit):
    every set of `draw` chits from the mix equally likely; each chit's side
    that applies by the situation; a side's hits are its D (defender) or A
    (attacker) effects summed, its reductions taken off. P(each side takes
    at least one hit), the sets counted."""
    import yaml
    a_cdr, d_cdr = s.pop("attacker_cdr"), s.pop("defender_cdr")
    big, small = max(a_cdr, d_cdr), min(a_cdr, d_cdr)
    s["ratio"] = Fraction(big // small) if a_cdr >= d_cdr else Fraction(1, big // small)
    s["higher"] = "attacker" if a_cdr > d_cdr else "defender" if d_cdr > a_cdr else None
    with open(mix_path) as f:
        chits = yaml.safe_load(f)["chits"]
    net = []
    for c in chits:
        a, b = player_test.chit_condition(c["a"]["if"], s), player_test.chit_condition(c["b"]["if"], s)
        if a and b and not c.get("both"):
            a, b = c.get("precedence", "a") == "a", c.get("precedence", "a") == "b"
        effects = (c["a"]["then"] if a else []) + (c["b"]["then"] if b else [])
        net.append({side: sum(int(e[1:]) for e in effects if e[0] == side and e[1:].lstrip("-").isdigit())
                    for side in "AD"})
    hit = {"A": 0, "D": 0}
    total = 0
    for combo in itertools.combinations(net, draw):
        total += 1
        for side in "AD":
            hit[side] += sum(c[side] for c in combo) >= 1
    return Fraction(hit["A"], total), Fraction(hit["D"], total)


def bbb_carries(modifier, bases, sides=6):
    """BBB sheet, Assault (rulings G6, R20): each side 1d6, the difference
    attacker - defender + modifier; above 0 the defender leaves the
    position (back 3", driven back, thrown back) or is destroyed; a 0
    costs each side a base and is fought again (equal bases: the modifier
    stays), until the bases are gone. Faces counted."""
    pos = Fraction(sum(a - d + modifier > 0 for a in range(1, sides + 1) for d in range(1, sides + 1)), sides * sides)
    zero = Fraction(sum(a - d + modifier == 0 for a in range(1, sides + 1) for d in range(1, sides + 1)), sides * sides)
    return sum(pos * zero ** k for k in range(bases))


# ---- the page ----

def text_of(d):
    return d.execute_script("return document.querySelector('main').innerText")


def wait_answer(d, timeout=60):
    chrome.answered(d, timeout)
    err = d.find_element(By.ID, "error").text
    return err


def press(d, action, timeout=60):
    d.execute_script("document.getElementById('result').replaceChildren();"
                     "const e = document.getElementById('error'); e.hidden = true; e.textContent = '';")
    chrome.press(d, "button[data-action=%s]" % action)
    return wait_answer(d, timeout)


def headline(d):
    return {k: (float(p), text) for k, p, text in d.execute_script(
        "return [...document.querySelectorAll('#result .headline li[data-hp]')].map((li) => "
        "[li.getAttribute('data-headline'), li.getAttribute('data-hp'), li.innerText.trim()])")}


def pick(d, name):
    d.execute_script("const f = document.getElementById('find');"
                     "if (f.value) { f.value = ''; f.dispatchEvent(new Event('input')); }")
    chrome.select(d, "procedure", name)
    waiter(d, 10).until(lambda d: d.execute_script("return current && current.name") == name)


def near(got, want, what):
    check(got is not None and abs(got - float(want)) < 1e-9, "%s: the page %s, the rules %s (%s)" %
          (what, got, float(want), want))


def no_sideways(d, what):
    wide = d.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
    check(wide[0] <= wide[1], "%s: %d px wide in a %d px window" % (what, *wide))


def chooser(d, url, catalogue, shots):
    """A first visit: the rule sets first, no form; one chosen, its own."""
    d.get(url)
    d.execute_script("localStorage.clear()")
    d.get("about:blank")
    d.get(url)
    waiter(d, 20).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#rulesets button"))
    titles = [b.text for b in d.find_elements(By.CSS_SELECTOR, "#rulesets button")]
    want = []
    for p in catalogue:
        t = p["rule_set"][0].upper() + p["rule_set"][1:]
        if t not in want:
            want.append(t)
    check(titles[:len(want)] == want, "the chooser: %s, the catalogue's rule sets %s" % (titles, want))
    check(not d.find_elements(By.CSS_SELECTOR, "#form [data-input]"), "a first visit shows a form before a rule set")
    check(not d.find_element(By.ID, "actions").is_displayed(), "a first visit shows the buttons before a rule set")
    check("Which game are you playing?" in text_of(d), "no question of the rule set on a first visit")
    no_sideways(d, "the chooser")
    d.save_screenshot(os.path.join(shots, "words-chooser-412.png"))
    for b in d.find_elements(By.CSS_SELECTOR, "#rulesets button"):
        if b.text == "Presidio skirmishes":
            b.click()
            break
    waiter(d, 10).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#form [data-input]"))
    listed = [o.get_attribute("value") for o in d.find_elements(By.CSS_SELECTOR, "#procedure option")]
    presidio = [p["name"] for p in catalogue if p["name"].startswith("presidio.")]
    check(listed == presidio, "Presidio chosen, the picker lists %s" % listed)
    pressed = [b.text for b in d.find_elements(By.CSS_SELECTOR, "#rulesets button[aria-pressed=true]")]
    check(pressed == ["Presidio skirmishes"], "the chooser marks %s" % pressed)
    d.save_screenshot(os.path.join(shots, "words-presidio-412.png"))


# a player's word and a procedure it must find (the words a player says at
# the table, from the rule texts: Presidio's Volley Fire, its charge, BBB's
# firefight, a rally, ADBG's battle)
FINDS = [("volley", "presidio.shoot"), ("charge", "presidio.melee"), ("charge", "bbb.assault"),
         ("2d6", "dice.roll"), ("fire", "bbb.fire"), ("fire", "adbg.fire"), ("rally", "presidio.rally"),
         ("battle", "adbg.battle")]


def find_words(d):
    for word, name in FINDS:
        f = d.find_element(By.ID, "find")
        f.clear()
        f.send_keys(word)
        waiter(d, 10).until(lambda d: d.find_element(By.ID, "find-count").text)
        listed = [o.get_attribute("value") for o in d.find_elements(By.CSS_SELECTOR, "#procedure option")]
        check(name in listed, "Find %r: %s not among %s" % (word, name, listed))
        if word == "volley":
            # the volley a player means: Presidio's Volley Fire, the form shown at once
            check(d.execute_script("return current && current.name") == "presidio.shoot",
                  "Find 'volley' shows %s" % d.execute_script("return current && current.name"))
            d.save_screenshot(os.path.join(shots_dir, "words-find-412.png"))
    d.find_element(By.ID, "find").clear()
    d.execute_script("document.getElementById('find').dispatchEvent(new Event('input'))")
    # every game's procedures in the picker again
    d.find_element(By.CSS_SELECTOR, "#rulesets button[data-set='']").click()
    listed = [o.get_attribute("value") for o in d.find_elements(By.CSS_SELECTOR, "#procedure option")]
    check(len(listed) == len(catalogue_all), "Every game lists %d procedures of %d" % (len(listed), len(catalogue_all)))


def labels_and_steppers(d):
    pick(d, "chits.combat")
    form = d.find_element(By.ID, "form").text
    check("Combat die roll" in form and "Cdr" not in form, "chits: the labels %r" % form[:300])
    check(not SNAKE.search(form), "chits: snake_case in the form: %s" % SNAKE.findall(form))
    pick(d, "presidio.morale")
    box = d.find_element(By.CSS_SELECTOR, "[data-input=casualties]")
    field = d.find_element(By.NAME, "casualties")
    plus = box.find_element(By.CSS_SELECTOR, "button[data-step='1']")
    minus = box.find_element(By.CSS_SELECTOR, "button[data-step='-1']")
    check(plus.text == "+" and minus.text == "−", "steppers: %r %r" % (minus.text, plus.text))
    for _ in range(3):
        plus.click()
    check(field.get_attribute("value") == "3", "three taps of +: %r" % field.get_attribute("value"))
    minus.click()
    check(field.get_attribute("value") == "2", "then -: %r" % field.get_attribute("value"))
    # the least the catalogue allows (0 casualties) holds
    for _ in range(4):
        minus.click()
    check(field.get_attribute("value") == "0", "- past the least: %r" % field.get_attribute("value"))
    # a stepped value is what the request sends
    plus.click()
    check(d.execute_script("return inputsOf().casualties") == 1, "the stepped value is not sent")
    no_sideways(d, "steppers")
    d.execute_script("arguments[0].scrollIntoView()", box)
    d.save_screenshot(os.path.join(shots_dir, "words-steppers-412.png"))


def examples(d, fray):
    """The shipped examples answer, each number counted here."""
    # the chits example: a combat drawn from the mix, both sides' headline
    pick(d, "chits.combat")
    d.find_element(By.CSS_SELECTOR, "button[data-action=example]").click()
    check(d.find_element(By.NAME, "script").get_attribute("value") == "" and
          d.find_element(By.NAME, "combat").get_attribute("value") == "",
          "the chits example scripts its chits or names a combat file")
    err = press(d, "odds")
    check(not err, "chits example: %s" % err)
    ex = d.execute_script("return current.example")
    a, dd = chits_hit_chances(os.path.join(ROOT, ex["mix"]), ex["draw"], tactic=ex["tactic"], stance=ex["stance"],
                              terrain=ex["terrain"], attacker_cdr=ex["attacker_cdr"], defender_cdr=ex["defender_cdr"],
                              attacker_type="infantry", defender_type="infantry")
    check(0 < a < 1 and 0 < dd < 1, "chits: the rules give a certain outcome (%s, %s)" % (a, dd))
    h = headline(d)
    near(h.get("the defender takes at least one hit", (None,))[0], dd, "chits example: the defender hit")
    near(h.get("the attacker takes at least one hit", (None,))[0], a, "chits example: the attacker hit")
    for name, want in (("the defender takes at least one hit", dd), ("the attacker takes at least one hit", a)):
        text = h.get(name, (0, ""))[1]
        check(text.startswith(name[0].upper() + name[1:] + ": %.1f%%" % (100 * float(want))),
              "chits example says %r" % text)
    d.execute_script("document.querySelector('#result').scrollIntoView()")
    d.save_screenshot(os.path.join(shots_dir, "words-chits-412.png"))
    # BBB: 4 bases each, the attacker aggressive (+1): the attacker carries the position
    pick(d, "bbb.assault")
    player = player_test.Player(d, fray, ROOT, "412", shots_dir, check)
    player.fill({"attacker_bases": 4, "defender_bases": 4, "attacker_aggressive": True})
    err = press(d, "odds")
    check(not err, "bbb assault: %s" % err)
    want = bbb_carries(1, 4)
    got = headline(d).get("the attacker carries the position")
    near(got[0] if got else None, want, "bbb assault: the attacker carries the position")
    check(got and got[1] == "The attacker carries the position: %.1f%%" % (100 * float(want)) + (
          " (%s)" % want if len(str(want.numerator)) <= 6 and len(str(want.denominator)) <= 6 else ""),
          "bbb assault says %r" % (got[1] if got else None))
    d.execute_script("document.querySelector('#result').scrollIntoView()")
    d.save_screenshot(os.path.join(shots_dir, "words-assault-412.png"))
    # morale, the example: needs 9 (veteran 6, +2 casualties in a platoon,
    # charged +2, fifer -1), the leader's +2 on the die: the die needs 7
    pick(d, "presidio.morale")
    d.find_element(By.CSS_SELECTOR, "button[data-action=example]").click()
    err = press(d, "odds")
    check(not err, "morale: %s" % err)
    want = player_test.presidio_morale_pass(6 + 2 + 2 - 1 - 2)
    check(want == Fraction(1, 6), "morale: the rules give %s, the brief 1/6" % want)
    got = headline(d).get("the unit passes")
    check(got and got[1] == "The unit passes: %.1f%% (%s)" % (100 * float(want), want),
          "morale example says %r" % (got[1] if got else None))
    d.save_screenshot(os.path.join(shots_dir, "words-morale-412.png"))


def every_example(d, catalogue):
    """Every procedure's example, its odds and a roll: no engine key in
    the page's text (the form, the answer, the story)."""
    for p in catalogue:
        pick(d, p["name"])
        if d.find_elements(By.CSS_SELECTOR, "button[data-action=example]"):
            chrome.press(d, "button[data-action=example]")
        if p.get("odds_may_simulate"):
            # a walk refused at once, so its odds come by simulation: the
            # page's words of why are read too (exact odds: site_test)
            chrome.fill(d, {"budget": 100000})
        for mode in [m for m in p["modes"] if m in ("odds", "roll")]:
            if mode == "roll":
                chrome.fill(d, {"seed": 7})
            t = time.monotonic()
            err = press(d, mode, timeout=300)
            check(not err, "%s %s: %s" % (p["name"], mode, err))
            # every fold opened (the form's "More options", the answer's): every word read
            d.execute_script("for (const e of document.querySelectorAll('main details')) e.open = true")
            keys = sorted(set(SNAKE.findall(text_of(d))))
            check(not keys, "%s %s: engine keys on the page: %s" % (p["name"], mode, keys))
            if time.monotonic() - t > 20:
                print("%s %s: %.0f s" % (p["name"], mode, time.monotonic() - t))


def main():
    global shots_dir
    fray, shots_dir = sys.argv[1], sys.argv[2]
    os.makedirs(shots_dir, exist_ok=True)
    global catalogue_all
    catalogue = catalogue_all = json.loads(subprocess.run([fray, "procedures", "--json"], capture_output=True,
                                                          text=True, check=True).stdout)["procedures"]
    srv = Server(fray)
    d = chrome.phone()
    try:
        for name, case in (("chooser", lambda: chooser(d, srv.url, catalogue, shots_dir)), ("find", lambda: find_words(d)),
                           ("labels", lambda: labels_and_steppers(d)), ("examples", lambda: examples(d, fray)),
                           ("every example", lambda: every_example(d, catalogue))):
            try:
                case()
            except Exception as e:  # this case fails, the next runs
                check(False, "%s: %s: %s" % (name, type(e).__name__, str(e).split("\n")[0]))
    finally:
        d.quit()
        srv.stop()
    print("words: %d failures; screenshots in %s" % (len(failures), shots_dir))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
