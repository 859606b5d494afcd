/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace shim: just enough of the kernel's types and helpers to compile
 * the kernel's own lib/lzo/lzo1x_compress.c (from linux-source, at build
 * time, never copied here) into a host tool.  Only freestanding headers are
 * included, because glibc's <endian.h> defines both __BIG_ENDIAN and
 * __LITTLE_ENDIAN, which lzodefs.h rejects.
 */
#ifndef LZO_SHIM_KERNEL_H
#define LZO_SHIM_KERNEL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;

/* x86-64, as the guest kernel is built: little endian, cheap unaligned. */
#define __LITTLE_ENDIAN 1234
#define CONFIG_X86_64 1
#define CONFIG_HAVE_EFFICIENT_UNALIGNED_ACCESS 1

#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)
#define noinline __attribute__((noinline))
#define min_t(type, a, b) ((type)(a) < (type)(b) ? (type)(a) : (type)(b))
#define min(a, b) ((a) < (b) ? (a) : (b))
#define BUILD_BUG_ON(cond) _Static_assert(!(cond), #cond)

#endif
