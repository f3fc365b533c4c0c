#!/usr/bin/env bash
# Fresh machine to a working hintkit: install packages, build, run the main job on the
# bundled examples: lint and resolve a manifest's vars, resolve a tazuna.yaml, inspect ytt
# data values, and show the report for a hint file full of mistakes.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
scripts/build.sh
echo "== hintkit lint examples/api"
build/hintkit lint examples/api
echo "== hintkit resolve --dir examples/api --values examples/api/values.yaml"
build/hintkit resolve --dir examples/api --values examples/api/values.yaml
echo "== CLUSTER_NAME=prod-tokyo-1 hintkit resolve --config examples/tazuna/tazuna.yaml"
CLUSTER_NAME=prod-tokyo-1 build/hintkit resolve --config examples/tazuna/tazuna.yaml
echo "== hintkit values -f examples/ytt/schema.yaml -f examples/ytt/values.yaml --data-values-inspect"
build/hintkit values -f examples/ytt/schema.yaml -f examples/ytt/values.yaml --data-values-inspect
echo "== hintkit lint examples/broken (a hint file with mistakes; exit 1 is expected)"
build/hintkit lint examples/broken || test $? -eq 1
