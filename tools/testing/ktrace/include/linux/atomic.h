/* SPDX-License-Identifier: GPL-2.0 */
/* ktrace harness: the write path's atomic_long_t operations, ordered as in the kernel. */
#ifndef _KTRACE_HARNESS_ATOMIC_H
#define _KTRACE_HARNESS_ATOMIC_H

#include <stdbool.h>
#include <linux/types.h>

static inline long atomic_long_read(const atomic_long_t *v)
{
	return __atomic_load_n(&v->counter, __ATOMIC_RELAXED);
}

static inline void atomic_long_inc(atomic_long_t *v)
{
	__atomic_fetch_add(&v->counter, 1, __ATOMIC_SEQ_CST);
}

static inline bool atomic_long_try_cmpxchg(atomic_long_t *v, long *old, long new)
{
	return __atomic_compare_exchange_n(&v->counter, old, new, false,
					   __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
}
#endif /* _KTRACE_HARNESS_ATOMIC_H */
