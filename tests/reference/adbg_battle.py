#!/usr/bin/env python3
"""A deliberately simple, slow reference of A Dark and Bloody Ground's quick
battle (rule 19), for the differential test of fray's C engine.

It is written on its own from the rule text, the rulings and the choices
documented in docs/adbg.md, with the heuristic policy's answers as that page
describes them. It reads the scenario YAML itself (PyYAML) and uses Python's
random module, so it shares no code, parser or random numbers with fray.

Usage: adbg_battle.py SCENARIO.yaml TRIALS SEED
Prints one JSON object: trials, wins [draw, side 1, side 2], and the
distribution of losses per side (counts by number of units lost).
"""
import json
import os
import random
import re
import sys

import yaml

NORMAL, DISRUPTED, ROUTED, ELIMINATED, REMOVED = range(5)
TERRAINS = ["rough", "wilderness", "settled"]
TYPES = ["warrior", "regular", "militia", "rifle"]
ROUTE_ALL = "R"

# 19.2.1 fire: (CF multiplier, DR modifier, modifier lost in severe weather)
FIRE = {
    "warrior": [(1, 0, False), (1, 0, False), (1, 0, False)],
    "regular": [(1, 0, False), (1, -1, True), (2, -1, True)],
    "militia": [(1, 0, False), (1, 0, False), (1, -1, False)],
    "rifle": [(1, 0, False), (1, -1, True), (1, -1, False)],
}
# 19.2.3 melee CF multipliers; rifles x1 (R10)
MELEE = {"warrior": [3, 2, 2], "regular": [1, 1, 1], "militia": [2, 1, 2], "rifle": [1, 1, 1]}


def clamp(x, lo, hi):
    return max(lo, min(hi, x))


def d6(rng):
    return rng.randint(1, 6)


def roll_dice(expr, rng):
    """NdS with an optional +k / -k: the dice of G2/G3 checks."""
    m = re.fullmatch(r"\s*(\d*)d(\d+)\s*([+-]\s*\d+)?\s*", expr)
    n, sides = int(m.group(1) or 1), int(m.group(2))
    total = sum(rng.randint(1, sides) for _ in range(n))
    return total + (int(m.group(3).replace(" ", "")) if m.group(3) else 0)


class Check:
    def __init__(self, spec, key):
        self.dice, self.faces = spec["roll"], set(spec[key])

    def roll(self, rng):
        return roll_dice(self.dice, rng) in self.faces


class Crt:
    def __init__(self, spec):
        self.cols = [tuple(int(x) for x in c.split(":")) for c in spec["columns"]]
        rows = {int(k): v for k, v in spec["rows"].items()}
        self.first = min(rows)
        self.rows = [rows[k] for k in range(self.first, self.first + len(rows))]

    def column(self, a, d):
        if d <= 0:
            return len(self.cols) - 1
        col = 0
        for c, (num, den) in enumerate(self.cols):
            if a * den >= d * num:
                col = c
        return col

    def cell(self, row, col):
        def loss(x):
            return ROUTE_ALL if x == "R" else 0 if x == "-" else int(x)
        a, d = self.rows[row - self.first][col].split("/")
        return loss(a), loss(d)


class Scenario:
    def __init__(self, path):
        doc = yaml.safe_load(open(path, encoding="utf-8"))
        self.terrain = TERRAINS.index(doc["terrain"])
        self.severe = 1 if doc.get("weather", "normal") == "severe" else 0
        ids = list(doc["sides"])
        self.initiative = ids.index(doc["initiative"])
        self.surprised = -1 if doc.get("surprise", "none") == "none" else ids.index(doc["surprise"])
        crt = doc["melee_crt"]
        if isinstance(crt, str):
            crt = yaml.safe_load(open(os.path.join(os.path.dirname(path), crt), encoding="utf-8"))
        self.crt = Crt(crt)
        self.loss_fire = Check(doc["leader_loss"]["after_fire"], "lost_on")
        self.loss_melee = Check(doc["leader_loss"]["after_melee"], "lost_on")
        self.victory = doc["victory"]["rule"]
        routed = doc["victory"]["routed"]
        self.routed = routed if isinstance(routed, str) else Check(routed, "eliminated_on")
        self.sides = []
        for sid in ids:
            s = doc["sides"][sid]
            units = []
            for k, stack in enumerate(s["stacks"]):
                for u in stack:
                    units.append({"type": u["type"], "fire": u["fire"], "melee": u["melee"],
                                  "status": ["normal", "disrupted", "routed"].index(u.get("status", "normal")),
                                  "stack": k})
            leaders = [s["primary_leader"]] + s.get("leaders", [])
            self.sides.append({
                "level": s["level"],
                "units": units,
                "nstacks": len(s["stacks"]),
                "leaders": [(l["rating"], l["stack"] - 1 if "stack" in l else -1) for l in leaders],
            })
        self.array = None
        if "array" in doc:
            self.array = [[entry.get(sid, []) for sid in ids] for entry in doc["array"]]


class Stack:
    def __init__(self):
        self.used, self.pos, self.row = True, 0, 0
        self.atop, self.foe = False, -1
        self.home_pos = self.home_row = 0
        self.origin, self.moved = -1, False


class Battle:
    MAX_STACKS = 32

    def __init__(self, sc, rng):
        self.sc, self.rng = sc, rng
        self.u = [[dict(u) for u in side["units"]] for side in sc.sides]
        # a side's stack slots, used or not: the slots past them (up to MAX_STACKS) are free
        # and never looked at, so only the slots a battle has made are walked (test time)
        self.st = [[], []]
        self.lstack = [[st for _, st in side["leaders"]] for side in sc.sides]
        self.llost = [[False] * len(side["leaders"]) for side in sc.sides]
        self.round = 1

    # -- who stands where --
    def in_line(self, u):
        return u["status"] < ELIMINATED

    def units_of(self, s, k):
        return [i for i, u in enumerate(self.u[s]) if u["stack"] == k and self.in_line(u)]

    def alive(self, s, k):
        st = self.st[s][k] if k < len(self.st[s]) else None
        return st is not None and st.used and any(u["stack"] == k and self.in_line(u) for u in self.u[s])

    def live(self, s):
        """The stacks with a unit in line: alive(s, k) is k in live(s) for a used stack."""
        return {u["stack"] for u in self.u[s] if u["status"] < ELIMINATED}  # in_line(u)

    def column(self, s, p, live=None):
        # the stack's own fields first, its units last: the same stacks, sooner (test time);
        # live: the side's live(s), when the caller has it (tidy asks for every position)
        if live is None:
            live = self.live(s)
        col = [k for k, st in enumerate(self.st[s])
               if st is not None and st.used and not st.atop and st.pos == p and k in live]
        return sorted(col, key=lambda k: self.st[s][k].row)  # stable: slot order on ties

    def leader(self, s, k):
        best = 0
        for l, (rating, _) in enumerate(self.sc.sides[s]["leaders"]):
            if not self.llost[s][l] and self.lstack[s][l] == k:
                best = max(best, rating)
        return best

    def melee_cf(self, s, k):
        cf, active, disrupted = 0, 0, False
        for i in self.units_of(s, k):
            u = self.u[s][i]
            if u["status"] == ROUTED:
                continue
            cf += u["melee"] * MELEE[u["type"]][self.sc.terrain]
            active += 1
            disrupted |= u["status"] == DISRUPTED
        return cf, active, disrupted

    def strength(self, s):
        return sum(u["fire"] + u["melee"] for u in self.u[s] if u["status"] <= DISRUPTED)

    def attackers_of(self, s, k):
        return [j for j, st in enumerate(self.st[1 - s]) if st and st.used and st.atop and st.foe == k]

    def tidy(self):
        for s in range(2):
            live = self.live(s)
            for k, st in enumerate(self.st[s]):
                if st and st.used and k not in live:
                    st.used = False
                    self.lstack[s] = [-1 if x == k else x for x in self.lstack[s]]
            for p in range(self.npos):
                for row, k in enumerate(self.column(s, p, live)):
                    self.st[s][k].row = row + 1

    def new_stack(self, s):
        for k in range(self.MAX_STACKS):
            if k == len(self.st[s]):
                self.st[s].append(None)
            if self.st[s][k] is None or not self.st[s][k].used:
                self.st[s][k] = Stack()
                return k
        return -1

    def leader_loss(self, s, k, check):
        for l in range(len(self.lstack[s])):
            if not self.llost[s][l] and self.lstack[s][l] == k and check.roll(self.rng):
                self.llost[s][l] = True

    # -- 19.1 --
    def begin(self):
        sc = self.sc
        ini, other = sc.initiative, 1 - sc.initiative
        other_rating = sc.sides[other]["leaders"][0][0]
        attempt = self.strength(other) >= self.strength(ini) and other_rating > 1
        self.rounds = sc.sides[ini]["leaders"][0][0]
        if attempt and d6(self.rng) <= other_rating - 1:
            self.rounds += 1
        first = sc.surprised if sc.surprised >= 0 else 1 - ini
        second = 1 - first
        self.npos = sc.sides[first]["nstacks"]
        for s in range(2):
            self.st[s] = [Stack() for _ in range(sc.sides[s]["nstacks"])]
        if sc.array:
            for p, entry in enumerate(sc.array):
                for s in range(2):
                    for row, k in enumerate(entry[s]):
                        self.st[s][k - 1].pos, self.st[s][k - 1].row = p, row + 1
        else:
            for k in range(self.npos):
                self.st[first][k].pos, self.st[first][k].row = k, 1
            power = [0] * sc.sides[second]["nstacks"]
            for u in sc.sides[second]["units"]:
                power[u["stack"]] += u["melee"] + u["fire"]
            enemy = [0] * self.npos
            for u in sc.sides[first]["units"]:
                enemy[u["stack"]] += u["melee"] + u["fire"]
            # the strongest stacks first, opposite the strongest enemy stacks
            order = sorted(range(len(power)), key=lambda k: -power[k])
            depth = [0] * self.npos
            for k in order:
                shallow = min(depth)
                places = [p for p in range(self.npos) if depth[p] == shallow]
                p = max(places, key=lambda p: (enemy[p], -p))
                depth[p] += 1
                self.st[second][k].pos, self.st[second][k].row = p, depth[p]
        self.tidy()

    # -- 19.2.1 --
    def fire_phase(self, s):
        if self.round == 1 and self.sc.surprised == s:
            return
        e = 1 - s
        lines = [(self.column(s, p), self.column(e, p)) for p in range(self.npos)]
        for mine, theirs in lines:
            if not mine or not theirs:
                continue
            targeted = set()
            for k in mine:
                rows = [self.units_of(e, t) for t in theirs]
                shots = []
                for f in self.units_of(s, k):
                    if self.u[s][f]["status"] != NORMAL:
                        continue
                    last = next((t for t, r in enumerate(rows) if any(x not in targeted for x in r)),
                                len(rows) - 1)
                    cand = [x for r in rows[:last + 1] for x in r]
                    if not cand:
                        continue
                    # untargeted first, then the nearest to elimination
                    best = max(cand, key=lambda x: ((x not in targeted) * 10 + self.u[e][x]["status"],
                                                    -cand.index(x)))
                    targeted.add(best)
                    shots.append((f, best))
                for f, t in shots:
                    target = self.u[e][t]
                    if not self.in_line(target):
                        continue
                    u = self.u[s][f]
                    mult, drm, lost = FIRE[u["type"]][self.sc.terrain]
                    if lost and self.sc.severe:
                        drm = 0
                    if d6(self.rng) <= clamp(u["fire"] * mult - drm, 1, 5):
                        target["status"] += 1
                        self.leader_loss(e, target["stack"], self.sc.loss_fire)

    # -- 19.2.2 --
    def options(self, s, k):
        e, st = 1 - s, self.st[s][k]
        opts, suggest = [("stay", None)], 0
        if not any(self.u[s][i]["status"] == NORMAL for i in self.units_of(s, k)):
            return opts, suggest
        mine = sum(self.u[s][i]["melee"] * MELEE[self.u[s][i]["type"]][self.sc.terrain]
                   for i in self.units_of(s, k) if self.u[s][i]["status"] == NORMAL)
        atk = self.attackers_of(s, k)
        if atk:
            theirs = sum(self.melee_cf(e, j)[0] for j in atk)
            opts.append(("avoid", None))
            if theirs >= 2 * self.melee_cf(s, k)[0]:
                suggest = 1
            return opts, suggest
        col, ecol = self.column(s, st.pos), self.column(e, st.pos)
        if col and col[0] == k and ecol and not self.attackers_of(e, ecol[0]):
            cf, active, _ = self.melee_cf(e, ecol[0])
            opts.append(("attack", ecol[0]))
            if mine >= 2 * cf or active == 0:
                suggest = len(opts) - 1
        if st.row > 1:
            opts.append(("front", None))
        if st.row < len(col):
            opts.append(("back", None))
        for p in range(self.npos):
            if p == st.pos or not self.column(e, p):
                continue
            opts.append(("position", p))
            # a reserve goes where the enemy faces no one
            if suggest == 0 and st.row > 1 and not self.column(s, p):
                suggest = len(opts) - 1
        return opts, suggest

    def move_stack(self, s, k):
        sc, st = self.sc, self.st[s][k]
        opts, suggest = self.options(s, k)
        if len(opts) == 1:
            return
        kind, arg = opts[suggest]
        if kind == "stay":
            return
        leader = self.leader(s, k)
        movers = [self.u[s][i] for i in self.units_of(s, k) if self.u[s][i]["status"] == NORMAL]
        drm = -leader
        if sc.terrain == 2 and any(u["type"] == "regular" for u in movers):
            drm -= 1
        if sc.terrain == 0 and any(u["type"] != "warrior" for u in movers):
            drm += 1
        drm += sc.severe + (kind == "avoid")
        if self.round == 1 and sc.surprised == 1 - s and leader > 0:
            drm -= 1
        st.moved = True
        if d6(self.rng) > clamp(min(sc.sides[s]["level"], 5) - drm, 1, 5):
            return
        if kind == "avoid":
            for j in self.attackers_of(s, k):
                self.return_home(1 - s, j)
            return
        m = k
        if len(movers) != len(self.units_of(s, k)):
            m = self.new_stack(s)
            if m < 0:
                return
            ms = self.st[s][m]
            ms.pos, ms.row, ms.origin = st.pos, st.row, k
            for i in self.units_of(s, k):
                if self.u[s][i]["status"] == NORMAL:
                    self.u[s][i]["stack"] = m
            self.lstack[s] = [m if x == k else x for x in self.lstack[s]]
        ms = self.st[s][m]
        ms.moved = True
        if kind == "attack":
            ms.home_pos, ms.home_row, ms.atop, ms.foe = ms.pos, ms.row, True, arg
        elif kind == "front":
            ms.row = 0
        elif kind == "back":
            ms.row = 1000
        elif kind == "position":
            ms.pos, ms.row, ms.origin = arg, 1000, -1
        if kind != "attack":
            ms.origin = -1
        self.tidy()

    def movement_phase(self, s):
        surprised = self.round == 1 and self.sc.surprised == s
        for p in range(self.npos):
            for k in self.column(s, p):
                st = self.st[s][k]
                if not st.used or st.moved or st.atop:
                    continue
                if surprised and self.leader(s, k) == 0:
                    continue
                self.move_stack(s, k)

    def return_home(self, s, k):
        st = self.st[s][k]
        st.atop = False
        o = st.origin
        if o >= 0 and self.st[s][o].used and not self.st[s][o].atop and self.st[s][o].pos == st.home_pos:
            for u in self.u[s]:
                if u["stack"] == k:
                    u["stack"] = o
            self.lstack[s] = [o if x == k else x for x in self.lstack[s]]
            st.used = False
            return
        st.pos, st.row, st.origin = st.home_pos, st.home_row, -1

    # -- 19.2.3 --
    def lose(self, s, k, loss):
        engaged = [i for i in self.units_of(s, k) if self.u[s][i]["status"] != ROUTED]
        if loss == ROUTE_ALL:
            for i in engaged:
                self.u[s][i]["status"] = REMOVED
            return
        for _ in range(loss):
            if not engaged:
                break
            # the weakest: disrupted first, then the lowest melee CF
            best = 0
            for j, i in enumerate(engaged):
                u, b = self.u[s][i], self.u[s][engaged[best]]
                if u["status"] > b["status"] or (u["status"] == b["status"] and u["melee"] < b["melee"]):
                    best = j
            self.u[s][engaged[best]]["status"] = ELIMINATED
            engaged[best] = engaged[-1]
            engaged.pop()

    def melee(self, s, k):
        sc, e, d = self.sc, 1 - s, self.st[s][k].foe
        acf, _, _ = self.melee_cf(s, k)
        dcf, dact, ddis = self.melee_cf(e, d)
        if dact == 0:
            for i in self.units_of(e, d):
                self.u[e][i]["status"] = ELIMINATED
            return
        shift = self.leader(s, k) - self.leader(e, d) + ddis + (self.round == 1 and sc.surprised == e)
        col = clamp(sc.crt.column(acf, dcf) + shift, 0, len(sc.crt.cols) - 1)
        drm = clamp(sc.sides[s]["level"] - sc.sides[e]["level"], -3, 3)
        row = clamp(d6(self.rng) + drm, sc.crt.first, sc.crt.first + len(sc.crt.rows) - 1)
        aloss, dloss = sc.crt.cell(row, col)
        self.lose(s, k, aloss)
        self.lose(e, d, dloss)
        if aloss != 0:
            self.leader_loss(s, k, sc.loss_melee)
        if dloss != 0:
            self.leader_loss(e, d, sc.loss_melee)

    def melee_phase(self):
        for s in (self.sc.initiative, 1 - self.sc.initiative):
            for k in range(len(self.st[s])):
                st = self.st[s][k]
                if not st or not st.used or not st.atop:
                    continue
                if self.alive(s, k) and self.alive(1 - s, st.foe):
                    self.melee(s, k)
                self.return_home(s, k)
        self.tidy()

    # -- 19.2.4 --
    def recovery_phase(self, s):
        for u in self.u[s]:
            if u["status"] in (DISRUPTED, ROUTED):
                leader = self.leader(s, u["stack"])
                if d6(self.rng) <= clamp(self.sc.sides[s]["level"] + leader, 0, 5):
                    u["status"] -= 1

    def fight(self):
        self.begin()
        ini = self.sc.initiative
        while self.round <= self.rounds:
            for side in self.st:
                for st in side:
                    if st:
                        st.moved = False
            self.fire_phase(ini)
            self.fire_phase(1 - ini)
            self.tidy()
            self.movement_phase(ini)
            self.movement_phase(1 - ini)
            self.melee_phase()
            self.recovery_phase(ini)
            self.recovery_phase(1 - ini)
            self.tidy()
            self.round += 1
        return self.end()

    # -- 19.3 (G3) --
    def end(self):
        sc = self.sc
        for s in range(2):
            for u in self.u[s]:
                # R30: a unit removed by a melee R is still routed here
                if u["status"] in (ROUTED, REMOVED):
                    gone = sc.routed == "eliminated" or (
                        isinstance(sc.routed, Check) and sc.routed.roll(self.rng))
                    if gone:
                        u["status"] = ELIMINATED
        losses = [sum(u["status"] == ELIMINATED for u in self.u[s]) for s in range(2)]
        standing = [sum(u["status"] <= DISRUPTED for u in self.u[s]) for s in range(2)]
        if sc.victory == "losses":
            score = [losses[1] - losses[0], losses[0] - losses[1]]
        else:
            score = [standing[0] - standing[1], standing[1] - standing[0]]
        winner = 1 if score[0] > 0 else 2 if score[1] > 0 else 0
        return winner, losses


def main():
    path, trials, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    sc = Scenario(path)
    rng = random.Random(seed)
    wins = [0, 0, 0]
    losses = [dict(), dict()]
    for _ in range(trials):
        winner, lost = Battle(sc, rng).fight()
        wins[winner] += 1
        for s in range(2):
            losses[s][lost[s]] = losses[s].get(lost[s], 0) + 1
    top = max(max(l) for l in losses)
    print(json.dumps({"trials": trials, "wins": wins,
                      "losses": [[l.get(v, 0) for v in range(top + 1)] for l in losses]}))


if __name__ == "__main__":
    main()
