/* SPDX-License-Identifier: GPL-2.0 */
/* ktrace harness: nobody waits in the harness. */
#ifndef _KTRACE_HARNESS_WAIT_H
#define _KTRACE_HARNESS_WAIT_H

#include <stdbool.h>
#include <linux/atomic.h>
#include <linux/types.h>

struct wait_queue_head {
	int unused;
};

#define DECLARE_WAIT_QUEUE_HEAD(name)	struct wait_queue_head name = { 0 }
#define ATOMIC_LONG_INIT(i)		{ (i) }

static inline bool wq_has_sleeper(struct wait_queue_head *wq)
{
	return false;
}

static inline void wake_up(struct wait_queue_head *wq)
{
}
#endif /* _KTRACE_HARNESS_WAIT_H */
