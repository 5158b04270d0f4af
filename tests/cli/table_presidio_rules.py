#!/usr/bin/env python3
"""Presidio played from game files (fray table) against the text, for what
the game layer once decided on its own (issue 28): each expectation comes
from the rules (Sections 2, 4, 5, 7), computed here, and each game runs
over several seeds so that the dice reach every case checked.

Usage: table_presidio_rules.py FRAY EXAMPLES_DIR"""
import json
import os
import sys
import tempfile

import yaml

from tablelib import EXAMPLES, FRAY, check, failures, fray
import tablelib

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from pace import Pace  # noqa: E402 (tests/pace.py)

# Every fray run is limited by the machine's pace (a hang is caught there);
# the work is bounded by counts: the seeds and cases below. CPU time (user
# and system, ASan): 94 s (554 fray runs) when each look at the units ran
# `status --json`; 67 s reading them from the file (a status once a case).
tablelib.pace = Pace(FRAY)

FORCES = os.path.join(EXAMPLES, "presidio", "forces.yaml")
seen = set()
looked = set()


def new_game(tmp, seed, name="g"):
    return tablelib.new_game(os.path.join(tmp, f"{name}-{seed}.yaml"), "presidio", FORCES, seed)


def units(game):
    """The game's units by name, as the game file fray wrote holds them
    (what `status --json` gives, less a run of fray for each look: a third
    of this test's runs; the file leaves out a text field that is empty,
    a melee weapon or a leader's rank of none, which status says as "")."""
    with open(game, encoding="utf-8") as f:
        doc = yaml.load(f, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    return {u["name"]: u for u in doc["units"]}


def units_as_status_says(game):
    """units() is what `status --json` says: checked once for each kind
    of game (each case below)."""
    # actions_left is worked out from actions_spent and the standing
    # (ruling R47), not kept in the file
    said = {u["name"]: {k: v for k, v in u.items() if v != "" and k != "actions_left"}
            for u in json.loads(fray("table", game, "status", "--json").stdout)["units"]}
    read = {n: {k: v for k, v in u.items() if v != ""} for n, u in units(game).items()}
    check(read == said, f"{game}: the units read from the file are not status --json's: {read} {said}")


def act(game, *args):
    before = units(game)
    out = json.loads(fray("table", game, *args, "--json").stdout)
    after = units(game)
    kind = os.path.basename(game).split("-")[0]
    if kind not in looked:
        looked.add(kind)
        units_as_status_says(game)
    return before, out["steps"], after


# Section 7, Morale Roll Resolution: the standing a failure leaves, by
# situation and band; surrender for a panic within 4" but not after an
# impact; never milder than the standing before (Morale Roll Results).
SEVERITY = {"good": 0, "disordered": 1, "flinched": 1, "hunkered": 2, "fell back": 2, "retreated": 3,
            "panicked": 4, "surrendered": 5}


def standing_after(inp, out, before):
    if out["success"]:
        return before
    band = 0 if out["short_by"] <= 2 else 1 if out["short_by"] <= 4 else 2
    sit = inp["situation"]
    if band == 2 and sit != "charging" and inp["near_enemy"] and not inp["charge_impact"]:
        now = "surrendered"
    else:
        now = {"open": ["fell back", "retreated", "panicked"],
               "cover": ["flinched", "hunkered", "panicked"],
               "line": ["disordered", "retreated", "panicked"],
               "charging": ["disordered", "fell back", "retreated"]}[sit][band]
    return now if SEVERITY[now] >= SEVERITY[before] else before


def holds(out, standing):
    return out["success"] or standing in ("good", "disordered", "flinched", "hunkered")


def volley_leaves_out_leaders_then_nothing_loaded(tmp, seed):
    """Volley Fire: officers and NCOs are not counted; then all figures
    reload together: no fire of any kind until the reload is done."""
    g = new_game(tmp, seed, "volley")
    before, steps, after = act(g, "shoot", "Presidials", "--at", "Apaches", "--range", "10", "--mode", "volley")
    shot = steps[0]
    check(shot["inputs"]["leaders"] == before["Presidials"]["specialists"] == 2,
          "item 2: the Presidials' officers and NCOs (its specialty figures) are not counted in the volley (R42)")
    check(shot["inputs"]["fires"] == "a volley", "item 2: loaded in line, the Presidials volley")
    check(after["Presidials"]["volleyed"] and after["Presidials"]["reload"] == 4,
          "item 3: after the volley every figure reloads (4 actions)")
    p = fray("table", g, "shoot", "Presidials", "--at", "Apaches", "--range", "10", status=2)
    check("nothing is loaded" in p.stderr, "item 3: independent fire right after a volley is refused")
    fray("table", g, "set", "Apaches", "status=good")
    p = fray("table", g, "charge", "Apaches", "--at", "Presidials", "--reaction", "fire", status=2)
    check("cannot fire" in p.stderr, "item 3: defensive fire right after a volley is refused")
    # two actions a turn (Section 2; ruling R47): the four reload actions
    # take two turns, and the shot a third
    fray("table", g, "turn")
    fray("table", g, "reload", "Presidials", "--actions", "2")
    fray("table", g, "turn")
    fray("table", g, "reload", "Presidials", "--actions", "2")
    u = units(g)["Presidials"]
    check(u["reload"] == 0 and not u["volleyed"], "item 3: four reload actions: loaded again")
    fray("table", g, "turn")
    fray("table", g, "set", "Apaches", "status=good")
    fray("table", g, "shoot", "Presidials", "--at", "Apaches", "--range", "10")
    fray("table", g, "set", "Presidials", "status=panicked")
    p = fray("table", g, "reload", "Presidials", status=2)
    check("panicked" in p.stderr, "item 3: a panicked unit may not reload")


def fear_of_charge(tmp, seed):
    """Fear of Charge: pass or fail is this check's; a failure that holds
    its place (disordered in line, flinched in cover) gets the impact but
    no reaction; a pass gets the reaction and the impact even with an old
    fall-back marker. After the impact: chargers +charging, defenders
    +charged (Section 7, Charging)."""
    g = new_game(tmp, seed, "charge")
    if seed % 2:
        # the Apaches in heavy cover: a failure by 1-4 flinches or
        # hunkers, holding the place (no reaction, but the impact)
        attacker, defender, cover = "Cueras", "Apaches", ("--cover", "heavy")
        fray("table", g, "set", "Apaches", "casualties=3")
    else:
        # the Presidials in line, some casualties: failures of all bands
        attacker, defender, cover = "Apaches", "Presidials", ()
        fray("table", g, "set", "Presidials", "casualties=%d" % (seed % 5), "status=%s" %
             ("fell back" if seed % 4 == 0 else "good"))
    before, steps, after = act(g, "charge", attacker, "--at", defender, "--reaction", "melee", *cover)
    fear = steps[0]
    check(fear["procedure"] == "presidio.morale" and fear["inputs"]["charged"], "item 4: fear of charge first")
    old = before[defender]["status"]
    now = standing_after(fear["inputs"], fear["outcome"], old)
    check(fear["outcome"]["standing"] == now, f"item 4: fear check standing {fear['outcome']['standing']}, "
          f"Section 7 says {now}")
    rest = steps[1:]
    if not holds(fear["outcome"], now):
        check(not rest, "item 4: a defender that does not hold its place gets no impact")
        seen.add("fear: gone")
        return
    impact = rest[0]
    check(impact["procedure"] == "presidio.melee", "item 4: a defender holding its place takes the impact")
    check(impact["inputs"]["both"] == fear["outcome"]["success"],
          "item 4: only a passing defender saved its action to strike back")
    seen.add("fear: passed" if fear["outcome"]["success"] else "fear: failed, held")
    if fear["outcome"]["success"] and old != "good":
        seen.add("fear: passed with an old marker")
    for st in rest[1:]:
        inp = st["inputs"]
        if inp["charged"]:
            check(inp["charge_impact"], "item 5: the charged defender's check follows the impact")
            seen.add("impact: defender's check")
        else:
            check(inp["charging"], "item 5: the chargers' check after the impact is charging")


def cover_and_range_for_morale(tmp, seed):
    """Item 6: full cover allows the check (its benefit off the required
    number); incidental on top of partial counts both; a rifle's close
    band is not within 4"."""
    g = new_game(tmp, seed, "cover")
    # marksmen with rifled muskets: aim and shoot is for "sharpshooters
    # and characters only" (Section 2)
    fray("table", g, "set", "Presidials", "weapon=flintlock rifled musket", "sharpshooters=true")
    for args, want in ((("--cover", "full"), ("full", False)),
                       (("--cover", "partial", "--incidental"), ("partial", True))):
        fray("table", g, "set", "Apaches", "status=good")
        before, steps, after = act(g, "shoot", "Presidials", "--at", "Apaches", "--band", "close",
                                   "--mode", "aimed", *args)
        if len(steps) > 1:
            m = steps[1]["inputs"]
            check(m["cover"] == want[0] and m["incidental_cover"] == want[1],
                  f"item 6: the check after a shot into {args} cover has it ({m['cover']}, {m['incidental_cover']})")
            check(not m["near_enemy"], "item 6: a rifle's close band is not within 4\"")
            seen.add("cover: " + want[0])
        # aim and shoot took both actions (Section 2): loaded again next turn
        fray("table", g, "set", "Presidials", "reload=0")
        fray("table", g, "turn")


def leader_hit(tmp, seed):
    """Item 7: a shot that hits the leader: the check has no leader
    bonus and the leader-casualty DM (+2)."""
    g = new_game(tmp, seed, "leader")
    fray("table", g, "set", "Comanches", "specialists=2", "figures=4", "size=team")
    before, steps, after = act(g, "shoot", "Presidials", "--at", "Comanches", "--range", "3", "--mode", "volley")
    if steps[0]["outcome"].get("leader_hit"):
        seen.add("leader hit")
        if len(steps) > 1:
            m = steps[1]["inputs"]
            check(m["leader"] == 0 and m["leader_casualty"], "item 7: no bonus from a leader just hit, +2 instead")
        check(after["Comanches"]["leader"] == 0, "item 7: the leader is gone from the unit")


def morale_by_hand(tmp, seed):
    """Item 8: 'morale --situation' records what it tells; a milder
    failure keeps the worse standing."""
    g = new_game(tmp, seed, "morale")
    fray("table", g, "set", "Apaches", "status=%s" % ("panicked" if seed % 2 else "good"), "casualties=3")
    before, steps, after = act(g, "morale", "Apaches", "--situation", "cover")
    out, inp = steps[0]["outcome"], steps[0]["inputs"]
    want = standing_after(inp, out, before["Apaches"]["status"])
    check(after["Apaches"]["status"] == want == out["standing"],
          f"item 8: recorded {after['Apaches']['status']}, told {out['standing']}, Section 7 {want}")
    if before["Apaches"]["status"] == "panicked" and not out["success"] and out["short_by"] < 5:
        seen.add("milder result on a panic")


def rally(tmp, seed):
    """Item 9, Section 2: NCOs cannot rally troops: the sargento's 2 does
    not count (a 6 needed); the alférez's 1 does (5+)."""
    g = new_game(tmp, seed, "rally")
    fray("table", g, "set", "Cueras", "status=panicked")
    fray("table", g, "set", "Presidials", "status=panicked")
    _, steps, after = act(g, "rally", "Cueras")
    check(steps[0]["inputs"]["nco"] and steps[0]["inputs"]["need"] == 6, "item 9: a sargento's rally needs a 6")
    check(after["Cueras"]["status"] == ("disordered" if steps[0]["outcome"]["rallied"] else "panicked"),
          "item 9: rallied: disordered")
    _, steps, _ = act(g, "rally", "Presidials")
    check(not steps[0]["inputs"]["nco"] and steps[0]["inputs"]["need"] == 5, "item 9: an alférez's rally needs 5+")


def hunkered(tmp, seed):
    """Item 10: hunkering down is complete cover: nothing hits."""
    g = new_game(tmp, seed, "hunker")
    fray("table", g, "set", "Apaches", "status=hunkered")
    _, steps, after = act(g, "shoot", "Presidials", "--at", "Apaches", "--range", "3", "--mode", "volley")
    check(steps[0]["outcome"]["hits"] == 0 and len(steps) == 1, "item 10: a hunkered unit is not hit")
    check(after["Apaches"]["figures"] == 10, "item 10: no casualties on a hunkered unit")


def two_actions_of_independent_fire(tmp, seed):
    """Section 4, Independent Fire: two consecutive actions rolled
    together, "roll all the dice (for both actions) at the same time": one
    roll of both actions' firers (each figures / reload, R14: 12 / 4 = 3,
    so 6 dice), then one morale check after it; only independent fire is
    so rolled."""
    g = new_game(tmp, seed, "two")
    fray("table", g, "set", "Apaches", "specialists=9")
    before, steps, after = act(g, "shoot", "Presidials", "--at", "Apaches", "--range", "10", "--actions", "2")
    shots = [s for s in steps if s["procedure"] == "presidio.shoot"]
    checks = [s for s in steps if s["procedure"] == "presidio.morale"]
    check(len(shots) == 1 and steps[0] is shots[0], "two actions: one roll first")
    shot = shots[0]
    to_hit = [e["dice"] for e in shot["events"] if e.get("what") == "to hit"]
    check(to_hit and to_hit[0].startswith("6d12 "), f"both actions' dice in the roll (3 + 3): {to_hit}")
    lost = shot["outcome"]["casualties"]
    check(after["Apaches"]["figures"] == 10 - lost, "both actions' casualties off the target")
    check(len(checks) == (1 if lost else 0), "one morale check after both actions, when they hit")
    # Section 6, Hits: the Apaches' casualty die is a platoon's d20 (10
    # figures) for every casualty: the dice are rolled together
    dice = [e["dice"] for e in shot["events"] if e.get("what") == "casualty die"]
    check(set(dice) <= {"d20"}, f"the casualty die is the unit's as it stood: {dice}")
    if len(dice) >= 2:
        seen.add("two actions: the casualty die")
    if checks:
        seen.add("two actions: one check")
        check(steps[-1] is checks[0], "the morale check comes after the roll")
        check(checks[0]["inputs"]["casualties"] == lost, "the check counts both actions' casualties")
    for mode in ("volley", "aimed", "opportunity"):
        p = fray("table", g, "shoot", "Presidials", "--at", "Apaches", "--range", "10", "--actions", "2", "--mode",
                 mode, status=2)
        check("--actions 2" in p.stderr, f"two actions of {mode} fire refused")


def fire_and_melee(tmp, seed):
    """Section 2, Holding 2 Actions, and Section 5, Charge Reaction: a
    charged unit holding both actions fires once at close range (a volley
    when it may) and saves one to strike back at the impact."""
    g = new_game(tmp, seed, "fm")
    fray("table", g, "set", "Presidials", "casualties=%d" % (seed % 3))
    before_units, steps, _ = act(g, "charge", "Apaches", "--at", "Presidials", "--reaction", "fire-and-melee")
    fear = steps[0]
    if not fear["outcome"]["success"]:
        return
    check(steps[1]["procedure"] == "presidio.shoot" and steps[1]["inputs"]["band"] == "close",
          "fire-and-melee: defensive fire at close range first")
    check(steps[1]["inputs"]["fires"] == "a volley", "fire-and-melee: loaded in line, a volley")
    melee = [s for s in steps if s["procedure"] == "presidio.melee"]
    if melee:
        seen.add("fire-and-melee: struck back")
        check(melee[0]["inputs"]["both"], "fire-and-melee: the saved action strikes back at the impact")
        # "save one action to simultaneously melee": the defenders strike
        # with every figure they had when the chargers struck (issue 28
        # item 5), not with the impact's survivors; the defensive fire
        # costs the defenders nothing, so that is every figure they had
        if melee[0]["inputs"]["both"]:
            had = before_units["Presidials"]["figures"]
            check(melee[0]["inputs"].get("simultaneous") is True, "fire-and-melee: the strike back is simultaneous")
            told = [e["text"] for e in melee[0]["events"] if "strike back" in e.get("text", "")]
            check(len(told) == 1 and told[0].startswith("%d defenders strike back" % had),
                  "fire-and-melee: all %d defenders strike back: %s" % (had, told))


def pursuit(tmp):
    """Section 5, Pursuit: contact with a panicked unit: it surrenders;
    with one that fell back or retreated: melee, counting as charging;
    a unit that did neither is not pursued."""
    g = new_game(tmp, 1, "pursue")
    fray("table", g, "set", "Apaches", "status=panicked")
    # only the enemy it broke contact with pursues (Section 5)
    p = fray("table", g, "pursue", "Cueras", "--at", "Apaches", status=2)
    check("Pursuit" in p.stderr, "pursuit only by the unit whose contact was broken, said why")
    fray("table", g, "set", "Cueras", "may_pursue=Apaches")
    _, steps, after = act(g, "pursue", "Cueras", "--at", "Apaches")
    check(after["Apaches"]["status"] == "surrendered" and not steps, "a panicked unit caught surrenders, no dice")
    fray("table", g, "set", "Comanches", "status=fell back")
    fray("table", g, "set", "Presidials", "may_pursue=Comanches")
    _, steps, _ = act(g, "pursue", "Presidials", "--at", "Comanches")
    check(steps[0]["procedure"] == "presidio.melee" and steps[0]["inputs"]["charge"] == "bayonet",
          "pursuers in contact with a unit that fell back: melee as charging (bayonets: the -2 impact)")
    p = fray("table", g, "pursue", "Presidials", "--at", "Cueras", status=2)
    check("enemy's units only" in p.stderr, "a friend is not pursued (Section 5, Pursuit: the enemy pursues)")
    g = new_game(tmp, 2, "pursue")
    p = fray("table", g, "pursue", "Presidials", "--at", "Comanches", status=2)
    check("pursued" in p.stderr, "a unit in good order is not pursued, said why")


def disordered_light_shoot_half(tmp):
    """Section 3, Disorder: "Light and Skirmish units can only move and
    shoot half": the Apaches' 10 metal bows (Section 10: reload 1) fire
    10 / 1 = 10 a time (R14), half (5) when disordered and light or
    skirmish, all 10 when disordered and neither."""
    g = new_game(tmp, 1, "light")
    p = fray("table", g, "set", "Apaches", "designation=heavy", status=2)
    check("designation" in p.stderr, "designation: the game file's field is checked")
    fray("table", g, "set", "Apaches", "status=disordered")
    for designation, firing in (("light", 5), ("skirmish", 5), ("other", 10)):
        fray("table", g, "set", "Apaches", "designation=" + designation)
        _, steps, _ = act(g, "shoot", "Apaches", "--at", "Presidials", "--range", "10")
        shot = steps[0]
        rolls = [e for e in shot["events"] if e.get("what") == "to hit"]
        check(shot["inputs"]["designation"] == designation and shot["inputs"]["standing"] == "disordered",
              f"designation: {designation} passed with the firers' standing")
        check(rolls and rolls[0]["dice"].startswith(f"{firing}d12 "),
              f"designation: disordered {designation}: {firing} firing, rolled {rolls and rolls[0]['dice']}")
        fray("table", g, "undo")


def melee_specialists(tmp, seed):
    """Section 6, Hits (R15) in melee: both units' specialty figures and
    leaders go in (the attackers' when the defenders strike back); a
    leader hit leaves the unit, and its morale check has no bonus and
    the leader-casualty DM (Section 7)."""
    g = new_game(tmp, seed, "mspec")
    fray("table", g, "set", "Apaches", "figures=6", "specialists=4", "size=squad")
    fray("table", g, "set", "Presidials", "contact=Apaches")  # melee is in base contact (Section 5)
    before, steps, after = act(g, "melee", "Presidials", "--at", "Apaches", "--both")
    m = steps[0]
    inp, out = m["inputs"], m["outcome"]
    check(inp["defender_specialists"] == 4 and inp["defender_leader"] and inp["defender_unit_figures"] == 6,
          "melee: the defenders' specialists, leader and unit")
    check(inp["specialists"] == 2 and inp["leader"] and inp["unit_figures"] == 12,
          "melee: the attackers' specialists, leader and unit (striking back)")
    a = after["Apaches"]
    check(a["specialists"] == min(4 - out["specialists_hit"], a["figures"]), "melee: the Apaches' specialists hit")
    check(after["Presidials"]["specialists"] == 2 - out["return_specialists_hit"],
          "melee: the Presidials' specialists hit")
    check((a["leader"] == 0) == out["leader_hit"], "melee: a leader hit leaves the unit")
    checks = [s for s in steps[1:] if s["procedure"] == "presidio.morale" and s["inputs"]["size"] == "squad"]
    if out["leader_hit"] and checks:
        seen.add("melee: leader hit")
        check(checks[0]["inputs"]["leader"] == 0 and checks[0]["inputs"]["leader_casualty"],
              "melee: no bonus from a leader just hit, the leader-casualty DM instead")


def odds_of_actions(tmp):
    """Issue 30: `fray table GAME ACTION ... --odds` gives the exact odds of
    the action's first procedure with the inputs the action would give it:
    the same as `fray presidio <proc> --odds` with inputs built here from
    the units' fields; nothing rolled, the file unchanged."""
    g = new_game(tmp, 2, "odds")
    fray("table", g, "set", "Apaches", "status=disordered", "designation=skirmish", "specialists=2")
    with open(g, "rb") as f:
        before = f.read()
    u = units(g)
    a, p = u["Apaches"], u["Presidials"]
    got = fray("table", g, "shoot", "Apaches", "--at", "Presidials", "--range", "10", "--odds", "--json").stdout
    want = fray("presidio", "shoot", "--weapon", a["weapon"], "--figures", str(a["figures"]), "--skill",
                str(a["ranged"]), "--range", "10", "--armor", str(p["armor"]), "--target-figures", str(p["figures"]),
                "--specialists", str(p["specialists"]), "--target-leader", "--leaders", str(a["specialists"]), "--standing",
                a["status"], "--designation", a["designation"], "--reload-left", str(a["reload"]),
                "--target-standing", p["status"], "--odds", "--json").stdout
    check(got == want, "odds: a shot's odds are presidio shoot's with the units' inputs")
    got = fray("table", g, "charge", "Cueras", "--at", "Apaches", "--odds", "--json").stdout
    want = fray("presidio", "morale", "--level", a["morale"], "--size", a["size"], "--casualties",
                str(a["casualties"]), "--leader", str(a["leader"]), "--standing", a["status"], "--charged",
                "--odds", "--json").stdout
    check(got == want, "odds: a charge's odds are the defender's fear-of-charge check's")
    p = fray("table", g, "turn", "--odds", status=2)
    check("--odds" in p.stderr, "odds: the turn rolls no dice of its own: refused")
    with open(g, "rb") as f:
        check(f.read() == before, "odds: the game file is unchanged")


def turn_order(tmp):
    """Section 2, Initiative at the command line: `initiative` rolls, the
    side not acting is refused (exit 2) naming the rule with the file
    untouched, `pass` hands the sequence over, `status` says whose it is,
    and `turn` opens the next turn's rally phase, which `initiative` ends
    with the next turn's roll (Section 2, Game Turn Phases)."""
    g = new_game(tmp, 44, "order")
    fray("table", g, "initiative")
    state = json.loads(fray("table", g, "status", "--json").stdout)
    won = state["initiative"]
    check(won in ("Spain", "Apache") and state["acting"] == won, "initiative: the winner acts first")
    check(f"{won} won the initiative, {won} acts" in fray("table", g, "status").stdout,
          "status says whose sequence it is")
    mine, theirs = ("Presidials", "Apaches") if won == "Spain" else ("Apaches", "Presidials")
    other = "Apache" if won == "Spain" else "Spain"
    with open(g, "rb") as f:
        before = f.read()
    p = fray("table", g, "shoot", theirs, "--at", mine, "--band", "medium", status=2)
    with open(g, "rb") as f:
        check(f.read() == before, "out of its side's sequence: nothing written")
    check("Presidio Section 2, Initiative" in p.stderr and f"'pass {won}'" in p.stderr,
          "out of its side's sequence: refused naming the rule and the pass")
    fray("table", g, "pass", other, status=2)
    fray("table", g, "shoot", mine, "--at", theirs, "--band", "medium")
    fray("table", g, "pass", won)
    check(json.loads(fray("table", g, "status", "--json").stdout)["acting"] == other, "pass: the other side acts")
    able = [n for n, u in units(g).items() if u["side"] == other and u["status"] in ("good", "disordered")]
    check(able, "a unit of the other side can still move")
    fray("table", g, "move", able[0])
    fray("table", g, "turn")
    state = json.loads(fray("table", g, "status", "--json").stdout)
    check(state.get("phase") == "rally" and "initiative" not in state, "turn opens the next turn's rally phase")
    p = fray("table", g, "move", able[0], status=2)
    check("1. Rally panicked troops, 2. Initiative" in p.stderr, "the rally phase: no action before the initiative")
    fray("table", g, "initiative")
    with open(g, encoding="utf-8") as f:
        check(f.read().count("procedure\": \"presidio.initiative") == 2, "initiative ends the rally phase")


def told_terms_add_up():
    """Every Presidio procedure, on its example at several seeds: each
    TOTAL told is the sum of the MODIFIERs told since the one before (the
    BRIEF's told terms)."""
    cat = json.loads(fray("procedures", "--json").stdout)
    for p in cat["procedures"]:
        if not p["name"].startswith("presidio.") or "roll" not in p["modes"]:
            continue
        for seed in (1, 2, 3):
            req = {"procedure": p["name"], "mode": "roll", "seed": seed, "inputs": p["example"]}
            r = tablelib.run("request", "-", stdin=json.dumps(req))
            if r.returncode != 0:
                check(False, f"told terms: {p['name']} example refused: {r.stderr.strip()}")
                break
            out = json.loads(r.stdout)
            total = 0
            for ev in out.get("events", []):
                if ev["event"] == "modifier":
                    total += ev["value"]
                elif ev["event"] == "total":
                    check(ev["value"] == total, f"told terms: {p['name']} seed {seed}: '{ev['what']}' told "
                          f"{ev['value']}, its terms add to {total}")
                    total = 0
                    seen.add("told: " + p["name"])
    for name in ("presidio.shoot", "presidio.morale", "presidio.melee", "presidio.rally", "presidio.artillery",
                 "presidio.spot", "presidio.initiative", "presidio.sentry", "presidio.capture"):
        check("told: " + name in seen, f"told terms: {name} tells its target number term by term")


def main():
    told_terms_add_up()
    with tempfile.TemporaryDirectory() as tmp:
        for seed in range(1, 13):
            volley_leaves_out_leaders_then_nothing_loaded(tmp, seed) if seed <= 1 else None
            fear_of_charge(tmp, seed)
            cover_and_range_for_morale(tmp, seed) if seed <= 4 else None
            leader_hit(tmp, seed) if seed <= 8 else None
            morale_by_hand(tmp, seed) if seed <= 8 else None
            rally(tmp, seed) if seed <= 1 else None
            hunkered(tmp, seed) if seed <= 1 else None
            two_actions_of_independent_fire(tmp, seed)
            fire_and_melee(tmp, seed)
            melee_specialists(tmp, seed)
        pursuit(tmp)
        disordered_light_shoot_half(tmp)
        odds_of_actions(tmp)
        turn_order(tmp)
    for case in ("fear: gone", "fear: passed", "fear: failed, held", "impact: defender's check", "cover: full",
                 "cover: partial", "leader hit", "milder result on a panic", "two actions: one check",
                 "fire-and-melee: struck back", "two actions: the casualty die", "melee: leader hit"):
        check(case in seen, f"the seeds reach the case '{case}'")
    if failures:
        print(f"{len(failures)} failures", file=sys.stderr)
        sys.exit(1)
    print("presidio game rules: all checks passed")


main()
