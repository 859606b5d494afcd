#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Print the kernel ABI name (e.g. 6.1.0-57-amd64) that Debian's
# linux-headers-amd64 metapackage points at: from the installed package if
# there is one, else from the archive's candidate. Never hard-coded.
set -eu

meta=${1:-linux-headers-amd64}
deps=$(dpkg-query -W -f='${Depends}' "$meta" 2>/dev/null || true)
[ -n "$deps" ] || deps=$(apt-cache depends "$meta" 2>/dev/null | sed -n 's/^ *Depends: //p')

kver=$(printf '%s\n' "$deps" | tr ',' '\n' |
	sed -n 's/^ *linux-headers-\([0-9][^ ]*\).*/\1/p' | head -n 1)
if [ -z "$kver" ]; then
	echo "kver.sh: cannot read the kernel ABI from $meta (run: make deps)" >&2
	exit 1
fi
echo "$kver"
