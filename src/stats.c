// SPDX-License-Identifier: GPL-2.0
/*
 * Statistics, always on: debugfs zsmalloc/<pool>/classes has one line per
 * size class with the stock module's columns, then the bytes callers asked
 * for against the bytes the class holds, and how many zspages sit in each
 * fullness group; zsmalloc/<pool>/bad_calls counts the calls that named no
 * live object (zs_bad_call()).  Statistics never make pool creation fail.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/module.h>
#include <linux/seq_file.h>

#include "zs_internal.h"

static struct dentry *zs_debugfs_root;

/**
 * struct zs_class_stats - a consistent copy of one class's counters
 * @zspages: zspages in the class
 * @pages: pages present in them
 * @objs_used: objects allocated
 * @bytes_requested: bytes asked for by the allocated objects
 * @group_count: zspages per fullness group
 */
struct zs_class_stats {
	unsigned long zspages;
	unsigned long pages;
	unsigned long objs_used;
	unsigned long bytes_requested;
	unsigned long group_count[ZS_NR_GROUPS];
};

static void class_stats_read(struct size_class *class,
			     struct zs_class_stats *st)
{
	spin_lock(&class->lock);
	class_settle(class);
	st->zspages = class->zspages;
	st->pages = class->pages;
	st->objs_used = class->objs_used;
	st->bytes_requested = class->bytes_requested;
	memcpy(st->group_count, class->group_count, sizeof(st->group_count));
	spin_unlock(&class->lock);
}

static unsigned long groups_sum(const struct zs_class_stats *st, int from,
				int to)
{
	unsigned long sum = 0;
	int group;

	for (group = from; group < to; group++)
		sum += st->group_count[group];
	return sum;
}

static int zs_classes_show(struct seq_file *s, void *unused)
{
	struct zs_pool *pool = s->private;
	unsigned long total_pages = 0, total_used = 0, total_bytes = 0;
	unsigned long total_meta = 0, table;
	unsigned int i;
	int group;

	seq_printf(s, " %5s %5s %11s %12s %13s %10s %10s %16s %8s %12s %12s %10s  %s\n",
		   "class", "size", "almost_full", "almost_empty",
		   "obj_allocated", "obj_used", "pages_used",
		   "pages_per_zspage", "freeable", "requested", "held", "meta",
		   "zspages per fullness group 0-9%..90-99%,full");

	for (i = 0; i < pool->nr_classes; i++) {
		struct size_class *class = pool->classes[i];
		struct zs_class_stats st;
		unsigned long meta;

		class_stats_read(class, &st);
		/* Outside the pages: the class's descriptors. */
		meta = st.zspages * class->desc_bytes;
		/* Half full and fuller is "almost full", as in the stock module. */
		seq_printf(s, " %5u %5u %11lu %12lu %13lu %10lu %10lu %16u %8lu %12lu %12lu %10lu ",
			   zs_size_index(class->size), class->size,
			   groups_sum(&st, ZS_FULL_GROUP / 2, ZS_FULL_GROUP),
			   groups_sum(&st, 0, ZS_FULL_GROUP / 2),
			   st.zspages * class->objs_per_zspage, st.objs_used,
			   st.pages, class->pages_per_zspage,
			   zs_class_freeable_pages(class), st.bytes_requested,
			   st.pages * PAGE_SIZE, meta);
		for (group = 0; group < ZS_NR_GROUPS; group++)
			seq_printf(s, " %lu", st.group_count[group]);
		seq_putc(s, '\n');
		total_pages += st.pages;
		total_used += st.objs_used;
		total_bytes += st.bytes_requested;
		total_meta += meta;
	}
	table = zs_handles_bytes(&pool->handles);
	seq_printf(s, " Total objects %lu, pages %lu, requested %lu bytes, held %lu bytes, handle table %lu bytes, metadata %lu bytes\n",
		   total_used, total_pages, total_bytes, total_pages * PAGE_SIZE,
		   table, total_meta + table);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(zs_classes);

static int zs_bad_calls_show(struct seq_file *s, void *unused)
{
	struct zs_pool *pool = s->private;

	seq_printf(s, "%ld\n", atomic_long_read(&pool->bad_calls));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(zs_bad_calls);

/**
 * zs_pool_debugfs_add - create zsmalloc/<pool>/classes and bad_calls
 * @pool: the pool
 */
void zs_pool_debugfs_add(struct zs_pool *pool)
{
	if (IS_ERR_OR_NULL(zs_debugfs_root))
		return;
	pool->debugfs_dir = debugfs_create_dir(pool->name, zs_debugfs_root);
	if (IS_ERR(pool->debugfs_dir)) {
		/* Two pools of one name: the second goes without. */
		pool->debugfs_dir = NULL;
		return;
	}
	debugfs_create_file("classes", 0444, pool->debugfs_dir, pool,
			    &zs_classes_fops);
	debugfs_create_file("bad_calls", 0444, pool->debugfs_dir, pool,
			    &zs_bad_calls_fops);
}

/**
 * zs_pool_debugfs_remove - remove what zs_pool_debugfs_add() created
 * @pool: the pool
 */
void zs_pool_debugfs_remove(struct zs_pool *pool)
{
	debugfs_remove_recursive(pool->debugfs_dir);
}

/**
 * zs_stats_init - create the debugfs directory zsmalloc
 */
void zs_stats_init(void)
{
	zs_debugfs_root = debugfs_create_dir("zsmalloc", NULL);
}

/**
 * zs_stats_exit - remove the debugfs directory zsmalloc
 */
void zs_stats_exit(void)
{
	debugfs_remove_recursive(zs_debugfs_root);
}
