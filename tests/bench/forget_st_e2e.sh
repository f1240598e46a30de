#!/usr/bin/env bash
# End-to-end benchmark: `amn forget` of a generated BF16 safetensors model
# (tests/bench/make_big_bf16.py) to each safetensors family — bnb-nf4,
# bnb-nf4 --double-quant, bnb-int8, fp8 (channel, tensor), fp8-block-deepseek,
# w4a16, w8a16 — on all cores, next to `cp` of a file of that output's size,
# in one run: wall time, CPU time (user + sys) and peak RSS. The goal: forget
# ≤ 2 × cp, RSS ≤ 512 MiB. On a shared machine compare CPU times and ratios.
# Usage: tests/bench/forget_st_e2e.sh [GIB] [WORKDIR] [--one-weight]
#   --one-weight: the model is a single [R, 16384] weight of GIB GiB (peak RSS
#   must not grow with it).
#   AMN=path/to/amn (default: build/dev/app/amn/amn, else a Release build;
#   tests/bench/lib.sh).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
gib=${1:-1}
work=${2:-$(mktemp -d /tmp/amn-bench-st.XXXXXX)}
one=${3:-}
amn=$(bench_amn "$top/build/dev/app/amn/amn")
[ -f "$work/in/model.safetensors" ] || /usr/bin/python3 "$top/tests/bench/make_big_bf16.py" "$work/in" "$gib" $one
in_bytes=$(stat -c %s "$work/in/model.safetensors")
bench_warm "$work/in/model.safetensors"
echo "input: $((in_bytes >> 20)) MiB BF16, $(nproc) threads"
echo "| scheme | output MiB | forget wall (s) | forget CPU (s) | peak RSS (MiB) | cp wall (s) | cp CPU (s) | wall ratio | CPU ratio |"
echo "|---|---|---|---|---|---|---|---|---|"
while read -r label args; do
  rm -rf "$work/out" "$work/copy.bin" "$work/src.bin"
  read -r _ aw ac arss < <(bench_measure amn "$amn" forget --quiet "$work/in" $args -o "$work/out")
  out_bytes=$(du -cb "$work"/out/*.safetensors | tail -1 | cut -f1)
  # cp of the output size: the just-written output copied to a new file.
  cat "$work"/out/*.safetensors > "$work/src.bin"
  rm -rf "$work/out"
  read -r _ cw cc _ < <(bench_measure cp cp "$work/src.bin" "$work/copy.bin")
  rm -f "$work/copy.bin" "$work/src.bin"
  awk -v l="$label" -v ob="$out_bytes" -v aw="$aw" -v ac="$ac" -v r="$arss" -v cw="$cw" -v cc="$cc" 'BEGIN{
    printf "| %s | %d | %.2f | %.2f | %d | %.2f | %.2f | %.1f | %.1f |\n", l, ob/1048576, aw, ac, r/1024, cw, cc, aw/cw, ac/(cc>0.005?cc:0.005)}'
done <<'LIST'
bnb-nf4 --to bnb-nf4
bnb-nf4+dq --to bnb-nf4 --double-quant
bnb-int8 --to bnb-int8
fp8(channel) --to fp8
fp8(tensor) --to fp8 --granularity tensor
fp8-block-deepseek --to fp8-block-deepseek
w4a16(g128) --to w4a16
w8a16(g128) --to w8a16
LIST
