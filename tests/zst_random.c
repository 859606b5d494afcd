// SPDX-License-Identifier: GPL-2.0
/*
 * zst_random.c - test_zsmalloc's random_ops and random_ops_bad
 *
 * Seeded random sequences of API operations, checked against a shadow of
 * the live objects; random_ops_bad adds garbage and stale handles.
 */
#include <linux/bitops.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/zsmalloc.h>

#include "zst.h"

/*
 * random_ops and random_ops_bad: a seeded generator of operation sequences
 * on one pool, checked against the shadow of every live object (its
 * struct zst_obj: the content follows from handle, size, split and tags).
 *
 * Each op is drawn by weight: zs_malloc() of a size from 0..PAGE_SIZE + 1
 * (0 and PAGE_SIZE + 1 must fail as zst_size_error_ok() says and leave no object),
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
 * handles (a random value, or a live object's handle with a bit of its
 * generation or index flipped) and of stale ones (an object's handle after
 * its free and the next allocation; see zst_random_stale()).
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
 * @fake: the garbage handle
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
	unsigned long fake;
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
		zst_expect(r->c, zst_size_error_ok(size, err),
			   "op %lu: zs_malloc(%u) = %d, expected %s",
			   r->op, size, err, size ? "-ENOSPC" : "-EINVAL");
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
 * Fills the test's word with a garbage handle: a random value (most name no
 * entry of the table at all), or a live object's handle with one bit of its
 * generation flipped (with our layout, its entry as a stale handle names it)
 * or one of the low bits of its index (another entry, of another
 * generation).  Returns the object whose handle was used, or NULL.
 */
static struct zst_obj *zst_random_garbage(struct zst_random *r)
{
	struct rnd_state *rnd = &r->c->rnd;
	u32 kind = prandom_u32_state(rnd) % 3;
	struct zst_obj *o;

	if (!kind || !r->live) {
		r->fake = (u64)prandom_u32_state(rnd) << 32 |
			   prandom_u32_state(rnd);
		return NULL;
	}
	o = zst_random_pick(r);
	if (kind == 1)
		r->fake = o->handle ^ BIT_ULL(32 + prandom_u32_state(rnd) % 32);
	else
		r->fake = o->handle ^ BIT(prandom_u32_state(rnd) % 16);
	return o;
}

static void zst_random_garbage_free(struct zst_random *r)
{
	struct zst_obj *o = zst_random_garbage(r);

	zst_expect_warning("zs_free");
	zs_free(r->pool, r->fake);
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
	zst_map_bad(r->c, r->pool, r->fake, zst_random_mode(r),
		    PAGE_SIZE, what);
	zst_random_spot_check(r, o);
}

/*
 * A stale handle: an object is freed and another allocated, which takes the
 * freed entry of the handle table when it is this CPU's last free one (most
 * of the time), and then the old handle is freed or mapped.  Returns the old
 * handle; the new object is checked after the stale call.
 */
static unsigned long zst_random_stale(struct zst_random *r)
{
	struct zst_obj *o = zst_random_pick(r);
	unsigned long handle = o->handle;

	zst_obj_free(r->pool, o);
	zst_random_drop(r, o);
	zst_random_malloc(r);
	return handle;
}

/* The object zst_random_stale() allocated, if it did. */
static struct zst_obj *zst_random_newest(struct zst_random *r)
{
	return r->live ? &r->objs[r->live - 1] : NULL;
}

static void zst_random_stale_free(struct zst_random *r)
{
	unsigned long handle = zst_random_stale(r);

	zst_expect_warning("zs_free");
	zs_free(r->pool, handle);
	zst_random_spot_check(r, zst_random_newest(r));
}

static void zst_random_stale_map(struct zst_random *r)
{
	unsigned long handle = zst_random_stale(r);
	char what[48];

	snprintf(what, sizeof(what), "op %lu: stale map", r->op);
	zst_map_bad(r->c, r->pool, handle, zst_random_mode(r), PAGE_SIZE, what);
	zst_random_spot_check(r, zst_random_newest(r));
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
		r.enabled = BIT(ZST_OP_NR) - 1;
	zst_diag(c, "case seed %llu, ops=%u; replay: seed=%llu cases=%s ops=%u",
		 c->seed, zst_ops, zst_seed, c->name, zst_ops);

	r.objs = kvcalloc(ZST_RANDOM_SLOTS, sizeof(*r.objs), GFP_KERNEL);
	r.pool = zs_create_pool(c->name);
	if (!r.objs || !r.pool) {
		c->skip = "cannot allocate test arrays or pool";
		goto out;
	}
	zst_random_run(&r, zst_ops);
	zst_random_report(&r, ktime_get_ns() - t0);
	zst_free_all(r.pool, r.objs, r.live);
	zst_expect_empty(c, r.pool, "all freed");
out:
	if (r.pool)
		zs_destroy_pool(r.pool);
	kvfree(r.objs);
}

void zst_case_random_ops(struct zst_case_ctx *c)
{
	zst_random_ops(c, false);
}

void zst_case_random_ops_bad(struct zst_case_ctx *c)
{
	zst_random_ops(c, true);
}
