#!/usr/bin/env bash
# Whole-process benchmarks for the hint half (needs a built build/hintkit):
#   lint of a generated tree of 10,000 hint files, resolve of one manifest, resolve --config
#   of a tazuna.yaml with 2,000 helmfile manifests (also spread across 50 included files),
#   and one hook presync call,
# both wall time including process start. Uses hyperfine when installed.
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 bench/gen_hint_tree.py 10000 "$work/tree" 20
python3 bench/gen_hint_tree.py 2000 "$work/tazuna" 20
python3 bench/gen_hint_tree.py 2000 "$work/included" 20 50
one="$work/tree/team000/app00000"
# The release values as helmfile's toJson renders them: compact, sorted keys.
json=$(python3 -c 'import json, sys, yaml; print(json.dumps(yaml.safe_load(open(sys.argv[1])), separators=(",", ":"), sort_keys=True))' "$one/values.yaml")
export HINTKIT_BENCH_CLUSTER=bench
if command -v hyperfine >/dev/null; then
  hyperfine -N --warmup 2 --runs 10 "build/hintkit lint $work/tree"
  hyperfine -N --warmup 20 --runs 200 "build/hintkit resolve --dir $one --values $one/values.yaml"
  hyperfine -N --warmup 2 --runs 10 "build/hintkit resolve --config $work/tazuna/tazuna.yaml"
  hyperfine -N --warmup 2 --runs 10 "build/hintkit resolve --config $work/included/tazuna.yaml"
  # Through a shell (hyperfine subtracts its start-up) so the JSON stays one argument.
  hyperfine --warmup 20 --runs 200 "build/hintkit hook presync --dir $one --values-json '$json'"
else
  time build/hintkit lint "$work/tree" | tail -1
  time build/hintkit resolve --dir "$one" --values "$one/values.yaml" >/dev/null
  time build/hintkit resolve --config "$work/tazuna/tazuna.yaml" >/dev/null
  time build/hintkit resolve --config "$work/included/tazuna.yaml" >/dev/null
  time build/hintkit hook presync --dir "$one" --values-json "$json"
fi
if [ -x build/bench/hint_bench ]; then build/bench/hint_bench; fi
