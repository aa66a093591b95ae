/* SPDX-License-Identifier: GPL-2.0 */
/* ktrace harness: allocation is calloc() and free(). */
#ifndef _KTRACE_HARNESS_SLAB_H
#define _KTRACE_HARNESS_SLAB_H

#include <stdlib.h>
#include <linux/types.h>

#define GFP_KERNEL	0

static inline void *kzalloc(size_t size, int gfp)
{
	return calloc(1, size);
}

static inline void *kcalloc(size_t n, size_t size, int gfp)
{
	return calloc(n, size);
}

static inline void kfree(void *p)
{
	free(p);
}
#endif /* _KTRACE_HARNESS_SLAB_H */
