// SPDX-License-Identifier: GPL-2.0
/*
 * test_zsmalloc.c - KTAP self-test of the zsmalloc API
 *
 * A plain test module (the Debian 6.1 kernel has no KUnit) that exercises
 * the public zs_* API only, so the very same test_zsmalloc.ko runs against
 * the stock mm/zsmalloc.ko and against this project's drop-in replacement.
 * The same source builds for the kernels of the patch series, 6.12 and
 * 7.2, whose API differences zst_api.h wraps (see "How objects are
 * accessed" below).
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
#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/err.h>
#include <linux/kasan.h>
#include <linux/kernel.h>
#include <linux/kthread.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/prandom.h>
#include <linux/random.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/string.h>
#include <linux/zsmalloc.h>

#include "zst_api.h"

static char *cases;
module_param(cases, charp, 0444);
MODULE_PARM_DESC(cases,
		 "Comma-separated cases to run: case names, 'default' (the default set) or 'all'; empty runs the default set");

static ulong seed;
module_param(seed, ulong, 0444);
MODULE_PARM_DESC(seed, "Seed for sizes, orders and patterns (0: pick one at random and print it)");

static uint nr_objects = 16384;
module_param(nr_objects, uint, 0444);
MODULE_PARM_DESC(nr_objects, "Objects in fill_free_compact (min 2, max 1048576)");

static uint threads;
module_param(threads, uint, 0444);
MODULE_PARM_DESC(threads, "Worker kthreads in concurrent (0: one per online CPU; max 256)");

static uint loops = 100000;
module_param(loops, uint, 0444);
MODULE_PARM_DESC(loops, "Operations per worker kthread in concurrent");

static uint thread_objects = 512;
module_param(thread_objects, uint, 0444);
MODULE_PARM_DESC(thread_objects, "Object slots per worker kthread in concurrent (min 1, max 65536)");

static uint random_ops = 100000;
module_param_named(ops, random_ops, uint, 0444);
MODULE_PARM_DESC(ops, "Operations in random_ops and random_ops_bad");

static uint enomem_cap_mb;
module_param(enomem_cap_mb, uint, 0444);
MODULE_PARM_DESC(enomem_cap_mb, "Stop enomem at this pool size in MiB (0: total RAM, i.e. run until failure)");

/* Allocation flags of zram's fallback path: may sleep, movable pages. */
#define ZST_GFP		(GFP_NOIO | __GFP_HIGHMEM | __GFP_MOVABLE)
/* zram's first attempt: cannot reclaim, only wakes kswapd. */
#define ZST_GFP_NOWAIT	(GFP_NOWAIT | __GFP_NOWARN | __GFP_HIGHMEM | __GFP_MOVABLE)

/* Failures printed per case (or per worker); the rest are only counted. */
#define ZST_MAX_REPORTS	5

/* 2^64 / golden ratio: spreads consecutive word indices over 64 bits. */
#define ZST_GOLDEN	0x9e3779b97f4a7c15ULL

#define ktap(fmt, ...)	pr_info(fmt "\n", ##__VA_ARGS__)

/* The seed actually used (the parameter, or a random one if it was 0). */
static u64 zst_seed;

/*
 * The faults case needs CONFIG_FAULT_INJECTION: with fail_page_alloc and
 * failslab in task-filter mode, only tasks marked make-it-fail see
 * injected failures, and the case marks its own kthreads only, so that
 * every failure lands in an allocation made on behalf of a zs_* call.
 * (The stack-trace filter that could aim at the allocator's text instead
 * does not exist on x86_64.)
 */
#ifdef CONFIG_FAULT_INJECTION
static bool zst_can_inject(void)
{
	return true;
}

static void zst_inject_faults(bool on)
{
	current->make_it_fail = on;
}
#else
static bool zst_can_inject(void)
{
	return false;
}

static void zst_inject_faults(bool on)
{
}
#endif

/**
 * struct zst_obj - one test object and the content it must hold
 * @handle: zs_malloc() handle, 0 when the slot is free
 * @size: requested size in bytes
 * @split: bytes [0, @split) hold stream @lo, bytes [@split, @size) stream @hi
 * @lo: tag of the head stream
 * @hi: tag of the tail stream (unused while @split == @size)
 */
struct zst_obj {
	unsigned long handle;
	u32 size;
	u32 split;
	u32 lo;
	u32 hi;
};

/**
 * struct zst_case_ctx - state of the case being run
 * @name: case name, prefixed to its diagnostics
 * @seed: what @rnd was seeded with: zst_seed plus the case's place in zst_cases[]
 * @rnd: case-private PRNG
 * @failures: failed checks so far; the case fails if non-zero
 * @skip: reason to report the case as skipped (checked only without failures)
 * @scratch: PAGE_SIZE bytes for zst_map() of the case's own thread, allocated
 *	before the case runs (zst_api.h)
 */
struct zst_case_ctx {
	const char *name;
	u64 seed;
	struct rnd_state rnd;
	unsigned int failures;
	const char *skip;
	void *scratch;
};

#define zst_diag(c, fmt, ...)	ktap("# %s: " fmt, (c)->name, ##__VA_ARGS__)

/* Count a failed check; print only the first ZST_MAX_REPORTS of a case. */
static __printf(2, 3) void zst_fail(struct zst_case_ctx *c, const char *fmt, ...)
{
	struct va_format vaf;
	va_list args;

	if (c->failures++ >= ZST_MAX_REPORTS)
		return;
	va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	ktap("# %s: FAIL: %pV", c->name, &vaf);
	va_end(args);
}

#define zst_expect(c, cond, fmt, ...)	do {				\
	if (!(cond))							\
		zst_fail(c, "%s (line %d): " fmt, #cond, __LINE__,	\
			 ##__VA_ARGS__);				\
} while (0)

/* -------------------------------------------------------------------- */
/* Patterns                                                             */
/* -------------------------------------------------------------------- */

/* MurmurHash3's 64-bit finaliser: every input bit flips half the output. */
static inline u64 zst_mix64(u64 v)
{
	v ^= v >> 33;
	v *= 0xff51afd7ed558ccdULL;
	v ^= v >> 33;
	v *= 0xc4ceb9fe1a85ec53ULL;
	v ^= v >> 33;
	return v;
}

static u64 zst_key(unsigned long handle, u32 size, u32 tag)
{
	return zst_mix64(zst_seed ^ ((u64)handle * ZST_GOLDEN) ^
			 ((u64)size << 32 | tag));
}

/* Word @w of stream @key; byte j of the stream is byte (j % 8) of word j / 8. */
static inline u64 zst_word(u64 key, size_t w)
{
	return zst_mix64(key + w * ZST_GOLDEN);
}

static inline u8 zst_byte(u64 key, size_t j)
{
	return zst_word(key, j / 8) >> (8 * (j % 8));
}

/**
 * zst_fill() - write bytes [@from, @to) of stream @key to @buf
 * @buf: start of the object
 * @key: stream key
 * @from: first byte offset
 * @to: end byte offset (exclusive)
 *
 * Context: any; used inside mappings, so it must not sleep.
 */
static void zst_fill(u8 *buf, u64 key, size_t from, size_t to)
{
	size_t j = from;

	for (; j < to && j % 8; j++)
		buf[j] = zst_byte(key, j);
	for (; j + 8 <= to; j += 8)
		put_unaligned_le64(zst_word(key, j / 8), buf + j);
	for (; j < to; j++)
		buf[j] = zst_byte(key, j);
}

/**
 * zst_find() - find the first byte of [@from, @to) not matching stream @key
 * @buf: start of the object
 * @key: stream key
 * @from: first byte offset
 * @to: end byte offset (exclusive)
 *
 * Context: any; used inside mappings, so it must not sleep.
 * Return: offset of the first mismatching byte, or -1 if all match.
 */
static long zst_find(const u8 *buf, u64 key, size_t from, size_t to)
{
	size_t j = from;

	for (; j < to && j % 8; j++)
		if (buf[j] != zst_byte(key, j))
			return j;
	for (; j + 8 <= to; j += 8)
		if (get_unaligned_le64(buf + j) != zst_word(key, j / 8))
			break;
	for (; j < to; j++)
		if (buf[j] != zst_byte(key, j))
			return j;
	return -1;
}

/* The first byte of [0, @to) of @buf not matching the object @o, or -1. */
static long zst_obj_find_to(const void *buf, const struct zst_obj *o,
			    size_t to)
{
	long off;

	off = zst_find(buf, zst_key(o->handle, o->size, o->lo), 0,
		       min_t(size_t, o->split, to));
	if (off >= 0)
		return off;
	return zst_find(buf, zst_key(o->handle, o->size, o->hi), o->split, to);
}

static long zst_obj_find(const void *buf, const struct zst_obj *o)
{
	return zst_obj_find_to(buf, o, o->size);
}

/* -------------------------------------------------------------------- */
/* Object helpers                                                       */
/* -------------------------------------------------------------------- */

static u32 zst_rand_range(struct rnd_state *rnd, u32 lo, u32 hi)
{
	return lo + prandom_u32_state(rnd) % (hi - lo + 1);
}

/*
 * A zram-like mix of compressed page sizes: mostly 2000..3500 bytes, a
 * spread of smaller ones, some nearly incompressible ones and a few tiny
 * ones.  The byte values assume 4 KiB pages; they are clamped to PAGE_SIZE.
 */
static u32 zst_rand_size(struct rnd_state *rnd)
{
	u32 r = prandom_u32_state(rnd) % 100;
	u32 lo, hi;

	if (r < 55) {
		lo = 2000;
		hi = 3500;
	} else if (r < 80) {
		lo = 129;
		hi = 1999;
	} else if (r < 95) {
		lo = 3501;
		hi = PAGE_SIZE;
	} else {
		lo = 1;
		hi = 128;
	}
	return zst_rand_range(rnd, min_t(u32, lo, PAGE_SIZE),
			      min_t(u32, hi, PAGE_SIZE));
}

/**
 * zst_obj_alloc() - allocate an object of @size bytes into slot @o
 * @pool: pool
 * @o: free slot
 * @size: requested size
 * @gfp: allocation flags
 *
 * Context: may sleep if @gfp allows it.
 * Return: 0, or the negative errno zs_malloc() returned (slot stays free).
 */
static int zst_obj_alloc(struct zs_pool *pool, struct zst_obj *o, u32 size,
			 gfp_t gfp)
{
	unsigned long handle = zst_malloc(pool, size, gfp);

	if (IS_ERR_VALUE(handle))
		return PTR_ERR((void *)handle);
	if (!handle)
		return -EFAULT;	/* never a valid handle: reported as error */
	o->handle = handle;
	o->size = size;
	return 0;
}

/*
 * The object helpers below access objects through zst_map() (zst_api.h):
 * each takes the PAGE_SIZE @scratch buffer of the calling thread.
 */

/* Write a whole new stream @tag through ZST_WO. */
static void zst_obj_write(struct zs_pool *pool, struct zst_obj *o, u32 tag,
			  void *scratch)
{
	void *buf = zst_map(pool, o->handle, ZST_WO, o->size, scratch);

	zst_fill(buf, zst_key(o->handle, o->size, tag), 0, o->size);
	zst_unmap(pool, o->handle, ZST_WO, o->size, scratch, buf);
	o->lo = tag;
	o->split = o->size;
}

/* Check the object through ZST_RO; return the first bad offset or -1. */
static long zst_obj_verify(struct zs_pool *pool, const struct zst_obj *o,
			   void *scratch)
{
	void *buf = zst_map(pool, o->handle, ZST_RO, o->size, scratch);
	long off = zst_obj_find(buf, o);

	zst_unmap(pool, o->handle, ZST_RO, o->size, scratch, buf);
	return off;
}

/*
 * Check the object through zst_read_sg(); return the first bad offset or -1.
 * A byte the scatterlist did not describe as it should counts as bad.
 */
static long zst_obj_verify_sg(struct zs_pool *pool, const struct zst_obj *o,
			      void *scratch)
{
	size_t got = zst_read_sg(pool, o->handle, o->size, scratch, false);
	long off = zst_obj_find_to(scratch, o, got);

	return off < 0 && got < o->size ? got : off;
}

/**
 * zst_obj_modify() - check an object and rewrite its tail through ZST_RW
 * @pool: pool
 * @o: live object
 * @rnd: PRNG choosing the new tag and where the rewritten tail starts
 * @scratch: the calling thread's PAGE_SIZE buffer
 *
 * The tail starts at or before the current split, so the object keeps at
 * most two streams; a tail starting at 0 rewrites the whole object.  If the
 * check fails, the object is left as it was read (on 7.x, written back so).
 *
 * Context: may not be called with another object mapped on this CPU.
 * Return: first mismatching offset found before the rewrite, or -1.
 */
static long zst_obj_modify(struct zs_pool *pool, struct zst_obj *o,
			   struct rnd_state *rnd, void *scratch)
{
	u32 tag = prandom_u32_state(rnd);
	u32 split = prandom_u32_state(rnd) % (o->split + 1);
	void *buf = zst_map(pool, o->handle, ZST_RW, o->size, scratch);
	long off = zst_obj_find(buf, o);

	if (off < 0)
		zst_fill(buf, zst_key(o->handle, o->size, tag), split, o->size);
	zst_unmap(pool, o->handle, ZST_RW, o->size, scratch, buf);
	if (off >= 0)
		return off;
	if (split) {
		o->hi = tag;
		o->split = split;
	} else {
		o->lo = tag;
		o->split = o->size;
	}
	return -1;
}

static void zst_obj_free(struct zs_pool *pool, struct zst_obj *o)
{
	zs_free(pool, o->handle);
	o->handle = 0;
}

/* Byte @off of the live object @o as the pool holds it now. */
static u8 zst_obj_byte(struct zs_pool *pool, const struct zst_obj *o, long off,
		       void *scratch)
{
	u8 *buf = zst_map(pool, o->handle, ZST_RO, o->size, scratch);
	u8 found = buf[off];

	zst_unmap(pool, o->handle, ZST_RO, o->size, scratch, buf);
	return found;
}

/* Report a mismatch zst_obj_find() found in the live object @o. */
static void zst_report_mismatch(struct zst_case_ctx *c, struct zs_pool *pool,
				const char *phase, unsigned long idx,
				const struct zst_obj *o, long off)
{
	u32 tag = off < o->split ? o->lo : o->hi;
	u8 want = zst_byte(zst_key(o->handle, o->size, tag), off);

	/* Read again: a byte that changed back meanwhile shows as equal. */
	zst_fail(c,
		 "%s: object %lu (size %u, split %u) differs at byte %ld: expected %#04x, found %#04x",
		 phase, idx, o->size, o->split, off, want,
		 zst_obj_byte(pool, o, off, c->scratch));
}

/*
 * Verify every live object of @objs, through zst_read_sg() if @sg, else
 * through ZST_RO; return the number of bad ones.
 */
static unsigned long zst_verify_objs(struct zst_case_ctx *c,
				     struct zs_pool *pool, struct zst_obj *objs,
				     unsigned long n, const char *phase,
				     bool sg)
{
	unsigned long i, bad = 0;
	long off;

	for (i = 0; i < n; i++) {
		if (!objs[i].handle)
			continue;
		if (sg)
			off = zst_obj_verify_sg(pool, &objs[i], c->scratch);
		else
			off = zst_obj_verify(pool, &objs[i], c->scratch);
		if (off >= 0) {
			bad++;
			zst_report_mismatch(c, pool, phase, i, &objs[i], off);
		}
		cond_resched();
	}
	return bad;
}

static unsigned long zst_verify_all(struct zst_case_ctx *c,
				    struct zs_pool *pool, struct zst_obj *objs,
				    unsigned long n, const char *phase)
{
	return zst_verify_objs(c, pool, objs, n, phase, false);
}

/* The same through the scatterlist read (7.x; 6.x: a copy of an RO map). */
static unsigned long zst_verify_all_sg(struct zst_case_ctx *c,
				       struct zs_pool *pool,
				       struct zst_obj *objs, unsigned long n,
				       const char *phase)
{
	return zst_verify_objs(c, pool, objs, n, phase, true);
}

static void zst_free_all(struct zs_pool *pool, struct zst_obj *objs,
			 unsigned long n)
{
	unsigned long i;

	for (i = 0; i < n; i++) {
		if (objs[i].handle)
			zst_obj_free(pool, &objs[i]);
		cond_resched();
	}
}

/*
 * Print the pool's footprint: live objects, requested bytes, pool pages
 * and density = requested bytes / (pages * PAGE_SIZE), in per mille.
 */
static void zst_report_pool(struct zst_case_ctx *c, struct zs_pool *pool,
			    const char *phase, const struct zst_obj *objs,
			    unsigned long n)
{
	unsigned long i, live = 0, pages = zs_get_total_pages(pool);
	u64 bytes = 0, permille = 0;

	for (i = 0; i < n; i++) {
		if (!objs[i].handle)
			continue;
		live++;
		bytes += objs[i].size;
	}
	if (pages)
		permille = div64_u64(bytes * 1000, (u64)pages * PAGE_SIZE);
	zst_diag(c, "%s: objects=%lu bytes=%llu pages=%lu density=%llu.%llu%%",
		 phase, live, bytes, pages, permille / 10, permille % 10);
}

static unsigned long zst_pages_compacted(struct zs_pool *pool)
{
	struct zs_pool_stats stats;

	memset(&stats, 0, sizeof(stats));
	zs_pool_stats(pool, &stats);
	return atomic_long_read(&stats.pages_compacted);
}

/*
 * Pool pages once they stop moving.  zs_free() and compaction may hand an
 * empty zspage to a work item instead of freeing it at once (stock does so
 * when page migration holds one of its page locks), so the page count can
 * drop a little after the call returns.  Wait for it to hold still for
 * ZST_SETTLE_MS, at most ZST_SETTLE_MAX_MS in all, and say so if it moved.
 */
#define ZST_SETTLE_MS		20
#define ZST_SETTLE_MAX_MS	5000

static unsigned long zst_settled_pages(struct zst_case_ctx *c,
				       struct zs_pool *pool, const char *phase)
{
	unsigned long first = zs_get_total_pages(pool), pages = first, prev;
	unsigned int waited = 0;

	do {
		prev = pages;
		msleep(ZST_SETTLE_MS);
		waited += ZST_SETTLE_MS;
		pages = zs_get_total_pages(pool);
	} while (pages != prev && waited < ZST_SETTLE_MAX_MS);
	if (pages != first)
		zst_diag(c, "%s: pool pages went %lu -> %lu later (deferred free)",
			 phase, first, pages);
	return pages;
}

/*
 * Expect an empty pool, allowing for deferred frees: the work item may wait
 * for a page lock that migration holds, and on a busy host for longer than
 * ZST_SETTLE_MS (fill_free_compact once saw "1 pages left" that way), so
 * wait for zero, not for the count to hold still.
 */
static void zst_expect_empty(struct zst_case_ctx *c, struct zs_pool *pool,
			     const char *phase)
{
	unsigned long first = zs_get_total_pages(pool), pages = first;
	unsigned int waited = 0;

	while (pages && waited < ZST_SETTLE_MAX_MS) {
		msleep(ZST_SETTLE_MS);
		waited += ZST_SETTLE_MS;
		pages = zs_get_total_pages(pool);
	}
	if (first)
		zst_diag(c, "%s: pool pages went %lu -> %lu in %u ms (deferred free)",
			 phase, first, pages, waited);
	zst_expect(c, pages == 0, "%s: %lu pages left", phase, pages);
}

/* Fisher-Yates shuffle of 0..n-1 into @order. */
static void zst_shuffle(struct rnd_state *rnd, u32 *order, u32 n)
{
	u32 i, j, t;

	for (i = 0; i < n; i++)
		order[i] = i;
	for (i = n - 1; i > 0; i--) {
		j = prandom_u32_state(rnd) % (i + 1);
		t = order[i];
		order[i] = order[j];
		order[j] = t;
	}
}

/* -------------------------------------------------------------------- */
/* Cases                                                                */
/* -------------------------------------------------------------------- */

/*
 * pool_basics: a new pool is empty; zs_huge_class_size() is sane; a
 * PAGE_SIZE object costs exactly one page; two pools account separately.
 */
static void zst_case_pool_basics(struct zst_case_ctx *c)
{
	struct zst_obj objs[32], other = {};
	struct zs_pool *pool, *pool2;
	unsigned long pages, i;
	size_t huge;
	int err;

	memset(objs, 0, sizeof(objs));
	pool = zs_create_pool("zst_basics");
	if (!pool) {
		zst_fail(c, "zs_create_pool() returned NULL");
		return;
	}
	zst_expect(c, zs_get_total_pages(pool) == 0, "new pool not empty");
	zst_expect(c, zs_compact(pool) == 0, "compacting an empty pool freed pages");
	zst_expect(c, zst_pages_compacted(pool) == 0, "new pool has compaction stats");

	huge = zs_huge_class_size(pool);
	zst_diag(c, "zs_huge_class_size=%zu", huge);
	zst_expect(c, huge > 0 && huge <= PAGE_SIZE, "huge class size %zu", huge);

	/* One byte: the smallest object. */
	err = zst_obj_alloc(pool, &objs[0], 1, ZST_GFP);
	zst_expect(c, !err, "zs_malloc(1) = %d", err);
	if (!err) {
		zst_expect(c, zs_get_total_pages(pool) >= 1, "1-byte object uses no page");
		zst_obj_write(pool, &objs[0], prandom_u32_state(&c->rnd), c->scratch);
		zst_expect(c, zst_obj_verify(pool, &objs[0], c->scratch) < 0,
			   "1-byte object corrupt");
		zst_obj_free(pool, &objs[0]);
	}
	zst_expect_empty(c, pool, "1-byte object freed");

	/* Full-page objects: one page each, no more, no less. */
	for (i = 0; i < ARRAY_SIZE(objs); i++) {
		err = zst_obj_alloc(pool, &objs[i], PAGE_SIZE, ZST_GFP);
		if (err) {
			zst_fail(c, "zs_malloc(PAGE_SIZE) = %d", err);
			break;
		}
		zst_obj_write(pool, &objs[i], prandom_u32_state(&c->rnd), c->scratch);
	}
	pages = zs_get_total_pages(pool);
	zst_diag(c, "%lu PAGE_SIZE objects use %lu pages", i, pages);
	zst_expect(c, pages == i, "%lu pages for %lu PAGE_SIZE objects", pages, i);
	zst_verify_all(c, pool, objs, ARRAY_SIZE(objs), "page-sized");
	zst_free_all(pool, objs, ARRAY_SIZE(objs));
	zst_expect_empty(c, pool, "page-sized freed");

	/* Objects of the huge class size: reported, not judged. */
	for (i = 0; i < ARRAY_SIZE(objs) && huge; i++) {
		err = zst_obj_alloc(pool, &objs[i], huge, ZST_GFP);
		if (err) {
			zst_fail(c, "zs_malloc(%zu) = %d", huge, err);
			break;
		}
		zst_obj_write(pool, &objs[i], prandom_u32_state(&c->rnd), c->scratch);
	}
	zst_diag(c, "%lu objects of %zu bytes use %lu pages", i, huge,
		 zs_get_total_pages(pool));
	zst_verify_all(c, pool, objs, ARRAY_SIZE(objs), "huge-sized");
	zst_free_all(pool, objs, ARRAY_SIZE(objs));
	zst_expect_empty(c, pool, "all freed");

	/* A second pool has its own accounting. */
	pool2 = zs_create_pool("zst_basics2");
	if (!pool2) {
		zst_fail(c, "second zs_create_pool() returned NULL");
		goto destroy_pool;
	}
	err = zst_obj_alloc(pool2, &other, PAGE_SIZE, ZST_GFP);
	zst_expect(c, !err, "zs_malloc() in second pool = %d", err);
	if (!err) {
		zst_expect(c, zs_get_total_pages(pool2) == 1, "second pool pages");
		zst_expect(c, zs_get_total_pages(pool) == 0, "first pool charged");
		zst_obj_write(pool2, &other, prandom_u32_state(&c->rnd), c->scratch);
		zst_expect(c, zst_obj_verify(pool2, &other, c->scratch) < 0, "object corrupt");
		zst_obj_free(pool2, &other);
	}
	zst_expect_empty(c, pool2, "second pool");
	zs_destroy_pool(pool2);
destroy_pool:
	zs_destroy_pool(pool);
}

/**
 * zst_case_setup() - the object and order arrays and the pool of a case
 * @c: the case, marked skipped or failed if this fails
 * @name: pool name
 * @n: array length
 * @objs: set to @n free object slots
 * @order: set to an array of @n indices, for zst_shuffle()
 *
 * Return: the new pool, or NULL with nothing left allocated.
 */
static struct zs_pool *zst_case_setup(struct zst_case_ctx *c, const char *name,
				      u32 n, struct zst_obj **objs, u32 **order)
{
	struct zs_pool *pool;

	*objs = kvcalloc(n, sizeof(**objs), GFP_KERNEL);
	*order = kvcalloc(n, sizeof(**order), GFP_KERNEL);
	if (!*objs || !*order) {
		c->skip = "cannot allocate test arrays";
		goto free_arrays;
	}
	pool = zs_create_pool(name);
	if (pool)
		return pool;
	zst_fail(c, "zs_create_pool() returned NULL");
free_arrays:
	kvfree(*order);
	kvfree(*objs);
	return NULL;
}

/* Allocate a zram-like random size into every free slot, write it by WO. */
static void zst_fill_free_slots(struct zst_case_ctx *c, struct zs_pool *pool,
				struct zst_obj *objs, unsigned long n,
				const char *phase)
{
	unsigned long i;
	u32 size;
	int err;

	for (i = 0; i < n; i++) {
		if (objs[i].handle)
			continue;
		size = zst_rand_size(&c->rnd);
		err = zst_obj_alloc(pool, &objs[i], size, ZST_GFP);
		if (err) {
			zst_fail(c, "%s: zs_malloc(%u) = %d", phase, size, err);
			continue;
		}
		zst_obj_write(pool, &objs[i], prandom_u32_state(&c->rnd), c->scratch);
		cond_resched();
	}
}

/*
 * every_size: objects of every size 1..PAGE_SIZE live at once in one pool,
 * allocated and written in random order, so neighbours of every size and
 * objects spanning pages occur naturally.  The last check reads them all
 * through zst_read_sg() too (on 7.x the scatterlist read).
 */
static void zst_case_every_size(struct zst_case_ctx *c)
{
	const u32 n = PAGE_SIZE;
	struct zst_obj *objs;
	struct zs_pool *pool;
	unsigned long bad;
	u32 *order, i;
	long off;
	int err;

	pool = zst_case_setup(c, "zst_every", n, &objs, &order);
	if (!pool)
		return;

	/* objs[i] has size i + 1; allocate and write through WO at once. */
	zst_shuffle(&c->rnd, order, n);
	for (i = 0; i < n; i++) {
		struct zst_obj *o = &objs[order[i]];

		err = zst_obj_alloc(pool, o, order[i] + 1, ZST_GFP);
		if (err) {
			zst_fail(c, "zs_malloc(%u) = %d", order[i] + 1, err);
			continue;
		}
		zst_obj_write(pool, o, prandom_u32_state(&c->rnd), c->scratch);
		cond_resched();
	}
	zst_report_pool(c, pool, "all sizes live", objs, n);
	bad = zst_verify_all(c, pool, objs, n, "after WO");
	zst_diag(c, "after WO: %lu bad objects", bad);

	/* Check through RW, rewrite a random tail, in another random order. */
	zst_shuffle(&c->rnd, order, n);
	for (i = 0, bad = 0; i < n; i++) {
		struct zst_obj *o = &objs[order[i]];

		if (!o->handle)
			continue;
		off = zst_obj_modify(pool, o, &c->rnd, c->scratch);
		if (off >= 0) {
			bad++;
			zst_report_mismatch(c, pool, "RW check", order[i], o,
					    off);
		}
		cond_resched();
	}
	zst_diag(c, "RW check: %lu bad objects", bad);
	bad = zst_verify_all(c, pool, objs, n, "after RW");
	zst_diag(c, "after RW: %lu bad objects", bad);
	bad = zst_verify_all_sg(c, pool, objs, n, "after RW, " ZST_SG_READ);
	zst_diag(c, "after RW, " ZST_SG_READ ": %lu bad objects", bad);

	zst_shuffle(&c->rnd, order, n);
	for (i = 0; i < n; i++) {
		if (objs[order[i]].handle)
			zst_obj_free(pool, &objs[order[i]]);
		cond_resched();
	}
	zst_expect_empty(c, pool, "all freed");
	zs_destroy_pool(pool);
	kvfree(order);
	kvfree(objs);
}

/* What zs_malloc() must fail with for an impossible @size. */
static int zst_size_error(size_t size)
{
	return size ? ZST_ERR_TOO_BIG : -EINVAL;
}

/*
 * bad_input: impossible sizes fail with -EINVAL (0, or on 6.1 any), or with
 * -ENOSPC (over PAGE_SIZE, from 6.12 on), zs_free() of 0 or of an error value
 * is ignored, and the pool stays usable.
 */
static void zst_case_bad_input(struct zst_case_ctx *c)
{
	static const size_t bad_sizes[] = {
		0, PAGE_SIZE + 1, 2 * PAGE_SIZE, SIZE_MAX
	};
	struct zst_obj o = {};
	struct zs_pool *pool;
	unsigned long handle;
	unsigned int i;
	int err;

	pool = zs_create_pool("zst_bad_input");
	if (!pool) {
		zst_fail(c, "zs_create_pool() returned NULL");
		return;
	}
	for (i = 0; i < ARRAY_SIZE(bad_sizes); i++) {
		handle = zst_malloc(pool, bad_sizes[i], ZST_GFP);
		zst_expect(c, IS_ERR_VALUE(handle) &&
			   PTR_ERR((void *)handle) == zst_size_error(bad_sizes[i]),
			   "zs_malloc(%zu) = %ld", bad_sizes[i], (long)handle);
		if (!IS_ERR_VALUE(handle) && handle)
			zs_free(pool, handle);
	}
	zst_expect(c, zs_get_total_pages(pool) == 0, "failed allocations left pages");

	zs_free(pool, 0);
	zs_free(pool, (unsigned long)ERR_PTR(-EINVAL));
	zs_free(pool, (unsigned long)ERR_PTR(-ENOMEM));
	zst_expect(c, zs_get_total_pages(pool) == 0, "zs_free(0) changed pages");
	zst_expect(c, zs_compact(pool) == 0, "compacting an empty pool freed pages");

	/* The largest valid size still works. */
	err = zst_obj_alloc(pool, &o, PAGE_SIZE, ZST_GFP);
	zst_expect(c, !err, "zs_malloc(PAGE_SIZE) = %d", err);
	if (!err) {
		zst_obj_write(pool, &o, prandom_u32_state(&c->rnd), c->scratch);
		zst_expect(c, zst_obj_verify(pool, &o, c->scratch) < 0, "object corrupt");
		zst_obj_free(pool, &o);
	}
	zst_expect_empty(c, pool, "all freed");
	zs_destroy_pool(pool);
}

/*
 * fill_free_compact: fill with a zram-like size mix, free a random half,
 * compact, refill; verify everything after each phase and print density.
 */
static void zst_case_fill_free_compact(struct zst_case_ctx *c)
{
	unsigned long before, after, stats0, stats1, freed, bad;
	const u32 n = nr_objects;
	struct zst_obj *objs;
	struct zs_pool *pool;
	u32 *order, i;

	pool = zst_case_setup(c, "zst_compact", n, &objs, &order);
	if (!pool)
		return;

	zst_fill_free_slots(c, pool, objs, n, "fill");
	bad = zst_verify_all(c, pool, objs, n, "fill");
	zst_report_pool(c, pool, "fill", objs, n);

	zst_shuffle(&c->rnd, order, n);
	for (i = 0; i < n / 2; i++) {
		if (objs[order[i]].handle)
			zst_obj_free(pool, &objs[order[i]]);
		cond_resched();
	}
	bad += zst_verify_all(c, pool, objs, n, "free half");
	zst_report_pool(c, pool, "free half", objs, n);

	before = zst_settled_pages(c, pool, "free half");
	stats0 = zst_pages_compacted(pool);
	freed = zs_compact(pool);
	after = zst_settled_pages(c, pool, "compact");
	stats1 = zst_pages_compacted(pool);
	zst_diag(c, "compact: zs_compact()=%lu pages %lu -> %lu, pages_compacted %lu -> %lu",
		 freed, before, after, stats0, stats1);
	/* A shrinker may compact too: stats and the page drop must agree. */
	zst_expect(c, after <= before, "compaction grew the pool");
	zst_expect(c, stats1 - stats0 == before - after,
		   "pages_compacted rose by %lu, pool shrank by %lu",
		   stats1 - stats0, before - after);
	zst_expect(c, freed <= stats1 - stats0,
		   "zs_compact() returned %lu, pages_compacted rose by %lu",
		   freed, stats1 - stats0);
	bad += zst_verify_all(c, pool, objs, n, "compact");
	zst_report_pool(c, pool, "compact", objs, n);

	zst_fill_free_slots(c, pool, objs, n, "refill");
	bad += zst_verify_all(c, pool, objs, n, "refill");
	zst_report_pool(c, pool, "refill", objs, n);
	zst_diag(c, "%lu bad objects over all phases", bad);

	zst_free_all(pool, objs, n);
	zst_expect_empty(c, pool, "all freed");
	zs_destroy_pool(pool);
	kvfree(order);
	kvfree(objs);
}

/**
 * struct zst_run - shared state of one concurrent run
 * @pool: the shared pool
 * @faults: the kthreads run with fault injection on; -ENOMEM is expected
 * @left: workers still running their loop
 * @done: completed when @left drops to zero
 */
struct zst_run {
	struct zs_pool *pool;
	bool faults;
	atomic_t left;
	struct completion done;
};

/**
 * struct zst_worker - one kthread of the concurrent case
 * @run: shared state
 * @task: the kthread
 * @rnd: private PRNG
 * @objs: private object slots
 * @scratch: PAGE_SIZE bytes for zst_map(), allocated before the kthread runs
 * @nr_objs: number of slots
 * @id: worker number
 * @ops: operations done
 * @allocs: successful allocations
 * @alloc_errors: failed allocations, other than expected ones
 * @enomem: allocations failed with -ENOMEM under fault injection
 * @mismatches: objects found corrupt
 * @compactions: zs_compact() calls (compactor only)
 * @compacted: pages zs_compact() reported freed (compactor only)
 */
struct zst_worker {
	struct zst_run *run;
	struct task_struct *task;
	struct rnd_state rnd;
	struct zst_obj *objs;
	void *scratch;
	unsigned int nr_objs;
	unsigned int id;
	unsigned long ops;
	unsigned long allocs;
	unsigned long alloc_errors;
	unsigned long enomem;
	unsigned long mismatches;
	unsigned long compactions;
	unsigned long compacted;
};

static void zst_worker_mismatch(struct zst_worker *w, const char *what,
				const struct zst_obj *o, long off)
{
	if (w->mismatches++ < ZST_MAX_REPORTS)
		ktap("# concurrent: FAIL: worker %u: %s: size %u split %u differs at byte %ld",
		     w->id, what, o->size, o->split, off);
}

/* Park until kthread_stop(), so the stopper never races a thread exit. */
static int zst_park_until_stopped(void)
{
	set_current_state(TASK_INTERRUPTIBLE);
	while (!kthread_should_stop()) {
		schedule();
		set_current_state(TASK_INTERRUPTIBLE);
	}
	__set_current_state(TASK_RUNNING);
	return 0;
}

static void zst_worker_step(struct zst_worker *w)
{
	struct zs_pool *pool = w->run->pool;
	struct zst_obj *o = &w->objs[prandom_u32_state(&w->rnd) % w->nr_objs];
	long off;
	int err;

	if (!o->handle) {
		err = zst_obj_alloc(pool, o, zst_rand_size(&w->rnd), ZST_GFP);
		if (err == -ENOMEM && w->run->faults) {
			w->enomem++;
			return;
		}
		if (err) {
			if (w->alloc_errors++ < ZST_MAX_REPORTS)
				ktap("# concurrent: FAIL: worker %u: zs_malloc() = %d",
				     w->id, err);
			return;
		}
		w->allocs++;
		zst_obj_write(pool, o, prandom_u32_state(&w->rnd), w->scratch);
		return;
	}
	switch (prandom_u32_state(&w->rnd) % 4) {
	case 0:
		off = zst_obj_verify(pool, o, w->scratch);
		if (off >= 0)
			zst_worker_mismatch(w, "RO check", o, off);
		break;
	case 1:
		off = zst_obj_modify(pool, o, &w->rnd, w->scratch);
		if (off >= 0)
			zst_worker_mismatch(w, "RW check", o, off);
		break;
	default:
		off = zst_obj_verify(pool, o, w->scratch);
		if (off >= 0)
			zst_worker_mismatch(w, "check before free", o, off);
		zst_obj_free(pool, o);
		break;
	}
}

static int zst_worker_fn(void *arg)
{
	struct zst_worker *w = arg;
	unsigned int i;
	long off;

	zst_inject_faults(w->run->faults);
	for (w->ops = 0; w->ops < loops && !kthread_should_stop(); w->ops++) {
		zst_worker_step(w);
		cond_resched();
	}
	zst_inject_faults(false);
	for (i = 0; i < w->nr_objs; i++) {
		if (!w->objs[i].handle)
			continue;
		off = zst_obj_verify(w->run->pool, &w->objs[i], w->scratch);
		if (off >= 0)
			zst_worker_mismatch(w, "final check", &w->objs[i], off);
		zst_obj_free(w->run->pool, &w->objs[i]);
		cond_resched();
	}
	if (atomic_dec_and_test(&w->run->left))
		complete(&w->run->done);
	return zst_park_until_stopped();
}

static int zst_compactor_fn(void *arg)
{
	struct zst_worker *w = arg;

	/* Compaction's own allocations fail too: it must stop, not break. */
	zst_inject_faults(w->run->faults);
	while (!kthread_should_stop()) {
		w->compacted += zs_compact(w->run->pool);
		w->compactions++;
		/* Concurrent readers of the pool's counters must be fine too. */
		zs_get_total_pages(w->run->pool);
		zst_pages_compacted(w->run->pool);
		usleep_range(50, 200);
	}
	return 0;
}

/*
 * concurrent: one worker kthread per online CPU (bound to it) allocates,
 * writes, checks, rewrites and frees its own objects in one shared pool,
 * while a compactor kthread calls zs_compact() in a loop; a fragmented set
 * of objects owned by the main thread is checked before and after.  With
 * @faults, the kthreads run with fault injection on (the faults case).
 */
static void zst_concurrent(struct zst_case_ctx *c, bool faults)
{
	unsigned int nr = threads ? threads : num_online_cpus();
	unsigned long n_static = (unsigned long)nr * thread_objects;
	unsigned long ops = 0, allocs = 0, bad = 0, errors = 0, enomem = 0;
	struct zst_worker *workers, *compactor;
	struct zst_obj *statics;
	struct zst_run run;
	unsigned int i, cpu;
	unsigned long j;

	workers = kcalloc(nr + 1, sizeof(*workers), GFP_KERNEL);
	statics = kvcalloc(n_static, sizeof(*statics), GFP_KERNEL);
	if (!workers || !statics) {
		c->skip = "cannot allocate test arrays";
		goto free_arrays;
	}
	compactor = &workers[nr];
	for (i = 0; i < nr; i++) {
		workers[i].objs = kvcalloc(thread_objects, sizeof(struct zst_obj),
					   GFP_KERNEL);
		workers[i].scratch = kmalloc(PAGE_SIZE, GFP_KERNEL);
		if (!workers[i].objs || !workers[i].scratch) {
			c->skip = "cannot allocate test arrays";
			goto free_slots;
		}
	}

	run.pool = zs_create_pool("zst_concurrent");
	if (!run.pool) {
		zst_fail(c, "zs_create_pool() returned NULL");
		goto free_slots;
	}
	run.faults = faults;
	atomic_set(&run.left, nr);
	init_completion(&run.done);

	/* Static objects with holes, so compaction has work from the start. */
	zst_fill_free_slots(c, run.pool, statics, n_static, "static objects");
	for (j = 0; j < n_static; j++)
		if (statics[j].handle && prandom_u32_state(&c->rnd) % 2)
			zst_obj_free(run.pool, &statics[j]);
	zst_report_pool(c, run.pool, "before", statics, n_static);

	cpu = cpumask_first(cpu_online_mask);
	for (i = 0; i < nr; i++) {
		struct zst_worker *w = &workers[i];

		w->run = &run;
		w->id = i;
		w->nr_objs = thread_objects;
		prandom_seed_state(&w->rnd, zst_seed + 1000 + i);
		w->task = kthread_create(zst_worker_fn, w, "zst_worker/%u", i);
		if (IS_ERR(w->task)) {
			zst_fail(c, "kthread_create() = %ld", PTR_ERR(w->task));
			w->task = NULL;
			goto stop_workers;
		}
		kthread_bind(w->task, cpu);
		cpu = cpumask_next(cpu, cpu_online_mask);
		if (cpu >= nr_cpu_ids)
			cpu = cpumask_first(cpu_online_mask);
	}
	compactor->run = &run;
	compactor->task = kthread_run(zst_compactor_fn, compactor, "zst_compactor");
	if (IS_ERR(compactor->task)) {
		zst_fail(c, "kthread_run() = %ld", PTR_ERR(compactor->task));
		compactor->task = NULL;
		goto stop_workers;
	}
	for (i = 0; i < nr; i++)
		wake_up_process(workers[i].task);
	/* Sleep in slices so the hung task detector sees progress. */
	while (!wait_for_completion_timeout(&run.done, HZ))
		;

stop_workers:
	/* A worker never woken returns -EINTR here without running. */
	for (i = 0; i < nr; i++)
		if (workers[i].task)
			kthread_stop(workers[i].task);
	if (compactor->task)
		kthread_stop(compactor->task);

	for (i = 0; i < nr; i++) {
		ops += workers[i].ops;
		allocs += workers[i].allocs;
		bad += workers[i].mismatches;
		errors += workers[i].alloc_errors;
		enomem += workers[i].enomem;
	}
	zst_diag(c, "%u workers: %lu ops, %lu allocations, %lu failed allocations, %lu bad objects",
		 nr, ops, allocs, errors, bad);
	if (faults) {
		zst_diag(c, "%lu allocations failed with -ENOMEM under fault injection",
			 enomem);
		zst_expect(c, enomem, "no allocation failed: is fault injection armed?");
	}
	zst_diag(c, "compactor: %lu zs_compact() calls freed %lu pages, pages_compacted=%lu",
		 compactor->compactions, compactor->compacted,
		 zst_pages_compacted(run.pool));
	zst_expect(c, bad == 0, "%lu objects corrupt in workers", bad);
	zst_expect(c, errors == 0, "%lu allocations failed", errors);

	zst_report_pool(c, run.pool, "after", statics, n_static);
	bad = zst_verify_all(c, run.pool, statics, n_static, "static objects");
	zst_diag(c, "static objects: %lu bad", bad);
	zst_free_all(run.pool, statics, n_static);
	zst_expect_empty(c, run.pool, "all freed");
	zs_destroy_pool(run.pool);
free_slots:
	for (i = 0; i < nr; i++) {
		kfree(workers[i].scratch);
		kvfree(workers[i].objs);
	}
free_arrays:
	kvfree(statics);
	kfree(workers);
}

static void zst_case_concurrent(struct zst_case_ctx *c)
{
	zst_concurrent(c, false);
}

/*
 * faults: concurrent with fail_page_alloc and failslab failing some of the
 * allocations the allocator makes for the kthreads (the guest arms them,
 * in task-filter mode): zs_malloc() may then fail, only with -ENOMEM, and
 * every object keeps its content, the pool ends empty.  Opt-in: it is
 * meaningful only with fault injection armed.
 */
static void zst_case_faults(struct zst_case_ctx *c)
{
	if (!zst_can_inject()) {
		c->skip = "kernel without CONFIG_FAULT_INJECTION";
		return;
	}
	zst_concurrent(c, true);
}

/*
 * enomem: allocate with zram's no-reclaim flags until zs_malloc() fails or
 * the cap is reached; the failure must be -ENOMEM, must not disturb earlier
 * objects and must not leak pages.  Objects are 3/4 to 1 page, so each
 * takes about a page and the pool grows fast.  Opt-in: it drives the
 * machine to its low watermark for a few seconds.
 */
static void zst_case_enomem(struct zst_case_ctx *c)
{
	unsigned long cap, max_objs, n = 0, i, bad, pages_at_fail;
	struct zst_obj *objs;
	struct zs_pool *pool;
	int err = 0;

	cap = enomem_cap_mb ? (unsigned long)enomem_cap_mb << (20 - PAGE_SHIFT) :
			      totalram_pages();
	/* Objects are more than 3/4 page: at most 4 objects per 3 pages. */
	max_objs = cap + cap / 3 + 16;
	objs = kvcalloc(max_objs, sizeof(*objs), GFP_KERNEL);
	if (!objs) {
		c->skip = "cannot allocate test arrays";
		return;
	}
	pool = zs_create_pool("zst_enomem");
	if (!pool) {
		zst_fail(c, "zs_create_pool() returned NULL");
		goto free_array;
	}

	while (n < max_objs && zs_get_total_pages(pool) < cap) {
		u32 size = zst_rand_range(&c->rnd, PAGE_SIZE * 3 / 4 + 1, PAGE_SIZE);

		err = zst_obj_alloc(pool, &objs[n], size, ZST_GFP_NOWAIT);
		if (err)
			break;
		zst_obj_write(pool, &objs[n], prandom_u32_state(&c->rnd), c->scratch);
		n++;
		cond_resched();
	}
	pages_at_fail = zs_get_total_pages(pool);
	zst_diag(c, "%lu objects, %lu pages (%lu MiB) when stopping: error %d, cap %lu pages",
		 n, pages_at_fail, pages_at_fail >> (20 - PAGE_SHIFT), err, cap);
	if (err)
		zst_expect(c, err == -ENOMEM, "zs_malloc() failed with %d", err);
	else
		c->skip = "cap reached before any allocation failed";

	/* Relieve the pressure first: check and free the newest eighth. */
	bad = 0;
	for (i = n - n / 8; i < n; i++) {
		long off = zst_obj_verify(pool, &objs[i], c->scratch);

		if (off >= 0) {
			bad++;
			zst_report_mismatch(c, pool, "after failure", i,
					    &objs[i], off);
		}
		zst_obj_free(pool, &objs[i]);
		cond_resched();
	}
	bad += zst_verify_all(c, pool, objs, n, "after failure");
	zst_diag(c, "%lu bad objects after the failure", bad);
	zst_free_all(pool, objs, n);
	zst_expect_empty(c, pool, "all freed");

	/* The pool is still usable. */
	err = zst_obj_alloc(pool, &objs[0], PAGE_SIZE / 2, ZST_GFP);
	zst_expect(c, !err, "zs_malloc() after the failure = %d", err);
	if (!err) {
		zst_obj_write(pool, &objs[0], prandom_u32_state(&c->rnd), c->scratch);
		zst_expect(c, zst_obj_verify(pool, &objs[0], c->scratch) < 0, "object corrupt");
		zst_obj_free(pool, &objs[0]);
	}
	zst_expect_empty(c, pool, "pool reused");
	zs_destroy_pool(pool);
free_array:
	kvfree(objs);
}

/*
 * destroy_nonempty: zs_destroy_pool() on a pool that still holds objects
 * must not crash.  Opt-in: stock 6.1 then WARNs from kmem_cache_destroy()
 * (its handle cache still has objects) and leaks the pool's pages, which
 * stay movable with a dangling pool pointer, which page migration then
 * dereferences (seen: an oops in zs_page_migrate() under a compaction
 * loop).  Whether the pages come back is not judged: the system's free
 * page count is too loose a measure (per-CPU lists, vmstat folding).
 */
static void zst_case_destroy_nonempty(struct zst_case_ctx *c)
{
	const unsigned long n = 4096;
	unsigned long i, pages, bad;
	struct zst_obj *objs;
	struct zs_pool *pool;
	int err;

	objs = kvcalloc(n, sizeof(*objs), GFP_KERNEL);
	if (!objs) {
		c->skip = "cannot allocate test arrays";
		return;
	}
	pool = zs_create_pool("zst_destroy");
	if (!pool) {
		zst_fail(c, "zs_create_pool() returned NULL");
		goto free_array;
	}
	for (i = 0; i < n; i++) {
		err = zst_obj_alloc(pool, &objs[i], zst_rand_size(&c->rnd), ZST_GFP);
		if (err) {
			zst_fail(c, "zs_malloc() = %d", err);
			break;
		}
		zst_obj_write(pool, &objs[i], prandom_u32_state(&c->rnd), c->scratch);
		/* Every fourth object is freed, leaving partial zspages too. */
		if (i % 4 == 3)
			zst_obj_free(pool, &objs[i]);
		cond_resched();
	}
	pages = zs_get_total_pages(pool);
	zst_diag(c, "destroying a pool of %lu pages with %lu objects live",
		 pages, i - i / 4);
	zs_destroy_pool(pool);
	/* Let a concurrent compaction pass meet any page left behind. */
	msleep(1000);

	/*
	 * The allocator still works: as many objects again in a new pool
	 * reuse whatever handles and pages the destroyed pool gave back, so
	 * a handle or page still written to after the destroy shows here.
	 */
	memset(objs, 0, n * sizeof(*objs));
	pool = zs_create_pool("zst_destroy2");
	if (!pool) {
		zst_fail(c, "zs_create_pool() after destroy returned NULL");
		goto free_array;
	}
	for (i = 0; i < n; i++) {
		err = zst_obj_alloc(pool, &objs[i], zst_rand_size(&c->rnd), ZST_GFP);
		if (err) {
			zst_fail(c, "zs_malloc() after destroy = %d", err);
			break;
		}
		zst_obj_write(pool, &objs[i], prandom_u32_state(&c->rnd), c->scratch);
		cond_resched();
	}
	bad = zst_verify_all(c, pool, objs, n, "new pool");
	zst_diag(c, "new pool after destroy: %lu objects, %lu bad", i, bad);
	zst_free_all(pool, objs, n);
	zst_expect_empty(c, pool, "new pool freed");
	zs_destroy_pool(pool);
free_array:
	kvfree(objs);
}

/*
 * The harness fails a run on any kernel WARNING but one announced by this
 * line (printed at KERN_WARNING, so it reaches the console just before the
 * warning): tests/host/verdict.py then accepts the next report line if it is
 * a WARNING in @fn, with its call trace.
 */
static void zst_expect_warning(const char *fn)
{
	pr_warn("# zs-harness: expect-warning %s\n", fn);
}

/*
 * Checks the access @p (zst_map()) of a bad handle: @len zero bytes if the
 * access reads (zst_reads(): on 6.x whatever @mode, as zs_map_object()
 * documents; on 7.x what zs_obj_read_begin() gives); then, if @mode writes,
 * writes 0x5a over them, which must go nowhere (on 7.x zst_unmap() hands
 * them to zs_obj_write()).
 */
static void zst_check_stand_in(struct zst_case_ctx *c, u8 *p,
			       enum zst_mode mode, size_t len, const char *what)
{
	size_t i;

	if (!p) {
		zst_fail(c, "%s: the access returned NULL", what);
		return;
	}
	for (i = 0; i < len && zst_reads(mode); i++) {
		if (p[i]) {
			zst_fail(c, "%s: mapping reads %#x at byte %zu, not 0",
				 what, p[i], i);
			break;
		}
	}
	if (mode & ZST_WO)
		memset(p, 0x5a, len);
}

/*
 * Where the kernel has it (7.x), reads a bad handle through the scatterlist
 * too: it must describe @len zero bytes (ours: the zero page).
 */
static void zst_check_sg_bad(struct zst_case_ctx *c, struct zs_pool *pool,
			     unsigned long handle, size_t len, const char *what)
{
	size_t got;

	if (!ZST_HAVE_SG)
		return;
	/* Not zero: bytes the read leaves alone show. */
	memset(c->scratch, 0xa5, len);
	got = zst_read_sg(pool, handle, len, c->scratch, true);
	if (got < len)
		zst_fail(c, "%s: the scatterlist describes %zu of %zu bytes",
			 what, got, len);
	else
		zst_check_stand_in(c, c->scratch, ZST_RO, len, what);
}

/*
 * Accesses a bad handle with @mode and checks what it gives
 * (zst_check_stand_in()), then, on 7.x, reads it through the scatterlist.
 */
static void zst_map_bad(struct zst_case_ctx *c, struct zs_pool *pool,
			unsigned long handle, enum zst_mode mode, size_t len,
			const char *what)
{
	u8 *p = zst_map(pool, handle, mode | ZST_BAD, len, c->scratch);

	zst_check_stand_in(c, p, mode, len, what);
	zst_unmap(pool, handle, mode | ZST_BAD, len, c->scratch, p);
	zst_check_sg_bad(c, pool, handle, len, what);
}

/*
 * bad_handle (ours only: stock 6.1 trusts the handle): a word holding a
 * copy of a live object's handle slot is no handle of that object.  Mapped
 * (6.x), it must give a zeroed stand-in (one warning), and writing through
 * it must change neither that object nor its neighbours.  Unfixed, the map
 * returned the live object and the write went into it.  On 7.x the same
 * holds for zs_obj_read_begin() (zeroes), zs_obj_write() (writes nowhere)
 * and zs_obj_read_sg_begin() (zeroes), each warning once.
 */
static void zst_case_bad_handle(struct zst_case_ctx *c)
{
	struct zst_obj objs[8] = {};
	struct zs_pool *pool;
	unsigned long *fake;
	unsigned long bad;
	unsigned int i;
	int err;

	fake = kzalloc_obj(*fake, GFP_KERNEL);
	pool = zs_create_pool("zst_bad_handle");
	if (!pool || !fake) {
		zst_fail(c, "cannot create pool or fake handle");
		goto out;
	}
	for (i = 0; i < ARRAY_SIZE(objs); i++) {
		/* Both kinds: in one page, and spanning two (for 1500 bytes). */
		err = zst_obj_alloc(pool, &objs[i], i & 1 ? 1500 : 100, ZST_GFP);
		if (err) {
			zst_fail(c, "zs_malloc() = %d", err);
			goto free_all;
		}
		zst_obj_write(pool, &objs[i], prandom_u32_state(&c->rnd), c->scratch);
	}
	for (i = 0; i < ARRAY_SIZE(objs); i++) {
		/* The location part of a live slot, in a word that is not it. */
		*fake = READ_ONCE(*(unsigned long *)objs[i].handle);
		zst_map_bad(c, pool, (unsigned long)fake, ZST_RW,
			    objs[i].size, "copy of a live slot");
	}
	bad = zst_verify_all(c, pool, objs, ARRAY_SIZE(objs), "after bad maps");
	zst_diag(c, "%lu objects changed by writes through bad handles", bad);
	/* The pool still works, and nothing stayed pinned: compact, verify. */
	for (i = 0; i < ARRAY_SIZE(objs); i += 2)
		zst_obj_free(pool, &objs[i]);
	zs_compact(pool);
	zst_verify_all(c, pool, objs, ARRAY_SIZE(objs), "after compaction");
free_all:
	zst_free_all(pool, objs, ARRAY_SIZE(objs));
	zst_expect_empty(c, pool, "all freed");
out:
	if (pool)
		zs_destroy_pool(pool);
	kfree(fake);
}

/*
 * garbage_handle (ours only; unfixed it oopses): words holding garbage
 * (0, all ones, a random value), and handles that are 0 or an error value,
 * map to the zeroed stand-in (7.x: read as zeroes, written nowhere), and a
 * handle-0 map ends with its unmap like any other; an unmap without a map
 * (7.x: the end of a read that never began) of a live handle is ignored: the
 * object stays movable, which compaction shows by emptying its zspage.
 */
static void zst_case_garbage_handle(struct zst_case_ctx *c)
{
	unsigned long values[] = { 0, ~0UL, 0 };
	/* Allocated: 64 of them on the stack would pass 7.2's frame limit. */
	const unsigned int n = 64;
	struct zst_obj *objs;
	unsigned long pages, freed;
	struct zs_pool *pool;
	unsigned long *fake;
	unsigned int i;
	int err;

	values[2] = (unsigned long)prandom_u32_state(&c->rnd) << 32 |
		    prandom_u32_state(&c->rnd);
	fake = kzalloc_obj(*fake, GFP_KERNEL);
	objs = kcalloc(n, sizeof(*objs), GFP_KERNEL);
	pool = zs_create_pool("zst_garbage_handle");
	if (!pool || !fake || !objs) {
		zst_fail(c, "cannot create pool, objects or fake handle");
		goto out;
	}
	for (i = 0; i < ARRAY_SIZE(values); i++) {
		*fake = values[i];
		zst_map_bad(c, pool, (unsigned long)fake, ZST_RW, PAGE_SIZE,
			    "garbage");
	}
	/* No handle at all: 0 and an error value, which zs_free() ignores. */
	zst_map_bad(c, pool, 0, ZST_RW, PAGE_SIZE, "handle 0");
	zst_map_bad(c, pool, (unsigned long)ERR_PTR(-ENOMEM), ZST_RW, PAGE_SIZE,
		    "error handle");
	zst_expect(c, zs_get_total_pages(pool) == 0, "bad maps made pages");

	for (i = 0; i < n; i++) {
		err = zst_obj_alloc(pool, &objs[i], 200, ZST_GFP);
		if (err) {
			zst_fail(c, "zs_malloc() = %d", err);
			goto free_all;
		}
		zst_obj_write(pool, &objs[i], prandom_u32_state(&c->rnd), c->scratch);
	}
	/* Unpaired: had it unpinned, the zspage of objs[0] could never move. */
	zst_end_unpaired(pool, objs[0].handle);
	/* Leave objs[0] alone with a later full-ish zspage: it must move. */
	for (i = 1; i < n / 2; i++)
		zst_obj_free(pool, &objs[i]);
	pages = zs_get_total_pages(pool);
	freed = zs_compact(pool);
	zst_diag(c, "after the unpaired unmap: %lu pages, compaction freed %lu",
		 pages, freed);
	zst_verify_all(c, pool, objs, n, "after compaction");
free_all:
	zst_free_all(pool, objs, n);
	zst_expect_empty(c, pool, "all freed");
out:
	if (pool)
		zs_destroy_pool(pool);
	kfree(objs);
	kfree(fake);
}

/**
 * struct zst_lat - the compacting side of the compact_latency case
 * @pool: the pool it compacts
 * @started: completed when the kthread runs
 * @done: set when its zs_compact() returned
 * @freed: what that returned
 */
struct zst_lat {
	struct zs_pool *pool;
	struct completion started;
	atomic_t done;
	unsigned long freed;
};

static int zst_lat_compactor_fn(void *arg)
{
	struct zst_lat *l = arg;

	complete(&l->started);
	l->freed = zs_compact(l->pool);
	atomic_set_release(&l->done, 1);
	return zst_park_until_stopped();
}

static int zst_u32_cmp(const void *a, const void *b)
{
	u32 x = *(const u32 *)a, y = *(const u32 *)b;

	return x < y ? -1 : x > y;
}

/* Sorts @nr > 0 samples of @what and prints their median, p99 and worst. */
static void zst_lat_print(struct zst_case_ctx *c, const char *what,
			  u32 *samples, u32 nr)
{
	sort(samples, nr, sizeof(*samples), zst_u32_cmp, NULL);
	zst_diag(c, "%s: median %u ns, p99 %u ns, worst %u ns", what,
		 samples[nr / 2], samples[(u64)nr * 99 / 100], samples[nr - 1]);
}

/*
 * Fills @pool with @n objects of @size, their handles in @handles, and frees
 * three in four: a fragmented class for a compaction to empty.  Returns
 * false (the case failed) if an allocation failed.
 */
static bool zst_lat_fragment(struct zst_case_ctx *c, struct zs_pool *pool,
			     unsigned long *handles, u32 n, u32 size)
{
	u32 i;

	for (i = 0; i < n; i++) {
		unsigned long h = zst_malloc(pool, size, ZST_GFP);

		if (IS_ERR_VALUE(h)) {
			zst_fail(c, "zs_malloc(%u) = %ld", size, (long)h);
			return false;
		}
		handles[i] = h;
		cond_resched();
	}
	for (i = 0; i < n; i++) {
		if (i % 4) {
			zs_free(pool, handles[i]);
			handles[i] = 0;
		}
	}
	return true;
}

/* Frees the objects of @handles (those not 0) and clears their handles. */
static void zst_lat_free_all(struct zs_pool *pool, unsigned long *handles,
			     u32 n)
{
	u32 i;

	for (i = 0; i < n; i++) {
		if (handles[i])
			zs_free(pool, handles[i]);
		handles[i] = 0;
	}
}

/* Starts @l's compaction in a kthread; returns it, or NULL (case failed). */
static struct task_struct *zst_lat_start(struct zst_case_ctx *c,
					 struct zst_lat *l)
{
	struct task_struct *task;

	init_completion(&l->started);
	atomic_set(&l->done, 0);
	task = kthread_run(zst_lat_compactor_fn, l, "zst_lat_compact");
	if (IS_ERR(task)) {
		zst_fail(c, "kthread_run() = %ld", PTR_ERR(task));
		return NULL;
	}
	wait_for_completion(&l->started);
	return task;
}

/*
 * One object of @size allocated (without sleeping, as zram first tries) and
 * written whole: what keeps the class busy.  *@malloc_done is the time
 * zs_malloc() returned.  Returns the handle, or an error.
 */
static unsigned long zst_lat_touch(struct zst_case_ctx *c, struct zs_pool *pool,
				   u32 size, u64 *malloc_done)
{
	unsigned long h = zst_malloc(pool, size, ZST_GFP_NOWAIT);
	void *p;

	*malloc_done = ktime_get_ns();
	if (!IS_ERR_VALUE(h)) {
		p = zst_map(pool, h, ZST_WO, size, c->scratch);
		memset(p, 0, size);
		zst_unmap(pool, h, ZST_WO, size, c->scratch, p);
	}
	return h;
}

/*
 * compact_latency (opt-in; the API only, so stock too): how long
 * zs_malloc() + zs_map_object() + zs_unmap_object() of one object take in a
 * class while a kthread compacts a large, fragmented pool of that class
 * (on 7.x zs_malloc() + zs_obj_write(), printed under the same names)
 * (65536 objects of 100 bytes, three in four freed), round after round until
 * there are ZST_LAT_MIN_SAMPLES samples (a busy host may let a compaction end
 * before the sampler runs) or ZST_LAT_MAX_ROUNDS rounds.  Each round starts
 * from an empty pool, so each compaction has the same work: refilling the
 * holes of the last round would leave the next one almost nothing to do.  The median, 99th
 * percentile and worst are printed, not judged: under TCG they also measure
 * the host.  zs_malloc() and map + unmap are also timed apart, with a count
 * of the samples whose zs_malloc() grew the pool (a lower bound: compaction
 * frees pages meanwhile), to tell lock waits from page allocations.
 */
#define ZST_LAT_MIN_SAMPLES	1000
#define ZST_LAT_MAX_ROUNDS	32
/* Pages in the longest zspage of any allocator (CONFIG_ZSMALLOC_CHAIN_SIZE). */
#define ZST_LONGEST_CHAIN	16

static void zst_case_compact_latency(struct zst_case_ctx *c)
{
	const u32 n = 1 << 16, max_samples = 1 << 16, size = 100;
	u32 *samples, *mallocs, *maps, nr = 0, grew = 0, r;
	struct task_struct *task;
	unsigned long *handles;
	unsigned long freed = 0;
	struct zst_lat lat;

	handles = kvcalloc(n, sizeof(*handles), GFP_KERNEL);
	samples = kvcalloc(max_samples, sizeof(*samples), GFP_KERNEL);
	mallocs = kvcalloc(max_samples, sizeof(*mallocs), GFP_KERNEL);
	maps = kvcalloc(max_samples, sizeof(*maps), GFP_KERNEL);
	lat.pool = zs_create_pool("zst_latency");
	if (!handles || !samples || !mallocs || !maps || !lat.pool) {
		c->skip = "cannot allocate test arrays or pool";
		goto out;
	}
	for (r = 0; r < ZST_LAT_MAX_ROUNDS && nr < ZST_LAT_MIN_SAMPLES; r++) {
		if (!zst_lat_fragment(c, lat.pool, handles, n, size))
			goto out;
		task = zst_lat_start(c, &lat);
		if (!task)
			goto out;
		while (!atomic_read_acquire(&lat.done) && nr < max_samples) {
			unsigned long pages = zs_get_total_pages(lat.pool);
			u64 t0 = ktime_get_ns(), t1;
			unsigned long h = zst_lat_touch(c, lat.pool, size, &t1);

			grew += zs_get_total_pages(lat.pool) > pages;
			samples[nr] = min_t(u64, ktime_get_ns() - t0, U32_MAX);
			mallocs[nr] = min_t(u64, t1 - t0, U32_MAX);
			maps[nr++] = min_t(u64, ktime_get_ns() - t1, U32_MAX);
			if (!IS_ERR_VALUE(h))
				zs_free(lat.pool, h);
			cond_resched();
		}
		kthread_stop(task);
		freed += lat.freed;
		/* The next round fragments a pool of its own. */
		zst_lat_free_all(lat.pool, handles, n);
	}
	if (!nr) {
		c->skip = "every compaction ended before a sample";
		goto out;
	}
	zst_diag(c, "%u samples during %u compactions (%lu pages freed), %u grew the pool",
		 nr, r, freed, grew);
	zst_lat_print(c, "malloc+map+unmap", samples, nr);
	zst_lat_print(c, "malloc", mallocs, nr);
	zst_lat_print(c, "map+unmap", maps, nr);
out:
	if (lat.pool) {
		if (handles)
			zst_lat_free_all(lat.pool, handles, n);
		zs_destroy_pool(lat.pool);
	}
	kvfree(maps);
	kvfree(mallocs);
	kvfree(samples);
	kvfree(handles);
}

/**
 * struct zst_busy - the busy side of the compact_busy case
 * @c: the case (its scratch buffer is the data written)
 * @pool: the pool it keeps busy
 * @size: the size of its objects
 * @ops: objects allocated, written and freed so far
 */
struct zst_busy {
	struct zst_case_ctx *c;
	struct zs_pool *pool;
	u32 size;
	atomic_long_t ops;
};

static int zst_busy_fn(void *arg)
{
	struct zst_busy *b = arg;

	while (!kthread_should_stop()) {
		u64 t1;
		unsigned long h = zst_lat_touch(b->c, b->pool, b->size, &t1);

		if (!IS_ERR_VALUE(h))
			zs_free(b->pool, h);
		atomic_long_inc(&b->ops);
		cond_resched();
	}
	return 0;
}

/*
 * compact_busy (opt-in): a compaction goes on while others use the class it
 * compacts.  A fragmented class (16384 objects of 100 bytes, three in four
 * freed) is compacted while a kthread on another CPU, started first,
 * allocates, writes and frees one object of it after another; when
 * zs_compact() returns, the pool holds at most twice the pages its live
 * objects fill, plus one chain of the longest kind (an allocator that gives
 * a class up at the first contended lock frees a zspage or so and keeps
 * nearly all).  A compaction during which the kthread wrote nothing (on a
 * busy host its vCPU may not run for that long) proves nothing: the case
 * goes again from an empty pool, up to ZST_BUSY_MAX_ROUNDS times, and skips
 * if no round was busy.  Needs two CPUs to contend.
 */
#define ZST_BUSY_MAX_ROUNDS	16

static void zst_case_compact_busy(struct zst_case_ctx *c)
{
	const u32 n = 1 << 14, size = 100;
	unsigned long *handles, pages = 0, bound, freed = 0, before, during = 0;
	struct zst_busy busy = { .c = c, .size = size };
	struct task_struct *task;
	u32 r;

	handles = kvcalloc(n, sizeof(*handles), GFP_KERNEL);
	busy.pool = zs_create_pool("zst_busy");
	if (!handles || !busy.pool) {
		c->skip = "cannot allocate test arrays or pool";
		goto out;
	}
	if (num_online_cpus() < 2) {
		c->skip = "one CPU: nothing contends";
		goto out;
	}
	atomic_long_set(&busy.ops, 0);
	task = kthread_create(zst_busy_fn, &busy, "zst_busy");
	if (IS_ERR(task)) {
		zst_fail(c, "kthread_create() = %ld", PTR_ERR(task));
		goto out;
	}
	/* On a CPU of its own: on this one it would wait for the compaction. */
	kthread_bind(task, cpumask_any_but(cpu_online_mask, raw_smp_processor_id()));
	wake_up_process(task);
	for (r = 0; r < ZST_BUSY_MAX_ROUNDS && !during; r++) {
		zst_lat_free_all(busy.pool, handles, n);
		if (!zst_lat_fragment(c, busy.pool, handles, n, size))
			goto stop_busy;
		/* The class is busy before the compaction starts. */
		before = atomic_long_read(&busy.ops);
		while (atomic_long_read(&busy.ops) == before)
			cond_resched();
		before = atomic_long_read(&busy.ops);
		freed = zs_compact(busy.pool);
		during = atomic_long_read(&busy.ops) - before;
		pages = zs_get_total_pages(busy.pool);
	}
	bound = 2 * DIV_ROUND_UP(n / 4 * size, PAGE_SIZE) + ZST_LONGEST_CHAIN;
	zst_diag(c, "round %u: %lu objects written while compacting, %lu pages freed, %lu left",
		 r, during, freed, pages);
	if (!during) {
		c->skip = "nothing was written during any compaction";
		goto stop_busy;
	}
	zst_expect(c, pages <= bound, "%lu pages for %u objects of %u bytes, over %lu",
		   pages, n / 4, size, bound);
stop_busy:
	kthread_stop(task);
out:
	if (busy.pool) {
		if (handles)
			zst_lat_free_all(busy.pool, handles, n);
		zs_destroy_pool(busy.pool);
	}
	kvfree(handles);
}

/*
 * random_ops and random_ops_bad: a seeded generator of operation sequences
 * on one pool, checked against the shadow of every live object (its
 * struct zst_obj: the content follows from handle, size, split and tags).
 *
 * Each op is drawn by weight: zs_malloc() of a size from 0..PAGE_SIZE + 1
 * (0 and PAGE_SIZE + 1 must fail with zst_size_error() and leave no object),
 * zs_free() of a random live object (checked first), an access to one
 * (zst_map()): ZST_RO checks it, ZST_WO rewrites all of it (as zram writes
 * a new object: the API has no partial WO writes), ZST_RW checks it and
 * rewrites a tail; and now and then zs_compact().  Suite 20 writes
 * /proc/sys/vm/compact_memory in a loop meanwhile, so the kernel migrates
 * the pool's pages too.  The pool grows and shrinks in tides of 256..4096
 * ops (malloc and free swap weights), so it is both full and nearly empty,
 * and fragmented in between, which gives compaction work.
 *
 * random_ops_bad (ours only: stock 6.1 trusts handles) adds the ops the
 * API answers with a warning: zs_free() and zst_map() of garbage
 * handles (a word of the test's holding a random value, a copy of a live
 * object's slot, or such a copy with one low bit flipped) and of stale ones
 * (an object's handle right after its free; see zst_random_stale_free()).
 * Each is announced to the harness (zst_expect_warning()) and followed by
 * a check of the live objects it could have hit.
 *
 * Every ZST_RANDOM_CHECK_EVERY ops and at the end, every live object is
 * checked, through zst_read_sg() (on 7.x the scatterlist read, which the
 * ops do not use); the first failure stops the case with the op index.
 * The case prints its seed and op count: "seed=S cases=NAME ops=N" replays
 * it (up to what migration and compaction do meanwhile).
 */

/* Object slots: at most this many objects live, kept at the array's front. */
#define ZST_RANDOM_SLOTS	1024
/* Ops between full checks: a full check costs as much as ~1000 ops. */
#define ZST_RANDOM_CHECK_EVERY	2048
/* Random live objects checked after each bad-handle op. */
#define ZST_RANDOM_SPOT_CHECKS	3

enum zst_op {
	ZST_OP_MALLOC,
	ZST_OP_FREE,
	ZST_OP_RO,
	ZST_OP_WO,
	ZST_OP_RW,
	ZST_OP_COMPACT,
	/* From here on, random_ops_bad's only. */
	ZST_OP_GARBAGE_FREE,
	ZST_OP_GARBAGE_MAP,
	ZST_OP_STALE_FREE,
	ZST_OP_STALE_MAP,
	ZST_OP_NR
};

static const char * const zst_op_names[ZST_OP_NR] = {
	[ZST_OP_MALLOC]		= "malloc",
	[ZST_OP_FREE]		= "free",
	[ZST_OP_RO]		= "map RO",
	[ZST_OP_WO]		= "map WO",
	[ZST_OP_RW]		= "map RW",
	[ZST_OP_COMPACT]	= "compact",
	[ZST_OP_GARBAGE_FREE]	= "garbage free",
	[ZST_OP_GARBAGE_MAP]	= "garbage map",
	[ZST_OP_STALE_FREE]	= "stale free",
	[ZST_OP_STALE_MAP]	= "stale map",
};

/*
 * Weights in per mille while the pool grows; malloc and free swap weights
 * while it shrinks.  Bad-handle ops are rare: each prints an announcement
 * on the console, which is slow under TCG.
 */
static const u16 zst_op_weights[ZST_OP_NR] = {
	[ZST_OP_MALLOC]		= 300,
	[ZST_OP_FREE]		= 100,
	[ZST_OP_RO]		= 250,
	[ZST_OP_WO]		= 120,
	[ZST_OP_RW]		= 200,
	[ZST_OP_COMPACT]	= 5,
	[ZST_OP_GARBAGE_FREE]	= 8,
	[ZST_OP_GARBAGE_MAP]	= 7,
	[ZST_OP_STALE_FREE]	= 6,
	[ZST_OP_STALE_MAP]	= 4,
};

/* The ops that act on a live object: without one, a malloc runs instead. */
#define ZST_OPS_ON_LIVE	(BIT(ZST_OP_FREE) | BIT(ZST_OP_RO) | BIT(ZST_OP_WO) | \
			 BIT(ZST_OP_RW) | BIT(ZST_OP_STALE_FREE) |	    \
			 BIT(ZST_OP_STALE_MAP))

/**
 * struct zst_random - state of a random_ops run
 * @c: the case
 * @pool: its pool
 * @objs: ZST_RANDOM_SLOTS shadows, the live ones in [0, @live)
 * @fake: a word of the test's, the garbage handles' slot
 * @live: live objects
 * @max_live: most objects live at once
 * @enabled: BIT(op) for each op this run may draw
 * @grow: the tide: malloc outweighs free
 * @op: index of the op being run, from 0
 * @counts: ops run, by kind
 * @refused: mallocs of size 0 or PAGE_SIZE + 1 (counted as mallocs too)
 * @compacted: what zs_compact() returned, summed
 * @full_checks: checks of every live object
 */
struct zst_random {
	struct zst_case_ctx *c;
	struct zs_pool *pool;
	struct zst_obj *objs;
	unsigned long *fake;
	u32 live;
	u32 max_live;
	unsigned long enabled;
	bool grow;
	unsigned long op;
	unsigned long counts[ZST_OP_NR];
	unsigned long refused;
	unsigned long compacted;
	unsigned long full_checks;
};

/*
 * A size for zs_malloc(), 0..PAGE_SIZE + 1 with both ends, a quarter each:
 * uniform over the range; small (0..64: the first classes, many objects in
 * a zspage); near PAGE_SIZE (the last 64 and one over: huge classes, objects
 * across pages); zram's mix.  About one in 130 is refused.
 */
static u32 zst_random_size(struct rnd_state *rnd)
{
	switch (prandom_u32_state(rnd) % 4) {
	case 0:
		return zst_rand_range(rnd, 0, PAGE_SIZE + 1);
	case 1:
		return zst_rand_range(rnd, 0, 64);
	case 2:
		return zst_rand_range(rnd, PAGE_SIZE - 64, PAGE_SIZE + 1);
	default:
		return zst_rand_size(rnd);
	}
}

static struct zst_obj *zst_random_pick(struct zst_random *r)
{
	return &r->objs[prandom_u32_state(&r->c->rnd) % r->live];
}

/* Forget the object @o: the last live one takes its slot. */
static void zst_random_drop(struct zst_random *r, struct zst_obj *o)
{
	*o = r->objs[--r->live];
	memset(&r->objs[r->live], 0, sizeof(*o));
}

/* Report a mismatch in @o found by the current op's @what. */
static void zst_random_mismatch(struct zst_random *r, const char *what,
				const struct zst_obj *o, long off)
{
	char phase[64];

	snprintf(phase, sizeof(phase), "op %lu: %s", r->op, what);
	zst_report_mismatch(r->c, r->pool, phase, o - r->objs, o, off);
}

static void zst_random_malloc(struct zst_random *r)
{
	struct zst_obj *o = &r->objs[r->live];
	u32 size = zst_random_size(&r->c->rnd);
	int err = zst_obj_alloc(r->pool, o, size, ZST_GFP);

	if (!size || size > PAGE_SIZE) {
		r->refused++;
		zst_expect(r->c, err == zst_size_error(size),
			   "op %lu: zs_malloc(%u) = %d, expected %d",
			   r->op, size, err, zst_size_error(size));
		if (!err)
			zst_obj_free(r->pool, o);
		return;
	}
	if (err) {
		zst_fail(r->c, "op %lu: zs_malloc(%u) = %d", r->op, size, err);
		return;
	}
	zst_obj_write(r->pool, o, prandom_u32_state(&r->c->rnd), r->c->scratch);
	r->live++;
	r->max_live = max(r->max_live, r->live);
}

static void zst_random_free(struct zst_random *r)
{
	struct zst_obj *o = zst_random_pick(r);
	long off = zst_obj_verify(r->pool, o, r->c->scratch);

	if (off >= 0) {
		zst_random_mismatch(r, "check before free", o, off);
		return;
	}
	zst_obj_free(r->pool, o);
	zst_random_drop(r, o);
}

/*
 * After a bad-handle op: check the object it copied a slot of (@o, if
 * any) and ZST_RANDOM_SPOT_CHECKS random ones; the full checks do the rest.
 */
static void zst_random_spot_check(struct zst_random *r, struct zst_obj *o)
{
	unsigned int i;
	long off;

	for (i = 0; i <= ZST_RANDOM_SPOT_CHECKS && r->live; i++) {
		if (!o)
			o = zst_random_pick(r);
		off = zst_obj_verify(r->pool, o, r->c->scratch);
		if (off >= 0) {
			zst_random_mismatch(r, "check after a bad handle", o, off);
			return;
		}
		o = NULL;
	}
}

/*
 * Fills the test's word with garbage: a random value (most are no pfn at
 * all), or a copy of a live object's slot, which with our layout names that
 * object's page, class and offset, or the copy with one of its low bits
 * (size and offset) flipped.  Returns the object copied, or NULL.
 */
static struct zst_obj *zst_random_garbage(struct zst_random *r)
{
	struct rnd_state *rnd = &r->c->rnd;
	u32 kind = prandom_u32_state(rnd) % 3;
	struct zst_obj *o;

	if (!kind || !r->live) {
		*r->fake = (u64)prandom_u32_state(rnd) << 32 |
			   prandom_u32_state(rnd);
		return NULL;
	}
	o = zst_random_pick(r);
	*r->fake = READ_ONCE(*(unsigned long *)o->handle);
	if (kind == 2)
		*r->fake ^= BIT(prandom_u32_state(rnd) % 16);
	return o;
}

static void zst_random_garbage_free(struct zst_random *r)
{
	struct zst_obj *o = zst_random_garbage(r);

	zst_expect_warning("zs_free");
	zs_free(r->pool, (unsigned long)r->fake);
	zst_random_spot_check(r, o);
}

static enum zst_mode zst_random_mode(struct zst_random *r)
{
	static const enum zst_mode modes[] = { ZST_RO, ZST_WO, ZST_RW };

	return modes[prandom_u32_state(&r->c->rnd) % ARRAY_SIZE(modes)];
}

static void zst_random_garbage_map(struct zst_random *r)
{
	struct zst_obj *o = zst_random_garbage(r);
	char what[48];

	snprintf(what, sizeof(what), "op %lu: garbage map", r->op);
	zst_map_bad(r->c, r->pool, (unsigned long)r->fake, zst_random_mode(r),
		    PAGE_SIZE, what);
	zst_random_spot_check(r, o);
}

/*
 * A stale handle is freed, then freed or mapped again at once.  Handle
 * slots come from one slab cache that every pool shares (and that may be
 * merged with other caches of its size), so a freed slot can soon hold a
 * new object's location: a stale handle would then name that object, and
 * no allocator can tell such a call from a right one.  So the free and the
 * stale call run with interrupts off, where nothing else on this CPU can
 * allocate.  A slot freed into a slab that another CPU holds could be taken
 * there; while this case runs no other zsmalloc user runs in the guest, and
 * a slot taken by another user of the cache names no object of ours.
 *
 * On PREEMPT_RT zs_free() and zs_map_object() take spinlocks, which sleep
 * there: they cannot be called with interrupts or preemption off, and
 * migrate_disable() lets other tasks of this CPU run (and allocate) in
 * between.  So these ops are skipped there.
 */
static void zst_random_stale_free(struct zst_random *r)
{
	struct zst_obj *o = zst_random_pick(r);
	unsigned long handle = o->handle, flags;

	zst_random_drop(r, o);
	zst_expect_warning("zs_free");
	local_irq_save(flags);
	zs_free(r->pool, handle);
	/* zs_free() reads the freed slot, as its API allows: no KASAN report. */
	kasan_disable_current();
	zs_free(r->pool, handle);
	kasan_enable_current();
	local_irq_restore(flags);
	zst_random_spot_check(r, NULL);
}

/* A stale map, in the window of zst_random_stale_free(). */
static void zst_random_stale_map(struct zst_random *r)
{
	struct zst_obj *o = zst_random_pick(r);
	enum zst_mode mode = zst_random_mode(r);
	unsigned long handle = o->handle, flags;
	char what[48];

	snprintf(what, sizeof(what), "op %lu: stale map", r->op);
	zst_random_drop(r, o);
	local_irq_save(flags);
	zs_free(r->pool, handle);
	/*
	 * zs_map_object() reads the freed slot, as its API allows, and so do
	 * 7.x's read and write, at both ends.
	 */
	kasan_disable_current();
	zst_map_bad(r->c, r->pool, handle, mode, PAGE_SIZE, what);
	kasan_enable_current();
	local_irq_restore(flags);
	zst_random_spot_check(r, NULL);
}

static void zst_random_map(struct zst_random *r, enum zst_op op)
{
	struct zst_obj *o = zst_random_pick(r);
	long off = -1;

	if (op == ZST_OP_RO)
		off = zst_obj_verify(r->pool, o, r->c->scratch);
	else if (op == ZST_OP_RW)
		off = zst_obj_modify(r->pool, o, &r->c->rnd, r->c->scratch);
	else
		zst_obj_write(r->pool, o, prandom_u32_state(&r->c->rnd), r->c->scratch);
	if (off >= 0)
		zst_random_mismatch(r, zst_op_names[op], o, off);
}

static unsigned int zst_random_weight(const struct zst_random *r,
				      unsigned int op)
{
	if (!(r->enabled & BIT(op)))
		return 0;
	if (!r->grow && op == ZST_OP_MALLOC)
		return zst_op_weights[ZST_OP_FREE];
	if (!r->grow && op == ZST_OP_FREE)
		return zst_op_weights[ZST_OP_MALLOC];
	return zst_op_weights[op];
}

/* The next op: drawn by weight, then made one that can run now. */
static enum zst_op zst_random_draw(struct zst_random *r)
{
	unsigned int total = 0, x, op;

	for (op = 0; op < ZST_OP_NR; op++)
		total += zst_random_weight(r, op);
	x = prandom_u32_state(&r->c->rnd) % total;
	for (op = 0; x >= zst_random_weight(r, op); op++)
		x -= zst_random_weight(r, op);
	if (!r->live && (ZST_OPS_ON_LIVE & BIT(op)))
		return ZST_OP_MALLOC;
	if (op == ZST_OP_MALLOC && r->live == ZST_RANDOM_SLOTS)
		return ZST_OP_FREE;
	return op;
}

static void zst_random_step(struct zst_random *r, enum zst_op op)
{
	r->counts[op]++;
	switch (op) {
	case ZST_OP_MALLOC:
		zst_random_malloc(r);
		break;
	case ZST_OP_FREE:
		zst_random_free(r);
		break;
	case ZST_OP_COMPACT:
		r->compacted += zs_compact(r->pool);
		break;
	case ZST_OP_GARBAGE_FREE:
		zst_random_garbage_free(r);
		break;
	case ZST_OP_GARBAGE_MAP:
		zst_random_garbage_map(r);
		break;
	case ZST_OP_STALE_FREE:
		zst_random_stale_free(r);
		break;
	case ZST_OP_STALE_MAP:
		zst_random_stale_map(r);
		break;
	default:
		zst_random_map(r, op);
		break;
	}
}

static void zst_random_full_check(struct zst_random *r)
{
	char phase[48];

	snprintf(phase, sizeof(phase), "op %lu: full check", r->op);
	zst_verify_all_sg(r->c, r->pool, r->objs, r->live, phase);
	r->full_checks++;
}

/* Runs @nr ops, then a full check; stops at the first failure. */
static void zst_random_run(struct zst_random *r, unsigned long nr)
{
	unsigned long tide_end = 0;
	enum zst_op op = ZST_OP_MALLOC;

	for (r->op = 0; r->op < nr && !r->c->failures; r->op++) {
		if (r->op == tide_end) {
			r->grow = !r->grow;
			tide_end += zst_rand_range(&r->c->rnd, 256, 4096);
		}
		op = zst_random_draw(r);
		zst_random_step(r, op);
		if (!r->c->failures && r->op % ZST_RANDOM_CHECK_EVERY ==
		    ZST_RANDOM_CHECK_EVERY - 1)
			zst_random_full_check(r);
		cond_resched();
	}
	if (r->c->failures) {
		zst_diag(r->c, "stopped at op %lu of %lu (%s), %u objects live",
			 r->op - 1, nr, zst_op_names[op], r->live);
		return;
	}
	zst_random_full_check(r);
}

/* One line: the ops run by kind, and what the pool went through. */
static void zst_random_report(struct zst_random *r, u64 ns)
{
	char line[320];
	size_t len = 0;
	unsigned int op;

	for (op = 0; op < ZST_OP_NR; op++) {
		if (r->enabled & BIT(op))
			len += scnprintf(line + len, sizeof(line) - len, "%s %s %lu",
					 len ? "," : "", zst_op_names[op],
					 r->counts[op]);
	}
	zst_diag(r->c, "%lu ops in %llu ms:%s", r->op, div_u64(ns, NSEC_PER_MSEC),
		 line);
	zst_diag(r->c,
		 "%lu sizes refused, at most %u objects live, %lu pages compacted, %lu full checks",
		 r->refused, r->max_live, r->compacted, r->full_checks);
}

static void zst_random_ops(struct zst_case_ctx *c, bool bad)
{
	struct zst_random r = { .c = c };
	u64 t0 = ktime_get_ns();

	r.enabled = BIT(ZST_OP_GARBAGE_FREE) - 1;
	if (bad)
		r.enabled |= BIT(ZST_OP_GARBAGE_FREE) | BIT(ZST_OP_GARBAGE_MAP);
	if (bad && !IS_ENABLED(CONFIG_PREEMPT_RT))
		r.enabled |= BIT(ZST_OP_STALE_FREE) | BIT(ZST_OP_STALE_MAP);
	else if (bad)
		zst_diag(c,
			 "stale-handle ops skipped: on PREEMPT_RT nothing can keep this CPU from reusing the freed slot before the stale call");
	zst_diag(c, "case seed %llu, ops=%u; replay: seed=%llu cases=%s ops=%u",
		 c->seed, random_ops, zst_seed, c->name, random_ops);

	r.objs = kvcalloc(ZST_RANDOM_SLOTS, sizeof(*r.objs), GFP_KERNEL);
	r.fake = kzalloc_obj(*r.fake, GFP_KERNEL);
	r.pool = zs_create_pool(c->name);
	if (!r.objs || !r.fake || !r.pool) {
		c->skip = "cannot allocate test arrays or pool";
		goto out;
	}
	zst_random_run(&r, random_ops);
	zst_random_report(&r, ktime_get_ns() - t0);
	zst_free_all(r.pool, r.objs, r.live);
	zst_expect_empty(c, r.pool, "all freed");
out:
	if (r.pool)
		zs_destroy_pool(r.pool);
	kfree(r.fake);
	kvfree(r.objs);
}

static void zst_case_random_ops(struct zst_case_ctx *c)
{
	zst_random_ops(c, false);
}

static void zst_case_random_ops_bad(struct zst_case_ctx *c)
{
	zst_random_ops(c, true);
}

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
	if (nr_objects < 2 || nr_objects > (1U << 20)) {
		ktap("Bail out! nr_objects=%u out of range", nr_objects);
		return -EINVAL;
	}
	if (threads > 256) {
		ktap("Bail out! threads=%u out of range", threads);
		return -EINVAL;
	}
	if (!thread_objects || thread_objects > 65536) {
		ktap("Bail out! thread_objects=%u out of range", thread_objects);
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
	ktap("# test_zsmalloc: seed=%llu nr_objects=%u enomem_cap_mb=%u ops=%u",
	     zst_seed, nr_objects, enomem_cap_mb, random_ops);
	ktap("# test_zsmalloc: threads=%u (online CPUs %u) loops=%u thread_objects=%u",
	     threads, num_online_cpus(), loops, thread_objects);

	for (i = 0; i < ARRAY_SIZE(zst_cases); i++) {
		const struct zst_case *tc = &zst_cases[i];
		struct zst_case_ctx c = { .name = tc->name };

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
		if (c.scratch)
			tc->run(&c);
		else
			c.skip = "cannot allocate a scratch page";
		kfree(c.scratch);
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
