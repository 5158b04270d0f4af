#!/usr/bin/env python3
"""The exact odds of the smallest ADBG quick battle (issue 31), counted here
die by die from the rule text, without fray, and `fray adbg odds` held to
them exactly.

The battle is tests/data/adbg/one-round.yaml: one unit a side, one battle
round, no leader in a stack. Its whole round is a handful of d6 rolls (fire,
fire, a move, perhaps a try to avoid the melee, the melee die, recovery, the
routed units' fate), so every path is walked here with exact fractions.
The rules are written below from ../shared/seeds/adbg-quick-battle.txt
(19.1-19.3) and the rulings of RULES-NOTES (R1, R4-R9, R30); the parts
the text leaves to the full game (the CRT, G1; the routed units' fate and
victory, G3) are the scenario's data, read from the file; the decisions are
the heuristic policy's as docs/adbg.md ("Decisions") describes it, and the
choices where the text is silent are docs/adbg.md's ("Choices where the text
is silent"), each named where it is used.

Besides the file as it is, a few variants given to fray with --set (and
applied here to the file's data) reach the clauses the plain battle does
not: surprise, the R result and the routed units' fate, settled terrain and
severe weather with a regular unit.

usage: adbg_tiny_battle.py FRAY SCENARIO
The module's `tiny_battle_odds` is also used by tests/serve/battle_headline_test.py."""
import json
import subprocess
import sys
from fractions import Fraction

import yaml

NORMAL, DISRUPTED, ROUTED, ELIMINATED, REMOVED = "normal", "disrupted", "routed", "eliminated", "removed"
TERRAINS = ("rough", "wilderness", "settled")
D6 = [(face, Fraction(1, 6)) for face in range(1, 7)]

# 19.2.1 fire, modified for terrain (ruling R5): type -> terrain -> (CF
# multiplier, DR modifier, whether the DR modifier is starred: not applied
# in severe weather). "NE" cells are (1, 0, False).
FIRE_TERRAIN = {
    "warrior": {"rough": (1, 0, False), "wilderness": (1, 0, False), "settled": (1, 0, False)},
    "regular": {"rough": (1, 0, False), "wilderness": (1, -1, True), "settled": (2, -1, True)},
    "militia": {"rough": (1, 0, False), "wilderness": (1, 0, False), "settled": (1, -1, False)},
    "rifle": {"rough": (1, 0, False), "wilderness": (1, -1, True), "settled": (1, -1, False)},
}
# 19.2.3 melee CF multipliers by terrain; rifles are not in the table: x1 (ruling R10)
MELEE_TERRAIN = {
    "warrior": {"rough": 3, "wilderness": 2, "settled": 2},
    "regular": {"rough": 1, "wilderness": 1, "settled": 1},
    "militia": {"rough": 2, "wilderness": 1, "settled": 2},
    "rifle": {"rough": 1, "wilderness": 1, "settled": 1},
}


# ---- the procedures, from the text ----

def fire_hits(unit, terrain, severe, die):
    """19.2.1, R5: a hit when the modified DR is at most the modified CF; a
    natural 1 always hits, a natural 6 always misses."""
    mult, drm, starred = FIRE_TERRAIN[unit["type"]][terrain]
    if severe and starred:
        drm = 0
    if die == 1:
        return True
    if die == 6:
        return False
    return die + drm <= unit["fire"] * mult


def move_succeeds(die, level, drm):
    """19.2.2, R6: the modified DR at most the side's level; a natural 1
    always moves; a natural 6, or a modified DR of 6 or more, never."""
    if die == 1:
        return True
    if die == 6 or die + drm >= 6:
        return False
    return die + drm <= level


def move_drm(unit, terrain, severe, enemy_atop):
    """19.2.2's list for a unit moving without a leader: settled -1 for a
    regular; rough +1 for a non-warrior; severe weather +1; +1 with enemy
    units atop it. (The leader's and the surprise winner's -1 need a leader
    in the stack: none here.)"""
    drm = 0
    if terrain == "settled" and unit["type"] == "regular":
        drm -= 1
    if terrain == "rough" and unit["type"] != "warrior":
        drm += 1
    if severe:
        drm += 1
    if enemy_atop:
        drm += 1
    return drm


def recovers(die, level):
    """19.2.4, R9: the die at most the side's level (no leader to take
    off); a 6 never recovers."""
    return die != 6 and die <= level


def melee_cf(unit, terrain):
    return unit["melee"] * MELEE_TERRAIN[unit["type"]][terrain]


def crt_result(crt, attack, defend, shift, drm, die):
    """19.2.3, ruling R7 with the CRT of the scenario (G1): the odds pick the
    highest column at or below attack:defend (the first when below all, a
    defending CF of 0 the last: docs/adbg.md, "CRT columns"); shifts move
    it, clamped at the edges; the die plus the DRM, clamped at the rows.
    Returns (attacker loss, defender loss), each a number or "R"."""
    cols = [tuple(int(x) for x in c.split(":")) for c in crt["columns"]]
    if defend == 0:
        col = len(cols) - 1
    else:
        col = 0
        for i, (a, d) in enumerate(cols):
            if Fraction(attack, defend) >= Fraction(a, d):
                col = i
    col = max(0, min(len(cols) - 1, col + shift))
    rows = {int(k): v for k, v in crt["rows"].items()}
    row = max(min(rows), min(max(rows), die + drm))
    cell = rows[row][col]
    return tuple("R" if x == "R" else 0 if x == "-" else int(x) for x in cell.split("/"))


def check_faces(spec, key):
    """A G2/G3 check: this test reads one die ("1d6") and its faces."""
    assert spec["roll"] in ("1d6", "d6"), "this test counts a single d6 check only: %r" % spec["roll"]
    return set(spec[key])


# ---- the battle, one round, one unit a side ----

def alive_in_line(status):
    return status in (NORMAL, DISRUPTED, ROUTED)


def tiny_battle_odds(sc):
    """{(winner name or None, (losses side 1, losses side 2)): Fraction}
    for a scenario of one unit a side, one round."""
    names = list(sc["sides"])
    side = [sc["sides"][n] for n in names]
    units = []
    for s in side:
        stacks = s["stacks"]
        assert len(stacks) == 1 and len(stacks[0]) == 1, "one unit a side"
        units.append(stacks[0][0])
        assert "stack" not in s["primary_leader"] and not s.get("leaders"), "no leader in a stack"
    ini = names.index(sc["initiative"])
    other = 1 - ini
    surprised = None if sc.get("surprise", "none") == "none" else names.index(sc["surprise"])
    terrain, severe = sc["terrain"], sc.get("weather", "normal") == "severe"
    level = [s["level"] for s in side]
    # 19.1, R1: rounds = the initiative side's primary leader's rating; the
    # other side's extra round needs a die strictly less than its own
    # leader's rating: with a rating of 1 no die can, whatever it decides
    assert side[ini]["primary_leader"]["rating"] == 1, "one round"
    assert side[other]["primary_leader"]["rating"] == 1, "no extra round can be won"
    crt = sc["melee_crt"]
    assert isinstance(crt, dict), "the CRT inline"
    routed_fate = check_faces(sc["victory"]["routed"], "eliminated_on")
    assert sc["victory"]["rule"] == "losses"

    # a state: (status of side 0, status of side 1, the side atop the other or None)
    start = (units[0].get("status", NORMAL), units[1].get("status", NORMAL), None)

    def with_status(state, s, status):
        st = list(state)
        st[s] = status
        return tuple(st)

    def fire(s):
        """19.2.1, R4: only an undisrupted unit fires; a side taken by
        surprise does not fire in round 1; a hit takes one step."""
        def stage(state):
            t = 1 - s
            if state[s] != NORMAL or surprised == s or not alive_in_line(state[t]):
                return [(Fraction(1), state)]
            step = {NORMAL: DISRUPTED, DISRUPTED: ROUTED, ROUTED: ELIMINATED}
            return [(p, with_status(state, t, step[state[t]]) if fire_hits(units[s], terrain, severe, die) else state)
                    for die, p in D6]
        return stage

    def movement(s):
        """19.2.2 with R6 and the heuristic (docs/adbg.md, Decisions):
        attack when the movers' melee CF is at least twice the defenders'
        (or every defender is routed); try to avoid a melee when the
        attackers are twice as strong. Only an undisrupted unit moves or
        tries to avoid (docs/adbg.md, Avoiding melee); a side taken by
        surprise moves only stacks with a leader in round 1: none here."""
        def stage(state):
            t = 1 - s
            if state[s] != NORMAL or surprised == s:
                return [(Fraction(1), state)]
            if state[2] == t:  # the enemy atop: avoid the melee, or stay
                their_cf = melee_cf(units[t], terrain)
                if their_cf < 2 * melee_cf(units[s], terrain):
                    return [(Fraction(1), state)]
                drm = move_drm(units[s], terrain, severe, True)
                return [(p, state[:2] + (None,) if move_succeeds(die, level[s], drm) else state) for die, p in D6]
            if state[2] is not None or not alive_in_line(state[t]):
                return [(Fraction(1), state)]
            theirs = 0 if state[t] == ROUTED else melee_cf(units[t], terrain)
            if not (melee_cf(units[s], terrain) >= 2 * theirs or state[t] == ROUTED):
                return [(Fraction(1), state)]
            drm = move_drm(units[s], terrain, severe, False)
            return [(p, state[:2] + (s,) if move_succeeds(die, level[s], drm) else state) for die, p in D6]
        return stage

    def melee(state):
        """19.2.3, R7, R8: the side atop attacks; routed defenders are
        eliminated with no roll; shifts: 1 right for a disrupted defender, 1
        right for the attacker's surprise in round 1; DRM = the attacker's
        level less the defender's, at most 3 either way. A number eliminates
        that many units (one is all there is), R routes and removes."""
        a = state[2]
        if a is None:
            return [(Fraction(1), state)]
        d = 1 - a
        state = state[:2] + (None,)  # survivors go home after the melee
        if state[d] == ROUTED:
            return [(Fraction(1), with_status(state, d, ELIMINATED))]
        shift = (state[d] == DISRUPTED) + (surprised == d)
        drm = max(-3, min(3, level[a] - level[d]))
        out = []
        for die, p in D6:
            losses = crt_result(crt, melee_cf(units[a], terrain), melee_cf(units[d], terrain), shift, drm, die)
            st = state
            for s, loss in ((a, losses[0]), (d, losses[1])):
                if loss == "R":
                    st = with_status(st, s, REMOVED)
                elif loss >= 1:
                    st = with_status(st, s, ELIMINATED)
            out.append((p, st))
        return out

    def recovery(s):
        """19.2.4: a disrupted or routed unit (in line: one removed by an R
        takes no further part, R8) recovers one step."""
        def stage(state):
            if state[s] not in (DISRUPTED, ROUTED):
                return [(Fraction(1), state)]
            back = {DISRUPTED: NORMAL, ROUTED: DISRUPTED}[state[s]]
            return [(p, with_status(state, s, back) if recovers(die, level[s]) else state) for die, p in D6]
        return stage

    def fate(s):
        """19.3, G3, R30: a routed unit, or one removed by an R, meets the
        scenario's routed roll at the end."""
        def stage(state):
            if state[s] not in (ROUTED, REMOVED):
                return [(Fraction(1), state)]
            return [(p, with_status(state, s, ELIMINATED) if die in routed_fate else state) for die, p in D6]
        return stage

    stages = [fire(ini), fire(other), movement(ini), movement(other), melee,
              recovery(ini), recovery(other), fate(0), fate(1)]
    paths = [(Fraction(1), start)]
    for stage in stages:
        paths = [(p * q, after) for p, state in paths for q, after in stage(state)]
    odds = {}
    for p, state in paths:
        losses = tuple(int(state[s] == ELIMINATED) for s in (0, 1))
        # G3 "losses": the side that lost fewer units wins, equal is a draw
        winner = None if losses[0] == losses[1] else side[losses.index(min(losses))]["name"]
        odds[(winner, losses)] = odds.get((winner, losses), Fraction(0)) + p
    assert sum(odds.values()) == 1
    return odds


def summary(odds, names):
    """(each side's win, the draw), as exact fractions, in the sides' order."""
    wins = [sum((p for (w, _), p in odds.items() if w == n), Fraction(0)) for n in names]
    return wins, sum((p for (w, _), p in odds.items() if w is None), Fraction(0))


def load(path, sets=()):
    """The scenario, with --set PATH=VALUE applied as fray applies it (list
    items numbered from 1)."""
    with open(path) as f:
        sc = yaml.safe_load(f)
    for item in sets:
        key, value = item.split("=", 1)
        parts = key.split(".")
        node = sc
        for part in parts[:-1]:
            node = node[int(part) - 1] if isinstance(node, list) else node[part]
        last = parts[-1]
        value = int(value) if value.lstrip("-").isdigit() else value
        if isinstance(node, list):
            node[int(last) - 1] = value
        else:
            node[last] = value
    return sc


# the file, and variants that reach the clauses it does not
VARIANTS = [
    [],
    # Red taken by surprise: sets up first, does not fire in round 1, its
    # stack (no leader) cannot move; Blue's melee shifts one column right
    ["surprise=red"],
    # Blue strong enough for the R column, its level 2 above Red's: Red
    # routed and removed, then its fate at the end (R8, R30)
    ["sides.blue.stacks.1.1.melee=4", "sides.blue.level=5", "sides.red.level=3"],
    # a regular in a settled area in severe weather: CF x2, the starred -1
    # lost (R5); every move +1 for the weather
    ["terrain=settled", "weather=severe", "sides.red.stacks.1.1.type=regular"],
]


def main():
    fray, scenario = sys.argv[1], sys.argv[2]
    failures = []
    for sets in VARIANTS:
        what = "%s %s" % (scenario, " ".join("--set " + s for s in sets) or "(as it is)")
        sc = load(scenario, sets)
        want = tiny_battle_odds(sc)
        args = [fray, "adbg", "odds", scenario, "--quiet"] + [a for s in sets for a in ("--set", s)]
        got = json.loads(subprocess.run(args + ["--json"], capture_output=True, text=True, check=True).stdout)
        if got["method"] != "exact" or got["unresolved"] != 0:
            failures.append("%s: not exact (%s, unresolved %s)" % (what, got["method"], got["unresolved"]))
            continue
        have = {}
        for o in got["outcomes"]:
            key = (o["outcome"]["winner"], tuple(o["outcome"]["losses"]))
            have[key] = have.get(key, Fraction(0)) + Fraction(o["exact"])
        have = {k: v for k, v in have.items() if v}
        if have != want:
            failures.append("%s: fray %s, the rules %s" % (
                what, {k: str(v) for k, v in sorted(have.items(), key=str)},
                {k: str(v) for k, v in sorted(want.items(), key=str)}))
        names = [sc["sides"][n]["name"] for n in sc["sides"]]
        wins, draw = summary(want, names)
        for i, w in enumerate(wins):
            if abs(got["summary"]["wins"][i]["p"] - float(w)) > 1e-12:
                failures.append("%s: summary: %s wins %s, the rules %s" % (what, names[i],
                                                                          got["summary"]["wins"][i]["p"], w))
        if abs(got["summary"]["draw"]["p"] - float(draw)) > 1e-12:
            failures.append("%s: summary: a draw %s, the rules %s" % (what, got["summary"]["draw"]["p"], draw))
        # the text's headline lines: each side's win and the draw, to 3 places
        text = subprocess.run(args, capture_output=True, text=True, check=True).stdout
        for name, p in list(zip(names, wins)) + [("draw", draw)]:
            line = "%s wins" % name if name != "draw" else "draw"
            pct = "%.3f%%" % (100 * float(p))
            if not any(l.split()[:len(line.split())] == line.split() and l.split()[-1] == pct
                       for l in text.splitlines()):
                failures.append("%s: the text has no line '%s ... %s':\n%s" % (what, line, pct, text))
        print("%s: %s wins %s, a draw %s, %s wins %s (%d outcomes)" % (
            what, names[0], wins[0], draw, names[1], wins[1], len(want)))
    for f in failures:
        print("FAIL " + f)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
