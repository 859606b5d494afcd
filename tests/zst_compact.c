// SPDX-License-Identifier: GPL-2.0
/*
 * zst_compact.c - test_zsmalloc's cases of compaction
 *
 * fill_free_compact (what zs_compact() frees and what the pool's stats say
 * of it), compact_latency (how long an allocation waits beside a compaction:
 * measured, not judged), compact_busy (a compaction beside a busy class
 * still empties it), page_drop_retry (a page whose drop found it locked
 * is given back later), node_kept (objects placed on a node stay there
 * through compaction) and compact_no_pages (a compaction that can have no
 * page gives its CPU up all the same).
 */
#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/delay.h>
#include <linux/hrtimer.h>
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

/* Waits a busy kthread keeps: the last ZST_WAITS of them. */
#define ZST_WAITS	BIT(16)

/**
 * struct zst_busy - the busy side of the compact_busy and compact_no_pages
 * cases
 * @scratch: its own PAGE_SIZE buffer (zst_map())
 * @pool: the pool it keeps busy
 * @size: the size of its objects
 * @ops: objects allocated, written and freed so far
 * @waits: if not NULL, how long it waited for a CPU, runnable (ns), while
 *	it slept before object i and handled it, in @waits[i % ZST_WAITS],
 *	stored before @ops counts it
 * @nap_us: if not 0, it runs SCHED_FIFO and sleeps that long or up to twice
 *	as long after each object: its wake-up asks the CPU of whatever runs
 */
struct zst_busy {
	void *scratch;
	struct zs_pool *pool;
	u32 size;
	atomic_long_t ops;
	u64 *waits;
	u32 nap_us;
};

static int zst_busy_fn(void *arg)
{
	struct zst_busy *b = arg;
	u64 delay = zst_run_delay(), now;

	if (b->nap_us)
		sched_set_fifo_low(current);
	while (!kthread_should_stop()) {
		long done = atomic_long_read(&b->ops);
		u64 t1;
		unsigned long h = zst_lat_touch(b->scratch, b->pool, b->size,
						&t1);

		if (!IS_ERR_VALUE(h))
			zs_free(b->pool, h);
		if (b->waits) {
			now = zst_run_delay();
			b->waits[done % ZST_WAITS] = now - delay;
			delay = now;
		}
		/* Only this kthread counts: a store, ordered after the stamp. */
		atomic_long_set_release(&b->ops, done + 1);
		if (b->nap_us)
			usleep_range(b->nap_us, 2 * b->nap_us);
		else
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

#define ZST_NOPAGES_OBJS	BIT(16)
#define ZST_NOPAGES_SIZE	3072
#define ZST_NOPAGES_ROUNDS	3
#define ZST_NOPAGES_NAP_US	20

/**
 * struct zst_nopages - the compacting side of the compact_no_pages case
 * @pool: the pool it compacts
 * @busy: the kthread that uses the pool on the same CPU
 * @done: completed when the compaction is over, or was not tried
 * @armed: a page allocation failed for it, so its compaction got none
 * @busy_task: @busy's kthread, or NULL when the compaction runs alone
 * @start: when zs_compact() was called (ns)
 * @end: when it returned
 * @busy_ns: the CPU time @busy_task had meanwhile: the compaction had the
 *	rest (they share one CPU)
 * @first: @busy's objects at @start
 * @last: @busy's objects when it was stopped
 * @freed: what zs_compact() returned
 */
struct zst_nopages {
	struct zs_pool *pool;
	struct zst_busy *busy;
	struct completion done;
	bool armed;
	struct task_struct *busy_task;
	u64 start, end, busy_ns;
	long first, last;
	unsigned long freed;
};

/* The CPU time of @task, not running (ns); 0 for NULL. */
static u64 zst_cpu_time(struct task_struct *task)
{
	return task ? READ_ONCE(task->se.sum_exec_runtime) : 0;
}

static int zst_nopages_compact_fn(void *arg)
{
	struct zst_nopages *np = arg;
	struct page *page;

	zst_inject_faults(true);
	page = alloc_page(ZST_GFP_NOWAIT);
	np->armed = !page;
	if (page)
		__free_page(page);
	if (np->armed) {
		/* @busy_task is not running: this one has their CPU. */
		np->busy_ns = zst_cpu_time(np->busy_task);
		np->first = atomic_long_read_acquire(&np->busy->ops);
		np->start = ktime_get_ns();
		np->freed = zs_compact(np->pool);
		np->end = ktime_get_ns();
		np->busy_ns = zst_cpu_time(np->busy_task) - np->busy_ns;
	}
	zst_inject_faults(false);
	complete(&np->done);
	return zst_park_until_stopped();
}

/* The longest the busy kthread waited for its CPU during @np's compaction. */
static u64 zst_longest_wait(const struct zst_nopages *np, const u64 *waits)
{
	long i = max(np->first, np->last - (long)ZST_WAITS);
	u64 longest = 0;

	for (; i < np->last; i++)
		longest = max(longest, waits[i % ZST_WAITS]);
	return longest;
}

/* Starts @fn(@arg) as a kthread bound to @cpu; NULL after a failure. */
static struct task_struct *zst_run_on(struct zst_case_ctx *c,
				      int (*fn)(void *), void *arg,
				      const char *name, unsigned int cpu)
{
	struct task_struct *task = kthread_create(fn, arg, "%s", name);

	if (IS_ERR(task)) {
		zst_fail(c, "kthread_create(%s) = %ld", name, PTR_ERR(task));
		return NULL;
	}
	kthread_bind(task, cpu);
	wake_up_process(task);
	return task;
}

/*
 * One compaction of compact_no_pages, by a kthread on @cpu, of a pool whose
 * objects are in place; with @busy, a busy kthread beside it.  Returns false
 * if the case cannot go on (then it failed or skipped).
 */
static bool zst_nopages_round(struct zst_case_ctx *c, struct zst_nopages *np,
			      unsigned int cpu, bool busy)
{
	struct task_struct *compactor;

	atomic_long_set(&np->busy->ops, 0);
	np->busy_task = NULL;
	if (busy) {
		np->busy_task = zst_run_on(c, zst_busy_fn, np->busy,
					   "zst_busy", cpu);
		if (!np->busy_task)
			return false;
		/* The class is busy before the compaction starts. */
		while (!atomic_long_read(&np->busy->ops))
			cond_resched();
	}
	init_completion(&np->done);
	compactor = zst_run_on(c, zst_nopages_compact_fn, np, "zst_compact",
			       cpu);
	if (compactor) {
		wait_for_completion(&np->done);
		kthread_stop(compactor);
	}
	/*
	 * Stopped before its waits are read: it would overwrite them.  The
	 * wait of an object it began during the compaction ends after it.
	 */
	if (np->busy_task) {
		kthread_stop(np->busy_task);
		np->busy_task = NULL;
	}
	np->last = atomic_long_read(&np->busy->ops);
	if (compactor && !np->armed)
		c->skip = "fail_page_alloc is not armed for make-it-fail tasks";
	return compactor && np->armed;
}

/* Lays out compact_no_pages' objects in @pool; false after a failure. */
static bool zst_nopages_layout(struct zst_case_ctx *c, struct zs_pool *pool,
			       struct zst_obj *objs, u32 n)
{
	u32 i;

	zst_free_all(pool, objs, n);
	if (!zst_objs_alloc(c, pool, objs, n, ZST_NOPAGES_SIZE, NUMA_NO_NODE))
		return false;
	for (i = 0; i < n; i += 4) {
		zst_obj_free(pool, &objs[i]);
		zst_obj_free(pool, &objs[i + 1]);
	}
	return true;
}

/*
 * compact_no_pages (opt-in; 70-fault-inject arms fail_page_alloc for it):
 * a compaction that can have no page still gives its CPU up when it is
 * needed, rather than walking the whole class under its lock.  Objects of
 * 3072 bytes, four to a zspage of three pages, the first two of each
 * freed: ours gives back each zspage's first page, so every move would need
 * a page, and the compacting kthread gets none (make-it-fail).  A kthread on
 * the same CPU, SCHED_FIFO, allocates, writes and frees an object of that
 * class every ZST_NOPAGES_NAP_US to twice that (high-resolution timers, as
 * Debian's kernels have); each wake-up asks the compaction for the CPU,
 * which it keeps while it holds a class lock (preemption off).  In each of
 * ZST_NOPAGES_ROUNDS rounds, each from an empty pool, the longest the
 * kthread waited for its CPU, runnable (the scheduler's run_delay), is the
 * longest hold it met, and must be at most an eighth of the same compaction
 * run alone first; and the compaction's own time (the round's, less the
 * kthread's CPU time) at most three times that.  Ours gave the lock up only
 * after a move, and so held it for the whole walk (the first bound); then it
 * went on with a count of the zspages walked and skipped as many again at
 * each hold, which grows with the class and with the wake-ups (the second).
 * Stock moves objects without new pages: its figures are the comparison.
 */

void zst_case_compact_no_pages(struct zst_case_ctx *c)
{
	const u32 n = ZST_NOPAGES_OBJS;
	struct zst_busy busy = { .size = ZST_NOPAGES_SIZE,
				 .nap_us = ZST_NOPAGES_NAP_US };
	struct zst_nopages np = { .busy = &busy };
	unsigned int cpu = raw_smp_processor_id();
	struct zst_obj *objs;
	u64 alone, wait, own;
	u32 r;

	if (!zst_can_inject()) {
		c->skip = "kernel without CONFIG_FAULT_INJECTION";
		return;
	}
	if (hrtimer_resolution > ZST_NOPAGES_NAP_US * NSEC_PER_USEC ||
	    !zst_have_run_delay()) {
		c->skip = "no high-resolution timers (naps last a tick) or no CONFIG_SCHED_INFO";
		return;
	}
	objs = kvcalloc(n, sizeof(*objs), GFP_KERNEL);
	busy.waits = kvcalloc(ZST_WAITS, sizeof(*busy.waits), GFP_KERNEL);
	busy.scratch = kmalloc(PAGE_SIZE, GFP_KERNEL);
	np.pool = zs_create_pool("zst_no_pages");
	busy.pool = np.pool;
	if (!objs || !busy.waits || !busy.scratch || !np.pool) {
		c->skip = "cannot allocate test arrays or pool";
		goto out;
	}
	if (!zst_nopages_layout(c, np.pool, objs, n) ||
	    !zst_nopages_round(c, &np, cpu, false))
		goto out;
	alone = np.end - np.start;
	zst_diag(c, "alone on CPU %u: compaction %llu us, %lu pages freed",
		 cpu, alone / NSEC_PER_USEC, np.freed);
	for (r = 1; r <= ZST_NOPAGES_ROUNDS; r++) {
		if (!zst_nopages_layout(c, np.pool, objs, n) ||
		    !zst_nopages_round(c, &np, cpu, true))
			goto out;
		wait = zst_longest_wait(&np, busy.waits);
		own = np.end - np.start - min(np.busy_ns, np.end - np.start);
		zst_diag(c, "round %u: compaction %llu us, %llu the kthread's (%ld objects)",
			 r, (np.end - np.start) / NSEC_PER_USEC,
			 np.busy_ns / NSEC_PER_USEC, np.last - np.first);
		zst_diag(c, "round %u: the kthread's longest wait for the CPU %llu us",
			 r, wait / NSEC_PER_USEC);
		zst_expect(c, wait * 8 <= alone,
			   "round %u: the compaction kept its CPU over 1/8 of a pass alone",
			   r);
		zst_expect(c, own <= 3 * alone,
			   "round %u: the compaction ran %llu us, over 3 passes alone",
			   r, own / NSEC_PER_USEC);
	}
	zst_verify_all(c, np.pool, objs, n, "after compaction");
out:
	if (np.pool) {
		if (objs)
			zst_free_all(np.pool, objs, n);
		zs_destroy_pool(np.pool);
	}
	kfree(busy.scratch);
	kvfree(busy.waits);
	kvfree(objs);
}
