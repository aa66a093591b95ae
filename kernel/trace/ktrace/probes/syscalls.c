// SPDX-License-Identifier: GPL-2.0
/*
 * ktrace's system call events, entry and exit, compact: built where the
 * architecture has the syscall tracepoints.
 *
 * 10 bits of syscall number, then 22 bits: the low 22 bits of the first
 * argument (entry), or the return value (exit), which saturates: every
 * errno and any count below 2 MiB is exact, a larger one shows as
 * ">=2097151" and a pointer returned by mmap() as one of the two bounds.
 *
 * The number is signed, as the tracepoints' id and syscall_get_nr() are:
 * -1 is what the kernel reports where there is no system call number, at
 * the exit of rt_sigreturn (which restored the registers of the
 * interrupted code: orig_ax -1 on x86) and for a call skipped by seccomp
 * or ptrace, and ftrace prints it as "NR -1".  It is not a saturation.
 * The metadata says so: KTRACE_FIELD_SIGNED, two's complement in 10 bits,
 * so -1 is 0x3ff.  That leaves 0 to 510 exact and 511 on saturated
 * (KTRACE_FIELD_SATURATES, ">=511"): x86_64's and the generic table's
 * numbers end at 462 in 6.12; x32's, with __X32_SYSCALL_BIT, saturate.
 */
#include <linux/sched.h>
#include <linux/sched/task_stack.h>
#include <asm/syscall.h>
#include <trace/events/syscalls.h>

#include "tracepoints.h"

#define KT_NR_BITS	10
#define KT_NR_MAX	((1L << (KT_NR_BITS - 1)) - 1)
#define KT_RET_MAX	((1L << (31 - KT_NR_BITS)) - 1)

/* Signed: -1 is exact; numbers from 511 on saturate (see above). */
#define KT_FIELD_NR							\
	{ .name = "nr", .offset = 0, .size = KT_NR_BITS,		\
	  .display = KTRACE_DISPLAY_DEC,				\
	  .flags = KTRACE_FIELD_SIGNED | KTRACE_FIELD_SATURATES }

static __always_inline u32 kt_sys_nr(long nr)
{
	return (u32)clamp(nr, -KT_NR_MAX - 1, KT_NR_MAX) & (BIT(KT_NR_BITS) - 1);
}

static const struct ktrace_field kt_sys_enter_fields[] = {
	KT_FIELD_NR,
	KT_FIELD("arg0", KT_NR_BITS, 32 - KT_NR_BITS, KTRACE_DISPLAY_HEX),
};

static const struct ktrace_field kt_sys_exit_fields[] = {
	KT_FIELD_NR,
	{ .name = "ret", .offset = KT_NR_BITS, .size = 32 - KT_NR_BITS,
	  .display = KTRACE_DISPLAY_DEC,
	  .flags = KTRACE_FIELD_SIGNED | KTRACE_FIELD_SATURATES },
};

KT_EVENT(kt_ev_sys_enter, "syscalls", "entry", KTRACE_CHANNEL_HIGH,
	 KTRACE_EVENT_COMPACT, kt_sys_enter);
KT_EVENT(kt_ev_sys_exit, "syscalls", "exit", KTRACE_CHANNEL_HIGH,
	 KTRACE_EVENT_COMPACT, kt_sys_exit);

static void kt_probe_sys_enter(void *data, struct pt_regs *regs, long id)
{
	unsigned long args[6];

	syscall_get_arguments(current, regs, args);
	ktrace_event_write_compact(&kt_ev_sys_enter, kt_sys_nr(id) |
				   ((u32)args[0] << KT_NR_BITS));
}

static void kt_probe_sys_exit(void *data, struct pt_regs *regs, long ret)
{
	u32 nr = kt_sys_nr(syscall_get_nr(current, regs));

	ret = clamp(ret, -KT_RET_MAX - 1, KT_RET_MAX);
	ktrace_event_write_compact(&kt_ev_sys_exit, nr | ((u32)ret << KT_NR_BITS));
}

KT_TP_PROBE(register_trace_sys_enter, kt_probe_sys_enter);
KT_TP_PROBE(register_trace_sys_exit, kt_probe_sys_exit);

/* The events of system calls, in registration order, and their tracepoints. */
static const struct kt_tp kt_syscalls_tps[] = {
	KT_TP(kt_ev_sys_enter, register_trace_sys_enter),
	KT_TP(kt_ev_sys_exit, register_trace_sys_exit),
};

KT_TP_TABLE(syscalls);

#ifdef CONFIG_KTRACE_BENCH
static void __init kt_bench_sys_enter(void *arg)
{
	kt_probe_sys_enter(NULL, task_pt_regs(current), 110);
}

static void __init kt_bench_sys_exit(void *arg)
{
	kt_probe_sys_exit(NULL, task_pt_regs(current), 4096);
}

/* See ktrace_probes_bench(). */
void __init kt_syscalls_bench(void (*report)(const char *name, u64 ns))
{
	report("syscalls:entry", kt_bench_loop(kt_bench_sys_enter, NULL));
	report("syscalls:exit", kt_bench_loop(kt_bench_sys_exit, NULL));
}
#endif
