// SPDX-License-Identifier: GPL-2.0
/*
 * Compaction: objects move out of the emptiest zspages of a class into its
 * fullest ones, and the zspages left empty are freed.  zs_compact() does it
 * for every class; the shrinker (shrinker.c) calls it when the kernel is
 * short of memory.
 *
 * A class can free a zspage only while it has at least one zspage's worth of
 * free slots.  Past that point, on-demand backing still gains: the emptiest
 * zspage's objects move into holes the others have on pages they already
 * hold, then down into its own, and each of its pages that no object lies on
 * any more goes back (class_trim()).  Pinned zspages (an object being read)
 * are not emptied.
 *
 * The class lock is held for one source zspage at a time, and less when
 * someone waits: zs_malloc(), zs_free(), reads, writes and migration of the
 * class all need the lock, and a writer (zram, zswap) waits for it with
 * preemption off.  Moves stop after the current object as soon as the
 * lock is contended or the CPU has something else to run; the lock is then
 * dropped, and so it is after each source zspage, with a chance to
 * reschedule, and compaction of the class goes on.  A hold that stops early
 * has moved an object or visited at least one more zspage, and the next
 * goes on from there (class_trim() keeps the place), so each hold makes
 * progress and none walks again what the last walked: a busy class is
 * compacted to the end all the same, and a hold stays short even when
 * nothing can move (pages cannot be had, or every source is pinned).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/sched.h>

#include "zs_internal.h"

/* Whether @class has a zspage's worth of free slots, so one can be emptied. */
static bool class_can_free_zspage(struct size_class *class)
{
	return class->zspages * class->objs_per_zspage - class->objs_used >=
	       class->objs_per_zspage;
}

/* Whether to end the hold of class->lock now (see the comment at the top). */
static bool class_should_yield(struct size_class *class)
{
	return spin_is_contended(&class->lock) || need_resched();
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
 * The node of the page object @idx of @zspage starts on.  A page compaction
 * attaches for the object comes from there: an object zs_malloc() placed on
 * a node stays on it, wherever the compacting task runs.
 */
static int zspage_obj_nid(struct zspage *zspage, unsigned int idx)
{
	unsigned int first, last;

	zspage_slot_pages(zspage, idx, &first, &last);
	return page_to_nid(zspage->pages[first]);
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
 * Moves objects of @src into @dst until @src is empty, @dst is full or
 * someone waits for the lock, or a page @dst needs cannot be had; returns
 * false in that last case.
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
		if (missing && zs_spare_fill(spare, missing, ZS_COMPACT_GFP,
					     zspage_obj_nid(src, idx))) {
			moved_all = false;
			break;
		}
		zspage_move_obj(pool, dst, dst_idx, spare, src, idx);
		/* What moved stays moved: the caller yields. */
		if (class_should_yield(src->class))
			break;
	}
	zspage_set_group(dst);
	return moved_all;
}

/*
 * Empties one zspage of @class into others.  Returns it released (to be freed
 * by the caller after dropping the lock), or NULL when nothing can be freed
 * or when it stopped early to drop the lock (then *@yielded is set).
 */
static struct zspage *class_empty_one(struct zs_pool *pool,
				      struct size_class *class,
				      struct page **spare, bool *yielded)
{
	struct zspage *src, *dst;

	if (!class_can_free_zspage(class))
		return NULL;
	src = class_pick_source(class);
	if (!src)
		return NULL;
	/*
	 * An empty source goes even without a destination: a zspage made by
	 * zs_malloc() whose first page could not be had stays on its list
	 * empty, and would otherwise stay there while it is the class's only
	 * non-full zspage.
	 */
	while (src->inuse && (dst = class_pick_dest(class, src))) {
		if (!zspage_move_objects(pool, dst, src, spare))
			break;
		if (src->inuse && class_should_yield(class)) {
			*yielded = true;
			break;
		}
	}
	if (!src->inuse) {
		class_unlink_zspage(class, src);
		zspage_release(src);
		return src;
	}
	zspage_set_group(src);
	return NULL;
}

/*
 * The pages object @idx of @zspage alone lies on, but for those slot @to
 * lies on too: what moving the object to @to gives back.
 */
static unsigned int zspage_pages_freed_by_move(struct zspage *zspage,
					       unsigned int idx,
					       unsigned int to)
{
	unsigned int first, last, to_first, to_last, p, freed = 0;
	u8 *users = zspage_users(zspage);

	zspage_slot_pages(zspage, idx, &first, &last);
	zspage_slot_pages(zspage, to, &to_first, &to_last);
	for (p = first; p <= last; p++)
		freed += users[p] == 1 && (p < to_first || p > to_last);
	return freed;
}

/*
 * Gives back the pages of @zspage no object lies on (a page whose drop found
 * it locked by the migration core), then moves its last objects down into
 * its lowest free slots.  A slot on pages it holds costs nothing; one that
 * lacks pages is taken only if the move gives back at least as many pages
 * as it attaches (an even move lets the next one give back: the object
 * before it may have shared its page).  So the objects of a zspage end up
 * packed from its start, on the fewest pages; nothing moves if that is as
 * many pages as it holds (each move is a copy of the object).
 */
static void zspage_pack(struct zs_pool *pool, struct zspage *zspage,
			struct page **spare)
{
	unsigned int objs = zspage->class->objs_per_zspage, hole, idx, missing;
	unsigned long *map = zspage_map(zspage);

	zspage_drop_unused_pages(pool, zspage);
	if (DIV_ROUND_UP(zspage->inuse * zspage->class->size, PAGE_SIZE) >=
	    zspage->nr_backed)
		return;
	for (hole = find_first_zero_bit(map, objs); hole < objs;
	     hole = find_next_zero_bit(map, objs, hole + 1)) {
		idx = find_last_bit(map, objs);
		if (idx >= objs || idx < hole)
			break;
		missing = zspage_missing_pages(zspage, hole);
		if (missing) {
			if (zspage_pages_freed_by_move(zspage, idx, hole) < missing)
				continue;
			/* No page now: none for the next hole either. */
			if (zs_spare_fill(spare, missing, ZS_COMPACT_GFP,
					  zspage_obj_nid(zspage, idx)))
				break;
		}
		zspage_move_obj(pool, zspage, hole, spare, zspage, idx);
		/* The caller yields; the rest is packed another time. */
		if (class_should_yield(zspage->class))
			break;
	}
}

/**
 * struct trim_walk - where a pass of class_trim() is in its two walks
 * @phase: TRIM_START, then TRIM_MOVE (objects into the holes of others),
 *	then TRIM_PACK (each zspage packed)
 * @left: for each group with room, how many zspages the walk has yet to
 *	visit: its count when the walk began
 *
 * A visited zspage goes to the tail of its list, so a walk that goes on
 * after the lock was dropped takes the head of each list, one it has not
 * visited, at no cost.  The lists change meanwhile (others allocate and
 * free), so a zspage may be visited twice or not at all, which costs at
 * most a move, never correctness.
 */
struct trim_walk {
	enum { TRIM_START, TRIM_MOVE, TRIM_PACK } phase;
	unsigned int left[ZS_FULL_GROUP];
};

static void trim_walk_begin(struct size_class *class, struct trim_walk *walk,
			    int phase)
{
	int group;

	walk->phase = phase;
	for (group = 0; group < ZS_FULL_GROUP; group++)
		walk->left[group] = class->group_count[group];
}

/*
 * The next zspage of the walk other than @skip, fullest group first, moved
 * to the tail of its list; NULL when the walk is over.
 */
static struct zspage *trim_walk_next(struct size_class *class,
				     struct trim_walk *walk,
				     struct zspage *skip)
{
	struct list_head *head;
	struct zspage *zspage;
	int group;

	for (group = ZS_FULL_GROUP - 1; group >= 0; group--) {
		head = &class->groups[group];
		zspage = list_first_entry_or_null(head, struct zspage, list);
		/* @skip stays where it is: it is the source. */
		if (zspage && zspage == skip)
			zspage = list_is_last(&zspage->list, head) ? NULL :
				 list_next_entry(zspage, list);
		if (!zspage || !walk->left[group]) {
			walk->left[group] = 0;
			continue;
		}
		walk->left[group]--;
		list_move_tail(&zspage->list, head);
		return zspage;
	}
	return NULL;
}

/*
 * Moves the objects of the emptiest zspage, its last first (the pages
 * attached last are the sparsest), into holes on backed pages of the others,
 * fullest first, then what is left of it, and of each other zspage, down
 * into its own holes (zspage_pack()), so that their last pages empty.  The
 * moves into other zspages attach no page; a move within one attaches pages
 * only where it gives back more.  Returns the zspage, released, if it became
 * empty, or NULL (with *@yielded set if it stopped early to drop the lock).
 *
 * @walk keeps the place across holds of this pass of the class (struct
 * trim_walk): a hold that stops early has visited at least one zspage, and
 * the next goes on from there, so each makes progress even when nothing
 * can move, and none repeats another's walk.
 *
 * How the walk stays right while it changes what it walks:
 * - idx only goes down: it is the last object of @src not yet moved, and
 *   nothing is allocated into @src under our lock, so every bit of its map
 *   from idx up is clear and find_last_bit(map, idx) finds the next one.
 * - Groups are walked from the fullest down: a destination that fills moves
 *   to a fuller group, one already walked, so none is visited twice in a
 *   hold.  @src never moves (it stays on its list, skipped) until it
 *   empties and we return.
 * - A move may give back @src's page the object left (zspage_drop_page()),
 *   never one of @dst's: holes are taken only on pages @dst holds.
 */
static struct zspage *class_trim(struct zs_pool *pool, struct size_class *class,
				 struct page **spare, struct trim_walk *walk,
				 bool *yielded)
{
	unsigned int objs = class->objs_per_zspage, hole, idx = objs;
	struct zspage *src, *dst;

	src = zs_ondemand ? class_pick_source(class) : NULL;
	if (!src)
		return NULL;
	if (walk->phase == TRIM_START)
		trim_walk_begin(class, walk, TRIM_MOVE);
	while (walk->phase == TRIM_MOVE &&
	       (dst = trim_walk_next(class, walk, src))) {
		for (hole = zspage_next_backed_hole(dst, 0);
		     hole < objs && src->inuse;
		     hole = zspage_next_backed_hole(dst, hole + 1)) {
			/* Bits from idx up are clear: the last is below. */
			idx = find_last_bit(zspage_map(src), idx);
			zspage_move_obj(pool, dst, hole, NULL, src, idx);
			if (class_should_yield(class))
				break;
		}
		zspage_set_group(dst);
		if (!src->inuse) {
			class_unlink_zspage(class, src);
			zspage_release(src);
			return src;
		}
		/* What moved stays moved; the rest waits for next time. */
		if (class_should_yield(class)) {
			zspage_set_group(src);
			*yielded = true;
			return NULL;
		}
	}
	if (walk->phase == TRIM_MOVE) {
		zspage_pack(pool, src, spare);
		zspage_set_group(src);
		trim_walk_begin(class, walk, TRIM_PACK);
	}
	/*
	 * A destination may still hold objects on pages past holes of its own
	 * (its middle pages gone with their objects): pack each, so that what
	 * zs_class_freeable_pages() counts is what compaction gets.  Packing
	 * leaves inuse, and so the group and the lists, as they are.
	 */
	while ((dst = trim_walk_next(class, walk, NULL))) {
		/* Mapped objects stay where they are. */
		if (!atomic_read_acquire(&dst->pinned))
			zspage_pack(pool, dst, spare);
		if (class_should_yield(class)) {
			*yielded = true;
			return NULL;
		}
	}
	return NULL;
}

static unsigned long class_compact(struct zs_pool *pool,
				   struct size_class *class)
{
	struct page *spare[ZS_SLOT_MAX_PAGES] = { };
	struct trim_walk walk = { .phase = TRIM_START };
	struct zspage *zspage;
	long freed = 0;

	spin_lock(&class->lock);
	for (;;) {
		/* Others change class->pages only while the lock is dropped. */
		long before = class->pages;
		bool yielded = false;

		/* The groups must be right to pick sources and destinations. */
		class_settle(class);
		zspage = class_empty_one(pool, class, spare, &yielded);
		if (!zspage && !yielded)
			zspage = class_trim(pool, class, spare, &walk,
					    &yielded);
		freed += before - (long)class->pages;
		spin_unlock(&class->lock);
		/* A zspage freed changes what there is to walk: start again. */
		if (zspage) {
			zspage_free(pool, zspage);
			walk.phase = TRIM_START;
		}
		/* One source zspage per hold; a hold that yielded progressed. */
		if (!zspage && !yielded)
			break;
		cond_resched();
		spin_lock(&class->lock);
	}
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
	for (i = 0; i < pool->nr_classes; i++) {
		freed += class_compact(pool, pool->classes[i]);
		cond_resched();
	}
	atomic_long_add(freed, &pool->stats.pages_compacted);
	atomic_set_release(&pool->compacting, 0);
	return freed;
}
EXPORT_SYMBOL_GPL(zs_compact);
