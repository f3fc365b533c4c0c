#!/usr/bin/env python3
"""Writes the seed corpus of every fuzz target from the repository's own inputs.

Usage: fuzz/make_seeds.py OUT_DIR
Creates OUT_DIR/<target>/<sha1> files (libFuzzer's corpus layout) from fixtures/ and
examples/, so seeds follow the fixtures instead of being copied blobs:
  fuzz_yaml          every .yaml/.yml/.json input file
  fuzz_hintfile      every tazuna.hint.yaml
  fuzz_resolve       each hint with the values files beside it (hint, "#values" line, values)
  fuzz_starlark      every .star file, and the code of every `#@` line of the templates
  fuzz_values        every .yaml file of fixtures/schema and examples/ytt (one template each)
  fuzz_template      every tazuna.yaml and included file holding a Go template action
  fuzz_formats       "FORMAT\\nVALUE" for each hint var's format with its default and values;
                     "regex\\nPATTERN\\nTEXT" for each regexp.* call in the templates
  yaml_differential  the same inputs as fuzz_yaml
  fuzz_gotmpl        every helmfile (helmfile*.yaml*, *.gotmpl) and tazuna.yaml: Go templates
"""
import hashlib
import os
import re
import sys

import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SOURCES = [os.path.join(ROOT, d) for d in ("fixtures", "examples")]
MAX_SEED_BYTES = 64 * 1024  # libFuzzer's default -max_len is far below; big seeds only slow it


def files(ext=None, name=None, under=SOURCES):
    for top in under:
        for dirpath, _, names in sorted(os.walk(top)):
            for n in sorted(names):
                if (ext and n.endswith(ext)) or (name and n == name):
                    yield os.path.join(dirpath, n)


def read(path):
    with open(path, "rb") as f:
        return f.read()


def write(out, target, data):
    if len(data) > MAX_SEED_BYTES:
        return
    folder = os.path.join(out, target)
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, hashlib.sha1(data).hexdigest()), "wb") as f:
        f.write(data)


def safe_load(data):
    try:
        return yaml.safe_load(data)
    except Exception:
        return None


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    out = sys.argv[1]
    yaml_files = [p for e in (".yaml", ".yml", ".json") for p in files(ext=e)]
    for p in yaml_files:
        write(out, "fuzz_yaml", read(p))
        write(out, "yaml_differential", read(p))

    for hint_path in files(name="tazuna.hint.yaml"):
        hint = read(hint_path)
        write(out, "fuzz_hintfile", hint)
        folder = os.path.dirname(hint_path)
        values_files = [os.path.join(folder, n) for n in sorted(os.listdir(folder))
                        if n != "tazuna.hint.yaml" and n.endswith((".yaml", ".yml", ".json"))]
        for v in values_files or [None]:
            values = read(v) if v else b""
            write(out, "fuzz_resolve", hint + b"\n#values\n" + values)
        # Formats: each var's format with its default and the values given for it.
        parsed = safe_load(hint)
        var_defs = parsed.get("vars") if isinstance(parsed, dict) else None
        if not isinstance(var_defs, dict):
            continue
        provided = [safe_load(read(v)) for v in values_files]
        for name, spec in var_defs.items():
            if not isinstance(spec, dict) or not isinstance(spec.get("format"), str):
                continue
            candidates = [spec.get("default")] + [
                p.get(name) for p in provided if isinstance(p, dict)]
            for c in candidates:
                if isinstance(c, (str, int, float)):
                    write(out, "fuzz_formats", f"{spec['format']}\n{c}".encode())

    template_lines = []
    for p in files(ext=".star"):
        write(out, "fuzz_starlark", read(p))
    for p in files(ext=".yaml"):
        for line in read(p).decode("utf-8", "replace").splitlines():
            m = re.search(r"#@\s*(.*)$", line)
            if m and m.group(1).strip():
                template_lines.append(m.group(1))
    for code in sorted(set(template_lines)):
        write(out, "fuzz_starlark", code.encode())
        for call in re.finditer(r'regexp\.(?:match|replace)\("((?:[^"\\]|\\.)*)",\s*"((?:[^"\\]|\\.)*)"', code):
            write(out, "fuzz_formats", f"regex\n{call.group(1)}\n{call.group(2)}".encode())

    for p in files(ext=".yaml"):
        data = read(p)
        if b"{{" in data and os.path.basename(os.path.dirname(p)) != "schema":
            write(out, "fuzz_template", data)

    for top in ("fixtures/schema", "examples/ytt"):
        for p in files(ext=".yaml", under=[os.path.join(ROOT, top)]):
            write(out, "fuzz_values", read(p))

    for p in [p for e in (".yaml", ".yml", ".gotmpl") for p in files(ext=e)]:
        n = os.path.basename(p)
        if n.startswith("helmfile") or n.endswith(".gotmpl") or n == "tazuna.yaml":
            write(out, "fuzz_gotmpl", read(p))

    for target in sorted(os.listdir(out)):
        print(f"{target}: {len(os.listdir(os.path.join(out, target)))} seeds")


if __name__ == "__main__":
    main()
