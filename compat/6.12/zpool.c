// SPDX-License-Identifier: GPL-2.0
/*
 * The zpool driver "zsmalloc", through which 6.12's zswap uses the allocator
 * (7.2's zswap calls it directly).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/zpool.h>

#include "zs_internal.h"

static void *zs_zpool_create(const char *name, gfp_t gfp)
{
	return zs_create_pool(name);
}

static void zs_zpool_destroy(void *pool)
{
	zs_destroy_pool(pool);
}

static u64 zs_zpool_total_pages(void *pool)
{
	return zs_get_total_pages(pool);
}

static int zs_zpool_malloc(void *pool, size_t size, gfp_t gfp,
			   unsigned long *handle)
{
	unsigned long h = zs_malloc_node(pool, size, gfp, NUMA_NO_NODE);

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
	.create = zs_zpool_create,
	.destroy = zs_zpool_destroy,
	.malloc_support_movable = true,
	.malloc = zs_zpool_malloc,
	.free = zs_zpool_free,
	.map = zs_zpool_map,
	.unmap = zs_zpool_unmap,
	.total_pages = zs_zpool_total_pages,
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
