#!/usr/bin/env bash
# End-to-end benchmark for NumPy .npz and PyTorch .pth inputs (issue 5):
#  - `amn convert --to safetensors` and `amn remember` on a generated >= 1 GiB
#    .npz (np.savez, stored) and .pth (torch.save of a state_dict): wall time,
#    output MiB/s and peak RSS, next to `cp` of the same input bytes;
#  - `amn inspect` next to `python3 -c "torch.load(path, weights_only=True)"`
#    and, for the .npz, numpy.load reading every array.
# Prints a markdown table. Usage: tests/bench/npz_pth_e2e.sh [GIB] [WORKDIR]
# (Release build of amn in build/release, or AMN=path/to/amn; tests/bench/lib.sh.
# Times vary between runs on a shared machine: compare rows of one run, as ratios.)
set -euo pipefail
. "$(dirname "$0")/lib.sh"
gib=${1:-1}
work=${2:-$(mktemp -d /tmp/amn-bench-npz.XXXXXX)}
py=/usr/bin/python3
amn=$(bench_amn)
[ -f "$work/in/model.pth" ] || "$py" "$top/tests/bench/make_big_npz_pth.py" "$work/in" "$gib" >&2

mib() { echo $(( $1 >> 20 )); }

echo "| run | input | output | wall (s) | MiB/s | peak RSS |"
echo "|---|---|---|---|---|---|"
for kind in npz pth; do
  in="$work/in/model.$kind"
  in_bytes=$(stat -c %s "$in")
  n_tensors=$("$amn" parse --json "$in" | "$py" -c 'import json,sys; print(len(json.load(sys.stdin)["tensors"]))' 2>/dev/null || echo "?")
  for verb in "convert --to safetensors" remember; do
    rm -rf "$work/out.safetensors"
    bench_warm "$in"
    # shellcheck disable=SC2086
    read -r _ s _ rss < <(bench_measure amn "$amn" $verb --quiet "$in" -o "$work/out.safetensors")
    out_bytes=$(stat -c %s "$work/out.safetensors")
    bench_row "amn $verb (.$kind, $n_tensors tensors, $(nproc) threads)" "$in_bytes" "$out_bytes" "$s" "$out_bytes" "$rss"
  done
  rm -rf "$work/out.safetensors" "$work/copy"
  bench_warm "$in"
  read -r _ s _ rss < <(bench_measure cp cp "$in" "$work/copy")
  bench_row "cp of the .$kind" "$in_bytes" "$in_bytes" "$s" "$in_bytes" "$rss"
  rm -f "$work/copy"
  # amn flushes its output (fdatasync) before renaming it into place; so does this row.
  read -r _ s _ rss < <(bench_measure cpsync sh -c 'cp "$1" "$2" && sync "$2"' sh "$in" "$work/copy")
  bench_row "cp + sync of the .$kind" "$in_bytes" "$in_bytes" "$s" "$in_bytes" "$rss"
  rm -f "$work/copy"
done

echo
echo "| run | input | wall (s) | peak RSS |"
echo "|---|---|---|---|"
for kind in npz pth; do
  in="$work/in/model.$kind"
  in_bytes=$(stat -c %s "$in")
  bench_warm "$in"
  read -r _ s _ rss < <(bench_measure inspect "$amn" inspect "$in")
  printf "| amn inspect (.%s) | %s MiB | %.2f | %s MiB |\n" "$kind" "$(mib "$in_bytes")" "$s" $((rss / 1024))
  read -r _ s _ rss < <(bench_measure parse "$amn" parse "$in")
  printf "| amn parse (.%s) | %s MiB | %.2f | %s MiB |\n" "$kind" "$(mib "$in_bytes")" "$s" $((rss / 1024))
  read -r _ s _ rss < <(bench_measure scan "$amn" inspect --scan "$in")
  printf "| amn inspect --scan (.%s) | %s MiB | %.2f | %s MiB |\n" "$kind" "$(mib "$in_bytes")" "$s" $((rss / 1024))
  if [ "$kind" = pth ]; then
    read -r _ s _ rss < <(bench_measure torch "$py" -c "import sys, torch; torch.load(sys.argv[1], weights_only=True)" "$in")
    printf "| python3 torch.load(weights_only=True) | %s MiB | %.2f | %s MiB |\n" "$(mib "$in_bytes")" "$s" $((rss / 1024))
  else
    read -r _ s _ rss < <(bench_measure numpy "$py" -c "import sys, numpy as np; f = np.load(sys.argv[1]); a = {k: f[k] for k in f.files}" "$in")
    printf "| python3 numpy.load, every array read | %s MiB | %.2f | %s MiB |\n" "$(mib "$in_bytes")" "$s" $((rss / 1024))
  fi
done
read -r _ s _ rss < <(bench_measure pyimport "$py" -c "import torch")
printf "| python3 -c 'import torch' alone | — | %.2f | %s MiB |\n" "$s" $((rss / 1024))
