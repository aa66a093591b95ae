// SPDX-License-Identifier: GPL-2.0
/*
 * ktrace instrumentation: probes on the kernel's existing tracepoints.
 *
 * Like blktrace and lttng-modules, ktrace adds no call sites of its own
 * where a 6.12 tracepoint already carries what it needs: each event
 * registers its probe when it is enabled under events/ and unregisters it
 * when disabled, so a disabled event costs what a disabled tracepoint
 * costs, a patched-out static branch.  The probes run in whatever context
 * the tracepoint fires in, NMI included, and only call the lockless write
 * path.
 *
 * The probes are in one file per subsystem, each with a table of its
 * events and of the tracepoints they probe (struct kt_tp, tracepoints.h);
 * this file registers the events in the order of the tables and turns an
 * event's probes on and off.
 *
 * Packing: the frequent events are compact, 8 bytes.  Fields that do not
 * fit (a sector, a reclaim pass, an OOM victim) make expanded events;
 * their layouts are the structs of records.h, described field by field in
 * the metadata.  Truncations are documented in
 * Documentation/trace/ktrace.rst.
 */
#define pr_fmt(fmt) "ktrace: " fmt

#include <linux/init.h>
#include <linux/sched/clock.h>

#include "tracepoints.h"

/* The tables of the subsystems, in the order their events are registered. */
static const struct kt_tp_table *const kt_tp_tables[] = {
	&kt_sched_table,
	&kt_irq_table,
#ifdef CONFIG_HAVE_SYSCALL_TRACEPOINTS
	&kt_syscalls_table,
#endif
#ifdef CONFIG_BLOCK
	&kt_block_table,
#endif
	&kt_vm_table,
#ifdef CONFIG_NET
	&kt_net_table,
#endif
};

/* The first row of @ev, whose rows end at *@end; NULL if it has none. */
static const struct kt_tp *kt_tp_find(const struct ktrace_event *ev,
				      const struct kt_tp **end)
{
	const struct kt_tp *tp, *last;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(kt_tp_tables); i++) {
		last = kt_tp_tables[i]->tps + kt_tp_tables[i]->nr_tps;
		for (tp = kt_tp_tables[i]->tps; tp < last; tp++) {
			if (tp->ev != ev)
				continue;
			for (*end = tp + 1; *end < last && (*end)->ev == ev; (*end)++)
				;
			return tp;
		}
	}
	return NULL;
}

/**
 * kt_tp_enable() - the enable callback of the events of the tables
 * @ev: the event
 * @on: register its probes, or unregister them
 *
 * Registers the probes of @ev's rows in their order; if one fails, those
 * registered already are unregistered.  Unregisters them in the same order.
 * Called under ktrace_mutex.
 *
 * Return: 0, or the first error of a tracepoint.
 */
int kt_tp_enable(struct ktrace_event *ev, bool on)
{
	const struct kt_tp *first, *end, *tp;
	int ret = 0, err;

	first = kt_tp_find(ev, &end);
	if (!first)
		return 0;
	for (tp = first; tp < end; tp++) {
		if (!tp->set)
			continue;
		err = tp->set(on);
		if (!on) {
			ret = ret ?: err;
			continue;
		}
		if (err) {
			while (tp-- > first)
				if (tp->set)
					tp->set(false);
			return err;
		}
	}
	return ret;
}

#ifdef CONFIG_KTRACE_BENCH
#define KT_BENCH_CALLS	100000

/* ns per call of @fn over KT_BENCH_CALLS calls, on this CPU. */
u64 __init kt_bench_loop(void (*fn)(void *arg), void *arg)
{
	unsigned int i;
	u64 t0;

	preempt_disable();
	t0 = local_clock();
	for (i = 0; i < KT_BENCH_CALLS; i++)
		fn(arg);
	t0 = local_clock() - t0;
	preempt_enable();
	return div_u64(t0, KT_BENCH_CALLS);
}

/* The loop's own cost, in every figure. */
static void __init kt_bench_nothing(void *arg)
{
}

/**
 * ktrace_probes_bench() - the cost of the hot probes, packing included
 * @report: given each probe's name and its ns per call
 *
 * Calls the probe functions directly, as their tracepoints would, with
 * tracing on: sched:switch, syscalls:entry and exit, and block:rq_issue and
 * rq_complete of a request that its bio described (a 4 KiB write of a
 * request that never reaches a driver), and the parts of the block probes
 * (kt_block_bench()).  The bare write of a compact event is reported
 * first, as "write"; the loop that calls each, with an empty probe, after
 * sched:switch: every figure includes it.
 */
void __init ktrace_probes_bench(void (*report)(const char *name, u64 ns))
{
	kt_sched_bench(report);
	report("loop alone (an empty probe)", kt_bench_loop(kt_bench_nothing, NULL));
	if (IS_ENABLED(CONFIG_HAVE_SYSCALL_TRACEPOINTS))
		kt_syscalls_bench(report);
	if (IS_ENABLED(CONFIG_BLOCK))
		kt_block_bench(report);
}
#endif /* CONFIG_KTRACE_BENCH */

static int __init ktrace_probes_init(void)
{
	const struct kt_tp *tp, *last;
	unsigned int i;
	int ret;

	for (i = 0; i < ARRAY_SIZE(kt_tp_tables); i++) {
		last = kt_tp_tables[i]->tps + kt_tp_tables[i]->nr_tps;
		for (tp = kt_tp_tables[i]->tps; tp < last; tp++) {
			/* An event's rows are consecutive: register it at its first. */
			if (tp != kt_tp_tables[i]->tps && tp[-1].ev == tp->ev)
				continue;
			ret = ktrace_event_register(tp->ev);
			if (ret) {
				pr_err("cannot register %s:%s: %d\n", tp->ev->group,
				       tp->ev->name, ret);
				return ret;
			}
		}
	}
	return 0;
}
device_initcall(ktrace_probes_init);
