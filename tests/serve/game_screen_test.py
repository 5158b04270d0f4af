#!/usr/bin/python3
"""The game screen's rest (issue 43), in headless Chromium at 412x915, each
thing found by its visible text, on `fray serve --lan --games DIR`
(requests to 127.0.0.1 only: the share URL's host is put back to it):

- "Pass it on" on game.html with a kept game open: the dialog names the
  game; its QR code, screenshotted and read back by zbarimg, is the game's
  own address (the server's share URL, printed by fray serve, with
  game.html#shared=NAME); a second phone opening that address plays the
  same game; "Copy the address" says it copied it; without --lan no button;
- a charge's odds titled by what they are: the fear of charge, then the
  reaction, the impact and morale named as what follows; a shot's by fire,
  then the target's morale;
- undo says what it took back: "Took back #1 Presidials: shoot at
  Apaches ...", under "Taken back";
- fray's move (op play) on a kept game is a versioned change (409 when
  made against an older version);
- no request of the page's answered 500 "internal error": every response
  the browser got (Chromium's network log) and the server's own stderr.
Screenshots under SHOTS_DIR. Usage: FRAY SHOTS_DIR"""
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

from selenium.common.exceptions import (NoAlertPresentException, NoSuchElementException,
                                        StaleElementReferenceException)
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

import browser as chrome
from browser import button, control, unit  # noqa: F401 (game_advice_test takes them from here)
from serve_util import Server

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tests"))
from pace import Pace  # noqa: E402 (tests/pace.py)

PACE = None
failures = []
# no proxy, whatever the environment says: every request goes to loopback itself
OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def check(cond, msg):
    if not cond:
        failures.append(msg)
        print("FAIL " + msg, file=sys.stderr)
    return cond


def browser():
    """A phone's Chromium (412x915) that keeps its network log, so every
    response the page got can be read back (statuses)."""
    return chrome.phone(log=True)


SEEN = []   # (status, url) of every response any browser here got


def responses(d):
    """The responses d got since last asked (Network.responseReceived)."""
    got = []
    for entry in d.get_log("performance"):
        m = json.loads(entry["message"])["message"]
        if m.get("method") == "Network.responseReceived":
            r = m["params"]["response"]
            got.append((int(r["status"]), r["url"]))
    SEEN.extend(got)
    return got


def until(fn, seconds, what):
    def cond():
        try:
            return fn()
        except (NoSuchElementException, StaleElementReferenceException, NoAlertPresentException):
            return None
    return PACE.until(cond, seconds, what)


def text_of(d, id_):
    return d.find_element(By.ID, id_).text


def zbar(path):
    r = subprocess.run(["zbarimg", "--nodbus", "--raw", "-q", path], capture_output=True, text=True)
    return r.stdout.strip() if r.returncode == 0 else None


def start_kept(d, url, name, seed):
    d.get(url + "game.html")
    until(lambda: d.find_element(By.ID, "keep-name").is_displayed(), 30, "the field to keep a game on the server")
    until(lambda: len(d.find_elements(By.CSS_SELECTOR, "#forces-pick option")) > 1, 30, "the shipped forces")
    Select(control(d, "Forces")).select_by_value("examples/presidio/forces.yaml")
    control(d, "Keep it on this server as").send_keys(name)
    s = control(d, "Seed")
    s.clear()
    s.send_keys(str(seed))
    button(d, "Start the game").click()
    until(lambda: ("Shared on this server as " + name) in text_of(d, "shared-line"), 30, "the game kept as " + name)


def pick(d, actor, action, target):
    def action_button():
        """The action's button: "shoot", or "shoot · best" once the advice
        for the unit has come (game_advice.js marks the best action)."""
        for b in d.find_elements(By.XPATH, "//button[normalize-space(.)=%s or starts-with(normalize-space(.), %s)]"
                                 % (json.dumps(action), json.dumps(action + " \u00b7", ensure_ascii=False))):
            if b.is_displayed():
                return b
        return None
    until(lambda: unit(d, actor).is_displayed(), 30, "%s's card" % actor)
    unit(d, actor).click()
    until(action_button, 30, "%s's %s" % (actor, action)).click()
    until(lambda: target in [o.text for o in Select(control(d, "Target")).options], 30, "the target " + target)
    Select(control(d, "Target")).select_by_visible_text(target)


def pass_it_on(d, shots, share, name):
    """The dialog's code is the kept game's own address."""
    want = share + "game.html#shared=" + name
    until(lambda: button(d, "Pass it on"), 30, "the Pass it on button").click()
    until(lambda: d.find_element(By.ID, "share-qr").is_displayed() and
          text_of(d, "share-qr-url") == want, 30, "the dialog with the game's address")
    check(("this game, " + name) in text_of(d, "share-qr"), "the dialog names the game: %r" % text_of(d, "share-qr"))
    png = os.path.join(shots, "game-pass-it-on-412.png")
    d.save_screenshot(png)
    got = zbar(png)
    check(got == want, "the game's code reads %r, not %r" % (got, want))
    button(d, "Copy the address").click()
    until(lambda: text_of(d, "share-qr-said"), 10, "said whether the address was copied")
    check(text_of(d, "share-qr-said").startswith("Copied"), "the address not copied: %r" % text_of(d, "share-qr-said"))
    button(d, "Close").click()
    check(not d.find_element(By.ID, "share-qr").is_displayed(), "Close leaves the dialog open")
    return got


def odds_when(d, words, what):
    """The odds' title and text read together once the text holds words:
    the panel may be drawn again (the advice coming) between two reads, so a
    read of an element found before is stale; until() reads both again."""
    def both():
        title, odds = text_of(d, "odds-title"), text_of(d, "odds")
        return (title, odds) if words in odds else None
    return until(both, 60, what)


def odds_titles(d, shots):
    """A charge's odds are the fear of charge's, then the rest named; a
    shot's are the fire's, then the target's morale."""
    pick(d, "Comanches", "charge", "Presidials")
    title, odds = odds_when(d, "odds before the roll", "the charge's odds")
    check(title.startswith("The odds before the roll: fear of charge ("), "the charge's odds titled %r" % title)
    check("Then reaction, impact, morale" in odds, "the charge's later steps not named: %r" % odds)
    # the fear of charge is a morale check: its headline is the check's
    check("The unit passes:" in odds, "the fear of charge's headline: %r" % odds)
    d.execute_script("document.getElementById('act').scrollIntoView()")
    d.save_screenshot(os.path.join(shots, "game-charge-odds-412.png"))
    button(d, "Close").click()
    pick(d, "Presidials", "shoot", "Apaches")
    r = control(d, "Range")
    r.clear()
    r.send_keys("10")
    title, odds = odds_when(d, "At least one figure wounded", "the shot's odds")
    check(title.startswith("The odds before the roll: fire ("), "the shot's odds titled %r" % title)
    check("Then the target's morale" in odds, "the shot's later step not named: %r" % odds)


def undo_says(d, shots):
    """After a shot (the form of odds_titles), undo says what it took back."""
    roll = button(d, "Roll it")
    d.execute_script("arguments[0].scrollIntoView({block: 'center'})", roll)
    roll.click()
    until(lambda: "Presidials: shoot at Apaches" in text_of(d, "log"), 60, "the shot in the log")
    says = d.find_element(By.CSS_SELECTOR, "#log .entry[data-action='1'] .says").text
    button(d, "Undo the last action").click()
    until(lambda: text_of(d, "happened-title") == "Taken back", 60, "the undo said")
    changes = text_of(d, "changes")
    want = "Took back #1 " + re.sub(r"^#1\s*", "", says)
    check(want in changes, "undo says %r, not %r" % (changes, want))
    check("Nothing rolled yet" in text_of(d, "log"), "the shot still in the log after undo")
    d.execute_script("document.getElementById('happened').scrollIntoView()")
    d.save_screenshot(os.path.join(shots, "game-undo-412.png"))


def http(url, body=None):
    """(status, JSON answer) of a GET, or a POST of body; asked again a
    little later when the server says it is busy (503: its fair share of
    workers, as the page's own requests are, page/shared_game.js)."""
    for i in range(8):
        req = urllib.request.Request(url, data=json.dumps(body).encode() if body is not None else None,
                                     headers={"Content-Type": "application/json"})
        try:
            with OPENER.open(req, timeout=PACE.limit(60)) as r:
                return r.status, json.loads(r.read())
        except urllib.error.HTTPError as e:
            if e.code != 503 or i == 7:
                return e.code, json.loads(e.read())
        time.sleep(0.2 * (i + 1))


def kept_play(url):
    """fray's move (op play, issue 44) on a kept game is a change like a
    player's: made against the game's version, stored, the version one on;
    made against an older version, refused (409) and nothing stored. Not
    checked when the game has no play op."""
    game = url + "api/v1/games/evening"
    _, g = http(game)
    status, a = http("%s?version=%d" % (game, g["version"]), {"op": "play", "side": "Apache"})
    if status == 400 and a.get("input") == "op":
        print("kept play: skipped, this fray has no play op")
        return
    check(status == 200 and a.get("version") == g["version"] + 1, "play on a kept game: %s %r" %
          (status, {k: a.get(k) for k in ("version", "error")}))
    _, h = http(game)
    check(h["version"] == g["version"] + 1 and h["game"] == a.get("game") and h["game"] != g["game"],
          "play on a kept game: not stored as the game's next version")
    status, _ = http("%s?version=%d" % (game, g["version"]), {"op": "play", "side": "Apache"})
    _, i = http(game)
    check(status == 409 and i["game"] == h["game"], "play against an older version: %s, stored anyway" % status)


def stop(srv):
    """Ctrl-C to fray serve: its stderr (what it logged)."""
    srv.proc.send_signal(signal.SIGINT)
    _, err = srv.proc.communicate(timeout=PACE.limit(20))
    check(srv.proc.returncode == 0, "fray serve exited %d on Ctrl-C: %s" % (srv.proc.returncode, err))
    return err


def main():
    global PACE
    fray, shots = sys.argv[1], sys.argv[2]
    os.makedirs(shots, exist_ok=True)
    PACE = Pace(fray)
    tmp = tempfile.mkdtemp(prefix="fray-game-screen-")
    lan = Server(fray, "--lan", "--games", os.path.join(tmp, "games"))
    local = Server(fray, "--games", os.path.join(tmp, "games"))
    a = b = None
    try:
        # the share URL: the one fray serve prints first on the network (the QR code's)
        share = None
        for _ in range(4):
            line = lan.proc.stdout.readline()
            m = re.match(r"\s+on the network \(.*\): (\S+)$", line)
            if m:
                share = m.group(1)
                break
        share = share or lan.url
        a, b = browser(), browser()
        start_kept(a, lan.url, "evening", 5)
        got = pass_it_on(a, shots, share, "evening")
        # the second phone opens what it scanned (its host put back to loopback)
        if got:
            b.get(re.sub(r"^http://[^/]+/", "http://127.0.0.1:%d/" % lan.port, got))
            until(lambda: "Shared on this server as evening" in text_of(b, "shared-line"), 30,
                  "B: the scanned address opens evening")
        odds_titles(a, shots)
        undo_says(a, shots)
        # on this machine alone no code to pass on
        c = browser()
        try:
            c.get(local.url + "game.html")
            until(lambda: c.find_element(By.ID, "new-game").is_displayed() or c.find_element(By.ID, "game").is_displayed(),
                  30, "the local page")
            until(lambda: responses(c) is not None and any("qr.svg" in u for _, u in SEEN), 30, "its qr.svg asked")
            check(not c.find_elements(By.ID, "share-qr-open"), "a Pass it on button without --lan")
        finally:
            c.quit()
        for d in (a, b):
            responses(d)
    except Exception:
        for n, d in (("a", a), ("b", b)):
            if d:
                d.save_screenshot(os.path.join(shots, "game-screen-failed-%s.png" % n))
                for m in d.get_log("browser"):
                    print("%s console: %s" % (n, m.get("message")), file=sys.stderr)
        for srv in (lan, local):
            srv.proc.kill()
        raise
    finally:
        for d in (a, b):
            if d:
                d.quit()
    try:
        kept_play(lan.url)  # the phones gone: their held events share no address's budget with it
    finally:
        errs = [stop(srv) for srv in (lan, local)]
    # no request answered "internal error", by the browser's log and the server's
    check(len(SEEN) > 20, "too few responses seen to tell (%d)" % len(SEEN))
    bad = [(s, u) for s, u in SEEN if s >= 500]
    check(not bad, "answered 5xx: %r" % bad)
    for err in errs:
        check("internal error" not in err and " 500" not in err, "the server logged an internal error: %r" % err[:500])
    shutil.rmtree(tmp, ignore_errors=True)
    print("game screen: %d responses seen, %d failures" % (len(SEEN), len(failures)))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
