#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# Start-up cost: CPU time (task-clock, perf stat, N runs) of `amn --version`
# and of `amn inspect` on the bundled sample, beside two empty C programs,
# one linked to Debian's libhwy: what libhwy's load-time constructor costs
# (Highway 1.0.3 calibrates its benchmark timer, hwy::platform::TimerResolution,
# at load; google/highway#2440 defers that, in releases after Debian 12's).
# Usage: tests/bench/startup.sh [RUNS]   (Release build of amn, or AMN=...)
set -euo pipefail
. "$(dirname "$0")/lib.sh"
runs=${1:-50}
amn=$(bench_amn)
work=$(mktemp -d /tmp/amn-startup.XXXXXX)
trap 'rm -rf "$work"' EXIT
echo 'int main(void) { return 0; }' > "$work/empty.c"
cc -O2 "$work/empty.c" -o "$work/empty"
cc -O2 "$work/empty.c" -o "$work/empty-hwy" -Wl,--no-as-needed -lhwy
# task-clock in ms, mean of $runs runs.
cpu_ms() {
  perf stat -x, -e task-clock -r "$runs" "$@" 2>&1 >/dev/null | awk -F, '/task-clock/ {printf "%.2f", $1}'
}
echo "| program | CPU per run (ms) |"
echo "|---|---|"
echo "| empty C program | $(cpu_ms "$work/empty") |"
echo "| empty C program linked to libhwy | $(cpu_ms "$work/empty-hwy") |"
echo "| amn --version | $(cpu_ms "$amn" --version) |"
echo "| amn inspect (bundled sample) | $(cpu_ms "$amn" inspect "$top/fixtures/sample/tiny-llama-fp8") |"
