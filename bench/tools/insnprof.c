// SPDX-License-Identifier: GPL-2.0
/*
 * insnprof: a QEMU TCG plugin that counts the guest kernel's executed
 * instructions per translated block, for bench/profile.py to add up per
 * function (`bench/run-bench.sh profile`).
 *
 *   qemu-system-x86_64 ... -plugin ./libinsnprof.so,out=FILE[,mark=ADDR]...
 *
 * Each block of kernel code (addresses in the upper half) gets a counter the
 * generated code increments inline each time the block runs.  Each time a
 * block that starts at a mark address runs (hex, a kernel function's first
 * byte: zs_bench calls zs_create_pool() and zs_get_total_pages() between its
 * phases), the counts so far close a segment.  FILE gets, per segment, a
 * line "segment N" and one line per block that ran in it: "start-address
 * instructions executions".  A block translated again (TCG flushed its
 * cache, or icount cut it short) is a block of its own.  Counters are plain
 * adds: exact with one vCPU, which is how the -icount guests run.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <qemu-plugin.h>

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

#define MAX_MARKS 8

struct block {
	uint64_t start;
	uint64_t insns;
	uint64_t runs;		/* incremented by the generated code */
	uint64_t reported;	/* runs already written out */
	struct block *next;
};

/* Blocks are never freed nor moved: generated code holds &block->runs. */
static struct block *blocks;
static pthread_mutex_t blocks_lock = PTHREAD_MUTEX_INITIALIZER;
static uint64_t marks[MAX_MARKS];
static unsigned int nr_marks, segment;
static FILE *out;

/* Writes the runs since the last segment, and starts the next one. */
static void close_segment(void)
{
	struct block *b;

	pthread_mutex_lock(&blocks_lock);
	fprintf(out, "segment %u\n", segment++);
	for (b = blocks; b; b = b->next) {
		if (b->runs == b->reported)
			continue;
		fprintf(out, "%llx %llu %llu\n", (unsigned long long)b->start,
			(unsigned long long)b->insns,
			(unsigned long long)(b->runs - b->reported));
		b->reported = b->runs;
	}
	pthread_mutex_unlock(&blocks_lock);
}

static void mark_run(unsigned int vcpu, void *data)
{
	close_segment();
}

static bool is_mark(uint64_t start)
{
	unsigned int i;

	for (i = 0; i < nr_marks; i++) {
		if (marks[i] == start)
			return true;
	}
	return false;
}

static void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	uint64_t start = qemu_plugin_tb_vaddr(tb);
	struct block *b;

	if (!(start >> 63))
		return;
	b = calloc(1, sizeof(*b));
	if (!b)
		abort();
	b->start = start;
	b->insns = qemu_plugin_tb_n_insns(tb);
	pthread_mutex_lock(&blocks_lock);
	b->next = blocks;
	blocks = b;
	pthread_mutex_unlock(&blocks_lock);
	/* Before the block's own count: a mark's block opens its segment. */
	if (is_mark(start))
		qemu_plugin_register_vcpu_tb_exec_cb(tb, mark_run,
						     QEMU_PLUGIN_CB_NO_REGS,
						     NULL);
	qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64,
						 &b->runs, 1);
}

static void at_exit(qemu_plugin_id_t id, void *data)
{
	close_segment();
	fclose(out);
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
					   const qemu_info_t *info, int argc,
					   char **argv)
{
	const char *path = NULL;
	int i;

	for (i = 0; i < argc; i++) {
		if (!strncmp(argv[i], "out=", 4))
			path = argv[i] + 4;
		else if (!strncmp(argv[i], "mark=", 5) && nr_marks < MAX_MARKS)
			marks[nr_marks++] = strtoull(argv[i] + 5, NULL, 16);
		else
			goto usage;
	}
	if (!path)
		goto usage;
	out = fopen(path, "w");
	if (!out) {
		perror(path);
		return -1;
	}
	qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
	qemu_plugin_register_atexit_cb(id, at_exit, NULL);
	return 0;
usage:
	fprintf(stderr, "insnprof: out=FILE[,mark=HEXADDR]... (at most %d marks)\n",
		MAX_MARKS);
	return -1;
}
