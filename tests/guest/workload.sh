#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# workload: what `make run` boots (not an NN- suite: `make check` does not
# run it). zram swap on the selected zsmalloc.ko; in a memory cgroup capped
# at CG_MIB, memhog fills and checks more anonymous memory than that, then
# copies of the blob disk are written to tmpfs and pushed out to swap where
# they stay. A report of what the allocator holds then goes out as
# "# zs-report: " lines (tests/host/report.sh prints them), and the copies
# are read back and checked.
set -u
. "$(dirname "$0")/lib.sh"

ZRAM=zram0
SYS=/sys/block/$ZRAM
DISK_MIB=512
CG=/sys/fs/cgroup/workload
CG_MIB=48
HOG_MIB=160
COPIES=2
DIR=/tmp/zs-workload

swap_on() {
	modprobe zram num_devices=1 &&
		echo ${DISK_MIB}M >$SYS/disksize &&
		mkswap /dev/$ZRAM >/dev/null &&
		swapon /dev/$ZRAM &&
		cat /proc/swaps
}

cgroup_on() {
	mkdir -p /sys/fs/cgroup
	mountpoint -q /sys/fs/cgroup || mount -t cgroup2 cgroup2 /sys/fs/cgroup || return 1
	echo +memory >/sys/fs/cgroup/cgroup.subtree_control &&
		mkdir -p $CG && echo ${CG_MIB}M >$CG/memory.max
}

# in_cgroup COMMAND...: run COMMAND inside the capped cgroup.
in_cgroup() {
	sh -c 'echo $$ >'"$CG"'/cgroup.procs && exec "$@"' sh "$@"
}

hog() {
	in_cgroup memhog $HOG_MIB 1 || return 1
	echo "memhog done; zram peak mem_used_max $(zram_mm_stat mem_used_max) bytes"
}

copies_out() {
	mkdir -p $DIR
	i=1
	while [ $i -le $COPIES ]; do
		in_cgroup dd if="$ZS_BLOB_DEV" of=$DIR/copy$i bs=1M || return 1
		i=$((i + 1))
	done
	echo "cgroup: memory.current $(cat $CG/memory.current)," \
		"memory.swap.current $(cat $CG/memory.swap.current)"
}

mib() {
	awk -v b="$1" 'BEGIN { printf "%.1f MiB", b / 1048576 }'
}

report() {
	orig=$(zram_mm_stat orig_data_size) && compr=$(zram_mm_stat compr_data_size) &&
		used=$(zram_mm_stat mem_used_total) && peak=$(zram_mm_stat mem_used_max) &&
		same=$(zram_mm_stat same_pages) && huge=$(zram_mm_stat huge_pages) &&
		compacted=$(zram_mm_stat pages_compacted) || return 1
	zspages=$(awk '$1 == "nr_zspages" { print $2 }' /proc/vmstat)
	swap=$(awk -v d=/dev/$ZRAM '$1 == d { print $4 }' /proc/swaps)
	page=4096
	{
		echo "what zsmalloc ($ZS_ALLOCATOR) holds for zram swap ($ZRAM, ${DISK_MIB} MiB):"
		echo "  swap in use             ${swap:-?} KiB"
		echo "  bytes stored            $(mib "$orig") ($orig bytes, $((orig / page)) pages; $same same-filled)"
		echo "  compressed data         $(mib "$compr") ($compr bytes)"
		echo "  pool pages (mm_stat)    $((used / page)) pages = $(mib "$used"); peak $((peak / page)) pages"
		echo "  pool pages (vmstat)     ${zspages:-?} (nr_zspages)"
		echo "  density                 $(awk -v c="$compr" -v u="$used" 'BEGIN { if (u) printf "%.3f", c / u; else print "n/a" }') (compr_data_size / mem_used_total)"
		echo "  compression ratio       $(awk -v o="$orig" -v c="$compr" 'BEGIN { if (c) printf "%.2f", o / c; else print "n/a" }') (orig_data_size / compr_data_size)"
		echo "  huge pages              $huge; pages compacted $compacted"
	} | sed 's/^/zs-report: /'
	[ "$used" -gt 0 ] && [ "$compr" -gt 0 ]
}

copies_back() {
	i=1
	while [ $i -le $COPIES ]; do
		sha=$(sha256sum $DIR/copy$i | cut -d' ' -f1)
		[ "$sha" = "$ZS_BLOB_SHA256" ] || {
			echo "copy$i: sha256 $sha, expected $ZS_BLOB_SHA256"
			return 1
		}
		i=$((i + 1))
	done
	echo "$COPIES copies read back intact; swap in use now $(awk -v d=/dev/$ZRAM '$1 == d { print $4 }' /proc/swaps) KiB"
}

swap_off() {
	rm -rf $DIR && rmdir $CG && swapoff /dev/$ZRAM &&
		echo 1 >$SYS/reset && rmmod zram
}

ktap_plan 8
ktap_step "load zsmalloc ($ZS_ALLOCATOR)" load_allocator
ktap_step "zram swap on, ${DISK_MIB} MiB" swap_on
ktap_step "memory cgroup capped at ${CG_MIB} MiB" cgroup_on
ktap_step "memhog ${HOG_MIB} MiB through swap, every page checked" hog
ktap_step "$COPIES copies of the blob pushed out to swap" copies_out
ktap_step "report" report
ktap_step "copies read back from swap, sha256 matches" copies_back
ktap_step "swap off, zram reset and unloaded" swap_off
ktap_finish
