// SPDX-License-Identifier: GPL-2.0
/*
 * zst_concurrent.c - test_zsmalloc's cases of concurrency
 *
 * concurrent (worker kthreads, one per CPU, on one pool beside a compactor
 * kthread) and faults (the same under injected allocation failures).
 */
#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/kthread.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/zsmalloc.h>

#include "zst.h"

/**
 * struct zst_run - shared state of one concurrent run
 * @pool: the shared pool
 * @faults: the kthreads run with fault injection on; -ENOMEM is expected
 * @left: workers still running their loop
 * @done: completed when @left drops to zero
 */
struct zst_run {
	struct zs_pool *pool;
	bool faults;
	atomic_t left;
	struct completion done;
};

/**
 * struct zst_worker - one kthread of the concurrent case
 * @run: shared state
 * @task: the kthread
 * @rnd: private PRNG
 * @objs: private object slots
 * @scratch: PAGE_SIZE bytes for zst_map(), allocated before the kthread runs
 * @nr_objs: number of slots
 * @id: worker number
 * @ops: operations done
 * @allocs: successful allocations
 * @alloc_errors: failed allocations, other than expected ones
 * @enomem: allocations failed with -ENOMEM under fault injection
 * @mismatches: objects found corrupt
 * @compactions: zs_compact() calls (compactor only)
 * @compacted: pages zs_compact() reported freed (compactor only)
 */
struct zst_worker {
	struct zst_run *run;
	struct task_struct *task;
	struct rnd_state rnd;
	struct zst_obj *objs;
	void *scratch;
	unsigned int nr_objs;
	unsigned int id;
	unsigned long ops;
	unsigned long allocs;
	unsigned long alloc_errors;
	unsigned long enomem;
	unsigned long mismatches;
	unsigned long compactions;
	unsigned long compacted;
};

static void zst_worker_mismatch(struct zst_worker *w, const char *what,
				const struct zst_obj *o, long off)
{
	if (w->mismatches++ < ZST_MAX_REPORTS)
		ktap("# concurrent: FAIL: worker %u: %s: size %u split %u differs at byte %ld",
		     w->id, what, o->size, o->split, off);
}

static void zst_worker_step(struct zst_worker *w)
{
	struct zs_pool *pool = w->run->pool;
	struct zst_obj *o = &w->objs[prandom_u32_state(&w->rnd) % w->nr_objs];
	long off;
	int err;

	if (!o->handle) {
		err = zst_obj_alloc(pool, o, zst_rand_size(&w->rnd), ZST_GFP);
		if (err == -ENOMEM && w->run->faults) {
			w->enomem++;
			return;
		}
		if (err) {
			if (w->alloc_errors++ < ZST_MAX_REPORTS)
				ktap("# concurrent: FAIL: worker %u: zs_malloc() = %d",
				     w->id, err);
			return;
		}
		w->allocs++;
		zst_obj_write(pool, o, prandom_u32_state(&w->rnd), w->scratch);
		return;
	}
	switch (prandom_u32_state(&w->rnd) % 4) {
	case 0:
		off = zst_obj_verify(pool, o, w->scratch);
		if (off >= 0)
			zst_worker_mismatch(w, "RO check", o, off);
		break;
	case 1:
		off = zst_obj_modify(pool, o, &w->rnd, w->scratch);
		if (off >= 0)
			zst_worker_mismatch(w, "RW check", o, off);
		break;
	default:
		off = zst_obj_verify(pool, o, w->scratch);
		if (off >= 0)
			zst_worker_mismatch(w, "check before free", o, off);
		zst_obj_free(pool, o);
		break;
	}
}

static int zst_worker_fn(void *arg)
{
	struct zst_worker *w = arg;
	unsigned int i;
	long off;

	zst_inject_faults(w->run->faults);
	for (w->ops = 0; w->ops < zst_loops && !kthread_should_stop(); w->ops++) {
		zst_worker_step(w);
		cond_resched();
	}
	zst_inject_faults(false);
	for (i = 0; i < w->nr_objs; i++) {
		if (!w->objs[i].handle)
			continue;
		off = zst_obj_verify(w->run->pool, &w->objs[i], w->scratch);
		if (off >= 0)
			zst_worker_mismatch(w, "final check", &w->objs[i], off);
		zst_obj_free(w->run->pool, &w->objs[i]);
		cond_resched();
	}
	if (atomic_dec_and_test(&w->run->left))
		complete(&w->run->done);
	return zst_park_until_stopped();
}

static int zst_compactor_fn(void *arg)
{
	struct zst_worker *w = arg;

	/* Compaction's own allocations fail too: it must stop, not break. */
	zst_inject_faults(w->run->faults);
	while (!kthread_should_stop()) {
		w->compacted += zs_compact(w->run->pool);
		w->compactions++;
		/* Concurrent readers of the pool's counters must be fine too. */
		zs_get_total_pages(w->run->pool);
		zst_pages_compacted(w->run->pool);
		usleep_range(50, 200);
	}
	return 0;
}

/*
 * concurrent: one worker kthread per online CPU (bound to it) allocates,
 * writes, checks, rewrites and frees its own objects in one shared pool,
 * while a compactor kthread calls zs_compact() in a loop; a fragmented set
 * of objects owned by the main thread is checked before and after.  With
 * @faults, the kthreads run with fault injection on (the faults case).
 */
static void zst_concurrent(struct zst_case_ctx *c, bool faults)
{
	unsigned int nr = zst_threads ? zst_threads : num_online_cpus();
	unsigned long n_static = (unsigned long)nr * zst_thread_objects;
	unsigned long ops = 0, allocs = 0, bad = 0, errors = 0, enomem = 0;
	struct zst_worker *workers, *compactor;
	struct zst_obj *statics;
	struct zst_run run;
	unsigned int i, cpu;
	unsigned long j;

	workers = kcalloc(nr + 1, sizeof(*workers), GFP_KERNEL);
	statics = kvcalloc(n_static, sizeof(*statics), GFP_KERNEL);
	if (!workers || !statics) {
		c->skip = "cannot allocate test arrays";
		goto free_arrays;
	}
	compactor = &workers[nr];
	for (i = 0; i < nr; i++) {
		workers[i].objs = kvcalloc(zst_thread_objects, sizeof(struct zst_obj),
					   GFP_KERNEL);
		workers[i].scratch = kmalloc(PAGE_SIZE, GFP_KERNEL);
		if (!workers[i].objs || !workers[i].scratch) {
			c->skip = "cannot allocate test arrays";
			goto free_slots;
		}
	}

	run.pool = zs_create_pool("zst_concurrent");
	if (!run.pool) {
		zst_fail(c, "zs_create_pool() returned NULL");
		goto free_slots;
	}
	run.faults = faults;
	atomic_set(&run.left, nr);
	init_completion(&run.done);

	/* Static objects with holes, so compaction has work from the start. */
	zst_fill_free_slots(c, run.pool, statics, n_static, "static objects");
	for (j = 0; j < n_static; j++)
		if (statics[j].handle && prandom_u32_state(&c->rnd) % 2)
			zst_obj_free(run.pool, &statics[j]);
	zst_report_pool(c, run.pool, "before", statics, n_static);

	cpu = cpumask_first(cpu_online_mask);
	for (i = 0; i < nr; i++) {
		struct zst_worker *w = &workers[i];

		w->run = &run;
		w->id = i;
		w->nr_objs = zst_thread_objects;
		prandom_seed_state(&w->rnd, zst_seed + 1000 + i);
		w->task = kthread_create(zst_worker_fn, w, "zst_worker/%u", i);
		if (IS_ERR(w->task)) {
			zst_fail(c, "kthread_create() = %ld", PTR_ERR(w->task));
			w->task = NULL;
			goto stop_workers;
		}
		kthread_bind(w->task, cpu);
		cpu = cpumask_next(cpu, cpu_online_mask);
		if (cpu >= nr_cpu_ids)
			cpu = cpumask_first(cpu_online_mask);
	}
	compactor->run = &run;
	compactor->task = kthread_run(zst_compactor_fn, compactor, "zst_compactor");
	if (IS_ERR(compactor->task)) {
		zst_fail(c, "kthread_run() = %ld", PTR_ERR(compactor->task));
		compactor->task = NULL;
		goto stop_workers;
	}
	for (i = 0; i < nr; i++)
		wake_up_process(workers[i].task);
	/* Sleep in slices so the hung task detector sees progress. */
	while (!wait_for_completion_timeout(&run.done, HZ))
		;

stop_workers:
	/* A worker never woken returns -EINTR here without running. */
	for (i = 0; i < nr; i++)
		if (workers[i].task)
			kthread_stop(workers[i].task);
	if (compactor->task)
		kthread_stop(compactor->task);

	for (i = 0; i < nr; i++) {
		ops += workers[i].ops;
		allocs += workers[i].allocs;
		bad += workers[i].mismatches;
		errors += workers[i].alloc_errors;
		enomem += workers[i].enomem;
	}
	zst_diag(c, "%u workers: %lu ops, %lu allocations, %lu failed allocations, %lu bad objects",
		 nr, ops, allocs, errors, bad);
	if (faults) {
		zst_diag(c, "%lu allocations failed with -ENOMEM under fault injection",
			 enomem);
		zst_expect(c, enomem, "no allocation failed: is fault injection armed?");
	}
	zst_diag(c, "compactor: %lu zs_compact() calls freed %lu pages, pages_compacted=%lu",
		 compactor->compactions, compactor->compacted,
		 zst_pages_compacted(run.pool));
	zst_expect(c, bad == 0, "%lu objects corrupt in workers", bad);
	zst_expect(c, errors == 0, "%lu allocations failed", errors);

	zst_report_pool(c, run.pool, "after", statics, n_static);
	bad = zst_verify_all(c, run.pool, statics, n_static, "static objects");
	zst_diag(c, "static objects: %lu bad", bad);
	zst_free_all(run.pool, statics, n_static);
	zst_expect_empty(c, run.pool, "all freed");
	zs_destroy_pool(run.pool);
free_slots:
	for (i = 0; i < nr; i++) {
		kfree(workers[i].scratch);
		kvfree(workers[i].objs);
	}
free_arrays:
	kvfree(statics);
	kfree(workers);
}

void zst_case_concurrent(struct zst_case_ctx *c)
{
	zst_concurrent(c, false);
}

/*
 * faults: concurrent with fail_page_alloc and failslab failing some of the
 * allocations the allocator makes for the kthreads (the guest arms them,
 * in task-filter mode): zs_malloc() may then fail, only with -ENOMEM, and
 * every object keeps its content, the pool ends empty.  Opt-in: it is
 * meaningful only with fault injection armed.
 */
void zst_case_faults(struct zst_case_ctx *c)
{
	if (!zst_can_inject()) {
		c->skip = "kernel without CONFIG_FAULT_INJECTION";
		return;
	}
	zst_concurrent(c, true);
}
