#!/usr/bin/env bash
# End-to-end benchmark: `amn remember` on a generated FP8 model of >= 2 GiB,
# wall time, output MB/s and peak RSS, next to `cp` of the same input.
# Usage: tests/bench/remember_e2e.sh [GIB] [WORKDIR]   (Release build of amn)
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
gib=${1:-2}
work=${2:-$(mktemp -d /tmp/amn-bench.XXXXXX)}
"$top/scripts/setup.sh" release amn >/dev/null 2>&1 || "$top/scripts/setup.sh" release amn
amn="$top/build/release/app/amn/amn"
[ -f "$work/in/model.safetensors" ] || /usr/bin/python3 "$top/tests/bench/make_big_fp8.py" "$work/in" "$gib"
in_bytes=$(stat -c %s "$work/in/model.safetensors")
cat "$work/in/model.safetensors" > /dev/null   # warm the page cache for both runs

measure() {  # label, command...
  local label=$1; shift
  local t0 t1
  t0=$(date +%s.%N)
  /usr/bin/time -f "%M" -o "$work/rss.txt" "$@" > /dev/null
  t1=$(date +%s.%N)
  echo "$label $(awk -v a="$t0" -v b="$t1" 'BEGIN{print b-a}') $(cat "$work/rss.txt")"
}
rm -rf "$work/out" "$work/copy.safetensors"
read -r _ amn_s amn_rss < <(measure amn "$amn" remember --quiet "$work/in" -o "$work/out")
out_bytes=$(stat -c %s "$work/out/model.safetensors")
read -r _ cp_s cp_rss < <(measure cp cp "$work/in/model.safetensors" "$work/copy.safetensors")
rm -rf "$work/out" "$work/copy.safetensors"
mb() { awk -v b="$1" -v s="$2" 'BEGIN{printf "%d", b/1048576/s}'; }
echo "| run | input | output | wall (s) | output MiB/s | peak RSS |"
echo "|---|---|---|---|---|---|"
printf "| amn remember (FP8 128x128 -> BF16, %s threads) | %s MiB | %s MiB | %.2f | %s | %s MiB |\n" "$(nproc)" \
  $((in_bytes >> 20)) $((out_bytes >> 20)) "$amn_s" "$(mb "$out_bytes" "$amn_s")" $((amn_rss / 1024))
printf "| cp of the input | %s MiB | %s MiB | %.2f | %s | %s MiB |\n" \
  $((in_bytes >> 20)) $((in_bytes >> 20)) "$cp_s" "$(mb "$in_bytes" "$cp_s")" $((cp_rss / 1024))
