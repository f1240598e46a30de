#!/usr/bin/env bash
# End-to-end benchmark for ONNX (issue 33): `amn remember` of a generated
# MatMulNBits int4 model (group 32, F16 scales, packed zero points, weights in
# external data; ~GIB GiB of BF16 output) beside `cp` + `sync` of the output
# (the goal: ≤ 1.0×), with peak RSS (the goal: ≤ 64 MiB).
# Usage: tests/bench/onnx_e2e.sh [GIB] [WORKDIR]
# (Release build of amn in build/release, or AMN=path/to/amn; tests/bench/lib.sh.)
set -euo pipefail
. "$(dirname "$0")/lib.sh"
gib=${1:-1}
work=${2:-$(mktemp -d /tmp/amn-bench-onnx.XXXXXX)}
py=/usr/bin/python3
amn=$(bench_amn)
[ -f "$work/in/model.onnx_data" ] || "$py" "$top/tests/bench/make_big_onnx.py" "$work/in" "$gib" >&2
in_bytes=$(( $(stat -c %s "$work/in/model.onnx") + $(stat -c %s "$work/in/model.onnx_data") ))

echo "| run | input | output | wall (s) | MiB/s | peak RSS |"
echo "|---|---|---|---|---|---|"
rm -f "$work/out.safetensors"
bench_warm "$work/in/model.onnx" "$work/in/model.onnx_data"
read -r _ s _ rss < <(bench_measure amn "$amn" remember --quiet "$work/in/model.onnx" -o "$work/out.safetensors")
out_bytes=$(stat -c %s "$work/out.safetensors")
bench_row "amn remember (ONNX MatMulNBits int4 g32 → BF16, $(nproc) threads)" "$in_bytes" "$out_bytes" "$s" "$out_bytes" "$rss"
rm -f "$work/copy"
read -r _ s _ rss < <(bench_measure cpsync sh -c 'cp "$1" "$2" && sync "$2"' sh "$work/out.safetensors" "$work/copy")
bench_row "cp + sync of the output" "$out_bytes" "$out_bytes" "$s" "$out_bytes" "$rss"
rm -f "$work/copy" "$work/out.safetensors"
