#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Build the "tree disk": an ext4 image holding a real tree of files from the
# Debian system (sorted, up to SIZE_MIB of file data), for guest suites that
# copy files around (ZS_TREE_DEV). mke2fs -d fills it without mounting.
# Usage: mktree.sh OUTPUT [SIZE_MIB [DIR...]]
set -eu

out=$1
cap=$((${2:-32} * 1024 * 1024))
shift $(($# > 1 ? 2 : 1))
[ $# -gt 0 ] || set -- /usr/share/perl /usr/lib/python3.11

tmp=$(mktemp -d "${TMPDIR:-/tmp}/zs-tree.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# Files in sorted order until the cap; paths kept relative to /.
find "$@" -type f -size -2M -printf '%p\t%s\n' 2>/dev/null | LC_ALL=C sort |
	awk -F '\t' -v cap="$cap" '{ t += $2; if (t > cap) exit; print $1 }' >"$tmp/list"
mkdir "$tmp/root"
tar -cf - -T "$tmp/list" 2>/dev/null | tar -xf - -C "$tmp/root"
mib=$(( $(du -sm "$tmp/root" | cut -f1) * 3 / 2 + 16 ))
rm -f "$out.tmp"
mkdir -p "$(dirname "$out")"
mkfs.ext4 -q -F -L zs-tree -d "$tmp/root" "$out.tmp" "${mib}M" >/dev/null
mv "$out.tmp" "$out"
echo "mktree: $out: $(wc -l <"$tmp/list") files, ${mib} MiB image"
