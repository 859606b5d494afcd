/* SPDX-License-Identifier: GPL-2.0 */
/*
 * zst_api.h - the zs_* API of each kernel, as test_zsmalloc.ko uses it
 *
 * test_zsmalloc.ko (and bench/zs_bench.c) build for three kernels: 6.1 (Debian 12, a module),
 * 6.12 and 7.2 (the patch series).  What differs between their APIs is
 * wrapped here, so that the test's functions name no kernel version:
 *
 *  - zs_malloc() takes a node from 7.0 on: zst_malloc_node() passes it
 *    there (6.x has none to pass), zst_malloc() passes NUMA_NO_NODE.
 *  - A size over PAGE_SIZE fails with -ENOSPC, and on 6.1 with -EINVAL too
 *    (ZST_ERR_TOO_BIG_TOO): 6.1's own allocator says so, ours -ENOSPC as
 *    from 6.12 on; a size of 0 fails with -EINVAL everywhere.
 *  - Include paths and allocation helpers: <linux/unaligned.h> from 6.12
 *    on, kzalloc_obj() from 7.x on.
 *  - 6.x maps an object (zs_map_object(), ZS_MM_RO, WO or RW, and
 *    zs_unmap_object()); 7.x (ZST_API_7) has no mapping: zs_obj_read_begin() and
 *    zs_obj_read_end() read an object in place, or in a copy the caller
 *    provides if it spans two pages; zs_obj_read_sg_begin() and
 *    zs_obj_read_sg_end() describe it as a scatterlist of one or two
 *    pieces; zs_obj_write() writes a whole object from a buffer.
 *
 * zst_write() writes a whole object from a buffer: zs_obj_write() on 7.x,
 * a ZS_MM_WO mapping and a copy on 6.x.
 *
 * A read may sleep on 7.x (ZST_API_7): zram and zswap decompress
 * between zs_obj_read_begin() and zs_obj_read_end().  zst_take_page() takes
 * a page out of the buddy allocator wherever it is used, migrating what
 * lies on it (alloc_contig_range(), 7.x with CONFIG_CONTIG_ALLOC: then
 * ZST_CAN_TAKE_PAGE; elsewhere -EOPNOTSUPP), zst_give_page() frees it.
 *
 * zst_map() and zst_unmap() give both the 6.x shape: on 7.x a read (ZST_RO)
 * is zs_obj_read_begin()..zs_obj_read_end() with @scratch as the local copy,
 * a write (ZST_WO) is made in @scratch and written whole by zs_obj_write() at
 * zst_unmap(), and ZST_RW reads the object into @scratch first (an object
 * of PAGE_SIZE is read with no local copy, as zram does).  @scratch is
 * PAGE_SIZE bytes the caller allocated beforehand (no helper here allocates:
 * the faults case fails the allocations of its kthreads); 6.x ignores it.
 *
 * The kernel version is tested here only, as src/compat.h does for the
 * allocator (the test does not include src/: it runs against the stock
 * allocator too).  The includer defines zst_expect_warning(), which
 * announces a kernel warning to the harness (the test's zst.h does).
 */
#ifndef _ZST_API_H
#define _ZST_API_H

#include <linux/highmem.h>
#include <linux/numa.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/types.h>
#include <linux/version.h>
#include <linux/zsmalloc.h>

#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
#include <linux/unaligned.h>
#define ZST_ERR_TOO_BIG_TOO	(-ENOSPC)
#else
#include <asm/unaligned.h>
#define ZST_ERR_TOO_BIG_TOO	(-EINVAL)
#endif

/* 7.x allocates by type, kzalloc_obj(*p, gfp); earlier kernels by size. */
#ifndef kzalloc_obj
#define kzalloc_obj(P, GFP)	kzalloc(sizeof(P), GFP)
#endif

/*
 * How an object is accessed: read (ZST_RO), written whole (ZST_WO), or read
 * and then written (ZST_RW).  With ZST_BAD added, the handle names no live
 * object: each zs_* call then made is announced (zst_expect_warning()),
 * since our allocator warns once at each.
 */
enum zst_mode {
	ZST_RO = 1,
	ZST_WO = 2,
	ZST_RW = ZST_RO | ZST_WO,
	ZST_BAD = 4,
};

static void zst_expect_warning(const char *fn);

#if LINUX_VERSION_CODE >= KERNEL_VERSION(7, 0, 0)

/*
 * 7.x's API: zs_malloc() takes a node; reads begin and end (they may sleep
 * in between), one of them by scatterlist, through which zst_read_sg() reads.
 */
#define ZST_API_7		1
#define ZST_SG_READ		"sg read"

#ifdef CONFIG_CONTIG_ALLOC
#define ZST_CAN_TAKE_PAGE	1

static inline int zst_take_page(unsigned long pfn)
{
	return alloc_contig_range(pfn, pfn + 1, ACR_FLAGS_NONE,
				  GFP_KERNEL | __GFP_NOWARN);
}

static inline void zst_give_page(unsigned long pfn)
{
	free_contig_range(pfn, 1);
}
#endif

static inline unsigned long zst_malloc_node(struct zs_pool *pool, size_t size,
					    gfp_t gfp, int nid)
{
	return zs_malloc(pool, size, gfp, nid);
}

/* Whether an access in @mode reads the object (a bad handle's: zeroes). */
static inline bool zst_reads(enum zst_mode mode)
{
	return mode & ZST_RO;
}

/**
 * zst_map() - start an access to the object of @handle
 * @pool: its pool
 * @handle: its handle
 * @mode: ZST_RO, ZST_WO or ZST_RW, maybe with ZST_BAD
 * @len: its size, as allocated
 * @scratch: PAGE_SIZE bytes of the caller's
 *
 * Context: no sleeping and no other object accessed until zst_unmap() (the
 * rules of the 6.x mapping, which this stands for).
 * Return: the object's @len bytes: for ZST_RO where zs_obj_read_begin() put
 * them (in place, or in @scratch if the object spans two pages), else in
 * @scratch, where a write must go.
 */
static inline void *zst_map(struct zs_pool *pool, unsigned long handle,
			    enum zst_mode mode, size_t len, void *scratch)
{
	void *mem;

	if (!(mode & ZST_RO))
		return scratch;
	if (mode & ZST_BAD)
		zst_expect_warning("zs_obj_read_begin");
	/*
	 * As zram reads: an object of PAGE_SIZE never spans two pages, so
	 * it needs no local copy (and a bad handle's read then gets our
	 * allocator's other stand-in, the zero page).
	 */
	mem = zs_obj_read_begin(pool, handle, len,
				len == PAGE_SIZE ? NULL : scratch);
	if (!(mode & ZST_WO))
		return mem;
	if (mem != scratch)
		memcpy(scratch, mem, len);
	zs_obj_read_end(pool, handle, len, mem);
	return scratch;
}

/* End an access begun by zst_map() (@mem: what it returned); write it back. */
static inline void zst_unmap(struct zs_pool *pool, unsigned long handle,
			     enum zst_mode mode, size_t len, void *scratch,
			     void *mem)
{
	if (!(mode & ZST_WO)) {
		zs_obj_read_end(pool, handle, len, mem);
		return;
	}
	if (mode & ZST_BAD)
		zst_expect_warning("zs_obj_write");
	zs_obj_write(pool, handle, scratch, len);
}

/* Write @len bytes from @src as the object's contents, as zram does. */
static inline void zst_write(struct zs_pool *pool, unsigned long handle,
			     void *src, size_t len)
{
	zs_obj_write(pool, handle, src, len);
}

/*
 * The end of a read that never began, of a live object (which our allocator
 * ignores, warning once where it finds nothing to unpin).
 */
static inline void zst_end_unpaired(struct zs_pool *pool, unsigned long handle)
{
	zst_expect_warning("zs_obj_unpin");
	zs_obj_read_sg_end(pool, handle);
}

/* Begins a scatterlist read of the object; returns the page it starts on. */
static inline struct page *zst_sg_read_begin(struct zs_pool *pool,
					     unsigned long handle, size_t len,
					     struct scatterlist *sg)
{
	zs_obj_read_sg_begin(pool, handle, sg, len);
	return sg_page(sg);
}

static inline void zst_sg_read_end(struct zs_pool *pool, unsigned long handle)
{
	zs_obj_read_sg_end(pool, handle);
}

/**
 * zst_read_sg() - copy an object into @buf through a scatterlist read
 * @pool: its pool
 * @handle: its handle
 * @len: its size, as allocated
 * @buf: @len bytes
 * @bad: @handle names no live object: announce the warning
 *
 * zs_obj_read_sg_begin() must describe the object in one piece within a
 * page, or in two: the first up to the end of its page, the second from the
 * start of another.  Each piece is mapped with kmap_local_page() and copied.
 *
 * Context: may not be called with another object accessed on this CPU.
 * Return: how many bytes from the start the list described so: @len, or
 * where the first piece of another shape begins (the rest of @buf is left
 * as it was).
 */
static inline size_t zst_read_sg(struct zs_pool *pool, unsigned long handle,
				 size_t len, u8 *buf, bool bad)
{
	struct scatterlist sg[2];
	size_t done = 0;
	unsigned int i;
	bool last = false;

	if (bad)
		zst_expect_warning("zs_obj_read_sg_begin");
	zst_sg_read_begin(pool, handle, len, sg);
	for (i = 0; i < ARRAY_SIZE(sg) && !last; i++) {
		struct scatterlist *s = &sg[i];
		u8 *p;

		last = sg_is_last(s);
		if (!s->length || s->length > len - done ||
		    s->offset + s->length > PAGE_SIZE || (i && s->offset) ||
		    (!last && s->offset + s->length != PAGE_SIZE))
			break;
		p = kmap_local_page(sg_page(s));
		memcpy(buf + done, p + s->offset, s->length);
		kunmap_local(p);
		done += s->length;
	}
	zst_sg_read_end(pool, handle);
	return done;
}

#else /* 6.x: zs_map_object() */

/*
 * No node to allocate on; a mapping is atomic (no sleeping before
 * zs_unmap_object()); no scatterlist read: zst_read_sg() copies from a
 * ZS_MM_RO mapping.
 */
#define ZST_API_7		0
#define ZST_SG_READ		"RO copy"

static inline unsigned long zst_malloc_node(struct zs_pool *pool, size_t size,
					    gfp_t gfp, int nid)
{
	return zs_malloc(pool, size, gfp);
}

/* A mapping reads the object in every mode (a bad handle's: zeroes). */
static inline bool zst_reads(enum zst_mode mode)
{
	return true;
}

static inline enum zs_mapmode zst_mm(enum zst_mode mode)
{
	switch (mode & ZST_RW) {
	case ZST_RO:
		return ZS_MM_RO;
	case ZST_WO:
		return ZS_MM_WO;
	default:
		return ZS_MM_RW;
	}
}

static inline void *zst_map(struct zs_pool *pool, unsigned long handle,
			    enum zst_mode mode, size_t len, void *scratch)
{
	if (mode & ZST_BAD)
		zst_expect_warning("zs_map_object");
	return zs_map_object(pool, handle, zst_mm(mode));
}

static inline void zst_unmap(struct zs_pool *pool, unsigned long handle,
			     enum zst_mode mode, size_t len, void *scratch,
			     void *mem)
{
	zs_unmap_object(pool, handle);
}

static inline void zst_write(struct zs_pool *pool, unsigned long handle,
			     void *src, size_t len)
{
	void *mem = zs_map_object(pool, handle, ZS_MM_WO);

	memcpy(mem, src, len);
	zs_unmap_object(pool, handle);
}

static inline void zst_end_unpaired(struct zs_pool *pool, unsigned long handle)
{
	zst_expect_warning("zs_unmap_object");
	zs_unmap_object(pool, handle);
}

/* No scatterlist read on 6.x: ZST_API_7 cases do not get here. */
static inline struct page *zst_sg_read_begin(struct zs_pool *pool,
					     unsigned long handle, size_t len,
					     struct scatterlist *sg)
{
	return NULL;
}

static inline void zst_sg_read_end(struct zs_pool *pool, unsigned long handle)
{
}

static inline size_t zst_read_sg(struct zs_pool *pool, unsigned long handle,
				 size_t len, u8 *buf, bool bad)
{
	enum zst_mode mode = bad ? ZST_RO | ZST_BAD : ZST_RO;
	void *mem = zst_map(pool, handle, mode, len, NULL);

	memcpy(buf, mem, len);
	zst_unmap(pool, handle, mode, len, NULL, mem);
	return len;
}

#endif

static inline unsigned long zst_malloc(struct zs_pool *pool, size_t size,
				       gfp_t gfp)
{
	return zst_malloc_node(pool, size, gfp, NUMA_NO_NODE);
}

#ifndef ZST_CAN_TAKE_PAGE
#define ZST_CAN_TAKE_PAGE	0

static inline int zst_take_page(unsigned long pfn)
{
	return -EOPNOTSUPP;
}

static inline void zst_give_page(unsigned long pfn)
{
}
#endif

#endif /* _ZST_API_H */
