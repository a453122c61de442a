# Sourced by scripts/make-deb.sh and scripts/check-debian13.sh (one list, so that the suite's tree
# and the package's share their compiled objects through ccache): Debian's compiler and linker
# flags with every hardening feature (fortified functions, stack protector, read-only relocations,
# bind now), without its -O2 and -g (Release's -O3; the programs are stripped). dpkg-buildflags
# maps the folder it runs in, the checkout, to "." so that the programs do not name it.
#   root=CHECKOUT; . scripts/deb-build-flags.sh   → deb_cxxflags, deb_ldflags
deb_buildflags() {
  (cd "$root" && DEB_BUILD_MAINT_OPTIONS=hardening=+all DEB_CXXFLAGS_MAINT_STRIP="-g -O2" \
    dpkg-buildflags --get "$1")
}
deb_cxxflags="$(deb_buildflags CPPFLAGS) $(deb_buildflags CXXFLAGS)"
deb_ldflags="$(deb_buildflags LDFLAGS)"
