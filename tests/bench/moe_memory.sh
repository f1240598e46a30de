#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# Peak memory of MoE expert stacking (issue 30): Mixtral-shaped BF16 folders
# (tests/bench/make_big_hf_moe.py: hidden 1024, expert intermediate 512,
# 2 layers, 3 shards) with 128 and 256 experts per layer — each stacked
# ffn_{gate,up,down}_exps tensor 128 MiB and 256 MiB — through
#   convert   amn convert DIR --to gguf:BF16
#   forget    amn forget DIR --to gguf:Q4_K_M
#   mlx       amn forget DIR --to mlx (4-bit group 64, experts stacked into
#             switch_mlp as mlx_lm's sanitize does: issue 33)
# at 1 thread and at every core; peak RSS (/usr/bin/time) and wall time of
# one run each (after a warm-up read of the input). The goal: no row above
# LIMIT_MIB (default 96) whatever the experts and threads; exit 1 otherwise.
# The bytes are checked elsewhere (test_cli_hf_gguf: the Mixtral fixture's
# stacked experts against convert_hf_to_gguf.py); here the BF16 outputs of
# both thread counts must be equal (cmp), and so must the MLX folders.
#
# Usage: tests/bench/moe_memory.sh [WORKDIR]   (default /tmp/amn-bench-moe;
#   inputs are kept there and reused, about 2.6 GB)
# Environment: AMN (default: a Release build, lib.sh); EXPERTS (default
#   "128 256"); LIMIT_MIB; TOKDIR (a Mixtral tokenizer folder, default the
#   hf-gguf fixture inputs/Mixtral-8x7B-v0.1).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
work=${1:-/tmp/amn-bench-moe}
limit=${LIMIT_MIB:-96}
tokdir=${TOKDIR:-$top/../shared/fixtures/hf-gguf/inputs/Mixtral-8x7B-v0.1}
amn=$(bench_amn)
mkdir -p "$work"
nthreads=$(nproc)
fail=0
echo "| experts | stacked tensor | job | threads | wall (s) | peak RSS |"
echo "|---|---|---|---|---|---|"
for e in ${EXPERTS:-128 256}; do
  dir="$work/moe-$e"
  [ -f "$dir/config.json" ] || /usr/bin/python3 "$top/tests/bench/make_big_hf_moe.py" "$dir" "$tokdir" "$e" 2 3 > /dev/null
  bench_warm "$dir"/*.safetensors
  for job in convert forget mlx; do
    for t in 1 "$nthreads"; do
      out="$work/out-$e-$job-$t.gguf"
      rm -rf "$out" "$work/out-$e-$job-$t"
      if [ "$job" = convert ]; then
        read -r _ wall _ rss < <(bench_measure x "$amn" convert "$dir" --to gguf:BF16 -o "$out" --threads "$t" -q)
      elif [ "$job" = forget ]; then
        read -r _ wall _ rss < <(bench_measure x "$amn" forget "$dir" --to gguf:Q4_K_M -o "$out" --threads "$t" -q)
      else
        read -r _ wall _ rss < <(bench_measure x "$amn" forget "$dir" --to mlx -o "$work/out-$e-$job-$t" --threads "$t" -q)
      fi
      printf "| %s | %s MiB | %s | %s | %.2f | %s MiB |\n" "$e" "$e" "$job" "$t" "$wall" $((rss / 1024))
      [ $((rss / 1024)) -le "$limit" ] || fail=1
    done
  done
  cmp "$work/out-$e-convert-1.gguf" "$work/out-$e-convert-$nthreads.gguf" || { echo "BF16 outputs differ between thread counts" >&2; fail=1; }
  diff -r "$work/out-$e-mlx-1" "$work/out-$e-mlx-$nthreads" > /dev/null || { echo "MLX outputs differ between thread counts" >&2; fail=1; }
  rm -rf "$work"/out-"$e"-*
done
[ "$fail" = 0 ] || { echo "a row is above $limit MiB (or the outputs differ)" >&2; exit 1; }
