#!/usr/bin/env python3
"""Checks every --json output of fray against its schema in docs/json/.

Usage: validate.py FRAY SOURCE_DIR [--cases]

--cases runs only the lines of cases.txt and the refusals of --json: the
command line's own paths, which `make test` runs under ASan; the whole
check (the catalogue's examples through `fray request` and the coverage)
runs from the Release build (label release), since every example's memory
is checked under ASan by catalog/test_request, in every mode, in-process.

Runs each line of tests/json/cases.txt, parses what fray printed as strict
JSON (no NaN, no duplicate keys, one document) and validates it against the
schema the line names (Draft 2020-12, python3-jsonschema). A procedure's
outcome is further validated against docs/json/outcomes.schema.json under
the procedure's name. Then coverage: every procedure `fray help RULESET`
lists has a rolled and an odds case here, or is known to print no JSON and
is checked to refuse --json; every catalogue procedure's example is run
in each of its modes and its outcomes validated; every outcome schema is
used.
"""
import json
import os
import shlex
import subprocess
import sys
import tempfile

import jsonschema

# Commands that print text only: each must refuse --json (exit 2), not
# ignore it.
NO_JSON = {
    "check": "check --json {ex}/adbg/lochry-1781.yaml",
    "bbb night": "bbb night --json",
    "bbb table": "bbb table fire --json",
    "chits ratio": "chits ratio --attacker-cdr 3 --defender-cdr 2 --json",
    "presidio weapons": "presidio weapons --json",
    "presidio units": "presidio units {ex}/presidio/units.yaml --json",
    "presidio victory": "presidio victory --json",
}
# Procedures that are not one rules procedure (their own schemas) and
# aliases: the key is covered by the value's cases.
NOT_PROCEDURES = {"adbg battle", "adbg resume", "adbg odds", "adbg simulate", "adbg sweep",
                  "chits advise", "presidio pursuit"}
ALIASES = {"presidio stampede": "presidio ram"}
# Catalogue procedures whose output has a shape of its own, by mode.
OWN_SCHEMAS = {"adbg.battle": {"roll": "adbg-battle", "odds": "adbg-odds", "simulate": "adbg-simulate"},
               "chits.combat": {"roll": "chits-combat"},
               "chits.advise": {"odds": "chits-advise"}}

failures = []
used_by_examples = set()  # outcome schemas checked on the catalogue's examples


def fail(msg):
    failures.append(msg)
    print("FAIL " + msg, file=sys.stderr)


def strict_json(text):
    def no_constant(name):
        raise ValueError("%s is not JSON" % name)

    def no_duplicates(pairs):
        obj = {}
        for k, v in pairs:
            if k in obj:
                raise ValueError("duplicate key %r" % k)
            obj[k] = v
        return obj

    return json.loads(text, parse_constant=no_constant, object_pairs_hook=no_duplicates)


def load_schemas(folder):
    store, by_name = {}, {}
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".schema.json"):
            continue
        with open(os.path.join(folder, name), encoding="utf-8") as f:
            schema = strict_json(f.read())
        jsonschema.Draft202012Validator.check_schema(schema)
        store[schema["$id"]] = schema
        by_name[name[: -len(".schema.json")]] = schema
    return store, by_name


def validator(schema, store):
    resolver = jsonschema.RefResolver.from_schema(schema, store=store)
    return jsonschema.Draft202012Validator(schema, resolver=resolver)


def command_key(args):
    """'presidio shoot' for ['presidio', 'shoot', ...]; 'roll' for roll."""
    if args[0] in ("adbg", "bbb", "chits", "presidio"):
        key = " ".join(args[:2])
        return ALIASES.get(key, key)
    return args[0]


def check_catalogue(fray, root, store, schemas, outcomes, tmp):
    """The catalogue against the schemas: docs/json/request.schema.json is
    what scripts/gen_request_schema.py makes of it; each procedure's outcome
    fields are its outcome schema's; each example runs through `fray
    request` and gives a valid response."""
    sys.path.insert(0, os.path.join(root, "scripts"))
    import gen_request_schema
    with open(os.path.join(root, "docs", "json", "request.schema.json"), encoding="utf-8") as f:
        if f.read() != gen_request_schema.generate(fray):
            fail("docs/json/request.schema.json is not what the catalogue makes: run "
                 "scripts/gen_request_schema.py FRAY > docs/json/request.schema.json")
    catalogue = strict_json(subprocess.run([fray, "procedures", "--json"], capture_output=True,
                                           text=True, check=True).stdout)
    request_v = validator(schemas["request"], store)
    for p in catalogue["procedures"]:
        name = p["name"]
        own = OWN_SCHEMAS.get(name, {})
        fields = {f["name"] for f in p["outcome"]}
        declared = set(outcomes["$defs"].get(name, {}).get("properties", {}))
        if (not own or name in outcomes["$defs"]) and fields != declared:
            fail("%s: the catalogue's outcome fields %s, outcomes.schema.json's %s"
                 % (name, sorted(fields), sorted(declared)))
        for mode in p["modes"]:
            req = {"procedure": name, "mode": mode, "inputs": p["example"]}
            if mode in ("roll", "simulate"):
                req["seed"] = 3
            if mode == "simulate" or (mode == "odds" and name == "adbg.battle"):
                req["trials"] = 2000  # quick, under valgrind too (a battle's odds may simulate)
            for e in request_v.iter_errors(req):
                fail("%s: the example request: %s" % (name, e.message))
            run = subprocess.run([fray, "request", "-"], input=json.dumps(req), capture_output=True,
                                 text=True, cwd=root)
            if run.returncode != 0:
                fail("%s: fray request: exit %d: %s" % (name, run.returncode, run.stderr.strip()))
                continue
            kind = own.get(mode) or \
                {"roll": "procedure-roll", "odds": "procedure-odds", "simulate": "procedure-simulate"}[mode]
            doc = strict_json(run.stdout)
            for e in validator(schemas[kind], store).iter_errors(doc):
                fail("%s: fray request (%s): %s" % (name, mode, e.message))
            # the example's outcomes (rolled, exact odds, simulated) against the procedure's
            # outcome schema: a new procedure needs no line in cases.txt
            if not own and name in outcomes["$defs"]:
                used_by_examples.add(name)
                v = validator({"$ref": "urn:fray:outcomes#/$defs/" + name}, store)
                found = [doc["outcome"]] if mode == "roll" else [o["outcome"] for o in doc.get("outcomes", [])]
                for o in found:
                    for e in v.iter_errors(o):
                        fail("%s: fray request (%s): outcome %s: %s" % (name, mode, json.dumps(o), e.message))


def main():
    fray, root = sys.argv[1], sys.argv[2]
    cases_only = sys.argv[3:] == ["--cases"]
    if sys.argv[3:] and not cases_only:
        raise SystemExit("usage: validate.py FRAY SOURCE_DIR [--cases]")
    store, schemas = load_schemas(os.path.join(root, "docs", "json"))
    outcomes = schemas["outcomes"]
    tmp = tempfile.mkdtemp(prefix="fray-json-")
    subst = {"ex": os.path.join(root, "examples"), "data": os.path.join(root, "tests", "json", "data"),
             "root": root, "tmp": tmp}
    seen = {}            # command key -> set of schema names
    used_outcomes = set()
    ncases = 0
    with open(os.path.join(root, "tests", "json", "cases.txt"), encoding="utf-8") as f:
        lines = [(i + 1, l.rstrip("\n")) for i, l in enumerate(f)]
    for lineno, line in lines:
        if not line.strip() or line.startswith("#"):
            continue
        ncases += 1
        where = "cases.txt:%d" % lineno
        head, _, argtext = line.partition(" | ")
        name, _, save = head.partition(" > ")
        name, save = name.strip(), save.strip().format(**subst)
        args = [a.format(**subst) for a in shlex.split(argtext)]
        run = subprocess.run([fray] + args, capture_output=True, text=True, timeout=600)
        if run.returncode != 0:
            fail("%s: fray %s: exit %d: %s" % (where, argtext, run.returncode, run.stderr.strip()))
            continue
        if save:
            with open(save, "w", encoding="utf-8") as out:
                out.write(run.stdout)
        try:
            doc = strict_json(run.stdout)
        except ValueError as e:
            fail("%s: fray %s: not one JSON document: %s" % (where, argtext, e))
            continue
        if name not in schemas:
            fail("%s: no schema docs/json/%s.schema.json" % (where, name))
            continue
        errors = sorted(validator(schemas[name], store).iter_errors(doc), key=lambda e: list(e.path))
        for e in errors[:5]:
            fail("%s: fray %s: %s at %s" % (where, argtext, e.message, "/".join(map(str, e.path))))
        if name in ("procedure-roll", "procedure-odds"):
            proc = doc.get("procedure", "")
            if proc not in outcomes["$defs"]:
                fail("%s: no outcome schema for %r in outcomes.schema.json" % (where, proc))
            else:
                used_outcomes.add(proc)
                sub = {"$ref": "urn:fray:outcomes#/$defs/" + proc}
                v = validator(sub, store)
                found = [doc["outcome"]] if name == "procedure-roll" else \
                    [o["outcome"] for o in doc.get("outcomes", [])]
                for o in found:
                    for e in v.iter_errors(o):
                        fail("%s: fray %s: outcome %s: %s" % (where, argtext, json.dumps(o), e.message))
        seen.setdefault(command_key(args), set()).add(name)

    # coverage: every procedure of every rule set, by a line of cases.txt
    # or by its catalogue example, run in each of its modes and its outcomes
    # validated (so a new procedure needs no line here)
    if not cases_only:
        check_catalogue(fray, root, store, schemas, outcomes, tmp)
    for ruleset in ("adbg", "bbb", "chits", "presidio") if not cases_only else ():
        text = subprocess.run([fray, "help", ruleset], capture_output=True, text=True).stdout
        for l in text.splitlines():
            words = l.split()
            if len(words) < 3 or words[0] != "fray" or words[1] != ruleset or words[2].isupper():
                continue
            key = ruleset + " " + words[2]
            key = ALIASES.get(key, key)
            if key in NO_JSON or key.replace(" ", ".", 1).replace("-", "_") in used_by_examples:
                continue
            if key not in seen:
                fail("fray %s: no case in tests/json/cases.txt" % key)
            elif key not in NOT_PROCEDURES and key != "chits combat" and \
                    not {"procedure-roll", "procedure-odds"} <= seen[key]:
                fail("fray %s: needs a rolled and an odds case (has %s)" % (key, sorted(seen[key])))
    for key, line in NO_JSON.items():
        args = [a.format(**subst) for a in shlex.split(line)]
        r = subprocess.run([fray] + args, capture_output=True, text=True)
        if r.returncode != 2 or "--json" not in r.stderr:
            fail("fray %s: prints no JSON, so it must refuse --json (exit %d)" % (line, r.returncode))
    for proc in outcomes["$defs"] if not cases_only else ():
        if proc not in used_outcomes and proc not in used_by_examples:
            fail("outcomes.schema.json: %s is never checked" % proc)

    print("json: %d outputs checked against %d schemas%s, %d failures"
          % (ncases, len(schemas), " (cases.txt only)" if cases_only else "", len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
