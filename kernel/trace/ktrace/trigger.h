/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ktrace triggers: shared by trigger_parse.c (the specs), trigger_fire.c
 * (the firing and its log), trigger.c (the armed triggers), the kinds
 * provided above them (latency.c, trigger_crash.c) and their KUnit tests.
 */
#ifndef _KTRACE_TRIGGER_H
#define _KTRACE_TRIGGER_H

#include <linux/atomic.h>
#include <linux/sched.h>
#include <linux/timer.h>
#include <linux/tracepoint.h>
#include <linux/types.h>

enum ktrace_trigger_kind {
	KTRACE_TRIG_OOM,
	KTRACE_TRIG_OOPS,
	KTRACE_TRIG_PANIC,
	KTRACE_TRIG_HUNG_TASK,
	KTRACE_TRIG_USER,
	KTRACE_TRIG_WARN,	/* WARN(), from __warn() */
	KTRACE_TRIG_KERNEL,	/* ktrace_trigger(), from kernel code */
	KTRACE_TRIG_CLUSTER,	/* a trigger message from the group */
	KTRACE_TRIG_LATENCY,
	KTRACE_NR_TRIG_KINDS,
};

enum ktrace_latency_kind {
	KTRACE_LAT_BLOCK,	/* request issue to completion, by dev and sector */
	KTRACE_LAT_WAKEUP,	/* wakeup to running, by pid */
	KTRACE_LAT_SYSCALL,	/* entry to exit, by task */
	KTRACE_LAT_IRQ,		/* hardirq handler, by CPU */
	KTRACE_NR_LAT_KINDS,
};

/*
 * Trigger probes run after the event probes of the same tracepoint (a
 * higher priority runs first), so that the event that caused a trigger,
 * vm:oom_kill or block:rq_complete, is in the trace before the freeze.
 */
#define KTRACE_TRIGGER_PRIO	(TRACEPOINT_DEFAULT_PRIO - 1)

/* One armed trigger per kind, and per kind of latency. */
#define KTRACE_NR_TRIG_SLOTS	(KTRACE_TRIG_LATENCY + KTRACE_NR_LAT_KINDS)

enum ktrace_trigger_action {
	KTRACE_ACTION_STOP,	/* freeze the trace (after delay=) */
	KTRACE_ACTION_MARK,	/* record and notify, keep tracing */
};

/* Limits of the options; beyond them a write fails with -ERANGE. */
#define KTRACE_TRIGGER_COUNT_MAX	1000000U
#define KTRACE_TRIGGER_DELAY_MAX_MS	600000U		/* ten minutes */
#define KTRACE_TRIGGER_LAST_MAX		100000U
#define KTRACE_TRIGGER_LAST_DEFAULT	100U
#define KTRACE_LATENCY_MIN_NS		1000ULL		/* 1 us */
#define KTRACE_LATENCY_MAX_NS		(3600ULL * NSEC_PER_SEC)

/**
 * struct ktrace_trigger_spec - what a write to the triggers file asks for
 * @kind: enum ktrace_trigger_kind
 * @lat: %KTRACE_TRIG_LATENCY: enum ktrace_latency_kind
 * @disarm: "!NAME": disarm rather than arm
 * @action: enum ktrace_trigger_action
 * @count: fire at the count-th occurrence (and every one after it)
 * @delay_ms: keep tracing this long after the cause, then freeze
 * @threshold_ns: %KTRACE_TRIG_LATENCY: fire above this
 * @nr: latency:syscall: only this system call, or -1 for any
 * @last: panic: events per CPU printed to the console
 */
struct ktrace_trigger_spec {
	u8 kind;
	u8 lat;
	bool disarm;
	u8 action;
	u32 count;
	u32 delay_ms;
	u64 threshold_ns;
	int nr;
	u32 last;
};

/* trigger_parse.c */
int ktrace_trigger_parse(char *s, struct ktrace_trigger_spec *spec);
unsigned int ktrace_trigger_slot(const struct ktrace_trigger_spec *spec);
const char *ktrace_trigger_slot_name(unsigned int slot);
int ktrace_trigger_format_spec(const struct ktrace_trigger_spec *spec,
			       char *buf, size_t size);
const char *ktrace_trigger_action_name(unsigned int action);

/**
 * struct ktrace_trigger_cause - what made a trigger fire
 * @pid: the task concerned
 * @comm: its name, or %NULL for the name of @task
 * @task: the task, to take @comm from, or %NULL
 * @value: what was measured
 * @reason: what happened, in words
 */
struct ktrace_trigger_cause {
	u32 pid;
	const char *comm;
	struct task_struct *task;
	u64 value;
	const char *reason;
};

struct ktrace_latency;
struct ktrace_ascii;

/**
 * struct ktrace_trigger - an armed trigger
 * @spec: what was armed
 * @hits: occurrences of its cause while tracing
 * @fired: times it fired
 * @lat: %KTRACE_TRIG_LATENCY: the matcher
 * @dump: panic: the reader that prints the dump, allocated at arming
 */
struct ktrace_trigger {
	struct ktrace_trigger_spec spec;
	atomic_t hits;
	atomic_t fired;
	struct ktrace_latency *lat;
	struct ktrace_ascii *dump;
};

/* trigger_fire.c */
int ktrace_trigger_fire(struct ktrace_trigger *t,
			const struct ktrace_trigger_cause *cause);
void ktrace_trigger_stop_cancel(void);
/* The firings trigger_pipe keeps: a ring of this many, the newest. */
#define KTRACE_TRIGGER_FIRINGS	64
typedef void (*ktrace_trigger_hook_fn)(void);
#if IS_ENABLED(CONFIG_KUNIT)
extern ktrace_trigger_hook_fn ktrace_trigger_log_hook;
extern ktrace_trigger_hook_fn ktrace_trigger_stop_hook;
void ktrace_trigger_stop_flush(void);
void ktrace_trigger_pipe_drain(void);
#endif

struct seq_file;

/**
 * struct ktrace_trigger_ops - a kind of trigger provided above trigger.c
 * @arm: set a new trigger up, before it is published; under the arming
 *	lock; may sleep; on an error, leave nothing of it set up.  %NULL:
 *	nothing to do
 * @start: with ktrace_mutex held, when a trace starts or once the trigger
 *	is published while a trace runs.  At a start it is called under
 *	rcu_read_lock(), so it must not sleep
 * @disarm: detach the hooks of an unpublished trigger; may sleep.  After
 *	it returns, the caller waits for running tracepoint probes and for
 *	RCU readers of the trigger (tracepoint_synchronize_unregister(),
 *	synchronize_rcu()) before @release; a provider whose own hooks need
 *	another wait does it here, and may free what only those hooks used
 * @release: after that wait, or %NULL: free what the trigger's RCU
 *	readers (a start's @start, the notifiers) may have used
 * @show: add to its line in the triggers file
 *
 * The providers set theirs at boot with ktrace_trigger_set_ops(); a kind
 * has one provider.
 */
struct ktrace_trigger_ops {
	int (*arm)(struct ktrace_trigger *t);
	void (*start)(struct ktrace_trigger *t);
	void (*disarm)(struct ktrace_trigger *t);
	void (*release)(struct ktrace_trigger *t);
	void (*show)(struct ktrace_trigger *t, struct seq_file *m);
};

/* trigger.c */
struct ktrace_trigger *ktrace_trigger_get(unsigned int slot);
void ktrace_trigger_set_ops(unsigned int kind,
			    const struct ktrace_trigger_ops *ops);

#endif /* _KTRACE_TRIGGER_H */
