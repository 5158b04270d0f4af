#!/usr/bin/env python3
"""A Presidio pursuit's days, counted exactly here from the rule text, and
`fray presidio pursuit` (simulated) held to them within 5 standard errors.

What it checks is that each day of the pursuit tracks the raiders as
`presidio tracking` does: 1d6 + Recon against 1d6 + Camou, the trail found
on equal or higher (Presidio Section 8, Campaign Pursuit, Tracking, read as
Section 4's Hidden Movement search: docs/presidio.md), a lost trail costing
the pursuers the day. A pursuit that rolled the trail another way (a Recon
roll against the bare Camou skill, a tie lost) moves the day-by-day chances
by many standard errors.

The rest is written from Section 8 (Campaign Pursuit, Distance in Leagues)
and docs/presidio.md's readings: both parties roll 2D6 each day on the
Distance in Leagues table, +1 mounted (a 13 read as 12; the table prints no
7: 6 leagues for pursuers, 3 for fugitives, one league a pip as the rows on
either side); the raiders have a day's start and use the Pursuers column for
their first three days, then the Fugitives column unless they have seen the
pursuers, which they do on a natural 12 of a day's roll; the raiders are
caught on the first day the pursuers have travelled at least as far; 15
days.

With a forced march (Section 8, Forced March) the pursuers who found the
trail and are, at nightfall (after both parties' day of travel: ruling
R41), at most 10 leagues behind travel on at night, 1.5 x the day's
leagues in all; if two nights of it in a row do not catch the raiders,
they rest the next day and night. A night not marched (the trail lost, the
raiders too far) is a night's rest: the count of nights starts again
(docs/presidio.md, fray's reading of "if they don't catch up to them in
two nights").

The state after each day is (gap in leagues, seen, forced nights in a row,
resting), so the whole distribution of the day of capture is a small sum
over the dice.

usage: presidio_pursuit.py FRAY"""
import json
import math
import subprocess
import sys
from collections import defaultdict
from fractions import Fraction
from itertools import product

PURSUERS = {2: 1, 3: 2, 4: 3, 5: 4, 6: 5, 7: 6, 8: 7, 9: 8, 10: 9, 11: 10, 12: 15}
FUGITIVES = {2: 0, 3: 0, 4: 0, 5: 1, 6: 2, 7: 3, 8: 4, 9: 5, 10: 6, 11: 7, 12: 12}
TWO_D6 = [(a + b, Fraction(1, 36)) for a, b in product(range(1, 7), repeat=2)]
DAYS = 15
TRIALS = 100000


def leagues(column, natural, mounted):
    """Distance in Leagues: 2D6, +1 mounted; beyond the table's 12 is its 12."""
    return column[min(natural + (1 if mounted else 0), 12)]


def trail_found(recon, camou):
    """Tracking, as the Hidden Movement search: the Recon roll equal to or
    higher than the Camou roll, one d6 each."""
    return Fraction(sum(a + recon >= b + camou for a, b in product(range(1, 7), repeat=2)), 36)


def leg_chances(column, mounted):
    """One day's leagues on a column: leagues -> chance, over the 36 faces."""
    out = defaultdict(float)
    for natural, p in TWO_D6:
        out[leagues(column, natural, mounted)] += float(p)
    return list(out.items())


def caught_by_day(recon, camou, pursuers_mounted, raiders_mounted, forced_march=False):
    """The chance the raiders are caught on day 1..15, and of not at all (0):
    the dice summed exactly, in double precision (fractions take minutes).
    Gaps are whole or half leagues (1.5 x a whole number): exact in floats."""
    found = float(trail_found(recon, camou))
    pursuers = leg_chances(PURSUERS, pursuers_mounted)
    # the raiders' day: (seen on this roll, leagues on the Pursuers column,
    # on the Fugitives column) -> chance; a natural 12 is seen
    raiders = defaultdict(float)
    for natural, p in TWO_D6:
        raiders[(natural == 12, leagues(PURSUERS, natural, raiders_mounted),
                 leagues(FUGITIVES, natural, raiders_mounted))] += float(p)
    # (gap, seen, forced nights in a row, resting) -> chance, not yet caught
    states = defaultdict(float)
    for natural, p in TWO_D6:  # the head start: the raiders' first day, Pursuers column
        states[(leagues(PURSUERS, natural, raiders_mounted), False, 0, False)] += float(p)
    result = {}
    for day in range(1, DAYS + 1):
        raiders_day = day + 1
        after = defaultdict(float)
        caught = 0.0
        for (gap, seen, nights, resting), p in states.items():
            for (twelve, by_pursuers, by_fugitives), q in raiders.items():
                now_seen = seen or twelve
                g = gap + (by_pursuers if raiders_day <= 3 or now_seen else by_fugitives)
                if resting:  # the day and night of rest after two nights marched
                    after[(g, now_seen, 0, False)] += p * q
                    continue
                # the trail lost: the pursuers wait, the night a night's rest
                after[(g, now_seen, 0, False)] += p * q * (1 - found)
                for leg, r in pursuers:
                    # R41: the distance read at nightfall, after the day's leagues
                    at_night = forced_march and 0 < g - leg <= 10
                    travelled = leg * 1.5 if at_night else leg
                    if g - travelled <= 0:
                        caught += p * q * found * r
                    elif at_night and nights == 1:  # two nights in a row, not caught: rest
                        after[(g - travelled, now_seen, 0, True)] += p * q * found * r
                    else:
                        after[(g - travelled, now_seen, 1 if at_night else 0, False)] += p * q * found * r
        result[day] = caught
        states = after
    result[0] = sum(states.values())
    return result


def fray_pursuit(fray, recon, camou, pursuers_mounted, raiders_mounted, forced_march, trials, seed):
    cmd = [fray, "presidio", "pursuit", "--recon", str(recon), "--camou", str(camou), "--trials", str(trials),
           "--seed", str(seed), "--json"]
    cmd += ["--pursuers-mounted"] if pursuers_mounted else []
    cmd += ["--raiders-mounted"] if raiders_mounted else []
    cmd += ["--forced-march"] if forced_march else []
    out = json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)
    return {o["outcome"]["caught_on_day"]: o["p"] for o in out["outcomes"]}, " ".join(cmd[1:])


def main():
    fray = sys.argv[1]
    failures = 0
    cases = [(2, 1, False, False, False, TRIALS), (0, 4, False, False, False, TRIALS),
             (4, 0, False, False, False, TRIALS), (1, 3, True, False, False, TRIALS),
             (3, 3, False, True, False, TRIALS), (2, 2, True, True, True, TRIALS),
             # a forced march whose nights in a row are broken (the trail lost, the raiders out of
             # reach): a count of nights that never starts again sends the pursuers to rest after one
             # night more, which moves day 4 by 16 standard errors of a million pursuits (5 of
             # 100,000: too few to tell)
             (4, 0, False, False, True, 10 * TRIALS)]
    for k, (recon, camou, pm, rm, fm, trials) in enumerate(cases):
        want = caught_by_day(recon, camou, pm, rm, fm)
        assert abs(sum(want.values()) - 1) < 1e-12
        got, cmd = fray_pursuit(fray, recon, camou, pm, rm, fm, trials, 31 + k)
        for day in range(DAYS + 1):
            p = float(want[day])
            tolerance = 5 * math.sqrt(p * (1 - p) / trials) + 1e-9
            g = got.get(day, 0.0)
            if abs(g - p) > tolerance:
                failures += 1
                print("FAIL %s: day %d, fray %.5f, the dice %.5f (+-%.5f)" % (cmd, day, g, p, tolerance))
        print("%s: caught within 15 days %.4f, the dice %.4f" % (cmd, 1 - got.get(0, 0.0), float(1 - want[0])))
    if failures:
        sys.exit(1)


if __name__ == "__main__":
    main()
