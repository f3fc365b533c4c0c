#!/usr/bin/env bash
# Benchmarks document overlays on template output against ytt v0.48.0.
#
# For each N in ${SIZES:-1000 4000}: writes N output documents and a file of overlays with
# bench/gen_overlay_workload.py, runs `values -f base.yml -f overlay.yml` through hintkit and
# the reference, checks the outputs are byte-identical, and prints the best wall time of
# ${RUNS:-3} runs for both, the speed-up, and how hintkit's time grows from the first size; the
# same for CPU time (user + sys), which a loaded machine disturbs less than wall time.
# Wall time is taken on runs of the command alone, CPU time on separate runs under `perf stat`:
# perf's own start-up (about 8 ms of CPU: it loads libpython, libperl and two dozen more) would
# otherwise count as the measured program's wall time, most of hintkit's at N=1000.
#
# Usage: YTT=/path/to/ytt scripts/bench_overlays.sh [path/to/hintkit]   (default: build/hintkit)
# Env:   SIZES="1000 4000"  RUNS=3  SKIP_YTT=1 (hintkit only)
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
bin="${1:-$root/build/hintkit}"
ytt="${YTT:-}"
sizes="${SIZES:-1000 4000}"
runs="${RUNS:-3}"
[[ -x "$bin" ]] || { echo "no hintkit binary at $bin (build it first)" >&2; exit 2; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

best_time() {  # best_time OUT CMD...: best wall and best CPU time in seconds of $runs runs each
  local out="$1"; shift
  local best="" cpu=""
  for _ in $(seq "$runs"); do
    local t0=${EPOCHREALTIME/./}
    "$@" >"$out" 2>"$work/err" || { echo "command failed: $*" >&2; cat "$work/err" >&2; return 1; }
    local t1=${EPOCHREALTIME/./}
    if [[ -n "$perf" ]]; then
      # task-clock in ms (the 10 ms steps of /usr/bin/time are too coarse here)
      "$perf" stat -x, -e task-clock -o "$work/time" "$@" >/dev/null 2>"$work/err" || {
        echo "command failed: $*" >&2; cat "$work/err" >&2; return 1; }
    else
      /usr/bin/time -f "%U %S" -o "$work/time" "$@" >/dev/null 2>"$work/err" || {
        echo "command failed: $*" >&2; cat "$work/err" >&2; return 1; }
    fi
    local t c
    t=$(awk "BEGIN{printf \"%.4f\", ($t1 - $t0) / 1e6}")
    if [[ -n "$perf" ]]; then
      c=$(awk -F, '/task-clock/{printf "%.4f", $1 / 1000}' "$work/time")
    else
      c=$(awk '{printf "%.3f", $1 + $2}' "$work/time")
    fi
    if [[ -z "$best" ]] || awk "BEGIN{exit !($t < $best)}"; then best="$t"; fi
    if [[ -z "$cpu" ]] || awk "BEGIN{exit !($c < $cpu)}"; then cpu="$c"; fi
  done
  echo "$best $cpu"
}

perf=""
if command -v perf >/dev/null && perf stat -e task-clock true >/dev/null 2>&1; then perf=$(command -v perf); fi
[[ -n "$perf" || -x /usr/bin/time ]] || { echo "perf or /usr/bin/time is required" >&2; exit 2; }
printf '%-6s %8s %8s %8s %10s | %9s %9s %8s %10s | %s\n' N ytt_s hk_s speedup hk_growth \
  ytt_cpu_s hk_cpu_s speedup hk_growth output
first="" first_cpu=""
for n in $sizes; do
  dir="$work/n$n"
  python3 "$root/bench/gen_overlay_workload.py" "$n" "$dir"
  args=(-f "$dir/base.yml" -f "$dir/overlay.yml")
  read -r ht hc < <(best_time "$dir/hk.out" "$bin" values "${args[@]}")
  [[ -z "$first" ]] && first="$ht" && first_cpu="$hc"
  growth=$(awk "BEGIN{printf \"%.2fx\", $ht / $first}")
  cgrowth=$(awk "BEGIN{printf \"%.2fx\", $hc / ($first_cpu > 0 ? $first_cpu : 1)}")
  if [[ -n "${SKIP_YTT:-}" || -z "$ytt" ]]; then
    printf '%-6s %8s %8.3f %8s %10s | %9s %9.3f %8s %10s | %s\n' "$n" - "$ht" - "$growth" - "$hc" - \
      "$cgrowth" unchecked
    continue
  fi
  read -r yt yc < <(best_time "$dir/ytt.out" "$ytt" "${args[@]}")
  same=identical
  cmp -s "$dir/hk.out" "$dir/ytt.out" || same=DIFFERENT
  printf '%-6s %8.3f %8.3f %7.1fx %10s | %9.3f %9.3f %7.1fx %10s | %s\n' "$n" "$yt" "$ht" \
    "$(awk "BEGIN{print $yt / $ht}")" "$growth" "$yc" "$hc" \
    "$(awk "BEGIN{print $yc / ($hc > 0 ? $hc : 0.001)}")" "$cgrowth" "$same"
done
