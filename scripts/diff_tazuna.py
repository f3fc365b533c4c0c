#!/usr/bin/env python3
"""Hint files, values and tazuna.yaml var declarations through tazuna's own hint code and
hintkit, and how their answers compare.

The reference is an oracle built from tazuna's `api/v1` and `pkg/hint` (see docs/testing.md,
"Measuring against the references"): `$TAZUNA_ORACLE lint FILE | resolve DIR VALUES | config TAZUNA_YAML` prints
one JSON line, {"ok": true, "vars": ...} or {"ok": false, "stage": ..., "error": ...}. It is
built outside this repository and never committed; this script takes its path from
TAZUNA_ORACLE.

Each case is random: a hint file (types right and wrong, defaults of right and wrong types,
required_with / required_without, rules, every format, YAML 1.1 scalars and keys, null vs
absent vs empty, Inf/NaN, integers past 2^53 and 2^64, odd and duplicate keys, a second
document), then one of three runs:
  lint     hintkit lint FILE                      oracle lint FILE
  resolve  hintkit resolve --dir . --values V     oracle resolve . V
  config   hintkit resolve --config tazuna.yaml   oracle config tazuna.yaml
           (static, staticSlice, staticMap and env sources, env set, empty or unset)
and is classified:
  same                both accept with equal values (numbers compared by value), or both refuse
  stricter-documented hintkit refuses what tazuna accepts, for a reason docs/tazuna.md lists under
                      "Where hintkit is stricter than tazuna"
  stricter-undocumented  hintkit refuses for any other reason
  looser              tazuna refuses, hintkit accepts
  different-values    both accept, with different values
  null-not-provided   different values only because a values file gives a declared var null
                      (docs/tazuna.md: null is "not provided"; tazuna's own sources never give null)

With --syntax, every YAML file of a case is also written in other YAML syntax before both
read it (Gen.vary_syntax: anchors and aliases, merge keys, explicit keys, comments, deeper
indentation, flow collections across lines, tags, a tab after ':', CR LF / CR / NEL line
breaks, a byte order mark, '---', '%YAML 1.1', '...'), so that the two readers of YAML, go-yaml
v2 under tazuna and hintkit's, meet the same variety; the classes are the same.

usage: TAZUNA_ORACLE=/path/to/tazuna-oracle scripts/diff_tazuna.py [HINTKIT]
           [--count N] [--seed S] [--show K] [--mode lint|resolve|config] [--syntax]
Exit 1 when any case is looser, has different values, or is stricter without documentation.
"""
import collections
import decimal
import json
import os
import random
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import diffkit  # noqa: E402

# ---------------------------------------------------------------------------------------------
# Pieces of YAML, as written in a file.

# Plain scalars go-yaml v2 reads in every YAML 1.1 way there is.
SCALARS = [
    "prod", "hello world", '"quoted"', "''", '""', "yes", "no", "on", "off", "y", "n", "Y",
    "~", "null", "Null", "NULL", "true", "True", "FALSE", "0", "-0", "012", "0o12", "0x1F",
    "0b101", "1_000", "+12", "1.10", "1e3", "1.5e300", "1e400", ".inf", "-.Inf", ".NaN",
    "9007199254740993", "12345678901234567890", "18446744073709551616",
    "-9223372036854775809", "3.14159265358979", "2001-12-14", "2001-12-14t21:59:43.10-05:00",
    "'0755'", "0755", "'on'", "1000000", "0.000001", "-1.5", "\"\\u00e9t\\u00e9\"", "été",
    "!!str 5", "!!float 1", "'a: b'", "x-y",
]
# Map keys as written: ordinary, YAML 1.1 scalars that become other text, and keys tazuna's
# YAML-to-JSON conversion refuses (null, integers past int64).
ODD_KEYS = ["a", "b", "on", "yes", "0x10", "1.10", "012", "1e3", "-1", ".inf", ".nan", "~",
            "null", "12345678901234567890", "'on'", "true", "1.0", "1"]

FORMAT_VALUES = {
    "hostname": ["example.com", "a", "a-b.c", "-a.com", "a-.com", "a..b", "ex_ample.com",
                 "EXAMPLE.com", "example.com.", "1.2.3.4", "xn--bcher-kva.example", "bücher.de",
                 "'a' * 63 + '.com'", "'a' * 64 + '.com'", "LEN253", "LEN254", "LEN255",
                 "LEN300"],
    "url": ["http://x", "https://example.com/p?q=1#f", "mailto:a@b", "urn:isbn:1", "/relative",
            "http//x", "'http://[::1]:80'", "'http://[::1'", "http://x y", "':foo'", "'x:'",
            "HTTP://X", "http://%zz", "http://x/%zz", "ftp://", "'http:'", "a b:c", "'*'",
            "'http://a b.com/'", "'//x'"],
    "email": ["a@b.co", "a.b+c@d.ef", "a@b.c", "a@b", "'@b.co'", "a@@b.co", "'a b@c.de'",
              "a@b.c1", "A@B.CO", "a@-b.co"],
    "ip": ["1.2.3.4", "01.2.3.4", "1.2.3.256", "'::1'", "'::ffff:1.2.3.4'", "'fe80::1%eth0'",
           "1.2.3", "'::'", "'1:2:3:4:5:6:7:8'", "'1:2:3:4:5:6:7:8:9'", "'1.2.3.4 '",
           "'::ffff:01.2.3.4'", "0.0.0.0"],
    "cidr": ["10.0.0.0/8", "10.0.0.1/33", "10.0.0.0/08", "'::/0'", "1.2.3.4", "1.2.3.4/-1",
             "1.2.3.4/32", "'fe80::/64'", "'::1/129'"],
    "uuid": ["123e4567-e89b-12d3-a456-426614174000", "123E4567-E89B-12D3-A456-426614174000",
             "123e4567e89b12d3a456426614174000", "'{123e4567-e89b-12d3-a456-426614174000}'",
             "123e4567-e89b-12d3-a456-42661417400g"],
    "semver": ["1.2.3", "v1.2.3", "01.2.3", "1.2.3-rc.1", "1.2.3-01", "1.2.3+build.01", "1.2",
               "V1.2.3", "1.2.3-", "0.0.0", "1.2.3-rc.1+b.2"],
    "datetime": ["2024-01-01T00:00:00Z", "2024-01-01t00:00:00z", "2024-01-01T00:00:00+09:00",
                 "2024-01-01T00:00:00.123Z", "'2024-01-01T00:00:00,123Z'",
                 "'2024-01-01 00:00:00Z'", "2024-02-30T00:00:00Z", "2024-01-01T24:00:00Z",
                 "2024-01-01T00:00:60Z", "2024-01-01T00:00:00+24:00", "2024-01-01T0:00:00Z",
                 "2024-01-01T00:00:00.Z", "2024-01-01"],
}
FORMATS = list(FORMAT_VALUES)
NAMES = ["clusterName", "ingressHost", "replicas", "tags", "labels", "region", "apiKey", "tls"]


def expand(text):
    """The special spellings of FORMAT_VALUES: hostnames of a given length, repeated labels."""
    m = re.fullmatch(r"LEN(\d+)", text)
    if m:
        n = int(m.group(1))
        labels, total = [], 0
        while total < n:
            size = min(63, n - total - (1 if labels else 0))
            if size <= 0:
                break
            labels.append("a" * size)
            total += size + (1 if len(labels) > 1 else 0)
        return ".".join(labels)
    m = re.fullmatch(r"'(\w)' \* (\d+) \+ '(.*)'", text)
    if m:
        return m.group(1) * int(m.group(2)) + m.group(3)
    return text


class Gen:
    def __init__(self, rng):
        self.r = rng
        self.tidy = False  # a hint tazuna accepts, mostly: only the values and scalars vary

    def pick(self, seq):
        return self.r.choice(seq)

    def chance(self, p):
        return self.r.random() < p

    def scalar(self):
        return self.pick(SCALARS)

    def flow_value(self, depth=0):
        """A flow-style YAML value: scalar, list or map with odd keys."""
        roll = self.r.random()
        if depth < 2 and roll < 0.2:
            return "[" + ", ".join(self.flow_value(depth + 1) for _ in range(self.r.randint(0, 3))) + "]"
        if depth < 2 and roll < 0.4:
            keys = [self.pick(ODD_KEYS) for _ in range(self.r.randint(0, 3))]
            return "{" + ", ".join(f"{k}: {self.flow_value(depth + 1)}" for k in keys) + "}"
        return self.scalar()

    def format_value(self, fmt):
        return expand(self.pick(FORMAT_VALUES[fmt]))

    def var_name(self):
        if self.chance(0.12):
            return self.pick(ODD_KEYS)
        return self.pick(NAMES)

    def hint(self):
        """(hint text, declared vars as {name: (type text, format)})."""
        r = self.r
        self.tidy = self.chance(0.6)
        if not self.tidy and self.chance(0.04):
            return self.pick(["", "# nothing\n", "[]\n", "vars\n", "---\n"]), {}
        lines = []
        if self.chance(0.6):
            lines.append("apiVersion: tazuna.pepabo.com/v1")
            lines.append("kind: TazunaHint")
        declared = {}
        shape = r.random() if not self.tidy else 1
        if shape < 0.03:
            pass  # no vars at all
        elif shape < 0.06:
            lines.append("vars:")
        elif shape < 0.09:
            lines.append("vars: {}")
        else:
            lines.append("vars:")
            for _ in range(r.randint(1, 4)):
                name = self.var_name()
                body, typ, fmt = self.var_body(declared)
                lines.append(f"  {name}:")
                lines.extend("    " + b for b in body)
                declared[name] = (typ, fmt)
        if self.chance(0.3):
            lines.append("rules:")
            for _ in range(r.randint(1, 2)):
                typ = self.pick(["oneof_required"] * 6 + ([] if self.tidy else ["oneOf_required", "~", "5"]))
                if self.tidy:
                    if len(declared) < 2:
                        lines.pop()
                        break
                    refs = r.sample(list(declared), 2)
                else:
                    refs = [self.pick(list(declared) + NAMES) for _ in range(r.randint(0, 3))] if declared else []
                lines.append(f"  - type: {typ}")
                lines.append(f"    vars: [{', '.join(refs)}]")
                if self.chance(0.4):
                    lines.append(f"    message: {self.scalar()}")
        if self.chance(0.06):
            lines.append(f"x-owner: {self.flow_value()}")
        if not self.tidy and self.chance(0.03):
            lines.append(f"Vars: {{}}")
        text = "\n".join(lines) + "\n"
        if not self.tidy and self.chance(0.05):
            text += "---\n" + self.pick(["vars: {}\n", "foo\n", "vars:\n  zz: {type: nope}\n"])
        return text, declared

    # A `key: value` line of a block map (or of a block list's map item).
    KEY_VALUE = re.compile(r"^( *)(- )?([A-Za-z_][\w.-]*): (\S.*)$")

    def vary_syntax(self, text):
        """`text` written in other YAML syntax: the same document where go-yaml reads it so, or
        a text go-yaml refuses (a tab after ':', a flow collection split where it may not be)."""
        if not text:
            return text
        lines = text.split("\n")
        last_empty = lines[-1] == ""
        if last_empty:
            lines.pop()
        if self.chance(0.35):
            lines = self.alias_repeats(lines)
        for name, p, vary in (("merge", 0.2, self.merge_line), ("explicit", 0.15, self.explicit_key),
                              ("tag", 0.1, self.tag_value), ("tab", 0.04, self.tab_after_colon),
                              ("flow", 0.15, self.split_flow), ("comment", 0.3, self.comment_line)):
            if self.chance(p):
                i = self.r.randrange(len(lines)) if lines else 0
                if lines:
                    lines[i:i + 1] = vary(lines[i])
        if self.chance(0.2):
            lines = [re.sub(r"^( *)", lambda m: m.group(1) * 2, line) for line in lines]
        text = "\n".join(lines) + ("\n" if last_empty else "")
        roll = self.r.random()
        if roll < 0.1:
            text = "---\n" + text
        elif roll < 0.14:
            text = "%YAML 1.1\n---\n" + text
        elif roll < 0.18:
            text = "--- # start\n" + text
        if self.chance(0.05):
            text += "...\n"
        roll = self.r.random()
        if roll < 0.12:
            text = text.replace("\n", "\r\n")
        elif roll < 0.18:
            text = text.replace("\n", "\r")
        elif roll < 0.21:
            text = text.replace("\n", self.pick(["\u0085", "\u2028", "\u2029"]), 1)
        if self.chance(0.05):
            text = "\ufeff" + text
        return text

    def alias_repeats(self, lines):
        """A value written again on a later line becomes an alias of its first place's anchor."""
        anchors, out = {}, []
        for line in lines:
            m = self.KEY_VALUE.match(line)
            value = m.group(4) if m else None
            if value is None or value.startswith(("&", "*", "!", "#")) or " #" in value:
                out.append(line)
                continue
            prefix = line[:m.start(4)]
            if value in anchors:
                out.append(prefix + "*" + anchors[value])
            else:
                anchors[value] = f"v{len(anchors)}"
                out.append(prefix + "&" + anchors[value] + " " + value)
        return out

    def merge_line(self, line):
        m = self.KEY_VALUE.match(line)
        if not m or m.group(2):
            return [line]
        return [f"{m.group(1)}<<: {{{m.group(3)}: {m.group(4)}}}"]

    def explicit_key(self, line):
        m = self.KEY_VALUE.match(line)
        if not m or m.group(2):
            return [line]
        return [f"{m.group(1)}? {m.group(3)}", f"{m.group(1)}: {m.group(4)}"]

    def tag_value(self, line):
        m = self.KEY_VALUE.match(line)
        if not m or m.group(4).startswith(("&", "*", "!", "[", "{")):
            return [line]
        return [line[:m.start(4)] + self.pick(["!!str ", "!!map ", "!custom ", "!<tag:yaml.org,2002:str> "]) + m.group(4)]

    def tab_after_colon(self, line):
        return [line.replace(": ", ":\t", 1)]

    def split_flow(self, line):
        """A flow collection's entries on lines of their own, indented past the line's key."""
        if ", " not in line or ("[" not in line and "{" not in line):
            return [line]
        indent = len(line) - len(line.lstrip(" ")) + self.pick([1, 2, 4, 0])
        parts = line.split(", ")
        return [parts[0] + ","] + [" " * indent + p + "," for p in parts[1:-1]] + [" " * indent + parts[-1]]

    def comment_line(self, line):
        indent = len(line) - len(line.lstrip(" "))
        if self.chance(0.5):
            return [" " * self.pick([0, indent]) + "# note", line]
        if line.rstrip().endswith((":", "]", "}")) or self.KEY_VALUE.match(line):
            return [line + " # note"]
        return [line]

    def var_body(self, declared):
        r = self.r
        body = []
        tidy = self.tidy
        typ = self.pick(["string"] * 5 + ["slice"] * 3 + ["map"] * 3 +
                        ([] if tidy else ["String", '"string"', "list", "~", "5", "yes", '""']))
        if tidy or self.chance(0.97):
            body.append(f"type: {typ}")
        fmt = None
        if typ == "string" and self.chance(0.35) or (not tidy and self.chance(0.03)):
            fmt = self.pick(FORMATS + ([] if tidy else ["Hostname", "bogus", '""', "~", "5"]))
            body.append(f"format: {fmt}")
        required = False
        if self.chance(0.25):
            word = self.pick(["true", "false", "yes", "no", "~", "on"] +
                             ([] if tidy else ['"true"', "1"]))
            required = word in ("true", "yes", "on")
            body.append("required: " + word)
        if self.chance(0.45) and not (tidy and required):
            body.append("default: " + self.default(typ, fmt))
        if self.chance(0.15):
            body.append(f"description: {self.scalar()}")
        for key in ("required_with", "required_without"):
            if self.chance(0.12) and not (tidy and (required or not declared)):
                pool = list(declared) if tidy else list(declared) + NAMES + ["~", "on"]
                refs = [self.pick(pool) for _ in range(r.randint(1 if tidy else 0, 2))]
                body.append(f"{key}: [{', '.join(refs)}]" if tidy or self.chance(0.9) else f"{key}: x")
        if not tidy and self.chance(0.03):
            body.append(self.pick(["Type: string", "requierd: true", "x-note: .nan", "type: map"]))
        return body, typ, fmt if fmt in FORMAT_VALUES else None

    def default(self, typ, fmt):
        if fmt in FORMAT_VALUES and self.chance(0.6):
            return self.format_value(fmt)
        if typ == "slice" and self.chance(0.6):
            return "[" + ", ".join(self.flow_value(1) for _ in range(self.r.randint(0, 3))) + "]"
        if typ == "map" and self.chance(0.6):
            keys = [self.pick(ODD_KEYS) for _ in range(self.r.randint(0, 3))]
            return "{" + ", ".join(f"{k}: {self.flow_value(1)}" for k in keys) + "}"
        return self.flow_value()

    def value_for(self, typ, fmt):
        if fmt and self.chance(0.6):
            return self.format_value(fmt)
        roll = self.r.random()
        if roll < 0.06:
            return "~"
        if roll < 0.1:
            return '""'
        if typ == "slice" and self.chance(0.6):
            return "[" + ", ".join(self.flow_value(1) for _ in range(self.r.randint(0, 3))) + "]"
        if typ == "map" and self.chance(0.6):
            keys = [self.pick(ODD_KEYS) for _ in range(self.r.randint(0, 3))]
            return "{" + ", ".join(f"{k}: {self.flow_value(1)}" for k in keys) + "}"
        return self.flow_value()

    def values(self, declared):
        if self.chance(0.03):
            return self.pick(["", "[]\n", "5\n", "{}\n", "~\n"])
        lines = []
        for name, (typ, fmt) in declared.items():
            if self.chance(0.6):
                lines.append(f"{name}: {self.value_for(typ, fmt)}")
        for _ in range(self.r.randint(0, 2)):
            lines.append(f"{self.var_name()}: {self.flow_value()}")
        return "\n".join(lines) + "\n"

    def config(self, declared):
        """(tazuna.yaml text, environment): one or two helmfile manifests' declarations."""
        env = {}
        lines = ["apiVersion: tazuna.pepabo.com/v1", "kind: Tazuna", "spec:", "  manifests:"]
        for m in range(self.r.randint(1, 2)):
            lines += [f"    - name: app{m}", "      type: helmfile",
                      f"      path: app{m}/helmfile.yaml"]
            names = list(declared) + [self.var_name() for _ in range(self.r.randint(0, 2))]
            chosen = [n for n in names if self.chance(0.7)]
            if not chosen and self.chance(0.5):
                continue
            lines += ["      helmfile:", "        vars:"]
            for i, name in enumerate(chosen):
                lines.append(f"          {name}:")
                lines += ["            " + b for b in self.source(declared.get(name), env, i, m)]
        return "\n".join(lines) + "\n", env

    def source(self, decl, env, i, m):
        typ, fmt = decl if decl else (None, None)
        roll = self.r.random()
        if roll < 0.3:
            var = f"HK_DIFF_{m}_{i}"
            state = self.r.random()
            if state < 0.7:
                env[var] = self.format_value(fmt).strip("'") if fmt and self.chance(0.6) else self.pick(["x", "prod", "", "on", "1.10"])
            elif state < 0.85:
                env[var] = ""
            return ["from: env", f"env: {var}"]
        if roll < 0.55:
            value = self.format_value(fmt) if fmt and self.chance(0.6) else self.scalar()
            return ["from: static", f"static: {value}"]
        if roll < 0.72:
            items = [self.scalar() for _ in range(self.r.randint(0, 3))]
            return ["from: static", f"staticSlice: [{', '.join(items)}]"]
        if roll < 0.9:
            keys = [self.pick(ODD_KEYS) for _ in range(self.r.randint(0, 3))]
            pairs = ", ".join(f"{k}: {self.scalar()}" for k in keys)
            return ["from: static", f"staticMap: {{{pairs}}}"]
        return self.pick([["from: nope", "static: x"], ["static: x"],
                          ["from: static", "static: a", "staticSlice: [b]"], ["from: static"],
                          ["from: env"], ["from: static", "static: ~"]])


# ---------------------------------------------------------------------------------------------
# Running and comparing.

def run(argv, cwd, env=None):
    try:
        p = subprocess.run(argv, cwd=cwd, capture_output=True, timeout=60, env=env,
                           stdin=subprocess.DEVNULL)
        return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")
    except subprocess.TimeoutExpired:
        return -999, "", "timeout"


def numbers_by_value(text):
    return json.loads(text, parse_float=decimal.Decimal, parse_int=decimal.Decimal)


def codes(stderr):
    """hintkit's error diagnostics from --format json: [(code, message)]."""
    out = []
    for line in stderr.splitlines():
        line = line.strip()
        if not line.startswith("{"):
            continue
        try:
            report = json.loads(line)
        except ValueError:
            continue
        for d in report.get("diagnostics", []):
            if d.get("severity") == "error":
                out.append((d.get("code"), d.get("message", "")))
    return out


SEMVER_LEADING_ZERO = re.compile(r"(^|[.-])0\d")


def format_reason(message):
    """The docs/tazuna.md phrase that documents an HK204 on a value tazuna's check accepts, or None."""
    m = re.search(r'value "(.*)" does not match format "(\w+)"', message)
    if not m:
        return None
    value, fmt = m.group(1), m.group(2)
    if fmt == "datetime":
        return "`datetime` is strict RFC 3339"
    if fmt == "semver" and SEMVER_LEADING_ZERO.search(value.lstrip("v")):
        return "`semver` forbids leading zeros"
    if fmt == "hostname" and len(value) > 253:
        return "**Hostnames**"
    return None


# hintkit's errors on input tazuna accepts, each with the words of docs/tazuna.md's "Where hintkit is
# stricter than tazuna" that document it: an error counts as documented only while it
# says so.
REASONS = [
    (lambda c, m: c == "HK102", "**Keys**"),
    (lambda c, m: c == "HK201", "are type-checked against the"),
    (lambda c, m: c == "HK100" and "another" not in m, "**Empty hint files**"),
    (lambda c, m: c == "HK100" and "another" in m, "**A second YAML document**"),
    (lambda c, m: c == "HK113", "**A rule naming a var twice**"),
    (lambda c, m: c == "HK322" or (c == "HK201" and "env" in m), "feeding a `slice` or `map` var"),
    (lambda c, m: c in ("HK103", "HK303", "HK306") and "null" in m and "static" in m,
     "**`null` in static sources**"),
    (lambda c, m: c in ("HK114", "HK115"), "**Defaults** must have the var's type"),
    (lambda c, m: c == "HK002", "**Duplicate keys**"),
    (lambda c, m: c == "HK004" and "byte order mark" in m, "**Two byte order marks at the start of a file**"),
    (lambda c, m: c == "HK101" or (c == "HK103" and "vars must be a mapping" in m), "**A hint without vars**"),
    (lambda c, m: c == "exit2" and "not a folder" in m, "**`resolve --dir` of a missing folder**"),
]


def readme_stricter_section():
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "..", "docs", "tazuna.md"), encoding="utf-8") as fh:
        text = fh.read()
    start = text.find("## Where hintkit is stricter than tazuna")
    end = text.find("\n## ", start + 1)
    return text[start:end if end >= 0 else len(text)] if start >= 0 else ""


STRICTER = readme_stricter_section()


def null_vars(files):
    """The vars a values file sets to null (hintkit: not provided; tazuna: provided)."""
    try:
        import yaml  # PyYAML reads YAML 1.1 nulls as go-yaml v2 does
        values = yaml.safe_load(files.get("values.yaml", "")) or {}
    except Exception:  # noqa: BLE001 - any unreadable values file simply has no nulls here
        return set()
    return {str(k) for k, v in values.items() if v is None} if isinstance(values, dict) else set()


def documented(code, message, nulls=frozenset()):
    """Whether an error of hintkit's on input tazuna accepts is one docs/tazuna.md lists as stricter."""
    if code in ("HK200", "HK202", "HK203", "HK205") and nulls:
        m = re.search(r'var "([^"]*)"', message)
        if code == "HK205" or (m and m.group(1) in nulls) or code in ("HK202", "HK203"):
            return '`null` is "not provided"' in STRICTER
    if code == "HK204":
        phrase = format_reason(message)
        return phrase is not None and phrase in STRICTER
    return any(test(code, message) and phrase in STRICTER for test, phrase in REASONS)


def classify(mode, oracle, hk, files):
    """One of the classes in the module doc, and a short reason."""
    try:
        ref = numbers_by_value(oracle[1].strip().splitlines()[-1])
    except (ValueError, IndexError):
        return "oracle-broken", oracle[2][:200]
    hk_ok = hk[0] == 0
    if not ref["ok"] and not hk_ok:
        return "same", ""
    if not ref["ok"]:
        return "looser", ref["error"]
    if not hk_ok:
        errors = codes(hk[2] + "\n" + (hk[1] if mode == "lint" else ""))
        if hk[0] == 2 and not errors:
            errors = [("exit2", hk[2].strip())]
        nulls = null_vars(files)
        if mode == "resolve" and isinstance(ref.get("vars"), dict):
            # What go-yaml read as null (PyYAML reads some texts otherwise: a merge key over a
            # key written earlier, which go-yaml v2 lets win).
            nulls |= {k for k, v in ref["vars"].items() if v is None}
        if errors and all(documented(c, msg, nulls) for c, msg in errors):
            return "stricter-documented", " ".join(sorted({c for c, _ in errors}))
        return "stricter-undocumented", "; ".join(f"{c} {m}" for c, m in errors)[:300]
    if mode == "lint":
        return "same", ""
    if mode == "resolve":
        want = ref["vars"]
    else:
        want = {m["name"]: m["vars"] for m in ref["manifests"] or []}
    got = numbers_by_value(hk[1]) if hk[1].strip() else {}
    if want == got:
        return "same", ""
    if mode == "resolve" and null_given(files.get("values.yaml", ""), want, got):
        return "null-not-provided", ""
    return "different-values", f"tazuna {json.dumps(want, default=str)[:200]} hintkit {json.dumps(got, default=str)[:200]}"


def null_given(values_text, want, got):
    """Whether the difference is only in vars a values file sets to null."""
    nulls = {k for k, v in want.items() if v is None} if isinstance(want, dict) else set()
    if not nulls:
        return False
    return {k: v for k, v in want.items() if k not in nulls} == \
        {k: v for k, v in got.items() if k not in nulls}


def write(root, files):
    for rel, text in files.items():
        path = os.path.join(root, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8", newline="") as fh:
            fh.write(text)


def one_case(gen, mode, hintkit, oracle, syntax=False):
    hint, declared = gen.hint()
    files, env = {}, dict(os.environ)
    for k in [k for k in env if k.startswith("HK_DIFF_")]:
        del env[k]
    if mode == "lint":
        files["tazuna.hint.yaml"] = hint
        hk_argv = [hintkit, "lint", "tazuna.hint.yaml", "--format", "json"]
        or_argv = [oracle, "lint", "tazuna.hint.yaml"]
    elif mode == "resolve":
        files["tazuna.hint.yaml"] = hint
        files["values.yaml"] = gen.values(declared)
        hk_argv = [hintkit, "resolve", "--dir", ".", "--values", "values.yaml", "-o", "json",
                   "--format", "json", "--show-values"]
        or_argv = [oracle, "resolve", ".", "values.yaml"]
    else:
        config, extra_env = gen.config(declared)
        files["tazuna.yaml"] = config
        for m in range(2):
            files[f"app{m}/helmfile.yaml"] = "releases: []\n"
            if m == 0 or gen.chance(0.5):
                files[f"app{m}/tazuna.hint.yaml"] = hint if m == 0 else gen.hint()[0]
        env.update(extra_env)
        hk_argv = [hintkit, "resolve", "--config", "tazuna.yaml", "-o", "json", "--format", "json",
                   "--show-values"]
        or_argv = [oracle, "config", "tazuna.yaml"]
    if syntax:
        files = {rel: text if rel.endswith("helmfile.yaml") else gen.vary_syntax(text)
                 for rel, text in files.items()}
    with tempfile.TemporaryDirectory() as tmp:
        write(tmp, files)
        ref = run(or_argv, tmp, env)
        hk = run(hk_argv, tmp, env)
    kind, why = classify(mode, ref, hk, files)
    return kind, why, files, {k: v for k, v in env.items() if k.startswith("HK_DIFF_")}


def main():
    args = sys.argv[1:]
    opts = diffkit.number_flags(args, {"--count": 2000, "--seed": 1, "--show": 3})
    mode_only = None
    if "--mode" in args:
        i = args.index("--mode")
        mode_only = args[i + 1]
        del args[i:i + 2]
    syntax = "--syntax" in args
    if syntax:
        args.remove("--syntax")
    hintkit = os.path.abspath(args[0] if args else "build/hintkit")
    oracle = os.environ.get("TAZUNA_ORACLE") or sys.exit(
        "set TAZUNA_ORACLE to the tazuna oracle binary (docs/testing.md)")
    gen = Gen(random.Random(opts["--seed"]))
    modes = [mode_only] if mode_only else ["lint", "resolve", "config"]
    counts = collections.Counter()
    examples = collections.defaultdict(list)
    for n in range(opts["--count"]):
        mode = modes[n % len(modes)]
        kind, why, files, env = one_case(gen, mode, hintkit, oracle, syntax)
        counts[kind] += 1
        counts[(mode, kind)] += 1
        if len(examples[kind]) < opts["--show"] and kind not in ("same", "stricter-documented", "null-not-provided"):
            examples[kind].append((mode, why, files, env))
    total = opts["--count"]
    print(f"{total} cases (seed {opts['--seed']}{', other YAML syntax' if syntax else ''})")
    for kind in ("same", "stricter-documented", "null-not-provided", "stricter-undocumented",
                 "looser", "different-values", "oracle-broken"):
        per_mode = ", ".join(f"{m} {counts[(m, kind)]}" for m in modes)
        print(f"  {kind:22} {counts[kind]:6}  ({100.0 * counts[kind] / total:5.1f}%)  [{per_mode}]")
    for kind, cases in examples.items():
        for mode, why, files, env in cases:
            print(f"\n--- {kind} ({mode}): {why}")
            for rel, text in files.items():
                if rel.endswith("helmfile.yaml"):
                    continue
                if any(c in text for c in "\r\t\u0085\u2028\u2029\ufeff"):
                    print(f"  # {rel}\n  {text!r}")  # line breaks and blanks as written
                else:
                    print(f"  # {rel}\n" + "".join("  | " + line + "\n" for line in text.splitlines()))
            if env:
                print(f"  env: {env}")
    bad = counts["looser"] + counts["different-values"] + counts["stricter-undocumented"]
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
