#!/usr/bin/env bash
# ctest packaging.deb: build the Debian packages from the build tree (no
# second build: cpack only installs and packs what is built) and check them.
#   - cpack -G DEB → anamnesis_VERSION_ARCH.deb, libanamnesis-dev_VERSION_ARCH.deb
#   - dpkg-deb -f / -c: version, Depends from dpkg-shlibdeps, expected files
#   - lintian: no errors (warnings are printed)
#   - in CI (CI=true) as root, when anamnesis is not installed already:
#     apt-get install ./anamnesis_*.deb, run the installed amn and anamnesis,
#     then apt-get remove it again.
# Usage: test_deb.sh BUILD_DIR SOURCE_DIR VERSION
set -euo pipefail
build=$1 src=$2 version=$3
work="$build/packaging-test/deb"
rm -rf "$work"
mkdir -p "$work"
fail() { echo "packaging.deb: FAIL: $*" >&2; exit 1; }
step() { echo "== $*"; }

step "cpack -G DEB"
(cd "$work" && cpack -G DEB --config "$build/CPackConfig.cmake" -B "$work" > cpack.log 2>&1) \
  || { cat "$work/cpack.log"; fail "cpack"; }
arch=$(dpkg --print-architecture)
deb="$work/anamnesis_${version}_${arch}.deb"
dev="$work/libanamnesis-dev_${version}_${arch}.deb"
[ -s "$deb" ] || { ls -l "$work"; fail "no $deb"; }
[ -s "$dev" ] || { ls -l "$work"; fail "no $dev"; }
ls -l "$work"/*.deb

step "dpkg-deb -f / -c"
dpkg-deb -f "$deb" Package Version Architecture Depends Section Installed-Size
[ "$(dpkg-deb -f "$deb" Version)" = "$version" ] || fail "anamnesis Version is not $version"
[ "$(dpkg-deb -f "$dev" Version)" = "$version" ] || fail "libanamnesis-dev Version is not $version"
depends=$(dpkg-deb -f "$deb" Depends)
for lib in libc6 libstdc++6 zlib1g; do
  grep -q "$lib" <<<"$depends" || fail "Depends lacks $lib (dpkg-shlibdeps): $depends"
done
gui=0
[ -x "$build/app/studio/anamnesis" ] && gui=1
[ $gui = 0 ] || grep -q "libqt6widgets6" <<<"$depends" || fail "Depends lacks libqt6widgets6: $depends"
dpkg-deb -c "$deb" | awk '{print $6}' | sed 's|^\./|/|' > "$work/contents.txt"
dpkg-deb -c "$dev" | awk '{print $6}' | sed 's|^\./|/|' > "$work/contents-dev.txt"
want=(
  /usr/bin/amn
  /usr/share/man/man1/amn.1.gz
  /usr/share/bash-completion/completions/amn
  /usr/share/zsh/vendor-completions/_amn
  /usr/share/fish/vendor_completions.d/amn.fish
  /usr/share/doc/anamnesis/copyright
  /usr/share/doc/anamnesis/changelog.gz
  /usr/share/doc/anamnesis/README.md
  /usr/share/doc/anamnesis/LICENSE-MIT
  /usr/share/doc/anamnesis/LICENSE-APACHE
)
[ $gui = 1 ] && want+=(
  /usr/bin/anamnesis
  /usr/share/man/man1/anamnesis.1.gz
  /usr/share/applications/org.anamnesis.Anamnesis.desktop
  /usr/share/metainfo/org.anamnesis.anamnesis.metainfo.xml
  /usr/share/mime/packages/anamnesis.xml
  /usr/share/icons/hicolor/scalable/apps/anamnesis.svg
  /usr/share/icons/hicolor/48x48/apps/anamnesis.png
  /usr/share/anamnesis/translations/anamnesis_de.qm
)
for f in "${want[@]}"; do
  grep -qx "$f" "$work/contents.txt" || fail "anamnesis .deb lacks $f"
done
for f in /usr/include/anamnesis/catalog.hpp /usr/share/doc/libanamnesis-dev/copyright; do
  grep -qx "$f" "$work/contents-dev.txt" || fail "libanamnesis-dev .deb lacks $f"
done
grep -q '^/usr/lib/.*libamn_core\.a$' "$work/contents-dev.txt" || fail "libanamnesis-dev .deb lacks libamn_core.a"
grep -q '^/usr/lib/.*cmake/anamnesis/anamnesisConfig\.cmake$' "$work/contents-dev.txt" || fail "libanamnesis-dev .deb lacks the CMake package"
if grep -q '^/usr/include\|\.a$' "$work/contents.txt"; then fail "development files in the anamnesis .deb"; fi
echo "ok: $(grep -cv '/$' "$work/contents.txt") files in anamnesis, $(grep -cv '/$' "$work/contents-dev.txt") in libanamnesis-dev"

step "lintian"
if command -v lintian > /dev/null; then
  # Errors fail the test; warnings and below are listed.
  set +e
  lintian --fail-on error "$deb" "$dev" > "$work/lintian.txt" 2>&1
  rc=$?
  set -e
  cat "$work/lintian.txt"
  [ $rc = 0 ] || fail "lintian reports errors (exit $rc)"
  echo "ok: lintian $(grep -c '^E:' "$work/lintian.txt") error(s), $(grep -c '^W:' "$work/lintian.txt") warning(s)"
else
  fail "lintian is not installed (packaging/debian-packages.txt)"
fi

if [ "${CI:-}" = true ] && [ "$(id -u)" = 0 ]; then
  if dpkg-query -W -f='${Status}' anamnesis 2>/dev/null | grep -q "install ok installed"; then
    echo "== anamnesis is already installed on this machine: not installing the test package over it"
  else
    step "apt-get install $deb (CI, root)"
    trap 'DEBIAN_FRONTEND=noninteractive apt-get remove -y -q anamnesis > /dev/null 2>&1 || true' EXIT
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "$deb" > "$work/apt-install.log" 2>&1 \
      || { cat "$work/apt-install.log"; fail "apt-get install"; }
    [ "$(command -v amn)" = /usr/bin/amn ] || fail "amn is not /usr/bin/amn after install"
    /usr/bin/amn --version
    [ "$(/usr/bin/amn --version | head -1)" = "amn (anamnesis) $version" ] || fail "installed amn --version"
    /usr/bin/amn inspect "$src/fixtures/sample/tiny-llama-fp8" || fail "installed amn inspect"
    man -w amn > /dev/null || fail "man amn: not found after install"
    if [ $gui = 1 ]; then
      out=$(QT_QPA_PLATFORM=offscreen /usr/bin/anamnesis --version 2>/dev/null)
      echo "$out"
      [ "$out" = "anamnesis $version" ] || fail "installed anamnesis --version prints '$out'"
    fi
    step "apt-get remove anamnesis"
    DEBIAN_FRONTEND=noninteractive apt-get remove -y -q anamnesis > "$work/apt-remove.log" 2>&1 \
      || { cat "$work/apt-remove.log"; fail "apt-get remove"; }
    trap - EXIT
    [ ! -e /usr/bin/amn ] || fail "/usr/bin/amn still there after apt-get remove"
    echo "ok: installed, ran, removed"
  fi
else
  echo "== apt-get install/remove skipped (only in CI=true as root)"
fi
echo "packaging.deb: all good"
