/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace shim: module annotations compile to nothing (see kernel.h). */
#ifndef LZO_SHIM_MODULE_H
#define LZO_SHIM_MODULE_H
#define EXPORT_SYMBOL_GPL(sym)
#define MODULE_LICENSE(s)
#define MODULE_DESCRIPTION(s)
#endif
