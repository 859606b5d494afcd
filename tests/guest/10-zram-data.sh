#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# 10-zram-data: Debian's stock zram.ko on the selected zsmalloc.ko stores
# 64 MiB of real, mixed data (the blob disk: programs, libraries and text of
# the Debian system, without same-filled pages, which zram would keep
# without the allocator) and gives it back bit for bit.
set -u
. "$(dirname "$0")/lib.sh"

MIB=64
ZRAM=zram0
SYS=/sys/block/$ZRAM

zram_load() {
	modprobe zram num_devices=1 || return 1
	# For the log (ktap_step makes it a diagnostic): zram on zsmalloc.
	lsmod | grep -E '^(zsmalloc|zram) ' || true
	# zram must sit on the zsmalloc.ko load_allocator chose.
	! zs_module_steps || [ -e /sys/module/zsmalloc/holders/zram ] || {
		echo "zram does not hold zsmalloc" >&2
		return 1
	}
}

sha_of() {
	dd if="$1" bs=1M count=$MIB 2>/dev/null | sha256sum | cut -d' ' -f1
}

blob_ok() {
	size=$(blockdev --getsize64 "$ZS_BLOB_DEV") || return 1
	echo "$ZS_BLOB_DEV: $size bytes"
	[ "$size" -eq $((MIB << 20)) ] && [ -n "$ZS_BLOB_SHA256" ]
}

write_blob() {
	dd if="$ZS_BLOB_DEV" of=/dev/$ZRAM bs=1M count=$MIB conv=fsync
}

mm_stat_ok() {
	orig=$(zram_mm_stat orig_data_size)
	compr=$(zram_mm_stat compr_data_size)
	used=$(zram_mm_stat mem_used_total)
	same=$(zram_mm_stat same_pages)
	echo "mm_stat: orig_data_size $orig compr_data_size $compr" \
		"mem_used_total $used same_pages $same;" \
		"vmstat $(grep nr_zspages /proc/vmstat)"
	[ "$orig" -eq $((MIB << 20)) ] && [ "$compr" -gt 0 ] && [ "$used" -gt 0 ] &&
		[ "$same" -eq 0 ]
}

read_back() {
	# Forget the page cache, so that the data comes back through zram.
	blockdev --flushbufs /dev/$ZRAM
	echo 3 >/proc/sys/vm/drop_caches
	before=$(awk '{ print $3 }' $SYS/stat)
	sha=$(sha_of /dev/$ZRAM)
	after=$(awk '{ print $3 }' $SYS/stat)
	echo "read back: sha256 $sha, $((after - before)) sectors read from $ZRAM"
	[ $((after - before)) -ge $((MIB << 11)) ] || return 1
	[ "$sha" = "$ZS_BLOB_SHA256" ] && return 0
	# Which side is wrong: the disk, or what zram gave back?
	echo "expected sha256 $ZS_BLOB_SHA256; the data disk's: $(sha_of "$ZS_BLOB_DEV")"
	return 1
}

zram_unload() {
	echo 1 >$SYS/reset && rmmod zram
}

ktap_plan 8
ktap_step "load zsmalloc ($ZS_ALLOCATOR)" load_allocator
ktap_step "modprobe zram on it" zram_load
ktap_step "zram disksize $((MIB * 2)) MiB" sh -c "echo $((MIB * 2))M >$SYS/disksize"
ktap_step "data disk holds a ${MIB} MiB blob" blob_ok
ktap_step "write ${MIB} MiB to zram" write_blob
ktap_step "mm_stat shows the data stored" mm_stat_ok
ktap_step "read back, sha256 matches" read_back
ktap_step "reset and unload zram" zram_unload
ktap_finish
