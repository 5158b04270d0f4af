#!/usr/bin/env python3
"""Captures what fray says for a fixed set of commands, so that a refactor
(issue 42: "every behaviour stays the same or is listed as a deliberate
change") can be compared with the commit before it. Not a test: it pins no
answer, it only tells what changed between two builds.

    scripts/golden.py capture FRAY SOURCE_DIR OUT_DIR
    scripts/golden.py compare OLD_DIR NEW_DIR

The set: every command of the docs' examples (README.md, docs/*.md, run
in order in a scratch copy of examples/ so their game files build up),
each procedure's --help, and each procedure's example as a JSON request
in each of its modes (fixed seeds, few trials). Each command's stdout,
stderr and exit status go to one file. Commands whose output differs
between two runs of the same build (an unseeded roll) are marked and left
out of the comparison."""
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile


def doc_commands(source):
    files = [os.path.join(source, "README.md")] + sorted(
        os.path.join(source, "docs", f) for f in os.listdir(os.path.join(source, "docs")) if f.endswith(".md"))
    out = []
    for path in files:
        with open(path, encoding="utf-8") as f:
            lines = f.read().split("\n")
        i = 0
        while i < len(lines):
            line = re.sub(r"^\s*\$ ", "", lines[i]).strip()
            while line.endswith("\\") and i + 1 < len(lines):
                i += 1
                line = line[:-1] + " " + lines[i].strip()
            i += 1
            if not line.startswith("fray ") or "|" in line or ">" in line or "<" in line:
                continue
            if " serve" in line[:11]:
                continue
            try:
                words = shlex.split(line)
            except ValueError:
                continue
            out.append((os.path.basename(path), words))
    return out


# seeded plays of each rule set's game: every action, its odds, --json,
# the log's formats and undo (the docs' plays are seedless: unstable)
GAMES = [
    "fray table new p.yaml --rules presidio --forces examples/presidio/forces.yaml --seed 5",
    "fray table p.yaml shoot Presidials --at Apaches --range 10 --odds --json",
    "fray table p.yaml shoot Presidials --at Apaches --range 10 --odds",
    "fray table p.yaml shoot Presidials --at Apaches --range 10 --mode volley",
    "fray table p.yaml shoot Apaches --at Presidials --range 8 --json",
    "fray table p.yaml charge Cueras --at Comanches --reaction melee --json",
    "fray table p.yaml turn",
    "fray table p.yaml rally Comanches",
    "fray table p.yaml move Cueras --run",
    "fray table p.yaml status --json",
    "fray table p.yaml status",
    "fray table p.yaml undo",
    "fray table p.yaml log --markdown",
    "fray table p.yaml log --json",
    "fray table p.yaml log",
    "fray table new b.yaml --rules bbb --forces examples/bbb/forces.yaml --seed 1863",
    "fray table b.yaml fire \"Iron Brigade\" --at \"Georgia Brigade\" --range 5 --odds --json",
    "fray table b.yaml fire \"Iron Brigade\" --at \"Georgia Brigade\" --range 5",
    "fray table b.yaml assault \"Texas Brigade\" --at \"1st Brigade\" --json",
    "fray table b.yaml move \"Georgia Brigade\"",
    "fray table b.yaml turn",
    "fray table b.yaml status --json",
    "fray table b.yaml log --json",
    "fray table new c.yaml --rules chits --forces examples/chits/forces.yaml --seed 1809",
    "fray table c.yaml combat Bylant --at \"Karl Franz\" --tactic hasty --stance defend --terrain village --attacker-cdr 17 --defender-cdr 6 --draw 5 --odds --json",
    "fray table c.yaml combat Bylant --at \"Karl Franz\" --tactic hasty --stance defend --terrain village --attacker-cdr 17 --defender-cdr 6 --draw 5 --json",
    "fray table c.yaml end-turn Bylant --rest",
    "fray table c.yaml turn --json",
    "fray table c.yaml status --json",
    "fray table c.yaml log",
]


def run(fray, words, cwd):
    try:
        r = subprocess.run([fray] + words[1:], cwd=cwd, stdin=subprocess.DEVNULL, capture_output=True,
                           timeout=30)
        return "exit %d\n--- stdout\n%s\n--- stderr\n%s" % (
            r.returncode, r.stdout.decode("utf-8", "replace"), r.stderr.decode("utf-8", "replace"))
    except subprocess.TimeoutExpired:
        return "timeout"


def capture_once(fray, source, out):
    os.makedirs(out, exist_ok=True)
    work = tempfile.mkdtemp(prefix="fray-golden-")
    try:
        for d in ("examples", "data", "templates", "bench"):
            if os.path.isdir(os.path.join(source, d)):
                shutil.copytree(os.path.join(source, d), os.path.join(work, d))
        n = 0
        for doc, words in doc_commands(source):
            n += 1
            with open(os.path.join(out, "doc-%03d.txt" % n), "w", encoding="utf-8") as f:
                f.write("%s: %s\n%s" % (doc, shlex.join(words), run(fray, words, work)))
        for k, line in enumerate(GAMES):
            words = shlex.split(line)
            with open(os.path.join(out, "game-%03d.txt" % k), "w", encoding="utf-8") as f:
                f.write("%s\n%s" % (line, run(fray, words, work)))
        procs = json.loads(subprocess.run([fray, "procedures", "--json"], capture_output=True, check=True,
                                          cwd=work).stdout)["procedures"]
        for p in procs:
            name = p["name"]
            with open(os.path.join(out, "help-%s.txt" % name), "w", encoding="utf-8") as f:
                f.write(run(fray, ["fray"] + p["command"].split() + ["--help"], work))
            example = p.get("example")
            if not example:
                continue
            for mode in p.get("modes", []):
                for fmt in ("json", "text"):
                    req = {"procedure": name, "mode": mode, "inputs": json.loads(example)
                           if isinstance(example, str) else example, "seed": 7, "format": fmt}
                    if mode == "simulate":
                        req["trials"] = 500
                    r = subprocess.run([fray, "request", "-"], input=json.dumps(req).encode(), cwd=work,
                                       capture_output=True, timeout=60)
                    with open(os.path.join(out, "req-%s-%s-%s.txt" % (name, mode, fmt)), "wb") as f:
                        f.write(b"exit %d\n" % r.returncode + r.stdout + b"\n--- stderr\n" + r.stderr)
        # the games the docs built, as files
        for root, _, files in os.walk(work):
            for fn in files:
                full = os.path.join(root, fn)
                rel = os.path.relpath(full, work)
                if rel.split(os.sep)[0] in ("examples", "data", "templates", "bench"):
                    continue
                shutil.copy(full, os.path.join(out, "file-" + rel.replace(os.sep, "_")))
    finally:
        shutil.rmtree(work, ignore_errors=True)


def capture(fray, source, out):
    a, b = out + ".a", out + ".b"
    for d in (a, b, out):
        shutil.rmtree(d, ignore_errors=True)
    capture_once(fray, source, a)
    capture_once(fray, source, b)
    os.rename(a, out)
    unstable = [f for f in sorted(os.listdir(out)) if not os.path.exists(os.path.join(b, f)) or
                open(os.path.join(out, f), "rb").read() != open(os.path.join(b, f), "rb").read()]
    shutil.rmtree(b)
    with open(os.path.join(out, "UNSTABLE"), "w") as f:
        f.write("".join(u + "\n" for u in unstable))
    print("captured %d files (%d unstable) in %s" % (len(os.listdir(out)) - 1, len(unstable), out))


def keyed(folder):
    """Files by name, except the docs' commands, which are paired by their
    first line (the command): a new command in the docs renumbers the rest.
    Returns the files and the keys of the unstable ones."""
    out, unstable = {}, set()
    skip = set(open(os.path.join(folder, "UNSTABLE")).read().split())
    for n in os.listdir(folder):
        if n == "UNSTABLE":
            continue
        key = n
        if n.startswith("doc-"):
            with open(os.path.join(folder, n), "rb") as f:
                key = "doc: " + f.readline().decode("utf-8", "replace").rstrip("\n")
            while key in out:  # the same command twice in the docs
                key += " (again)"
        out[key] = os.path.join(folder, n)
        if n in skip:
            unstable.add(key)
    return out, unstable


def compare(old, new):
    (a, ua), (b, ub) = keyed(old), keyed(new)
    keys = (set(a) | set(b)) - ua - ub
    changed = 0
    for k in sorted(keys):
        if k not in a or k not in b:
            print("only in %s: %s" % (old if k in a else new, k))
            changed += 1
        elif open(a[k], "rb").read() != open(b[k], "rb").read():
            print("differs: %s (%s)" % (k, os.path.basename(b[k])))
            changed += 1
    print("%d of %d differ" % (changed, len(keys)))
    return 1 if changed else 0


if __name__ == "__main__":
    if len(sys.argv) == 5 and sys.argv[1] == "capture":
        capture(os.path.abspath(sys.argv[2]), sys.argv[3], sys.argv[4])
    elif len(sys.argv) == 4 and sys.argv[1] == "compare":
        sys.exit(compare(sys.argv[2], sys.argv[3]))
    else:
        sys.exit(__doc__)
