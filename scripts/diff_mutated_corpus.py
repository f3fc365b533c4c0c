#!/usr/bin/env python3
"""Differential check on mutants of a ytt-style case corpus: each case folder of CORPUS (a `cmd`
file and its input files, as in the conformance suites) is copied and changed a little, then
run through the reference ytt and `hintkit values`; a mutant agrees when exit code, stdout
and stderr (program name normalised) are identical.

Mutations, one to three per mutant: a scalar value replaced by a value of another type, a
line dropped or repeated, an annotation (`@schema/...`, `@overlay/...`, `@assert/validate`)
put above a key, a flag added to the command (an inspect mode, an output format, a
`--data-value-yaml` for a key of the inputs). A case's `env` file is kept. The mutants stay near what a hand-written case tests, so a disagreement points at one
mechanism the case nearly covers.

usage: YTT=/path/to/ytt scripts/diff_mutated_corpus.py CORPUS [HINTKIT] [--count N]
                                                        [--seed S] [--show K]
"""
import os
import random
import re
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from diffkit import normalise, options, run  # noqa: E402

VALUES = ["1", "0", "-3", '"x"', "x", "true", "false", "null", "1.5", "[]", "{}", "[1]",
          "{a: 1}", '""', "[{a: 1}]", "3e2", '"1"']
ANNOTATIONS = ["#@schema/nullable", "#@schema/type any=True", "#@schema/default 1",
               '#@schema/default "d"', "#@schema/default None", "#@schema/default []",
               "#@schema/validation min=1", "#@schema/validation min_len=1",
               "#@schema/validation not_null=True", "#@schema/validation one_not_null=True",
               '#@schema/validation one_of=[1, "x"]', "#@schema/validation max=0",
               '#@schema/validation ("positive", lambda v: v > 0)',
               '#@schema/desc "d"', '#@schema/title "t"', '#@schema/examples ("e", 1)',
               '#@schema/deprecated "old"', "#@overlay/match missing_ok=True",
               "#@overlay/replace", "#@overlay/remove", "#@overlay/append",
               '#@assert/validate ("ok", lambda v: v)', "#@assert/validate min=1",
               "#@schema/validation min=1, when=lambda v: v != None"]
FLAGS = [["--data-values-inspect"], ["--data-values-inspect", "-o", "json"],
         ["--data-values-schema-inspect", "-o", "openapi-v3"],
         ["--dangerous-data-values-disable-validation"], ["-o", "json"]]
KEY_LINE = re.compile(r"^(\s*)(- )?([A-Za-z_][\w.-]*):(\s.*)?$")


def yaml_files(folder):
    out = []
    for root, _, names in os.walk(folder):
        for n in names:
            # fixtures hold symlinks (dangling ones, loops): only the files themselves
            if n.endswith((".yml", ".yaml")) and not os.path.islink(os.path.join(root, n)):
                out.append(os.path.join(root, n))
    return out


def mutate_file(rnd, path):
    with open(path) as f:
        lines = f.read().split("\n")
    keyed = [i for i, l in enumerate(lines) if KEY_LINE.match(l)]
    how = rnd.random()
    if keyed and how < 0.4:
        i = rnd.choice(keyed)
        m = KEY_LINE.match(lines[i])
        lines[i] = f"{m.group(1)}{m.group(2) or ''}{m.group(3)}: {rnd.choice(VALUES)}"
    elif keyed and how < 0.75:
        i = rnd.choice(keyed)
        indent = KEY_LINE.match(lines[i]).group(1)
        if KEY_LINE.match(lines[i]).group(2):
            indent += "  "
            lines[i] = lines[i]  # an annotation above an item's first key annotates the item
        lines.insert(i, indent + rnd.choice(ANNOTATIONS))
    elif lines and how < 0.88:
        del lines[rnd.randrange(len(lines))]
    elif lines:
        i = rnd.randrange(len(lines))
        lines.insert(i, lines[i])
    with open(path, "w") as f:
        f.write("\n".join(lines))


def keys_of(folder):
    keys = []
    for p in yaml_files(folder):
        with open(p) as f:
            for l in f:
                m = KEY_LINE.match(l.rstrip("\n"))
                if m and not m.group(1) and not m.group(2):
                    keys.append(m.group(3))
    return keys


def main():
    args = sys.argv[1:]
    if not args or args[0].startswith("--"):
        sys.exit(__doc__)
    corpus = os.path.abspath(args.pop(0))
    sys.argv = [sys.argv[0]] + args
    hintkit, ytt, count, seed, show = options()
    rnd = random.Random(seed)
    cases = sorted(d for d in os.listdir(corpus) if os.path.isfile(os.path.join(corpus, d, "cmd")))
    agree = silent = 0
    bad = []
    for n in range(count):
        case = rnd.choice(cases)
        with tempfile.TemporaryDirectory() as tmp:
            work = os.path.join(tmp, "case")
            shutil.copytree(os.path.join(corpus, case), work,
                            ignore=shutil.ignore_patterns("expected", "about"))
            with open(os.path.join(work, "cmd")) as f:
                argv = f.read().split()
            env = dict(os.environ)
            if os.path.exists(os.path.join(work, "env")):
                with open(os.path.join(work, "env")) as f:
                    for l in f.read().split():
                        k, _, v = l.partition("=")
                        env[k] = v
            files = yaml_files(work)
            for _ in range(rnd.randint(1, 3)):
                if files and rnd.random() < 0.8:
                    mutate_file(rnd, rnd.choice(files))
                elif rnd.random() < 0.5:
                    argv += rnd.choice(FLAGS)
                else:
                    keys = keys_of(work) or ["a"]
                    argv += ["--data-value-yaml", f"{rnd.choice(keys)}={rnd.choice(VALUES)}"]
            inputs = {p: open(p).read() for p in yaml_files(work)}
            r = run([ytt] + argv, work, env)
            h = run([hintkit, "values"] + argv, work, env)
        if r[0] == h[0] and r[1] == h[1] and normalise(r[2], "ytt") == normalise(h[2], "hintkit"):
            agree += 1
            continue
        wrong_ok = h[0] == 0 and (r[0] != 0 or r[1] != h[1])
        silent += wrong_ok
        bad.append((n, case, argv, inputs, r, h, wrong_ok))
    bad.sort(key=lambda b: not b[6])
    for n, case, argv, inputs, r, h, wrong_ok in bad[:show]:
        print(f"=== {'SILENT ' if wrong_ok else ''}mutant {n} of {case} (ytt rc {r[0]}, "
              f"hintkit rc {h[0]}): {' '.join(argv)}")
        for p, text in inputs.items():
            print(f"--- {os.path.basename(p)}\n{text}")
        print("--- ytt\n" + r[1][:1500] + r[2][:1500])
        print("--- hintkit\n" + h[1][:1500] + h[2][:1500])
    print(f"mutants: {count} (seed {seed}), {agree} agree ({100.0 * agree / max(count, 1):.1f}%), "
          f"{silent} silent wrong answers (hintkit exit 0, different from ytt)")


if __name__ == "__main__":
    main()
