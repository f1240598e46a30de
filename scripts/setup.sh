#!/usr/bin/env bash
# Install what anamnesis needs (Debian 12, as root; packages listed in
# packaging/debian-packages.txt) and build it into build/<preset>.
# Usage: scripts/setup.sh [dev|release|asan] [TARGET...]   (default: dev, all targets)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
preset=${1:-dev}
shift || true
targets=()
for t in "$@"; do targets+=(--target "$t"); done

mapfile -t pkgs < <(grep -vE '^\s*(#|$)' "$top/packaging/debian-packages.txt")
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${#missing[@]} Debian package(s): ${missing[*]}" >&2
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -q >&2
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}" >&2
fi

export CCACHE_NOHASHDIR=1 CCACHE_BASEDIR="$top"
jobs=$(nproc)
cmake --preset "$preset" -S "$top" >&2
cmake --build "$top/build/$preset" -j "$jobs" "${targets[@]}" >&2
