#!/usr/bin/env bash
# Builds the engine, the CLI and the engine, data and distributed tests against LibTorch 2.x on a
# machine whose own LibTorch is Debian 12's 1.13, and runs them: Debian trixie's libtorch-dev (2.6)
# in a chroot.
# The chroot is made once (debootstrap from Debian's registry) and reused by every later call and
# every clone; the build tree lives inside it, so the checkout is only read.
#   scripts/check-libtorch2.sh [CTEST_ARGS…]     e.g. -R 'Cuda|Parity'
# Environment: LIBTORCH2_CHROOT (default /var/cache/attentionscope/trixie-libtorch2),
#              LIBTORCH2_MIRROR (default http://deb.debian.org/debian).
# Needs root (debootstrap, chroot, bind mounts): run as root or through sudo.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
chroot_dir="${LIBTORCH2_CHROOT:-/var/cache/attentionscope/trixie-libtorch2}"
mirror="${LIBTORCH2_MIRROR:-http://deb.debian.org/debian}"
packages=(libtorch-dev cmake ninja-build g++ libspdlog-dev nlohmann-json3-dev libcli11-dev
  libgtest-dev libfmt-dev libgloo-dev)

if [ "$(id -u)" -ne 0 ]; then
  exec sudo --preserve-env=LIBTORCH2_CHROOT,LIBTORCH2_MIRROR "$0" "$@"
fi

ready="$chroot_dir/.attentionscope-ready"
if [ ! -f "$ready" ]; then
  command -v debootstrap >/dev/null || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap
  echo "check-libtorch2: creating the trixie chroot in $chroot_dir (once; a few minutes)"
  mkdir -p "$chroot_dir"
  [ -x "$chroot_dir/usr/bin/apt-get" ] ||
    debootstrap --variant=minbase trixie "$chroot_dir" "$mirror"
  mount --bind /proc "$chroot_dir/proc"
  trap 'umount "$chroot_dir/proc" || true' EXIT
  cp /etc/resolv.conf "$chroot_dir/etc/resolv.conf"
  chroot "$chroot_dir" /usr/bin/env DEBIAN_FRONTEND=noninteractive apt-get update -qq
  chroot "$chroot_dir" /usr/bin/env DEBIAN_FRONTEND=noninteractive \
    apt-get install -y -qq --no-install-recommends "${packages[@]}"
  umount "$chroot_dir/proc"
  trap - EXIT
  touch "$ready"
fi
# A chroot made by an older version of this script may lack a package added since.
missing=()
for p in "${packages[@]}"; do
  chroot "$chroot_dir" dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
    missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
  echo "check-libtorch2: installing ${missing[*]} in the chroot"
  cp /etc/resolv.conf "$chroot_dir/etc/resolv.conf"
  mount --bind /proc "$chroot_dir/proc"
  chroot "$chroot_dir" /usr/bin/env DEBIAN_FRONTEND=noninteractive apt-get update -qq
  chroot "$chroot_dir" /usr/bin/env DEBIAN_FRONTEND=noninteractive \
    apt-get install -y -qq --no-install-recommends "${missing[@]}"
  umount "$chroot_dir/proc"
fi

# The checkout appears read-only at /src inside the chroot; the build tree stays in the chroot.
# One build tree per checkout, so that two clones do not rebuild each other's.
build="/build/$(echo "$root" | md5sum | cut -c1-12)"
mkdir -p "$chroot_dir/src" "$chroot_dir$build"
cleanup() {
  for m in src dev proc; do umount "$chroot_dir/$m" 2>/dev/null || true; done
}
trap cleanup EXIT
mount --bind "$root" "$chroot_dir/src"
mount -o remount,bind,ro "$chroot_dir/src"
mount --bind /proc "$chroot_dir/proc"
mount --bind /dev "$chroot_dir/dev"

torch_version="$(chroot "$chroot_dir" dpkg-query -W -f='${Version}' libtorch-dev)"
echo "check-libtorch2: LibTorch $torch_version (Debian trixie), gcc $(chroot "$chroot_dir" gcc -dumpversion)"
chroot "$chroot_dir" /usr/bin/env HOME=/root BUILD="$build" /bin/bash -euo pipefail -c '
  cmake -S /src -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DATTENTIONSCOPE_BUILD_GUI=OFF -DATTENTIONSCOPE_WITH_OPENCV=OFF \
    -DATTENTIONSCOPE_WITH_DOWNLOAD=OFF -DATTENTIONSCOPE_BUILD_BENCH=OFF >/dev/null
  cmake --build "$BUILD" --parallel "$(nproc)" --target attentionscope-cli data_tests engine_tests \
    distributed_tests
  cd "$BUILD"
  OMP_NUM_THREADS=1 ctest --output-on-failure --parallel "$(nproc)" --timeout 900 \
    -L "^(data|engine|distributed|layering)$" "$@"
' check-libtorch2 "$@"
echo "check-libtorch2: passed against LibTorch $torch_version"
