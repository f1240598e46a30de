#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# The three end-to-end jobs of issue 25's AVX2 table, on each SIMD target
# (AMN_SIMD_TARGET pins every kernel; the bytes are the same on all), beside
# their yardsticks, in one run:
#   remember-T   amn remember of a 1 GiB FP8 128x128-block model -> 2 GiB BF16
#   cp+sync      cp of that 2 GiB output to a new file, then sync of the file
#   q8_0-T       amn forget of a 260 M-element llama-shaped F16 GGUF -> Q8_0
#   q4_k_m-T     the same -> Q4_K_M
#   lq-q8_0, lq-q4_k_m  llama-quantize of the same GGUF, NTHREADS threads
# for T in TARGETS (default "AVX3 AVX2", those this CPU runs), each RUNS times
# (default 3) after one unmeasured round, rows alternated round by round and
# the targets of each job in an order rotated round by round (the first run
# after the 2 GiB writes pays for them, whichever target it is), `sync` and
# a read of the input before each run. Wall and CPU (user + system) are medians; the
# ratios are medians of the per-round ratios. amn ends with fdatasync,
# llama-quantize does not.
# Usage: tests/bench/simd_targets_e2e.sh LLAMA_QUANTIZE [WORKDIR]
# Environment: RUNS, TARGETS, AMN (default: a Release build, lib.sh),
#   ONLY=REGEX: only the rows whose label matches (grep -E), e.g.
#   ONLY='remember|cp' (the ratios of rows left out are not printed).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
if [ $# -lt 1 ]; then
  awk 'NR > 2 && /^#/ { sub(/^# ?/, ""); print; next } NR > 2 { exit }' "$0"
  exit 2
fi
quantize=$1
work=${2:-/tmp/amn-bench-simd}
runs=${RUNS:-3}
nthreads=$(nproc)
amn=$(bench_amn)
targets=()
for t in ${TARGETS:-AVX3 AVX2}; do
  AMN_SIMD_TARGET=$t "$amn" --version > /dev/null 2>&1 && targets+=("$t") || echo "skipping $t: not on this CPU" >&2
done
mkdir -p "$work"
[ -f "$work/fp8/model.safetensors" ] || /usr/bin/python3 "$top/tests/bench/make_big_fp8.py" "$work/fp8" 1 > /dev/null
[ -f "$work/big-F16.gguf" ] || /usr/bin/python3 "$top/tests/bench/make_big_gguf.py" "$work/big-F16.gguf"

run_row() {  # LABEL: one run, its output removed first
  local t=${1##*-}
  case $1 in
    remember-*) rm -rf "$work/rem"; sync; bench_warm "$work/fp8/model.safetensors"
      AMN_SIMD_TARGET=$t bench_measure "$1" "$amn" remember --quiet "$work/fp8" -o "$work/rem" ;;
    cp+sync) rm -f "$work/copy.bin"; sync
      bench_measure "$1" sh -c "cp '$work/yard.safetensors' '$work/copy.bin' && sync '$work/copy.bin'" ;;
    q8_0-*|q4_k_m-*) rm -f "$work/out.gguf"; sync; bench_warm "$work/big-F16.gguf"
      local ft=${1%-*}
      AMN_SIMD_TARGET=$t bench_measure "$1" "$amn" forget --quiet "$work/big-F16.gguf" --to "gguf:${ft^^}" -o "$work/out.gguf" ;;
    lq-*) rm -f "$work/lq.gguf"; sync; bench_warm "$work/big-F16.gguf"
      local ft=${1#lq-}
      bench_measure "$1" "$quantize" "$work/big-F16.gguf" "$work/lq.gguf" "${ft^^}" "$nthreads" 2>/dev/null ;;
  esac
}
# The rows of round R: the targets of each job in an order rotated by R, so
# that the first run after the 2 GiB writes of remember and cp+sync (slower,
# whatever its target: the page cache and writeback settling) falls on every
# target in turn.
round_rows() {
  local k=$1 n=${#targets[@]} i
  local rot=()
  for ((i = 0; i < n; i++)); do rot+=("${targets[$(((i + k) % n))]}"); done
  rows=()
  for t in "${rot[@]}"; do rows+=("remember-$t"); done
  rows+=(cp+sync)
  for t in "${rot[@]}"; do rows+=("q8_0-$t"); done
  rows+=(lq-q8_0)
  for t in "${rot[@]}"; do rows+=("q4_k_m-$t"); done
  rows+=(lq-q4_k_m)
  if [ -n "${ONLY:-}" ]; then
    local kept=() r
    for r in "${rows[@]}"; do grep -qE -- "$ONLY" <<<"$r" && kept+=("$r"); done
    rows=("${kept[@]}")
  fi
}
round_rows 0

# The cp+sync yardstick: a file the size of remember's output.
[ -f "$work/yard.safetensors" ] || { "$amn" remember --quiet "$work/fp8" -o "$work/yard" && mv "$work/yard/model.safetensors" "$work/yard.safetensors" && rm -rf "$work/yard"; }
bench_warm "$work/fp8/model.safetensors" "$work/big-F16.gguf" "$work/yard.safetensors"
for r in "${rows[@]}"; do run_row "$r" > /dev/null; done
: > "$work/runs.txt"
for ((i = 1; i <= runs; i++)); do
  round_rows "$i"
  for r in "${rows[@]}"; do echo "$i $(run_row "$r")" >> "$work/runs.txt"; done
done
rm -rf "$work/rem" "$work/copy.bin" "$work/out.gguf" "$work/lq.gguf"

echo "$(grep -m1 "model name" /proc/cpuinfo | cut -d: -f2- | sed "s/^ //"), $nthreads threads; median of $runs runs"
echo
pairs=""
for t in "${targets[@]}"; do
  pairs+="remember-$t/cp+sync:≤ 1.0|lq-q8_0/q8_0-$t:≥ 3|lq-q4_k_m/q4_k_m-$t:≥ 6|"
done
bench_rounds_table "$work/runs.txt" "${pairs%|}"
