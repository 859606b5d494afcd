/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What Linux 6.1 (Debian 12) lacks of what the allocator (src/, written for
 * 7.2) uses: first what 6.12 lacks too (../6.12/compat.h), then what came
 * between 6.1 and 6.12.  Included first in every file of zsmalloc.ko (the
 * top-level Kbuild), which also replaces src/shrinker.c by shrinker.c here
 * (the shrinker API of 6.7) and adds the zpool driver of 6.1's zswap with
 * its eviction (zpool.c, reclaim.c).
 *
 *  - CONFIG_ZSMALLOC_CHAIN_SIZE came in 6.2.  6.1's own allocator makes
 *    chains of at most 4 pages; ours defaults to 16, its densest setting
 *    (BENCHMARKS.md), and max_pages_per_zspage= still says otherwise.
 *  - zs_lookup_class_index() came in 6.2: exported, no 6.1 caller.
 *  - kzalloc_obj(), allocation by type, came after 6.1.
 *  - 6.1's migration has one more mode, MIGRATE_SYNC_NO_COPY, which leaves
 *    the copy to the driver.  Only migrate_vma_pages() uses it, for pages
 *    mapped in a process's page tables; ours never are, so it never reaches
 *    zsmalloc_mops (7.2's, which always copy).
 */
#ifndef _ZS_COMPAT_6_1_H
#define _ZS_COMPAT_6_1_H

#include "../6.12/compat.h"

#define CONFIG_ZSMALLOC_CHAIN_SIZE	16

unsigned int zs_lookup_class_index(struct zs_pool *pool, unsigned int size);

#define kzalloc_obj(P, GFP)		kzalloc(sizeof(P), GFP)

#endif /* _ZS_COMPAT_6_1_H */
