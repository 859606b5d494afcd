/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The pool behind 6.1's zpool driver (zpool.c) and its eviction (reclaim.c).
 */
#ifndef _ZS_ZPOOL_6_1_H
#define _ZS_ZPOOL_6_1_H

#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/zpool.h>

/* Objects one eviction round writes back at most. */
#define ZS_EVICT_BATCH		64

/**
 * struct zs_zpool - a pool as 6.1's zswap sees it, through zpool
 * @pool: the pool
 * @zpool: zswap's zpool, which its evict callback takes
 * @ops: zswap's callbacks
 * @lock: protects @nr_evicting, @evicting and @deferred; held across every
 *	free of an object of @pool through zpool (zs_zpool_free())
 * @reclaim_lock: one shrink at a time
 * @nr_evicting: objects the shrink in progress is writing back
 * @evicting: their handles
 * @deferred: which of them zswap freed meanwhile: the shrink frees them once
 *	zswap is done with them
 *
 * Lock order: @reclaim_lock, @lock, then the allocator's (src/pool.c).
 */
struct zs_zpool {
	struct zs_pool *pool;
	struct zpool *zpool;
	const struct zpool_ops *ops;
	spinlock_t lock;	/* see above */
	struct mutex reclaim_lock;
	unsigned int nr_evicting;
	unsigned long evicting[ZS_EVICT_BATCH];
	DECLARE_BITMAP(deferred, ZS_EVICT_BATCH);
};

/* reclaim.c */
bool zs_zpool_defer_free(struct zs_zpool *zp, unsigned long handle);
int zs_zpool_shrink(void *data, unsigned int pages, unsigned int *reclaimed);

#endif /* _ZS_ZPOOL_6_1_H */
