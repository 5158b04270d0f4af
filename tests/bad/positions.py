#!/usr/bin/env python3
"""An independent check of the places in tests/bad/cases.txt.

Where an expected message names what it found ("found '9'", "unknown key
'wether'", "invalid UTF-8 byte 0xe9", "duplicate key 'a'"), the file must
hold exactly that at the line and column the message gives. This does not
run fray: it reads the files, so a column copied wrongly into cases.txt
fails here even if fray printed it.

Usage: positions.py   (from any folder)
"""
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
PLACE = re.compile(r": (files/[^:]+):(\d+):(\d+): (.*)$")
# what the message says is at the place
FOUND = [re.compile(p) for p in (r"found '([^']*)'$", r"unknown key '([^']*)'",
                                 r"duplicate key '([^']*)'", r"unit type '([^']*)' is given twice",
                                 r"named '([^']*)'")]
BYTE = re.compile(r"invalid UTF-8 byte 0x([0-9a-f]{2})")


def text_at(data, line, col):
    """The bytes from line:col (1-based; columns count bytes, as fray's do)."""
    lines = data.split(b"\n")
    if line > len(lines):
        return None
    return lines[line - 1][col - 1:]


def scalar(at):
    """The plain or quoted scalar at the start of at."""
    s = at.decode("utf-8", "replace")
    if s[:1] in "\"'":
        return s[1:s.find(s[0], 1)]
    # a plain scalar ends at a flow indicator, a comment or a key's ": "
    return re.split(r"[,}\]#]|:\s|:$", s)[0].strip()


def other_checks(at, msg):
    """None when the message says nothing checkable; "" when the place
    agrees with it; else what is wrong."""
    if at is None:
        return "no such line"
    one_of = re.search(r": one of ([a-z -]+(?:, [a-z -]+)*)$", msg)
    if one_of:
        options = one_of.group(1).split(", ")
        v = scalar(at)
        if not v or v in options or at.decode("utf-8", "replace").startswith(v + ":"):
            return "%r is not a wrong value of %s" % (v, options)
        return ""
    kind = re.search(r"found (a list|a mapping|a value)$", msg)
    if kind:
        opens = {"a list": "[-", "a mapping": "{"}.get(kind.group(1))
        first = at.decode("utf-8", "replace")[:1]
        if opens is None:
            return "" if first and first not in "[{-" else "%r is not a value" % first
        if first in opens:
            return ""
        # a block mapping starts with a key
        return "" if kind.group(1) == "a mapping" and re.match(rb"[A-Za-z_]+:", at) else \
            "%r does not start %s" % (first, kind.group(1))
    return None


def main():
    checked = failed = 0
    with open(os.path.join(HERE, "cases.txt"), encoding="utf-8") as f:
        for lineno, case in enumerate(f, 1):
            if case.startswith("#") or not case.strip():
                continue
            m = PLACE.search(case.rstrip("\n"))
            if not m:
                continue
            path, line, col, msg = m.group(1), int(m.group(2)), int(m.group(3)), m.group(4)
            with open(os.path.join(HERE, path), "rb") as g:
                at = text_at(g.read(), line, col)
            want = None
            b = BYTE.search(msg)
            if b:
                want = bytes([int(b.group(1), 16)])
            else:
                for rx in FOUND:
                    x = rx.search(msg)
                    if x:
                        want = x.group(1).encode("utf-8")
                        break
            if want is None:
                problem = other_checks(at, msg)
                if problem is None:
                    continue
                checked += 1
                if problem:
                    failed += 1
                    print("FAIL cases.txt:%d: %s:%d:%d: %s" % (lineno, path, line, col, problem))
                continue
            checked += 1
            if at is None or not (at.startswith(want) or at.lstrip(b"\"'").startswith(want)):
                failed += 1
                print("FAIL cases.txt:%d: %s:%d:%d holds %r, not %r" % (lineno, path, line, col, at, want))
    print("bad-input places: %d checked against the files, %d wrong" % (checked, failed))
    return 1 if failed or checked == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
