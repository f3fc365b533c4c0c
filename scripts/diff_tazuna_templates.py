#!/usr/bin/env python3
"""Differential check of tazuna.yaml's Go template rendering: random templates through Go's
text/template, as tazuna renders tazuna.yaml (pkg/tmpl: `template.New(name)
.Option("missingkey=error")`, data `{Environment: <-e value>}`), and through hintkit's resolver
(tests/support/render_tazuna_template.cpp, built with the tests).

The Go side is a main of a few lines written here (and tazuna's `Data` type in a package\n`tmpl`) (Go's standard library only), compiled with
the `go` on PATH (Debian's golang) into a temporary folder. Each case is a template made of
text, comments, trim markers, actions with pipelines, variables, literals of every kind Go's
lexer knows (numbers in every base, with underscores, floats, characters, raw and quoted
strings), `if`/`else if`/`with`/`else`, the builtins hintkit renders and some it refuses
(`range`, `index`, unknown functions), rendered with a random environment. A third of the
cases are named templates: top-level `define`s calling each other (and themselves), `template`
and `block` actions with every kind of argument, variables inside and around them.

A case agrees when both render the same text, or both stop at an error (the wording is
hintkit's own: an HK316 diagnostic at its place). hintkit refusing a feature (exit 2) is
counted apart. A silent wrong answer is hintkit rendering where Go fails, or rendering other
text: the figure that must stay 0.

usage: scripts/diff_tazuna_templates.py [RENDERER] [--count N] [--seed S] [--show K]
RENDERER defaults to build/tests/render_tazuna_template.
"""
import os
import random
import subprocess
import sys
import tempfile

# tazuna's data type, in a package of the same name so that Go prints it as tazuna's does
# (`%v` of the dot: {prod}; `%!(EXTRA tmpl.Data=...)`).
GO_DATA = r'''package tmpl

type Data struct{ Environment string }
'''

GO_MAIN = r'''package main

import (
	"bytes"
	"fmt"
	"os"
	"text/template"

	"tmpl"
)

func main() {
	raw, err := os.ReadFile(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	// Named by its path, as tazuna names it (and as hintkit's renderer does)
	t, err := template.New(os.Args[1]).Option("missingkey=error").Parse(string(raw))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	var buf bytes.Buffer
	if err := t.Execute(&buf, tmpl.Data{Environment: os.Args[2]}); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Stdout.Write(buf.Bytes())
}
'''

ENVIRONMENTS = ["", "prod", "stg", "x y", "\u00e9t\u00e9", "%s", "<b>&", "0", "true", "a'b=\"c\\",
                "\u200b\t"]
NUMBERS = ["0", "1", "-1", "+1", "42", "007", "0x1F", "0X1f", "0o17", "0O17", "0b101", "0B1",
           "1_000", "0x_1F", "1__0", "_1", "1_", "0_7", "1.5", "-2.50", ".5", "5.", "1e3", "1E-3",
           "1e100", "0x1p4", "0x1.8p1", "9223372036854775807", "9223372036854775808",
           "-9223372036854775808", "18446744073709551615", "18446744073709551616", "1i",
           "'a'", "'\\n'", "'\u00e9'", "'\\x41'", "1.5.2", "0x", "08", "0b2", "1e", "-0",
           "123456789012345678901234567890", "1.0", "100000000000000000000.0", "0.000001",
           "1e21", "1e20", "12345678.9", "3.0e0"]
STRINGS = ['"x"', '""', '"a b"', '"%d"', '"\\t\\u00e9\\x41"', '`raw ${x}`', '"prod"',
           '"\\"q\\""', '"\\z"', '`a\nb`', '"%s-%v"', '"%5.1f|%-4s|%x|%t|%c|%U|%T"',
           '"%s|%d|%v"', '"%d %s"', '"%v"']
FUNCS_OK = ["and", "or", "not", "eq", "ne", "lt", "le", "gt", "ge", "len", "print", "println",
            "printf", "html", "js", "urlquery"]
FUNCS_OTHER = ["index", "slice", "call", "foo", "printf"]
TEXT = ["a: ", "b: x", "\n", "  ", " ", "key: value\n", "- item\n", "#", "{", "}", "x"]


class Gen:
    def __init__(self, rnd):
        self.r = rnd
        self.vars = []
        self.depth = 0

    def operand(self):
        r = self.r
        k = r.random()
        if k < 0.25:
            if r.random() < 0.1:
                return r.choice([".Unknown", ".Environment.Foo", "$.Nope"])
            return r.choice([".Environment", ".Environment", ".", "$", "$.Environment"])
        if k < 0.45:
            return r.choice(NUMBERS)
        if k < 0.65:
            return r.choice(STRINGS)
        if k < 0.72:
            return r.choice(["true", "false", "nil"])
        if k < 0.82 and self.vars:
            return r.choice(self.vars)
        if k < 0.835:
            return "$undeclared"
        if self.depth < 3:
            self.depth += 1
            p = "(" + self.pipeline() + ")"
            self.depth -= 1
            return p
        return ".Environment"

    def command(self):
        r = self.r
        if r.random() < 0.45 or self.depth >= 3:
            return self.operand()
        self.depth += 1
        f = r.choice(FUNCS_OK) if r.random() < 0.9 else r.choice(FUNCS_OTHER)
        n = {"not": 1, "len": 1, "eq": 2, "ne": 2, "lt": 2, "le": 2, "gt": 2, "ge": 2}.get(f, 0)
        if n == 0 or r.random() < 0.1:
            n = r.randint(0, 3)
        args = [self.operand() for _ in range(n)]
        if f == "printf" and r.random() < 0.7:
            args.insert(0, r.choice(STRINGS))
        self.depth -= 1
        return " ".join([f] + args)

    def pipeline(self):
        r = self.r
        cmds = [self.command()]
        while r.random() < 0.2:
            cmds.append(r.choice(FUNCS_OK + ["printf \"[%v]\""]) + "")
        p = " | ".join(cmds)
        if r.random() < 0.15:
            name = "$" + r.choice(["x", "y", "e", "_", "x1"])
            if name in self.vars and r.random() < 0.5:
                return name + " = " + p
            self.vars.append(name)
            return name + " := " + p
        return p

    def action(self, body):
        r = self.r
        left = "{{- " if r.random() < 0.2 else "{{ " if r.random() < 0.8 else "{{"
        right = " -}}" if r.random() < 0.2 else " }}" if r.random() < 0.8 else "}}"
        return left + body + right

    def block(self, n):
        r = self.r
        out = []
        for _ in range(n):
            k = r.random()
            if k < 0.35:
                out.append(r.choice(TEXT))
            elif k < 0.7:
                out.append(self.action(self.pipeline()))
            elif k < 0.75:
                out.append(self.action("/* c */") if r.random() < 0.8 else "{{/* c */}}")
            elif k < 0.9 and self.depth < 2:
                kw = r.choice(["if", "if", "with", "range"] if r.random() < 0.9 else ["define \"t\"", "template \"t\"", "block \"t\" ."])
                self.depth += 1
                saved = list(self.vars)
                s = self.action(kw + " " + self.pipeline()) if not kw.startswith(("define", "template")) else self.action(kw)
                if kw.startswith("template"):
                    out.append(s)
                    self.depth -= 1
                    continue
                s += self.block(r.randint(0, 3))
                if kw in ("if", "with") and r.random() < 0.4:
                    if kw == "if" and r.random() < 0.3:
                        s += self.action("else if " + self.pipeline()) + self.block(r.randint(0, 2))
                    s += self.action("else") + self.block(r.randint(0, 2))
                if r.random() < 0.97:
                    s += self.action("end")
                self.vars = saved
                self.depth -= 1
                out.append(s)
            elif k < 0.92:
                out.append(r.choice(["{{", "}}", "{{ }}", "{{ .Environment ", "{{ 1 2 }}",
                                     "{{ end }}", "{{ else }}", "{{ $x }}", "{{ .Environment | }}",
                                     "{{ \"unterminated }}", "{{ ) }}", "{{ printf }}"]))
            else:
                out.append("\n")
        return "".join(out)


    # Actions that succeed whatever the dot holds (data, string, number or nil), for the bodies
    # of named templates: they show what the dot and `$` are there.
    SAFE = ["{{.}}", "{{$}}", "{{print . \"-x\"}}", "{{printf \"%v|\" $}}", "{{if .}}y{{else}}n{{end}}",
            "{{with .}}[{{.}}]{{end}}", "{{$x := 1}}{{$x}}", "{{len (print .)}}", "{{- \" \" -}}",
            "{{/* c */}}", "{{ . | print }}"]

    def body(self, names, name):
        r = self.r
        out = []
        for _ in range(r.randint(1, 4)):
            k = r.random()
            if k < 0.3:
                out.append(r.choice(TEXT))
            elif k < 0.75:
                out.append(r.choice(self.SAFE))
            elif k < 0.85:
                out.append(self.call(names, growing=False))
            elif k < 0.9:  # recursion that ends when the dot is "stop"
                out.append('{{if ne (print .) "stop"}}{{template "' + name + '" "stop"}}{{end}}')
            elif k < 0.92:  # one that never ends
                out.append('{{template "' + name + '" .}}')
            elif k < 0.95:
                out.append("{{$y}}")  # a variable of the caller's: out of sight
            else:
                out.append(self.action(self.pipeline()))
        return "".join(out)

    def call(self, names, growing=True):
        """A `template` or `block` action: a defined name (sometimes one not defined), with
        the dot, a literal, a made string or none. Inside a named template no made string is
        passed on: a call chain that never ends would grow it at each of Go's 100,000 levels,
        which takes Go minutes."""
        r = self.r
        name = r.choice(names) if r.random() < 0.93 else "undefined"
        args = ["", " .", " .", " $", ' "lit"', ' "stop"', " 1", " nil", " .Environment"]
        arg = r.choice(args + ([' (print . "s")'] if growing else []))
        if r.random() < 0.15:  # a block: defines its name where it stands and calls it
            return ("{{block \"b" + str(r.randint(0, 3)) + "\"" + (arg or " .") + "}}" +
                    r.choice(self.SAFE) + "{{end}}")
        return "{{template \"" + name + "\"" + arg + "}}"

    def defines(self):
        """A text of top-level `define`s and a main text that calls them: bodies that show
        their dot and `$`, calls of each other, a recursion that stops on the dot (or never),
        a caller's variable out of sight, and now and then a define of the main template's own
        name (@MAIN@, its path) or one with nothing but white space."""
        r = self.r
        names = [n for n in ("a", "b", "host", "t") if r.random() < 0.6] or ["a"]
        out = []
        for name in names:
            body = self.body(names, name) if r.random() < 0.95 else "  \n"
            defined = name if r.random() < 0.95 else "@MAIN@"
            out.append('{{define "' + defined + '"}}' + body + "{{end}}")
        if r.random() < 0.3:
            out.append("{{$y := .Environment}}")
        for _ in range(r.randint(1, 4)):
            out.append(self.call(names) if r.random() < 0.7 else r.choice(TEXT))
        if r.random() < 0.1:
            out = [o for o in out if o.startswith("{{define")]  # a main text of defines only
        r.shuffle(out)
        return "".join(out)


def run(cmd):
    p = subprocess.run(cmd, capture_output=True, timeout=30)
    return p.returncode, p.stdout, p.stderr.decode("utf-8", "replace")


def main():
    args = sys.argv[1:]
    opts = {"--count": "200", "--seed": "1", "--show": "5"}
    rest = []
    i = 0
    while i < len(args):
        if args[i] in opts and i + 1 < len(args):
            opts[args[i]] = args[i + 1]
            i += 2
        else:
            rest.append(args[i])
            i += 1
    renderer = os.path.abspath(rest[0] if rest else "build/tests/render_tazuna_template")
    if not os.access(renderer, os.X_OK):
        sys.exit(f"no renderer at {renderer} (build the tests: render_tazuna_template)")
    count, seed, show = int(opts["--count"]), int(opts["--seed"]), int(opts["--show"])
    rnd = random.Random(seed)
    with tempfile.TemporaryDirectory() as tmp:
        gopath = os.path.join(tmp, "gopath")
        os.makedirs(os.path.join(gopath, "src", "tmpl"))
        with open(os.path.join(gopath, "src", "tmpl", "data.go"), "w") as f:
            f.write(GO_DATA)
        src = os.path.join(tmp, "main.go")
        with open(src, "w") as f:
            f.write(GO_MAIN)
        go = os.path.join(tmp, "render")
        env = dict(os.environ, GO111MODULE="off", GOPATH=gopath,
                   GOCACHE=os.path.join(tmp, "cache"))
        b = subprocess.run(["go", "build", "-o", go, src], capture_output=True, env=env, cwd=tmp)
        if b.returncode != 0:
            sys.exit("go build failed:\n" + b.stderr.decode())
        tally = {"same text": 0, "both fail": 0, "refused": 0, "stricter": 0, "silent": 0}
        named_tally = {}  # the cases of named templates (Gen.defines)
        shown = 0
        for n in range(count):
            g = Gen(rnd)
            named = rnd.random() < 0.3
            text = g.defines() if named else g.block(rnd.randint(1, 7))
            environment = rnd.choice(ENVIRONMENTS)
            path = os.path.join(tmp, "t.yaml")
            with open(path, "w") as f:
                f.write(text.replace("@MAIN@", path))  # a define of the main template's name
            grc, gout, gerr = run([go, path, environment])
            hrc, hout, herr = run([renderer, path, environment])
            if hrc == 2:
                kind = "refused"
            elif grc == 0 and hrc == 0:
                kind = "same text" if gout == hout else "silent"
            elif grc != 0 and hrc != 0:
                kind = "both fail"
            elif hrc == 0:
                kind = "silent"
            else:
                kind = "stricter"
            tally[kind] += 1
            if named:
                named_tally[kind] = named_tally.get(kind, 0) + 1
            if kind in ("silent", "stricter") and shown < show:
                shown += 1
                print(f"--- case {n} ({kind}), environment {environment!r}\n{text}")
                print(f"--- go (exit {grc})\n{gout.decode('utf-8', 'replace')}{gerr}")
                print(f"--- hintkit (exit {hrc})\n{hout.decode('utf-8', 'replace')}{herr}")
        agree = tally["same text"] + tally["both fail"]
        print(f"tazuna templates: {count} cases (seed {seed}), {agree} agree "
              f"({100.0 * agree / count:.1f}%: {tally['same text']} same text, "
              f"{tally['both fail']} both fail), {tally['silent']} silent wrong answers, "
              f"{tally['stricter']} where hintkit fails and Go renders, "
              f"{tally['refused']} refused; of them named templates: " +
              ", ".join(f"{k} {n}" for k, n in sorted(named_tally.items())))
        return 1 if tally["silent"] else 0


if __name__ == "__main__":
    sys.exit(main())
