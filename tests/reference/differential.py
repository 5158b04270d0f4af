#!/usr/bin/env python3
"""Differential test: fray's simulated battles against the independent
reference (adbg_battle.py), scenario by scenario. Each side's win rate,
the draws, and the share of battles with each number of units lost must
agree within five standard errors of the difference of two proportions
(about one false alarm in 1.7 million comparisons).

Usage: differential.py FRAY REFERENCE_TRIALS FRAY_TRIALS SCENARIO...
"""
import json
import math
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def start_reference(path, trials):
    """The reference's battles of one scenario, started: all the scenarios' run at once (each
    mostly one core, the release tests' longest), read in order by reference()."""
    return subprocess.Popen([sys.executable, os.path.join(HERE, "adbg_battle.py"), path, str(trials), "12345"],
                            stdout=subprocess.PIPE, text=True)


def reference(run):
    out, _ = run.communicate()
    if run.returncode != 0:
        raise subprocess.CalledProcessError(run.returncode, run.args)
    r = json.loads(out)
    return r["wins"], r["losses"]


def fray(binary, path, trials):
    out = subprocess.run([binary, "adbg", "simulate", path, "--trials", str(trials), "--seed", "7", "--json",
                          "--quiet"], check=True, capture_output=True, text=True).stdout
    d = json.loads(out)
    n = d["counted"]
    wins = [round(d["draw"]["p"] * n)] + [round(s["win"]["p"] * n) for s in d["sides"]]
    losses = [[round(p * n) for p in s["losses"]["p"]] for s in d["sides"]]
    return wins, losses


def agree(what, k1, n1, k2, n2, failures):
    p1, p2 = k1 / n1, k2 / n2
    pooled = (k1 + k2) / (n1 + n2)
    se = math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
    z = abs(p1 - p2) / se if se > 0 else (0 if p1 == p2 else math.inf)
    flag = "ok" if z <= 5 else "DISAGREE"
    print(f"  {what:<28} reference {p1:8.5f}  fray {p2:8.5f}  z {z:5.2f}  {flag}")
    if z > 5:
        failures.append(what)


def main():
    binary, ref_trials, fray_trials = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    failures = []
    runs = [start_reference(path, ref_trials) for path in sys.argv[4:]]
    for path, run in zip(sys.argv[4:], runs):
        print(os.path.basename(path))
        rw, rl = reference(run)
        fw, fl = fray(binary, path, fray_trials)
        for i, name in enumerate(["draw", "side 1 wins", "side 2 wins"]):
            agree(name, rw[i], ref_trials, fw[i], fray_trials, failures)
        for s in range(2):
            for v in range(max(len(rl[s]), len(fl[s]))):
                a = rl[s][v] if v < len(rl[s]) else 0
                b = fl[s][v] if v < len(fl[s]) else 0
                agree(f"side {s + 1} loses {v}", a, ref_trials, b, fray_trials, failures)
    if failures:
        print(f"{len(failures)} disagreement(s): {', '.join(failures)}")
        return 1
    print("fray and the reference agree")
    return 0


if __name__ == "__main__":
    sys.exit(main())
