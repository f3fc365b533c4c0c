#!/usr/bin/env python3
"""Runs each hook of .pre-commit-hooks.yaml as pre-commit would (entry split like a shell
command, then args, then the matching file names unless pass_filenames is false) with the
built hintkit first on PATH, on clean and broken inputs from examples/ and fixtures/.

usage: pre_commit_hooks.py HINTKIT REPO_ROOT"""
import os
import re
import shlex
import subprocess
import sys
import tempfile

import yaml

hintkit, root = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
hooks = {h["id"]: h for h in yaml.safe_load(open(os.path.join(root, ".pre-commit-hooks.yaml")))}
env = dict(os.environ, PATH=os.path.dirname(hintkit) + os.pathsep + os.environ["PATH"],
           CLUSTER_NAME="prod-tokyo-1")
passed = failed = 0


def run_hook(hook_id, files, args=()):
    hook = hooks[hook_id]
    matching = [f for f in files if re.search(hook["files"], f)]
    argv = shlex.split(hook["entry"]) + list(args)
    if hook.get("pass_filenames", True):
        argv += matching
    return subprocess.run(argv, cwd=root, env=env, capture_output=True, text=True).returncode


def expect(hook_id, files, want, args=()):
    global passed, failed
    got = run_hook(hook_id, files, args)
    if got == want:
        passed += 1
    else:
        failed += 1
        print(f"FAIL: {hook_id} on {files} {list(args)}: exit {got}, want {want}")


expect("hintkit-lint", ["examples/api/tazuna.hint.yaml", "examples/api/values.yaml"], 0)
expect("hintkit-lint", ["examples/broken/tazuna.hint.yaml"], 1)
expect("hintkit-lint-config", ["examples/tazuna/tazuna.yaml", "README.md"], 0)
expect("hintkit-ytt-values", ["examples/ytt/schema.yaml"], 0,
       ["-f", "examples/ytt/schema.yaml", "-f", "examples/ytt/values.yaml"])
with tempfile.TemporaryDirectory() as tmp:
    bad = os.path.join(tmp, "values.yaml")
    with open(bad, "w") as fh:
        fh.write("#@data/values\n---\nreplicas: many\n")  # the schema says an int
    expect("hintkit-ytt-values", ["examples/ytt/schema.yaml"], 1,
           ["-f", "examples/ytt/schema.yaml", "-f", bad])
print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
