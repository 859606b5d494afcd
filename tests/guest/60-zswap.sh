#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# 60-zswap: zswap in front of a swap disk (the scratch disk), with its zpool
# set to "zsmalloc", the allocator picked by ZS_ALLOCATOR.  zswap.zpool= on
# the kernel command line cannot pick a module (zswap starts before it is
# loaded), so the suite loads the module and then writes zswap's parameters.
# memhog pushes three times its cgroup's memory through zswap and checks
# every byte.  Then, with max_pool_percent low, zswap must write back to the
# disk through the zpool's .shrink: written_back_pages grows and
# reject_reclaim_fail stays 0 (6.1; see writeback()).  The stock 6.1 module has no .shrink: there
# that test is skipped.  From 6.12 zsmalloc is built in (ZS_BUILTIN): there
# is no module to load or let go, zswap writes back from its own LRU whatever
# the allocator, and 7.x's zswap has no zpool (zsmalloc is its only one).
# A kernel without zswap (Debian's cloud-amd64) skips the whole suite.
set -u
. "$(dirname "$0")/lib.sh"

P=/sys/module/zswap/parameters
D=/sys/kernel/debug/zswap
CG=/sys/fs/cgroup/zs-hog
LIMIT_MIB=${ZS_ZSWAP_LIMIT_MIB:-64}
HOG_MIB=${ZS_ZSWAP_HOG_MIB:-128}

zstat() {
	cat "$D/$1"
}

zswap_on() {
	if [ -e $P/zpool ]; then
		echo zsmalloc >$P/zpool && [ "$(cat $P/zpool)" = zsmalloc ] || return 1
	fi
	# 6.8 on, zswap's pages count against the memory cgroup: its shrinker
	# writes cold ones back when the cgroup runs short, or memhog is killed.
	if [ -e $P/shrinker_enabled ]; then
		echo Y >$P/shrinker_enabled || return 1
	fi
	echo 1 >$P/enabled && echo 20 >$P/max_pool_percent || return 1
	echo "zswap: compressor $(cat $P/compressor)"
	zs_module_steps || return 0
	echo "zsmalloc refcnt $(cat /sys/module/zsmalloc/refcnt)"
	[ "$(cat /sys/module/zsmalloc/refcnt)" -gt 0 ]
}

swap_disk() {
	mkswap "$ZS_SCRATCH_DEV" >/dev/null && swapon "$ZS_SCRATCH_DEV"
}

# hog SEED: memhog in the cgroup; print zswap's statistics at their peak.
hog() {
	sh -c "echo \$\$ >$CG/cgroup.procs && exec memhog $HOG_MIB $1 2" &
	pid=$!
	best=0
	while kill -0 $pid 2>/dev/null; do
		n=$(zstat stored_pages)
		if [ "$n" -gt "$best" ]; then
			best=$n
			echo "peak: stored_pages $n pool_total_size $(zstat pool_total_size)" >/tmp/zs-peak
		fi
		sleep 1
	done
	wait $pid || return 1
	cat /tmp/zs-peak
	for f in pool_limit_hit reject_reclaim_fail reject_compress_poor \
		reject_alloc_fail written_back_pages; do
		echo "$f $(zstat $f)"
	done
	[ "$best" -gt 0 ]
}

# On 6.1 a failed writeback is a failed zpool .shrink: the allocator's, so
# none may fail.  From 6.8 (shrinker_enabled) zswap writes back from its own
# LRU and reject_reclaim_fail counts zswap_writeback_entry() failures: the
# page being swapped in at that moment, no memory for its swap cache folio;
# none of them is the allocator's, so the count is shown, not judged.
writeback() {
	wb0=$(zstat written_back_pages)
	echo 1 >$P/max_pool_percent && hog 77 || return 1
	[ "$(zstat written_back_pages)" -gt "$wb0" ] || return 1
	[ -e $P/shrinker_enabled ] || [ "$(zstat reject_reclaim_fail)" -eq 0 ]
}

# swapoff empties zswap; then another zpool, so that its zsmalloc pool (and
# the module) goes.  A built-in zsmalloc stays.
let_go() {
	swapoff "$ZS_SCRATCH_DEV" || return 1
	echo "stored_pages $(zstat stored_pages) pool_total_size $(zstat pool_total_size)"
	[ "$(zstat stored_pages)" -eq 0 ] || return 1
	zs_module_steps || return 0
	echo 0 >$P/enabled && echo zbud >$P/zpool || return 1
	n=0
	while [ "$(cat /sys/module/zsmalloc/refcnt)" -ne 0 ] && [ $n -lt 100 ]; do
		sleep 0.1
		n=$((n + 1))
	done
	echo "zsmalloc refcnt $(cat /sys/module/zsmalloc/refcnt)"
	[ "$(cat /sys/module/zsmalloc/refcnt)" -eq 0 ]
}

# Once zswap's pool has been full, Debian's 6.1 zswap keeps a reference to
# it for every store that found the shrink work already queued (mm/zswap.c,
# label shrink: the queue_work() result is ignored), so that pool, and the
# module behind it, can never go: the writeback test comes last, and the
# cleanup after it does not ask for the module's release.
# Swap may be off already (let_go did it, and on stock nothing turned it on).
cleanup() {
	if grep -q "^$ZS_SCRATCH_DEV " /proc/swaps; then
		swapoff "$ZS_SCRATCH_DEV" || return 1
	fi
	echo 0 >$P/enabled && echo 20 >$P/max_pool_percent && rmdir $CG || return 1
	if [ -e $P/shrinker_enabled ]; then
		echo "$SHRINKER_WAS" >$P/shrinker_enabled || return 1
	fi
	zs_module_steps || return 0
	echo zbud >$P/zpool || return 1
	echo "zsmalloc refcnt $(cat /sys/module/zsmalloc/refcnt) (see above)"
}

if [ ! -d $P ]; then
	ktap_plan 1
	ktap_skip "zswap on zpool zsmalloc" "this kernel has no zswap ($(uname -r), CONFIG_ZSWAP unset)"
	ktap_finish
fi

SHRINKER_WAS=$(cat $P/shrinker_enabled 2>/dev/null || true)
ktap_plan 10
ktap_step "load zsmalloc ($ZS_ALLOCATOR)" load_allocator
ktap_step "zswap on zpool zsmalloc" zswap_on
ktap_step "swap on the scratch disk" swap_disk
ktap_step "memory cgroup of ${LIMIT_MIB} MiB" zs_memcg $CG $LIMIT_MIB
ktap_step "memhog ${HOG_MIB} MiB through zswap, every byte checked" hog 99
ktap_step "swapoff; zswap lets go of zsmalloc" let_go
if [ "$ZS_ALLOCATOR" = ours ] || ! zs_module_steps; then
	ktap_step "zswap on zpool zsmalloc again" zswap_on
	ktap_step "swap on the scratch disk again" swap_disk
	ktap_step "pool full: write back through .shrink, every byte checked" writeback
else
	for t in "zswap on zpool zsmalloc again" "swap on the scratch disk again" \
		"pool full: write back through .shrink"; do
		ktap_skip "$t" "stock 6.1 zsmalloc has no zpool .shrink"
	done
fi
ktap_test "swapoff, zswap off" cleanup
ktap_finish
