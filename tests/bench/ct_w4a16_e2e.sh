#!/usr/bin/env bash
# End-to-end benchmark: `amn remember` of a generated ~1 GiB compressed-tensors
# W4A16 model (pack-quantized, group 128) → BF16, wall time and peak RSS, next
# to `cp` of a file of the output's size (the goal: remember ≤ 1.5 × that cp,
# RSS ≤ 512 MiB). Both runs in one invocation; compare the ratio.
# Usage: tests/bench/ct_w4a16_e2e.sh [GIB] [WORKDIR]
#   AMN=path/to/amn (default: build/release/app/amn/amn, built by
#   scripts/setup.sh release amn; tests/bench/lib.sh).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
gib=${1:-1}
work=${2:-$(mktemp -d /tmp/amn-bench-ct.XXXXXX)}
amn=$(bench_amn)
[ -f "$work/in/model.safetensors" ] || /usr/bin/python3 "$top/tests/bench/make_big_ct.py" "$work/in" "$gib"
in_bytes=$(stat -c %s "$work/in/model.safetensors")
bench_warm "$work/in/model.safetensors"
rm -rf "$work/out" "$work/copy.bin" "$work/src.bin"
read -r _ amn_s _ amn_rss < <(bench_measure amn "$amn" remember --quiet "$work/in" -o "$work/out")
out_bytes=$(stat -c %s "$work/out/model.safetensors")
# cp of the output size: the just-written output itself (page-cache state as
# amn's writes left it) copied to a new file.
mv "$work/out/model.safetensors" "$work/src.bin"
rm -rf "$work/out"
read -r _ cp_s _ cp_rss < <(bench_measure cp cp "$work/src.bin" "$work/copy.bin")
rm -f "$work/copy.bin" "$work/src.bin"
echo "| run | input | output | wall (s) | output MiB/s | peak RSS |"
echo "|---|---|---|---|---|---|"
bench_row "amn remember (CT W4A16 g128 -> BF16, $(nproc) threads)" "$in_bytes" "$out_bytes" "$amn_s" "$out_bytes" "$amn_rss"
bench_row "cp of a file of the output size" "$out_bytes" "$out_bytes" "$cp_s" "$out_bytes" "$cp_rss"
awk -v a="$amn_s" -v c="$cp_s" 'BEGIN{printf "ratio remember / cp: %.2f (goal <= 1.5)\n", a/c}'
