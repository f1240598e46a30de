#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# End-to-end benchmark of Hugging Face folder → GGUF (issue 23): a ~1.1 GB
# BF16 llama-shaped HF folder (tests/bench/make_big_hf_llama.py: hidden 2048,
# 10 layers, intermediate 5632, 32/4 heads, vocab 32000, the real Llama 2
# SentencePiece tokenizer) converted, in one run, by
#   amn-bf16     amn convert DIR --to gguf:BF16
#   py-bf16      llama.cpp's convert_hf_to_gguf.py DIR --outtype bf16
#   cp+sync      cp of the BF16 output to a new file, then sync of that file
#   amn-q4km     amn forget DIR --to gguf:Q4_K_M (one pass)
#   py+quantize  convert_hf_to_gguf.py --outtype bf16, then
#                llama-quantize BF16.gguf OUT.gguf Q4_K_M NTHREADS
# each RUNS times (default 5) after one unmeasured warm-up round, the rows
# alternated run by run (A B C D E A B C D E …: a drift of the shared
# machine's speed hits every row alike), `sync` before each run; wall time,
# CPU time (user + system) and peak RSS (/usr/bin/time; for py+quantize the
# larger of the two processes) are medians, the ratios are the medians of the
# per-round ratios. amn ends with fdatasync; the converter and llama-quantize
# do not (cp+sync is the yardstick for a durable copy).
# Then the byte-identity checks: amn's BF16 output = the converter's (cmp),
# amn's Q4_K_M = llama-quantize of the converter's BF16 (cmp).
# Goals (issue 23): BF16 ≥ 4× faster than the converter and ≤ 1.5× cp+sync;
# Q4_K_M ≥ 8× faster than converter + llama-quantize; peak RSS ≤ 256 MiB.
#
# Usage: tests/bench/hf_gguf_e2e.sh LLAMA_CPP LLAMA_BUILD HF_SHIM [WORKDIR]
#   LLAMA_CPP    convert_hf_to_gguf.py, conversion/ and gguf-py/ of llama.cpp
#                (the hf-gguf fixtures' commit, 34af94cd9ab2)
#   LLAMA_BUILD  a llama.cpp build tree with bin/llama-quantize
#   HF_SHIM      the transformers stand-in the fixtures were made with
#                (run_convert.py; ../shared/fixtures/hf-gguf/README.md)
#   WORKDIR      default /tmp/amn-bench-hf (the input is kept there and reused)
# Environment: RUNS (default 5); AMN (default: a Release build, lib.sh);
#   LAYERS (default 10); TOKDIR (a Llama 2 tokenizer folder, default
#   ../shared/fixtures/hf-gguf/inputs/Llama-2-7b-hf); ONLY=REGEX (rows whose
#   label matches); PYTHON (default /usr/bin/python3).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
if [ $# -lt 3 ]; then
  awk 'NR > 2 && /^#/ { sub(/^# ?/, ""); print; next } NR > 2 { exit }' "$0"
  exit 2
fi
llama_cpp=$(cd "$1" && pwd)
llama_build=$(cd "$2" && pwd)
hf_shim=$(cd "$3" && pwd)
work=${4:-/tmp/amn-bench-hf}
runs=${RUNS:-5}
python=${PYTHON:-/usr/bin/python3}
tokdir=${TOKDIR:-$top/../shared/fixtures/hf-gguf/inputs/Llama-2-7b-hf}
quantize=$llama_build/bin/llama-quantize
nthreads=$(nproc)
amn=$(bench_amn)
name=Llama-bench
in=$work/$name
mkdir -p "$work"
[ -f "$in/model.safetensors" ] || "$python" "$top/tests/bench/make_big_hf_llama.py" "$in" "$tokdir" "${LAYERS:-10}"
in_bytes=$(stat -c %s "$in/model.safetensors")

# The commands, by label. The converter is given the bare folder name from
# the folder's parent (it derives general.name from it), as amn is given the
# path whose last component is that name.
run_row() {  # LABEL: one run, its outputs removed first
  case $1 in
    amn-bf16) rm -f "$work/amn.bf16.gguf"; sync
      bench_measure "$1" "$amn" convert --quiet "$in" --to gguf:BF16 -o "$work/amn.bf16.gguf" 2>/dev/null ;;
    py-bf16) rm -f "$work/py.bf16.gguf"; sync
      (cd "$work" && bench_measure "$1" "$python" "$hf_shim/run_convert.py" "$llama_cpp" "$name" --outtype bf16 --outfile "$work/py.bf16.gguf" 2>/dev/null) ;;
    cp+sync) rm -f "$work/copy.bin"; sync
      bench_measure "$1" sh -c "cp '$work/ref.bf16.gguf' '$work/copy.bin' && sync '$work/copy.bin'" ;;
    amn-q4km) rm -f "$work/amn.q4km.gguf"; sync
      bench_measure "$1" "$amn" forget --quiet "$in" --to gguf:Q4_K_M -o "$work/amn.q4km.gguf" 2>/dev/null ;;
    py+quantize) rm -f "$work/pyq.bf16.gguf" "$work/py.q4km.gguf"; sync
      local a b
      a=$(cd "$work" && bench_measure x "$python" "$hf_shim/run_convert.py" "$llama_cpp" "$name" --outtype bf16 --outfile "$work/pyq.bf16.gguf" 2>/dev/null)
      b=$(bench_measure x "$quantize" "$work/pyq.bf16.gguf" "$work/py.q4km.gguf" Q4_K_M "$nthreads" 2>/dev/null)
      rm -f "$work/pyq.bf16.gguf"
      awk -v l="$1" -v a="$a" -v b="$b" 'BEGIN{split(a, x, " "); split(b, y, " ");
        printf "%s %s %s %s\n", l, x[2] + y[2], x[3] + y[3], (x[4] > y[4] ? x[4] : y[4])}' ;;
  esac
}
rows=(amn-bf16 py-bf16 cp+sync amn-q4km py+quantize)
if [ -n "${ONLY:-}" ]; then
  sel=(); for r in "${rows[@]}"; do grep -qE -- "$ONLY" <<<"$r" && sel+=("$r"); done; rows=("${sel[@]}")
fi

# The yardstick file for cp+sync: the converter's BF16 output (the size of
# amn's).
[ -f "$work/ref.bf16.gguf" ] || (cd "$work" && "$python" "$hf_shim/run_convert.py" "$llama_cpp" "$name" --outtype bf16 --outfile "$work/ref.bf16.gguf" >/dev/null 2>&1)
out_bytes=$(stat -c %s "$work/ref.bf16.gguf")
bench_warm "$in/model.safetensors" "$in"/tokenizer* "$work/ref.bf16.gguf"

# One unmeasured round first, then RUNS measured rounds.
for r in "${rows[@]}"; do run_row "$r" > /dev/null; done
: > "$work/runs.txt"
for ((i = 1; i <= runs; i++)); do
  for r in "${rows[@]}"; do echo "$i $(run_row "$r")" >> "$work/runs.txt"; done
done
q4_bytes=$(stat -c %s "$work/amn.q4km.gguf" 2>/dev/null || echo 0)

echo "input: $name, $((in_bytes >> 20)) MiB BF16 safetensors; BF16 GGUF $((out_bytes >> 20)) MiB, Q4_K_M GGUF $((q4_bytes >> 20)) MiB"
echo "$(grep -m1 "model name" /proc/cpuinfo | cut -d: -f2- | sed "s/^ //"), $nthreads threads; $("$amn" --version 2>&1 | paste -sd " ")"
echo "median of $runs runs (rows alternated, sync before each run)"
echo
bench_rounds_table "$work/runs.txt" "py-bf16/amn-bf16:≥ 4|amn-bf16/cp+sync:≤ 1.5|py+quantize/amn-q4km:≥ 8"

# Byte identity.
echo
if [ -f "$work/amn.bf16.gguf" ] && [ -f "$work/py.bf16.gguf" ]; then
  cmp "$work/amn.bf16.gguf" "$work/py.bf16.gguf" && echo "BF16: amn = convert_hf_to_gguf.py (cmp: identical, $out_bytes bytes)"
fi
if [ -f "$work/amn.q4km.gguf" ] && [ -f "$work/py.q4km.gguf" ]; then
  cmp "$work/amn.q4km.gguf" "$work/py.q4km.gguf" && echo "Q4_K_M: amn forget = convert_hf_to_gguf.py + llama-quantize (cmp: identical, $q4_bytes bytes)"
fi
rm -f "$work/copy.bin"
