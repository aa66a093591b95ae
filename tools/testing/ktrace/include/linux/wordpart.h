/* SPDX-License-Identifier: GPL-2.0 */
/* ktrace harness: the halves of a 64-bit value. */
#ifndef _KTRACE_HARNESS_WORDPART_H
#define _KTRACE_HARNESS_WORDPART_H

#define lower_32_bits(n)	((u32)((n) & 0xffffffff))
#define upper_32_bits(n)	((u32)((n) >> 32))
#endif /* _KTRACE_HARNESS_WORDPART_H */
