// SPDX-License-Identifier: GPL-2.0
/*
 * zst_api_cases.c - test_zsmalloc's cases of the API and of bad input
 *
 * pool_basics, every_size, bad_input, enomem, destroy_nonempty and
 * malloc_no_pages: what the zs_* API must do with good and impossible
 * requests, and when no page can be had; bad_handle and
 * garbage_handle (ours only): what it must do with handles that name no
 * live object, with the checks of the stand-in such an access gets, which
 * random_ops_bad uses too (zst_map_bad()).
 */
#include <linux/delay.h>
#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/zsmalloc.h>

#include "zst.h"

/*
 * pool_basics: a new pool is empty; zs_huge_class_size() is sane; a
 * PAGE_SIZE object costs exactly one page; two pools account separately.
 */
void zst_case_pool_basics(struct zst_case_ctx *c)
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

/*
 * every_size: objects of every size 1..PAGE_SIZE live at once in one pool,
 * allocated and written in random order, so neighbours of every size and
 * objects spanning pages occur naturally.  The last check reads them all
 * through zst_read_sg() too (on 7.x the scatterlist read).
 */
void zst_case_every_size(struct zst_case_ctx *c)
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

/*
 * bad_input: impossible sizes fail with -EINVAL (0, or on 6.1 any), or with
 * -ENOSPC (over PAGE_SIZE, from 6.12 on), zs_free() of 0 or of an error value
 * is ignored, and the pool stays usable.
 */
void zst_case_bad_input(struct zst_case_ctx *c)
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
			   zst_size_error_ok(bad_sizes[i], PTR_ERR((void *)handle)),
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
 * enomem: allocate with zram's no-reclaim flags until zs_malloc() fails or
 * the cap is reached; the failure must be -ENOMEM, must not disturb earlier
 * objects and must not leak pages.  Objects are 3/4 to 1 page, so each
 * takes about a page and the pool grows fast.  Opt-in: it drives the
 * machine to its low watermark for a few seconds.
 */
void zst_case_enomem(struct zst_case_ctx *c)
{
	unsigned long cap, max_objs, n = 0, i, bad, pages_at_fail;
	struct zst_obj *objs;
	struct zs_pool *pool;
	int err = 0;

	cap = zst_enomem_cap_mb ? (unsigned long)zst_enomem_cap_mb << (20 - PAGE_SHIFT) :
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
void zst_case_destroy_nonempty(struct zst_case_ctx *c)
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

	if (!ZST_API_7)
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
void zst_map_bad(struct zst_case_ctx *c, struct zs_pool *pool,
		 unsigned long handle, enum zst_mode mode, size_t len,
		 const char *what)
{
	u8 *p = zst_map(pool, handle, mode | ZST_BAD, len, c->scratch);

	zst_check_stand_in(c, p, mode, len, what);
	zst_unmap(pool, handle, mode | ZST_BAD, len, c->scratch, p);
	zst_check_sg_bad(c, pool, handle, len, what);
}

/*
 * Frees @o and allocates it again, which takes the table entry of its old
 * handle (this CPU's last free one: the test stays on this CPU, and no one
 * else uses the pool), then frees the old handle again: a double free that
 * must warn and leave the new object alone.  Return: nonzero on failure.
 */
static int zst_stale_free_after_reuse(struct zst_case_ctx *c,
				      struct zs_pool *pool, struct zst_obj *o)
{
	unsigned long stale = o->handle;
	size_t size = o->size;
	int err;

	migrate_disable();
	zst_obj_free(pool, o);
	err = zst_obj_alloc(pool, o, size, ZST_GFP);
	migrate_enable();
	if (err) {
		zst_fail(c, "zs_malloc() = %d", err);
		return err;
	}
	zst_obj_write(pool, o, prandom_u32_state(&c->rnd), c->scratch);
	zst_expect(c, lower_32_bits(o->handle) == lower_32_bits(stale) &&
		   o->handle != stale,
		   "handle %#lx after %#lx: not the same entry in a new generation",
		   o->handle, stale);
	zst_expect_warning("zs_free");
	zs_free(pool, stale);
	zst_verify_all(c, pool, o, 1, "after a double free of a reused entry");
	return 0;
}

/*
 * bad_handle (ours only: stock 6.1 trusts the handle): a live object's
 * handle with its generation changed (how a stale handle of its entry looks
 * with our layout) is no handle of that object.  Mapped
 * (6.x), it must give a zeroed stand-in (one warning), and writing through
 * it must change neither that object nor its neighbours.  Unfixed, the map
 * returned the live object and the write went into it.  On 7.x the same
 * holds for zs_obj_read_begin() (zeroes), zs_obj_write() (writes nowhere)
 * and zs_obj_read_sg_begin() (zeroes), each warning once.  A double free
 * after the handle's entry was reused by a new object leaves that object
 * alone, with one warning.
 */
void zst_case_bad_handle(struct zst_case_ctx *c)
{
	struct zst_obj objs[8] = {};
	struct zs_pool *pool;
	unsigned long bad;
	unsigned int i;
	int err;

	pool = zs_create_pool("zst_bad_handle");
	if (!pool) {
		zst_fail(c, "cannot create pool");
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
		zst_map_bad(c, pool, objs[i].handle ^ BIT_ULL(32 + i), ZST_RW,
			    objs[i].size, "a live handle of another generation");
	}
	bad = zst_verify_all(c, pool, objs, ARRAY_SIZE(objs), "after bad maps");
	zst_diag(c, "%lu objects changed by writes through bad handles", bad);
	if (zst_stale_free_after_reuse(c, pool, &objs[0]))
		goto free_all;
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
}

/* Where a read finds the object of @o now: in place, or in the scratch. */
static void *zst_obj_addr(struct zst_case_ctx *c, struct zs_pool *pool,
			  const struct zst_obj *o)
{
	void *mem = zst_map(pool, o->handle, ZST_RO, o->size, c->scratch);

	zst_unmap(pool, o->handle, ZST_RO, o->size, c->scratch, mem);
	return mem;
}

/*
 * garbage_handle (ours only; unfixed it oopses): garbage handles (all ones,
 * a random value, a kernel address), and handles that are 0 or an error value,
 * map to the zeroed stand-in (7.x: read as zeroes, written nowhere), and a
 * handle-0 map ends with its unmap like any other; an unmap without a map
 * (7.x: the end of a read that never began) of a live handle is ignored: the
 * object stays movable.  Objects of 3072 bytes, four to a zspage of three
 * pages (either allocator's chain for that size): objs[0] is left alone in
 * the first zspage, three in the second, so compaction moves objs[0] (from
 * the emptier zspage) unless its zspage stayed pinned, when it moves the
 * other three in beside it instead.
 */
void zst_case_garbage_handle(struct zst_case_ctx *c)
{
	unsigned long values[] = { ~0UL, 0, 0 };
	struct zst_obj objs[8] = {};
	const unsigned int n = ARRAY_SIZE(objs);
	void *before, *after;
	struct zs_pool *pool;
	unsigned long *fake;
	unsigned long freed;
	unsigned int i;

	values[1] = (unsigned long)prandom_u32_state(&c->rnd) << 32 |
		    prandom_u32_state(&c->rnd);
	fake = kzalloc_obj(*fake, GFP_KERNEL);
	values[2] = (unsigned long)fake;
	pool = zs_create_pool("zst_garbage_handle");
	if (!pool || !fake) {
		zst_fail(c, "cannot create pool or fake handle");
		goto out;
	}
	for (i = 0; i < ARRAY_SIZE(values); i++)
		zst_map_bad(c, pool, values[i], ZST_RW, PAGE_SIZE, "garbage");
	/* No handle at all: 0 and an error value, which zs_free() ignores. */
	zst_map_bad(c, pool, 0, ZST_RW, PAGE_SIZE, "handle 0");
	zst_map_bad(c, pool, (unsigned long)ERR_PTR(-ENOMEM), ZST_RW, PAGE_SIZE,
		    "error handle");
	zst_expect(c, zs_get_total_pages(pool) == 0, "bad maps made pages");

	if (!zst_objs_alloc(c, pool, objs, n, 3072, NUMA_NO_NODE))
		goto free_all;
	/* Had it been left unpinned below 0, objs[0] could never move. */
	zst_end_unpaired(pool, objs[0].handle);
	zst_obj_free(pool, &objs[1]);
	zst_obj_free(pool, &objs[2]);
	zst_obj_free(pool, &objs[3]);
	zst_obj_free(pool, &objs[7]);
	before = zst_obj_addr(c, pool, &objs[0]);
	freed = zs_compact(pool);
	after = zst_obj_addr(c, pool, &objs[0]);
	zst_diag(c, "after the unpaired unmap, compaction freed %lu pages and %s objs[0]",
		 freed, after != before ? "moved" : "left");
	zst_expect(c, after != before,
		   "objs[0] did not move: its zspage stayed pinned");
	zst_verify_all(c, pool, objs, n, "after compaction");
free_all:
	zst_free_all(pool, objs, n);
	zst_expect_empty(c, pool, "all freed");
out:
	if (pool)
		zs_destroy_pool(pool);
	kfree(fake);
}

/*
 * malloc_no_pages (opt-in; 70-fault-inject arms fail_page_alloc for it):
 * when no page can be had, zs_malloc() takes a free slot that needs none.
 * Two zspages of four 3072-byte objects, three pages each.  In the second,
 * which allocation fills, the first two objects are freed, so (ours) its
 * first page goes and its lowest free slot lacks a page; in the first, the
 * second and fourth are freed, on pages the others still hold.  With every
 * page allocation of this task failing (make-it-fail), a zs_malloc() of
 * that class must succeed.  Unfixed, ours tried to attach a page for the
 * slot of the second zspage and returned -ENOMEM, as zswap saw (its
 * reject_alloc_fail) where stock, which holds every page of a zspage,
 * found room.
 */
void zst_case_malloc_no_pages(struct zst_case_ctx *c)
{
	struct zst_obj objs[9] = {};
	struct zs_pool *pool;
	struct page *page;
	int err;

	if (!zst_can_inject()) {
		c->skip = "kernel without CONFIG_FAULT_INJECTION";
		return;
	}
	pool = zs_create_pool("zst_malloc_no_pages");
	if (!pool) {
		zst_fail(c, "cannot create pool");
		return;
	}
	if (!zst_objs_alloc(c, pool, objs, 8, 3072, NUMA_NO_NODE))
		goto free_all;
	zst_obj_free(pool, &objs[1]);
	zst_obj_free(pool, &objs[3]);
	zst_obj_free(pool, &objs[4]);
	zst_obj_free(pool, &objs[5]);
	zst_inject_faults(true);
	page = alloc_page(ZST_GFP_NOWAIT);
	err = page ? 0 : zst_obj_alloc(pool, &objs[8], 3072, ZST_GFP_NOWAIT);
	zst_inject_faults(false);
	if (page) {
		__free_page(page);
		c->skip = "fail_page_alloc is not armed for make-it-fail tasks";
		goto free_all;
	}
	zst_expect(c, !err, "zs_malloc(3072) = %d with room on held pages", err);
	if (!err)
		zst_obj_write(pool, &objs[8], prandom_u32_state(&c->rnd),
			      c->scratch);
	zst_verify_all(c, pool, objs, ARRAY_SIZE(objs), "after the allocation");
free_all:
	zst_free_all(pool, objs, ARRAY_SIZE(objs));
	zst_expect_empty(c, pool, "all freed");
	zs_destroy_pool(pool);
}
