// SPDX-License-Identifier: GPL-2.0
/*
 * Page migration: the pages of zspages are movable, so that the kernel's
 * memory compaction, CMA and memory offlining can move them.
 *
 * Our pages are typed PGTY_zsmalloc and flagged MovableOps: the migration
 * core finds our operations by that type, registered once.  Type and flag
 * stay until the page is freed, so the core may still call us for a page we
 * have let go of: page->private is 0 then.
 *
 * The migration core calls us with the page locked.  A zspage is freed only
 * with all its pages locked (zspage.c), so while we hold a page lock its
 * zspage stays; the class lock then orders us with allocation, free,
 * compaction and reads.  A page whose zspage has an object being read is
 * refused with -EBUSY (the reader may sleep), one whose zspage is being freed
 * with -EAGAIN (the core tries again soon, and finds the page let go of).
 * After the copy, the handle entries of the objects that start on the page
 * are pointed at the new page; objects that only end on it need no change.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/highmem.h>
#include <linux/migrate.h>
#include <linux/module.h>
#include <linux/pagemap.h>
#include <linux/vmstat.h>

#include "zs_internal.h"

static bool zs_page_isolate(struct page *page, isolate_mode_t mode)
{
	/* A page we let go of (the core may still call) is not ours to move. */
	if (!page_private(page))
		return false;
	/* Page locked: the zspage stays.  A dying one is not worth moving. */
	return READ_ONCE(page_zspage(page)->group) != ZS_DYING_GROUP;
}

/* Points the slots of the objects that start on page @i at its new page. */
static void zspage_move_slots(struct zspage *zspage, unsigned int i)
{
	unsigned int size = zspage->class->size;
	unsigned int first = DIV_ROUND_UP(i * PAGE_SIZE, size);
	unsigned int end = min_t(unsigned int, zspage->class->objs_per_zspage,
				 DIV_ROUND_UP((i + 1) * PAGE_SIZE, size));
	struct zs_handles *handles = &zspage->class->pool->handles;
	u32 *refs = zspage_refs(zspage);
	struct page *page = zspage->pages[i];
	unsigned int idx = first;

	for_each_set_bit_from(idx, zspage_map(zspage), end) {
		unsigned long *slot = zs_handle_loc(handles, refs[idx]);
		unsigned long loc = READ_ONCE(*slot);

		WRITE_ONCE(*slot, zs_loc(page, zs_loc_offset(loc),
					 zs_loc_size(loc)));
	}
}

static int zs_page_migrate(struct page *dst, struct page *src,
			   enum migrate_mode mode)
{
	struct zspage *zspage = page_zspage(src);
	unsigned int i = zs_page_chain_pos(src);
	struct size_class *class;

	/* Let go of since isolation: nothing to move, the core frees it. */
	if (!zspage)
		return 0;
	class = zspage->class;

	spin_lock(&class->lock);
	/*
	 * A reader may sleep with its pin (zram, zswap decompress): not worth
	 * the core's immediate retries, which -EAGAIN asks for.
	 */
	if (atomic_read_acquire(&zspage->pinned)) {
		spin_unlock(&class->lock);
		return -EBUSY;
	}
	/* A page given back waits for our page lock: it cannot be here. */
	if (WARN_ON_ONCE(zspage->pages[i] != src) ||
	    zspage->group == ZS_DYING_GROUP) {
		spin_unlock(&class->lock);
		return -EAGAIN;
	}
	copy_highpage(dst, src);
	set_page_private(dst, (unsigned long)zspage);
	SetPagePrivate(dst);
	zs_page_set_chain_pos(dst, i);
	__SetPageZsmalloc(dst);
	SetPageMovableOps(dst);
	zspage->pages[i] = dst;
	zspage_move_slots(zspage, i);
	spin_unlock(&class->lock);

	/* The zspage's reference moves from @src to @dst. */
	get_page(dst);
	inc_zone_page_state(dst, NR_ZSPAGES);
	dec_zone_page_state(src, NR_ZSPAGES);
	ClearPagePrivate(src);
	set_page_private(src, 0);
	zs_page_set_chain_pos(src, 0);
	put_page(src);
	return 0;
}

static void zs_page_putback(struct page *page)
{
	/* Isolation changed nothing of ours. */
}

const struct movable_operations zsmalloc_mops = {
	.isolate_page = zs_page_isolate,
	.migrate_page = zs_page_migrate,
	.putback_page = zs_page_putback,
};

/**
 * zs_migrate_init - tell the migration core how to move our pages
 *
 * Return: 0 or -errno.
 */
int zs_migrate_init(void)
{
	return set_movable_ops(&zsmalloc_mops, PGTY_zsmalloc);
}

/**
 * zs_migrate_exit - undo zs_migrate_init()
 */
void zs_migrate_exit(void)
{
	set_movable_ops(NULL, PGTY_zsmalloc);
}
