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
 * Packing: the frequent events are compact, 8 bytes.  A pid takes 22 bits
 * (PID_MAX_LIMIT is 2^22), leaving 10 for a CPU, a state or a syscall
 * number.  sched:switch carries only the next task: the previous one is
 * the next task of the previous switch on that CPU, or the pid in the
 * subbuffer header.  Fields that do not fit (a sector, a reclaim pass, an
 * OOM victim) make expanded events; their layouts are the structs of
 * records.h, described field by field in the metadata.  Truncations are
 * documented in Documentation/trace/ktrace.rst.
 */
#define pr_fmt(fmt) "ktrace: " fmt

#include <linux/blk-mq.h>
#include <linux/blkdev.h>
#include <linux/blktrace_api.h>
#include <linux/hrtimer.h>
#include <linux/init.h>
#include <linux/interrupt.h>
#include <linux/jiffies.h>
#include <linux/mm.h>
#include <linux/moduleparam.h>
#include <linux/netdevice.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/sched/signal.h>
#include <linux/skbuff.h>
#include <linux/timer.h>
#include <linux/vmstat.h>
#include <asm/syscall.h>

#include <trace/events/block.h>
#include <trace/events/irq.h>
#include <trace/events/net.h>
#include <trace/events/oom.h>
#include <trace/events/preemptirq.h>
#include <trace/events/sched.h>
#include <trace/events/syscalls.h>
#include <trace/events/task.h>
#include <trace/events/timer.h>
#include <trace/events/vmscan.h>

#include "records.h"

/* Compact payloads: a pid in the low bits, something small above it. */
#define KT_PID_MASK		(BIT(KTRACE_PID_BITS) - 1)
#define KT_PACK(pid, hi)	(((u32)(pid) & KT_PID_MASK) | ((u32)(hi) << KTRACE_PID_BITS))
#define KT_HI_BITS		(32 - KTRACE_PID_BITS)

/*
 * An event whose source is one tracepoint TP has an enable callback
 * ktrace_enable_TP() that registers kt_probe_TP() on it, written out so
 * that every registration of a tracepoint is found by its name.  (The
 * probes of the longest vmscan tracepoints have shorter names.)
 */

/* An event whose fields are the array FLDS_fields. */
#define KT_EVENT(var, grp, nm, ch, knd, flds, en)			\
static struct ktrace_event var = {					\
	.group = grp,							\
	.name = nm,							\
	.channel = ch,							\
	.kind = knd,							\
	.fields = flds##_fields,					\
	.nr_fields = ARRAY_SIZE(flds##_fields),				\
	.enable = en,							\
}

/* ---- sched ---------------------------------------------------------- */

static const struct ktrace_field kt_switch_fields[] = {
	KT_FIELD("next_pid", 0, KTRACE_PID_BITS, KTRACE_DISPLAY_PID),
	KT_FIELD_ENUM("prev_state", KTRACE_PID_BITS, 4, kt_state),
};

/* CPUs from 1023 on show as 1023, flagged saturated. */
static const struct ktrace_field kt_pid_cpu_fields[] = {
	KT_FIELD("pid", 0, KTRACE_PID_BITS, KTRACE_DISPLAY_PID),
	{ .name = "cpu", .offset = KTRACE_PID_BITS, .size = KT_HI_BITS,
	  .display = KTRACE_DISPLAY_DEC, .flags = KTRACE_FIELD_SATURATES },
};

static __always_inline u32 kt_pack_pid_cpu(pid_t pid, unsigned int cpu)
{
	return KT_PACK(pid, min_t(unsigned int, cpu, BIT(KT_HI_BITS) - 1));
}

static const struct ktrace_field kt_pid_fields[] = {
	KT_FIELD("pid", 0, KTRACE_PID_BITS, KTRACE_DISPLAY_PID),
};

static void kt_probe_sched_switch(void *data, bool preempt, struct task_struct *prev,
				  struct task_struct *next, unsigned int prev_state);
static void kt_probe_sched_wakeup(void *data, struct task_struct *p);
static void kt_probe_sched_wakeup_new(void *data, struct task_struct *p);
static void kt_probe_sched_migrate_task(void *data, struct task_struct *p, int dest_cpu);
static void kt_probe_sched_process_exit(void *data, struct task_struct *p);
static void kt_probe_sched_process_fork(void *data, struct task_struct *parent,
					struct task_struct *child);
static void kt_probe_sched_process_exec(void *data, struct task_struct *p, pid_t old_pid,
					struct linux_binprm *bprm);
static void kt_probe_task_rename(void *data, struct task_struct *task,
				 const char *comm);

static int ktrace_enable_sched_switch(struct ktrace_event *ev, bool on)
{
	if (on)
		return register_trace_sched_switch(kt_probe_sched_switch, NULL);
	return unregister_trace_sched_switch(kt_probe_sched_switch, NULL);
}

static int ktrace_enable_sched_wakeup(struct ktrace_event *ev, bool on)
{
	if (on)
		return register_trace_sched_wakeup(kt_probe_sched_wakeup, NULL);
	return unregister_trace_sched_wakeup(kt_probe_sched_wakeup, NULL);
}

static int ktrace_enable_sched_wakeup_new(struct ktrace_event *ev, bool on)
{
	if (on)
		return register_trace_sched_wakeup_new(kt_probe_sched_wakeup_new,
						       NULL);
	return unregister_trace_sched_wakeup_new(kt_probe_sched_wakeup_new,
						 NULL);
}

static int ktrace_enable_sched_migrate_task(struct ktrace_event *ev, bool on)
{
	if (on)
		return register_trace_sched_migrate_task(kt_probe_sched_migrate_task,
							 NULL);
	return unregister_trace_sched_migrate_task(kt_probe_sched_migrate_task,
						   NULL);
}

static int ktrace_enable_sched_process_exit(struct ktrace_event *ev, bool on)
{
	if (on)
		return register_trace_sched_process_exit(kt_probe_sched_process_exit,
							 NULL);
	return unregister_trace_sched_process_exit(kt_probe_sched_process_exit,
						   NULL);
}

static int ktrace_enable_sched_process_fork(struct ktrace_event *ev, bool on)
{
	if (on)
		return register_trace_sched_process_fork(kt_probe_sched_process_fork,
							 NULL);
	return unregister_trace_sched_process_fork(kt_probe_sched_process_fork,
						   NULL);
}

static int ktrace_enable_sched_process_exec(struct ktrace_event *ev, bool on)
{
	if (on)
		return register_trace_sched_process_exec(kt_probe_sched_process_exec,
							 NULL);
	return unregister_trace_sched_process_exec(kt_probe_sched_process_exec,
						   NULL);
}

static int ktrace_enable_task_rename(struct ktrace_event *ev, bool on)
{
	if (on)
		return register_trace_task_rename(kt_probe_task_rename, NULL);
	return unregister_trace_task_rename(kt_probe_task_rename, NULL);
}

/* The next task runs from here on: its pid names the events after it. */
static struct ktrace_event kt_ev_switch = {
	.group = "sched", .name = "switch", .channel = KTRACE_CHANNEL_HIGH,
	.kind = KTRACE_EVENT_COMPACT, .fields = kt_switch_fields,
	.nr_fields = ARRAY_SIZE(kt_switch_fields), .pid_is_current = true,
	.enable = ktrace_enable_sched_switch,
};

KT_EVENT(kt_ev_wakeup, "sched", "wakeup", KTRACE_CHANNEL_HIGH, KTRACE_EVENT_COMPACT,
	 kt_pid_cpu, ktrace_enable_sched_wakeup);
KT_EVENT(kt_ev_wakeup_new, "sched", "wakeup_new", KTRACE_CHANNEL_HIGH,
	 KTRACE_EVENT_COMPACT, kt_pid_cpu, ktrace_enable_sched_wakeup_new);
KT_EVENT(kt_ev_migrate, "sched", "migrate", KTRACE_CHANNEL_HIGH, KTRACE_EVENT_COMPACT,
	 kt_pid_cpu, ktrace_enable_sched_migrate_task);
KT_EVENT(kt_ev_exit, "sched", "exit", KTRACE_CHANNEL_HIGH, KTRACE_EVENT_COMPACT,
	 kt_pid, ktrace_enable_sched_process_exit);

static void kt_probe_sched_switch(void *data, bool preempt, struct task_struct *prev,
				  struct task_struct *next, unsigned int prev_state)
{
	unsigned int state = preempt ? KT_STATE_PREEMPTED :
				       __task_state_index(prev_state, prev->exit_state);

	ktrace_event_write_compact(&kt_ev_switch, KT_PACK(next->pid, state));
}

static void kt_probe_sched_wakeup(void *data, struct task_struct *p)
{
	ktrace_event_write_compact(&kt_ev_wakeup, kt_pack_pid_cpu(p->pid, task_cpu(p)));
}

static void kt_probe_sched_wakeup_new(void *data, struct task_struct *p)
{
	ktrace_event_write_compact(&kt_ev_wakeup_new, kt_pack_pid_cpu(p->pid, task_cpu(p)));
}

static void kt_probe_sched_migrate_task(void *data, struct task_struct *p, int dest_cpu)
{
	ktrace_event_write_compact(&kt_ev_migrate, kt_pack_pid_cpu(p->pid, dest_cpu));
}

static void kt_probe_sched_process_exit(void *data, struct task_struct *p)
{
	ktrace_event_write_compact(&kt_ev_exit, KT_PACK(p->pid, 0));
}

#ifdef CONFIG_DETECT_HUNG_TASK
/* sched:hang: the hung-task detector reported this task. */
static void kt_probe_sched_process_hang(void *data, struct task_struct *p);

static int ktrace_enable_sched_process_hang(struct ktrace_event *ev, bool on)
{
	if (on)
		return register_trace_sched_process_hang(kt_probe_sched_process_hang,
							 NULL);
	return unregister_trace_sched_process_hang(kt_probe_sched_process_hang,
						   NULL);
}

KT_EVENT(kt_ev_hang, "sched", "hang", KTRACE_CHANNEL_HIGH, KTRACE_EVENT_COMPACT,
	 kt_pid, ktrace_enable_sched_process_hang);

static void kt_probe_sched_process_hang(void *data, struct task_struct *p)
{
	ktrace_event_write_compact(&kt_ev_hang, KT_PACK(p->pid, 0));
}
#endif

/*
 * Names: fork, exec and comm changes go to the medium-rate channel, which
 * hybrid mode never overwrites, so that a decoder can name every pid of a
 * long flight-recorder run, with the statedump of its start.  That channel
 * drops what no longer fits, so each name is also saved in the saved comms
 * (comm.c), which the readers fall back on.
 */
static struct ktrace_event kt_ev_fork = {
	.group = "sched", .name = "fork", .channel = KTRACE_CHANNEL_MEDIUM,
	.kind = KTRACE_EVENT_EXPANDED, .fields = kt_fork_fields,
	.nr_fields = ARRAY_SIZE(kt_fork_fields), .pid_is_current = true,
	.enable = ktrace_enable_sched_process_fork,
};

static struct ktrace_event kt_ev_exec = {
	.group = "sched", .name = "exec", .channel = KTRACE_CHANNEL_MEDIUM,
	.kind = KTRACE_EVENT_EXPANDED, .fields = kt_exec_fields,
	.nr_fields = ARRAY_SIZE(kt_exec_fields), .pid_is_current = true,
	.enable = ktrace_enable_sched_process_exec,
};

KT_EVENT(kt_ev_comm, "sched", "comm", KTRACE_CHANNEL_MEDIUM, KTRACE_EVENT_EXPANDED,
	 kt_comm, ktrace_enable_task_rename);

static void kt_probe_sched_process_fork(void *data, struct task_struct *parent,
					struct task_struct *child)
{
	char comm[TASK_COMM_LEN];
	struct kt_fork e;

	/* One copy: a rename racing with us must not change it mid-write. */
	strscpy_pad(comm, child->comm);
	kt_fork_fill(&e, parent->pid, child->pid, child->tgid);
	ktrace_comm_save(child->pid, comm);
	ktrace_event_write2(&kt_ev_fork, &e, sizeof(e), comm, strnlen(comm, sizeof(comm)));
}

static void kt_probe_sched_process_exec(void *data, struct task_struct *p, pid_t old_pid,
					struct linux_binprm *bprm)
{
	const char *name = bprm->filename;
	struct kt_exec e;

	kt_exec_fill(&e, p->pid, old_pid, p->comm);
	ktrace_comm_save(p->pid, e.comm);
	ktrace_event_write2(&kt_ev_exec, &e, sizeof(e), name,
			    strnlen(name, PATH_MAX));
}

static void kt_probe_task_rename(void *data, struct task_struct *task,
				 const char *comm)
{
	char name[TASK_COMM_LEN];
	struct kt_comm e;

	strscpy_pad(name, comm);
	kt_comm_fill(&e, task->pid);
	ktrace_comm_save(task->pid, name);
	ktrace_event_write2(&kt_ev_comm, &e, sizeof(e), name, strnlen(name, sizeof(name)));
}

/* ---- irq ------------------------------------------------------------ */

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

static void kt_probe_irq_handler_entry(void *data, int irq, struct irqaction *action);
static void kt_probe_irq_handler_exit(void *data, int irq, struct irqaction *action,
				      int ret);
static void kt_probe_softirq_entry(void *data, unsigned int vec);
static void kt_probe_softirq_exit(void *data, unsigned int vec);
static void kt_probe_softirq_raise(void *data, unsigned int vec);
static void kt_probe_timer(void *data, struct timer_list *timer,
			   unsigned long baseclk);
static void kt_probe_hrtimer(void *data, struct hrtimer *hrtimer, ktime_t *now);

static int ktrace_enable_irq_handler_entry(struct ktrace_event *ev, bool on)
{
	if (on)
		return register_trace_irq_handler_entry(kt_probe_irq_handler_entry,
							NULL);
	return unregister_trace_irq_handler_entry(kt_probe_irq_handler_entry,
						  NULL);
}

static int ktrace_enable_irq_handler_exit(struct ktrace_event *ev, bool on)
{
	if (on)
		return register_trace_irq_handler_exit(kt_probe_irq_handler_exit,
						       NULL);
	return unregister_trace_irq_handler_exit(kt_probe_irq_handler_exit,
						 NULL);
}

static int ktrace_enable_softirq_entry(struct ktrace_event *ev, bool on)
{
	if (on)
		return register_trace_softirq_entry(kt_probe_softirq_entry,
						    NULL);
	return unregister_trace_softirq_entry(kt_probe_softirq_entry, NULL);
}

static int ktrace_enable_softirq_exit(struct ktrace_event *ev, bool on)
{
	if (on)
		return register_trace_softirq_exit(kt_probe_softirq_exit, NULL);
	return unregister_trace_softirq_exit(kt_probe_softirq_exit, NULL);
}

static int ktrace_enable_softirq_raise(struct ktrace_event *ev, bool on)
{
	if (on)
		return register_trace_softirq_raise(kt_probe_softirq_raise,
						    NULL);
	return unregister_trace_softirq_raise(kt_probe_softirq_raise, NULL);
}

KT_EVENT(kt_ev_irq_entry, "irq", "hardirq_entry", KTRACE_CHANNEL_HIGH,
	 KTRACE_EVENT_COMPACT, kt_irq, ktrace_enable_irq_handler_entry);
KT_EVENT(kt_ev_irq_exit, "irq", "hardirq_exit", KTRACE_CHANNEL_HIGH,
	 KTRACE_EVENT_COMPACT, kt_irq_exit, ktrace_enable_irq_handler_exit);
KT_EVENT(kt_ev_softirq_entry, "irq", "softirq_entry", KTRACE_CHANNEL_HIGH,
	 KTRACE_EVENT_COMPACT, kt_softirq, ktrace_enable_softirq_entry);
KT_EVENT(kt_ev_softirq_exit, "irq", "softirq_exit", KTRACE_CHANNEL_HIGH,
	 KTRACE_EVENT_COMPACT, kt_softirq, ktrace_enable_softirq_exit);
KT_EVENT(kt_ev_softirq_raise, "irq", "softirq_raise", KTRACE_CHANNEL_HIGH,
	 KTRACE_EVENT_COMPACT, kt_softirq, ktrace_enable_softirq_raise);

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

/*
 * irq:timer_expire: every timer_list and hrtimer callback with how late it
 * runs, so that timer jitter shows in the trace.  A timer_list is late by
 * whole jiffies of the wheel; an hrtimer by the nanoseconds between its
 * expiry and the hrtimer interrupt's clock.  Lateness saturates at +-2 s.
 */
static int ktrace_enable_timer(struct ktrace_event *ev, bool on)
{
	int ret;

	if (!on) {
		unregister_trace_timer_expire_entry(kt_probe_timer, NULL);
		return unregister_trace_hrtimer_expire_entry(kt_probe_hrtimer,
							     NULL);
	}
	ret = register_trace_timer_expire_entry(kt_probe_timer, NULL);
	if (ret)
		return ret;
	ret = register_trace_hrtimer_expire_entry(kt_probe_hrtimer, NULL);
	if (ret)
		unregister_trace_timer_expire_entry(kt_probe_timer, NULL);
	return ret;
}

KT_EVENT(kt_ev_timer, "irq", "timer_expire", KTRACE_CHANNEL_HIGH, KTRACE_EVENT_EXPANDED,
	 kt_timer, ktrace_enable_timer);

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

static void kt_probe_irq_disable(void *data, unsigned long ip,
				 unsigned long parent_ip);
static void kt_probe_irq_enable(void *data, unsigned long ip,
				unsigned long parent_ip);

static int ktrace_enable_irqsoff(struct ktrace_event *ev, bool on)
{
	int ret;

	if (!on) {
		unregister_trace_irq_disable(kt_probe_irq_disable, NULL);
		return unregister_trace_irq_enable(kt_probe_irq_enable, NULL);
	}
	ret = register_trace_irq_disable(kt_probe_irq_disable, NULL);
	if (ret)
		return ret;
	ret = register_trace_irq_enable(kt_probe_irq_enable, NULL);
	if (ret)
		unregister_trace_irq_disable(kt_probe_irq_disable, NULL);
	return ret;
}

KT_EVENT(kt_ev_irqsoff, "irq", "irqsoff", KTRACE_CHANNEL_HIGH, KTRACE_EVENT_EXPANDED,
	 kt_irqsoff, ktrace_enable_irqsoff);

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
#endif

/* ---- syscalls ------------------------------------------------------- */

/*
 * 10 bits of syscall number, then 22 bits: the low 22 bits of the first
 * argument (entry), or the return value (exit), which saturates: every
 * errno and any count below 2 MiB is exact, a larger one shows as
 * ">=2097151" and a pointer returned by mmap() as one of the two bounds.
 */
#define KT_NR_BITS	10
#define KT_RET_MAX	((1L << (31 - KT_NR_BITS)) - 1)

/* Numbers from 1023 on (x32's, with __X32_SYSCALL_BIT) saturate. */
#define KT_FIELD_NR							\
	{ .name = "nr", .offset = 0, .size = KT_NR_BITS,		\
	  .display = KTRACE_DISPLAY_DEC, .flags = KTRACE_FIELD_SATURATES }

static __always_inline u32 kt_sys_nr(unsigned long nr)
{
	return min_t(unsigned long, nr, BIT(KT_NR_BITS) - 1);
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

#ifdef CONFIG_HAVE_SYSCALL_TRACEPOINTS
static void kt_probe_sys_enter(void *data, struct pt_regs *regs, long id);
static void kt_probe_sys_exit(void *data, struct pt_regs *regs, long ret);

static int ktrace_enable_sys_enter(struct ktrace_event *ev, bool on)
{
	if (on)
		return register_trace_sys_enter(kt_probe_sys_enter, NULL);
	return unregister_trace_sys_enter(kt_probe_sys_enter, NULL);
}

static int ktrace_enable_sys_exit(struct ktrace_event *ev, bool on)
{
	if (on)
		return register_trace_sys_exit(kt_probe_sys_exit, NULL);
	return unregister_trace_sys_exit(kt_probe_sys_exit, NULL);
}

KT_EVENT(kt_ev_sys_enter, "syscalls", "entry", KTRACE_CHANNEL_HIGH,
	 KTRACE_EVENT_COMPACT, kt_sys_enter, ktrace_enable_sys_enter);
KT_EVENT(kt_ev_sys_exit, "syscalls", "exit", KTRACE_CHANNEL_HIGH,
	 KTRACE_EVENT_COMPACT, kt_sys_exit, ktrace_enable_sys_exit);

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
#endif /* CONFIG_HAVE_SYSCALL_TRACEPOINTS */

/* ---- block ---------------------------------------------------------- */

#ifdef CONFIG_BLOCK
/*
 * Block events, 8 bytes per request step.  A bio is described when it is
 * queued (block:bio_queue, 24 bytes: struct ktrace_blk_desc), when it is
 * queued again after a remap (NVMe multipath resubmits the same bio to a
 * path: bio_queue again), or when it is split (block:bio_split describes
 * the front part); the request events (insert, issue, requeue, complete)
 * are compact and carry only the key of the description (ktrace_blk_key():
 * dev, sector, sectors, operation, flags).  A request that is not
 * exactly one described bio (merged bios, the rest of a split bio, a
 * passthrough or flush request, a request after a partial completion, or
 * any request while bio_queue or bio_split is off) is described once by
 * block:rq_describe, before its first event.
 *
 * What a decoder gets from this is honest even when the description was
 * lost (overwritten, or written before the trace started): the key then
 * matches no description and the request shows as unknown, never as
 * another one, because the key hashes the whole identity.
 *
 * A completion that is partial or failed is block:rq_status (12 bytes:
 * the key, the bytes done, the errno) instead of block:rq_complete.
 * Both end the request: decoders forget its description.
 */
static const struct ktrace_field kt_rq_fields[] = {
	KT_FIELD("rq", 0, 32, KTRACE_DISPLAY_KEY),
};

/* The request ends here: a decoder forgets its description. */
static const struct ktrace_field kt_rq_end_fields[] = {
	{ .name = "rq", .offset = 0, .size = 32, .display = KTRACE_DISPLAY_KEY,
	  .flags = KTRACE_FIELD_KEY_END },
};

static void kt_probe_block_rq_insert(void *data, struct request *rq);
static void kt_probe_block_rq_issue(void *data, struct request *rq);
static void kt_probe_block_rq_requeue(void *data, struct request *rq);
static void kt_probe_block_rq_complete(void *data, struct request *rq,
				       blk_status_t error, unsigned int nr_bytes);
static void kt_probe_block_bio_queue(void *data, struct bio *bio);
static void kt_probe_block_bio_remap(void *data, struct bio *bio, dev_t dev,
				     sector_t from);
static void kt_probe_block_split(void *data, struct bio *bio, unsigned int new_sector);

static int ktrace_enable_block_rq_insert(struct ktrace_event *ev, bool on)
{
	if (on)
		return register_trace_block_rq_insert(kt_probe_block_rq_insert,
						      NULL);
	return unregister_trace_block_rq_insert(kt_probe_block_rq_insert, NULL);
}

static int ktrace_enable_block_rq_issue(struct ktrace_event *ev, bool on)
{
	if (on)
		return register_trace_block_rq_issue(kt_probe_block_rq_issue,
						     NULL);
	return unregister_trace_block_rq_issue(kt_probe_block_rq_issue, NULL);
}

static int ktrace_enable_block_rq_requeue(struct ktrace_event *ev, bool on)
{
	if (on)
		return register_trace_block_rq_requeue(kt_probe_block_rq_requeue,
						       NULL);
	return unregister_trace_block_rq_requeue(kt_probe_block_rq_requeue,
						 NULL);
}

static int ktrace_enable_block_rq_complete(struct ktrace_event *ev, bool on)
{
	if (on)
		return register_trace_block_rq_complete(kt_probe_block_rq_complete,
							NULL);
	return unregister_trace_block_rq_complete(kt_probe_block_rq_complete,
						  NULL);
}

static int ktrace_enable_block_split(struct ktrace_event *ev, bool on)
{
	if (on)
		return register_trace_block_split(kt_probe_block_split, NULL);
	return unregister_trace_block_split(kt_probe_block_split, NULL);
}

static int ktrace_enable_bio_queue(struct ktrace_event *ev, bool on)
{
	int ret;

	if (!on) {
		unregister_trace_block_bio_remap(kt_probe_block_bio_remap,
						 NULL);
		return unregister_trace_block_bio_queue(kt_probe_block_bio_queue,
							NULL);
	}
	ret = register_trace_block_bio_queue(kt_probe_block_bio_queue, NULL);
	if (ret)
		return ret;
	ret = register_trace_block_bio_remap(kt_probe_block_bio_remap, NULL);
	if (ret)
		unregister_trace_block_bio_queue(kt_probe_block_bio_queue,
						 NULL);
	return ret;
}

KT_EVENT(kt_ev_bio_queue, "block", "bio_queue", KTRACE_CHANNEL_HIGH,
	 KTRACE_EVENT_EXPANDED, kt_blk_desc, ktrace_enable_bio_queue);
KT_EVENT(kt_ev_bio_split, "block", "bio_split", KTRACE_CHANNEL_HIGH,
	 KTRACE_EVENT_EXPANDED, kt_blk_desc, ktrace_enable_block_split);
/* Written by the request events, when enabled itself. */
KT_EVENT(kt_ev_rq_describe, "block", "rq_describe", KTRACE_CHANNEL_HIGH,
	 KTRACE_EVENT_EXPANDED, kt_blk_desc, NULL);
KT_EVENT(kt_ev_rq_insert, "block", "rq_insert", KTRACE_CHANNEL_HIGH,
	 KTRACE_EVENT_COMPACT, kt_rq, ktrace_enable_block_rq_insert);
KT_EVENT(kt_ev_rq_issue, "block", "rq_issue", KTRACE_CHANNEL_HIGH,
	 KTRACE_EVENT_COMPACT, kt_rq, ktrace_enable_block_rq_issue);
KT_EVENT(kt_ev_rq_requeue, "block", "rq_requeue", KTRACE_CHANNEL_HIGH,
	 KTRACE_EVENT_COMPACT, kt_rq, ktrace_enable_block_rq_requeue);
KT_EVENT(kt_ev_rq_complete, "block", "rq_complete", KTRACE_CHANNEL_HIGH,
	 KTRACE_EVENT_COMPACT, kt_rq_end, ktrace_enable_block_rq_complete);
/* Written by block:rq_complete's probe, when enabled itself. */
KT_EVENT(kt_ev_rq_status, "block", "rq_status", KTRACE_CHANNEL_HIGH,
	 KTRACE_EVENT_EXPANDED, kt_blk_status, NULL);

/*
 * Keys of the requests block:rq_describe described and that have not
 * ended, so that such a request is described once, not at each of its
 * events.  Lossy and racy by design, never wrong beyond the keys
 * themselves: a slot holds one key, so two requests sharing a slot, or
 * two CPUs racing on it, only make a description be written twice; and a
 * key found here whose description the decoder lacks (lost, or written
 * while tracing was off) shows as unknown.  Key 0 is never kept.
 */
#define KT_RQ_KEYS	256
static u32 kt_rq_keys[KT_RQ_KEYS];

/*
 * Whether the bio queued, remapped or split event that made @rq described
 * it exactly: the request is that one bio, on the disk it was queued to,
 * not completed in part since (blk_update_request() clears
 * BIO_TRACE_COMPLETION on every bio it touches; bio_queue set it), with
 * the same operation and flags, and both bio events are on.  False
 * whenever in doubt: a description too many costs 24 bytes.  A wrong
 * "true" costs an unknown request, never a wrong one: the key then matches
 * no description.
 */
static bool kt_rq_described(struct request *rq)
{
	struct bio *bio = rq->bio;

	return bio && bio == rq->biotail && !blk_rq_is_passthrough(rq) &&
	       bio_flagged(bio, BIO_TRACE_COMPLETION) && !bio_flagged(bio, BIO_CHAIN) &&
	       bio->bi_bdev && bio->bi_bdev->bd_disk == rq->q->disk &&
	       req_op(rq) != REQ_OP_ZONE_APPEND && bio_op(bio) == req_op(rq) &&
	       kt_blk_flags(bio->bi_opf) == kt_blk_flags(rq->cmd_flags) &&
	       bio->bi_iter.bi_sector == blk_rq_pos(rq) &&
	       bio->bi_iter.bi_size == blk_rq_bytes(rq) &&
	       READ_ONCE(kt_ev_bio_queue.enabled) && READ_ONCE(kt_ev_bio_split.enabled);
}

/* The key of @rq, described first unless a bio event or an earlier step did it. */
static u32 kt_rq_key(struct request *rq)
{
	struct ktrace_blk_desc d;
	u32 key, *slot;

	/* As blktrace and ftrace: no sector for passthrough and flush requests. */
	kt_blk_desc_fill(&d, rq->q->disk ? disk_devt(rq->q->disk) : 0,
			 blk_rq_trace_sector(rq), blk_rq_bytes(rq), rq->cmd_flags);
	key = ktrace_blk_key(&d);
	if (kt_rq_described(rq) || !READ_ONCE(kt_ev_rq_describe.enabled))
		return key;
	slot = &kt_rq_keys[key % KT_RQ_KEYS];
	if (key && READ_ONCE(*slot) == key)
		return key;
	if (!ktrace_write_expanded(kt_ev_rq_describe.channel, kt_ev_rq_describe.major,
				   kt_ev_rq_describe.minor, &d, sizeof(d)) && key)
		WRITE_ONCE(*slot, key);
	return key;
}

/* The request of @key ended: the next of its identity is described again. */
static void kt_rq_end(u32 key)
{
	u32 *slot = &kt_rq_keys[key % KT_RQ_KEYS];

	/* Read first: most requests were described by their bio, not here. */
	if (key && READ_ONCE(*slot) == key)
		cmpxchg(slot, key, 0);
}

static void kt_probe_block_rq_insert(void *data, struct request *rq)
{
	ktrace_event_write_compact(&kt_ev_rq_insert, kt_rq_key(rq));
}

static void kt_probe_block_rq_issue(void *data, struct request *rq)
{
	ktrace_event_write_compact(&kt_ev_rq_issue, kt_rq_key(rq));
}

static void kt_probe_block_rq_requeue(void *data, struct request *rq)
{
	ktrace_event_write_compact(&kt_ev_rq_requeue, kt_rq_key(rq));
}

static void kt_probe_block_rq_complete(void *data, struct request *rq,
				       blk_status_t error, unsigned int nr_bytes)
{
	struct ktrace_blk_status e;
	u32 key;

	if (likely(!error && nr_bytes == blk_rq_bytes(rq))) {
		key = kt_rq_key(rq);
		ktrace_event_write_compact(&kt_ev_rq_complete, key);
		kt_rq_end(key);
		return;
	}
	if (!READ_ONCE(kt_ev_rq_status.enabled))
		return;
	key = kt_rq_key(rq);
	kt_blk_status_fill(&e, key, nr_bytes, blk_status_to_errno(error));
	ktrace_event_write(&kt_ev_rq_status, &e, sizeof(e));
	kt_rq_end(key);
}

/* A bio as the request made of it will be: on the whole disk. */
static void kt_bio_write(struct ktrace_event *ev, struct bio *bio)
{
	struct ktrace_blk_desc d;

	kt_blk_desc_fill(&d, bio->bi_bdev ? disk_devt(bio->bi_bdev->bd_disk) : 0,
			 bio->bi_iter.bi_sector, bio->bi_iter.bi_size, bio->bi_opf);
	ktrace_event_write(ev, &d, sizeof(d));
}

static void kt_probe_block_bio_queue(void *data, struct bio *bio)
{
	kt_bio_write(&kt_ev_bio_queue, bio);
}

/*
 * A bio sent on to another disk.  Before it was queued (a partition's
 * remap), bio_queue will describe it as it ends up; a bio queued already
 * (NVMe multipath) is not queued again: describe it here.
 */
static void kt_probe_block_bio_remap(void *data, struct bio *bio, dev_t dev,
				     sector_t from)
{
	if (bio_flagged(bio, BIO_TRACE_COMPLETION))
		kt_bio_write(&kt_ev_bio_queue, bio);
}

/* @bio: the front part, split off; the rest goes on as the parent. */
static void kt_probe_block_split(void *data, struct bio *bio, unsigned int new_sector)
{
	kt_bio_write(&kt_ev_bio_split, bio);
}
#endif /* CONFIG_BLOCK */

/* ---- vm ------------------------------------------------------------- */

/* order below 16, then the gfp flags: BUILD_BUG_ON in ktrace_probes_init() */
#define KT_ORDER_BITS	4

static const struct ktrace_field kt_reclaim_begin_fields[] = {
	KT_FIELD("order", 0, KT_ORDER_BITS, KTRACE_DISPLAY_DEC),
	{ .name = "gfp_flags", .offset = KT_ORDER_BITS, .size = 32 - KT_ORDER_BITS,
	  .display = KTRACE_DISPLAY_FLAGS, .values = kt_gfp_values,
	  .nr_values = ARRAY_SIZE(kt_gfp_values) },
};

static const struct ktrace_field kt_reclaim_end_fields[] = {
	KT_FIELD("nr_reclaimed", 0, 32, KTRACE_DISPLAY_DEC),
};

static const struct ktrace_field kt_kswapd_wake_fields[] = {
	KT_FIELD("nid", 0, 10, KTRACE_DISPLAY_DEC),
	KT_FIELD("zid", 10, 3, KTRACE_DISPLAY_DEC),
	KT_FIELD("order", 13, KT_ORDER_BITS, KTRACE_DISPLAY_DEC),
};

static const struct ktrace_field kt_kswapd_sleep_fields[] = {
	KT_FIELD("nid", 0, 10, KTRACE_DISPLAY_DEC),
};

/*
 * vm:shrink_inactive: one pass of reclaim over an inactive LRU list, the
 * unit of the paper's OOM investigation: at which priority, how many
 * pages were scanned and reclaimed, and why the others were kept.
 * Counts saturate at 65535.
 *
 * vm:oom_kill: the OOM killer's victim, sizes in KiB as ftrace's
 * oom:mark_victim; the comm so that the victim is named even when its
 * fork predates the trace.
 */
static void kt_probe_reclaim_begin(void *data, int order, gfp_t gfp_flags);
static void kt_probe_reclaim_end(void *data, unsigned long nr_reclaimed);
static void kt_probe_mm_vmscan_kswapd_wake(void *data, int nid, int zid, int order);
static void kt_probe_mm_vmscan_kswapd_sleep(void *data, int nid);
static void kt_probe_shrink_inactive(void *data, int nid,
				     unsigned long nr_scanned,
				     unsigned long nr_reclaimed,
				     struct reclaim_stat *stat,
				     int priority, int file);
static void kt_probe_mark_victim(void *data, struct task_struct *task, uid_t uid);

static int ktrace_enable_mm_vmscan_direct_reclaim_begin(struct ktrace_event *ev, bool on)
{
	if (on)
		return register_trace_mm_vmscan_direct_reclaim_begin(kt_probe_reclaim_begin,
								     NULL);
	return unregister_trace_mm_vmscan_direct_reclaim_begin(kt_probe_reclaim_begin,
							       NULL);
}

static int ktrace_enable_mm_vmscan_direct_reclaim_end(struct ktrace_event *ev, bool on)
{
	if (on)
		return register_trace_mm_vmscan_direct_reclaim_end(kt_probe_reclaim_end,
								   NULL);
	return unregister_trace_mm_vmscan_direct_reclaim_end(kt_probe_reclaim_end,
							     NULL);
}

static int ktrace_enable_mm_vmscan_kswapd_wake(struct ktrace_event *ev, bool on)
{
	if (on)
		return register_trace_mm_vmscan_kswapd_wake(kt_probe_mm_vmscan_kswapd_wake,
							    NULL);
	return unregister_trace_mm_vmscan_kswapd_wake(kt_probe_mm_vmscan_kswapd_wake,
						      NULL);
}

static int ktrace_enable_mm_vmscan_kswapd_sleep(struct ktrace_event *ev, bool on)
{
	if (on)
		return register_trace_mm_vmscan_kswapd_sleep(kt_probe_mm_vmscan_kswapd_sleep,
							     NULL);
	return unregister_trace_mm_vmscan_kswapd_sleep(kt_probe_mm_vmscan_kswapd_sleep,
						       NULL);
}

static int ktrace_enable_mm_vmscan_lru_shrink_inactive(struct ktrace_event *ev, bool on)
{
	if (on)
		return register_trace_mm_vmscan_lru_shrink_inactive(kt_probe_shrink_inactive,
								    NULL);
	return unregister_trace_mm_vmscan_lru_shrink_inactive(kt_probe_shrink_inactive,
							      NULL);
}

static int ktrace_enable_mark_victim(struct ktrace_event *ev, bool on)
{
	if (on)
		return register_trace_mark_victim(kt_probe_mark_victim, NULL);
	return unregister_trace_mark_victim(kt_probe_mark_victim, NULL);
}

KT_EVENT(kt_ev_reclaim_begin, "vm", "direct_reclaim_begin", KTRACE_CHANNEL_HIGH,
	 KTRACE_EVENT_COMPACT, kt_reclaim_begin,
	 ktrace_enable_mm_vmscan_direct_reclaim_begin);
KT_EVENT(kt_ev_reclaim_end, "vm", "direct_reclaim_end", KTRACE_CHANNEL_HIGH,
	 KTRACE_EVENT_COMPACT, kt_reclaim_end,
	 ktrace_enable_mm_vmscan_direct_reclaim_end);
KT_EVENT(kt_ev_kswapd_wake, "vm", "kswapd_wake", KTRACE_CHANNEL_HIGH,
	 KTRACE_EVENT_COMPACT, kt_kswapd_wake, ktrace_enable_mm_vmscan_kswapd_wake);
KT_EVENT(kt_ev_kswapd_sleep, "vm", "kswapd_sleep", KTRACE_CHANNEL_HIGH,
	 KTRACE_EVENT_COMPACT, kt_kswapd_sleep, ktrace_enable_mm_vmscan_kswapd_sleep);
KT_EVENT(kt_ev_shrink, "vm", "shrink_inactive", KTRACE_CHANNEL_HIGH,
	 KTRACE_EVENT_EXPANDED, kt_shrink,
	 ktrace_enable_mm_vmscan_lru_shrink_inactive);
KT_EVENT(kt_ev_oom, "vm", "oom_kill", KTRACE_CHANNEL_HIGH, KTRACE_EVENT_EXPANDED,
	 kt_oom, ktrace_enable_mark_victim);

static void kt_probe_reclaim_begin(void *data, int order, gfp_t gfp_flags)
{
	ktrace_event_write_compact(&kt_ev_reclaim_begin,
				   (order & (BIT(KT_ORDER_BITS) - 1)) |
				   ((__force u32)gfp_flags << KT_ORDER_BITS));
}

static void kt_probe_reclaim_end(void *data, unsigned long nr_reclaimed)
{
	ktrace_event_write_compact(&kt_ev_reclaim_end, min(nr_reclaimed, U32_MAX));
}

static void kt_probe_mm_vmscan_kswapd_wake(void *data, int nid, int zid, int order)
{
	ktrace_event_write_compact(&kt_ev_kswapd_wake, (nid & 1023) | ((zid & 7) << 10) |
				   ((order & (BIT(KT_ORDER_BITS) - 1)) << 13));
}

static void kt_probe_mm_vmscan_kswapd_sleep(void *data, int nid)
{
	ktrace_event_write_compact(&kt_ev_kswapd_sleep, nid & 1023);
}

static void kt_probe_shrink_inactive(void *data, int nid,
				     unsigned long nr_scanned,
				     unsigned long nr_reclaimed,
				     struct reclaim_stat *stat,
				     int priority, int file)
{
	struct kt_shrink e;

	kt_shrink_fill(&e, nid, nr_scanned, nr_reclaimed, stat, priority, file);
	ktrace_event_write(&kt_ev_shrink, &e, sizeof(e));
}

static void kt_probe_mark_victim(void *data, struct task_struct *task, uid_t uid)
{
	struct mm_struct *mm = task->mm;
	struct kt_oom_mem mem;
	struct kt_oom e;

	if (mm) {
		mem.total_vm = mm->total_vm;
		mem.anon_rss = get_mm_counter(mm, MM_ANONPAGES);
		mem.file_rss = get_mm_counter(mm, MM_FILEPAGES);
		mem.shmem_rss = get_mm_counter(mm, MM_SHMEMPAGES);
		mem.pgtables_bytes = mm_pgtables_bytes(mm);
	}
	kt_oom_fill(&e, task->pid, task->comm, uid, task->signal->oom_score_adj,
		    mm ? &mem : NULL);
	ktrace_event_write(&kt_ev_oom, &e, sizeof(e));
}

/* ---- net ------------------------------------------------------------ */

#ifdef CONFIG_NET
/*
 * 12 bits of interface index, 20 bits of length (1 MiB, beyond GSO); both
 * saturate: an index from 4095 on shows as ">=4095".
 */
#define KT_IFINDEX_BITS	12

static const struct ktrace_field kt_net_fields[] = {
	{ .name = "ifindex", .offset = 0, .size = KT_IFINDEX_BITS,
	  .display = KTRACE_DISPLAY_DEC, .flags = KTRACE_FIELD_SATURATES },
	{ .name = "len", .offset = KT_IFINDEX_BITS, .size = 32 - KT_IFINDEX_BITS,
	  .display = KTRACE_DISPLAY_DEC, .flags = KTRACE_FIELD_SATURATES },
};

static void kt_probe_net_dev_xmit(void *data, struct sk_buff *skb, int rc,
				  struct net_device *dev, unsigned int skb_len);
static void kt_probe_netif_receive_skb(void *data, struct sk_buff *skb);

static int ktrace_enable_net_dev_xmit(struct ktrace_event *ev, bool on)
{
	if (on)
		return register_trace_net_dev_xmit(kt_probe_net_dev_xmit, NULL);
	return unregister_trace_net_dev_xmit(kt_probe_net_dev_xmit, NULL);
}

static int ktrace_enable_netif_receive_skb(struct ktrace_event *ev, bool on)
{
	if (on)
		return register_trace_netif_receive_skb(kt_probe_netif_receive_skb,
							NULL);
	return unregister_trace_netif_receive_skb(kt_probe_netif_receive_skb,
						  NULL);
}

KT_EVENT(kt_ev_xmit, "net", "xmit", KTRACE_CHANNEL_HIGH, KTRACE_EVENT_COMPACT,
	 kt_net, ktrace_enable_net_dev_xmit);
KT_EVENT(kt_ev_receive, "net", "receive", KTRACE_CHANNEL_HIGH, KTRACE_EVENT_COMPACT,
	 kt_net, ktrace_enable_netif_receive_skb);

static inline u32 kt_net_pack(int ifindex, unsigned int len)
{
	return min_t(u32, ifindex, BIT(KT_IFINDEX_BITS) - 1) |
	       (min(len, (unsigned int)BIT(32 - KT_IFINDEX_BITS) - 1) << KT_IFINDEX_BITS);
}

static void kt_probe_net_dev_xmit(void *data, struct sk_buff *skb, int rc,
				  struct net_device *dev, unsigned int skb_len)
{
	ktrace_event_write_compact(&kt_ev_xmit, kt_net_pack(dev->ifindex, skb_len));
}

static void kt_probe_netif_receive_skb(void *data, struct sk_buff *skb)
{
	ktrace_event_write_compact(&kt_ev_receive,
				   kt_net_pack(skb->dev ? skb->dev->ifindex : 0, skb->len));
}
#endif /* CONFIG_NET */

static struct ktrace_event *const ktrace_probe_events[] __initconst = {
	&kt_ev_switch, &kt_ev_wakeup, &kt_ev_wakeup_new, &kt_ev_migrate,
	&kt_ev_exit,
#ifdef CONFIG_DETECT_HUNG_TASK
	&kt_ev_hang,
#endif
	&kt_ev_fork, &kt_ev_exec, &kt_ev_comm,
	&kt_ev_irq_entry, &kt_ev_irq_exit, &kt_ev_softirq_entry,
	&kt_ev_softirq_exit, &kt_ev_softirq_raise, &kt_ev_timer,
#if defined(CONFIG_PREEMPTIRQ_TRACEPOINTS) && defined(CONFIG_TRACE_IRQFLAGS)
	&kt_ev_irqsoff,
#endif
#ifdef CONFIG_HAVE_SYSCALL_TRACEPOINTS
	&kt_ev_sys_enter, &kt_ev_sys_exit,
#endif
#ifdef CONFIG_BLOCK
	&kt_ev_bio_queue, &kt_ev_bio_split, &kt_ev_rq_describe,
	&kt_ev_rq_insert, &kt_ev_rq_issue, &kt_ev_rq_requeue, &kt_ev_rq_complete,
	&kt_ev_rq_status,
#endif
	&kt_ev_reclaim_begin, &kt_ev_reclaim_end, &kt_ev_kswapd_wake,
	&kt_ev_kswapd_sleep, &kt_ev_shrink, &kt_ev_oom,
#ifdef CONFIG_NET
	&kt_ev_xmit, &kt_ev_receive,
#endif
};

#ifdef CONFIG_KTRACE_BENCH
#define KT_BENCH_CALLS	100000

/* ns per call of @fn over KT_BENCH_CALLS calls, on this CPU. */
static u64 __init kt_bench_loop(void (*fn)(void *arg), void *arg)
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

static void __init kt_bench_write(void *arg)
{
	ktrace_event_write_compact(&kt_ev_exit, 0);
}

static void __init kt_bench_switch(void *arg)
{
	kt_probe_sched_switch(NULL, false, current, current, TASK_INTERRUPTIBLE);
}

#ifdef CONFIG_HAVE_SYSCALL_TRACEPOINTS
static void __init kt_bench_sys_enter(void *arg)
{
	kt_probe_sys_enter(NULL, task_pt_regs(current), 110);
}

static void __init kt_bench_sys_exit(void *arg)
{
	kt_probe_sys_exit(NULL, task_pt_regs(current), 4096);
}
#endif

#ifdef CONFIG_BLOCK
static void __init kt_bench_rq_issue(void *arg)
{
	kt_probe_block_rq_issue(NULL, arg);
}

static void __init kt_bench_rq_complete(void *arg)
{
	kt_probe_block_rq_complete(NULL, arg, BLK_STS_OK, SZ_4K);
}
#endif

/**
 * ktrace_probes_bench() - the cost of the hot probes, packing included
 * @report: given each probe's name and its ns per call
 *
 * Calls the probe functions directly, as their tracepoints would, with
 * tracing on: sched:switch, syscalls:entry and exit, and block:rq_issue and
 * rq_complete of a request that its bio described (a 4 KiB write of a
 * request that never reaches a driver).  The bare write of a compact
 * event is reported first, as "write".
 */
void __init ktrace_probes_bench(void (*report)(const char *name, u64 ns))
{
#ifdef CONFIG_BLOCK
	struct request_queue *q = kzalloc(sizeof(*q), GFP_KERNEL);
	struct request *rq = kzalloc(sizeof(*rq), GFP_KERNEL);
	struct bio *bio = kzalloc(sizeof(*bio), GFP_KERNEL);
	bool bq = kt_ev_bio_queue.enabled, bs = kt_ev_bio_split.enabled;
#endif

	report("write", kt_bench_loop(kt_bench_write, NULL));
	report("sched:switch", kt_bench_loop(kt_bench_switch, NULL));
#ifdef CONFIG_HAVE_SYSCALL_TRACEPOINTS
	report("syscalls:entry", kt_bench_loop(kt_bench_sys_enter, NULL));
	report("syscalls:exit", kt_bench_loop(kt_bench_sys_exit, NULL));
#endif
#ifdef CONFIG_BLOCK
	if (!q || !rq || !bio)
		goto free;
	bio->bi_opf = REQ_OP_WRITE | REQ_SYNC;
	bio->bi_iter.bi_sector = 800;
	bio->bi_iter.bi_size = SZ_4K;
	rq->q = q;
	rq->bio = bio;
	rq->biotail = bio;
	rq->cmd_flags = bio->bi_opf;
	rq->__sector = 800;
	rq->__data_len = SZ_4K;
	/* Described by its bio: the events the probes check, not their sources. */
	WRITE_ONCE(kt_ev_bio_queue.enabled, true);
	WRITE_ONCE(kt_ev_bio_split.enabled, true);
	report("block:rq_issue", kt_bench_loop(kt_bench_rq_issue, rq));
	report("block:rq_complete", kt_bench_loop(kt_bench_rq_complete, rq));
	WRITE_ONCE(kt_ev_bio_queue.enabled, bq);
	WRITE_ONCE(kt_ev_bio_split.enabled, bs);
free:
	kfree(bio);
	kfree(rq);
	kfree(q);
#endif
}
#endif /* CONFIG_KTRACE_BENCH */

static int __init ktrace_probes_init(void)
{
	unsigned int i;
	int ret;

	/* What the compact payloads assume. */
	BUILD_BUG_ON(BIT(KTRACE_PID_BITS) < PID_MAX_LIMIT);
	BUILD_BUG_ON(KT_ORDER_BITS + __GFP_BITS_SHIFT > 32);
	BUILD_BUG_ON(BIT(KT_ORDER_BITS) <= MAX_PAGE_ORDER);
	BUILD_BUG_ON(ARRAY_SIZE(kt_softirq_values) != NR_SOFTIRQS);

	for (i = 0; i < ARRAY_SIZE(ktrace_probe_events); i++) {
		ret = ktrace_event_register(ktrace_probe_events[i]);
		if (ret) {
			pr_err("cannot register %s:%s: %d\n", ktrace_probe_events[i]->group,
			       ktrace_probe_events[i]->name, ret);
			return ret;
		}
	}
	return 0;
}
device_initcall(ktrace_probes_init);
