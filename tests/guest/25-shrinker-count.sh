#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# 25-shrinker-count: what a pool reports as freeable (the "freeable" column
# of debugfs zsmalloc/<pool>/classes, which is also what its shrinker
# counts) must be no more than what compacting it frees, and once it is
# compacted, a pool that still reports freeable pages must free some at the
# next compaction: else every reclaim pass compacts the whole pool for
# nothing.  zram0 gets 16 MiB of real data from the blob disk,
# then 39 pages in 40 are overwritten with zeros (zram keeps same-filled
# pages without the allocator, so their objects are freed): a pool of
# sparse zspages, many of whose pages hold no object any more.  Through all
# that, zram names only live objects: the pool's bad_calls (ours: calls that
# named none) must stay 0, or the allocator took a valid handle for a bad one.
set -u
. "$(dirname "$0")/lib.sh"

MIB=16
PAGES=$((MIB * 256))
CLASSES=/sys/kernel/debug/zsmalloc/zram0/classes
BAD_CALLS=/sys/kernel/debug/zsmalloc/zram0/bad_calls

# freeable: the sum of the ninth column ("freeable") over the class lines.
freeable() {
	awk '$1 ~ /^[0-9]+$/ && NF >= 9 { s += $9 } END { print s + 0 }' $CLASSES
}

setup() {
	load_allocator && modprobe zram num_devices=1 &&
		echo 64M >/sys/block/zram0/disksize || return 1
	dd if="$ZS_BLOB_DEV" of=/dev/zram0 bs=1M count=$MIB 2>/dev/null &&
		sync || return 1
	g=0
	while [ $g -lt $((PAGES / 40)) ]; do
		dd if=/dev/zero of=/dev/zram0 bs=4096 seek=$((g * 40 + 1)) \
			count=39 2>/dev/null || return 1
		g=$((g + 1))
	done
	sync
	echo "mm_stat: $(cat /sys/block/zram0/mm_stat)"
}

# compact_check: the count before a compaction against what it freed.
compact_check() {
	f=$(freeable)
	c0=$(zram_mm_stat pages_compacted)
	echo 1 >/sys/block/zram0/compact
	c1=$(zram_mm_stat pages_compacted)
	echo "reported freeable $f, compaction freed $((c1 - c0)) pages"
	echo "mm_stat: $(cat /sys/block/zram0/mm_stat)"
	[ "$f" -le $((c1 - c0)) ]
}

# compacted_check: a compacted pool reporting freeable pages frees some.
compacted_check() {
	f=$(freeable)
	c0=$(zram_mm_stat pages_compacted)
	echo 1 >/sys/block/zram0/compact
	c1=$(zram_mm_stat pages_compacted)
	echo "compacted pool: reported freeable $f, compaction freed $((c1 - c0)) pages"
	# The classes still reporting some, with the header naming the columns.
	awk 'NR == 1 || ($1 ~ /^[0-9]+$/ && $9 > 0)' $CLASSES
	[ "$f" -eq 0 ] || [ $((c1 - c0)) -gt 0 ]
}

no_bad_calls() {
	echo "bad_calls: $(cat $BAD_CALLS)"
	[ "$(cat $BAD_CALLS)" -eq 0 ]
}

teardown() {
	echo 1 >/sys/block/zram0/reset && rmmod zram
}

# after_setup FILE NAME COMMAND: an independent check, once setup succeeded;
# skipped without FILE (stock Debian has no CONFIG_ZSMALLOC_STAT, and no
# stock allocator counts bad calls).
after_setup() {
	file=$1
	shift
	if [ -n "$KTAP_BROKEN" ]; then
		ktap_step "$@"
	elif [ ! -r "$file" ]; then
		ktap_skip "$1" "no $file"
	else
		ktap_test "$@"
	fi
}

ktap_plan 5
ktap_step setup setup
after_setup $CLASSES count_not_above_compaction compact_check
after_setup $CLASSES no_count_after_compaction compacted_check
after_setup $BAD_CALLS no_bad_calls no_bad_calls
ktap_test teardown teardown
ktap_finish
