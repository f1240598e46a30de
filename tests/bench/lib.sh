# shellcheck shell=bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# The preamble the end-to-end benchmark scripts share (sourced, not run):
#   . "$(dirname "$0")/lib.sh"
# Sets `top` (the source tree) and defines:
#   bench_amn [DEFAULT]        the amn to measure, printed
#   bench_warm FILE...         read the files once (page cache warm for every run)
#   bench_measure LABEL CMD... run CMD under /usr/bin/time: "LABEL WALL CPU RSS"
#   bench_mib_per_s BYTES S    whole MiB/s
#   bench_row …                a row of the "input, output, wall, MiB/s, RSS" tables
#   bench_rounds_table FILE PAIRS  medians of alternated rounds, and ratios
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)

# The amn binary to measure, printed on stdout: $AMN when set; else DEFAULT
# when given and executable; else build/release/app/amn/amn, brought up to
# date first (scripts/setup.sh release amn: the Release preset; quiet unless
# it fails, then run again with its output on stderr).
bench_amn() {
  if [ -n "${AMN:-}" ]; then
    echo "$AMN"
  elif [ -n "${1:-}" ] && [ -x "$1" ]; then
    echo "$1"
  else
    "$top/scripts/setup.sh" release amn >/dev/null 2>&1 || "$top/scripts/setup.sh" release amn >&2 || return 1
    echo "$top/build/release/app/amn/amn"
  fi
}

# Read FILE... once, so that every measured run starts with them in the page cache.
bench_warm() {
  cat "$@" > /dev/null
}

# bench_measure LABEL COMMAND...: run COMMAND (its stdout discarded) under
# /usr/bin/time and print "LABEL WALL_S CPU_S PEAK_RSS_KIB" (wall clock from
# date, CPU = user + system). Needs $work (the script's work folder), where
# /usr/bin/time writes time.txt.
bench_measure() {
  local label=$1; shift
  local t0 t1 u s m
  : "${work:?bench_measure needs \$work}"
  t0=$(date +%s.%N)
  /usr/bin/time -f "%U %S %M" -o "$work/time.txt" "$@" > /dev/null
  t1=$(date +%s.%N)
  read -r u s m < <(tail -n 1 "$work/time.txt")
  echo "$label $(awk -v a="$t0" -v b="$t1" 'BEGIN{print b-a}') $(awk -v u="$u" -v s="$s" 'BEGIN{print u+s}') $m"
}

# Whole MiB per second of BYTES in SECONDS.
bench_mib_per_s() {
  awk -v b="$1" -v s="$2" 'BEGIN{printf "%d", b/1048576/s}'
}

# bench_row LABEL IN_BYTES OUT_BYTES SECONDS RATE_BYTES RSS_KIB: one row of
# "| run | input | output | wall (s) | MiB/s | peak RSS |" (sizes in whole
# MiB, the rate of RATE_BYTES in SECONDS, RSS in MiB).
bench_row() {
  printf "| %s | %s MiB | %s MiB | %.2f | %s | %s MiB |\n" "$1" $(($2 >> 20)) $(($3 >> 20)) "$4" "$(bench_mib_per_s "$5" "$4")" $(($6 / 1024))
}

# bench_rounds_table FILE PAIRS: FILE holds lines "ROUND LABEL WALL CPU RSS_KIB"
# (bench_measure output prefixed with the round); prints the table
# "| run | wall (s) | best wall (s) | CPU (s) | peak RSS (MiB) |" of per-label
# medians (and the fastest wall of the rounds), then
# for each "X/Y:GOAL" of PAIRS ("|"-separated) the median of the per-round
# wall ratios X / Y beside GOAL.
bench_rounds_table() {
  echo "| run | wall (s) | best wall (s) | CPU (s) | peak RSS (MiB) |"
  echo "|---|---|---|---|---|"
  awk -v pairs="$2" '
    function med(a, n,   i, j, t) {
      for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j-1] > a[j]; j--) { t = a[j]; a[j] = a[j-1]; a[j-1] = t }
      return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
    }
    { k = $2; if (!(k in n)) order[++m] = k; n[k]++; W[k, n[k]] = $3; C[k, n[k]] = $4; R[k, n[k]] = $5; w[$1, k] = $3 }
    END {
      for (o = 1; o <= m; o++) { k = order[o]
        best = ""
        for (i = 1; i <= n[k]; i++) { a[i] = W[k, i]; b[i] = C[k, i]; c[i] = R[k, i]; if (best == "" || W[k, i] < best) best = W[k, i] }
        printf "| %s | %.2f | %.2f | %.2f | %d |\n", k, med(a, n[k]), best, med(b, n[k]), med(c, n[k]) / 1024
      }
      print ""
      print "| ratio (median of the per-round ratios) | wall | goal |"
      print "|---|---|---|"
      ng = split(pairs, G, "|")
      for (g = 1; g <= ng; g++) {
        split(G[g], p, ":"); split(p[1], q, "/"); x = q[1]; y = q[2]; nr = 0
        for (i = 1; i <= n[x]; i++) if ((i, x) in w && (i, y) in w && w[i, y] > 0) a[++nr] = w[i, x] / w[i, y]
        if (nr) printf "| %s | %.2f | %s |\n", p[1], med(a, nr), p[2]
      }
    }' "$1"
}
