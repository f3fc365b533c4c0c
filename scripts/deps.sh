#!/usr/bin/env bash
# Installs the Debian packages hintkit builds with, when any is missing (root or sudo).
set -euo pipefail
# libyaml-cpp-dev: only the YAML reader's cross-check in the tests and the yaml_differential fuzz
# target link it (an independent parser); hintkit itself does not.
packages=(g++ cmake make pkg-config libyaml-cpp-dev libre2-dev libcli11-dev libboost-dev
          libmimalloc-dev nlohmann-json3-dev libtoml11-dev libgtest-dev libbenchmark-dev python3 python3-yaml
          python3-jsonschema neovim clang libclang-rt-dev  # clang: sanitizer builds and libFuzzer (scripts/fuzz.sh)
          zsh fish)  # the completion scripts' syntax checks (tests/plugin/cli_surface_test.cpp)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
echo "installing: ${missing[*]}"
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
