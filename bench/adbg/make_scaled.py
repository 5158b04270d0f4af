#!/usr/bin/env python3
"""Writes the scaled battles of issue 45 item 1 (bench/adbg/*-plusN.yaml,
blue-licks-3rounds.yaml) from the shipped examples, so that anyone can see
exactly how they were made and make them again:

- "+N units": N more engaged units, each a copy of a unit the side has, as
  a new stack of its own, alternating sides. The first goes to the side
  that sets up second (19.1: the side with the initiative, when neither is
  surprised; the surprised side sets up first), then the side that sets up
  first, and so on; the k-th copy a side gets is of its k-th unit (named
  "<name> 2"). The side that sets up second can always stand its new stack
  opposite an enemy stack; a new stack of the side that sets up first is a
  new position of the line (R3: one stack per position), which the other
  side's stacks fill (the policy's array, R3), except in Sandusky, whose
  array is the scenario's: there the new stacks are placed by this script,
  the side that sets up second's opposite the first position it has no
  stack at, and the first side's a new position (so at +2 and +4 one allied
  stack stands at a position with no enemy opposite, as Butler's Rangers
  do in the shipped Sandusky; movement brings them together).
- "3 rounds": Blue Licks with Caldwell (the initiative's primary leader)
  rated 3: the battle lasts his rating in rounds (19.1), so 3 instead of 2.

Usage: bench/adbg/make_scaled.py   (writes beside itself; needs PyYAML)
"""
import copy
import os
import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
EXAMPLES = os.path.join(HERE, "..", "..", "examples", "adbg")
SCENARIOS = {"lochry": "lochry-1781.yaml", "sandusky": "sandusky-1782.yaml",
             "blue-licks": "blue-licks-1782.yaml"}


def first_to_set_up(sc):
    """19.1: the surprised side, else the side without the initiative."""
    ids = list(sc["sides"])
    if sc.get("surprise", "none") != "none":
        return sc["surprise"]
    return ids[1] if sc["initiative"] == ids[0] else ids[0]


def add_units(sc, n):
    sc = copy.deepcopy(sc)
    first = first_to_set_up(sc)
    second = [s for s in sc["sides"] if s != first][0]
    copies = {first: 0, second: 0}
    for i in range(n):
        side = second if i % 2 == 0 else first
        units = [u for stack in sc["sides"][side]["stacks"] for u in stack]
        unit = dict(units[copies[side]])
        copies[side] += 1
        unit["name"] = unit["name"] + " 2"
        unit.pop("status", None)
        sc["sides"][side]["stacks"].append([unit])
        k = len(sc["sides"][side]["stacks"])  # its number, 1 first
        if "array" in sc:
            if side == first:
                sc["array"].append({first: [k], second: []})
            else:
                pos = next(p for p in sc["array"] if not p.get(second))
                pos[second] = [k]
    sc["battle"] = "%s, +%d unit%s (benchmark)" % (sc["battle"], n, "" if n == 1 else "s")
    return sc


def write(name, sc, what):
    path = os.path.join(HERE, name)
    with open(path, "w") as f:
        f.write("# %s\n# Written by bench/adbg/make_scaled.py (issue 45 item 1): a benchmark\n"
                "# for exact odds, not a historical scenario.\n" % what)
        yaml.safe_dump(sc, f, sort_keys=False, allow_unicode=True, width=100, default_flow_style=None)


def main():
    for short, file in SCENARIOS.items():
        with open(os.path.join(EXAMPLES, file)) as f:
            sc = yaml.safe_load(f)
        for n in range(1, 5):
            write("%s-plus%d.yaml" % (short, n), add_units(sc, n),
                  "examples/adbg/%s with %d more engaged unit%s" % (file, n, "" if n == 1 else "s"))
        if short == "blue-licks":
            three = copy.deepcopy(sc)
            three["sides"]["raiders"]["primary_leader"]["rating"] = 3
            three["battle"] = sc["battle"] + ", in 3 rounds (benchmark)"
            write("blue-licks-3rounds.yaml", three,
                  "examples/adbg/%s with Caldwell rated 3: 3 rounds (19.1)" % file)


if __name__ == "__main__":
    main()
