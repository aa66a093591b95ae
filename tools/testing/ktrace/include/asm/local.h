/* SPDX-License-Identifier: GPL-2.0 */
/* ktrace harness: local_t, single unlocked instructions as in the kernel. */
#ifndef _KTRACE_HARNESS_LOCAL_H
#define _KTRACE_HARNESS_LOCAL_H

/*
 * Atomic against a signal handler on the same thread, the harness's
 * interrupt, not against other threads: as in the kernel, only the owner
 * of a buffer writes to it.  x86-64 only.
 */
struct local {
	long a;
};

#define local_t struct local

static inline long local_read(local_t *l)
{
	return READ_ONCE(l->a);
}

static inline void local_set(local_t *l, long v)
{
	WRITE_ONCE(l->a, v);
}

static inline void local_add(long i, local_t *l)
{
	asm volatile("addq %1,%0" : "+m" (l->a) : "er" (i));
}

static inline void local_inc(local_t *l)
{
	local_add(1, l);
}

static inline long local_add_return(long i, local_t *l)
{
	long r = i;

	asm volatile("xaddq %0,%1" : "+r" (r), "+m" (l->a) : : "memory");
	return r + i;
}

static inline long local_cmpxchg(local_t *l, long old, long new)
{
	long prev;

	asm volatile("cmpxchgq %2,%1"
		     : "=a" (prev), "+m" (l->a)
		     : "r" (new), "0" (old) : "memory");
	return prev;
}
#endif /* _KTRACE_HARNESS_LOCAL_H */
