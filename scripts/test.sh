#!/usr/bin/env bash
# Quick start, command 2: install every section of
# packaging/debian-packages.txt, build everything and run the whole ctest
# suite. Non-zero exit on any failure. Reference data is read from
# $AMN_REFERENCE_DIR (default ../shared/fixtures/reference beside the
# checkout); set AMN_REQUIRE_REFERENCE=1 to fail instead of skip without it.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
"$top/scripts/setup.sh" dev
cd "$top/build/dev"
ctest --output-on-failure -j "$(nproc)" --timeout 900
