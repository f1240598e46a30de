#!/usr/bin/env bash
# Build the Debian packages of anamnesis:
#   anamnesis_<version>_<arch>.deb         amn, anamnesis, man pages, completions,
#                                          desktop/MIME/AppStream files, icons, docs
#   libanamnesis-dev_<version>_<arch>.deb  headers, static core, CMake package
# Depends are computed from the binaries by dpkg-shlibdeps.
#
# Usage: packaging/build-deb.sh [BUILD_DIR]
#   without BUILD_DIR: configure a Release build without tests in build/deb,
#   build it and pack it; with BUILD_DIR: pack that (already configured) tree
#   after bringing it up to date. Packages land in BUILD_DIR/packages/.
# Needs the [build], [gui] and [packaging] sections of packaging/debian-packages.txt
# (scripts/setup.sh --sections build,gui,packaging installs them).
# Maintainer field: the cache variable AMN_PACKAGE_MAINTAINER ("Name <e-mail>";
# default $DEBFULLNAME <$DEBEMAIL> from the environment, else a placeholder on
# the .invalid domain; packaging/install.cmake, README "Install").
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:+$(realpath "$1")}
cd "$top"
export CCACHE_NOHASHDIR=1 CCACHE_BASEDIR="$top"
if [ -z "$build" ]; then
  build="$top/build/deb"
  # Debian's hardening flags (fortify, stack protector, relro, bindnow) on
  # top of the Release flags; -g and -O2 dropped (Release's -O3, stripped).
  export DEB_BUILD_MAINT_OPTIONS=hardening=+all
  cxxflags="$(dpkg-buildflags --get CPPFLAGS) $(dpkg-buildflags --get CXXFLAGS | sed 's/\(^\| \)-g\( \|$\)/ /; s/-O2//')"
  cmake -S "$top" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DAMN_BUILD_TESTS=OFF \
        -DCMAKE_CXX_FLAGS="$cxxflags" -DCMAKE_EXE_LINKER_FLAGS="$(dpkg-buildflags --get LDFLAGS)" >&2
fi
cmake --build "$build" -j "$(nproc)" >&2
cpack -G DEB --config "$build/CPackConfig.cmake" -B "$build/packages" >&2
ls -1 "$build"/packages/*.deb
