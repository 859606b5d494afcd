/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What Linux 6.12 lacks of what the allocator (src/, written for 7.2) uses,
 * in 7.2's own names.  Every file of the allocator is compiled with this
 * header included first (-include, see Kbuild here): 6.12's series carries
 * it beside the allocator's files, the 6.1 module includes it through
 * compat/6.1/compat.h.
 *
 *  - Movable pages.  7.2 finds a page's movable_operations by its type
 *    (PGTY_zsmalloc, registered once with set_movable_ops()); the type and
 *    PG_movable_ops stay until the page is freed.  6.12 keeps the operations
 *    in page->mapping, set per page with __SetPageMovable(); that mark must be
 *    gone before the page is freed, under the page lock.  The allocator takes
 *    a page with PG_private set and gives it back after ClearPagePrivate(),
 *    both under the page lock, so the mark follows PG_private here.
 *  - A page's position in its zspage: page->index, which 7.2 calls
 *    __folio_index.
 *  - zs_malloc() gained the node to allocate from in 7.0: src/ defines it
 *    with one (as zs_malloc_node() here), map.c exports 6.12's zs_malloc().
 *  - Objects are mapped (zs_map_object(), map.c) rather than read and
 *    written (7.2's obj.c), and zswap allocates through zpool (zpool.c).
 */
#ifndef _ZS_COMPAT_6_12_H
#define _ZS_COMPAT_6_12_H

/* As every file of the allocator defines it, before the includes below. */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/migrate.h>
#include <linux/mm_types.h>
#include <linux/page-flags.h>
#include <linux/pagemap.h>
#include <linux/slab.h>
#include <linux/zsmalloc.h>

extern const struct movable_operations zsmalloc_mops;

static inline bool zs_compat_page_is_zsmalloc(struct page *page)
{
	return __PageMovable(page) && page_movable_ops(page) == &zsmalloc_mops;
}

static inline void zs_compat_clear_page_private(struct page *page)
{
	if (__PageMovable(page))
		__ClearPageMovable(page);
	folio_clear_private(page_folio(page));
}

/* The operations are set with the type: nothing more to mark. */
static inline void SetPageMovableOps(struct page *page)
{
}

#define set_movable_ops(ops, type)	({ (void)(ops); 0; })
#define __SetPageZsmalloc(page)		__SetPageMovable(page, &zsmalloc_mops)
#define PageZsmalloc(page)		zs_compat_page_is_zsmalloc(page)
#define ClearPagePrivate(page)		zs_compat_clear_page_private(page)

#define __folio_index			index

#define zs_malloc			zs_malloc_node
unsigned long zs_malloc_node(struct zs_pool *pool, size_t size, gfp_t gfp,
			     const int nid);

/* map.c */
int zs_map_init(void);
void zs_map_exit(void);

/* zpool.c, built where the kernel has zpool (CONFIG_ZPOOL, for zswap) */
#if IS_ENABLED(CONFIG_ZPOOL)
int zs_zpool_init(void);
void zs_zpool_exit(void);
#else
static inline int zs_zpool_init(void)
{
	return 0;
}

static inline void zs_zpool_exit(void)
{
}
#endif

#endif /* _ZS_COMPAT_6_12_H */
