#!/bin/sh
# Checks that our zsmalloc.ko exports every symbol of the kernel's own
# zsmalloc module with the same modversion CRC, so that the kernel's zram.ko
# (linked against the kernel's Module.symvers) loads on top of ours.
# Usage: check-modversions.sh KERNEL_MODULE_SYMVERS OUR_MODULE_SYMVERS
set -eu
kernel=$1
ours=$2
want=$(awk '$3 ~ /(^|\/)mm\/zsmalloc$/ { print $2, $1 }' "$kernel" | sort)
if [ -z "$want" ]; then
	echo "check-modversions: no mm/zsmalloc exports in $kernel" >&2
	exit 1
fi
have=$(awk '{ print $2, $1 }' "$ours" | sort)
bad=0
echo "$want" | while read -r sym crc; do
	got=$(echo "$have" | awk -v s="$sym" '$1 == s { print $2 }')
	if [ "$got" != "$crc" ]; then
		echo "check-modversions: $sym: kernel $crc, ours ${got:-missing}" >&2
		exit 1
	fi
done || bad=1
[ "$bad" -eq 0 ] || exit 1
echo "check-modversions: $(echo "$want" | wc -l) exports match the kernel's CRCs"
