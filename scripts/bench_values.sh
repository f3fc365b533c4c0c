#!/usr/bin/env bash
# Benchmarks `hintkit values` against ytt v0.48.0 on the shared schema workload.
#
# For each N in ${SIZES:-100 400 1600 6400}: generates the workload with
# ../shared/bench/gen-schema-workload.py, runs
#   <bin> values -f schema.yaml -f values.yaml --data-values-inspect   (hintkit)
#   ytt -f schema.yaml -f values.yaml --data-values-inspect           (oracle)
# checks the outputs are byte-identical, and prints wall time (best of ${RUNS:-3}) and peak RSS
# (/usr/bin/time -f %M) for both, plus the speed-up and memory ratio.
#
# Usage: scripts/bench_values.sh [path/to/hintkit]     (default: build/hintkit)
# Env:   SIZES="1600 6400"  RUNS=3  YTT=/path/to/ytt (the reference; required unless SKIP_YTT=1, hintkit only)
#        SETTLE=2 (seconds to wait before timing hintkit, after the previous size's ytt run)
#        SHARED=/path/to/shared (default: ../shared beside the checkout)
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
bin="${1:-$root/build/hintkit}"
# The workload generator ships beside the checkout (../shared); SHARED names it from elsewhere
# (a worktree, a copy of the repository).
shared="${SHARED:-$root/../shared}"
gen="$shared/bench/gen-schema-workload.py"
if [[ -z "${SKIP_YTT:-}" ]]; then
  ytt="${YTT:?set YTT to the reference ytt v0.48.0 binary (or SKIP_YTT=1 for hintkit only)}"
  [[ -x "$ytt" ]] || { echo "YTT=$ytt is not an executable" >&2; exit 2; }
else
  ytt=""
fi
sizes="${SIZES:-100 400 1600 6400}"
runs="${RUNS:-3}"

[[ -x "$bin" ]] || { echo "no hintkit binary at $bin (build it first)" >&2; exit 2; }
[[ -f "$gen" ]] || { echo "workload generator not found: $gen (set SHARED to the shared folder)" >&2; exit 2; }
[[ -x /usr/bin/time ]] || { echo "/usr/bin/time is required" >&2; exit 2; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# measure OUT CMD...: best wall time (s) of $runs runs and the peak RSS (KB) of the last one.
measure() {
  local out="$1"; shift
  local best="" t m
  for _ in $(seq "$runs"); do
    # Wall time in microseconds from bash's clock (/usr/bin/time only has 10 ms steps).
    local t0=${EPOCHREALTIME/./}
    /usr/bin/time -f "%M" -o "$work/time" "$@" >"$out" 2>"$work/err" || {
      echo "command failed: $*" >&2; cat "$work/err" >&2; return 1; }
    local t1=${EPOCHREALTIME/./}
    t=$(awk "BEGIN{printf \"%.4f\", ($t1 - $t0) / 1e6}")
    read -r m <"$work/time"
    if [[ -z "$best" ]] || awk "BEGIN{exit !($t < $best)}"; then best="$t"; fi
  done
  echo "$best $m"
}

printf '%-6s %10s %10s %10s %10s %9s %9s %s\n' N ytt_s ytt_MB hk_s hk_MB speedup mem_ratio output
declare -A hk_time
for n in $sizes; do
  dir="$work/n$n"
  python3 "$gen" "$n" "$dir" >/dev/null
  args=(-f "$dir/schema.yaml" -f "$dir/values.yaml" --data-values-inspect)
  # Let the kernel finish tearing down the previous (ytt) process before timing.
  sleep "${SETTLE:-2}"
  read -r ht hm < <(measure "$dir/hk.out" "$bin" values "${args[@]}")
  hk_time[$n]="$ht"
  if [[ -n "${SKIP_YTT:-}" ]]; then
    printf '%-6s %10s %10s %10.3f %10.1f %9s %9s %s\n' "$n" - - "$ht" "$(awk "BEGIN{print $hm/1024}")" - - unchecked
    continue
  fi
  read -r yt ym < <(RUNS=1 runs=1 measure "$dir/ytt.out" "$ytt" "${args[@]}")
  same=identical
  cmp -s "$dir/hk.out" "$dir/ytt.out" || same=DIFFERENT
  printf '%-6s %10.2f %10.1f %10.3f %10.1f %8.1fx %8.1fx %s\n' "$n" "$yt" \
    "$(awk "BEGIN{print $ym/1024}")" "$ht" "$(awk "BEGIN{print $hm/1024}")" \
    "$(awk "BEGIN{print $yt/($ht>0?$ht:0.001)}")" "$(awk "BEGIN{print $ym/$hm}")" "$same"
done
if [[ -n "${hk_time[1600]:-}" && -n "${hk_time[6400]:-}" ]]; then
  echo "hintkit N=6400 / N=1600 time: $(awk "BEGIN{printf \"%.2f\", ${hk_time[6400]}/(${hk_time[1600]}>0?${hk_time[1600]}:0.001)}")x (target <= 4.5x)"
fi
