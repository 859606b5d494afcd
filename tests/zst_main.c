// SPDX-License-Identifier: GPL-2.0
/*
 * zst_main.c - test_zsmalloc.ko, a KTAP self-test of the zsmalloc API
 *
 * A plain test module (the Debian 6.1 kernel has no KUnit) that exercises
 * the public zs_* API only, so the very same test_zsmalloc.ko runs against
 * the stock mm/zsmalloc.ko and against this project's drop-in replacement.
 * The same source builds for the kernels of the patch series, 6.12 and
 * 7.2, whose API differences zst_api.h wraps (see "How objects are
 * accessed" below).
 *
 * This file is the driver: the module parameters, the table of cases,
 * cases= and module init.  The cases are split by what they test:
 * zst_api_cases.c (the API and bad input), zst_compact.c (compaction),
 * zst_concurrent.c (kthreads on one pool), zst_random.c (random
 * operations); zst_common.c holds what they share (object contents and
 * the helpers around struct zst_obj), zst.h declares it, and zst_api.h,
 * which bench/zs_bench.c includes too, wraps each kernel's zs_* API.
 *
 * Everything happens at module init: each case runs in turn and the module
 * prints one KTAP version 1 document to the kernel log, one printk() per
 * line and without any prefix, so a harness can cut it out of dmesg:
 *
 *	KTAP version 1
 *	1..7
 *	# test_zsmalloc: seed=... (and the other parameters)
 *	# every_size: ...diagnostics...
 *	ok 2 every_size
 *	ok 6 enomem # SKIP opt-in: pass cases=default,enomem
 *
 * Without cases= the document lists every case, the opt-in ones as
 * skipped; with cases= it lists only the cases selected, numbered from 1.
 * Each case seeds its PRNG from the seed and its place in zst_cases[], so
 * "seed=S cases=NAME" replays one case of an earlier run exactly (the
 * concurrent case up to thread interleaving).
 *
 * Init returns 0 once the document is printed, whatever the verdicts (the
 * harness reads them from the KTAP lines and rmmods the module); it returns
 * -EINVAL, after a "Bail out!" line, only when the parameters are invalid
 * (busybox insmod then retries the load, so the line may appear twice).
 *
 * How objects are checked: every live object is described by a
 * struct zst_obj, and its content is a pseudo-random byte stream derived
 * from (seed, handle, size, tag).  An object holds at most two such
 * streams: bytes [0, split) come from tag @lo and bytes [split, size) from
 * tag @hi, which lets a read-write access rewrite only the tail of an
 * object and still have the untouched head checked afterwards.  Objects
 * are written whole (ZST_WO), read back (ZST_RO) and modified (ZST_RW).
 * Cases verify every live object after each phase, so a write that strays
 * past an object's end (notably for objects spanning two pages) shows up
 * as a mismatch in a neighbour.
 *
 * How objects are accessed: through zst_map() and zst_unmap() (zst_api.h),
 * with a PAGE_SIZE scratch buffer each thread allocates beforehand:
 *  - 6.1 and 6.12: zs_map_object() with ZS_MM_WO, ZS_MM_RO or ZS_MM_RW, then
 *    zs_unmap_object(); the scratch buffer is not used.
 *  - 7.x, which has no mapping: a read is zs_obj_read_begin() with the
 *    scratch buffer as the copy of an object spanning two pages (none for
 *    an object of PAGE_SIZE, as zram reads), then zs_obj_read_end(); a
 *    write fills the scratch buffer and hands it to zs_obj_write(); a
 *    read-write access reads into the scratch buffer, changes it there and
 *    writes it all back.
 * A second read path, zst_read_sg(), checks every object in every_size's
 * last phase and in random_ops' full checks: on 7.x the scatterlist read
 * (zs_obj_read_sg_begin(), each piece mapped with kmap_local_page(), then
 * zs_obj_read_sg_end()), on 6.x a copy out of a ZS_MM_RO mapping.  Sizes
 * over PAGE_SIZE fail with -EINVAL on 6.1 and with -ENOSPC from 6.12 on.
 *
 * Access rules honoured throughout (the 6.x mapping's, kept on 7.x): an
 * access is atomic (no sleeping, no allocation, no zs_malloc()/zs_free()
 * between zst_map() and zst_unmap()), and a CPU accesses only one object
 * at a time.  Long loops call cond_resched() between objects, never inside
 * an access.
 *
 * Cases (see zst_cases[]): pool_basics, every_size, bad_input,
 * fill_free_compact, concurrent run by default; enomem (drives a pool to
 * allocation failure with GFP_NOWAIT), destroy_nonempty (stock 6.1
 * WARNs and leaks movable pages there) and faults (concurrent under
 * injected allocation failures), bad_handle and garbage_handle (ours only:
 * stock 6.1 trusts handles), compact_latency (a measurement, printed and
 * not judged), compact_busy (a compaction beside a busy class empties it),
 * page_drop_retry (ours only: a page whose drop found it locked is given
 * back by compaction), sleeping_read (7.x: a read that sleeps keeps its
 * object where it is through compaction and migration), node_kept (7.x on
 * a node without a CPU: objects stay on their node through compaction),
 * compact_no_pages and malloc_no_pages (with fail_page_alloc armed: a
 * compaction that can attach no page still gives its CPU up while it walks;
 * an allocation that can have no page takes a slot that needs none),
 * random_ops (ops= seeded random API operations) and random_ops_bad (the
 * same with garbage and stale handles: ours only) only when named in
 * cases=.  On 7.x the bad-handle cases read, write and read
 * through the scatterlist where 6.x maps: each must give zeroes, write
 * nowhere and warn.
 */

/*
 * No pr_fmt(): the KTAP lines must reach the log without a prefix, and
 * this module prints nothing but KTAP lines.
 */
#include <linux/bitops.h>
#include <linux/cpumask.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "zst.h"

static char *cases;
module_param(cases, charp, 0444);
MODULE_PARM_DESC(cases,
		 "Comma-separated cases to run: case names, 'default' (the default set) or 'all'; empty runs the default set");

static ulong seed;
module_param(seed, ulong, 0444);
MODULE_PARM_DESC(seed, "Seed for sizes, orders and patterns (0: pick one at random and print it)");

uint zst_nr_objects = 16384;
module_param_named(nr_objects, zst_nr_objects, uint, 0444);
MODULE_PARM_DESC(nr_objects, "Objects in fill_free_compact (min 2, max 1048576)");

uint zst_threads;
module_param_named(threads, zst_threads, uint, 0444);
MODULE_PARM_DESC(threads, "Worker kthreads in concurrent (0: one per online CPU; max 256)");

uint zst_loops = 100000;
module_param_named(loops, zst_loops, uint, 0444);
MODULE_PARM_DESC(loops, "Operations per worker kthread in concurrent");

uint zst_thread_objects = 512;
module_param_named(thread_objects, zst_thread_objects, uint, 0444);
MODULE_PARM_DESC(thread_objects, "Object slots per worker kthread in concurrent (min 1, max 65536)");

uint zst_ops = 100000;
module_param_named(ops, zst_ops, uint, 0444);
MODULE_PARM_DESC(ops, "Operations in random_ops and random_ops_bad");

uint zst_lat_rounds = 32;
module_param_named(lat_rounds, zst_lat_rounds, uint, 0444);
MODULE_PARM_DESC(lat_rounds, "Most compactions compact_latency samples beside (min 1)");

uint zst_enomem_cap_mb;
module_param_named(enomem_cap_mb, zst_enomem_cap_mb, uint, 0444);
MODULE_PARM_DESC(enomem_cap_mb, "Stop enomem at this pool size in MiB (0: total RAM, i.e. run until failure)");

/* The seed actually used (the parameter, or a random one if it was 0). */
u64 zst_seed;

atomic_t zst_bad_calls;
long zst_warnings_before;

/* -------------------------------------------------------------------- */
/* Driver                                                               */
/* -------------------------------------------------------------------- */

/**
 * struct zst_case - a test case
 * @name: name in KTAP lines and in cases=
 * @run: the case; it reports through its struct zst_case_ctx
 * @optin: run only when named in cases= (or with cases=all)
 */
struct zst_case {
	const char *name;
	void (*run)(struct zst_case_ctx *c);
	bool optin;
};

static const struct zst_case zst_cases[] = {
	{ "pool_basics",	zst_case_pool_basics,		false },
	{ "every_size",		zst_case_every_size,		false },
	{ "bad_input",		zst_case_bad_input,		false },
	{ "fill_free_compact",	zst_case_fill_free_compact,	false },
	{ "concurrent",		zst_case_concurrent,		false },
	{ "enomem",		zst_case_enomem,		true },
	{ "destroy_nonempty",	zst_case_destroy_nonempty,	true },
	{ "faults",		zst_case_faults,		true },
	{ "bad_handle",		zst_case_bad_handle,		true },
	{ "garbage_handle",	zst_case_garbage_handle,	true },
	{ "compact_latency",	zst_case_compact_latency,	true },
	{ "compact_busy",	zst_case_compact_busy,		true },
	{ "page_drop_retry",	zst_case_page_drop_retry,	true },
	{ "sleeping_read",	zst_case_sleeping_read,		true },
	{ "node_kept",		zst_case_node_kept,		true },
	{ "compact_no_pages",	zst_case_compact_no_pages,	true },
	{ "malloc_no_pages",	zst_case_malloc_no_pages,	true },
	{ "random_ops",		zst_case_random_ops,		true },
	{ "random_ops_bad",	zst_case_random_ops_bad,	true },
};

/**
 * zst_select() - parse cases= into a bitmap of cases to run
 * @selected: set to the cases to run
 *
 * Return: 0, or -EINVAL after a KTAP "Bail out!" line naming a bad token.
 */
static int zst_select(unsigned long *selected)
{
	char *copy, *p, *tok;
	unsigned int i;
	int ret = 0;

	BUILD_BUG_ON(ARRAY_SIZE(zst_cases) > BITS_PER_LONG);
	*selected = 0;
	if (!cases || !*cases) {
		for (i = 0; i < ARRAY_SIZE(zst_cases); i++)
			if (!zst_cases[i].optin)
				*selected |= BIT(i);
		return 0;
	}

	copy = kstrdup(cases, GFP_KERNEL);
	if (!copy)
		return -ENOMEM;
	p = copy;
	while ((tok = strsep(&p, ",")) != NULL) {
		bool found = false;

		tok = strim(tok);
		if (!*tok)
			continue;
		for (i = 0; i < ARRAY_SIZE(zst_cases); i++) {
			if (!strcmp(tok, "all") || !strcmp(tok, zst_cases[i].name) ||
			    (!strcmp(tok, "default") && !zst_cases[i].optin)) {
				*selected |= BIT(i);
				found = true;
			}
		}
		if (!found) {
			ktap("Bail out! unknown case '%s' in cases=", tok);
			ret = -EINVAL;
			break;
		}
	}
	kfree(copy);
	return ret;
}

static int zst_check_params(void)
{
	if (zst_nr_objects < 2 || zst_nr_objects > (1U << 20)) {
		ktap("Bail out! nr_objects=%u out of range", zst_nr_objects);
		return -EINVAL;
	}
	if (zst_threads > 256) {
		ktap("Bail out! threads=%u out of range", zst_threads);
		return -EINVAL;
	}
	if (!zst_thread_objects || zst_thread_objects > 65536) {
		ktap("Bail out! thread_objects=%u out of range", zst_thread_objects);
		return -EINVAL;
	}
	return 0;
}

static int __init test_zsmalloc_init(void)
{
	unsigned int i, nr = 0, failed = 0, skipped = 0, passed = 0;
	bool all_shown = !cases || !*cases;
	unsigned long selected;
	int ret;

	ktap("KTAP version 1");
	ret = zst_check_params();
	if (ret)
		return ret;
	ret = zst_select(&selected);
	if (ret)
		return ret;

	zst_seed = seed ? seed : get_random_u64();
	/* Without cases=, opt-in cases are listed as skipped; with it, only its own. */
	ktap("1..%lu", all_shown ? (unsigned long)ARRAY_SIZE(zst_cases) :
				   hweight_long(selected));
	ktap("# test_zsmalloc: seed=%llu nr_objects=%u enomem_cap_mb=%u ops=%u lat_rounds=%u",
	     zst_seed, zst_nr_objects, zst_enomem_cap_mb, zst_ops, zst_lat_rounds);
	ktap("# test_zsmalloc: threads=%u (online CPUs %u) loops=%u thread_objects=%u",
	     zst_threads, num_online_cpus(), zst_loops, zst_thread_objects);

	for (i = 0; i < ARRAY_SIZE(zst_cases); i++) {
		const struct zst_case *tc = &zst_cases[i];
		struct zst_case_ctx c = { .name = tc->name };
		u64 start;

		if (!(selected & BIT(i))) {
			if (!all_shown)
				continue;
			skipped++;
			ktap("ok %u %s # SKIP opt-in: pass cases=default,%s",
			     ++nr, tc->name, tc->name);
			continue;
		}
		/* Seeded by case number: a case replays alone with the same seed. */
		c.seed = zst_seed + i;
		prandom_seed_state(&c.rnd, c.seed);
		c.scratch = kmalloc(PAGE_SIZE, GFP_KERNEL);
		atomic_set(&zst_bad_calls, 0);
		zst_warnings_before = zst_warn_count();
		start = ktime_get_ns();
		if (c.scratch)
			tc->run(&c);
		else
			c.skip = "cannot allocate a scratch page";
		zst_expect_bad_calls(&c);
		kfree(c.scratch);
		/* Where a slow kernel (KASAN, TCG) spends a suite's time. */
		ktap("# %s: %llu ms", tc->name,
		     div_u64(ktime_get_ns() - start, NSEC_PER_MSEC));
		nr++;
		if (c.failures) {
			failed++;
			if (c.failures > ZST_MAX_REPORTS)
				zst_diag(&c, "%u failed checks, %u not shown",
					 c.failures, c.failures - ZST_MAX_REPORTS);
			ktap("not ok %u %s", nr, tc->name);
		} else if (c.skip) {
			skipped++;
			ktap("ok %u %s # SKIP %s", nr, tc->name, c.skip);
		} else {
			passed++;
			ktap("ok %u %s", nr, tc->name);
		}
	}
	ktap("# test_zsmalloc: pass:%u fail:%u skip:%u", passed, failed, skipped);
	return 0;
}

static void __exit test_zsmalloc_exit(void)
{
}

module_init(test_zsmalloc_init);
module_exit(test_zsmalloc_exit);

MODULE_DESCRIPTION("KTAP self-test of the zsmalloc API");
MODULE_LICENSE("GPL");
