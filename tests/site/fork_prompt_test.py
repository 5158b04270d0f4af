#!/usr/bin/python3
"""The static page's game and a game file brought in (issue 43): on the
static site (`make site`, from python3 -m http.server: no fray serve, the
game computed in WebAssembly), at 412x915, found by visible text.

The game in this browser has two actions (a file `fray table` wrote,
imported). Then:
- an older copy of it (its first action only) is named as such, "1 of its
  2 log entries", and Cancel keeps the game here (both actions in the log,
  the stored text unchanged, "not taken" said);
- a fork of it (the same first action, then another) is named a fork that
  agrees on the first 1 entry, and Cancel keeps the game here too;
- OK to the fork replaces it (the fork's action in the log, the stored
  text the fork's file byte for byte); OK to the older copy then replaces
  the fork (one action);
- a newer copy (the game here and one more action) and another game (a
  new seed) are taken without a question.
Usage: NATIVE-FRAY SITE-DIR [SCREENSHOT-DIR]"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

from selenium.common.exceptions import (NoAlertPresentException, NoSuchElementException,
                                        StaleElementReferenceException, TimeoutException)
from selenium.webdriver.common.by import By

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "serve"))
import browser as chrome  # noqa: E402 (tests/serve/browser.py)
from site_test import StaticServer  # noqa: E402 (tests/site/site_test.py)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FORCES = os.path.join(ROOT, "examples/presidio/forces.yaml")
failures = []


def check(cond, msg):
    if not cond:
        failures.append(msg)
        print("FAIL " + msg, file=sys.stderr)
    return cond


def browser():
    """A phone: 412x915 (Chromium's device emulation)."""
    return chrome.phone()


def until(d, fn, seconds, what):
    def cond(_):
        try:
            return fn()
        except (NoSuchElementException, StaleElementReferenceException, NoAlertPresentException):
            return None
    try:
        return chrome.waiter(d, seconds).until(cond)
    except TimeoutException:
        raise SystemExit("not within %d s: %s" % (seconds, what))


def button(d, text):
    for b in d.find_elements(By.XPATH, "//button[normalize-space(.)=%s]" % json.dumps(text)):
        if b.is_displayed():
            return b
    raise NoSuchElementException(text)


def table(fray, *args):
    subprocess.run([fray, "table", *args], check=True, capture_output=True, timeout=120)


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def main():
    fray, site = sys.argv[1], sys.argv[2]
    shots = sys.argv[3] if len(sys.argv) > 3 else None
    tmp = tempfile.mkdtemp(prefix="fray-fork-")
    paths = {n: os.path.join(tmp, n + ".yaml") for n in ("mine", "older", "fork", "newer", "other")}
    table(fray, "new", paths["older"], "--rules", "presidio", "--forces", FORCES, "--seed", "11")
    table(fray, paths["older"], "shoot", "Presidials", "--at", "Apaches", "--range", "10")
    shutil.copy(paths["older"], paths["mine"])
    shutil.copy(paths["older"], paths["fork"])
    table(fray, paths["mine"], "shoot", "Cueras", "--at", "Apaches", "--range", "6")
    table(fray, paths["fork"], "shoot", "Cueras", "--at", "Comanches", "--range", "6")
    shutil.copy(paths["mine"], paths["newer"])
    table(fray, paths["newer"], "turn")
    table(fray, "new", paths["other"], "--rules", "presidio", "--forces", FORCES, "--seed", "12")
    srv = StaticServer(site)
    d = browser()
    try:
        d.get(srv.url + "game.html")
        d.execute_script("localStorage.clear()")
        d.get(srv.url + "game.html")
        log = lambda: d.find_element(By.ID, "log").text  # noqa: E731
        stored = lambda: d.execute_script("return JSON.parse(localStorage.getItem('fray.game') || 'null')")  # noqa: E731

        def bring(name):
            if d.find_element(By.ID, "game").is_displayed():
                button(d, "New game").click()
            until(d, lambda: d.find_element(By.ID, "new-game").is_displayed(), 30, "the new-game screen")
            d.find_element(By.ID, "game-file").send_keys(paths[name])

        def asked(what):
            return until(d, lambda: d.switch_to.alert, 120, "asked before %s replaces the game" % what)

        def kept(what):
            until(d, lambda: "not taken" in d.find_element(By.ID, "new-error").text, 30, what + ": 'not taken' said")
            check(stored()["text"] == read(paths["mine"]), what + ": the stored game changed")
            button(d, "Back to the game").click()
            until(d, lambda: "Cueras: shoot at Apaches" in log() and "Presidials: shoot at Apaches" in log(), 30,
                  what + ": the game here, both actions")

        bring("mine")
        until(d, lambda: "Cueras: shoot at Apaches" in log(), 120, "this browser's game: 2 actions")
        check(stored()["text"] == read(paths["mine"]), "the imported game stored as its file")

        bring("older")
        alert = asked("an older copy")
        check("older copy" in alert.text and "1 of its 2 log entries" in alert.text, "the older copy named: %r" % alert.text)
        alert.dismiss()
        kept("Cancel to the older copy")

        bring("fork")
        alert = asked("a fork")
        check("fork" in alert.text and "first 1 log entries" in alert.text, "the fork named: %r" % alert.text)
        alert.dismiss()
        kept("Cancel to the fork")
        if shots:
            d.save_screenshot(os.path.join(shots, "site-fork-kept-412.png"))

        bring("fork")
        asked("a fork").accept()
        until(d, lambda: "Cueras: shoot at Comanches" in log(), 60, "OK: the fork taken")
        check("Cueras: shoot at Apaches" not in log(), "the fork taken, the game here's second action still shown")
        check(stored()["text"] == read(paths["fork"]), "the fork taken: the stored game is not the fork's file")

        bring("older")
        asked("an older copy of the fork").accept()
        until(d, lambda: "Cueras: shoot" not in log() and "Presidials: shoot at Apaches" in log(), 60,
              "OK: the older copy taken")
        check(stored()["text"] == read(paths["older"]), "the older copy taken: the stored game is not its file")

        # a newer copy, another game: no question
        for name, shown in (("newer", lambda: "Turn 2" in log() or "turn 2" in d.find_element(By.ID, "game-line").text),
                            ("other", lambda: "Nothing rolled yet" in log())):
            bring(name)
            until(d, lambda: shown() or d.switch_to.alert, 60, name + " taken")
            try:
                check(False, "%s: asked %r" % (name, d.switch_to.alert.text))
                d.switch_to.alert.dismiss()
            except NoAlertPresentException:
                pass
            check(stored()["text"] == read(paths[name]), name + ": not stored as its file")
        if shots:
            d.save_screenshot(os.path.join(shots, "site-fork-other-412.png"))
        # the page's own errors (a 404 of a static host to the transport's probe is none)
        bad = [m for m in d.get_log("browser") if m.get("level") == "SEVERE" and m.get("source") != "network"]
        check(not bad, "errors in the console: %r" % bad)
    finally:
        d.quit()
        srv.stop()
        shutil.rmtree(tmp, ignore_errors=True)
    print("fork prompt: %d failures" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
