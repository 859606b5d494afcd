// SPDX-License-Identifier: GPL-2.0
/*
 * zst_migrate.c - test_zsmalloc's case of a read that sleeps while
 * compaction and page migration run
 *
 * sleeping_read (7.x with CONFIG_CONTIG_ALLOC; elsewhere skipped): the
 * contract of 7.x's reads.  zram and zswap decompress between
 * zs_obj_read_begin() and zs_obj_read_end() (or the scatterlist read's
 * begin and end) and may sleep there; meanwhile zs_compact() must not move
 * the object, and the migration core must be refused the page the object
 * lies on.  The page is asked for as
 * alloc_contig_range() asks (CMA, gigantic pages), which migrates whatever
 * lies on it: during each read, when it must be refused, and after, when it
 * must be had, or the round proves nothing (the page's pageblock holds a
 * page nothing can move) and the next object is tried.
 */
#include <linux/delay.h>
#include <linux/mm.h>
#include <linux/random.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>
#include <linux/zsmalloc.h>

#include "zst.h"

/* How long a reader sleeps, its object's page asked for meanwhile. */
#define ZST_READ_SLEEP_MS	50

/*
 * The pfn of the page @mem, what a read returned, lies on if the object was
 * read in place (64-bit has no highmem), or 0 if it was copied to @scratch.
 */
static unsigned long zst_read_pfn(void *mem, void *scratch)
{
	return mem == scratch ? 0 : page_to_pfn(virt_to_page(mem));
}

/*
 * Takes page @pfn and gives it back at once, so that what lies on it
 * migrates: 0, or the last error of a few tries (suite 20's compaction loop
 * may hold the page isolated just then).
 */
static int zst_migrate_pfn(unsigned long pfn)
{
	unsigned int tries;
	int err = 0;

	for (tries = 0; tries < 5; tries++) {
		err = zst_take_page(pfn);
		if (!err) {
			zst_give_page(pfn);
			return 0;
		}
		msleep(20);
	}
	return err;
}

/*
 * With an object on page @pfn being read: compacts, asks for the page,
 * sleeps.  Returns what alloc_contig_range() returned: an error, or 0 if it
 * took the page (given back at once; the caller reports the failure).
 */
static int zst_take_read_page(struct zst_case_ctx *c, struct zs_pool *pool,
			      unsigned long pfn, const char *read)
{
	int err;

	zs_compact(pool);
	err = zst_take_page(pfn);
	if (!err)
		zst_give_page(pfn);
	msleep(ZST_READ_SLEEP_MS);
	zst_diag(c, "%s: alloc_contig_range() = %d, then asleep %u ms", read,
		 err, ZST_READ_SLEEP_MS);
	return err;
}

/*
 * One round on @o: both reads of it refuse its page (a page taken is a
 * failure whatever else), then, unread, it must migrate.  Returns whether
 * the round counts: the page both reads saw could be had unread (else its
 * pageblock holds a page nothing can move, and a refusal proves nothing).
 */
static bool zst_sleeping_read_round(struct zst_case_ctx *c,
				    struct zs_pool *pool,
				    const struct zst_obj *o)
{
	unsigned long read_pfn, sg_pfn;
	struct scatterlist sg[2];
	int err;
	void *mem;

	mem = zst_map(pool, o->handle, ZST_RO, o->size, c->scratch);
	read_pfn = zst_read_pfn(mem, c->scratch);
	if (read_pfn) {
		err = zst_take_read_page(c, pool, read_pfn, "read");
		zst_expect(c, err, "the page of an object being read was taken");
		zst_expect(c, zst_obj_find(mem, o) < 0,
			   "the object changed while read (byte %ld)",
			   zst_obj_find(mem, o));
	}
	zst_unmap(pool, o->handle, ZST_RO, o->size, c->scratch, mem);
	if (!read_pfn)
		return false;

	sg_pfn = page_to_pfn(zst_sg_read_begin(pool, o->handle, o->size, sg));
	err = zst_take_read_page(c, pool, sg_pfn, "sg read");
	zst_expect(c, err, "the page of an object read by scatterlist was taken");
	zst_sg_read_end(pool, o->handle);

	return sg_pfn == read_pfn && !zst_migrate_pfn(sg_pfn);
}

/*
 * Objects of 3072 bytes, four to a zspage of three pages in both
 * allocators, the first of each in place on the zspage's first page.  The
 * first object of one zspage after another, the last allocated first, is
 * read until one's page can be had once unread, at most ZST_READ_ROUNDS;
 * two other objects of its zspage are freed before, so that compaction would
 * empty it.  The first pages a pool gets may well be pages the boot
 * freed (init memory, the initramfs), in pageblocks the kernel image's
 * reserved pages share: 6 MiB of objects reach past them.
 */
#define ZST_READ_OBJS	2048
#define ZST_READ_SIZE	3072
#define ZST_READ_ROUNDS	16

void zst_case_sleeping_read(struct zst_case_ctx *c)
{
	struct zst_obj *objs;
	struct zs_pool *pool;
	unsigned int i, rounds = 0;
	bool counted = false;

	if (!ZST_API_7 || !ZST_CAN_TAKE_PAGE) {
		c->skip = "no sleeping reads or no alloc_contig_range() here";
		return;
	}
	objs = kvcalloc(ZST_READ_OBJS, sizeof(*objs), GFP_KERNEL);
	pool = zs_create_pool("zst_sleeping_read");
	if (!objs || !pool) {
		c->skip = "cannot allocate test arrays or pool";
		goto out;
	}
	if (!zst_objs_alloc(c, pool, objs, ZST_READ_OBJS, ZST_READ_SIZE,
			    NUMA_NO_NODE))
		goto free_all;
	for (i = ZST_READ_OBJS; i && rounds < ZST_READ_ROUNDS && !counted;
	     rounds++) {
		i -= 4;
		/* Its zspage alone has objects compaction would move. */
		zst_obj_free(pool, &objs[i + 1]);
		zst_obj_free(pool, &objs[i + 2]);
		counted = zst_sleeping_read_round(c, pool, &objs[i]);
	}
	zst_diag(c, "%u objects read, %s", rounds,
		 counted ? "the last one's page had once unread" : "no page had unread");
	if (!counted)
		c->skip = "no object's page could be had even unread";
	zst_verify_all(c, pool, objs, ZST_READ_OBJS, "after the reads");
free_all:
	zst_free_all(pool, objs, ZST_READ_OBJS);
	zst_expect_empty(c, pool, "all freed");
out:
	if (pool)
		zs_destroy_pool(pool);
	kvfree(objs);
}
