#!/usr/bin/python3
"""The static site (`make site`) in a real browser, headless Chromium, from
a plain static server (python3 -m http.server) and no fray serve: the page
computes with libfray in WebAssembly in a Web Worker. A Presidio morale
check, a BBB assault, a chits combat and an ADBG battle must give what
`fray request` gives; Stop ends a long simulation; the manifest is one
Chromium accepts and the page installable; the service worker is
registered; a share link opened in a fresh browser brings the view back;
a game started on the static page's game screen and exported after a shot
is the file `fray table` writes, and goes on the same there; a game `fray
table` wrote, imported with the page's file picker, goes on the same on
the page; then, the network cut (DevTools offline, and the static server stopped), a
reload still opens the page and answers. At a phone's 412x915 too (DevTools'
device emulation in the same browser, not a second one): the page opens and
answers like `fray request`, the game screen starts a game and takes a shot
that writes `fray table`'s file, the page answers offline, and nothing
scrolls sideways. Also runs wasm_node_test.js (the library in node against
the native one) when node is there.
Usage: site_test.py NATIVE-FRAY SITE-DIR [SCREENSHOT-DIR]"""
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

import site_issue43

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tests", "serve"))
import browser as chrome  # noqa: E402 (tests/serve/browser.py)
from browser import waiter as WebDriverWait  # noqa: E402 (polled every 50 ms)
failures = []


def check(cond, msg):
    if not cond:
        failures.append(msg)
        print("FAIL " + msg, file=sys.stderr)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class StaticServer:
    """python3 -m http.server on the site folder: nothing but files."""
    def __init__(self, folder, port=None):
        self.port = port or free_port()
        self.proc = subprocess.Popen([sys.executable, "-m", "http.server", "--bind", "127.0.0.1", str(self.port),
                                      "--directory", folder], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.url = "http://127.0.0.1:%d/" % self.port
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return
            except OSError:
                time.sleep(0.05)
        raise SystemExit("python3 -m http.server did not start")

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(timeout=10)


def browser():
    return chrome.chromium((1280, 900))


# a phone (DevTools' device emulation, in the browser the laptop checks
# use: a second browser would cost its start and the service worker's
# install again); the laptop is the window itself
PHONE = {"width": 412, "height": 915, "deviceScaleFactor": 1, "mobile": True}


def at_phone(d, phone):
    if phone:
        d.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", PHONE)
    else:
        d.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def no_sideways(d, what):
    wide = d.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
    check(wide[0] <= wide[1], "%s: %d px wide in a %d px window" % (what, *wide))


def fray_request(fray, req):
    r = subprocess.run([fray, "request", "-"], input=json.dumps(req), capture_output=True, text=True,
                       cwd=ROOT, check=True)
    return r.stdout


def fill(d, inputs):
    # folded under "more": unfolded first, as a player would
    chrome.fill(d, inputs)


def pick(d, name):
    chrome.select(d, "procedure", name)
    WebDriverWait(d, 10).until(lambda d: d.find_element(By.CSS_SELECTOR, "#form [data-input]"))


def error_text(d):
    return d.find_element(By.ID, "error").text


def ask_page(d, action, timeout=120):
    """Clears the answer, presses the button and waits for the new one."""
    d.execute_script("document.getElementById('result').replaceChildren();"
                     "const e = document.getElementById('error'); e.hidden = true; e.textContent = '';")
    d.find_element(By.CSS_SELECTOR, "button[data-action=%s]" % action).click()
    WebDriverWait(d, timeout).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#result h2") or error_text(d))
    check(not error_text(d), "%s: an error: %s" % (action, error_text(d)))


def rows(d):
    return {json.dumps(json.loads(k), sort_keys=True): p
            for k, p in chrome.rows(d, "#result tr[data-p]", "data-outcome", "data-p").items()}


def same_rows(got, cli, what):
    want = {json.dumps(o["outcome"], sort_keys=True): o["p"] for o in cli["outcomes"]}
    check(bool(want) and got.keys() == want.keys(), "%s: outcomes %s, the CLI's %s" % (what, sorted(got), sorted(want)))
    for k, v in want.items():
        check(abs(got.get(k, -1) - v) < 1e-12, "%s: %s is %s, the CLI says %s" % (what, k, got.get(k), v))


def story(d):
    """The story as the page tells it: its sections (folded by round) put
    back together."""
    WebDriverWait(d, 60).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#result div.story pre") or error_text(d))
    check(not error_text(d), "roll: an error: %s" % error_text(d))
    return d.execute_script("return [...document.querySelectorAll('#result div.story pre')]"
                            ".map((p) => p.textContent).join('')")


def wait_ready(d):
    WebDriverWait(d, 30).until(lambda d: d.find_elements(By.CSS_SELECTOR, "select[name=procedure] option")
                               or error_text(d))
    check(not error_text(d), "the page did not open: %s" % error_text(d))


def odds_like_cli(d, fray, name, inputs, what):
    pick(d, name)
    fill(d, inputs)
    ask_page(d, "odds")
    same_rows(rows(d), json.loads(fray_request(fray, {"procedure": name, "mode": "odds", "inputs": inputs})), what)


def answers(d, fray, catalogue):
    """The four rule sets, as `fray request` answers them."""
    check(d.execute_script("return transport.kind") == "wasm",
          "the static page's transport: %r, not the WebAssembly one" % d.execute_script("return transport.kind"))
    check("WebAssembly" in d.find_element(By.TAG_NAME, "footer").text and "MiB" in
          d.find_element(By.TAG_NAME, "footer").text, "the page does not say its memory limit")
    ex = {p["name"]: p["example"] for p in catalogue}
    odds_like_cli(d, fray, "presidio.morale", ex["presidio.morale"], "presidio.morale odds")
    odds_like_cli(d, fray, "bbb.assault", ex["bbb.assault"], "bbb.assault odds")
    odds_like_cli(d, fray, "chits.combat", ex["chits.combat"], "chits.combat odds")
    # a roll: the story word for word
    fill(d, {"seed": 42})
    d.execute_script("document.getElementById('result').replaceChildren()")
    d.find_element(By.CSS_SELECTOR, "button[data-action=roll]").click()
    want = fray_request(fray, {"procedure": "chits.combat", "seed": 42, "inputs": ex["chits.combat"], "format": "text"})
    got = story(d)
    check(got == want, "chits.combat roll: the page %r, the CLI %r" % (got[:200], want[:200]))
    # ADBG: Lochry's whole battle, exact, in the worker
    scenario = "examples/adbg/lochry-1781.yaml"
    pick(d, "adbg.battle")
    # exact needs more paths than the default budget (1,000,000 < Lochry's 2.46 million), and
    # room for the early refusal's projection, which may run 2.5x past the walk (docs/performance.md)
    fill(d, {"scenario": scenario, "trials": 20000, "budget": 10000000})
    ask_page(d, "odds", timeout=300)
    cli = json.loads(fray_request(fray, {"procedure": "adbg.battle", "mode": "odds", "trials": 20000,
                                         "inputs": {"scenario": scenario, "budget": 10000000}}))
    check(cli.get("method") == "exact", "Lochry's odds are not exact on the command line: %s" % cli.get("method"))
    same_rows(rows(d), cli, "adbg.battle odds (Lochry)")


def stop(d, fray, catalogue):
    """Stop ends a million battles in the worker; the next answer comes
    from a fresh one."""
    pick(d, "adbg.battle")
    fill(d, {"scenario": "examples/adbg/blue-licks-1782.yaml", "trials": 1000000, "seed": 1})
    d.execute_script("document.getElementById('result').replaceChildren()")
    d.find_element(By.CSS_SELECTOR, "button[data-action=simulate]").click()
    WebDriverWait(d, 10).until(lambda d: d.find_element(By.ID, "progress").is_displayed())
    # under way: some of its trials done
    WebDriverWait(d, 30).until(lambda d: float(d.find_element(By.ID, "progress-bar").get_attribute("value") or 0) > 0)
    d.find_element(By.CSS_SELECTOR, "button[data-action=stop]").click()
    WebDriverWait(d, 10).until(lambda d: error_text(d))
    check(error_text(d) == "stopped", "Stop: %r" % error_text(d))
    check(not d.find_element(By.ID, "progress").is_displayed(), "Stop: the progress bar stays")
    odds_like_cli(d, fray, "presidio.morale", {p["name"]: p["example"] for p in catalogue}["presidio.morale"],
                  "presidio.morale odds after Stop")


def installable(d):
    """The manifest as Chromium reads it, the service worker, installability."""
    m = d.execute_cdp_cmd("Page.getAppManifest", {})
    # the build's ?v= on it (scripts/site-assemble.sh)
    check(m.get("url", "").split("?")[0].endswith("/manifest.webmanifest"), "no manifest link: %r" % m.get("url"))
    check(not m.get("errors"), "manifest errors: %s" % m.get("errors"))
    data = json.loads(m.get("data") or "{}")
    for key in ("name", "short_name", "start_url", "theme_color", "icons"):
        check(key in data, "the manifest has no %s" % key)
    check(data.get("display") == "standalone", "the manifest's display: %r" % data.get("display"))
    sizes = {i.get("sizes") for i in data.get("icons", []) if i.get("type") == "image/png"}
    check({"192x192", "512x512"} <= sizes, "the manifest's PNG icons: %s" % sizes)
    for icon in data.get("icons", []):
        ok = d.execute_async_script("""
            const done = arguments[arguments.length - 1], img = new Image();
            img.onload = () => done(img.naturalWidth); img.onerror = () => done(0); img.src = arguments[0];""",
                                    icon["src"])
        want = int(icon["sizes"].split("x")[0]) if "x" in icon["sizes"] else None
        check(ok and (want is None or ok == want), "icon %s: width %s" % (icon["src"], ok))
    sw = d.execute_async_script("""
        const done = arguments[arguments.length - 1];
        navigator.serviceWorker.ready.then((r) => done(r.active ? r.active.scriptURL : null));""")
    check(bool(sw) and sw.endswith("/sw.js"), "the service worker: %r" % sw)
    WebDriverWait(d, 10).until(lambda d: d.execute_script("return !!navigator.serviceWorker.controller"))
    try:
        errs = d.execute_cdp_cmd("Page.getInstallabilityErrors", {}).get("installabilityErrors", [])
        check(not errs, "not installable: %s" % errs)
    except Exception as e:  # an older Chromium without the command: the manifest checks above stand
        print("installability not asked: %s" % e, file=sys.stderr)


def share_link(url_with_view, fray):
    """A link opened in a fresh browser (its own profile: no storage, no
    service worker) shows the same procedure and inputs."""
    d = browser()
    try:
        d.get(url_with_view)
        wait_ready(d)
        WebDriverWait(d, 20).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#form [data-input]"))
        check(Select(d.find_element(By.NAME, "procedure")).first_selected_option.get_attribute("value") ==
              "presidio.morale", "a share link: another procedure")
        check(d.find_element(By.NAME, "casualties").get_attribute("value") == "2", "a share link: the inputs lost")
    finally:
        d.quit()


FORCES = "examples/presidio/forces.yaml"


def table(fray, *args):
    r = subprocess.run([fray, "table", *args], capture_output=True, text=True, cwd=ROOT)
    check(r.returncode == 0, "fray table %s: %s" % (" ".join(args), r.stderr))


def read(path):
    with open(path, encoding="utf-8", newline="") as f:
        return f.read()


def page_game(d):
    return d.execute_script("const g = JSON.parse(localStorage.getItem('fray.game') || 'null'); return g && g.text")


def log_entries(d):
    return d.execute_script("return document.querySelectorAll('#log .entry').length")


def wait_log(d, n):
    WebDriverWait(d, 120).until(lambda d: log_entries(d) >= n or d.find_element(By.ID, "error").text)
    check(not d.find_element(By.ID, "error").text, "the game page: %s" % d.find_element(By.ID, "error").text)


def tap_unit(d, name):
    for b in d.find_elements(By.CSS_SELECTOR, "button.unit"):
        if b.find_element(By.CSS_SELECTOR, ".name").text == name:
            b.click()
            WebDriverWait(d, 30).until(lambda d: d.find_element(By.ID, "act-title").text.startswith(name + ":"))
            return
    raise AssertionError("no card for %s" % name)


def page_shot(d, actor, target, rng, n):
    """actor shoots target at rng inches on the page; n: the log's number then."""
    tap_unit(d, actor)
    WebDriverWait(d, 30).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#act-buttons button[data-action=shoot]"))
    d.find_element(By.CSS_SELECTOR, "#act-buttons button[data-action=shoot]").click()
    # the action's form once built for it (the last action's is there, hidden, till then)
    WebDriverWait(d, 30).until(lambda d: d.find_element(By.ID, "act-form").is_displayed())
    Select(d.find_element(By.ID, "act-target")).select_by_value(target)
    d.find_element(By.ID, "opt-range").send_keys(str(rng))
    # the odds first, as a player reads them before rolling: they come in
    # late and move the button down, and a click aimed before lands beside it
    WebDriverWait(d, 120).until(lambda d: d.find_element(By.ID, "odds").get_attribute("data-target") == target)
    d.find_element(By.ID, "roll").click()
    wait_log(d, n)


def exported(d):
    """The game file as the page's download gives it (the Blob behind the
    link the page clicks), not only what it keeps in localStorage."""
    d.execute_script("""window.__blobs = []; const make = URL.createObjectURL;
        URL.createObjectURL = (b) => { window.__blobs.push(b); return make.call(URL, b); };""")
    d.find_element(By.ID, "dl-game").click()
    return d.execute_async_script("""const done = arguments[arguments.length - 1];
        const b = window.__blobs.pop(); if (b) b.text().then(done); else done(null);""")


def game_travels(d, fray, url, tmp, shots):
    """Issue #32's Done when: a game started on the static page (the game
    in the WebAssembly build), one Presidio shot, exported; fray table loads
    the file and, given the same next action as the page, writes the same
    bytes the page keeps. Then the other way: a game fray table wrote,
    imported with the page's file picker, goes on the same on both sides."""
    d.get(url + "game.html")
    d.execute_script("localStorage.clear()")
    d.get(url + "game.html")
    WebDriverWait(d, 30).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#forces-pick option")) > 1)
    Select(d.find_element(By.ID, "forces-pick")).select_by_value(FORCES)
    d.find_element(By.ID, "seed").clear()
    d.find_element(By.ID, "seed").send_keys("7")
    d.find_element(By.ID, "start").click()
    WebDriverWait(d, 60).until(lambda d: d.find_elements(By.CSS_SELECTOR, "button.unit"))
    page_shot(d, "Presidials", "Apaches", 10, 1)
    text = exported(d)
    check(bool(text) and text == page_game(d), "the exported game is not the one the page keeps")
    path = os.path.join(tmp, "game.yaml")
    with open(path, "w", encoding="utf-8", newline="") as f:
        f.write(text or "")
    # the same game from the command line: the page's file is fray table's
    want = os.path.join(tmp, "cli.yaml")
    table(fray, "new", want, "--rules", "presidio", "--forces", FORCES, "--seed", "7")
    # the Presidials are a line, loaded: the screen offers the volley the
    # rules let them fire (Section 4, Volley Fire; ruling R27), as the game
    # suggests it, and the log says so
    table(fray, want, "shoot", "Presidials", "--at", "Apaches", "--range", "10", "--mode", "volley")
    check(text == read(want), "after one shot, the page's game file is not fray table's")
    says = d.find_element(By.CSS_SELECTOR, "#log .entry[data-action='1'] .says").text
    check("mode volley" in says, "the Presidials' shot on the static page is no volley: %r" % says)
    # the next action on both sides: the same bytes
    # (the Comanches: the volley may have left the Apaches unable to shoot)
    table(fray, path, "shoot", "Comanches", "--at", "Presidials", "--range", "8")
    page_shot(d, "Comanches", "Presidials", 8, 2)
    check(page_game(d) == read(path), "after the next shot, the page's game is not the file fray table wrote")
    d.save_screenshot(os.path.join(shots, "site-game.png"))

    # the other way: fray table's game imported by the file picker
    cli = os.path.join(tmp, "from-cli.yaml")
    table(fray, "new", cli, "--rules", "presidio", "--forces", FORCES, "--seed", "11")
    table(fray, cli, "shoot", "Cueras", "--at", "Comanches", "--range", "6")
    d.find_element(By.ID, "new").click()
    d.find_element(By.ID, "game-file").send_keys(cli)
    WebDriverWait(d, 60).until(lambda d: d.find_element(By.ID, "game").is_displayed() and log_entries(d) == 1)
    check(page_game(d) == read(cli), "an imported game is not the file fray table wrote")
    check("turn 1 · 1 action so far" in d.find_element(By.ID, "game-line").text,
          "an imported game's line: %r" % d.find_element(By.ID, "game-line").text)
    table(fray, cli, "shoot", "Comanches", "--at", "Cueras", "--range", "6")
    page_shot(d, "Comanches", "Cueras", 6, 2)
    check(page_game(d) == read(cli), "after an action on both sides, the imported game differs from fray table's")
    # a file that is no game: refused by name, the game kept
    bad = os.path.join(tmp, "not-a-game.yaml")
    with open(bad, "w") as f:
        f.write("units: [\n")
    before = page_game(d)
    d.find_element(By.ID, "new").click()
    d.find_element(By.ID, "game-file").send_keys(bad)
    WebDriverWait(d, 30).until(lambda d: d.find_element(By.ID, "new-error").text)
    check("not-a-game.yaml" in d.find_element(By.ID, "new-error").text, "a bad game file: %r" %
          d.find_element(By.ID, "new-error").text)
    check(page_game(d) == before, "a bad game file replaced the game")
    d.save_screenshot(os.path.join(shots, "site-game-import-error.png"))


def watch_walk(d, name, shots, shot_name):
    """Presses odds and watches the progress box until the answer: the
    texts it showed and the seconds it took."""
    d.execute_script("document.getElementById('result').replaceChildren();"
                     "const e = document.getElementById('error'); e.hidden = true; e.textContent = '';")
    began = time.monotonic()
    d.find_element(By.CSS_SELECTOR, "button[data-action=odds]").click()
    seen, shot = set(), False
    while time.monotonic() - began < 300:
        if d.find_elements(By.CSS_SELECTOR, "#result h2") or error_text(d):
            break
        # one look at the box, its words and Stop, taken in one script: on a fast machine
        # the walk may end between two WebDriver calls (the box then hides Stop with it)
        showing, text, stop_shown = d.execute_script(
            "const box = document.getElementById('progress'), stop = box.querySelector('[data-action=stop]');"
            "const shown = e => !!e && e.getClientRects().length > 0 && getComputedStyle(e).visibility !== 'hidden';"
            "return [shown(box), document.getElementById('progress-text').textContent, shown(stop)];")
        if showing:
            seen.add(text)
            check(stop_shown, "%s: no Stop while it walks" % name)
            if not shot and "at most" in text:
                d.execute_script("document.getElementById('progress').scrollIntoView({block: 'center'})")
                d.save_screenshot(os.path.join(shots, shot_name))
                shot = True
        time.sleep(0.1)
    took = time.monotonic() - began
    check(not error_text(d), "%s: an error: %s" % (name, error_text(d)))
    title = d.find_element(By.CSS_SELECTOR, "#result h2").text if d.find_elements(By.CSS_SELECTOR, "#result h2") else ""
    check(title == "Exact odds", "%s on the phone: %r, not exact by default" % (name, title))
    check(not d.find_elements(By.CSS_SELECTOR, "#result .why"), "%s: a reason it is not exact" % name)
    return seen, took


def lochry_exact(d, fray, shots):
    """Issue 43: the ADBG battle's example (Lochry) answers exactly by
    default on the phone; its rows are the command line's for the same
    request. A longer walk is a job with a progress bar, a time estimate
    and Stop: every shipped battle answers at once since issue 45, so the
    walk is a designer's battle uploaded (tests/data/adbg/
    second-side-reserve.yaml: a reserve of the side without the
    initiative, which the exact walk's plans leave whole)."""
    pick(d, "adbg.battle")
    d.find_element(By.CSS_SELECTOR, "button[data-action=example]").click()
    check(d.find_element(By.NAME, "budget").get_attribute("value") == "", "Lochry: the example gives a budget")
    seen, took = watch_walk(d, "Lochry", shots, "site-lochry-walking-412.png")
    sent = json.loads(d.execute_script("return JSON.stringify(last.request)"))
    cli = json.loads(fray_request(fray, sent))
    check(cli.get("method") == "exact", "Lochry: the command line's answer to the page's request is %s" % cli.get("method"))
    same_rows(rows(d), cli, "adbg.battle odds, the example, at 412 px")
    d.execute_script("document.querySelector('#result').scrollIntoView()")
    d.save_screenshot(os.path.join(shots, "site-lochry-412.png"))
    print("Lochry's exact odds on the page at 412 px: %.1f s" % took)
    d.find_element(By.NAME, "scenario__upload").send_keys(os.path.join(ROOT, "tests/data/adbg/second-side-reserve.yaml"))
    WebDriverWait(d, 10).until(lambda d: d.find_element(By.NAME, "scenario__text").get_attribute("value"))
    seen, took = watch_walk(d, "A reserve of the second side", shots, "site-second-side-reserve-walking-412.png")
    # the walk's progress said in words, with the time it may still take
    walking = [t for t in seen if t.startswith("Exact odds:") and "paths walked" in t]
    check(walking and any(re.search(r"; at most (\d+ (s|min)|under a second) more", t) for t in walking),
          "a reserve of the second side: no progress with a time estimate: %s" % sorted(seen)[:5])
    print("A reserve of the second side, exact odds on the page at 412 px: %.1f s; progress said: %s" %
          (took, sorted(seen, key=len)[-1] if seen else None))


def phone(d, fray, catalogue, url, tmp, shots):
    """At 412x915: the page opens and answers as `fray request` does, with
    nothing wider than the phone; the game screen starts a game from the
    shipped forces and a shot writes the file `fray table` writes."""
    at_phone(d, True)
    d.get(url)
    wait_ready(d)
    check(d.execute_script("return window.innerWidth") == PHONE["width"],
          "the phone's page is %s px wide" % d.execute_script("return window.innerWidth"))
    no_sideways(d, "the page opened at 412 px")
    odds_like_cli(d, fray, "bbb.assault", {p["name"]: p["example"] for p in catalogue}["bbb.assault"],
                  "bbb.assault odds at 412 px")
    no_sideways(d, "an answer at 412 px")
    d.execute_script("document.querySelector('#result').scrollIntoView()")
    d.save_screenshot(os.path.join(shots, "site-answer-412.png"))
    lochry_exact(d, fray, shots)
    no_sideways(d, "Lochry's odds at 412 px")
    # the game screen: a new game, its forces, one shot
    d.get(url + "game.html")
    d.execute_script("localStorage.clear()")
    d.get(url + "game.html")
    WebDriverWait(d, 30).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#forces-pick option")) > 1)
    no_sideways(d, "the new-game screen at 412 px")
    Select(d.find_element(By.ID, "forces-pick")).select_by_value(FORCES)
    d.find_element(By.ID, "seed").clear()
    d.find_element(By.ID, "seed").send_keys("5")
    d.find_element(By.ID, "start").click()
    WebDriverWait(d, 60).until(lambda d: d.find_elements(By.CSS_SELECTOR, "button.unit"))
    no_sideways(d, "the forces at 412 px")
    page_shot(d, "Presidials", "Apaches", 10, 1)
    want = os.path.join(tmp, "phone.yaml")
    table(fray, "new", want, "--rules", "presidio", "--forces", FORCES, "--seed", "5")
    table(fray, want, "shoot", "Presidials", "--at", "Apaches", "--range", "10", "--mode", "volley")
    check(page_game(d) == read(want), "at 412 px, after one shot, the page's game file is not fray table's")
    no_sideways(d, "the game after a shot at 412 px")
    d.save_screenshot(os.path.join(shots, "site-game-412.png"))
    at_phone(d, False)


def phone_offline(d, fray, catalogue, shots):
    """The network already cut: at 412x915 a reload still opens the page,
    which answers, nothing wider than the phone."""
    at_phone(d, True)
    d.refresh()
    wait_ready(d)
    check(d.execute_script("return transport.kind") == "wasm", "offline at 412 px: not the WebAssembly transport")
    odds_like_cli(d, fray, "presidio.morale", {p["name"]: p["example"] for p in catalogue}["presidio.morale"],
                  "offline at 412 px: presidio.morale odds")
    no_sideways(d, "an answer offline at 412 px")
    d.save_screenshot(os.path.join(shots, "site-offline-412.png"))
    at_phone(d, False)


def main():
    fray, site = sys.argv[1], sys.argv[2]
    shots = sys.argv[3] if len(sys.argv) > 3 else os.path.join(os.path.dirname(os.path.abspath(site)), "site-shots")
    os.makedirs(shots, exist_ok=True)
    began, phone_s = time.monotonic(), 0.0  # the phone's share of the run, said at the end
    # the library in node, beside the browser (each waits on the other's CPU
    # less than on its own: the browser's round trips, node's runs of fray)
    node = None
    if shutil.which("node") and os.path.exists(os.path.join(site, "fray.js")):
        env = dict(os.environ, NODE_PATH="/usr/share/nodejs")
        node = subprocess.Popen(["node", os.path.join(ROOT, "tests/site/wasm_node_test.js"),
                                 os.path.join(site, "fray.js"), fray, ROOT], env=env, stdin=subprocess.DEVNULL,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    catalogue = json.loads(subprocess.run([fray, "procedures", "--json"], capture_output=True, text=True,
                                          check=True).stdout)["procedures"]
    srv = StaticServer(site)
    d = browser()
    try:
        d.get(srv.url)
        wait_ready(d)
        installable(d)
        answers(d, fray, catalogue)
        d.save_screenshot(os.path.join(shots, "site-battle.png"))
        stop(d, fray, catalogue)
        with tempfile.TemporaryDirectory() as tmp:
            game_travels(d, fray, srv.url, tmp, shots)
            t = time.monotonic()
            phone(d, fray, catalogue, srv.url, tmp, shots)
            site_issue43.checks(d, srv.url, fray, shots)  # issue 43's at 412x915: volley, targets, words, chits
            phone_s += time.monotonic() - t
        # the view in the link: from a fresh page (the form keeps no earlier inputs)
        d.get(srv.url)
        wait_ready(d)
        pick(d, "presidio.morale")
        fill(d, {"level": "veteran", "size": "platoon", "casualties": 2, "seed": 42})
        d.execute_script("document.getElementById('result').replaceChildren()")
        d.find_element(By.CSS_SELECTOR, "button[data-action=roll]").click()
        want = subprocess.run([fray, "presidio", "morale", "--seed", "42", "--level", "veteran", "--size", "platoon",
                               "--casualties", "2"], capture_output=True, text=True, check=True).stdout
        got = story(d)
        check(got == want, "presidio morale --seed 42: the page %r, the command line %r" % (got, want))
        share_link(d.current_url, fray)
        # the network cut: DevTools offline, and the server gone too
        srv.stop()
        d.execute_cdp_cmd("Network.enable", {})
        d.execute_cdp_cmd("Network.emulateNetworkConditions", {"offline": True, "latency": 0,
                                                               "downloadThroughput": 0, "uploadThroughput": 0})
        d.refresh()
        wait_ready(d)
        check(d.execute_script("return transport.kind") == "wasm", "offline: not the WebAssembly transport")
        odds_like_cli(d, fray, "bbb.assault", {p["name"]: p["example"] for p in catalogue}["bbb.assault"],
                      "offline: bbb.assault odds")
        d.save_screenshot(os.path.join(shots, "site-offline.png"))
        t = time.monotonic()
        phone_offline(d, fray, catalogue, shots)
        phone_s += time.monotonic() - t
    finally:
        d.quit()
        srv.stop()
        if node:
            out, err = node.communicate()
            print(out.strip().splitlines()[-1] if out.strip() else err)
            check(node.returncode == 0, "the library in node: " + (out + err)[-2000:])
    print("site: %d failures; screenshots in %s; %.0f s, of which %.0f s at 412 px" %
          (len(failures), shots, time.monotonic() - began, phone_s))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
