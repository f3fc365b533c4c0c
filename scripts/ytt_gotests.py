#!/usr/bin/env python3
"""Runs the inputs of ytt's Go unit tests (outside pkg/cmd) through ytt and hintkit as a user
would meet them on the command line, and compares (exit code, stdout, stderr).

Nothing of ytt's is copied into the project: the inputs are read at run time from a ytt source
tree (YTT_SRC, v0.48.0) and the reference binary comes from YTT. Families:

  literals      every Go string literal ("..." or `...`) of the unit tests named in
                GO_TESTS, decoded as Go decodes it, run in the ways its package meets users:
                  yaml   as a template `-f tpl.yml`, with `-s` (strict), with `-o json`, as a
                         plain data values file (`--data-values-file dv.yml
                         --data-values-inspect`) and as `--data-value-yaml k=...`;
                  star   as Starlark code: lines of a YAML template (`#@ ` before each line),
                         a module loaded by a template, and a text template code block;
                  text   as a text template `-f tpl.txt`;
  textfiles     pkg/texttemplate/filetests/*.txt (the part before `+++`) as `-f tpl.txt`;
  fmtfiles      pkg/yamlfmt/filetests/*.yml (the part before `+++`) as `fmt -f tpl.yml`
                and as `-f tpl.yml`.

A case where hintkit exits 0 with an answer ytt does not give is a "silent wrong answer".

usage: YTT=/path/to/ytt YTT_SRC=/path/to/ytt-src scripts/ytt_gotests.py [HINTKIT] [-v] [-k SUBSTR]
"""
import os
import re
import subprocess
import sys
import tempfile

# test file -> the ways its inputs reach a user
GO_TESTS = {
    "pkg/yamlmeta/parser_test.go": ("yaml",),
    "pkg/yamlmeta/parser_strict_test.go": ("yaml",),
    "pkg/yamlmeta/plain_test.go": ("yaml",),
    "pkg/yamlmeta/map_key_overrides_test.go": ("yaml",),
    "pkg/template/error_hints_test.go": ("star",),
    "pkg/template/compiled_template_test.go": ("star",),
    "pkg/template/ancestors_test.go": ("yaml",),
    "pkg/texttemplate/template_test.go": ("text",),
    "pkg/yamltemplate/template_test.go": ("yaml", "text"),
    "pkg/validations/validations_test.go": ("yaml",),
    "pkg/files/sources_test.go": ("yaml", "text"),
    "pkg/yamlfmt/printer_test.go": ("yaml",),
    "pkg/experiments/flags_test.go": ("yaml",),
}

ESC = {"a": 7, "b": 8, "f": 12, "n": 10, "r": 13, "t": 9, "v": 11, "\\": 92, '"': 34, "'": 39}


def go_unquote(body):
    """The bytes a Go interpreted string literal's body stands for."""
    out = bytearray()
    i = 0
    while i < len(body):
        c = body[i]
        if c != "\\":
            out += c.encode("utf-8")
            i += 1
            continue
        n = body[i + 1]
        if n in ESC:
            out.append(ESC[n])
            i += 2
        elif n == "x":
            out.append(int(body[i + 2:i + 4], 16))
            i += 4
        elif n in "01234567":
            out.append(int(body[i + 1:i + 4], 8))
            i += 4
        elif n == "u":
            out += chr(int(body[i + 2:i + 6], 16)).encode("utf-8")
            i += 6
        elif n == "U":
            out += chr(int(body[i + 2:i + 10], 16)).encode("utf-8")
            i += 10
        else:
            raise ValueError("bad escape " + n)
    return bytes(out)


def go_literals(text):
    """Every string literal of a Go source, in order, skipping comments and rune literals."""
    lits = []
    i = 0
    while i < len(text):
        c = text[i]
        if text.startswith("//", i):
            i = text.find("\n", i)
            i = len(text) if i < 0 else i
        elif text.startswith("/*", i):
            i = text.index("*/", i) + 2
        elif c == "`":
            j = text.index("`", i + 1)
            lits.append(text[i + 1:j].replace("\r", "").encode("utf-8"))
            i = j + 1
        elif c == '"':
            j = i + 1
            while text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            lits.append(go_unquote(text[i + 1:j]))
            i = j + 1
        elif c == "'":
            j = i + 1
            while text[j] != "'":
                j += 2 if text[j] == "\\" else 1
            i = j + 1
        else:
            i += 1
    return lits


# The import block names packages, not test input.
def without_imports(text):
    return re.sub(r"(?ms)^import \(.*?^\)", "", text)


def yaml_runs(lit):
    runs = [("tpl", ["-f", "tpl.yml"], {"tpl.yml": lit}),
            ("strict", ["-s", "-f", "tpl.yml"], {"tpl.yml": lit}),
            ("json", ["-f", "tpl.yml", "-o", "json"], {"tpl.yml": lit}),
            ("dvf", ["--data-values-file", "dv.yml", "--data-values-inspect"], {"dv.yml": lit})]
    if b"\x00" not in lit:
        runs.append(("dvy", ["--data-value-yaml", "k=" + lit.decode("utf-8", "surrogateescape"),
                             "--data-values-inspect"], {}))
    return runs


def star_runs(lit):
    lines = lit.split(b"\n")
    as_yaml = b"".join(b"#@ " + ln + b"\n" for ln in lines)
    return [("hash", ["-f", "tpl.yml"], {"tpl.yml": as_yaml}),
            ("load", ["-f", "tpl.yml", "-f", "code.star"],
             {"tpl.yml": b'#@ load("code.star", "v")\nv: #@ v\n', "code.star": lit}),
            ("textcode", ["-f", "tpl.txt"], {"tpl.txt": b"(@ " + lit + b" @)\n"})]


def text_runs(lit):
    return [("txt", ["-f", "tpl.txt"], {"tpl.txt": lit})]


MODES = {"yaml": yaml_runs, "star": star_runs, "text": text_runs}


def cases(src):
    out = []
    for rel, modes in GO_TESTS.items():
        path = os.path.join(src, rel)
        if not os.path.exists(path):
            continue
        seen = set()
        text = without_imports(open(path, encoding="utf-8").read())
        for n, lit in enumerate(go_literals(text)):
            if lit in seen:
                continue
            seen.add(lit)
            for mode in modes:
                for tag, args, files in MODES[mode](lit):
                    out.append((f"{rel}#{n}:{tag}", args, files))
    for folder, sep, ext, fmt in (("pkg/texttemplate/filetests", "\n+++\n", "txt", False),
                                  ("pkg/yamlfmt/filetests", "\n+++\n\n", "yml", True)):
        d = os.path.join(src, folder)
        if not os.path.isdir(d):
            continue
        for f in sorted(os.listdir(d)):
            body = open(os.path.join(d, f), "rb").read().split(sep.encode(), 1)[0]
            name = "tpl." + ext
            out.append((f"{folder}/{f}", ["-f", name], {name: body}))
            if fmt:
                out.append((f"{folder}/{f}:fmt", ["fmt", "-f", name], {name: body}))
    return out


def run(argv, cwd):
    try:
        p = subprocess.run(argv, cwd=cwd, stdin=subprocess.DEVNULL, capture_output=True,
                           timeout=60)
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        return -999, b"", b"timeout"


def normalise(stderr, prog):
    s = stderr.decode("utf-8", "replace")
    s = re.sub(r"^" + re.escape(prog) + ": ", "PROG: ", s, flags=re.M)
    return s.replace(prog + ": Error", "PROG: Error")


def main():
    args = sys.argv[1:]
    verbose = "-v" in args
    if verbose:
        args.remove("-v")
    only = None
    if "-k" in args:
        i = args.index("-k")
        only = args[i + 1]
        del args[i:i + 2]
    hintkit = os.path.abspath(args[0] if args else "build/hintkit")
    ytt = os.environ.get("YTT")
    src = os.environ.get("YTT_SRC")
    if not ytt or not src:
        sys.exit("set YTT (reference ytt binary) and YTT_SRC (ytt source tree)")

    total = exact = silent = 0
    failures = []
    for name, targs, files in cases(src):
        if only and only not in name:
            continue
        total += 1
        with tempfile.TemporaryDirectory() as tmp:
            for fname, body in files.items():
                with open(os.path.join(tmp, fname), "wb") as fh:
                    fh.write(body)
            r = run([ytt] + targs, tmp)
            h = run([hintkit, "values"] + targs, tmp)
        if (r[0] == h[0] and r[1] == h[1] and
                normalise(r[2], "ytt") == normalise(h[2], "hintkit")):
            exact += 1
            continue
        wrong_ok = h[0] == 0 and (r[0] != 0 or r[1] != h[1])
        silent += wrong_ok
        failures.append((name, wrong_ok, r, h, files))

    for name, wrong_ok, r, h, files in failures:
        tag = "SILENT" if wrong_ok else "differs"
        print(f"{tag:8} {name}  (ytt rc {r[0]}, hintkit rc {h[0]})")
        if verbose:
            for fname, body in files.items():
                print(f"--- {fname}: {body[:300]!r}")
            print("--- ytt stdout/stderr")
            print(r[1].decode("utf-8", "replace")[:1500] + r[2].decode("utf-8", "replace")[:1500])
            print("--- hintkit stdout/stderr")
            print(h[1].decode("utf-8", "replace")[:1500] + h[2].decode("utf-8", "replace")[:1500])
    print(f"gotests: {total} cases, {exact} exact ({100.0 * exact / max(total, 1):.1f}%), "
          f"{silent} silent wrong answers")


if __name__ == "__main__":
    main()
