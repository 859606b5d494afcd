#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# 90-kmemleak: the last suite.  Once the earlier suites have freed
# everything and unloaded the modules, two kmemleak scans (an object is
# reported only when it stayed unreferenced for 5 s) must find nothing
# allocated from the modules this project loads: no backtrace frame in
# zsmalloc, zram, test_zsmalloc or zs_bench, nor at an address that no
# longer resolves (the code of an unloaded module).  Other suspects
# (boot-time false positives of the debug kernel) are counted, not judged.
# Needs CONFIG_DEBUG_KMEMLEAK (the debug kernel); skipped on Debian's.
set -u
. "$(dirname "$0")/lib.sh"

KL=/sys/kernel/debug/kmemleak
OURS='zsmalloc|zram|test_zsmalloc|zs_bench'

# Unload what an earlier suite left loaded.  zsmalloc may stay: once
# zswap's pool has been full, Debian 6.1's zswap leaks a reference to it
# (see 60-zswap); its live objects are then referenced, not leaks.
unload_all() {
	for m in test_zsmalloc zs_bench zram zsmalloc; do
		zs_module_loaded $m || continue
		[ $m != zsmalloc ] || zs_module_steps || continue
		echo "$m was still loaded" >&2
		rmmod $m
	done
	! zs_module_loaded zram && ! zs_module_loaded test_zsmalloc
}

# Print every kmemleak record, marking those that point into our modules
# (a frame "[module]", or a bare address: with KALLSYMS_ALL only the code
# of an unloaded module no longer resolves);
# fail if any does.  Bracket expressions, not backslashes: busybox awk and
# gawk read escapes in -v values differently.
our_leaks() {
	echo scan >$KL && sleep 6 && echo scan >$KL || return 1
	awk -v ours="[[]($OURS)[]]\$|[]] 0x[0-9a-f]+\$" '
		/^unreferenced object/ { flush(); rec = $0; mine = 0; n++; next }
		{ rec = rec "\n" $0; if ($0 ~ ours) mine = 1 }
		function flush() {
			if (rec == "") return
			print (mine ? "FROM OUR MODULES: " : "other: ") rec
			bad += mine
		}
		END { flush(); printf "%d suspects, %d from our modules\n", n, bad;
		      exit bad > 0 }' $KL
}

ktap_plan 2
if [ ! -e $KL ]; then
	ktap_skip unloaded "kernel without kmemleak"
	ktap_skip kmemleak "kernel without kmemleak"
	ktap_finish
fi
ktap_test unloaded unload_all
if zs_module_steps && zs_module_loaded zsmalloc; then
	ktap_diag "zsmalloc stays loaded, refcnt $(cat /sys/module/zsmalloc/refcnt)"
fi
ktap_test kmemleak our_leaks
ktap_finish
