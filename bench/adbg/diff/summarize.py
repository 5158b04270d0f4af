#!/usr/bin/env python3
"""Sums exactdiff.sh's log.tsv files: scenarios, comparisons by variant and
verdict, how many the new build answered by plans (with a move, a chain),
and the CPU seconds of each build's heuristic runs.
Usage: summarize.py LOG.tsv..."""
import collections
import sys

n = 0
verdicts = collections.Counter()
probe = collections.Counter()
cpu = {"new": 0.0, "old": 0.0}
slow = []
for path in sys.argv[1:]:
    for line in open(path):
        f = line.rstrip("\n").split("\t")
        if len(f) < 4:
            continue
        n += 1
        pr = f[2].split("=", 1)[1].split()
        battles, refused, moves, chains = map(int, pr[1:5])
        probe["plans"] += battles > 0
        probe["plans with a move"] += moves > 0
        probe["plans with a chain"] += chains > 0
        probe["refused to plans (some state)"] += refused > 0
        probe["probe " + pr[0]] += 1
        for v in f[3:]:
            name, verdict, new, old = v.split(":", 3)
            verdicts[(name, verdict)] += 1
            if name == "heuristic":
                tn = sum(map(float, new.split("/")[2].split("+")))
                to = sum(map(float, old.split("/")[2].split("+")))
                cpu["new"] += tn
                cpu["old"] += to
                slow.append((to, tn, f[0], path))
print("scenarios", n)
for k in sorted(verdicts):
    print("  %s %s: %d" % (k[0], k[1], verdicts[k]))
for k in sorted(probe):
    print("  %s: %d" % (k, probe[k]))
print("heuristic CPU s: old %.2f, new %.2f" % (cpu["old"], cpu["new"]))
for to, tn, seed, path in sorted(slow, reverse=True)[:5]:
    print("  slowest old: seed %s (%s) old %.2f s, new %.2f s" % (seed, path, to, tn))
