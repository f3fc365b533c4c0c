#!/usr/bin/env python3
"""Writes the seed corpus of every fuzz target from the repository's own inputs.

Usage: fuzz/make_seeds.py OUT_DIR
Creates OUT_DIR/<target>/<sha1> files (libFuzzer's corpus layout) from fixtures/ and
examples/, so seeds follow the fixtures instead of being copied blobs:
  fuzz_yaml          every .yaml/.yml/.json input file
  fuzz_hintfile      every tazuna.hint.yaml
  fuzz_resolve       each hint with the values files beside it (hint, "#values" line, values)
  fuzz_starlark      every .star file, and the code of every `#@` line of the templates
  fuzz_values        every .yaml file of fixtures/ytt and examples/ytt (one template each)
  fuzz_bulk          each ytt golden case's input files as one --bulk-in JSON text, and the
                     --bulk-in texts of the cases that give one
  fuzz_template      every tazuna.yaml and included file holding a Go template action
  fuzz_formats       "FORMAT\\nVALUE" for each hint var's format with its default and values;
                     "regex\\nPATTERN\\nTEXT" for each regexp.* call in the templates
  fuzz_lsp           editor sessions (one JSON-RPC message a line) over every hint, every
                     tazuna.yaml and the ytt examples: open, hover, completion, code
                     actions on eight lines, edits, saves, close; one raw-framing session
  yaml_differential  the same inputs as fuzz_yaml
  fuzz_gotmpl        every helmfile (helmfile*.yaml*, *.gotmpl) and tazuna.yaml: Go templates
"""
import hashlib
import json
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
                path = os.path.join(dirpath, n)
                if os.path.islink(path):  # fixtures hold symlinks (dangling ones, loops)
                    continue
                if (ext and n.endswith(ext)) or (name and n == name):
                    yield path


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

    for top in ("fixtures/ytt", "examples/ytt"):
        for p in files(ext=".yaml", under=[os.path.join(ROOT, top)]):
            write(out, "fuzz_values", read(p))

    # A case folder's files (but its expectations) as the bulk input ytt reads.
    for dirpath, dirnames, names in os.walk(os.path.join(ROOT, "fixtures", "ytt")):
        if "cmd" not in names:
            continue
        dirnames[:] = [d for d in dirnames if d != "expected"]
        bulk = []
        for sub, _, inner in os.walk(dirpath):
            if "expected" in os.path.relpath(sub, dirpath).split(os.sep):
                continue
            for n in sorted(inner):
                if n in ("cmd", "oracle", "env", "stdin"):
                    continue
                path = os.path.join(sub, n)
                if not os.path.isfile(path):  # a case's dangling symlink
                    continue
                bulk.append({"name": os.path.relpath(path, dirpath),
                             "data": read(path).decode("utf-8", "replace")})
        write(out, "fuzz_bulk", json.dumps({"files": bulk}).encode())
        words = read(os.path.join(dirpath, "cmd")).split()
        if b"--bulk-in" in words and words.index(b"--bulk-in") + 1 < len(words):
            write(out, "fuzz_bulk", words[words.index(b"--bulk-in") + 1])

    for p in [p for e in (".yaml", ".yml", ".gotmpl") for p in files(ext=e)]:
        n = os.path.basename(p)
        if n.startswith("helmfile") or n.endswith(".gotmpl") or n == "tazuna.yaml":
            write(out, "fuzz_gotmpl", read(p))

    # Sessions: @DIR@ is the fuzz target's private workspace (app/tazuna.hint.yaml,
    # tazuna.yaml, ytt/schema.yaml), so the checks find files beside the documents.
    def session(uri, text):
        msgs = [{"jsonrpc": "2.0", "method": "initialized", "params": {}},
                {"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
                    "uri": uri, "languageId": "yaml", "version": 1, "text": text}}}]
        lines = text.splitlines() or [""]
        # Eight lines spread over the document: every request parses it again, and short
        # sessions keep the executions per second up.
        for i in sorted(set(range(0, len(lines), max(1, len(lines) // 8)))):
            line = lines[i]
            pos = {"line": i, "character": len(line)}
            td = {"uri": uri}
            msgs.append({"jsonrpc": "2.0", "id": 2 * i + 1, "method": "textDocument/hover",
                         "params": {"textDocument": td, "position": pos}})
            msgs.append({"jsonrpc": "2.0", "id": 2 * i + 2, "method": "textDocument/completion",
                         "params": {"textDocument": td, "position": pos}})
        end = {"line": len(lines), "character": 0}
        msgs += [
            {"jsonrpc": "2.0", "id": 1000, "method": "textDocument/codeAction",
             "params": {"textDocument": {"uri": uri}, "context": {"diagnostics": []},
                        "range": {"start": {"line": 0, "character": 0}, "end": end}}},
            {"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
                "textDocument": {"uri": uri, "version": 2},
                "contentChanges": [{"text": text + "\n  x:\n    type: \n"}]}},
            {"jsonrpc": "2.0", "method": "textDocument/didSave",
             "params": {"textDocument": {"uri": uri}}},
            {"jsonrpc": "2.0", "method": "textDocument/didClose",
             "params": {"textDocument": {"uri": uri}}},
            {"jsonrpc": "2.0", "id": 1001, "method": "shutdown"},
            {"jsonrpc": "2.0", "method": "exit"}]
        return "\n".join(json.dumps(m) for m in msgs).encode()

    for p in files(name="tazuna.hint.yaml"):
        write(out, "fuzz_lsp", session("file://@DIR@/app/tazuna.hint.yaml",
                                       read(p).decode("utf-8", "replace")))
    for p in files(name="tazuna.yaml"):
        write(out, "fuzz_lsp", session("file://@DIR@/tazuna.yaml", read(p).decode("utf-8", "replace")))
    for p in files(ext=".yaml", under=[os.path.join(ROOT, "examples/ytt")]):
        write(out, "fuzz_lsp", session("file://@DIR@/ytt/values.yaml",
                                       read(p).decode("utf-8", "replace")))
    # Hostile messages: numbers out of range, missing fields, bad escapes, nesting over the
    # limit (the reproducers, smaller).
    hint_uri = "file://@DIR@/app/tazuna.hint.yaml"
    td = {"uri": hint_uri}
    hostile = [
        {"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
            "uri": hint_uri, "version": 1e300, "text": "vars:\n"}}},
        {"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
            "uri": hint_uri, "version": -1, "text": "vars:\n  a:\n    type: strin\n"}}},
        {"jsonrpc": "2.0", "id": 1, "method": "textDocument/hover",
         "params": {"textDocument": td, "position": {"line": 1e300, "character": -1}}},
        {"jsonrpc": "2.0", "id": 2, "method": "textDocument/completion",
         "params": {"textDocument": td, "position": {"line": 2 ** 31 - 1, "character": 2 ** 53}}},
        {"jsonrpc": "2.0", "id": 3, "method": "textDocument/codeAction",
         "params": {"textDocument": td, "range": {}}},
        {"jsonrpc": "2.0", "id": 4, "method": "textDocument/codeAction",
         "params": {"textDocument": td, "range": {"start": {"line": 0, "character": 0},
                                                   "end": {"line": 9, "character": 0}}}},
        {"jsonrpc": "2.0", "method": "textDocument/didSave",
         "params": {"textDocument": {"uri": "file:///never/opened.yaml"}}},
        {"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
            "uri": "file:///%zz/%4/%", "version": 1, "text": "a: 1"}}}]
    deep = '{"jsonrpc": "2.0", "id": 5, "method": "hintkit/stats", "params": ' + \
        '{"a": ' * 600 + '1' + '}' * 600 + '}'
    write(out, "fuzz_lsp", ("\n".join(json.dumps(m) for m in hostile) + "\n" + deep).encode())

    stats = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "hintkit/stats"}).encode()
    write(out, "fuzz_lsp", b"#raw\nContent-Length: %d\r\n\r\n" % len(stats) + stats +
          b"Content-Length: 5\r\n\r\n{bad}Content-Length: x\r\n\r\n")

    for target in sorted(os.listdir(out)):
        print(f"{target}: {len(os.listdir(os.path.join(out, target)))} seeds")


if __name__ == "__main__":
    main()
