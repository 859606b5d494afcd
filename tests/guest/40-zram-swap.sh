#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# 40-zram-swap: zram as the only swap, under memory pressure.  memhog fills
# three times the memory its cgroup may use (memory.max) with checkable,
# partly compressible pages, so most of them go out to zram and come back,
# and checks every byte twice.  A cgroup limit stands for "a guest with little
# RAM": the same reclaim and swap paths, at a fraction of the boot cost.
set -u
. "$(dirname "$0")/lib.sh"

LIMIT_MIB=${ZS_SWAP_LIMIT_MIB:-48}
HOG_MIB=${ZS_SWAP_HOG_MIB:-144}
CG=/sys/fs/cgroup/zs-hog

swap_on() {
	modprobe zram num_devices=1 &&
		echo $((HOG_MIB * 2))M >/sys/block/zram0/disksize &&
		mkswap /dev/zram0 >/dev/null && swapon /dev/zram0
}

vmstat() {
	awk -v k="$1" '$1 == k { print $2 }' /proc/vmstat
}

# peak_sample PID: while PID runs, keep in /tmp/zs-peak the zram statistics
# taken when zram held the most data.
peak_sample() {
	best=0
	while kill -0 "$1" 2>/dev/null; do
		set -- "$1" $(cat /sys/block/zram0/mm_stat)
		if [ "$2" -gt "$best" ]; then
			best=$2
			{
				echo "mm_stat at peak: $2 $3 $4 $5 $6 $7 $8 $9"
				f=/sys/kernel/debug/zsmalloc/zram0/classes
				[ ! -r $f ] || tail -n 1 $f
			} >/tmp/zs-peak
		fi
		sleep 1
	done
}

hog() {
	out0=$(vmstat pswpout)
	in0=$(vmstat pswpin)
	sh -c "echo \$\$ >$CG/cgroup.procs && exec memhog $HOG_MIB 4242 2" &
	pid=$!
	peak_sample $pid
	wait $pid || return 1
	cat /tmp/zs-peak
	echo "swap: pswpout +$(($(vmstat pswpout) - out0)) pswpin +$(($(vmstat pswpin) - in0)) pages"
	[ $(($(vmstat pswpout) - out0)) -gt $((HOG_MIB * 128)) ]
}

swap_off() {
	swapoff /dev/zram0 && echo 1 >/sys/block/zram0/reset && rmmod zram &&
		rmdir $CG
}

ktap_plan 5
ktap_step "load zsmalloc ($ZS_ALLOCATOR)" load_allocator
ktap_step "swap on zram0" swap_on
ktap_step "memory cgroup of ${LIMIT_MIB} MiB" zs_memcg $CG $LIMIT_MIB
ktap_step "memhog ${HOG_MIB} MiB through zram swap, every byte checked" hog
ktap_test "swapoff, reset and unload zram" swap_off
ktap_finish
