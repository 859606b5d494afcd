#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# 50-zram-ext4: zram as a filesystem.  ext4 on zram0 gets a copy of a real
# tree of files (the tree disk: part of the Debian system's /usr); after a
# remount every file's sha256 must match.  Then half of the files are
# deleted with discard on (zram frees their objects), /sys/block/zram0/compact
# runs, and the other half is checked again.  Last, the device is reset and
# used again.
set -u
. "$(dirname "$0")/lib.sh"

Z=/mnt/zram
T=/mnt/tree
SUMS=/tmp/zs-tree.sha256

zram_fs() {
	modprobe zram num_devices=1 && modprobe ext4 &&
		echo 256M >/sys/block/zram0/disksize &&
		mkfs.ext4 -q -F /dev/zram0 && mkdir -p $Z && mount -o discard /dev/zram0 $Z
}

copy_tree() {
	mkdir -p $T && mount -o ro "$ZS_TREE_DEV" $T || return 1
	(cd $T && find . -type f | sort | xargs sha256sum) >$SUMS || return 1
	cp -a $T/. $Z/ && sync || return 1
	echo "copied $(wc -l <$SUMS) files, $(du -sk $Z | cut -f1) KiB"
}

# remount_check [SUMS]: unmount, forget every cached page, mount, check.
remount_check() {
	umount $Z && echo 3 >/proc/sys/vm/drop_caches &&
		mount -o discard /dev/zram0 $Z || return 1
	(cd $Z && sha256sum -c -s "${1:-$SUMS}") || return 1
	echo "mm_stat: $(cat /sys/block/zram0/mm_stat)"
}

delete_half_compact() {
	awk 'NR % 2 == 0' $SUMS >$SUMS.gone
	awk 'NR % 2 == 1' $SUMS >$SUMS.kept
	(cd $Z && awk '{ print $2 }' $SUMS.gone | xargs rm -f) && sync &&
		fstrim $Z 2>/dev/null
	sync
	before=$(zram_mm_stat mem_used_total)
	echo 1 >/sys/block/zram0/compact || return 1
	echo "deleted $(wc -l <$SUMS.gone) files; mem_used_total $before ->" \
		"$(zram_mm_stat mem_used_total), pages_compacted" \
		"$(zram_mm_stat pages_compacted)"
}

reset_reuse() {
	umount $Z && echo 1 >/sys/block/zram0/reset || return 1
	[ "$(zram_mm_stat mem_used_total)" -eq 0 ] || return 1
	echo 64M >/sys/block/zram0/disksize && mkfs.ext4 -q -F /dev/zram0 &&
		mount /dev/zram0 $Z || return 1
	sed -n 1,200p $SUMS.kept >$SUMS.some
	awk '{ print $2 }' $SUMS.some | while read -r f; do
		mkdir -p "$Z/$(dirname "$f")" && cp -p "$T/$f" "$Z/$f" || return 1
	done || return 1
	remount_check $SUMS.some
}

cleanup() {
	umount $Z && umount $T && echo 1 >/sys/block/zram0/reset && rmmod zram
}

ktap_plan 8
ktap_step "load zsmalloc ($ZS_ALLOCATOR)" load_allocator
ktap_step "ext4 on zram0" zram_fs
ktap_step "copy the tree" copy_tree
ktap_step "remount, every sha256 matches" remount_check
ktap_step "delete half, discard, compact" delete_half_compact
ktap_step "remount, the kept half matches" remount_check $SUMS.kept
ktap_step "reset and reuse the device" reset_reuse
ktap_test "unmount, reset, unload zram" cleanup
ktap_finish
