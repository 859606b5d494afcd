/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace shim: unaligned access through memcpy (see linux/kernel.h). */
#ifndef LZO_SHIM_UNALIGNED_H
#define LZO_SHIM_UNALIGNED_H

#include <linux/kernel.h>

/* The union drops a const qualifier that __typeof__ would keep. */
#define get_unaligned(p) ({					\
	union { __typeof__(*(p)) v; unsigned char b[sizeof(*(p))]; } u_; \
	memcpy(u_.b, (p), sizeof(u_.b));			\
	u_.v; })
#define put_unaligned(v, p) do {				\
	__typeof__(*(p)) v_ = (v);				\
	memcpy((p), &v_, sizeof(v_));				\
} while (0)

/* Host and guest are both little endian x86-64. */
static inline u16 get_unaligned_le16(const void *p)
{
	u16 v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static inline u32 get_unaligned_le32(const void *p)
{
	u32 v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static inline void put_unaligned_le32(u32 v, void *p)
{
	memcpy(p, &v, sizeof(v));
}

#endif
