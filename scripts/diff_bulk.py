#!/usr/bin/env python3
"""Differential check of ytt's bulk input and output (`--bulk-in JSON`, `--bulk-out`): the
reference ytt and `hintkit values` on the same command lines.

Two kinds of case, alternating:
- decoding: a random JSON text built from the pieces of ytt's BulkFiles format and what Go's
  json.Unmarshal does with them: the keys `files`, `errors`, `name` and `data` in other cases
  and with the Kelvin sign or long s that fold to `k` and `s`, unknown keys, repeated keys,
  null and values of the wrong kind at each level, syntax errors; with and without
  `--bulk-out`.
- runs: a case of scripts/diff_schemas.py (random schemas and data values, or one of its
  scenarios) or scripts/diff_templates.py (a random template), its `-f FILE` inputs handed as
  one `--bulk-in` text instead (file names as written, folders included), and `--bulk-out`
  added at random, so that the run's output files or its error text come back as JSON.

A case agrees when exit code, stdout and stderr (program name normalised) are identical.

usage: YTT=/path/to/ytt scripts/diff_bulk.py [HINTKIT] [--count N] [--seed S] [--show K]
"""
import json
import os
import random
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from diffkit import normalise, options, run, write_files  # noqa: E402
from diff_schemas import make_case  # noqa: E402
from diff_schemas_scenarios import make_scenario  # noqa: E402
import diff_templates  # noqa: E402

KEY_SPELLINGS = {
    "files": ["files", "Files", "FILES", "fileſ", "fIlEs", "file", "filesx"],
    "errors": ["errors", "Errors", "errorſ", "error"],
    "name": ["name", "Name", "NAME", "nam", "names"],
    "data": ["data", "Data", "DATA", "dat"],
}
TEXTS = ["a: 1\n", "#@ x = 1\nb: #@ x + 1\n", "c: #@ 1 +\n", "plain text\n", "d: \"\\u00e9\"\n",
         "#@data/values\n---\nv: 1\n", "(@= str(1) @)\n", "", "e: [1, 2]\n---\nf: 2\n"]
NAMES = ["a.yml", "b.yaml", "dir/c.yml", "t.txt", "lib.star", "_ytt_lib/l/x.yml", "x/../y.yml",
         "", "values.yml", "noext", "d/e/f.yml"]


def wrong_kind(rnd):
    return rnd.choice([1, 2.5, True, False, "s", [], {}, [1], {"k": 1}])


def random_file(rnd):
    f = {}
    for field in ("name", "data"):
        roll = rnd.random()
        key = rnd.choice(KEY_SPELLINGS[field]) if rnd.random() < 0.3 else field
        if roll < 0.8:
            f[key] = rnd.choice(NAMES) if field == "name" else rnd.choice(TEXTS)
        elif roll < 0.9:
            f[key] = None
        else:
            f[key] = wrong_kind(rnd)
    if rnd.random() < 0.1:
        f["extra"] = wrong_kind(rnd)
    return f


def random_bulk_text(rnd):
    """A JSON text for --bulk-in: mostly well-formed, sometimes not."""
    roll = rnd.random()
    if roll < 0.08:
        return json.dumps(wrong_kind(rnd))
    members = []
    for _ in range(rnd.choice([0, 1, 1, 1, 2])):
        key = rnd.choice(KEY_SPELLINGS["files"]) if rnd.random() < 0.3 else "files"
        r = rnd.random()
        if r < 0.8:
            value = [random_file(rnd) if rnd.random() < 0.9 else rnd.choice([None, 1, "x", [2]])
                     for _ in range(rnd.randint(0, 3))]
        elif r < 0.9:
            value = None
        else:
            value = wrong_kind(rnd)
        members.append((key, value))
    if rnd.random() < 0.15:
        members.append((rnd.choice(KEY_SPELLINGS["errors"]),
                        rnd.choice(["some error", None, wrong_kind(rnd)])))
    if rnd.random() < 0.1:
        members.append(("other", wrong_kind(rnd)))
    rnd.shuffle(members)
    text = "{" + ", ".join(json.dumps(k, ensure_ascii=rnd.random() < 0.5) + ": " + json.dumps(v)
                           for k, v in members) + "}"
    if rnd.random() < 0.1:  # a syntax error somewhere
        cut = rnd.randrange(len(text) + 1)
        text = text[:cut] + rnd.choice(["", "x", ",", "}", "\"", "\\"]) + text[cut + 1:]
    return text


def run_case(rnd):
    """(files on disk, argv) of a generated run with its -f files moved into --bulk-in."""
    r = rnd.random()
    if r < 0.35:
        files, argv, env = make_case(rnd)
    elif r < 0.7:
        files, argv, env = make_scenario(rnd, None)
    else:
        g = diff_templates.Gen(rnd)
        files = {"tpl.yml": g.template(), "helpers.star": "def helper(x):\n  return x\nend\n"}
        argv, env = ["-f", "tpl.yml", "-f", "helpers.star"], {}
    bulk, rest, i = [], [], 0
    while i < len(argv):
        if argv[i] == "-f" and i + 1 < len(argv) and argv[i + 1] in files:
            bulk.append({"name": argv[i + 1], "data": files[argv[i + 1]]})
            i += 2
            continue
        rest.append(argv[i])
        i += 1
    argv = ["--bulk-in", json.dumps({"files": bulk})] + rest
    if rnd.random() < 0.7:
        argv.append("--bulk-out")
    return files, argv, env


def main():
    hintkit, ytt, count, seed, show = options()
    rnd = random.Random(seed)
    agree = silent = 0
    bad = []
    kinds = {}  # what ytt answered: an error (exit 1), JSON with files, with errors, `{}`, documents
    base_env = {k: v for k, v in os.environ.items() if not k.startswith(("DVS_", "DVY_", "DV_", "MY_APP_"))}
    for case in range(count):
        if case % 2 == 0:
            files, env = {}, {}
            argv = ["--bulk-in", random_bulk_text(rnd)] + (["--bulk-out"] if rnd.random() < 0.6 else [])
        else:
            files, argv, env = run_case(rnd)
        env = dict(base_env, **env)
        with tempfile.TemporaryDirectory() as tmp:
            write_files(tmp, files)
            r = run([ytt] + argv, tmp, env)
            h = run([hintkit, "values"] + argv, tmp, env)
        kind = ("exit %d" % r[0] if r[0] != 0 else
                "errors" if r[1].startswith('{"errors"') else
                "files" if r[1].startswith('{"files"') else
                "{}" if r[1] == "{}" else "documents")
        kinds[kind] = kinds.get(kind, 0) + 1
        if r[0] == h[0] and r[1] == h[1] and normalise(r[2], "ytt") == normalise(h[2], "hintkit"):
            agree += 1
            continue
        wrong_ok = h[0] == 0 and (r[0] != 0 or r[1] != h[1])
        silent += wrong_ok
        bad.append((case, argv, r, h, wrong_ok))
    bad.sort(key=lambda b: not b[4])
    for case, argv, r, h, wrong_ok in bad[:show]:
        print(f"=== {'SILENT ' if wrong_ok else ''}case {case} (ytt rc {r[0]}, hintkit rc {h[0]})")
        print(" ".join(argv)[:3000])
        print("--- ytt")
        print(r[1][:1500] + r[2][:1500])
        print("--- hintkit")
        print(h[1][:1500] + h[2][:1500])
    print(f"bulk: {count} cases (seed {seed}), {agree} agree ({100.0 * agree / max(count, 1):.1f}%), "
          f"{silent} silent wrong answers (hintkit exit 0, different from ytt); ytt answered: " +
          ", ".join(f"{k} {n}" for k, n in sorted(kinds.items())))


if __name__ == "__main__":
    main()
