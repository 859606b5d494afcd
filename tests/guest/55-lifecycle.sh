#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# 55-lifecycle: CPU 1 goes offline and online again and again while memhog
# swaps through zram; zsmalloc cannot be unloaded while zram holds it, and can
# once zram is gone, with nr_zspages back where it started (a built-in
# zsmalloc stays: nr_zspages must still get there); then ten rounds
# of load, use and unload leak nothing: nr_zspages back to the start after
# every round, and MemFree from the first round to the last drops by less
# than half the pages the nine later pools held together (about 80 MiB: a
# pool leaked in most rounds does not fit, a planted leak of every freed page
# dropped it by 164 MiB).  Nothing leaked, MemFree still moved by up to 33 MiB
# between the two samples, so a tight fixed bound fails at random.
# ZS_HOTPLUG_PASSES (GUEST_ENV, default 2) is how many times memhog goes over
# its memory while CPU 1 flips; PREEMPT_RT runs it longer.
set -u
. "$(dirname "$0")/lib.sh"

CPU1=/sys/devices/system/cpu/cpu1/online
CG=/sys/fs/cgroup/zs-hog

# nr_zspages with the per-CPU deltas folded in.
zspages() {
	echo 1 >/proc/sys/vm/stat_refresh 2>/dev/null
	awk '$1 == "nr_zspages" { print $2 }' /proc/vmstat
}

# MemFree once caches are dropped and deferred frees (RCU, workqueues) had
# time to run, so that two samples compare like with like.
memfree_kib() {
	sync
	echo 3 >/proc/sys/vm/drop_caches
	sleep 2
	awk '$1 == "MemFree:" { print $2 }' /proc/meminfo
}

zram_swap_on() {
	modprobe zram num_devices=1 && echo 256M >/sys/block/zram0/disksize &&
		mkswap /dev/zram0 >/dev/null && swapon /dev/zram0 || return 1
	zs_memcg $CG 32
}

hotplug_under_load() {
	[ -w $CPU1 ] || {
		echo "no $CPU1" >&2
		return 1
	}
	sh -c "echo \$\$ >$CG/cgroup.procs && exec memhog 96 31 ${ZS_HOTPLUG_PASSES:-2}" &
	pid=$!
	flips=0
	while kill -0 $pid 2>/dev/null; do
		echo 0 >$CPU1 && echo 1 >$CPU1 || break
		flips=$((flips + 1))
	done
	wait $pid
	st=$?
	echo "CPU 1 offline and online $flips times; memhog status $st"
	[ "$(cat $CPU1)" -eq 1 ] && [ $st -eq 0 ] && [ $flips -gt 0 ]
}

rmmod_refused() {
	if rmmod zsmalloc 2>/dev/null; then
		echo "zsmalloc unloaded under zram" >&2
		return 1
	fi
}

unload_all() {
	swapoff /dev/zram0 && echo 1 >/sys/block/zram0/reset && rmmod zram &&
		unload_allocator && rmdir $CG || return 1
	z=$(zspages)
	echo "nr_zspages $z, at start $BASE_ZSPAGES"
	[ "$z" -eq "$BASE_ZSPAGES" ]
}

# one_round N: load, fill zram with ROUND_MIB of the blob, read it back and
# compare with ROUND_SHA (the blob's, read once), unload; prints the pool's
# peak size in KiB. Says which part failed.
ROUND_MIB=32
one_round() {
	load_allocator && modprobe zram num_devices=1 &&
		echo 64M >/sys/block/zram0/disksize || {
		echo "round $1: load or zram set-up failed" >&2
		return 1
	}
	dd if="$ZS_BLOB_DEV" of=/dev/zram0 bs=1M count=$ROUND_MIB conv=fsync 2>/dev/null &&
		echo 3 >/proc/sys/vm/drop_caches || {
		echo "round $1: write failed" >&2
		return 1
	}
	b=$(dd if=/dev/zram0 bs=1M count=$ROUND_MIB 2>/dev/null | sha256sum)
	[ "$ROUND_SHA" = "$b" ] || {
		echo "round $1: data differs" >&2
		return 1
	}
	echo $(($(zram_mm_stat mem_used_max) / 1024))
	echo 1 >/sys/block/zram0/reset && rmmod zram && unload_allocator || {
		echo "round $1: reset or unload failed" >&2
		return 1
	}
	z=$(zspages)
	[ "$z" -eq "$BASE_ZSPAGES" ] || {
		echo "round $1: nr_zspages $z after unload, at start $BASE_ZSPAGES" >&2
		return 1
	}
}

ten_rounds() {
	ROUND_SHA=$(dd if="$ZS_BLOB_DEV" bs=1M count=$ROUND_MIB 2>/dev/null | sha256sum)
	one_round 1 >/dev/null || return 1
	free0=$(memfree_kib)
	pools=0
	i=2
	while [ $i -le 10 ]; do
		kib=$(one_round $i) || return 1
		pools=$((pools + kib))
		i=$((i + 1))
	done
	free1=$(memfree_kib)
	echo "rounds 2-10 held pools of $pools KiB together;" \
		"MemFree $free0 -> $free1 KiB from round 1 to round 10"
	[ $((free0 - free1)) -lt $((pools / 2)) ]
}

BASE_ZSPAGES=$(zspages)
ktap_plan 6
ktap_step "load zsmalloc ($ZS_ALLOCATOR)" load_allocator
ktap_step "zram swap and a 32 MiB memory cgroup" zram_swap_on
ktap_step "CPU 1 off and on again under swap load, every byte checked" hotplug_under_load
if zs_module_steps; then
	ktap_step "rmmod zsmalloc refused while zram holds it" rmmod_refused
else
	ktap_skip "rmmod zsmalloc refused while zram holds it" "zsmalloc is built in"
fi
ktap_step "zram gone: zsmalloc unloads, nr_zspages back to start" unload_all
ktap_test "ten rounds of load, use, unload leak nothing" ten_rounds
ktap_finish
