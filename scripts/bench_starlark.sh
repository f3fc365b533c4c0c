#!/usr/bin/env bash
# Starlark speed: hintkit's interpreter (build/bench/starlark_bench) against ytt running the
# same functions inside a schema (`#@schema/default` of the result). Needs the reference ytt:
# YTT=/path/to/ytt scripts/bench_starlark.sh
set -euo pipefail
cd "$(dirname "$0")/.."
ytt=${YTT:?set YTT to the reference ytt v0.48.0 binary: YTT=/path/to/ytt $0}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat > "$work/loop.yaml" <<'YAML'
#@ def loop(n):
#@   total = 0
#@   for i in range(n):
#@     total = (total + i * 3) % 1000003
#@   end
#@   return total
#@ end
#@data/values-schema
---
#@schema/default loop(1000000)
result: 0
YAML
cat > "$work/fib.yaml" <<'YAML'
#@ def fib(n):
#@   if n < 2:
#@     return n
#@   end
#@   return fib(n - 1) + fib(n - 2)
#@ end
#@data/values-schema
---
#@schema/default fib(25)
result: 0
YAML
build/bench/starlark_bench
if [ -x "$ytt" ]; then
  for w in loop fib; do
    echo "== ytt $w"
    "$ytt" -f "$work/$w.yaml" --data-values-inspect
    if command -v hyperfine >/dev/null; then
      hyperfine -N --runs 3 "$ytt -f $work/$w.yaml --data-values-inspect"
    else
      time "$ytt" -f "$work/$w.yaml" --data-values-inspect >/dev/null
    fi
  done
fi
