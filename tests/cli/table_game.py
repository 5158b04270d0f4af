#!/usr/bin/env python3
"""Plays a Presidio skirmish, a BBB engagement and a chit-pull fight from game files and checks
the forces after every action against values derived here from the rules
(the outcome each roll reports, Section 7's morale table, the BBB sheet's
results), that undo restores the file byte for byte, that the same seed
replays the same game, and that bad actions write nothing.

Usage: table_game.py FRAY EXAMPLES_DIR"""
import copy
import json
import os
import subprocess
import sys
import tempfile

import tablelib
from tablelib import EXAMPLES, check, failures, fray

_units_seen = {}


def units(game):
    """tablelib.units, asked of fray once for each path and content of the
    game file: `status --json` reads only that file, and an action's units
    before are most often the units after the action before it (test time:
    one fray in six less)."""
    with open(game, "rb") as f:
        key = (os.path.abspath(game), f.read())
    if key not in _units_seen:
        _units_seen[key] = tablelib.units(game)
    return copy.deepcopy(_units_seen[key])


def act(game, *args):
    """Runs an action with --json; returns (units before, steps, units after),
    and checks that undo gives back the file as it was and that the action
    done again rolls the same dice."""
    with open(game, "rb") as f:
        before_bytes = f.read()
    before = units(game)
    out = json.loads(fray("table", game, *args, "--json").stdout)
    with open(game, "rb") as f:
        after_bytes = f.read()
    fray("table", game, "undo")
    with open(game, "rb") as f:
        check(f.read() == before_bytes, f"undo of {args} gives back the file byte for byte")
    again = json.loads(fray("table", game, *args, "--json").stdout)
    check(again == out, f"{args} done again after undo rolls the same")
    with open(game, "rb") as f:
        check(f.read() == after_bytes, f"{args} done again writes the same file")
    return before, out["steps"], units(game)


# ---- Presidio Section 7: the required number and the failure bands ----
LEVEL_BASE = {"elite": 5, "veteran": 6, "average": 7, "inexperienced": 8, "super-elite": 4}


def casualty_dm(size, cas):
    return {"company": cas // 2, "platoon": cas, "squad": 2 * cas, "team": 3 * cas}[size]


def required(u, charged=False, charging=False):
    r = LEVEL_BASE[u["morale"]] + casualty_dm(u["size"], u["casualties"])
    r += 2 if charged else 0
    r -= 2 if charging else 0
    r -= 1 if u["line"] else 0
    return r


def status_after(situation, short_by, near_enemy, charge_impact):
    band = 0 if short_by <= 2 else 1 if short_by <= 4 else 2
    if band == 2 and situation != "charging" and near_enemy and not charge_impact:
        return "surrendered"
    return {"open": ["fell back", "retreated", "panicked"],
            "cover": ["flinched", "hunkered", "panicked"],
            "line": ["disordered", "retreated", "panicked"],
            "charging": ["disordered", "fell back", "retreated"]}[situation][band]


def check_morale(step, unit_before, unit_after, what, **when):
    check(step["procedure"] == "presidio.morale", f"{what}: a morale check follows")
    inp, out = step["inputs"], step["outcome"]
    check(inp["casualties"] == unit_before["casualties"],
          f"{what}: the morale check counts {unit_before['casualties']} casualties (got {inp['casualties']})")
    check(inp["required"] == required(unit_before, when.get("charged", False), when.get("charging", False)),
          f"{what}: required number {inp['required']} is Section 7's {required(unit_before, **when)}")
    if out["bonus"]:
        return
    if out["success"]:
        check(unit_after["status"] == unit_before["status"], f"{what}: a passed check leaves the status")
    else:
        situation = "charging" if when.get("charging") else "line" if unit_before["line"] else "open"
        want = status_after(situation, out["short_by"], inp["near_enemy"], inp["charge_impact"])
        check(unit_after["status"] == want, f"{what}: short by {out['short_by']} in {situation}: "
              f"{want}, got {unit_after['status']}")


def presidio(tmp, seed):
    game = os.path.join(tmp, f"skirmish-{seed}.yaml")
    fray("table", "new", game, "--rules", "presidio", "--forces",
         os.path.join(EXAMPLES, "presidio", "forces.yaml"), "--seed", str(seed))
    u = units(game)
    check(u["Cueras"]["ranged"] == 2 and u["Cueras"]["mounted"] and u["Cueras"]["morale"] == "veteran",
          "a unit takes its skills from its type in the units file")
    check(u["Presidials"]["size"] == "platoon" and u["Cueras"]["size"] == "squad",
          "sizes come from the figures: 12 a platoon, 8 a squad")

    # a volley: every figure fires; casualties come off the target, and a
    # morale check with the new count follows when there were any
    before, steps, after = act(game, "shoot", "Presidials", "--at", "Apaches", "--range", "10",
                               "--mode", "volley")
    shot = steps[0]
    check(shot["procedure"] == "presidio.shoot", "shoot rolls presidio.shoot")
    check(shot["inputs"]["figures"] == 12 and shot["inputs"]["target_figures"] == 10,
          "the shot's figures come from the forces")
    cas = shot["outcome"]["casualties"]
    check(after["Apaches"]["figures"] == 10 - cas, "the shot's casualties come off the target")
    bonus = len(steps) > 1 and steps[1]["outcome"]["bonus"]
    # two 6s: earlier casualties disregarded (Section 7, Morale Bonus)
    check(after["Apaches"]["casualties"] == (0 if bonus else cas), "the target counts its casualties")
    check(after["Presidials"]["reload"] == 4, "after firing a flintlock musket needs 4 reload actions")
    if cas:
        hurt = dict(before["Apaches"], casualties=cas)
        check(len(steps) == 2, "a morale check follows casualties")
        check_morale(steps[1], hurt, after["Apaches"], "after the volley")
    else:
        check(len(steps) == 1, "no casualties, no morale check")
    fray("table", game, "shoot", "Presidials", "--at", "Apaches", "--range", "10", "--mode", "volley",
         status=2)

    # a charge with the whole sequence: fear of charge (+2), the reaction,
    # the impact with the lancers' -3, melee morale for the side(s) hurt
    before, steps, after = act(game, "charge", "Cueras", "--at", "Comanches", "--reaction", "melee")
    fear = steps[0]
    check(fear["inputs"]["charged"] is True, "a charge opens with the defender's fear-of-charge check")
    check_morale(fear, before["Comanches"], after["Comanches"] if len(steps) == 1 else
                 dict(before["Comanches"], status=before["Comanches"]["status"]), "fear of charge",
                 charged=True)
    if fear["outcome"]["success"]:
        impact = steps[1]
        check(impact["procedure"] == "presidio.melee", "a passed check: the impact follows")
        check(impact["inputs"]["charge"] == "lance", "mounted lancers charge with the lance's impact DM")
        check(impact["inputs"]["both"] is True, "a defender that saved its action strikes back")
        lost_d, lost_a = impact["outcome"]["casualties"], impact["outcome"]["return_casualties"]
        check(after["Comanches"]["figures"] == max(0, 6 - lost_d), "the impact's casualties off the defender")
        check(after["Cueras"]["figures"] == max(0, 8 - lost_a), "the return strike's off the chargers")
        expect = (lost_d > 0 and after["Comanches"]["figures"] > 0) + (lost_a > 0 and after["Cueras"]["figures"] > 0)
        check(len(steps) == 2 + expect, f"melee morale for each side hurt ({expect})")
    else:
        check(after["Comanches"]["status"] != "good", "a failed fear-of-charge check changes the defender")

    # set: the referee's change, then a volley allowed again once reloaded
    fray("table", game, "set", "Presidials", "reload=0", "line=true")
    check(units(game)["Presidials"]["reload"] == 0, "set changes a unit's field")
    fray("table", game, "set", "Presidials", "figures=13", status=2)   # more than it started with

    # a charge met by defensive fire: at close range, a volley only when
    # loaded in line (else independent fire); the chargers check morale
    # (-2 charging) when hit
    fray("table", game, "set", "Presidials", "status=good")
    fray("table", game, "set", "Apaches", "status=good")
    steps = []
    if units(game)["Apaches"]["figures"] > 0:
        before, steps, after = act(game, "charge", "Apaches", "--at", "Presidials", "--reaction", "fire")
    if steps and steps[0]["outcome"]["success"]:
        fire = steps[1]
        check(fire["procedure"] == "presidio.shoot" and fire["inputs"]["band"] == "close",
              "defensive fire is at close range")
        check(fire["inputs"]["mode"] == "volley", "loaded and in line, the defenders volley")
        check(fire["inputs"]["figures"] == before["Presidials"]["figures"], "every defender fires")
        cas = fire["outcome"]["casualties"]
        check(after["Apaches"]["figures"] <= max(0, before["Apaches"]["figures"] - cas),
              "defensive fire's casualties come off the chargers")
        if cas and before["Apaches"]["figures"] > cas:
            hurt = dict(before["Apaches"], casualties=before["Apaches"]["casualties"] + cas)
            check(steps[2]["procedure"] == "presidio.morale" and steps[2]["inputs"]["charging"] is True,
                  "chargers hit by defensive fire check morale as charging")
            check(steps[2]["inputs"]["required"] == required(hurt, charging=True),
                  "the chargers' required number (Section 7, -2 charging)")

    for st in steps:
        if st["procedure"] == "presidio.melee":
            check(st["inputs"]["charge"] == "foot", "chargers on foot without spears or bayonets: foot impact")
            check(st["inputs"]["both"] is False, "a defender that fired saved no action to strike back")

    # a panicked unit rallies on 6 less its leader's level (ruling R17):
    # rallied, it is disordered
    fray("table", game, "set", "Comanches", "status=panicked")
    before, steps, after = act(game, "rally", "Comanches")
    check(steps[0]["inputs"]["leader"] == before["Comanches"]["leader"], "the rally uses the unit's leader")
    check(after["Comanches"]["status"] == ("disordered" if steps[0]["outcome"]["rallied"] else "panicked"),
          "rallied: disordered; not: still panicked")
    fray("table", game, "rally", "Cueras", status=2)   # not panicked

    # the next turn ends a turn's results
    fray("table", game, "turn")
    for name, u in units(game).items():
        check(u["status"] not in ("flinched", "hunkered", "fell back", "retreated"),
              f"{name}: a turn's morale results are over at the next turn")
    # bad actions write nothing
    with open(game, "rb") as f:
        kept = f.read()
    fray("table", game, "shoot", "Nobody", "--at", "Apaches", "--range", "4", status=2)
    fray("table", game, "shoot", "Cueras", "--at", "Apaches", "--rang", "4", status=2)
    fray("table", game, "charge", "Cueras", "--at", "Apaches", status=2)   # no --reaction, no terminal
    fray("table", game, "set", "Cueras", "figures=-3", status=2)
    with open(game, "rb") as f:
        check(f.read() == kept, "refused actions leave the game file as it was")
    log = json.loads(fray("table", game, "log", "--json").stdout)
    for e in log:
        check(all(k in e for k in ("procedure", "inputs", "events", "outcome")),
              "each log entry has procedure, inputs, events and outcome")
    md = fray("table", game, "log", "--markdown").stdout
    actions = len({e["action"] for e in log})
    check(md.count("~~~text") == actions and "## 1. Turn 1" in md, "the Markdown log has an entry per action")
    return game


# ---- BBB: the sheet's results ----
BASES_LOST = {"1": 1, "2": 2, "3": 3}
REACHES = {"R": ["raw"], "T": ["raw", "trained"], "V": ["raw", "trained", "veteran"]}


def bbb(tmp, seed):
    game = os.path.join(tmp, f"engagement-{seed}.yaml")
    fray("table", "new", game, "--rules", "bbb", "--forces", os.path.join(EXAMPLES, "bbb", "forces.yaml"),
         "--seed", str(seed))
    for firer, target, rng in [("1st Brigade", "Georgia Brigade", "3"), ("Iron Brigade", "Texas Brigade", "5"),
                               ("Battery B", "Stuart's Horse", "10"), ("Texas Brigade", "Battery B", "3")]:
        before, steps, after = act(game, "fire", firer, "--at", target, "--range", rng)
        res = steps[0]["outcome"]["result"]
        t0, t1 = before[target], after[target]
        reaches = res in BASES_LOST or (res in REACHES and t0["training"] in REACHES[res])
        if t0["arm"] == "artillery":
            # Silenced on any result that reaches it, Reduced on a 1,
            # destroyed on a 2 or 3
            if res not in ("2", "3"):
                check(t1["silenced"] == (t0["silenced"] or reaches), f"fire {res}: artillery silenced")
            check(t1["reduced"] == (t0["reduced"] or res == "1"), f"fire {res}: artillery reduced on a 1")
            check((t1["bases"] == 0) == (res in ("2", "3")), f"fire {res}: artillery destroyed on a 2 or 3")
            continue
        lost = BASES_LOST.get(res, 0)
        check(t1["bases"] == max(0, t0["bases"] - lost), f"fire {res}: {lost} bases off {target}")
        check(t1["disrupted"] == (t0["disrupted"] or reaches), f"fire {res}: {target} disrupted when it reaches")
        check(after[firer]["low_ammo"] == (before[firer]["low_ammo"] or steps[0]["outcome"]["low_ammo"]),
              "the firer runs low on ammo on the table's starred 11 and 12")
    before, steps, after = act(game, "assault", "Texas Brigade", "--at", "1st Brigade")
    o = steps[0]["outcome"]
    check(steps[0]["inputs"]["attacker_bases"] == before["Texas Brigade"]["bases"],
          "the assault's bases come from the forces")
    check(after["Texas Brigade"]["bases"] == max(0, before["Texas Brigade"]["bases"] - o["attacker_bases_lost"]),
          "the attacker's bases lost come off")
    check(after["1st Brigade"]["bases"] == max(0, before["1st Brigade"]["bases"] - o["defender_bases_lost"]),
          "the defender's bases lost come off")
    check(after["1st Brigade"]["disrupted"] == (before["1st Brigade"]["disrupted"] or o["defender_disrupted"]),
          "the defender disrupted as the table says")
    before, steps, after = act(game, "move", "Georgia Brigade")
    o, u0, u1 = steps[0]["outcome"], before["Georgia Brigade"], after["Georgia Brigade"]
    if not u0["disrupted"]:
        check(u1["bases"] == min(u0["start_bases"], u0["bases"] + (1 if o["recover"] else 0)),
              "a good-order unit recovers a base on the table's roll")
    elif o["row"] == "5,6":
        check(not u1["disrupted"], "a disrupted unit rallies in place on 5-6")
    elif o["row"] == "0,1":
        check(u1["bases"] == u0["bases"] - 1, "a disrupted unit loses a base on 0-1")
    return game


def hits_of(u):
    return sum(u["hits"])


def chits(tmp, seed):
    game = os.path.join(tmp, f"brigades-{seed}.yaml")
    fray("table", "new", game, "--rules", "chits", "--forces", os.path.join(EXAMPLES, "chits", "forces.yaml"),
         "--seed", str(seed))
    # worked example 1 of chit-combat.txt with its chits: D1 and D-1
    # cancel, A1 is the attacker's one hit (on its lead battalion), and
    # the side with more hits takes C04's fatigue point and C05's morale
    # test, which the sample mix rolls as 2d6 at most the morale level
    before, steps, after = act(game, "combat", "Bylant", "--at", "Karl Franz", "--tactic", "hasty",
                               "--stance", "defend", "--terrain", "village", "--attacker-cdr", "17",
                               "--defender-cdr", "6", "--draw", "5", "--script", "C01,C02,C03,C04,C05")
    b0, b1 = before["Bylant"], after["Bylant"]
    check(b1["hits"] == [1, 0, 0, 0], "example 1: the attacker's one hit on its lead battalion")
    check(b1["fatigue"] == b0["fatigue"] + 1, "example 1: the fatigue point on the side with more hits")
    check(after["Karl Franz"] == before["Karl Franz"], "example 1: the defender untouched")
    dice = [e["value"] for e in steps[0]["events"] if e.get("what") == "morale test, Bylant"]
    check(len(dice) == 2, "example 1: one morale test of 2d6")
    check(b1["morale"] == (b0["morale"] if sum(dice) <= b0["morale"] else b0["morale"] - 1),
          "example 1: a failed test lowers the morale level by one")
    # drawn combats: hits taken are the hits less the retreats (R23), the
    # first on the lead battalion, which takes a second hit before any
    # other battalion takes a second
    for attacker, defender, tactic, stance, terrain, draw in [
            ("Hussars", "Uhlans", "cavalry-charge", "hold", "open", "3"),
            ("Lauder", "Stein", "prepared", "defend", "woods", "6"),
            ("Bylant", "Karl Franz", "hasty", "hold", "village", "4")]:
        before, steps, after = act(game, "combat", attacker, "--at", defender, "--tactic", tactic, "--stance",
                                   stance, "--terrain", terrain, "--attacker-cdr", str(5 + seed),
                                   "--defender-cdr", "6", "--draw", draw)
        o = steps[0]["outcome"]
        if attacker == "Lauder":
            lauder_hits = hits_of(after["Lauder"])   # as its combat this turn left it
        for name, role in ((attacker, "attacker"), (defender, "defender")):
            u0, u1 = before[name], after[name]
            taken = o[f"{role}_hits"] - o[f"{role}_retreats"]
            check(hits_of(u1) == hits_of(u0) + taken, f"{role} takes its hits less its retreats")
            check(u1["hits"] == o[role]["hits"], f"{role}'s battalions as the combat left them")
            lead = u0["lead"] - 1
            if taken > 0:
                check(u1["hits"][lead] > u0["hits"][lead], f"{role}'s first hit on the lead battalion")
            if any(h >= 2 for b, h in enumerate(u1["hits"]) if b != lead):
                check(u1["hits"][lead] >= 2, f"{role}'s lead battalion takes a second hit before any other")
            # a passed morale test removes disorder (example 3)
            passed = any(e.get("text", "").startswith(f"{name} passes") for e in steps[0]["events"])
            if o[f"{role}_retreats"] >= 2 and not passed:
                check(u1["disordered"], f"{role}'s second retreat disorders it")
    # end of turn: one fatigue point off, and a Rest order 1d3 more
    fray("table", game, "set", "Stein", "fatigue=4")
    before, steps, after = act(game, "end-turn", "Stein", "--rest")
    rest = [e["value"] for e in steps[0]["events"] if e.get("event") == "roll"]
    check(len(rest) == 1 and 1 <= rest[0] <= 3, "a Rest order rolls 1d3")
    check(after["Stein"]["fatigue"] == max(0, 4 - 1 - rest[0]), "end of turn: 1 fatigue point off, 1d3 more")
    # Rally/Recover: the mix's test (2d6 at most the morale level); a pass
    # takes one hit off, never the last; the lead battalion may be swapped
    fray("table", game, "set", "Lauder", "hits=[2,1,0]")
    before, steps, after = act(game, "end-turn", "Lauder", "--rally", "--lead", "2")
    dice = [e["value"] for e in steps[0]["events"] if e.get("event") == "roll"]
    passed = len(dice) == 2 and sum(dice) <= before["Lauder"]["morale"]
    check(len(dice) == 2, "a rally rolls the mix's 2d6")
    check(hits_of(after["Lauder"]) == 3 - (1 if passed else 0), "a passed rally recovers one hit")
    # the lead battalion may be switched at the end of the turn only with no
    # further casualties since the unit's combat (chits example 3): the 3
    # hits set are more than its combat left it with, or not
    further = hits_of(before["Lauder"]) > lauder_hits
    check(after["Lauder"]["lead"] == (before["Lauder"]["lead"] if further else 2),
          f"the lead battalion switched only without further casualties ({lauder_hits} hits after its combat)")
    # end of turn once a turn: the next one comes after the turn ends
    fray("table", game, "end-turn", "Lauder", "--rally", status=2)
    fray("table", game, "turn")
    fray("table", game, "set", "Lauder", "hits=[1,0,0]")
    before, steps, after = act(game, "end-turn", "Lauder", "--rally")
    check(after["Lauder"]["hits"] == [1, 0, 0] and not any(e.get("event") == "roll" for e in steps[0]["events"]),
          "the last hit can never be recovered")
    # a tactic's name from the mix file goes into the game file's JSON escaped
    with open(os.path.join(EXAMPLES, "chits", "sample-mix.yaml")) as f:
        mix = f.read().replace("  hasty:", "  'has\"ty\\':", 1).replace("tactic is hasty", "tactic is has\\\"ty\\\\")
    quoted = os.path.join(tmp, f"quoted-{seed}")
    os.makedirs(quoted, exist_ok=True)
    with open(os.path.join(quoted, "sample-mix.yaml"), "w") as f:
        f.write(mix)
    with open(os.path.join(EXAMPLES, "chits", "forces.yaml")) as f, \
            open(os.path.join(quoted, "forces.yaml"), "w") as g:
        g.write(f.read())
    qgame = os.path.join(quoted, "game.yaml")
    fray("table", "new", qgame, "--rules", "chits", "--forces", os.path.join(quoted, "forces.yaml"))
    out = json.loads(fray("table", qgame, "combat", "Bylant", "--at", "Karl Franz", "--tactic", 'has"ty\\',
                          "--stance", "hold", "--terrain", "village", "--attacker-cdr", "9",
                          "--defender-cdr", "6", "--draw", "3", "--json").stdout)
    check(out["steps"][0]["inputs"]["tactic"] == 'has"ty\\', "a quoted tactic name kept whole")
    log = json.loads(fray("table", qgame, "log", "--json").stdout)
    check(log[0]["inputs"]["tactic"] == 'has"ty\\', "the game file reads back with the quoted tactic")
    # refused, and nothing written: a tactic not in the mix, Defend in the open
    with open(game, "rb") as f:
        was = f.read()
    fray("table", game, "combat", "Hussars", "--at", "Uhlans", "--tactic", "charge", "--stance", "hold",
         "--terrain", "open", "--attacker-cdr", "9", "--defender-cdr", "8", "--draw", "3", status=2)
    fray("table", game, "combat", "Hussars", "--at", "Uhlans", "--tactic", "hasty", "--stance", "defend",
         "--terrain", "open", "--attacker-cdr", "9", "--defender-cdr", "8", "--draw", "3", status=2)
    with open(game, "rb") as f:
        check(f.read() == was, "a refused combat writes nothing")
    return game


with tempfile.TemporaryDirectory() as tmp:
    for seed in range(1, 9):
        a = presidio(tmp, seed)
        b = bbb(tmp, seed)
        c = chits(tmp, seed)
    # the same seed replays the same game
    replay = os.path.join(tmp, "replay")
    os.mkdir(replay)
    a2 = presidio(replay, seed)
    with open(a, "rb") as f1, open(a2, "rb") as f2:
        check(f1.read() == f2.read(), "the same seed and actions give the same game file")
    # a new game never writes over a file
    fray("table", "new", a, "--rules", "presidio", "--forces", os.path.join(EXAMPLES, "presidio", "forces.yaml"),
         status=2)

if failures:
    print(f"table_game: {len(failures)} checks failed", file=sys.stderr)
    sys.exit(1)
print("table_game: Presidio, BBB and chits games played; forces, undo, replay and refusals as the rules say")
