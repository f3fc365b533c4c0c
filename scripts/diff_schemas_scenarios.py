"""Scenario cases for scripts/diff_schemas.py: instead of random trees, each case is one of a
few families that aim at one mechanism of ytt's data values each, with random parameters:

- rules: `@schema/validation` keywords on values that pass or fail (min/max on numbers, strings
  and lists, min_len/max_len on strings, lists and maps, one_of, format, not_null with
  nullable, one_not_null over nullable children, when= with ctx.parent/ctx.root,
  when_null_skip), assertion objects of @ytt:assert, custom rules from a loaded .star file,
  several failures at once, `--dangerous-data-values-disable-validation`;
- flags: every flag form (`--data-value`, `--data-value-yaml` with nested YAML,
  `--data-value-file`, `--data-values-file` as a file or a directory, `--data-values-env` and
  `--data-values-env-yaml` with nested `__` keys), malformed flags, unknown keys, wrong types;
- overlays: several schema files and documents (missing_ok, remove, replace,
  match-child-defaults), data values documents editing arrays of maps (append, match by,
  replace, remove), `@data/values` with `@assert/validate`;
- docs: `@schema/desc`/`title`/`examples`/`deprecated`/`nullable`/`type any` with right and
  wrong arguments, for `--data-values-schema-inspect -o openapi-v3`.

Each family returns (files, argv, env); files may hold a folder (`dir/name`)."""
import random

KEYS = ["name", "port", "replicas", "host", "tags", "size", "mode", "ratio", "enabled", "email",
        "version", "labels", "items", "owner", "zone"]
FORMATS = {
    "ip": ['"10.0.0.1"', '"::1"', '"300.1.1.1"', '"abc"'],
    "hostname": ['"example.com"', '"a_b"', '"-bad"', '"x"'],
    "uuid": ['"123e4567-e89b-12d3-a456-426614174000"', '"123"', '""'],
    "semver": ['"1.2.3"', '"v1.2"', '"1.2.3-rc.1"', '"x"'],
    "email": ['"a@b.co"', '"nope"', '"a b@c"'],
    "url": ['"https://x.io/a"', '"not a url"', '"ftp://h"', '"/rel"'],
    "date": ['"2024-01-02"', '"2024-13-01"', '"yesterday"'],
    "bogus": ['"x"'],
}


class Scen:
    def __init__(self, rnd):
        self.r = rnd
        self.files = {}
        self.args = []
        self.env = {}
        self.uid = 0

    def key(self):
        self.uid += 1
        return self.r.choice(KEYS) + (str(self.uid) if self.r.random() < 0.7 else "_" + str(self.uid))

    def pick(self, *xs):
        return self.r.choice(xs)

    def mode(self, schema=True, allow_template=True):
        r = self.r.random()
        if r < 0.45:
            self.args.append("--data-values-inspect")
            if self.r.random() < 0.25:
                self.args += ["-o", "json"]
        elif r < 0.6 and schema:
            self.args += ["--data-values-schema-inspect", "-o", "openapi-v3"]
        elif allow_template:
            tpl = '#@ load("@ytt:data", "data")\n---\nvalues: #@ data.values\n'
            if self.r.random() < 0.3:
                tpl += "---\n#@ for k in data.values:\n- #@ k\n#@ end\n"
            self.files["tpl.yml"] = tpl
            self.args += ["-f", "tpl.yml"]
        else:
            self.args.append("--data-values-inspect")

    # ---- rules --------------------------------------------------------------------------------

    def field_with_rule(self):
        """(key, schema lines, values for the field that pass or fail)."""
        r = self.r
        kind = self.pick("int", "float", "str", "list", "map", "nullstr", "nullmap", "any")
        k = self.key()
        anns = []
        if kind == "int":
            default = str(r.choice([0, 1, 5, 10, -3]))
            rule = self.pick("min=%d" % r.randint(0, 6), "max=%d" % r.randint(0, 10),
                             "min=1, max=5", "one_of=[1, 2, 3]", "one_of=(0, 10)",
                             'min="a"', "max=1.5", "min=True", "one_of=[1, \"2\"]",
                             "min_len=1", "not_null=True", 'when=lambda v: v > 0, max=3',
                             "min=2, max=4", "max=0", "min=3")
            vals = ["0", "3", "7", "-1", "100", '"5"', "null", "2.5"]
        elif kind == "float":
            default = self.pick("0.5", "1.0", "2.5", "-1.0", "1e2")
            rule = self.pick("min=0.5", "max=2", "min=0, max=1.5", "one_of=[0.5, 1.0]",
                             "min=1", "max_len=2")
            vals = ["0.1", "1", "3.5", "-2", '"x"']
        elif kind == "str":
            default = self.pick('""', '"ab"', '"hello"', "x")
            fmt = r.choice(list(FORMATS))
            rule = self.pick("min_len=1", "max_len=3", "min_len=2, max_len=4",
                             'one_of=["a", "b", "ab"]', 'one_of=["abc", "hello"]',
                             'min="b"', 'max="m"', "min_len=-1", 'max_len="3"',
                             "min_len=1, not_null=True", "one_of=\"abc\"")
            vals = ['""', "a", "abc", "hello", "zz"] + FORMATS[fmt] + ["1"]
        elif kind == "list":
            default = self.pick("[]", "[1]", "[1, 2]")
            default_item = "0"
            rule = self.pick("min_len=1", "max_len=2", "min_len=1, max_len=3", "min=[1]",
                             "max=[2, 0]", "one_of=[[1], [1, 2]]")
            vals = ["[]", "[1]", "[1, 2, 3]", "[5]", "3"]
            return k, kind, [f"#@schema/validation {rule}",
                             f"{k}:", f"- {default_item}"] if default == "[]" or r.random() < 0.6 else [
                                 f"#@schema/validation {rule}",
                                 f"#@schema/default {default}", f"{k}:", f"- {default_item}"], vals
        elif kind == "map":
            rule = self.pick("min_len=1", "max_len=1", "one_not_null=True",
                             'one_not_null=["a", "b"]', 'one_not_null=["a", "zz"]',
                             "one_not_null=False", "one_not_null=[]", "not_null=True",
                             "min_len=2, one_not_null=True")
            lines = [f"#@schema/validation {rule}", f"{k}:"]
            for sub in ["a", "b", "c"][: r.randint(1, 3)]:
                if r.random() < 0.7:
                    lines.append("  #@schema/nullable")
                lines.append("  %s: %s" % (sub, self.pick("1", '"x"', "true")))
            vals = ["{}", "{a: 1}", "{a: 1, b: 2}", "{b: null}", "{c: 3}", "null"]
            return k, kind, lines, vals
        elif kind == "nullstr":
            anns.append("#@schema/nullable")
            default = self.pick('""', '"x"')
            rule = self.pick("not_null=True", "not_null=False, min_len=1", "min_len=2",
                             "not_null=True, when=lambda v, ctx: True",
                             "min_len=1, max_len=2")
            vals = ["null", '""', "xyz"]
        elif kind == "nullmap":
            anns.append("#@schema/nullable")
            rule = self.pick("not_null=True", "min_len=1", 'one_not_null=["a"]')
            lines = anns + [f"#@schema/validation {rule}", f"{k}:", "  a: 1"]
            return k, kind, lines, ["null", "{a: 2}", "{}"]
        else:
            anns.append("#@schema/type any=True")
            default = self.pick("1", '"s"', "[1]", "{a: 1}", "null")
            rule = self.pick("min_len=1", "not_null=True", "min=0", "one_of=[1, \"s\"]")
            vals = ["null", "0", '"x"', "[]", "{b: 2}"]
        lines = anns + [f"#@schema/validation {rule}", f"{k}: {default}"]
        return k, kind, lines, vals

    def custom_rule(self, star):
        r = self.r
        if star and r.random() < 0.5:
            return self.pick('("even", rules.even)', '("small", rules.small)',
                             "rules.positive_rule", '("fails", rules.explode)')
        return self.pick('("positive", lambda v: v > 0)', '("short", lambda v: len(v) < 3)',
                         '("assert min", assert.min(1))', '("in sizes", assert.one_of([1, 2]))',
                         '("not null", assert.not_null())', '("max len", assert.max_len(2))',
                         '("min len", assert.min_len(1))', '("max", assert.max(5))',
                         '("says", lambda v: fail("bad value %s" % v))',
                         '("nothing", lambda v: None)', '("string", lambda v: "yes")',
                         '("struct", struct.make(check=1))',
                         '("try", lambda v: assert.try_to(lambda: int("x")))',
                         '("a", lambda v, w: True)', '("a", lambda: True)')

    def rules(self):
        r = self.r
        star = r.random() < 0.3
        lines = ['#@ load("@ytt:assert", "assert")', '#@ load("@ytt:struct", "struct")']
        if star:
            lines.append('#@ load("rules.star", "rules")')
            self.files["rules.star"] = (
                'load("@ytt:assert", "assert")\n'
                'def even(v):\n  return v % 2 == 0\nend\n'
                'def small(v):\n  return v < 10 or fail("{} is too big".format(v))\nend\n'
                'def explode(v):\n  return 1 // 0\nend\n'
                'rules = struct.make(even=even, small=small, explode=explode,'
                ' positive_rule=("positive", lambda v: v > 0))\n'
                if r.random() < 0.5 else
                'load("@ytt:assert", "assert")\nload("@ytt:struct", "struct")\n'
                'def even(v):\n  return v % 2 == 0\nend\n'
                'def small(v):\n  return v < 10 or fail("{} is too big".format(v))\nend\n'
                'def explode(v):\n  return 1 // 0\nend\n'
                'rules = struct.make(even=even, small=small, explode=explode,'
                ' positive_rule=("positive", lambda v: v > 0))\n')
        lines += ["#@data/values-schema", "---"]
        fields = []
        for _ in range(r.randint(1, 4)):
            k, kind, flines, vals = self.field_with_rule()
            if r.random() < 0.3 and kind in ("int", "float", "str", "any"):
                # a custom rule in front of (or instead of) the named ones
                rule = self.custom_rule(star)
                vline = next(i for i, l in enumerate(flines) if l.startswith("#@schema/validation"))
                if r.random() < 0.5:
                    flines[vline] = "#@schema/validation " + rule
                else:
                    flines[vline] = "#@schema/validation " + rule + ", " + flines[vline][20:]
            if r.random() < 0.15 and kind in ("int", "str"):
                # ctx: validations that look at siblings or the root
                flines.insert(0, "#@schema/validation min_len=1, when=lambda v, ctx: ctx.%s" % self.pick(
                    'parent["enabled"]', 'root["enabled"]', "parent.enabled", 'root["nope"]')
                    if kind == "str" else
                    "#@schema/validation max=3, when=lambda v, ctx: ctx.%s" % self.pick(
                        'parent["enabled"]', 'root["enabled"]'))
                flines = [l for i, l in enumerate(flines)
                          if not (i > 0 and l.startswith("#@schema/validation")) or r.random() < 0.3]
            fields.append((k, kind, vals))
            lines += flines
        if r.random() < 0.4:
            lines.append("enabled: %s" % self.pick("true", "false"))
            fields.append(("enabled", "bool", ["true", "false", '"yes"']))
        if r.random() < 0.2:
            # a validation on an array's items and on the document itself
            lines += ["items:", "#@schema/validation %s" % self.pick("min=1", "max_len=2", "min_len=1"),
                      "- %s" % self.pick("1", '"ab"')]
            fields.append(("items", "array", ["[]", "[0, 5]", '["abc"]', "[3]"]))
        if r.random() < 0.1:
            lines.insert(lines.index("---"), "#@schema/validation " + self.pick(
                '("has name", lambda v: "name" in v)', "min_len=1", "max_len=1",
                'one_not_null=True'))
        self.files["schema.yml"] = "\n".join(lines) + "\n"
        self.args += ["-f", "schema.yml"]
        if star:
            self.args += ["-f", "rules.star"]
        # values
        chosen = [f for f in fields if r.random() < 0.6]
        how = r.random()
        if chosen and how < 0.4:
            dv = ["#@data/values", "---"]
            for k, kind, vals in chosen:
                dv.append(f"{k}: {r.choice(vals)}")
            self.files["values.yml"] = "\n".join(dv) + "\n"
            self.args += ["-f", "values.yml"]
        elif chosen and how < 0.7:
            for k, kind, vals in chosen:
                v = r.choice(vals)
                if v.startswith(("{", "[")) or v == "null" or r.random() < 0.6:
                    self.args += ["--data-value-yaml", f"{k}={v}"]
                else:
                    self.args += ["--data-value", f"{k}={v.strip(chr(34))}"]
        elif chosen:
            self.files["plain.yml"] = "\n".join(f"{k}: {r.choice(vals)}" for k, kind, vals in chosen) + "\n"
            self.args += ["--data-values-file", "plain.yml"]
        if r.random() < 0.08:
            self.args.append("--dangerous-data-values-disable-validation")
        self.mode()

    # ---- flags --------------------------------------------------------------------------------

    def flags(self):
        r = self.r
        schema = r.random() < 0.75
        tree = {"app": {"name": '"web"', "port": "8080", "debug": "false", "ratio": "0.5",
                        "tags": ["- a"], "labels": {"tier": '"front"'}},
                "db": {"host": '"localhost"', "port": "5432",
                       "users": ["- name: admin", "  role: owner"]},
                "replicas": "1"}
        if schema:
            s = ["#@data/values-schema", "---", "app:", "  name: web", "  port: 8080",
                 "  debug: false", "  ratio: 0.5", "  tags:", "  - a", "  labels:",
                 "    tier: front", "db:", "  host: localhost", "  port: 5432",
                 "  #@schema/nullable", "  password: \"\"", "  users:", "  - name: \"\"",
                 "    role: reader", "replicas: 1"]
            if r.random() < 0.3:
                s.insert(s.index("  labels:"), "  #@schema/type any=True")
            self.files["schema.yml"] = "\n".join(s) + "\n"
            self.args += ["-f", "schema.yml"]
        elif r.random() < 0.5:
            self.files["defaults.yml"] = ("#@data/values\n---\napp:\n  name: web\n  port: 8080\n"
                                          "  tags: [a]\ndb:\n  host: localhost\n  users: []\n")
            self.args += ["-f", "defaults.yml"]
        paths = [("app.name", ["api", "8080", "true", "''", "a=b", "x:y"]),
                 ("app.port", ["80", "\"80\"", "http", "1.5", "-1", "0x1F", "null"]),
                 ("app.debug", ["true", "yes", "on", "1", "True"]),
                 ("app.ratio", ["1", "0.25", "1e3", "abc"]),
                 ("app.tags", ["[x, y]", "[]", "x", "{a: 1}"]),
                 ("app.labels", ["{tier: back}", "{new: 1}", "[]", "{}"]),
                 ("app.labels.tier", ["back", "3"]),
                 ("db.users", ["[{name: x}]", "[{name: x, role: y, extra: 1}]", "[]", "[1]"]),
                 ("db.password", ["secret", "null", "~", "1234"]),
                 ("db.nope", ["1"]), ("replicas", ["3", "three", "[1]"]), ("app.nmae", ["x"]),
                 ("app", ["{name: a}", "1"]), ("app.port.x", ["1"]), ("", ["1"]),
                 ("app..name", ["x"]), (".app", ["x"]), ("APP.name", ["x"])]
        for _ in range(r.randint(1, 4)):
            path, vals = r.choice(paths)
            val = r.choice(vals)
            how = r.random()
            if how < 0.25:
                self.args += ["--data-value", f"{path}={val}" if r.random() < 0.95 else path]
            elif how < 0.5:
                self.args += ["-v" if r.random() < 0.2 else "--data-value-yaml",
                              f"{path}={val}" if r.random() < 0.95 else path]
            elif how < 0.6:
                self.files[f"val{self.uid}.txt"] = val + ("\n" if r.random() < 0.5 else "")
                self.args += ["--data-value-file", f"{path}=val{self.uid}.txt"]
                self.uid += 1
            elif how < 0.75:
                prefix = self.pick("DV", "DV", "MY_APP")
                envkey = prefix + "_" + "__".join(path.split("."))
                self.env[envkey] = val
                flag = self.pick("--data-values-env", "--data-values-env-yaml")
                if flag not in self.args or r.random() < 0.2:
                    self.args += [flag, prefix]
            else:
                dirmode = r.random() < 0.4
                doc = self.nested_yaml(path, val)
                if dirmode:
                    n = r.randint(1, 3)
                    for i in range(n):
                        name = self.pick("a.yml", "b.yaml", "c.yml", "notes.txt", "sub/d.yml")
                        self.files[f"dvs/{name}"] = doc if i == 0 else self.nested_yaml(
                            *(lambda p: (p[0], r.choice(p[1])))(r.choice(paths)))
                    self.args += ["--data-values-file", "dvs" + self.pick("", "/")]
                else:
                    name = f"dv{self.uid}.yml"
                    self.uid += 1
                    text = doc
                    if r.random() < 0.15:
                        text = "---\n" + doc + "---\n" + self.nested_yaml("replicas", "2")
                    if r.random() < 0.08:
                        text = "#@data/values\n---\n" + doc
                    if r.random() < 0.05:
                        text = "- 1\n- 2\n"
                    self.files[name] = text
                    self.args += ["--data-values-file", name]
        if r.random() < 0.05:
            self.args += ["--data-values-file", "missing.yml"]
        self.mode(schema)

    def nested_yaml(self, path, val):
        parts = [p for p in path.split(".")] or ["x"]
        lines = []
        for i, p in enumerate(parts):
            if i == len(parts) - 1:
                lines.append("  " * i + f"{p or 'x'}: {val}")
            else:
                lines.append("  " * i + f"{p or 'x'}:")
        return "\n".join(lines) + "\n"

    # ---- overlays -----------------------------------------------------------------------------

    def overlays(self):
        r = self.r
        base = ["#@data/values-schema", "---", "svc:", "  name: web", "  ports:", "  - name: http",
                "    port: 80", "    #@schema/nullable", "    proto: TCP", "  env:",
                "  - name: \"\"", "    value: \"\"", "  limits:", "    cpu: 1", "    mem: \"1Gi\"",
                "flags:", "  a: true", "  b: false"]
        self.files["schema.yml"] = "\n".join(base) + "\n"
        self.args += ["-f", "schema.yml"]
        if r.random() < 0.5:
            extra = ['#@ load("@ytt:overlay", "overlay")', "#@data/values-schema", "---"]
            extra += r.choice([
                ["#@overlay/match missing_ok=True", "extra: 1"],
                ["extra: 1"],
                ["svc:", "  #@overlay/remove", "  limits:"],
                ["svc:", "  #@overlay/replace", "  limits: []"],
                ["svc:", "  limits:", "    cpu: \"2\""],
                ["#@overlay/match-child-defaults missing_ok=True", "svc:", "  more:", "    x: 1"],
                ["svc:", "  ports:", "  - name: https", "    port: 443"],
                ["flags:", "  #@overlay/match missing_ok=True", "  #@schema/validation min=1",
                 "  c: 0"],
                ["#@schema/desc \"ignored\"", "flags:", "  a: false"],
                ["svc:", "  #@schema/nullable", "  #@overlay/replace", "  limits:",
                 "    cpu: 3"],
                ["#@overlay/remove", "flags:"],
                ["#@overlay/match missing_ok=True", "#@schema/type any=True", "free: {a: 1}"],
                ["#@overlay/match missing_ok=True", "#@schema/type any=True",
                 "code: #@ {\"a\": [1]}"],
                ["#@overlay/match missing_ok=True", "code: #@ {\"a\": 1}"],
                ["flags:", "  #@overlay/replace via=lambda a, b: %s" % self.pick("3", "{\"x\": 1}"),
                 "  a: false"],
            ])
            if r.random() < 0.3:
                # an operation on the document itself
                extra.insert(2, self.pick("#@overlay/replace", "#@overlay/match expects=2",
                                          "#@overlay/insert before=True", "#@overlay/append",
                                          "#@overlay/match expects=\"0+\"",
                                          "#@overlay/match by=overlay.all, missing_ok=True",
                                          "#@overlay/replace via=lambda a, b: b"))
            if r.random() < 0.5:
                self.files["schema2.yml"] = "\n".join(extra) + "\n"
                self.args += ["-f", "schema2.yml"]
            else:
                self.files["schema.yml"] += "\n".join(extra[1:]) + "\n"
                self.files["schema.yml"] = extra[0] + "\n" + self.files["schema.yml"]
        for i in range(r.randint(0, 3)):
            dv = ['#@ load("@ytt:overlay", "overlay")']
            if r.random() < 0.3:
                dv.append('#@ load("@ytt:assert", "assert")')
            dv += ["#@data/values", "---"]
            dv += r.choice([
                ["svc:", "  ports:", "  - name: grpc", "    port: 9000"],
                ["svc:", "  ports:", "  #@overlay/match by=\"name\"", "  - name: http",
                 "    port: 8080"],
                ["svc:", "  ports:", "  #@overlay/match by=\"name\"", "  - name: nope",
                 "    port: 1"],
                ["svc:", "  ports:", "  #@overlay/match by=\"name\", missing_ok=True",
                 "  - name: nope", "    port: 1"],
                ["svc:", "  ports:", "  #@overlay/match by=overlay.all", "  #@overlay/remove",
                 "  -"],
                ["svc:", "  #@overlay/replace", "  ports: []"],
                ["svc:", "  ports:", "  #@overlay/append", "  - name: x", "    proto: null"],
                ["svc:", "  ports:", "  #@overlay/match by=overlay.index(0)", "  - port: \"80\""],
                ["svc:", "  env:", "  - name: A", "  - value: b", "    extra: 1"],
                ["svc:", "  #@overlay/remove", "  limits:"],
                ["svc:", "  limits:", "    #@overlay/match missing_ok=True", "    gpu: 1"],
                ["#@overlay/match-child-defaults missing_ok=True", "svc:", "  limits:",
                 "    gpu: 1"],
                ["#@assert/validate (\"has a\", lambda v: v[\"a\"]), b=1", "flags:", "  a: false"],
                ["flags:", "  #@assert/validate (\"true\", lambda v: v)", "  a: false"],
                ["#@assert/validate min_len=1", "svc:", "  name: \"\""],
                ["svc:", "  #@assert/validate min_len=2", "  name: \"x\""],
                ["svc:", "  name: #@ \"web\" + str(1)"],
                ["svc:", "  ports:", "  - #@ {\"name\": \"code\", \"port\": 7}"],
                ["flags: #@ {\"a\": 1}"],
            ])
            if r.random() < 0.15:
                dv.insert(dv.index("---"), self.pick(
                    "#@overlay/replace", "#@overlay/match expects=2", "#@overlay/insert after=True",
                    "#@overlay/match expects=\"1+\"", "#@overlay/replace via=lambda a, b: a",
                    "#@overlay/match-child-defaults missing_ok=True"))
            name = f"values{i}.yml"
            self.files[name] = "\n".join(dv) + "\n"
            self.args += ["-f", name]
        self.mode()

    # ---- documentation annotations ------------------------------------------------------------

    def docs(self):
        r = self.r
        lines = ["#@data/values-schema"]
        if r.random() < 0.3:
            lines.append(self.pick('#@schema/desc "All values"', '#@schema/title "Root"',
                                   "#@schema/nullable"))
        lines.append("---")
        for _ in range(r.randint(1, 4)):
            k = self.key()
            kind = self.pick("int", "str", "bool", "float", "map", "array", "arraymap", "any",
                             "null")
            val = {"int": "3", "str": '"s"', "bool": "true", "float": "1.5", "any": "[1]",
                   "null": "null"}.get(kind)
            for _ in range(r.randint(0, 3)):
                lines.append("#@" + self.pick(
                    'schema/desc "the %s"' % k, 'schema/title "%s title"' % k,
                    'schema/examples ("one", %s)' % (val or "{}"),
                    'schema/examples ("one", %s), ("two", %s)' % (val or "{}", val or "{}"),
                    'schema/examples ("bad", "wrong")', 'schema/deprecated "old"',
                    'schema/deprecated ""', "schema/nullable", "schema/type any=True",
                    "schema/validation min=1", "schema/validation min_len=1, max_len=5",
                    'schema/validation one_of=[1, 2]', 'schema/validation format="ip"',
                    "schema/validation not_null=True", "schema/validation max=10",
                    'schema/validation ("custom", lambda v: True)',
                    'schema/validation one_not_null=True',
                    "schema/default %s" % (val if val not in (None, "null") else "None"),
                    'schema/desc "x", "y"', "schema/title 1", 'schema/examples ("d",)',
                    "schema/deprecated"))
            if kind == "map":
                lines += [f"{k}:", "  a: 1", '  #@schema/desc "inner"', "  b: x"]
            elif kind == "array":
                lines += [f"{k}:", self.pick("- 1", '- "s"', "- 1.5")]
            elif kind == "arraymap":
                lines += [f"{k}:", '#@schema/desc "an item"', "- name: x",
                          "  #@schema/nullable", "  v: 1"]
            else:
                lines.append(f"{k}: {val}")
        if r.random() < 0.05:
            lines = lines[:lines.index("---") + 1]  # an empty schema document
        if r.random() < 0.05:
            lines.append(self.pick("#@data/values-schema", "#@data/values"))  # below every document
        self.files["schema.yml"] = "\n".join(lines) + "\n"
        self.args += ["-f", "schema.yml"]
        r2 = r.random()
        if r2 < 0.6:
            self.args += ["--data-values-schema-inspect", "-o", "openapi-v3"]
            if r.random() < 0.2:
                self.args[-1:] = ["openapi-v3", "-o", self.pick("json", "yaml", "openapi-v3")]
        elif r2 < 0.7:
            self.args += ["--data-values-schema-inspect"]
        elif r2 < 0.8:
            self.args += ["-o", "openapi-v3"]
        else:
            self.mode()

    # ---- schema documents merged before they are typed ----------------------------------------

    def schema_field(self, k):
        """(lines, kind, data values for the field) of one field of a base schema document."""
        kind = self.pick("int", "str", "nullint", "any", "default", "valid", "arr", "arrmap",
                         "map", "float", "bool")
        if kind == "int":
            return [f"{k}: {self.pick('1', '0', '80')}"], kind, ["2", '"x"', "null"]
        if kind == "float":
            return [f"{k}: 0.5"], kind, ["1", "2.5", '"x"']
        if kind == "bool":
            return [f"{k}: false"], kind, ["true", "1"]
        if kind == "str":
            return [f"{k}: " + self.pick('a', '""', '"8"')], kind, ['"b"', "3", "null"]
        if kind == "nullint":
            return ["#@schema/nullable", f"{k}: 3"], kind, ["null", "4", '"x"']
        if kind == "any":
            return ["#@schema/type any=True", f"{k}: {self.pick('1', '[1]', '{a: 1}', 'null')}"], \
                kind, ['"s"', "[2]", "{b: 1}"]
        if kind == "default":
            default, value = self.pick(("5", "1"), ('"d"', '"s"'), ("[1]", "1"),
                                       ("3", "0"), ('"q"', '""'))
            return [f"#@schema/default {default}", f"{k}: {value}"], kind, ["7", '"z"']
        if kind == "valid":
            return [f"#@schema/validation {self.pick('min=1', 'min_len=2', 'max=5', 'not_null=True')}",
                    f"{k}: " + self.pick('3', '"abc"', '0')], kind, ["0", "10", '"a"']
        if kind == "arr":
            return [f"{k}:", "- " + self.pick('1', '"s"', 'true')], kind, ["[1, 2]", '["x"]', "[]"]
        if kind == "arrmap":
            return [f"{k}:", "- name: \"\"", "  port: 80"], kind, \
                ["[{name: a}]", "[{port: \"x\"}]", "[{extra: 1}]"]
        return [f"{k}:", "  a: 1", "  #@schema/nullable", "  b: \"\""], kind, \
            ["{a: 2}", "{b: null}", "{c: 1}", "null"]

    def schema_change(self, k, kind):
        """Lines of a later schema document that change field `k` (an overlay on the first)."""
        ops = [
            [f"{k}: " + self.pick('2', '"t"', '[1]', 'null', '{x: 1}')],
            ["#@overlay/replace", f"{k}: " + self.pick('"t"', '5', '["a"]', '{x: 1}', 'null')],
            ["#@overlay/replace", "#@schema/nullable", f"{k}: " + self.pick('1', '"t"', '{x: 1}')],
            ["#@overlay/replace", "#@schema/type any=True", f"{k}: {self.pick('1', '[1, 2]')}"],
            ["#@overlay/replace", "#@schema/default " + self.pick('4', '"q"', '[2]'),
             f"{k}: " + self.pick('1', '"s"', '[0]')],
            ["#@schema/nullable", f"{k}: " + self.pick('1', '"t"')],
            ["#@schema/validation min=2", f"{k}: {self.pick('1', '3')}"],
            ["#@overlay/remove", f"{k}:"],
            ["#@overlay/match missing_ok=True", f"{k}: 9"],
        ]
        if kind in ("arr", "arrmap"):
            ops += [
                [f"{k}:", "- " + self.pick('1', '"x"', 'name: y')],
                ["#@overlay/replace", f"{k}:", "- " + self.pick('1', '"x"', 'name: y')],
                [f"{k}:", "#@overlay/match by=overlay.index(0)", "- " + self.pick('2', '"x"', 'name: z')],
                [f"{k}:", "#@overlay/match by=overlay.all", "#@overlay/remove", "-"],
                ["#@overlay/replace", f"{k}: []"],
            ]
            if kind == "arrmap":
                ops += [[f"{k}:", "#@overlay/match by=overlay.all", "- #@overlay/match missing_ok=True",
                         "  extra: true"]]
        if kind == "map":
            ops += [
                [f"{k}:", "  #@overlay/match missing_ok=True", f"  c: {self.pick('1', '[1]', 'null')}"],
                [f"{k}:", "  c: 1"],
                [f"{k}:", "  #@overlay/remove", "  a:"],
                [f"{k}:", "  #@overlay/replace", "  b: 3"],
                ["#@overlay/match-child-defaults missing_ok=True", f"{k}:", "  d:", "    e: 1"],
                ["#@schema/nullable", f"{k}:", "  a: 5"],
            ]
        return self.r.choice(ops)

    def merged_schemas(self):
        r = self.r
        fields = []
        base = ["#@data/values-schema", "---"]
        for _ in range(r.randint(2, 5)):
            k = self.key()
            lines, kind, vals = self.schema_field(k)
            base += lines
            fields.append((k, kind, vals))
        docs = [base]
        for _ in range(r.randint(1, 3)):
            d = ["#@data/values-schema", "---"]
            if r.random() < 0.15:
                d.insert(1, self.pick("#@overlay/match-child-defaults missing_ok=True",
                                      "#@overlay/replace", "#@schema/nullable",
                                      "#@overlay/match by=overlay.all"))
            for k, kind, _ in r.sample(fields, min(len(fields), r.randint(1, 2))):
                d += self.schema_change(k, kind)
            if r.random() < 0.3:
                d += ["#@overlay/match missing_ok=True", f"new{self.uid}: {self.pick('1', '[1]', '{a: 1}')}"]
                fields.append((f"new{self.uid}", "new", ["2", '"x"']))
                self.uid += 1
            docs.append(d)
        # documents spread over one to three files, in order
        nfiles = r.randint(1, min(3, len(docs)))
        cut = sorted(r.sample(range(1, len(docs)), nfiles - 1)) if nfiles > 1 else []
        groups, last = [], 0
        for c in cut + [len(docs)]:
            groups.append(docs[last:c])
            last = c
        for i, g in enumerate(groups):
            name = f"schema{i}.yml"
            text = '#@ load("@ytt:overlay", "overlay")\n' + "".join("\n".join(d) + "\n" for d in g)
            self.files[name] = text
            self.args += ["-f", name]
        if r.random() < 0.6:
            chosen = [f for f in fields if r.random() < 0.5]
            if chosen:
                dv = ["#@data/values", "---"] + [f"{k}: {r.choice(vals)}" for k, _, vals in chosen]
                self.files["values.yml"] = "\n".join(dv) + "\n"
                self.args += ["-f", "values.yml"]
        if r.random() < 0.3:
            k, _, vals = r.choice(fields)
            self.args += ["--data-value-yaml", f"{k}={r.choice(vals)}"]
        self.mode()

    # ---- libraries: schemas and data values handed to a private library ------------------------

    def libraries(self):
        r = self.r
        lib = self.pick("lib", "lib", "other")
        fields = {"name": ('"web"', ['"api"', "3", "null"]), "port": ("80", ["8080", '"x"', "1.5"]),
                  "tags": ("[\"\"]", ["[a, b]", "[1]", "x"]), "db": ("{host: h, port: 1}",
                                                                   ["{host: x}", "{port: \"p\"}", "{zz: 1}"])}
        schema = ["#@data/values-schema", "---", "name: web", "#@schema/validation min=1",
                  "port: 80", "tags:", "- \"\"", "db:", "  host: h", "  port: 1"]
        if r.random() < 0.3:
            schema.insert(2, "#@schema/nullable")
        lib_has_schema = r.random() < 0.8
        if lib_has_schema:
            self.files[f"_ytt_lib/{lib}/schema.yml"] = "\n".join(schema) + "\n"
        if r.random() < 0.3:
            self.files[f"_ytt_lib/{lib}/values.yml"] = "#@data/values\n---\nport: %s\n" % self.pick(
                "81", '"y"', "0")
        self.files[f"_ytt_lib/{lib}/out.yml"] = ('#@ load("@ytt:data", "data")\n---\n'
                                                 'lib: #@ data.values\n')
        if r.random() < 0.2:
            self.files[f"_ytt_lib/{lib}/funcs.star"] = 'def port():\n  return 1\nend\n'
        calls = ""
        for _ in range(r.randint(0, 2)):
            how = r.random()
            if how < 0.55:
                vals = {}
                for k in r.sample(list(fields), r.randint(1, 3)):
                    vals[k] = r.choice(fields[k][1] + [fields[k][0]])
                py = "{" + ", ".join(f'"{k}": {self.yaml_to_star(v)}' for k, v in vals.items()) + "}"
                if r.random() < 0.08:
                    py = self.pick('[1]', '"str"', 'None', '{"name": {"x": 1}}', '{1: 2}')
                calls += f".with_data_values({py}" + (", plain=True" if r.random() < 0.35 else "") + ")"
            else:
                sch = self.pick('{"extra": 1}', '{"name": "n", "extra": [1]}', '{"port": "p"}', '[1]')
                calls += f".with_data_values_schema({sch})"
        end = self.pick(".eval()", ".eval()", ".data_values()", '.export("port")')
        config = ['#@ load("@ytt:library", "library")', '#@ load("@ytt:template", "template")',
                  f'#@ lib = library.get("{lib if r.random() < 0.9 else "nope"}"){calls}']
        if end == ".eval()":
            config.append("--- #@ template.replace(lib.eval())")
        elif end == ".data_values()":
            config += ["---", "dv: #@ lib.data_values()"]
        else:
            config += ["---", "x: 1"]
        self.files["config.yml"] = "\n".join(config) + "\n"
        self.args += ["-f", "."]
        if r.random() < 0.35:
            doc = ["#@library/ref \"@%s\"" % self.pick(lib, lib, "nope", "lib~x"),
                   "#@data/values-schema", "---", "#@overlay/match missing_ok=True",
                   "added: " + self.pick('1', '"s"')]
            self.files["lib-schema.yml"] = "\n".join(doc) + "\n"
            self.args += ["-f", "lib-schema.yml"]
        if r.random() < 0.4:
            k = r.choice(list(fields))
            doc = ["#@library/ref \"@%s\"" % self.pick(lib, lib, "nope"),
                   "#@data/values" + self.pick("", "", " after_library_module=True"), "---",
                   f"{k}: {r.choice(fields[k][1])}"]
            self.files["lib-values.yml"] = "\n".join(doc) + "\n"
            self.args += ["-f", "lib-values.yml"]
        if r.random() < 0.3:
            k = self.pick("name", "port", "db.host", "zz")
            self.args += [self.pick("--data-value", "--data-value-yaml"),
                          f"@{self.pick(lib, lib, 'nope')}:{k}={self.pick('9', 'x', '[1]')}"]
        if r.random() < 0.3:
            self.files["root-schema.yml"] = "#@data/values-schema\n---\nroot: 1\n"
            self.args += ["-f", "root-schema.yml"]
        r2 = r.random()
        if r2 < 0.2:
            self.args.append("--data-values-inspect")

    def yaml_to_star(self, v):
        """A YAML flow value of the families above as Starlark source."""
        table = {"null": "None", "true": "True", "false": "False", "[a, b]": '["a", "b"]',
                 "x": '"x"', "{host: x}": '{"host": "x"}', '{port: "p"}': '{"port": "p"}',
                 "{zz: 1}": '{"zz": 1}', "{host: h, port: 1}": '{"host": "h", "port": 1}',
                 '[""]': '[""]'}
        return table.get(v, v)

    # ---- flags with paths: keys into maps below arrays, non-string keys, odd spellings --------

    def paths(self):
        r = self.r
        schema = ["#@data/values-schema", "---", "a:", "  b:", "    c: 1", "  list:", "  - x: 1",
                  "    w: \"\"", "  nums:", "  - 0", "\"1\": one", "\"a.b\": dotted", "top: \"\""]
        if r.random() < 0.4:
            self.files["schema.yml"] = "\n".join(schema) + "\n"
            self.args += ["-f", "schema.yml"]
        else:
            self.files["values.yml"] = ("#@data/values\n---\na:\n  b:\n    c: 1\n  list:\n  - x: 1\n"
                                        "  nums: [0]\n\"1\": one\ntop: \"\"\n")
            self.args += ["-f", "values.yml"]
        for _ in range(r.randint(1, 3)):
            key = self.pick("a.b.c", "a.list", "a.list.0", "a.list[0]", "a.list.x", "a.nums",
                            "a.nums.0", "1", "a.b", "a", "top", "a.b.c.d", "a.b.new", "a.b.c ",
                            " top", "top.x", "a.b..c", "a.b.", "a.b\\.c")
            val = self.pick("2", "[{x: 2}]", "[1, 2]", "{c: 3}", "{}", "[]", "null", "text",
                            "[{x: 1, w: a}, {x: 2}]", "'9'", "- 1", "{new: 1}")
            flag = self.pick("--data-value-yaml", "--data-value-yaml", "--data-value",
                             "--data-values-env-yaml")
            if flag == "--data-values-env-yaml":
                self.env["PV_" + key.replace(".", "__")] = val
                if "--data-values-env-yaml" not in self.args:
                    self.args += [flag, "PV"]
            else:
                self.args += [flag, f"{key}={val}"]
        self.mode()


FAMILIES = ["rules", "flags", "overlays", "docs", "merged_schemas", "libraries", "paths"]


def make_scenario(rnd, family=None):
    """One case of `family` (one of FAMILIES), or of a family picked at random."""
    s = Scen(rnd)
    family = family or rnd.choice(["rules", "rules", "flags", "flags", "overlays", "docs", "merged_schemas",
                         "merged_schemas", "libraries", "libraries", "paths"])
    getattr(s, family)()
    return s.files, s.args, s.env
