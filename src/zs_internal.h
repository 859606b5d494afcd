/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Internal data structures of zsmalloc, shared by the files of the module.
 * The design comment and the lock order are at the top of pool.c.
 */
#ifndef _ZS_INTERNAL_H
#define _ZS_INTERNAL_H

#include <linux/atomic.h>
#include <linux/err.h>
#include <linux/list.h>
#include <linux/migrate.h>
#include <linux/mm.h>
#include <linux/page-flags.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <linux/zsmalloc.h>

/*
 * Size classes are ZS_CLASS_DELTA bytes apart, from ZS_MIN_ALLOC_SIZE to
 * PAGE_SIZE.  Every object offset in a zspage is a multiple of the delta,
 * so an offset within a page fits in PAGE_SHIFT - ZS_CLASS_DELTA_SHIFT bits.
 */
#define ZS_CLASS_DELTA_SHIFT	4
#define ZS_CLASS_DELTA		BIT(ZS_CLASS_DELTA_SHIFT)
#define ZS_MIN_ALLOC_SIZE	32U
#define ZS_NR_SIZES		((PAGE_SIZE - ZS_MIN_ALLOC_SIZE) / ZS_CLASS_DELTA + 1)

/* Longest chain the module parameter may ask for. */
#define ZS_MAX_PAGES_PER_ZSPAGE	16U
/* Pages one object can lie on: it is at most PAGE_SIZE bytes long. */
#define ZS_SLOT_MAX_PAGES	2

/*
 * Fullness groups: a non-full zspage with inuse of objs objects in use sits in
 * group inuse * ZS_FULL_GROUP / objs (0..9, 10% bands); a full one in
 * ZS_FULL_GROUP.  An empty zspage is freed at once and has no group.
 */
#define ZS_FULL_GROUP		10
#define ZS_NR_GROUPS		(ZS_FULL_GROUP + 1)
/*
 * The group of a released zspage: empty, off the lists, being freed.  Read
 * without the class lock by migration's isolation, so written with WRITE_ONCE.
 */
#define ZS_DYING_GROUP		U8_MAX

/*
 * The location word kept in a handle's entry (handle.c):
 *
 *   | 0 | pfn of the page the object starts on | offset / 16 | size - 1 |
 *         BITS_PER_LONG - 1 - ZS_LOC_TAIL_BITS   PAGE_SHIFT-4  PAGE_SHIFT
 *
 * The requested size never changes during the life of a handle, so its size
 * class can be read from the entry without a lock; pfn and offset change when
 * compaction or migration moves the object, under the class lock.
 */
#define ZS_LOC_SIZE_BITS	PAGE_SHIFT
#define ZS_LOC_OFFSET_BITS	(PAGE_SHIFT - ZS_CLASS_DELTA_SHIFT)
#define ZS_LOC_TAIL_BITS	(ZS_LOC_SIZE_BITS + ZS_LOC_OFFSET_BITS)
/* Set in the location word of a free entry, never in a live one. */
#define ZS_LOC_FREED		BIT(BITS_PER_LONG - 1)

/*
 * A zspage's back-reference array has one u32 per object: the handle index
 * (handle.c) of an allocated object, 0 for a free one.  A bitmap beside it
 * says which objects are allocated, so that allocation takes the lowest free
 * index: objects fill a zspage in page order, and with on-demand backing its
 * pages are attached front to back.
 */

struct size_class;
struct zs_handle_cpu;

/* Free handle indices a CPU keeps, and moves to or from its pool at once. */
#define ZS_HANDLE_CPU_MAX	64
#define ZS_HANDLE_BATCH		(ZS_HANDLE_CPU_MAX / 2)

/* Entries of a chunk of the handle table: a page of location words. */
#define ZS_HANDLE_CHUNK_SHIFT	(PAGE_SHIFT - 3)
#define ZS_HANDLES_PER_CHUNK	BIT(ZS_HANDLE_CHUNK_SHIFT)

/**
 * struct zs_handle_chunk - ZS_HANDLES_PER_CHUNK entries of a handle table
 * @loc: their location words, a page; a free entry's holds ZS_LOC_FREED and
 *	the index of the next free entry (0: none)
 * @gen: their generations, half a page: an even chunk's the first half of
 *	a page, the chunk after it the second
 */
struct zs_handle_chunk {
	unsigned long *loc;
	u32 *gen;
};

/**
 * struct zs_handle_dir - the chunks of a handle table
 * @older: the directory this one replaced, kept until the pool goes
 * @nr: chunks it has room for
 * @chunk: the chunks, of which the first limit / ZS_HANDLES_PER_CHUNK are
 *	there
 */
struct zs_handle_dir {
	struct zs_handle_dir *older;
	unsigned int nr;
	struct zs_handle_chunk chunk[];
};

/**
 * struct zs_handles - a pool's table of handles (handle.c)
 * @dir: the chunks of entries; replaced (and the old one kept) as it grows
 * @limit: entries in the chunks: the indices below it exist
 * @unused: the entries from here to @limit have never been handed out
 * @free: first entry of the list of free entries, 0 if none
 * @seed: where the generations of the table's entries start
 * @lock: protects the fields above but @dir's readers, and the list
 * @cpu: free indices kept per CPU
 */
struct zs_handles {
	struct zs_handle_dir *dir;
	u32 limit;
	u32 unused;
	u32 free;
	u32 seed;
	spinlock_t lock;	/* see above */
	struct zs_handle_cpu __percpu *cpu;
};

/**
 * struct zspage - descriptor of one zspage (a chain of order-0 pages)
 * @list: link in @class->groups[@group]; once released (@group is
 *	ZS_DYING_GROUP), in the pool's deferred-free list or on none
 * @class: the size class; never changes
 * @inuse: objects allocated
 * @nr_backed: pages of @pages present
 * @group: current fullness group, or ZS_DYING_GROUP
 * @pinned: objects mapped now; raised under @class->lock, dropped without it
 * @pages: the pages of the chain; with on-demand backing, NULL where no
 *	object lies yet.  After them come, at offsets the class records, the
 *	allocation bitmap, one back-reference (u32) per object, and one byte
 *	per page counting the objects that lie (wholly or partly) on it.
 *
 * @class->lock protects all fields but @class and @pinned, and the arrays
 * after @pages; a released zspage's @list, the pool's free_lock.  The header
 * is 32 bytes on 64-bit: one-page zspages of a single object are a sixth of
 * zram's objects, and their descriptors are mostly header.
 */
struct zspage {
	struct list_head list;
	struct size_class *class;
	u16 inuse;
	u8 nr_backed;
	u8 group;
	atomic_t pinned;
	struct page *pages[];
};

/**
 * struct size_class - all zspages holding objects of one slot size
 * @lock: protects the fields below and the zspages of the class
 * @groups: zspages by fullness group
 * @size: slot size in bytes, a multiple of ZS_CLASS_DELTA
 * @objs_per_zspage: objects in one zspage
 * @pages_per_zspage: pages in one zspage
 * @refs_offset: where in a descriptor the back-references start
 * @map_offset: where the allocation bitmap starts
 * @users_offset: where the per-page object counts start
 * @desc_bytes: size of a descriptor
 * @desc_cache: where the zspage descriptors of this class come from
 * @zspages: zspages of the class, dying ones excluded
 * @pages: pages present in those zspages
 * @objs_used: objects allocated
 * @bytes_requested: sum of the requested sizes of allocated objects
 * @group_count: zspages in each fullness group
 * @groups_used: bit G set while group G has zspages
 * @filling: the zspage allocation fills, not full; its group may be short
 *	of its fullness (class_pick_zspage()), or NULL
 * @pool: the pool the class belongs to
 */
struct size_class {
	spinlock_t lock;	/* see above */
	struct list_head groups[ZS_NR_GROUPS];
	unsigned int size;
	unsigned int objs_per_zspage;
	unsigned int pages_per_zspage;
	unsigned int refs_offset;
	unsigned int map_offset;
	unsigned int users_offset;
	unsigned int desc_bytes;
	struct kmem_cache *desc_cache;
	unsigned long zspages;
	unsigned long pages;
	unsigned long objs_used;
	unsigned long bytes_requested;
	unsigned long group_count[ZS_NR_GROUPS];
	unsigned long groups_used;
	struct zspage *filling;
	struct zs_pool *pool;
} ____cacheline_aligned_in_smp;

/*
 * genksyms computes the modversion CRCs of our exports from their prototypes,
 * expanding every struct it can see.  The kernel's Module.symvers, which
 * zram.ko was linked against, has CRCs computed with struct zs_pool opaque,
 * as include/linux/zsmalloc.h declares it; so hide its body from genksyms.
 */
#ifndef __GENKSYMS__
/**
 * struct zs_pool - a pool of size classes
 * @name: name given at creation (debugfs directory, shrinker name)
 * @class_of_size: size class for each 16-byte size step; neighbouring steps
 *	with the same chain geometry share one class
 * @classes: the distinct classes, largest first
 * @nr_classes: how many there are
 * @pages_allocated: pages held by all zspages of the pool
 * @stats: public statistics (pages freed by compaction)
 * @huge_class_size: smallest request that costs a whole page
 * @compacting: set while zs_compact() runs, so only one runs at a time
 * @shrinker: calls zs_compact() under memory pressure
 * @free_lock: protects @free_list
 * @free_list: zspages whose pages could not be locked at once
 * @free_work: frees the zspages on @free_list, where it may sleep
 * @debugfs_dir: zsmalloc/<name> in debugfs
 * @handles: the handles of the pool's objects
 * @bad_calls: calls that named no live object (zs_bad_call())
 */
struct zs_pool {
	const char *name;
	struct size_class *class_of_size[ZS_NR_SIZES];
	struct size_class *classes[ZS_NR_SIZES];
	unsigned int nr_classes;
	atomic_long_t pages_allocated;
	struct zs_pool_stats stats;
	size_t huge_class_size;
	atomic_t compacting;
	struct shrinker *shrinker;
	spinlock_t free_lock;	/* protects free_list */
	struct list_head free_list;
	struct work_struct free_work;
	struct dentry *debugfs_dir;
	struct zs_handles handles;
	atomic_long_t bad_calls;
};
#endif /* __GENKSYMS__ */

/* Location word helpers. */
static inline unsigned long zs_loc(struct page *page, unsigned int offset,
				   size_t size)
{
	return page_to_pfn(page) << ZS_LOC_TAIL_BITS |
	       (unsigned long)(offset >> ZS_CLASS_DELTA_SHIFT) << ZS_LOC_SIZE_BITS |
	       (size - 1);
}

static inline struct page *zs_loc_page(unsigned long loc)
{
	return pfn_to_page(loc >> ZS_LOC_TAIL_BITS);
}

static inline unsigned int zs_loc_offset(unsigned long loc)
{
	return ((loc >> ZS_LOC_SIZE_BITS) & ((1UL << ZS_LOC_OFFSET_BITS) - 1))
		<< ZS_CLASS_DELTA_SHIFT;
}

static inline size_t zs_loc_size(unsigned long loc)
{
	return (loc & ((1UL << ZS_LOC_SIZE_BITS) - 1)) + 1;
}

/* Whether the object at @loc crosses into the next page of its zspage. */
static inline bool zs_loc_spans(unsigned long loc)
{
	return zs_loc_offset(loc) + zs_loc_size(loc) > PAGE_SIZE;
}

static inline unsigned int zs_size_index(size_t size)
{
	if (size <= ZS_MIN_ALLOC_SIZE)
		return 0;
	return DIV_ROUND_UP(size - ZS_MIN_ALLOC_SIZE, ZS_CLASS_DELTA);
}

static inline struct size_class *zs_class_of(struct zs_pool *pool, size_t size)
{
	return pool->class_of_size[zs_size_index(size)];
}

static inline u32 *zspage_refs(struct zspage *zspage)
{
	return (void *)zspage + zspage->class->refs_offset;
}

static inline unsigned long *zspage_map(struct zspage *zspage)
{
	return (void *)zspage + zspage->class->map_offset;
}

static inline u8 *zspage_users(struct zspage *zspage)
{
	return (void *)zspage + zspage->class->users_offset;
}

static inline unsigned int zspage_objs(struct zspage *zspage)
{
	return zspage->class->objs_per_zspage;
}

static inline struct zspage *page_zspage(struct page *page)
{
	return (struct zspage *)page_private(page);
}

/* Position of @page in its zspage's chain. */
static inline unsigned int zs_page_chain_pos(const struct page *page)
{
	return page->__folio_index;
}

static inline void zs_page_set_chain_pos(struct page *page, unsigned int pos)
{
	page->__folio_index = pos;
}

/* The page after @page in its zspage; the zspage is stable (locked or pinned). */
static inline struct page *zs_obj_next_page(struct page *page)
{
	return page_zspage(page)->pages[zs_page_chain_pos(page) + 1];
}

/* Index of the object that starts at @offset of @page, a page of @zspage. */
static inline unsigned int zspage_obj_index(struct zspage *zspage,
					    struct page *page,
					    unsigned int offset)
{
	return (zs_page_chain_pos(page) * PAGE_SIZE + offset) /
	       zspage->class->size;
}

/* handle.c */
int zs_handles_init(struct zs_handles *handles);
void zs_handles_destroy(struct zs_handles *handles);
unsigned long zs_handles_bytes(struct zs_handles *handles);
u32 zs_handle_get(struct zs_handles *handles, gfp_t gfp);
void zs_handle_put(struct zs_handles *handles, u32 idx);

/*
 * Looking entries up is inline: every call of the API does it, most twice.
 * The chunk of an index in the table: @idx below its limit.
 */
static inline struct zs_handle_chunk *zs_handle_chunk(struct zs_handles *handles,
						      u32 idx)
{
	return &READ_ONCE(handles->dir)->chunk[idx >> ZS_HANDLE_CHUNK_SHIFT];
}

/* An index's position in its chunk. */
static inline unsigned int zs_handle_pos(u32 idx)
{
	return idx & (ZS_HANDLES_PER_CHUNK - 1);
}

/* The index part of a handle. */
static inline u32 zs_handle_index(unsigned long handle)
{
	return lower_32_bits(handle);
}

/* The location word of an index in use (given, not yet put back). */
static inline unsigned long *zs_handle_loc(struct zs_handles *handles, u32 idx)
{
	return &zs_handle_chunk(handles, idx)->loc[zs_handle_pos(idx)];
}

/* The handle naming an index in use, in the entry's generation now. */
static inline unsigned long zs_handle_of(struct zs_handles *handles, u32 idx)
{
	u32 gen = READ_ONCE(zs_handle_chunk(handles, idx)->gen[zs_handle_pos(idx)]);

	return (unsigned long)gen << 32 | idx;
}

/**
 * struct zs_handle_entry - where the two words of a table entry are
 * @loc: its location word
 * @gen: its generation
 *
 * Chunks never move (handle.c), so they stay valid after any lock.
 */
struct zs_handle_entry {
	unsigned long *loc;
	u32 *gen;
};

/* The entry of an index below the table's limit. */
static inline void zs_handle_entry_of(struct zs_handles *handles, u32 idx,
				      struct zs_handle_entry *entry)
{
	struct zs_handle_chunk *chunk = zs_handle_chunk(handles, idx);
	unsigned int pos = zs_handle_pos(idx);

	entry->loc = &chunk->loc[pos];
	entry->gen = &chunk->gen[pos];
}

/**
 * zs_handle_lookup - the entry of a handle, if it names an object
 * @handles: the pool's table
 * @handle: any value
 * @entry: set to the entry
 *
 * Without the class lock the answer may be out of date by the time it is
 * used: the caller takes the lock of the class the location word names, and
 * checks the entry again under it.
 *
 * Context: any context but interrupt.
 * Return: false if @handle names no entry in use, or one of another
 * generation.
 */
static inline bool zs_handle_lookup(struct zs_handles *handles,
				    unsigned long handle,
				    struct zs_handle_entry *entry)
{
	u32 idx = zs_handle_index(handle);

	/* The acquire orders the directory and chunk after the limit. */
	if (!idx || idx >= smp_load_acquire(&handles->limit))
		return false;
	zs_handle_entry_of(handles, idx, entry);
	return READ_ONCE(*entry->gen) == upper_32_bits(handle) &&
	       !(READ_ONCE(*entry->loc) & ZS_LOC_FREED);
}

/*
 * Marks the entry of a freed object free: its handle names nothing from now
 * on.  zs_handle_put() gives the index back once the class lock is dropped.
 * Context: the lock of the class the object was in held.
 */
static inline void zs_handle_retire(struct zs_handle_entry *entry)
{
	WRITE_ONCE(*entry->loc, ZS_LOC_FREED);
	WRITE_ONCE(*entry->gen, *entry->gen + 1);
}

/* class.c */
extern unsigned int zs_max_pages_per_zspage;
extern bool zs_ondemand;
int zs_geometry_init(void);
void zs_geometry_exit(void);
unsigned int zs_step_size(unsigned int step);
struct size_class *size_class_create(struct zs_pool *pool, unsigned int step);
bool zs_geometry_same(unsigned int step, struct size_class *class);
bool zs_geometry_is_huge(unsigned int step);
void zspage_set_group(struct zspage *zspage);
void zspage_alloc_set_group(struct zspage *zspage);
void class_settle(struct size_class *class);
void class_link_zspage(struct size_class *class, struct zspage *zspage);
void class_unlink_zspage(struct size_class *class, struct zspage *zspage);
struct zspage *class_first_zspage(struct size_class *class);
struct zspage *class_pick_zspage(struct size_class *class);
unsigned long zs_class_freeable_pages(struct size_class *class);
unsigned long zs_pool_freeable_pages(struct zs_pool *pool);

/* zspage.c */
struct zspage *zspage_create(struct zs_pool *pool, struct size_class *class,
			     gfp_t gfp, int nid);
void zspage_alloc_obj(struct zs_pool *pool, struct zspage *zspage,
		      unsigned int idx, u32 handle_idx, size_t size,
		      struct page **spare);
void zspage_move_obj(struct zs_pool *pool, struct zspage *dst,
		     unsigned int dst_idx, struct page **spare,
		     struct zspage *src, unsigned int src_idx);
bool zspage_free_obj(struct zs_pool *pool, struct zspage *zspage,
		     unsigned int idx, struct zs_handle_entry *entry);
void zspage_drop_unused_pages(struct zs_pool *pool, struct zspage *zspage);
bool zspage_release(struct zspage *zspage);
void zspage_free(struct zs_pool *pool, struct zspage *zspage);
void zs_free_work(struct work_struct *work);
unsigned long zspage_obj_loc(struct zspage *zspage, unsigned int idx,
			     size_t size);
int zs_spare_fill(struct page **spare, unsigned int nr, gfp_t gfp, int nid);

/*
 * Frees the pages left in @spare.  Inline: every zs_malloc() ends with it,
 * and finds it empty but after a race (a call cost 13 instructions).  Its
 * pages are at its front (zs_spare_fill()).
 */
static inline void zs_spare_drop(struct page **spare)
{
	unsigned int i;

	for (i = 0; i < ZS_SLOT_MAX_PAGES && spare[i]; i++) {
		__free_page(spare[i]);
		spare[i] = NULL;
	}
}

/* Inline: allocation and compaction ask these of every slot they fill. */
/* The pages (first and last index) that object slot @idx lies on. */
static inline void zspage_slot_pages(struct zspage *zspage, unsigned int idx,
				     unsigned int *first, unsigned int *last)
{
	unsigned int size = zspage->class->size;

	*first = idx * size >> PAGE_SHIFT;
	*last = ((idx + 1) * size - 1) >> PAGE_SHIFT;
}

/**
 * zspage_missing_pages - how many pages object @idx would need attached
 * @zspage: the zspage
 * @idx: an object index
 *
 * Context: class->lock held.
 * Return: the number of absent pages under the slot, 0..ZS_SLOT_MAX_PAGES.
 */
static inline unsigned int zspage_missing_pages(struct zspage *zspage,
						unsigned int idx)
{
	unsigned int first, last, p, missing = 0;

	zspage_slot_pages(zspage, idx, &first, &last);
	for (p = first; p <= last; p++)
		missing += !zspage->pages[p];
	return missing;
}

/**
 * zspage_next_backed_hole - a free slot on pages a zspage holds
 * @zspage: the zspage
 * @from: the lowest object index to look at
 *
 * Context: class->lock held.
 * Return: the first free index from @from on whose slot needs no page
 * attached, or objs_per_zspage if there is none.
 */
static inline unsigned int zspage_next_backed_hole(struct zspage *zspage,
						   unsigned int from)
{
	unsigned int objs = zspage->class->objs_per_zspage;
	unsigned int idx = find_next_zero_bit(zspage_map(zspage), objs, from);

	while (idx < objs && zspage_missing_pages(zspage, idx))
		idx = find_next_zero_bit(zspage_map(zspage), objs, idx + 1);
	return idx;
}

/**
 * zspage_first_free - the object index the next allocation in @zspage takes
 * @zspage: a zspage that is not full
 *
 * Context: class->lock held.
 * Return: the lowest free index.
 */
static inline unsigned int zspage_first_free(struct zspage *zspage)
{
	return find_first_zero_bit(zspage_map(zspage),
				   zspage->class->objs_per_zspage);
}

/* access.c */
/**
 * zs_handle_class - the class of a handle's object
 * @pool: the pool
 * @handle: any value
 * @entry: set to the handle's entry
 *
 * To be locked before the handle is checked again (zs_handle_zspage()).
 *
 * Inline, as the lookup: every call of the API makes both checks.
 *
 * Context: any context but interrupt.
 * Return: the class, or NULL if @handle names no live object (0 and error
 * values included).
 */
static inline struct size_class *zs_handle_class(struct zs_pool *pool,
						 unsigned long handle,
						 struct zs_handle_entry *entry)
{
	if (!zs_handle_lookup(&pool->handles, handle, entry))
		return NULL;
	/* Even if it was freed since: any word gives some class of @pool. */
	return zs_class_of(pool, zs_loc_size(READ_ONCE(*entry->loc)));
}

/**
 * zs_handle_zspage - find the zspage holding the object of a handle
 * @handle: the handle
 * @entry: the entry zs_handle_class() found, whose class is locked
 * @locp: set to the object's location word
 * @idxp: set to the object's index in its zspage, unless NULL
 *
 * The entry is checked again, now that it cannot change: it names a live
 * object of the locked class, or nothing (the object was freed meanwhile,
 * and the entry may be another object's since).
 *
 * Context: class->lock held, or the object's zspage pinned.
 * Return: the zspage, or NULL for a handle that names no live object.
 */
static inline struct zspage *zs_handle_zspage(unsigned long handle,
					      struct zs_handle_entry *entry,
					      unsigned long *locp,
					      unsigned int *idxp)
{
	unsigned long loc = READ_ONCE(*entry->loc);
	struct zspage *zspage;
	struct page *page;

	/*
	 * Of the generation the lookup saw, so not freed since, and the class
	 * locked is its class (only 2^32 frees of the entry meanwhile could
	 * fool this).
	 */
	if (loc & ZS_LOC_FREED || READ_ONCE(*entry->gen) != upper_32_bits(handle))
		return NULL;
	page = zs_loc_page(loc);
	zspage = page_zspage(page);
	*locp = loc;
	if (idxp)
		*idxp = zspage_obj_index(zspage, page, zs_loc_offset(loc));
	return zspage;
}

/**
 * zs_obj_pin - find a handle's object and pin its zspage
 * @pool: the pool
 * @handle: the handle
 * @locp: set to the object's location word, stable until zs_obj_unpin()
 *
 * Inline: every read begins with it.
 *
 * Context: process context; takes the class lock.
 * Return: the pinned zspage, or NULL for a handle that names no live object.
 */
static inline struct zspage *zs_obj_pin(struct zs_pool *pool,
					unsigned long handle,
					unsigned long *locp)
{
	struct zs_handle_entry entry;
	struct size_class *class;
	struct zspage *zspage;

	class = zs_handle_class(pool, handle, &entry);
	if (!class)	/* names no object: the API's caller reports it */
		return NULL;
	spin_lock(&class->lock);
	zspage = zs_handle_zspage(handle, &entry, locp, NULL);
	if (zspage)
		atomic_inc(&zspage->pinned);
	spin_unlock(&class->lock);
	return zspage;
}

/**
 * zs_bad_call - report a call of the API on @pool that names no live object
 * @pool: the pool
 * @bad: whether the call does (a bad handle, a length not the object's, an
 *	unpaired end)
 *
 * Counts it (debugfs zsmalloc/<pool>/bad_calls), and warns at the first of
 * the pool, so that one pool's errors never hide another's.  Inline, so that
 * the warning names the function of the API that was called.
 *
 * Return: @bad.
 */
static __always_inline bool zs_bad_call(struct zs_pool *pool, bool bad)
{
	if (likely(!bad))
		return false;
	WARN(atomic_long_inc_return(&pool->bad_calls) == 1,
	     "zsmalloc: pool %s: a call names no live object\n", pool->name);
	return true;
}

void zs_obj_pieces(unsigned long loc, char *buf, bool to_obj);
struct zspage *zs_obj_find_pinned(struct zs_pool *pool, unsigned long handle,
				  unsigned long *locp);
void zs_obj_unpin(struct zs_pool *pool, struct zspage *zspage);

/* pool.c */
int zs_setup(void);
void zs_teardown(void);

/* shrinker.c */
int zs_shrinker_register(struct zs_pool *pool);
void zs_shrinker_unregister(struct zs_pool *pool);

/* migrate.c */
int zs_migrate_init(void);
void zs_migrate_exit(void);

/* stats.c */
void zs_stats_init(void);
void zs_stats_exit(void);
void zs_pool_debugfs_add(struct zs_pool *pool);
void zs_pool_debugfs_remove(struct zs_pool *pool);

#endif /* _ZS_INTERNAL_H */
