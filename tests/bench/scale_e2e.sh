#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# How the cost of Hugging Face folder → GGUF grows with the model (issue 30):
# generated folders of about SIZES GB (default "1 4 16") of each KIND
#   dense    llama-shaped BF16 (make_big_hf_llama.py: hidden 2048, 32/4 heads,
#            intermediate 5632; the layers set the size)
#   moe      Mixtral-shaped BF16, 128 experts of 512×1024 per layer (make_big_hf_moe.py:
#            128 MiB stacked tensors; the layers set the size)
#   fp8moe   DeepSeek-V3-shaped FP8 with 128×128 block scales, 64 experts per
#            layer (make_big_hf_deepseek_fp8.py): experts the converter dequantizes
# each converted once by every row, in one run:
#   amn-bf16     amn convert DIR --to gguf:BF16
#   py-bf16      convert_hf_to_gguf.py DIR --outtype bf16
#   cp+sync      cp of the BF16 output to a new file, then sync of that file
#   amn-q4km     amn forget DIR --to gguf:Q4_K_M (one pass)
#   py+quantize  convert_hf_to_gguf.py --outtype bf16, then llama-quantize Q4_K_M
# wall time and peak RSS (/usr/bin/time; py+quantize: the sum of the times,
# the larger RSS). One run per cell (RUNS=1; a 16 GB row takes minutes);
# `sync` and a warm-up read of the input before each size. Then the bytes:
# amn's BF16 = the converter's, amn's Q4_K_M = llama-quantize of the
# converter's BF16 (cmp), printed per size. Inputs are made one at a time
# and removed after their size (DISK: about 3.5 × the size free is needed).
#
# Usage: tests/bench/scale_e2e.sh LLAMA_CPP LLAMA_BUILD HF_SHIM [WORKDIR]
#   (as hf_gguf_e2e.sh: the converter's source at 34af94cd9ab2, a llama.cpp
#   build with bin/llama-quantize, the transformers stand-in run_convert.py)
# Environment: SIZES, KINDS (default "dense moe fp8moe"), AMN, PYTHON,
#   ONLY=REGEX (rows), KEEP=1 (keep the inputs).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
if [ $# -lt 3 ]; then
  awk 'NR > 2 && /^#/ { sub(/^# ?/, ""); print; next } NR > 2 { exit }' "$0"
  exit 2
fi
llama_cpp=$(cd "$1" && pwd)
llama_build=$(cd "$2" && pwd)
hf_shim=$(cd "$3" && pwd)
work=${4:-/tmp/amn-bench-scale}
python=${PYTHON:-/usr/bin/python3}
quantize=$llama_build/bin/llama-quantize
nthreads=$(nproc)
amn=$(bench_amn)
fixtures=$top/../shared/fixtures/hf-gguf/inputs
mkdir -p "$work"

# make KIND GB DIR: the folder, its layers chosen for about GB gigabytes.
make_input() {
  local kind=$1 gb=$2 dir=$3
  case $kind in
    dense)  # ~88 MB per layer + 262 MB of embeddings
      "$python" "$top/tests/bench/make_big_hf_llama.py" "$dir" "$fixtures/Llama-2-7b-hf" \
        $(( (gb * 1000 - 262) / 88 > 1 ? (gb * 1000 - 262) / 88 : 1 )) ;;
    moe)    # ~410 MB per layer + 131 MB
      "$python" "$top/tests/bench/make_big_hf_moe.py" "$dir" "$fixtures/Mixtral-8x7B-v0.1" 128 \
        $(( (gb * 1000 - 131) / 410 > 1 ? (gb * 1000 - 131) / 410 : 1 )) $(( gb > 4 ? gb : 3 )) ;;
    fp8moe) # ~105 MB per MoE layer + 622 MB of embeddings (Qwen3's vocabulary)
      "$python" "$top/tests/bench/make_big_hf_deepseek_fp8.py" "$dir" "$fixtures/Qwen3-0.6B" \
        $(( (gb * 1000 - 622) / 105 > 2 ? (gb * 1000 - 622) / 105 : 2 )) 64 $(( gb > 4 ? gb : 3 )) ;;
  esac > /dev/null
}

run_row() {  # LABEL NAME: one run, its output removed first
  local in=$work/$2
  case $1 in
    amn-bf16) rm -f "$work/amn.bf16.gguf"; sync
      bench_measure "$1" "$amn" convert --quiet "$in" --to gguf:BF16 -o "$work/amn.bf16.gguf" 2>/dev/null ;;
    py-bf16) rm -f "$work/py.bf16.gguf"; sync
      (cd "$work" && bench_measure "$1" "$python" "$hf_shim/run_convert.py" "$llama_cpp" "$2" --outtype bf16 --outfile "$work/py.bf16.gguf" 2>/dev/null) ;;
    cp+sync) rm -f "$work/copy.bin"; sync
      bench_measure "$1" sh -c "cp '$work/py.bf16.gguf' '$work/copy.bin' && sync '$work/copy.bin'"
      rm -f "$work/copy.bin" ;;
    amn-q4km) rm -f "$work/amn.q4km.gguf"; sync
      bench_measure "$1" "$amn" forget --quiet "$in" --to gguf:Q4_K_M -o "$work/amn.q4km.gguf" 2>/dev/null ;;
    py+quantize) rm -f "$work/py.q4km.gguf"; sync
      local b
      b=$(bench_measure x "$quantize" "$work/py.bf16.gguf" "$work/py.q4km.gguf" Q4_K_M "$nthreads" 2>/dev/null)
      # the converter's part is py-bf16's row (its BF16 output is the input here)
      awk -v l="$1" -v a="$(grep "^py-bf16 " "$work/row.txt")" -v b="$b" 'BEGIN{split(a, x, " "); split(b, y, " ");
        printf "%s %s %s %s\n", l, x[2] + y[2], x[3] + y[3], (x[4] > y[4] ? x[4] : y[4])}' ;;
  esac
}
rows=(amn-bf16 py-bf16 cp+sync amn-q4km py+quantize)
if [ -n "${ONLY:-}" ]; then
  sel=(); for r in "${rows[@]}"; do grep -qE -- "$ONLY" <<<"$r" && sel+=("$r"); done; rows=("${sel[@]}")
fi

echo "$(grep -m1 "model name" /proc/cpuinfo | cut -d: -f2- | sed "s/^ //"), $nthreads threads; $("$amn" --version 2>&1 | paste -sd " ")"
echo
printf "| input | size |"; for r in "${rows[@]}"; do printf " %s s | %s RSS |" "$r" "$r"; done; echo " BF16 = converter | Q4_K_M = converter + llama-quantize |"
printf "|---|---|"; for r in "${rows[@]}"; do printf -- "---|---|"; done; echo "---|---|"
for kind in ${KINDS:-dense moe fp8moe}; do
  for gb in ${SIZES:-1 4 16}; do
    name="$kind-${gb}g"
    [ -f "$work/$name/config.json" ] || make_input "$kind" "$gb" "$work/$name"
    bytes=$(cat "$work/$name"/*.safetensors | wc -c)
    bench_warm "$work/$name"/*.safetensors
    : > "$work/row.txt"
    for r in "${rows[@]}"; do run_row "$r" "$name" >> "$work/row.txt"; done
    printf "| %s | %s GiB |" "$kind" "$(awk -v b="$bytes" 'BEGIN{printf "%.2f", b/1073741824}')"
    for r in "${rows[@]}"; do
      read -r _ wall _ rss < <(grep "^$r " "$work/row.txt")
      printf " %.1f | %s MiB |" "$wall" $((rss / 1024))
    done
    same() { [ -f "$1" ] && [ -f "$2" ] && cmp -s "$1" "$2" && echo identical || echo "DIFFERENT or missing"; }
    echo " $(same "$work/amn.bf16.gguf" "$work/py.bf16.gguf") | $(same "$work/amn.q4km.gguf" "$work/py.q4km.gguf") |"
    rm -f "$work"/*.gguf
    [ -n "${KEEP:-}" ] || rm -rf "${work:?}/$name"
  done
done
