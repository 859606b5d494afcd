// SPDX-License-Identifier: GPL-2.0
/*
 * The version of the out-of-tree module (VERSION beside src/, passed by the
 * top-level Kbuild): modinfo shows it, and dkms installs a module over the
 * kernel's own only if their versions differ (the kernel's has none).
 */
#include <linux/module.h>

MODULE_VERSION(ZSMALLOC_VERSION);
