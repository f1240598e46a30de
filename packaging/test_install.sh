#!/usr/bin/env bash
# ctest packaging.install: install the build tree into a staging prefix and
# prove it works as installed.
#   - `cmake --install BUILD --prefix STAGE/usr --strip`, expected files present;
#   - the installed amn and anamnesis run and print PROJECT_VERSION; amn
#     inspects the bundled FP8 sample;
#   - desktop-file-validate, appstreamcli validate --pedantic --no-net (clean), update-mime-database
#     on the installed desktop, metainfo and MIME files;
#   - examples/ configures with -DCMAKE_PREFIX_PATH=STAGE/usr
#     (find_package(anamnesis CONFIG)), every public header compiles on its
#     own, and remember_one dequantizes a tensor of the sample bit for bit
#     like the NumPy reference.
# Usage: test_install.sh BUILD_DIR SOURCE_DIR VERSION     (no root needed)
set -euo pipefail
build=$1 src=$2 version=$3
work="$build/packaging-test/install"
stage="$work/stage/usr"
rm -rf "$work"
mkdir -p "$work"
fail() { echo "packaging.install: FAIL: $*" >&2; exit 1; }
step() { echo "== $*"; }

step "cmake --install $build --prefix $stage --strip"
cmake --install "$build" --prefix "$stage" --strip > "$work/install.log" || { cat "$work/install.log"; fail "cmake --install"; }

gui=0
[ -x "$build/app/studio/anamnesis" ] && gui=1
libdir=$(sed -n 's/^CMAKE_INSTALL_LIBDIR:PATH=//p' "$build/CMakeCache.txt")
expect=(
  bin/amn
  share/man/man1/amn.1.gz
  share/bash-completion/completions/amn
  share/zsh/vendor-completions/_amn
  share/fish/vendor_completions.d/amn.fish
  share/doc/anamnesis/README.md
  share/doc/anamnesis/LICENSE-MIT
  share/doc/anamnesis/LICENSE-APACHE
  share/doc/anamnesis/copyright
  share/doc/anamnesis/changelog.gz
  include/anamnesis/catalog.hpp
  include/anamnesis/plan.hpp
  "$libdir/libamn_core.a"
  "$libdir/cmake/anamnesis/anamnesisConfig.cmake"
  "$libdir/cmake/anamnesis/anamnesisConfigVersion.cmake"
  "$libdir/cmake/anamnesis/anamnesisTargets.cmake"
)
if [ $gui = 1 ]; then
  expect+=(
    bin/anamnesis
    share/man/man1/anamnesis.1.gz
    share/applications/org.anamnesis.Anamnesis.desktop
    share/metainfo/org.anamnesis.anamnesis.metainfo.xml
    share/mime/packages/anamnesis.xml
    share/icons/hicolor/scalable/apps/anamnesis.svg
    share/icons/hicolor/16x16/apps/anamnesis.png
    share/icons/hicolor/48x48/apps/anamnesis.png
    share/icons/hicolor/256x256/apps/anamnesis.png
    share/anamnesis/translations/anamnesis_de.qm
  )
fi
for f in "${expect[@]}"; do
  [ -s "$stage/$f" ] || fail "not installed: $f"
done
# Every public header is installed, and no private one.
(cd "$src/core/include" && find anamnesis -name '*.hpp' | sort) > "$work/headers.src"
(cd "$stage/include" && find anamnesis -type f | sort) > "$work/headers.installed"
diff -u "$work/headers.src" "$work/headers.installed" || fail "installed headers differ from core/include/anamnesis"
echo "ok: ${#expect[@]} expected files, $(wc -l < "$work/headers.installed") headers"

step "installed programs"
out=$("$stage/bin/amn" --version)
echo "$out"
grep -qx "amn (anamnesis) $version" <<<"$(head -1 <<<"$out")" || fail "amn --version does not print $version"
"$stage/bin/amn" inspect "$src/fixtures/sample/tiny-llama-fp8" > "$work/inspect.txt" || fail "installed amn inspect"
grep -q "FP8 (E4M3), 128×128 blocks" "$work/inspect.txt" || { cat "$work/inspect.txt"; fail "amn inspect output"; }
"$stage/bin/amn" help forget > /dev/null || fail "amn help forget"
if [ $gui = 1 ]; then
  out=$(QT_QPA_PLATFORM=offscreen "$stage/bin/anamnesis" --version 2>/dev/null)
  echo "$out"
  [ "$out" = "anamnesis $version" ] || fail "anamnesis --version prints '$out', not 'anamnesis $version'"
fi

step "man pages"
for page in "$stage"/share/man/man1/*.1.gz; do
  warn=$(MANWIDTH=80 LC_ALL=C.UTF-8 man --warnings -l "$page" 2>&1 >/dev/null) || fail "man -l $page"
  [ -z "$warn" ] || fail "man --warnings -l $page: $warn"
  zcat "$page" | grep -q "anamnesis $version" || fail "$page does not carry version $version"
done
echo "ok: $(ls "$stage"/share/man/man1 | tr '\n' ' ')"

if [ $gui = 1 ]; then
  step "desktop-file-validate, appstreamcli validate --pedantic --no-net, update-mime-database"
  desktop-file-validate "$stage/share/applications/org.anamnesis.Anamnesis.desktop" > "$work/desktop.log" 2>&1 \
    || { cat "$work/desktop.log"; fail "desktop-file-validate"; }
  [ ! -s "$work/desktop.log" ] || { cat "$work/desktop.log"; fail "desktop-file-validate is not silent"; }
  metainfo="$stage/share/metainfo/org.anamnesis.anamnesis.metainfo.xml"
  # Pedantic and silent: no error, warning, info or pedantic hint.
  appstreamcli validate --pedantic --no-net "$metainfo" > "$work/appstream.log" 2>&1 \
    || { cat "$work/appstream.log"; fail "appstreamcli validate --pedantic"; }
  ! grep -Eq '^[EWIP]: ' "$work/appstream.log" || { cat "$work/appstream.log"; fail "appstreamcli validate --pedantic is not clean"; }
  grep -q "<screenshot type=\"default\">" "$metainfo" || fail "metainfo has no default screenshot"
  for png in $(sed -n 's|.*<image>.*/\([^/<]*\.png\)</image>.*|\1|p' "$metainfo"); do
    [ -s "$src/docs/screenshots/$png" ] || fail "metainfo screenshot $png is not in docs/screenshots/"
  done
  grep -q "<release version=\"$version\" date=\"[0-9-]*\"/>" "$metainfo" || fail "metainfo <release> is not $version"
  cp -r "$stage/share/mime" "$work/mime"
  update-mime-database "$work/mime" > "$work/mime.log" 2>&1 || { cat "$work/mime.log"; fail "update-mime-database"; }
  for t in x-safetensors x-gguf x-npy x-npz x-pytorch x-onnx; do
    [ -s "$work/mime/application/$t.xml" ] || fail "MIME type application/$t not registered by update-mime-database"
  done
  grep -q "Exec=anamnesis %F" "$stage/share/applications/org.anamnesis.Anamnesis.desktop" || fail ".desktop Exec"
  echo "ok"
fi

step "CMake package: version $version"
grep -q "set(PACKAGE_VERSION \"$version\")" "$stage/$libdir/cmake/anamnesis/anamnesisConfigVersion.cmake" \
  || fail "anamnesisConfigVersion.cmake is not $version"
if grep -rn "$src" "$stage/$libdir/cmake/anamnesis/"; then
  fail "the installed CMake package refers to the source tree"
fi
if grep -n '#include "' "$stage"/include/anamnesis/*.hpp | grep -v '#include "anamnesis/'; then
  fail "a public header includes a private (non-anamnesis/) header"
fi

step "examples/ against the installed tree"
launcher=()
command -v ccache > /dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
cmake -S "$src/examples" -B "$work/example" -G Ninja -DCMAKE_PREFIX_PATH="$stage" \
      -DREMEMBER_ONE_CHECK_HEADERS=ON "${launcher[@]}" > "$work/example-configure.log" 2>&1 \
  || { cat "$work/example-configure.log"; fail "examples/ configure"; }
grep "anamnesis $version from $stage/$libdir/cmake/anamnesis" "$work/example-configure.log" \
  || { cat "$work/example-configure.log"; fail "find_package(anamnesis) did not find the staged package"; }
cmake --build "$work/example" -j "$(nproc)" > "$work/example-build.log" 2>&1 \
  || { cat "$work/example-build.log"; fail "examples/ build"; }
tensor=model.layers.0.mlp.gate_proj.weight
"$work/example/remember_one" "$src/fixtures/sample/tiny-llama-fp8" "$tensor" "$work/gate.bf16" | tee "$work/example.txt"
grep -q "^$tensor: FP8 (E4M3), 128×128 blocks" "$work/example.txt" || fail "remember_one output"
/usr/bin/python3 - "$src/fixtures/sample/expected/tiny-llama-fp8-bf16.safetensors" "$tensor" "$work/gate.bf16" <<'EOF' || fail "remember_one differs from the reference"
import json, struct, sys
ref, name, got = sys.argv[1:]
data = open(ref, "rb").read()
(n,) = struct.unpack("<Q", data[:8])
t = json.loads(data[8:8 + n])[name]
b, e = t["data_offsets"]
want = data[8 + n + b:8 + n + e]
have = open(got, "rb").read()
if t["dtype"] != "BF16" or want != have:
    sys.exit(f"{name}: {len(have)} bytes differ from the reference's {len(want)} ({t['dtype']})")
print(f"ok: {name} {t['shape']} equals the NumPy reference bit for bit ({len(have)} bytes)")
EOF
echo "packaging.install: all good"
