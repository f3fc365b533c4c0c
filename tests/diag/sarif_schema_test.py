#!/usr/bin/env python3
"""`hintkit lint --format sarif` as GitHub code scanning reads it, checked against the SARIF
2.1.0 JSON schema (tests/diag/sarif/, validated with python3-jsonschema) and the properties
GitHub documents: columns in UTF-16 code units, rules with help and helpUri,
partialFingerprints that survive moved lines, and artifact URIs relative to %SRCROOT% (the
nearest folder upward with .git).

    sarif_schema_test.py HINTKIT SOURCE_DIR
"""
import json
import os
import re
import subprocess
import sys
import tempfile
import urllib.parse

import jsonschema

hintkit, source = sys.argv[1], sys.argv[2]
schema = json.load(open(os.path.join(source, "tests/diag/sarif/sarif-2.1.0-rtm.5.json")))
failures = []


def check(ok, what):
    if not ok:
        failures.append(what)


def utf16_column(line, token):
    prefix = line[: line.index(token)]
    return len(prefix.encode("utf-16-le")) // 2 + 1


# A CJK description (3 bytes, 1 UTF-16 unit each) and an emoji (4 bytes, 2 units) before the
# problem on the same line; duplicate keys for related locations.
CJK_LINE = '  host: {description: "日本語", type: Strin}'
EMOJI_LINE = '  port: {description: "😀 x", type: Strng}'
HINTS = {
    "charts/api/tazuna.hint.yaml": "vars:\n" + CJK_LINE + "\n" + EMOJI_LINE + "\n",
    "charts/web/tazuna.hint.yaml": "vars:\n  a:\n    type: string\n    type: map\n",
    "charts/dir with space/tazuna.hint.yaml": "vars:\n  a: {type: x}\n",
}


def write_tree(root, prefix=""):
    for rel, text in HINTS.items():
        path = os.path.join(root, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(prefix + text)


def lint(cwd, *args):
    r = subprocess.run([hintkit, "lint", "--format", "sarif", *args], cwd=cwd,
                       capture_output=True, text=True)
    check(r.returncode == 1, f"lint exit {r.returncode}: {r.stderr}")
    return json.loads(r.stdout)


def results_by_file(log):
    out = {}
    for res in log["runs"][0]["results"]:
        loc = res["locations"][0]["physicalLocation"]
        out.setdefault(loc["artifactLocation"]["uri"], []).append(res)
    return out


with tempfile.TemporaryDirectory() as tmp:
    root = os.path.realpath(tmp)
    os.mkdir(os.path.join(root, ".git"))
    write_tree(root)
    # Run from a subfolder: paths are still relative to the repository root.
    log = lint(os.path.join(root, "charts"), ".")

    try:
        jsonschema.Draft4Validator(schema).validate(log)
    except jsonschema.ValidationError as e:
        failures.append(f"schema: {e.message} at {list(e.absolute_path)}")

    run = log["runs"][0]
    check(log["version"] == "2.1.0", "version")
    base = run.get("originalUriBaseIds", {}).get("%SRCROOT%", {}).get("uri", "")
    check(base == "file://" + urllib.parse.quote(root) + "/",
          f"%SRCROOT% is {base!r}, want the repository root {root!r}")
    check(run.get("columnKind") == "utf16CodeUnits", "columnKind")

    rules = run["tool"]["driver"]["rules"]
    check(len(rules) > 0, "no rules")
    for rule in rules:
        check(re.fullmatch(r"HK\d{3}", rule["id"]) is not None, f"rule id {rule['id']}")
        check(rule.get("help", {}).get("text", "") != "", f"{rule['id']}: no help.text")
        check(rule.get("help", {}).get("markdown", "") != "", f"{rule['id']}: no help.markdown")
        uri = urllib.parse.urlparse(rule.get("helpUri", ""))
        check(uri.scheme == "https" and uri.fragment == rule["id"].lower(),
              f"{rule['id']}: helpUri {rule.get('helpUri')!r}")

    by_file = results_by_file(log)
    check(sorted(by_file) == sorted(urllib.parse.quote(p) for p in HINTS),
          f"artifact URIs {sorted(by_file)}")
    for res in run["results"]:
        art = res["locations"][0]["physicalLocation"]["artifactLocation"]
        check(art.get("uriBaseId") == "%SRCROOT%", f"{art['uri']}: uriBaseId")
        check(res["level"] in ("error", "warning", "note"), "level")
        check(res["message"]["text"] != "", "empty message")
        h = res.get("partialFingerprints", {}).get("primaryLocationLineHash", "")
        check(re.fullmatch(r"[0-9a-f]{16}:[1-9][0-9]*", h) is not None, f"fingerprint {h!r}")
        for rel in res.get("relatedLocations", []):
            check(rel["physicalLocation"]["artifactLocation"].get("uriBaseId") == "%SRCROOT%",
                  "related location's uriBaseId")

    api = {r["ruleId"] + ":" + str(r["locations"][0]["physicalLocation"]["region"]["startLine"]):
           r["locations"][0]["physicalLocation"]["region"]
           for r in by_file.get("charts/api/tazuna.hint.yaml", [])}
    cjk, emoji = api.get("HK104:2"), api.get("HK104:3")
    check(cjk is not None and emoji is not None, f"HK104 results on lines 2 and 3: {api}")
    if cjk and emoji:
        want = utf16_column(CJK_LINE, "Strin")
        check(cjk["startColumn"] == want,
              f"after 日本語: startColumn {cjk['startColumn']}, want {want} (UTF-16)")
        check(cjk["endColumn"] == want + len("Strin"), f"after 日本語: endColumn {cjk['endColumn']}")
        want = utf16_column(EMOJI_LINE, "Strng")
        check(emoji["startColumn"] == want,
              f"after an emoji: startColumn {emoji['startColumn']}, want {want} (UTF-16)")
    web = by_file.get("charts/web/tazuna.hint.yaml", [])
    check(any(r.get("relatedLocations") for r in web), "duplicate key has no related location")

    # Fingerprints do not depend on line numbers: two lines inserted above every problem
    # move them all, and every fingerprint stays.
    def prints(log):
        return sorted((r["ruleId"], r["message"]["text"],
                       r["partialFingerprints"]["primaryLocationLineHash"])
                      for r in log["runs"][0]["results"])
    write_tree(root, prefix="# moved\n# down\n")
    moved = lint(os.path.join(root, "charts"), ".")
    check(prints(moved) == prints(log), "fingerprints changed when lines moved")
    lines = sorted(r["locations"][0]["physicalLocation"]["region"]["startLine"]
                   for r in moved["runs"][0]["results"])
    before = sorted(r["locations"][0]["physicalLocation"]["region"]["startLine"]
                    for r in run["results"])
    check(lines == [n + 2 for n in before], "lines did not move")

    # Without .git up the tree the current folder is the root.
    other = os.path.join(root, "elsewhere")
    os.makedirs(other)
    write_tree(other)
    os.rmdir(os.path.join(root, ".git"))
    log = lint(other, "charts/api")
    base = log["runs"][0].get("originalUriBaseIds", {}).get("%SRCROOT%", {}).get("uri", "")
    check(base == "file://" + urllib.parse.quote(other) + "/", f"no .git: %SRCROOT% {base!r}")
    check(sorted(results_by_file(log)) == ["charts/api/tazuna.hint.yaml"], "no .git: URIs")

for f in failures:
    print("FAIL:", f)
print(f"{'0' if failures else '1'} passed, {len(failures)} failed")
sys.exit(1 if failures else 0)
