// SPDX-License-Identifier: GPL-2.0
/*
 * Compaction: objects move out of the emptiest zspages of a class into its
 * fullest ones, and the zspages left empty are freed.  zs_compact() does it
 * for every class; a shrinker calls it when the kernel is short of memory.
 *
 * A class can free a zspage only while it has at least one zspage's worth of
 * free slots.  Past that point, on-demand backing still gains: the emptiest
 * zspage's objects move into holes the others have on pages they already
 * hold, then down into its own, and each of its pages that no object lies on
 * any more goes back (class_trim()).  Pinned (mapped) zspages are not emptied.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/sched.h>

#include "compat.h"
#include "zs_internal.h"

/**
 * zs_class_freeable_pages - pages that compacting @class could free
 * @class: the class
 *
 * Context: exact under class->lock, an estimate without it.
 * Return: the number of pages.
 */
unsigned long zs_class_freeable_pages(struct size_class *class)
{
	unsigned long capacity = READ_ONCE(class->zspages) *
				 class->objs_per_zspage;
	unsigned long used = READ_ONCE(class->objs_used);

	if (capacity <= used)
		return 0;
	return (capacity - used) / class->objs_per_zspage *
	       class->pages_per_zspage;
}

/* The emptiest zspage that is not mapped, or NULL. */
static struct zspage *class_pick_source(struct size_class *class)
{
	struct zspage *zspage;
	int group;

	for (group = 0; group < ZS_FULL_GROUP; group++) {
		list_for_each_entry(zspage, &class->groups[group], list) {
			if (!atomic_read_acquire(&zspage->pinned))
				return zspage;
		}
	}
	return NULL;
}

/* The fullest zspage with room other than @src, or NULL. */
static struct zspage *class_pick_dest(struct size_class *class,
				      struct zspage *src)
{
	struct zspage *zspage;
	int group;

	for (group = ZS_FULL_GROUP - 1; group >= 0; group--) {
		list_for_each_entry(zspage, &class->groups[group], list) {
			if (zspage != src)
				return zspage;
		}
	}
	return NULL;
}

/*
 * Pages compaction may attach to a destination: never sleeping, and never
 * from the emergency reserves, even when the shrinker runs it under
 * PF_MEMALLOC: a move that then fails to empty its source would hold more
 * memory than before.
 */
#define ZS_COMPACT_GFP	(GFP_NOWAIT | __GFP_NOWARN | __GFP_NOMEMALLOC | \
			 __GFP_HIGHMEM | __GFP_MOVABLE)

/*
 * Moves objects of @src into @dst until @src is empty or @dst is full, or a
 * page @dst needs cannot be had; returns false in that last case.
 */
static bool zspage_move_objects(struct zs_pool *pool, struct zspage *dst,
				struct zspage *src, struct page **spare)
{
	unsigned int objs = src->class->objs_per_zspage;
	unsigned int idx, dst_idx, missing;
	bool moved_all = true;

	for_each_set_bit(idx, zspage_map(src), zspage_objs(src)) {
		if (dst->inuse == objs)
			break;
		dst_idx = zspage_first_free(dst);
		missing = zspage_missing_pages(dst, dst_idx);
		if (missing && zs_spare_fill(spare, missing, ZS_COMPACT_GFP)) {
			moved_all = false;
			break;
		}
		zspage_move_obj(pool, dst, dst_idx, spare, src, idx);
	}
	zspage_set_group(dst);
	return moved_all;
}

/*
 * Empties one zspage of @class into others.  Returns it released (to be freed
 * by the caller after dropping the lock), or NULL when nothing can be freed.
 */
static struct zspage *class_empty_one(struct zs_pool *pool,
				      struct size_class *class,
				      struct page **spare)
{
	struct zspage *src, *dst;

	if (!zs_class_freeable_pages(class))
		return NULL;
	src = class_pick_source(class);
	if (!src)
		return NULL;
	while ((dst = class_pick_dest(class, src))) {
		if (!zspage_move_objects(pool, dst, src, spare))
			break;
		if (!src->inuse) {
			class_unlink_zspage(class, src);
			zspage_release(src);
			return src;
		}
	}
	zspage_set_group(src);
	return NULL;
}

/* The first free slot of @dst from @from on that lies on pages it holds. */
static unsigned int zspage_next_backed_hole(struct zspage *dst,
					    unsigned int from)
{
	unsigned int objs = dst->class->objs_per_zspage;
	unsigned int idx = find_next_zero_bit(zspage_map(dst), objs, from);

	while (idx < objs && zspage_missing_pages(dst, idx))
		idx = find_next_zero_bit(zspage_map(dst), objs, idx + 1);
	return idx;
}

/* Moves the last objects of @src into its own backed holes below them. */
static void zspage_pack(struct zs_pool *pool, struct zspage *src)
{
	unsigned int objs = src->class->objs_per_zspage, hole, idx;

	for (hole = zspage_next_backed_hole(src, 0); hole < objs;
	     hole = zspage_next_backed_hole(src, hole + 1)) {
		idx = find_last_bit(zspage_map(src), objs);
		if (idx >= objs || idx < hole)
			break;
		zspage_move_obj(pool, src, hole, NULL, src, idx);
	}
}

/*
 * Moves the objects of the emptiest zspage, its last first (the pages
 * attached last are the sparsest), into holes on backed pages of the others,
 * fullest first, then what is left of it into its own holes, so that its
 * last pages empty.  No page is attached, so no move costs memory.  Returns
 * the zspage, released, if it became empty, or NULL.
 */
static struct zspage *class_trim(struct zs_pool *pool, struct size_class *class)
{
	unsigned int objs = class->objs_per_zspage, hole, idx = objs;
	struct zspage *src, *dst, *next;
	int group;

	src = zs_ondemand ? class_pick_source(class) : NULL;
	if (!src)
		return NULL;
	for (group = ZS_FULL_GROUP - 1; group >= 0; group--) {
		/* _safe: a destination that fills up moves to another group. */
		list_for_each_entry_safe(dst, next, &class->groups[group], list) {
			if (dst == src)
				continue;
			for (hole = zspage_next_backed_hole(dst, 0);
			     hole < objs && src->inuse;
			     hole = zspage_next_backed_hole(dst, hole + 1)) {
				/* Bits from idx up are clear: the last is below. */
				idx = find_last_bit(zspage_map(src), idx);
				zspage_move_obj(pool, dst, hole, NULL, src, idx);
			}
			zspage_set_group(dst);
			if (!src->inuse) {
				class_unlink_zspage(class, src);
				zspage_release(src);
				return src;
			}
		}
	}
	zspage_pack(pool, src);
	zspage_set_group(src);
	return NULL;
}

static unsigned long class_compact(struct zs_pool *pool,
				   struct size_class *class)
{
	struct page *spare[ZS_SLOT_MAX_PAGES] = { };
	struct zspage *zspage;
	long freed = 0;

	spin_lock(&class->lock);
	for (;;) {
		/* Others change class->pages only while the lock is dropped. */
		long before = class->pages;

		zspage = class_empty_one(pool, class, spare);
		if (!zspage)
			zspage = class_trim(pool, class);
		freed += before - (long)class->pages;
		if (!zspage)
			break;
		spin_unlock(&class->lock);
		zspage_free(pool, zspage);
		cond_resched();
		spin_lock(&class->lock);
	}
	spin_unlock(&class->lock);
	zs_spare_drop(spare);
	return max(freed, 0L);
}

/**
 * zs_compact - free the pages that moving objects between zspages can free
 * @pool: the pool
 *
 * One compaction runs at a time per pool; a call made while another runs
 * returns 0 at once.
 *
 * Context: process context; may sleep.
 * Return: the number of pages freed.
 */
unsigned long zs_compact(struct zs_pool *pool)
{
	unsigned long freed = 0;
	unsigned int i;

	if (atomic_xchg(&pool->compacting, 1))
		return 0;
	for (i = 0; i < pool->nr_classes; i++)
		freed += class_compact(pool, pool->classes[i]);
	atomic_long_add(freed, &pool->stats.pages_compacted);
	atomic_set_release(&pool->compacting, 0);
	return freed;
}
EXPORT_SYMBOL_GPL(zs_compact);

static unsigned long zs_shrinker_count(struct shrinker *shrinker,
				       struct shrink_control *sc)
{
	struct zs_pool *pool = zs_shrinker_data(shrinker);
	unsigned long pages = 0;
	unsigned int i;

	for (i = 0; i < pool->nr_classes; i++)
		pages += zs_class_freeable_pages(pool->classes[i]);
	return pages;
}

static unsigned long zs_shrinker_scan(struct shrinker *shrinker,
				      struct shrink_control *sc)
{
	unsigned long freed = zs_compact(zs_shrinker_data(shrinker));

	return freed ? freed : SHRINK_STOP;
}

/**
 * zs_shrinker_register - let memory pressure compact @pool
 * @pool: the pool
 *
 * Return: 0 or -ENOMEM.
 */
int zs_shrinker_register(struct zs_pool *pool)
{
	pool->shrinker = zs_shrinker_create(zs_shrinker_count,
					    zs_shrinker_scan, pool, pool->name);
	return pool->shrinker ? 0 : -ENOMEM;
}

/**
 * zs_shrinker_unregister - undo zs_shrinker_register()
 * @pool: the pool
 */
void zs_shrinker_unregister(struct zs_pool *pool)
{
	zs_shrinker_destroy(pool->shrinker);
}
