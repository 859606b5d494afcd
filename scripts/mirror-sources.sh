#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Copy the module sources (top Kbuild, VERSION, src/ and tests/ .c, .h and
# Kbuilds) to DEST, keeping their times, so that the same modules can be
# built for a second kernel (make check-debug) without touching the objects
# built here for Debian's.  Files gone from here are removed there.
# Usage: mirror-sources.sh DEST
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
dest=$1
mkdir -p "$dest/src" "$dest/tests"
cd "$top"
want=$(ls Kbuild VERSION src/Kbuild src/*.[ch] tests/Kbuild tests/*.[ch])
for f in $want; do
	cmp -s "$f" "$dest/$f" || cp -p "$f" "$dest/$f"
done
for f in $(cd "$dest" && ls src/*.[ch] tests/*.[ch]); do
	[ -e "$f" ] || rm -f "$dest/$f"
done
