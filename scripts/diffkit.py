"""What the differential checks (scripts/diff_*.py) share: their command line and how they run
a program. Each check generates its own inputs; this module only runs and compares."""
import os
import subprocess
import sys


def number_flags(args, defaults):
    """Takes `--name N` out of `args` (a list, changed in place) for each flag of `defaults`
    ({"--count": 300, ...}); returns the flags' values, the defaults where not given."""
    values = dict(defaults)
    for flag in values:
        if flag in args:
            i = args.index(flag)
            values[flag] = int(args[i + 1])
            del args[i:i + 2]
    return values


def options():
    """[HINTKIT] [--count N] [--seed S] [--show K], and the reference ytt from YTT."""
    args = sys.argv[1:]
    values = number_flags(args, {"--count": 300, "--seed": 1, "--show": 3})
    hintkit = os.path.abspath(args[0] if args else "build/hintkit")
    ytt = os.environ.get("YTT")
    if not ytt:
        sys.exit("set YTT to the reference ytt binary")
    return hintkit, ytt, values["--count"], values["--seed"], values["--show"]


def run(argv, cwd, env=None):
    """(exit code, stdout, stderr); a run over 60 s counts as exit -999."""
    try:
        p = subprocess.run(argv, cwd=cwd, capture_output=True, timeout=60, env=env)
        return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")
    except subprocess.TimeoutExpired:
        return -999, "", "timeout"


def write_files(folder, files):
    """Writes `files` ({relative path: text}) below `folder`, making their folders."""
    for name, text in files.items():
        path = os.path.join(folder, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)


def normalise(err, prog):
    """Error text with the program's name taken out (ytt says "ytt: Error", we "hintkit: Error")."""
    return err.replace(prog + ": ", "PROG: ")
