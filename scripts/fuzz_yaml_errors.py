#!/usr/bin/env python3
"""Compares `hintkit values -f FILE` with the reference ytt on randomly damaged YAML.

Takes the plain YAML files of ../shared/conformance/ytt-schema and examples/, applies one or two
random byte edits (drop, insert or replace with YAML punctuation), runs both tools and counts
inputs with identical exit code, stdout and stderr (the program name aside). Inputs that make
ytt panic are skipped. Differences are written to fuzz-diffs.json in the current folder.

    scripts/fuzz_yaml_errors.py [SEED] [COUNT]      (defaults: 1 200; YTT=/path/to/ytt, the reference)
"""
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


def sources():
    files = glob.glob(os.path.join(SHARED, "conformance", "ytt-schema", "*", "*.yaml"))
    files += glob.glob(os.path.join(ROOT, "examples", "*", "*.yaml"))
    texts = [open(f, encoding="utf-8").read() for f in files]
    return [t for t in texts if t and "#@" not in t]


def damage(text, rng):
    chars = list(text)
    for _ in range(rng.randint(1, 2)):
        k = rng.randrange(len(chars))
        op = rng.random()
        if op < 0.33:
            del chars[k]
        elif op < 0.66:
            chars.insert(k, rng.choice(PUNCT))
        else:
            chars[k] = rng.choice(PUNCT)
    return "".join(chars)


def run(cmd, name):
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=30)
    return [p.returncode, p.stdout, p.stderr.replace(name + ": ", "PROGRAM: ")]


def main():
    if not YTT:
        sys.exit("set YTT to the reference ytt v0.48.0 binary: YTT=/path/to/ytt " + sys.argv[0])
    seed = int(sys.argv[1]) if len(sys.argv) > 1 else 1
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 200
    rng = random.Random(seed)
    texts = sources()
    same, diffs = 0, []
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "m.yaml")
        for _ in range(count):
            text = damage(rng.choice(texts), rng)
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
            ytt = run([YTT, "-f", path], "ytt")
            if "goroutine" in ytt[2]:
                continue
            ours = run([HINTKIT, "values", "-f", path], "hintkit")
            if ytt == ours:
                same += 1
            else:
                diffs.append({"input": text, "ytt": ytt, "hintkit": ours})
    exit_differs = sum(1 for d in diffs if d["ytt"][0] != d["hintkit"][0])
    print(f"compared {same + len(diffs)}: identical {same}, differ {len(diffs)} "
          f"(exit code differs in {exit_differs})")
    with open("fuzz-diffs.json", "w", encoding="utf-8") as f:
        json.dump(diffs, f, indent=1)


if __name__ == "__main__":
    main()
