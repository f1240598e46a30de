#!/usr/bin/env bash
# End-to-end benchmark: `amn forget` of a generated llama-shaped F16 GGUF
# (260 M elements, the model of shared/bench/ggml-quantize.md) to Q8_0 and
# Q4_K_M on all cores: wall time and peak RSS, next to `cp` of the output.
# Usage: tests/bench/forget_e2e.sh [WORKDIR]   (Release build of amn, or
#   AMN=path/to/amn; tests/bench/lib.sh)
set -euo pipefail
. "$(dirname "$0")/lib.sh"
work=${1:-$(mktemp -d /tmp/amn-bench.XXXXXX)}
amn=$(bench_amn)
[ -f "$work/big-F16.gguf" ] || /usr/bin/python3 "$top/tests/bench/make_big_gguf.py" "$work/big-F16.gguf"
bench_warm "$work/big-F16.gguf"
echo "| run | output | wall (s) | peak RSS |"
echo "|---|---|---|---|"
for ft in Q8_0 Q4_K_M; do
  rm -f "$work/out.gguf" "$work/copy.gguf"
  read -r _ s _ rss < <(bench_measure amn "$amn" forget --quiet "$work/big-F16.gguf" --to "gguf:$ft" -o "$work/out.gguf")
  bytes=$(stat -c %s "$work/out.gguf")
  read -r _ cs _ crss < <(bench_measure cp sh -c "cp '$work/out.gguf' '$work/copy.gguf' && sync '$work/copy.gguf'")
  printf "| amn forget F16 -> %s (%s threads) | %s MiB | %.2f | %s MiB |\n" "$ft" "$(nproc)" $((bytes >> 20)) "$s" $((rss / 1024))
  printf "| cp + sync of that output | %s MiB | %.2f | %s MiB |\n" $((bytes >> 20)) "$cs" $((crss / 1024))
done
rm -f "$work/out.gguf" "$work/copy.gguf"
