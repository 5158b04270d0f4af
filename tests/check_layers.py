#!/usr/bin/env python3
"""The layers' arrows point down only (docs/design.md, Layers as folders):
every quoted #include under src/ may reach only the folders its own layer
may use. A file's own folder is always allowed; <fray/...> (the public API)
is always allowed. A rule set never includes another. Usage: SOURCE_DIR"""
import os
import re
import sys

# layer -> the other top folders of src/ it may include from
ALLOWED = {
    "cli": {"common", "serve"},          # the command: the server, never the library's insides
    "serve": {"common"},                 # the server: the public API only
    "wasm": {"common"},                  # libfray in WebAssembly's entry point: the public API only
    # the one door for fray serve and the WebAssembly build (fray_api_call):
    # the page's API paths over the game and the catalogue
    "api": {"common", "catalog", "game", "core"},
    # the game, once in the library (issue 30: src/game/ or src/table/)
    "game": {"common", "catalog", "rules", "core"},
    "table": {"common", "catalog", "rules", "core"},
    "catalog": {"common", "core", "rules"},
    # designers' tools (sweeps): beside the catalogue, on the rules' public API
    "design": {"common", "core"},
    "rules": {"common", "core"},
    "core": {"common"},
    "common": set(),
}
# Known exceptions, each to go (the list only shrinks: one that no longer
# happens is reported). None left: fray table reaches the game through
# include/fray/game.h alone (issue 30).
EXCEPTIONS = set()
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def layer_of(rel):
    """('rules', 'adbg') for src/rules/adbg/x.c, ('cli', None) for src/cli/x.c"""
    parts = rel.split(os.sep)
    return parts[1], parts[2] if parts[1] == "rules" and len(parts) > 3 else None


def main():
    root = sys.argv[1]
    src = os.path.join(root, "src")
    # bare names found through the include path (-I src/common)
    common = os.path.join(src, "common")
    problems = []
    used = set()
    for dirpath, _, files in os.walk(src):
        for name in sorted(files):
            if not name.endswith((".c", ".h")):
                continue
            path = os.path.join(dirpath, name)
            rel = os.path.relpath(path, root)
            layer, ruleset = layer_of(rel)
            if layer not in ALLOWED:
                problems.append("%s: a folder no layer names (docs/design.md)" % rel)
                continue
            with open(path, encoding="utf-8") as f:
                for n, line in enumerate(f, 1):
                    m = INCLUDE.match(line)
                    if not m:
                        continue
                    target = os.path.normpath(os.path.join(dirpath, m.group(1)))
                    if not os.path.exists(target) and os.path.exists(os.path.join(common, m.group(1))):
                        target = os.path.join(common, m.group(1))
                    trel = os.path.relpath(target, root)
                    if not trel.startswith("src" + os.sep):
                        problems.append("%s:%d: includes %s, outside src/" % (rel, n, m.group(1)))
                        continue
                    tlayer, truleset = layer_of(trel)
                    if tlayer == layer:
                        if layer == "rules" and truleset != ruleset:
                            problems.append("%s:%d: rule set %s includes rule set %s (%s)"
                                            % (rel, n, ruleset, truleset, m.group(1)))
                        continue
                    if tlayer not in ALLOWED[layer] and (rel, m.group(1)) in EXCEPTIONS:
                        used.add((rel, m.group(1)))
                    elif tlayer not in ALLOWED[layer]:
                        problems.append("%s:%d: %s includes %s (%s): an arrow pointing up or sideways"
                                        % (rel, n, layer, tlayer, m.group(1)))
    for rel, inc in sorted(EXCEPTIONS - used):
        problems.append("%s: no longer includes %s: take it off EXCEPTIONS" % (rel, inc))
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
