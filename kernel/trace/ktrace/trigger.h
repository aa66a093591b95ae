/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ktrace triggers: shared by trigger.c (parsing, arming, firing), latency.c
 * (the latency matcher) and their KUnit tests.
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
	KTRACE_TRIG_LATENCY,
	KTRACE_NR_TRIG_KINDS,
};

enum ktrace_latency_kind {
	KTRACE_LAT_BLOCK,	/* request issue to completion, by dev and sector */
	KTRACE_LAT_WAKEUP,	/* wakeup to running, by pid */
	KTRACE_LAT_SYSCALL,	/* entry to exit, by pid */
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

int ktrace_trigger_parse(char *s, struct ktrace_trigger_spec *spec);
unsigned int ktrace_trigger_slot(const struct ktrace_trigger_spec *spec);
const char *ktrace_trigger_slot_name(unsigned int slot);
int ktrace_trigger_format_spec(const struct ktrace_trigger_spec *spec,
			       char *buf, size_t size);

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

int ktrace_trigger_fire(struct ktrace_trigger *t,
			const struct ktrace_trigger_cause *cause);

/* latency.c: the matcher of a latency trigger. */
#define KTRACE_LAT_SLOTS	4096	/* entries in flight, per trigger */
#define KTRACE_LAT_PROBES	8	/* slots tried per key */

/**
 * struct ktrace_lat_slot - one begun, unfinished pair
 * @key: the key, with bit 63 set; 0 when free
 * @start: trace clock at the beginning, never 0; 0 while being filled
 *	or claimed
 * @info: kept for the report: the system call number, the IRQ
 */
struct ktrace_lat_slot {
	u64 key;
	u64 start;
	u32 info;
};

/**
 * struct ktrace_latency - the matcher of one latency trigger
 * @slots: %KTRACE_LAT_SLOTS entries, allocated at arming
 * @threshold: in trace clock units
 * @untracked: beginnings not tracked: no free slot among the probed
 * @scan: the timer that fires on pairs whose end never came; queued only
 *	while a trace runs
 * @scan_period: its period in jiffies
 * @trigger: the trigger it fires
 */
struct ktrace_latency {
	struct ktrace_lat_slot *slots;
	u64 threshold;
	atomic_long_t untracked;
	struct timer_list scan;
	unsigned long scan_period;
	struct ktrace_trigger *trigger;
};

bool ktrace_lat_begin(struct ktrace_latency *l, u64 key, u64 now, u32 info,
		      bool restart);
bool ktrace_lat_end(struct ktrace_latency *l, u64 key, u64 now, u64 since,
		    u64 *elapsed, u32 *info);
bool ktrace_lat_expired(struct ktrace_latency *l, u64 now, u64 since,
			u64 *key, u64 *elapsed, u32 *info);
void ktrace_lat_forget(struct ktrace_latency *l, u64 key);
bool ktrace_lat_move(struct ktrace_latency *l, u64 from, u64 to);
#if IS_ENABLED(CONFIG_KUNIT)
int ktrace_lat_hook(struct ktrace_latency *l, bool on);
#endif
int ktrace_latency_arm(struct ktrace_trigger *t);
void ktrace_latency_start(struct ktrace_trigger *t);
void ktrace_latency_disarm(struct ktrace_trigger *t);

#endif /* _KTRACE_TRIGGER_H */
