// SPDX-License-Identifier: GPL-2.0
/*
 * ktrace's scheduler events: switches, wakeups, migrations, exits and
 * hung tasks, compact; forks, execs and renames, which name the pids.
 *
 * sched:switch also saves the names of both tasks in the saved comms
 * (comm.c), as ftrace's saved_cmdlines does.
 *
 * Packing: a pid takes 22 bits (PID_MAX_LIMIT is 2^22), leaving 10 for a
 * CPU or a state.  sched:switch carries only the next task: the previous
 * one is the next task of the previous switch on that CPU, or the pid in
 * the subbuffer header.
 */
#include <linux/binfmts.h>
#include <linux/mm_types.h>
#include <linux/sched.h>
#include <trace/events/sched.h>
#include <trace/events/task.h>

#include "tracepoints.h"

/* Compact payloads: a pid in the low bits, something small above it. */
#define KT_PID_MASK		(BIT(KTRACE_PID_BITS) - 1)
#define KT_PACK(pid, hi)	(((u32)(pid) & KT_PID_MASK) | ((u32)(hi) << KTRACE_PID_BITS))
#define KT_HI_BITS		(32 - KTRACE_PID_BITS)

static_assert(BIT(KTRACE_PID_BITS) >= PID_MAX_LIMIT);

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

/* The next task runs from here on: its pid names the events after it. */
static struct ktrace_event kt_ev_switch = {
	.group = "sched", .name = "switch", .channel = KTRACE_CHANNEL_HIGH,
	.kind = KTRACE_EVENT_COMPACT, .fields = kt_switch_fields,
	.nr_fields = ARRAY_SIZE(kt_switch_fields), .pid_is_current = true,
	.enable = kt_tp_enable,
};

KT_EVENT(kt_ev_wakeup, "sched", "wakeup", KTRACE_CHANNEL_HIGH, KTRACE_EVENT_COMPACT, kt_pid_cpu);
KT_EVENT(kt_ev_wakeup_new, "sched", "wakeup_new", KTRACE_CHANNEL_HIGH,
	 KTRACE_EVENT_COMPACT, kt_pid_cpu);
KT_EVENT(kt_ev_migrate, "sched", "migrate", KTRACE_CHANNEL_HIGH, KTRACE_EVENT_COMPACT, kt_pid_cpu);
KT_EVENT(kt_ev_exit, "sched", "exit", KTRACE_CHANNEL_HIGH, KTRACE_EVENT_COMPACT, kt_pid);

static void kt_probe_sched_switch(void *data, bool preempt, struct task_struct *prev,
				  struct task_struct *next, unsigned int prev_state)
{
	unsigned int state = preempt ? KT_STATE_PREEMPTED :
				       __task_state_index(prev_state, prev->exit_state);

	/*
	 * Name the task switched in, in the saved comms (ftrace's
	 * saved_cmdlines names both tasks of every switch): a task alive
	 * before the trace that exits during it is named without a
	 * statedump.  prev was named when it was switched in, or by the
	 * statedump, fork, exec or rename that the trace saw, unless that
	 * save was missed (its slot busy) or its name evicted since (more
	 * pids than slots): a dying task, whose pid is about to be reused,
	 * is saved again at its last switch.  Each save costs a compare
	 * with the slot, and a write only if the slot names another task or
	 * name (ktrace_comm_save_task()); saving prev at every switch cost
	 * sched:switch 0.37x the bare write (make bench).  The dying task's
	 * save comes first, so that only next is live across the write and
	 * its save stays a tail call.
	 */
	if (unlikely(prev_state == TASK_DEAD))
		ktrace_comm_save_task(prev);
	ktrace_event_write_compact(&kt_ev_switch, KT_PACK(next->pid, state));
	ktrace_comm_save_task(next);
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

KT_TP_PROBE(register_trace_sched_switch, kt_probe_sched_switch);
KT_TP_PROBE(register_trace_sched_wakeup, kt_probe_sched_wakeup);
KT_TP_PROBE(register_trace_sched_wakeup_new, kt_probe_sched_wakeup_new);
KT_TP_PROBE(register_trace_sched_migrate_task, kt_probe_sched_migrate_task);
KT_TP_PROBE(register_trace_sched_process_exit, kt_probe_sched_process_exit);

#ifdef CONFIG_DETECT_HUNG_TASK
/* sched:hang: the hung-task detector reported this task. */
KT_EVENT(kt_ev_hang, "sched", "hang", KTRACE_CHANNEL_HIGH, KTRACE_EVENT_COMPACT, kt_pid);

static void kt_probe_sched_process_hang(void *data, struct task_struct *p)
{
	ktrace_event_write_compact(&kt_ev_hang, KT_PACK(p->pid, 0));
}

KT_TP_PROBE(register_trace_sched_process_hang, kt_probe_sched_process_hang);
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
	.enable = kt_tp_enable,
};

static struct ktrace_event kt_ev_exec = {
	.group = "sched", .name = "exec", .channel = KTRACE_CHANNEL_MEDIUM,
	.kind = KTRACE_EVENT_EXPANDED, .fields = kt_exec_fields,
	.nr_fields = ARRAY_SIZE(kt_exec_fields), .pid_is_current = true,
	.enable = kt_tp_enable,
};

KT_EVENT(kt_ev_comm, "sched", "comm", KTRACE_CHANNEL_MEDIUM, KTRACE_EVENT_EXPANDED, kt_comm);

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

KT_TP_PROBE(register_trace_sched_process_fork, kt_probe_sched_process_fork);
KT_TP_PROBE(register_trace_sched_process_exec, kt_probe_sched_process_exec);
KT_TP_PROBE(register_trace_task_rename, kt_probe_task_rename);

/* The events of the scheduler, in registration order, and their tracepoints. */
static const struct kt_tp kt_sched_tps[] = {
	KT_TP(kt_ev_switch, register_trace_sched_switch),
	KT_TP(kt_ev_wakeup, register_trace_sched_wakeup),
	KT_TP(kt_ev_wakeup_new, register_trace_sched_wakeup_new),
	KT_TP(kt_ev_migrate, register_trace_sched_migrate_task),
	KT_TP(kt_ev_exit, register_trace_sched_process_exit),
#ifdef CONFIG_DETECT_HUNG_TASK
	KT_TP(kt_ev_hang, register_trace_sched_process_hang),
#endif
	KT_TP(kt_ev_fork, register_trace_sched_process_fork),
	KT_TP(kt_ev_exec, register_trace_sched_process_exec),
	KT_TP(kt_ev_comm, register_trace_task_rename),
};

KT_TP_TABLE(sched);

#ifdef CONFIG_KTRACE_BENCH
static void __init kt_bench_write(void *arg)
{
	ktrace_event_write_compact(&kt_ev_exit, 0);
}

static void __init kt_bench_switch(void *arg)
{
	kt_probe_sched_switch(NULL, false, current, current, TASK_INTERRUPTIBLE);
}

/* See ktrace_probes_bench(): the bare write, then sched:switch. */
void __init kt_sched_bench(void (*report)(const char *name, u64 ns))
{
	report("write", kt_bench_loop(kt_bench_write, NULL));
	report("sched:switch", kt_bench_loop(kt_bench_switch, NULL));
}
#endif
