#!/usr/bin/env bash
# End-to-end benchmark: `amn forget` of a generated BF16 safetensors model
# (tests/bench/make_big_bf16.py) to each safetensors family — bnb-nf4,
# bnb-nf4 --double-quant, bnb-int8, fp8 (channel, tensor, block),
# fp8-block-deepseek, w4a16, w8a16 — on all cores, next to `cp` of a file of
# that output's size, in one run: wall time, CPU time (user + system) and peak
# RSS, each the median of RUNS runs (default 5), every run after `sync` (no
# writeback of an earlier run pending; forget ends with fdatasync, cp does
# not wait for the disk; a second column times `cp && sync FILE`, the same
# durability). The goal: forget ≤ 2 × cp, RSS ≤ 512 MiB.
# "forget" is the plain command (no loss measured); "--report" the same with
# the round-trip loss measured and printed (one run fewer is fine there).
# On a shared machine compare CPU times and ratios.
# Usage: tests/bench/forget_st_e2e.sh [GIB] [WORKDIR] [--one-weight]
#   --one-weight: the model is a single [R, 16384] weight of GIB GiB (peak RSS
#   must not grow with it).
#   RUNS=N: runs per measurement (default 5).
#   ONLY=REGEX: only the rows whose label matches (grep -E), e.g. ONLY='nf4'.
#   AMN=path/to/amn (default: build/dev/app/amn/amn, else a Release build;
#   tests/bench/lib.sh).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
gib=${1:-1}
work=${2:-$(mktemp -d /tmp/amn-bench-st.XXXXXX)}
one=${3:-}
runs=${RUNS:-5}
amn=$(bench_amn "$top/build/dev/app/amn/amn")
[ -f "$work/in/model.safetensors" ] || /usr/bin/python3 "$top/tests/bench/make_big_bf16.py" "$work/in" "$gib" $one
in_bytes=$(stat -c %s "$work/in/model.safetensors")
bench_warm "$work/in/model.safetensors"
# median LABEL CLEANUP CMD...: run CMD $runs times (CLEANUP before each, then sync) and
# print "LABEL WALL CPU RSS", each the median.
median() {
  local label=$1 cleanup=$2; shift 2
  local i
  for ((i = 0; i < runs; i++)); do
    eval "$cleanup"
    sync
    bench_measure x "$@"
  done | awk -v l="$label" '
    function med(a, n,   i, j, t) {  # median of a[1..n] (insertion sort; mawk has no asort)
      for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j-1] > a[j]; j--) { t = a[j]; a[j] = a[j-1]; a[j-1] = t }
      return a[int((n + 1) / 2)]
    }
    { w[NR] = $2; c[NR] = $3; r[NR] = $4 }
    END { printf "%s %s %s %s\n", l, med(w, NR), med(c, NR), med(r, NR) }'
}
# One unmeasured run first: the first row is otherwise measured on a colder
# machine than the others (it came out 10-20 % slower).
rm -rf "$work/out" && "$amn" forget --quiet "$work/in" --to bnb-nf4 -o "$work/out" && rm -rf "$work/out"
echo "input: $((in_bytes >> 20)) MiB BF16, $(nproc) threads, median of $runs runs, sync before each"
echo "| scheme | output MiB | forget wall (s) | forget CPU (s) | peak RSS (MiB) | --report wall (s) | cp wall (s) | cp CPU (s) | wall ratio | cp + sync wall (s) | ratio to cp + sync |"
echo "|---|---|---|---|---|---|---|---|---|---|---|"
while read -r label args; do
  if [ -n "${ONLY:-}" ] && ! grep -qE -- "$ONLY" <<<"$label"; then continue; fi
  read -r _ aw ac arss < <(median amn "rm -rf '$work/out'" "$amn" forget --quiet "$work/in" $args -o "$work/out")
  read -r _ rw _ _ < <(median report "rm -rf '$work/out'" "$amn" forget --quiet --report "$work/in" $args -o "$work/out")
  rm -rf "$work/out"
  "$amn" forget --quiet "$work/in" $args -o "$work/out"
  out_bytes=$(du -cb "$work"/out/*.safetensors | tail -1 | cut -f1)
  # cp of the output size: the just-written output copied to a new file.
  cat "$work"/out/*.safetensors > "$work/src.bin"
  rm -rf "$work/out"
  read -r _ cw cc _ < <(median cp "rm -f '$work/copy.bin'" cp "$work/src.bin" "$work/copy.bin")
  # The same copy made durable, as forget's output is (it ends with fdatasync).
  read -r _ sw _ _ < <(median cpsync "rm -f '$work/copy.bin'" sh -c "cp '$work/src.bin' '$work/copy.bin' && sync '$work/copy.bin'")
  rm -f "$work/copy.bin" "$work/src.bin"
  awk -v l="$label" -v ob="$out_bytes" -v aw="$aw" -v ac="$ac" -v r="$arss" -v rw="$rw" -v cw="$cw" -v cc="$cc" -v sw="$sw" 'BEGIN{
    printf "| %s | %d | %.3f | %.2f | %d | %.3f | %.3f | %.2f | %.2f | %.3f | %.2f |\n", l, ob/1048576, aw, ac, r/1024, rw, cw, cc, aw/cw, sw, aw/sw}'
done <<'LIST'
bnb-nf4 --to bnb-nf4
bnb-nf4+dq --to bnb-nf4 --double-quant
bnb-int8 --to bnb-int8
fp8(channel) --to fp8
fp8(tensor) --to fp8 --granularity tensor
fp8(block) --to fp8 --granularity block
fp8-block-deepseek --to fp8-block-deepseek
w4a16(g128) --to w4a16
w8a16(g128) --to w8a16
LIST
