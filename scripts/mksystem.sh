#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Make (or reuse) a real Debian 12 system for `make check-system`: a root
# file system made by mmdebstrap from the apt sources this machine uses,
# with systemd as init, Debian's kernel and headers, dkms and what a user of
# zram runs, written into an ext4 disk image.  Cached in CACHE_DIR under a
# key made of this script (its package list and set-up), the test unit and
# the Date of the archive's Release files, so a new archive state makes a
# new image and anything else reuses it.  Prints the image's path.
# Usage: mksystem.sh CACHE_DIR UNIT_FILE
set -eu

cache=$1
unit=$2

# Debian 12 as a user has it: systemd and udev, apt, the kernel and its
# headers, dkms with a compiler, zram's generator, stress-ng; the rest is
# what the test stages use (zramctl is in util-linux, ps in procps).  The
# kernel is the newest the machine's sources have (bookworm-security's when
# it is ahead of the point release), the one a user runs.
pkgs="systemd systemd-sysv udev dbus apt kmod initramfs-tools
linux-image-amd64 linux-headers-amd64 dkms build-essential
systemd-zram-generator stress-ng procps e2fsprogs zstd"

sources=$(cat /etc/apt/sources.list.d/*.sources /etc/apt/sources.list 2>/dev/null |
	grep -v '^#' || true)
[ -n "$sources" ] || {
	echo "mksystem: no apt sources on this machine" >&2
	exit 1
}
# The archive's state: apt's lists carry each Release file's Date.  Lists of
# our own: rewriting the machine's would pull them from under an apt-get that
# another check runs meanwhile (.ci/run's lanes).
lists=$cache/apt-lists
mkdir -p "$lists/partial"
flock "$lists/.lock" apt-get -q -o Dir::State::Lists="$lists" \
	-o APT::Sandbox::User=root update >/dev/null
dates=$(grep -h '^Date:' "$lists"/*Release 2>/dev/null | sort)
key=$( (cat "$0" "$unit" && echo "$dates") | sha256sum | cut -c1-16)
dir=$cache/system-$key
if [ -f "$dir/root.img" ]; then
	echo "$dir/root.img"
	exit 0
fi
command -v mmdebstrap >/dev/null || {
	export DEBIAN_FRONTEND=noninteractive
	apt-get install -y --no-install-recommends mmdebstrap >&2
}
mkdir -p "$cache"
# One build at a time; whoever waited finds the image made.
exec 9>"$cache/.lock"
flock 9
if [ -f "$dir/root.img" ]; then
	echo "$dir/root.img"
	exit 0
fi
tmp=$(mktemp -d "$cache/.system.XXXXXX")
# Never into what a killed mmdebstrap may have left mounted (proc, sys, dev).
trap 'rm -rf --one-file-system "$tmp"' EXIT
printf '%s\n' "$sources" >"$tmp/debian.sources"

echo "mksystem: mmdebstrap bookworm into $tmp/root (key $key)" >&2
# No timers or logins: a getty on ttyS0 would hang up the test's console.
# shellcheck disable=SC2086 # the package list is meant to be split
mmdebstrap --quiet --variant=minbase --include="$(echo $pkgs | tr ' ' ,)" \
	--customize-hook='echo zs-test >"$1/etc/hostname"' \
	--customize-hook='echo "/dev/vda / ext4 rw,errors=remount-ro 0 1" >"$1/etc/fstab"' \
	--customize-hook="cp $unit \"\$1/etc/systemd/system/zs-stage.service\"" \
	--customize-hook='chroot "$1" systemctl enable zs-stage.service' \
	--customize-hook='chroot "$1" systemctl mask apt-daily.timer apt-daily-upgrade.timer \
		e2scrub_all.timer fstrim.timer systemd-timesyncd.service getty@tty1.service \
		serial-getty@ttyS0.service' \
	--customize-hook='chroot "$1" passwd -d root' \
	bookworm "$tmp/root" "$tmp/debian.sources" >&2

# Room for the module's build and what the stages write.
mkfs.ext4 -q -F -L zs-root -d "$tmp/root" "$tmp/root.img" 6G >&2
mkdir -p "$dir"
mv "$tmp/root.img" "$dir/root.img"
echo "$dir/root.img"
