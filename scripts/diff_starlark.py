#!/usr/bin/env python3
"""Differential check of the Starlark dialect: random programs through the reference ytt and hintkit.

Each case is one small random Starlark program inside a ytt template (`tpl.yml`): a few code
lines and a handful of map items whose values are Starlark expressions, sometimes passed through
`repr()`/`str()` so that the interpreter's own formatting is compared rather than the YAML
emitter's. The program is placed at the template's top level, inside a `def` that the template
calls (so runtime errors carry a traceback), or in a `.star` module the template loads.

The expressions exercise the language, not the template: arithmetic over ints (including
overflow into big ints), floats, strings, lists, tuples, dicts and sets with mixed and wrong
types; every string/list/dict/set method with random arguments (wrong types, wrong counts,
unknown keywords); slicing with negative and huge steps; comprehensions, lambdas, conditional
expressions; user functions with defaults, keyword-only parameters, `*args`/`**kwargs` called
with wrong arguments; `%` formatting and `str.format`; the universe builtins (sorted with
key/reverse, enumerate, zip, range, min/max, any/all, hasattr/getattr/dir, type, len, bool,
int with bases, float parsing, chr/ord, hash of short strings); and compile errors (syntax
and resolver mistakes) whose wording and positions are compared as ytt prints them.

A case agrees when exit code, stdout and stderr (program name normalised) are identical.
Prints the agreement rate, the number of silent wrong answers (hintkit exits 0 with output
ytt does not give), and the first disagreements.

usage: YTT=/path/to/ytt scripts/diff_starlark.py [HINTKIT] [--count N] [--seed S] [--show K]
"""
import os
import random
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from diffkit import normalise, options, run  # noqa: E402

WORDS = ["a", "ab", "abc", "Hello", "hello world", "x-y", "", " pad ", "a,b,,c", "ÄÖ", "1", "42",
         "Title Case", "UPPER", "a\\nb", "tab\\there", "é€"]

STRING_METHODS = {
    "capitalize": 0, "codepoint_ords": 0, "codepoints": 0, "count": 3, "elem_ords": 0,
    "elems": 0, "endswith": 3, "find": 3, "format": 3, "index": 3, "isalnum": 0, "isalpha": 0,
    "isdigit": 0, "islower": 0, "isspace": 0, "istitle": 0, "isupper": 0, "join": 1,
    "lower": 0, "lstrip": 1, "partition": 1, "replace": 3, "rfind": 3, "rindex": 3,
    "rpartition": 1, "rsplit": 2, "rstrip": 1, "split": 2, "splitlines": 1, "startswith": 3,
    "strip": 1, "title": 0, "upper": 0,
}
LIST_METHODS = {"append": 1, "clear": 0, "extend": 1, "index": 3, "insert": 2, "pop": 1,
                "remove": 1}
DICT_METHODS = {"clear": 0, "get": 2, "items": 0, "keys": 0, "pop": 2, "popitem": 0,
                "setdefault": 2, "update": 1, "values": 0}
SET_METHODS = {"union": 1}
KEYWORDS = ["x", "sep", "maxsplit", "key", "reverse", "start", "end", "default", "keepends",
            "base", "bogus", "chars", "count", "old", "new", "sub", "a", "b", "kw"]
BUILTINS = ["any", "all", "bool", "chr", "dict", "dir", "enumerate", "float", "getattr",
            "hasattr", "hash", "int", "len", "list", "max", "min", "ord", "range", "repr",
            "reversed", "set", "sorted", "str", "tuple", "type", "zip"]


class Gen:
    def __init__(self, rnd):
        self.r = rnd
        self.names = []  # variables bound so far: (name, kind)
        self.funcs = []  # user functions: (name, params source)
        self.uid = 0

    def fresh(self, prefix="v"):
        self.uid += 1
        return "%s%d" % (prefix, self.uid)

    # ---- literals -------------------------------------------------------------------------
    def int_lit(self):
        r = self.r
        return r.choice([
            lambda: str(r.randint(-3, 10)),
            lambda: str(r.randint(-1000, 1000)),
            lambda: r.choice(["2147483647", "-2147483648", "9223372036854775807",
                              "-9223372036854775808", "9223372036854775808",
                              "18446744073709551616", "123456789012345678901234567890"]),
            lambda: r.choice(["0x1F", "0o17", "0b101", "0XfF", "017", "00", "0"]),
        ])()

    def float_lit(self):
        r = self.r
        return r.choice(["0.0", "1.5", "-2.25", "1e3", "1e20", "1e21", "1.0e-5", "0.1", "3.0",
                         "1e100", "123456789.125", "2.5e-10", ".5", "5.", "1e16", "-0.0",
                         "float('inf')", "float('-inf')", "float('nan')", "1e308 * 10",
                         "0.30000000000000004", "100.0", "1234567.0", "1e-7"])

    def str_lit(self):
        r = self.r
        w = r.choice(WORDS)
        q = r.choice(['"', '"', "'"])
        if r.random() < 0.05:
            return 'r"a\\\\b\\n"'
        if r.random() < 0.05:
            return '"""multi\\nline"""'
        if r.random() < 0.05:
            return '"\\x41\\u00e9\\U0001F600\\101"'
        return q + w + q

    def lit(self, depth=0):
        r = self.r
        k = r.random()
        if depth > 2:
            k = k * 0.6
        if k < 0.22:
            return self.int_lit()
        if k < 0.32:
            return self.float_lit()
        if k < 0.5:
            return self.str_lit()
        if k < 0.56:
            return r.choice(["None", "True", "False"])
        if k < 0.7:
            return "[" + ", ".join(self.lit(depth + 1) for _ in range(r.randint(0, 4))) + "]"
        if k < 0.78:
            n = r.randint(0, 3)
            items = [self.lit(depth + 1) for _ in range(n)]
            return "(" + ", ".join(items) + ("," if n == 1 else "") + ")"
        if k < 0.9:
            return "{" + ", ".join("%s: %s" % (self.hashable(), self.lit(depth + 1))
                                   for _ in range(r.randint(0, 3))) + "}"
        if k < 0.96:
            return "set([" + ", ".join(self.hashable() for _ in range(r.randint(0, 4))) + "])"
        return r.choice(["range(%d)" % r.randint(0, 5), "range(1, 10, 3)", "range(5, 0, -2)",
                         "lambda x: x", "len", "\"\".join", "[].append"])

    def hashable(self):
        r = self.r
        return r.choice([self.int_lit, self.str_lit, self.float_lit,
                         lambda: r.choice(["None", "True", "(1, 2)", "(\"a\",)"]),
                         lambda: self.int_lit()])()

    def operand(self, depth):
        r = self.r
        if self.names and r.random() < 0.35:
            return r.choice(self.names)
        if depth < 2 and r.random() < 0.3:
            return self.expr(depth + 1)
        return self.lit(depth + 1)

    def args(self, n_max, depth, kw_ok=True):
        r = self.r
        n = r.randint(0, n_max)
        if r.random() < 0.12:
            n += 1  # one too many
        out = [self.arg(depth) for _ in range(n)]
        if kw_ok and r.random() < 0.12:
            out.append("%s=%s" % (r.choice(KEYWORDS), self.arg(depth)))
        return ", ".join(out)

    def arg(self, depth):
        r = self.r
        if r.random() < 0.45:
            return r.choice(["0", "1", "-1", "2", "-2", "3", "100", "-100", "None", "\"a\"",
                             "\",\"", "\"b\"", "\"\"", "\"ab\"", "1.0", "True", "[1, 2]", "(\"a\", \"b\")"])
        return self.operand(depth + 1)

    # ---- expressions ----------------------------------------------------------------------
    def expr(self, depth=0):
        r = self.r
        kinds = [
            (10, self.binop), (4, self.unop), (6, self.compare), (10, self.method_call),
            (10, self.builtin_call), (5, self.index_or_slice), (3, self.comprehension),
            (4, self.percent), (4, self.format_call), (3, self.conditional), (2, self.lambda_call),
            (4, self.user_call), (3, lambda d: self.lit(d)), (2, self.attr),
        ]
        total = sum(w for w, _ in kinds)
        x = r.uniform(0, total)
        for w, fn in kinds:
            x -= w
            if x <= 0:
                return fn(depth)
        return self.lit(depth)

    def binop(self, depth):
        r = self.r
        op = r.choice(["+", "-", "*", "/", "//", "%", "|", "&", "^", "<<", ">>", "+", "*",
                       "in", "not in", "and", "or"])
        a, b = self.operand(depth), self.operand(depth)
        if r.random() < 0.25:  # int-heavy arithmetic
            a, b = self.int_lit(), r.choice([self.int_lit(), self.float_lit()])
        return "(%s %s %s)" % (a, op, b)

    def unop(self, depth):
        return "(%s%s)" % (self.r.choice(["-", "+", "~", "not "]), self.operand(depth))

    def compare(self, depth):
        r = self.r
        op = r.choice(["==", "!=", "<", "<=", ">", ">="])
        if r.random() < 0.25:  # an int against a float: exact, with NaN and infinity quirks
            a, b = self.int_lit(), r.choice([self.float_lit(), "9007199254740992.0", "1e19", "-1e19",
                                             "float('nan')", "float('inf')", "float('-inf')"])
            if r.random() < 0.5:
                a, b = b, a
            if r.random() < 0.3:
                a, b = "[%s]" % a, "[%s]" % b
            return "(%s %s %s)" % (a, op, b)
        return "(%s %s %s)" % (self.operand(depth), op, self.operand(depth))

    def method_call(self, depth):
        r = self.r
        k = r.random()
        if k < 0.5:
            recv, table = self.str_lit(), STRING_METHODS
        elif k < 0.72:
            recv, table = "[" + ", ".join(self.lit(2) for _ in range(r.randint(0, 4))) + "]", LIST_METHODS
        elif k < 0.92:
            recv, table = "{" + ", ".join("%s: %s" % (self.hashable(), self.lit(2))
                                          for _ in range(r.randint(0, 3))) + "}", DICT_METHODS
        else:
            recv, table = "set([1, 2])", SET_METHODS
        if self.names and r.random() < 0.2:
            recv = r.choice(self.names)
        name = r.choice(list(table))
        if r.random() < 0.03:
            name = r.choice(["nosuch", "upper", "append", "keys", "lower", "sort"])
        elif r.random() < 0.04:  # a misspelt method: starlark-go's spelling hint
            name = r.choice(["uper", "apend", "kyes", "startwith", "splt", "Upper", "elem", "set_default",
                             "pop_", "format_map", "ITEMS", "remov", "rsplitt", "x"])
        n = table.get(name, 1)
        if name == "format":
            return self.format_call(depth)
        return "%s.%s(%s)" % (recv, name, self.args(n, depth))

    def builtin_call(self, depth):
        r = self.r
        name = r.choice(BUILTINS)
        special = {
            "sorted": lambda: "sorted(%s%s%s)" % (
                self.operand(depth),
                r.choice(["", ", key=lambda x: -x", ", key=len", ", key=str", ", key=1"]),
                r.choice(["", ", reverse=True", ", reverse=1", ""])),
            "int": lambda: "int(%s)" % r.choice([
                "\"0x1f\", 0", "\"0b11\", 0", "\"0o17\", 0", "\"017\", 0", "\"12\", 0", "\"-0x10\", 0",
                "\"ff\", 16", "\"z\", 36", "\"12\", 1", "\"12\", 37", "\" 12 \"", "\"1_000\"",
                "\"+5\"", "\"\"", "3.9", "-3.9", "1e30", "True", "\"0x10\", 16", "\"10\", base=2",
                "float('inf')", "\"abc\"", "None", "\"9223372036854775808\"", "x=1",
                self.operand(depth)]),
            "float": lambda: "float(%s)" % r.choice([
                "\"1.5\"", "\"1e3\"", "\"inf\"", "\"-Inf\"", "\"nan\"", "\"abc\"", "\" 2 \"",
                "\"1_0.0\"", "10", "123456789012345678901234567890", "True", "\"\"", "None",
                "1e400", "\"1e400\"", "\"0x10\"", self.operand(depth)]),
            "range": lambda: "range(%s)" % self.args(3, depth, kw_ok=False),
            "getattr": lambda: "getattr(%s, %s%s)" % (
                self.operand(depth), r.choice(["\"upper\"", "\"nope\"", "\"append\"", "1", "\"keys\""]),
                r.choice(["", ", None", ", 5"])),
            "hasattr": lambda: "hasattr(%s, %s)" % (
                self.operand(depth), r.choice(["\"upper\"", "\"nope\"", "\"append\"", "\"get\""])),
            "hash": lambda: "hash(%s)" % r.choice(["\"abc\"", "\"\"", "1", "[1]", "\"hello\"",
                                                   "(1, 2)", "None"]),
            "chr": lambda: "chr(%s)" % r.choice(["65", "0x1F600", "-1", "0x110000", "\"a\"", "233"]),
            "ord": lambda: "ord(%s)" % r.choice(["\"a\"", "\"é\"", "\"ab\"", "\"\"", "65"]),
            "zip": lambda: "zip(%s)" % self.args(3, depth, kw_ok=False),
            "enumerate": lambda: "enumerate(%s%s)" % (self.operand(depth),
                                                      r.choice(["", ", 1", ", start=5", ", \"x\""])),
            "dict": lambda: "dict(%s)" % r.choice([
                "[(1, 2), (3, 4)]", "a=1, b=2", "[(1, 2)], c=3", "[1, 2]", "[[1, 2, 3]]", "{1: 2}",
                "1", "[(\"a\", 1)], a=2", "None", ""]),
            "max": lambda: "%s(%s)" % (r.choice(["max", "min"]), r.choice([
                "[3, 1, 2]", "[]", "1, 2", "\"abc\"", "[1, \"a\"]", "[\"b\", \"ab\"], key=len",
                "3", "1, 2, key=lambda x: -x", "[1.5, 1]", self.operand(depth)])),
        }
        if name in special:
            return special[name]()
        return "%s(%s)" % (name, self.args(2, depth))

    def index_or_slice(self, depth):
        r = self.r
        base = r.choice([self.str_lit(), "[0, 1, 2, 3, 4, 5]", "(1, 2, 3)", "{\"a\": 1, 1: 2}",
                         "range(10)", "\"hello\""] + self.names)
        if r.random() < 0.4:
            return "%s[%s]" % (base, r.choice(["0", "-1", "5", "-7", "1.0", "\"a\"", "1", "None",
                                              "True", "100"]))
        parts = [r.choice(["", "0", "1", "-2", "100", "-100", "None", "\"a\""]) for _ in range(2)]
        s = "%s[%s:%s" % (base, parts[0], parts[1])
        if r.random() < 0.6:
            s += ":" + r.choice(["", "2", "-1", "-2", "0", "3", "9223372036854775807",
                                 "-9223372036854775808", "None", "1.5"])
        return s + "]"

    def comprehension(self, depth):
        r = self.r
        src = r.choice(["range(5)", "[1, 2, 3]", "\"abc\"", "{\"a\": 1, \"b\": 2}",
                        "[(1, 2), (3, 4)]", "5", self.operand(depth)])
        body = r.choice(["x", "x * 2", "str(x)", "(x, x)", "[x]"])
        cond = r.choice(["", " if x", " if x != 2", " for y in [1, 2]", " if type(x) == \"int\""])
        k = r.random()
        if k < 0.55:
            return "[%s for x in %s%s]" % (body, src, cond)
        if k < 0.85:
            return "{%s: %s for x in %s%s}" % (r.choice(["x", "str(x)", "[x]"]), body, src, cond)
        return "[a + b for a, b in %s]" % r.choice(["[(1, 2), (3, 4)]", "[(1, 2, 3)]", "[1, 2]",
                                                   "{\"a\": \"b\"}.items()", "zip([1], [2])"])

    def percent(self, depth):
        r = self.r
        fmt = r.choice(["%d", "%s", "%r", "%x", "%X", "%o", "%e", "%f", "%g", "%E", "%G", "%c",
                        "%5d", "%%", "%(a)s", "%d %s", "%i", "%.2f", "%-5s|", "%s %s %s", "%z",
                        "%", "%F", "%5.1f", "%0d"])
        arg = r.choice(["1", "3.7", "\"x\"", "(1, 2)", "(1,)", "{\"a\": 5}", "[1, 2]", "None",
                        "65", "-12", "1e20", "True", "(\"a\", 2.5)", "123456789012345678901234",
                        "float('nan')", "0.000012345", "()"])
        return "(\"%s\" %% %s)" % (fmt, arg)

    def format_call(self, depth):
        r = self.r
        fmt = r.choice(["{}", "{} {}", "{0} {1} {0}", "{a}", "{!r}", "{!s}", "{0!r}", "{:d}", "{{}}",
                        "{", "}", "{} {1}", "{x.y}", "{0[1]}", "{2}", "{!z}", "a{}b{}c", "{ }",
                        "{00}", "{-1}"])
        args = r.choice(["1", "\"s\"", "1, 2", "[1, 2], \"q\"", "a=1", "1, a=2", "", "None, 3.5",
                         "(1, 2)", "\"x\", \"y\", \"z\""])
        return "\"%s\".format(%s)" % (fmt, args)

    def conditional(self, depth):
        return "(%s if %s else %s)" % (self.operand(depth), self.operand(depth), self.operand(depth))

    def lambda_call(self, depth):
        r = self.r
        params, args = r.choice([
            ("x", "1"), ("x, y=2", "1"), ("x, y=2", "1, 2, 3"), ("*a", "1, 2"),
            ("**k", "a=1"), ("x", ""), ("x, *a, **k", "1, 2, b=3"), ("", "1"), ("x", "y=1"),
            ("x, *, y", "1, y=2"), ("x, *, y", "1, 2"), ("x=1, *a", "x=2"), ("x", "x=1, x=2"),
        ])
        body = r.choice(["x", "[x]", "(x, y)", "a", "k", "None", "x * 2", "len(a)"])
        return "(lambda %s: %s)(%s)" % (params, body, args)

    def user_call(self, depth):
        r = self.r
        if not self.funcs:
            return self.lambda_call(depth)
        name, _ = r.choice(self.funcs)
        args = r.choice(["", "1", "1, 2", "1, 2, 3", "1, 2, 3, 4", "a=1", "1, b=2", "1, c=5",
                         "b=2", "1, a=1", "*[1, 2]", "**{\"a\": 1}", "1, *[2, 3]", "*1",
                         "**[1]", "**{1: 2}", "1, d=4, e=5"])
        return "%s(%s)" % (name, args)

    def attr(self, depth):
        r = self.r
        return "%s.%s" % (r.choice(["\"s\"", "[1]", "{}", "1", "None", "(1,)", "set()"]),
                          r.choice(["upper", "append", "keys", "real", "foo", "union", "split", "uppr",
                                    "appendd", "Keys", "un_ion", "spl"]))

    # ---- statements -----------------------------------------------------------------------
    def func_def(self, out, ind):
        r = self.r
        name = self.fresh("f")
        params = r.choice(["a", "a, b", "a, b=2", "a, b=2, *rest", "a, *, b", "a, *, b=3",
                           "a, **kw", "*args, **kw", "a=1, b=2", "a, b, c=None"])
        body = r.choice(["return a", "return [a, b]", "return (a, rest)", "return (a, b)",
                         "return kw", "return (args, kw)", "return [a, b, c]",
                         "return a + b", "a = a + 1\n{ind}  return a"])
        body = body.replace("{ind}", ind)
        out.append("%sdef %s(%s):" % (ind, name, params))
        for line in body.split("\n"):
            out.append("%s  %s" % (ind, line.strip()))
        out.append("%send" % ind)
        self.funcs.append((name, params))

    def statement(self, out, ind):
        r = self.r
        k = r.random()
        if k < 0.4:
            name = self.fresh()
            out.append("%s%s = %s" % (ind, name, self.expr()))
            self.names.append(name)
        elif k < 0.5 and self.names:
            name = r.choice(self.names)
            out.append("%s%s %s= %s" % (ind, name, r.choice(["+", "-", "*", "//", "%", "|"]),
                                        self.operand(1)))
        elif k < 0.6:
            self.func_def(out, ind)
        elif k < 0.7:
            name = self.fresh()
            out.append("%s%s = []" % (ind, name))
            out.append("%sfor %s in %s:" % (ind, r.choice(["i", "i, j"]),
                                            r.choice(["range(3)", "[1, 2]", "{\"a\": 1}.items()",
                                                      "\"ab\"", "[(1, 2)]", self.operand(1)])))
            out.append("%s  %s.append(i)" % (ind, name))
            if r.random() < 0.3:
                out.append("%s  if i: break" % ind if r.random() < 0.5 else
                           "%s  if i:\n%s    continue\n%s  end" % (ind, ind, ind))
            out.append("%send" % ind)
            self.names.append(name)
        elif k < 0.78:
            name = self.fresh()
            out.append("%s%s, %s = %s" % (ind, name, name + "b",
                                          r.choice(["1, 2", "[1, 2]", "(1, 2, 3)", "\"ab\"",
                                                    "1", "{\"a\": 1, \"b\": 2}", "[1]"])))
            self.names.append(name)
        elif k < 0.84:
            name = self.fresh()
            out.append("%s%s = {}" % (ind, name))
            out.append("%s%s[%s] = %s" % (ind, name, self.hashable(), self.lit(1)))
            self.names.append(name)
        elif k < 0.9:
            out.append("%sif %s:" % (ind, self.operand(1)))
            name = self.fresh()
            out.append("%s  %s = %s" % (ind, name, self.expr(1)))
            out.append("%selse:" % ind)
            out.append("%s  %s = None" % (ind, name))
            out.append("%send" % ind)
            self.names.append(name)
        elif k < 0.93:
            self.control(out, ind)
        else:
            name = self.fresh()
            out.append("%s%s = %s" % (ind, name, self.lit()))
            self.names.append(name)

    def control(self, out, ind):
        """Loops, closures, recursion, aliasing and mutation during iteration."""
        r = self.r
        name = self.fresh()
        k = r.randint(0, 7)
        if k == 0:
            out += ["%s%s = 0" % (ind, name), "%swhile %s < %d:" % (ind, name, r.randint(0, 4)),
                    "%s  %s += %s" % (ind, name, r.choice(["1", "2", "1.5"])), "%send" % ind]
        elif k == 1:
            out += ["%s%s = [1]" % (ind, name), "%s%sb = %s" % (ind, name, name),
                    "%s%sb %s= %s" % (ind, name, r.choice(["+", "*", "|"]),
                                      r.choice(["[2]", "(3,)", "2", "\"x\"", "{}"]))]
        elif k == 2:
            out += ["%s%s = [1, 2]" % (ind, name), "%sfor i in %s:" % (ind, name),
                    "%s  %s.%s" % (ind, name, r.choice(["append(i)", "pop()", "clear()", "extend([])",
                                                        "insert(0, i)", "remove(i)"])),
                    "%send" % ind]
        elif k == 3:
            out += ["%s%s = {\"a\": 1}" % (ind, name), "%sfor k in %s:" % (ind, name),
                    "%s  %s[%s] = 2" % (ind, name, r.choice(["k", "\"b\""])), "%send" % ind]
        elif k == 4:
            out += ["%sdef %s(n):" % (ind, name),
                    "%s  return 1 if n < 2 else n * %s(n - 1)" % (ind, name), "%send" % ind]
            self.funcs.append((name, "n"))
            name2 = self.fresh()
            out.append("%s%s = %s(%s)" % (ind, name2, name, r.choice(["5", "25", "-1", "\"a\"", "0.5"])))
            self.names.append(name2)
            return
        elif k == 5:
            out += ["%s%s = [lambda: i for i in range(3)]" % (ind, name),
                    "%s%sr = [f() for f in %s]" % (ind, name, name)]
            self.names.append(name + "r")
            return
        elif k == 6:
            out += ["%sdef %s(x):" % (ind, name), "%s  def inner(y=x):" % ind,
                    "%s    return [x, y]" % ind, "%s  end" % ind, "%s  return inner" % ind,
                    "%send" % ind]
            name2 = self.fresh()
            out.append("%s%s = %s(%s)(%s)" % (ind, name2, name, self.arg(1), r.choice(["", "2", "y=3", "z=1"])))
            self.names.append(name2)
            return
        else:
            out += ["%s%s = [x for x in range(%d) for y in range(x) if y %% 2]" % (ind, name, r.randint(0, 5))]
        self.names.append(name)

    def mistake(self):
        """A compile-time (scanner, parser or resolver) mistake, or a runtime fail()."""
        r = self.r
        return r.choice([
            "x = (1 + 2", "x = [1, 2", "x = 1 +", "x = }", "x = 1 2", "x = undefined_name",
            "x = 'unterminated", "x = 1 if 2", "break", "continue", "return 1", "x = f(a=1, 2)",
            "def g(a, a):\n  return a\nend", "def g(a=1, b):\n  return a\nend",
            "def g(**k, a):\n  return a\nend", "def g(*a, *b):\n  return a\nend",
            "x = 08", "x = 1 = 2", "x = lambda: (yield)", "x = [x for x in]", "x = a.b.",
            "x = 1.2.3", "x = 0x", "x = 1e", "x = \"\\q\"", "x = {1: 2, 3}", "x, = 1, 2",
            "x = 3 < 2 < 1", "x = not", "x = len(*[1], *[2])", "x = f(**{}, **{})",
            "x = f(**{}, *[])", "fail(\"boom\")", "fail(\"a\", 1, None)", "fail()",
            "x = 1 @ 2", "x = 1 ! 2", "x = `a`", "x = 1;; y = 2", "def g():\nend",
            "if True:\n  x = 1", "x = [1 for]", "x = (yield 1)", "x = 1 is 2", "import os",
            "class C: pass", "x = True and", "del x", "x = 1\n  y = 2", "x = y = 3",
            "while:\n  pass\nend", "x = 1 if True else", "x = {*[1]}", "x = [*[1]]",
            "global x", "x = 1 not 2", "x = 1 < > 2", "x = 'a' 'b'", "x = 0b102", "x = 0o8",
            "() = 1", "[] = 1", "len(x) = 1", "x = 1\n(x) += 1", "x, y += 1", "[x] += 1",
            "-x = 1", "x[1:2] = 3", "for f() in []:\n  x = 1\nend", "x = [1 for () in []]",
            "x = len(*[1],)", "x = dict(**{},)", "def g(a, *b,):\n  return a\nend", "x = lambda *a,: a",
            "load(\"@ytt:struct\", struct)", "load(struct)", "load(\"@ytt:struct\", s=struct)",
            "load(\"@ytt:struct\")", "x = len(y for y in [1])", "x = len((x) = 1)", "x = len(1 = 2)",
            "def g(:\n  return 1\nend", "for a, in [[1]]:\n  x = a\nend", "x = [a for a, in [[1]]]",
            "def g():\n  return [1,\nend", "def g():\n  return (1,\nend", "x = (1,",
            "if True:\n  x = (\nelse:\n  x = 2\nend", "def g(**k, *a):\n  return a\nend",
            "def g(**k, **j):\n  return k\nend", "def g(*, *b):\n  return b\nend", "x = f(1,)",
            "x = R\"a\\\\n\"", "x = r\"a\" + R\"b\"",
        ])

    def program(self):
        r = self.r
        out = []
        for _ in range(r.randint(0, 3)):
            self.statement(out, "")
        if r.random() < 0.1:
            out.extend(self.mistake().split("\n"))
        results = []
        for _ in range(r.randint(1, 4)):
            e = self.expr()
            w = r.random()
            if w < 0.45:
                e = "repr(%s)" % e
            elif w < 0.6:
                e = "str(%s)" % e
            elif w < 0.7:
                e = "type(%s)" % e
            results.append(e)
        return out, results

    def case(self):
        """Returns {filename: text} for one case."""
        r = self.r
        lines, results = self.program()
        where = r.random()
        files = {}
        if where < 0.15:
            tpl = ["#@ " + line for line in lines]
            tpl += ["#@data/values-schema", "---"]
            for i, e in enumerate(results):
                if r.random() < 0.5:
                    tpl.append("#@schema/validation (\"r%d\", lambda v: %s)" % (i, e))
                    tpl.append("r%d: 0" % i)
                else:
                    tpl.append("#@schema/default %s" % e)
                    tpl.append("#@schema/type any=True")
                    tpl.append("r%d: 0" % i)
            files["schema.yml"] = "\n".join(tpl) + "\n"
            files["_args"] = "--data-values-inspect"
            return files
        if where < 0.65:
            tpl = ["#@ " + line for line in lines]
            tpl.append("---")
            for i, e in enumerate(results):
                tpl.append("r%d: #@ %s" % (i, e))
        elif where < 0.85:
            tpl = ["#@ def prog():"] + ["#@   " + line for line in lines]
            tpl.append("#@   return [%s]" % ", ".join(results))
            tpl.append("#@ end")
            tpl.append("---")
            tpl.append("out: #@ prog()")
        else:
            star = list(lines)
            star.append("def prog():")
            star.append("  return [%s]" % ", ".join(results))
            star.append("end")
            files["zprog.star"] = "\n".join(star) + "\n"
            tpl = ['#@ load("zprog.star", "prog")', "---", "out: #@ prog()"]
        files["tpl.yml"] = "\n".join(tpl) + "\n"
        return files



MODULE_EXPRS = {
    "struct": [
        "struct.make(a=1, b=[1, 2])", "struct.make(1)", "struct.make(a=1).a", "struct.make(a=1).c",
        "struct.encode({\"a\": {\"b\": [1, {\"c\": None}]}})", "struct.encode(1)", "struct.encode([{\"a\": 1}])",
        "struct.decode(struct.make(a=struct.make(b=1), c=[struct.make(d=2)]))", "struct.decode(5)",
        "struct.decode({\"a\": struct.make(b=1)})", "dir(struct.make(b=1, a=2))", "str(struct.make(a=1, b=\"x\"))",
        "repr(struct.make(a=[1], b={\"k\": None}))", "type(struct.make())", "struct.make(a=1) == struct.make(a=1)",
        "struct.make(a=1) == struct.make(a=2)", "hasattr(struct.make(a=1), \"a\")", "getattr(struct.make(a=1), \"b\", 7)",
        "getattr(struct.make(a=1), \"b\")", "struct.make(a=1)[\"a\"]", "struct.make(a=1)[\"z\"]", "struct.make(a=1)[0]",
        "struct.make(a=1) + 1", "len(struct.make(a=1))", "{struct.make(a=1): 1}", "set([struct])",
        "struct.make(a=1) in {}", "{\"a\": 1}.get(struct)", "struct.make(abc=1).abd", "struct.mak", "[x for x in struct.make(a=1)]", "struct.make(**{\"a\": 1})",
        "struct.make_and_bind(struct.make(a=1), f=lambda self: self.a)", "struct.make_and_bind(1)",
        "struct.make(a=1, a=2)", "struct.encode(struct.make(a=1))", "struct.make(a=1).a.b", "str(struct.make())",
        "struct.encode({1: 2})", "struct.make(a=1) == 1", "\"a\" in struct.make(a=1)", "struct.nosuch",
        "type(struct.make)", "str(struct)", "json.encode(struct.make(a=1, b=struct.make(c=[1])))",
        "struct.make(a=lambda: 1).a()", "struct.make(a=1) < struct.make(a=2)", "hash(struct.make(a=1))",
    ],
    "json": [
        "json.encode({\"a\": [1, 2.5, None, True, \"s\"]})", "json.encode({\"b\": 1, \"a\": 2}, indent=2)",
        "json.encode([1, [2]], indent=9)", "json.encode([1], indent=-1)", "json.encode([1], indent=\"x\")",
        "json.encode(set([1]))", "json.encode(lambda: 1)", "json.decode('{\"a\": 1, \"b\": [1.5, null, true]}')",
        "json.decode('[1, 2.0, 1e3, \"x\"]')", "json.decode('bad')", "json.decode(1)", "json.encode({1: 2})",
        "json.encode(123456789012345678901234567890)", "json.encode(\"<&>\")", "json.encode(1.0)", "json.encode(0.1)",
        "json.encode(1e20)", "json.encode(float('inf'))", "json.decode('12345678901234567890')",
        "json.decode('1.0')", "json.encode()", "json.encode(1, 2)", "json.encode((1, \"a\"))", "json.decode('\"\\\\u00e9\"')",
        "json.encode(\"é\\n\\t\")", "json.decode('{\"a\": {\"b\": {}}}')", "json.encode({\"a\": {}}, indent=0)",
        "json.encode([1], bogus=1)", "json.decode('')", "json.decode('[1,]')", "json.encode(range(3))",
    ],
    "yaml": [
        "yaml.encode({\"a\": [1, 2.5, None, True, \"s\"]})", "yaml.encode([])", "yaml.encode({})", "yaml.encode(\"x\")",
        "yaml.encode(\"1\")", "yaml.encode(\"true\")", "yaml.encode(\"a: b\")", "yaml.encode(\"multi\\nline\")",
        "yaml.decode(\"a: 1\\nb: [1, 2]\")", "yaml.decode(\"---\\na: 1\\n---\\nb: 2\")", "yaml.decode(\": bad: x\")",
        "yaml.decode(\"a: 1\\na: 2\")", "yaml.decode(1)", "yaml.encode(set([1]))", "yaml.encode(lambda: 1)",
        "yaml.encode(struct.make(a=1))", "yaml.decode(\"1.0\")", "yaml.decode(\"0x10\")", "yaml.decode(\"yes\")",
        "yaml.decode(\"~\")", "yaml.decode(\"\")", "yaml.decode(\"[1, {a: b}]\")", "yaml.encode(1e20)",
        "yaml.encode(123456789012345678901234567890)", "yaml.encode(0.5)", "yaml.encode((1, 2))",
        "yaml.decode(\"a: &x 1\\nb: *x\")", "yaml.encode({1: 2, None: 3})", "yaml.encode()", "yaml.decode(\"!!int 5\")",
        "type(yaml.decode(\"a: 1\"))", "yaml.decode(\"2020-01-01\")", "yaml.encode(\"\")", "yaml.encode(\" x\")",
    ],
    "math": [
        "math.ceil(1.5)", "math.ceil(-1.5)", "math.ceil(3)", "math.floor(-1.5)", "math.floor(\"x\")", "math.sqrt(-1)",
        "math.sqrt(16)", "math.log(0)", "math.log(8, 2)", "math.log(-1)", "math.log(1, 1)", "math.pow(2, 10)",
        "math.pow(2, 0.5)", "math.round(2.5)", "math.round(-2.5)", "math.pi", "math.e", "math.mod(5, 0)",
        "math.mod(-5, 3)", "math.remainder(5, 3)", "math.fabs(\"x\")", "math.fabs(-3)", "math.degrees(1)",
        "math.radians(180)", "math.gamma(0.5)", "math.exp(1000)", "math.hypot(3, 4)", "math.copysign(1, -0.0)",
        "math.atan2(1, 1)", "math.atanh(1)", "math.acos(2)", "math.ceil(1e300)", "math.floor(float('nan'))",
        "math.ceil(float('inf'))", "math.ceil()", "math.pow(1)", "math.sin(0)", "math.tanh(100)",
        "math.ceil(12345678901234567890)", "math.floor(True)", "math.nosuch", "type(math.floor)", "str(math.ceil)",
    ],
    "assert": [
        "assert.equals(1, 1)", "assert.equals(1, 2)", "assert.equals({\"a\": [1]}, {\"a\": [2]})",
        "assert.equals(1, 1.0)", "assert.equals(\"1\", 1)", "assert.equals(lambda: 1, 1)", "assert.equals(1)",
        "assert.fail(\"boom\")", "assert.fail(1)", "assert.fail()", "assert.fail([1, \"x\"])",
        "assert.try_to(lambda: 1)", "assert.try_to(lambda: 1 // 0)", "assert.try_to(lambda: fail(\"x\"))",
        "assert.try_to(1)", "assert.try_to(lambda x: x)", "assert.try_to(lambda: assert.fail(\"q\"))",
        "assert.min(3)", "assert.min(3).check(5)", "assert.min(3).check(1)", "assert.max(2).check(\"a\")",
        "assert.min_len(2).check([1])", "assert.max_len(1).check(\"abc\")", "assert.min_len(2).check(5)",
        "assert.one_of([1, 2]).check(3)", "assert.one_of(1, 2).check(2)", "assert.one_of(\"ab\").check(\"a\")",
        "assert.one_of().check(1)", "assert.one_of([]).check(1)", "assert.not_null(None)", "assert.not_null(1)",
        "assert.not_null().check(None)", "assert.one_not_null([\"a\", \"b\"]).check({\"a\": 1, \"b\": 2})",
        "assert.one_not_null([\"a\"]).check({\"a\": None})", "assert.one_not_null().check({\"a\": 1, \"b\": None})",
        "assert.one_not_null(1).check({})", "assert.min(\"a\").check(\"b\")", "assert.max(1.5).check(2)",
        "assert.min(1, 2)", "assert.min()", "assert.max_len(\"x\")", "type(assert.min(1))", "str(assert.min(1))",
        "assert.min(1).check(None)", "assert.nosuch", "assert.min(1).check()", "assert.one_of(1)",
        "assert.min_len(1).check({})", "assert.max(3).check([1])", "assert.equals(struct.make(a=1), {\"a\": 1})",
        "assert.equals(None, None)", "assert.one_of([1.0]).check(1)", "assert.not_null(False)",
    ],
    "regexp": [
        "regexp.match(\"a+\", \"caa\")", "regexp.match(\"^a\", \"ba\")", "regexp.match(\"(\", \"a\")",
        "regexp.replace(\"a(b)\", \"xabab\", \"<$1>\")", "regexp.replace(\"a\", \"aaa\", lambda m: m.upper())",
        "regexp.match(1, \"a\")", "regexp.replace(\"a\", \"b\")", "regexp.match(\"\\\\d+\", \"x12\")",
    ],
    "base64": ["base64.encode(\"hello\")", "base64.decode(\"aGVsbG8=\")", "base64.decode(\"!!\")",
               "base64.encode(1)", "base64.encode(\"é\", url=True)", "base64.decode(\"aGk\", raw=True)"],
    "data": ["data.values", "str(data.values)", "type(data.values)", "data.list()", "data.nosuch",
             "dir(data)", "data.values.x"],
}

CORE_EXTRAS = [
    "\"ab\".elems() == \"ab\".elems()", "\"a\" in \"ab\".elems()", "\"é\"[0]", "(\"é\" * 30)[1:]",
    "[\"é\"[1], {\"k\": \"€\"[0:2]}]", "\"ab\".codepoints() in [\"ab\".codepoints()]",
    "list(\"é\".elems())", "\"ab\".elem_ords() != \"ab\".elems()", "1 in \"ab\".codepoint_ords()",
]

FRAGMENT_EXPRS = [
    "len(F)", "type(F)", "F[0]", "F[\"a\"]", "F[\"zz\"]", "F[-1]", "F[5]", "str(F)", "repr(F)", "list(F)",
    "[x for x in F]", "\"a\" in F", "1 in F", "sorted(F)", "F.get(\"a\")", "F.keys()", "F == F", "dict(F)",
    "F + F", "F[0:1]", "json.encode(F)", "yaml.encode(F)", "struct.encode(F)", "F.a", "hasattr(F, \"a\")",
    "bool(F)", "F[\"b\"][0]", "F[\"b\"][1]", "getattr(F, \"a\", 1)", "dir(F)", "F[None]", "len(F[\"b\"])",
    "assert.equals(F, F)", "max(F)", "enumerate(F)", "zip(F, F)", "hash(F)", "{F: 1}", "set([F])",
    "F < F", "F in [F]", "F.nosuch",
]

RULE_WRAPPERS = [
    "(\"{d}\", lambda v: {e})", "(\"{d}\", lambda v: {e}), when=lambda v: True",
    "(\"{d}\", lambda v: {e}), when=lambda v, ctx: {e2}", "(\"{d}\", lambda v: {e}), when=lambda v: {e2}",
    "(\"{d}\", {a})", "min={n}", "max={n}", "min_len={n}", "max_len={n}", "one_of={lst}", "not_null=True",
    "(\"{d}\", lambda v: {e}), (\"{d}2\", lambda v: {e2})", "one_not_null={lst}", "(\"{d}\", lambda v: {e}), when_null_skip=True",
    "(\"{d}\", lambda v: {e}), bogus=1", "(\"{d}\", lambda v: {e}), min=\"a\"", "{e}", "(\"{d}\",)",
    "(1, lambda v: True)", "(\"{d}\", lambda v: {e}, 3)", "(\"{d}\", lambda: True)", "(\"{d}\", lambda v, w: True)",
]

NODE_VALUES = ["0", "1", "-5", "\"s\"", "\"\"", "1.5", "true", "[1, 2]", "[]", "{a: 1}", "null", "\"abc\"",
               "[\"x\", \"yy\"]", "{}", "3"]

HINT_TRIGGERS = [
    "x = true", "x = false", "x = null", "x = nil", "x = none", "x = True | False", "x = True & False",
    "x = 1 && 2", "x = 1 || 2", "x = \"a\" & 1", "x = 1.0 | True", "x = struct.make(a=1)[\"a\"]",
    "def g(x)\n  return x\nend", "if True\n  x = 1\nend", "for i in [1]\n  x = i\nend", "x = {\"a\": 1}.a",
]


class BroadGen(Gen):
    """Schema-context cases in the style of the Starlark conformance suite: values, defaults and rules
    of a data values schema computed by Starlark, with the @ytt: modules, fragments and .star files."""

    def module_expr(self):
        r = self.r
        mod = r.choice(list(MODULE_EXPRS))
        self.used_modules.add(mod)
        e = r.choice(MODULE_EXPRS[mod])
        for m in ("struct", "json", "yaml", "assert"):
            if m + "." in e:
                self.used_modules.add(m)
        return e

    def rich_expr(self):
        r = self.r
        k = r.random()
        if k < 0.35:
            return self.module_expr()
        if k < 0.5 and self.fragments:
            return r.choice(FRAGMENT_EXPRS).replace("F", r.choice(self.fragments) + "()")
        if k < 0.58:
            return r.choice(CORE_EXTRAS)
        return self.expr()

    def rule(self, i):
        r = self.r
        w = r.choice(RULE_WRAPPERS)
        assertion = r.choice(["assert.min(1)", "assert.max(2)", "assert.min_len(1)", "assert.max_len(2)",
                              "assert.one_of([1, \"s\"])", "assert.not_null()", "assert.one_not_null()",
                              "assert.one_not_null([\"a\"])", "lambda v: v", "len", "1"])
        if "{a}" in w:
            self.used_modules.add("assert")
        e = r.choice([self.rich_expr, lambda: r.choice(["True", "False", "None", "1", "\"yes\"", "[1]",
                                                        "v", "v == 1", "len(v) > 1", "v > 2", "v.a",
                                                        "v[0]", "type(v)", "fail(\"bad %s\" % v)",
                                                        "fail(v)", "assert.fail(\"x\")",
                                                        "assert.min(2).check(v)", "v + 1", "fail()",
                                                        "fail(\"\")", "{v: 1}", "set_item(v)",
                                                        "v.uper", "v < v", "[v] < [v]"])])()
        if "assert." in e:
            self.used_modules.add("assert")
        e2 = r.choice(["True", "False", "1", "None", "v == 1", "ctx.parent[\"flag\"]", "ctx.root",
                       "ctx.nope", "v", "\"yes\""])
        return w.format(d="r%d" % i, e=e, e2=e2, a=assertion, n=r.choice(["1", "2", "\"a\"", "1.5", "-1"]),
                        lst=r.choice(["[1, 2]", "[\"a\", \"b\"]", "[]", "1", "[1, \"s\", 1.5]"]))

    def fragment_def(self, out):
        r = self.r
        name = self.fresh("frag")
        out.append("#@ def %s():" % name)
        body = r.choice([["a: 1", "b:", "- 1", "- x"], ["- 1", "- 2", "- 3"], ["- a: 1", "- a: 2"],
                         ["a: #@ 1 + 1", "b: [1, 2]"], ["#@ for i in range(2):", "- #@ i", "#@ end"]])
        out.extend(body)
        out.append("#@ end")
        self.fragments.append(name)

    def case(self):
        r = self.r
        self.used_modules = set()
        self.fragments = []
        lines, _ = self.program()
        head = []
        files = {}
        for _ in range(r.randint(0, 2)):
            self.fragment_def(head)
        if r.random() < 0.08:
            lines.extend(r.choice(HINT_TRIGGERS).split("\n"))
        if r.random() < 0.05:
            lines.append(r.choice(["x = %s" % self.module_expr(), "%s" % self.module_expr()]))
        body = ["#@data/values-schema", "---"]
        for i in range(r.randint(1, 5)):
            k = r.random()
            if k < 0.25:
                body += ["#@schema/type any=True", "k%d: #@ %s" % (i, self.rich_expr())]
            elif k < 0.3:  # the type inferred from what Starlark built
                body += ["k%d: #@ %s" % (i, self.rich_expr())]
            elif k < 0.5:
                body += ["#@schema/default %s" % self.rich_expr(), "#@schema/type any=True", "k%d: 0" % i]
            elif k < 0.9:
                if r.random() < 0.4:
                    body.append("#@schema/nullable")
                elif r.random() < 0.2:
                    body.append("#@schema/type any=True")
                body += ["#@schema/validation %s" % self.rule(i), "k%d: %s" % (i, r.choice(NODE_VALUES))]
            else:
                body += ["#@schema/type any=True", "flag: %s" % r.choice(["true", "false", "1"])]
        star = None
        if r.random() < 0.2:
            # move the program into a .star module the schema loads
            star = list(lines) + ["def prog(v=None):", "  return [%s]" % self.rich_expr(), "end"]
            lines = []
            star = ['load("@ytt:%s", "%s")' % (m, m) for m in sorted(self.used_modules)] + star
            files["rules.star"] = "\n".join(star) + "\n"
        loads = ['#@ load("@ytt:%s", "%s")' % (m, m) for m in sorted(self.used_modules)]
        if star is not None:
            loads.append('#@ load("rules.star", "prog")')
            body += ["#@schema/type any=True", "p: #@ prog()"]
            if r.random() < 0.3:
                body += ["#@schema/validation (\"p\", lambda v: prog(v))", "q: 1"]
        helpers = ["#@ def set_item(x):", "#@   x[0 if type(x) == \"list\" else \"a\"] = 1", "#@   return True",
                   "#@ end"]
        text = loads + ["#@ " + line for line in lines] + helpers + head + body
        files["schema.yaml"] = "\n".join(text) + "\n"
        args = "--data-values-inspect"
        if r.random() < 0.15:
            files["values.yaml"] = "#@data/values\n---\nk0: %s\n" % r.choice(NODE_VALUES)
            args = "--data-values-file values.yaml " + args
        if r.random() < 0.05:
            args = r.choice(["--data-value-yaml k0=[1]", "--data-value k1=5", "--data-value-yaml k2=null"]) + " " + args
        files["_args"] = args
        return files


def main():
    classic = "--classic" in sys.argv
    if classic:
        sys.argv.remove("--classic")
    hintkit, ytt, count, seed, show = options()
    rnd = random.Random(seed)
    agree = 0
    silent = 0
    bad = []
    for case in range(count):
        files = Gen(rnd).case() if classic or rnd.random() < 0.3 else BroadGen(rnd).case()
        with tempfile.TemporaryDirectory() as tmp:
            for name, text in files.items():
                if name.startswith("_"):
                    continue
                with open(os.path.join(tmp, name), "w") as f:
                    f.write(text)
            argv = []
            for name in sorted(files):
                if not name.startswith("_") and name != "values.yaml":
                    argv += ["-f", name]
            argv += files.get("_args", "").split()
            r = run([ytt] + argv, tmp)
            h = run([hintkit, "values"] + argv, tmp)
        same = r[0] == h[0] and r[1] == h[1] and normalise(r[2], "ytt") == normalise(h[2], "hintkit")
        if same:
            agree += 1
        else:
            if h[0] == 0 and (r[0] != 0 or r[1] != h[1]):
                silent += 1
            bad.append((case, files, r, h))
            if os.environ.get("DIFF_SAVE"):  # keep the case to rerun it by hand
                d = os.path.join(os.environ["DIFF_SAVE"], "case%d" % case)
                os.makedirs(d, exist_ok=True)
                for name, text in files.items():
                    with open(os.path.join(d, name if not name.startswith("_") else "cmd"), "w") as f:
                        f.write(text if not name.startswith("_") else " ".join(argv) + "\n")
    for case, files, r, h in bad[:show]:
        print(f"=== case {case} (ytt rc {r[0]}, hintkit rc {h[0]})")
        for name, text in sorted(files.items()):
            print(f"--- {name}")
            print(text if name != "_args" else text + "\n", end="")
        print("--- ytt")
        print(r[1][:1500] + r[2][:1500])
        print("--- hintkit")
        print(h[1][:1500] + h[2][:1500])
    print(f"starlark: {count} cases (seed {seed}), {agree} agree ({100.0 * agree / max(count, 1):.1f}%), "
          f"{silent} silent wrong answers (hintkit exit 0, different from ytt)")


if __name__ == "__main__":
    main()
