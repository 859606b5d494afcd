// SPDX-License-Identifier: GPL-2.0
/*
 * Eviction for 6.1's zswap: the zpool driver's .shrink, which 6.1's own
 * zsmalloc lacks.  When zswap's pool is full, it asks us to free pages; we
 * pick a victim zspage and hand each of its objects to zswap's evict
 * callback, which writes the object back to the swap device and frees it.
 * Later kernels write back from zswap's own LRU and have no such callback.
 *
 * The victim is the first zspage of the emptiest fullness group across
 * classes, weighted by objects per page: the fewest writebacks per page
 * freed.  Its handles are taken under the class lock; the zspage itself is
 * left where it is (allocation may still go into it, compaction and
 * migration may move its objects: handles follow them), and is not touched
 * again, since it may be freed as soon as its last object is.
 *
 * zswap's evict callback maps the handle before it looks up its own entry,
 * and the entry's owner may free the object at any time before that: a
 * handle freed between our pick and zswap's map would be a use after free.
 * So from the pick until zswap is done with them, the victim's handles are
 * "evicting" (struct zs_zpool): zswap frees objects only through the zpool
 * driver, which holds zp->lock across each free (zpool.c), and a free of an
 * evicting handle is only noted; the shrink frees those objects at the end
 * of the round.  The pick takes zp->lock too, so every handle it takes is
 * live.  A victim whose eviction fails for an object (zswap's callback
 * returns -EEXIST while that page is being swapped in, or finds no memory)
 * is not picked again in the same shrink call: it would be the emptiest
 * again, and every further try would fail on the same object.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitmap.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>

#include "zs_internal.h"
#include "zpool.h"

/* How many victims one shrink call tries before it gives up. */
#define ZS_RECLAIM_TRIES	8

/**
 * zs_zpool_defer_free - note a free of an object being evicted
 * @zp: the pool
 * @handle: the object's handle
 *
 * Context: zp->lock held.
 * Return: true if @handle is being evicted: the shrink frees it later.
 */
bool zs_zpool_defer_free(struct zs_zpool *zp, unsigned long handle)
{
	unsigned int i;

	for (i = 0; i < zp->nr_evicting; i++) {
		if (zp->evicting[i] == handle) {
			__set_bit(i, zp->deferred);
			return true;
		}
	}
	return false;
}

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

/* The emptiest zspage of @class not in @tried, or NULL. */
static struct zspage *class_pick_victim(struct size_class *class,
					struct zspage **tried,
					unsigned int nr_tried)
{
	struct zspage *zspage;
	unsigned int i;
	int group;

	for (group = 0; group < ZS_NR_GROUPS; group++) {
		list_for_each_entry(zspage, &class->groups[group], list) {
			for (i = 0; i < nr_tried && tried[i] != zspage; i++)
				;
			if (i == nr_tried)
				return zspage;
		}
	}
	return NULL;
}

/*
 * Makes the handles of a victim of @class the evicting ones: returns the
 * victim (not to be dereferenced: it may be freed any time now), or NULL.
 */
static struct zspage *zs_zpool_take_victim(struct zs_zpool *zp,
					   struct size_class *class,
					   struct zspage **tried,
					   unsigned int nr_tried)
{
	struct zspage *zspage;
	unsigned int idx, n = 0;

	spin_lock(&zp->lock);
	spin_lock(&class->lock);
	class_settle(class);
	zspage = class_pick_victim(class, tried, nr_tried);
	if (zspage) {
		for_each_set_bit(idx, zspage_map(zspage), zspage_objs(zspage)) {
			zp->evicting[n++] =
				zs_handle_of(&class->pool->handles,
					     zspage_refs(zspage)[idx]);
			if (n == ZS_EVICT_BATCH)
				break;
		}
	}
	spin_unlock(&class->lock);
	zp->nr_evicting = n;
	bitmap_zero(zp->deferred, ZS_EVICT_BATCH);
	spin_unlock(&zp->lock);
	return zspage;
}

/* Frees what zswap freed during the round and ends it; returns how many. */
static unsigned int zs_zpool_end_round(struct zs_zpool *zp)
{
	unsigned int i, freed = 0;

	spin_lock(&zp->lock);
	for_each_set_bit(i, zp->deferred, zp->nr_evicting) {
		zs_free(zp->pool, zp->evicting[i]);
		freed++;
	}
	zp->nr_evicting = 0;
	spin_unlock(&zp->lock);
	return freed;
}

/*
 * Evicts the objects of one victim: returns the objects written back and
 * freed, or -errno: -ENOENT when the pool has nothing to evict, -EAGAIN when
 * the class picked (without its lock) had none left but for @tried ones.  A
 * victim with an object zswap could not evict goes into @tried.
 */
static int zs_zpool_evict_one(struct zs_zpool *zp, struct zspage **tried,
			      unsigned int *nr_tried)
{
	struct size_class *class = pool_pick_victim_class(zp->pool);
	struct zspage *victim;
	bool failed = false;
	unsigned int i;

	if (!class)
		return -ENOENT;
	victim = zs_zpool_take_victim(zp, class, tried, *nr_tried);
	if (!victim)
		return -EAGAIN;
	/* zp->evicting does not change until the round ends. */
	for (i = 0; i < zp->nr_evicting; i++)
		failed |= zp->ops->evict(zp->zpool, zp->evicting[i]) != 0;
	if (failed && *nr_tried < ZS_RECLAIM_TRIES)
		tried[(*nr_tried)++] = victim;
	return zs_zpool_end_round(zp);
}

/**
 * zs_zpool_shrink - the zpool driver's .shrink: evict objects
 * @data: the pool (struct zs_zpool)
 * @pages: how many pages to free
 * @reclaimed: set to the pages the pool shrank by meanwhile, unless NULL
 *
 * Context: process context; may sleep (zswap's evict callback writes back).
 * Return: 0 if objects were written back and freed, else -errno.
 */
int zs_zpool_shrink(void *data, unsigned int pages, unsigned int *reclaimed)
{
	struct zs_zpool *zp = data;
	unsigned long before = zs_get_total_pages(zp->pool), now = before;
	struct zspage *tried[ZS_RECLAIM_TRIES];
	unsigned int nr_tried = 0, tries = 0, evicted = 0;
	int ret = -EINVAL;

	if (!zp->ops || !zp->ops->evict)
		goto out;
	mutex_lock(&zp->reclaim_lock);
	while (before - min(now, before) < pages && tries++ < ZS_RECLAIM_TRIES) {
		ret = zs_zpool_evict_one(zp, tried, &nr_tried);
		if (ret == -ENOENT)
			break;
		if (ret > 0)
			evicted += ret;
		now = zs_get_total_pages(zp->pool);
	}
	mutex_unlock(&zp->reclaim_lock);
out:
	if (reclaimed)
		*reclaimed = before - min(now, before);
	if (evicted)
		return 0;
	return ret < 0 ? ret : -EAGAIN;
}
