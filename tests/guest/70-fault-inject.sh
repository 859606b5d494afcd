#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# 70-fault-inject: test_zsmalloc.ko's faults case, the concurrent stress
# with fail_page_alloc and failslab failing one allocation in ten made by
# its kthreads, i.e. by the allocator on their behalf (task-filter mode:
# the case marks its kthreads make-it-fail, nothing else in the guest is
# touched).  zs_malloc() may fail, only with -ENOMEM; every object keeps
# its content and the pool ends empty; 90-kmemleak then looks for leaks.
# Needs a kernel with CONFIG_FAIL_PAGE_ALLOC and CONFIG_FAILSLAB (the
# debug kernel of make check-debug); skipped on Debian's.
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

if [ ! -d $FI/fail_page_alloc ] || [ ! -d $FI/failslab ]; then
	ktap_plan 1
	ktap_skip faults "kernel without fail_page_alloc/failslab"
	ktap_finish
fi

load_allocator || true
if ! fault_attr fail_page_alloc 10 || ! fault_attr failslab 10; then
	ktap_plan 1
	ktap_diag "cannot arm fail_page_alloc and failslab"
	ktap_not_ok faults
	ktap_finish
fi
# shellcheck disable=SC2086 # the parameters are meant to be split
run_kernel_ktap test_zsmalloc cases=faults ${ZS_TEST_PARAMS:-}
fault_attr fail_page_alloc 0
fault_attr failslab 0
ktap_finish
