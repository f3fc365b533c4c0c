#!/usr/bin/env python3
"""The JSON Schemas hintkit prints, checked with a real validator (python3-jsonschema).

1. `hintkit schema hint-file` and every `describe -o json-schema` are valid draft 2020-12
   schemas (checked against the meta-schema).
2. Every hint file in fixtures/ and examples/ that `hintkit lint` accepts validates against the
   hint-file schema; hand-made broken hint files (unknown key, bad type, required + default,
   format on a slice, a rule with one var) are rejected by it.
3. Differential: random hint files and random values; `hintkit resolve` and the validator with
   the manifest's schema must agree on accept/reject for every pair. Formats in the random
   hints are the ones the schema asserts with a pattern (email, uuid, semver, hostname).

usage: json_schema_differential.py HINTKIT REPO_ROOT [SEED] [HINTS] [VALUES_PER_HINT]
Prints "N passed, M failed" and exits non-zero on any failure.
"""
import json
import os
import random
import subprocess
import sys
import tempfile

import jsonschema

HINTKIT, ROOT = sys.argv[1], sys.argv[2]
SEED = int(sys.argv[3]) if len(sys.argv) > 3 else 7
HINTS = int(sys.argv[4]) if len(sys.argv) > 4 else 60
VALUES = int(sys.argv[5]) if len(sys.argv) > 5 else 12
V = jsonschema.Draft202012Validator

passed = failed = 0


def check(ok, what):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print("FAIL:", what)


def hintkit(*args, cwd=None):
    return subprocess.run([HINTKIT, *args], cwd=cwd, capture_output=True, text=True)


# --- 1 and 2: the hint-file schema --------------------------------------------------------
p = hintkit("schema", "hint-file")
check(p.returncode == 0, "schema hint-file exits 0")
hint_schema = json.loads(p.stdout)
try:
    V.check_schema(hint_schema)
    check(True, "")
except jsonschema.SchemaError as e:
    check(False, f"hint-file schema is not a valid schema: {e.message}")
hint_validator = V(hint_schema)


def yaml_load(path):
    # hintkit itself turns the YAML into JSON (describe -o json would need a valid hint);
    # resolve --values with a pass-through dir prints the mapping as JSON.
    with tempfile.TemporaryDirectory() as empty:
        r = hintkit("resolve", "--dir", empty, "--values", path, "-o", "json")
    return json.loads(r.stdout) if r.returncode == 0 else None


found = 0
for base in ("fixtures", "examples"):
    for dirpath, _, files in os.walk(os.path.join(ROOT, base)):
        for f in files:
            if f != "tazuna.hint.yaml":
                continue
            path = os.path.join(dirpath, f)
            if hintkit("lint", path).returncode != 0:
                continue
            doc = yaml_load(path)
            if doc is None:
                continue
            found += 1
            errors = list(hint_validator.iter_errors(doc))
            check(not errors, f"{path}: lint-clean but rejected by the hint-file schema: "
                  f"{errors[0].message if errors else ''}")
check(found >= 5, f"found lint-clean hint files to check ({found})")

broken = {
    "unknown key": {"vars": {"a": {"type": "string", "requird": True}}},
    "bad type": {"vars": {"a": {"type": "strnig"}}},
    "missing type": {"vars": {"a": {"required": True}}},
    "required and default": {"vars": {"a": {"type": "string", "required": True, "default": "x"}}},
    "required and required_with": {
        "vars": {"a": {"type": "string", "required": True, "required_with": ["b"]},
                 "b": {"type": "string"}}},
    "format on a slice": {"vars": {"a": {"type": "slice", "format": "ip"}}},
    "int default of a string": {"vars": {"a": {"type": "string", "default": 8080}}},
    "map default of a slice": {"vars": {"a": {"type": "slice", "default": {}}}},
    "list default of a map": {"vars": {"a": {"type": "map", "default": []}}},
    "unknown format": {"vars": {"a": {"type": "string", "format": "ipv4"}}},
    "required not a bool": {"vars": {"a": {"type": "string", "required": "true"}}},
    "vars a list": {"vars": [{"a": 1}]},
    "no vars": {"rules": []},
    "rule with one var": {"vars": {"a": {"type": "string"}},
                          "rules": [{"type": "oneof_required", "vars": ["a"]}]},
    "rule twice the same var": {"vars": {"a": {"type": "string"}},
                                "rules": [{"type": "oneof_required", "vars": ["a", "a"]}]},
    "unknown rule type": {"vars": {"a": {"type": "string"}, "b": {"type": "string"}},
                          "rules": [{"type": "allof_required", "vars": ["a", "b"]}]},
    "unknown top-level key": {"vars": {}, "var": {}},
}
for what, doc in broken.items():
    check(not hint_validator.is_valid(doc), f"hint-file schema accepts a broken hint: {what}")
for what, doc in {"empty vars": {"vars": {}},
                  "extensions": {"vars": {"a": {"type": "map", "x-note": 1}}, "x-owner": "t"},
                  "format none": {"vars": {"a": {"type": "string", "format": ""}}}}.items():
    check(hint_validator.is_valid(doc), f"hint-file schema rejects a valid hint: {what}")

# --- 3: random hints and values -----------------------------------------------------------
rng = random.Random(SEED)
FORMATS = {
    "email": (["ops@example.com", "a.b+c@x-y.io"], ["ops@", "no-at.example.com", "a@b.c"]),
    "uuid": (["123e4567-e89b-12d3-a456-426614174000"], ["123e4567e89b12d3a456426614174000"]),
    "semver": (["1.2.3", "v0.1.0-rc.1+build.5"], ["1.2", "01.2.3", "1.2.3-01"]),
    "hostname": (["api.example.com", "a-1"], ["-bad.com", "a..b", "under_score", "x" * 64]),
}


def scalar_for(var, valid=True):
    fmt = var.get("format")
    if fmt:
        good, bad = FORMATS[fmt]
        return rng.choice(good if valid else bad)
    return rng.choice(["x", "", "prod", 8080, 1.5, True, False])


def value_for(var, wrong_type=False):
    t = var["type"]
    if wrong_type:
        t = rng.choice([x for x in ("string", "slice", "map") if x != t])
    if t == "string":
        return scalar_for(var, valid=rng.random() < 0.75)
    if t == "slice":
        return rng.choice([[], ["a"], [1, "b"]])
    return rng.choice([{}, {"k": "v"}, {"n": {"m": 1}}])


def random_hint():
    names = [f"v{i}" for i in range(rng.randint(1, 6))]
    vars_ = {}
    for n in names:
        var = {"type": rng.choice(["string", "string", "slice", "map"])}
        if var["type"] == "string" and rng.random() < 0.4:
            var["format"] = rng.choice(sorted(FORMATS))
        others = [m for m in names if m != n]
        r = rng.random()
        if r < 0.3:
            var["required"] = True
        elif r < 0.5 and others:
            var["required_with"] = rng.sample(others, rng.randint(1, min(2, len(others))))
        elif r < 0.65 and others:
            var["required_without"] = rng.sample(others, rng.randint(1, min(2, len(others))))
        if not var.get("required") and rng.random() < 0.3:
            if var["type"] == "string":  # a default must be a string (HK114), unlike values
                var["default"] = rng.choice(FORMATS[var["format"]][0]) if "format" in var \
                    else rng.choice(["x", "", "prod"])
            else:
                var["default"] = value_for({"type": var["type"]})
        vars_[n] = var
    hint = {"vars": vars_}
    if len(names) >= 2 and rng.random() < 0.4:
        hint["rules"] = [{"type": "oneof_required", "vars": rng.sample(names, 2)}]
    return hint


def random_values(hint):
    values = {}
    for n, var in hint["vars"].items():
        r = rng.random()
        if r < 0.35:
            continue
        if r < 0.45:
            values[n] = None
        else:
            values[n] = value_for(var, wrong_type=rng.random() < 0.1)
    if rng.random() < 0.3:
        values["extra"] = rng.choice(["pass", 1, [1], {"a": 1}])
    return values


agree = total = 0
with tempfile.TemporaryDirectory() as tmp:
    for h in range(HINTS):
        hint = random_hint()
        d = os.path.join(tmp, f"h{h}")
        os.makedirs(d)
        with open(os.path.join(d, "tazuna.hint.yaml"), "w") as fh:
            json.dump(hint, fh)  # JSON is YAML
        lint = hintkit("lint", d)
        if lint.returncode != 0:
            check(False, f"generated hint is not lint-clean: {json.dumps(hint)}\n{lint.stdout}")
            continue
        check(hint_validator.is_valid(hint), f"generated hint rejected by hint-file schema: {hint}")
        p = hintkit("describe", d, "-o", "json-schema")
        schema = json.loads(p.stdout)
        try:
            V.check_schema(schema)
        except jsonschema.SchemaError as e:
            check(False, f"vars schema invalid for {hint}: {e.message}")
            continue
        validator = V(schema)
        for k in range(VALUES):
            values = random_values(hint)
            vpath = os.path.join(d, f"values{k}.json")
            with open(vpath, "w") as fh:
                json.dump(values, fh)
            r = hintkit("resolve", "--dir", d, "--values", vpath)
            if r.returncode not in (0, 1):
                check(False, f"resolve exit {r.returncode}: {r.stderr}")
                continue
            hk_ok = r.returncode == 0
            js_ok = validator.is_valid(values)
            total += 1
            if hk_ok == js_ok:
                agree += 1
            check(hk_ok == js_ok,
                  f"disagreement: resolve {'accepts' if hk_ok else 'rejects'}, validator "
                  f"{'accepts' if js_ok else 'rejects'}\nhint: {json.dumps(hint)}\n"
                  f"values: {json.dumps(values)}\nresolve: {r.stderr.strip()}")

print(f"differential: {agree}/{total} value sets agree")
print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
