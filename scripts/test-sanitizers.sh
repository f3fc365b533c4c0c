#!/usr/bin/env bash
# The slow half of CI, after scripts/test.sh: the whole suite again under AddressSanitizer +
# UndefinedBehaviorSanitizer with leak detection (clang, in build-san/, warnings as errors), then
# every fuzz target briefly on its seeds (scripts/fuzz.sh).
# HINTKIT_FUZZ_SECONDS sets the fuzzing time per target (default 20; 0 skips fuzzing).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh

# Leak detection is on: Starlark's reference cycles (functions <-> module globals, closures,
# containers that hold themselves) are freed by starlark/cycles.cpp. HINTKIT_LSAN=0 turns it off.
leaks="${HINTKIT_LSAN:-1}"
echo "== ASan+UBSan build (build-san): the whole suite (leak detection: $leaks)"
cmake -S . -B build-san -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=clang++ \
  -DHINTKIT_SANITIZE=address,undefined -DHINTKIT_FUZZ=ON -DHINTKIT_BUILD_BENCH=OFF \
  -DHINTKIT_WERROR=ON >/dev/null
cmake --build build-san -j "$(nproc)"
ASAN_OPTIONS=detect_leaks=$leaks:strict_string_checks=1:detect_stack_use_after_return=1 \
UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest --test-dir build-san --output-on-failure -j "$(nproc)"

seconds="${HINTKIT_FUZZ_SECONDS:-20}"
if [ "$seconds" -gt 0 ]; then
  echo "== every fuzz target, ${seconds}s each, from its seeds"
  for target in $(scripts/fuzz.sh list); do
    ASAN_OPTIONS="detect_leaks=$leaks:allocator_may_return_null=1" \
      FUZZ_BUILD=build-san scripts/fuzz.sh "$target" "$seconds"
  done
fi
