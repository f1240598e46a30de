#!/usr/bin/env bash
# Quick start, command 2: install every section of
# packaging/debian-packages.txt, build everything and run the whole ctest
# suite. Non-zero exit on any failure. Reference data is read from
# $AMN_REFERENCE_DIR (default ../shared/fixtures/reference beside the
# checkout); set AMN_REQUIRE_REFERENCE=1 to fail instead of skip without it.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
"$top/scripts/setup.sh" dev
# test_cli_tokback's reference tokenizer (@huggingface/tokenizers under node),
# pinned by the shared hf_shim lock file; the test installs it itself when
# this did not (and skips without the shared data).
shim="${AMN_REFERENCE_DIR:-$top/../shared/fixtures/reference}/../../tools/hf_shim"
if [ -f "$shim/package-lock.json" ]; then
  if ! command -v npm >/dev/null; then
    SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends npm >&2
  fi
  if [ ! -f "$top/build/dev/hf_shim/node_modules/@huggingface/tokenizers/package.json" ]; then
    mkdir -p "$top/build/dev/hf_shim"
    cp "$shim/package.json" "$shim/package-lock.json" "$top/build/dev/hf_shim/"
    npm ci --no-audit --no-fund --prefix "$top/build/dev/hf_shim" >&2
  fi
fi
cd "$top/build/dev"
status=0
ctest --output-on-failure -j "$(nproc)" --timeout 900 || status=$?
# Say how many Qt Test functions skipped (QSKIP: the shared reference data
# missing, a tool not installed), always: a skip is not a pass.
skipped=$(grep -ahoE "Totals: [0-9]+ passed, [0-9]+ failed, [0-9]+ skipped" Testing/Temporary/LastTest.log 2>/dev/null |
          awk '{s += $6} END {print s + 0}')
echo "test.sh: $skipped Qt Test function(s) skipped (QSKIP; details in build/dev/Testing/Temporary/LastTest.log)" >&2
exit "$status"
