#!/usr/bin/env python3
"""Differential check of data values schemas: random schemas and data values through the
reference ytt and hintkit.

Each case is a random `schema.yml` (`#@data/values-schema`): maps nested a few levels, arrays
of scalars or maps, every scalar type, `null` leaves, and on any node some of
`@schema/type` (`any=True`, and wrong keywords or argument types), `@schema/nullable`,
`@schema/default`, `@schema/desc`, `@schema/title`, `@schema/examples`, `@schema/deprecated`
and `@schema/validation` (each keyword, custom rules, `when=`), each now and then with wrong
arguments. Data values come from a `#@data/values` file (sometimes carrying `@assert/validate`),
a plain `--data-values-file`, `--data-value`, `--data-value-yaml` and `--data-values-env`
(`DVS_a__b`), with values of the wrong type and unknown keys mixed in. Some cases have no
schema, some neither schema nor values. Each case runs in one of three modes: plain render of
a template reading `data.values`, `--data-values-inspect` (sometimes `-o json`), or
`--data-values-schema-inspect -o openapi-v3`.

Both programs run in the same folder with the same arguments and environment; a case agrees
when exit code, stdout and stderr (program name normalised) are identical. Prints the
agreement rate, the silent wrong answers (hintkit exits 0 with an answer ytt does not give)
and the first disagreements (inputs, then both outputs).

Half the cases (`--gen mixed`, the default) come from scripts/diff_schemas_scenarios.py
instead: families of cases aimed at one mechanism each (validation rules and assertion
objects, every data values flag form, overlays on schemas and data values, documentation
annotations and OpenAPI output, schema documents merged across files before they are typed,
libraries given schemas and data values, flag keys with odd paths). `--gen random` or
`--gen scenario` runs one kind only; `--family F` one family of scenarios.

usage: YTT=/path/to/ytt scripts/diff_schemas.py [HINTKIT] [--count N] [--seed S] [--show K]
                                                [--gen random|scenario|mixed] [--family F]
"""
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from diffkit import normalise, options, run, write_files  # noqa: E402
from diff_schemas_scenarios import make_scenario  # noqa: E402
import random

WORDS = ["app", "name", "port", "env", "tier", "zone", "size", "mode", "kind", "team", "host"]
FORMATS = ["ip", "hostname", "uuid", "semver", "email", "url", "date", "bogus"]


class Node:
    """A schema node: kind is map, array, int, float, str, bool, null."""

    def __init__(self, kind, children=None, item=None, text=None):
        self.kind = kind
        self.children = children or []  # [(key, Node)]
        self.item = item
        self.text = text
        self.anns = []
        self.any = False
        self.nullable = False


class Gen:
    def __init__(self, rnd):
        self.r = rnd
        self.uid = 0

    def key(self):
        self.uid += 1
        if self.r.random() < 0.03:
            return str(self.uid)  # an integer key
        return self.r.choice(WORDS) + str(self.uid)

    # ---- scalars -------------------------------------------------------------------------------

    def scalar_text(self, kind):
        r = self.r
        if kind == "int":
            return str(r.choice([0, 1, 3, 80, -2, 1024]))
        if kind == "float":
            return r.choice(["0.5", "1.0", "2.25", "-1.5", "1e3"])
        if kind == "str":
            return r.choice(['""', '"x"', "hello", '"8080"', "'a b'", '"true"'])
        if kind == "bool":
            return r.choice(["true", "false"])
        return r.choice(["null", "~", ""])

    def starlark_of(self, kind, wrong=False):
        r = self.r
        if wrong:
            kind = r.choice([k for k in ["int", "float", "str", "bool", "list", "dict", "none"]
                             if k != kind])
        return {
            "int": lambda: str(r.randint(-3, 100)),
            "float": lambda: r.choice(["0.5", "2.0", "-1.25"]),
            "str": lambda: r.choice(['"abc"', '""', '"1"']),
            "bool": lambda: r.choice(["True", "False"]),
            "list": lambda: r.choice(["[]", "[1, 2]", '["a"]']),
            "dict": lambda: r.choice(["{}", '{"a": 1}']),
            "none": lambda: "None",
            "null": lambda: "None",
            "map": lambda: r.choice(["{}", '{"x": 1}']),
            "array": lambda: r.choice(["[]", "[1]", '["a", "b"]']),
        }[kind]()

    # ---- schema --------------------------------------------------------------------------------

    def node(self, depth):
        r = self.r
        roll = r.random()
        if depth < 3 and roll < 0.25:
            n = Node("map", children=[(self.key(), self.node(depth + 1))
                                      for _ in range(r.randint(0, 3))])
        elif depth < 3 and roll < 0.38:
            n = Node("array", item=self.node(depth + 1))
            if r.random() < 0.04:
                n.extra_items = r.choice([0, 2])  # ytt wants exactly one
        else:
            kind = r.choice(["int", "int", "float", "str", "str", "bool", "null"])
            n = Node(kind, text=self.scalar_text(kind))
        self.annotate(n)
        return n

    def annotate(self, n):
        r = self.r
        wrong = lambda: r.random() < 0.15  # noqa: E731
        for _ in range(r.choice([0, 0, 0, 1, 1, 2])):
            pick = r.choice(["type", "nullable", "default", "desc", "title", "examples",
                             "deprecated", "validation", "validation"])
            if pick == "type":
                if wrong():
                    n.anns.append(r.choice(["schema/type any=1", "schema/type foo=True",
                                            "schema/type", "schema/type True"]))
                else:
                    n.any = r.random() < 0.8
                    n.anns.append("schema/type any=%s" % ("True" if n.any else "False"))
            elif pick == "nullable":
                n.nullable = True
                n.anns.append(r.choice(["schema/nullable"] * 6 + ["schema/nullable 1",
                                                                  "schema/nullable x=True"]))
            elif pick == "default":
                if wrong():
                    n.anns.append(r.choice(["schema/default", "schema/default 1, 2",
                                            "schema/default x=1"]))
                else:
                    n.anns.append("schema/default " + self.starlark_of(
                        n.kind, wrong=r.random() < 0.2))
            elif pick in ("desc", "title"):
                arg = r.choice(['"about it"'] * 5 + ["1", '"a", "b"', "", "x=1"])
                n.anns.append("schema/%s %s" % (pick, arg))
            elif pick == "examples":
                val = self.starlark_of(n.kind, wrong=r.random() < 0.2)
                n.anns.append("schema/examples " + r.choice([
                    '("an example", %s)' % val,
                    '("one", %s), ("two", %s)' % (val, val),
                    '("only",)', '["d", %s]' % val, '("d", %s, 3)' % val, '(1, %s)' % val,
                    "", "x=1"]))
            elif pick == "deprecated":
                n.anns.append(r.choice(['schema/deprecated "use other"'] * 4 +
                                       ["schema/deprecated", "schema/deprecated 1",
                                        'schema/deprecated "a", x=1']))
            else:
                n.anns.append("schema/validation " + self.rules(n.kind))

    def rules(self, kind):
        r = self.r
        parts = []
        for _ in range(r.randint(1, 2)):
            parts.append(r.choice([
                "min=%d" % r.randint(0, 5), "max=%d" % r.randint(0, 100),
                "min_len=%d" % r.randint(0, 3), "max_len=%d" % r.randint(1, 5),
                "one_of=[%s, %s]" % (self.starlark_of(kind), self.starlark_of(kind)),
                "not_null=True", "not_null=1",
                "one_not_null=True", "one_not_null=False", 'one_not_null=["a", "b"]',
                'format="%s"' % r.choice(FORMATS),
                'min="a"', "max_len=[1]", "one_of=3",
                "when=lambda v: %s" % r.choice(["True", "False", "v != None"]),
                "when=True",
                "when_null_skip=True", "when_null_skip=1",
                'unknown_kw=1',
            ]))
        if r.random() < 0.35:
            parts.insert(0, r.choice([
                '("be positive", lambda v: v > 0)', '("short", lambda v: len(v) < 3)',
                '("anything", lambda v: True)', '("fails", lambda v: fail("no good"))',
                '("a", "b")', '("a", lambda v: True, 3)', '("a",)', "lambda v: True",
            ]))
        return ", ".join(parts)

    # ---- YAML rendering ------------------------------------------------------------------------

    def render_value(self, n, ind, lines, prefix):
        """Appends `prefix` + n's value (prefix is 'key:' or '-')."""
        if n.kind == "map":
            if not n.children:
                lines.append(ind + prefix + " {}")
                return
            lines.append(ind + prefix)
            self.render_map(n.children, ind + "  ", lines)
        elif n.kind == "array":
            count = getattr(n, "extra_items", 1)
            if count == 0:
                lines.append(ind + prefix + " []")
                return
            lines.append(ind + prefix)
            for _ in range(count):
                for a in n.item.anns:
                    lines.append(ind + "#@" + a)
                if n.item.kind == "map" and n.item.children and self.r.random() < 0.5:
                    # "- key: v" with the map's first item on the dash's line
                    sub = []
                    self.render_map(n.item.children, ind + "  ", sub)
                    first = next(i for i, l in enumerate(sub) if not l.lstrip().startswith("#@"))
                    if first == 0:
                        lines.append(ind + "- " + sub[0][len(ind) + 2:])
                        lines.extend(sub[1:])
                        continue
                self.render_value(n.item, ind, lines, "-")
        else:
            lines.append(ind + prefix + (" " + n.text if n.text else ""))

    def render_map(self, children, ind, lines):
        for k, c in children:
            for a in c.anns:
                lines.append(ind + "#@" + a)
            self.render_value(c, ind, lines, k + ":")

    def schema(self):
        r = self.r
        root = Node("map", children=[(self.key(), self.node(0)) for _ in range(r.randint(1, 4))])
        lines = ["#@data/values-schema", "---"]
        if r.random() < 0.03:
            lines.insert(0, "#@data/values-schema")  # twice on one document
        self.render_map(root.children, "", lines)
        if r.random() < 0.15:
            # a second schema document: overlays the first (new keys need missing_ok)
            lines += ["", "#@data/values-schema", "---"]
            k, c = r.choice(root.children)
            extra = Node("map", children=[(self.key(), self.node(1))])
            if r.random() < 0.7:
                lines.append("#@overlay/match missing_ok=True")
            self.render_map(extra.children, "", lines)
            if c.kind != "map" or r.random() < 0.5:
                self.render_map([(k, self.node(1))], "", lines)
            root.children += extra.children
        if r.random() < 0.03:
            lines += ["", "---", "other: doc"]  # not a schema document
        return root, "\n".join(lines) + "\n"

    # ---- data values ---------------------------------------------------------------------------

    def value_text(self, n, wrong):
        r = self.r
        kind = n.kind
        if wrong or n.any:
            kind = r.choice(["int", "float", "str", "bool", "null", "map", "array"])
        if kind == "map":
            return r.choice(["{}", "{a: 1}"])
        if kind == "array":
            return r.choice(["[]", "[1, two]", "[{a: 1}]"])
        return self.scalar_text(kind) or "null"

    def values_tree(self, n, ind, lines, prefix):
        r = self.r
        if n.kind == "map" and not n.any and r.random() < 0.85:
            kids = [kc for kc in n.children if r.random() < 0.6]
            extra = r.random() < 0.08
            if not kids and not extra:
                lines.append(ind + prefix + " {}")
                return
            lines.append(ind + prefix)
            for k, c in kids:
                self.values_tree(c, ind + "  ", lines, k + ":")
            if extra:
                if r.random() < 0.4:
                    lines.append(ind + "  #@overlay/match missing_ok=True")
                lines.append(ind + "  " + r.choice(["nme", "prot", "unknown"]) + ": 1")
        elif n.kind == "array" and not n.any and r.random() < 0.85:
            count = r.randint(0, 2)
            if count == 0:
                lines.append(ind + prefix + " []")
                return
            lines.append(ind + prefix)
            for _ in range(count):
                self.values_tree(n.item, ind, lines, "-")
        else:
            lines.append(ind + prefix + " " + self.value_text(n, r.random() < 0.15))

    def values_file(self, root, with_asserts):
        lines = []
        if with_asserts:
            lines.append("#@ load(\"@ytt:assert\", \"assert\")")
        lines += ["#@data/values", "---"]
        for k, c in root.children:
            if self.r.random() < 0.6:
                if with_asserts and self.r.random() < 0.5:
                    lines.append("#@assert/validate " + self.r.choice([
                        '("be positive", lambda v: v > 0)', "min=1", "not_null=True",
                        'min_len=1, max_len=3', "assert.min(1)", '("x", 1)', "(1, 2, 3)"]))
                self.values_tree(c, "", lines, k + ":")
        return "\n".join(lines) + "\n"

    def leaf_paths(self, n, path, out):
        if n.kind == "map" and not n.any:
            for k, c in n.children:
                self.leaf_paths(c, path + [k], out)
        elif path:
            out.append((path, n))

    def free_schema(self):
        """A tree for data values without a schema."""
        return Node("map", children=[(self.key(), self.node(1)) for _ in range(self.r.randint(1, 3))])


TEMPLATE = '#@ load("@ytt:data", "data")\n---\nvalues: #@ data.values\n'


def make_case(rnd):
    g = Gen(rnd)
    files = {}
    args = []
    env = {}
    kind = rnd.random()
    has_schema = kind < 0.8
    root = None
    if has_schema:
        root, files["schema.yml"] = g.schema()
        args += ["-f", "schema.yml"]
    elif kind < 0.95:
        root = g.free_schema()
    if root is not None and rnd.random() < 0.6:
        files["values.yml"] = g.values_file(root, with_asserts=not has_schema or rnd.random() < 0.2)
        args += ["-f", "values.yml"]
    if root is not None:
        paths = []
        g.leaf_paths(root, [], paths)
        if paths and rnd.random() < 0.2:
            lines = []
            for k, c in root.children:
                if rnd.random() < 0.6:
                    g.values_tree(c, "", lines, k + ":")
            files["plain.yml"] = "\n".join(lines or ["{}"]) + "\n"
            args += ["--data-values-file", "plain.yml"]
        for _ in range(rnd.choice([0, 0, 1, 2])):
            if not paths:
                break
            path, n = rnd.choice(paths)
            if rnd.random() < 0.1:
                path = path[:-1] + ["unknwn"]
            flag = rnd.choice(["--data-value", "--data-value-yaml", "env", "env-yaml"])
            val = g.value_text(n, rnd.random() < 0.2)
            if flag == "env":
                env["DVS_" + "__".join(path)] = val
                if "--data-values-env" not in args:
                    args += ["--data-values-env", "DVS"]
            elif flag == "env-yaml":
                env["DVY_" + "__".join(path)] = val
                if "--data-values-env-yaml" not in args:
                    args += ["--data-values-env-yaml", "DVY"]
            else:
                args += [flag, ".".join(path) + "=" + val]
    mode = rnd.random()
    if mode < 0.4:
        args.append("--data-values-inspect")
        if rnd.random() < 0.2:
            args += ["-o", "json"]
    elif mode < 0.65 and has_schema:
        args += ["--data-values-schema-inspect", "-o", "openapi-v3"]
    else:
        files["tpl.yml"] = TEMPLATE
        args += ["-f", "tpl.yml"]
    return files, args, env


def main():
    # --gen random|scenario|mixed: random trees (below), the mechanism scenarios of
    # diff_schemas_scenarios.py, or either at random (the default).
    gen = "mixed"
    if "--gen" in sys.argv:
        i = sys.argv.index("--gen")
        gen = sys.argv[i + 1]
        del sys.argv[i:i + 2]
    # --family NAME: only the scenarios of that family (implies --gen scenario).
    family = None
    if "--family" in sys.argv:
        i = sys.argv.index("--family")
        family = sys.argv[i + 1]
        del sys.argv[i:i + 2]
        gen = "scenario"
    hintkit, ytt, count, seed, show = options()
    rnd = random.Random(seed)
    agree = silent = both_refuse = 0
    bad = []
    base_env = {k: v for k, v in os.environ.items() if not k.startswith(("DVS_", "DVY_", "DV_", "MY_APP_"))}
    for case in range(count):
        scenario = gen == "scenario" or (gen == "mixed" and rnd.random() < 0.5)
        files, argv, extra_env = make_scenario(rnd, family) if scenario else make_case(rnd)
        env = dict(base_env, **extra_env)
        with tempfile.TemporaryDirectory() as tmp:
            write_files(tmp, files)
            r = run([ytt] + argv, tmp, env)
            h = run([hintkit, "values"] + argv, tmp, env)
        same = r[0] == h[0] and r[1] == h[1] and normalise(r[2], "ytt") == normalise(h[2], "hintkit")
        if same:
            agree += 1
            continue
        wrong_ok = h[0] == 0 and (r[0] != 0 or r[1] != h[1])
        silent += wrong_ok
        # ytt crashed (a Go panic, exit 2, or one a builtin caught: exit 1 with "runtime error")
        # where hintkit refuses (exit 2): no answer either way.
        both_refuse += h[0] == 2 and ((r[0] == 2 and "panic:" in r[2]) or
                                      (r[0] == 1 and "runtime error: " in r[2]))
        bad.append((case, files, argv, extra_env, r, h, wrong_ok))
    # Silent wrong answers first: they are the worst.
    bad.sort(key=lambda b: not b[6])
    for case, files, argv, extra_env, r, h, wrong_ok in bad[:show]:
        tag = "SILENT " if wrong_ok else ""
        print(f"=== {tag}case {case} (ytt rc {r[0]}, hintkit rc {h[0]}): "
              f"{' '.join(argv)} {' '.join(k + '=' + v for k, v in extra_env.items())}")
        for name, text in files.items():
            if name != "tpl.yml":
                print(f"--- {name}\n{text}", end="")
        print("--- ytt")
        print(r[1][:1500] + r[2][:1500])
        print("--- hintkit")
        print(h[1][:1500] + h[2][:1500])
    what = f"--family {family}" if family else f"--gen {gen}"
    print(f"schemas: {count} cases (seed {seed}, {what}), {agree} agree ({100.0 * agree / max(count, 1):.1f}%), "
          f"{silent} silent wrong answers (hintkit exit 0, different from ytt), "
          f"{both_refuse} where ytt panics and hintkit refuses")


if __name__ == "__main__":
    main()
