// SPDX-License-Identifier: GPL-2.0
/*
 * Getting at objects, for the object API (obj.c): finding a handle's object,
 * checking that the handle names a live one, pinning its zspage so that
 * neither compaction nor migration moves it, and copying objects in pieces.
 * What every call of the API does first is inline, in zs_internal.h.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/highmem.h>

#include "zs_internal.h"

/**
 * zs_obj_find_pinned - find the object of a handle pinned by zs_obj_pin()
 * @pool: the pool
 * @handle: the handle
 * @locp: set to the object's location word
 *
 * The pin keeps the object where it is, so no lock is taken.  A handle that
 * zs_obj_pin() refused names no object here either, nor does one whose
 * object its caller freed meanwhile (a use after free).
 *
 * Context: process context.
 * Return: its zspage, or NULL for a handle that names no live object.
 */
struct zspage *zs_obj_find_pinned(struct zs_pool *pool, unsigned long handle,
				  unsigned long *locp)
{
	struct zs_handle_entry entry;

	if (!zs_handle_class(pool, handle, &entry))
		return NULL;
	return zs_handle_zspage(handle, &entry, locp, NULL);
}

/**
 * zs_obj_unpin - undo zs_obj_pin()
 * @pool: the pool
 * @zspage: the zspage it returned
 *
 * An unpin that no pin matches is reported (zs_bad_call()) and undone, but
 * only when no other pin is held: pins are counted per zspage, so an unpaired
 * unpin of a zspage another reader pinned takes that reader's pin.
 *
 * Context: any context but interrupt.
 */
void zs_obj_unpin(struct zs_pool *pool, struct zspage *zspage)
{
	/* Fully ordered: our writes to the object come before a move. */
	if (zs_bad_call(pool, atomic_dec_return(&zspage->pinned) < 0))
		atomic_inc(&zspage->pinned);
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
