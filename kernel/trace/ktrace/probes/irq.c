// SPDX-License-Identifier: GPL-2.0
/*
 * ktrace's interrupt events: hardirq and softirq entry and exit, softirq
 * raise, compact; timer expiry with its lateness, and irq:irqsoff.
 */
#include <linux/hrtimer.h>
#include <linux/interrupt.h>
#include <linux/jiffies.h>
#include <linux/moduleparam.h>
#include <linux/percpu.h>
#include <linux/sched/clock.h>
#include <linux/timer.h>
#include <trace/events/irq.h>
#include <trace/events/preemptirq.h>
#include <trace/events/timer.h>

#include "tracepoints.h"

static const struct ktrace_enum_value kt_irqret_values[] = {
	{ IRQ_NONE, "none" }, { IRQ_HANDLED, "handled" },
	{ IRQ_WAKE_THREAD, "wake_thread" },
	{ IRQ_HANDLED | IRQ_WAKE_THREAD, "handled|wake_thread" },
};

static const struct ktrace_enum_value kt_softirq_values[] = {
	{ HI_SOFTIRQ, "HI" }, { TIMER_SOFTIRQ, "TIMER" },
	{ NET_TX_SOFTIRQ, "NET_TX" }, { NET_RX_SOFTIRQ, "NET_RX" },
	{ BLOCK_SOFTIRQ, "BLOCK" }, { IRQ_POLL_SOFTIRQ, "IRQ_POLL" },
	{ TASKLET_SOFTIRQ, "TASKLET" }, { SCHED_SOFTIRQ, "SCHED" },
	{ HRTIMER_SOFTIRQ, "HRTIMER" }, { RCU_SOFTIRQ, "RCU" },
};

static_assert(ARRAY_SIZE(kt_softirq_values) == NR_SOFTIRQS);

static const struct ktrace_field kt_irq_fields[] = {
	KT_FIELD("irq", 0, 30, KTRACE_DISPLAY_DEC),
};

static const struct ktrace_field kt_irq_exit_fields[] = {
	KT_FIELD("irq", 0, 30, KTRACE_DISPLAY_DEC),
	KT_FIELD_ENUM("ret", 30, 2, kt_irqret),
};

static const struct ktrace_field kt_softirq_fields[] = {
	KT_FIELD_ENUM("vec", 0, 32, kt_softirq),
};

KT_EVENT(kt_ev_irq_entry, "irq", "hardirq_entry", KTRACE_CHANNEL_HIGH,
	 KTRACE_EVENT_COMPACT, kt_irq);
KT_EVENT(kt_ev_irq_exit, "irq", "hardirq_exit", KTRACE_CHANNEL_HIGH,
	 KTRACE_EVENT_COMPACT, kt_irq_exit);
KT_EVENT(kt_ev_softirq_entry, "irq", "softirq_entry", KTRACE_CHANNEL_HIGH,
	 KTRACE_EVENT_COMPACT, kt_softirq);
KT_EVENT(kt_ev_softirq_exit, "irq", "softirq_exit", KTRACE_CHANNEL_HIGH,
	 KTRACE_EVENT_COMPACT, kt_softirq);
KT_EVENT(kt_ev_softirq_raise, "irq", "softirq_raise", KTRACE_CHANNEL_HIGH,
	 KTRACE_EVENT_COMPACT, kt_softirq);

static void kt_probe_irq_handler_entry(void *data, int irq, struct irqaction *action)
{
	ktrace_event_write_compact(&kt_ev_irq_entry, irq);
}

static void kt_probe_irq_handler_exit(void *data, int irq, struct irqaction *action,
				      int ret)
{
	ktrace_event_write_compact(&kt_ev_irq_exit,
				   ((u32)irq & (BIT(30) - 1)) | ((u32)ret << 30));
}

static void kt_probe_softirq_entry(void *data, unsigned int vec)
{
	ktrace_event_write_compact(&kt_ev_softirq_entry, vec);
}

static void kt_probe_softirq_exit(void *data, unsigned int vec)
{
	ktrace_event_write_compact(&kt_ev_softirq_exit, vec);
}

static void kt_probe_softirq_raise(void *data, unsigned int vec)
{
	ktrace_event_write_compact(&kt_ev_softirq_raise, vec);
}

KT_TP_PROBE(register_trace_irq_handler_entry, kt_probe_irq_handler_entry);
KT_TP_PROBE(register_trace_irq_handler_exit, kt_probe_irq_handler_exit);
KT_TP_PROBE(register_trace_softirq_entry, kt_probe_softirq_entry);
KT_TP_PROBE(register_trace_softirq_exit, kt_probe_softirq_exit);
KT_TP_PROBE(register_trace_softirq_raise, kt_probe_softirq_raise);

/*
 * irq:timer_expire: every timer_list and hrtimer callback with how late it
 * runs, so that timer jitter shows in the trace.  A timer_list is late by
 * whole jiffies of the wheel; an hrtimer by the nanoseconds between its
 * expiry and the hrtimer interrupt's clock.  Lateness saturates at +-2 s.
 */
KT_EVENT(kt_ev_timer, "irq", "timer_expire", KTRACE_CHANNEL_HIGH, KTRACE_EVENT_EXPANDED, kt_timer);

static void kt_timer_write(void *fn, s64 late, u32 kind)
{
	struct kt_timer e;

	kt_timer_fill(&e, fn, late, kind);
	ktrace_event_write(&kt_ev_timer, &e, sizeof(e));
}

static void kt_probe_timer(void *data, struct timer_list *timer,
			   unsigned long baseclk)
{
	long late = (long)(baseclk - timer->expires);

	kt_timer_write(timer->function, (s64)late * TICK_NSEC, 0);
}

static void kt_probe_hrtimer(void *data, struct hrtimer *hrtimer, ktime_t *now)
{
	kt_timer_write(hrtimer->function,
		       ktime_to_ns(ktime_sub(*now, hrtimer_get_expires(hrtimer))), 1);
}

KT_TP_PROBE(register_trace_timer_expire_entry, kt_probe_timer);
KT_TP_PROBE(register_trace_hrtimer_expire_entry, kt_probe_hrtimer);

#if defined(CONFIG_PREEMPTIRQ_TRACEPOINTS) && defined(CONFIG_TRACE_IRQFLAGS)
/*
 * irq:irqsoff: a period with interrupts disabled longer than
 * ktrace.irqsoff_min_ns, with the caller that disabled them; from the
 * preemptirq tracepoints, which exist when the kernel tracks the IRQ
 * state (lockdep, the irqsoff tracer).  NMIs are left out: they would
 * clobber the period they interrupt.
 */
#undef MODULE_PARAM_PREFIX
#define MODULE_PARAM_PREFIX "ktrace."

static unsigned int irqsoff_min_ns = 10000;
module_param(irqsoff_min_ns, uint, 0600);
MODULE_PARM_DESC(irqsoff_min_ns, "shortest interrupts-off period irq:irqsoff records");

static DEFINE_PER_CPU(u64, kt_irqsoff_start);
static DEFINE_PER_CPU(unsigned long, kt_irqsoff_caller);

KT_EVENT(kt_ev_irqsoff, "irq", "irqsoff", KTRACE_CHANNEL_HIGH, KTRACE_EVENT_EXPANDED, kt_irqsoff);

static void kt_probe_irq_disable(void *data, unsigned long ip,
				 unsigned long parent_ip)
{
	if (in_nmi())
		return;
	__this_cpu_write(kt_irqsoff_caller, ip);
	__this_cpu_write(kt_irqsoff_start, local_clock());
}

static void kt_probe_irq_enable(void *data, unsigned long ip,
				unsigned long parent_ip)
{
	u64 start = __this_cpu_read(kt_irqsoff_start), d;
	struct kt_irqsoff e;

	if (in_nmi() || !start)
		return;
	__this_cpu_write(kt_irqsoff_start, 0);
	d = local_clock() - start;
	if (d < READ_ONCE(irqsoff_min_ns))
		return;
	kt_irqsoff_fill(&e, __this_cpu_read(kt_irqsoff_caller), d);
	ktrace_event_write(&kt_ev_irqsoff, &e, sizeof(e));
}

KT_TP_PROBE(register_trace_irq_disable, kt_probe_irq_disable);
KT_TP_PROBE(register_trace_irq_enable, kt_probe_irq_enable);
#endif

/*
 * The events of interrupts, in registration order, and their tracepoints.
 * irq:irqsoff's probe that starts a period comes first: it is registered
 * and unregistered first, and the other then ends what it started.
 */
static const struct kt_tp kt_irq_tps[] = {
	KT_TP(kt_ev_irq_entry, register_trace_irq_handler_entry),
	KT_TP(kt_ev_irq_exit, register_trace_irq_handler_exit),
	KT_TP(kt_ev_softirq_entry, register_trace_softirq_entry),
	KT_TP(kt_ev_softirq_exit, register_trace_softirq_exit),
	KT_TP(kt_ev_softirq_raise, register_trace_softirq_raise),
	KT_TP(kt_ev_timer, register_trace_timer_expire_entry),
	KT_TP(kt_ev_timer, register_trace_hrtimer_expire_entry),
#if defined(CONFIG_PREEMPTIRQ_TRACEPOINTS) && defined(CONFIG_TRACE_IRQFLAGS)
	KT_TP(kt_ev_irqsoff, register_trace_irq_disable),
	KT_TP(kt_ev_irqsoff, register_trace_irq_enable),
#endif
};

KT_TP_TABLE(irq);
