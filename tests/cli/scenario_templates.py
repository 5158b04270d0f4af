#!/usr/bin/env python3
"""fray scenario new: each template is a file fray takes as it is (the adbg
scenario passes fray check and simulates; the forces start a game file
with every unit the template lists), shown or written the same, and never
written over a file. Usage: scenario_templates.py FRAY EXAMPLES_DIR"""
import json
import os
import subprocess
import sys
import tempfile

FRAY, EXAMPLES = sys.argv[1], sys.argv[2]
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what, file=sys.stderr)


def fray(*args, cwd=None):
    return subprocess.run([FRAY, *args], capture_output=True, text=True, cwd=cwd)


with tempfile.TemporaryDirectory() as tmp:
    for kind in ("adbg", "presidio", "bbb", "chits"):
        path = os.path.join(tmp, kind + ".yaml")
        r = fray("scenario", "new", kind, path)
        check(r.returncode == 0, f"{kind}: exit {r.returncode} {r.stderr}")
        with open(path) as f:
            text = f.read()
        check(fray("scenario", "new", kind).stdout == text, f"{kind}: shown and written the same")
        check(text.startswith("#") and f"fray scenario new {kind}" in text, f"{kind}: says what it is")
        if kind == "adbg":
            r = fray("check", path)
            check(r.returncode == 0, f"adbg: fray check: {r.stdout}{r.stderr}")
            r = fray("adbg", "simulate", path, "--trials", "200", "--json")
            check(r.returncode == 0 and "sides" in json.loads(r.stdout), f"adbg: simulates: {r.stderr}")
            continue
        # chits names fray's sample mix by name: nothing copied beside it
        game = os.path.join(tmp, kind + "-game.yaml")
        r = fray("table", "new", game, "--rules", kind, "--forces", path, "--seed", "1")
        check(r.returncode == 0, f"{kind}: table new: {r.stderr}")
        listed = sum(1 for line in text.splitlines() if line.lstrip().startswith("- name:"))
        status = json.loads(fray("table", game, "status", "--json").stdout)
        check(len(status["units"]) == listed and listed >= 2, f"{kind}: {len(status['units'])} units, template {listed}")
    # never over a file; a kind that is not there
    path = os.path.join(tmp, "bbb.yaml")
    with open(path, "w") as f:
        f.write("mine\n")
    r = fray("scenario", "new", "bbb", path)
    with open(path) as f:
        check(r.returncode == 2 and "exists" in r.stderr and f.read() == "mine\n", "a template wrote over a file")
    r = fray("scenario", "new", "bbbb")
    check(r.returncode == 2 and "did you mean 'bbb'" in r.stderr, f"unknown kind: {r.stderr}")

if failures:
    print(f"scenario_templates: {len(failures)} checks failed", file=sys.stderr)
    sys.exit(1)
print("scenario_templates: every template taken as it is")
