#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Install, with apt-get, only the Debian packages the harness needs that are
# missing. Usage: deps.sh [--kernel-build] [--deb] [--system] [extra-package...]
set -eu

# What each package is for:
#   linux-headers-amd64  kbuild tree the modules are built against (metapackage)
#   linux-source-6.1     checkpatch.pl and friends for lint, and the source a
#                        debug kernel is built from
#   qemu-system-x86      the test VM (TCG)
#   busybox-static       the guest's userland
#   cpio kmod            initramfs archive; depmod for the guest's module tree
#   sparse               `make C=2` in lint
#   e2fsprogs            mkfs.ext4 for guest suites
#   python3 perl         host verdict parser and blob maker; checkpatch.pl
#   make xz-utils        the build itself; unpacking linux-source
#   git patch            make patches: writes the series, applies it
# Extra packages come from the Makefile: the headers of other kernel flavours
# the modules must build for (make flavours).  --kernel-build adds what
# building a kernel needs (the debug kernel, the series' test kernels),
# --deb what building the DKMS package and linting it needs (dh, dh_dkms,
# dpkg-buildpackage, lintian), --system mmdebstrap (make check-system's
# Debian system).  CI installs them all at once, before its lanes run side
# by side: two apt-get runs at a time fail on dpkg's lock.
pkgs="linux-headers-amd64 qemu-system-x86 busybox-static cpio kmod sparse
e2fsprogs python3 perl make xz-utils git patch"
for arg; do
	case $arg in
	--kernel-build) pkgs="$pkgs build-essential bc bison flex libelf-dev libssl-dev" ;;
	--deb) pkgs="$pkgs debhelper dh-dkms dpkg-dev lintian" ;;
	--system) pkgs="$pkgs mmdebstrap" ;;
	*) pkgs="$pkgs $arg" ;;
	esac
done

installed() {
	[ "$(dpkg-query -W -f='${db:Status-Status}' "$1" 2>/dev/null)" = installed ]
}

missing=
for p in $pkgs; do
	installed "$p" || missing="$missing $p"
done
# linux-source-X.Y follows the series the headers metapackage points at.
if [ -z "$missing" ]; then
	kver=$("$(dirname "$0")/kver.sh")
	src=linux-source-$(echo "$kver" | cut -d. -f1,2)
	installed "$src" || missing="$missing $src"
fi

[ -n "$missing" ] || exit 0
echo "deps: installing:$missing"
export DEBIAN_FRONTEND=noninteractive
# shellcheck disable=SC2086 # word splitting of the package list is intended
if ! apt-get install -y --no-install-recommends $missing; then
	apt-get update
	apt-get install -y --no-install-recommends $missing
fi
# The source package's name needs the metapackage installed first: go again,
# once.
[ -z "${DEPS_SECOND_PASS:-}" ] || exit 0
DEPS_SECOND_PASS=1 exec "$0" "$@"
