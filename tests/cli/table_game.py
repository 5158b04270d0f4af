#!/usr/bin/env python3
"""What only the command line shows of a game played with `fray table`: the
game file written by `new` and by an action, never over an existing file,
`undo` giving the file back byte for byte, the same action done again
writing the same file, `--json` as one document, and refused actions
(exit 2, a message naming what is wrong, the file untouched), among them a
charge with no --reaction and no terminal to ask.

The game's rules (follow-ups, outcomes applied, undo, replay, refusals)
are checked in the library by tests/game/test_game_rules.c, and the
library's bytes against fray table's by tests/game/test_game.c.

Usage: table_game.py FRAY EXAMPLES_DIR"""
import json
import os
import sys
import tempfile

from tablelib import EXAMPLES, check, finish, fray


def read(path):
    with open(path, "rb") as f:
        return f.read()


with tempfile.TemporaryDirectory() as tmp:
    game = os.path.join(tmp, "skirmish.yaml")
    forces = os.path.join(EXAMPLES, "presidio", "forces.yaml")
    out = fray("table", "new", game, "--rules", "presidio", "--forces", forces, "--seed", "3").stdout
    check(os.path.exists(game) and game in out, "new writes the game file and names it")
    start = read(game)
    # a new game never writes over a file
    p = fray("table", "new", game, "--rules", "presidio", "--forces", forces, status=2)
    check(read(game) == start and game in p.stderr, "new refuses an existing file and leaves it")

    # an action: one JSON document, the file written; undo gives it back
    # byte for byte; done again, the same dice and the same file
    action = ("shoot", "Presidials", "--at", "Apaches", "--range", "10", "--mode", "volley")
    first = json.loads(fray("table", game, *action, "--json").stdout)
    check(first["steps"][0]["procedure"] == "presidio.shoot", "--json: the action's steps")
    shot = read(game)
    check(shot != start, "the action writes the game file")
    fray("table", game, "undo")
    check(read(game) == start, "undo gives back the file byte for byte")
    again = json.loads(fray("table", game, *action, "--json").stdout)
    check(again == first and read(game) == shot, "done again after undo: the same dice, the same file")

    # refused: exit 2, a message naming the problem, nothing written
    for args, said in [
            (("shoot", "Nobody", "--at", "Apaches", "--range", "4"), "Nobody"),
            (("shoot", "Cueras", "--at", "Apaches", "--rang", "4"), "--rang"),
            (("charge", "Cueras", "--at", "Apaches"), "--reaction"),   # no terminal to ask
            (("set", "Cueras", "figures=-3"), "figures"),
            (("rally", "Cueras"), "Cueras")]:
        p = fray("table", game, *args, status=2, stdin="")
        check(said in p.stderr, f"{args}: the message names {said}: {p.stderr.strip()}")
        check(read(game) == shot, f"{args}: refused, the game file as it was")

finish("table_game", "table_game: game files written, undone, replayed and refused as fray table should")
