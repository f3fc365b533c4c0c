#!/usr/bin/env python3
"""Compares the hint half's YAML reading with go-yaml v2 itself, on YAML whole and damaged.

tazuna reads its YAML with go-yaml v2 (through sigs.k8s.io/yaml), and so does the hint half of
hintkit (yaml::load with tazuna's reading; the ytt half reads as ytt's fork of go-yaml does and
is compared with ytt by fuzz_yaml_errors.py). Each input is a YAML file of
../shared/conformance/ytt-schema, examples/ or fixtures/, whole or with one or two of
fuzz_yaml_errors.py's damages (bytes, tabs, markers, anchors, flow collections, block scalars,
tags, quotes, byte order marks, control characters, long keys, CR LF and CR). Both read it:

  go-yaml   a Go program of a few lines, written and built here with the `go` on PATH in GOPATH
            mode against gopkg.in/yaml.v2 (Debian's golang-gopkg-yaml.v2-dev): yaml.NewDecoder,
            each document decoded into an interface{}, the values printed with their Go types
  hintkit   build/tests/read_yaml (tests/support/read_yaml.cpp): the same, from the tree

and each input is classed:
  same               both read it, to equal values (documents that are null left out), or
                     both stop with go-yaml's message
  error-text         both stop, with different messages
  duplicate-key      go-yaml keeps a repeated key's later value, the hint half refuses the key
                     (HK002, docs/tazuna.md: "Duplicate keys"); the values are compared too
  collection-key     a map or list as a map key: go-yaml fails "invalid map key", the hint half
                     reads it and its conversion refuses it (docs/tazuna.md)
  limit              the hint half stops at a limit of its own (HK003)
  refused            the hint half refuses, by name, what it cannot read as go-yaml does (HK004,
                     "not supported"; docs/tazuna.md)
  stricter           the hint half stops where go-yaml reads on
  looser             go-yaml stops, the hint half reads on
  different-values   both read it, to different values

usage: scripts/diff_goyaml.py [READ_YAML] [--count N] [--seed S] [--show K]
Exit 1 when an input is stricter, looser or has different values.
"""
import json
import os
import random
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import diffkit  # noqa: E402
import fuzz_yaml_errors  # noqa: E402  (its sources and damages)

GO_MAIN = r'''package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"time"

	"gopkg.in/yaml.v2"
)

func value(v interface{}) interface{} {
	tagged := func(k string, x interface{}) interface{} { return map[string]interface{}{k: x} }
	switch x := v.(type) {
	case nil:
		return nil
	case bool:
		return tagged("bool", x)
	case int:
		return tagged("int", strconv.Itoa(x))
	case int64:
		return tagged("int", strconv.FormatInt(x, 10))
	case uint64:
		return tagged("uint", strconv.FormatUint(x, 10))
	case float64:
		return tagged("float", strconv.FormatFloat(x, 'g', -1, 64))
	case string:
		return tagged("str", x)
	case []interface{}:
		seq := []interface{}{}
		for _, e := range x {
			seq = append(seq, value(e))
		}
		return tagged("seq", seq)
	case map[interface{}]interface{}:
		pairs := []interface{}{}
		for k, e := range x {
			pairs = append(pairs, []interface{}{value(k), value(e)})
		}
		return tagged("map", pairs)
	case time.Time:
		return tagged("time", x.Format(time.RFC3339Nano))
	default:
		return tagged("other", fmt.Sprintf("%T %v", x, x))
	}
}

func main() {
	data, err := os.ReadFile(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	docs := []interface{}{}
	var problem interface{}
	for {
		var v interface{}
		err := dec.Decode(&v)
		if err == io.EOF {
			break
		}
		if err != nil {
			problem = err.Error()
			break
		}
		if v != nil {
			docs = append(docs, value(v))
		}
	}
	json.NewEncoder(os.Stdout).Encode(map[string]interface{}{"docs": docs, "error": problem})
}
'''


def sources():
    texts = fuzz_yaml_errors.sources(True)
    for folder, _, names in os.walk(os.path.join(ROOT, "fixtures")):
        for name in names:
            file = os.path.join(folder, name)
            if name.endswith((".yaml", ".yml")) and os.path.isfile(file):
                with open(file, encoding="utf-8", errors="replace") as f:
                    text = f.read()
                if text and len(text) < 20000:
                    texts.append(text)
    return texts


def normal(v):
    """A value with its map pairs in one order (by the key's JSON text)."""
    if isinstance(v, dict) and "map" in v:
        pairs = [[normal(k), normal(e)] for k, e in v["map"]]
        return {"map": sorted(pairs, key=lambda p: json.dumps(p[0], sort_keys=True))}
    if isinstance(v, dict) and "seq" in v:
        return {"seq": [normal(e) for e in v["seq"]]}
    return v


def read(argv):
    p = subprocess.run(argv, capture_output=True, timeout=30)
    if p.returncode != 0:
        return {"crash": p.returncode, "stderr": p.stderr.decode("utf-8", "replace")[:300]}
    return json.loads(p.stdout)


def classify(go, hk):
    if "crash" in go or "crash" in hk:
        return "stricter" if "crash" in hk else "go-failed"
    go_err, hk_err = go.get("error"), hk.get("error")
    if hk.get("code") == "HK004" and "not supported" in (hk_err or ""):
        return "refused"
    if go_err and "invalid map key" in go_err and (hk.get("collection_key") or hk_err):
        # go-yaml's decoder meets the key once it has parsed the key's document, before a
        # syntax error in a later one; the hint half's conversion refuses it after reading.
        return "collection-key"
    if go_err and hk_err:
        return "same" if go_err == hk_err else "error-text"
    if go_err:
        return "looser"
    if hk_err:
        return "limit" if hk.get("code") == "HK003" else "stricter"
    same = [normal(d) for d in go["docs"]] == [normal(d) for d in hk["docs"]]
    if not same:
        return "different-values"
    return "duplicate-key" if hk.get("duplicate_key") else "same"


def main():
    args = sys.argv[1:]
    opts = diffkit.number_flags(args, {"--count": 1000, "--seed": 1, "--show": 3})
    reader = os.path.abspath(args[0] if args else os.path.join(ROOT, "build", "tests", "read_yaml"))
    if not os.access(reader, os.X_OK):
        sys.exit(f"no reader at {reader} (build the tests: read_yaml)")
    rng = random.Random(opts["--seed"])
    texts = sources()
    kinds = list(fuzz_yaml_errors.KINDS)
    counts, examples = {}, {}
    with tempfile.TemporaryDirectory() as tmp:
        gopath = "/usr/share/gocode"
        src = os.path.join(tmp, "main.go")
        with open(src, "w") as f:
            f.write(GO_MAIN)
        go = os.path.join(tmp, "goyaml")
        env = dict(os.environ, GO111MODULE="off", GOPATH=gopath, GOCACHE=os.path.join(tmp, "cache"))
        b = subprocess.run(["go", "build", "-o", go, src], capture_output=True, env=env, cwd=tmp)
        if b.returncode != 0:
            sys.exit("go build failed (needs golang-go and golang-gopkg-yaml.v2-dev):\n" +
                     b.stderr.decode())
        path = os.path.join(tmp, "in.yaml")
        for n in range(opts["--count"]):
            text = rng.choice(texts)
            used = "whole"
            if rng.random() < 0.8:
                text, used = fuzz_yaml_errors.damage(text, rng, kinds)
            with open(path, "w", encoding="utf-8", newline="", errors="surrogatepass") as f:
                f.write(text)
            go_answer, hk_answer = read([go, path]), read([reader, path])
            kind = classify(go_answer, hk_answer)
            counts[kind] = counts.get(kind, 0) + 1
            shown = examples.setdefault(kind, [])
            if kind not in ("same", "duplicate-key", "collection-key", "refused") and len(shown) < opts["--show"]:
                shown.append((used, text, go_answer, hk_answer))
    total = opts["--count"]
    print(f"{total} inputs (seed {opts['--seed']}), go-yaml v2 against the hint half's reading")
    for kind in ("same", "error-text", "duplicate-key", "collection-key", "limit", "refused", "stricter",
                 "looser", "different-values", "go-failed"):
        print(f"  {kind:17} {counts.get(kind, 0):6}  ({100.0 * counts.get(kind, 0) / total:5.1f}%)")
    for kind, cases in examples.items():
        for used, text, go_answer, hk_answer in cases:
            print(f"\n--- {kind} ({used}): {text[:400]!r}")
            print(f"  go-yaml: {json.dumps(go_answer)[:400]}")
            print(f"  hintkit: {json.dumps(hk_answer)[:400]}")
    bad = sum(counts.get(k, 0) for k in ("stricter", "looser", "different-values"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
