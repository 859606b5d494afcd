// SPDX-License-Identifier: GPL-2.0
/*
 * zspages: the life of objects and pages in a zspage, and the spare pages
 * that page attachment takes.
 *
 * With on-demand backing (the default, module parameter "ondemand"), a new
 * zspage has no pages: a page is attached when the first object that lies on
 * it is allocated, and given back when the last one is freed.  Objects are
 * handed out lowest index first, so the pages of a zspage fill front to back
 * and the last zspage of a class holds only the pages it uses.  Without it,
 * every page is attached when the zspage is made, as in the 2012 design.
 *
 * A page is attached under the class lock with a page allocated beforehand
 * (a "spare"), since the allocation itself may sleep; the caller makes sure
 * it has enough spares (zspage_missing_pages()).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitmap.h>
#include <linux/highmem.h>
#include <linux/page-flags.h>
#include <linux/pagemap.h>
#include <linux/slab.h>
#include <linux/vmstat.h>

#include "zs_internal.h"

/* A page on node @nid, or as the task's memory policy says for NUMA_NO_NODE. */
static struct page *zs_alloc_page(gfp_t gfp, int nid)
{
	return nid == NUMA_NO_NODE ? alloc_page(gfp) :
				     alloc_pages_node(nid, gfp, 0);
}

/**
 * zs_spare_fill - make sure @spare holds at least @nr pages
 * @spare: ZS_SLOT_MAX_PAGES entries, NULL where empty; its pages are at its
 *	front (filled from the first entry, taken from the last)
 * @nr: pages wanted, at most ZS_SLOT_MAX_PAGES
 * @gfp: how to allocate them
 * @nid: on which node, or NUMA_NO_NODE
 *
 * Spares a failed fill for another node left go back first: compaction
 * keeps its spares from one object to the next.
 *
 * Return: 0, or -ENOMEM (what was allocated stays in @spare).
 */
int zs_spare_fill(struct page **spare, unsigned int nr, gfp_t gfp, int nid)
{
	unsigned int i;

	if (nid != NUMA_NO_NODE && spare[0] && page_to_nid(spare[0]) != nid)
		zs_spare_drop(spare);
	for (i = 0; i < nr; i++) {
		if (!spare[i])
			spare[i] = zs_alloc_page(gfp, nid);
		if (!spare[i])
			return -ENOMEM;
	}
	return 0;
}

static struct page *zs_spare_take(struct page **spare)
{
	int i;

	for (i = ZS_SLOT_MAX_PAGES - 1; i >= 0; i--) {
		struct page *page = spare[i];

		if (page) {
			spare[i] = NULL;
			return page;
		}
	}
	return NULL;
}

/*
 * Registers a page nobody else knows yet, its private and chain position
 * set, with the migration core: only now, fully set up, may migration see it.
 */
static void zspage_page_set_movable(struct page *page)
{
	/* Nobody else can hold the lock of a page just allocated. */
	if (WARN_ON_ONCE(!trylock_page(page)))
		return;
	__SetPageZsmalloc(page);
	SetPageMovableOps(page);
	unlock_page(page);
}

/* Makes @page page @p of @zspage. */
static void zspage_attach_page(struct zs_pool *pool, struct zspage *zspage,
			       unsigned int p, struct page *page)
{
	set_page_private(page, (unsigned long)zspage);
	SetPagePrivate(page);
	zs_page_set_chain_pos(page, p);
	zspage->pages[p] = page;
	zspage->nr_backed++;
	zspage_page_set_movable(page);
	inc_zone_page_state(page, NR_ZSPAGES);
	atomic_long_inc(&pool->pages_allocated);
}

/*
 * Page lifetime.  A page attached to a zspage holds one reference, ours.  The
 * migration core takes a second one and the page lock before it calls
 * zsmalloc_mops, and between isolating a page and moving it lets go of the
 * lock.  So a page leaves its zspage only locked, here: page->private goes
 * to 0, after which zs_page_isolate() and zs_page_migrate() leave it alone
 * (its type stays until it is freed), then we drop our reference; if
 * migration holds it isolated meanwhile, it drops its own when done.  A page
 * whose lock migration holds now cannot be waited for under the class lock:
 * zspage_drop_page() leaves it attached, and zspage_free() hands its zspage
 * to zs_free_work(), which may sleep.  zs_page_isolate() refuses the pages of
 * a DYING zspage, and zs_page_migrate() those and the pages of a pinned one.
 */

/* Undoes zspage_attach_page(); the page is locked and we drop our ref. */
static void zspage_detach_locked_page(struct zs_pool *pool, struct page *page)
{
	ClearPagePrivate(page);
	set_page_private(page, 0);
	zs_page_set_chain_pos(page, 0);
	unlock_page(page);
	dec_zone_page_state(page, NR_ZSPAGES);
	atomic_long_dec(&pool->pages_allocated);
	put_page(page);
}

/*
 * Gives back page @p, on which no object lies any more.  A page the
 * migration core holds locked stays; a later object uses it, compaction
 * gives it back (zspage_drop_unused_pages()), or the zspage's end frees it.
 */
static void zspage_drop_page(struct zs_pool *pool, struct zspage *zspage,
			     unsigned int p)
{
	struct page *page = zspage->pages[p];

	if (!trylock_page(page))
		return;
	zspage->pages[p] = NULL;
	zspage->nr_backed--;
	zspage->class->pages--;
	zspage_detach_locked_page(pool, page);
}

/**
 * zspage_drop_unused_pages - give back the pages of @zspage no object lies on
 * @pool: the pool
 * @zspage: the zspage
 *
 * Retries the pages zspage_drop_page() had to leave, so that the pages
 * zs_class_freeable_pages() counts for them are not counted in vain.  With
 * every page attached up front (no on-demand backing) pages stay unused.
 *
 * Context: class->lock held.
 */
void zspage_drop_unused_pages(struct zs_pool *pool, struct zspage *zspage)
{
	u8 *users = zspage_users(zspage);
	unsigned int p;

	if (!zs_ondemand)
		return;
	for (p = 0; p < zspage->class->pages_per_zspage; p++) {
		if (zspage->pages[p] && !users[p])
			zspage_drop_page(pool, zspage, p);
	}
}

/* Counts object @idx on its pages, attaching absent ones from @spare. */
static void zspage_slot_get(struct zs_pool *pool, struct zspage *zspage,
			    unsigned int idx, struct page **spare)
{
	u8 *users = zspage_users(zspage);
	unsigned int first, last, p;

	zspage_slot_pages(zspage, idx, &first, &last);
	for (p = first; p <= last; p++) {
		if (!zspage->pages[p]) {
			zspage_attach_page(pool, zspage, p, zs_spare_take(spare));
			zspage->class->pages++;
		}
		users[p]++;
	}
}

/* Uncounts object @idx; with on-demand backing, frees pages left unused. */
static void zspage_slot_put(struct zs_pool *pool, struct zspage *zspage,
			    unsigned int idx)
{
	u8 *users = zspage_users(zspage);
	unsigned int first, last, p;

	zspage_slot_pages(zspage, idx, &first, &last);
	for (p = first; p <= last; p++) {
		if (!--users[p] && zs_ondemand)
			zspage_drop_page(pool, zspage, p);
	}
}

/**
 * zspage_obj_loc - location word of object @idx of @zspage
 * @zspage: the zspage
 * @idx: the object's index; its first page is present
 * @size: the size the object was allocated with
 *
 * Context: class->lock held (the pages of a zspage may migrate).
 * Return: the location word to store in the object's handle entry.
 */
unsigned long zspage_obj_loc(struct zspage *zspage, unsigned int idx,
			     size_t size)
{
	unsigned int start = idx * zspage->class->size;

	return zs_loc(zspage->pages[start >> PAGE_SHIFT],
		      offset_in_page(start), size);
}

/* Marks @idx allocated to handle index @handle_idx; its pages are present. */
static void zspage_take_slot(struct zspage *zspage, unsigned int idx,
			     u32 handle_idx)
{
	__set_bit(idx, zspage_map(zspage));
	zspage_refs(zspage)[idx] = handle_idx;
	zspage->inuse++;
}

static void zspage_clear_slot(struct zs_pool *pool, struct zspage *zspage,
			      unsigned int idx)
{
	__clear_bit(idx, zspage_map(zspage));
	zspage_refs(zspage)[idx] = 0;
	zspage->inuse--;
	zspage_slot_put(pool, zspage, idx);
}

/**
 * zspage_alloc_obj - allocate object @idx of @zspage to a handle
 * @pool: the pool
 * @zspage: a zspage that is not full, on its class's lists
 * @idx: a free index
 * @handle_idx: the handle's index; its entry gets the object's location and
 *	@size
 * @size: the requested size
 * @spare: pages for the absent pages under the slot (enough of them)
 *
 * Context: class->lock held.
 */
void zspage_alloc_obj(struct zs_pool *pool, struct zspage *zspage,
		      unsigned int idx, u32 handle_idx, size_t size,
		      struct page **spare)
{
	struct size_class *class = zspage->class;

	zspage_slot_get(pool, zspage, idx, spare);
	zspage_take_slot(zspage, idx, handle_idx);
	class->objs_used++;
	class->bytes_requested += size;
	WRITE_ONCE(*zs_handle_loc(&pool->handles, handle_idx),
		   zspage_obj_loc(zspage, idx, size));
	zspage_alloc_set_group(zspage);
}

/* Copies the object at @src_loc to @dst_loc (same size), page by page. */
static void zs_obj_copy(unsigned long dst_loc, unsigned long src_loc)
{
	struct page *src_page = zs_loc_page(src_loc);
	struct page *dst_page = zs_loc_page(dst_loc);
	unsigned int src_off = zs_loc_offset(src_loc);
	unsigned int dst_off = zs_loc_offset(dst_loc);
	size_t size = zs_loc_size(src_loc);

	while (size) {
		size_t piece = min3(size, PAGE_SIZE - src_off,
				    PAGE_SIZE - dst_off);
		char *src = kmap_local_page(src_page);
		char *dst = kmap_local_page(dst_page);

		memcpy(dst + dst_off, src + src_off, piece);
		kunmap_local(dst);
		kunmap_local(src);
		size -= piece;
		src_off += piece;
		dst_off += piece;
		if (size && src_off == PAGE_SIZE) {
			src_page = zs_obj_next_page(src_page);
			src_off = 0;
		}
		if (size && dst_off == PAGE_SIZE) {
			dst_page = zs_obj_next_page(dst_page);
			dst_off = 0;
		}
	}
}

/**
 * zspage_move_obj - move object @src_idx of @src into slot @dst_idx of @dst
 * @pool: the pool
 * @dst: the destination zspage, not full
 * @dst_idx: a free index in @dst
 * @spare: pages for the absent pages under that slot (enough of them)
 * @src: the zspage the object is in, not pinned
 * @src_idx: the object's index
 *
 * The handle follows the object; fullness groups are left to the caller.
 *
 * Context: class->lock held.
 */
void zspage_move_obj(struct zs_pool *pool, struct zspage *dst,
		     unsigned int dst_idx, struct page **spare,
		     struct zspage *src, unsigned int src_idx)
{
	u32 handle_idx = zspage_refs(src)[src_idx];
	unsigned long *slot = zs_handle_loc(&pool->handles, handle_idx);
	unsigned long loc = READ_ONCE(*slot), new_loc;

	zspage_slot_get(pool, dst, dst_idx, spare);
	new_loc = zspage_obj_loc(dst, dst_idx, zs_loc_size(loc));
	zs_obj_copy(new_loc, loc);
	zspage_take_slot(dst, dst_idx, handle_idx);
	WRITE_ONCE(*slot, new_loc);
	zspage_clear_slot(pool, src, src_idx);
}

/**
 * zspage_free_obj - free object @idx of @zspage
 * @pool: the pool
 * @zspage: the zspage
 * @idx: index of an allocated object
 * @entry: the entry of its handle
 *
 * Context: class->lock held.
 * Return: true if the zspage became empty and was released: the caller must
 * zspage_free() it after dropping the lock.
 */
bool zspage_free_obj(struct zs_pool *pool, struct zspage *zspage,
		     unsigned int idx, struct zs_handle_entry *entry)
{
	struct size_class *class = zspage->class;

	class->objs_used--;
	class->bytes_requested -= zs_loc_size(READ_ONCE(*entry->loc));
	zs_handle_retire(entry);
	zspage_clear_slot(pool, zspage, idx);
	if (!zspage->inuse) {
		class_unlink_zspage(class, zspage);
		return zspage_release(zspage);
	}
	zspage_set_group(zspage);
	return false;
}

/**
 * zspage_create - make a zspage for @class
 * @pool: the pool
 * @class: the class
 * @gfp: how to allocate; the descriptor is never highmem nor movable
 * @nid: the node for its pages, or NUMA_NO_NODE
 *
 * With on-demand backing the zspage has no page yet; otherwise all of them.
 *
 * Context: as @gfp allows; no lock held.
 * Return: the zspage, on no list, or NULL.
 */
struct zspage *zspage_create(struct zs_pool *pool, struct size_class *class,
			     gfp_t gfp, int nid)
{
	struct page *pages[ZS_MAX_PAGES_PER_ZSPAGE];
	struct zspage *zspage;
	unsigned int p;

	zspage = kmem_cache_zalloc(class->desc_cache,
				   gfp & ~(__GFP_HIGHMEM | __GFP_MOVABLE));
	if (!zspage)
		return NULL;
	zspage->class = class;
	INIT_LIST_HEAD(&zspage->list);
	if (zs_ondemand)
		return zspage;

	for (p = 0; p < class->pages_per_zspage; p++) {
		pages[p] = zs_alloc_page(gfp, nid);
		if (!pages[p])
			goto free_pages;
	}
	for (p = 0; p < class->pages_per_zspage; p++)
		zspage_attach_page(pool, zspage, p, pages[p]);
	return zspage;

free_pages:
	while (p--)
		__free_page(pages[p]);
	kmem_cache_free(class->desc_cache, zspage);
	return NULL;
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
	struct size_class *class = zspage->class;

	class->zspages--;
	class->pages -= zspage->nr_backed;
	WRITE_ONCE(zspage->group, ZS_DYING_GROUP);
	return true;
}

static void zspage_free_locked(struct zs_pool *pool, struct zspage *zspage)
{
	unsigned int p;

	for (p = 0; p < zspage->class->pages_per_zspage; p++) {
		if (zspage->pages[p])
			zspage_detach_locked_page(pool, zspage->pages[p]);
	}
	kmem_cache_free(zspage->class->desc_cache, zspage);
}

/**
 * zspage_free - free the pages and descriptor of a released zspage
 * @pool: the pool
 * @zspage: a zspage given up by zspage_release()
 *
 * The pages must be locked to clear their movable mark.  A page the migration
 * core holds locked cannot be waited for here, so such a zspage goes to a
 * worker that may sleep.  A dying zspage's pages no longer change.
 *
 * Context: any context that may take a spinlock; no class lock held.
 */
void zspage_free(struct zs_pool *pool, struct zspage *zspage)
{
	unsigned int p, nr = zspage->class->pages_per_zspage;

	for (p = 0; p < nr; p++) {
		if (zspage->pages[p] && !trylock_page(zspage->pages[p]))
			goto unlock_pages;
	}
	zspage_free_locked(pool, zspage);
	return;

unlock_pages:
	while (p--) {
		if (zspage->pages[p])
			unlock_page(zspage->pages[p]);
	}
	spin_lock(&pool->free_lock);
	list_add_tail(&zspage->list, &pool->free_list);
	spin_unlock(&pool->free_lock);
	schedule_work(&pool->free_work);
}

/**
 * zs_free_work - free the zspages zspage_free() could not
 * @work: the pool's free_work
 *
 * Context: process context; sleeps on page locks.
 */
void zs_free_work(struct work_struct *work)
{
	struct zs_pool *pool = container_of(work, struct zs_pool, free_work);
	struct zspage *zspage, *next;
	LIST_HEAD(list);
	unsigned int p;

	spin_lock(&pool->free_lock);
	list_splice_init(&pool->free_list, &list);
	spin_unlock(&pool->free_lock);

	list_for_each_entry_safe(zspage, next, &list, list) {
		for (p = 0; p < zspage->class->pages_per_zspage; p++) {
			if (zspage->pages[p])
				lock_page(zspage->pages[p]);
		}
		zspage_free_locked(pool, zspage);
	}
}
