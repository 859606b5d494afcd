// SPDX-License-Identifier: GPL-2.0
/*
 * The pool's shrinker on 6.1, where the caller embeds and registers struct
 * shrinker (src/shrinker.c: 6.7's shrinker_alloc()).  Under memory pressure
 * the kernel asks how many pages compaction could free and then has
 * zs_compact() free them.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/shrinker.h>
#include <linux/slab.h>

#include "zs_internal.h"

/**
 * struct zs_shrinker - a pool's shrinker
 * @shrinker: registered with the kernel
 * @pool: the pool it compacts
 */
struct zs_shrinker {
	struct shrinker shrinker;
	struct zs_pool *pool;
};

static struct zs_pool *zs_shrinker_pool(struct shrinker *shrinker)
{
	return container_of(shrinker, struct zs_shrinker, shrinker)->pool;
}

static unsigned long zs_shrinker_count(struct shrinker *shrinker,
				       struct shrink_control *sc)
{
	return zs_pool_freeable_pages(zs_shrinker_pool(shrinker));
}

static unsigned long zs_shrinker_scan(struct shrinker *shrinker,
				      struct shrink_control *sc)
{
	unsigned long freed = zs_compact(zs_shrinker_pool(shrinker));

	return freed ? freed : SHRINK_STOP;
}

/**
 * zs_shrinker_register - let memory pressure compact @pool
 * @pool: the pool
 *
 * Return: 0 or -errno.
 */
int zs_shrinker_register(struct zs_pool *pool)
{
	struct zs_shrinker *zs = kzalloc(sizeof(*zs), GFP_KERNEL);
	int err;

	if (!zs)
		return -ENOMEM;
	zs->shrinker.count_objects = zs_shrinker_count;
	zs->shrinker.scan_objects = zs_shrinker_scan;
	zs->shrinker.seeks = DEFAULT_SEEKS;
	zs->pool = pool;
	err = register_shrinker(&zs->shrinker, "zs-%s", pool->name);
	if (err) {
		kfree(zs);
		return err;
	}
	pool->shrinker = &zs->shrinker;
	return 0;
}

/**
 * zs_shrinker_unregister - undo zs_shrinker_register()
 * @pool: the pool
 */
void zs_shrinker_unregister(struct zs_pool *pool)
{
	unregister_shrinker(pool->shrinker);
	kfree(container_of(pool->shrinker, struct zs_shrinker, shrinker));
}
