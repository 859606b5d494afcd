// SPDX-License-Identifier: GPL-2.0
/*
 * zst_compact.c - test_zsmalloc's cases of compaction
 *
 * fill_free_compact (what zs_compact() frees and what the pool's stats say
 * of it), compact_latency (how long an allocation waits beside a compaction:
 * measured, not judged), compact_busy (a compaction beside a busy class
 * still empties it), page_drop_retry (a page whose drop found it locked
 * is given back later) and node_kept (objects placed on a node stay there
 * through compaction).
 */
#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/delay.h>
#include <linux/mm.h>
#include <linux/nodemask.h>
#include <linux/pagemap.h>
#include <linux/scatterlist.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/zsmalloc.h>

#include "zst.h"

/*
 * fill_free_compact: fill with a zram-like size mix, free a random half,
 * compact, refill; verify everything after each phase and print density.
 */
void zst_case_fill_free_compact(struct zst_case_ctx *c)
{
	unsigned long before, after, stats0, stats1, freed, bad;
	const u32 n = zst_nr_objects;
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
static unsigned long zst_lat_touch(void *scratch, struct zs_pool *pool,
				   u32 size, u64 *malloc_done)
{
	unsigned long h = zst_malloc(pool, size, ZST_GFP_NOWAIT);
	void *p;

	*malloc_done = ktime_get_ns();
	if (!IS_ERR_VALUE(h)) {
		p = zst_map(pool, h, ZST_WO, size, scratch);
		memset(p, 0, size);
		zst_unmap(pool, h, ZST_WO, size, scratch, p);
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
 * before the sampler runs) or zst_lat_rounds rounds (the lat_rounds
 * parameter: a KASAN kernel, where a round took two minutes, runs one).  Each round starts
 * from an empty pool, so each compaction has the same work: refilling the
 * holes of the last round would leave the next one almost nothing to do.  The median, 99th
 * percentile and worst are printed, not judged: under TCG they also measure
 * the host.  zs_malloc() and map + unmap are also timed apart, with a count
 * of the samples whose zs_malloc() grew the pool (a lower bound: compaction
 * frees pages meanwhile), to tell lock waits from page allocations.
 */
#define ZST_LAT_MIN_SAMPLES	1000
/* Pages in the longest zspage of any allocator (CONFIG_ZSMALLOC_CHAIN_SIZE). */
#define ZST_LONGEST_CHAIN	16

void zst_case_compact_latency(struct zst_case_ctx *c)
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
	for (r = 0; r < max(zst_lat_rounds, 1U) && nr < ZST_LAT_MIN_SAMPLES; r++) {
		if (!zst_lat_fragment(c, lat.pool, handles, n, size))
			goto out;
		task = zst_lat_start(c, &lat);
		if (!task)
			goto out;
		while (!atomic_read_acquire(&lat.done) && nr < max_samples) {
			unsigned long pages = zs_get_total_pages(lat.pool);
			u64 t0 = ktime_get_ns(), t1;
			unsigned long h = zst_lat_touch(c->scratch, lat.pool, size,
							&t1);

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
 * @scratch: its own PAGE_SIZE buffer (zst_map())
 * @pool: the pool it keeps busy
 * @size: the size of its objects
 * @ops: objects allocated, written and freed so far
 */
struct zst_busy {
	void *scratch;
	struct zs_pool *pool;
	u32 size;
	atomic_long_t ops;
};

static int zst_busy_fn(void *arg)
{
	struct zst_busy *b = arg;

	while (!kthread_should_stop()) {
		u64 t1;
		unsigned long h = zst_lat_touch(b->scratch, b->pool, b->size,
						&t1);

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
 * nearly all), and every object its contents.  A compaction during which
 * the kthread wrote nothing (on a busy host its vCPU may not run for that
 * long) proves nothing: the case goes again from an empty pool, up to
 * ZST_BUSY_MAX_ROUNDS times, and skips if no round was busy.  Needs two CPUs
 * to contend.
 */
#define ZST_BUSY_MAX_ROUNDS	16

void zst_case_compact_busy(struct zst_case_ctx *c)
{
	const u32 n = 1 << 14, size = 100;
	unsigned long pages = 0, bound, freed = 0, before, during = 0;
	struct zst_busy busy = { .size = size };
	struct task_struct *task;
	struct zst_obj *objs;
	u32 r, i;

	objs = kvcalloc(n, sizeof(*objs), GFP_KERNEL);
	busy.scratch = kmalloc(PAGE_SIZE, GFP_KERNEL);
	busy.pool = zs_create_pool("zst_busy");
	if (!objs || !busy.scratch || !busy.pool) {
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
		zst_free_all(busy.pool, objs, n);
		if (!zst_objs_alloc(c, busy.pool, objs, n, size, NUMA_NO_NODE))
			goto stop_busy;
		for (i = 0; i < n; i++) {
			if (i % 4)
				zst_obj_free(busy.pool, &objs[i]);
		}
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
	zst_verify_all(c, busy.pool, objs, n, "after compaction");
stop_busy:
	kthread_stop(task);
out:
	if (busy.pool) {
		if (objs)
			zst_free_all(busy.pool, objs, n);
		zs_destroy_pool(busy.pool);
	}
	kfree(busy.scratch);
	kvfree(objs);
}

/*
 * Locks the page object @o lies on, as the migration core would, with a
 * reference of ours; NULL after a failure.  The object is found where a read
 * puts it: in place (64-bit: pages are in the direct map).  Migration may
 * move it until its page is locked: then it is looked for again.
 */
static struct page *zst_lock_obj_page(struct zst_case_ctx *c,
				      struct zs_pool *pool,
				      const struct zst_obj *o)
{
	struct page *page, *now;
	unsigned int tries;
	void *mem;

	for (tries = 0; tries < 100; tries++) {
		mem = zst_map(pool, o->handle, ZST_RO, o->size, c->scratch);
		page = virt_to_page(mem);
		get_page(page);
		zst_unmap(pool, o->handle, ZST_RO, o->size, c->scratch, mem);
		lock_page(page);
		mem = zst_map(pool, o->handle, ZST_RO, o->size, c->scratch);
		now = virt_to_page(mem);
		zst_unmap(pool, o->handle, ZST_RO, o->size, c->scratch, mem);
		if (now == page)
			return page;
		unlock_page(page);
		put_page(page);
	}
	zst_fail(c, "the object moved 100 times while its page was looked for");
	return NULL;
}

/*
 * The pages of @pool once at most @want, or after zs_compact() gave back
 * what it could ten times: the migration core (suite 20's compaction loop)
 * may hold the lock of a page due to go back just then.
 */
static unsigned long zst_compacted_pages(struct zs_pool *pool,
					 unsigned long want)
{
	unsigned long pages = zs_get_total_pages(pool);
	unsigned int tries;

	for (tries = 0; tries < 10 && pages > want; tries++) {
		zs_compact(pool);
		pages = zs_get_total_pages(pool);
		if (pages > want)
			msleep(20);
	}
	return pages;
}

/*
 * page_drop_retry (ours only): a page left with no object on it while the
 * migration core held it locked is given back by the next zs_compact().
 * Four objects of 3072 bytes fill one zspage of three pages (the least-waste
 * chain for that size, attached as objects need them); the first lies on page
 * 0 alone, the last on page 2.  With the second and third freed, the last is
 * freed while its page is locked: the page stays, and compaction must give it
 * back.  Unfixed, it stayed until an object used it again or its zspage died,
 * and the shrinker counted it as freeable in vain.
 */
void zst_case_page_drop_retry(struct zst_case_ctx *c)
{
	struct zst_obj objs[4] = {};
	struct zs_pool *pool;
	unsigned long pages;
	struct page *page;

	pool = zs_create_pool("zst_drop_retry");
	if (!pool) {
		zst_fail(c, "cannot create pool");
		return;
	}
	if (!zst_objs_alloc(c, pool, objs, ARRAY_SIZE(objs), 3072,
			    NUMA_NO_NODE))
		goto free_all;
	zst_obj_free(pool, &objs[1]);
	zst_obj_free(pool, &objs[2]);
	/* Before the case's own locked free, a drop may have met migration. */
	pages = zst_compacted_pages(pool, 2);
	if (pages != 2) {
		zst_fail(c, "%lu pages for objects 0 and 3 of one zspage, not 2", pages);
		goto free_all;
	}
	page = zst_lock_obj_page(c, pool, &objs[3]);
	if (!page)
		goto free_all;
	zst_obj_free(pool, &objs[3]);
	pages = zs_get_total_pages(pool);
	unlock_page(page);
	put_page(page);
	zst_expect(c, pages == 2, "the free gave back the page held locked: %lu pages",
		   pages);
	pages = zst_compacted_pages(pool, 1);
	zst_diag(c, "pages after the locked free 2, after zs_compact() %lu", pages);
	zst_expect(c, pages == 1, "%lu pages after compaction for one object", pages);
	zst_verify_all(c, pool, objs, ARRAY_SIZE(objs), "after compaction");
free_all:
	zst_free_all(pool, objs, ARRAY_SIZE(objs));
	zst_expect_empty(c, pool, "all freed");
	zs_destroy_pool(pool);
}

/*
 * A node with memory and no CPU, or NUMA_NO_NODE if there is none: objects
 * placed there are compacted from a CPU of another node.
 */
static int zst_cpuless_node(void)
{
	int nid;

	for_each_node_state(nid, N_MEMORY) {
		if (!node_state(nid, N_CPU))
			return nid;
	}
	return NUMA_NO_NODE;
}

/* How many live objects of @objs lie on a page off node @nid (7.x). */
static unsigned int zst_objs_off_node(struct zs_pool *pool,
				      const struct zst_obj *objs,
				      unsigned int n, int nid)
{
	struct scatterlist sg[2];
	unsigned int i, off = 0;

	for (i = 0; i < n; i++) {
		if (!objs[i].handle)
			continue;
		zst_sg_read_begin(pool, objs[i].handle, objs[i].size, sg);
		off += page_to_nid(sg_page(&sg[0])) != nid ||
		       (!sg_is_last(&sg[0]) &&
			page_to_nid(sg_page(&sg[1])) != nid);
		zst_sg_read_end(pool, objs[i].handle);
		cond_resched();
	}
	return off;
}

/*
 * node_kept (7.x with a node that has memory and no CPU, as the series'
 * guests have; elsewhere skipped): objects zs_malloc() placed on a node stay
 * on it through a compaction run from another node's CPU.  Objects of 3072
 * bytes, four to a zspage of three pages; with the first two of each zspage
 * freed, its first page goes (ours) and compaction moves objects into those
 * holes, attaching pages again.  Unfixed, ours took them from the compacting
 * task's node.
 */
#define ZST_NODE_OBJS	1024
#define ZST_NODE_SIZE	3072

void zst_case_node_kept(struct zst_case_ctx *c)
{
	int nid = zst_cpuless_node();
	struct zst_obj *objs;
	struct zs_pool *pool;
	unsigned int i, off;
	unsigned long freed;

	if (!ZST_API_7 || nid == NUMA_NO_NODE) {
		c->skip = "no zs_malloc() on a node, or no node without a CPU";
		return;
	}
	objs = kvcalloc(ZST_NODE_OBJS, sizeof(*objs), GFP_KERNEL);
	pool = zs_create_pool("zst_node_kept");
	if (!objs || !pool) {
		c->skip = "cannot allocate test arrays or pool";
		goto out;
	}
	if (!zst_objs_alloc(c, pool, objs, ZST_NODE_OBJS, ZST_NODE_SIZE, nid))
		goto free_all;
	off = zst_objs_off_node(pool, objs, ZST_NODE_OBJS, nid);
	zst_expect(c, !off, "zs_malloc() put %u of %u objects off node %d",
		   off, ZST_NODE_OBJS, nid);
	for (i = 0; i < ZST_NODE_OBJS; i += 4) {
		zst_obj_free(pool, &objs[i]);
		zst_obj_free(pool, &objs[i + 1]);
	}
	freed = zs_compact(pool);
	off = zst_objs_off_node(pool, objs, ZST_NODE_OBJS, nid);
	zst_diag(c, "node %d, compacted on node %d: %lu pages freed, %u of %u objects off the node",
		 nid, numa_node_id(), freed, off, ZST_NODE_OBJS / 2);
	zst_expect(c, freed, "zs_compact() freed no page");
	zst_expect(c, !off, "%u objects left node %d in compaction", off, nid);
	zst_verify_all(c, pool, objs, ZST_NODE_OBJS, "after compaction");
free_all:
	zst_free_all(pool, objs, ZST_NODE_OBJS);
	zst_expect_empty(c, pool, "all freed");
out:
	if (pool)
		zs_destroy_pool(pool);
	kvfree(objs);
}
