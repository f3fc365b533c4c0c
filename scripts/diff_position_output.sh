#!/usr/bin/env bash
# The differential generators again with `-o pos` given to both programs (added after their
# own arguments, so a generator's `-o json` still comes first and wins, as ytt's flag list
# does): every position ytt's FilePositionPrinter shows is compared. Cases where ytt panics
# (a map made by Starlark) are refusals for hintkit.
#
#   YTT=path/to/ytt scripts/diff_position_output.sh [HINTKIT] [--count N] [--seed S]
set -euo pipefail
: "${YTT:?set YTT to the reference ytt v0.48.0 binary}"
HERE=$(cd "$(dirname "$0")" && pwd)
HINTKIT=$(realpath "${1:-build/hintkit}")
[[ $# -gt 0 ]] && shift
args=("$@")
[[ ${#args[@]} -gt 0 ]] || args=(--count 100 --seed 201)
wrappers=$(mktemp -d)
trap 'rm -rf "$wrappers"' EXIT
printf '#!/bin/sh\nexec "%s" "$@" -o pos\n' "$(realpath "$YTT")" >"$wrappers/ytt"
printf '#!/bin/sh\nexec "%s" "$@" -o pos\n' "$HINTKIT" >"$wrappers/hintkit"
chmod +x "$wrappers/ytt" "$wrappers/hintkit"
for s in diff_templates diff_text_templates diff_starlark diff_schemas diff_overlays diff_builtins; do
  YTT="$wrappers/ytt" python3 "$HERE/$s.py" "$wrappers/hintkit" "${args[@]}" | tail -1
done
YTT="$wrappers/ytt" python3 "$HERE/diff_directives.py" "$wrappers/hintkit" | tail -1
