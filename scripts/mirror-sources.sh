#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Copy the module sources (top Kbuild, VERSION, and the .c, .h and Kbuild
# files of src/, compat/ and tests/) to DEST, keeping their times, so that
# the same modules can be built for a second kernel (make check-debug)
# without touching the objects built here for Debian's.  Files gone from
# here are removed there.
# Usage: mirror-sources.sh DEST
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
dest=$1
cd "$top"
sources() {
	ls src/*.[ch] compat/*/*.[ch] tests/*.[ch]
}
for f in Kbuild VERSION src/Kbuild compat/*/Kbuild tests/Kbuild $(sources); do
	mkdir -p "$dest/$(dirname "$f")"
	cmp -s "$f" "$dest/$f" || cp -p "$f" "$dest/$f"
done
for f in $(cd "$dest" && sources); do
	[ -e "$f" ] || rm -f "$dest/$f"
done
