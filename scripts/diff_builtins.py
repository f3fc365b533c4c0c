#!/usr/bin/env python3
"""Differential check of Starlark's builtins and ytt's modules: many small facts per program.

diff_starlark.py builds whole random programs, most of which stop at their first error, so one
run checks one or two facts. This check instead fills one ytt template with 30-60 small
expressions, each evaluated through `assert.try_to` so that an error becomes a value: a fact
prints `repr(result)` (or the result itself, through the YAML emitter) or `ERR <message>`. One
program thus compares the values and the error texts of dozens of builtin calls at once.

Families of facts: string methods with edge arguments (negative, None and huge indices, empty
separators, unicode, wrong types, keywords); list, dict and set methods (results and the
mutated receiver); int and float arithmetic (big ints, division and modulo by zero, shifts,
float repr, int/float comparisons); `%` formatting and `str.format` with every conversion;
conversions (`int`, `float`, `str`, `bool`, `list`, `tuple`, `dict`, `set`); `sorted`,
`reversed`, `enumerate`, `zip`, `range` (also indexing and slicing ranges), `min`/`max`,
`any`/`all`; `getattr`/`hasattr`/`dir`/`type`/`str`/`repr`/`hash` of every kind of value
(structs, YAML fragments, functions, builtins, modules); slicing with steps; and the ytt
modules (struct, json, yaml, regexp, math, base64, url, ip, version, md5, sha256).

One program in ten is instead a single uncaught error, to compare how the whole error is
rendered (the message, its position and traceback).

A case agrees when exit code, stdout and stderr (program name normalised) are identical. With
`--facts` the disagreeing facts are listed one by one (expression, ytt's line, hintkit's).

usage: YTT=/path/to/ytt scripts/diff_builtins.py [HINTKIT] [--count N] [--seed S] [--show K]
           [--facts] [--family NAME]
"""
import os
import random
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from diffkit import normalise, options, run  # noqa: E402

STRS = ['""', '"a"', '"abc"', '"Hello World"', '"hello world"', '"  pad  "', '"a,b,,c"', '"a b  c"',
        '"ÄÖü"', '"é€x"', '"123"', '"12a"', '"Title Case Words"', '"UPPER"', '"lower"', '"a\\nb\\r\\nc\\n"',
        '"\\tx\\t"', '"aaa"', '"abab"', '"x.y.z"', '"MiXeD cAsE"', '"\\u00e9t\\u00e9"', '"ǅungla"',
        '"٣"', '"½"', '"\\x00a"', '"a\'b\\"c"', '"  "', '"\\n"', '"hello"', '"ﬁ"', '"ß"', '"İ"',
        '"a1 b2"', '"\\U0001F600x"', '"1_000"', '"\\u0130"']
SMALL_INTS = ["0", "1", "-1", "2", "-2", "3", "5", "-5", "10", "100", "-100", "None", "True"]
BIG_INTS = ["2147483647", "-2147483648", "2147483648", "9223372036854775807", "-9223372036854775808",
            "9223372036854775808", "-9223372036854775809", "18446744073709551616",
            "123456789012345678901234567890", "-123456789012345678901234567890", "4294967296",
            "1 << 64", "(1 << 63) - 1", "-(1 << 63)", "1 << 100", "10 ** 20" if False else "100000000000000000000"]
INTS = ["0", "1", "-1", "2", "-2", "3", "7", "-7", "10", "255", "-255", "1000", "65536"] + BIG_INTS
FLOATS = ["0.0", "-0.0", "1.0", "-1.0", "1.5", "-1.5", "2.5", "0.1", "0.2", "0.3", "1e10", "1e15", "1e16",
          "1e17", "1e20", "1e21", "1e22", "1e-4", "1e-5", "1e-7", "1.0e-10", "123456789.125", "3.14159",
          "1e100", "1e300", "1e308", "2.0 ** 53" if False else "9007199254740992.0", "9007199254740993.0",
          "float('inf')", "float('-inf')", "float('nan')", "0.5", "100.0", "1234567.0", "12345678.9",
          "0.30000000000000004", "5e-324", "1.7976931348623157e308", "2.5e-10", "1e7", "1e6",
          "123456789012345678.0", "4.35", "0.045", "1.005"]
SEPS = ['","', '" "', '""', '"a"', '"ab"', '"b"', '"\\n"', "None", "1", '"é"', '",,"', '"x"']
KWS = ["sep", "maxsplit", "start", "end", "keepends", "chars", "x", "bogus", "count", "old", "new",
       "sub", "default", "key", "reverse", "base", "iterable", "elems"]

STRING_METHODS = {
    # name: list of argument lists (strings of source)
    "capitalize": [""], "title": [""], "upper": [""], "lower": [""], "isalnum": [""], "isalpha": [""],
    "isdigit": [""], "islower": [""], "isspace": [""], "istitle": [""], "isupper": [""],
    "elems": [""], "elem_ords": [""], "codepoints": [""], "codepoint_ords": [""],
    "count": ["S", "S, I", "S, I, I", "", "1", "S, None, I"],
    "find": ["S", "S, I", "S, I, I", "S, None, None", "", "1", "S, 1.0"],
    "rfind": ["S", "S, I", "S, I, I", "S, None, I"],
    "index": ["S", "S, I", "S, I, I"], "rindex": ["S", "S, I", "S, I, I"],
    "startswith": ["S", "(S, S)", "S, I", "S, I, I", "()", "[S]", "1", "(S, 1)"],
    "endswith": ["S", "(S, S)", "S, I", "S, I, I", "()", "1"],
    "split": ["", "S", "S, I", "None, I", "sep=S", "S, maxsplit=I", "maxsplit=I", "1", "S, S"],
    "rsplit": ["", "S", "S, I", "None, I", "sep=S, maxsplit=I"],
    "splitlines": ["", "True", "False", "keepends=True", "1", "S"],
    "strip": ["", "S", "None", "1"], "lstrip": ["", "S", "None"], "rstrip": ["", "S", "None"],
    "partition": ["S", "", "None", "1"], "rpartition": ["S", "", "None"],
    "replace": ["S, S", "S, S, I", "S", "S, S, S", "1, S", "old=S, new=S"],
    "join": ["[]", "[S]", "[S, S, S]", "(S, S)", "[1]", "S", "[S, None]", "{S: 1}"],
    "format": [""],
}
LIST_METHODS = {
    "append": ["X", "", "X, X"], "clear": ["", "X"], "extend": ["[1, 2]", "()", "\"ab\"", "1", "{1: 2}", "range(3)"],
    "index": ["X", "X, I", "X, I, I", "", "1", "1, -1", "1, None"],
    "insert": ["I, X", "X", "I"], "pop": ["", "I", "X", "None"], "remove": ["X", "1", ""],
}
DICT_METHODS = {
    "clear": [""], "get": ["K", "K, X", "", "[1]"], "items": [""], "keys": [""], "values": [""],
    "pop": ["K", "K, X", "", "[1]"], "popitem": ["", "1"], "setdefault": ["K", "K, X", "[1], 1"],
    "update": ["{K: X}", "[(K, X)]", "a=X", "[K]", "1", "{K: X}, b=X", "", "[[1, 2, 3]]", "[(1, 2)], [(3, 4)]"],
}
LISTS = ["[]", "[1]", "[1, 2, 3]", "[3, 1, 2, 1]", '["a", "b", "a"]', "[1, \"a\", None]", "[[1], [2]]",
         "[1.0, 2, 3.5]", "[True, 1, 1.0]", "list(range(5))"]
DICTS = ["{}", '{"a": 1}', '{"a": 1, "b": 2, "c": 3}', "{1: \"x\", 2: \"y\"}", "{None: 1, True: 2, (1, 2): 3}",
         '{"b": 2, "a": 1}', "{1.0: \"f\"}", "dict(a=1, b=[1])"]
ANY_VALUES = ["None", "True", "False", "0", "1", "-1", "1.5", "float('nan')", "\"\"", "\"s\"", "[]", "[1]", "()",
              "(1,)", "{}", "{\"a\": 1}", "set()", "set([1, 2])", "range(3)", "len", "lambda: 1", "fn",
              "struct.make(a=1)", "struct", "frag()", "frag_list()", "1 << 70", "\"é\"", "[1, [2, (3,)]]",
              "{\"k\": [None, 1.0]}", "(1, \"a\")", "\"\".join", "[].append", "{}.get", "json", "assert.min(1)",
              "reversed([1, 2])", "enumerate([1])", "zip([1])", "{}.items()", "\"ab\".elems()", "\"ab\".codepoints()",
              "1e20", "-0.0", "float('inf')", "ip.parse_addr(\"10.0.0.1\")", "url.parse(\"http://h/p?q=1\")",
              "regexp", "math"]


class Gen:
    def __init__(self, rnd, family=None):
        self.r = rnd
        self.family = family

    def s(self):
        return self.r.choice(STRS)

    def i(self):
        r = self.r
        return r.choice(SMALL_INTS + ["-3", "4", "-10", "1000", "-1000", "9223372036854775807",
                                      "-9223372036854775808", "1 << 64"] if r.random() < 0.2 else SMALL_INTS)

    def x(self):
        r = self.r
        return r.choice(["1", "2", "\"a\"", "None", "[1]", "1.0", "(1,)", "True", "\"z\"", "0", "-1"])

    def k(self):
        return self.r.choice(["\"a\"", "\"b\"", "\"z\"", "1", "2", "None", "True", "1.0", "(1, 2)"])

    def fill(self, template):
        out = []
        j = 0
        while j < len(template):
            c = template[j]
            prev = template[j - 1] if j else " "
            nxt = template[j + 1] if j + 1 < len(template) else " "
            if c in "SIXK" and not prev.isalnum() and not nxt.isalnum():
                out.append({"S": self.s, "I": self.i, "X": self.x, "K": self.k}[c]())
            else:
                out.append(c)
            j += 1
        return "".join(out)

    # ---- families ---------------------------------------------------------------------------
    def f_string(self):
        r = self.r
        name = r.choice(list(STRING_METHODS))
        if name == "format":
            return self.f_format()
        args = self.fill(r.choice(STRING_METHODS[name]))
        if r.random() < 0.05:
            args = (args + ", " if args else "") + "%s=%s" % (r.choice(KWS), self.x())
        recv = self.s()
        e = "%s.%s(%s)" % (recv, name, args)
        if name in ("elems", "elem_ords", "codepoints", "codepoint_ords") and r.random() < 0.7:
            e = r.choice(["list(%s)", "len(%s)", "%s[0]", "str(%s)", "type(%s)", "[x for x in %s][-1:]",
                          "%s == %s", "reversed(%s)", "sorted(%s)", "%s[1:]", "tuple(%s)", "bool(%s)",
                          "hash(%s)", "%s + [1]", "dir(%s)"]).replace("%s", e)
        return e

    def f_string_ops(self):
        r = self.r
        a, b = self.s(), self.s()
        return r.choice([
            "%s + %s" % (a, b), "%s * %s" % (a, self.i()), "%s * %s" % (self.i(), a), "%s in %s" % (a, b),
            "%s < %s" % (a, b), "%s == %s" % (a, b), "len(%s)" % a, "%s[%s]" % (a, self.i()),
            "%s[%s:%s:%s]" % (a, self.i(), self.i(), self.i()), "%s[::-1]" % a, "%s[::2]" % a,
            "%s[%s:]" % (a, self.i()), "%s[:%s]" % (a, self.i()), "%s + %s" % (a, self.x()),
            "%s %% ()" % a, "%s < %s" % (a, self.x()), "hash(%s)" % a, "ord(%s)" % a, "bool(%s)" % a,
            "%s * True" % a, "%s[1.0]" % a, "%s[\"a\"]" % a, "str(%s)" % a, "repr(%s)" % a,
            "%s > %s" % (a, b), "%s != %s" % (a, b), "min(%s)" % a, "max(%s)" % a, "sorted(%s)" % a,
            "list(%s)" % a, "%s.upper" % a, "%s.nosuch" % a, "%s[%s] = 1" if False else "%s * -1" % a,
        ])

    def f_list(self):
        r = self.r
        name = r.choice(list(LIST_METHODS))
        args = self.fill(r.choice(LIST_METHODS[name]))
        if r.random() < 0.05:
            args = (args + ", " if args else "") + "%s=%s" % (r.choice(KWS), self.x())
        recv = r.choice(LISTS)
        return "(lambda l: (l.%s(%s), l))(%s)" % (name, args, recv)

    def f_list_ops(self):
        r = self.r
        a, b = r.choice(LISTS + ["(1, 2)", "()", "(1,)", "(\"a\", 1)"]), r.choice(LISTS + ["(1, 2)", "()"])
        return r.choice([
            "%s + %s" % (a, b), "%s * %s" % (a, self.i()), "%s * %s" % (self.i(), a), "%s in %s" % (self.x(), a),
            "%s < %s" % (a, b), "%s == %s" % (a, b), "%s <= %s" % (a, b), "len(%s)" % a, "%s[%s]" % (a, self.i()),
            "%s[%s:%s:%s]" % (a, self.i(), self.i(), self.i()), "%s[::-1]" % a, "%s[::-2]" % a,
            "%s[%s:]" % (a, self.i()), "%s[:%s]" % (a, self.i()), "%s + %s" % (a, self.x()),
            "%s[1:3] if False else %s[-100:100:3]" % (a, a), "sorted(%s)" % a, "sorted(%s, reverse=True)" % a,
            "reversed(%s)" % a, "list(enumerate(%s))" % a, "enumerate(%s, %s)" % (a, self.i()),
            "zip(%s, %s)" % (a, b), "zip(%s)" % a, "zip()", "max(%s)" % a, "min(%s)" % a, "any(%s)" % a,
            "all(%s)" % a, "hash(%s)" % a, "{%s: 1}" % a, "set(%s)" % a, "tuple(%s)" % a, "list(%s)" % a,
            "dict(%s)" % a, "str(%s)" % a, "bool(%s)" % a, "dir(%s)" % a, "%s[True]" % a,
            "(lambda l: [l.__setitem__ if False else None, l])(%s)" % a if False else "%s * 0" % a,
            "(lambda l: (l.extend(l), l))(%s)" % a, "(lambda l: (l.append(l), str(l)))(%s)" % a,
            "%s[%s:%s]" % (a, r.choice(["None", "-1", "1 << 64", "-(1 << 64)"]), r.choice(["None", "2", "1 << 64"])),
            "%s[::0]" % a, "%s[::None]" % a, "%s[\"a\":]" % a, "%s[0.5:]" % a,
        ])

    def f_dict(self):
        r = self.r
        name = r.choice(list(DICT_METHODS))
        args = self.fill(r.choice(DICT_METHODS[name]))
        if r.random() < 0.05:
            args = (args + ", " if args else "") + "%s=%s" % (r.choice(KWS), self.x())
        recv = r.choice(DICTS)
        return "(lambda d: (d.%s(%s), d))(%s)" % (name, args, recv)

    def f_dict_ops(self):
        r = self.r
        a, b = r.choice(DICTS), r.choice(DICTS)
        return r.choice([
            "%s == %s" % (a, b), "%s != %s" % (a, b), "%s < %s" % (a, b), "%s + %s" % (a, b), "%s | %s" % (a, b),
            "%s[%s]" % (a, self.k()), "%s in %s" % (self.k(), a), "[1] in %s" % a, "len(%s)" % a,
            "list(%s)" % a, "sorted(%s)" % a, "str(%s)" % a, "dict(%s)" % a, "dict(%s, z=1)" % a,
            "dict(%s.items())" % a, "%s.items()[0]" % a, "%s.keys()[-1]" % a, "bool(%s)" % a, "hash(%s)" % a,
            "dir(%s)" % a, "max(%s)" % a, "enumerate(%s)" % a, "zip(%s, %s)" % (a, b), "any(%s)" % a,
            "{k: v for k, v in %s.items()}" % a, "%s.get" % a, "tuple(%s)" % a, "set(%s)" % a, "%s * 2" % a,
            "dict([(1, 2)], **{\"a\": 1})", "dict(**{\"a\": 1, \"b\": 2})", "dict(**{1: 2})", "dict([], [])",
            "dict(1)", "dict([1])", "dict([(1,)])", "dict(\"ab\")", "dict([\"ab\"])", "dict([[1, 2]])",
            "dict({1: 2}, a=3)", "{[1]: 2}", "{1: 2, 1: 3}" if False else "{1: 2, 1.0: 3}",
            "(lambda d: (d.update({\"a\": 9}), d))(%s)" % a, "(lambda d: [d.pop(k) for k in list(d)])(%s)" % a,
        ])

    def f_set(self):
        r = self.r
        sets = ["set()", "set([1, 2])", "set([3, 1, 2])", "set([\"a\", \"b\"])", "set(\"abca\")", "set([1, 1.0, True])",
                "set((1, 2))", "set({\"a\": 1})", "set(range(3))"]
        a, b = r.choice(sets), r.choice(sets)
        return r.choice([
            "%s.union(%s)" % (a, b), "%s.union([4, 1])" % a, "%s.union(1)" % a, "%s | %s" % (a, b),
            "%s & %s" % (a, b), "%s - %s" % (a, b), "%s ^ %s" % (a, b), "%s == %s" % (a, b), "%s < %s" % (a, b),
            "%s in %s" % (self.x(), a), "len(%s)" % a, "list(%s)" % a, "sorted(%s)" % a, "str(%s)" % a,
            "bool(%s)" % a, "%s[0]" % a, "hash(%s)" % a, "dir(%s)" % a, "set([[1]])", "set(1)", "set([1], [2])",
            "set(x=1)", "%s + %s" % (a, b), "type(%s)" % a, "%s.add" % a, "max(%s)" % a, "tuple(%s)" % a,
            "{%s: 1}" % a, "(lambda s: (s.union([9]), s))(%s)" % a, "%s.union(%s, %s)" % (a, a, b),
        ])

    def num(self):
        r = self.r
        return r.choice([lambda: r.choice(INTS), lambda: r.choice(FLOATS), lambda: r.choice(SMALL_INTS[:9])])()

    def f_arith(self):
        r = self.r
        op = r.choice(["+", "-", "*", "/", "//", "%", "**" if False else "*", "|", "&", "^", "<<", ">>", "//", "%", "/"])
        a, b = self.num(), self.num()
        if r.random() < 0.15:
            b = r.choice(["0", "0.0", "-0.0"])
        if op in ("<<", ">>") and r.random() < 0.5:
            b = r.choice(["0", "1", "63", "64", "-1", "100", "511", "512", "1000"])
        return "(%s) %s (%s)" % (a, op, b)

    def f_unary(self):
        r = self.r
        return "%s(%s)" % (r.choice(["-", "+", "~", "not "]), r.choice([self.num(), self.x()]))

    def f_compare(self):
        r = self.r
        op = r.choice(["==", "!=", "<", "<=", ">", ">="])
        a, b = self.num(), self.num()
        if r.random() < 0.2:
            b = r.choice(ANY_VALUES)
        if r.random() < 0.2:
            a, b = "[%s]" % a, "[%s]" % b
        if r.random() < 0.1:
            a, b = "(%s, 1)" % a, "(%s, 2)" % b
        return "%s %s %s" % (a, op, b)

    def f_float_repr(self):
        r = self.r
        f = r.choice(FLOATS)
        if r.random() < 0.4:
            f = "(%s) %s (%s)" % (f, r.choice(["*", "/", "+", "-"]), r.choice(FLOATS + ["3", "7", "10"]))
        return r.choice(["repr(%s)", "str(%s)", "%s", "[%s]", "int(%s)", "float(%s)", "\"%%s\" %% (%s)",
                         "\"{}\".format(%s)", "json.encode(%s)", "yaml.encode(%s)", "hash(%s)",
                         "math.floor(%s)", "math.ceil(%s)", "math.round(%s)"]).replace("%s", f, 1).replace("%s", f)

    def f_convert(self):
        r = self.r
        return r.choice([
            lambda: "int(%s)" % r.choice(INTS + FLOATS + ANY_VALUES),
            lambda: "int(%s)" % r.choice(["\"0\"", "\"-0\"", "\"+12\"", "\"  12\"", "\"12 \"", "\"0x1f\"", "\"0X1F\"",
                                          "\"0b101\"", "\"0o17\"", "\"017\"", "\"00\"", "\"1e3\"", "\"1.5\"", "\"\"",
                                          "\"-\"", "\"٣\"", "\"9223372036854775808\"", "\"-0x10\"", "\"1_0\"", "\"a\"",
                                          "\"99999999999999999999999999\""]) +
            r.choice(["", "", ", 0", ", 2", ", 8", ", 16", ", 36", ", 1", ", 37", ", -1", ", base=16", ", \"8\"",
                      ", None"]),
            lambda: "int(%s, 10)" % r.choice(["1", "1.5", "True", "None"]),
            lambda: "float(%s)" % r.choice(INTS + FLOATS + ANY_VALUES[:20] + [
                "\"1.5\"", "\" 1.5 \"", "\"1e5\"", "\"-1E-5\"", "\"inf\"", "\"-inf\"", "\"+Inf\"", "\"infinity\"",
                "\"nan\"", "\"NaN\"", "\"-nan\"", "\"1.\"", "\".5\"", "\"1_0\"", "\"0x1p3\"", "\"\"", "\"abc\"",
                "\"1e400\"", "\"-1e400\"", "\"1e-400\"", "\"9007199254740993\"", "1 << 1024", "(1 << 1024) - 1",
                "(1 << 1023) * 1", "\"123456789012345678901234567890\""]),
            lambda: "float()", lambda: "int()", lambda: "float(1, 2)", lambda: "int(x=1)",
            lambda: "bool(%s)" % r.choice(ANY_VALUES), lambda: "str(%s)" % r.choice(ANY_VALUES),
            lambda: "repr(%s)" % r.choice(ANY_VALUES), lambda: "type(%s)" % r.choice(ANY_VALUES),
            lambda: "list(%s)" % r.choice(ANY_VALUES), lambda: "tuple(%s)" % r.choice(ANY_VALUES),
            lambda: "len(%s)" % r.choice(ANY_VALUES), lambda: "hash(%s)" % r.choice(ANY_VALUES),
            lambda: "bool()", lambda: "str()", lambda: "list()", lambda: "tuple()", lambda: "dict()", lambda: "set()",
            lambda: "repr()", lambda: "str(1, 2)", lambda: "bool(1, 2)", lambda: "list(1, 2)", lambda: "type()",
            lambda: "chr(%s)" % r.choice(["0", "65", "233", "0x10FFFF", "0x110000", "-1", "0xD800", "\"a\"", "1.0",
                                          "True", "1 << 70", "127", "128", "0x1F600"]),
            lambda: "ord(%s)" % r.choice(["\"a\"", "\"é\"", "\"€\"", "\"\\U0001F600\"", "\"\"", "\"ab\"", "1",
                                          "\"\\x00\"", "\"\\xff\"" if False else "\"ÿ\""]),
        ])()

    def f_percent(self):
        r = self.r
        conv = r.choice(["d", "i", "s", "r", "x", "X", "o", "e", "E", "f", "F", "g", "G", "c", "%", "z", "a", "u"])
        flags = r.choice(["", "", "", "-", "0", "5", "-5", "05", ".2", ".0", "10.3", "+", " ", "#", "*"])
        fmt = "%" + flags + conv
        if r.random() < 0.3:
            fmt = r.choice(["x=%s y=%d", "%s%s", "%(a)s-%(b)r", "%(a)d", "%(nokey)s", "%%%s", "%", "%s %",
                            "%(a)s %s", "%()s", "%(a", "abc", "%5", "%-s|", "%.3s|", "%c%c"])
        arg = r.choice(["1", "-1", "0", "255", "3.75", "-3.75", "1e20", "1e-5", "float('nan')", "float('inf')",
                        "\"str\"", "\"\"", "None", "True", "[1, 2]", "(1, 2)", "(1,)", "()", "{\"a\": 1, \"b\": 2}",
                        "{\"a\": 1}", "65", "\"é\"", "0x1F600", "1 << 70", "-(1 << 70)", "123.456", "2.5", "0.5",
                        "1.5", "-0.0", "(\"a\", 1.5)", "(1, 2, 3)", "struct.make(a=1)", "[]", "12345678.9",
                        "0.000123", "1e16", "100000.0", "1000000.0"])
        return "\"%s\" %% %s" % (fmt, arg)

    def f_format(self):
        r = self.r
        fmt = r.choice(["{}", "{} {}", "{0} {1} {0}", "{1}", "{a}", "{a} {}", "{!r}", "{!s}", "{0!r}", "{!a}",
                        "{:d}", "{:5}", "{0:}", "{{}}", "{{{}}}", "{", "}", "{{", "}}", "{} {1}", "{0} {}",
                        "{x.y}", "{0[1]}", "{a[0]}", "{2}", "{!}", "{!rr}", "{ }", "{00}", "{-1}", "{0x}",
                        "{a!r}", "{:}", "{!r:}", "a{}b{}c", "{10}", "{é}", "}{", "{0}{1}{2}", "{ a }",
                        "{0!s:>5}", "{:>{}}"])
        args = r.choice(["", "1", "\"s\"", "1, 2", "[1, 2], \"q\"", "a=1", "1, a=2", "None, 3.5", "(1, 2)",
                         "\"x\", \"y\", \"z\"", "a=\"é\"", "1.5", "1e20", "struct.make(a=1)", "\"é\", a=[\"x\"]",
                         "*[1, 2]", "**{\"a\": 1}"])
        return "\"%s\".format(%s)" % (fmt, args)

    def f_builtin(self):
        r = self.r
        seq = r.choice(["[3, 1, 2]", "[]", "\"abc\"", "(2, 1)", "{\"b\": 1, \"a\": 2}", "range(5)", "range(10, 0, -3)",
                        "set([2, 1])", "[1, \"a\"]", "[[2], [1, 3]]", "[(1, \"b\"), (1, \"a\")]", "[None, None]",
                        "[1.5, 1, True]", "\"é€\".codepoints()", "1", "None", "[\"b\", \"A\", \"a\", \"B\"]",
                        "[float('nan'), 1, 0]", "[-0.0, 0]", "{\"a\": 1}.items()"])
        return r.choice([
            lambda: "sorted(%s%s%s)" % (seq, r.choice(["", ", key=len", ", key=str", ", key=lambda x: -x", ", key=None",
                                                       ", key=1", ", key=lambda x: x[0]"]),
                                       r.choice(["", ", reverse=True", ", reverse=False", ", reverse=1", ", reverse=None"])),
            lambda: "sorted()", lambda: "sorted([1], [2])", lambda: "sorted([1], cmp=1)",
            lambda: "reversed(%s)" % seq, lambda: "reversed()", lambda: "list(reversed(%s))" % seq,
            lambda: "enumerate(%s%s)" % (seq, r.choice(["", ", 1", ", -5", ", start=2", ", \"x\"", ", 1 << 70", ", None"])),
            lambda: "zip(%s)" % ", ".join([seq] * r.randint(0, 3)), lambda: "zip(%s, %s)" % (seq, r.choice(["[1]", "\"xy\"", "1"])),
            lambda: "zip([1], x=[2])",
            lambda: "%s(%s)" % (r.choice(["min", "max"]), r.choice([seq, seq + ", key=len", seq + ", key=lambda x: -x",
                                                                    "1, 2", "1", "", "1, 2, key=str", "\"b\", \"a\"",
                                                                    "[], default=1", "1, 1.0", "1.0, 1", "*[]",
                                                                    "[1], [0, 5]", "None, 1"])),
            lambda: "%s(%s)" % (r.choice(["any", "all"]), r.choice([seq, "", "1", "[0, \"\"]", "[1, [0]]", "[], 1"])),
            lambda: self.f_range(),
            lambda: "getattr(%s, %s%s)" % (r.choice(ANY_VALUES), r.choice(["\"upper\"", "\"a\"", "\"nope\"", "\"append\"",
                                                                          "\"get\"", "\"union\"", "\"check\"", "1",
                                                                          "\"string\"", "\"__class__\"", "\"\""]),
                                          r.choice(["", ", None", ", 5"])),
            lambda: "hasattr(%s, %s)" % (r.choice(ANY_VALUES), r.choice(["\"upper\"", "\"a\"", "\"nope\"", "\"append\"",
                                                                        "\"get\"", "\"union\"", "1", "\"elems\""])),
            lambda: "dir(%s)" % r.choice(ANY_VALUES), lambda: "dir()", lambda: "dir(1, 2)",
            lambda: "type(%s)" % r.choice(ANY_VALUES), lambda: "str(%s)" % r.choice(ANY_VALUES),
            lambda: "repr(%s)" % r.choice(ANY_VALUES), lambda: "%s == %s" % (r.choice(ANY_VALUES), r.choice(ANY_VALUES)),
            lambda: "%s < %s" % (r.choice(ANY_VALUES), r.choice(ANY_VALUES)),
            lambda: "len(%s)" % r.choice(ANY_VALUES), lambda: "hash(%s)" % r.choice(ANY_VALUES + STRS),
            lambda: "%s in %s" % (r.choice(ANY_VALUES), r.choice(ANY_VALUES)),
            lambda: "[x for x in %s]" % r.choice(ANY_VALUES),
            lambda: "fail(%s)" % r.choice(["\"boom\"", "1", "None", "\"a\", \"b\"", "[1]", "sep=\"-\"", "\"a\", 2, sep=\"\"",
                                           "\"x\", bogus=1", "", "struct.make(a=1)", "\"a\", sep=1"]),
            lambda: "print(%s)" % r.choice(["", "1", "\"x\", sep=\"\""]),
        ])()

    def f_range(self):
        r = self.r
        rg = "range(%s)" % r.choice(["0", "5", "-3", "1, 10, 3", "10, 1, -2", "5, 5", "0, 10, 0", "1 << 70", "1.5",
                                     "\"3\"", "", "1, 2, 3, 4", "None", "2, 8", "0, -10, -4",
                                     "-9223372036854775808, 9223372036854775807, 1 << 62", "True"])
        return r.choice(["%s", "list(%s)", "len(%s)", "%s[1]", "%s[-1]", "%s[100]", "%s[1:3]", "%s[::-1]",
                         "%s[::2]", "list(%s[::-2])", "%s == %s", "%s == range(0)", "str(%s)", "type(%s)", "3 in %s",
                         "\"a\" in %s", "bool(%s)", "hash(%s)", "reversed(%s)", "sorted(%s)", "%s + [1]", "%s * 2",
                         "list(%s[1:100:3])", "%s[1:][1:]", "%s < %s", "dir(%s)", "tuple(%s)", "1.0 in %s",
                         "{%s: 1}"]).replace("%s", rg)

    def f_struct(self):
        r = self.r
        return r.choice([
            "struct.make()", "struct.make(a=1, b=\"x\")", "str(struct.make(b=[1], a={\"k\": None}))",
            "repr(struct.make(a=struct.make(c=1.5)))", "struct.make(a=1) == struct.make(a=1)",
            "struct.make(a=1, b=2) == struct.make(b=2, a=1)", "struct.make(a=1) != struct.make(a=1.0)",
            "dir(struct.make(z=1, a=2))", "struct.make(a=1).b", "struct.make(a=1, aa=2).ab", "getattr(struct.make(a=1), \"a\")",
            "struct.make(1)", "struct.make(**{\"a\": 1})", "struct.make(**{1: 1})", "struct.encode(struct.make(a=[struct.make(b=1)]))",
            "struct.decode(struct.make(a=(1, 2), b=set([1])))", "struct.decode({1: struct.make()})", "struct.encode(None)",
            "struct.encode([1, {\"a\": (1, 2)}])", "struct.encode({\"a\": 1}).a",
            "struct.make_and_bind(struct.make(x=1), get=lambda s: s.x).get()", "struct.bind(lambda s: s, 1)()",
            "struct.make_and_bind(1, a=1)", "struct.make_and_bind(struct.make(), a=1)", "len(struct.make(a=1))",
            "struct.make(a=1)[\"a\"]", "\"a\" in struct.make(a=1)", "struct.make(a=1) + struct.make(b=2)",
            "hash(struct.make())", "bool(struct.make())", "type(struct)", "str(struct)", "dir(struct)", "struct.nope",
            "struct.make(a=lambda: 5).a()", "struct.make(b=1, a=2)", "yaml.encode(struct.make(b=1, a=2))",
            "json.encode(struct.make(b=1, a=[struct.make()]))", "struct.make(a=len)", "str(struct.make(a=len))",
            "struct.decode([struct.make(a=1), (struct.make(),)])", "struct.make(a=1) < struct.make(a=2)",
            "struct.make(a=struct.make(b=1)).a.b", "dir(struct.make())", "struct.make(a=1).a.upper",
            "module.make(\"m\", f=1)" if False else "struct.make(a=frag())", "struct.encode(frag())",
            "struct.encode(frag_list())", "struct.decode(frag())",
        ])

    def f_json(self):
        r = self.r
        return r.choice([
            "json.encode(%s)" % r.choice([x for x in ANY_VALUES + FLOATS[:20] if x not in ("len", "fn", "struct", "json", "regexp", "math", "\"\".join", "[].append", "{}.get", "lambda: 1")]), "json.encode()", "json.encode(1, 2)",
            "json.encode({\"b\": [1, {\"c\": None}], \"a\": 1.5}, indent=%s)" % r.choice(["0", "1", "2", "4", "-1", "\"2\"", "None", "True", "1.5"]),
            "json.encode([], indent=2)", "json.encode({}, indent=2)", "json.encode([[]], indent=2)",
            "json.encode(\"%s\")" % r.choice(["<>&", "\\u2028", "é\\n\\t\\\"\\\\", "\\x00\\x1f\\x7f", "\\U0001F600"]),
            
            "json.decode(%s)" % r.choice(["'1'", "'1.0'", "'-0'", "'1e3'", "'1E400'", "'12345678901234567890'", "'\"\\\\u00e9\"'",
                                          "'[]'", "'{}'", "'{\"b\": 1, \"a\": 2}'", "'null'", "'true'", "'tru'", "''", "' '",
                                          "'[1,]'", "'{\"a\":1,\"a\":2}'", "'\"\\\\ud800\"'", "'1 2'", "'[1] x'", "'01'",
                                          "'-'", "'.5'", "'1.'", "'\"\\t\"'", "'{\"a\": [1, {\"b\": null}]}'", "1",
                                          "None", "'\"\\\\x41\"'", "'NaN'", "'[1e308, 1e309]'", "'-1e-400'", "'1.5e10'",
                                          "'100000000000000000000000000000'", "'0.1'", "'3.0'", "'1e2'"]),
            "json.decode()", "json.encode(1, indent=2, bogus=1)", "type(json.decode('1.0'))",
            "type(json.decode('{}'))", "json.decode('{\"a\": 1}').a" if False else "json.decode('{\"a\": 1}')[\"a\"]",
        ])

    def f_yaml(self):
        r = self.r
        return r.choice([
            "yaml.encode(%s)" % r.choice(ANY_VALUES + FLOATS[:24] + STRS), "yaml.encode()",
            "yaml.decode(%s)" % r.choice(["\"1\"", "\"1.0\"", "\"1e3\"", "\"0x1F\"", "\"0o17\"", "\"017\"", "\"yes\"", "\"on\"",
                                          "\"~\"", "\"null\"", "\"\"", "\"- 1\\n- a\"", "\"a: 1\\nb: [x, {c: d}]\"",
                                          "\"!!str 1\"", "\"!!float 1\"", "\"!!int '1'\"", "\".inf\"", "\"-.Inf\"",
                                          "\".nan\"", "\"2001-12-14\"", "\"a: 1\\n---\\nb: 2\"", "\"---\\n---\"", "\"{a: 1, a: 2}\"",
                                          "\"a:\\n  - b\\n  -\"", "\"1_000\"", "\"+1\"", "\"-0\"", "\"0b101\"",
                                          "\"123456789012345678901234567890\"", "\"[1, 2\"", "\"key: value: x\"", "\"&a [*a]\"",
                                          "\"? [1]\\n: 2\"", "\"'x'\"", "\"|\\n  a\\n  b\\n\"", "1", "None", "\"1e400\"",
                                          "\"9223372036854775808\"", "\"-9223372036854775809\"", "\"True\"", "\"N\"",
                                          "\"0.1\"", "\"1.\"", "\".5\"", "\"- [a, b]\\n- {c: 1}\"", "\"<<: {a: 1}\\nb: 2\""]),
            "yaml.decode(\"a: 1\\nb: 2\")[\"b\"]", "type(yaml.decode(\"a: 1\"))", "yaml.decode(\"a: [1]\")[\"a\"][0]",
            "yaml.encode({\"b\": 1, \"a\": [1, {\"c\": None}]})", "yaml.encode([[1, [2]], {}])",
            "yaml.encode(\"%s\")" % r.choice(["a: b", "- x", "#c", "true", "1.5", "null", "", " x", "x ", "a\\nb", "a\\n",
                                              "é", "'q'", "\\\"", "@x", "`x", "&a", "*a", "!t", "%x", "? x", "0o17",
                                              "1e3", "~", "y", "NO", "0x1F", "+1", ".inf", "1_000", "2001-12-14",
                                              "a #b", "a: ", "{x}", "[x]", "a,b", "\\t", "x\\ty"]),
            "yaml.encode(frag())", "yaml.encode(frag_list())",
        ])

    def f_math(self):
        """@ytt:math on random numbers: Go's math package must give the same bits."""
        r = self.r

        def num():
            return r.choice([repr(r.uniform(-4, 4)), repr(r.uniform(-800, 800)), str(r.randint(-50, 50)),
                             repr(10 ** r.uniform(-30, 30)), repr(-(10 ** r.uniform(-30, 30))),
                             repr(r.uniform(-1, 1)), repr(r.randint(1, 60) + 0.5), "1e300", "-1e-300",
                             "float('inf')", "float('nan')", "0", "-0.0", "1 << 40"])
        one = ["sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh",
               "exp", "gamma", "log", "sqrt", "fabs", "round", "degrees", "radians"]
        two = ["atan2", "pow", "hypot", "log", "mod", "remainder", "copysign"]
        if r.random() < 0.6:
            return "math.%s(%s)" % (r.choice(one), num())
        return "math.%s(%s, %s)" % (r.choice(two), num(), num())

    def f_modules(self):
        r = self.r
        return r.choice([
            "regexp.match(%s, %s)" % (r.choice(["\"a+\"", "\"^a\"", "\"(\"", "\"\\\\d\"", "\"[é]\"", "\"\"", "\"(?i)A\"", "1",
                                                "\"a{2}\"", "\"\\\\bx\""]),
                                      r.choice(["\"caa\"", "\"x1\"", "\"\"", "\"é\"", "1", "\"A\""])),
            "regexp.replace(%s, %s, %s)" % (r.choice(["\"a(b)?\"", "\"(\"", "\"\"", "\"(?P<n>a)\"", "\"x*\""]),
                                            r.choice(["\"xabab\"", "\"aaa\"", "\"\"", "\"é\""]),
                                            r.choice(["\"<$1>\"", "\"$0\"", "\"${n}\"", "\"$$\"", "\"\"", "lambda m: m.upper()",
                                                      "lambda m: 1", "1", "\"\\\\1\""])),
            "regexp.match(\"a\")", "regexp.replace(\"a\", \"b\", \"c\", 1)",
            "regexp.%s(%s, \"a\\xffb\\xed\\xa0\\x80\"%s)" % (r.choice(["match", "replace"]),
                                                     r.choice(["\".\"", "\"[^a]\"", "\"\\\\C\"", "\"x*\"", "\"b.\""]),
                                                     r.choice(["", ", \"<$0>\""])),
            "base64.encode(%s)" % r.choice(["\"hello\"", "\"\"", "\"é\"", "\"a\"", "\"ab\"", "1", "\"\\x00\"",
                                            "\"hi\", url=True", "\"hi?>\", url=True", "\"a\", raw=True", "\"ab\", raw=True, url=True",
                                            "\"a\", bogus=True"]),
            "base64.decode(%s)" % r.choice(["\"aGVsbG8=\"", "\"aGk\"", "\"aGk\", raw=True", "\"!!\"", "\"\"", "\"aGk=\", raw=True",
                                            "\"_-8=\", url=True", "\"/+8=\"", "1", "\"w6k=\"", "\"/w==\"", "\"YQ\"",
                                            "\"YQ==\\n\"", "\"Y Q==\""]),
            "md5.sum(%s)" % r.choice(["\"\"", "\"abc\"", "1", "\"é\""]), "sha256.sum(%s)" % r.choice(["\"\"", "\"abc\"", "None"]),
            "url.path_segment_encode(%s)" % r.choice(["\"a b/c?d\"", "\"é\"", "\"\"", "1", "\"a+b%\"", "\"~-._\""]),
            "url.path_segment_decode(%s)" % r.choice(["\"a%20b\"", "\"%zz\"", "\"a+b\"", "\"%C3%A9\"", "\"%\""]),
            "url.query_param_value_encode(%s)" % r.choice(["\"a b&c=d\"", "\"é\"", "\"~\"", "1"]),
            "url.query_param_value_decode(%s)" % r.choice(["\"a+b\"", "\"%zz\"", "\"a%26b\"", "\"\""]),
            "url.query_params_encode(%s)" % r.choice(["{\"b\": [\"1\", \"2\"], \"a\": [\"x y\"]}", "{}", "{\"a\": \"x\"}",
                                                      "{\"a\": [1]}", "{1: [\"a\"]}", "[]"]),
            "url.query_params_decode(%s)" % r.choice(["\"b=1&a=2&b=3\"", "\"a\"", "\"%zz=1\"", "\"\"", "\"a=1;b=2\"", "\"a=%20\""]),
            "url.parse(%s)" % r.choice(["\"http://u:p@h:80/p/a?q=1#f\"", "\"/rel\"", "\"::\"", "\"\"", "\"mailto:x@y\"",
                                        "1", "\"http://[::1]:8/\"", "\"h t\""]) +
            r.choice(["", ".user", ".user.password", ".user.username", ".without_user()", ".string()", ".hostname",
                      ".port", ".path", ".query", ".fragment", ".scheme", ".nope"]),
            "ip.parse_addr(%s)" % r.choice(["\"10.0.0.1\"", "\"::1\"", "\"::ffff:1.2.3.4\"", "\"1.2.3\"", "\"\"", "1",
                                            "\"010.0.0.1\"", "\"FE80::1\""]) +
            r.choice(["", ".is_ipv4()", ".is_ipv6()", ".string()", ".nope", ".is_ipv4(1)"]),
            "ip.parse_cidr(%s)" % r.choice(["\"10.0.0.1/8\"", "\"::1/128\"", "\"1.2.3.4\"", "\"1.2.3.4/33\"", "\"\"",
                                            "\"fe80::1/64\""]) + r.choice(["", ".addr()", ".string()", ".addr().string()",
                                                                            ".addr().is_ipv4()"]),
            "version.require_at_least(%s)" % r.choice(["\"0.1.0\"", "\"0.48.0\"", "\"0.48.1\"", "\"99.0.0\"", "\"x\"", "1",
                                                       "\"v0.1.0\"", "\"0.1\"", ""]),
            "math.%s(%s)" % (r.choice(["ceil", "floor", "round", "fabs", "sqrt", "mod", "remainder", "copysign",
                                       "degrees", "radians", "sin", "cos", "tan", "asin", "acos", "atan",
                                       "atan2", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "exp",
                                       "log", "pow", "hypot", "gamma"]),
                             r.choice(["1.5", "-1.5", "2.5", "-2.5", "0.5", "3", "-0.0", "1 << 70", "float('nan')",
                                       "float('inf')", "\"x\"", "True", "None", "4", "-4", "7, 2", "-7, 2", "7, -2",
                                       "7.5, 2", "1, 0", "1.0, 0.0", "0.0, -1", "3, -0.0", "", "1e300", "1e16 + 1"])),
            "math.pi", "math.e", "math.inf" if False else "math.nosuch", "dir(math)" if False else "type(math)",
            "str(regexp)", "type(md5)", "str(json.encode)", "json.encode == json.encode", "type(url.parse)",
        ])

    def f_frag(self):
        r = self.r
        f = r.choice(["frag()", "frag_list()", "frag_empty()"])
        return r.choice([
            "%s", "type(%s)", "str(%s)", "repr(%s)", "len(%s)", "list(%s)", "%s[0]", "%s[\"a\"]", "%s[-1]", "%s[\"zz\"]",
            "%s.a", "\"a\" in %s", "1 in %s", "dict(%s)", "%s == %s", "%s != %s", "bool(%s)", "%s.keys()", "%s.get(\"a\")",
            "%s[0:1]", "%s + %s", "[x for x in %s]", "sorted(%s)", "dir(%s)", "hash(%s)", "json.encode(%s)",
            "%s[\"b\"]", "%s[\"b\"][0]", "%s[\"b\"][-1]", "len(%s[\"b\"])", "%s[1]", "hasattr(%s, \"a\")", "max(%s)",
            "enumerate(%s)", "zip(%s, %s)", "reversed(%s)", "tuple(%s)", "%s < %s", "{%s: 1}",
            "struct.encode(%s)", "%s.items()", "%s.nope", "getattr(%s, \"a\", 1)", "%s[None]",
        ]).replace("%s", f)

    def f_func(self):
        r = self.r
        return r.choice([
            "fn", "str(fn)", "repr(fn)", "type(fn)", "fn == fn", "fn(1)", "fn()", "fn(1, 2, 3)", "fn(b=1)", "fn(1, c=1)",
            "fn(1, a=2)", "fn(*[1, 2])", "fn(**{\"a\": 1, \"b\": 2})", "fn(*1)", "fn(**1)", "fn(**{1: 2})",
            "str(lambda x: x)", "type(lambda: 1)", "repr(len)", "str([].append)", "repr(\"\".join)", "type(len)",
            "type([].append)", "str({}.get)", "dir(fn)", "hash(fn)", "{fn: 1}", "fn < fn", "bool(fn)", "len(1, 2)",
            "len()", "len(x=1)", "hash()", "fn.x", "len.x", "kwfn(1)", "kwfn(1, 2)", "kwfn(1, b=2, c=3)",
            "kwfn(1, 2, 3, d=4)", "kwfn()", "kwfn(b=1)", "kwfn(1, b=2, b=3)" if False else "kwfn(1, **{\"b\": 2, \"c\": 3})",
            "varfn()", "varfn(1, 2, x=3)", "varfn(*\"ab\")", "varfn(**{\"a\": 1})", "str(kwfn)", "repr(varfn)",
            "(lambda *a, **k: (a, k))(1, k=2)", "(lambda a, b=1: a)(b=2)", "(lambda: 1)(1)", "(lambda a: a)(1, a=1)",
            "\"ab\".upper(1)", "[].append()", "{}.get()", "\"x\".split(1, 2, 3)", "[].pop(0)", "[1].pop(5)",
            "{}.pop(1)", "{}.popitem()", "[].index(1)", "[1].remove(2)", "\"a\".index(\"b\")", "\"a\".rindex(\"b\")",
        ])

    def f_toml(self):
        r = self.r
        return r.choice([
            "toml.encode(%s)" % r.choice(["{\"a\": 1, \"b\": [1, 2], \"c\": {\"d\": \"x\"}}", "{}", "{\"a\": None}",
                                          "{\"a\": 1.5, \"b\": True, \"c\": \"é\\n\"}", "[1]", "1", "None", "{1: 2}",
                                          "{\"a\": [{\"b\": 1}, {\"b\": 2}]}", "{\"a b\": 1, \"\": 2}",
                                          "{\"a\": float('inf')}", "{\"a\": 1 << 70}", "{\"a\": [1, \"x\"]}",
                                          "struct.make(b=1, a=2)", "{\"a\": {\"b\": {\"c\": 1}}, \"z\": 0}",
                                          "{\"a\": []}", "{\"a\": -0.0}", "{\"a\": 1e20}", "{\"a\": 0.1}",
                                          "{\"a\": \"'\\\"\"}", "{\"a\": ()}", "{\"a\": [[1], [2, 3]]}"]) +
            r.choice(["", "", ", indent=2", ", indent=0", ", indent=-1", ", indent=\"x\"", ", bogus=1"]),
            "toml.decode(%s)" % r.choice(["\"a = 1\"", "\"a = 1\\nb = [1, 2]\\n[c]\\nd = 'x'\"", "\"\"", "\"a =\"",
                                          "\"a = 1.5\"", "\"a = true\"", "\"a = inf\"", "\"a = nan\"", "\"[[t]]\\nx = 1\\n[[t]]\\nx = 2\"",
                                          "\"a = 0x1F\"", "\"a = 1_000\"", "\"a = 'lit'\"", "\"a = \\\"\\\\u00e9\\\"\"",
                                          "\"a.b.c = 1\"", "\"a = { x = 1 }\"", "\"a = 1\\na = 2\"", "1", "\"a = 9223372036854775807\"",
                                          "\"a = 1e400\"", "\"b = 2\\na = 1\"", "\"a = [1, 'x']\"", "\"a = -0.0\""]),
            "toml.encode()", "toml.decode()", "type(toml.decode(\"a = 1\"))",
        ])

    def f_overlay(self):
        r = self.r
        left = r.choice(["{\"a\": 1, \"b\": [1, 2]}", "[{\"name\": \"x\", \"v\": 1}]", "frag()", "frag_list()", "1",
                         "{\"a\": {\"b\": 1}}", "[]", "{}", "None"])
        right = r.choice(["{\"a\": 2}", "{\"c\": 3}", "{\"b\": [3]}", "[{\"name\": \"x\", \"v\": 2}]", "frag()",
                          "ovl()", "ovl_list()", "2", "{\"a\": {\"c\": 2}}", "[1]", "None"])
        return r.choice([
            "overlay.apply(%s, %s)" % (left, right), "overlay.apply(%s)" % left, "overlay.apply()",
            "overlay.apply(%s, %s, %s)" % (left, right, right),
            "overlay.map_key(%s)" % r.choice(["\"name\"", "1", "", "\"a\", \"b\""]),
            "overlay.index(%s)" % r.choice(["0", "-1", "\"a\"", ""]), "overlay.all", "overlay.all()",
            "overlay.subset(%s)" % r.choice(["{\"a\": 1}", "1", "", "frag()"]),
            "overlay.and_op()", "overlay.or_op(overlay.all)", "overlay.not_op(1)", "overlay.not_op()",
            "overlay.map_key(\"name\")(0, {\"name\": \"x\"}, {\"name\": \"x\"})",
            "overlay.subset({\"a\": 1})(0, {\"a\": 1, \"b\": 2}, None)", "overlay.index(0)(0, 1, 2)",
            "type(overlay.map_key(\"a\"))", "str(overlay.all)", "overlay.nope",
        ])

    def f_module(self):
        r = self.r
        return r.choice([
            "module.make(\"m\", a=1)", "module.make(\"m\", a=1).a", "module.make(\"m\").b", "module.make()",
            "module.make(1)", "module.make(\"m\", 1)", "str(module.make(\"m\", a=1))", "type(module.make(\"m\"))",
            "dir(module.make(\"m\", z=1, a=2))", "module.make(\"m\", a=1) == module.make(\"m\", a=1)",
            "hash(module.make(\"m\"))", "len(module.make(\"m\", a=1))", "list(module.make(\"m\", a=1))",
            "bool(module.make(\"m\"))", "module.make(\"m\", ab=1).ac", "getattr(module.make(\"m\", a=1), \"a\")",
            "\"a\" in module.make(\"m\", a=1)", "module.make(\"m\", a=1)[\"a\"]", "json.encode(module.make(\"m\"))",
            "template.replace", "type(template)", "str(template)", "dir(template)", "template.nope",
            "data.values", "type(data.values)", "data.read(\"nope.yml\")", "data.list(\"nope/\")", "data.list(1)",
            "sorted(data.list())", "data.read()", "data.read(\"tpl.yml\")[:10]", "len(data.list())",
        ])

    FAMILIES = ["string", "string_ops", "list", "list_ops", "dict", "dict_ops", "set", "arith", "unary",
                "compare", "float_repr", "convert", "percent", "format", "builtin", "range", "struct", "json",
                "yaml", "modules", "frag", "func", "toml", "overlay", "module", "math"]

    def fact(self):
        fam = self.family or self.r.choice(self.FAMILIES)
        return getattr(self, "f_" + fam)()

    HEAD = [
        '#@ load("@ytt:assert", "assert")', '#@ load("@ytt:struct", "struct")', '#@ load("@ytt:json", "json")',
        '#@ load("@ytt:yaml", "yaml")', '#@ load("@ytt:regexp", "regexp")', '#@ load("@ytt:math", "math")',
        '#@ load("@ytt:base64", "base64")', '#@ load("@ytt:url", "url")', '#@ load("@ytt:ip", "ip")',
        '#@ load("@ytt:version", "version")', '#@ load("@ytt:md5", "md5")', '#@ load("@ytt:sha256", "sha256")',
        '#@ load("@ytt:toml", "toml")', '#@ load("@ytt:overlay", "overlay")', '#@ load("@ytt:module", "module")',
        '#@ load("@ytt:template", "template")', '#@ load("@ytt:data", "data")',
        "#@ def fn(a, b=2):", "#@   return [a, b]", "#@ end",
        "#@ def kwfn(a, *, b, c=3):", "#@   return (a, b, c)", "#@ end",
        "#@ def varfn(*args, **kwargs):", "#@   return (args, kwargs)", "#@ end",
        "#@ def t(f):", "#@   r = assert.try_to(f)", "#@   return repr(r[0]) if r[1] == None else \"ERR \" + r[1]",
        "#@ end",
        "#@ def v(f):", "#@   r = assert.try_to(f)", "#@   if r[1] != None:", "#@     return \"ERR \" + r[1]", "#@   end",
        "#@   return r[0] if type(r[0]) in (\"float\", \"string\", \"bool\", \"NoneType\") else repr(r[0])",
        "#@ end",
        "#@ def plain(x):", "#@   if type(x) == \"int\":",
        "#@     return x >= -9223372036854775808 and x <= 18446744073709551615", "#@   end",
        "#@   return type(x) in (\"float\", \"string\", \"bool\", \"NoneType\")", "#@ end",
        "#@ def w(f):", "#@   r = assert.try_to(f)", "#@   if r[1] != None:", "#@     return \"ERR \" + r[1]", "#@   end",
        "#@   x = r[0]",
        "#@   if type(x) in (\"list\", \"tuple\") and all([plain(e) for e in x]):", "#@     return x", "#@   end",
        "#@   if type(x) == \"dict\" and all([plain(k) and plain(x[k]) for k in x]):", "#@     return x", "#@   end",
        "#@   return x if plain(x) else repr(x)", "#@ end",
        "#@ def frag_list():", "- 1", "- a: b", "#@ end",
        "#@ def ovl_list():", "#@overlay/match by=overlay.all", "- 9", "#@ end",
    ]
    # the document the facts go in (after HEAD's, which holds the array fragment's def)
    MAP_DEFS = ["#@ def frag():", "a: 1", "b:", "- x", "- 2", "#@ end", "#@ def frag_empty():", "#@ end",
                "#@ def ovl():", "#@overlay/match missing_ok=True", "a: 5", "#@ end"]

    def single(self, e):
        """A program of one fact outside assert.try_to: its error is rendered whole."""
        r = self.r
        if r.random() < 0.5:
            body = ["---"] + self.MAP_DEFS + ["r: #@ %s" % e]
        else:
            body = ["---"] + self.MAP_DEFS + ["#@ def prog():", "#@   return %s" % e, "#@ end", "r: #@ prog()"]
        return {"tpl.yml": "\n".join(self.HEAD + body) + "\n"}

    def multi(self, facts):
        """One template of many facts; one in three is a data values schema instead (the facts
        are defaults of `any` nodes, printed by --data-values-inspect)."""
        schema = self.r.random() < 0.33
        body = (["#@data/values-schema"] if schema else []) + ["---"] + self.MAP_DEFS
        for n, e in enumerate(facts):
            wrap = self.r.choice(["v", "v", "w", "t", "t", "t", "t", "t"])
            if schema:
                body.append("#@schema/type any=True")
            body.append("r%d: #@ %s(lambda: %s)" % (n, wrap, e))
        files = {"tpl.yml": "\n".join(self.HEAD + body) + "\n"}
        if schema:
            files["_args"] = "--data-values-inspect"
        return files

    def case(self):
        """[({filename: text}, [fact expressions])]: the programs of one case. Facts on YAML
        fragments go alone outside assert.try_to (ytt panics when try_to returns a fragment)."""
        r = self.r
        if r.random() < 0.1:  # one uncaught error, rendered whole
            e = self.fact()
            return [(self.single(e), [e])]
        facts, out = [], []
        for _ in range(r.randint(30, 60)):
            e = self.fact()
            if "frag" in e or "ovl" in e or "overlay.apply" in e:
                out.append((self.single(e), [e]))
            else:
                facts.append(e)
        return [(self.multi(facts), facts)] + out


def fact_lines(out):
    """The output split per top-level key: {key: text of its value}."""
    res = {}
    key = None
    for line in out.splitlines():
        if line and not line.startswith((" ", "-")) and ":" in line:
            key, _, rest = line.partition(":")
            res[key] = rest
        elif key is not None:
            res[key] += "\n" + line
    return res


def run_both(files, ytt, hintkit):
    with tempfile.TemporaryDirectory() as tmp:
        argv = []
        for name, text in sorted(files.items()):
            if name.startswith("_"):
                continue
            with open(os.path.join(tmp, name), "w") as f:
                f.write(text)
            argv += ["-f", name]
        argv += files.get("_args", "").split()
        return run([ytt] + argv, tmp), run([hintkit, "values"] + argv, tmp), argv


def main():
    show_facts = "--facts" in sys.argv
    if show_facts:
        sys.argv.remove("--facts")
    family = None
    if "--family" in sys.argv:
        i = sys.argv.index("--family")
        family = sys.argv[i + 1]
        del sys.argv[i:i + 2]
        if family not in Gen.FAMILIES:
            sys.exit("families: " + ", ".join(Gen.FAMILIES))
    hintkit, ytt, count, seed, show = options()
    rnd = random.Random(seed)
    agree = silent = facts_total = facts_bad = 0
    bad = []
    bad_facts = []
    programs = panics = 0
    for case in range(count):
        for files, facts in Gen(rnd, family).case():
            programs += 1
            r, h, argv = run_both(files, ytt, hintkit)
            same = r[0] == h[0] and r[1] == h[1] and normalise(r[2], "ytt") == normalise(h[2], "hintkit")
            facts_total += len(facts)
            if not same and "goroutine " in r[1] + r[2]:  # a Go panic's backtrace: nothing to match
                panics += 1
                continue
            if same:
                agree += 1
                continue
            if h[0] == 0 and (r[0] != 0 or r[1] != h[1]):
                silent += 1
            bad.append((case, files, r, h))
            if len(facts) > 1 and r[0] == 0 and h[0] == 0:
                fy, fh = fact_lines(r[1]), fact_lines(h[1])
                for n, e in enumerate(facts):
                    if fy.get("r%d" % n) != fh.get("r%d" % n):
                        bad_facts.append((e, fy.get("r%d" % n), fh.get("r%d" % n)))
            elif len(facts) > 1 and show_facts:  # one program each, to see which facts differ
                g = Gen(random.Random(0), family)  # the main stream stays as without --facts
                for e in facts:
                    r1, h1, _ = run_both(g.multi([e]), ytt, hintkit)
                    if (r1[0], r1[1], normalise(r1[2], "ytt")) != (h1[0], h1[1], normalise(h1[2], "hintkit")):
                        bad_facts.append((e, "rc %d %s%s" % (r1[0], r1[1].strip(), r1[2].strip()[:300]),
                                          "rc %d %s%s" % (h1[0], h1[1].strip(), h1[2].strip()[:300])))
            else:
                bad_facts.extend((e, "rc %d %s" % (r[0], r[2].strip()[:300]), "rc %d %s" % (h[0], h[1].strip() + h[2].strip()[:300])) for e in facts)
            if os.environ.get("DIFF_SAVE"):  # keep the case to rerun it by hand
                d = os.path.join(os.environ["DIFF_SAVE"], "case%d-%d" % (case, programs))
                os.makedirs(d, exist_ok=True)
                for name, text in files.items():
                    with open(os.path.join(d, name), "w") as f:
                        f.write(text)
                with open(os.path.join(d, "cmd"), "w") as f:
                    f.write(" ".join(argv) + "\n")
    facts_bad = len(bad_facts)
    for case, files, r, h in bad[:show]:
        if show_facts and r[0] == 0 and h[0] == 0:
            continue
        print(f"=== case {case} (ytt rc {r[0]}, hintkit rc {h[0]})")
        body = files["tpl.yml"].split("#@ end\n---\n", 1)[-1]
        print(body[:3000])
        print("--- ytt")
        print(r[1][-1500:] + r[2][:1500])
        print("--- hintkit")
        print(h[1][-1500:] + h[2][:1500])
    if show_facts:
        for e, y, hh in bad_facts:
            print(f"FACT {e}\n  ytt:     {str(y)[:400]}\n  hintkit: {str(hh)[:400]}")
    print(f"builtins: {programs} programs (seed {seed}, {count} cases), {agree} agree "
          f"({100.0 * agree / max(programs, 1):.1f}%), "
          f"{silent} silent wrong answers (hintkit exit 0, different from ytt), {panics} ytt panics; "
          f"facts: {facts_total}, {facts_bad} in disagreeing output")


if __name__ == "__main__":
    main()
