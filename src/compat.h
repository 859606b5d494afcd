/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Differences between the kernels this module builds for, in one place.
 * Today: 6.1 (Debian 12); the shrinker API changed in 6.7.
 */
#ifndef _ZS_COMPAT_H
#define _ZS_COMPAT_H

#include <linux/shrinker.h>
#include <linux/slab.h>
#include <linux/version.h>

typedef unsigned long (*zs_shrink_fn)(struct shrinker *shrinker,
				      struct shrink_control *sc);

#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 7, 0)

static inline struct shrinker *zs_shrinker_create(zs_shrink_fn count,
						  zs_shrink_fn scan,
						  void *data, const char *name)
{
	struct shrinker *shrinker = shrinker_alloc(0, "zs-%s", name);

	if (!shrinker)
		return NULL;
	shrinker->count_objects = count;
	shrinker->scan_objects = scan;
	shrinker->seeks = DEFAULT_SEEKS;
	shrinker->private_data = data;
	shrinker_register(shrinker);
	return shrinker;
}

static inline void zs_shrinker_destroy(struct shrinker *shrinker)
{
	shrinker_free(shrinker);
}

static inline void *zs_shrinker_data(struct shrinker *shrinker)
{
	return shrinker->private_data;
}

#else /* before 6.7: the caller embeds and registers struct shrinker */

struct zs_compat_shrinker {
	struct shrinker shrinker;
	void *data;
};

static inline struct shrinker *zs_shrinker_create(zs_shrink_fn count,
						  zs_shrink_fn scan,
						  void *data, const char *name)
{
	struct zs_compat_shrinker *cs = kzalloc(sizeof(*cs), GFP_KERNEL);

	if (!cs)
		return NULL;
	cs->shrinker.count_objects = count;
	cs->shrinker.scan_objects = scan;
	cs->shrinker.seeks = DEFAULT_SEEKS;
	cs->data = data;
	if (register_shrinker(&cs->shrinker, "zs-%s", name)) {
		kfree(cs);
		return NULL;
	}
	return &cs->shrinker;
}

static inline void zs_shrinker_destroy(struct shrinker *shrinker)
{
	unregister_shrinker(shrinker);
	kfree(container_of(shrinker, struct zs_compat_shrinker, shrinker));
}

static inline void *zs_shrinker_data(struct shrinker *shrinker)
{
	return container_of(shrinker, struct zs_compat_shrinker, shrinker)->data;
}

#endif

#endif /* _ZS_COMPAT_H */
