#!/usr/bin/env bash
# Rebuild the fuzz corpora kept in the repository, tests/fuzz/corpus/<target>/:
# the seeds of make_seeds.py (the repository's fixtures and generators only),
# plus what fuzz runs have grown (build/sanitize/fuzz/<target>/corpus from
# scripts/sanitize.sh, and any DIR given), plus the corpus already kept,
# minimised with libFuzzer's -merge=1 -use_counters=0: the smallest set of
# inputs that keeps every covered edge (hit-count buckets are left for the
# fuzzer to find again, which halves the size). Needs the fuzzers built:
# scripts/sanitize.sh build.
# The Hugging Face targets (hf_*, spm_model) keep a grown corpus only from a
# run without the shared fixtures' seeds (no build/sanitize/fuzz/<target>/seeds):
# what grew from third-party tokenizer files stays out of the repository.
# Usage: tests/fuzz/make_corpus.sh [TARGET...]   (default: all eleven)
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
build="$top/build/sanitize"
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(safetensors gguf zip npy pth pickle onnx hf_tokenizer spm_model hf_config hf_vocab)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
/usr/bin/python3 "$top/tests/fuzz/make_seeds.py" "$tmp/seeds" >/dev/null
for t in "${targets[@]}"; do
  max_len=65536; [ "$t" = pickle ] && max_len=16384
  dirs=("$tmp/seeds/$t")
  for d in "$top/tests/fuzz/corpus/$t" "$build/fuzz/$t/corpus"; do
    [ "$d" = "$build/fuzz/$t/corpus" ] && [ -d "$build/fuzz/$t/seeds" ] && { echo "$t: grown corpus left out (seeded from the shared fixtures)"; continue; }
    [ -d "$d" ] && dirs+=("$d")
  done
  mkdir -p "$tmp/min-$t"
  "$build/tests/fuzz/fuzz_$t" -merge=1 -use_counters=0 -max_len=$max_len -timeout=10 -rss_limit_mb=2048 \
    "$tmp/min-$t" "${dirs[@]}" >"$tmp/merge-$t.log" 2>&1 || { cat "$tmp/merge-$t.log" >&2; exit 1; }
  rm -rf "$top/tests/fuzz/corpus/$t"
  mkdir -p "$top/tests/fuzz/corpus"
  mv "$tmp/min-$t" "$top/tests/fuzz/corpus/$t"
  echo "$t: $(ls "$top/tests/fuzz/corpus/$t" | wc -l) files, $(du -sh "$top/tests/fuzz/corpus/$t" | cut -f1)" \
    "($(grep -oE 'MERGE-OUTER: [0-9]+ new files with [0-9]+ new features' "$tmp/merge-$t.log" | tail -1))"
done
