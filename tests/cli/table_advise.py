#!/usr/bin/env python3
"""What only the command line shows of advice and solo play (issue 44):
`fray table GAME advise UNIT [--goal G] [--json]` reads the game and
writes nothing, its JSON one document best first; `play SIDE` writes the
game and says its reason; bad input (a goal, an option, a side) exits 2
with a message naming it and the file untouched; a whole Presidio game of
`play Spain` and `play Apache` by turns runs to its end with no refusal,
and again from the same seed the same game file: `new` with the seed the
same bytes, and each play the same from the file it had (the file is the
game's whole state, so a game again is these plays one after the other).
The plays made again are the first of each side's kind of play (each
kind's own code and dice), every 25th (late turns) and the last two (the
game's end), not all 400: under ASan a play is 0.3 s of CPU, and a second
whole game was half of the test's 120 s.

The values, the game's acceptance of every listed action and one shot
counted by hand are tests/game/test_advise.c's.

Usage: table_advise.py FRAY EXAMPLES_DIR"""
import json
import os
import sys
import tempfile
from fractions import Fraction

from tablelib import EXAMPLES, check, finish, fray, new_game


def read(path):
    with open(path, "rb") as f:
        return f.read()


def whole_game(game):
    """play Spain, play Apache, ... until the game is over: each play as
    (side, the file before it, what it said, the file after it)."""
    plays = []
    for i in range(1000):
        side = ("Spain", "Apache")[i % 2]
        before = read(game)
        out = fray("table", game, "play", side).stdout
        plays.append((side, before, out, read(game)))
        if out.startswith("the game is over"):
            return plays
        check(out.startswith("fray plays %s: " % side), "play says who it plays: %r" % out[:80])
    raise SystemExit("the game did not end in 1000 plays")


def kind(side, out):
    """A play's kind: its side and its first word (charge, rally,
    initiative, it (waits), ...), or the game's end."""
    return (side, out.split()[3] if out.startswith("fray plays ") else "the end")


with tempfile.TemporaryDirectory() as tmp:
    forces = os.path.join(EXAMPLES, "presidio", "forces.yaml")
    game = new_game(os.path.join(tmp, "g.yaml"), "presidio", forces, seed=44)
    start = read(game)

    advice = json.loads(fray("table", game, "advise", "Presidials", "--goal", "casualties", "--json").stdout)
    check(advice["goal"] == "casualties" and advice["unit"] == "Presidials", "advice names its goal and unit")
    values = [Fraction(a["exact"]) for a in advice["actions"]]
    check(values and values == sorted(values, reverse=True), "advice is best first")
    check(all(set(a) == {"action", "target", "options", "value", "exact", "headline", "why"}
              for a in advice["actions"]), "each entry has the documented members")
    check(read(game) == start, "advise writes nothing")
    try:  # the documented shape, where python3-jsonschema is installed
        import jsonschema
        with open(os.path.join(EXAMPLES, "..", "docs", "json", "advise.schema.json"), encoding="utf-8") as f:
            jsonschema.validate(advice, json.load(f))
    except ImportError:
        pass
    text = fray("table", game, "advise", "Presidials", "--range", "4").stdout
    check(text.startswith("advice for Presidials, goal win") and "--range 4" in text,
          "advise in words, the player's range given to the shots")

    for args, names in ((("advise", "Presidials", "--goal", "glory"), "glory"),
                        # an option twice, or a range and a band: refused, not
                        # every shot silently dropped from the advice (or the move)
                        (("advise", "Presidials", "--range", "4", "--range", "4"), "--range given twice"),
                        (("play", "Spain", "--band", "close", "--range=4"), "say the same"),
                        # two goals: refused, not the last one taken
                        (("play", "Spain", "--goal", "win", "--goal=hold"), "--goal: given 2 times"),
                        (("advise", "Presidials", "--tactic", "hasty"), "--tactic"),
                        (("advise", "Nobody"), "Nobody"),
                        (("play", "France"), "France"),
                        # a value the game would refuse is refused, not
                        # left to drop every shot from the advice
                        (("advise", "Presidials", "--range", "-5"), "--range"),
                        (("advise", "Presidials", "--range=99999999999999999999"), "--range"),
                        (("advise", "Presidials", "--mode", "bogus"), "--mode"),
                        (("advise", "Presidials", "--range", "--mode", "volley"), "--range"),
                        (("play", "Spain", "--actions", "99"), "--actions"),
                        # more options than a candidate holds: refused, not
                        # the mode's choices silently dropped from the shots
                        (("advise", "Presidials", "--range", "10", "--cover", "partial", "--dm", "1",
                          "--firer-cover", "partial", "--held", "--evading", "--taking-cover",
                          "--reloading-in-cover"), "fewer options"),
                        (("advise",), "usage")):
        p = fray("table", game, *args, status=2)
        check(names in p.stderr and read(game) == start, "refused, naming %s, nothing written" % names)

    # a name of 100,000 bytes: refused with its start only, the game's units still listed
    p = fray("table", game, "advise", "x" * 100000, status=2)
    check(len(p.stderr) < 2000 and "the units:" in p.stderr and read(game) == start,
          "a long unit name: %d bytes of error, %r" % (len(p.stderr), p.stderr[-200:]))

    # the game's first play rolls the turn's initiative (Presidio Section
    # 2: before the action sequences), then the side that won it acts
    out = fray("table", game, "play", "Spain", "--json").stdout
    move = json.loads(out)
    check(move["side"] == "Spain" and move["played"] is None and "initiative" in move["says"] and move["events"],
          "play --json: the turn's initiative first, and its reason")
    acting = json.loads(fray("table", game, "status", "--json").stdout)["acting"]
    out = fray("table", game, "play", acting, "--json").stdout
    move = json.loads(out)
    check(move["side"] == acting and move["played"]["action"] and "because" in move["says"],
          "play --json: the move and its reason")
    log = fray("table", game, "log").stdout
    check("fray plays %s: " % acting in log, "the log keeps the reason")

    # Sixty figures a unit: exact values of a hundred digits and more.
    # "exact" is the whole fraction (a cut one is another number: once
    # "1625...2/1625..." read as 99999777.75); checked against "value",
    # a double fray works out separately, and a chance is within [0, 1].
    # (A company does not volley, Section 1: the 30 dice of two actions
    # of independent fire give them; forty figures' volley once did.)
    import re
    with open(forces, encoding="utf-8") as f:
        big_forces = re.sub(r"figures: \d+", "figures: 60", f.read())
    big_forces = big_forces.replace("units_file: units.yaml",
                                    "units_file: " + os.path.abspath(os.path.join(EXAMPLES, "presidio", "units.yaml")))
    with open(os.path.join(tmp, "big-forces.yaml"), "w", encoding="utf-8") as f:
        f.write(big_forces)
    big = new_game(os.path.join(tmp, "big.yaml"), "presidio", os.path.join(tmp, "big-forces.yaml"), seed=3)
    advice = json.loads(fray("table", big, "advise", "Presidials", "--json").stdout)
    check(any(len(a["exact"]) > 100 for a in advice["actions"]), "sixty figures give long fractions")
    check(all(0 <= Fraction(a["exact"]) <= 1 and abs(float(Fraction(a["exact"])) - a["value"]) < 1e-9
              for a in advice["actions"]), "each exact value whole: the same number as its value")

    a, b = os.path.join(tmp, "a.yaml"), os.path.join(tmp, "b.yaml")
    new_game(a, "presidio", forces, seed=1782)
    new_game(b, "presidio", forces, seed=1782)
    check(read(a) == read(b), "a new game from the seed: the same file again")
    plays = whole_game(a)
    moves = sum(" because " in out.splitlines()[0] for _, _, out, _ in plays)
    check(moves > 2, "a whole game: %d moves with a reason" % moves)
    seen, again = set(), []
    for i, (side, _, out, _) in enumerate(plays):
        if kind(side, out) not in seen or i % 25 == 24 or i >= len(plays) - 2:
            again.append(i)
        seen.add(kind(side, out))
    for i in again:
        side, before, out, after = plays[i]
        with open(b, "wb") as f:
            f.write(before)
        out2 = fray("table", b, "play", side).stdout
        check(out2 == out and read(b) == after,
              "play %d of %d again from the same file: the same (%r, then %r)" % (i + 1, len(plays), out[:80], out2[:80]))
    check(len(seen) >= 10, "the plays made again meet the game's kinds of play: %d, %s" % (len(seen), sorted(seen)))
    print("a whole game of %d plays, %d of them again from their file" % (len(plays), len(again)))

finish("table_advise", "advice and solo play at the command line: ok")
