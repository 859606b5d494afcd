/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace shim: what lzo1x_compress.c and lzo-sizes.c need of <linux/lzo.h>. */
#ifndef LZO_SHIM_LZO_H
#define LZO_SHIM_LZO_H

#include <linux/kernel.h>

/* Dictionary: 2^13 entries of unsigned short. */
#define LZO1X_1_MEM_COMPRESS (8192 * sizeof(unsigned short))
#define lzo1x_worst_compress(x) ((x) + ((x) / 16) + 64 + 3 + 2)

#define LZO_E_OK 0
#define LZO_E_ERROR (-1)
#define LZO_E_INPUT_OVERRUN (-4)
#define LZO_E_OUTPUT_OVERRUN (-5)
#define LZO_E_LOOKBEHIND_OVERRUN (-6)
#define LZO_E_INPUT_NOT_CONSUMED (-8)

int lzo1x_1_compress(const unsigned char *src, size_t src_len,
		     unsigned char *dst, size_t *dst_len, void *wrkmem);
int lzorle1x_1_compress(const unsigned char *src, size_t src_len,
			unsigned char *dst, size_t *dst_len, void *wrkmem);
int lzo1x_decompress_safe(const unsigned char *src, size_t src_len,
			  unsigned char *dst, size_t *dst_len);

#endif
