// SPDX-License-Identifier: GPL-2.0
/*
 * The zpool driver "zsmalloc" of 6.1's zswap, which hands the driver its
 * callbacks and asks it to evict when its pool is full (.shrink, reclaim.c):
 * the pool behind it is a struct zs_zpool (zpool.h).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/slab.h>

#include "zs_internal.h"
#include "zpool.h"

static void *zs_zpool_create(const char *name, gfp_t gfp,
			     const struct zpool_ops *ops, struct zpool *zpool)
{
	struct zs_zpool *zp = kzalloc(sizeof(*zp), gfp);

	if (!zp)
		return NULL;
	zp->pool = zs_create_pool(name);
	if (!zp->pool) {
		kfree(zp);
		return NULL;
	}
	zp->zpool = zpool;
	zp->ops = ops;
	spin_lock_init(&zp->lock);
	mutex_init(&zp->reclaim_lock);
	return zp;
}

static void zs_zpool_destroy(void *data)
{
	struct zs_zpool *zp = data;

	zs_destroy_pool(zp->pool);
	kfree(zp);
}

static int zs_zpool_malloc(void *data, size_t size, gfp_t gfp,
			   unsigned long *handle)
{
	struct zs_zpool *zp = data;
	unsigned long h = zs_malloc_node(zp->pool, size, gfp, NUMA_NO_NODE);

	if (IS_ERR((void *)h))
		return PTR_ERR((void *)h);
	*handle = h;
	return 0;
}

/* Under zp->lock, so that a shrink in progress sees every free (reclaim.c). */
static void zs_zpool_free(void *data, unsigned long handle)
{
	struct zs_zpool *zp = data;

	spin_lock(&zp->lock);
	if (!zs_zpool_defer_free(zp, handle))
		zs_free(zp->pool, handle);
	spin_unlock(&zp->lock);
}

static void *zs_zpool_map(void *data, unsigned long handle,
			  enum zpool_mapmode mm)
{
	struct zs_zpool *zp = data;

	/* zpool's modes are zsmalloc's, value for value. */
	BUILD_BUG_ON(ZPOOL_MM_RW != (int)ZS_MM_RW ||
		     ZPOOL_MM_RO != (int)ZS_MM_RO ||
		     ZPOOL_MM_WO != (int)ZS_MM_WO);
	return zs_map_object(zp->pool, handle, (enum zs_mapmode)mm);
}

static void zs_zpool_unmap(void *data, unsigned long handle)
{
	struct zs_zpool *zp = data;

	zs_unmap_object(zp->pool, handle);
}

static u64 zs_zpool_total_size(void *data)
{
	struct zs_zpool *zp = data;

	return (u64)zs_get_total_pages(zp->pool) << PAGE_SHIFT;
}

static struct zpool_driver zs_zpool_driver = {
	.type = "zsmalloc",
	.owner = THIS_MODULE,
	.create = zs_zpool_create,
	.destroy = zs_zpool_destroy,
	.malloc_support_movable = true,
	.malloc = zs_zpool_malloc,
	.free = zs_zpool_free,
	.shrink = zs_zpool_shrink,
	.map = zs_zpool_map,
	.unmap = zs_zpool_unmap,
	.total_size = zs_zpool_total_size,
};

/**
 * zs_zpool_init - register the zpool driver "zsmalloc"
 *
 * Return: 0.
 */
int zs_zpool_init(void)
{
	zpool_register_driver(&zs_zpool_driver);
	return 0;
}

/**
 * zs_zpool_exit - unregister the zpool driver
 */
void zs_zpool_exit(void)
{
	zpool_unregister_driver(&zs_zpool_driver);
}

MODULE_ALIAS("zpool-zsmalloc");
