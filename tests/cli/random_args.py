#!/usr/bin/env python3
"""Random command lines: fray must answer each with exit status 0, 1 or 2
(or its own words), never crash, trip a sanitizer or hang.

Usage: random_args.py FRAY SOURCE_DIR RUNS SEED

The commands and their options are read from fray's own help; the values
mix good ones (example files, names from the rule texts) with bad ones
(huge, negative, empty, binary, format directives). The same SEED gives
the same command lines. Then random actions on game files made from the
examples (fray table): a failed action leaves its file as it was, a
successful one leaves a file that still loads.
"""
import os
import random
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from leak_sample import run_env  # noqa: E402 (tests/leak_sample.py: leak checks on a sample of the runs)


def main():
    fray, root, runs, seed = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    rng = random.Random(seed)

    def helptext(*topic):
        return subprocess.run([fray, "help", *topic], capture_output=True, text=True).stdout

    cmds = [["roll"], ["odds"], ["check"], ["merge"], ["help"]]
    for ruleset in ("adbg", "bbb", "chits", "presidio"):
        for line in helptext(ruleset).splitlines():
            w = line.split()
            if len(w) >= 3 and w[0] == "fray" and w[1] == ruleset and not w[2].isupper():
                cmds.append([ruleset, w[2]])
    opts = sorted({o for c in cmds for o in re.findall(r"--[a-z][a-z0-9-]*", helptext(*c))})
    ex = os.path.join(root, "examples")
    values = ["0", "1", "2", "3", "-1", "7", "12", "99999999999999999999", "-99999999999", "1e9",
              "0x10", "", "  ", "abc", "2d6", "3d6+1", "d6!", "1:2", "warrior:3,militia:2:disrupted",
              "regular:2", "flintlock musket", "12# cannon, rifled", "24# mortar", "horse", "sergeant",
              "rough", "wilderness", "settled", "severe", "defend", "hold", "evade", "open", "village",
              "hasty", "1/2", "2/2", "0/0", "3/2", "heuristic", "random:4", "scripted:/nonexistent",
              "interactive", "sides.red.level=1,2", "terrain=rough,settled",
              os.path.join(ex, "adbg", "blue-licks-1782.yaml"), os.path.join(ex, "chits", "sample-mix.yaml"),
              os.path.join(ex, "chits", "example-1.yaml"), os.path.join(ex, "presidio", "units.yaml"),
              os.path.join(root, "data", "adbg", "example-melee-crt.yaml"), "/dev/null", "/", "\x01",
              "\u00e9", "\"", "%s%n"]
    bad = 0
    for _ in range(runs):
        args = list(rng.choice(cmds))
        for _ in range(rng.randint(0, 8)):
            r = rng.random()
            if r < 0.5:
                args.append(rng.choice(opts))
            if r < 0.9:
                args.append(rng.choice(values))
            else:
                args.append(rng.choice(opts) + "=" + rng.choice(values))
        if run_fray(fray, args) is None:
            bad += 1
    print("random command lines: %d run (seed %d), %d failed" % (runs, seed, bad))
    bad += random_table_actions(fray, root, runs // 3, rng, opts, values)
    return 1 if bad else 0


def run_fray(fray, args):
    """Runs fray with args: its exit status, or None (said why) when it
    hung, crashed, tripped a sanitizer or exited with a status of its own."""
    try:
        p = subprocess.run([fray] + args, capture_output=True, timeout=60, stdin=subprocess.DEVNULL, env=run_env())
    except subprocess.TimeoutExpired:
        print("HANG fray %r" % args)
        return None
    err = p.stderr.decode("utf-8", "replace")
    if p.returncode not in (0, 1, 2) or "Sanitizer" in err or "runtime error" in err:
        print("FAIL (exit %d) fray %r\n%s" % (p.returncode, args, err[:600]))
        return None
    return p.returncode


def random_table_actions(fray, root, runs, rng, opts, values):
    """Random actions on real game files (fray table): besides the exit
    status, an action that fails must leave the game file byte for byte as
    it was, and one that succeeds must leave a file that still loads."""
    import shutil
    import tempfile
    ex = os.path.join(root, "examples")
    tmp = tempfile.mkdtemp(prefix="fray-random-table-")
    games = {}
    try:
        for rules in ("presidio", "bbb", "chits"):
            game = os.path.join(tmp, rules + ".yaml")
            subprocess.run([fray, "table", "new", game, "--rules", rules, "--forces",
                            os.path.join(ex, rules, "forces.yaml"), "--seed", "5"],
                           check=True, capture_output=True)
            units = re.findall(r"name: *([^,}\n]+)", open(os.path.join(ex, rules, "forces.yaml")).read())
            games[rules] = (game, [u.strip() for u in units])
        actions = {"presidio": ["shoot", "melee", "charge", "morale", "rally", "reload", "set", "turn"],
                   "bbb": ["fire", "assault", "move", "set", "turn"],
                   "chits": ["combat", "end-turn", "set", "turn"]}
        # well-formed actions (A: the actor, T: the target), which random
        # tokens then spoil half the time
        well_formed = {
            "presidio": [["shoot", "A", "--at", "T", "--range", "10"], ["melee", "A", "--at", "T"],
                         ["charge", "A", "--at", "T", "--reaction", "stand"], ["morale", "A"],
                         ["rally", "A"], ["reload", "A"], ["turn"], ["undo"],
                         # advice and solo play (cli/table_advise runs from the Release build)
                         ["advise", "A", "--goal", "casualties", "--json"], ["play", "Spain"], ["play", "Apache"]],
            "bbb": [["fire", "A", "--at", "T", "--range", "5"], ["assault", "A", "--at", "T"],
                    ["move", "A"], ["turn"], ["undo"], ["advise", "A"]],
            "chits": [["combat", "A", "--at", "T", "--tactic", "hasty", "--stance", "hold", "--terrain",
                       "open", "--attacker-cdr", "6", "--defender-cdr", "6", "--draw", "4"],
                      ["end-turn", "A", "--rest"], ["end-turn", "A", "--rally"], ["turn"], ["undo"]],
        }
        # the files' bytes already seen to load: a refused action leaves the
        # file as it was, and the same bytes load the same way, so only a
        # file not yet loaded is loaded (72 of its 565 fray runs fewer)
        loads = set()
        bad = succeeded = 0
        for _ in range(runs):
            rules = rng.choice(sorted(games))
            game, units = games[rules]
            if rng.random() < 0.6:
                a, t = rng.sample(units, 2)
                args = ["table", game] + [a if w == "A" else t if w == "T" else w
                                          for w in rng.choice(well_formed[rules])]
                spoil = rng.randint(0, 2) if rng.random() < 0.5 else 0
            else:
                args = ["table", game, rng.choice(actions[rules] + ["undo", "status", "log", "nonsense"])]
                if rng.random() < 0.9:
                    args.append(rng.choice(units + ["nobody"]))
                spoil = rng.randint(0, 8)
            for _ in range(spoil):
                r = rng.random()
                if r < 0.3:
                    args += ["--at", rng.choice(units)]
                elif r < 0.6:
                    args.append(rng.choice(opts))
                else:
                    args.append(rng.choice(values + units))
            before = open(game, "rb").read()
            status = run_fray(fray, args)
            after = open(game, "rb").read()
            succeeded += status == 0
            if status is None:
                bad += 1
            elif status != 0 and after != before:
                print("FAIL: fray %r failed (exit %d) and changed the game file" % (args, status))
                bad += 1
            elif after not in loads and \
                    subprocess.run([fray, "table", game, "status"], capture_output=True).returncode != 0:
                print("FAIL: after fray %r the game file no longer loads" % (args,))
                bad += 1
            else:
                loads.add(after)
        print("random table actions: %d run (%d done, the others refused), %d failed" % (runs, succeeded, bad))
        return bad
    finally:
        shutil.rmtree(tmp)


if __name__ == "__main__":
    sys.exit(main())
