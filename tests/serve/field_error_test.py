#!/usr/bin/python3
"""An error at its field (issue 42 item 3): fray serve's JSON error answers
name the input a failure is about ("input"), api/v1/run's, a job's and
api/v1/game's, and the page shows the library's message under that
input's field, found from the name, not guessed from the words. The
inputs are presidio.shoot's as its help gives them: --figures from -1000
to 1000; --cover one of none, incidental, partial, ... (a choice whose
words name another input, the flag --incidental: a guess from the words
put its error there); --weapon a weapon of Section 10.
Usage: FRAY SHOTS_DIR"""
import json
import os
import sys
import time
import urllib.error
import urllib.request

import jsonschema
from selenium.webdriver.common.by import By

from page_test import browser
from player_test import Player
from serve_util import Server, waiter

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
with open(os.path.join(ROOT, "docs/json/error.schema.json")) as f:
    ERROR_SCHEMA = json.load(f)
failures = []


def check(cond, msg):
    if not cond:
        failures.append(msg)
        print("FAIL " + msg, file=sys.stderr)


def post(url, path, body):
    req = urllib.request.Request(url + path, data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        got = json.loads(e.read())
        try:
            jsonschema.validate(got, ERROR_SCHEMA)
        except jsonschema.ValidationError as v:
            check(False, "%s: not an error answer of docs/json/error.schema.json: %s" % (path, v.message))
        return e.code, got


SHOOT = {"weapon": "flintlock musket", "figures": 6, "range": 5}


def api(url):
    """The answers themselves: "error" in words and "input" its name."""
    status, got = post(url, "api/v1/run", {"procedure": "presidio.shoot", "mode": "odds",
                                           "inputs": dict(SHOOT, figures=5000)})
    check(status == 400 and got.get("input") == "figures" and "5000" in got.get("error", ""),
          "api/v1/run, figures 5000: %d %r" % (status, got))
    status, got = post(url, "api/v1/run", {"procedure": "presidio.shoot", "inputs": {"figures": 6}})
    check(status == 400 and got.get("input") == "weapon" and "'fray " not in got.get("error", ""),
          "api/v1/run, no weapon: %d %r" % (status, got))
    status, got = post(url, "api/v1/run", {"procedure": "presidio.shoot", "inputs": dict(SHOOT, nosuch=1)})
    check(status == 400 and "input" not in got and "nosuch" in got.get("error", ""),
          "api/v1/run, an unknown input names no field: %d %r" % (status, got))
    status, job = post(url, "api/v1/jobs", {"procedure": "presidio.shoot", "mode": "odds",
                                            "inputs": dict(SHOOT, cover="nowhere")})
    state = {}
    for _ in range(100):
        with urllib.request.urlopen(url + "api/v1/jobs/" + job["id"], timeout=30) as r:
            state = json.loads(r.read())
        if state.get("state") != "running":
            break
        time.sleep(0.1)
    check(state.get("state") == "failed" and state.get("input") == "cover" and state.get("status") == 400 and
          "nowhere" in state.get("error", ""), "a job, cover nowhere: %r" % state)
    status, got = post(url, "api/v1/game", {"op": "fly", "game": "x"})
    check(status == 400 and got.get("input") == "op", "api/v1/game, op fly: %d %r" % (status, got))


def field_error(d, name):
    e = d.find_element(By.ID, "in-%s-error" % name)
    return e.text if e.is_displayed() else ""


def shown_errors(d):
    # the form's error boxes shown, found in one call (there is one a field),
    # then each one's text as a player reads it
    shown = d.execute_script("""
        return [...document.querySelectorAll('#form .field-error')].filter((e) => {
          const r = e.getBoundingClientRect();
          return r.width > 0 && r.height > 0 && e.checkVisibility({opacityProperty: true, visibilityProperty: true});
        });""")
    return {e.get_attribute("id")[3:-6]: e.text for e in shown}


def page(url, shots):
    d = browser(False)
    try:
        p = Player(d, None, ROOT, 1280, shots, check)
        p.open(url)
        p.pick("presidio.shoot")
        for value, name, words in (({"figures": 5000}, "figures", "5000"),
                                   ({"cover": "nowhere"}, "cover", "nowhere"),
                                   ({"weapon": "zzz"}, "weapon", "zzz")):
            p.open(url)
            p.pick("presidio.shoot")
            p.fill(dict(SHOOT, **value))
            d.find_element(By.CSS_SELECTOR, "button[data-action=odds]").click()
            waiter(d, 60).until(lambda d: shown_errors(d) or d.find_elements(By.CSS_SELECTOR, "#result h2"))
            errs = shown_errors(d)
            check(list(errs) == [name] and words in errs.get(name, "") and "'fray " not in errs.get(name, ""),
                  "%s: the error at its field only: %r" % (value, errs))
            check(d.find_element(By.ID, "error").text == errs.get(name),
                  "%s: the page's error is the library's message: %r" % (value, d.find_element(By.ID, "error").text))
            check(d.find_element(By.ID, "in-" + name).get_attribute("aria-invalid") == "true",
                  "%s: the field is marked invalid" % value)
        d.save_screenshot(os.path.join(shots, "field-error.png"))
    finally:
        d.quit()


def main():
    fray, shots = sys.argv[1], sys.argv[2]
    os.makedirs(shots, exist_ok=True)
    srv = Server(fray)
    try:
        api(srv.url)
        page(srv.url, shots)
    finally:
        srv.stop()
    print("field_error: %d failures" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
