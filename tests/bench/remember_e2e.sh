#!/usr/bin/env bash
# End-to-end benchmark: `amn remember` on a generated FP8 model of >= 2 GiB,
# wall time, output MB/s and peak RSS, next to `cp` of the same input.
# Usage: tests/bench/remember_e2e.sh [GIB] [WORKDIR]   (Release build of amn,
#   or AMN=path/to/amn; tests/bench/lib.sh)
set -euo pipefail
. "$(dirname "$0")/lib.sh"
gib=${1:-2}
work=${2:-$(mktemp -d /tmp/amn-bench.XXXXXX)}
amn=$(bench_amn)
[ -f "$work/in/model.safetensors" ] || /usr/bin/python3 "$top/tests/bench/make_big_fp8.py" "$work/in" "$gib"
in_bytes=$(stat -c %s "$work/in/model.safetensors")
bench_warm "$work/in/model.safetensors"   # for both runs
rm -rf "$work/out" "$work/copy.safetensors"
read -r _ amn_s _ amn_rss < <(bench_measure amn "$amn" remember --quiet "$work/in" -o "$work/out")
out_bytes=$(stat -c %s "$work/out/model.safetensors")
read -r _ cp_s _ cp_rss < <(bench_measure cp cp "$work/in/model.safetensors" "$work/copy.safetensors")
rm -rf "$work/out" "$work/copy.safetensors"
echo "| run | input | output | wall (s) | output MiB/s | peak RSS |"
echo "|---|---|---|---|---|---|"
bench_row "amn remember (FP8 128x128 -> BF16, $(nproc) threads)" "$in_bytes" "$out_bytes" "$amn_s" "$out_bytes" "$amn_rss"
bench_row "cp of the input" "$in_bytes" "$in_bytes" "$cp_s" "$in_bytes" "$cp_rss"
