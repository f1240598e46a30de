#!/usr/bin/env bash
# End-to-end benchmark for MLX folders (issue 33): `amn remember` of a
# generated MLX 4-bit folder (group 64, BF16 scales and biases; ~GIB GiB of
# BF16 output) beside `cp` + `sync` of the output (the goal: ≤ 1.0×), with
# peak RSS (the goal: ≤ 64 MiB). Usage: tests/bench/mlx_e2e.sh [GIB] [WORKDIR]
# (Release build of amn in build/release, or AMN=path/to/amn; tests/bench/lib.sh.)
set -euo pipefail
. "$(dirname "$0")/lib.sh"
gib=${1:-1}
work=${2:-$(mktemp -d /tmp/amn-bench-mlx.XXXXXX)}
py=/usr/bin/python3
amn=$(bench_amn)
[ -f "$work/in/model.safetensors" ] || "$py" "$top/tests/bench/make_big_mlx.py" "$work/in" "$gib" >&2
in_bytes=$(stat -c %s "$work/in/model.safetensors")

echo "| run | input | output | wall (s) | MiB/s | peak RSS |"
echo "|---|---|---|---|---|---|"
rm -rf "$work/out"
bench_warm "$work/in/model.safetensors"
read -r _ s _ rss < <(bench_measure amn "$amn" remember --quiet "$work/in" -o "$work/out")
out_bytes=$(stat -c %s "$work/out/model.safetensors")
bench_row "amn remember (MLX 4-bit g64 → BF16, $(nproc) threads)" "$in_bytes" "$out_bytes" "$s" "$out_bytes" "$rss"
rm -f "$work/copy"
read -r _ s _ rss < <(bench_measure cpsync sh -c 'cp "$1" "$2" && sync "$2"' sh "$work/out/model.safetensors" "$work/copy")
bench_row "cp + sync of the output" "$out_bytes" "$out_bytes" "$s" "$out_bytes" "$rss"
rm -rf "$work/copy" "$work/out"
