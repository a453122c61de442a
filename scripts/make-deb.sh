#!/usr/bin/env bash
# Builds the Debian package of this checkout, attentionscope_<version>_<arch>.deb, with CPack
# (cmake/DebianPackage.cmake, cmake/DesktopFiles.cmake): both programs, the desktop entry, the
# icon, AppStream metainfo, man pages; dependencies from dpkg-shlibdeps. Then checks what it made:
# no RPATH and no folder of this machine in the programs, the desktop entry and the metainfo
# valid, and lintian without errors or warnings. It compiles through ccache where it is installed
# (cmake/CompilerCache.cmake), like every other build of the tree.
#   scripts/make-deb.sh [--no-install] [CMAKE_ARGS…]
#     --no-install  do not install what is missing (a system whose packages are named otherwise)
#     CMAKE_ARGS    go to cmake after the package's own, e.g. -DCMAKE_CXX_COMPILER_LAUNCHER=ccache
# Environment: ATTENTIONSCOPE_DEB_BUILD_DIR (default build-deb), ATTENTIONSCOPE_DEB_OUT (default
# dist): the package is written there.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${ATTENTIONSCOPE_DEB_BUILD_DIR:-$root/build-deb}"
out="${ATTENTIONSCOPE_DEB_OUT:-$root/dist}"
install_missing=1
if [ "${1:-}" = "--no-install" ]; then
  install_missing=0
  shift
fi

if [ "$install_missing" -eq 1 ]; then
  # The build's packages and the packaging tools.
  "$root/scripts/install-deps.sh" dpkg-dev help2man librsvg2-bin lintian file
fi

# Debian's hardening flags (scripts/deb-build-flags.sh).
. "$root/scripts/deb-build-flags.sh"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX=/usr \
  -DATTENTIONSCOPE_PACKAGE=ON -DATTENTIONSCOPE_BUILD_TESTS=OFF -DATTENTIONSCOPE_BUILD_BENCH=OFF \
  "-DCMAKE_CXX_FLAGS=$deb_cxxflags" "-DCMAKE_EXE_LINKER_FLAGS=$deb_ldflags" "$@"
cmake --build "$build" --parallel "$(nproc)"
rm -rf "$build/package"
(cd "$build" && cpack -G DEB -B "$build/package" >/dev/null)
debs=("$build"/package/attentionscope_*.deb)
if [ "${#debs[@]}" -ne 1 ] || [ ! -f "${debs[0]}" ]; then
  echo "make-deb: cpack made ${#debs[@]} packages in $build/package, expected one" >&2
  exit 1
fi
mkdir -p "$out"
deb="$out/$(basename "${debs[0]}")"
cp "${debs[0]}" "$deb"

# What went in, checked on the unpacked package.
unpacked="$(mktemp -d)"
trap 'rm -rf "$unpacked"' EXIT
dpkg-deb --extract "$deb" "$unpacked"
failed=0
for program in "$unpacked"/usr/bin/*; do
  if readelf --dynamic "$program" | grep -qE '\((RPATH|RUNPATH)\)'; then
    echo "make-deb: $(basename "$program") has an RPATH: $(readelf --dynamic "$program" |
      grep -E 'RPATH|RUNPATH')" >&2
    failed=1
  fi
  for folder in "$root" "$build"; do
    if grep -qaF "$folder" "$program"; then
      echo "make-deb: $(basename "$program") names $folder:" >&2
      strings "$program" | grep -F "$folder" | head -3 >&2
      failed=1
    fi
  done
done
desktop-file-validate "$unpacked"/usr/share/applications/*.desktop || failed=1
appstreamcli validate --no-net "$unpacked"/usr/share/metainfo/*.metainfo.xml || failed=1

echo "make-deb: lintian"
lintian_log="$(lintian "$deb" 2>&1 || true)"
echo "${lintian_log:-(nothing)}"
if grep -qE '^(E|W):' <<<"$lintian_log"; then
  echo "make-deb: lintian reports errors or warnings" >&2
  failed=1
fi
[ "$failed" -eq 0 ] || exit 1

echo "make-deb: $deb"
dpkg-deb --field "$deb" Package Version Architecture Installed-Size Depends
echo "Size: $(stat -c %s "$deb") bytes"
