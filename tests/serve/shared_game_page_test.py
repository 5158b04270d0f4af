#!/usr/bin/python3
"""One game on many phones, in browsers (issue 43 item 1): two headless
Chromium sessions at 412x915 on one `fray serve --games DIR`, everything
found by its visible text. A starts a game kept on the server; B finds it
in the page's list of the server's games and opens it; A's shot shows on
B within 2 s without a reload; B, its network to the events dropped
(sharedGame.pause), rolls a shot against the game as it was: refused,
"The game changed", B's page shows A's new action and keeps B's form, and
B's second roll is applied, A seeing it within 2 s: both actions survive.
Undo on A shows on B. A third session opening the game's address sees
every action in order, and the server's file has them all. Screenshots of
both phones (412 px) and of a laptop (1280 px). Requests to 127.0.0.1
only; every wait bounded. Usage: FRAY SHOTS_DIR"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request

from selenium.common.exceptions import (NoAlertPresentException, NoSuchElementException,
                                        StaleElementReferenceException)
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from page_test import browser, check, failures, no_horizontal_scroll
from browser import control, unit
from browser import button as any_button
from serve_util import Server

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tests"))
from pace import Pace  # noqa: E402 (tests/pace.py)

PACE = None


def until(fn, seconds, what):
    """fn's value once true, waited for at most seconds (scaled by the
    machine's pace), polled every 50 ms."""
    def cond():
        try:
            return fn()
        except (NoSuchElementException, StaleElementReferenceException, NoAlertPresentException):
            return None
    return PACE.until(cond, seconds, what)


def within(fn, seconds, what):
    """fn true within seconds (a promise to a player: 2 s), scaled only
    when the machine is slower than a quiet one (tests/pace.py; the time
    is printed): the time taken, or None."""
    seconds = PACE.limit(seconds)
    t0 = time.monotonic()
    while time.monotonic() - t0 < seconds:
        try:
            if fn():
                took = time.monotonic() - t0
                print("%s: %.2f s (pace %.1f)" % (what, took, PACE.pace))
                return took
        except (NoSuchElementException, StaleElementReferenceException):
            pass
        time.sleep(0.05)
    return None


def button(d, text):
    # an action's button reads "shoot · best" once the unit's advice has come (game_advice.js)
    return any_button(d, text, or_best=True)


def log_text(d):
    return d.find_element(By.ID, "log").text


def shoot(d, actor, target, rng):
    until(lambda: unit(d, actor).is_displayed(), 30, "%s's card" % actor)
    unit(d, actor).click()
    until(lambda: button(d, "shoot"), 30, "%s's shoot" % actor).click()
    until(lambda: target in [o.text for o in Select(control(d, "Target")).options], 30, "the target %s" % target)
    Select(control(d, "Target")).select_by_visible_text(target)
    r = control(d, "Range")
    r.clear()
    r.send_keys(str(rng))
    # the odds come first and push the button down: clicked once they are shown, not where it was
    until(lambda: "The odds before the roll" in d.find_element(By.ID, "odds").text, 60, "%s's odds" % actor)
    roll = button(d, "Roll it")
    d.execute_script("arguments[0].scrollIntoView({block: 'center'})", roll)
    roll.click()


def table(fray, *args):
    subprocess.run([fray, "table", *args], check=True, capture_output=True, timeout=120)


def copies(fray, url, tmp):
    """This browser's own game (no kept one): a file that is an older copy
    of it, or a fork of it, is named as such and taken only when the
    player agrees."""
    forces = os.path.join(ROOT, "examples/presidio/forces.yaml")
    mine, older, fork = (os.path.join(tmp, n + ".yaml") for n in ("mine", "older", "fork"))
    table(fray, "new", older, "--rules", "presidio", "--forces", forces, "--seed", "11")
    table(fray, older, "shoot", "Presidials", "--at", "Apaches", "--range", "10")
    shutil.copy(older, mine)
    shutil.copy(older, fork)
    table(fray, mine, "shoot", "Cueras", "--at", "Apaches", "--range", "6")
    table(fray, fork, "shoot", "Cueras", "--at", "Comanches", "--range", "6")
    d = browser(True)
    try:
        d.get(url + "game.html")
        def bring(path):
            until(lambda: d.find_element(By.ID, "new-game").is_displayed(), 30, "the new-game screen")
            d.find_element(By.ID, "game-file").send_keys(path)
        bring(mine)
        until(lambda: "Cueras: shoot at Apaches" in log_text(d), 60, "this browser's game: 2 actions")
        button(d, "New game").click()
        bring(older)
        alert = until(lambda: d.switch_to.alert, 30, "asked before an older copy replaces the game")
        check("older copy" in alert.text and "1 of its 2" in alert.text.replace("entries", ""),
              "the older copy named: %r" % alert.text)
        alert.dismiss()
        until(lambda: "not taken" in d.find_element(By.ID, "new-error").text, 30, "said: not taken")
        button(d, "Back to the game").click()
        until(lambda: "Cueras: shoot at Apaches" in log_text(d), 30, "the game here kept, both actions")
        button(d, "New game").click()
        bring(fork)
        alert = until(lambda: d.switch_to.alert, 30, "asked before a fork replaces the game")
        check("fork" in alert.text and "first 1 log" in alert.text, "the fork named: %r" % alert.text)
        alert.accept()
        until(lambda: "Cueras: shoot at Comanches" in log_text(d), 60, "the fork taken when agreed")
    finally:
        d.quit()


def main():
    global PACE
    fray, shots = sys.argv[1], sys.argv[2]
    os.makedirs(shots, exist_ok=True)
    PACE = Pace(fray)
    tmp = tempfile.mkdtemp(prefix="fray-shared-page-")
    srv = Server(fray, "--games", os.path.join(tmp, "games"))
    a = b = c = None
    try:
        a, b = browser(True), browser(True)
        a.get(srv.url + "game.html")
        until(lambda: a.find_element(By.ID, "keep-name").is_displayed(), 30, "A: the field to keep a game on the server")
        control(a, "Keep it on this server as").send_keys("evening")
        button(a, "Start the game").click()
        until(lambda: "Shared on this server as evening" in a.find_element(By.ID, "shared-line").text, 30,
              "A: the game is kept as evening")

        b.get(srv.url + "game.html")
        until(lambda: button(b, "Open evening"), 30, "B: evening in the server's list").click()
        until(lambda: "Shared on this server as evening" in b.find_element(By.ID, "shared-line").text, 30,
              "B: opened evening")
        until(lambda: "Nothing rolled yet" in log_text(b), 30, "B: the game's empty log")

        # A's shot shows on B within 2 s, no reload
        b.execute_script("window.notReloaded = true")
        shoot(a, "Presidials", "Apaches", 10)
        until(lambda: "Presidials: shoot at Apaches" in log_text(a), 60, "A: its shot in its log")
        took = within(lambda: "Presidials: shoot at Apaches" in log_text(b), 2.0, "B shows A's shot")
        check(took is not None, "B shows A's shot within 2 s (%s s; pace %.1f)" % (took, PACE.pace))
        check(b.execute_script("return window.notReloaded === true"), "B was not reloaded")
        a.save_screenshot(os.path.join(shots, "shared-a-412.png"))
        b.execute_script("document.getElementById('game-line').scrollIntoView()")
        b.save_screenshot(os.path.join(shots, "shared-b-412.png"))
        b.execute_script("document.getElementById('log').scrollIntoView()")
        b.save_screenshot(os.path.join(shots, "shared-b-log-412.png"))

        # B's network to the events drops; A acts; B's roll made on the old game is refused, then rolled again
        b.execute_script("sharedGame.pause(true)")
        time.sleep(0.5)
        button(a, "End the turn").click()
        until(lambda: "turn 2" in a.find_element(By.ID, "game-line").text, 60, "A: turn 2")
        check("turn 1" in b.find_element(By.ID, "game-line").text, "B (not listening) still shows turn 1")
        shoot(b, "Cueras", "Apaches", 6)
        # said beside the action (the form kept to roll again) or at the top
        def said():
            return " ".join(b.find_element(By.ID, i).text for i in ("act-error", "error"))
        until(lambda: "The game changed" in said(), 60, "B: the game changed, said")
        err = said()
        check("turn" in err, "B is told what happened since (%r)" % err)
        until(lambda: "turn 2" in b.find_element(By.ID, "game-line").text, 30, "B now shows turn 2")
        check("Cueras: shoot at Apaches" not in log_text(b), "B's refused shot is in no log")
        b.save_screenshot(os.path.join(shots, "shared-b-409-412.png"))
        b.execute_script("sharedGame.pause(false)")
        until(lambda: button(b, "Roll it"), 10, "B's form kept to roll again").click()
        until(lambda: "Cueras: shoot at Apaches" in log_text(b), 60, "B: its shot applied the second time")
        took = within(lambda: "Cueras: shoot at Apaches" in log_text(a), 2.0, "A shows B's shot")
        check(took is not None, "A shows B's shot within 2 s (%s s; pace %.1f)" % (took, PACE.pace))

        # undo on A, seen on B
        button(a, "Undo the last action").click()
        until(lambda: "Cueras: shoot at Apaches" not in log_text(a), 60, "A: undone")
        took = within(lambda: "Cueras: shoot at Apaches" not in log_text(b), 2.0, "B shows the undo")
        check(took is not None, "B shows the undo within 2 s (%s s; pace %.1f)" % (took, PACE.pace))
        shoot(b, "Cueras", "Apaches", 6)
        until(lambda: "Cueras: shoot at Apaches" in log_text(a), 60, "B shoots again, A sees it")
        no_horizontal_scroll(b, "B at 412 px")

        # a third session (a laptop) opens the game's address: every action, in order
        c = browser(False)
        c.get(srv.url + "game.html#shared=evening")
        until(lambda: "Cueras: shoot at Apaches" in log_text(c), 60, "C: the game with every action")
        for d in (c,):
            d.execute_script("for (const e of document.querySelectorAll('#log details')) e.open = true")
        text = log_text(c)
        order = [text.find("Presidials: shoot at Apaches"), text.find("Cueras: shoot at Apaches")]
        check(-1 not in order and order == sorted(order), "C: the actions in order (%r)" % order)
        check("turn 2" in c.find_element(By.ID, "game-line").text, "C: turn 2")
        c.save_screenshot(os.path.join(shots, "shared-c-1280.png"))
        with urllib.request.urlopen(srv.url + "api/v1/games/evening", timeout=30) as r:
            kept = json.loads(r.read())
        with open(os.path.join(tmp, "games", "evening.yaml"), encoding="utf-8") as f:
            check(kept["game"] == f.read(), "the server's answer is its file")
        check(kept["game"].count("command: \"shoot Presidials") == 1 and kept["game"].count("command: \"shoot Cueras") == 1
              and kept["game"].count("command: \"turn") == 1, "the file has each action once")
        check(not a.execute_script("return localStorage.getItem('fray.game')"),
              "A's own game (local storage) not overwritten by the kept one")
        copies(fray, srv.url, tmp)
    except Exception:
        for n, d in (("a", a), ("b", b), ("c", c)):
            if d:
                d.save_screenshot(os.path.join(shots, "shared-failed-%s.png" % n))
                print("%s: error %r, line %r" % (n, d.find_element(By.ID, "error").text,
                                                 d.find_element(By.ID, "game-line").text), file=sys.stderr)
                print("%s: %r" % (n, d.execute_script("return sharedGame.state()")), file=sys.stderr)
                for m in d.get_log("browser"):
                    print("%s console: %s" % (n, m.get("message")), file=sys.stderr)
        raise
    finally:
        for d in (a, b, c):
            if d:
                d.quit()
        srv.stop()
        shutil.rmtree(tmp, ignore_errors=True)
    if failures:
        print("%d failed" % len(failures))
        sys.exit(1)
    print("all passed")


if __name__ == "__main__":
    main()
