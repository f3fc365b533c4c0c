#!/usr/bin/env bash
# Builds the libFuzzer targets (clang, ASan+UBSan) and runs them.
#
#   scripts/fuzz.sh TARGET SECONDS     run one target (fuzz_yaml, fuzz_values, ...) that long
#   scripts/fuzz.sh all SECONDS        run every target in turn, SECONDS each
#   scripts/fuzz.sh list               name the targets
#
# Each run starts from the seeds (fuzz/make_seeds.py, from fixtures/ and examples/) and the
# corpus kept from earlier runs (build-san/fuzz/corpus/TARGET), prints the executions done,
# and stops at the first crash, leak or timeout, leaving the input in
# build-san/fuzz/artifacts/. Replay one: build-san/fuzz/TARGET FILE.
# Environment: FUZZ_BUILD (build folder, default build-san), FUZZ_TIMEOUT (seconds one input
# may take before it counts as a hang, default 10: sanitizers slow the engine's 10M-step
# Starlark budget several times), FUZZ_ARGS (more libFuzzer flags), FUZZ_JOBS (build jobs).
set -euo pipefail
cd "$(dirname "$0")/.."
build="${FUZZ_BUILD:-build-san}"
timeout="${FUZZ_TIMEOUT:-10}"

targets() {
  for f in fuzz/fuzz_*.cpp fuzz/*_differential.cpp; do
    [ -e "$f" ] && basename "$f" .cpp
  done
  return 0
}

if [ "${1:-}" = list ]; then targets; exit 0; fi
if [ $# -ne 2 ] || ! [[ "$2" =~ ^[0-9]+$ ]]; then
  echo "usage: scripts/fuzz.sh TARGET|all SECONDS  (targets: $(targets | tr '\n' ' '))" >&2
  exit 2
fi
if [ "$1" = all ]; then
  mapfile -t run < <(targets)
else
  [[ " $(targets | tr '\n' ' ') " == *" $1 "* ]] || { echo "fuzz.sh: no target $1 (see scripts/fuzz.sh list)" >&2; exit 2; }
  run=("$1")
fi
seconds="$2"

if ! command -v clang++ >/dev/null; then
  echo "fuzz.sh: clang++ is needed (scripts/deps.sh installs clang and libclang-rt-dev)" >&2
  exit 2
fi
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=clang++ \
  -DHINTKIT_SANITIZE=address,undefined -DHINTKIT_FUZZ=ON -DHINTKIT_BUILD_BENCH=OFF >/dev/null
cmake --build "$build" -j "${FUZZ_JOBS:-$(nproc)}" --target "${run[@]}"

# Seeds are made afresh for each run (so they follow the fixtures), in a folder of this run's.
seeds="$build/fuzz/seeds.$$"
trap 'rm -rf "$seeds"' EXIT
python3 fuzz/make_seeds.py "$seeds" >/dev/null
mkdir -p "$build/fuzz/artifacts"

status=0
for t in "${run[@]}"; do
  corpus="$build/fuzz/corpus/$t"
  mkdir -p "$corpus" "$seeds/$t"
  log="$build/fuzz/$t.log"
  echo "== $t: ${seconds}s from $(ls "$seeds/$t" | wc -l) seeds and $(ls "$corpus" | wc -l) kept inputs"
  set +e
  # Leaks count as failures; UBSan findings abort (the build has no recovery).
  ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1}" \
  UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1}" \
    "$build/fuzz/$t" -max_total_time="$seconds" -timeout="$timeout" -rss_limit_mb=2048 \
    -print_final_stats=1 -artifact_prefix="$build/fuzz/artifacts/$t-" ${FUZZ_ARGS:-} \
    "$corpus" "$seeds/$t" >"$log" 2>&1
  rc=$?
  set -e
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  if [ $rc -ne 0 ]; then
    status=1
    grep -E "ERROR: |SUMMARY: |runtime error|Test unit written" "$log" | head -20 || true
    echo "== $t: FAILED after ${execs:-?} executions (log: $log)"
  else
    echo "== $t: ${execs:-?} executions, no crash, leak or timeout"
  fi
done
exit $status
