#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Fetch Debian's kernel image package for KVER with `apt-get download` (it is
# never installed) and unpack it under DIR, with a depmod'd module tree:
#   DIR/boot/vmlinuz-KVER   DIR/lib/modules/KVER/
# Usage: fetch-kernel.sh KVER DIR
set -eu

kver=$1
dir=$2
[ -f "$dir/boot/vmlinuz-$kver" ] && [ -f "$dir/lib/modules/$kver/modules.dep" ] && exit 0

pkg=linux-image-$kver-unsigned
parent=$(dirname "$dir")
mkdir -p "$parent"
tmp=$(mktemp -d "$parent/.fetch.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

echo "fetch-kernel: apt-get download $pkg"
(cd "$tmp" && apt-get download -q -o APT::Sandbox::User=root "$pkg" ||
	{ apt-get update -q && apt-get download -q -o APT::Sandbox::User=root "$pkg"; })
dpkg-deb -x "$tmp"/"$pkg"_*.deb "$tmp/root"
# The package ships no modules.dep (its postinst would run depmod).
depmod -b "$tmp/root" "$kver"
rm -rf "$dir"
mv "$tmp/root" "$dir"
echo "fetch-kernel: $dir"
