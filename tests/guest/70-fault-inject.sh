#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# 70-fault-inject: test_zsmalloc.ko's cases that need injected allocation
# failures (task-filter mode: a case marks its own kthreads make-it-fail,
# nothing else in the guest is touched).
#
# compact_no_pages and malloc_no_pages, with fail_page_alloc failing every
# page allocation of the case's make-it-fail task: a compaction that can
# move nothing must still give its CPU up to a kthread that uses the class
# beside it; an allocation must take a free slot that needs no page.
#
# faults, the concurrent stress with fail_page_alloc and failslab failing
# one allocation in ten made by its kthreads, i.e. by the allocator on their
# behalf: zs_malloc() may fail, only with -ENOMEM; every object keeps its
# content and the pool ends empty; 90-kmemleak then looks for leaks.
#
# Needs a kernel with CONFIG_FAIL_PAGE_ALLOC and CONFIG_FAILSLAB (the debug
# kernels, the series kernels); skipped on Debian's.
set -u
. "$(dirname "$0")/lib.sh"

FI=/sys/kernel/debug

# fault_attr NAME PROBABILITY: arm (or, with 0, disarm) one fault_attr.
fault_attr() {
	d=$FI/$1
	echo Y >"$d/task-filter" &&
		echo 0 >"$d/verbose" &&
		echo 1 >"$d/interval" &&
		echo -1 >"$d/times" &&
		echo N >"$d/ignore-gfp-wait" &&
		echo "$2" >"$d/probability" || return 1
	case $1 in
	fail_page_alloc) echo 0 >"$d/min-order" && echo N >"$d/ignore-gfp-highmem" ;;
	esac
}

# fault_case CASES PAGE_ALLOC SLAB: test_zsmalloc's CASES, with fail_page_alloc
# and failslab armed at those probabilities (percent), as one test.
fault_case() {
	if ! fault_attr fail_page_alloc "$2" || ! fault_attr failslab "$3"; then
		ktap_diag "cannot arm fail_page_alloc and failslab"
		ktap_not_ok "$1"
		return
	fi
	# shellcheck disable=SC2086 # the parameters are meant to be split
	run_kernel_ktap test_zsmalloc cases="$1" ${ZS_TEST_PARAMS:-} || true
	fault_attr fail_page_alloc 0
	fault_attr failslab 0
}

ktap_plan 2
if [ ! -d $FI/fail_page_alloc ] || [ ! -d $FI/failslab ]; then
	ktap_skip compact_no_pages,malloc_no_pages "kernel without fail_page_alloc/failslab"
	ktap_skip faults "kernel without fail_page_alloc/failslab"
	ktap_finish
fi

load_allocator || true
fault_case compact_no_pages,malloc_no_pages 100 0
fault_case faults 10 10
ktap_finish
