#!/usr/bin/env python3
"""Differential check of `hintkit values fmt` against the reference `ytt fmt`.

Each case is a YAML file of the corpus diff_goyaml.py reads (conformance samples, examples,
fixtures), changed at random: comments put in (full-line ones at any indentation, ones after
a node on its line, `#@` and `#!` ones, several in a row, after the last node), blank lines,
document markers with and without comments, `...` ends, and now and then one of
fuzz_yaml_errors.py's damages, so that broken files are compared too. Both programs format it
(`fmt -f case.yml`, and `-s` for a tenth of the cases).

A case agrees when exit code, standard output and standard error (the program's name aside)
are the same. hintkit refusing (exit 2, "does not support") is counted apart; ytt crashing
(a Go panic) is skipped. A silent wrong answer is hintkit exiting 0 with other output: the
figure that must stay 0.

usage: YTT=/path/to/ytt scripts/diff_fmt.py [HINTKIT] [--count N] [--seed S] [--show K]
"""
import collections
import os
import random
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import diff_goyaml  # noqa: E402
import diffkit  # noqa: E402
import fuzz_yaml_errors  # noqa: E402

WORDS = ["note", "TODO fix", "@ x", "@overlay/match by=\"name\"", "! hidden", "", " spaced ",
         "#", "a: b", "- c", "%s %d", "--- not a marker", "ünïcode"]


def comment(rng):
    return "#" + rng.choice(WORDS)


def change(text, rng):
    lines = text.split("\n")
    for _ in range(rng.randint(1, 6)):
        i = rng.randrange(len(lines) + 1)
        kind = rng.randrange(8)
        if kind <= 1:  # a full-line comment, indented like a line nearby or not at all
            near = lines[min(i, len(lines) - 1)] if lines else ""
            indent = near[:len(near) - len(near.lstrip(" "))] if rng.random() < 0.7 else ""
            lines.insert(i, indent + comment(rng))
        elif kind <= 3 and i < len(lines) and lines[i].strip() and "#" not in lines[i] \
                and not lines[i].rstrip().endswith(("|", ">", "|-", ">-")):
            lines[i] = lines[i] + " " + comment(rng)  # after a node on its line
        elif kind == 4:
            lines.insert(i, "")
        elif kind == 5:
            lines.insert(i, rng.choice(["---", "--- " + comment(rng), "...", "---\n" + comment(rng)]))
        elif kind == 6:
            lines.append(comment(rng))
        else:
            lines.insert(0, comment(rng))
    out = "\n".join(lines)
    if rng.random() < 0.1:
        out, _ = fuzz_yaml_errors.damage(out, rng, list(fuzz_yaml_errors.KINDS))
    return out


def main():
    hintkit, ytt, count, seed, show = diffkit.options()
    rng = random.Random(seed)
    corpus = [t for t in diff_goyaml.sources() if len(t) < 8000]
    counts = collections.Counter()
    refusals = collections.Counter()
    shown = 0
    with tempfile.TemporaryDirectory() as tmp:
        for n in range(count):
            text = change(rng.choice(corpus), rng)
            path = os.path.join(tmp, "case.yml")
            with open(path, "w", encoding="utf-8", newline="") as f:
                f.write(text)
            args = ["fmt", "-f", "case.yml"] + (["-s"] if rng.random() < 0.1 else [])
            y = diffkit.run([ytt] + args, tmp)
            if y[0] == 2 and ("panic:" in y[2] or "goroutine " in y[2]):
                counts["ytt panics"] += 1
                continue
            h = diffkit.run([hintkit, "values"] + args, tmp)
            same = y[0] == h[0] and y[1] == h[1] and \
                diffkit.normalise(y[2], "ytt") == diffkit.normalise(h[2], "hintkit")
            if same:
                kind = "same"
            elif h[0] == 2 and "does not support" in h[2]:
                kind = "refused"
                refusals[h[2].split("does not support ", 1)[1].split("; use ytt")[0]] += 1
            elif h[0] == 0:
                kind = "silent"
            else:
                kind = "differs"
            counts[kind] += 1
            if kind in ("silent", "differs") and shown < show:
                shown += 1
                print(f"--- {kind}: case {n}\n{text!r}\n--- ytt rc {y[0]}\n{y[1]}{y[2]}"
                      f"--- hintkit rc {h[0]}\n{h[1]}{h[2]}")
    compared = count - counts["ytt panics"]
    print(f"fmt: {count} cases, {counts['same']} same of {compared} compared "
          f"({100.0 * counts['same'] / max(compared, 1):.1f}%), {counts['refused']} refused, "
          f"{counts['differs']} differ with an error, {counts['silent']} silent wrong answers, "
          f"{counts['ytt panics']} ytt panics skipped")
    for reason, k in refusals.most_common():
        print(f"  refused {k}: {reason}")


if __name__ == "__main__":
    main()
