#!/usr/bin/env python3
"""The game API against fray table, byte for byte (issue 30, "Done when" 3).

tests/game/game_play.c, linked only against libfray, plays a Presidio charge
and a BBB assault through include/fray/game.h, undoes them, and writes the
game's bytes after every step with the step as fray table's words
(plan.tsv). This script runs those words with `fray table` on a game file
of its own and compares that file with the program's after every step.
Usage: FRAY GAME_PLAY SOURCE_DIR"""
import os
import subprocess
import sys
import tempfile


def main():
    fray, play, source = sys.argv[1:4]
    with tempfile.TemporaryDirectory(prefix="fray-game-play-") as out:
        subprocess.run([play, out, source], check=True)
        with open(os.path.join(out, "plan.tsv"), encoding="utf-8") as f:
            plan = [line.rstrip("\n").split("\t") for line in f if line.strip()]
        games = {}
        steps = 0
        for want, *words in plan:
            name = os.path.basename(want).rsplit("-", 1)[0]
            game = games.setdefault(name, os.path.join(out, "table-%s.yaml" % name))
            args = [game if w == "GAME" else w for w in words]
            # no terminal: the reaction is the option, never asked
            r = subprocess.run([fray, "table"] + args, stdin=subprocess.DEVNULL, capture_output=True, text=True)
            if r.returncode != 0:
                sys.exit("fray table %s: exit %d: %s" % (" ".join(args), r.returncode, r.stderr))
            with open(want, "rb") as a, open(game, "rb") as b:
                mine, theirs = a.read(), b.read()
            if mine != theirs:
                sys.exit("after fray table %s: the game API's %s (%d bytes) differs from fray table's (%d bytes)"
                         % (" ".join(args), want, len(mine), len(theirs)))
            steps += 1
        # new, the action and its undo, for each rule set; BBB's phase
        if steps != 7:
            sys.exit("expected 7 steps in the plan, got %d" % steps)
        print("%d steps, the same bytes" % steps)


if __name__ == "__main__":
    main()
