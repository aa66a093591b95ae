/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ktrace harness: memcpy() inline where its size is a constant (a record's
 * fields: a few moves, as the kernel compiles them), and harness_memcpy()
 * otherwise (a reader's copy of a subbuffer), which reader-race slows down.
 */
#ifndef _KTRACE_HARNESS_STRING_H
#define _KTRACE_HARNESS_STRING_H

#include_next <linux/string.h>

void *harness_memcpy(void *dst, const void *src, size_t n);

static __always_inline void *harness_memcpy_inline(void *dst, const void *src, size_t n)
{
	if (__builtin_constant_p(n))
		return __builtin_memcpy(dst, src, n);
	return harness_memcpy(dst, src, n);
}

#define memcpy harness_memcpy_inline
#endif /* _KTRACE_HARNESS_STRING_H */
