#!/usr/bin/env python3
"""BBB and chit-pull rules played through `fray table` game files (issue 28):
each check's expectation is worked out here from the rule text
(../shared/seeds/bbb-qrs.md, chit-combat.txt) and RULES-NOTES' rulings, not
from fray's output.

Usage: table_rules_bbb_chits.py FRAY EXAMPLES_DIR"""
import json
from fractions import Fraction
from math import comb
import os
import re
import subprocess
import sys
import tempfile

from tablelib import EXAMPLES, check, failures, fray, units
import tablelib


def act(game, *args):
    out = json.loads(fray("table", game, *args, "--json").stdout)
    return out["steps"], units(game)


def new_game(tmp, name, rules, forces_text, seed=7):
    d = os.path.join(tmp, name)
    os.makedirs(d, exist_ok=True)
    forces = os.path.join(d, "forces.yaml")
    with open(forces, "w") as f:
        f.write(forces_text)
    if rules == "chits":
        with open(os.path.join(EXAMPLES, "chits", "sample-mix.yaml")) as src, \
                open(os.path.join(d, "sample-mix.yaml"), "w") as dst:
            dst.write(src.read())
    return tablelib.new_game(os.path.join(d, "game.yaml"), rules, forces, seed)


CHITS_FORCES = """rules: chits
mix: sample-mix.yaml
units:
  - {name: Bylant, side: Brent, arm: infantry, battalions: 4, morale: 7}
  - {name: Hussars, side: David, arm: infantry, battalions: 2, morale: 8}
  - {name: Karl Franz, side: David, arm: infantry, battalions: 4, morale: 7, fatigue: 3}
  - {name: Uhlans, side: David, arm: cavalry, battalions: 2, morale: 8}
"""


def chits_combat(game, a, d, *extra, stance="hold", terrain="open", draw="3", status=0):
    args = ["table", game, "combat", a, "--at", d, "--tactic", "hasty", "--stance", stance, "--terrain",
            terrain, "--attacker-cdr", "12", "--defender-cdr", "6", "--draw", draw, *extra]
    if status:
        return fray(*args, status=status)
    out = json.loads(fray(*args, "--json").stdout)
    return out["steps"], units(game)


def chits_combat_odds(game, a, d, *extra):
    return fray("table", game, "combat", a, "--at", d, "--tactic", "hasty", "--stance", "hold", "--terrain", "open",
                "--attacker-cdr", "12", "--defender-cdr", "6", "--draw", "3", *extra, "--odds", "--json").stdout


def chits_tests(tmp):
    # item 15, ruling R29: only cavalry may evade (the mix gives no
    # evaders: the default); the defender's arm decides, so a cavalry
    # defender may evade and an infantry one may not
    game = new_game(tmp, "evade", "chits", CHITS_FORCES)
    steps, _ = chits_combat(game, "Bylant", "Uhlans", stance="evade")
    check(steps[0]["inputs"]["stance"] == "evade", "R29: a cavalry defender may evade")
    p = chits_combat(game, "Bylant", "Hussars", stance="evade", status=2)
    check("evade" in p.stderr, "R29: an infantry defender may not evade, and the message says so")
    # R29's defaults told: the mix names neither list
    text = " ".join(e.get("text", "") for e in steps[0]["events"])
    check("default" in text and "R29" in json.dumps(steps[0]["events"]),
          "R29: the story says the default defensible terrain and evaders were used")

    # R23: "the owning player may choose to negate up to two more hits
    # by retreating": either side's; the attacker (C08: A2) is asked
    game = new_game(tmp, "retreat", "chits", CHITS_FORCES)
    steps, _ = chits_combat(game, "Bylant", "Karl Franz", "--script", "C08,C06,C05", "--policy", "random:3")
    asked = [e for e in steps[0]["events"] if e.get("event") == "decision" and "Bylant: retreat" in e.get("what", "")]
    check(len(asked) >= 1, "R23: the attacker may retreat to negate a hit")
    fray("table", game, "undo")
    steps, _ = chits_combat(game, "Bylant", "Karl Franz", "--script", "C08,C06,C05", "--attacker-no-retreat")
    asked = [e for e in steps[0]["events"] if e.get("event") == "decision" and "Bylant: retreat" in e.get("what", "")]
    check(not asked, "R23: an attacker with no legal retreat is not asked")
    check(any(e.get("text", "") == "drew C08" for e in steps[0]["events"]), "a chit told by its id: drew C08")

    # issue 28, phase 1 item 6: a drawn chit is told once, by its draw
    # ("chit: draw from 30 -> C14"), not again as "drew C14"; the three
    # draws come from the 30 chits of the sample mix, one fewer each time
    game = new_game(tmp, "told-once", "chits", CHITS_FORCES)
    steps, _ = chits_combat(game, "Bylant", "Karl Franz")
    events = steps[0]["events"]
    draws = [e for e in events if e.get("roll") == "draw"]
    check([e.get("dice") for e in draws] == ["draw from 30", "draw from 29", "draw from 28"],
          "three chits drawn from the mix's 30 without replacement")
    check(all(re.fullmatch(r"C\d\d", e.get("text", "")) for e in draws), "each draw names its chit by id")
    check(not any(e.get("text", "").startswith("drew ") for e in events), "a drawn chit is not told twice")
    log = fray("table", game, "log").stdout
    for e in draws:
        check(f"{e.get('dice')} -> {e.get('text')}\n" in log, f"the story tells the draw of {e.get('text')} on its line")

    # issue 40 item 8: a combat draws its chits at random, so it has odds
    # at the table, as BBB's actions do; nothing is written. The text: the
    # chits are drawn one at a time without replacement, here 3 of the
    # sample mix's 30, so every outcome's chance is a count of the
    # C(30, 3) = 4060 draws over 4060; the chances sum to 1
    game = new_game(tmp, "odds", "chits", CHITS_FORCES)
    with open(game) as f:
        before = f.read()
    out = json.loads(chits_combat_odds(game, "Bylant", "Karl Franz"))
    total = Fraction(0)
    for o in out["outcomes"]:
        q = Fraction(o["exact"])
        total += q
        check((q * comb(30, 3)).denominator == 1, "a combat's chance is a count of the 4060 draws: %s" % q)
    check(total == 1 and out["unresolved"] == 0, "the combat's odds sum to 1")
    with open(game) as f:
        check(f.read() == before, "combat --odds writes nothing")
    # the chits scripted: one outcome, certain, the combat's own
    out = json.loads(chits_combat_odds(game, "Bylant", "Karl Franz", "--script", "C07,C08,C03"))
    check(len(out["outcomes"]) == 1 and out["outcomes"][0]["exact"] == "1", "a scripted combat: one outcome")
    steps, _ = chits_combat(game, "Bylant", "Karl Franz", "--script", "C07,C08,C03")
    o, rolled = out["outcomes"][0]["outcome"], steps[0]["outcome"]
    check((o["attacker_hits"], o["defender_hits"]) == (rolled["attacker_hits"], rolled["defender_hits"]),
          "the scripted combat's odds are its hits: %s, %s" % (o, rolled))
    # end-turn --rest: "A unit removes one fatigue point at the end of each
    # turn, requiring a Rest order card to remove 1d3 more": Karl Franz's 3
    # fatigue points become 3 - 1 - 1d3, held at 0: 1 on a 1, 0 on a 2 or 3
    game = new_game(tmp, "rest-odds", "chits", CHITS_FORCES)
    out = json.loads(fray("table", game, "end-turn", "Karl Franz", "--rest", "--odds", "--json").stdout)
    got = {o["outcome"]["fatigue"]: Fraction(o["exact"]) for o in out["outcomes"]}
    want = {}
    for die in (1, 2, 3):
        left = max(3 - 1 - die, 0)
        want[left] = want.get(left, Fraction(0)) + Fraction(1, 3)
    check(got == want, "end-turn --rest odds: %s, the text's %s" % (got, want))
    check(units(game)["Karl Franz"]["fatigue"] == 3, "end-turn --odds writes nothing")

    # item 16: the turn's end takes one fatigue point off each unit
    # ("A unit removes one fatigue point at the end of each turn")
    game = new_game(tmp, "fatigue", "chits", CHITS_FORCES)
    before = units(game)["Karl Franz"]["fatigue"]
    fray("table", game, "turn")
    check(units(game)["Karl Franz"]["fatigue"] == before - 1, "turn: one fatigue point off (3 -> 2)")
    # end-turn once a turn: a second is refused, and turn then takes
    # nothing more off that unit
    steps, after = act(game, "end-turn", "Karl Franz")
    check(after["Karl Franz"]["fatigue"] == before - 2, "end-turn: one fatigue point off (2 -> 1)")
    fray("table", game, "end-turn", "Karl Franz", status=2)
    check(units(game)["Karl Franz"]["fatigue"] == before - 2, "a second end-turn in one turn changes nothing")
    fray("table", game, "turn")
    check(units(game)["Karl Franz"]["fatigue"] == before - 2,
          "turn after the unit's own end-turn: no second point off in that turn")
    fray("table", game, "turn")
    check(units(game)["Karl Franz"]["fatigue"] == before - 3, "the next turn's end: one more point off")

    # item 16, the lead battalion: switched at the end of the turn unless
    # the brigade suffered casualties after its combat (example 3); the
    # game's record says so, not a flag
    game = new_game(tmp, "lead", "chits", CHITS_FORCES)
    steps, after = chits_combat(game, "Bylant", "Karl Franz", "--script", "C07,C08,C03")
    fray("table", game, "end-turn", "Karl Franz", "--lead", "3", "--hit-again", status=2)
    steps, after = act(game, "end-turn", "Karl Franz", "--lead", "3")
    check(after["Karl Franz"]["lead"] == 3, "no casualties since its combat: the lead battalion is switched")
    steps, after = chits_combat(game, "Bylant", "Hussars", "--script", "C07,C08,C03")
    hits = after["Hussars"]["hits"]
    fray("table", game, "set", "Hussars", "hits=[%d,%d]" % (hits[0], hits[1] + 1))
    steps, after = act(game, "end-turn", "Hussars", "--lead", "2")
    check(after["Hussars"]["lead"] == 1, "a hit after its combat this turn: the lead battalion stays")


BBB_FORCES = """rules: bbb
units:
  - {name: Mixed, side: A, arm: infantry, training: trained, weapons: "RR:3,SM:1", bases: 4}
  - {name: Foot, side: A, arm: infantry, training: veteran, weapons: RR, bases: 9, aggressive: true}
  - {name: Guns, side: A, arm: artillery, training: trained, weapons: RA, bases: 1}
  - {name: Line, side: B, arm: infantry, training: trained, weapons: RR, bases: 6}
"""


def bbb_tests(tmp):
    # each action in its phase (BBB Sequence of Play; A moves first: its
    # unit is listed first): `phase NAME` goes forward in the player's
    # turn, `phase NAME --moving SIDE` is the players' word on where it is
    # item 11: a unit of mixed weapons fires with the bases it has left.
    # FIRE FACTORS at 3": RR 3, SM 1. Whole, 3 RR + 1 SM = 10; after
    # losing 2 bases (each off the largest group: RR 3 -> 2 -> 1) 1 RR +
    # 1 SM = 4
    game = new_game(tmp, "mixed", "bbb", BBB_FORCES)
    fray("table", game, "phase", "offensive-fire")
    steps, _ = act(game, "fire", "Mixed", "--at", "Line", "--range", "3")
    check(steps[0]["inputs"]["firepower"] == 10, "BBB Fire Factors: 3 RR and 1 SM at 3\" fire 10")
    fray("table", game, "set", "Mixed", "bases=2")
    low = units(game)["Mixed"]["low_ammo"]  # Fire Multipliers: x1/2
    fray("table", game, "turn")  # a unit fires once a turn (BBB Sequence of Play)
    fray("table", game, "phase", "defensive-fire")  # B's turn: A's Defensive Fire
    steps, _ = act(game, "fire", "Mixed", "--at", "Line", "--range", "3")
    check(steps[0]["inputs"]["firepower"] == (2 if low else 4), "a mixed unit left 2 bases fires 1 RR and 1 SM: 4")

    # item 12: an assaulted gun is Silenced, not Disrupted (the sheet gives
    # guns Silenced where infantry would be Disrupted), and a Silenced gun
    # does not fire
    for seed in range(1, 12):
        game = new_game(tmp, f"gun{seed}", "bbb", BBB_FORCES, seed=seed)
        fray("table", game, "phase", "assault", "--moving", "B")
        steps, after = act(game, "assault", "Line", "--at", "Guns")
        o = steps[0]["outcome"]
        g = after["Guns"]
        check(not g["disrupted"], "an assaulted gun is never Disrupted")
        if g["status"] != "destroyed" and o["result"] != "-7":
            check(g["silenced"] and o["defender_silenced"], "an assaulted gun is Silenced after the assault")
            fray("table", game, "phase", "defensive-fire", "--moving", "B")  # A's guns' fire phase
            p = fray("table", game, "fire", "Guns", "--at", "Line", "--range", "6", status=2)
            check("Silenced" in p.stderr, "a Silenced gun may not fire, and the message says so")
        # item 14, ruling G6: the dice default, 1d6 each, is said
        events = json.dumps(steps[0]["events"])
        check("G6's default" in events, "the assault says ruling G6's default dice were used")
        check(steps[0]["inputs"].get("assault_dice_default") is True, "the inputs say the default dice")
        rolls = [e for e in steps[0]["events"] if e.get("event") == "roll"]
        check(all(e.get("dice") == "d6" for e in rolls), "G6's default: each side's die is a d6")

    # G6 configurable: the player's dice, and no default said
    game = new_game(tmp, "dice", "bbb", BBB_FORCES)
    fray("table", game, "phase", "assault")
    steps, _ = act(game, "assault", "Foot", "--at", "Line", "--assault-dice", "2d6")
    rolls = [e for e in steps[0]["events"] if e.get("event") == "roll"]
    check(len(rolls) % 4 == 0 and len(rolls) > 0, "2d6 a side: four dice a fight")
    check("G6's default" not in json.dumps(steps[0]["events"]), "given dice: no default said")

    # issue 28, phase 1 item 5, Silenced Artillery: "Artillery in
    # Fortifications that becomes Silenced may, at the owning player's
    # option, be given a Low Ammo marker instead ... may not fire until its
    # Low Ammo marker is removed"; the Silenced marker goes at the end of
    # the Movement phase, the Low Ammo one does not
    game = new_game(tmp, "inst-inf", "bbb", BBB_FORCES)
    fray("table", game, "phase", "offensive-fire")
    p = fray("table", game, "fire", "Guns", "--at", "Line", "--range", "6", "--low-ammo-instead", "--fort",
             status=2)  # infantry is never Silenced
    check("Line" in p.stderr and "low-ammo-instead" in p.stderr, "Low Ammo instead is for a gun: " + p.stderr)
    game = new_game(tmp, "inst-open", "bbb", BBB_FORCES)
    fray("table", game, "phase", "assault", "--moving", "B")
    p = fray("table", game, "assault", "Line", "--at", "Guns", "--low-ammo-instead", status=2)
    check("Fortification" in p.stderr, "Low Ammo instead of Silenced only in a Fortification: refused, said why")
    reached = False
    for seed in range(1, 12):
        game = new_game(tmp, f"inst{seed}", "bbb", BBB_FORCES, seed=seed)
        fray("table", game, "phase", "assault", "--moving", "B")
        steps, after = act(game, "assault", "Line", "--at", "Guns", "--fort", "--low-ammo-instead")
        g = after["Guns"]
        if not steps[0]["outcome"]["defender_silenced"] or g["status"] == "destroyed":
            continue
        reached = True
        check(g["low_ammo_instead"] and not g["silenced"], "the owner's choice: Low Ammo instead of Silenced")
        fray("table", game, "phase", "defensive-fire", "--moving", "B")  # A's guns' fire phase
        p = fray("table", game, "fire", "Guns", "--at", "Line", "--range", "6", status=2)
        check("Low Ammo instead" in p.stderr, "a gun with Low Ammo instead of Silenced may not fire, said why")
        fray("table", game, "turn")
        check(units(game)["Guns"]["low_ammo_instead"], "the turn's end leaves the Low Ammo marker")
        fray("table", game, "set", "Guns", "low_ammo_instead=false")
        fray("table", game, "phase", "offensive-fire")  # A's turn
        fray("table", game, "fire", "Guns", "--at", "Line", "--range", "6")
        break
    check(reached, "the seeds reach a silenced gun in a fort")
    # a gun with Low Ammo instead sits in a Fortification (the only place
    # it may take it), so an assault on it counts its cover although it is
    # artillery (Terrain Table note: cavalry and artillery count cover only
    # when fortified): --cover 3 is -3 to the attacker, with no --fort
    game = new_game(tmp, "inst-cover", "bbb", BBB_FORCES)
    fray("table", game, "set", "Guns", "low_ammo_instead=true")
    fray("table", game, "phase", "assault", "--moving", "B")
    steps, _ = act(game, "assault", "Line", "--at", "Guns", "--cover", "3")
    cover = [e for e in steps[0]["events"] if e.get("event") == "modifier" and "cover" in e.get("what", "")]
    check(steps[0]["inputs"].get("fortified") is True, "a gun with Low Ammo instead is assaulted as fortified")
    check(len(cover) == 1 and cover[0].get("value") == -3, "its cover 3 counts: -3 (%s)" % cover)
    # issue 40: "Silenced marker is removed at end of Movement phase": the
    # gun's movement, not the turn's end (silenced by the enemy's Defensive
    # Fire after its side moved, it keeps the marker into its next
    # Movement, where it must retire); `move --stay` ends a movement
    # without a roll
    game = new_game(tmp, "silenced-turn", "bbb", BBB_FORCES)
    fray("table", game, "phase", "defensive-fire")  # after A's movement
    fray("table", game, "set", "Guns", "silenced=true")
    fray("table", game, "turn")
    check(units(game)["Guns"]["silenced"], "Silenced stays at the turn's end, until the gun's movement")
    fray("table", game, "phase", "defensive-fire")  # B's turn: A's Defensive Fire
    p = fray("table", game, "fire", "Guns", "--at", "Line", "--range", "6", status=2)
    check("Silenced" in p.stderr, "a Silenced gun may not fire in its Defensive Fire: " + p.stderr)
    fray("table", game, "turn")  # A's turn: its Unit Movement
    fray("table", game, "move", "Guns", "--stay")
    check(not units(game)["Guns"]["silenced"], "Silenced is removed at the end of the gun's movement (--stay)")
    fray("table", game, "turn")  # a unit moves once a turn (BBB Sequence of Play)
    fray("table", game, "turn")  # and in its side's turn: A's again
    fray("table", game, "set", "Guns", "silenced=true")
    fray("table", game, "move", "Guns")
    g = units(game)["Guns"]
    check(not g["silenced"] or g["status"] == "destroyed", "Silenced is removed at the end of the gun's move")
    fray("table", game, "move", "Guns", "--stay", "--odds", status=2)  # no roll, no odds

    # issue 40: "advancing unit Halted" (Result / Effect) is kept: the
    # unit's advance stopped before its assault (Sequence of Play: move,
    # Defensive Fire, then assault), so it does not assault this turn; the
    # halt ends with the turn
    halted = False
    for seed in range(1, 40):
        game = new_game(tmp, f"halt{seed}", "bbb", BBB_FORCES, seed=seed)
        # B's turn: its Line advances; A's Defensive Fire
        fray("table", game, "phase", "defensive-fire", "--moving", "B")
        steps, after = act(game, "fire", "Mixed", "--at", "Line", "--range", "3", "--advancing")
        line = after["Line"]
        check(line.get("halted", False) == (steps[0]["outcome"]["target_halted"] and line["status"] != "destroyed"),
              "the game keeps Halted exactly when the fire halts the advancing target")
        if not line.get("halted"):
            continue
        halted = True
        fray("table", game, "phase", "assault")  # B's Assault
        p = fray("table", game, "assault", "Line", "--at", "Foot", status=2)
        check("Halted" in p.stderr, "a Halted unit does not assault this turn, and the message says so")
        fray("table", game, "turn")
        check(not units(game)["Line"]["halted"], "the halt ends with the turn")
        fray("table", game, "phase", "assault", "--moving", "B")
        fray("table", game, "assault", "Line", "--at", "Foot")
        break
    check(halted, "the seeds reach a halted unit")

def chits_tactic_arms(tmp):
    """The referee's finding 10(d): "cavalry-charge" was open to infantry.
    Example 3 of chit-combat.txt: "He plays Cavalry Charge and moves two
    cavalry regiment stands"; the mix says which arms may use a tactic
    (`arms`; left out: every arm). 11(b): `set ... hits=[...]` says the
    value set."""
    charge = ["--tactic", "cavalry-charge", "--stance", "hold", "--terrain", "open", "--attacker-cdr", "12",
              "--defender-cdr", "6", "--draw", "2"]
    game = new_game(tmp, "arms", "chits", CHITS_FORCES)
    with open(game) as f:
        before = f.read()
    p = fray("table", game, "combat", "Bylant", "--at", "Karl Franz", *charge, status=2)
    check("cavalry-charge is for cavalry" in p.stderr and "Bylant" in p.stderr,
          "an infantry brigade's cavalry charge is refused, the unit and the mix's rule named: " + p.stderr)
    fray("table", game, "combat", "Bylant", "--at", "Karl Franz", *charge, "--odds", status=2)
    with open(game) as f:
        check(f.read() == before, "the refused charge writes nothing")
    for unit, arm in (("Bylant", "infantry"), ("Uhlans", "cavalry")):
        target = "Bylant" if unit == "Uhlans" else "Karl Franz"
        advice = json.loads(fray("table", game, "advise", unit, "--json").stdout)["actions"]
        tactics = {a["options"].get("tactic") for a in advice if a["action"] == "combat"}
        check(("cavalry-charge" in tactics) == (arm == "cavalry") and "hasty" in tactics,
              f"advise {unit} ({arm}) lists cavalry-charge only for cavalry: {sorted(tactics)}")
    steps, _ = act(game, "combat", "Uhlans", "--at", "Bylant", *charge)
    check(steps[0]["inputs"]["tactic"] == "cavalry-charge", "a cavalry regiment charges")
    # play, both sides: never an infantry cavalry charge (advise, above,
    # is what play chooses from)
    game = new_game(tmp, "arms-play", "chits", CHITS_FORCES, seed=3)
    for i in range(6):
        fray("table", game, "play", ("Brent", "David")[i % 2])
    with open(game) as f:
        log = [line for line in f if line.startswith("  - command:")]
    arms = {"Bylant": "infantry", "Hussars": "infantry", "Karl Franz": "infantry", "Uhlans": "cavalry"}
    charges = [line for line in log if "cavalry-charge" in line]
    check(len(log) > 5, "play made its moves")
    for line in charges:
        unit = re.search(r'combat (?:"([^"]+)"|(\S+))', line)
        name = unit.group(1) or unit.group(2)
        check(arms[name] == "cavalry", "play made a cavalry charge with infantry: " + line)

    # the mix's arms: a mix that names none lets every arm use the tactic
    # (the default); a bad list is refused at its place in the file
    d = os.path.join(tmp, "arms-default")
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(EXAMPLES, "chits", "sample-mix.yaml")) as f:
        mix = f.read()
    check(", arms: [cavalry]}" in mix, "the sample mix gives cavalry-charge to cavalry")
    with open(os.path.join(d, "forces.yaml"), "w") as f:
        f.write(CHITS_FORCES)
    for name, text, status in (("sample-mix.yaml", mix.replace(", arms: [cavalry]}", "}"), 0),
                               ("empty.yaml", mix.replace("arms: [cavalry]", "arms: []"), 2),
                               ("dragoons.yaml", mix.replace("arms: [cavalry]", "arms: [dragoons]"), 2)):
        with open(os.path.join(d, name), "w") as f:
            f.write(text)
        with open(os.path.join(d, "forces.yaml"), "w") as f:
            f.write(CHITS_FORCES.replace("sample-mix.yaml", name))
        g = os.path.join(d, name + ".game.yaml")
        p = fray("table", "new", g, "--rules", "chits", "--forces", os.path.join(d, "forces.yaml"), status=status)
        if status:
            line = next(i + 1 for i, l in enumerate(text.splitlines()) if "cavalry-charge:" in l)
            col = text.splitlines()[line - 1].index("[") + 1 + (0 if name == "empty.yaml" else 1)
            check(f"{name}:{line}:{col}" in p.stderr, f"the mix's bad arms refused at {name}:{line}:{col}: {p.stderr}")
        else:
            steps, _ = act(g, "combat", "Bylant", "--at", "Karl Franz", *charge)
            check(steps[0]["inputs"]["tactic"] == "cavalry-charge", "no arms in the mix: every arm may (the default)")

    # 11(b): the value set is said as given, a list too
    p = fray("table", game, "set", "Bylant", "hits=[1,0,0,0]")
    check("Bylant: hits set to [1, 0, 0, 0]" in p.stdout, "set says the hits set: " + p.stdout)
    check(units(game)["Bylant"]["hits"] == [1, 0, 0, 0], "and the game keeps them")


def main():
    with tempfile.TemporaryDirectory() as tmp:
        bbb_tests(tmp)
        chits_tests(tmp)
        chits_tactic_arms(tmp)
    if failures:
        print(f"{len(failures)} failed", file=sys.stderr)
        sys.exit(1)
    print("ok")


main()
