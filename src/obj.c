// SPDX-License-Identifier: GPL-2.0
/*
 * Reading and writing objects.  A reader may sleep, be preempted or move to
 * another CPU between zs_obj_read_begin() and zs_obj_read_end() (zswap waits
 * for an asynchronous decompressor, zram holds a mutex), so nothing here is
 * per-CPU and no lock is held across the two: the read pins the object's
 * zspage, which compaction and migration leave alone until it is unpinned.
 * An object in one page is read where it lies; one that spans two pages is
 * copied into the buffer the caller passes.  A write copies the caller's
 * bytes into the object under the class lock.
 *
 * A handle that names no live object is reported (zs_bad_call(): counted,
 * and the pool's first with a warning): a read then sees the zero page, a
 * write goes nowhere, and no object and no zspage is touched.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/highmem.h>
#include <linux/module.h>
#include <linux/scatterlist.h>

#include "zs_internal.h"

/*
 * Pins the object of @handle if it is live and @mem_len bytes long: a read of
 * another length is a caller's bug, answered like a bad handle.
 */
static struct zspage *zs_obj_pin_len(struct zs_pool *pool,
				     unsigned long handle, size_t mem_len,
				     unsigned long *locp)
{
	struct zspage *zspage = zs_obj_pin(pool, handle, locp);

	if (zspage && mem_len != zs_loc_size(*locp)) {
		zs_obj_unpin(pool, zspage);
		return NULL;
	}
	return zspage;
}

/* What a read of a bad handle sees: zeroes, and its end knows it by them. */
static void *zs_obj_zeroes(void)
{
	return page_address(ZERO_PAGE(0));
}

/**
 * zs_obj_read_begin - start reading an object
 * @pool: the pool the object belongs to
 * @handle: its handle
 * @mem_len: its size, as allocated
 * @local_copy: @mem_len bytes for a copy of an object that spans two pages;
 *	may be NULL for objects of PAGE_SIZE, which never span
 *
 * The object's zspage stays pinned until zs_obj_read_end(): whatever size
 * and handle that is given must be this call's.
 *
 * Context: process context; may sleep until zs_obj_read_end(), which the
 * same task must call.
 * Return: the object's bytes, contiguous, until zs_obj_read_end(): where it
 * lies, or in @local_copy; the zero page for a bad handle (nothing pinned).
 */
void *zs_obj_read_begin(struct zs_pool *pool, unsigned long handle,
			size_t mem_len, void *local_copy)
{
	struct zspage *zspage;
	unsigned long loc;

	zspage = zs_obj_pin_len(pool, handle, mem_len, &loc);
	if (zs_bad_call(pool, !zspage))
		return zs_obj_zeroes();
	if (!zs_loc_spans(loc))
		return kmap_local_page(zs_loc_page(loc)) + zs_loc_offset(loc);
	if (zs_bad_call(pool, !local_copy)) {
		zs_obj_unpin(pool, zspage);
		return zs_obj_zeroes();
	}
	zs_obj_pieces(loc, local_copy, false);
	return local_copy;
}
EXPORT_SYMBOL_GPL(zs_obj_read_begin);

/**
 * zs_obj_read_end - end a read begun by zs_obj_read_begin()
 * @pool: the pool the object belongs to
 * @handle: its handle
 * @mem_len: its size, as allocated
 * @handle_mem: what zs_obj_read_begin() returned
 *
 * The handle is not checked again: unless the begin gave the zero page, it
 * named a live object, which its pin keeps in place.
 *
 * Context: the task that called zs_obj_read_begin().
 */
void zs_obj_read_end(struct zs_pool *pool, unsigned long handle,
		     size_t mem_len, void *handle_mem)
{
	unsigned long loc;

	if (handle_mem == zs_obj_zeroes())
		return;
	loc = READ_ONCE(*zs_handle_loc(&pool->handles, zs_handle_index(handle)));
	if (!zs_loc_spans(loc))
		kunmap_local(handle_mem);
	zs_obj_unpin(pool, page_zspage(zs_loc_page(loc)));
}
EXPORT_SYMBOL_GPL(zs_obj_read_end);

/**
 * zs_obj_read_sg_begin - start reading an object through a scatterlist
 * @pool: the pool the object belongs to
 * @handle: its handle
 * @sg: two entries, set to the one or two pieces of the object
 * @mem_len: its size, as allocated
 *
 * Nothing is mapped: the caller (an asynchronous decompressor) reads the
 * pages, and may sleep, until zs_obj_read_sg_end().
 *
 * Context: process context.
 */
void zs_obj_read_sg_begin(struct zs_pool *pool, unsigned long handle,
			  struct scatterlist *sg, size_t mem_len)
{
	struct zspage *zspage;
	unsigned long loc;
	unsigned int offset;
	size_t first;

	zspage = zs_obj_pin(pool, handle, &loc);
	if (zs_bad_call(pool, !zspage)) {
		sg_init_table(sg, 1);
		sg_set_page(sg, ZERO_PAGE(0), mem_len, 0);
		return;
	}
	/* The end has no length to check: describe no more than the object. */
	if (zs_bad_call(pool, mem_len != zs_loc_size(loc)))
		mem_len = min(mem_len, zs_loc_size(loc));
	offset = zs_loc_offset(loc);
	first = min_t(size_t, mem_len, PAGE_SIZE - offset);
	if (first == mem_len) {
		sg_init_table(sg, 1);
		sg_set_page(sg, zs_loc_page(loc), mem_len, offset);
		return;
	}
	sg_init_table(sg, 2);
	sg_set_page(&sg[0], zs_loc_page(loc), first, offset);
	sg_set_page(&sg[1], zs_obj_next_page(zs_loc_page(loc)),
		    mem_len - first, 0);
}
EXPORT_SYMBOL_GPL(zs_obj_read_sg_begin);

/**
 * zs_obj_read_sg_end - end a read begun by zs_obj_read_sg_begin()
 * @pool: the pool the object belongs to
 * @handle: its handle
 *
 * Context: process context.
 */
void zs_obj_read_sg_end(struct zs_pool *pool, unsigned long handle)
{
	struct zspage *zspage;
	unsigned long loc;

	zspage = zs_obj_find_pinned(pool, handle, &loc);
	if (zspage)
		zs_obj_unpin(pool, zspage);
}
EXPORT_SYMBOL_GPL(zs_obj_read_sg_end);

/**
 * zs_obj_write - write an object
 * @pool: the pool the object belongs to
 * @handle: its handle
 * @handle_mem: the bytes to write
 * @mem_len: how many: the object's size, as allocated
 *
 * Context: process or atomic context, not interrupt context; takes the class
 * lock.
 */
void zs_obj_write(struct zs_pool *pool, unsigned long handle,
		  void *handle_mem, size_t mem_len)
{
	struct zs_handle_entry entry;
	struct size_class *class;
	struct zspage *zspage;
	unsigned long loc;

	class = zs_handle_class(pool, handle, &entry);
	if (zs_bad_call(pool, !class))
		return;
	spin_lock(&class->lock);
	zspage = zs_handle_zspage(handle, &entry, &loc, NULL);
	if (!zs_bad_call(pool, !zspage || mem_len != zs_loc_size(loc)))
		zs_obj_pieces(loc, handle_mem, true);
	spin_unlock(&class->lock);
}
EXPORT_SYMBOL_GPL(zs_obj_write);
