/* SPDX-License-Identifier: GPL-2.0 */
/* ktrace harness: a pending flag the harness runs where the kernel's interrupt would. */
#ifndef _KTRACE_HARNESS_IRQ_WORK_H
#define _KTRACE_HARNESS_IRQ_WORK_H

#include <stdbool.h>

struct irq_work {
	void (*func)(struct irq_work *work);
	int pending;
};

void init_irq_work(struct irq_work *work, void (*func)(struct irq_work *work));
void irq_work_sync(struct irq_work *work);

static inline bool irq_work_queue(struct irq_work *work)
{
	__atomic_store_n(&work->pending, 1, __ATOMIC_RELAXED);
	return true;
}
#endif /* _KTRACE_HARNESS_IRQ_WORK_H */
