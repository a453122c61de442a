#!/usr/bin/env bash
# Installs the Debian package in a fresh Debian 12 system and tries it there, as a lecturer would:
# apt installs it with what its dependencies pull in and nothing else (no recommended packages
# either), then, as an ordinary user, `attentionscope --help`, both programs' --version,
# `attentionscope-cli train --task digits --steps 20`, and the window offscreen opening that run
# with --screenshot and --report. Then it purges the package with the packages it pulled in and
# checks that nothing is left: no file `dpkg -L` listed, no package, no "attentionscope" anywhere
# outside the user's files.
#   scripts/check-deb.sh [PACKAGE.deb]     default: dist/attentionscope_*_amd64.deb (make-deb.sh)
# The screenshot, the report and the programs' output are copied to dist/check-deb/.
# The Debian 12 system is made once with debootstrap (Debian's registry only) in
# /var/cache/attentionscope/bookworm-base and copied afresh for every check; delete that folder to
# start from a newer one.
# Environment: CHECK_DEB_BASE (the base system's folder), CHECK_DEB_MIRROR (default
#              http://deb.debian.org/debian), CHECK_DEB_OUT (default dist/check-deb).
# Needs root (debootstrap, chroot, mounts): run as root or through sudo.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
base="${CHECK_DEB_BASE:-/var/cache/attentionscope/bookworm-base}"
mirror="${CHECK_DEB_MIRROR:-http://deb.debian.org/debian}"
out="${CHECK_DEB_OUT:-$root/dist/check-deb}"

if [ "$(id -u)" -ne 0 ]; then
  exec sudo --preserve-env=CHECK_DEB_BASE,CHECK_DEB_MIRROR,CHECK_DEB_OUT "$0" "$@"
fi
if [ $# -ge 1 ]; then
  deb="$(realpath "$1")"
else
  debs=("$root"/dist/attentionscope_*_amd64.deb)
  deb="${debs[-1]}"
fi
if [ ! -f "$deb" ]; then
  echo "check-deb: no package at $deb (make one with scripts/make-deb.sh)" >&2
  exit 2
fi
echo "check-deb: $deb"

in_chroot() {  # DIR COMMAND… : as root, with a clean environment
  local dir="$1"
  shift
  chroot "$dir" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 \
    DEBIAN_FRONTEND=noninteractive "$@"
}

# The base system: Debian 12 with its updates, as a fresh installation has them, and a user.
if [ ! -f "$base/.attentionscope-ready" ]; then
  command -v debootstrap >/dev/null || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap
  echo "check-deb: creating the Debian 12 base system in $base (once; a few minutes)"
  rm -rf --one-file-system "$base"
  mkdir -p "$base"
  debootstrap --variant=minbase bookworm "$base" "$mirror" >/dev/null
  security="${mirror%/debian}/debian-security"
  cat >"$base/etc/apt/sources.list" <<SOURCES
deb $mirror bookworm main
deb $mirror bookworm-updates main
deb $security bookworm-security main
SOURCES
  cp /etc/resolv.conf "$base/etc/resolv.conf"
  mount --bind /proc "$base/proc"
  trap 'umount "$base/proc" || true' EXIT
  in_chroot "$base" apt-get update -qq
  in_chroot "$base" apt-get upgrade -y -qq >/dev/null
  in_chroot "$base" apt-get clean
  in_chroot "$base" useradd --create-home --shell /bin/bash lecturer
  umount "$base/proc"
  trap - EXIT
  touch "$base/.attentionscope-ready"
fi

# A fresh copy for this check, removed afterwards. Nothing of this machine is mounted in it but
# /proc and /dev, and both are unmounted before it is removed.
work="$(mktemp -d /var/cache/attentionscope/check-deb.XXXXXX)"
cleanup() {
  umount "$work/dev" 2>/dev/null || true
  umount "$work/proc" 2>/dev/null || true
  if findmnt --list --noheadings --output TARGET | grep -qF "$work/"; then
    echo "check-deb: $work still has something mounted; left in place" >&2
  else
    rm -rf --one-file-system "$work"
  fi
}
trap cleanup EXIT
cp -a "$base/." "$work/"
cp /etc/resolv.conf "$work/etc/resolv.conf"
mount --bind /proc "$work/proc"
mount --bind /dev "$work/dev"
install -m 0644 "$deb" "$work/tmp/$(basename "$deb")"

# What the system holds before: every path and every package.
snapshot() {  # NAME
  in_chroot "$work" find / -xdev \( -path /proc -o -path /tmp -o -path /home -o -path /root \) \
    -prune -o -print | sort >"$work/root/$1.paths"
  in_chroot "$work" dpkg-query -W -f='${Package}\n' | sort >"$work/root/$1.packages"
}
in_chroot "$work" apt-get update -qq
snapshot before

echo "check-deb: apt-get install ./$(basename "$deb") (no recommended packages)"
in_chroot "$work" apt-get install -y --no-install-recommends "/tmp/$(basename "$deb")" \
  >"$work/root/install.log" 2>&1 || { cat "$work/root/install.log"; exit 1; }
grep -E "newly installed|additional disk space" "$work/root/install.log" || true
in_chroot "$work" dpkg -L attentionscope >"$work/root/files"

echo "check-deb: the programs, as the user lecturer"
rm -rf "$out"
mkdir -p "$out"
status=0
chroot --userspec=lecturer:lecturer "$work" /usr/bin/env -i PATH=/usr/bin:/bin \
  HOME=/home/lecturer USER=lecturer LANG=C.UTF-8 /bin/bash -euo pipefail -c '
  cd "$HOME"
  echo "\$ attentionscope --version"; attentionscope --version
  echo "\$ attentionscope-cli --version"; attentionscope-cli --version
  echo "\$ attentionscope --help"; attentionscope --help >help.txt; head -4 help.txt
  for page in attentionscope attentionscope-cli; do
    test -s /usr/share/man/man1/$page.1.gz || { echo "no man page for $page"; exit 1; }
  done
  echo "\$ attentionscope-cli train --task digits --steps 20 --out runs/digits"
  attentionscope-cli train --task digits --steps 20 --out runs/digits >train.txt 2>&1 ||
    { cat train.txt; exit 1; }
  tail -3 train.txt
  echo "\$ QT_QPA_PLATFORM=offscreen attentionscope --open runs/digits --size 1280x720" \
    "--screenshot window.png --report report.json --quit"
  QT_QPA_PLATFORM=offscreen attentionscope --open runs/digits --size 1280x720 \
    --screenshot window.png --report report.json --quit >window.txt 2>&1 ||
    { cat window.txt; exit 1; }
  test -s window.png && test -s report.json
' 2>&1 | tee "$out/programs.txt" || status=1
for file in help.txt train.txt window.txt window.png report.json; do
  [ -f "$work/home/lecturer/$file" ] && cp "$work/home/lecturer/$file" "$out/"
done
if [ "$status" -ne 0 ]; then
  echo "check-deb: a program failed in the installed system (output in $out)" >&2
  exit 1
fi
echo "check-deb: screenshot $out/window.png, report $out/report.json"

echo "check-deb: apt-get purge --autoremove attentionscope"
in_chroot "$work" apt-get purge -y --autoremove attentionscope >"$work/root/purge.log" 2>&1 ||
  { cat "$work/root/purge.log"; exit 1; }
snapshot after
left=0
if in_chroot "$work" dpkg-query -W -f='${Status}\n' attentionscope 2>/dev/null |
  grep -qv "not-installed"; then
  echo "check-deb: dpkg still knows attentionscope:" \
    "$(in_chroot "$work" dpkg-query -W -f='${Status}' attentionscope)" >&2
  left=1
fi
# Every file the package had, and every folder it brought that was not there before.
while IFS= read -r path; do
  [ "$path" = "/." ] && continue
  [ -e "$work$path" ] || [ -L "$work$path" ] || continue
  if [ ! -d "$work$path" ] || ! grep -qxF "$path" "$work/root/before.paths"; then
    echo "check-deb: left behind: $path" >&2
    left=1
  fi
done <"$work/root/files"
if ! diff "$work/root/before.packages" "$work/root/after.packages" >/dev/null; then
  echo "check-deb: packages not as before:" >&2
  diff "$work/root/before.packages" "$work/root/after.packages" >&2 || true
  left=1
fi
named="$(comm -13 "$work/root/before.paths" "$work/root/after.paths" | grep -i attentionscope || true)"
if [ -n "$named" ]; then
  echo "check-deb: left behind:" >&2
  echo "$named" >&2
  left=1
fi
new_paths="$(comm -13 "$work/root/before.paths" "$work/root/after.paths")"
echo "check-deb: after the purge, $(grep -c . <<<"$new_paths") new paths outside /home, /root and" \
  "/tmp (apt's and the dependencies' caches and logs, or what is reported above):"
head -12 <<<"$new_paths" | sed 's/^/  /'
[ "$left" -eq 0 ] || exit 1
echo "check-deb: passed: installed, ran, purged without a trace ($(dpkg-deb --field "$deb" \
  Installed-Size) KiB installed, $(stat -c %s "$deb") bytes packed)"
