// SPDX-License-Identifier: GPL-2.0
/*
 * Eviction for zswap: the zpool driver's .shrink, which the stock 6.1 module
 * lacks.  When zswap's pool is full, it asks us to free pages, and we evict
 * whole zspages through zswap's evict callback, which writes each object
 * back to the swap device and frees it.  Built only for kernels whose zpool
 * has .shrink (6.1 here): later zswap writes back from its own LRU.
 *
 * Reclaim takes a victim zspage off its class's lists and marks it RECLAIM:
 * nothing is allocated into it and compaction leaves it alone.  An object of
 * it that its owner frees meanwhile is only marked ZS_REF_FREED, so that the
 * evictor may still map its handle; the reclaimer frees such objects at the
 * end, then frees the zspage if it is empty or puts it back if not.
 *
 * The victim is a zspage of the emptiest fullness group across classes,
 * weighted by objects per page: the fewest writebacks per page freed.  A
 * victim that cannot be emptied (zswap's callback fails for an object whose
 * page is being swapped in, -EEXIST, or finds no memory) stays off the lists
 * until the shrink call ends: put back at once, it would be the emptiest
 * again and every further try of the call would fail on the same object.
 *
 * What 6.1's zswap does with a handle whose object its owner frees between
 * our check (zspage_evictable_handle(), under the class lock, just before
 * the callback) and zswap's own lookup: the evict callback maps the handle,
 * reads the swap entry the object starts with, and looks that entry up in
 * its tree.  The object is still there with its bytes (FREED, not freed),
 * so the swap entry read is the right one; zswap finds no entry for it and
 * returns 0.  Unless that swap slot was stored again in between (a
 * duplicate store, or the slot freed and reused) and its page has already
 * left the swap cache: then zswap writes this object's old bytes back for
 * the new entry, and drops the new entry.  Only zswap can close that (by
 * checking that the entry it found has the handle it was given; later
 * kernels write back entries from zswap's own LRU instead of handles): the
 * allocator knows neither zswap's header nor its tree.  zbud and z3fold in
 * 6.1 have the same window.  Ours is kept to zswap's side: the check comes
 * right before the callback, and an object freed before it is not evicted.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/types.h>
#include <linux/zpool.h>

#include "compat.h"
#include "zs_internal.h"

/* How many victims one shrink call tries before it gives up. */
#define ZS_RECLAIM_TRIES	8

/* Objects to write back per page freed, scaled, for a zspage of @group. */
static unsigned long class_reclaim_cost(struct size_class *class, int group)
{
	return (2 * group + 1) * class->objs_per_zspage /
	       class->pages_per_zspage;
}

/* The class whose emptiest zspages cost the least to evict, or NULL. */
static struct size_class *pool_pick_victim_class(struct zs_pool *pool)
{
	struct size_class *best = NULL;
	unsigned long best_cost = ULONG_MAX;
	unsigned int i;
	int group;

	for (i = 0; i < pool->nr_classes; i++) {
		struct size_class *class = pool->classes[i];

		for (group = 0; group < ZS_NR_GROUPS; group++) {
			if (!READ_ONCE(class->group_count[group]))
				continue;
			if (class_reclaim_cost(class, group) < best_cost) {
				best_cost = class_reclaim_cost(class, group);
				best = class;
			}
			break;
		}
	}
	return best;
}

/* Takes the emptiest zspage of @class off its list for reclaim, or NULL. */
static struct zspage *class_take_victim(struct size_class *class)
{
	struct zspage *zspage = NULL;
	int group;

	spin_lock(&class->lock);
	for (group = 0; group < ZS_NR_GROUPS; group++) {
		if (list_empty(&class->groups[group]))
			continue;
		zspage = list_first_entry(&class->groups[group],
					  struct zspage, list);
		class_unlink_zspage(class, zspage);
		zspage->flags |= ZS_ZSPAGE_RECLAIM;
		break;
	}
	spin_unlock(&class->lock);
	return zspage;
}

/* The handle of object @idx if it is still to be evicted, else 0. */
static unsigned long zspage_evictable_handle(struct zspage *zspage,
					     unsigned int idx)
{
	struct size_class *class = zspage->class;
	unsigned long ref;

	spin_lock(&class->lock);
	ref = zspage_refs(zspage)[idx];
	spin_unlock(&class->lock);
	if ((ref & (ZS_REF_ALLOCATED | ZS_REF_FREED)) != ZS_REF_ALLOCATED)
		return 0;
	return ref & ZS_REF_HANDLE_MASK;
}

/*
 * Frees what was freed during reclaim and ends it.  Returns true if the
 * zspage is empty and released: the caller frees it.
 */
static bool zspage_end_reclaim(struct zs_pool *pool, struct zspage *zspage)
{
	struct size_class *class = zspage->class;
	unsigned long *refs = zspage_refs(zspage);
	bool empty = false;
	unsigned int idx;

	spin_lock(&class->lock);
	for_each_set_bit(idx, zspage_map(zspage), zspage_objs(zspage)) {
		unsigned long ref = refs[idx];

		if (!(ref & ZS_REF_FREED))
			continue;
		zspage_free_obj(pool, zspage, idx);
		zs_handle_release(ref & ZS_REF_HANDLE_MASK);
	}
	zspage->flags &= ~ZS_ZSPAGE_RECLAIM;
	if (!zspage->inuse)
		empty = zspage_release(zspage);
	else
		class_link_zspage(class, zspage);
	spin_unlock(&class->lock);
	return empty;
}

/* Ends reclaim of @zspage: returns the pages freed, 0 if it was put back. */
static unsigned int zs_reclaim_finish(struct zs_pool *pool,
				      struct zspage *zspage)
{
	unsigned int pages = zspage->nr_backed;

	if (!zspage_end_reclaim(pool, zspage))
		return 0;
	zspage_free(pool, zspage);
	return pages;
}

/*
 * Evicts one zspage: returns the pages freed, or -errno: -ENOENT when the
 * pool has no zspage to evict, -EAGAIN when the class picked (without its
 * lock) emptied before we took one: others may still have some.  A victim
 * whose eviction failed goes on @kept, still under reclaim.
 */
static int zs_reclaim_one(struct zs_pool *pool, struct list_head *kept)
{
	struct size_class *class = pool_pick_victim_class(pool);
	struct zspage *zspage;
	unsigned int idx, freed;
	int ret = 0;

	if (!class)
		return -ENOENT;
	zspage = class_take_victim(class);
	if (!zspage)
		return -EAGAIN;
	/* Nothing is allocated in a zspage under reclaim. */
	for (idx = 0; idx < class->objs_per_zspage && !ret; idx++) {
		unsigned long handle = zspage_evictable_handle(zspage, idx);

		if (handle)
			ret = pool->zpool_ops->evict(pool->zpool, handle);
	}
	if (ret) {
		list_add(&zspage->list, kept);
		return ret;
	}
	freed = zs_reclaim_finish(pool, zspage);
	return freed ? freed : -EAGAIN;
}

/**
 * zs_zpool_shrink - the zpool driver's .shrink: evict zspages
 * @data: the pool
 * @pages: how many pages to free
 * @reclaimed: set to the pages freed
 *
 * Context: process context; may sleep (zswap's evict callback writes back).
 * Return: 0 if pages were freed, else -errno.
 */
int zs_zpool_shrink(void *data, unsigned int pages, unsigned int *reclaimed)
{
	struct zs_pool *pool = data;
	unsigned int freed = 0, tries = 0;
	struct zspage *zspage, *next;
	LIST_HEAD(kept);
	int ret = -EINVAL;

	if (!pool->zpool_ops || !pool->zpool_ops->evict)
		goto out;
	while (freed < pages && tries++ < ZS_RECLAIM_TRIES) {
		ret = zs_reclaim_one(pool, &kept);
		if (ret == -ENOENT)
			break;
		if (ret > 0)
			freed += ret;
	}
	list_for_each_entry_safe(zspage, next, &kept, list) {
		list_del_init(&zspage->list);
		freed += zs_reclaim_finish(pool, zspage);
	}
out:
	if (reclaimed)
		*reclaimed = freed;
	return freed ? 0 : ret;
}
