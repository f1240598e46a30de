#!/usr/bin/env bash
# Install what anamnesis needs (Debian 12, as root or with sudo; packages
# listed in sections in packaging/debian-packages.txt) and build it into
# build/<preset>.
# Usage: scripts/setup.sh [--sections LIST] [PRESET] [TARGET...]
#   --sections LIST  comma-separated sections of packaging/debian-packages.txt
#                    to install (build, gui, test, packaging); default: all
#   PRESET           a CMake configure preset (dev, cli, release, asan); default dev
#   TARGET...        build only these targets; default all
# scripts/demo.sh: --sections build cli amn; scripts/test.sh: dev, every section.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
list="$top/packaging/debian-packages.txt"
sections=""
if [ "${1:-}" = "--sections" ]; then
  [ $# -ge 2 ] || { echo "setup: --sections needs a list (build,gui,test,packaging)" >&2; exit 2; }
  sections=$2
  shift 2
fi
preset=${1:-dev}
shift || true
targets=()
for t in "$@"; do targets+=(--target "$t"); done

# The packages of the chosen sections ("[name]" lines start a section).
known=$(sed -nE 's/^\[([a-z]+)\]\s*$/\1/p' "$list" | tr '\n' ' ')
if [ -n "$sections" ]; then
  for s in ${sections//,/ }; do
    case " $known " in *" $s "*) ;; *) echo "setup: no section [$s] in $list (sections: $known)" >&2; exit 2 ;; esac
  done
fi
mapfile -t pkgs < <(awk -v want=",${sections}," '
  /^[[:space:]]*(#|$)/ { next }
  /^\[[a-z]+\][[:space:]]*$/ { section = substr($1, 2, length($1) - 2); next }
  want == ",," || index(want, "," section ",") { print $1 }' "$list")
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
