// SPDX-License-Identifier: GPL-2.0
/*
 * ktrace test events: a source of events in hardirq context, for the
 * selftests, until the real instrumentation exists.
 *
 * test:tick is a compact event on the medium-rate channel, the channel the
 * mark file writes to from task context, so that ticks interrupt mark
 * writers between their reservation and their commit.  While the event is
 * enabled, a pinned hard hrtimer on every online CPU writes one tick every
 * tick_us microseconds (module parameter ktrace.tick_us, default 20); the
 * payload is a per-CPU sequence number, from 0 at every enable, that only
 * advances for ticks that reached the buffer, written or dropped, so that
 * a reader can check that the ticks it reads are in order and that the
 * missing ones were counted.
 */
#define pr_fmt(fmt) "ktrace: " fmt

#include <linux/hrtimer.h>
#include <linux/init.h>
#include <linux/moduleparam.h>
#include <linux/percpu.h>
#include <linux/smp.h>

#include "event.h"
#include "ktrace_internal.h"

#undef MODULE_PARAM_PREFIX
#define MODULE_PARAM_PREFIX "ktrace."

static unsigned int tick_us = 20;
module_param(tick_us, uint, 0600);
MODULE_PARM_DESC(tick_us, "period of the test:tick event, in microseconds");

static DEFINE_PER_CPU(struct hrtimer, ktrace_tick_timer);
static DEFINE_PER_CPU(u32, ktrace_tick_seq);

static const struct ktrace_field ktrace_tick_fields[] = {
	{ .name = "seq", .offset = 0, .size = 32, .display = KTRACE_DISPLAY_DEC },
};

static int ktrace_tick_enable(struct ktrace_event *ev, bool on);

static struct ktrace_event ktrace_event_tick = {
	.group = "test",
	.name = "tick",
	.channel = KTRACE_CHANNEL_MEDIUM,
	.kind = KTRACE_EVENT_COMPACT,
	.fields = ktrace_tick_fields,
	.nr_fields = ARRAY_SIZE(ktrace_tick_fields),
	.enable = ktrace_tick_enable,
};

static enum hrtimer_restart ktrace_tick(struct hrtimer *timer)
{
	u32 seq = __this_cpu_read(ktrace_tick_seq);

	if (ktrace_write_compact(KTRACE_CHANNEL_MEDIUM, ktrace_event_tick.id, seq) != -EAGAIN)
		__this_cpu_write(ktrace_tick_seq, seq + 1);
	hrtimer_forward_now(timer, ns_to_ktime(max(READ_ONCE(tick_us), 1U) * NSEC_PER_USEC));
	return HRTIMER_RESTART;
}

/* On each CPU: the timer must be started where it is pinned. */
static void ktrace_tick_start(void *info)
{
	struct hrtimer *timer = this_cpu_ptr(&ktrace_tick_timer);

	hrtimer_start(timer, ns_to_ktime(max(READ_ONCE(tick_us), 1U) * NSEC_PER_USEC),
		      HRTIMER_MODE_REL_PINNED_HARD);
}

static int ktrace_tick_enable(struct ktrace_event *ev, bool on)
{
	unsigned int cpu;

	if (on) {
		for_each_possible_cpu(cpu)
			per_cpu(ktrace_tick_seq, cpu) = 0;
		on_each_cpu(ktrace_tick_start, NULL, 1);
	} else {
		for_each_possible_cpu(cpu)
			hrtimer_cancel(per_cpu_ptr(&ktrace_tick_timer, cpu));
	}
	return 0;
}

static int __init ktrace_test_events_init(void)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu) {
		struct hrtimer *timer = per_cpu_ptr(&ktrace_tick_timer, cpu);

		hrtimer_init(timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED_HARD);
		timer->function = ktrace_tick;
	}
	return ktrace_event_register(&ktrace_event_tick);
}
device_initcall(ktrace_test_events_init);
