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
 * handle, a free object's word links to the next free object.  So the object
 * bytes in the pages are the caller's alone: allocation and free never touch
 * the pages, and no object carries a header.  Each page of a zspage records
 * its zspage in page->private and its position in the chain in page->index,
 * and is registered as movable (page->mapping), so that the kernel's memory
 * compaction can migrate it.
 *
 * A handle is the address of a word (the slot) taken from a slab cache.  The
 * slot holds the object's location: the pfn of the page it starts on, its
 * offset in that page, and the size the caller asked for.  Compaction and
 * migration move objects and rewrite the slot, so handles stay valid.  The
 * size part of the slot never changes, so it names the object's class without
 * any lock; the class lock then makes the rest of the slot stable.
 *
 * Each class keeps its zspages in fullness groups of 10% steps; allocation
 * takes the first zspage of the fullest group that has room, and a zspage
 * that becomes empty is freed at once.  Compaction moves objects out of the
 * emptiest zspages into the fullest ones (compact.c).
 *
 * Mapping (map.c) returns the object's address in its page when the object
 * lies in one page, and otherwise copies it into a per-CPU buffer (and back at
 * unmap unless the mapping was read-only).  A mapped object's zspage is
 * pinned: compaction and migration leave pinned zspages alone.
 *
 * Lock order
 *
 *   1. page lock (taken by the migration core around our movable_operations,
 *      and by the deferred-free worker; elsewhere only trylock_page())
 *   2. size_class->lock
 *   3. zs_pool->free_lock
 *
 *   The per-CPU mapping lock (zs_map_area.lock, a local_lock) is never held
 *   together with a class lock.
 *
 *   size_class->lock protects the class's lists, counters and zspages (see
 *   struct zspage), and the handle slots of the class's objects: a slot is
 *   written only under it.  zs_pool->free_lock protects the deferred-free
 *   list.  No lock is assumed to disable preemption (on PREEMPT_RT spinlocks
 *   sleep); the mapping code holds a local_lock for the per-CPU buffer.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/highmem.h>
#include <linux/migrate.h>
#include <linux/module.h>
#include <linux/pagemap.h>
#include <linux/slab.h>
#include <linux/vmstat.h>

#include "zs_internal.h"

unsigned int zs_max_pages_per_zspage = 8;
module_param_named(max_pages_per_zspage, zs_max_pages_per_zspage, uint, 0444);
MODULE_PARM_DESC(max_pages_per_zspage,
		 "Longest chain of pages in one zspage (1-16, default 8)");

/* Handle slots: one word each (see the design comment). */
static struct kmem_cache *zs_handle_cache;

/**
 * struct zs_geometry - chain of one 16-byte size step, fixed at module load
 * @pages: pages per zspage
 * @objs: objects per zspage
 * @desc_cache: slab cache for descriptors of such zspages
 */
struct zs_geometry {
	unsigned short pages;
	unsigned short objs;
	struct kmem_cache *desc_cache;
};

static struct zs_geometry zs_geometry[ZS_NR_SIZES];

static unsigned int zs_step_size(unsigned int step)
{
	return ZS_MIN_ALLOC_SIZE + step * ZS_CLASS_DELTA;
}

/* Least waste per page at the end of the chain; on a tie, the shorter chain. */
static void zs_pick_chain(unsigned int size, struct zs_geometry *geo)
{
	unsigned int best_pages = 1, best_waste = PAGE_SIZE % size, n;

	for (n = 2; n <= zs_max_pages_per_zspage; n++) {
		unsigned int waste = (n * PAGE_SIZE) % size;

		if (waste * best_pages < best_waste * n) {
			best_pages = n;
			best_waste = waste;
		}
	}
	geo->pages = best_pages;
	geo->objs = best_pages * PAGE_SIZE / size;
}

static size_t zs_desc_bytes(const struct zs_geometry *geo)
{
	return struct_size((struct zspage *)NULL, pages, geo->pages) +
	       geo->objs * sizeof(unsigned long);
}

/* The first step using the cache of @step, so each cache is handled once. */
static bool zs_geometry_owns_cache(int step)
{
	int other;

	for (other = 0; other < step; other++) {
		if (zs_geometry[other].desc_cache == zs_geometry[step].desc_cache)
			return false;
	}
	return true;
}

static void zs_geometry_exit(void)
{
	int step;

	for (step = ZS_NR_SIZES - 1; step >= 0; step--) {
		if (zs_geometry_owns_cache(step))
			kmem_cache_destroy(zs_geometry[step].desc_cache);
	}
	memset(zs_geometry, 0, sizeof(zs_geometry));
}

/* A descriptor cache of @bytes made for an earlier step, or NULL. */
static struct kmem_cache *zs_geometry_find_cache(int step, size_t bytes)
{
	int other;

	for (other = 0; other < step; other++) {
		if (zs_desc_bytes(&zs_geometry[other]) == bytes)
			return zs_geometry[other].desc_cache;
	}
	return NULL;
}

static int zs_geometry_init(void)
{
	int step;

	zs_max_pages_per_zspage = clamp(zs_max_pages_per_zspage, 1U,
					ZS_MAX_PAGES_PER_ZSPAGE);
	for (step = 0; step < ZS_NR_SIZES; step++) {
		struct zs_geometry *geo = &zs_geometry[step];
		size_t bytes;
		char name[32];

		zs_pick_chain(zs_step_size(step), geo);
		bytes = zs_desc_bytes(geo);
		geo->desc_cache = zs_geometry_find_cache(step, bytes);
		if (geo->desc_cache)
			continue;
		snprintf(name, sizeof(name), "zs_zspage_%zu", bytes);
		geo->desc_cache = kmem_cache_create(name, bytes, 0, 0, NULL);
		if (!geo->desc_cache) {
			zs_geometry_exit();
			return -ENOMEM;
		}
	}
	return 0;
}

/* Metadata is never highmem nor movable, whatever the pages may be. */
static gfp_t zs_meta_gfp(gfp_t gfp)
{
	return gfp & ~(__GFP_HIGHMEM | __GFP_MOVABLE);
}

static unsigned int zspage_group_of(struct zspage *zspage)
{
	unsigned int objs = zspage->class->objs_per_zspage;

	if (zspage->inuse == objs)
		return ZS_FULL_GROUP;
	return zspage->inuse * ZS_FULL_GROUP / objs;
}

/**
 * zspage_set_group - move a zspage to the fullness group it now belongs to
 * @zspage: a zspage on its class's lists
 *
 * Context: class->lock held.
 */
void zspage_set_group(struct zspage *zspage)
{
	struct size_class *class = zspage->class;
	unsigned int group = zspage_group_of(zspage);

	if (group == zspage->group)
		return;
	class->group_count[zspage->group]--;
	class->group_count[group]++;
	zspage->group = group;
	list_move(&zspage->list, &class->groups[group]);
}

/**
 * class_link_zspage - put a zspage on the list of its fullness group
 * @class: its class
 * @zspage: a zspage on no list
 *
 * Context: class->lock held.
 */
void class_link_zspage(struct size_class *class, struct zspage *zspage)
{
	zspage->group = zspage_group_of(zspage);
	list_add(&zspage->list, &class->groups[zspage->group]);
	class->group_count[zspage->group]++;
}

/**
 * class_unlink_zspage - take a zspage off its fullness group's list
 * @class: its class
 * @zspage: a zspage on a list
 *
 * Context: class->lock held.
 */
void class_unlink_zspage(struct size_class *class, struct zspage *zspage)
{
	list_del_init(&zspage->list);
	class->group_count[zspage->group]--;
}

/* Any zspage of the class on a list, or NULL. */
static struct zspage *class_first_zspage(struct size_class *class)
{
	int group;

	for (group = 0; group < ZS_NR_GROUPS; group++) {
		if (!list_empty(&class->groups[group]))
			return list_first_entry(&class->groups[group],
						struct zspage, list);
	}
	return NULL;
}

/* The fullest zspage with room, or NULL. */
static struct zspage *class_pick_zspage(struct size_class *class)
{
	int group;

	for (group = ZS_FULL_GROUP - 1; group >= 0; group--) {
		if (!list_empty(&class->groups[group]))
			return list_first_entry(&class->groups[group],
						struct zspage, list);
	}
	return NULL;
}

/**
 * zspage_take_free - take a free object out of a zspage that is not full
 * @zspage: the zspage
 *
 * Context: class->lock held.
 * Return: the object's index.
 */
unsigned int zspage_take_free(struct zspage *zspage)
{
	unsigned int idx = zspage->free_head;

	if (idx != ZS_NO_FREE)
		zspage->free_head = zspage_refs(zspage)[idx] >> 1;
	else
		idx = zspage->never_used++;
	return idx;
}

/**
 * zspage_put_free - give an object back to its zspage's free list
 * @zspage: the zspage
 * @idx: the object's index
 *
 * Context: class->lock held.
 */
void zspage_put_free(struct zspage *zspage, unsigned int idx)
{
	zspage_refs(zspage)[idx] = (unsigned long)zspage->free_head << 1;
	zspage->free_head = idx;
}

/**
 * zspage_obj_index - index of the object that starts at @offset of @page
 * @zspage: the zspage @page belongs to
 * @page: a page of @zspage
 * @offset: the object's offset in @page
 *
 * Return: the object's index in @zspage.
 */
unsigned int zspage_obj_index(struct zspage *zspage, struct page *page,
			      unsigned int offset)
{
	return (page->index * PAGE_SIZE + offset) / zspage->class->size;
}

/**
 * zspage_obj_loc - location word of object @idx of @zspage
 * @zspage: the zspage
 * @idx: the object's index
 * @size: the size the object was allocated with
 *
 * Context: class->lock held (the pages of a zspage may migrate).
 * Return: the location word to store in the object's handle slot.
 */
unsigned long zspage_obj_loc(struct zspage *zspage, unsigned int idx,
			     size_t size)
{
	unsigned int start = idx * zspage->class->size;

	return zs_loc(zspage->pages[start >> PAGE_SHIFT],
		      offset_in_page(start), size);
}

static void zspage_release_pages(struct zs_pool *pool, struct zspage *zspage)
{
	struct size_class *class = zspage->class;
	unsigned int i;

	for (i = 0; i < class->pages_per_zspage; i++) {
		struct page *page = zspage->pages[i];

		__ClearPageMovable(page);
		set_page_private(page, 0);
		page->index = 0;
		unlock_page(page);
		dec_zone_page_state(page, NR_ZSPAGES);
		put_page(page);
	}
	atomic_long_sub(class->pages_per_zspage, &pool->pages_allocated);
	kmem_cache_free(class->desc_cache, zspage);
}

/**
 * zspage_release - give up an empty zspage
 * @zspage: an empty zspage on no list
 *
 * Marks the zspage dying, so that migration leaves its pages alone.  The
 * caller frees it with zspage_free() once it has dropped the class lock.
 *
 * Context: class->lock held.
 * Return: true, for the caller's convenience in conditions.
 */
bool zspage_release(struct zspage *zspage)
{
	zspage->class->zspages--;
	zspage->flags |= ZS_ZSPAGE_DYING;
	return true;
}

/**
 * zspage_free_obj - free object @idx of @zspage
 * @zspage: the zspage
 * @idx: index of an allocated object
 *
 * While the zspage is being reclaimed it stays off the lists, whatever its
 * fullness; the reclaimer puts it back or releases it.
 *
 * Context: class->lock held.
 * Return: true if the zspage became empty and was released: the caller must
 * zspage_free() it after dropping the lock.
 */
bool zspage_free_obj(struct zspage *zspage, unsigned int idx)
{
	struct size_class *class = zspage->class;
	unsigned long *slot;

	slot = (unsigned long *)(zspage_refs(zspage)[idx] & ZS_REF_HANDLE_MASK);
	class->objs_used--;
	class->bytes_requested -= zs_loc_size(READ_ONCE(*slot));
	WRITE_ONCE(*slot, ZS_LOC_FREED);
	zspage_put_free(zspage, idx);
	zspage->inuse--;
	if (zspage->flags & ZS_ZSPAGE_RECLAIM)
		return false;
	if (!zspage->inuse) {
		class_unlink_zspage(class, zspage);
		return zspage_release(zspage);
	}
	zspage_set_group(zspage);
	return false;
}

/**
 * zspage_free - free the pages and descriptor of a released zspage
 * @pool: the pool
 * @zspage: a zspage given up by zspage_release()
 *
 * The pages must be locked to clear their movable mark.  A page the migration
 * core holds locked cannot be waited for here, so such a zspage goes to a
 * worker that may sleep.
 *
 * Context: any context that may take a spinlock; no class lock held.
 */
void zspage_free(struct zs_pool *pool, struct zspage *zspage)
{
	unsigned int i, nr = zspage->class->pages_per_zspage;

	for (i = 0; i < nr; i++) {
		if (!trylock_page(zspage->pages[i]))
			goto unlock_pages;
	}
	zspage_release_pages(pool, zspage);
	return;

unlock_pages:
	while (i--)
		unlock_page(zspage->pages[i]);
	spin_lock(&pool->free_lock);
	list_add_tail(&zspage->free_link, &pool->free_list);
	spin_unlock(&pool->free_lock);
	schedule_work(&pool->free_work);
}

static void zs_free_work(struct work_struct *work)
{
	struct zs_pool *pool = container_of(work, struct zs_pool, free_work);
	struct zspage *zspage, *next;
	LIST_HEAD(list);
	unsigned int i;

	spin_lock(&pool->free_lock);
	list_splice_init(&pool->free_list, &list);
	spin_unlock(&pool->free_lock);

	list_for_each_entry_safe(zspage, next, &list, free_link) {
		for (i = 0; i < zspage->class->pages_per_zspage; i++)
			lock_page(zspage->pages[i]);
		zspage_release_pages(pool, zspage);
	}
}

static void zspage_free_new_pages(struct zspage *zspage, unsigned int nr)
{
	while (nr--) {
		set_page_private(zspage->pages[nr], 0);
		__free_page(zspage->pages[nr]);
	}
}

static struct zspage *zspage_create(struct zs_pool *pool,
				    struct size_class *class, gfp_t gfp)
{
	struct zspage *zspage;
	unsigned int i;

	zspage = kmem_cache_zalloc(class->desc_cache, zs_meta_gfp(gfp));
	if (!zspage)
		return NULL;
	zspage->class = class;
	zspage->free_head = ZS_NO_FREE;
	INIT_LIST_HEAD(&zspage->list);

	for (i = 0; i < class->pages_per_zspage; i++) {
		struct page *page = alloc_page(gfp);

		if (!page)
			goto free_pages;
		set_page_private(page, (unsigned long)zspage);
		page->index = i;
		zspage->pages[i] = page;
	}
	/* Only a fully set up zspage may be seen by migration. */
	for (i = 0; i < class->pages_per_zspage; i++) {
		zspage_page_set_movable(zspage->pages[i]);
		inc_zone_page_state(zspage->pages[i], NR_ZSPAGES);
	}
	atomic_long_add(class->pages_per_zspage, &pool->pages_allocated);
	return zspage;

free_pages:
	zspage_free_new_pages(zspage, i);
	kmem_cache_free(class->desc_cache, zspage);
	return NULL;
}

/* Allocates an object of @class in @zspage; returns its location word. */
static unsigned long zspage_alloc_obj(struct zspage *zspage,
				      unsigned long handle, size_t size)
{
	struct size_class *class = zspage->class;
	unsigned int idx = zspage_take_free(zspage);

	zspage_refs(zspage)[idx] = handle | ZS_REF_ALLOCATED;
	zspage->inuse++;
	class->objs_used++;
	class->bytes_requested += size;
	zspage_set_group(zspage);
	return zspage_obj_loc(zspage, idx, size);
}

/**
 * zs_malloc - allocate an object from a pool
 * @pool: pool to allocate from
 * @size: object size in bytes, 1..PAGE_SIZE
 * @gfp: how the pool may get memory; __GFP_HIGHMEM and __GFP_MOVABLE apply to
 *	the pages holding objects, not to metadata
 *
 * Context: process or atomic context as @gfp allows; takes the class lock.
 * Return: an opaque handle; on failure a value for which
 * IS_ERR((void *)handle) holds: -EINVAL for a bad @size, -ENOMEM when memory
 * cannot be had with @gfp.
 */
unsigned long zs_malloc(struct zs_pool *pool, size_t size, gfp_t gfp)
{
	struct size_class *class;
	struct zspage *zspage;
	unsigned long *slot;

	if (unlikely(!size || size > PAGE_SIZE))
		return (unsigned long)ERR_PTR(-EINVAL);

	slot = kmem_cache_alloc(zs_handle_cache, zs_meta_gfp(gfp));
	if (!slot)
		return (unsigned long)ERR_PTR(-ENOMEM);

	class = zs_class_of(pool, size);
	spin_lock(&class->lock);
	zspage = class_pick_zspage(class);
	if (unlikely(!zspage)) {
		spin_unlock(&class->lock);
		zspage = zspage_create(pool, class, gfp);
		if (!zspage) {
			kmem_cache_free(zs_handle_cache, slot);
			return (unsigned long)ERR_PTR(-ENOMEM);
		}
		spin_lock(&class->lock);
		class->zspages++;
		class_link_zspage(class, zspage);
	}
	WRITE_ONCE(*slot, zspage_alloc_obj(zspage, (unsigned long)slot, size));
	spin_unlock(&class->lock);
	return (unsigned long)slot;
}
EXPORT_SYMBOL_GPL(zs_malloc);

/**
 * zs_handle_zspage - find the zspage holding the object of a handle
 * @class: the class the handle's size names, locked
 * @handle: the handle
 * @locp: set to the object's location word
 *
 * Checks what can be checked cheaply: that the slot points at a page of ours,
 * of @class, whose back-reference names this handle.
 *
 * Context: class->lock held.
 * Return: the zspage, or NULL for a handle that names no live object.
 */
static struct zspage *zs_handle_zspage(struct size_class *class,
				       unsigned long handle,
				       unsigned long *locp)
{
	unsigned long loc = READ_ONCE(*(unsigned long *)handle);
	struct zspage *zspage;
	struct page *page;
	unsigned int idx;

	if (loc == ZS_LOC_FREED || !pfn_valid(loc >> ZS_LOC_TAIL_BITS))
		return NULL;
	page = zs_loc_page(loc);
	if (!zs_page_is_ours(page))
		return NULL;
	zspage = page_zspage(page);
	if (zspage->class != class)
		return NULL;
	idx = zspage_obj_index(zspage, page, zs_loc_offset(loc));
	if (idx >= class->objs_per_zspage ||
	    zspage_refs(zspage)[idx] != (handle | ZS_REF_ALLOCATED))
		return NULL;
	*locp = loc;
	return zspage;
}

/**
 * zs_free - free an object
 * @pool: the pool the object was allocated from
 * @handle: its handle; 0 and error values are ignored
 *
 * A handle that does not name a live object (a double free, a stray value)
 * is reported once with a warning and otherwise ignored.
 *
 * Context: any context; takes the class lock.
 */
void zs_free(struct zs_pool *pool, unsigned long handle)
{
	struct size_class *class;
	struct zspage *zspage;
	unsigned long loc;
	unsigned int idx;
	bool empty;

	if (IS_ERR_OR_NULL((void *)handle))
		return;

	class = zs_class_of(pool, zs_loc_size(READ_ONCE(*(unsigned long *)handle)));
	spin_lock(&class->lock);
	zspage = zs_handle_zspage(class, handle, &loc);
	if (WARN_ON_ONCE(!zspage)) {
		spin_unlock(&class->lock);
		return;
	}
	idx = zspage_obj_index(zspage, zs_loc_page(loc), zs_loc_offset(loc));
	if (unlikely(zspage->flags & ZS_ZSPAGE_RECLAIM)) {
		/* The evictor may still map it: its reclaimer frees it. */
		zspage_refs(zspage)[idx] |= ZS_REF_FREED;
		spin_unlock(&class->lock);
		return;
	}
	empty = zspage_free_obj(zspage, idx);
	spin_unlock(&class->lock);

	if (empty)
		zspage_free(pool, zspage);
	kmem_cache_free(zs_handle_cache, (void *)handle);
}
EXPORT_SYMBOL_GPL(zs_free);

/**
 * zs_handle_release - return a handle slot whose object zspage_free_obj() freed
 * @handle: the handle
 *
 * Context: any context.
 */
void zs_handle_release(unsigned long handle)
{
	kmem_cache_free(zs_handle_cache, (void *)handle);
}

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

static struct size_class *size_class_create(struct zs_pool *pool, unsigned int step)
{
	const struct zs_geometry *geo = &zs_geometry[step];
	struct size_class *class;
	int group;

	class = kzalloc(sizeof(*class), GFP_KERNEL);
	if (!class)
		return NULL;
	spin_lock_init(&class->lock);
	for (group = 0; group < ZS_NR_GROUPS; group++)
		INIT_LIST_HEAD(&class->groups[group]);
	class->size = zs_step_size(step);
	class->objs_per_zspage = geo->objs;
	class->pages_per_zspage = geo->pages;
	class->desc_cache = geo->desc_cache;
	class->pool = pool;
	return class;
}

/* Frees every object of a zspage, and so the zspage. */
static void zspage_drain(struct zs_pool *pool, struct zspage *zspage)
{
	unsigned long *refs = zspage_refs(zspage);
	unsigned int idx;

	for (idx = 0; idx < zspage->never_used; idx++) {
		unsigned long ref = refs[idx];

		if (!(ref & ZS_REF_ALLOCATED))
			continue;
		zs_handle_release(ref & ZS_REF_HANDLE_MASK);
		if (zspage_free_obj(zspage, idx))
			break;
	}
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
		const struct zs_geometry *geo = &zs_geometry[step];

		if (!prev || prev->pages_per_zspage != geo->pages ||
		    prev->objs_per_zspage != geo->objs) {
			prev = size_class_create(pool, step);
			if (!prev)
				return -ENOMEM;
			pool->classes[pool->nr_classes++] = prev;
		}
		pool->class_of_size[step] = prev;
		if (huge == step + 1 && geo->objs == 1)
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

	pool = kzalloc(sizeof(*pool), GFP_KERNEL);
	if (!pool)
		return NULL;
	spin_lock_init(&pool->free_lock);
	INIT_LIST_HEAD(&pool->free_list);
	INIT_WORK(&pool->free_work, zs_free_work);

	pool->name = kstrdup(name, GFP_KERNEL);
	if (!pool->name)
		goto free_pool;
	if (pool_create_classes(pool))
		goto destroy_classes;
	if (zs_shrinker_register(pool))
		goto destroy_classes;
	/* Statistics are best effort: a pool without them still works. */
	zs_pool_debugfs_add(pool);
	return pool;

destroy_classes:
	pool_destroy_classes(pool);
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
	kfree(pool->name);
	kfree(pool);
}
EXPORT_SYMBOL_GPL(zs_destroy_pool);

static int __init zs_init(void)
{
	int err;

	/* The location word must hold any pfn, offset and size. */
	BUILD_BUG_ON(MAX_POSSIBLE_PHYSMEM_BITS - PAGE_SHIFT >
		     BITS_PER_LONG - ZS_LOC_TAIL_BITS);
	/* Object indices and the free-list end fit in u16. */
	BUILD_BUG_ON(ZS_MAX_PAGES_PER_ZSPAGE * PAGE_SIZE / ZS_MIN_ALLOC_SIZE >=
		     ZS_NO_FREE);
	/* Handles are word aligned, leaving the low bits for ZS_REF_*. */
	BUILD_BUG_ON((ZS_REF_ALLOCATED | ZS_REF_FREED) >= sizeof(unsigned long));

	err = zs_geometry_init();
	if (err)
		return err;
	zs_handle_cache = kmem_cache_create("zs_handle", sizeof(unsigned long),
					    0, 0, NULL);
	if (!zs_handle_cache) {
		err = -ENOMEM;
		goto exit_geometry;
	}
	err = zs_map_init();
	if (err)
		goto destroy_handle_cache;
	zs_stats_init();
	err = zs_zpool_init();
	if (err)
		goto exit_stats;
	return 0;

exit_stats:
	zs_stats_exit();
	zs_map_exit();
destroy_handle_cache:
	kmem_cache_destroy(zs_handle_cache);
exit_geometry:
	zs_geometry_exit();
	return err;
}

static void __exit zs_exit(void)
{
	zs_zpool_exit();
	zs_stats_exit();
	zs_map_exit();
	kmem_cache_destroy(zs_handle_cache);
	zs_geometry_exit();
}

module_init(zs_init);
module_exit(zs_exit);

MODULE_LICENSE("Dual BSD/GPL");
MODULE_DESCRIPTION("zsmalloc: allocator for compressed pages");
MODULE_ALIAS("zpool-zsmalloc");
