// SPDX-License-Identifier: GPL-2.0
/*
 * The zpool driver "zsmalloc", through which zswap uses this allocator on
 * kernels that have zpool.  On 6.1, zswap hands the driver its callbacks and
 * asks it to evict (reclaim.c); later kernels create a zpool with a name
 * alone and count its pages.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/zpool.h>

#include "compat.h"
#include "zs_internal.h"

#ifdef ZS_ZPOOL_EVICTS
static void *zs_zpool_create(const char *name, gfp_t gfp,
			     const struct zpool_ops *ops, struct zpool *zpool)
{
	struct zs_pool *pool = zs_create_pool(name);

	if (pool) {
		pool->zpool = zpool;
		pool->zpool_ops = ops;
	}
	return pool;
}

static u64 zs_zpool_total_size(void *pool)
{
	return (u64)zs_get_total_pages(pool) << PAGE_SHIFT;
}

#define ZS_ZPOOL_OPS_OF_KERNEL				\
	.create = zs_zpool_create,			\
	.shrink = zs_zpool_shrink,			\
	.total_size = zs_zpool_total_size
#else
static void *zs_zpool_create(const char *name, gfp_t gfp)
{
	return zs_create_pool(name);
}

static u64 zs_zpool_total_pages(void *pool)
{
	return zs_get_total_pages(pool);
}

#define ZS_ZPOOL_OPS_OF_KERNEL				\
	.create = zs_zpool_create,			\
	.total_pages = zs_zpool_total_pages
#endif

static void zs_zpool_destroy(void *pool)
{
	zs_destroy_pool(pool);
}

static int zs_zpool_malloc(void *pool, size_t size, gfp_t gfp,
			   unsigned long *handle)
{
	unsigned long h = zs_malloc(pool, size, gfp);

	if (IS_ERR((void *)h))
		return PTR_ERR((void *)h);
	*handle = h;
	return 0;
}

static void zs_zpool_free(void *pool, unsigned long handle)
{
	zs_free(pool, handle);
}

static void *zs_zpool_map(void *pool, unsigned long handle,
			  enum zpool_mapmode mm)
{
	static const enum zs_mapmode modes[] = {
		[ZPOOL_MM_RW] = ZS_MM_RW,
		[ZPOOL_MM_RO] = ZS_MM_RO,
		[ZPOOL_MM_WO] = ZS_MM_WO,
	};

	return zs_map_object(pool, handle, modes[mm]);
}

static void zs_zpool_unmap(void *pool, unsigned long handle)
{
	zs_unmap_object(pool, handle);
}

static struct zpool_driver zs_zpool_driver = {
	.type = "zsmalloc",
	.owner = THIS_MODULE,
	.destroy = zs_zpool_destroy,
	.malloc_support_movable = true,
	.malloc = zs_zpool_malloc,
	.free = zs_zpool_free,
	.map = zs_zpool_map,
	.unmap = zs_zpool_unmap,
	ZS_ZPOOL_OPS_OF_KERNEL,
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
