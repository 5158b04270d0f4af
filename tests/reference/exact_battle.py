#!/usr/bin/env python3
"""Whole-battle exact odds against a large simulation (issue #16).

usage: exact_battle.py FRAY TRIALS SCENARIO... [--too-big SCENARIO]

For each scenario: `fray adbg odds` must answer exactly (method "exact",
nothing unresolved, the exact fractions summing to 1), and every chance it
gives (each side's win, the draw, each side's losses) must lie within 4.5
standard errors of what `fray adbg simulate` counts in TRIALS battles. The
exact fractions are summed here with Python's own rationals.

Issue #33: each exact answer must fit 128 MiB, both as the library counts
its memory (--max-memory 128: past it fray falls back to simulation and the
check above fails) and as the operating system saw the process's peak
resident memory (FRAY must be a build without AddressSanitizer).

--too-big SCENARIO (issue #33: a battle twice Blue Licks' size, exact
since issue 45 item 1's fifth pass; make test gives it with Kentucky
surprised, bench/adbg/blue-licks-doubled-surprised.yaml): with the
default budget, `fray adbg odds` must say early that exact odds are out of
reach (a projection past the budget of 30,000,000 paths, made after at
most a third of them, not the budget spent) and give simulated odds with
their intervals instead.
"""
import resource
import json
import math
import re
import subprocess
import sys
from fractions import Fraction


MEMORY_MIB = 128


def run(args):
    out = subprocess.run(args, capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def peak_mib():
    """The largest peak resident memory of the children waited for so far."""
    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024


def close(name, exact, counted, trials, failures):
    se = math.sqrt(max(exact * (1 - exact), 1e-12) / trials)
    if abs(counted - exact) > 4.5 * se + 1.0 / trials:
        failures.append(f"{name}: exact {exact:.6f}, simulated {counted:.6f} "
                        f"(4.5 standard errors: {4.5 * se:.6f})")


def check(fray, trials, scenario):
    before = peak_mib()
    odds = run([fray, "adbg", "odds", scenario, "--budget", "1000000000",
                "--max-memory", str(MEMORY_MIB), "--json"])
    failures = []
    if peak_mib() > max(before, MEMORY_MIB):
        failures.append(f"{scenario}: exact odds took {peak_mib():.0f} MiB at their peak, "
                        f"more than {MEMORY_MIB} MiB")
    if odds["method"] != "exact" or odds["unresolved"] != 0:
        return [f"{scenario}: not exact ({odds['method']}, unresolved {odds['unresolved']})"]
    total = Fraction(0)
    wins = [Fraction(0), Fraction(0)]
    draw = Fraction(0)
    losses = [{}, {}]
    for o in odds["outcomes"]:
        p = Fraction(o["exact"])
        total += p
        w = o["outcome"]["winner"]
        if w is None:
            draw += p
        else:
            wins[odds["sides"].index(w)] += p
        for s in (0, 1):
            k = o["outcome"]["losses"][s]
            losses[s][k] = losses[s].get(k, Fraction(0)) + p
    if total != 1:
        failures.append(f"{scenario}: the exact chances sum to {total}, not 1")
    sim = run([fray, "adbg", "simulate", scenario, "--trials", str(trials), "--seed", "7",
               "--json"])
    n = sim["counted"]
    close(f"{scenario}: draw", float(draw), sim["draw"]["p"], n, failures)
    for s in (0, 1):
        side = sim["sides"][s]
        close(f"{scenario}: side {s} wins", float(wins[s]), side["win"]["p"], n, failures)
        counted = side["losses"]["p"]
        for k in range(max(len(counted), max(losses[s]) + 1)):
            exact = float(losses[s].get(k, 0))
            close(f"{scenario}: side {s} loses {k}", exact,
                  counted[k] if k < len(counted) else 0.0, n, failures)
    return failures


BUDGET = 30000000


def check_too_big(fray, scenario):
    out = subprocess.run([fray, "adbg", "odds", scenario, "--quiet"], capture_output=True,
                         text=True, check=True).stdout
    m = re.search(r"not exact: exact odds would take more than (\d+) outcome paths "
                  r"\(the budget\): after (\d+), .*\(a projection", out)
    if not m:
        return [f"{scenario}: no early statement that exact odds are out of reach:\n{out[:600]}"]
    failures = []
    if int(m.group(1)) != BUDGET:
        failures.append(f"{scenario}: the budget said is {m.group(1)}, not {BUDGET}")
    if int(m.group(2)) * 3 > BUDGET:
        failures.append(f"{scenario}: said after {m.group(2)} paths, not within a third of the budget")
    if "odds by simulation of 100000 battles" not in out or "95% CI" not in out:
        failures.append(f"{scenario}: no simulated odds with their intervals instead")
    return failures


def main():
    fray, trials = sys.argv[1], int(sys.argv[2])
    args = sys.argv[3:]
    too_big = []
    while "--too-big" in args:
        i = args.index("--too-big")
        too_big.append(args[i + 1])
        del args[i:i + 2]
    failures = []
    for scenario in too_big:
        failures += check_too_big(fray, scenario)
    for scenario in args:
        failures += check(fray, trials, scenario)
    for f in failures:
        print(f)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
