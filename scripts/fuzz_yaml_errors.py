#!/usr/bin/env python3
"""Compares `hintkit values -f FILE` with the reference ytt on randomly damaged YAML.

Takes the plain YAML files of ../shared/conformance/ytt-schema and examples/ (with --annotated,
the `#@` templates too), applies one or two random damages of the kinds below, runs both tools
and counts inputs with identical exit code, stdout and stderr (the program name aside). Inputs
that make ytt panic are skipped. Differences are written to the file --diffs names (none:
not written); "silent" counts inputs where hintkit exits 0 with other output than ytt's.

Damage kinds (--kinds a,b,... picks some; default all):
  byte      drop, insert or replace one byte with YAML punctuation
  tab       a tab in indentation, after an indicator or inside a line
  marker    `---` / `...` lines, content on a `---` line
  anchor    anchors, aliases (defined or not) and merge keys
  flow      flow lists and maps, closed or not, nested
  block     block scalars with indentation and chomping indicators
  tag       standard, local, named-handle and verbatim tags
  quoted    single and double quoted scalars with escapes, good and bad
  bom       a byte order mark at the start or inside
  control   control characters (C0, DEL, NEL, LS)
  long      a line longer than go-yaml's 1024-character simple key limit
  crlf      CR LF or lone CR line breaks

    scripts/fuzz_yaml_errors.py [SEED] [COUNT] [--kinds K,...] [--annotated] [--diffs FILE]
    (defaults: 1 200; YTT=/path/to/ytt, the reference; HINTKIT=build/hintkit)
"""
import argparse
import collections
import glob
import json
import os
import random
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHARED = os.path.join(ROOT, "..", "shared")
YTT = os.environ.get("YTT")
HINTKIT = os.environ.get("HINTKIT", os.path.join(ROOT, "build", "hintkit"))
PUNCT = list(":-[]{},#'\"\n |>&*!?")


def sources(annotated):
    files = glob.glob(os.path.join(SHARED, "conformance", "ytt-schema", "*", "*.yaml"))
    files += glob.glob(os.path.join(ROOT, "examples", "*", "*.yaml"))
    texts = [open(f, encoding="utf-8").read() for f in files]
    return [t for t in texts if t and (annotated or "#@" not in t)]


def line_starts(text):
    return [0] + [i + 1 for i, c in enumerate(text) if c == "\n" and i + 1 < len(text)]


def value_spot(text, rng):
    """Where a value could go: just after a `key: ` or `- ` of a random line, else anywhere."""
    starts = line_starts(text)
    for _ in range(8):
        s = rng.choice(starts)
        e = text.find("\n", s)
        e = len(text) if e < 0 else e
        line = text[s:e]
        k = line.find(": ")
        if k >= 0:
            return s + k + 2, s + (e - s)
        k = line.find("- ")
        if k >= 0 and line[:k].strip() == "":
            return s + k + 2, s + (e - s)
    k = rng.randrange(len(text) + 1)
    return k, k


def replace_value(text, rng, new):
    a, b = value_spot(text, rng)
    return text[:a] + new + text[b:] if rng.random() < 0.7 else text[:a] + new + text[a:]


def at_line_start(text, rng, new):
    s = rng.choice(line_starts(text))
    return text[:s] + new + text[s:]


def d_byte(text, rng):
    chars = list(text)
    k = rng.randrange(len(chars))
    op = rng.random()
    if op < 0.33:
        del chars[k]
    elif op < 0.66:
        chars.insert(k, rng.choice(PUNCT))
    else:
        chars[k] = rng.choice(PUNCT)
    return "".join(chars)


def d_tab(text, rng):
    op = rng.random()
    if op < 0.4:  # a space of indentation becomes a tab
        spots = [i for i in range(len(text)) if text[i] == " " and (i == 0 or text[i - 1] in " \n")]
        if spots:
            k = rng.choice(spots)
            return text[:k] + "\t" + text[k + 1:]
    if op < 0.7:
        return at_line_start(text, rng, rng.choice(["\t", " \t", "\t\t", "  \t"]))
    spots = [i for i in range(len(text)) if text[i] == " "]
    if spots:
        k = rng.choice(spots)
        return text[:k] + "\t" + text[k + 1:]
    return text + "\t"


def d_marker(text, rng):
    new = rng.choice(["---\n", "...\n", "--- \n", "--- a: b\n", "--- |\n  x\n", "--- [1\n",
                      "--- # c\n", "... x\n", "---x\n", "--- - a\n", "--- &a x\n", "---\t\n"])
    if rng.random() < 0.3:
        return new + text
    if rng.random() < 0.2:
        return text + ("" if text.endswith("\n") else "\n") + new
    return at_line_start(text, rng, new)


def d_anchor(text, rng):
    new = rng.choice(["&a x", "*a", "*b", "&a", "&a {k: v}", "<<: *a", "<<: [*a, *b]", "&a\n  k: v",
                      "*a ", "& x", "&a/b x", "*a:", "!!str &a x", "&a !!int 1", "<<: {k: 1}",
                      "<<: 1", "<<: []", "*a\n<<: *a"])
    if rng.random() < 0.25:
        return at_line_start(text, rng, rng.choice(["<<: *a\n", "x: &a\n  k: v\n", "y: *a\n",
                                                    "<<: {m: 1}\n", "- *a\n"]))
    return replace_value(text, rng, new)


def d_flow(text, rng):
    new = rng.choice(["[1, 2]", "[1, 2", "{a: 1, b: 2}", "{a: 1, b", "[a, {b: c}]", "[", "{",
                      "]", "}", "[a: b]", "{a, b}", "[1,,2]", "{a: [1, {b: 2}]}", "[a}", "{a]",
                      "[\n  1,\n  2\n]", "{a: 1\n b: 2}", "[? a : b]", "{? a}", "[a, b]: c",
                      "[,]", "{: x}", "[-1]", "[- 1]", "{a: b: c}"])
    return replace_value(text, rng, new)


def d_block(text, rng):
    header = rng.choice(["|", ">", "|-", "|+", ">-", ">+", "|2", ">1", "|0", "|-1", "|1-",
                         "|+2", "| #c", "|x", ">\t", "|9"])
    body = rng.choice(["\n  a\n  b\n", "\n  a\n\n  b\n\n", "\n    a\n  b\n", "\n a\n",
                       "\n\ta\n", "\n  a\n   b\n", "\n", "\n\n\n  a\n", "\n  a  \n  \tb\n"])
    a, b = value_spot(text, rng)
    e = text.find("\n", a)
    e = len(text) if e < 0 else e
    return text[:a] + header + body + text[e + 1:] if e < len(text) else text[:a] + header + body


def d_tag(text, rng):
    tag = rng.choice(["!!str", "!!int", "!!float", "!!bool", "!!null", "!!map", "!!seq",
                      "!!binary", "!!timestamp", "!!merge", "!x", "!", "!e!x", "!!", "!<tag:yaml.org,2002:str>",
                      "!<!x>", "!<>", "!x%41", "!!str!", "!!int,"])
    value = rng.choice(["", " 1", " x", " 1.5", " true", " [1]", " {a: 1}", " ~", " \"q\"",
                        " |\n  a\n", " 0x1F", " aGk="])
    return replace_value(text, rng, tag + value)


def d_quoted(text, rng):
    new = rng.choice(['"a\\x41"', '"\\u00e9"', '"\\q"', "'it''s'", '"\\U0001F600"',
                      '"a\\\n  b"', '"a\n  b"', "'a\n\n  b'", '"\\x4"', '"\\uD800"',
                      '"\\U00110000"', '"\\0\\a\\b\\t\\n\\v\\f\\r\\e\\ \\"\\/\\\\\\N\\_\\L\\P"',
                      '"unterminated', "'unterminated", '"a"b', "'a' b", '"a": 1', "'\t'",
                      '"a\n---\nb"', '"\\\t"', '"tab\tin"'])
    return replace_value(text, rng, new)


def d_bom(text, rng):
    if rng.random() < 0.5:
        return "\ufeff" + text
    k = rng.randrange(len(text) + 1)
    return text[:k] + "\ufeff" + text[k:]


def d_control(text, rng):
    c = rng.choice(["\x01", "\x04", "\x1b", "\x7f", "\x00", "\x85", "\u2028", "\x0b", "\x0c",
                    "\x80", "\x9f", "\ufffe"])
    k = rng.randrange(len(text) + 1)
    return text[:k] + c + text[k:]


def d_long(text, rng):
    n = rng.choice([1000, 1023, 1024, 1025, 1100, 5000])
    word = "x" * n
    op = rng.random()
    if op < 0.4:
        return at_line_start(text, rng, word + ": 1\n")
    if op < 0.6:
        return at_line_start(text, rng, "\"" + word + "\": 1\n")
    if op < 0.8:
        return replace_value(text, rng, word)
    return at_line_start(text, rng, "k: " + " ".join("w" for _ in range(n // 2)) + "\n")


def d_crlf(text, rng):
    op = rng.random()
    if op < 0.5:
        return text.replace("\n", "\r\n")
    if op < 0.8:
        starts = line_starts(text)[1:]
        if starts:
            k = rng.choice(starts) - 1
            return text[:k] + "\r\n" + text[k + 1:]
    k = text.find("\n")
    return text[:k] + "\r" + text[k + 1:] if k >= 0 else text + "\r"


KINDS = {
    "byte": d_byte, "tab": d_tab, "marker": d_marker, "anchor": d_anchor, "flow": d_flow,
    "block": d_block, "tag": d_tag, "quoted": d_quoted, "bom": d_bom, "control": d_control,
    "long": d_long, "crlf": d_crlf,
}


def damage(text, rng, kinds):
    used = []
    for _ in range(rng.randint(1, 2)):
        kind = rng.choice(kinds)
        text = KINDS[kind](text, rng) if text else text + "x"
        used.append(kind)
    return text, "+".join(used)


def run(cmd, name):
    p = subprocess.run(cmd, capture_output=True, timeout=30)
    out = p.stdout.decode("utf-8", "replace")
    err = p.stderr.decode("utf-8", "replace")
    return [p.returncode, out, err.replace(name + ": ", "PROGRAM: ")]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("seed", nargs="?", type=int, default=1)
    ap.add_argument("count", nargs="?", type=int, default=200)
    ap.add_argument("--kinds", default=",".join(KINDS))
    ap.add_argument("--annotated", action="store_true", help="damage `#@` templates too")
    ap.add_argument("--diffs", metavar="FILE", help="write the differing inputs here (JSON)")
    args = ap.parse_args()
    if not YTT:
        sys.exit("set YTT to the reference ytt v0.48.0 binary: YTT=/path/to/ytt " + sys.argv[0])
    kinds = args.kinds.split(",")
    for k in kinds:
        if k not in KINDS:
            sys.exit(f"unknown damage kind {k!r}; kinds: {', '.join(KINDS)}")
    rng = random.Random(args.seed)
    texts = sources(args.annotated)
    same, diffs, skipped = 0, [], 0
    per_kind = collections.defaultdict(lambda: [0, 0])  # kind -> [compared, identical]
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "m.yaml")
        for _ in range(args.count):
            text, used = damage(rng.choice(texts), rng, kinds)
            with open(path, "w", encoding="utf-8", newline="", errors="surrogatepass") as f:
                f.write(text)
            ytt = run([YTT, "-f", path], "ytt")
            if "goroutine" in ytt[2]:
                skipped += 1
                continue
            ours = run([HINTKIT, "values", "-f", path], "hintkit")
            per_kind[used][0] += 1
            if ytt == ours:
                same += 1
                per_kind[used][1] += 1
            else:
                diffs.append({"kinds": used, "input": text, "ytt": ytt, "hintkit": ours})
    exit_differs = sum(1 for d in diffs if d["ytt"][0] != d["hintkit"][0])
    silent = sum(1 for d in diffs if d["hintkit"][0] == 0)
    print(f"compared {same + len(diffs)}: identical {same}, differ {len(diffs)} "
          f"(exit code differs in {exit_differs}, silent {silent}); ytt panicked on {skipped}")
    for kind, (n, ok) in sorted(per_kind.items()):
        if n != ok:
            print(f"  {kind}: {ok}/{n}")
    if args.diffs:
        with open(args.diffs, "w", encoding="utf-8") as f:
            json.dump(diffs, f, indent=1)


if __name__ == "__main__":
    main()
