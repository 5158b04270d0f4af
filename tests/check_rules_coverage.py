#!/usr/bin/env python3
"""Checks the code references of docs/rules-coverage.md against the tree.

The format (documented at the top of rules-coverage.md): in every table
row, the cells of the columns headed "code" and "test" name things in
backticks, each one of:
  - a path (it has a '/' or a file suffix such as .c, .py, .yaml; '*'
    allowed): it must exist, from the repository's root or from a
    directory the section's introduction names (`src/rules/adbg/`, or the
    directory of a path it names);
  - a name (letters, digits, '_'): in the code column a whole word of a file
    under src/, include/, data/ or examples/; in the test column a test: a C
    function (`void NAME(`) or a Python `def NAME(` under tests/, or a
    CTest name;
  - a name ending in '*' (`fray_bbb_move_*`): some name in the code begins so;
  - a dotted key (`leader_loss.after_fire`): each part is a name in the code;
  - a command line or an option (`--town`, `morale --charged`): each
    `--option` is an input of the catalogue (its name, '-' read as '_', is
    a word of the code);
  - anything else (a key `mounted: true`, a piece of code `col[0] == k`):
    it must appear as written in a file of the tree.
Run: check_rules_coverage.py [ROOT]; exit status 1 and one line per
reference not found.
"""
import glob
import os
import re
import sys

ROOT = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), ".."))
DOC = os.path.join(ROOT, "docs", "rules-coverage.md")
SUFFIXES = (".c", ".h", ".py", ".yaml", ".yml", ".md", ".txt", ".sh", ".json")
IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def files_under(*dirs):
    out = []
    for d in dirs:
        for base, _, names in os.walk(os.path.join(ROOT, d)):
            out += [os.path.join(base, n) for n in names]
    return out


def read_all(paths):
    text = {}
    for p in paths:
        try:
            with open(p, encoding="utf-8", errors="replace") as f:
                text[p] = f.read()
        except OSError:
            pass
    return text


CODE = read_all(files_under("src", "include", "data", "examples"))
TESTS = read_all(files_under("tests"))
EVERYTHING = dict(CODE, **TESTS)
CMAKE = TESTS.get(os.path.join(ROOT, "tests", "CMakeLists.txt"), "")
CTEST_NAMES = set(re.findall(r"add_test\(NAME\s+(\S+)", CMAKE))
CTEST_NAMES |= {"%s/%s" % m for m in re.findall(r"fray_test\((\S+) (\S+)\)", CMAKE)}


def is_path(ref):
    return "/" in ref or ref.endswith(SUFFIXES)


def path_exists(ref, bases):
    for base in [""] + bases:
        if glob.glob(os.path.join(ROOT, base, ref)):
            return True
    return False


WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
CODE_WORDS = {w for t in CODE.values() for w in WORD.findall(t)}
TEST_NAMES = {m for t in TESTS.values() for m in re.findall(r"(?:\bvoid\s+|\bdef\s+)([A-Za-z_][A-Za-z0-9_]*)\s*\(", t)}


def word_in(word, texts):
    return word in CODE_WORDS


def is_test(name):
    return name in TEST_NAMES or name in CTEST_NAMES


def check(ref, column, bases):
    options = re.findall(r"--([A-Za-z0-9-]+)", ref)
    if options:  # a command line: each option is an input of the catalogue
        return all(word_in(o.replace("-", "_"), CODE) for o in options)
    if is_path(ref):
        return path_exists(ref, bases)
    if IDENT.match(ref):
        return is_test(ref) if column == "test" else word_in(ref, CODE)
    if re.match(r"^[A-Za-z_][A-Za-z0-9_]*\*$", ref):  # names that begin so
        return any(w.startswith(ref[:-1]) for w in CODE_WORDS)
    if re.match(r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)+$", ref):  # a key in a data file
        return all(word_in(part, CODE) for part in ref.split("."))
    return any(ref in t for t in EVERYTHING.values())


def section_bases(intro):
    bases = []
    for ref in re.findall(r"`([^`]+)`", intro):
        if ref.endswith("/"):
            bases.append(ref)
        elif "/" in ref:
            bases.append(os.path.dirname(ref) + "/")
    return bases


def main():
    with open(DOC, encoding="utf-8") as f:
        lines = f.read().split("\n")
    problems = []
    intro, bases, columns, checked = [], [], None, 0
    for n, line in enumerate(lines, 1):
        if line.startswith("#"):
            intro, bases, columns = [], [], None
            continue
        if not line.startswith("|"):
            if columns is None:
                intro.append(line)
            else:
                columns = None
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if columns is None:
            columns = [c.lower() for c in cells]
            bases = section_bases("\n".join(intro))
            continue
        if all(set(c) <= set("-: ") for c in cells):
            continue
        for col, cell in zip(columns, cells):
            if col not in ("code", "test"):
                continue
            for ref in re.findall(r"`([^`]+)`", cell):
                checked += 1
                if not check(ref, col, bases):
                    problems.append("docs/rules-coverage.md:%d: %s `%s` not found in the tree" % (n, col, ref))
    for p in problems:
        print(p)
    if checked < 100:
        print("docs/rules-coverage.md: only %d references read: is the table format still the one described?" %
              checked)
        return 1
    print("%d references checked, %d not found" % (checked, len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
