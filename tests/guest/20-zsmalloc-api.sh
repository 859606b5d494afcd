#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# 20-zsmalloc-api: test_zsmalloc.ko's default cases (pool_basics, every_size,
# bad_input, fill_free_compact, concurrent) against the allocator picked by
# ZS_ALLOCATOR, while a background loop keeps writing 1 to
# /proc/sys/vm/compact_memory so the kernel migrates the pool's pages under
# the test's feet.  The module's KTAP document is the suite's document.
#
# Against ours, destroy_nonempty, bad_handle and garbage_handle run too.
# Against stock destroy_nonempty is left out: stock 6.1 WARNs
# there (kmem_cache_destroy() of a handle cache that still has objects) and
# leaves movable pages pointing at the freed pool, which this very
# compaction loop turns into an oops in zs_page_migrate().  bad_handle and
# garbage_handle map handles that name no object, which stock 6.1 trusts (a
# write into another object, an oops); ours warns at the first such call in
# each pool, which the test announces to the verdict with a kernel line
# "# zs-harness: expect-warning FUNCTION" (the verdict then requires it), and
# checks through /sys/kernel/warn_count that each case warned once.
#
# compact_latency, on both, prints how long zs_malloc() + map + unmap take
# in a class while another thread compacts it: a measurement, not judged.
# compact_busy, on both, checks that such a compaction empties the class all
# the same, every object intact.  page_drop_retry, ours only, checks that a page whose drop found
# it locked (as migration holds it) is given back by the next compaction.
# sleeping_read, on both (7.x with CONFIG_CONTIG_ALLOC, else skipped), reads
# an object and sleeps while zs_compact() runs and alloc_contig_range() asks
# for its page: the object must stay and the page be refused.  node_kept, on
# both (7.x with a node that has memory and no CPU, as make check KSERIES=
# boots, else skipped), allocates on that node, compacts from node 0's CPUs
# and checks every object is still on its node.
#
# random_ops runs a seeded random sequence of mallocs (sizes 0..PAGE_SIZE+1),
# frees, RO/WO/RW maps and compactions checked against a shadow of every
# object; against ours it runs as random_ops_bad, which adds frees and maps
# of garbage and stale handles (one announced WARNING each, as above).
#
# ZS_CONCURRENT_LOOPS (GUEST_ENV) sets the operations per kthread of the
# concurrent case (the module's default when unset); PREEMPT_RT runs it longer.
# ZS_RANDOM_OPS sets the length of random_ops (the module's default, a short
# run, when unset), ZS_NR_OBJECTS fill_free_compact's object count.
# ZS_LATENCY_ROUNDS caps the compactions compact_latency samples beside.
# The debug kernels set ZS_CONCURRENT_LOOPS, ZS_NR_OBJECTS, ZS_RANDOM_OPS
# and ZS_LATENCY_ROUNDS lower (see DEBUG_GUEST_ENV), leaving
# ZS_TEST_PARAMS to the caller.
#
# The module prints the seed it drew; to replay a run, boot with the same
# module parameters, e.g. GUEST_ENV=ZS_TEST_PARAMS=seed=1234.
set -u
. "$(dirname "$0")/lib.sh"

compact_loop() {
	while :; do
		echo 1 >/proc/sys/vm/compact_memory
	done
}

# run_kernel_ktap reports a failure to load it as the suite's one result.
load_allocator || true

cases=cases=default,compact_latency,compact_busy,sleeping_read,node_kept,random_ops
[ "${ZS_ALLOCATOR:-}" = ours ] &&
	cases=cases=default,destroy_nonempty,bad_handle,garbage_handle,compact_latency,compact_busy,page_drop_retry,sleeping_read,node_kept,random_ops_bad
params=
[ -z "${ZS_CONCURRENT_LOOPS:-}" ] || params=loops=$ZS_CONCURRENT_LOOPS
[ -z "${ZS_RANDOM_OPS:-}" ] || params="$params ops=$ZS_RANDOM_OPS"
[ -z "${ZS_NR_OBJECTS:-}" ] || params="$params nr_objects=$ZS_NR_OBJECTS"
[ -z "${ZS_LATENCY_ROUNDS:-}" ] || params="$params lat_rounds=$ZS_LATENCY_ROUNDS"

before=$(sed -n 's/^pgmigrate_success //p' /proc/vmstat)
compact_loop &
loop_pid=$!
# shellcheck disable=SC2086 # the parameters are meant to be split
run_kernel_ktap test_zsmalloc $cases $params ${ZS_TEST_PARAMS:-}
kill "$loop_pid"
wait "$loop_pid" 2>/dev/null
after=$(sed -n 's/^pgmigrate_success //p' /proc/vmstat)
ktap_diag "compact_memory loop: $((after - before)) pages migrated meanwhile"
ktap_finish
