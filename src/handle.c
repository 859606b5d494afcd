// SPDX-License-Identifier: GPL-2.0
/*
 * Handles: each pool's table of location words.
 *
 * A handle is an index into its pool's table and the generation of that
 * entry when the object was allocated:
 *
 *   | generation (32 bits) | index (32 bits, 1..2^31 - 1) |
 *
 * An entry holds the object's location word (zs_internal.h) and its
 * generation, which goes up each time the entry's object is freed.  So a
 * handle names a live object exactly when its index is in the table, the
 * entry is in use and the generations agree: a freed, a stale (its entry
 * reused since) or a made-up handle is told from a live one in a few loads,
 * without looking at pages (a stale one passes again only after 2^32 frees
 * of its entry).  Index 0 is never used, so no handle is 0, and
 * with the index below 2^31 none is an error value.
 *
 * The table is a directory of chunks, each a page of location words and half
 * a page of generations, so that an index is found with shifts (the lookups
 * are inline, zs_internal.h).  It only grows: a chunk is never freed before
 * the pool, and a directory outgrown is kept until then too, so that a lookup
 * needs no lock: zs_free() and the readers look a handle up before they know
 * which class lock to take.  A new entry's generation is the pool's seed plus
 * its index, times a large odd constant: the entries of a handle made up from
 * another (a bit of the index flipped) are of generations far apart.
 *
 * Free indices are kept per CPU, up to ZS_HANDLE_CPU_MAX of them, and moved
 * to and from the pool's list of free entries (linked through their location
 * words) ZS_HANDLE_BATCH at a time, so that an allocation and a free touch
 * the pool's lock once in ZS_HANDLE_BATCH calls.
 *
 * Locking: an entry's location word and generation are written under the
 * class lock of its object (zs_handle_retire(), and the allocation, move and
 * migration of objects); a free entry's under @handles->lock.  The per-CPU
 * lists are under their local lock, which nests outside @handles->lock and
 * is never taken under a class lock.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/gfp.h>
#include <linux/hash.h>
#include <linux/percpu.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "zs_internal.h"

/* Indices from 1 up to below this one; above, a handle could be an error. */
#define ZS_HANDLE_LIMIT		BIT(31)

/**
 * struct zs_handle_cpu - free indices kept by one CPU
 * @lock: protects the fields below
 * @nr: how many
 * @idx: the indices
 */
struct zs_handle_cpu {
	local_lock_t lock;
	unsigned int nr;
	u32 idx[ZS_HANDLE_CPU_MAX];
};

/* Takes up to @nr free indices from the pool into @cpu; how many it took. */
static unsigned int zs_handle_take(struct zs_handles *handles,
				   struct zs_handle_cpu *cpu, unsigned int nr)
{
	unsigned int got = 0;

	spin_lock(&handles->lock);
	while (got < nr && handles->free) {
		u32 idx = handles->free;

		handles->free = *zs_handle_loc(handles, idx) & ~ZS_LOC_FREED;
		cpu->idx[cpu->nr++] = idx;
		got++;
	}
	while (got < nr && handles->unused < handles->limit) {
		cpu->idx[cpu->nr++] = handles->unused++;
		got++;
	}
	spin_unlock(&handles->lock);
	return got;
}

/* Gives @nr of @cpu's free indices back to the pool; out of line, as rare. */
static noinline void zs_handle_give(struct zs_handles *handles,
				    struct zs_handle_cpu *cpu, unsigned int nr)
{
	spin_lock(&handles->lock);
	while (nr--) {
		u32 idx = cpu->idx[--cpu->nr];

		WRITE_ONCE(*zs_handle_loc(handles, idx),
			   ZS_LOC_FREED | handles->free);
		handles->free = idx;
	}
	spin_unlock(&handles->lock);
}

/* An empty directory with room for @nr chunks. */
static struct zs_handle_dir *zs_handle_dir_alloc(unsigned int nr, gfp_t gfp)
{
	struct zs_handle_dir *dir;

	dir = kzalloc(struct_size(dir, chunk, nr), gfp);
	if (dir)
		dir->nr = nr;
	return dir;
}

/*
 * Fills the pages of chunk @n: every location word free; with an even @n,
 * the generations of it and of the chunk after it, which share the page.
 */
static void zs_handle_chunk_init(struct zs_handles *handles,
				 struct zs_handle_chunk *chunk, unsigned int n)
{
	u32 gen = (handles->seed + (n << ZS_HANDLE_CHUNK_SHIFT)) * GOLDEN_RATIO_32;
	unsigned int i;

	memset64((u64 *)chunk->loc, ZS_LOC_FREED, ZS_HANDLES_PER_CHUNK);
	if (n % 2)
		return;
	for (i = 0; i < 2 * ZS_HANDLES_PER_CHUNK; i++, gen += GOLDEN_RATIO_32)
		chunk->gen[i] = gen;
}

/*
 * Makes the directory of @handles twice as large, with @gfp.
 * Context: takes and drops @handles->lock, held on entry and on return.
 */
static bool zs_handle_dir_grow(struct zs_handles *handles, gfp_t gfp)
	__must_hold(&handles->lock)
{
	unsigned int nr = handles->dir->nr * 2;
	struct zs_handle_dir *dir;

	spin_unlock(&handles->lock);
	dir = zs_handle_dir_alloc(nr, gfp);
	spin_lock(&handles->lock);
	if (!dir)
		return false;
	if (handles->dir->nr >= nr) {	/* someone else made it meanwhile */
		kfree(dir);
		return true;
	}
	memcpy(dir->chunk, handles->dir->chunk,
	       handles->dir->nr * sizeof(dir->chunk[0]));
	dir->older = handles->dir;
	WRITE_ONCE(handles->dir, dir);
	return true;
}

/*
 * Adds a chunk of free entries to the table, with @gfp.  Return: false when
 * memory is short or the table is as large as it may be.
 */
static bool zs_handle_grow(struct zs_handles *handles, gfp_t gfp)
{
	unsigned int n = READ_ONCE(handles->limit) >> ZS_HANDLE_CHUNK_SHIFT;
	struct zs_handle_chunk chunk = { };
	u32 *gen_page = NULL;
	bool grown = false;

	if ((n + 1) << ZS_HANDLE_CHUNK_SHIFT > ZS_HANDLE_LIMIT)
		return false;
	chunk.loc = (void *)__get_free_page(gfp);
	if (!chunk.loc)
		return false;
	if (n % 2 == 0) {
		gen_page = (void *)__get_free_page(gfp);
		if (!gen_page)
			goto free;
		chunk.gen = gen_page;
	}
	/* Outside the lock: @n is only a guess until it is taken. */
	zs_handle_chunk_init(handles, &chunk, n);
	spin_lock(&handles->lock);
	/* Another caller added entries meanwhile: take those first. */
	if (handles->unused < handles->limit || handles->free)
		goto retry;
	if (n != handles->limit >> ZS_HANDLE_CHUNK_SHIFT)
		goto retry;
	if (n == handles->dir->nr && !zs_handle_dir_grow(handles, gfp))
		goto unlock;
	/* The lock was dropped: look again. */
	if (n != handles->limit >> ZS_HANDLE_CHUNK_SHIFT)
		goto retry;
	if (n % 2)
		chunk.gen = handles->dir->chunk[n - 1].gen + ZS_HANDLES_PER_CHUNK;
	handles->dir->chunk[n] = chunk;
	/* The entries appear with the chunk that holds them. */
	smp_store_release(&handles->limit, (n + 1) << ZS_HANDLE_CHUNK_SHIFT);
	spin_unlock(&handles->lock);
	return true;
retry:
	grown = true;
unlock:
	spin_unlock(&handles->lock);
free:
	free_page((unsigned long)gen_page);
	free_page((unsigned long)chunk.loc);
	return grown;
}

/* The last of @cpu's free indices, which it has. */
static u32 zs_handle_cpu_pop(struct zs_handle_cpu *cpu)
{
	return cpu->idx[--cpu->nr];
}

/*
 * zs_handle_get() when the CPU has no free index: some from the pool, which
 * may have to grow first.  Out of line, so that the common case saves no
 * registers.
 */
static noinline u32 zs_handle_get_slow(struct zs_handles *handles, gfp_t gfp)
{
	struct zs_handle_cpu *cpu;
	u32 idx = 0;

	do {
		local_lock(&handles->cpu->lock);
		cpu = this_cpu_ptr(handles->cpu);
		if (cpu->nr || zs_handle_take(handles, cpu, ZS_HANDLE_BATCH))
			idx = zs_handle_cpu_pop(cpu);
		local_unlock(&handles->cpu->lock);
	} while (!idx && zs_handle_grow(handles, gfp));
	return idx;
}

/**
 * zs_handle_get - take a free index of the table
 * @handles: the pool's table
 * @gfp: how the table may grow
 *
 * Context: process or atomic context as @gfp allows; no class lock held.
 * Return: the index, or 0 when the table cannot grow.
 */
u32 zs_handle_get(struct zs_handles *handles, gfp_t gfp)
{
	struct zs_handle_cpu *cpu;
	u32 idx = 0;

	local_lock(&handles->cpu->lock);
	cpu = this_cpu_ptr(handles->cpu);
	if (likely(cpu->nr))
		idx = zs_handle_cpu_pop(cpu);
	local_unlock(&handles->cpu->lock);
	if (likely(idx))
		return idx;
	return zs_handle_get_slow(handles, gfp);
}

/**
 * zs_handle_put - give back an index that zs_handle_get() gave
 * @handles: the pool's table
 * @idx: the index, its entry retired (zs_handle_retire()) or never used
 *
 * Context: any context but interrupt; no class lock held.
 */
void zs_handle_put(struct zs_handles *handles, u32 idx)
{
	struct zs_handle_cpu *cpu;

	local_lock(&handles->cpu->lock);
	cpu = this_cpu_ptr(handles->cpu);
	if (unlikely(cpu->nr == ZS_HANDLE_CPU_MAX))
		zs_handle_give(handles, cpu, ZS_HANDLE_BATCH);
	cpu->idx[cpu->nr++] = idx;
	local_unlock(&handles->cpu->lock);
}

/**
 * zs_handles_bytes - memory a table holds
 * @handles: the pool's table
 *
 * Its chunks and directories, whether their entries are in use or not: the
 * table does not shrink before the pool goes.
 *
 * Context: any context; the answer may be out of date.
 * Return: the bytes.
 */
unsigned long zs_handles_bytes(struct zs_handles *handles)
{
	struct zs_handle_dir *dir;
	unsigned long bytes;
	unsigned int n;

	spin_lock(&handles->lock);
	n = handles->limit >> ZS_HANDLE_CHUNK_SHIFT;
	/* A page of location words per chunk, a page of generations per two. */
	bytes = (n + DIV_ROUND_UP(n, 2)) * PAGE_SIZE;
	for (dir = handles->dir; dir; dir = dir->older)
		bytes += struct_size(dir, chunk, dir->nr);
	spin_unlock(&handles->lock);
	return bytes;
}

/**
 * zs_handles_init - set up an empty table
 * @handles: the table, in a new pool
 *
 * Context: process context; may sleep.
 * Return: 0 or -ENOMEM.
 */
int zs_handles_init(struct zs_handles *handles)
{
	int cpu;

	spin_lock_init(&handles->lock);
	/* Index 0 is never handed out: it is counted as used from the start. */
	handles->unused = 1;
	handles->seed = get_random_u32();
	handles->dir = zs_handle_dir_alloc(4, GFP_KERNEL);
	if (!handles->dir)
		return -ENOMEM;
	handles->cpu = alloc_percpu(struct zs_handle_cpu);
	if (!handles->cpu) {
		kfree(handles->dir);
		return -ENOMEM;
	}
	for_each_possible_cpu(cpu)
		local_lock_init(&per_cpu_ptr(handles->cpu, cpu)->lock);
	return 0;
}

/**
 * zs_handles_destroy - free a table and every directory it had
 * @handles: the table of a pool being destroyed
 *
 * Context: process context.
 */
void zs_handles_destroy(struct zs_handles *handles)
{
	struct zs_handle_dir *dir = handles->dir, *older;
	unsigned int n;

	free_percpu(handles->cpu);
	for (n = 0; n < handles->limit >> ZS_HANDLE_CHUNK_SHIFT; n++) {
		free_page((unsigned long)dir->chunk[n].loc);
		if (n % 2 == 0)
			free_page((unsigned long)dir->chunk[n].gen);
	}
	for (; dir; dir = older) {
		older = dir->older;
		kfree(dir);
	}
}
