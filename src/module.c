// SPDX-License-Identifier: GPL-2.0
/*
 * The module's entry points: what every pool shares is set up at load
 * (pool.c) and torn down at unload, when no pool is left.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/init.h>
#include <linux/module.h>

#include "zs_internal.h"

static int __init zs_init(void)
{
	return zs_setup();
}

static void __exit zs_exit(void)
{
	zs_teardown();
}

module_init(zs_init);
module_exit(zs_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("zsmalloc: allocator for compressed pages");
