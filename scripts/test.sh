#!/usr/bin/env bash
# The test suite a contributor runs after a change: install what is missing, build hintkit and
# every test into build-test/ (warnings are errors: -DHINTKIT_WERROR=ON) and run them all with
# ctest. build-test/ is built for testing, not for speed: -O1 and no benchmarks compile in 75% of
# the CPU time of the Release build (-O0 compiles faster still but runs the suite three times
# slower: more in total), and the suite runs the same tests on the same code.
# The sanitizer suite and the fuzz smoke run are scripts/test-sanitizers.sh; CI (.ci/run) runs
# this script, then that one. ccache is used when it is installed.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
launcher=()
if command -v ccache >/dev/null; then launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); fi
cmake -S . -B build-test -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS_RELEASE="-O1 -DNDEBUG" \
  -DHINTKIT_BUILD_BENCH=OFF -DHINTKIT_WERROR=ON "${launcher[@]}" >/dev/null
cmake --build build-test -j "$(nproc)"
ctest --test-dir build-test --output-on-failure -j "$(nproc)"
