#!/usr/bin/env bash
# The whole test suite: install what is missing, build, run every test with ctest.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
scripts/build.sh
ctest --test-dir build --output-on-failure -j "$(nproc)"
