#!/usr/bin/env python3
"""Validates JSON files against one of rpbench's schemas (data/schema/).

usage: validate.py [--golden] SCHEMA FILE...

--golden: the files are golden copies (tests/golden/), where the values
that differ from run to run are masked as the strings "<masked>" and
"<real>"; a masked value stands for any value, so every keyword accepts
it, and everything else is checked as in a real result."""
import json
import sys

import jsonschema
from jsonschema import validators

MASKS = ("<masked>", "<real>")


def golden_validator(base):
    """base with every keyword accepting a masked value."""
    def lenient(check):
        def run(validator, value, instance, schema):
            if isinstance(instance, str) and instance in MASKS:
                return
            yield from check(validator, value, instance, schema)
        return run
    checks = {k: lenient(v) for k, v in base.VALIDATORS.items()
              if k not in ("$ref", "$dynamicRef", "allOf", "anyOf", "oneOf", "not", "if")}
    return validators.extend(base, checks)


def main(argv):
    golden = argv[:1] == ["--golden"]
    if golden:
        argv = argv[1:]
    if len(argv) < 2:
        sys.stderr.write(__doc__)
        return 2
    with open(argv[0], encoding="utf-8") as f:
        schema = json.load(f)
    base = validators.validator_for(schema)
    base.check_schema(schema)
    cls = golden_validator(base) if golden else base
    v = cls(schema)
    bad = 0
    for path in argv[1:]:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
        errors = sorted(v.iter_errors(doc), key=lambda e: list(e.absolute_path))
        for e in errors:
            where = "/".join(str(p) for p in e.absolute_path) or "(top)"
            print(f"{path}: {where}: {e.message}")
        bad += bool(errors)
        if not errors:
            print(f"{path}: valid ({schema.get('title', argv[0])}, jsonschema {jsonschema_version()})")
    return 1 if bad else 0


def jsonschema_version():
    try:
        from importlib.metadata import version
        return version("jsonschema")
    except Exception:
        return "?"


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
