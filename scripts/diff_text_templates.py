#!/usr/bin/env python3
"""Differential check of ytt's text templates and --strict: random inputs through the
reference ytt and hintkit.

Each case is a folder with a text library (`gen.lib.txt`) of random functions built from the
text template language: plain text, `(@= expr @)`, `(@ code @)`, the `-` trims on either side
(`(@-`, `-@)`, `(@-=`), `for`/`if`/`elif`/`else` blocks, nested defs and calls, `(@@)`,
multi-line code blocks, Unicode white space next to trims; a YAML template that loads the
library and prints each function's text as a value (text output is only visible that way);
often a top-level `.txt` template that prints to stderr and reads data values; and now and
then a deliberate mistake (an unclosed `(@`, a stray `@)`, a syntax error, a non-string
printed, an error raised inside a function). One case in four also runs with `--strict` over a
values file of random plain scalars (YAML 1.1 spellings, numbers, strings with spaces, colons,
`---`) and a random `--data-value-yaml`.

Both programs run in the same folder with the same arguments; a case agrees when exit code,
stdout and stderr (program name normalised) are identical. Prints the agreement rate and the
first disagreements.

usage: YTT=/path/to/ytt scripts/diff_text_templates.py [HINTKIT] [--count N] [--seed S] [--show K]
"""
import os
import random
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from diffkit import normalise, options, run  # noqa: E402

WORDS = ["app", "name", "port", "env", "tier", "zone", "size", "mode", "kind", "team"]
SPACES = [" ", "  ", "\t", "\n", "\n\n", " \n ", "\u00a0", "\u2003", "\u3000", ""]
# Plain scalars that strict YAML accepts or refuses, for the --strict family.
STRICT_SCALARS = [
    "1", "-7", "0", "1.5", "2e3", "1E3", "-0.5e-2", "true", "false", "", "web", "a-b", "a_b",
    "yes", "No", "on", "OFF", "y", "~", "null", "Null", "0x1F", "0o17", "0b101", "017", "00",
    "+1", ".5", "1.", ".inf", "-.Inf", ".nan", "1_000", "2001-12-14", "2001-12-14t21:59:43.10-05:00",
    "a b", "http://x", "a:b", "a---b", "18446744073709551615", "18446744073709551616",
    "-9223372036854775809", "1e400", "1e-400", "inf", "NaN", "12e", "1.0.0", "é",
    "'yes'", "\"a b\"", "!!str on", "!!int 7", "|\n    a b",
]


class Gen:
    def __init__(self, rnd):
        self.r = rnd
        self.funcs = []  # (name, argument count)

    def expr(self):
        r = self.r
        return r.choice([
            '"%s"' % r.choice(WORDS), "str(n)", "s", "s.upper()", "str(len(items))",
            "\"-\".join([str(x) for x in items])", "str(n * 3)", "s + str(n)",
            "\"%s\" if n > %d else s" % (r.choice(WORDS), r.randint(0, 9)),
        ])

    def space(self):
        return self.r.choice(SPACES)

    def code_open(self):
        return self.r.choice(["(@", "(@", "(@-"])

    def code_close(self):
        return self.r.choice(["@)", "@)", "-@)"])

    def text(self):
        r = self.r
        return self.space() + r.choice(WORDS + ["a (b) c", "x: y", "[list]", "@", "(", ")"]) + \
            self.space()

    def printing(self):
        r = self.r
        open_ = r.choice(["(@=", "(@=", "(@-="])
        return f"{open_} {self.expr()} {self.code_close()}"

    def body(self, depth, out):
        r = self.r
        for _ in range(r.randint(1, 4)):
            k = r.random()
            if k < 0.3:
                out.append(self.text())
            elif k < 0.55:
                out.append(self.printing())
            elif k < 0.65:
                out.append(f"{self.code_open()} x{depth} = {self.expr()} {self.code_close()}")
                out.append(f"(@= x{depth} @)")
            elif k < 0.75 and depth < 2:
                out.append(f"{self.code_open()} for i{depth} in range({r.randint(0, 3)}): "
                           f"{self.code_close()}")
                out.append(self.text())
                out.append(f"(@= str(i{depth}) @)")
                out.append(f"{self.code_open()} end {self.code_close()}")
            elif k < 0.85 and depth < 2:
                out.append(f"{self.code_open()} if n > {r.randint(0, 9)}: {self.code_close()}")
                self.body(depth + 1, out)
                if r.random() < 0.4:
                    out.append(f"{self.code_open()} elif s == \"{r.choice(WORDS)}\": "
                               f"{self.code_close()}")
                    self.body(depth + 1, out)
                if r.random() < 0.6:
                    out.append(f"{self.code_open()} else: {self.code_close()}")
                    self.body(depth + 1, out)
                out.append(f"{self.code_open()} end {self.code_close()}")
            elif k < 0.9 and self.funcs:
                name, argc = r.choice(self.funcs)
                args = ", ".join(str(r.randint(0, 3)) for _ in range(argc))
                out.append(f"(@= {name}({args}) @)")
            elif k < 0.95:
                out.append(r.choice(["(@@)", "(@--@)", "(@ # a comment @)", "(@- -@)"]))
            else:
                out.append("(@\ny%d = 1\nz%d = y%d + 1\n@)" % (depth, depth, depth))

    def library(self):
        r = self.r
        out = ["(@ load(\"@ytt:data\", \"data\") @)", "(@ n = %d @)" % r.randint(0, 9),
               "(@ s = \"%s\" @)" % r.choice(WORDS), "(@ items = %s @)" % list(range(r.randint(0, 4)))]
        for f in range(r.randint(1, 4)):
            name = "f%d" % f
            argc = r.randint(0, 1)
            params = "k" if argc else ""
            out.append(f"{self.code_open()} def {name}({params}): {self.code_close()}")
            self.body(0, out)
            if argc and r.random() < 0.5:
                out.append("(@= str(k) @)")
            out.append(f"{self.code_open()} end {self.code_close()}")
            self.funcs.append((name, argc))
        return "".join(out) + "\n"

    def mistake(self, lib):
        r = self.r
        m = r.random()
        if m < 0.03:
            return lib + "(@= s \n"  # unclosed
        if m < 0.05:
            return lib + "stray @) here\n"
        if m < 0.07:
            return lib + "(@ x = 1 + @)\n"
        if m < 0.09:
            return lib.replace("(@= s @)", "(@= n @)", 1) if "(@= s @)" in lib else lib + "(@= n @)"
        if m < 0.11:
            return lib + "(@ def boom(): @)(@= str(1 // 0) @)(@ end @)"
        return lib

    def template(self, lib):
        r = self.r
        if "def boom" in lib and r.random() < 0.7:
            self.funcs.append(("boom", 0))
        out = ['#@ load("gen.lib.txt", %s)' % ", ".join('"%s"' % n for n, _ in self.funcs)]
        for name, argc in self.funcs:
            args = ", ".join(str(r.randint(0, 3)) for _ in range(argc))
            out.append(f"{name}_{r.randint(0, 9)}: #@ {name}({args})")
        return "\n".join(out) + "\n"

    def top_text(self):
        r = self.r
        return r.choice([
            "(@ load(\"@ytt:data\", \"data\") @)(@ print(\"top \" + str(data.values.num)) @)"
            "value (@= str(data.values.num) @)\n",
            "plain text only\n",
            "(@ print(\"a\") @)(@ for i in range(2): @)(@ print(str(i)) @)(@ end @)\n",
            "(@= str(1 // 0) @)\n",
        ])


def strict_values(rnd):
    lines = ["#@data/values", "---"]
    for i in range(rnd.randint(1, 4)):
        key = rnd.choice(["k%d" % i, rnd.choice(STRICT_SCALARS[:20]) or "k"])
        lines.append("%s: %s" % (key, rnd.choice(STRICT_SCALARS)))
    return "\n".join(lines) + "\n"


def main():
    hintkit, ytt, count, seed, show = options()
    rnd = random.Random(seed)
    agree = silent = 0
    codes = {}
    bad = []
    for case in range(count):
        g = Gen(rnd)
        lib = g.mistake(g.library())
        tpl = g.template(lib)
        files = {"gen.lib.txt": lib, "tpl.yml": tpl,
                 "values.yml": "#@data/values\n---\nnum: %d\n" % rnd.randint(0, 9)}
        if rnd.random() < 0.5:
            files["top.txt"] = g.top_text()
        args = ["-f", "."]
        if rnd.random() < 0.25:
            files["values.yml"] = "#@data/values\n---\nnum: 1\n"
            files["strict.yml"] = strict_values(rnd)
            args += ["--strict", "--data-value-yaml", "dv=" + rnd.choice(STRICT_SCALARS[:40])]
        with tempfile.TemporaryDirectory() as tmp:
            for name, text in files.items():
                with open(os.path.join(tmp, name), "w") as f:
                    f.write(text)
            r = run([ytt] + args, tmp)
            h = run([hintkit, "values"] + args, tmp)
        codes[r[0]] = codes.get(r[0], 0) + 1
        same = r[0] == h[0] and r[1] == h[1] and normalise(r[2], "ytt") == normalise(h[2], "hintkit")
        if same:
            agree += 1
        else:
            if h[0] == 0 and (r[0] != 0 or r[1] != h[1]):
                silent += 1
            bad.append((case, files, args, r, h))
    for case, files, args, r, h in bad[:show]:
        print(f"=== case {case} (ytt rc {r[0]}, hintkit rc {h[0]}) args {' '.join(args)}")
        for name, text in files.items():
            print(f"--- {name}\n{text}")
        print("--- ytt")
        print(r[1][:1200] + r[2][:1200])
        print("--- hintkit")
        print(h[1][:1200] + h[2][:1200])
    print(f"text templates: {count} cases (seed {seed}), {agree} agree "
          f"({100.0 * agree / max(count, 1):.1f}%), {silent} silent wrong answers "
          "(hintkit exit 0, different from ytt); ytt exit codes: " +
          ", ".join(f"{k}: {v}" for k, v in sorted(codes.items())))


if __name__ == "__main__":
    main()
