// SPDX-License-Identifier: GPL-2.0
/*
 * zsmalloc: an allocator for compressed pages
 *
 * zram and zswap store each compressed page as one object of 1..PAGE_SIZE
 * bytes, most of them larger than half a page.  A slab allocator would waste
 * most of a page on such objects and needs physically contiguous blocks to do
 * better.  zsmalloc packs objects back to back into chains of order-0 pages
 * that need not be contiguous, and lets an object cross from one page of the
 * chain into the next.
 *
 * Data structures
 *
 * A pool has one size class per 16-byte step of object size, from 32 bytes to
 * PAGE_SIZE (255 steps with 4 KiB pages).  A class owns zspages: chains of
 * 1..max_pages_per_zspage pages, the length chosen at module load so that the
 * fewest bytes per page are wasted at the end of the chain.  Neighbouring
 * steps whose chains come out the same (same pages, same object count) share
 * one class with the largest step's slot size.
 *
 * A zspage is described by a struct zspage allocated from a slab cache, not
 * by struct page fields: it holds the array of its pages and one
 * back-reference word per object.  An allocated object's word holds its
 * handle, a free object's word is 0.  So the object bytes in the pages are the
 * caller's alone: allocation and free never touch the pages, and no object
 * carries a header.  Each page of a zspage records its zspage in
 * page->private (PG_private set) and its position in the chain in
 * page->__folio_index (zs_page_chain_pos()), and is typed PGTY_zsmalloc and
 * flagged MovableOps, so that the kernel's memory compaction can migrate it
 * through our movable_operations (migrate.c).
 *
 * A handle is an index into the pool's table of handles (handle.c) and the
 * generation of that entry.  The entry holds the object's location: the pfn
 * of the page it starts on, its offset in that page, and the size the caller
 * asked for.  Compaction and migration move objects and rewrite the entry, so
 * handles stay valid.  Freeing an object moves its entry's generation on, so
 * that a handle freed, stale or made up is told from a live one exactly.  The
 * size part of the entry never changes while the object lives, so it names
 * the object's class without any lock; the class lock then makes the rest of
 * the entry stable.
 *
 * Each class keeps its zspages in fullness groups of 10% steps (class.c);
 * allocation takes the first zspage of the fullest group that has room and
 * keeps filling it while no other is fuller (it changes group once full); a
 * zspage that becomes empty is freed at once.  Compaction moves objects out
 * of the emptiest zspages into the fullest ones (compact.c).
 *
 * Reading an object (obj.c) pins its zspage, so that compaction and migration
 * leave it alone while the reader, who may sleep, holds it; an object in one
 * page is read where it lies, one that spans two pages is copied into the
 * caller's buffer.  A write copies the caller's bytes in under the class lock.
 *
 * Files: pool.c (this: the API, pools, allocation), class.c (size classes:
 * geometry, fullness groups), zspage.c (objects and pages in a zspage),
 * handle.c (the table of handles), access.c (from handle to object, pins),
 * obj.c (reads and writes),
 * compact.c, shrinker.c, migrate.c, stats.c (debugfs), module.c.
 *
 * Lock order
 *
 *   1. page lock (taken by the migration core around our movable_operations,
 *      and by the deferred-free worker; elsewhere only trylock_page())
 *   2. size_class->lock
 *   3. zs_pool->free_lock
 *
 *   Apart: a CPU's list of free handle indices (local lock), then
 *   zs_pool->handles.lock; never under a class lock.
 *
 *   size_class->lock protects the class's lists, counters and zspages (see
 *   struct zspage), and the handle entries of the class's objects: a live
 *   entry is written only under it.  zs_pool->free_lock protects the
 *   deferred-free list; zs_pool->handles.lock the free handle entries.
 *   No lock is assumed to disable preemption (on PREEMPT_RT spinlocks
 *   sleep), and none is held across a read: a reader holds a pin.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/highmem.h>
#include <linux/migrate.h>
#include <linux/module.h>
#include <linux/pagemap.h>
#include <linux/slab.h>
#include <linux/vmstat.h>

#include "zs_internal.h"

/* Metadata is never highmem nor movable, whatever the pages may be. */
static gfp_t zs_meta_gfp(gfp_t gfp)
{
	return gfp & ~(__GFP_HIGHMEM | __GFP_MOVABLE);
}

/* Zspages class_pick_backed() looks at, at most: it holds the class lock. */
#define ZS_BACKED_SEARCH	16

/*
 * A zspage of @class with a free slot that needs no page, and the slot
 * (*@idxp), or NULL: where an object goes when the slot class_pick_zspage()
 * gives lacks a page and none can be had.  With pages attached up front
 * every free slot is one; with on-demand backing, the first
 * ZS_BACKED_SEARCH zspages of the fullest groups with room are looked at,
 * no more.  Called with class->lock held.
 */
static struct zspage *class_pick_backed(struct size_class *class,
					unsigned int *idxp)
{
	unsigned int objs = class->objs_per_zspage, seen = 0;
	struct zspage *zspage;
	int group;

	for (group = ZS_FULL_GROUP - 1; group >= 0; group--) {
		list_for_each_entry(zspage, &class->groups[group], list) {
			*idxp = zspage_next_backed_hole(zspage, 0);
			if (*idxp < objs)
				return zspage;
			if (++seen == ZS_BACKED_SEARCH)
				return NULL;
		}
	}
	return NULL;
}

/*
 * Finds the zspage the next object of @class goes into, and the object's index
 * in it (*@idxp), with pages in @spare for whatever pages its slot lacks,
 * taken from node @nid (or NUMA_NO_NODE).  If they cannot be had, a slot
 * that needs none will do (class_pick_backed()).
 * Takes class->lock and returns with it held, with the zspage, or with NULL
 * when memory cannot be had with @gfp.
 */
static struct zspage *class_find_room(struct zs_pool *pool,
				      struct size_class *class, gfp_t gfp,
				      int nid, struct page **spare,
				      unsigned int *idxp)
	__acquires(&class->lock)
{
	struct zspage *zspage;
	unsigned int missing;
	int err;

	spin_lock(&class->lock);
	for (;;) {
		zspage = class_pick_zspage(class);
		if (!zspage) {
			spin_unlock(&class->lock);
			zspage = zspage_create(pool, class, gfp, nid);
			spin_lock(&class->lock);
			if (!zspage)
				return NULL;
			/* On the list even if empty: compaction frees it. */
			class->zspages++;
			class->pages += zspage->nr_backed;
			class_link_zspage(class, zspage);
		}
		*idxp = zspage_first_free(zspage);
		missing = zspage_missing_pages(zspage, *idxp);
		/* First try as the caller allows, but without sleeping. */
		if (!missing ||
		    !zs_spare_fill(spare, missing, (gfp & ~__GFP_DIRECT_RECLAIM) |
				   __GFP_NOWARN, nid))
			return zspage;
		spin_unlock(&class->lock);
		err = zs_spare_fill(spare, missing, gfp, nid);
		spin_lock(&class->lock);
		if (err)
			return class_pick_backed(class, idxp);
	}
}

/**
 * zs_malloc - allocate an object from a pool
 * @pool: pool to allocate from
 * @size: object size in bytes, 1..PAGE_SIZE
 * @gfp: how the pool may get memory; __GFP_HIGHMEM and __GFP_MOVABLE apply to
 *	the pages holding objects, not to metadata
 * @nid: the node to take new pages from, or NUMA_NO_NODE
 *
 * Context: process or atomic context as @gfp allows; takes the class lock.
 * Return: an opaque handle; on failure a value for which
 * IS_ERR((void *)handle) holds: -EINVAL for a size of 0, -ENOSPC for one over
 * PAGE_SIZE, -ENOMEM when memory cannot be had with @gfp.
 */
unsigned long zs_malloc(struct zs_pool *pool, size_t size, gfp_t gfp,
			const int nid)
{
	struct page *spare[ZS_SLOT_MAX_PAGES] = { };
	struct size_class *class;
	struct zspage *zspage;
	unsigned int idx;
	u32 handle_idx;

	if (unlikely(!size))
		return (unsigned long)ERR_PTR(-EINVAL);
	if (unlikely(size > PAGE_SIZE))
		return (unsigned long)ERR_PTR(-ENOSPC);

	handle_idx = zs_handle_get(&pool->handles, zs_meta_gfp(gfp));
	if (!handle_idx)
		return (unsigned long)ERR_PTR(-ENOMEM);

	class = zs_class_of(pool, size);
	zspage = class_find_room(pool, class, gfp, nid, spare, &idx);
	if (likely(zspage))
		zspage_alloc_obj(pool, zspage, idx, handle_idx, size, spare);
	spin_unlock(&class->lock);
	zs_spare_drop(spare);
	if (unlikely(!zspage)) {
		zs_handle_put(&pool->handles, handle_idx);
		return (unsigned long)ERR_PTR(-ENOMEM);
	}
	return zs_handle_of(&pool->handles, handle_idx);
}
EXPORT_SYMBOL_GPL(zs_malloc);

/**
 * zs_free - free an object
 * @pool: the pool the object was allocated from
 * @handle: its handle; 0 and error values are ignored
 *
 * A handle that does not name a live object (a double free, a stray value)
 * is reported (zs_bad_call()) and otherwise ignored.
 *
 * Context: process or atomic context, not interrupt context (the class lock
 * is not irq-safe); takes the class lock.
 */
void zs_free(struct zs_pool *pool, unsigned long handle)
{
	struct zs_handle_entry entry;
	struct size_class *class;
	struct zspage *zspage;
	unsigned long loc;
	unsigned int idx;
	bool empty;

	if (IS_ERR_OR_NULL((void *)handle))
		return;
	class = zs_handle_class(pool, handle, &entry);
	if (zs_bad_call(pool, !class))
		return;
	spin_lock(&class->lock);
	zspage = zs_handle_zspage(handle, &entry, &loc, &idx);
	if (zs_bad_call(pool, !zspage)) {
		spin_unlock(&class->lock);
		return;
	}
	empty = zspage_free_obj(pool, zspage, idx, &entry);
	spin_unlock(&class->lock);

	if (empty)
		zspage_free(pool, zspage);
	zs_handle_put(&pool->handles, zs_handle_index(handle));
}
EXPORT_SYMBOL_GPL(zs_free);

/**
 * zs_huge_class_size - the request size from which an object costs a page
 * @pool: the pool
 *
 * zram stores a page that compresses to this size or more uncompressed.
 *
 * Context: any context.
 * Return: the smallest size whose objects each take a whole page.
 */
size_t zs_huge_class_size(struct zs_pool *pool)
{
	return pool->huge_class_size;
}
EXPORT_SYMBOL_GPL(zs_huge_class_size);

/**
 * zs_get_total_pages - pages held by a pool
 * @pool: the pool
 *
 * Context: any context.
 * Return: the number of pages in the pool's zspages.
 */
unsigned long zs_get_total_pages(struct zs_pool *pool)
{
	return atomic_long_read(&pool->pages_allocated);
}
EXPORT_SYMBOL_GPL(zs_get_total_pages);

/**
 * zs_lookup_class_index - the class objects of a size go to
 * @pool: the pool
 * @size: object size in bytes
 *
 * zram's recompression keeps a recompressed object only if it goes to a
 * class of smaller slots than before; sizes that share a class compare
 * equal.  Sizes over PAGE_SIZE count as PAGE_SIZE.
 *
 * Context: any context.
 * Return: a number that grows with the class's slot size.
 */
unsigned int zs_lookup_class_index(struct zs_pool *pool, unsigned int size)
{
	return zs_size_index(zs_class_of(pool, min_t(unsigned int, size,
						      PAGE_SIZE))->size);
}
EXPORT_SYMBOL_GPL(zs_lookup_class_index);

/**
 * zs_pool_stats - copy a pool's statistics
 * @pool: the pool
 * @stats: where to add them (pages_compacted)
 *
 * Context: any context.
 */
void zs_pool_stats(struct zs_pool *pool, struct zs_pool_stats *stats)
{
	atomic_long_add(atomic_long_read(&pool->stats.pages_compacted),
			&stats->pages_compacted);
}
EXPORT_SYMBOL_GPL(zs_pool_stats);

/* Frees every object of a zspage, and releases it. */
static void zspage_drain(struct zs_pool *pool, struct zspage *zspage)
{
	struct zs_handle_entry entry;
	unsigned int idx;

	/* The handles go with the pool's table (zs_handles_destroy()). */
	for_each_set_bit(idx, zspage_map(zspage), zspage_objs(zspage)) {
		zs_handle_entry_of(&pool->handles, zspage_refs(zspage)[idx],
				   &entry);
		if (zspage_free_obj(pool, zspage, idx, &entry))
			return;
	}
	/* Made, but its first allocation failed: it never held an object. */
	class_unlink_zspage(zspage->class, zspage);
	zspage_release(zspage);
}

/* Frees what is left in a class, warning once if anything is. */
static void class_drain(struct zs_pool *pool, struct size_class *class)
{
	struct zspage *zspage;

	if (class->objs_used)
		pr_warn("pool %s: freeing class %u with %lu objects still allocated\n",
			pool->name, class->size, class->objs_used);
	spin_lock(&class->lock);
	while ((zspage = class_first_zspage(class))) {
		zspage_drain(pool, zspage);
		spin_unlock(&class->lock);
		zspage_free(pool, zspage);
		spin_lock(&class->lock);
	}
	spin_unlock(&class->lock);
}

static void pool_destroy_classes(struct zs_pool *pool)
{
	unsigned int i;

	for (i = 0; i < pool->nr_classes; i++)
		class_drain(pool, pool->classes[i]);
	/* Deferred frees still use their class. */
	flush_work(&pool->free_work);
	for (i = 0; i < pool->nr_classes; i++)
		kfree(pool->classes[i]);
}

static int pool_create_classes(struct zs_pool *pool)
{
	struct size_class *prev = NULL;
	int step, huge = ZS_NR_SIZES;

	for (step = ZS_NR_SIZES - 1; step >= 0; step--) {
		if (!prev || !zs_geometry_same(step, prev)) {
			prev = size_class_create(pool, step);
			if (!prev)
				return -ENOMEM;
			pool->classes[pool->nr_classes++] = prev;
		}
		pool->class_of_size[step] = prev;
		if (huge == step + 1 && zs_geometry_is_huge(step))
			huge = step;
	}
	/* Requests above the last step that still packs are huge. */
	pool->huge_class_size = huge ? zs_step_size(huge - 1) + 1 : 1;
	return 0;
}

/**
 * zs_create_pool - create a pool
 * @name: name of the pool, for debugfs and the shrinker
 *
 * Context: process context; may sleep.
 * Return: the pool, or NULL when memory is short.
 */
struct zs_pool *zs_create_pool(const char *name)
{
	struct zs_pool *pool;

	pool = kzalloc_obj(*pool, GFP_KERNEL);
	if (!pool)
		return NULL;
	spin_lock_init(&pool->free_lock);
	INIT_LIST_HEAD(&pool->free_list);
	INIT_WORK(&pool->free_work, zs_free_work);

	pool->name = kstrdup(name, GFP_KERNEL);
	if (!pool->name)
		goto free_pool;
	if (zs_handles_init(&pool->handles))
		goto free_name;
	if (pool_create_classes(pool))
		goto destroy_classes;
	if (zs_shrinker_register(pool))
		goto destroy_classes;
	/* Statistics are best effort: a pool without them still works. */
	zs_pool_debugfs_add(pool);
	return pool;

destroy_classes:
	pool_destroy_classes(pool);
	zs_handles_destroy(&pool->handles);
free_name:
	kfree(pool->name);
free_pool:
	kfree(pool);
	return NULL;
}
EXPORT_SYMBOL_GPL(zs_create_pool);

/**
 * zs_destroy_pool - destroy a pool
 * @pool: the pool
 *
 * Objects still allocated are freed with the pool (a warning names each class
 * that had some); their handles become invalid.
 *
 * Context: process context; may sleep.
 */
void zs_destroy_pool(struct zs_pool *pool)
{
	zs_pool_debugfs_remove(pool);
	zs_shrinker_unregister(pool);
	pool_destroy_classes(pool);
	zs_handles_destroy(&pool->handles);
	kfree(pool->name);
	kfree(pool);
}
EXPORT_SYMBOL_GPL(zs_destroy_pool);

/**
 * zs_setup - set up what every pool shares: size class geometry, migration,
 *	statistics
 *
 * Context: module init.
 * Return: 0 or -errno.
 */
int zs_setup(void)
{
	int err;

	/* The location word must hold any pfn, offset and size. */
	BUILD_BUG_ON(MAX_POSSIBLE_PHYSMEM_BITS - PAGE_SHIFT >
		     BITS_PER_LONG - 1 - ZS_LOC_TAIL_BITS);
	/* Object counts fit in zspage->inuse. */
	BUILD_BUG_ON(ZS_MAX_PAGES_PER_ZSPAGE * PAGE_SIZE / ZS_MIN_ALLOC_SIZE >
		     U16_MAX);
	/* The objects lying on one page fit in its u8 counter. */
	BUILD_BUG_ON(PAGE_SIZE / ZS_MIN_ALLOC_SIZE + 1 > U8_MAX);
	/* Descriptors of one-object zspages are mostly header: keep it small. */
	BUILD_BUG_ON(IS_ENABLED(CONFIG_64BIT) && sizeof(struct zspage) != 32);
	err = zs_geometry_init();
	if (err)
		return err;
	err = zs_migrate_init();
	if (err)
		goto exit_geometry;
	zs_stats_init();
	return 0;

exit_geometry:
	zs_geometry_exit();
	return err;
}

/**
 * zs_teardown - undo zs_setup()
 *
 * Context: module exit, every pool destroyed.
 */
void zs_teardown(void)
{
	zs_stats_exit();
	zs_migrate_exit();
	zs_geometry_exit();
}
