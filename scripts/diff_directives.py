#!/usr/bin/env python3
"""YAML directives (%YAML, %TAG) through ytt and hintkit: every combination of what stands
before the directives, the directives and the document after them, read as a template
(`-f t.yml`), by yaml.decode and as a plain data values file; compares (rc, stdout, stderr).
Cases where ytt panics and hintkit refuses (exit 2) are counted apart.

usage: YTT=/path/to/ytt scripts/diff_directives.py [HINTKIT] [-v]
"""
import itertools
import json
import os
import subprocess
import sys
import tempfile

BEFORE = ["", "---\n", "#! c\n", "#@ x = 1\n", "a: 0\n...\n", "\n"]
DIRECTIVES = ["%YAML 1.1\n", "%TAG !e! tag:e.com,2000:\n", "%YAML 1.1\n%TAG !e! tag:x:\n",
              "%YAML 1.1 # c\n# between\n", "%YAML 1.2\n", "%YAML 1.1\n%YAML 1.1\n", "%FOO\n",
              "%TAG !e! %C3%28\n"]
AFTER = ["---\na: 1\n", "--- #@ y = 2\na: 1\n", "---\n#@data/values\n---\na: 1\n",
         "--- !e!t\na: 1\n", "---\n- !e!x 1\n", "--- 5\n", "---\n", "a: 1\n"]


def run(argv, cwd):
    p = subprocess.run(argv, cwd=cwd, capture_output=True, stdin=subprocess.DEVNULL, timeout=60)
    return p.returncode, p.stdout, p.stderr


def main():
    args = sys.argv[1:]
    verbose = "-v" in args
    if verbose:
        args.remove("-v")
    hintkit = os.path.abspath(args[0] if args else "build/hintkit")
    ytt = os.environ.get("YTT") or sys.exit("set YTT to the reference ytt binary")
    total = exact = silent = panics = 0
    for before, directives, after in itertools.product(BEFORE, DIRECTIVES, AFTER):
        text = before + directives + after
        decode = '#@ load("@ytt:yaml", "yaml")\nv: #@ yaml.decode(%s)\n' % json.dumps(text)
        for mode, argv, body in (("tpl", ["-f", "t.yml"], text),
                                 ("decode", ["-f", "t.yml"], decode),
                                 ("dvf", ["--data-values-file", "t.yml", "--data-values-inspect"],
                                  text)):
            total += 1
            with tempfile.TemporaryDirectory() as tmp:
                with open(os.path.join(tmp, "t.yml"), "w", encoding="utf-8") as fh:
                    fh.write(body)
                r = run([ytt] + argv, tmp)
                h = run([hintkit, "values"] + argv, tmp)
            h = (h[0], h[1], h[2].replace(b"hintkit", b"ytt"))
            if r == h:
                exact += 1
                continue
            if b"panic" in r[2] and h[0] == 2:
                panics += 1
                continue
            wrong_ok = h[0] == 0 and (r[0] != 0 or r[1] != h[1])
            silent += wrong_ok
            print(f"{'SILENT' if wrong_ok else 'differs':8} {mode} {text!r}")
            if verbose:
                print("  ytt    ", r[0], r[1][:300], r[2][:300])
                print("  hintkit", h[0], h[1][:300], h[2][:300])
    print(f"directives: {total} cases, {exact} exact, {panics} ytt panics refused, "
          f"{silent} silent wrong answers")


if __name__ == "__main__":
    main()
