#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Unpack Debian's linux-source tarball into DIR (DIR's basename must be the
# tarball's top directory, e.g. .cache/linux-source-6.1), unless already there.
# Usage: unpack-source.sh DIR [TARBALL]
set -eu

dir=$1
tarball=${2:-/usr/src/$(basename "$dir").tar.xz}
[ -f "$dir/scripts/checkpatch.pl" ] && exit 0

parent=$(dirname "$dir")
mkdir -p "$parent"
tmp=$(mktemp -d "$parent/.unpack.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
echo "unpack-source: $tarball -> $dir"
tar -xf "$tarball" -C "$tmp"
rm -rf "$dir"
mv "$tmp/$(basename "$dir")" "$dir"
