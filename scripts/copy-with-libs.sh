#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Copy host programs into a guest root together with the shared libraries
# (and ELF interpreter) that ldd resolves for them, at the same paths.
# A name without a slash is looked up in PATH (plus the sbin directories).
# Usage: copy-with-libs.sh ROOT PROGRAM...
set -eu

root=$1
shift
PATH=$PATH:/usr/local/sbin:/usr/sbin:/sbin

# copy_path FILE: copy FILE to ROOT/FILE; a symlink is recreated and its
# target copied too, so ROOT sees the same names as the host.
copy_path() {
	f=$1
	while :; do
		mkdir -p "$root$(dirname "$f")"
		if [ -L "$f" ]; then
			t=$(readlink "$f")
			[ -e "$root$f" ] || [ -L "$root$f" ] || ln -s "$t" "$root$f"
			case $t in
			/*) f=$t ;;
			*) f=$(dirname "$f")/$t ;;
			esac
		else
			[ -e "$root$f" ] || cp -p "$f" "$root$f"
			return 0
		fi
	done
}

for prog in "$@"; do
	case $prog in
	*/*) path=$prog ;;
	*) path=$(command -v "$prog") || {
		echo "copy-with-libs: $prog: not found on the host" >&2
		exit 1
	} ;;
	esac
	copy_path "$path"
	# ldd lines: "libx.so.1 => /lib/.../libx.so.1 (0x...)" or
	# "/lib64/ld-linux-x86-64.so.2 (0x...)"; vdso has no path.
	libs=$(ldd "$path" 2>/dev/null | sed -n 's/.*=> \(\/[^ ]*\) .*/\1/p; s/^[[:space:]]*\(\/[^ ]*\) (0x.*/\1/p') || true
	for lib in $libs; do
		copy_path "$lib"
	done
done
