#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Debian's kernel source of a patch series' kernel, unpacked pristine under
# CACHE/SERIES/linux-source-SERIES (unless already there); prints that path.
#   6.12  linux-source-6.12 from the machine's own apt sources
#         (bookworm-security)
#   7.2   linux-source-7.2 from Debian forky, through kseries/forky.list and
#         an apt state kept in CACHE/apt: the machine's apt configuration is
#         neither read for it nor changed, and nothing is installed
# Only `apt-get download` runs; the .deb stays in CACHE/SERIES.
# Usage: kseries-source.sh SERIES [CACHE]   (CACHE: /var/cache/zsmalloc-kseries)
set -eu

series=$1
cache=${2:-/var/cache/zsmalloc-kseries}
top=$(cd "$(dirname "$0")/.." && pwd)
pkg=linux-source-$series
dir=$cache/$series
tree=$dir/$pkg
# One at a time: checks and cache builds may ask for the source together.
mkdir -p "$dir"
exec 9>"$dir/.source.lock"
flock 9

case $series in
6.12)
	set -- ;;
7.2)
	set -- -o Dir::Etc::SourceList="$top/kseries/forky.list" \
		-o Dir::Etc::SourceParts=/dev/null \
		-o Dir::State::Lists="$cache/apt/lists" \
		-o Dir::Cache="$cache/apt/cache" -o Debug::NoLocking=1
	mkdir -p "$cache/apt/lists/partial" "$cache/apt/cache/archives/partial"
	ls "$cache/apt/lists/"*_Packages* >/dev/null 2>&1 ||
		apt-get "$@" -qq update >&2 ;;
*)
	echo "kseries-source: no series '$series' (6.12 or 7.2)" >&2
	exit 2 ;;
esac

version=$(apt-cache "$@" show --no-all-versions "$pkg" |
	sed -n 's/^Version: //p')
[ -n "$version" ] || { echo "kseries-source: apt knows no $pkg" >&2; exit 1; }
if [ "$(cat "$tree/.zs-version" 2>/dev/null)" = "$version" ]; then
	echo "$tree"
	exit 0
fi

deb=$dir/${pkg}_$(echo "$version" | sed 's/^[0-9]*://')_all.deb
if [ ! -f "$deb" ]; then
	echo "kseries-source: downloading $pkg $version" >&2
	(cd "$dir" && apt-get "$@" -qq download "$pkg=$version") >&2
fi
echo "kseries-source: unpacking $deb" >&2
tmp=$(mktemp -d "$dir/.unpack.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
dpkg-deb --fsys-tarfile "$deb" | tar -xO "./usr/src/$pkg.tar.xz" |
	tar -xJ -C "$tmp"
echo "$version" >"$tmp/$pkg/.zs-version"
rm -rf "$tree"
mv "$tmp/$pkg" "$tree"
echo "$tree"
