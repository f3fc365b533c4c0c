#!/usr/bin/env python3
"""Differential check of ytt templates: random templates through the reference ytt and hintkit.

Each case is one random YAML template (`tpl.yml`, sometimes with a `helpers.star` module and a
data values file) built from the template language's mechanisms: code lines, `for`/`if`/`elif`/
`else` blocks and their `/end` shorthand, fragment functions (`def`/`end` around YAML),
document values (`--- #@ expr`), text-templated strings `(@= ... @)` in keys and values,
duplicate keys (in `if` branches, in loops, with `@yaml/map-key-override`; every fifth case
runs with `--implicit-map-key-overrides`), backslash
continuations, `#!`, `#@comment` and plain `#` comments, Starlark set operators,
struct/json/yaml modules, fragments as values (a def's map, array or document set used in
arrays, as document values, looped over, indexed, tested with `in`, `len` and truth, and the
empty fragment of a def that built nothing), code after the last node, and the occasional
deliberate mistake (a missing colon, a missing `end`, `key: v #@ expr`, a reserved keyword, a
call with a missing argument).

Both programs run in the same folder with the same arguments; a case agrees when exit code,
stdout and stderr (program name normalised) are identical. Prints the agreement rate and the
first disagreements (template, then both outputs).

usage: YTT=/path/to/ytt scripts/diff_templates.py [HINTKIT] [--count N] [--seed S] [--show K]
"""
import os
import random
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from diffkit import normalise, options, run  # noqa: E402

WORDS = ["app", "name", "port", "env", "tier", "zone", "size", "mode", "kind", "team"]


class Gen:
    def __init__(self, rnd):
        self.r = rnd
        self.vars = ["n", "s", "items"]
        self.uid = 0
        self.funcs = []  # fragment functions defined so far: (name, kind)

    def name(self):
        self.uid += 1
        return self.r.choice(WORDS) + str(self.uid)

    def expr(self, depth=0):
        r = self.r
        choices = [
            lambda: str(r.randint(-5, 20)),
            lambda: '"%s"' % r.choice(WORDS),
            lambda: r.choice(["n", "s", "items", "True", "False", "None"]),
            lambda: "n %s %d" % (r.choice(["+", "-", "*", "//", "%"]), r.randint(0, 4)),
            lambda: "s + \"-\" + str(n)",
            lambda: "[x * 2 for x in items if x %% %d]" % r.randint(1, 3),
            lambda: "{\"k\": n, \"v\": s}",
            lambda: "len(items)",
            lambda: "sorted(set(items) %s set([%d, %d]))" % (r.choice(["|", "&", "-", "^"]),
                                                             r.randint(0, 4), r.randint(0, 4)),
            lambda: "struct.make(b=n, a=s)",
            lambda: "json.encode({\"a\": items})",
            lambda: "\"%s\".upper()" % r.choice(WORDS),
            lambda: "items[%d]" % r.randint(-4, 4),
            lambda: "n if n > %d else s" % r.randint(0, 10),
        ]
        if self.funcs and depth == 0 and r.random() < 0.3:
            name, kind = r.choice(self.funcs)
            call = name + "(%d)" % r.randint(0, 3)
            if kind == "docs":
                return r.choice(["len(%s)" % call, "%d in %s" % (r.randint(-1, 3), call),
                                 "[x for x in %s]" % call])
            return r.choice([
                call, call, "len(%s)" % call, "1 if %s else 0" % call, "type(%s)" % call,
                "%s in %s" % (r.choice(["0", "1", "5", "-1", '"k"', "True", "None",
                                        '"%s"' % r.choice(WORDS)]), call),
                "[x for x in %s]" % call, "%s[0]" % call, '%s["k"]' % call,
            ])
        return r.choice(choices)()

    def scalar(self):
        r = self.r
        return r.choice([str(r.randint(0, 99)), r.choice(WORDS), "true", "null", "\"q\"", "1.5"])

    def text_template(self):
        r = self.r
        parts = [r.choice(WORDS)]
        for _ in range(r.randint(1, 2)):
            parts.append(r.choice(["(@= str(n) @)", "(@= s @)", "(@-= s -@)", "(@= str(len(items)) @)",
                                   "(@ if n > 2: @)big(@ else: @)small(@ end @)"]))
        return "".join(parts)

    # A block of map items at `ind` spaces.
    def map_body(self, ind, depth, out, templated=False):
        r = self.r
        pad = " " * ind
        keys = []
        for _ in range(r.randint(1, 4)):
            kind = r.random()
            key = self.name() if not keys or r.random() > 0.15 else r.choice(keys)
            keys.append(key)
            if kind < 0.25:
                out.append(f"{pad}{key}: {self.scalar()}")
            elif kind < 0.45:
                out.append(f"{pad}{key}: #@ {self.expr()}")
            elif kind < 0.55 and depth < 3:
                out.append(f"{pad}#@ for i in range({r.randint(0, 3)}):")
                k = key if r.random() < 0.3 else key + "-(@= str(i) @)"
                out.append(f"{pad}#@yaml/text-templated-strings")
                out.append(f"{pad}{k}: #@ i * n")
                out.append(f"{pad}#@ end")
            elif kind < 0.65:
                out.append(f"{pad}#@ if n {r.choice(['>', '<', '=='])} {r.randint(0, 10)}:")
                out.append(f"{pad}{key}: {self.scalar()}")
                if r.random() < 0.5:
                    out.append(f"{pad}#@ elif s == \"{r.choice(WORDS)}\":")
                    out.append(f"{pad}{key}: #@ {self.expr()}")
                out.append(f"{pad}#@ else:")
                out.append(f"{pad}{key}: {self.scalar()}")
                out.append(f"{pad}#@ end")
            elif kind < 0.72:
                out.append(f"{pad}#@ if/end n > {r.randint(0, 10)}:")
                out.append(f"{pad}{key}: {self.scalar()}")
            elif kind < 0.8 and depth < 3:
                out.append(f"{pad}{key}:")
                self.map_body(ind + 2, depth + 1, out, templated)
            elif kind < 0.87 and depth < 3:
                out.append(f"{pad}{key}:")
                self.array_body(ind, depth + 1, out)
            elif kind < 0.93:
                out.append(f"{pad}#@yaml/text-templated-strings")
                out.append(f"{pad}{key}: {self.text_template()}")
            elif kind < 0.96:
                out.append(f"{pad}#@yaml/map-key-override")
                out.append(f"{pad}{key}: {self.scalar()}")
            elif kind < 0.98 or not self.funcs:
                out.append(f"{pad}#@ v{self.uid} = {self.expr()}")
                out.append(f"{pad}{key}: #@ v{self.uid}")
            else:
                self.fragment_use(pad, out, False)

    def array_body(self, ind, depth, out):
        r = self.r
        pad = " " * ind
        for _ in range(r.randint(1, 3)):
            kind = r.random()
            if kind < 0.3:
                out.append(f"{pad}- {self.scalar()}")
            elif kind < 0.55:
                out.append(f"{pad}- #@ {self.expr()}")
            elif kind < 0.75:
                out.append(f"{pad}#@ for/end x in items[:{r.randint(0, 3)}]:")
                out.append(f"{pad}- #@ x")
            elif kind < 0.85 and self.funcs:
                self.fragment_use(pad, out, True)
            elif depth < 3:
                out.append(f"{pad}- {self.name()}: {self.scalar()}")
                out.append(f"{pad}  {self.name()}: #@ {self.expr()}")
            else:
                out.append(f"{pad}- {self.scalar()}")

    def fragment_def(self, out):
        r = self.r
        name = "frag%d" % (len(self.funcs) + 1)
        kind = r.random()
        if kind < 0.4:
            out.append(f"#@ def {name}(k):")
            out.append("k: #@ k")
            self.map_body(0, 2, out)
            out.append("#@ end")
            self.funcs.append((name, "map"))
        elif kind < 0.75:
            out.append(f"#@ def {name}(k):")
            out.append("- #@ k")
            self.array_body(0, 2, out)
            out.append("#@ end")
            self.funcs.append((name, "array"))
        elif kind < 0.9:
            out.append(f"#@ def {name}(k):")
            out.append("--- #@ k")
            out.append("---")
            self.map_body(0, 2, out)
            out.append("#@ end")
            self.funcs.append((name, "docs"))
        else:  # builds nothing: an empty fragment
            out.append(f"#@ def {name}(k):")
            out.append("#@ if/end k > 100:")
            out.append(f"- #@ k")
            out.append("#@ end")
            self.funcs.append((name, "empty"))
        # a document between definitions keeps the YAML of two defs apart
        out.append("---")

    def fragment_use(self, pad, out, in_array):
        """A fragment function's result placed in the output."""
        r = self.r
        name, kind = r.choice(self.funcs)
        arg = r.randint(0, 3)
        if in_array:
            if kind in ("array", "docs", "empty") and r.random() < 0.5:
                out.append(f"{pad}#@ for/end x in {name}({arg}):")
                out.append(f"{pad}- #@ x")
            else:
                out.append(f"{pad}- #@ {name}({arg})")
        else:
            out.append(f"{pad}{self.name()}: #@ {name}({arg})")

    def template(self):
        r = self.r
        out = ['#@ load("@ytt:struct", "struct")', '#@ load("@ytt:json", "json")']
        if r.random() < 0.2:
            out.append('#@ load("helpers.star", "helper")')
        out.append(f"#@ n = {r.randint(0, 9)}")
        out.append(f"#@ s = \"{r.choice(WORDS)}\"")
        if r.random() < 0.2:
            out.append("#@ items = [1, 2, \\")
            out.append("#@    3, 4]")
        else:
            out.append(f"#@ items = {list(range(r.randint(0, 5)))}")
        if r.random() < 0.4:
            self.fragment_def(out)
            if r.random() < 0.3:
                self.fragment_def(out)
        if r.random() < 0.15:
            out.append("#! a ytt comment")
        if r.random() < 0.1:
            out.append("#@comment documentation, not code")
        ndocs = r.randint(1, 3)
        for d in range(ndocs):
            if d > 0 or r.random() < 0.5:
                if r.random() < 0.15:
                    out.append("--- #@ " + self.expr())
                    continue
                docsets = [f for f, k in self.funcs if k in ("docs", "empty")]
                if docsets and r.random() < 0.3:
                    out.append("--- #@ %s(%d)" % (r.choice(docsets), r.randint(0, 3)))
                    continue
                out.append("---")
            if r.random() < 0.2:
                self.array_body(0, 1, out)
            else:
                self.map_body(0, 1, out)
            if r.random() < 0.15 and self.funcs:
                name, _ = r.choice(self.funcs)
                out.append(f"from{d}: #@ {name}({r.randint(0, 3)})")
        if r.random() < 0.1:  # code after the last node
            out.append(f"#@ tail = {self.expr()}")
        # an occasional mistake
        m = r.random()
        if m < 0.04:
            out.append("# a plain comment")
        elif m < 0.07:
            out.append("#@ if n > 1")
            out.append("x: 1")
            out.append("#@ end")
        elif m < 0.09:
            out.append("#@ for i in range(2):")
            out.append("y: 1")
        elif m < 0.11:
            out.append("z: 1 #@ n")
        elif m < 0.13:
            out.append("w: #@ undefined_name")
        elif m < 0.15:
            out.append("v: #@ 1 // (n - n)")
        elif m < 0.17:
            out.append("u: #@ struct.%s" % r.choice(["and", "if", "class", "in"]))
        elif m < 0.19 and self.funcs:
            out.append("t: #@ %s()" % r.choice(self.funcs)[0])
        return "\n".join(out) + "\n"


def main():
    hintkit, ytt, count, seed, show = options()
    rnd = random.Random(seed)
    agree = 0
    silent = 0
    bad = []
    for case in range(count):
        g = Gen(rnd)
        tpl = g.template()
        with tempfile.TemporaryDirectory() as tmp:
            with open(os.path.join(tmp, "tpl.yml"), "w") as f:
                f.write(tpl)
            with open(os.path.join(tmp, "helpers.star"), "w") as f:
                f.write("def helper(x):\n  return x\nend\n")
            files = ["-f", "tpl.yml", "-f", "helpers.star"]
            if case % 5 == 4:  # repeated keys replace earlier items instead of failing
                files.append("--implicit-map-key-overrides")
            r = run([ytt] + files, tmp)
            h = run([hintkit, "values"] + files, tmp)
        same = r[0] == h[0] and r[1] == h[1] and normalise(r[2], "ytt") == normalise(h[2], "hintkit")
        if same:
            agree += 1
        else:
            if h[0] == 0 and (r[0] != 0 or r[1] != h[1]):
                silent += 1
            bad.append((case, tpl, r, h))
    for case, tpl, r, h in bad[:show]:
        print(f"=== case {case} (ytt rc {r[0]}, hintkit rc {h[0]})")
        print(tpl)
        print("--- ytt");
        print(r[1][:1200] + r[2][:1200])
        print("--- hintkit")
        print(h[1][:1200] + h[2][:1200])
    print(f"templates: {count} cases (seed {seed}), {agree} agree ({100.0 * agree / max(count, 1):.1f}%), "
          f"{silent} silent wrong answers (hintkit exit 0, different from ytt)")


if __name__ == "__main__":
    main()
