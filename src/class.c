// SPDX-License-Identifier: GPL-2.0
/*
 * Size classes: the shape of their zspages and the order they keep them in.
 *
 * Geometry.  Each 16-byte size step gets, once at boot (or module load), the
 * chain length that wastes the fewest bytes per page at the end of the chain,
 * up to max_pages_per_zspage pages, and a slab cache for the descriptors of
 * such zspages (one per descriptor size, shared by the steps that need it).
 * Neighbouring steps with the same chain share one class (pool.c).
 *
 * Fullness groups.  A class keeps its zspages on one list per fullness group
 * (zs_internal.h: 10% bands and full) and a bitmap of the groups that have
 * any, so that allocation finds the fullest zspage with room, and compaction
 * the emptiest, without walking the lists.  The zspage that allocation is
 * filling changes group only once it is full, or when allocation turns to
 * another: it is picked again while no other is fuller.  Whoever walks the
 * groups by fullness calls class_settle() first.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitmap.h>
#include <linux/module.h>
#include <linux/overflow.h>
#include <linux/slab.h>

#include "zs_internal.h"

unsigned int zs_max_pages_per_zspage = CONFIG_ZSMALLOC_CHAIN_SIZE;
module_param_named(max_pages_per_zspage, zs_max_pages_per_zspage, uint, 0444);
MODULE_PARM_DESC(max_pages_per_zspage,
		 "Longest chain of pages in one zspage (1-16; default CONFIG_ZSMALLOC_CHAIN_SIZE)");

bool zs_ondemand = true;
module_param_named(ondemand, zs_ondemand, bool, 0444);
MODULE_PARM_DESC(ondemand,
		 "Attach the pages of a zspage only when objects lie on them (default on)");

/**
 * struct zs_geometry - chain of one 16-byte size step, fixed at module load
 * @pages: pages per zspage
 * @objs: objects per zspage
 * @refs_offset: offset of the back-references in a descriptor
 * @map_offset: offset of the allocation bitmap
 * @users_offset: offset of the per-page object counts
 * @desc_bytes: descriptor size
 * @desc_cache: slab cache for descriptors of such zspages
 * @desc_name: its name, kept as long as the cache: the slab allocator keeps
 *	the pointer (an alias made before sysfs is up refers to it later)
 */
struct zs_geometry {
	unsigned short pages;
	unsigned short objs;
	unsigned int refs_offset;
	unsigned int map_offset;
	unsigned int users_offset;
	unsigned int desc_bytes;
	struct kmem_cache *desc_cache;
	char *desc_name;
};

static struct zs_geometry zs_geometry[ZS_NR_SIZES];

/**
 * zs_step_size - slot size of a 16-byte size step
 * @step: the step, 0 for ZS_MIN_ALLOC_SIZE
 *
 * Return: the size in bytes.
 */
unsigned int zs_step_size(unsigned int step)
{
	return ZS_MIN_ALLOC_SIZE + step * ZS_CLASS_DELTA;
}

/* Least waste per page at the end of the chain; on a tie, the shorter chain. */
static void zs_pick_chain(unsigned int size, struct zs_geometry *geo)
{
	unsigned int best_pages = 1, best_waste = PAGE_SIZE % size, n;

	for (n = 2; n <= zs_max_pages_per_zspage; n++) {
		unsigned int waste = (n * PAGE_SIZE) % size;

		if (waste * best_pages < best_waste * n) {
			best_pages = n;
			best_waste = waste;
		}
	}
	geo->pages = best_pages;
	geo->objs = best_pages * PAGE_SIZE / size;
	/* Widest first, so that nothing is padded but the end. */
	geo->map_offset = struct_size((struct zspage *)NULL, pages, geo->pages);
	geo->refs_offset = geo->map_offset +
			   BITS_TO_LONGS(geo->objs) * sizeof(unsigned long);
	geo->users_offset = geo->refs_offset + geo->objs * sizeof(u32);
	geo->desc_bytes = ALIGN(geo->users_offset + geo->pages,
				sizeof(unsigned long));
}

/* The first step using the cache of @step, so each cache is handled once. */
static bool zs_geometry_owns_cache(int step)
{
	int other;

	for (other = 0; other < step; other++) {
		if (zs_geometry[other].desc_cache == zs_geometry[step].desc_cache)
			return false;
	}
	return true;
}

/**
 * zs_geometry_exit - destroy the descriptor caches
 */
void zs_geometry_exit(void)
{
	int step;

	for (step = ZS_NR_SIZES - 1; step >= 0; step--) {
		if (!zs_geometry_owns_cache(step))
			continue;
		kmem_cache_destroy(zs_geometry[step].desc_cache);
		kfree(zs_geometry[step].desc_name);
	}
	memset(zs_geometry, 0, sizeof(zs_geometry));
}

/* A descriptor cache of @bytes made for an earlier step, or NULL. */
static struct kmem_cache *zs_geometry_find_cache(int step, unsigned int bytes)
{
	int other;

	for (other = 0; other < step; other++) {
		if (zs_geometry[other].desc_bytes == bytes)
			return zs_geometry[other].desc_cache;
	}
	return NULL;
}

/**
 * zs_geometry_init - choose the chain of every size step, make the caches
 *
 * Return: 0 or -ENOMEM.
 */
int zs_geometry_init(void)
{
	int step;

	zs_max_pages_per_zspage = clamp(zs_max_pages_per_zspage, 1U,
					ZS_MAX_PAGES_PER_ZSPAGE);
	for (step = 0; step < ZS_NR_SIZES; step++) {
		struct zs_geometry *geo = &zs_geometry[step];

		zs_pick_chain(zs_step_size(step), geo);
		geo->desc_cache = zs_geometry_find_cache(step, geo->desc_bytes);
		if (geo->desc_cache)
			continue;
		geo->desc_name = kasprintf(GFP_KERNEL, "zs_zspage_%u",
					   geo->desc_bytes);
		if (geo->desc_name)
			geo->desc_cache = kmem_cache_create(geo->desc_name,
							    geo->desc_bytes,
							    0, 0, NULL);
		if (!geo->desc_cache) {
			zs_geometry_exit();
			return -ENOMEM;
		}
	}
	return 0;
}

/**
 * size_class_create - make the class of size step @step for @pool
 * @pool: the pool
 * @step: the class's largest size step
 *
 * Return: the class, with no zspage, or NULL.
 */
struct size_class *size_class_create(struct zs_pool *pool, unsigned int step)
{
	const struct zs_geometry *geo = &zs_geometry[step];
	struct size_class *class;
	int group;

	class = kzalloc_obj(*class, GFP_KERNEL);
	if (!class)
		return NULL;
	spin_lock_init(&class->lock);
	for (group = 0; group < ZS_NR_GROUPS; group++)
		INIT_LIST_HEAD(&class->groups[group]);
	class->size = zs_step_size(step);
	class->objs_per_zspage = geo->objs;
	class->pages_per_zspage = geo->pages;
	class->refs_offset = geo->refs_offset;
	class->map_offset = geo->map_offset;
	class->users_offset = geo->users_offset;
	class->desc_bytes = geo->desc_bytes;
	class->desc_cache = geo->desc_cache;
	class->pool = pool;
	return class;
}

/**
 * zs_geometry_same - whether size step @step can share @class
 * @step: a size step
 * @class: the class of a larger step
 *
 * Return: true if both have the same chain (pages and objects).
 */
bool zs_geometry_same(unsigned int step, struct size_class *class)
{
	return zs_geometry[step].pages == class->pages_per_zspage &&
	       zs_geometry[step].objs == class->objs_per_zspage;
}

/**
 * zs_geometry_is_huge - whether every object of size step @step costs a page
 * @step: the size step
 *
 * Return: true if a zspage of the step holds one object.
 */
bool zs_geometry_is_huge(unsigned int step)
{
	return zs_geometry[step].objs == 1;
}

static unsigned int zspage_group_of(struct zspage *zspage)
{
	unsigned int objs = zspage->class->objs_per_zspage;

	if (zspage->inuse == objs)
		return ZS_FULL_GROUP;
	return zspage->inuse * ZS_FULL_GROUP / objs;
}

/* Counts a zspage into @group of @class; a group with zspages has its bit. */
static void class_group_inc(struct size_class *class, unsigned int group)
{
	if (!class->group_count[group]++)
		__set_bit(group, &class->groups_used);
}

static void class_group_dec(struct size_class *class, unsigned int group)
{
	if (!--class->group_count[group])
		__clear_bit(group, &class->groups_used);
}

/**
 * zspage_set_group - move a zspage to the fullness group it now belongs to
 * @zspage: a zspage on its class's lists
 *
 * Context: class->lock held.
 */
void zspage_set_group(struct zspage *zspage)
{
	struct size_class *class = zspage->class;
	unsigned int group = zspage_group_of(zspage);

	/* A full zspage has no room for allocation to fill. */
	if (group == ZS_FULL_GROUP && class->filling == zspage)
		class->filling = NULL;
	if (group == zspage->group)
		return;
	class_group_dec(class, zspage->group);
	class_group_inc(class, group);
	WRITE_ONCE(zspage->group, group);
	list_move(&zspage->list, &class->groups[group]);
}

/**
 * zspage_alloc_set_group - zspage_set_group() after an allocation
 * @zspage: the zspage an object was allocated in
 *
 * The zspage allocation fills (class->filling) keeps the group it was picked
 * in until it is full: moving it at every allocation cost up to 7% of
 * zs_malloc()'s instructions.  So its group may be short of its fullness,
 * never over it; class_settle() brings it up to date.
 *
 * Context: class->lock held.
 */
void zspage_alloc_set_group(struct zspage *zspage)
{
	struct size_class *class = zspage->class;

	if (zspage != class->filling || zspage->inuse == class->objs_per_zspage)
		zspage_set_group(zspage);
}

/**
 * class_settle - put the zspage allocation fills in its fullness group
 * @class: the class
 *
 * For whoever walks the groups by fullness (compaction, statistics): after
 * it, every zspage of the class is in the group it belongs to.
 *
 * Context: class->lock held.
 */
void class_settle(struct size_class *class)
{
	if (class->filling)
		zspage_set_group(class->filling);
}

/* Makes @zspage the one allocation fills; the one it filled settles. */
static struct zspage *class_fill(struct size_class *class,
				 struct zspage *zspage)
{
	if (class->filling != zspage) {
		class_settle(class);
		class->filling = zspage;
	}
	return zspage;
}

/**
 * class_link_zspage - put a new zspage on the list of its fullness group
 * @class: its class
 * @zspage: a zspage on no list
 *
 * It becomes the zspage allocation fills.
 *
 * Context: class->lock held.
 */
void class_link_zspage(struct size_class *class, struct zspage *zspage)
{
	WRITE_ONCE(zspage->group, zspage_group_of(zspage));
	list_add(&zspage->list, &class->groups[zspage->group]);
	class_group_inc(class, zspage->group);
	class_fill(class, zspage);
}

/**
 * class_unlink_zspage - take a zspage off its fullness group's list
 * @class: its class
 * @zspage: a zspage on a list
 *
 * Context: class->lock held.
 */
void class_unlink_zspage(struct size_class *class, struct zspage *zspage)
{
	if (class->filling == zspage)
		class->filling = NULL;
	list_del_init(&zspage->list);
	class_group_dec(class, zspage->group);
}

/**
 * class_first_zspage - any zspage of a class
 * @class: the class
 *
 * Context: class->lock held.
 * Return: a zspage on the class's lists, or NULL if it has none.
 */
struct zspage *class_first_zspage(struct size_class *class)
{
	int group;

	for (group = 0; group < ZS_NR_GROUPS; group++) {
		if (!list_empty(&class->groups[group]))
			return list_first_entry(&class->groups[group],
						struct zspage, list);
	}
	return NULL;
}

/* Groups of @class with zspages that have room. */
static unsigned long class_groups_with_room(struct size_class *class)
{
	return class->groups_used & (BIT(ZS_FULL_GROUP) - 1);
}

/**
 * class_pick_zspage - the zspage the next object of a class goes into
 * @class: the class
 *
 * The zspage allocation fills, as long as no other is fuller: the groups of
 * the others are up to date, its own may be short (zspage_alloc_set_group()).
 *
 * Context: class->lock held.
 * Return: the first zspage of the fullest group that has room, or NULL.
 */
struct zspage *class_pick_zspage(struct size_class *class)
{
	struct zspage *filling = class->filling;
	unsigned long room;

	/* Not full (zspage_set_group()), so its group's bit is in room. */
	if (filling && zspage_group_of(filling) >=
		       __fls(class_groups_with_room(class)))
		return filling;
	class_settle(class);
	room = class_groups_with_room(class);
	if (!room)
		return NULL;
	return class_fill(class, list_first_entry(&class->groups[__fls(room)],
						  struct zspage, list));
}

/**
 * zs_class_freeable_pages - pages that compacting @class could free
 * @class: the class
 *
 * The shrinker's count and debugfs's "freeable".  With all pages attached up
 * front, a page goes only with its whole zspage: the pages of the zspages
 * the free slots add up to.  With on-demand backing, a free slot may have no
 * page behind it: the pages held beyond what the objects need packed, which
 * is whole zspages for as many objects as fill them, then the pages the rest
 * fill from the start of one (what compaction aims at, compact.c).
 *
 * Context: exact under class->lock, an estimate without it.
 * Return: the number of pages.
 */
unsigned long zs_class_freeable_pages(struct size_class *class)
{
	unsigned long objs = class->objs_per_zspage;
	unsigned long capacity = READ_ONCE(class->zspages) * objs;
	unsigned long used = READ_ONCE(class->objs_used);
	unsigned long pages = READ_ONCE(class->pages);
	unsigned long need;

	if (capacity <= used)
		return 0;
	if (!zs_ondemand)
		return (capacity - used) / objs * class->pages_per_zspage;
	need = used / objs * class->pages_per_zspage +
	       DIV_ROUND_UP(used % objs * class->size, PAGE_SIZE);
	return pages > need ? pages - need : 0;
}

/**
 * zs_pool_freeable_pages - pages that compacting @pool could free
 * @pool: the pool
 *
 * Context: any context; an estimate (no class lock is taken).
 * Return: the sum of zs_class_freeable_pages() over the pool's classes.
 */
unsigned long zs_pool_freeable_pages(struct zs_pool *pool)
{
	unsigned long pages = 0;
	unsigned int i;

	for (i = 0; i < pool->nr_classes; i++)
		pages += zs_class_freeable_pages(pool->classes[i]);
	return pages;
}
