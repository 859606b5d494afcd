// SPDX-License-Identifier: GPL-2.0
/*
 * Getting at objects, whatever the kernel's API for it (map.c, obj.c):
 * finding a handle's object and pinning its zspage, so that neither
 * compaction nor migration moves it, and copying objects in pieces.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/highmem.h>

#include "compat.h"
#include "zs_internal.h"

/**
 * zs_obj_pin - find a handle's object and pin its zspage
 * @pool: the pool
 * @handle: the handle
 * @locp: set to the object's location word, stable until zs_obj_unpin()
 *
 * Context: process context; takes the class lock.
 * Return: the pinned zspage, or NULL for a handle that names no live object.
 */
struct zspage *zs_obj_pin(struct zs_pool *pool, unsigned long handle,
			  unsigned long *locp)
{
	struct size_class *class = zs_handle_class(pool, handle);
	struct zspage *zspage;

	if (!class)	/* no handle at all: the API's caller reports it */
		return NULL;
	spin_lock(&class->lock);
	zspage = zs_handle_zspage(class, handle, locp, NULL, true);
	if (zspage)
		atomic_inc(&zspage->pinned);
	spin_unlock(&class->lock);
	return zspage;
}

/**
 * zs_obj_find_pinned - find the object of a handle pinned by zs_obj_pin()
 * @pool: the pool
 * @handle: the handle
 * @locp: set to the object's location word
 *
 * The pin keeps the object where it is, so no lock is taken.  A handle that
 * zs_obj_pin() refused is checked again as it was there; only if its caller
 * also freed or moved the object meanwhile (a use after free) can the check
 * read a zspage being freed.
 *
 * Context: process context.
 * Return: its zspage, or NULL for a handle that names no live object.
 */
struct zspage *zs_obj_find_pinned(struct zs_pool *pool, unsigned long handle,
				  unsigned long *locp)
{
	struct size_class *class = zs_handle_class(pool, handle);

	if (!class)
		return NULL;
	return zs_handle_zspage(class, handle, locp, NULL, true);
}

/**
 * zs_obj_unpin - undo zs_obj_pin()
 * @zspage: the zspage it returned
 *
 * An unpin that no pin matches is reported once and undone.
 *
 * Context: any context but interrupt.
 */
void zs_obj_unpin(struct zspage *zspage)
{
	/* Fully ordered: our writes to the object come before a move. */
	if (WARN_ON_ONCE(atomic_dec_return(&zspage->pinned) < 0))
		atomic_inc(&zspage->pinned);
}

/**
 * zs_obj_next_page - the page after @page in its zspage
 * @page: a page of a zspage, not its last
 *
 * Context: the zspage stable: class lock held or zspage pinned.
 * Return: the next page.
 */
struct page *zs_obj_next_page(struct page *page)
{
	return page_zspage(page)->pages[zs_page_chain_pos(page) + 1];
}

/**
 * zs_obj_pieces - copy an object into a buffer, or a buffer into it
 * @loc: the object's location word
 * @buf: the buffer, of the object's size
 * @to_obj: copy @buf into the object, else the object into @buf
 *
 * In at most two pieces, one per page.
 *
 * Context: @loc stable: class lock held or zspage pinned.
 */
void zs_obj_pieces(unsigned long loc, char *buf, bool to_obj)
{
	struct page *page = zs_loc_page(loc);
	unsigned int offset = zs_loc_offset(loc);
	size_t size = zs_loc_size(loc);

	while (size) {
		size_t piece = min_t(size_t, size, PAGE_SIZE - offset);

		if (to_obj)
			memcpy_to_page(page, offset, buf, piece);
		else
			memcpy_from_page(buf, page, offset, piece);
		buf += piece;
		size -= piece;
		if (size)
			page = zs_obj_next_page(page);
		offset = 0;
	}
}

/**
 * zs_obj_copy - copy an object to a new location
 * @dst_loc: location word of the destination (same size)
 * @src_loc: location word of the object
 *
 * Context: class->lock held; may run in atomic context.
 */
void zs_obj_copy(unsigned long dst_loc, unsigned long src_loc)
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
