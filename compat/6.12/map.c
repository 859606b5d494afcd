// SPDX-License-Identifier: GPL-2.0
/*
 * Mapping objects: the zs_map_object() API through which 6.1's and 6.12's
 * zram and zswap reach objects (7.2 reads and writes them: src/obj.c), and
 * zs_malloc() without the node argument that 7.0 added.
 *
 * An object that lies in one page is mapped where it is.  One that spans two
 * pages of its zspage is copied into a per-CPU buffer of PAGE_SIZE bytes, and
 * copied back at unmap unless it was mapped ZS_MM_RO.  A per-CPU two-page
 * virtual mapping would avoid the copies, but needs a kernel PTE update and a
 * TLB flush of that CPU at every map: 6.1 exports neither vmap_pages_range()
 * nor a one-page kernel TLB flush to modules, only __flush_tlb_all(), which
 * would make every later access miss the TLB.  (Not measured: under TCG a TLB
 * flush and a copy cost what QEMU makes of them, not what hardware does.)
 * The buffer is guarded by a local_lock held from map to unmap, so a CPU maps
 * one object at a time and the mapping stays on the CPU even where
 * spinlocks do not disable preemption.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpuhotplug.h>
#include <linux/highmem.h>
#include <linux/local_lock.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/slab.h>

#include "zs_internal.h"

/**
 * struct zs_map_area - per-CPU state of the object mapped on this CPU
 * @lock: held from zs_map_object() to zs_unmap_object()
 * @buf: copy of an object that spans two pages (PAGE_SIZE bytes), or the
 *	zeroed stand-in given for a handle that names no live object
 * @kaddr: kmap_local_page() address of the page of an object in one page
 * @mapped: whether an object (or a bad handle's stand-in) is mapped now
 * @handle: the handle mapped, which may be any value, 0 too
 * @zspage: its pinned zspage, NULL for a bad handle
 * @loc: its location word, stable while the zspage is pinned
 * @mode: how the object was mapped
 *
 * @lock protects all fields but itself.
 */
struct zs_map_area {
	local_lock_t lock;
	char *buf;
	void *kaddr;
	bool mapped;
	unsigned long handle;
	struct zspage *zspage;
	unsigned long loc;
	enum zs_mapmode mode;
};

static DEFINE_PER_CPU(struct zs_map_area, zs_map_area) = {
	.lock = INIT_LOCAL_LOCK(lock),
};

static enum cpuhp_state zs_map_cpuhp_state;

#undef zs_malloc
/**
 * zs_malloc - allocate an object from a pool
 * @pool: pool to allocate from
 * @size: object size in bytes, 1..PAGE_SIZE
 * @gfp: how the pool may get memory (see zs_malloc_node())
 *
 * Context: process or atomic context as @gfp allows; takes the class lock.
 * Return: what zs_malloc_node() returns, with new pages from any node.
 */
unsigned long zs_malloc(struct zs_pool *pool, size_t size, gfp_t gfp)
{
	return zs_malloc_node(pool, size, gfp, NUMA_NO_NODE);
}
EXPORT_SYMBOL_GPL(zs_malloc);

/**
 * zs_map_object - map an object so that it can be read or written
 * @pool: the pool the object belongs to
 * @handle: its handle
 * @mm: ZS_MM_RO (no copy back), ZS_MM_WO (no copy in) or ZS_MM_RW
 *
 * The object is at the returned address, contiguous, for the size it was
 * allocated with, until zs_unmap_object().  One object at a time per CPU.
 *
 * A handle that names no live object of @pool (freed, or never returned by
 * zs_malloc()) is reported once with a warning and mapped to a per-CPU
 * buffer of PAGE_SIZE zero bytes instead: the caller reads zeroes, what it
 * writes there goes nowhere, no object and no zspage is touched, and the
 * mapping still ends with zs_unmap_object().  The handle's word itself must
 * still be readable memory (a freed handle's slot is, though KASAN calls
 * reading it a use after free).
 *
 * Context: process context, not hard or soft interrupt context: the class
 * lock is not irq-safe, and the per-CPU map area belongs to the task that
 * mapped (an interrupt mapping on top of it would clobber it).  Takes the
 * class lock briefly, and returns with a per-CPU local_lock held (preemption
 * disabled except on PREEMPT_RT, where the task is kept on this CPU): the
 * caller must not sleep before zs_unmap_object().
 * Return: the object's address, or the zeroed stand-in for a bad handle.
 */
void *zs_map_object(struct zs_pool *pool, unsigned long handle,
		    enum zs_mapmode mm)
{
	struct zs_map_area *area;
	struct zspage *zspage;
	unsigned long loc = 0;

	zspage = zs_obj_pin(pool, handle, &loc);
	local_lock(&zs_map_area.lock);
	area = this_cpu_ptr(&zs_map_area);
	area->mapped = true;
	area->handle = handle;
	area->zspage = zspage;
	area->loc = loc;
	area->mode = mm;
	if (zs_bad_call(pool, !zspage)) {
		memset(area->buf, 0, PAGE_SIZE);
		return area->buf;
	}
	if (!zs_loc_spans(loc)) {
		area->kaddr = kmap_local_page(zs_loc_page(loc));
		return area->kaddr + zs_loc_offset(loc);
	}
	if (mm != ZS_MM_WO)
		zs_obj_pieces(loc, area->buf, false);
	return area->buf;
}
EXPORT_SYMBOL_GPL(zs_map_object);

/**
 * zs_unmap_object - end the mapping made by zs_map_object()
 * @pool: the pool the object belongs to
 * @handle: its handle
 *
 * An unmap that ends no mapping of @handle on this CPU is reported once with
 * a warning and otherwise ignored: it leaves the object pinned or unpinned
 * as it was, and the per-CPU lock alone.
 *
 * Context: the CPU and context of the matching zs_map_object(); releases the
 * per-CPU local_lock it took.
 */
void zs_unmap_object(struct zs_pool *pool, unsigned long handle)
{
	/*
	 * Unpaired, this may run preemptible: raw_cpu_ptr() then reads some
	 * CPU's area, where a task holding that CPU's lock maps another
	 * handle, or none is mapped.  Paired, the task stays on this CPU.
	 */
	struct zs_map_area *area = raw_cpu_ptr(&zs_map_area);
	struct zspage *zspage;

	if (zs_bad_call(pool, !READ_ONCE(area->mapped) ||
			READ_ONCE(area->handle) != handle))
		return;
	zspage = area->zspage;
	area->mapped = false;
	if (zspage && !zs_loc_spans(area->loc))
		kunmap_local(area->kaddr);
	else if (zspage && area->mode != ZS_MM_RO)
		zs_obj_pieces(area->loc, area->buf, true);
	local_unlock(&zs_map_area.lock);
	if (zspage)
		zs_obj_unpin(pool, zspage);
}
EXPORT_SYMBOL_GPL(zs_unmap_object);

static int zs_map_cpu_prepare(unsigned int cpu)
{
	struct zs_map_area *area = per_cpu_ptr(&zs_map_area, cpu);

	area->buf = kmalloc(PAGE_SIZE, GFP_KERNEL);
	return area->buf ? 0 : -ENOMEM;
}

static int zs_map_cpu_dead(unsigned int cpu)
{
	struct zs_map_area *area = per_cpu_ptr(&zs_map_area, cpu);

	kfree(area->buf);
	area->buf = NULL;
	return 0;
}

/**
 * zs_map_init - allocate the per-CPU buffers, now and as CPUs come up
 *
 * Return: 0 or -errno.
 */
int zs_map_init(void)
{
	int ret;

	ret = cpuhp_setup_state(CPUHP_BP_PREPARE_DYN, "mm/zsmalloc:prepare",
				zs_map_cpu_prepare, zs_map_cpu_dead);
	if (ret < 0)
		return ret;
	zs_map_cpuhp_state = ret;
	return 0;
}

/**
 * zs_map_exit - free the per-CPU buffers
 */
void zs_map_exit(void)
{
	cpuhp_remove_state(zs_map_cpuhp_state);
}
