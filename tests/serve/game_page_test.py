#!/usr/bin/python3
"""The game on the page (issue 31 item 7) and its door, POST api/v1/game.

The door: bad JSON, a body past its cap, an unknown op, a wrong method or
type, each a JSON error with its status; a shot whose game is the file
`fray table` writes. The page (headless Chromium, 412x915 and 1280x800):
a new game from the shipped Presidio forces, a shot with its follow-up
morale (the odds before the roll checked against the rules' dice): the
Presidials' line volleys at a target in cover, as one request (issue 42;
issue 43: the form comes from the action's typed options), a
charge whose reaction the page asks, undo; the game the page keeps equals
byte for byte the file `fray table` writes with the same forces, seed and
actions; a chits game's combat (the chits drawn by fray, the combat die
rolls the players' numbers); a BBB game's phases on the phone (Next phase).
No sideways scroll; screenshots of the game screen and of the
game's HTML report at both sizes. Usage: FRAY SHOTS_DIR"""
import base64
import json
import os
import socket
import subprocess
import sys
import tempfile
import urllib.error
import urllib.request
from fractions import Fraction

from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from page_test import browser, check, failures, no_horizontal_scroll
from player_test import Player, install_axe
from serve_util import Server

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FORCES = os.path.join(ROOT, "examples/presidio/forces.yaml")
sys.path.insert(0, os.path.join(ROOT, "tests"))
from pace import Pace  # noqa: E402 (tests/pace.py)

# Every wait below is what it may take on a quiet machine, scaled by the
# machine's pace (tests/pace.py: a calibration run of fray, measured again
# when a wait runs out): at load 12-15 on 2 cores a 60 s wait for the odds
# ran out (issue 41 case 12). Set by main.
PACE = None


class waiter:
    """WebDriverWait's until, its limit scaled by PACE (an element not
    there yet, or replaced while looked at, is waited for)."""

    def __init__(self, d, seconds):
        self.d, self.seconds = d, seconds

    def until(self, fn):
        def cond():
            try:
                return fn(self.d)
            except (NoSuchElementException, StaleElementReferenceException):
                return None
        return PACE.until(cond, self.seconds, "a wait on the page")


def post(url, body, ctype="application/json", method="POST"):
    req = urllib.request.Request(url + "api/v1/game", data=body, method=method, headers={"Content-Type": ctype})
    try:
        with urllib.request.urlopen(req, timeout=PACE.limit(60)) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def past_cap(url, n):
    """The server's first answer to a POST saying a body of n bytes (it
    answers before reading one past its cap)."""
    host, port = url.split("/")[2].split(":")
    with socket.create_connection((host, int(port)), timeout=PACE.limit(30)) as c:
        c.sendall(b"POST /api/v1/game HTTP/1.1\r\nHost: %s:%s\r\nContent-Type: application/json\r\n"
                  b"Content-Length: %d\r\n\r\n" % (host.encode(), port.encode(), n))
        return c.recv(4096)


try:
    import jsonschema
    with open(os.path.join(ROOT, "docs/json/game-request.schema.json"), encoding="utf-8") as f:
        SCHEMA = json.load(f)
except ImportError:
    jsonschema = None


def ask(url, req, valid=True):
    """A request, checked against docs/json/game-request.schema.json
    first: valid ones are, the bad ones this test sends are not."""
    if jsonschema:
        try:
            jsonschema.validate(req, SCHEMA)
            check(valid, "the schema takes a bad request %r" % req)
        except jsonschema.ValidationError as e:
            check(not valid, "the schema refuses %r: %s" % (req, e.message))
    return post(url, json.dumps(req).encode())


def table(fray, *args):
    r = subprocess.run([fray, "table", *args], capture_output=True, text=True)
    check(r.returncode == 0, "fray table %s: %s" % (" ".join(args), r.stderr))


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def the_door(fray, url, tmp):
    status, a = post(url, b'{"op": ')
    check(status == 400 and "error" in a, "bad JSON: %s %r" % (status, a))
    status, a = ask(url, {"op": "fly"}, valid=False)
    check(status == 400 and "op: expected" in a.get("error", ""), "unknown op: %s %r" % (status, a))
    # the game's door takes any game that reads (docs/serve.md): twice the
    # game file's budget (2016 KiB, as a JSON string) and 64 KiB for the rest
    budget = (4 << 20) - (64 << 10)
    check(past_cap(url, budget + (64 << 10) + 1).startswith(b"HTTP/1.1 413"), "a body past 4 MiB: 413")
    big = os.path.join(tmp, "big.yaml")
    table(fray, "new", big, "--rules", "presidio", "--forces", FORCES, "--seed", "7")
    table(fray, big, "shoot", "Presidials", "--at", "Apaches", "--range", "10")
    text = read(big)
    at = text.index("\nlog:\n") + 6
    entry = text[at:]
    text = text[:at] + entry * ((budget // 2 - at) // len(entry))  # just under the game's budget
    status, a = ask(url, {"op": "status", "game": text})
    check(status == 200, "a game of %d bytes, within a game file's budget, shown (today 413): %s %r" %
          (len(text), status, str(a)[:200]))
    status, a = post(url, b'{"op": "fly"}', ctype="text/plain")
    check(status == 415, "not JSON: %s" % status)
    status, a = ask(url, {"op": "new", "rules": "presidio", "forces_name": "examples/presidio/forces.yaml", "seed": 7})
    check(status == 200 and "game" in a, "new: %s %r" % (status, a))
    status, a = ask(url, {"op": "apply", "game": a["game"], "action": "shoot", "actor": "Presidials",
                          "target": "Apaches", "options": {"range": 10}})
    check(status == 200, "a shot: %s %r" % (status, a))
    path = os.path.join(tmp, "door.yaml")
    table(fray, "new", path, "--rules", "presidio", "--forces", FORCES, "--seed", "7")
    table(fray, path, "shoot", "Presidials", "--at", "Apaches", "--range", "10")
    check(a.get("game") == read(path), "a shot through the door: the game is fray table's file")
    status, a = ask(url, {"op": "apply", "game": a["game"], "action": "shoot", "actor": "Nobody",
                          "target": "Apaches", "options": {"range": 10}})
    check(status == 400 and "Nobody" in a.get("error", ""), "an unknown unit: %s %r" % (status, a))
    status, a = ask(url, {"op": "new", "rules": "presidio", "forces_name": "examples/presidio/forces.yaml"}, valid=False)
    check(status == 400 and "seed" in a.get("error", ""), "new without a seed: %s %r" % (status, a))
    status, a = ask(url, {"op": "status", "game": "x", "colour": 1}, valid=False)
    check(status == 400 and "colour" in a.get("error", ""), "an unknown member: %s %r" % (status, a))


# The page's shot: the Presidials' volley (their suggested fire mode: a
# line, loaded) at the Apaches in partial cover, at 10"; the same as words
PAGE_SHOT = {"range": 10, "mode": "volley", "cover": "partial"}
PAGE_SHOT_WORDS = ["--range", "10", "--mode", "volley", "--cover", "partial"]


def a_seed(url):
    """A seed whose shot wounds (so the target's morale follows) and whose
    charge then meets a defender that passes its fear check (so the page
    must ask its reaction): the scenario, found through the door."""
    for seed in range(1, 40):
        _, a = ask(url, {"op": "new", "rules": "presidio", "forces_name": "examples/presidio/forces.yaml",
                         "seed": seed})
        _, b = ask(url, {"op": "apply", "game": a["game"], "action": "shoot", "actor": "Presidials",
                         "target": "Apaches", "options": PAGE_SHOT})
        if b["events"]["steps"][0]["outcome"]["casualties"] < 1:
            continue
        status, c = ask(url, {"op": "apply", "game": b["game"], "action": "charge", "actor": "Comanches",
                              "target": "Presidials"})
        if status == 400 and "question" in c:
            return seed
    raise SystemExit("no seed in 1..39 gives a wounding shot and a charge reaction")


def wait(d, css, what, timeout=60):
    try:
        return waiter(d, timeout).until(lambda d: d.find_element(By.CSS_SELECTOR, css)
                                              if d.find_elements(By.CSS_SELECTOR, css) and
                                              d.find_element(By.CSS_SELECTOR, css).is_displayed() else None)
    except Exception:
        check(False, "%s: %s never shown" % (what, css))
        raise


def pick_action(d, name, what):
    """Taps an action and waits until the page has built its form (the
    button pressed: set as the form is rebuilt, in the same task): on a busy
    machine the target list found before that was the last action's, and
    the target chosen in it was lost with it."""
    css = "#act-buttons button[data-action=%s]" % name
    wait(d, css, what).click()
    waiter(d, 60).until(lambda d: d.find_element(By.CSS_SELECTOR, css).get_attribute("aria-pressed") == "true")


def tap_unit(d, name):
    for b in d.find_elements(By.CSS_SELECTOR, "button.unit"):
        if b.find_element(By.CSS_SELECTOR, ".name").text == name:
            b.click()
            waiter(d, 30).until(lambda d: d.find_element(By.ID, "act-title").text.startswith(name + ":"))
            return
    check(False, "no card for %s" % name)


def shot(d, path):
    """The whole page (up to 4000 px tall) as a PNG, not only the window."""
    w, h = d.execute_script("return [document.documentElement.clientWidth, document.documentElement.scrollHeight]")
    png = d.execute_cdp_cmd("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True,
                                                       "clip": {"x": 0, "y": 0, "width": w, "height": min(h, 4000),
                                                                "scale": 1}})
    with open(path, "wb") as f:
        f.write(base64.b64decode(png["data"]))


def log_text(d):
    return d.execute_script("return document.getElementById('log').textContent")


def actions_so_far(d):
    return d.execute_script("return JSON.parse(localStorage.getItem('fray.game')).text")


def no_command_line(d, where, what):
    """No CLI usage or option words shown on the game screen (issue 31)."""
    text = d.find_element(By.CSS_SELECTOR, where).text
    for word in ("--", "TARGET", "UNIT", "[", "fray table"):
        check(word not in text, "%s: command-line words %r shown: %r" % (what, word, text[:300]))


def play(fray, url, phone, seed, shots, tmp):
    size = "412" if phone else "1280"
    d = shared_browser(phone)
    axe = Player(d, fray, ROOT, size, shots, check).axe
    d.get(url + "game.html")
    d.execute_script("localStorage.clear()")
    d.get(url + "game.html")
    wait(d, "#new-game", "new game")
    waiter(d, 30).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#forces-pick option")) > 1)
    axe("the game's new-game screen")
    Select(d.find_element(By.ID, "forces-pick")).select_by_value("examples/presidio/forces.yaml")
    s = d.find_element(By.ID, "seed")
    s.clear()
    s.send_keys(str(seed))
    d.find_element(By.ID, "start").click()
    wait(d, "button.unit", "the forces")
    # the forces with their status first: four cards, by side
    names = [e.text for e in d.find_elements(By.CSS_SELECTOR, "button.unit .name")]
    check(names == ["Cueras", "Presidials", "Apaches", "Comanches"], "%s: the units %r" % (size, names))
    status = [e.text for e in d.find_elements(By.CSS_SELECTOR, "button.unit .status")]
    check(status == ["good"] * 4, "%s: every unit starts good (a status on each card): %r" % (size, status))
    # each card tells the unit's actions left this turn (Section 2: two; ruling R47)
    cards = [e.text for e in d.find_elements(By.CSS_SELECTOR, "button.unit")]
    check(all("actions left: 2" in c for c in cards), "%s: the actions left on each card: %r" % (size, cards))
    # the shot: its odds before the roll, from the rules' dice (Presidio
    # Section 4, ruling R14: 12 figures / reload 4 = 3 dice; Hit# 11,
    # medium range -2, skill 2 -2: 7+ on d12; Section 6: damage 4 -
    # armor 0 wounds on 5+): at least one casualty 1 - (1 - 1/2 * 8/12)^3,
    # said as the catalogue's headline with its exact fraction (short);
    # the target (10 figures) checks morale exactly when it takes one
    # (Section 7), so the same chance, worded as what it is
    tap_unit(d, "Presidials")
    pick_action(d, "shoot", "the shot")
    Select(wait(d, "#act-target", "the action's target")).select_by_value("Apaches")
    no_command_line(d, "#act", "%s: a unit's action" % size)
    check(not d.find_elements(By.CSS_SELECTOR, "#act input[type=text]"),
          "%s: a free-text box among the action's inputs" % size)
    # the targets: the other side's only (fire hits "only enemy
    # figures", Section 4, Line of sight): the Cueras, Spain's too, are
    # not offered
    opts = [o.text for o in d.find_elements(By.CSS_SELECTOR, "#act-target option")]
    check(opts and not any(o.startswith("Cueras") for o in opts),
          "%s: a friend offered as the shot's target: %r" % (size, opts))
    # the fire mode: a volley, as the rules let a line fully loaded fire
    # one (Section 4, Volley Fire; ruling R27); every mode offered
    mode = Select(d.find_element(By.ID, "opt-mode"))
    check(mode.first_selected_option.text == "volley", "%s: the Presidials' line not offered a volley: %r" %
          (size, mode.first_selected_option.text))
    check({o.text for o in mode.options} >= {"volley", "independent", "aimed"}, "%s: the modes %r" %
          (size, [o.text for o in mode.options]))
    # the target's cover, and the rare options folded under More
    Select(d.find_element(By.ID, "opt-cover")).select_by_value("partial")
    more = d.find_element(By.ID, "act-more")
    check(more.tag_name == "details" and not more.get_attribute("open") and
          d.find_elements(By.CSS_SELECTOR, "#act-more #opt-through-fire"),
          "%s: the rare options (through fire) not folded under More" % size)
    d.find_element(By.ID, "opt-range").send_keys("10")
    # the volley: 12 figures less 2 officers and NCOs fire 10 dice
    # (Volley Fire); Hit# 11, medium range -2, skill 2 -2, partial
    # cover +2: 9+ on a d12 (p 1/3); damage 4 - armor 0 wounds on 5+
    # (Section 6: p 8/12): at least one casualty 1 - (1 - 1/3 * 8/12)^10
    p = 1 - (1 - Fraction(1, 3) * Fraction(8, 12)) ** 10
    want = "At least one figure wounded: %.1f%%" % (100 * p)
    waiter(d, 60).until(lambda d: want in d.find_element(By.ID, "odds").text and
                        d.find_element(By.ID, "odds").get_attribute("data-target") == "Apaches")
    odds = d.find_element(By.ID, "odds").text
    check("The target checks morale: %.1f%%" % (100 * p) in odds,
          "%s: the morale check worded as what it is, with its chance: %r" % (size, odds))
    check(odds.index(want) < odds.index("Figures hit"), "%s: the headline not first: %r" % (size, odds))
    check("mean 0.00" not in odds and "0.0%" not in odds, "%s: a mean or a chance of nothing shown: %r" %
          (size, odds))
    if shots:
        d.execute_script("document.getElementById('act').scrollIntoView()")
        d.save_screenshot(os.path.join(shots, "game-odds-%s.png" % size))
    axe("a unit's action with its odds")  # it unfolds every fold: after the screenshot
    # one request a shot (issue 42): the page's requests to the game's
    # door counted from the roll until the log shows it
    d.execute_script("""window.gameRequests = 0; const f = window.fetch;
        window.fetch = function (u, ...rest) {
          if (String(u && u.url || u).includes('api/v1/game')) window.gameRequests++;
          return f.call(this, u, ...rest); };""")
    d.find_element(By.ID, "roll").click()
    wait(d, "#happened", "what happened")
    waiter(d, 60).until(lambda d: "#1" in log_text(d))
    sent = d.execute_script("return window.gameRequests")
    check(sent == 1, "%s: a shot took %r requests to api/v1/game, not one" % (size, sent))
    story = d.execute_script("return document.getElementById('story').textContent")
    check("shoot:" in story and "a volley" in story and "cover: partial" in story,
          "%s: the shot, a volley at a target in cover: %r" % (size, story[:400]))
    # the log in words: the unit and action, not the command line
    first = d.find_element(By.CSS_SELECTOR, "#log .entry[data-action='1'] .says").text
    check(first.startswith("#1") and first[2:].strip() ==
          "Presidials: shoot at Apaches (range 10, mode volley, cover partial)",
          "%s: the log's first action in words: %r" % (size, first))
    no_command_line(d, "#log", "%s: the log" % size)
    check(" 1 actions" not in d.find_element(By.ID, "game").text, "%s: \"1 actions\"" % size)
    axe("the game's log")
    # the charge: the defender passes its fear check, so the page asks its reaction
    tap_unit(d, "Comanches")
    pick_action(d, "charge", "the charge")
    Select(wait(d, "#act-target", "the action's target")).select_by_value("Presidials")
    # the odds first, as a player reads them before rolling: they come
    # in after the choice and move the button down, and a click aimed
    # before that lands beside it (the charge then never rolled)
    waiter(d, 60).until(lambda d: d.find_element(By.ID, "odds").get_attribute("data-target") == "Presidials")
    d.find_element(By.ID, "roll").click()
    # the question, or an error that says why not (a busy machine: two minutes)
    waiter(d, 120).until(lambda d: d.find_element(By.ID, "question").is_displayed() or
                                d.find_element(By.ID, "error").is_displayed())
    check(d.find_element(By.ID, "question").is_displayed(),
          "%s: the charge reaction not asked: %s" % (size, d.find_element(By.ID, "error").text))
    check("reaction" in d.find_element(By.ID, "question-text").text, "%s: the question names the reaction" % size)
    for b in d.find_elements(By.CSS_SELECTOR, "#question-buttons button"):
        if b.text == "stand":
            b.click()
            break
    waiter(d, 60).until(lambda d: "#2" in log_text(d))
    path = os.path.join(tmp, "page-%s.yaml" % size)
    table(fray, "new", path, "--rules", "presidio", "--forces", FORCES, "--seed", str(seed))
    table(fray, path, "shoot", "Presidials", "--at", "Apaches", *PAGE_SHOT_WORDS)
    table(fray, path, "charge", "Comanches", "--at", "Presidials", "--reaction", "stand")
    check(actions_so_far(d) == read(path), "%s: after the charge, the page's game is fray table's file" % size)
    no_horizontal_scroll(d, "game " + size)
    # undo: the charge gone, the file as fray table undoes it
    d.find_element(By.ID, "undo").click()
    waiter(d, 60).until(lambda d: "#2" not in log_text(d))
    table(fray, path, "undo")
    check(actions_so_far(d) == read(path), "%s: after undo, the page's game is fray table's file" % size)
    # kept in the browser: a reload shows the same game
    d.refresh()
    wait(d, "button.unit", "the forces after a reload")
    check(actions_so_far(d) == read(path), "%s: the stored game after a reload" % size)
    no_horizontal_scroll(d, "game after undo " + size)
    if shots:  # the last thing done on the page: the capture may resize it
        shot(d, os.path.join(shots, "game-%s.png" % size))
    # the game's report, as fray report --html makes it
    html = os.path.join(tmp, "report-%s.html" % size)
    r = subprocess.run([fray, "report", "--html", html, path], capture_output=True, text=True)
    check(r.returncode == 0, "report: %s" % r.stderr)
    d.get("file://" + html)
    no_horizontal_scroll(d, "game report " + size)
    if shots:
        shot(d, os.path.join(shots, "game-report-%s.png" % size))


CHITS = os.path.join(ROOT, "examples/chits/forces.yaml")

_browsers = {}


def shared_browser(phone):
    """One Chromium for each screen size, for all the cases at that size (a
    start and quit is about 1.5 s of CPU): play() opens each on a fresh one
    (main runs it first), the other cases each start on a new game screen
    (new_game: the game screen's storage cleared, then loaded again)."""
    if phone not in _browsers:
        _browsers[phone] = browser(phone)
    return _browsers[phone]


def quit_browsers():
    while _browsers:
        _browsers.popitem()[1].quit()


def new_game(d, url, forces, seed, what):
    """A new game on a fresh game screen from a shipped forces file."""
    d.get(url + "game.html")
    d.execute_script("localStorage.clear()")
    d.get(url + "game.html")
    wait(d, "#new-game", "new game")
    waiter(d, 30).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#forces-pick option")) > 1)
    Select(d.find_element(By.ID, "forces-pick")).select_by_value(forces)
    s = d.find_element(By.ID, "seed")
    s.clear()
    s.send_keys(str(seed))
    d.find_element(By.ID, "start").click()
    wait(d, "button.unit", what)


def chits_combat(fray, url, seed, shots, tmp):
    """A chits game's combat on the game screen (1280 px): the chits are
    drawn by fray (no chit is asked: the script is optional), the policy a
    picker from the catalogue; the combat die rolls are the players' own
    numbers (the text names no die for them: R21) and the draw the
    attacker's declared choice, so those are asked, their help says so. It
    rolls with no chit typed, and the game is fray table's file."""
    d = shared_browser(False)
    new_game(d, url, "examples/chits/forces.yaml", seed, "the chits forces")
    tap_unit(d, "Bylant")
    pick_action(d, "combat", "the combat")
    Select(wait(d, "#act-target", "the combat's target")).select_by_value("Karl Franz")
    needed = sorted(c.get_attribute("name") for c in d.find_elements(By.CSS_SELECTOR, "#act-fields [required]")
                    if c.get_attribute("name") != "target")
    check(needed == ["attacker-cdr", "defender-cdr", "draw", "stance", "tactic", "terrain"],
          "chits combat: asked %r; the chits are fray's to draw" % needed)
    check(not d.find_element(By.ID, "opt-script").get_attribute("required"), "chits combat: the chits asked")
    check(d.find_element(By.ID, "opt-policy").tag_name == "select", "chits combat: the policy is no picker")
    hint = d.find_element(By.ID, "opt-attacker-cdr-help").text
    check("rolled at the table" in hint, "chits combat: the combat die roll's help %r" % hint)
    for name, value in (("tactic", "hasty"), ("attacker-cdr", "17"), ("defender-cdr", "6"), ("draw", "5")):
        d.find_element(By.ID, "opt-" + name).send_keys(value)
    Select(d.find_element(By.ID, "opt-stance")).select_by_value("defend")
    Select(d.find_element(By.ID, "opt-terrain")).select_by_value("village")
    if shots:
        try:  # the odds before the roll, when they come (a screenshot's nicety, not a check)
            waiter(d, 60).until(lambda d: "odds before" in d.find_element(By.ID, "odds").text or
                                       "No odds" in d.find_element(By.ID, "odds").text)
        except Exception:
            pass
        d.execute_script("document.getElementById('act').scrollIntoView()")
        d.save_screenshot(os.path.join(shots, "game-chits-1280.png"))
    d.find_element(By.ID, "roll").click()
    waiter(d, 120).until(lambda d: "#1" in log_text(d) or d.find_element(By.ID, "error").is_displayed())
    check("#1" in log_text(d), "chits combat: no roll: %s" % d.find_element(By.ID, "error").text)
    story = d.execute_script("return document.getElementById('story').textContent")
    check(story.count("chit: draw from") == 5, "chits combat: five chits drawn by fray: %r" % story[:400])
    path = os.path.join(tmp, "chits.yaml")
    table(fray, "new", path, "--rules", "chits", "--forces", CHITS, "--seed", str(seed))
    table(fray, path, "combat", "Bylant", "--at", "Karl Franz", "--tactic", "hasty", "--stance", "defend",
          "--terrain", "village", "--attacker-cdr", "17", "--defender-cdr", "6", "--draw", "5")
    check(actions_so_far(d) == read(path), "chits combat: the page's game is fray table's file")
    no_horizontal_scroll(d, "chits game 1280")


def bbb_phases(fray, url, seed, shots, tmp):
    """A BBB game on the phone's screen keeps the Sequence of Play: the
    line names the moving side and the phase (the first unit's side moves
    first), Next phase ends the phase (Unit Movement, then the Generals),
    and the page's game is fray table's file after `next`."""
    d = shared_browser(True)
    new_game(d, url, "examples/bbb/forces.yaml", seed, "the BBB forces")
    line = d.find_element(By.ID, "game-line").text
    check("Union's turn, movement" in line, "bbb phases: the line does not say Union moves: %r" % line)
    nxt = d.find_element(By.ID, "next-phase")
    check(nxt.is_displayed(), "bbb phases: no Next phase button")
    check(not d.find_element(By.ID, "pass").is_displayed(), "bbb phases: a Presidio Pass button in a BBB game")
    nxt.click()
    waiter(d, 60).until(lambda d: "generals" in d.find_element(By.ID, "game-line").text or
                               d.find_element(By.ID, "error").is_displayed())
    line = d.find_element(By.ID, "game-line").text
    check("Union's turn, generals" in line, "bbb phases: Next phase did not reach the Generals: %r" % line)
    if shots:
        d.execute_script("document.getElementById('game-line').scrollIntoView()")
        d.save_screenshot(os.path.join(shots, "game-bbb-phase-412.png"))
    path = os.path.join(tmp, "bbb.yaml")
    table(fray, "new", path, "--rules", "bbb", "--forces", os.path.join(ROOT, "examples/bbb/forces.yaml"),
          "--seed", str(seed))
    table(fray, path, "next")
    check(actions_so_far(d) == read(path), "bbb phases: the page's game is not fray table's file after next")
    no_horizontal_scroll(d, "bbb game 412")


def presidio_initiative(fray, url, seed, shots, tmp):
    """A new Presidio game on the phone's screen offers the turn's
    initiative before any unit acts (Section 2, Game Turn Phases: 1. Rally,
    2. Initiative): the line says the rally phase, Roll the initiative rolls
    it, the line then names the side acting, and the page's game is fray
    table.s file after `next`; once rolled it is not offered again."""
    d = shared_browser(True)
    new_game(d, url, "examples/presidio/forces.yaml", seed, "the Presidio forces")
    line = d.find_element(By.ID, "game-line").text
    check("rally phase" in line, "presidio initiative: a new game's line says no rally phase: %r" % line)
    roll = d.find_element(By.ID, "next-phase")
    check(roll.is_displayed() and roll.text == "Roll the initiative",
          "presidio initiative: no 'Roll the initiative' button: %r" % roll.text)
    if shots:
        d.execute_script("document.getElementById('game-line').scrollIntoView()")
        d.save_screenshot(os.path.join(shots, "game-presidio-rally-412.png"))
    roll.click()
    waiter(d, 60).until(lambda d: "won the initiative" in d.find_element(By.ID, "game-line").text or
                               d.find_element(By.ID, "error").is_displayed())
    line = d.find_element(By.ID, "game-line").text
    check(" acts (" in line and "won the initiative" in line and "rally phase" not in line,
          "presidio initiative: the roll did not give the turn's order: %r" % line)
    check(not d.find_element(By.ID, "next-phase").is_displayed(),
          "presidio initiative: the roll still offered after it was rolled")
    path = os.path.join(tmp, "presidio-initiative.yaml")
    table(fray, "new", path, "--rules", "presidio", "--forces",
          os.path.join(ROOT, "examples/presidio/forces.yaml"), "--seed", str(seed))
    table(fray, path, "next")
    check(actions_so_far(d) == read(path), "presidio initiative: the page's game is not fray table's file after next")
    if shots:
        d.execute_script("document.getElementById('game-line').scrollIntoView()")
        d.save_screenshot(os.path.join(shots, "game-presidio-initiative-412.png"))


def main():
    global PACE
    fray = sys.argv[1]
    shots = sys.argv[2] if len(sys.argv) > 2 else None
    PACE = Pace(fray)
    print("game page: the machine's pace %.1f (wall-clock over CPU time of a calibration run)" % PACE.pace)
    if shots:
        os.makedirs(shots, exist_ok=True)
    install_axe()
    srv = Server(fray)
    try:
        with tempfile.TemporaryDirectory() as tmp:
            the_door(fray, srv.url, tmp)
            seed = a_seed(srv.url)
            # the phone's cases, then the laptop's, each size's browser quit after its cases
            play(fray, srv.url, True, seed, shots, tmp)
            bbb_phases(fray, srv.url, seed, shots, tmp)
            presidio_initiative(fray, srv.url, seed, shots, tmp)
            quit_browsers()
            play(fray, srv.url, False, seed, shots, tmp)
            chits_combat(fray, srv.url, seed, shots, tmp)
    finally:
        quit_browsers()
        srv.stop()
    print("game page: %d failures" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
