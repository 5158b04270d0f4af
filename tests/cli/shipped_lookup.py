#!/usr/bin/env python3
"""Where a table a scenario names is looked for (issue 45 item 5,
docs/simulate.md "A copied scenario").

The order: the path as the scenario writes it (from its folder); then the
same table in fray's data folder (beside the binary: ../data), its place
there taken from the path's parts after "data/" only when each is a plain
name; then a table fray ships by the path's last part. Checked here with a
copy of fray in tmp/bin/ whose data folder, tmp/data/, this test fills:

- a CRT in the data folder that fray does not compile in (other-crt) is
  found from a scenario anywhere that names ../../data/adbg/other-crt.yaml;
- a path whose "data/" part climbs out ("x/data/../secret/crt.yaml",
  "data/adbg/../../secret/crt.yaml") never reaches tmp/secret/crt.yaml
  through the data folder, though a valid CRT is there: a name is a name;
- a name that is neither a file nor a shipped table is refused at the
  scenario's (or a chits combat's) file:line:col, computed here from the
  file's text, exit 2, the message saying both places were tried;
- the shipped CRT's name at the end of any path reads the shipped table.

usage: shipped_lookup.py FRAY EXAMPLES_DIR"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

FRAY, EXAMPLES = (os.path.abspath(a) for a in sys.argv[1:3])
DATA = os.path.join(EXAMPLES, "..", "data")
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what, file=sys.stderr)
    return cond


def run(fray, *args, cwd):
    return subprocess.run([fray, *args], capture_output=True, text=True, cwd=cwd, timeout=600)


def scenario_naming(folder, name, crt):
    """Blue Licks with melee_crt: crt; the (line, column) of the value."""
    with open(os.path.join(EXAMPLES, "adbg", "blue-licks-1782.yaml"), encoding="utf-8") as f:
        text = f.read()
    text = re.sub(r"(?m)^melee_crt: .*$", "melee_crt: " + crt, text)
    with open(os.path.join(folder, name), "w", encoding="utf-8") as f:
        f.write(text)
    line = text[:text.index("melee_crt: ")].count("\n") + 1
    return line, len("melee_crt: ") + 1


SIM = ("adbg", "simulate", "--trials", "300", "--quiet", "--json")

with tempfile.TemporaryDirectory() as tmp:
    os.makedirs(os.path.join(tmp, "bin"))
    fray = os.path.join(tmp, "bin", "fray")
    shutil.copy(FRAY, fray)
    os.makedirs(os.path.join(tmp, "data", "adbg"))
    os.makedirs(os.path.join(tmp, "secret"))
    os.makedirs(os.path.join(tmp, "scen"))
    crt = os.path.join(DATA, "adbg", "example-melee-crt.yaml")
    shutil.copy(crt, os.path.join(tmp, "data", "adbg", "other-crt.yaml"))
    shutil.copy(crt, os.path.join(tmp, "secret", "crt.yaml"))
    scen = os.path.join(tmp, "scen")
    base = run(FRAY, SIM[0], SIM[1], os.path.join(EXAMPLES, "adbg", "blue-licks-1782.yaml"), *SIM[2:], cwd=tmp)
    check(base.returncode == 0, f"the example in place: {base.stderr.strip()}")

    # the data folder's own table, by its place there
    scenario_naming(scen, "data-folder.yaml", "../../data/adbg/other-crt.yaml")
    r = run(fray, SIM[0], SIM[1], "data-folder.yaml", *SIM[2:], cwd=scen)
    check(r.returncode == 0 and r.stdout == base.stdout,
          f"a CRT in fray's data folder not compiled in: exit {r.returncode} {r.stderr.strip()}")

    # paths that would climb out of the data folder: refused, not followed
    for bad in ("nowhere/data/../secret/crt.yaml", "data/adbg/../../secret/crt.yaml",
                "data/./../secret/crt.yaml"):
        line, col = scenario_naming(scen, "climb.yaml", bad)
        r = run(fray, SIM[0], SIM[1], "climb.yaml", *SIM[2:], cwd=scen)
        check(r.returncode == 2 and f"climb.yaml:{line}:{col}: melee CRT: {bad}: cannot open" in r.stderr,
              f"melee_crt: {bad} reached out of the data folder: exit {r.returncode} {r.stderr.strip()}")

    # neither a file nor a shipped name: file:line:col, both places said
    line, col = scenario_naming(scen, "nowhere.yaml", "../../data/adbg/no-such-crt.yaml")
    r = run(fray, SIM[0], SIM[1], "nowhere.yaml", *SIM[2:], cwd=scen)
    check(r.returncode == 2 and r.stdout == "" and
          f"nowhere.yaml:{line}:{col}: melee CRT: ../../data/adbg/no-such-crt.yaml: cannot open" in r.stderr and
          "nor is 'no-such-crt' a table fray ships" in r.stderr and "example-melee-crt" in r.stderr,
          f"a name neither a file nor shipped: exit {r.returncode} {r.stderr.strip()}")
    r = run(fray, "adbg", "odds", "nowhere.yaml", cwd=scen)
    check(r.returncode == 2 and f"nowhere.yaml:{line}:{col}:" in r.stderr and "nor is 'no-such-crt'" in r.stderr,
          f"odds of a name neither a file nor shipped: exit {r.returncode} {r.stderr.strip()}")

    # a chits combat's mix, the same: file:line:col, both places said
    with open(os.path.join(EXAMPLES, "chits", "example-1.yaml"), encoding="utf-8") as f:
        text = re.sub(r"(?m)^mix: .*$", "mix: no-such-mix", f.read())
    with open(os.path.join(scen, "combat.yaml"), "w", encoding="utf-8") as f:
        f.write(text)
    line = text[:text.index("mix: no-such-mix")].count("\n") + 1
    r = run(fray, "chits", "combat", "combat.yaml", cwd=scen)
    check(r.returncode == 2 and r.stdout == "" and
          f"combat.yaml:{line}:{len('mix: ') + 1}: chit mix: no-such-mix: cannot open" in r.stderr and
          "nor is 'no-such-mix' a table fray ships" in r.stderr,
          f"a chit mix neither a file nor shipped: exit {r.returncode} {r.stderr.strip()}")

    # the shipped name at the end of any path: the shipped table, by name
    scenario_naming(scen, "far.yaml", "/nonexistent/../../etc/example-melee-crt.yaml")
    r = run(fray, SIM[0], SIM[1], "far.yaml", *SIM[2:], cwd=scen)
    check(r.returncode == 0 and r.stdout == base.stdout,
          f"the shipped name at the end of a path: exit {r.returncode} {r.stderr.strip()}")

if failures:
    print(f"shipped_lookup: {len(failures)} checks failed", file=sys.stderr)
    sys.exit(1)
print("shipped_lookup: data folder by name, no climbing out of it, both places told, shipped names anywhere")
