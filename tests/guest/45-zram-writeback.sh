#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# 45-zram-writeback: the zram paths that take objects out of zsmalloc and
# put them back: recompression with a second algorithm (zstd, priority 1;
# CONFIG_ZRAM_MULTI_COMP, 6.2 on, where zram asks zs_lookup_class_index()
# whether the new size saves a size class), then writeback of idle pages to
# a backing device (the scratch disk; CONFIG_ZRAM_WRITEBACK).  32 MiB of the
# blob go in; after each step every byte is read back and compared, and the
# step must have done something: compr_data_size drops on recompression,
# bd_stat counts the pages written back and the pool shrinks.  A kernel
# without the feature skips its step.
set -u
. "$(dirname "$0")/lib.sh"

MIB=32
SYS=/sys/block/zram0

# Every byte of the device against the blob's, read from zram (or from
# the backing device), not from the page cache.
data_ok() {
	echo 3 >/proc/sys/vm/drop_caches
	[ "$(dd if=/dev/zram0 bs=1M count=$MIB 2>/dev/null | sha256sum)" = "$BLOB_SHA" ] || {
		echo "data differs from the blob's" >&2
		return 1
	}
}

setup() {
	modprobe zram num_devices=1 || return 1
	if [ -e $SYS/recomp_algorithm ]; then
		echo "algo=zstd priority=1" >$SYS/recomp_algorithm || return 1
	fi
	if [ -e $SYS/backing_dev ]; then
		echo "$ZS_SCRATCH_DEV" >$SYS/backing_dev || return 1
	fi
	echo 64M >$SYS/disksize &&
		dd if="$ZS_BLOB_DEV" of=/dev/zram0 bs=1M count=$MIB conv=fsync 2>/dev/null ||
		return 1
	echo "mm_stat: $(cat $SYS/mm_stat)"
	data_ok
}

recompress() {
	c0=$(zram_mm_stat compr_data_size)
	echo all >$SYS/idle && echo type=idle >$SYS/recompress || return 1
	c1=$(zram_mm_stat compr_data_size)
	echo "compr_data_size $c0 -> $c1 (lzo-rle -> zstd); mm_stat: $(cat $SYS/mm_stat)"
	data_ok && [ "$c1" -lt "$c0" ]
}

bd_writes() {
	# shellcheck disable=SC2046 # split the fields
	set -- $(cat $SYS/bd_stat)
	echo "$3"
}

writeback() {
	w0=$(bd_writes)
	u0=$(zram_mm_stat mem_used_total)
	echo all >$SYS/idle && echo idle >$SYS/writeback || return 1
	w1=$(bd_writes)
	u1=$(zram_mm_stat mem_used_total)
	echo "bd_stat: $(cat $SYS/bd_stat); mem_used_total $u0 -> $u1"
	data_ok && [ "$w1" -gt "$w0" ] && [ "$u1" -lt "$u0" ]
}

teardown() {
	echo 1 >$SYS/reset && rmmod zram
}

BLOB_SHA=$(dd if="$ZS_BLOB_DEV" bs=1M count=$MIB 2>/dev/null | sha256sum)
ktap_plan 5
ktap_step "load zsmalloc ($ZS_ALLOCATOR)" load_allocator
ktap_step "zram of 64 MiB, ${MIB} MiB of the blob written, every byte checked" setup
if [ -n "$KTAP_BROKEN" ] || [ -e $SYS/recomp_algorithm ]; then
	ktap_step "recompress idle pages with zstd, every byte checked" recompress
else
	ktap_skip "recompress idle pages with zstd" "zram without CONFIG_ZRAM_MULTI_COMP ($(uname -r))"
fi
if [ -n "$KTAP_BROKEN" ] || [ -e $SYS/backing_dev ]; then
	ktap_step "write idle pages back to a disk, every byte checked" writeback
else
	ktap_skip "write idle pages back to a disk" "zram without CONFIG_ZRAM_WRITEBACK ($(uname -r))"
fi
ktap_test "zram reset and unloaded" teardown
ktap_finish
