/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared by the probes on the kernel's tracepoints, one file per subsystem
 * (sched.c, irq.c, syscalls.c, block.c, vm.c, net.c), and tracepoints.c,
 * which registers their events and turns their probes on and off.
 */
#ifndef _KTRACE_PROBES_TRACEPOINTS_H
#define _KTRACE_PROBES_TRACEPOINTS_H

#include <linux/init.h>
#include <linux/types.h>

#include "records.h"

/**
 * struct kt_tp - a row of a subsystem's table: an event, and one
 *	tracepoint it probes
 * @ev: the event
 * @set: registers the event's probe on the tracepoint (true) or
 *	unregisters it (false), defined by KT_TP_PROBE(); NULL for an event
 *	that no tracepoint of its own writes (another event's probe does)
 *
 * An event is registered at the first of its rows, which are consecutive.
 */
struct kt_tp {
	struct ktrace_event *ev;
	int (*set)(bool on);
};

/**
 * struct kt_tp_table - the table of a subsystem
 * @tps: its rows, in the order the events are registered
 * @nr_tps: their number
 */
struct kt_tp_table {
	const struct kt_tp *tps;
	unsigned int nr_tps;
};

/*
 * Why a function per tracepoint: register_trace_NAME() is a static inline
 * whose probe parameter has the prototype of tracepoint NAME, so the
 * registration functions of two tracepoints have different types.  A table
 * of them would have to cast them to one type, and then the compiler would
 * no longer check a probe against its tracepoint (and kCFI would trap the
 * call through the cast pointer).  KT_TP_PROBE(register_trace_NAME, probe)
 * defines instead kt_set_register_trace_NAME(), of the one type of
 * struct kt_tp's @set, which calls register_trace_NAME(probe, NULL) or
 * unregister_trace_NAME(probe, NULL): the same type check as a call written
 * out, and every registration of a tracepoint is still found by its name,
 * register_trace_NAME.  The unregistration is the same name with "un" in
 * front, so that it cannot be another tracepoint's.
 *
 * KT_TP(event, register_trace_NAME) is the row of the table naming that
 * function; KT_TP_NONE(event) the row of an event without a tracepoint.
 */
#define KT_TP_PROBE(reg, probe)						\
static int kt_set_##reg(bool on)					\
{									\
	return (on ? reg : un##reg)(probe, NULL);			\
}

#define KT_TP(event, reg)	{ .ev = &(event), .set = kt_set_##reg }
#define KT_TP_NONE(event)	{ .ev = &(event) }

/* The table of a subsystem, NAME_tps, as kt_NAME_table for tracepoints.c. */
#define KT_TP_TABLE(name)						\
const struct kt_tp_table kt_##name##_table = {				\
	.tps = kt_##name##_tps,						\
	.nr_tps = ARRAY_SIZE(kt_##name##_tps),				\
}

int kt_tp_enable(struct ktrace_event *ev, bool on);

/* An event of group GRP probing tracepoints, with the fields FLDS_fields. */
#define KT_EVENT(var, grp, nm, ch, knd, flds)				\
static struct ktrace_event var = {					\
	.group = grp,							\
	.name = nm,							\
	.channel = ch,							\
	.kind = knd,							\
	.fields = flds##_fields,					\
	.nr_fields = ARRAY_SIZE(flds##_fields),				\
	.enable = kt_tp_enable,						\
}

extern const struct kt_tp_table kt_sched_table, kt_irq_table, kt_syscalls_table,
	kt_block_table, kt_vm_table, kt_net_table;

#ifdef CONFIG_KTRACE_BENCH
u64 __init kt_bench_loop(void (*fn)(void *arg), void *arg);
void __init kt_sched_bench(void (*report)(const char *name, u64 ns));
void __init kt_syscalls_bench(void (*report)(const char *name, u64 ns));
void __init kt_block_bench(void (*report)(const char *name, u64 ns));
#endif

#endif /* _KTRACE_PROBES_TRACEPOINTS_H */
