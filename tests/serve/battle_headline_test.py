#!/usr/bin/python3
"""The page's headline of a whole ADBG battle (issue 31, "Done when"),
against numbers the test computes from the rules, not read from fray: the
smallest battle (tests/data/adbg/one-round.yaml), uploaded into the
scenario field as a player would, its Odds asked, and the headline ("Red
wins 8.3% · a draw ... · Blue wins ...") held to the exact chances that
tests/reference/adbg_tiny_battle.py counts die by die from the rule text,
and each side's mean units lost beside it.
At 412x915 (a phone, emulated) and 1280x800, in one browser; no sideways
scroll at 412 px; screenshots serve-battle-headline-{412,1280}.png.
Usage: battle_headline_test.py FRAY SCREENSHOT-DIR"""
import os
import sys

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tests", "reference"))
from adbg_tiny_battle import load, summary, tiny_battle_odds  # noqa: E402  (the rules, counted)
import browser as chrome  # noqa: E402
from browser import waiter as WebDriverWait  # noqa: E402 (polled every 50 ms)
from serve_util import Server  # noqa: E402

SCENARIO = os.path.join(ROOT, "tests", "data", "adbg", "one-round.yaml")
SIZES = [("412", {"width": 412, "height": 915, "deviceScaleFactor": 1, "mobile": True}),
         ("1280", {"width": 1280, "height": 800, "deviceScaleFactor": 1, "mobile": False})]
failures = []


def check(cond, msg):
    if not cond:
        failures.append(msg)
        print("FAIL " + msg, file=sys.stderr)


def browser():
    return chrome.chromium(chrome.LAPTOP)


def at_size(d, metrics):
    """Both sizes by DevTools' device emulation in the one browser: the
    phone's 412x915 a mobile viewport, the laptop's 1280x800 not."""
    d.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)


def headline(d, url, want, means, size, shots):
    """want: [(line name, exact chance)] in the order the page should give
    them; means: each side's (name, mean units lost), as the rules count."""
    # a first visit: no view kept from the size before (issue 32 keeps it)
    d.get(url)
    d.execute_script("localStorage.clear(); sessionStorage.clear()")
    d.get("about:blank")
    d.get(url)
    WebDriverWait(d, 30).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#procedure option[value='adbg.battle']"))
    check(d.execute_script("return window.innerWidth") == int(size), "the window is %s px, not %s" %
          (d.execute_script("return window.innerWidth"), size))
    Select(d.find_element(By.ID, "procedure")).select_by_value("adbg.battle")
    WebDriverWait(d, 10).until(lambda d: d.find_elements(By.NAME, "scenario__upload"))
    # the scenario from this device, as a player uploads it
    d.find_element(By.NAME, "scenario__upload").send_keys(SCENARIO)
    WebDriverWait(d, 10).until(lambda d: d.find_element(By.NAME, "scenario__text").get_attribute("value"))
    d.execute_script("document.getElementById('result').replaceChildren()")
    d.find_element(By.CSS_SELECTOR, "button[data-action=odds]").click()
    WebDriverWait(d, 60).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#result .headline li[data-hp]") or
                               d.find_element(By.ID, "error").text)
    check(not d.find_element(By.ID, "error").text, "%s px: an error: %s" % (size, d.find_element(By.ID, "error").text))
    lines = d.find_elements(By.CSS_SELECTOR, "#result .headline li[data-hp]")
    got = [(li.get_attribute("data-headline"), float(li.get_attribute("data-hp")), li.text) for li in lines]
    check([g[0] for g in got] == [w[0] for w in want], "%s px: the headline's lines %s, want %s" %
          (size, [g[0] for g in got], [w[0] for w in want]))
    for (name, p, text), (_, exact) in zip(got, want):
        check(abs(p - float(exact)) < 1e-12, "%s px: %s %r, the rules %s = %.15f" %
              (size, name, p, exact, float(exact)))
        # the summary's exact fraction beside the share (short here: 1/12)
        words = "%s: %.1f%% (%s)" % (name[0].upper() + name[1:], 100 * float(exact), exact)
        check(text == words, "%s px: the headline says %r, the rules %r" % (size, text, words))
    # each side's losses under the headline, with their mean
    heads = [h.text for h in d.find_elements(By.CSS_SELECTOR, "#result .losses h3")]
    words = ["%s: units lost (mean %.2f)" % (name, float(m)) for name, m in means]
    check(heads == words, "%s px: the losses say %s, the rules %s" % (size, heads, words))
    # the answer first: the headline is the first block after the heading
    first = d.execute_script("""
        const h = document.querySelector('#result h2');
        let n = h && h.nextElementSibling;
        while (n && n.classList.contains('why')) n = n.nextElementSibling;
        return n ? n.className : null;""")
    check(first == "headline", "%s px: the answer does not open with the headline: %s" % (size, first))
    title = d.find_element(By.CSS_SELECTOR, "#result h2").text
    check("exact" in title.lower(), "%s px: the battle's odds are not said to be exact: %r" % (size, title))
    wide = d.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
    check(wide[0] <= wide[1], "%s px: the answer is %d px wide in a %d px window" % (size, *wide))
    d.execute_script("document.querySelector('#result').scrollIntoView()")
    d.save_screenshot(os.path.join(shots, "serve-battle-headline-%s.png" % size))


def main():
    fray, shots = sys.argv[1], sys.argv[2]
    os.makedirs(shots, exist_ok=True)
    sc = load(SCENARIO)
    names = [sc["sides"][n]["name"] for n in sc["sides"]]
    odds = tiny_battle_odds(sc)
    wins, draw = summary(odds, names)
    means = [(n, sum(p * losses[i] for (_, losses), p in odds.items())) for i, n in enumerate(names)]
    want = [(names[0] + " wins", wins[0]), ("a draw", draw), (names[1] + " wins", wins[1])]
    check(all(0 < p < 1 for _, p in want), "the battle has a certain outcome: a weak test")
    print("the rules: " + ", ".join("%s %s" % (n, p) for n, p in want))
    srv = Server(fray)
    d = browser()
    try:
        for size, metrics in SIZES:
            at_size(d, metrics)
            headline(d, srv.url, want, means, size, shots)
    finally:
        d.quit()
        srv.stop()
    print("battle headline: %d failures; screenshots in %s" % (len(failures), shots))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
