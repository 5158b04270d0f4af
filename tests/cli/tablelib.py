"""Helpers shared by the `fray table` tests (table_game.py, table_files.py,
table_presidio_rules.py, table_rules_bbb_chits.py): run fray, record a
failed check, read the units, start a game. Each test script is run as
SCRIPT FRAY EXAMPLES_DIR; this module reads the two from sys.argv."""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from leak_sample import run_env  # noqa: E402 (tests/leak_sample.py: leak checks on a sample of the runs)

FRAY, EXAMPLES = sys.argv[1], sys.argv[2]
failures = []
# a test that sets it (a Pace, tests/pace.py) gives each fray run a time
# limit scaled to the machine's pace: a hang is caught at the run, and a
# busy machine is given the time it needs (issue 41 case 12)
pace = None
RUN_SECONDS = 60  # one fray run's limit on a quiet machine


def check(cond, what):
    """Records a failed check (the script reports them all at the end)."""
    if not cond:
        failures.append(what)
        print("FAIL:", what, file=sys.stderr)


def run(*args, stdin=None):
    env = run_env()
    if pace:
        return pace.run([FRAY, *args], RUN_SECONDS, capture_output=True, text=True, errors="replace", input=stdin,
                        env=env)
    return subprocess.run([FRAY, *args], capture_output=True, text=True, errors="replace", input=stdin, env=env)


def fray(*args, status=0, stdin=None):
    """Runs fray; stops the test when its exit status is not the one expected."""
    p = run(*args, stdin=stdin)
    if p.returncode != status:
        raise SystemExit(f"fray {' '.join(args)}: exit {p.returncode}, expected {status}\n{p.stdout}{p.stderr}")
    return p


def units(game):
    """The game's units by name, as `status --json` gives them."""
    s = json.loads(fray("table", game, "status", "--json").stdout)
    return {u["name"]: u for u in s["units"]}


def new_game(game, rules, forces, seed=7):
    """A new game file at game from the forces file, with the seed."""
    fray("table", "new", game, "--rules", rules, "--forces", forces, "--seed", str(seed))
    return game


def finish(name, passed):
    """Exits 1 with the count when a check failed, else says what passed."""
    if failures:
        print(f"{name}: {len(failures)} checks failed", file=sys.stderr)
        sys.exit(1)
    print(passed)
