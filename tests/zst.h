/* SPDX-License-Identifier: GPL-2.0 */
/*
 * zst.h - what the files of test_zsmalloc.ko share
 *
 * The module parameters the cases read (defined in zst_main.c with the
 * others), the seed in use, the allocation flags, struct zst_obj and
 * struct zst_case_ctx, the reporting helpers (ktap(), zst_diag(),
 * zst_fail(), zst_expect()), the object helpers of zst_common.c and the
 * case functions that zst_main.c's table lists.  zst_api.h wraps each
 * kernel's zs_* API; zst_expect_warning(), which it calls, is defined here.
 */
#ifndef _ZST_H
#define _ZST_H

#include <linux/atomic.h>
#include <linux/compiler.h>
#include <linux/gfp.h>
#include <linux/prandom.h>
#include <linux/printk.h>
#include <linux/sched.h>
#include <linux/types.h>
#include <linux/zsmalloc.h>

#include "zst_api.h"

/* Module parameters (zst_main.c). */
extern uint zst_nr_objects;
extern uint zst_threads;
extern uint zst_loops;
extern uint zst_thread_objects;
extern uint zst_ops;
extern uint zst_lat_rounds;
extern uint zst_enomem_cap_mb;

/* The seed actually used (the parameter, or a random one if it was 0). */
extern u64 zst_seed;

/* Allocation flags of zram's fallback path: may sleep, movable pages. */
#define ZST_GFP		(GFP_NOIO | __GFP_HIGHMEM | __GFP_MOVABLE)
/* zram's first attempt: cannot reclaim, only wakes kswapd. */
#define ZST_GFP_NOWAIT	(GFP_NOWAIT | __GFP_NOWARN | __GFP_HIGHMEM | __GFP_MOVABLE)

/* Failures printed per case (or per worker); the rest are only counted. */
#define ZST_MAX_REPORTS	5

#define ktap(fmt, ...)	pr_info(fmt "\n", ##__VA_ARGS__)

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
__printf(2, 3) void zst_fail(struct zst_case_ctx *c, const char *fmt, ...);

#define zst_expect(c, cond, fmt, ...)	do {				\
	if (!(cond))							\
		zst_fail(c, "%s (line %d): " fmt, #cond, __LINE__,	\
			 ##__VA_ARGS__);				\
} while (0)

/*
 * Calls of the running case that name no live object, and the kernel's count
 * of warnings when it began (the driver sets both, zst_main.c).
 */
extern atomic_t zst_bad_calls;
extern long zst_warnings_before;

/*
 * Counts a call about to name no live object, in @fn.  Our allocator warns
 * at the first in each pool (and counts them all); each case that makes such
 * calls makes them on one pool of its own, so its first is announced with
 * this line (printed at KERN_WARNING, so it reaches the console just before
 * the warning): tests/host/verdict.py then requires the next report line to
 * be a WARNING in @fn, and accepts it with its call trace.
 */
static inline void zst_expect_warning(const char *fn)
{
	if (atomic_inc_return(&zst_bad_calls) == 1)
		pr_warn("# zs-harness: expect-warning %s\n", fn);
}

long zst_warn_count(void);
void zst_expect_bad_calls(struct zst_case_ctx *c);

/* Random sizes and orders (zst_common.c). */
u32 zst_rand_range(struct rnd_state *rnd, u32 lo, u32 hi);
u32 zst_rand_size(struct rnd_state *rnd);
void zst_shuffle(struct rnd_state *rnd, u32 *order, u32 n);
bool zst_size_error_ok(size_t size, long err);

/* Objects, through the calling thread's PAGE_SIZE @scratch (zst_common.c). */
int zst_obj_alloc_node(struct zs_pool *pool, struct zst_obj *o, u32 size,
		       gfp_t gfp, int nid);
int zst_obj_alloc(struct zs_pool *pool, struct zst_obj *o, u32 size,
		  gfp_t gfp);
void zst_obj_write(struct zs_pool *pool, struct zst_obj *o, u32 tag,
		   void *scratch);
long zst_obj_find(const void *buf, const struct zst_obj *o);
long zst_obj_verify(struct zs_pool *pool, const struct zst_obj *o,
		    void *scratch);
long zst_obj_modify(struct zs_pool *pool, struct zst_obj *o,
		    struct rnd_state *rnd, void *scratch);
void zst_obj_free(struct zs_pool *pool, struct zst_obj *o);
bool zst_objs_alloc(struct zst_case_ctx *c, struct zs_pool *pool,
		    struct zst_obj *objs, unsigned int n, u32 size, int nid);

/* Arrays of objects and their pool (zst_common.c). */
struct zs_pool *zst_case_setup(struct zst_case_ctx *c, const char *name,
			       u32 n, struct zst_obj **objs, u32 **order);
void zst_fill_free_slots(struct zst_case_ctx *c, struct zs_pool *pool,
			 struct zst_obj *objs, unsigned long n,
			 const char *phase);
void zst_report_mismatch(struct zst_case_ctx *c, struct zs_pool *pool,
			 const char *phase, unsigned long idx,
			 const struct zst_obj *o, long off);
unsigned long zst_verify_all(struct zst_case_ctx *c, struct zs_pool *pool,
			     struct zst_obj *objs, unsigned long n,
			     const char *phase);
unsigned long zst_verify_all_sg(struct zst_case_ctx *c, struct zs_pool *pool,
				struct zst_obj *objs, unsigned long n,
				const char *phase);
void zst_free_all(struct zs_pool *pool, struct zst_obj *objs, unsigned long n);
void zst_report_pool(struct zst_case_ctx *c, struct zs_pool *pool,
		     const char *phase, const struct zst_obj *objs,
		     unsigned long n);
unsigned long zst_pages_compacted(struct zs_pool *pool);
unsigned long zst_settled_pages(struct zst_case_ctx *c, struct zs_pool *pool,
				const char *phase);
void zst_expect_empty(struct zst_case_ctx *c, struct zs_pool *pool,
		      const char *phase);

/*
 * Fault injection (CONFIG_FAULT_INJECTION): with fail_page_alloc and
 * failslab in task-filter mode (the guest arms them), only tasks marked
 * make-it-fail see injected failures, and the cases mark their own kthreads
 * only, so that every failure lands in an allocation made on behalf of a
 * zs_* call.  (The stack-trace filter that could aim at the allocator's
 * text instead does not exist on x86_64.)
 */
#ifdef CONFIG_FAULT_INJECTION
static inline bool zst_can_inject(void)
{
	return true;
}

static inline void zst_inject_faults(bool on)
{
	current->make_it_fail = on;
}
#else
static inline bool zst_can_inject(void)
{
	return false;
}

static inline void zst_inject_faults(bool on)
{
}
#endif

/*
 * How long the calling task has waited, runnable, for a CPU (ns), where the
 * scheduler keeps it (CONFIG_SCHED_INFO, as Debian's SCHEDSTATS selects).
 */
#ifdef CONFIG_SCHED_INFO
static inline bool zst_have_run_delay(void)
{
	return true;
}

static inline u64 zst_run_delay(void)
{
	return current->sched_info.run_delay;
}
#else
static inline bool zst_have_run_delay(void)
{
	return false;
}

static inline u64 zst_run_delay(void)
{
	return 0;
}
#endif

/* The end of a kthread that must wait for kthread_stop() (zst_common.c). */
int zst_park_until_stopped(void);

/* A bad handle's access and its checks (zst_api_cases.c). */
void zst_map_bad(struct zst_case_ctx *c, struct zs_pool *pool,
		 unsigned long handle, enum zst_mode mode, size_t len,
		 const char *what);

/* The cases, in zst_main.c's table; each reports through @c. */
void zst_case_pool_basics(struct zst_case_ctx *c);
void zst_case_every_size(struct zst_case_ctx *c);
void zst_case_bad_input(struct zst_case_ctx *c);
void zst_case_enomem(struct zst_case_ctx *c);
void zst_case_destroy_nonempty(struct zst_case_ctx *c);
void zst_case_bad_handle(struct zst_case_ctx *c);
void zst_case_garbage_handle(struct zst_case_ctx *c);
void zst_case_fill_free_compact(struct zst_case_ctx *c);
void zst_case_compact_latency(struct zst_case_ctx *c);
void zst_case_compact_busy(struct zst_case_ctx *c);
void zst_case_page_drop_retry(struct zst_case_ctx *c);
void zst_case_sleeping_read(struct zst_case_ctx *c);
void zst_case_node_kept(struct zst_case_ctx *c);
void zst_case_compact_no_pages(struct zst_case_ctx *c);
void zst_case_malloc_no_pages(struct zst_case_ctx *c);
void zst_case_concurrent(struct zst_case_ctx *c);
void zst_case_faults(struct zst_case_ctx *c);
void zst_case_random_ops(struct zst_case_ctx *c);
void zst_case_random_ops_bad(struct zst_case_ctx *c);

#endif /* _ZST_H */
