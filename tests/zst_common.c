// SPDX-License-Identifier: GPL-2.0
/*
 * zst_common.c - what test_zsmalloc's cases share
 *
 * zst_fail(); the content of objects (pseudo-random streams derived from
 * (seed, handle, size, tag): see "How objects are checked" in zst_main.c);
 * the helpers that allocate, write, check, rewrite and free struct zst_obj
 * objects and report on them and on their pool; waiting for deferred frees;
 * random sizes and orders.
 */
#include <linux/delay.h>
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/kthread.h>
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/zsmalloc.h>

#include "zst.h"

/* 2^64 / golden ratio: spreads consecutive word indices over 64 bits. */
#define ZST_GOLDEN	0x9e3779b97f4a7c15ULL

/* Count a failed check; print only the first ZST_MAX_REPORTS of a case. */
void zst_fail(struct zst_case_ctx *c, const char *fmt, ...)
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

/* The first byte of @buf, @o->size long, not matching the object @o, or -1. */
long zst_obj_find(const void *buf, const struct zst_obj *o)
{
	return zst_obj_find_to(buf, o, o->size);
}

/* -------------------------------------------------------------------- */
/* Object helpers                                                       */
/* -------------------------------------------------------------------- */

u32 zst_rand_range(struct rnd_state *rnd, u32 lo, u32 hi)
{
	return lo + prandom_u32_state(rnd) % (hi - lo + 1);
}

/*
 * A zram-like mix of compressed page sizes: mostly 2000..3500 bytes, a
 * spread of smaller ones, some nearly incompressible ones and a few tiny
 * ones.  The byte values assume 4 KiB pages; they are clamped to PAGE_SIZE.
 */
u32 zst_rand_size(struct rnd_state *rnd)
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
 * zst_obj_alloc_node() - allocate an object of @size bytes into slot @o
 * @pool: pool
 * @o: free slot
 * @size: requested size
 * @gfp: allocation flags
 * @nid: the node to allocate on (7.x), or NUMA_NO_NODE
 *
 * Context: may sleep if @gfp allows it.
 * Return: 0, or the negative errno zs_malloc() returned (slot stays free).
 */
int zst_obj_alloc_node(struct zs_pool *pool, struct zst_obj *o, u32 size,
		       gfp_t gfp, int nid)
{
	unsigned long handle = zst_malloc_node(pool, size, gfp, nid);

	if (IS_ERR_VALUE(handle))
		return PTR_ERR((void *)handle);
	if (!handle)
		return -EFAULT;	/* never a valid handle: reported as error */
	o->handle = handle;
	o->size = size;
	return 0;
}

/* zst_obj_alloc_node() on no node in particular. */
int zst_obj_alloc(struct zs_pool *pool, struct zst_obj *o, u32 size,
		  gfp_t gfp)
{
	return zst_obj_alloc_node(pool, o, size, gfp, NUMA_NO_NODE);
}

/*
 * The object helpers below access objects through zst_map() (zst_api.h):
 * each takes the PAGE_SIZE @scratch buffer of the calling thread.
 */

/* Write a whole new stream @tag through ZST_WO. */
void zst_obj_write(struct zs_pool *pool, struct zst_obj *o, u32 tag,
		   void *scratch)
{
	void *buf = zst_map(pool, o->handle, ZST_WO, o->size, scratch);

	zst_fill(buf, zst_key(o->handle, o->size, tag), 0, o->size);
	zst_unmap(pool, o->handle, ZST_WO, o->size, scratch, buf);
	o->lo = tag;
	o->split = o->size;
}

/* Check the object through ZST_RO; return the first bad offset or -1. */
long zst_obj_verify(struct zs_pool *pool, const struct zst_obj *o,
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
long zst_obj_modify(struct zs_pool *pool, struct zst_obj *o,
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

/*
 * Allocates and writes @n objects of @size bytes on node @nid (or
 * NUMA_NO_NODE); false after a failure.
 */
bool zst_objs_alloc(struct zst_case_ctx *c, struct zs_pool *pool,
		    struct zst_obj *objs, unsigned int n, u32 size, int nid)
{
	unsigned int i;
	int err;

	for (i = 0; i < n; i++) {
		err = zst_obj_alloc_node(pool, &objs[i], size, ZST_GFP, nid);
		if (err) {
			zst_fail(c, "zs_malloc(%u) = %d", size, err);
			return false;
		}
		zst_obj_write(pool, &objs[i], prandom_u32_state(&c->rnd),
			      c->scratch);
	}
	return true;
}

void zst_obj_free(struct zs_pool *pool, struct zst_obj *o)
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
void zst_report_mismatch(struct zst_case_ctx *c, struct zs_pool *pool,
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

unsigned long zst_verify_all(struct zst_case_ctx *c,
			     struct zs_pool *pool, struct zst_obj *objs,
			     unsigned long n, const char *phase)
{
	return zst_verify_objs(c, pool, objs, n, phase, false);
}

/* The same through the scatterlist read (7.x; 6.x: a copy of an RO map). */
unsigned long zst_verify_all_sg(struct zst_case_ctx *c,
				struct zs_pool *pool,
				struct zst_obj *objs, unsigned long n,
				const char *phase)
{
	return zst_verify_objs(c, pool, objs, n, phase, true);
}

/* The kernel's count of warnings so far (/sys/kernel/warn_count), or -1. */
long zst_warn_count(void)
{
	struct file *file;
	char buf[24];
	loff_t pos = 0;
	ssize_t len;
	long count;

	file = filp_open("/sys/kernel/warn_count", O_RDONLY, 0);
	if (IS_ERR(file))
		return -1;
	len = kernel_read(file, buf, sizeof(buf) - 1, &pos);
	filp_close(file, NULL);
	if (len <= 0)
		return -1;
	buf[len] = '\0';
	return kstrtol(strim(buf), 10, &count) ? -1 : count;
}

/**
 * zst_expect_bad_calls() - check the warnings of a case that just ran
 * @c: the case
 *
 * Its calls that named no live object (counted by zst_expect_warning()) are
 * all on one pool of its own, where our allocator warns once: one warning
 * if it made any, none if not, whatever warned before in the boot.
 */
void zst_expect_bad_calls(struct zst_case_ctx *c)
{
	int made = atomic_read(&zst_bad_calls);
	long warned = zst_warn_count() - zst_warnings_before;

	if (made)
		zst_diag(c, "%d calls named no object: %ld kernel warning(s)",
			 made, warned);
	zst_expect(c, warned == !!made,
		   "%ld kernel warnings for %d calls naming no object", warned,
		   made);
}

void zst_free_all(struct zs_pool *pool, struct zst_obj *objs,
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
void zst_report_pool(struct zst_case_ctx *c, struct zs_pool *pool,
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

unsigned long zst_pages_compacted(struct zs_pool *pool)
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

unsigned long zst_settled_pages(struct zst_case_ctx *c,
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
void zst_expect_empty(struct zst_case_ctx *c, struct zs_pool *pool,
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
void zst_shuffle(struct rnd_state *rnd, u32 *order, u32 n)
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
struct zs_pool *zst_case_setup(struct zst_case_ctx *c, const char *name,
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
void zst_fill_free_slots(struct zst_case_ctx *c, struct zs_pool *pool,
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

/* Whether @err is what zs_malloc() must fail with for an impossible @size. */
bool zst_size_error_ok(size_t size, long err)
{
	if (!size)
		return err == -EINVAL;
	return err == -ENOSPC || err == ZST_ERR_TOO_BIG_TOO;
}

/* Park until kthread_stop(), so the stopper never races a thread exit. */
int zst_park_until_stopped(void)
{
	set_current_state(TASK_INTERRUPTIBLE);
	while (!kthread_should_stop()) {
		schedule();
		set_current_state(TASK_INTERRUPTIBLE);
	}
	__set_current_state(TASK_RUNNING);
	return 0;
}
