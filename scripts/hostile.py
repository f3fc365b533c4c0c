#!/usr/bin/env python3
"""Hostile inputs end to end: builds each input in a temporary folder,
runs the binary on it under `/usr/bin/time -v`, `timeout 10` and `ulimit -v`, and checks that
it ends with exit 1 or 2 (or the exit a well-formed input deserves), a clear diagnostic, no
crash or sanitizer report, within the time and memory budget.

    scripts/hostile.py build/hintkit              # every case, a table of the figures
    scripts/hostile.py build/hintkit -k cycle     # the cases whose name holds "cycle"
    YTT=/path/to/ytt scripts/hostile.py build/hintkit -k control   # ytt's message beside ours

Options: --vmem-mb N (address-space limit, default 1024; 0 for none), --rss-mb N (peak
resident memory allowed, default 1024), --seconds N (default 10), -v (print each case's stderr).
Exit 0 when every case passes. Nothing here names a path outside the repository: the
reference ytt is used only when YTT is set, to print its message for the same input.
"""

import argparse
import os
import re
import shlex
import shutil
import stat
import subprocess
import sys
import tempfile

MIB = 1 << 20


class Case:
    def __init__(self, name, kind, args, files=None, stdin=None, ok_rc=(1, 2), expect=None,
                 setup=None, check=None, fsize_kb=None, env=None, ytt=False):
        self.name = name          # a sentence
        self.kind = kind          # the class in the README's table
        self.args = args          # argv after the binary
        self.files = files or {}  # name -> bytes (or a callable writing it)
        self.stdin = stdin        # a path (e.g. /dev/zero) or None for /dev/null
        self.ok_rc = ok_rc
        self.expect = expect      # a regex the diagnostic (stderr+stdout) must match
        self.setup = setup        # callable(dir) run before
        self.check = check        # callable(dir) -> None or a failure text, run after
        self.fsize_kb = fsize_kb  # `ulimit -f` for the run
        self.env = env or {}
        self.ytt = ytt            # also run YTT (when set) with the same args and show its message


def star(body, out="v"):
    """A ytt template whose Starlark `body` ends by giving `out` to a YAML value."""
    return ("#@ def run():\n" + "".join("#@   " + l + "\n" for l in body.splitlines())
            + "#@   return " + out + "\n#@ end\n---\nv: #@ run()\n").encode()


def star_top(lines):
    return ("".join("#@ " + l + "\n" for l in lines.splitlines()) + "---\nv: 1\n").encode()


CYCLE_LIST = "c = [1]\nc.append(c)"
CYCLE_DICT = "c = {}\nc['k'] = c"
DEEP_LIST = "c = []\nfor i in range(20000):\n  c = [c]\nend"
DEEP_DICT = "c = {}\nfor i in range(20000):\n  c = {'k': c}\nend"


LOADS = ('load("@ytt:json", "json")\nload("@ytt:yaml", "yaml")\nload("@ytt:base64", "base64")\n'
         'load("@ytt:md5", "md5")\nload("@ytt:sha256", "sha256")\nload("@ytt:regexp", "regexp")\n'
         'load("@ytt:url", "url")\n')


def loop100(expr):
    return ("s = 'ab' * (8 * 1024 * 1024)\nn = 0\nfor i in range(100):\n  r = " + expr +
            "\n  n += 1\nend")


def output_is(want):
    """A check: a run that exits 0 printed exactly `want`."""
    def check(d):
        with open(os.path.join(d, ".out")) as f:
            got = f.read()
        return None if got == want or got == "" else f"printed {got[:80]!r}, not {want!r}"
    return check


def cases():
    c = []
    # ---- YAML loader -------------------------------------------------------------------------
    for i, text in enumerate([b"? |", b"? >", b"? |-", b"- ? |", b"a:\n  ? |", b"? |\n  x\n: |"]):
        c.append(Case(f"block-scalar key at end of file ({text!r})", "yaml", ["values", "-f", "t.yml"],
                      {"t.yml": text}, ok_rc=(0, 1, 2), ytt=True))
        c.append(Case(f"block-scalar key at end of file in a hint ({text!r})", "yaml",
                      ["lint", "h/tazuna.hint.yaml"], {"h/tazuna.hint.yaml": text}))
    big = b"x" * MIB
    aliased = b"a: &a " + big + b"\nb: [" + b", ".join([b"*a"] * 1000) + b"]\n"
    c.append(Case("1 MiB string aliased 1,000 times (values)", "yaml-bytes",
                  ["values", "-f", "t.yml"], {"t.yml": aliased}, expect=r"alias|limit"))
    c.append(Case("1 MiB string aliased 1,000 times (lint)", "yaml-bytes",
                  ["lint", "h/tazuna.hint.yaml"],
                  {"h/tazuna.hint.yaml": b"vars:\n  a:\n    type: string\n    default: &a " + big +
                   b"\n  b:\n    type: slice\n    default: [" + b", ".join([b"*a"] * 1000) + b"]\n"},
                  expect=r"alias|limit"))
    c.append(Case("1 MiB string aliased 1,000 times (resolve --values)", "yaml-bytes",
                  ["resolve", "--dir", "h", "--values", "v.yml"],
                  {"h/tazuna.hint.yaml": b"vars: {}\n", "v.yml": aliased}, expect=r"alias|limit"))
    c.append(Case("1 MiB string aliased 1,000 times (--data-values-file)", "yaml-bytes",
                  ["values", "-f", "s.yml", "--data-values-file", "v.yml"],
                  {"s.yml": b"x: 1\n", "v.yml": aliased}, expect=r"alias|limit"))
    d = 20000
    for label, text in [("flow", b"v: " + b"[" * d + b"]" * d + b"\n"),
                        ("block", b"v:\n  " + b"- " * d + b"x\n"),
                        ("flow map", b"v: " + b"{a: " * d + b"1" + b"}" * d + b"\n")]:
        c.append(Case(f"20,000-deep YAML {label} (values)", "yaml-deep", ["values", "-f", "t.yml"],
                      {"t.yml": text}, expect=r"deep|nest|limit", ytt=True))
        c.append(Case(f"20,000-deep YAML {label} (lint)", "yaml-deep", ["lint", "h/tazuna.hint.yaml"],
                      {"h/tazuna.hint.yaml": b"vars:\n  a:\n    type: slice\n    default:\n      " +
                       text[3:]}))
    deep_json = b'{"v": ' + b"[" * d + b"]" * d + b"}"
    c.append(Case("20,000-deep JSON (resolve --values)", "yaml-deep",
                  ["resolve", "--dir", "h", "--values", "v.json"],
                  {"h/tazuna.hint.yaml": b"vars: {}\n", "v.json": deep_json}))
    c.append(Case("20,000-deep JSON (hook --values-json)", "yaml-deep",
                  ["hook", "presync", "--dir", "h", "--values-json", deep_json.decode()],
                  {"h/tazuna.hint.yaml": b"vars: {v: {type: slice}}\n"}))
    c.append(Case("20,000-deep JSON (--data-values-file)", "yaml-deep",
                  ["values", "-f", "s.yml", "--data-values-file", "v.json"],
                  {"s.yml": b"#@data/values\n---\nv: 1\n", "v.json": deep_json}))
    for ch in [0x01, 0x04, 0x1B, 0x7F]:
        b = bytes([ch])
        for where, text in [("plain", b"a: x" + b + b"y\n"), ("quoted", b'a: "x' + b + b'y"\n'),
                            ("comment", b"a: 1 # x" + b + b"\n"),
                            ("explicit key", b"? k\n: v\na: x" + b + b"y\n"),
                            ("multi-line plain", b"a: x\n  y" + b + b"\n")]:
            c.append(Case(f"control character 0x{ch:02x} in a {where} scalar", "control",
                          ["values", "-f", "t.yml"], {"t.yml": text},
                          expect=r"control characters are not allowed", ytt=True))
        c.append(Case(f"control character 0x{ch:02x} in a hint file", "control",
                      ["lint", "h/tazuna.hint.yaml"],
                      {"h/tazuna.hint.yaml": b"vars:\n  a:\n    type: string\n    default: x" + b + b"\n"},
                      expect=r"control character"))
    # tazuna.yaml (resolve --config) and argv values: the same hostile YAML through other doors
    c.append(Case("20,000-deep YAML in tazuna.yaml (resolve --config)", "yaml-deep",
                  ["resolve", "--config", "tazuna.yaml"],
                  {"tazuna.yaml": b"apiVersion: tazuna.pepabo.com/v1\nkind: Tazuna\nspec: " +
                   b"[" * d + b"]" * d + b"\n"}, expect=r"deep|nest|limit"))
    c.append(Case("control character 0x04 in tazuna.yaml (resolve --config)", "control",
                  ["resolve", "--config", "tazuna.yaml"],
                  {"tazuna.yaml": b"apiVersion: tazuna.pepabo.com/v1\nkind: Tazuna\nspec: x\x04y\n"},
                  expect=r"control character"))
    c.append(Case("1 MiB string aliased 1,000 times in tazuna.yaml (resolve --config)", "yaml-bytes",
                  ["resolve", "--config", "tazuna.yaml"],
                  {"tazuna.yaml": b"apiVersion: tazuna.pepabo.com/v1\nkind: Tazuna\nx: &a " + big +
                   b"\nspec: [" + b", ".join([b"*a"] * 1000) + b"]\n"}, expect=r"alias|limit"))
    c.append(Case("20,000-deep YAML in --data-value-yaml", "yaml-deep",
                  ["values", "-f", "s.yml", "--data-value-yaml", "v=" + "[" * d + "]" * d],
                  {"s.yml": b"#@data/values\n---\nv: 1\n"}, ok_rc=(0, 1, 2), ytt=True))
    c.append(Case("16 files, each a 1 MiB string aliased 1,000 times (lint -j16)", "parallel",
                  ["lint", "-j", "16"] + [f"a{i}/tazuna.hint.yaml" for i in range(16)],
                  {f"a{i}/tazuna.hint.yaml": b"vars:\n  a:\n    type: string\n    default: &a " + big +
                   b"\n  b:\n    type: slice\n    default: [" + b", ".join([b"*a"] * 1000) + b"]\n"
                   for i in range(16)}, expect=r"alias|limit"))
    # ---- standard input ----------------------------------------------------------------------
    for label, args in [("resolve --values -", ["resolve", "--dir", "h", "--values", "-"]),
                        ("values -f -", ["values", "-f", "-"]),
                        ("values --data-values-file -", ["values", "-f", "s.yml", "--data-values-file", "-"])]:
        c.append(Case(f"{label} < /dev/zero", "stdin", args,
                      {"h/tazuna.hint.yaml": b"vars: {}\n", "s.yml": b"x: 1\n"}, stdin="/dev/zero",
                      expect=r"limit|does not support"))  # hintkit says so and stops where ytt reads it
    # ---- Starlark: cycles and depth ----------------------------------------------------------
    uses = [("as a template value", "v = c"),
            ("to json.encode", "v = json.encode(c)"),
            ("to yaml.encode", "v = yaml.encode(c)"),
            ("to struct.encode", "v = struct.encode(c)"),
            ("to assert.equals", "v = assert.equals(c, c)"),
            ("to overlay.apply (left)", "v = overlay.apply(c, {'a': 1})"),
            ("to overlay.apply (right)", "v = overlay.apply({'a': 1}, c)"),
            ("to url.query_params_encode", "v = url.query_params_encode(c)"),
            ("to url.query_params_encode (inside)", "v = url.query_params_encode({'a': c})"),
            ("to ip.parse_addr", "v = ip.parse_addr(c)"),
            ("to toml.encode", "v = toml.encode({'a': c})"),
            ("to str()", "v = str(c)"),  # well-formed: [1, [...]], as ytt prints
            ("compared with ==", "v = (c == c)"),
            ("compared with == against a copy", "v = (c == [1, c])"),  # dicts: a length mismatch
            ("hashed as a dict key", "v = {c: 1}"),
            ("to sorted", "v = sorted([c, c])"),
            ("to yaml.decode(yaml.encode)", "v = yaml.decode(yaml.encode(c))"),
            ("to json.decode(json.encode)", "v = json.decode(json.encode(c))")]
    loads = ('load("@ytt:json", "json")\nload("@ytt:yaml", "yaml")\nload("@ytt:struct", "struct")\n'
             'load("@ytt:assert", "assert")\nload("@ytt:overlay", "overlay")\nload("@ytt:url", "url")\n'
             'load("@ytt:ip", "ip")\nload("@ytt:toml", "toml")\n')
    # these end well on a value that contains itself, in ytt too (YTT checks the output is ytt's)
    well_formed = ("to str()", "compared with == against a copy")
    for vname, maker in [("self-referential list", CYCLE_LIST), ("self-referential dict", CYCLE_DICT),
                         ("20,000-deep list", DEEP_LIST), ("20,000-deep dict", DEEP_DICT)]:
        for uname, use in uses:
            text = "".join("#@ " + l + "\n" for l in loads.splitlines()) + star(maker + "\n" + use).decode()
            deep = vname.startswith("20,000")
            # A deep value is a well-formed value ytt can print: exit 0 is right for it.
            c.append(Case(f"{vname} {uname}", "starlark-cycle" if not deep else "starlark-deep",
                          ["values", "-f", "t.yml"], {"t.yml": text.encode()},
                          ok_rc=(0, 1, 2) if deep or uname in well_formed else (1, 2), ytt=True,
                          expect=None if deep else r"cycle|contains itself|recursion|\[\.\.\.\]|unhashable|not supported|unknown|cannot|expected|must|Unsupported|not allowed|got|not implemented"))
        c.append(Case(f"{vname} as a data value default", "starlark-cycle" if "self" in vname else "starlark-deep",
                      ["values", "-f", "t.yml", "--data-values-inspect"],
                      {"t.yml": ("#@ def mk():\n" + "".join("#@   " + l + "\n" for l in maker.splitlines()) +
                                 "#@   return c\n#@ end\n#@data/values\n---\nv: #@ mk()\n").encode()},
                      ok_rc=(1, 2) if "self" in vname else (0, 1, 2), ytt=True))
        c.append(Case(f"{vname} as a schema default", "starlark-cycle" if "self" in vname else "starlark-deep",
                      ["values", "-f", "t.yml", "--data-values-inspect"],
                      {"t.yml": ("#@ def mk():\n" + "".join("#@   " + l + "\n" for l in maker.splitlines()) +
                                 "#@   return c\n#@ end\n#@data/values-schema\n---\n#@schema/default mk()\nv: []\n").encode()},
                      ok_rc=(1, 2) if "self" in vname else (0, 1, 2), ytt=True))
        c.append(Case(f"{vname} as a schema value (type inferred)", "starlark-cycle" if "self" in vname else "starlark-deep",
                      ["values", "-f", "t.yml", "--data-values-inspect"],
                      {"t.yml": ("#@ def mk():\n" + "".join("#@   " + l + "\n" for l in maker.splitlines()) +
                                 "#@   return c\n#@ end\n#@data/values-schema\n---\nv: #@ mk()\n").encode()},
                      ok_rc=(1, 2) if "self" in vname else (0, 1, 2), ytt=True))
    mdeep = "c = []\nfor i in range(1000000):\n  c = [c]\nend"
    for uname, use in [("as a template value", "v = c"), ("to json.encode", "v = json.encode(c)"),
                       ("to str()", "v = len(str(c))"), ("to struct.encode", "v = struct.encode(c)"),
                       ("compared with ==", "v = (c == c)"), ("to assert.equals", "v = assert.equals(c, c)")]:
        text = "".join("#@ " + l + "\n" for l in loads.splitlines()) + star(mdeep + "\n" + use).decode()
        # Printing has no depth limit (as in starlark-go): on a stack that holds it, the value
        # prints, 2 brackets a level; else the stack's end is named.
        printed = uname == "to str()"
        c.append(Case(f"1,000,000-deep list {uname}", "starlark-deep", ["values", "-f", "t.yml"],
                      {"t.yml": text.encode()}, ytt=False, expect=r"deep|depth|limit",
                      ok_rc=(0, 1, 2) if printed else (1, 2),
                      check=output_is("v: 2000002\n") if printed else None))
    c.append(Case("a struct holding a list that holds the struct, to struct.decode", "starlark-cycle",
                  ["values", "-f", "t.yml"],
                  {"t.yml": ("".join("#@ " + l + "\n" for l in loads.splitlines()) +
                             star("l = []\ns = struct.make(l=l)\nl.append(s)\nv = struct.decode(s)").decode()).encode()},
                  expect=r"cycle", ytt=True))
    deep_text = "'[' * 20000 + ']' * 20000"
    for dname, dexpr in [("json.decode of 20,000-deep JSON", "json.decode(" + deep_text + ")"),
                         ("yaml.decode of 20,000-deep YAML", "yaml.decode(" + deep_text + ")"),
                         ("yaml.decode of a 1 MiB string aliased 1,000 times",
                          "yaml.decode('a: &a ' + 'x' * (1024 * 1024) + '\\nb: [' + ', '.join(['*a'] * 1000) + ']\\n')"),
                         ("toml.decode of 20,000-deep arrays", "toml.decode('a = ' + " + deep_text + ")")]:
        c.append(Case(dname, "starlark-decode", ["values", "-f", "t.yml"],
                      {"t.yml": ("".join("#@ " + l + "\n" for l in loads.splitlines()) +
                                 star("v = " + dexpr).decode()).encode()}, ytt=True, ok_rc=(0, 1, 2)))
    c.append(Case("recursion 100,000 calls deep", "starlark-deep", ["values", "-f", "t.yml"],
                  {"t.yml": b"#@ def f(n):\n#@   return f(n + 1)\n#@ end\n---\nv: #@ f(0)\n"}))
    # cycles a program makes and drops: freed as it runs (function-local cycles)
    for label, body in [("list", "a = [i]\n  a.append(a)"), ("dict", "a = {'i': i}\n  a['self'] = a"),
                        ("two locals", "a = [i]\n  b = {'a': a}\n  a.append(b)"),
                        ("closure", "a = [i]\n  g = lambda: a\n  a.append(g)")]:
        text = ("#@ def mk(i):\n" + "".join("#@   " + l.strip() + "\n" for l in body.split("\n")) +
                "#@   return 1\n#@ end\n#@ def run():\n#@   n = 0\n#@   for i in range(500000):\n"
                "#@     n += mk(i)\n#@   end\n#@   return n\n#@ end\n---\nv: #@ run()\n")
        c.append(Case(f"500,000 self-referential values ({label}) made and dropped in a function",
                      "starlark-cycle", ["values", "-f", "t.yml"], {"t.yml": text.encode()},
                      ok_rc=(0,), check=output_is("v: 500000\n")))
    # ---- Starlark: byte budgets --------------------------------------------------------------
    c.append(Case("200 distinct 16 MiB strings", "starlark-bytes", ["values", "-f", "t.yml"],
                  {"t.yml": star("keep = []\nfor i in range(200):\n  keep.append(str(i) + 'x' * (16 * 1024 * 1024 - 8))\nend\nv = len(keep)")},
                  expect=r"limit|budget"))
    for op in ["s.elems()", "list(s.elems())", "s.split('a')", "s.split()", "s.codepoints()",
               "list(s.codepoints())", "s.splitlines()", "('a\\n' * (8 * 1024 * 1024)).splitlines()",
               "s.ljust(16 * 1024 * 1024)", "s * 1", "''.join([s])", "'-'.join(s.elems())",
               "s.replace('a', 'b')", "'{}'.format(s)", "s.upper()", "s.find('c')", "s.count('a')",
               "s.strip()", "s.title()", "repr(s)", "s.partition('zz')", "list(s.elem_ords())",
               "list(s.codepoint_ords())", "s.rsplit('a')", "s + ''", "'%s' % s", "s[::-1]",
               "s.startswith(s)", "s == s + ''", "hash(s)", "int('1' * (16 * 1024 * 1024 - 1))",
               "float('1' * (16 * 1024 * 1024 - 1))", "s.isalpha()", "s.lower()", "s.capitalize()",
               "s.rstrip('b')", "s.lstrip('a')", "s.index('ab')", "s.endswith('b')", "s.rfind('c')",
               "s.removeprefix('a') if hasattr(s, 'removeprefix') else s[1:]", "s.istitle()",
               "s.rsplit(None, 1)", "s.split('a', 100)", "json.decode(json.encode(s))",
               "yaml.decode(yaml.encode(s))", "base64.encode(s)", "md5.sum(s)", "sha256.sum(s)",
               "regexp.match('(a|b)*c', s)", "regexp.replace('a', s, 'bb')", "url.path_segment_encode(s)"]:
        c.append(Case(f"{op} on a 16 MiB string, 100 times", "starlark-bytes", ["values", "-f", "t.yml"],
                      {"t.yml": "".join("#@ " + l + "\n" for l in LOADS.splitlines()).encode() +
                       star(loop100(op), "n")}, ok_rc=(1, 2),
                      expect=r"limit|budget|has no|not|unknown|undefined|range"))
    for expr in ["len(range(1 << 62))", "list(range(1 << 40))", "[0] * (1 << 40)",
                 "{i: i for i in range(1 << 30)}", "'x' * (1 << 40)", "[[0] * 4000000] * 100",
                 "list(range(1 << 20)) * 100", "sorted(range(1 << 30))", "(1 << 100000000)",
                 "{i: i for i in range(4000000)}", "set(range(1 << 30))"]:
        # within the limits: a well-formed (if large) value
        ok = (0, 1, 2) if expr in ("[[0] * 4000000] * 100", "{i: i for i in range(4000000)}") else (1, 2)
        c.append(Case(f"huge value {expr}", "starlark-size", ["values", "-f", "t.yml"],
                      {"t.yml": star("v = " + expr + "\nv = 1")},
                      ok_rc=ok, expect=r"limit|budget|too|large|undefined|overflow|not|range"))
    c.append(Case("while True (steps)", "starlark-size", ["values", "-f", "t.yml"],
                  {"t.yml": star("n = 0\nfor i in range(1 << 30):\n  n += 1\nend\nv = n")}, expect=r"limit|step"))
    # ---- parallel endless inputs ---------------------------------------------------------------
    def endless(d):
        for i in range(16):
            os.makedirs(os.path.join(d, f"z{i}"), exist_ok=True)
            os.symlink("/dev/zero", os.path.join(d, f"z{i}", "tazuna.hint.yaml"))
    c.append(Case("lint -j16 on 16 endless inputs", "parallel",
                  ["lint", "-j", "16"] + [f"z{i}/tazuna.hint.yaml" for i in range(16)],
                  setup=endless, expect=r"limit"))
    # ---- --out-dir -----------------------------------------------------------------------------
    def tazuna(d, big=False):
        os.makedirs(os.path.join(d, "api"), exist_ok=True)
        os.makedirs(os.path.join(d, "web"), exist_ok=True)
        for m in ["api", "web"]:
            with open(os.path.join(d, m, "helmfile.yaml"), "w") as f:
                f.write("releases: []\n")
            with open(os.path.join(d, m, "tazuna.hint.yaml"), "w") as f:
                f.write("vars:\n  a:\n    type: string\n")
        with open(os.path.join(d, "tazuna.yaml"), "w") as f:
            f.write("apiVersion: tazuna.pepabo.com/v1\nkind: Tazuna\nspec:\n  manifests:\n")
            for m in ["api", "web"]:
                val = "x" * 4000 if (big and m == "web") else m
                f.write(f"    - name: {m}\n      type: helmfile\n      path: {m}\n      helmfile:\n"
                        f"        vars:\n          a: {{from: static, static: {val}}}\n")
        os.makedirs(os.path.join(d, "out"), exist_ok=True)
        with open(os.path.join(d, "out", "api.yaml"), "w") as f:
            f.write("old api\n")
        with open(os.path.join(d, "out", "keep.txt"), "w") as f:
            f.write("mine\n")

    def listing(d):
        out = {}
        for root, dirs, files in os.walk(os.path.join(d, "out")):
            for n in dirs + files:
                p = os.path.join(root, n)
                rel = os.path.relpath(p, d)
                if os.path.islink(p):
                    out[rel] = "-> " + os.readlink(p)
                elif os.path.isdir(p):
                    out[rel] = "<dir>"
                else:
                    with open(p, "rb") as f:
                        out[rel] = f.read()
        return out

    def unchanged(d):
        before = getattr(unchanged, "before", None)
        return None if listing(d) == before else "the folder changed: %r" % sorted(listing(d))

    def outdir(extra):
        def s(d):
            tazuna(d, big=extra == "full")
            if extra == "symlink":
                with open(os.path.join(d, "victim.txt"), "w") as f:
                    f.write("precious\n")
                os.symlink(os.path.join(d, "victim.txt"), os.path.join(d, "out", "web.yaml"))
                # a planted temporary name too, in case one is predictable
                for n in [".web.yaml.tmp", "web.yaml.tmp", ".hintkit-tmp"]:
                    os.symlink(os.path.join(d, "victim.txt"), os.path.join(d, "out", n))
            if extra == "dir":
                os.makedirs(os.path.join(d, "out", "web.yaml"))
            if extra == "readonly":
                os.chmod(os.path.join(d, "out"), 0o555)
            unchanged.before = listing(d)
        return s

    def victim_safe(d):
        with open(os.path.join(d, "victim.txt")) as f:
            if f.read() != "precious\n":
                return "the symlink's target was overwritten"
        if os.path.islink(os.path.join(d, "out", "web.yaml")):
            return "out/web.yaml is still the planted symlink"
        return None

    c.append(Case("--out-dir with a planted symlink", "out-dir",
                  ["resolve", "--config", "tazuna.yaml", "--out-dir", "out"], setup=outdir("symlink"),
                  ok_rc=(0,), check=victim_safe))
    c.append(Case("--out-dir with a directory in the way", "out-dir",
                  ["resolve", "--config", "tazuna.yaml", "--out-dir", "out"], setup=outdir("dir"),
                  check=unchanged, expect=r"Is a directory"))
    if os.geteuid() != 0:
        c.append(Case("--out-dir read-only", "out-dir",
                      ["resolve", "--config", "tazuna.yaml", "--out-dir", "out"], setup=outdir("readonly"),
                      check=unchanged, expect=r"Permission denied|Read-only"))
    c.append(Case("--out-dir on a full filesystem (ulimit -f 1)", "out-dir",
                  ["resolve", "--config", "tazuna.yaml", "--out-dir", "out"], setup=outdir("full"),
                  fsize_kb=1, check=unchanged, expect=r"File too large"))
    return c


BAD = re.compile(r"Segmentation|Aborted|terminate called|AddressSanitizer|LeakSanitizer|"
                 r"runtime error:|std::bad_alloc|core dumped|: Success\b|what\(\)")


def run_case(case, binary, opts, ytt):
    d = tempfile.mkdtemp(prefix="hostile-")
    try:
        for name, data in case.files.items():
            p = os.path.join(d, name)
            os.makedirs(os.path.dirname(p), exist_ok=True)
            with open(p, "wb") as f:
                f.write(data)
        if case.setup:
            case.setup(d)
        limits = []
        if opts.vmem_mb:
            limits.append(f"ulimit -v {opts.vmem_mb * 1024}")
        # stdout goes to a file: bound it (a runaway print fails with EFBIG instead of filling
        # the disk); the out-dir cases set their own limit.
        limits.append(f"ulimit -f {case.fsize_kb if case.fsize_kb else 2 * 1024 * 1024}")
        tfile = os.path.join(d, ".time")
        cmd = (" && ".join(limits) + " && exec /usr/bin/time -v -o " + shlex.quote(tfile) +
               f" timeout -k 1 {opts.seconds} " + shlex.quote(binary) + " " +
               " ".join(shlex.quote(a) for a in case.args))
        env = dict(os.environ, **case.env)
        with open(case.stdin or "/dev/null", "rb") as fin, \
                open(os.path.join(d, ".out"), "wb") as fout, open(os.path.join(d, ".err"), "wb") as ferr:
            p = subprocess.run(["bash", "-c", cmd], cwd=d, stdin=fin, stdout=fout, stderr=ferr, env=env)
        rc = p.returncode
        err = open(os.path.join(d, ".err"), "rb").read().decode("utf-8", "replace")
        out_size = os.path.getsize(os.path.join(d, ".out"))
        out_head = open(os.path.join(d, ".out"), "rb").read(4096).decode("utf-8", "replace")
        t = open(tfile).read() if os.path.exists(tfile) else ""
        rss = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", t).group(1)) // 1024 if t else -1
        cpu = sum(float(x) for x in re.findall(r"(?:User|System) time \(seconds\): ([\d.]+)", t))
        m = re.search(r"Elapsed \(wall clock\) time.*: (?:(\d+):)?(\d+):([\d.]+)", t)
        wall = (int(m.group(1) or 0) * 3600 + int(m.group(2)) * 60 + float(m.group(3))) if m else -1
        problems = []
        if m := re.search(r"Command exited with non-zero status (\d+)", t):
            rc = int(m.group(1))
        if "Command terminated by signal" in t:
            rc = 128 + int(re.search(r"signal (\d+)", t).group(1))
        if rc == 124 or rc == 137:
            problems.append("timed out")
        elif rc not in case.ok_rc:
            problems.append(f"exit {rc}")
        if rss > opts.rss_mb:
            problems.append(f"peak {rss} MB")
        text = err + ("\n" + out_head if rc != 0 else "")
        if BAD.search(text):
            problems.append("crash text: " + BAD.search(text).group(0))
        if rc in (1, 2) and not text.strip():
            problems.append("no diagnostic")
        if rc in (1, 2) and case.expect and not re.search(case.expect, text):
            problems.append("diagnostic does not match /" + case.expect + "/")
        if case.check and not problems:
            why = case.check(d)
            if why:
                problems.append(why)
        # the line that says what is wrong (ytt's format puts it under "hintkit: Error:")
        first = next((l.strip() for l in text.splitlines()
                      if l.strip() and l.strip() != "hintkit: Error:"), "")
        ymsg = None
        if ytt and case.ytt and not case.stdin:
            yargs = [a for a in case.args[1:]]
            try:
                y = subprocess.run([ytt] + yargs, cwd=d, capture_output=True, timeout=30)
                yerr = y.stderr.decode("utf-8", "replace")
                if y.returncode == 0 and rc == 0:
                    with open(os.path.join(d, ".out"), "rb") as f:
                        if f.read() != y.stdout:
                            problems.append("exit 0 with output other than ytt's")
                elif rc == 0:
                    problems.append(f"exit 0 where ytt exits {y.returncode}")
                ymsg = f"ytt exit {y.returncode}: " + (next((l for l in yerr.splitlines() if "Error" in l), "")
                                                       or yerr.strip()[:200] or "(no stderr)")
            except subprocess.TimeoutExpired:
                ymsg = "ytt: over 30 s"
        return dict(rc=rc, wall=wall, cpu=cpu, rss=rss, problems=problems, first=first[:160],
                    err=err, out_size=out_size, ytt=ymsg)
    finally:
        for root, dirs, _ in os.walk(d):
            for n in dirs:
                try:
                    os.chmod(os.path.join(root, n), 0o755)
                except OSError:
                    pass
        os.chmod(d, 0o755)
        shutil.rmtree(d, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("binary")
    ap.add_argument("-k", action="append", default=[], help="only cases whose name holds this")
    ap.add_argument("--vmem-mb", type=int, default=1024)
    ap.add_argument("--rss-mb", type=int, default=1024)
    ap.add_argument("--seconds", type=int, default=10)
    ap.add_argument("-v", action="store_true")
    ap.add_argument("--list", action="store_true")
    opts = ap.parse_args()
    binary = os.path.abspath(opts.binary)
    ytt = os.environ.get("YTT")
    todo = [c for c in cases() if not opts.k or any(k in c.name or k == c.kind for k in opts.k)]
    if opts.list:
        for c in todo:
            print(f"{c.kind:15} {c.name}")
        return 0
    failed = 0
    worst = {}
    print(f"{'class':15} {'rc':>3} {'wall s':>6} {'cpu s':>6} {'MB':>5}  case / first line of the diagnostic")
    for c in todo:
        r = run_case(c, binary, opts, ytt)
        ok = not r["problems"]
        failed += not ok
        w = worst.setdefault(c.kind, [0, 0.0, 0.0, 0])
        w[0] = max(w[0], r["rss"]); w[1] = max(w[1], r["wall"]); w[2] = max(w[2], r["cpu"]); w[3] += 1
        print(f"{c.kind:15} {r['rc']:>3} {r['wall']:>6.2f} {r['cpu']:>6.2f} {r['rss']:>5}  "
              f"{'ok  ' if ok else 'FAIL'} {c.name}", flush=True)
        print(f"{'':40}   {r['first']}")
        if r["ytt"]:
            print(f"{'':40}   {r['ytt'][:200]}")
        if not ok:
            print(f"{'':40}   problems: {'; '.join(r['problems'])}")
        if opts.v or not ok:
            for l in r["err"].splitlines()[:12]:
                print(f"{'':40}   | {l[:200]}")
        sys.stdout.flush()
    print("\nworst per class (peak MB, wall s, cpu s, cases):")
    for k, (rss, wall, cpu, n) in worst.items():
        print(f"  {k:15} {rss:>5} MB {wall:>6.2f} s {cpu:>6.2f} s cpu  {n} cases")
    print(f"\n{len(todo) - failed}/{len(todo)} cases pass")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
