"""The page as a player meets it (issue 31): the answer first, two sides,
Swap, compare, errors at the field, a whole battle, the fewest taps to
"at least one casualty", and axe-core. Run from page_test.py with its
browser (phone 412x915 and laptop 1280x800). Every expected number is
computed here from the rule text (dice faces counted, a binomial formula),
or, where the brief says so, summed here from the response's own rows."""
import itertools
import json
import os
import re
import subprocess
import urllib.parse
from fractions import Fraction

import yaml
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

import browser as chrome
from browser import waiter
from serve_util import fray_request

AXE_DIR = os.path.expanduser("~/.cache/fray/npm")


# ---- the rules, computed here ----

def presidio_casualty_chance(firing, hit_number, wound_number):
    """Presidio Sections 4 and 6, rulings R11, R13: each firing figure rolls
    a d12 needing the hit number, each hit a d12 needing the wound number
    (a natural 1 never wounds). At least one casualty: 1 - (1 - p)^n."""
    hit = Fraction(max(0, 13 - hit_number), 12)
    wound = Fraction(min(11, max(0, 13 - wound_number)), 12)
    return 1 - (1 - hit * wound) ** firing


def presidio_morale_pass(required):
    """Presidio Section 7, ruling R16: a d6; a 6 rolls one more d6, added;
    two 6s pass whatever is needed. Faces counted."""
    p = Fraction(0)
    for first in range(1, 7):
        if first < 6:
            p += Fraction(1, 6) if first >= required else 0
            continue
        for second in range(1, 7):
            if second == 6 or 6 + second >= required:
                p += Fraction(1, 36)
    return p


def bbb_assault_bands(modifier, bases):
    """BBB sheet, Assault; rulings G6, R20: each side 1d6, final difference
    = attacker die - defender die + modifier; a 0 costs each side a base and
    is fought again (equal bases, so the modifier stays). The bands of the
    Assault Table by their names; a band whose base loss takes a side's
    last base (or a 0 that takes both) destroys it: those summed apart."""
    single = {}
    for a in range(1, 7):
        for d in range(1, 7):
            diff = a - d + modifier
            band = ("0" if diff == 0 else "+7" if diff >= 7 else "+4-6" if diff >= 4 else "+1-3" if diff >= 1 else
                    "-1-3" if diff >= -3 else "-4-6" if diff >= -6 else "-7")
            single[band] = single.get(band, 0) + Fraction(1, 36)
    loss = {"+7": 2, "+4-6": 1, "-4-6": 1, "-7": 2}  # bases the losing side gives up
    bands, destroyed, reach = {}, Fraction(0), Fraction(1)
    for left in range(bases, 0, -1):  # each side's bases at this fight
        for band, p in single.items():
            if band == "0":
                continue
            if loss.get(band, 0) >= left:
                destroyed += reach * p
            else:
                bands[band] = bands.get(band, 0) + reach * p
        reach *= single.get("0", 0)
    return bands, destroyed + reach



def chit_condition(cond, s):
    """A chit side's condition in the situation s (docs/chits.md's list)."""
    if cond == "always":
        return True
    m = re.fullmatch(r"ratio (at least|at most|is) (\d+):(\d+)", cond)
    if m:
        want = Fraction(int(m.group(2)), int(m.group(3)))
        return {"at least": s["ratio"] >= want, "at most": s["ratio"] <= want, "is": s["ratio"] == want}[m.group(1)]
    m = re.fullmatch(r"(terrain|stance|tactic) is (\S+)", cond)
    if m:
        return s[m.group(1)] == m.group(2)
    m = re.fullmatch(r"(attacker|defender) rolled higher", cond)
    if m:
        return s["higher"] == m.group(1)
    m = re.fullmatch(r"(attacker|defender) is (\S+)", cond)
    if m:
        return s[m.group(1) + "_type"] == m.group(2)
    raise ValueError("a condition this test does not read: %r" % cond)

def chits_defender_hit(mix_path, draw, **s):
    """Chit combat, rulings R21, R22, R25: the ratio is the larger combat die
    roll over the smaller, rounded down; `draw` chits from the mix without
    replacement (every set of chits equally likely); a chit applies the side
    whose condition holds, the precedence side when both do, both when it is
    both-apply; the defender's hits summed, its reductions taken off.
    P(the defender takes at least one hit), the sets counted. The mix is
    data (its chits read here), the rules are this function."""
    a_cdr, d_cdr = s.pop("attacker_cdr"), s.pop("defender_cdr")
    big, small = max(a_cdr, d_cdr), min(a_cdr, d_cdr)
    s["ratio"] = Fraction(big // small) if a_cdr >= d_cdr else Fraction(1, big // small)
    s["higher"] = "attacker" if a_cdr > d_cdr else "defender" if d_cdr > a_cdr else None
    with open(mix_path) as f:
        chits = yaml.safe_load(f)["chits"]
    net = []
    for c in chits:
        a, b = chit_condition(c["a"]["if"], s), chit_condition(c["b"]["if"], s)
        if a and b and not c.get("both"):
            a, b = c.get("precedence", "a") == "a", c.get("precedence", "a") == "b"
        effects = (c["a"]["then"] if a else []) + (c["b"]["then"] if b else [])
        plus = sum(int(e[1:]) for e in effects if e[0] == "D" and not e[1:].startswith("-"))
        minus = sum(-int(e[1:]) for e in effects if e[0] == "D" and e[1:].startswith("-"))
        net.append((plus, minus))
    hit = total = 0
    for combo in itertools.combinations(net, draw):
        total += 1
        hit += sum(p for p, _ in combo) - sum(m for _, m in combo) >= 1
    return Fraction(hit, total)


# ---- the page ----

class Player:
    def __init__(self, d, fray, root, size, shots, check):
        self.d, self.fray, self.root, self.size, self.shots, self.check = d, fray, root, size, shots, check

    def request(self, req):
        return json.loads(fray_request(self.fray, req, self.root))

    def open(self, url):
        self.d.get("about:blank")
        self.d.get(url)
        # the form of the procedure the link or the last visit names, or on a
        # first visit the rule-set chooser with the procedures to pick from
        waiter(self.d, 20).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#form [data-input]") or d.execute_script(
            "return !current && document.querySelectorAll('#procedure option:not([value=\"\"])').length > 0"))

    def pick(self, name):
        self.d.execute_script("const f = document.getElementById('find');"
                              "if (f && f.value) { f.value = ''; f.dispatchEvent(new Event('input')); }")
        chrome.select(self.d, "procedure", name)
        waiter(self.d, 10).until(lambda d: d.execute_script("return current && current.name") == name)

    def press(self, action):
        self.d.execute_script("document.getElementById('result').replaceChildren()")
        chrome.press(self.d, "button[data-action=%s]" % action)
        # the whole answer: its modifiers and the Pin button come after its
        # heading (a roll of the same inputs, slow on a loaded machine)
        chrome.answered(self.d, 60)

    def headline(self, where="#result"):
        return chrome.rows(self.d, where + " .headline li[data-hp]", "data-headline", "data-hp")

    def first_thing(self):
        """The first block of the answer after its heading is the headline."""
        return self.d.execute_script("""
            const h = document.querySelector('#result h2');
            let n = h && h.nextElementSibling;
            while (n && n.classList.contains('why')) n = n.nextElementSibling;
            return n ? n.className : null;""")

    def fill(self, inputs):
        # folded under "more": unfolded first, as a player would; a value
        # the picker does not list (a link's): kept as the page keeps it
        chrome.fill(self.d, inputs, add_missing=True)

    def shot(self, name, css=None):
        if css:
            self.d.execute_script("const e = document.querySelector(arguments[0]); if (e) e.scrollIntoView()", css)
        self.d.save_screenshot(os.path.join(self.shots, "serve-%s-%s.png" % (name, self.size)))

    def no_sideways(self, what):
        wide = self.d.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
        self.check(wide[0] <= wide[1], "%s at %s px: %d px wide in a %d px window" % (what, self.size, *wide))

    def near(self, got, want, what):
        self.check(got is not None and abs(got - float(want)) < 1e-9, "%s: the page %s, the rules %s (%s)" %
                   (what, got, float(want), want))

    # ---- the cases ----

    def fewest_taps(self, url):
        """A first-time player: "at least one casualty" in at most 3 taps
        and 4 fields after the page opens. Independent fire: 9 figures with
        a flintlock musket (reload 4) fire 2 a turn (R14: 9/4 rounds to 2);
        hit 11+ at medium range (15", -2) needs 9+; damage 4 against no
        armor wounds on 5+ (R13)."""
        self.open(url)
        taps, fields = 0, 0
        self.d.find_element(By.ID, "find").send_keys("shoot")
        fields += 1
        waiter(self.d, 10).until(lambda d: d.find_elements(By.NAME, "weapon"))
        for name, value in (("weapon", "flintlock musket"), ("figures", 9), ("range", 15)):
            e = self.d.find_element(By.NAME, name)
            if e.tag_name == "select":  # a picker from the data: one field, picked
                Select(e).select_by_value(value)
            else:
                e.send_keys(str(value))
            fields += 1
        self.shot("find", "header")
        self.no_sideways("find and fill")
        self.d.find_element(By.CSS_SELECTOR, "button[data-action=odds]").click()
        taps += 1
        waiter(self.d, 30).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#result .headline li[data-hp]") or
                                        d.find_element(By.ID, "error").text)
        got = self.headline()
        want = presidio_casualty_chance(2, 11 - 2, 4 + 1)
        self.near(got.get("at least one figure wounded"), want, "fewest taps: at least one casualty")
        self.check(taps <= 3 and fields <= 4, "fewest taps: %d taps, %d fields" % (taps, fields))
        self.check(self.first_thing() == "headline", "fewest taps: the answer does not come first: %s" %
                   self.first_thing())
        self.shot("answer", "#result")
        self.no_sideways("the answer")

    def volley(self):
        """A Presidio volley: all 9 figures fire (Volley Fire); hit 11 - 2
        (medium) - 2 (skill 2) + 2 (partial cover) = 9+; wound 5+."""
        self.pick("presidio.shoot")
        self.fill({"weapon": "flintlock musket", "figures": 9, "range": 15, "skill": 2, "cover": "partial",
                   "mode": "volley", "line": True})
        self.press("odds")
        want = presidio_casualty_chance(9, 11 - 2 - 2 + 2, 5)
        self.near(self.headline().get("at least one figure wounded"), want, "volley headline")
        # the fraction inline when short (6 digits each side at most), else on hover
        strong = self.d.find_element(By.CSS_SELECTOR, "#result .headline li[data-headline] strong")
        short = len(str(want.numerator)) <= 6 and len(str(want.denominator)) <= 6
        said = strong.text if short else strong.get_attribute("title") or ""
        self.check(str(want) in said and (short or str(want) not in strong.text),
                   "volley headline: exact fraction %s not %s: %r" % (want, "inline" if short else "on hover", said))
        # each count alone: at least one casualty = 1 - exactly none
        rows = {int(r.get_attribute("data-count")): r for r in
                self.d.find_elements(By.CSS_SELECTOR, "#result .count[data-field=casualties] tr[data-count]")}
        self.check(0 in rows and 1 in rows, "volley: no casualties table")
        if 0 in rows and 1 in rows:
            self.near(float(rows[1].get_attribute("data-at-least")), want, "volley: at least 1 casualty")
            self.near(float(rows[0].get_attribute("data-exactly")), 1 - want, "volley: exactly 0 casualties")
        # the joint table is folded, none of its shown rows is 0%
        joint = self.d.find_element(By.CSS_SELECTOR, "#result details.joint")
        self.check(joint.get_attribute("open") is None, "volley: the joint table is not folded")
        shown = [r for r in self.d.find_elements(By.CSS_SELECTOR, "#result details.joint tr[data-p]")
                 if r.get_attribute("hidden") is None]
        self.check(all(float(r.get_attribute("data-p")) > 0 for r in shown), "volley: a 0% row is shown")
        text = self.d.find_element(By.ID, "result").text
        self.check("_" not in text.split("Modifiers and rules")[0] and ": true" not in text,
                   "volley: snake_case or 'true' in the answer: %r" % text[:400])
        # every modifier with its source: Hit# 11, medium -2, skill -2, partial +2, total 9
        mods = [(int(li.get_attribute("data-modifier")), li.text) for li in
                self.d.find_elements(By.CSS_SELECTOR, "#result li[data-modifier]")]
        for value, rule in ((11, "Section 10"), (-2, "R12"), (-2, "R11"), (2, "Defensive Cover")):
            self.check(any(v == value and rule in t for v, t in mods), "volley modifiers: no %+d [%s] in %s" %
                       (value, rule, mods))
        totals = [int(li.get_attribute("data-total")) for li in self.d.find_elements(By.CSS_SELECTOR, "#result li.total")]
        self.check(9 in totals and 5 in totals, "volley: totals %s, the rules 9 (hit) and 5 (wound)" % totals)
        self.shot("volley", "#result")
        self.no_sideways("a volley")

    def morale(self):
        """The catalogue's morale example: veteran 6+, platoon +1 a casualty
        (2), charged +2, a fifer -1: needs 9; its leader's +2 on the die
        (Presidio Section 7): the die needs 7."""
        self.pick("presidio.morale")
        self.d.find_element(By.CSS_SELECTOR, "button[data-action=example]").click()
        self.press("odds")
        want = presidio_morale_pass(6 + 2 + 2 - 1 - 2)
        self.near(self.headline().get("the unit passes"), want, "morale headline")
        self.check(str(want) in self.d.find_element(By.CSS_SELECTOR, "#result .headline").text,
                   "morale headline: no %s" % want)
        self.check(self.first_thing() == "headline", "morale: the answer does not come first")
        # a roll says the outcome in words first
        self.press("roll")
        head = self.d.find_elements(By.CSS_SELECTOR, "#result .headline li[data-headline]")
        self.check(head and head[0].text.startswith("The unit passes: ") and head[0].text.split(": ")[1] in ("yes", "no"),
                   "morale roll: the headline %r" % (head[0].text if head else None))

    def assault(self):
        """BBB assault, 4 bases each, the attacker aggressive (+1), no cover:
        bands of 1d6 - 1d6 + 1, a 0 fought again until four fights have
        taken every base."""
        self.pick("bbb.assault")
        self.fill({"attacker_bases": 4, "defender_bases": 4, "attacker_aggressive": True})
        self.press("odds")
        bands, destroyed = bbb_assault_bands(1, 4)
        got = self.headline()
        for name, p in bands.items():
            self.near(got.get(name), p, "assault headline %s" % name)
        # the bands and the sides destroyed: the result's lines (the attacker
        # carrying the position is another question: serve/words)
        rest = sum(v for k, v in got.items() if k not in bands and k != "the attacker carries the position")
        self.near(rest, destroyed, "assault: the sides destroyed")
        # the result in two sides too: each side's losses under its heading
        for side in ("attacker", "defender"):
            self.check(self.d.find_elements(By.CSS_SELECTOR, "#result .sides .side-%s .count[data-field=%s_bases_lost]"
                                            % (side, side)), "assault: no %s group in the result" % side)
        self.shot("assault", "#result .sides")

    def swap(self):
        """Swap exchanges every pair of the catalogue's sides, checkboxes too."""
        self.pick("bbb.assault")
        self.d.find_element(By.CSS_SELECTOR, "button[data-action=example]").click()
        self.fill({"defender_in_depth": True, "attacker_arm": "cavalry"})
        before = self.form_values()
        self.shot("sides", "#form")
        self.no_sideways("two sides")
        self.d.find_element(By.CSS_SELECTOR, "button[data-action=swap]").click()
        after = self.form_values()
        # the pairs written here from the BBB sheet's Assault modifiers (each
        # side's bases, arm and own states), not read from the catalogue: a
        # pair the catalogue forgot is a failure, not a pair left unchecked
        for what in ("bases", "arm", "aggressive", "in_depth", "disrupted", "silenced", "low_ammo", "fragile", "spent"):
            a, b = "attacker_" + what, "defender_" + what
            self.check(after[a] == before[b] and after[b] == before[a], "swap %s/%s: %s/%s became %s/%s" %
                       (a, b, before[a], before[b], after[a], after[b]))
        self.check(after["attacker_aggressive"] is False and after["defender_aggressive"] is True,
                   "swap: aggressive stays with the attacker")
        self.check(after["cover"] == before["cover"], "swap: the cover moved")
        self.press("odds")
        sent = json.loads(self.d.execute_script("return JSON.stringify(last.request.inputs)"))
        self.check(sent.get("defender_aggressive") is True and "attacker_aggressive" not in sent and
                   sent.get("attacker_bases") == 3 and sent.get("defender_bases") == 4 and
                   sent.get("attacker_in_depth") is True and sent.get("defender_arm") == "cavalry",
                   "swap: the request %s" % sent)

    def form_values(self):
        return self.d.execute_script("""
            const out = {};
            for (const c of document.getElementById('form').elements)
              if (c.name) out[c.name] = c.type === 'checkbox' ? c.checked : c.value;
            return out;""")

    def chits(self):
        """A chit combat: the headline (the defender takes at least one hit)
        counted here from the mix's chits and the rules (R21, R22), 17 vs 6
        is 2:1 for the attacker, both sides infantry (the form's default)."""
        self.pick("chits.combat")
        inputs = {"mix": "examples/chits/sample-mix.yaml", "tactic": "hasty", "stance": "defend", "terrain": "village",
                  "attacker_cdr": 17, "defender_cdr": 6, "draw": 3}
        self.fill(inputs)
        self.press("odds")
        want = chits_defender_hit(os.path.join(self.root, inputs["mix"]), inputs["draw"], tactic="hasty",
                                  stance="defend", terrain="village", attacker_cdr=17, defender_cdr=6,
                                  attacker_type="infantry", defender_type="infantry")
        self.check(0 < want < 1, "chits: a certain outcome, a weak test")
        self.near(self.headline().get("the defender takes at least one hit"), want, "chits headline")
        self.shot("chits", "#result")
        self.no_sideways("a chit combat")
        # a roll of it answers the same question first, in words (issue 31 item 1)
        self.press("roll")
        head = self.d.find_elements(By.CSS_SELECTOR, "#result .headline li[data-headline]")
        self.check(self.first_thing() == "headline" and head and
                   head[0].text.split(": ")[0] == "The defender takes at least one hit" and
                   head[0].text.split(": ")[-1] in ("yes", "no"),
                   "chits roll: the answer is not first: %s %r" % (self.first_thing(), head[0].text if head else None))

    def compare(self):
        """Morale of an elite unit (5+: 1/3) as A against a veteran (6+:
        1/6) as B: the difference is -1/6."""
        self.pick("presidio.morale")
        self.fill({"level": "elite", "size": "team"})
        self.press("odds")
        self.d.find_element(By.CSS_SELECTOR, "button[data-action=pin]").click()
        self.fill({"level": "veteran"})
        self.press("odds")
        waiter(self.d, 20).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#compare tr[data-line]"))
        rows = {r.get_attribute("data-line"): r for r in self.d.find_elements(By.CSS_SELECTOR, "#compare tr[data-line]")}
        a, b = presidio_morale_pass(5), presidio_morale_pass(6)
        r = rows.get("the unit passes")
        self.check(r is not None, "compare: no line for the unit passes: %s" % list(rows))
        if r is not None:
            self.near(float(r.get_attribute("data-a")), a, "compare A")
            self.near(float(r.get_attribute("data-b")), b, "compare B")
            self.near(float(r.get_attribute("data-diff")), b - a, "compare B - A")
            self.check("−16.7 pts" in r.text, "compare: the difference in words %r" % r.text)
        self.shot("compare", "#compare")
        self.no_sideways("compare")
        # Share: the link (copied, or shown to copy) restores the view
        self.d.find_element(By.CSS_SELECTOR, "button[data-action=share]").click()
        waiter(self.d, 10).until(lambda d: d.find_element(By.ID, "share-note").text or
                                        d.find_elements(By.CSS_SELECTOR, "#share-note input"))
        link = self.d.current_url
        self.d.find_element(By.CSS_SELECTOR, "button[data-action=unpin]").click()
        self.open(link)
        # a link's odds wait for the player's yes (issue 41 case 6): asked first, then run
        waiter(self.d, 20).until(lambda d: d.find_element(By.ID, "confirm").is_displayed())
        self.check("Run it?" in self.d.find_element(By.ID, "confirm-text").text,
                   "the shared link: no question before its odds: %r" % self.d.find_element(By.ID, "confirm-text").text)
        self.d.find_element(By.ID, "confirm-run").click()
        waiter(self.d, 30).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#compare tr[data-line]"))
        r = self.d.find_element(By.CSS_SELECTOR, "#compare tr[data-line]")
        self.near(float(r.get_attribute("data-diff")), b - a, "the shared link: compare B - A")
        self.d.find_element(By.CSS_SELECTOR, "button[data-action=unpin]").click()

    def setup_file(self):
        """A set-up travels as the request file fray request reads (issue 32
        item 3): saved from the form, it is the request the test writes
        from the same inputs; a file the test writes opens into the form."""
        import tempfile
        self.pick("presidio.morale")
        self.fill({"level": "elite", "size": "squad", "casualties": 3})
        save = self.d.find_element(By.CSS_SELECTOR, "a[data-action=save-setup]")
        save.click()
        href = save.get_attribute("href")
        prefix = "data:application/json;charset=utf-8,"
        self.check(href.startswith(prefix), "set-up: the saved link %r" % href[:60])
        saved = json.loads(urllib.parse.unquote(href[len(prefix):]))
        self.check(saved.get("procedure") == "presidio.morale" and saved.get("mode") in ("odds", "roll")
                   and {k: saved["inputs"].get(k) for k in ("level", "size", "casualties")} ==
                   {"level": "elite", "size": "squad", "casualties": 3}, "set-up: saved %r" % saved)
        # fray request reads it as it is
        r = subprocess.run([self.fray, "request", "-"], input=json.dumps(saved), capture_output=True, text=True,
                           cwd=self.root)
        self.check(r.returncode == 0, "set-up: fray request refused the saved file: %s" % r.stderr.strip())
        # a request file written here opens into the form (another procedure)
        want = {"procedure": "bbb.assault", "mode": "odds",
                "inputs": {"attacker_bases": 5, "defender_bases": 2, "attacker_aggressive": True}}
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
            json.dump(want, f)
        self.d.find_element(By.ID, "setup-file").send_keys(f.name)
        waiter(self.d, 10).until(lambda d: d.execute_script("return current && current.name") == "bbb.assault")
        got = self.d.execute_script("return inputsOf()")
        self.check({k: got.get(k) for k in want["inputs"]} == want["inputs"], "set-up: opened %r" % got)
        os.unlink(f.name)

    def dice(self):
        """The dice roller is a catalogue procedure like any other (no page
        code of its own): 2d6's faces counted, a 7 in 6 of 36, 10 or more
        in 6 of 36."""
        if not self.d.execute_script("return catalogue.some((p) => p.name === 'dice.roll')"):
            print("SKIP the dice roller: no dice.roll in this catalogue")
            return
        self.pick("dice.roll")
        self.fill({"expression": "2d6"})
        self.press("odds")
        faces = [a + b for a in range(1, 7) for b in range(1, 7)]
        self.near(self.headline().get("7"), Fraction(faces.count(7), 36), "2d6: a 7")
        row = self.d.find_elements(By.CSS_SELECTOR, "#result .count tr[data-count='10']")
        self.check(bool(row), "2d6: no count of 10")
        if row:
            self.near(float(row[0].get_attribute("data-at-least")), Fraction(sum(f >= 10 for f in faces), 36),
                      "2d6: 10 or more")
        self.shot("dice", "#result")
        self.no_sideways("the dice roller")

    def errors(self):
        """Errors at the field, in the page's words: a needed input left
        empty, and a weapon the library does not know."""
        self.pick("presidio.shoot")
        self.d.find_element(By.CSS_SELECTOR, "button[data-action=odds]").click()
        err = self.d.find_element(By.ID, "in-weapon-error")
        self.check(err.is_displayed() and "Needed" in err.text, "no error at the weapon: %r" % err.text)
        self.fill({"weapon": "zzz", "figures": 9})
        self.d.find_element(By.CSS_SELECTOR, "button[data-action=odds]").click()
        waiter(self.d, 20).until(lambda d: d.find_element(By.ID, "in-weapon-error").text)
        text = self.d.find_element(By.ID, "in-weapon-error").text
        self.check("zzz" in text and "fray" not in text and "NAME" not in text, "the weapon's error: %r" % text)
        self.shot("error", "[data-input=weapon]")
        self.no_sideways("an error at its field")
        self.d.execute_script("document.getElementById('error').hidden = true")

    def battle(self):
        """ADBG battle: Odds lead with the same win/draw summary as Simulate
        (the response's summary, equal to its rows summed here), say why they
        are not exact, and a roll's story is folded by round with the
        result first."""
        self.pick("adbg.battle")
        scenario = "examples/adbg/lochry-1781.yaml"
        # a small budget of paths: exact odds give up at once, as they do for
        # Blue Licks within the server's memory cap
        self.fill({"scenario": scenario, "trials": 2000, "budget": 1000})
        self.press("odds")
        cli = self.request({"procedure": "adbg.battle", "mode": "odds", "trials": 2000,
                            "inputs": {"scenario": scenario, "budget": 1000}})
        self.check(cli.get("method") == "simulation", "battle odds: exact within 1000 paths?")
        got = self.headline()
        for i, side in enumerate(cli["sides"]):
            summed = sum(o["p"] for o in cli["outcomes"] if o["outcome"]["winner"] == side)
            self.check(abs(got.get(side + " wins", -1) - summed) < 1e-9, "battle odds: %s wins %s, summed %s" %
                       (side, got.get(side + " wins"), summed))
        draw = sum(o["p"] for o in cli["outcomes"] if o["outcome"]["winner"] is None)
        self.check(abs(got.get("a draw", -1) - draw) < 1e-9, "battle odds: a draw %s, summed %s" % (got.get("a draw"), draw))
        if cli.get("method") == "simulation":
            why = self.d.find_elements(By.CSS_SELECTOR, "#result .why")
            self.check(why and "Not exact: the exact walk was refused" in why[0].text and
                       why[0].find_elements(By.CSS_SELECTOR, "button"),
                       "battle odds by simulation: no reason, no offer to simulate")
        self.shot("battle-odds", "#result")
        self.no_sideways("a battle's odds")
        self.press("simulate")
        sim_names = set(self.headline())
        self.check(sim_names == set(got), "battle: Simulate's summary %s, Odds' %s" % (sim_names, set(got)))
        self.fill({"seed": 3})
        self.press("roll")
        self.check(self.first_thing() == "headline", "battle roll: the result is not first")
        rounds = self.d.find_elements(By.CSS_SELECTOR, "#result div.story details")
        self.check(len(rounds) >= 2 and not any(r.get_attribute("open") for r in rounds),
                   "battle roll: %d rounds folded" % len(rounds))
        text = self.d.execute_script("return [...document.querySelectorAll('#result div.story pre')]"
                                     ".map((p) => p.textContent).join('')")
        want = fray_request(self.fray, {"procedure": "adbg.battle", "seed": 3, "inputs": {"scenario": scenario},
                                        "format": "text"}, self.root)
        self.check(text == want, "battle roll: the story is not the command line's")
        self.shot("story", "#result")
        self.no_sideways("a battle's story")

    def axe(self, what):
        """axe-core: no serious or critical violation."""
        path = os.path.join(AXE_DIR, "node_modules", "axe-core", "axe.min.js")
        if not os.path.exists(path):
            print("SKIP axe on %s at %s px: no axe-core (install_axe said why)" % (what, self.size))
            return
        # once a page: the same page checked again has it already
        if not self.d.execute_script("return typeof axe !== 'undefined'"):
            with open(path) as f:
                self.d.execute_script(f.read())
        self.d.execute_script("for (const d of document.querySelectorAll('details')) d.open = true")
        res = self.d.execute_async_script("""
            const done = arguments[arguments.length - 1];
            axe.run(document, {resultTypes: ['violations']}).then((r) => done(r.violations.map((v) =>
              [v.id, v.impact, v.nodes.length, v.nodes[0] && v.nodes[0].target.join(' ')])),
              (e) => done([['axe failed', 'critical', 0, String(e)]]));""")
        bad = [v for v in res if v[1] in ("serious", "critical")]
        print("axe on %s at %s px: %d violations, none serious or critical: %s" % (what, self.size, len(res), not bad))
        self.check(not bad, "axe on %s at %s px: %s" % (what, self.size, bad))


def install_axe():
    """axe-core from npm into a cache outside the tree; a clear skip if npm
    cannot."""
    path = os.path.join(AXE_DIR, "node_modules", "axe-core", "axe.min.js")
    if os.path.exists(path):
        return True
    os.makedirs(AXE_DIR, exist_ok=True)
    try:
        r = subprocess.run(["npm", "install", "--no-audit", "--no-fund", "--prefix", AXE_DIR, "axe-core"],
                           capture_output=True, text=True, timeout=180)
    except (OSError, subprocess.TimeoutExpired) as e:
        print("SKIP axe-core: npm could not run (%s)" % e)
        return False
    if r.returncode != 0 or not os.path.exists(path):
        print("SKIP axe-core: npm install failed: %s" % r.stderr.strip()[-300:])
        return False
    return True


def run(d, fray, root, url, size, shots, check):
    """Each case on its own: one that breaks is a failure, the rest still run."""
    p = Player(d, fray, root, size, shots, check)
    cases = [("fewest taps", lambda: p.fewest_taps(url)), ("axe: the answer", lambda: p.axe("the answer")),
             ("volley", p.volley), ("morale", p.morale), ("assault", p.assault), ("swap", p.swap),
             ("axe: the two sides", lambda: p.axe("the two sides")), ("chits", p.chits), ("compare", p.compare),
             ("errors", p.errors), ("set-up file", p.setup_file), ("dice", p.dice), ("battle", p.battle), ("axe: a battle", lambda: p.axe("a battle"))]
    for name, case in cases:
        try:
            case()
        except Exception as e:  # a missing element, a timeout: this case fails, the next runs
            check(False, "%s at %s px: %s: %s" % (name, size, type(e).__name__, str(e).split("\n")[0]))
            p.open(url)
