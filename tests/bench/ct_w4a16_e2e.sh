#!/usr/bin/env bash
# End-to-end benchmark: `amn remember` of a generated ~1 GiB compressed-tensors
# W4A16 model (pack-quantized, group 128) → BF16, wall time and peak RSS, next
# to `cp` of a file of the output's size (the goal: remember ≤ 1.5 × that cp,
# RSS ≤ 512 MiB). Both runs in one invocation; compare the ratio.
# Usage: tests/bench/ct_w4a16_e2e.sh [GIB] [WORKDIR]
#   AMN=path/to/amn (default: build-rel/app/amn/amn, configured and built
#   in Release if missing).
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
gib=${1:-1}
work=${2:-$(mktemp -d /tmp/amn-bench-ct.XXXXXX)}
amn=${AMN:-$top/build-rel/app/amn/amn}
if [ ! -x "$amn" ]; then
  cmake -S "$top" -B "$top/build-rel" -G Ninja -DCMAKE_BUILD_TYPE=Release -DAMN_BUILD_GUI=OFF \
        -DAMN_BUILD_TESTS=OFF -DAMN_BUILD_BENCH=ON >/dev/null
  ninja -C "$top/build-rel" amn >/dev/null
fi
[ -f "$work/in/model.safetensors" ] || /usr/bin/python3 "$top/tests/bench/make_big_ct.py" "$work/in" "$gib"
in_bytes=$(stat -c %s "$work/in/model.safetensors")
cat "$work/in/model.safetensors" > /dev/null   # warm the page cache

measure() {  # label, command...
  local label=$1; shift
  local t0 t1
  t0=$(date +%s.%N)
  /usr/bin/time -f "%M" -o "$work/rss.txt" "$@" > /dev/null
  t1=$(date +%s.%N)
  echo "$label $(awk -v a="$t0" -v b="$t1" 'BEGIN{print b-a}') $(cat "$work/rss.txt")"
}
rm -rf "$work/out" "$work/copy.bin" "$work/src.bin"
read -r _ amn_s amn_rss < <(measure amn "$amn" remember --quiet "$work/in" -o "$work/out")
out_bytes=$(stat -c %s "$work/out/model.safetensors")
# cp of the output size: the just-written output itself (page-cache state as
# amn's writes left it) copied to a new file.
mv "$work/out/model.safetensors" "$work/src.bin"
rm -rf "$work/out"
read -r _ cp_s cp_rss < <(measure cp cp "$work/src.bin" "$work/copy.bin")
rm -f "$work/copy.bin" "$work/src.bin"
mb() { awk -v b="$1" -v s="$2" 'BEGIN{printf "%d", b/1048576/s}'; }
echo "| run | input | output | wall (s) | output MiB/s | peak RSS |"
echo "|---|---|---|---|---|---|"
printf "| amn remember (CT W4A16 g128 -> BF16, %s threads) | %s MiB | %s MiB | %.2f | %s | %s MiB |\n" "$(nproc)" \
  $((in_bytes >> 20)) $((out_bytes >> 20)) "$amn_s" "$(mb "$out_bytes" "$amn_s")" $((amn_rss / 1024))
printf "| cp of a file of the output size | %s MiB | %s MiB | %.2f | %s | %s MiB |\n" \
  $((out_bytes >> 20)) $((out_bytes >> 20)) "$cp_s" "$(mb "$out_bytes" "$cp_s")" $((cp_rss / 1024))
awk -v a="$amn_s" -v c="$cp_s" 'BEGIN{printf "ratio remember / cp: %.2f (goal <= 1.5)\n", a/c}'
