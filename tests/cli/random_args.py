#!/usr/bin/env python3
"""Random command lines: fray must answer each with exit status 0, 1 or 2
(or its own words), never crash, trip a sanitizer or hang.

Usage: random_args.py FRAY SOURCE_DIR RUNS SEED

The commands and their options are read from fray's own help; the values
mix good ones (example files, names from the rule texts) with bad ones
(huge, negative, empty, binary, format directives). The same SEED gives
the same command lines.
"""
import os
import random
import re
import subprocess
import sys


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
        try:
            p = subprocess.run([fray] + args, capture_output=True, timeout=60, stdin=subprocess.DEVNULL)
        except subprocess.TimeoutExpired:
            print("HANG fray %r" % args)
            bad += 1
            continue
        err = p.stderr.decode("utf-8", "replace")
        if p.returncode not in (0, 1, 2) or "Sanitizer" in err or "runtime error" in err:
            print("FAIL (exit %d) fray %r\n%s" % (p.returncode, args, err[:600]))
            bad += 1
    print("random command lines: %d run (seed %d), %d failed" % (runs, seed, bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
