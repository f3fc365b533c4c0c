#!/usr/bin/env python3
"""Runs real-world ytt configurations (kept outside the repository) through the reference ytt
and hintkit, the way their projects' own scripts run them, and compares.

A cases folder holds one folder per run (found at any depth), each with:

  cmd       ytt's arguments as the project's script passes them (shell words, no `ytt`;
            a leading `template` subcommand is dropped for hintkit)
  cwd       optional: the folder to run in, relative to the case folder (usually the
            checked-out project); the case folder itself otherwise
  stdin     optional: standard input (for `-f -`)
  env       optional: NAME=value lines added to the environment
  expected/ optional: rc, stdout, stderr recorded from the reference

With YTT set, the reference runs live (and `--record` writes expected/); without it, the
recorded expectations are used. Each run is counted as exact (rc, stdout and stderr with the
program name normalised), refused (hintkit exits 2 and prints nothing on stdout: it named
something it does not do), silent wrong (hintkit exits 0 with an answer ytt does not give),
or differs (any other mismatch, e.g. a different error text).

usage: [YTT=/path/to/ytt] scripts/ytt_realworld.py CASES [HINTKIT] [-v] [-k SUBSTR] [--record]
"""
import os
import shlex
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import diffkit  # noqa: E402


def find_cases(root):
    out = []
    for dirpath, dirnames, files in os.walk(root):
        if "cmd" in files:
            out.append(dirpath)
            dirnames[:] = []
        dirnames.sort()
    return sorted(out)


def read(path, default=""):
    if not os.path.exists(path):
        return default
    with open(path, encoding="utf-8") as fh:
        return fh.read()


def run(argv, case):
    cwd = os.path.normpath(os.path.join(case, read(os.path.join(case, "cwd"), ".").strip()))
    env = dict(os.environ)
    for line in read(os.path.join(case, "env")).splitlines():
        if "=" in line:
            k, v = line.split("=", 1)
            env[k] = v
    stdin_path = os.path.join(case, "stdin")
    stdin = open(stdin_path, "rb") if os.path.exists(stdin_path) else subprocess.DEVNULL
    try:
        p = subprocess.run(argv, cwd=cwd, env=env, stdin=stdin, capture_output=True, timeout=120)
        return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")
    except subprocess.TimeoutExpired:
        return -999, "", "timeout"
    finally:
        if stdin is not subprocess.DEVNULL:
            stdin.close()


def reference(ytt, case, words, record):
    exp = os.path.join(case, "expected")
    if ytt:
        r = run([ytt] + words, case)
        if record:
            os.makedirs(exp, exist_ok=True)
            for name, text in (("rc", f"{r[0]}\n"), ("stdout", r[1]), ("stderr", r[2])):
                with open(os.path.join(exp, name), "w", encoding="utf-8") as fh:
                    fh.write(text)
        return r
    if not os.path.isdir(exp):
        sys.exit(f"{case}: no expected/ and no YTT to run")
    return (int(read(os.path.join(exp, "rc"), "0").strip() or 0),
            read(os.path.join(exp, "stdout")), read(os.path.join(exp, "stderr")))


def show_diff(label, a, b):
    import difflib
    lines = list(difflib.unified_diff(a.splitlines(), b.splitlines(), "ytt", "hintkit", lineterm="", n=2))
    if lines:
        print(f"  --- {label}")
        for line in lines[:60]:
            print("  " + line)
        if len(lines) > 60:
            print(f"  ... {len(lines) - 60} more lines")


def main():
    args = sys.argv[1:]
    verbose = "-v" in args
    record = "--record" in args
    args = [a for a in args if a not in ("-v", "--record")]
    only = None
    if "-k" in args:
        i = args.index("-k")
        only = args[i + 1]
        del args[i:i + 2]
    if not args:
        sys.exit(__doc__)
    root = os.path.abspath(args[0])
    hintkit = os.path.abspath(args[1] if len(args) > 1 else "build/hintkit")
    ytt = os.environ.get("YTT")

    counts = {"exact": 0, "refused": 0, "silent": 0, "differs": 0}
    rows = []
    for case in find_cases(root):
        name = os.path.relpath(case, root)
        if only and only not in name:
            continue
        words = shlex.split(read(os.path.join(case, "cmd")))
        r = reference(ytt, case, words, record)
        hwords = words[1:] if words and words[0] == "template" else words
        h = run([hintkit, "values"] + hwords, case)
        if (r[0] == h[0] and r[1] == h[1] and
                diffkit.normalise(r[2], "ytt") == diffkit.normalise(h[2], "hintkit")):
            kind = "exact"
        elif h[0] == 0 and (r[0] != 0 or r[1] != h[1]):
            kind = "silent"
        elif h[0] == 2 and h[1] == "":
            kind = "refused"
        else:
            kind = "differs"
        counts[kind] += 1
        rows.append((name, kind, r, h))

    for name, kind, r, h in rows:
        if kind == "exact":
            continue
        tag = {"silent": "SILENT", "refused": "refused", "differs": "differs"}[kind]
        print(f"{tag:8} {name}  (ytt rc {r[0]}, hintkit rc {h[0]})")
        if kind == "refused" and not verbose:
            print("  " + (h[2].strip().splitlines() or [""])[0][:200])
        if verbose or kind == "silent":
            show_diff("stdout", r[1], h[1])
            show_diff("stderr", diffkit.normalise(r[2], "ytt"), diffkit.normalise(h[2], "hintkit"))
    total = len(rows)
    print(f"realworld: {total} runs, {counts['exact']} exact ({100.0 * counts['exact'] / max(total, 1):.1f}%), "
          f"{counts['refused']} refused (exit 2), {counts['differs']} differ otherwise, "
          f"{counts['silent']} silent wrong answers")


if __name__ == "__main__":
    main()
