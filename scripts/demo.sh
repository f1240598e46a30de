#!/usr/bin/env bash
# Quick start, command 1: build amn, then inspect and remember (dequantize)
# the bundled FP8 sample and check the result bit for bit against the
# independent NumPy reference written by fixtures/make_fp8_fixtures.py; then
# convert that BF16 folder to GGUF and check its sha256 against the file
# llama.cpp's convert_hf_to_gguf.py wrote (fixtures/sample/tokenizer/README.md).
# Installs only the [build] section of packaging/debian-packages.txt (no Qt)
# and builds amn alone, with the `cli` preset, into build/cli/.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
"$top/scripts/setup.sh" --sections build cli amn
amn="$top/build/cli/app/amn/amn"
sample="$top/fixtures/sample/tiny-llama-fp8"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

echo "\$ amn inspect fixtures/sample/tiny-llama-fp8"
"$amn" inspect "$sample"
echo
echo "\$ amn remember fixtures/sample/tiny-llama-fp8 -o $out/tiny-llama-bf16"
"$amn" remember "$sample" -o "$out/tiny-llama-bf16"
echo
echo "\$ amn inspect $out/tiny-llama-bf16"
"$amn" inspect "$out/tiny-llama-bf16"
echo
if python3 "$top/tools/safetensors_equal.py" "$out/tiny-llama-bf16/model.safetensors" \
      "$top/fixtures/sample/expected/tiny-llama-fp8-bf16.safetensors"; then
  echo "bit-exact: every tensor equals the NumPy reference (fixtures/sample/expected/tiny-llama-fp8-bf16.safetensors)"
else
  echo "MISMATCH against the NumPy reference" >&2
  exit 1
fi
echo
echo "\$ amn convert $out/tiny-llama-bf16 --to gguf -o $out/tiny-llama-fp8-bf16.gguf"
"$amn" convert "$out/tiny-llama-bf16" --to gguf -o "$out/tiny-llama-fp8-bf16.gguf"
echo
# The converter's answer for the same folder (fixtures/sample/tokenizer/README.md).
if (cd "$out" && sha256sum --quiet -c "$top/fixtures/sample/expected/tiny-llama-fp8-bf16.gguf.sha256"); then
  echo "byte-identical: the GGUF llama.cpp's convert_hf_to_gguf.py writes (fixtures/sample/expected/tiny-llama-fp8-bf16.gguf.sha256)"
else
  echo "MISMATCH against convert_hf_to_gguf.py's GGUF" >&2
  exit 1
fi
