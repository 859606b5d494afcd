/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Differences between the kernels this module builds for, in one place.
 * Today: 6.1 (Debian 12); the shrinker API changed in 6.7.  What later
 * kernels change about movable pages, page fields, migration modes and
 * error codes goes through the helpers below, so that the allocator's files
 * name no kernel version.
 */
#ifndef _ZS_COMPAT_H
#define _ZS_COMPAT_H

#include <linux/migrate.h>
#include <linux/mm_types.h>
#include <linux/page-flags.h>
#include <linux/shrinker.h>
#include <linux/slab.h>
#include <linux/version.h>

typedef unsigned long (*zs_shrink_fn)(struct shrinker *shrinker,
				      struct shrink_control *sc);

#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 7, 0)

static inline struct shrinker *zs_shrinker_create(zs_shrink_fn count,
						  zs_shrink_fn scan,
						  void *data, const char *name)
{
	struct shrinker *shrinker = shrinker_alloc(0, "zs-%s", name);

	if (!shrinker)
		return NULL;
	shrinker->count_objects = count;
	shrinker->scan_objects = scan;
	shrinker->seeks = DEFAULT_SEEKS;
	shrinker->private_data = data;
	shrinker_register(shrinker);
	return shrinker;
}

static inline void zs_shrinker_destroy(struct shrinker *shrinker)
{
	shrinker_free(shrinker);
}

static inline void *zs_shrinker_data(struct shrinker *shrinker)
{
	return shrinker->private_data;
}

#else /* before 6.7: the caller embeds and registers struct shrinker */

struct zs_compat_shrinker {
	struct shrinker shrinker;
	void *data;
};

static inline struct shrinker *zs_shrinker_create(zs_shrink_fn count,
						  zs_shrink_fn scan,
						  void *data, const char *name)
{
	struct zs_compat_shrinker *cs = kzalloc(sizeof(*cs), GFP_KERNEL);

	if (!cs)
		return NULL;
	cs->shrinker.count_objects = count;
	cs->shrinker.scan_objects = scan;
	cs->shrinker.seeks = DEFAULT_SEEKS;
	cs->data = data;
	if (register_shrinker(&cs->shrinker, "zs-%s", name)) {
		kfree(cs);
		return NULL;
	}
	return &cs->shrinker;
}

static inline void zs_shrinker_destroy(struct shrinker *shrinker)
{
	unregister_shrinker(shrinker);
	kfree(container_of(shrinker, struct zs_compat_shrinker, shrinker));
}

static inline void *zs_shrinker_data(struct shrinker *shrinker)
{
	return container_of(shrinker, struct zs_compat_shrinker, shrinker)->data;
}

#endif

/*
 * The kernels built for: 6.1 (module), 6.12 and 7.2 (patch series).  Where a
 * change landed in between is not checked: the boundaries below only need to
 * tell these apart.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)

/* include/linux/zsmalloc.h declares zs_lookup_class_index() (zram uses it). */
#define ZS_HAVE_LOOKUP_CLASS_INDEX	1

/* zswap counts -ENOSPC as a page that compressed poorly. */
#define ZS_ERR_TOO_BIG		(-ENOSPC)

/* MIGRATE_SYNC_NO_COPY is gone: the core always leaves the copy to us. */
static inline bool zs_migrate_copies(enum migrate_mode mode)
{
	return true;
}

#else

#define ZS_HAVE_LOOKUP_CLASS_INDEX	0
#define ZS_ERR_TOO_BIG		(-EINVAL)

/* Whether migration in @mode copies the page's contents (or leaves it to us). */
static inline bool zs_migrate_copies(enum migrate_mode mode)
{
	return mode != MIGRATE_SYNC_NO_COPY;
}

#endif

#if LINUX_VERSION_CODE >= KERNEL_VERSION(7, 0, 0)

/* zs_malloc() takes the node new pages should come from. */
#define ZS_MALLOC_TAKES_NID	1

/*
 * 7.2: our pages are typed PGTY_zsmalloc and flagged MovableOps; the core
 * finds the operations by page type (registered once).  Type and flag stay
 * until the page is freed, so the core may still call us for a page we have
 * let go of: page->private is 0 then.  page->index became __folio_index.
 */
#define ZS_MIGRATE_SUCCESS	0

static inline int zs_movable_ops_register(const struct movable_operations *ops)
{
	return set_movable_ops(ops, PGTY_zsmalloc);
}

static inline void zs_movable_ops_unregister(void)
{
	set_movable_ops(NULL, PGTY_zsmalloc);
}

static inline unsigned int zs_page_chain_pos(const struct page *page)
{
	return page->__folio_index;
}

static inline void zs_page_set_chain_pos(struct page *page, unsigned int pos)
{
	page->__folio_index = pos;
}

static inline void zs_page_set_movable(struct page *page,
				       const struct movable_operations *ops)
{
	__SetPageZsmalloc(page);
	SetPageMovableOps(page);
}

static inline void zs_page_clear_movable(struct page *page)
{
}

static inline bool zs_page_has_movable_ops(struct page *page,
					   const struct movable_operations *ops)
{
	return PageZsmalloc(page) && page_private(page);
}

#else

#define ZS_MALLOC_TAKES_NID	0

/*
 * 6.1 and 6.12: a page is ours while it is movable with our operations
 * (page->mapping); clearing that is how it leaves us.
 */
#define ZS_MIGRATE_SUCCESS	MIGRATEPAGE_SUCCESS

static inline int zs_movable_ops_register(const struct movable_operations *ops)
{
	return 0;
}

static inline void zs_movable_ops_unregister(void)
{
}

static inline unsigned int zs_page_chain_pos(const struct page *page)
{
	return page->index;
}

static inline void zs_page_set_chain_pos(struct page *page, unsigned int pos)
{
	page->index = pos;
}

static inline void zs_page_set_movable(struct page *page,
				       const struct movable_operations *ops)
{
	__SetPageMovable(page, ops);
}

static inline void zs_page_clear_movable(struct page *page)
{
	__ClearPageMovable(page);
}

static inline bool zs_page_has_movable_ops(struct page *page,
					   const struct movable_operations *ops)
{
	return __PageMovable(page) && page_movable_ops(page) == ops;
}

#endif

/*
 * The default longest chain: the kernel's own setting where it has one
 * (6.2 on, CONFIG_ZSMALLOC_CHAIN_SIZE), else the longest we support.
 */
#ifdef CONFIG_ZSMALLOC_CHAIN_SIZE
#define ZS_DEFAULT_CHAIN_PAGES	CONFIG_ZSMALLOC_CHAIN_SIZE
#else
#define ZS_DEFAULT_CHAIN_PAGES	ZS_MAX_PAGES_PER_ZSPAGE
#endif

/* 7.x allocates by type, kzalloc_obj(*p, gfp); earlier kernels by size. */
#ifndef kzalloc_obj
#define kzalloc_obj(P, GFP)	kzalloc(sizeof(P), GFP)
#endif

#endif /* _ZS_COMPAT_H */
