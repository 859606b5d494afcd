// SPDX-License-Identifier: GPL-2.0
/*
 * The module's entry points on 6.12: what every pool shares (pool.c), then
 * what 6.12's callers need, the per-CPU mapping buffers (map.c) and the
 * zpool driver (zpool.c), set up at load and torn down at unload.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/init.h>
#include <linux/module.h>

#include "zs_internal.h"

static int __init zs_init(void)
{
	int err;

	err = zs_setup();
	if (err)
		return err;
	err = zs_map_init();
	if (err)
		goto teardown;
	err = zs_zpool_init();
	if (err)
		goto exit_map;
	return 0;

exit_map:
	zs_map_exit();
teardown:
	zs_teardown();
	return err;
}

static void __exit zs_exit(void)
{
	zs_zpool_exit();
	zs_map_exit();
	zs_teardown();
}

module_init(zs_init);
module_exit(zs_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("zsmalloc: allocator for compressed pages");
