// SPDX-License-Identifier: GPL-2.0
/*
 * The pool's shrinker: under memory pressure the kernel asks how many pages
 * compaction could free (zs_class_freeable_pages() summed over the classes)
 * and then has zs_compact() free them.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/shrinker.h>

#include "zs_internal.h"

static unsigned long zs_shrinker_count(struct shrinker *shrinker,
				       struct shrink_control *sc)
{
	return zs_pool_freeable_pages(shrinker->private_data);
}

static unsigned long zs_shrinker_scan(struct shrinker *shrinker,
				      struct shrink_control *sc)
{
	unsigned long freed = zs_compact(shrinker->private_data);

	return freed ? freed : SHRINK_STOP;
}

/**
 * zs_shrinker_register - let memory pressure compact @pool
 * @pool: the pool
 *
 * Return: 0 or -ENOMEM.
 */
int zs_shrinker_register(struct zs_pool *pool)
{
	pool->shrinker = shrinker_alloc(0, "zs-%s", pool->name);
	if (!pool->shrinker)
		return -ENOMEM;
	pool->shrinker->count_objects = zs_shrinker_count;
	pool->shrinker->scan_objects = zs_shrinker_scan;
	pool->shrinker->private_data = pool;
	shrinker_register(pool->shrinker);
	return 0;
}

/**
 * zs_shrinker_unregister - undo zs_shrinker_register()
 * @pool: the pool
 */
void zs_shrinker_unregister(struct zs_pool *pool)
{
	shrinker_free(pool->shrinker);
}
