#!/usr/bin/env python3
"""The JSON Schema of fray_request's requests, generated from the catalogue
(`fray procedures --json`): one branch per procedure, its inputs typed as the
library checks them. Usage: gen_request_schema.py FRAY > docs/json/request.schema.json
(tests/json/validate.py checks the file in the tree is what this makes)."""
import json
import subprocess
import sys

TYPES = {"int": "integer", "number": "number", "bool": "boolean", "choice": "string", "string": "string",
         "file": "string"}


# a file input: a path, or the document itself (what fray serve takes)
DOCUMENT = {"type": "object", "properties": {"name": {"type": "string"}, "text": {"type": "string"}},
            "required": ["name", "text"], "additionalProperties": False}


def input_schema(i):
    s = {"type": TYPES[i["type"]], "description": "%s [%s]" % (i["help"], i["rule"])}
    if i["type"] == "file":
        del s["type"]
        s["oneOf"] = [{"type": "string", "description": "a path (or a shipped example's)"}, DOCUMENT]
    if i["type"] in ("int", "number"):
        s["minimum"], s["maximum"] = i["min"], i["max"]
    if i["type"] == "choice":
        s["enum"] = i["choices"]
    if "default" in i:
        s["default"] = i["default"]
    return s


def request_schema(catalogue):
    branches = []
    for p in catalogue["procedures"]:
        inputs = {"type": "object", "properties": {i["name"]: input_schema(i) for i in p["inputs"]},
                  "additionalProperties": False}
        required = [i["name"] for i in p["inputs"] if i["required"]]
        if required:
            inputs["required"] = required
        # an input given excludes others (the descriptor's "excludes")
        excludes = {i["name"]: {"not": {"anyOf": [{"required": [e]} for e in i["excludes"]]}}
                    for i in p["inputs"] if i.get("excludes")}
        if excludes:
            inputs["dependentSchemas"] = excludes
        branch = {
            "description": "%s (%s)" % (p["summary"], p["rules"]),
            "properties": {
                "procedure": {"const": p["name"]},
                "mode": {"enum": p["modes"]},
                "inputs": inputs,
            },
        }
        if required:
            branch["required"] = ["inputs"]
        branches.append(branch)
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "urn:fray:request",
        "title": "a fray_request request (fray request FILE)",
        "description": "Generated from the catalogue by scripts/gen_request_schema.py: do not edit. "
                       "The inputs a procedure always needs and those that exclude each other are "
                       "here; what else goes together (a unit form, a file or its inputs), the "
                       "library says.",
        "type": "object",
        "properties": {
            "procedure": {"type": "string"},
            "mode": {"enum": ["roll", "odds", "simulate"]},
            "inputs": {"type": "object"},
            "seed": {"type": "integer", "minimum": 0, "maximum": 18446744073709551615},
            "trials": {"type": "integer", "minimum": 1, "maximum": 100000000},
            "format": {"enum": ["json", "text"]},
        },
        "required": ["procedure"],
        "additionalProperties": False,
        "oneOf": branches,
    }


def generate(fray):
    out = subprocess.run([fray, "procedures", "--json"], capture_output=True, text=True, check=True).stdout
    return json.dumps(request_schema(json.loads(out)), indent=2) + "\n"


if __name__ == "__main__":
    sys.stdout.write(generate(sys.argv[1]))
