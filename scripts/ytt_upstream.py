#!/usr/bin/env python3
"""Runs ytt's own upstream test inputs through the reference ytt and hintkit and compares.

Nothing of ytt's is copied into the project: the inputs are read at run time from a ytt
source tree (YTT_SRC, e.g. one brought by `fetch` and checked out at v0.48.0) and the
reference binary comes from YTT. Cases:

  filetests   every `*.tpltest` under pkg/ (the part before the `+++` line), run as
              `-f tpl.yml`, as a user would run that template;
  examples    every folder of examples/ and examples/playground/*/*, run as `-f DIR/`;
  e2e         the command lines ytt's end-to-end tests (test/e2e) run on the examples:
              data value flags and environment variables, --data-values-file with a folder
              or standard input, `-f -`, a pipe named by `<(...)`, -o json, output folders.

With `--cases DIR` it runs recorded cases instead: every folder of DIR holding a `cmd` (the
arguments), an optional `env` (NAME=value lines) and `expected/{rc,stdout,stderr}` recorded
from the reference (the layout of ../shared/conformance), e.g. cases dumped from ytt's Go
tests by an instrumented ytt on your own machine.

For each case the exit code, stdout and stderr (program name normalised) are compared.
A case where hintkit exits 0 with an answer ytt does not give is a "silent wrong answer".

usage: YTT=/path/to/ytt YTT_SRC=/path/to/ytt-src scripts/ytt_upstream.py [HINTKIT] [-v] [-k SUBSTR]
       scripts/ytt_upstream.py [HINTKIT] --cases DIR [-v] [-k SUBSTR]
"""
import os
import re
import subprocess
import sys
import tempfile


def run(argv, cwd, stdin=b""):
    try:
        p = subprocess.run(argv, cwd=cwd, input=stdin, capture_output=True, timeout=60)
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        return -999, b"", b"timeout"


def normalise(stderr, prog):
    s = stderr.decode("utf-8", "replace")
    s = re.sub(r"^" + re.escape(prog) + ": ", "PROG: ", s, flags=re.M)
    s = s.replace(prog + ": Error", "PROG: Error")
    return s


def filetests(src):
    out = []
    for root, _, files in os.walk(os.path.join(src, "pkg")):
        if "vendor" in root:
            continue
        for f in sorted(files):
            if f.endswith(".tpltest"):
                path = os.path.join(root, f)
                text = open(path, encoding="utf-8").read()
                tpl = text.split("\n+++\n\n", 1)[0]
                out.append((os.path.relpath(path, src), tpl))
    return sorted(out)


def example_dirs(src):
    ex = os.path.join(src, "examples")
    dirs = []
    for d in sorted(os.listdir(ex)):
        p = os.path.join(ex, d)
        if not os.path.isdir(p):
            continue
        if d == "playground":
            for sub in sorted(os.listdir(p)):
                sp = os.path.join(p, sub)
                if os.path.isdir(sp):
                    for leaf in sorted(os.listdir(sp)):
                        lp = os.path.join(sp, leaf)
                        if os.path.isdir(lp):
                            dirs.append(lp)
        else:
            dirs.append(p)
    return dirs


# The runs of ytt's test/e2e, as (name, arguments, standard input file, environment); paths
# are relative to test/e2e, as there. Written from reading those tests, not copied.
EX = "../../examples/"
DV = ["-f", EX + "data-values/config.yml", "-f", EX + "data-values/values.yml"]


def e2e_runs():
    runs = [
        ("data-value", DV + sum([["--data-value", kv] for kv in
                                 ("nothing=null", "string=str", "bool=true", "int=123",
                                  "float=123.123")], []), None, {}),
        ("data-value-yaml", DV + sum([["--data-value-yaml", kv] for kv in
                                      ("nothing=null", "string=str", "bool=true", "int=123",
                                       "float=123.123")], []), None, {}),
        ("data-values-env", DV + ["--data-values-env", "STR_VAL", "--data-values-env-yaml",
                                  "YAML_VAL"], None,
         {"STR_VAL_nothing": "null", "YAML_VAL_string": "str", "YAML_VAL_bool": "true",
          "YAML_VAL_int": "123", "YAML_VAL_float": "123.123"}),
        ("data-value-yaml-and-env-yaml", DV + ["--data-value-yaml", "nothing=[1,2,3]",
                                               "--data-values-env-yaml", "YAML_VAL"], None,
         {"YAML_VAL_string": "[1,2,4]", "YAML_VAL_bool": "true", "YAML_VAL_int": "123",
          "YAML_VAL_float": "123.123"}),
        ("data-values-file-folder", ["-f", EX + "data-values-directory/config",
                                     "--data-values-file", EX + "data-values-directory/values"],
         None, {}),
        ("data-value-file", DV + ["--data-value-file",
                                  "string=" + EX + "data-values/file-as-value.txt"], None, {}),
        ("data-values-file", DV + ["--data-values-file", EX + "data-values/values-file.yml"],
         None, {}),
        ("multiple-envs-defaults", ["-f", EX + "data-values-multiple-envs/config/", "-v",
                                    "version=123"], None, {}),
        ("stdin-f", ["-f", "-", "-f", EX + "eirini/input.yml"], EX + "eirini/config.yml", {}),
        ("stdin-data-values-file", ["--data-values-file", "-", "--data-values-inspect"],
         EX + "data-values/values-file.yml", {}),
        ("stdin-read-twice", ["--data-values-file", "-", "-f", "-"], None, {}),
        ("stdin-pipe", ["-f-"], EX + "k8s-relative-rolling-update/config.yml", {}),
        ("json", ["-f", EX + "k8s-adjust-rbac-version", "-o", "json"], None, {}),
        ("eirini", ["-f", EX + "eirini/config.yml", "-f", EX + "eirini/input.yml"], None, {}),
        ("eirini-alt1", ["-f", EX + "eirini/config-alt1.yml", "-f", EX + "eirini/input.yml"],
         None, {}),
        ("eirini-alt2", sum([["-f", EX + "eirini/" + f] for f in
                             ("config-alt2.yml", "config.lib.yaml", "config.star", "data.txt",
                              "data2.lib.txt", "input.yml")], []), None, {}),
    ]
    for d in ("inline", "function", "bulk"):
        runs.append(("required-" + d, ["-f", EX + "data-values-required/" + d, "-v",
                                       "version=123"], None, {}))
    for env in ("dev", "staging", "prod"):
        runs.append(("multiple-envs-" + env, ["-f", EX + "data-values-multiple-envs/config/",
                                              "-f", EX + "data-values-multiple-envs/envs/" +
                                              env + ".yml"], None, {}))
    return runs


def run_e2e(ytt, hintkit, src, payload):
    args, stdin_file, env_add = payload
    cwd = os.path.join(src, "test", "e2e")
    env = dict(os.environ, **env_add)
    out = []
    for prog in ([ytt], [hintkit, "values"]):
        stdin = b""
        if stdin_file:
            with open(os.path.join(cwd, stdin_file), "rb") as fh:
                stdin = fh.read()
        try:
            p = subprocess.run(prog + args, cwd=cwd, env=env, input=stdin, capture_output=True,
                               timeout=60)
            out.append((p.returncode, p.stdout, p.stderr))
        except subprocess.TimeoutExpired:
            out.append((-999, b"", b"timeout"))
    return out[0], out[1]


# A pipe named by the shell's process substitution, renamed with `name=` (test_pipe_redirect).
def run_pipe(ytt, hintkit, src):
    cwd = os.path.join(src, "test", "e2e")
    out = []
    for prog in (ytt, hintkit + " values"):
        script = (prog + " -f pipe.yml=<(cat " + EX +
                  "k8s-relative-rolling-update/config.yml)")
        p = subprocess.run(["bash", "-c", script], cwd=cwd, capture_output=True, timeout=60)
        out.append((p.returncode, p.stdout, p.stderr))
    return out[0], out[1]


def recorded(case):
    def read(name):
        with open(os.path.join(case, "expected", name), "rb") as fh:
            return fh.read()
    return int(read("rc").strip() or b"0"), read("stdout"), read("stderr")


def run_recorded(hintkit, case):
    with open(os.path.join(case, "cmd"), encoding="utf-8") as fh:
        words = fh.read().split()
    env = dict(os.environ)
    env_file = os.path.join(case, "env")
    if os.path.exists(env_file):
        for line in open(env_file, encoding="utf-8").read().splitlines():
            if "=" in line:
                k, v = line.split("=", 1)
                env[k] = v
    try:
        p = subprocess.run([hintkit, "values"] + words, cwd=case, env=env,
                           stdin=subprocess.DEVNULL, capture_output=True, timeout=60)
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        return -999, b"", b"timeout"


def run_both(ytt, hintkit, kind, payload):
    with tempfile.TemporaryDirectory() as tmp:
        if kind == "filetest":
            with open(os.path.join(tmp, "tpl.yml"), "w", encoding="utf-8") as fh:
                fh.write(payload)
            targs = ["-f", "tpl.yml"]
            cwd = tmp
        else:
            targs = ["-f", os.path.basename(payload) + "/"]
            cwd = os.path.dirname(payload)
        return run([ytt] + targs, cwd), run([hintkit, "values"] + targs, cwd)


def main():
    args = [a for a in sys.argv[1:]]
    verbose = "-v" in args
    if verbose:
        args.remove("-v")
    only = None
    if "-k" in args:
        i = args.index("-k")
        only = args[i + 1]
        del args[i:i + 2]
    cases_dir = None
    if "--cases" in args:
        i = args.index("--cases")
        cases_dir = os.path.abspath(args[i + 1])
        del args[i:i + 2]
    hintkit = os.path.abspath(args[0] if args else "build/hintkit")
    ytt = os.environ.get("YTT")
    src = os.environ.get("YTT_SRC")
    cases = []
    if cases_dir:
        for d in sorted(os.listdir(cases_dir)):
            if os.path.isfile(os.path.join(cases_dir, d, "cmd")):
                cases.append(("recorded", d, os.path.join(cases_dir, d)))
    else:
        if not ytt or not src:
            sys.exit("set YTT (reference ytt binary) and YTT_SRC (ytt source tree)")
        for name, tpl in filetests(src):
            cases.append(("filetest", name, tpl))
        for d in example_dirs(src):
            cases.append(("example", os.path.relpath(d, src), d))
        for name, args, stdin_file, env in e2e_runs():
            cases.append(("e2e", "e2e/" + name, (args, stdin_file, env)))
        cases.append(("pipe", "e2e/pipe-redirect", None))

    exact = silent = total = 0
    failures = []
    for kind, name, payload in cases:
        if only and only not in name:
            continue
        total += 1
        if kind == "recorded":
            r = recorded(payload)
            h = run_recorded(hintkit, payload)
        elif kind == "e2e":
            r, h = run_e2e(ytt, hintkit, src, payload)
        elif kind == "pipe":
            r, h = run_pipe(ytt, hintkit, src)
        else:
            r, h = run_both(ytt, hintkit, kind, payload)
        same = (r[0] == h[0] and r[1] == h[1] and
                normalise(r[2], "ytt") == normalise(h[2], "hintkit"))
        if same:
            exact += 1
            continue
        wrong_ok = h[0] == 0 and (r[0] != 0 or r[1] != h[1])
        if wrong_ok:
            silent += 1
        failures.append((name, wrong_ok, r, h))

    for name, wrong_ok, r, h in failures:
        tag = "SILENT" if wrong_ok else "differs"
        print(f"{tag:8} {name}  (ytt rc {r[0]}, hintkit rc {h[0]})")
        if verbose:
            print("--- ytt stdout/stderr");
            print(r[1].decode("utf-8", "replace")[:1500] + r[2].decode("utf-8", "replace")[:1500])
            print("--- hintkit stdout/stderr")
            print(h[1].decode("utf-8", "replace")[:1500] + h[2].decode("utf-8", "replace")[:1500])
    print(f"upstream: {total} cases, {exact} exact ({100.0 * exact / max(total, 1):.1f}%), "
          f"{silent} silent wrong answers")


if __name__ == "__main__":
    main()
