#!/usr/bin/env bash
# Debian 13 (trixie) on a Debian 12 machine, in a chroot: gcc 14, Qt 6.8, QCustomPlot, OpenCV 4.10,
# LibTorch 2.6.
#   scripts/check-debian13.sh [CTEST_ARGS…]
#       builds everything (the window, the CLI, every test suite, the benchmarks) with compiler
#       warnings as errors, runs the whole suite, then makes the trixie package with
#       scripts/make-deb.sh (lintian included) and copies it to dist/debian13/.
#   scripts/check-debian13.sh --engine-only [CTEST_ARGS…]
#       the engine, the CLI and the engine, data and distributed tests only: LibTorch 2.x without
#       Qt (what scripts/check-libtorch2.sh runs).
# CTEST_ARGS go to ctest, e.g. -R 'Cuda|Parity'.
# The chroot is made once (debootstrap from Debian's registry) and reused by every later call and
# every clone; packages a mode needs are added when missing. The build trees live inside it, one
# per checkout and mode, so the checkout is only read (mounted read-only at /src).
# Environment: LIBTORCH2_CHROOT (default /var/cache/attentionscope/trixie-libtorch2),
#              LIBTORCH2_MIRROR (default http://deb.debian.org/debian).
# Needs root (debootstrap, chroot, bind mounts): run as root or through sudo.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
chroot_dir="${LIBTORCH2_CHROOT:-/var/cache/attentionscope/trixie-libtorch2}"
mirror="${LIBTORCH2_MIRROR:-http://deb.debian.org/debian}"
mode=full
if [ "${1:-}" = "--engine-only" ]; then
  mode=engine
  shift
fi
name="check-debian13"
[ "$mode" = engine ] && name="check-libtorch2"

packages=(libtorch-dev cmake ninja-build g++ libspdlog-dev nlohmann-json3-dev libcli11-dev
  libgtest-dev libfmt-dev libgloo-dev pkg-config libsentencepiece-dev libssl-dev)
if [ "$mode" = full ]; then
  # scripts/install-deps.sh's list under trixie's names (qt6-qpa-plugins and qt6-svg-plugins: the
  # platform plugins and the SVG icon engine, packages of their own since Qt 6.8; the package's
  # dependencies are found from the files they hold), the packaging tools, localedef's character
  # maps (locales, for the decimal-comma tests) and ccache (the package's build reuses the suite's
  # objects).
  packages+=(qt6-base-dev qt6-svg-dev qt6-qpa-plugins qt6-svg-plugins libqcustomplot-dev
    libgl-dev libopencv-dev libgif-dev libarchive-dev libcurl4-openssl-dev libssl-dev libopenblas0-pthread
    desktop-file-utils appstream dpkg-dev help2man librsvg2-bin lintian file locales ccache)
fi

if [ "$(id -u)" -ne 0 ]; then
  exec sudo --preserve-env=LIBTORCH2_CHROOT,LIBTORCH2_MIRROR "$0" "$@"
fi

apt_in_chroot() {
  cp /etc/resolv.conf "$chroot_dir/etc/resolv.conf"
  mount --bind /proc "$chroot_dir/proc"
  trap 'umount "$chroot_dir/proc" || true' EXIT
  chroot "$chroot_dir" /usr/bin/env DEBIAN_FRONTEND=noninteractive apt-get update -qq
  chroot "$chroot_dir" /usr/bin/env DEBIAN_FRONTEND=noninteractive \
    apt-get install -y -qq --no-install-recommends "$@"
  umount "$chroot_dir/proc"
  trap - EXIT
}

ready="$chroot_dir/.attentionscope-ready"
if [ ! -f "$ready" ]; then
  command -v debootstrap >/dev/null || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap
  echo "$name: creating the trixie chroot in $chroot_dir (once; a few minutes)"
  mkdir -p "$chroot_dir"
  [ -x "$chroot_dir/usr/bin/apt-get" ] ||
    debootstrap --variant=minbase trixie "$chroot_dir" "$mirror"
  apt_in_chroot "${packages[@]}"
  touch "$ready"
fi
# A chroot made by an older version of this script, or for the other mode, may lack a package.
missing=()
for p in "${packages[@]}"; do
  chroot "$chroot_dir" dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
    missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
  echo "$name: installing ${missing[*]} in the chroot"
  apt_in_chroot "${missing[@]}"
fi

# The checkout appears read-only at /src inside the chroot; the build trees stay in the chroot.
# One build tree per checkout, so that two clones do not rebuild each other's.
build="/build/$(echo "$root" | md5sum | cut -c1-12)"
[ "$mode" = full ] && build="$build-full"
mkdir -p "$chroot_dir/src" "$chroot_dir$build"
cleanup() {
  for m in src dev proc; do umount "$chroot_dir/$m" 2>/dev/null || true; done
}
trap cleanup EXIT
mount --bind "$root" "$chroot_dir/src"
mount -o remount,bind,ro "$chroot_dir/src"
mount --bind /proc "$chroot_dir/proc"
mount --bind /dev "$chroot_dir/dev"

version() { chroot "$chroot_dir" dpkg-query -W -f='${Version}' "$1"; }
torch_version="$(version libtorch-dev)"
echo "$name: LibTorch $torch_version (Debian trixie), gcc $(chroot "$chroot_dir" gcc -dumpversion)"

if [ "$mode" = engine ]; then
  chroot "$chroot_dir" /usr/bin/env HOME=/root BUILD="$build" /bin/bash -euo pipefail -c '
    cmake -S /src -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release \
      -DATTENTIONSCOPE_BUILD_GUI=OFF -DATTENTIONSCOPE_WITH_OPENCV=OFF \
      -DATTENTIONSCOPE_WITH_DOWNLOAD=OFF -DATTENTIONSCOPE_BUILD_BENCH=OFF >/dev/null
    cmake --build "$BUILD" --parallel "$(nproc)" --target attentionscope-cli data_tests engine_tests \
      distributed_tests
    cd "$BUILD"
    OMP_NUM_THREADS=1 ctest --output-on-failure --parallel "$(nproc)" --timeout 900 \
      -L "^(data|engine|distributed|layering)$" "$@"
  ' "$name" "$@"
  echo "$name: passed against LibTorch $torch_version"
  exit 0
fi

echo "$name: Qt $(version qt6-base-dev), OpenCV $(version libopencv-dev)," \
  "QCustomPlot $(version libqcustomplot-dev), CMake $(version cmake)"
# Built with the package's flags (scripts/make-deb.sh), which packages from this tree after the
# suite; the tree's settings are set again each time, since the packaging leaves the tests off.
started=$(date +%s)
chroot "$chroot_dir" /usr/bin/env HOME=/root BUILD="$build" CCACHE_BASEDIR=/ \
  CCACHE_MAXSIZE=6G /bin/bash -euo pipefail -c '
  root=/src
  . /src/scripts/deb-build-flags.sh
  cmake -S /src -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX=/usr \
    -DATTENTIONSCOPE_PACKAGE=OFF -DATTENTIONSCOPE_BUILD_TESTS=ON -DATTENTIONSCOPE_BUILD_BENCH=ON \
    -DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_COMPILE_WARNING_AS_ERROR=ON \
    "-DCMAKE_CXX_FLAGS=$deb_cxxflags" "-DCMAKE_EXE_LINKER_FLAGS=$deb_ldflags" \
    >"$BUILD/configure.log" 2>&1 || { cat "$BUILD/configure.log"; exit 1; }
  if grep -q "Warning" "$BUILD/configure.log"; then
    echo "check-debian13: CMake warned while configuring:"
    grep -A6 "Warning" "$BUILD/configure.log"
  fi
  # Compiler warnings are errors; anything else that warns (the linker, moc, rcc) is listed and
  # fails the check too. Only what is compiled anew prints: the first build of a tree is the one
  # that shows them all.
  # -k 0: every failing file at once, not only the first.
  if ! cmake --build "$BUILD" --parallel "$(nproc)" -- -k 0 >"$BUILD/build.log" 2>&1; then
    grep -v "^\[" "$BUILD/build.log" | tail -150
    echo "check-debian13: the build failed (full log: $BUILD/build.log in the chroot)"
    exit 1
  fi
  if grep -qi "warning" "$BUILD/build.log"; then
    echo "check-debian13: the build printed warnings:"
    grep -i -B2 -A4 "warning" "$BUILD/build.log"
    exit 1
  fi
'
built=$(date +%s)
echo "$name: built in $((built - started)) s"
chroot "$chroot_dir" /usr/bin/env HOME=/root BUILD="$build" /bin/bash -euo pipefail -c '
  cd "$BUILD"
  OMP_NUM_THREADS=1 QT_QPA_PLATFORM=offscreen ctest --output-on-failure --parallel "$(nproc)" \
    --timeout 900 "$@"
' "$name" "$@"
tested=$(date +%s)
echo "$name: the whole suite passed in $((tested - built)) s"

# The trixie package from the suite's own tree: the binaries it holds are the ones just tested,
# and nothing is compiled again (a tree of its own missed the compiler cache for every file that
# takes LibTorch's precompiled header, whose path is the tree's: an hour on 2 cores).
# ATTENTIONSCOPE_PACKAGE changes what is installed, not how anything is compiled.
chroot "$chroot_dir" /usr/bin/env HOME=/root CCACHE_BASEDIR=/ CCACHE_MAXSIZE=6G \
  ATTENTIONSCOPE_DEB_BUILD_DIR="$build" ATTENTIONSCOPE_DEB_OUT="${build%-full}-dist" \
  /src/scripts/make-deb.sh --no-install -DCMAKE_CXX_COMPILER_LAUNCHER=ccache \
  -DCMAKE_COMPILE_WARNING_AS_ERROR=ON
mkdir -p "$root/dist/debian13"
cp "$chroot_dir${build%-full}-dist"/attentionscope_*.deb "$root/dist/debian13/"
echo "$name: packaged in $(($(date +%s) - tested)) s: $(ls "$root"/dist/debian13/attentionscope_*.deb)"
echo "$name: passed against Debian trixie (LibTorch $torch_version, Qt $(version qt6-base-dev))"
