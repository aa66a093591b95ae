// SPDX-License-Identifier: GPL-2.0
/*
 * ktrace latency triggers: fire when the time between a beginning and its
 * end exceeds a threshold, or when the end has not come by then.
 *
 *   kind     begins at              ends at                key
 *   block    block_rq_issue         block_rq_complete      dev, sector
 *   wakeup   sched_wakeup(_new)     sched_switch to it     pid
 *   syscall  sys_enter              sys_exit               task
 *   irq      irq_handler_entry      irq_handler_exit       CPU
 *
 * The matcher is a table of %KTRACE_LAT_SLOTS slots allocated when the
 * trigger is armed (as in the latency-tracker): a key may sit in any of
 * %KTRACE_LAT_PROBES consecutive slots from its hash.  The probes run in
 * any context, the runqueue lock held or in an interrupt handler, so
 * they take no lock and allocate nothing; a beginning that finds no free
 * slot is counted as untracked.  A slot is owned by whoever changes its
 * fields with cmpxchg:
 *
 *   free     key == 0
 *   filling  key set by the beginning's cmpxchg, start still 0
 *   in use   start != 0, published with a release store
 *   claimed  start set back to 0 by the end, a timeout or a forget; the
 *            claimer then frees the slot by clearing key
 *
 * A lookup tries all of a key's slots (free ones do not end the search),
 * so freeing never hides a key.  Keys of one kind never begin twice at
 * once on two CPUs (a task is woken under its pi_lock, a request issued
 * once, a task enters one system call at a time), so a key is never in
 * two slots.  An end that finds its slot still filling (a beginning and
 * end nanoseconds apart, on two CPUs) misses it; the slot then times out.
 *
 * While a trace runs, a timer scans the table every threshold, but not
 * more often than every %KTRACE_LAT_SCAN_MIN_MS, and fires on pairs older
 * than the threshold: a request that never completes, a task that is
 * never run.  Pairs begun before the current trace started are dropped
 * without firing.  The timer stops with the trace and is started again
 * with the next one.
 */
#define pr_fmt(fmt) "ktrace: " fmt

#include <linux/blkdev.h>
#include <linux/hash.h>
#include <linux/interrupt.h>
#include <linux/jiffies.h>
#include <linux/minmax.h>
#include <linux/pid.h>
#include <linux/pid_namespace.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <kunit/static_stub.h>
#include <kunit/visibility.h>
#include <asm/syscall.h>
#include <trace/events/block.h>
#include <trace/events/irq.h>
#include <trace/events/sched.h>
#include <trace/events/syscalls.h>

#include "ktrace_internal.h"
#include "latency.h"

#define KTRACE_LAT_BITS		ilog2(KTRACE_LAT_SLOTS)
#define KTRACE_LAT_USED		BIT_ULL(63)
#define KTRACE_LAT_SCAN_MIN_MS	10
/*
 * Block keys: a 23-bit hash of the dev_t above the low 40 bits of the
 * sector (512 TiB); the dev_t itself is kept in the slot's info.
 */
#define KTRACE_LAT_SECTOR_BITS	40

static struct ktrace_lat_slot *ktrace_lat_slot(struct ktrace_latency *l,
					       u64 key, unsigned int i)
{
	return &l->slots[(hash_64(key, KTRACE_LAT_BITS) + i) & (KTRACE_LAT_SLOTS - 1)];
}

/* Claim an in-use slot: true if this caller now owns its start. */
static bool ktrace_lat_claim(struct ktrace_lat_slot *s, u64 start)
{
	return start && cmpxchg64(&s->start, start, 0) == start;
}

/* Free a claimed slot. */
static void ktrace_lat_free(struct ktrace_lat_slot *s)
{
	/* The start cleared before the key: a new owner finds start 0. */
	smp_store_release(&s->key, 0);
}

/**
 * ktrace_lat_begin() - a pair begins
 * @l: the matcher
 * @key: what identifies the pair, below 2^63
 * @now: trace clock
 * @info: kept with it for the report (a system call and pid, an IRQ)
 * @restart: if @key is in flight already: true to begin again from @now,
 *	false to keep the earlier beginning
 *
 * Return: true if the pair is tracked, false if there was no free slot
 * (counted in @l->untracked).
 */
bool ktrace_lat_begin(struct ktrace_latency *l, u64 key, u64 now, u64 info,
		      bool restart)
{
	struct ktrace_lat_slot *s;
	unsigned int i;
	u64 start;

	key |= KTRACE_LAT_USED;
	now = now ?: 1;
	for (i = 0; i < KTRACE_LAT_PROBES; i++) {
		s = ktrace_lat_slot(l, key, i);
		if (READ_ONCE(s->key) != key)
			continue;
		start = READ_ONCE(s->start);
		if (!restart && start)
			return true;
		if (start && cmpxchg64(&s->start, start, now) == start) {
			WRITE_ONCE(s->info, info);
			return true;
		}
	}
	for (i = 0; i < KTRACE_LAT_PROBES; i++) {
		s = ktrace_lat_slot(l, key, i);
		if (READ_ONCE(s->key) || cmpxchg64(&s->key, 0, key))
			continue;
		WRITE_ONCE(s->info, info);
		/* The slot's fields before its start: pairs with the acquire loads. */
		smp_store_release(&s->start, now);
		return true;
	}
	atomic_long_inc(&l->untracked);
	return false;
}
EXPORT_SYMBOL_IF_KUNIT(ktrace_lat_begin);

/*
 * Take the pair in flight under @key out of the matcher: its beginning and
 * info, or false if none (or another CPU took it first).
 */
static bool ktrace_lat_take(struct ktrace_latency *l, u64 key, u64 *start,
			    u64 *info)
{
	struct ktrace_lat_slot *s;
	unsigned int i;

	key |= KTRACE_LAT_USED;
	for (i = 0; i < KTRACE_LAT_PROBES; i++) {
		s = ktrace_lat_slot(l, key, i);
		if (READ_ONCE(s->key) != key)
			continue;
		/* Pairs with the release store of the beginning: its info is set. */
		*start = smp_load_acquire(&s->start);
		if (!ktrace_lat_claim(s, *start))
			continue;
		*info = READ_ONCE(s->info);
		ktrace_lat_free(s);
		return true;
	}
	return false;
}

/**
 * ktrace_lat_end() - a pair ends
 * @l: the matcher
 * @key: as given to ktrace_lat_begin()
 * @now: trace clock
 * @since: trace clock at the start of the trace: earlier beginnings are
 *	from a previous trace, and dropped
 * @elapsed: set to the time since the beginning, if found
 * @info: set to what the beginning kept, if found
 *
 * Return: true if the pair was found and took longer than the threshold.
 */
bool ktrace_lat_end(struct ktrace_latency *l, u64 key, u64 now, u64 since,
		    u64 *elapsed, u64 *info)
{
	u64 start;

	if (!ktrace_lat_take(l, key, &start, info) || start < since)
		return false;
	*elapsed = now > start ? now - start : 0;
	return *elapsed > l->threshold;
}
EXPORT_SYMBOL_IF_KUNIT(ktrace_lat_end);

/**
 * ktrace_lat_forget() - a pair will never end (its task exited)
 * @l: the matcher
 * @key: as given to ktrace_lat_begin()
 */
void ktrace_lat_forget(struct ktrace_latency *l, u64 key)
{
	u64 elapsed, info;

	ktrace_lat_end(l, key, 0, U64_MAX, &elapsed, &info);
}
EXPORT_SYMBOL_IF_KUNIT(ktrace_lat_forget);

/**
 * ktrace_lat_expired() - find a pair older than the threshold
 * @l: the matcher
 * @now: trace clock
 * @since: trace clock at the start of the trace; older pairs are dropped
 * @key: set to the key of the pair found
 * @elapsed: set to its age
 * @info: set to what its beginning kept
 *
 * The pair found is removed: call again for the next.
 *
 * Return: true if one was found.
 */
bool ktrace_lat_expired(struct ktrace_latency *l, u64 now, u64 since,
			u64 *key, u64 *elapsed, u64 *info)
{
	struct ktrace_lat_slot *s;
	unsigned int i;
	u64 start, k;

	for (i = 0; i < KTRACE_LAT_SLOTS; i++) {
		s = &l->slots[i];
		k = READ_ONCE(s->key);
		if (!k)
			continue;
		/* Pairs with the release store of the beginning: its info is set. */
		start = smp_load_acquire(&s->start);
		if (!start || (start >= since && (now <= start || now - start <= l->threshold)))
			continue;
		if (!ktrace_lat_claim(s, start))
			continue;
		*info = READ_ONCE(s->info);
		ktrace_lat_free(s);
		if (start < since)
			continue;
		*key = k & ~KTRACE_LAT_USED;
		*elapsed = now - start;
		return true;
	}
	return false;
}
EXPORT_SYMBOL_IF_KUNIT(ktrace_lat_expired);

/* The trace clock now, and when the trace started; false when not tracing. */
static __always_inline bool ktrace_lat_clock(u64 *now, u64 *since)
{
	u64 mono;

	/*
	 * Acquire: the reference read below is the one set before this
	 * trace's start.  Pairs with the smp_store_release() of
	 * ktrace_tracing in ktrace_start_writers().
	 */
	if (!smp_load_acquire(&ktrace_tracing))
		return false;
	*now = ktrace_clock_read();
	ktrace_clock_get_ref(since, &mono);
	return true;
}

/*
 * System call pairs are keyed on the task, not on its pid: a thread other
 * than the leader that calls execve() takes the leader's pid in
 * de_thread() (exchange_tids()), the point of no return, and returns from
 * execve() under that pid, with or without sched_process_exec (an exec
 * that fails after de_thread() returns an error, and the task is then
 * killed).  Its task_struct stays the same.  A task_struct is aligned to
 * at least 2 bytes: shifted right once, its address is a key below 2^63,
 * unique among live tasks; a pair never outlives its task
 * (ktrace_lat_task_exit() forgets it before the task can be freed).  The
 * pid at the entry and the system call are kept for the report.
 */
static inline u64 ktrace_lat_sys_key(struct task_struct *p)
{
	return (unsigned long)p >> 1;
}

static inline u64 ktrace_lat_sys_info(struct task_struct *p, long id)
{
	return (u64)(u32)p->pid << 32 | (u32)id;
}

static inline u32 ktrace_lat_sys_pid(u64 info)
{
	return info >> 32;
}

static inline u32 ktrace_lat_sys_nr(u64 info)
{
	return (u32)info;
}

/*
 * Fire the trigger for a pair that took too long, or (@timeout) has not
 * ended after the threshold.  @task is the task concerned, if known.
 */
static void ktrace_lat_fire(struct ktrace_latency *l, u64 key, u64 info,
			    u64 elapsed, struct task_struct *task, bool timeout)
{
	struct ktrace_trigger_cause c = {
		.value = ktrace_clock_delta_ns(elapsed),
	};
	char reason[KTRACE_TRIGGER_REASON_MAX];
	int len = 0;

	switch (l->trigger->spec.lat) {
	case KTRACE_LAT_BLOCK:
		len = scnprintf(reason, sizeof(reason), "block %u:%u sector %llu",
				MAJOR((dev_t)info), MINOR((dev_t)info),
				key & (BIT_ULL(KTRACE_LAT_SECTOR_BITS) - 1));
		break;
	case KTRACE_LAT_WAKEUP:
		c.pid = key;
		len = scnprintf(reason, sizeof(reason), "wakeup to running");
		break;
	case KTRACE_LAT_SYSCALL:
		/* The pid it entered with, if it does not return (yet). */
		c.pid = task ? task->pid : ktrace_lat_sys_pid(info);
		len = scnprintf(reason, sizeof(reason), "syscall %u",
				ktrace_lat_sys_nr(info));
		break;
	case KTRACE_LAT_IRQ:
		len = scnprintf(reason, sizeof(reason), "irq %u handler on cpu %llu",
				(u32)info, key);
		break;
	}
	if (timeout)
		scnprintf(reason + len, sizeof(reason) - len, ", no end yet");
	c.reason = reason;
	rcu_read_lock();
	if (!task && c.pid)
		task = find_task_by_pid_ns(c.pid, &init_pid_ns);
	c.task = task;
	ktrace_trigger_fire(l->trigger, &c);
	rcu_read_unlock();
}

static void ktrace_lat_begin_now(struct ktrace_latency *l, u64 key, u64 info,
				 bool restart)
{
	u64 now, since;

	if (ktrace_lat_clock(&now, &since))
		ktrace_lat_begin(l, key, now, info, restart);
}

static void ktrace_lat_end_now(struct ktrace_latency *l, u64 key,
			       struct task_struct *task)
{
	u64 now, since, elapsed, info;

	if (ktrace_lat_clock(&now, &since) &&
	    ktrace_lat_end(l, key, now, since, &elapsed, &info))
		ktrace_lat_fire(l, key, info, elapsed, task, false);
}

#ifdef CONFIG_BLOCK
static dev_t ktrace_lat_rq_dev(struct request *rq)
{
	return rq->q->disk ? disk_devt(rq->q->disk) : 0;
}

static u64 ktrace_lat_rq_key(struct request *rq)
{
	u64 sector = blk_rq_pos(rq) & (BIT_ULL(KTRACE_LAT_SECTOR_BITS) - 1);

	return (u64)hash_32(ktrace_lat_rq_dev(rq), 63 - KTRACE_LAT_SECTOR_BITS) <<
	       KTRACE_LAT_SECTOR_BITS | sector;
}

/* A requeued request issued again keeps its first issue. */
static void ktrace_lat_rq_issue(void *data, struct request *rq)
{
	ktrace_lat_begin_now(data, ktrace_lat_rq_key(rq), ktrace_lat_rq_dev(rq),
			     false);
}

static void ktrace_lat_rq_complete(void *data, struct request *rq,
				   blk_status_t error, unsigned int nr_bytes)
{
	ktrace_lat_end_now(data, ktrace_lat_rq_key(rq), NULL);
}

static int ktrace_lat_block(struct ktrace_latency *l, bool on)
{
	int ret;

	if (!on)
		goto off;
	ret = register_trace_prio_block_rq_issue(ktrace_lat_rq_issue, l,
						 KTRACE_TRIGGER_PRIO);
	if (ret)
		return ret;
	ret = register_trace_prio_block_rq_complete(ktrace_lat_rq_complete, l,
						    KTRACE_TRIGGER_PRIO);
	if (ret)
		goto issue;
	return 0;
off:
	unregister_trace_block_rq_complete(ktrace_lat_rq_complete, l);
issue:
	unregister_trace_block_rq_issue(ktrace_lat_rq_issue, l);
	return on ? ret : 0;
}
#else
static int ktrace_lat_block(struct ktrace_latency *l, bool on)
{
	return -EOPNOTSUPP;
}
#endif

/*
 * A wakeup begins the wait to run, unless the task is running already (a
 * wakeup of a running task ends nothing later).  The first wakeup counts.
 */
static void ktrace_lat_wakeup(void *data, struct task_struct *p)
{
#ifdef CONFIG_SMP
	if (READ_ONCE(p->on_cpu))
		return;
#endif
	ktrace_lat_begin_now(data, p->pid, 0, false);
}

static void ktrace_lat_switch(void *data, bool preempt, struct task_struct *prev,
			      struct task_struct *next, unsigned int prev_state)
{
	if (next->pid)
		ktrace_lat_end_now(data, next->pid, next);
}

static int ktrace_lat_sched(struct ktrace_latency *l, bool on)
{
	int ret;

	if (!on)
		goto off;
	ret = register_trace_prio_sched_wakeup(ktrace_lat_wakeup, l,
					       KTRACE_TRIGGER_PRIO);
	if (ret)
		return ret;
	ret = register_trace_prio_sched_wakeup_new(ktrace_lat_wakeup, l,
						   KTRACE_TRIGGER_PRIO);
	if (ret)
		goto wakeup;
	ret = register_trace_prio_sched_switch(ktrace_lat_switch, l,
					       KTRACE_TRIGGER_PRIO);
	if (ret)
		goto wakeup_new;
	return 0;
off:
	unregister_trace_sched_switch(ktrace_lat_switch, l);
wakeup_new:
	unregister_trace_sched_wakeup_new(ktrace_lat_wakeup, l);
wakeup:
	unregister_trace_sched_wakeup(ktrace_lat_wakeup, l);
	return on ? ret : 0;
}

/**
 * ktrace_lat_sys_begin() - task @p enters system call @id
 * @l: a latency:syscall matcher
 * @p: the task (current, but for the tests)
 * @id: the system call
 * @now: trace clock
 *
 * A new entry restarts the pair: the previous one's exit was not seen.
 * The tests call this and ktrace_lat_sys_end() where there are no system
 * call tracepoints (UML).
 */
VISIBLE_IF_KUNIT __maybe_unused void
ktrace_lat_sys_begin(struct ktrace_latency *l, struct task_struct *p, long id, u64 now)
{
	if (l->trigger->spec.nr < 0 || id == l->trigger->spec.nr)
		ktrace_lat_begin(l, ktrace_lat_sys_key(p), now,
				 ktrace_lat_sys_info(p, id), true);
}
EXPORT_SYMBOL_IF_KUNIT(ktrace_lat_sys_begin);

/**
 * ktrace_lat_sys_end() - task @p returns from a system call
 * @l: a latency:syscall matcher
 * @p: the task (current, but for the tests)
 * @now: trace clock
 * @since: as for ktrace_lat_end()
 * @elapsed: set to the time since the entry, if found
 * @info: set to what the entry kept, if found: ktrace_lat_sys_nr() and
 *	ktrace_lat_sys_pid() read it
 *
 * Return: true if the entry was found and the call took longer than the
 * threshold.
 */
VISIBLE_IF_KUNIT __maybe_unused bool
ktrace_lat_sys_end(struct ktrace_latency *l, struct task_struct *p, u64 now, u64 since,
		   u64 *elapsed, u64 *info)
{
	return ktrace_lat_end(l, ktrace_lat_sys_key(p), now, since, elapsed, info);
}
EXPORT_SYMBOL_IF_KUNIT(ktrace_lat_sys_end);

#ifdef CONFIG_HAVE_SYSCALL_TRACEPOINTS
static void ktrace_lat_sys_enter(void *data, struct pt_regs *regs, long id)
{
	u64 now, since;

	if (ktrace_lat_clock(&now, &since))
		ktrace_lat_sys_begin(data, current, id, now);
}

static void ktrace_lat_sys_exit(void *data, struct pt_regs *regs, long ret)
{
	u64 now, since, elapsed, info;

	if (ktrace_lat_clock(&now, &since) &&
	    ktrace_lat_sys_end(data, current, now, since, &elapsed, &info))
		ktrace_lat_fire(data, ktrace_lat_sys_key(current), info, elapsed,
				current, false);
}

/* exit and exit_group never return. */
static void ktrace_lat_task_exit(void *data, struct task_struct *p)
{
	ktrace_lat_forget(data, ktrace_lat_sys_key(p));
}

static int ktrace_lat_syscall(struct ktrace_latency *l, bool on)
{
	int ret;

	if (!on)
		goto off;
	/*
	 * The task's exit first, and gone last: no pair outlives its task,
	 * whose task_struct address (the key) a new task may soon get, and
	 * whose first sys_exit (from clone) would end that stale pair.
	 */
	ret = register_trace_prio_sched_process_exit(ktrace_lat_task_exit, l,
						     KTRACE_TRIGGER_PRIO);
	if (ret)
		return ret;
	ret = register_trace_prio_sys_enter(ktrace_lat_sys_enter, l,
					    KTRACE_TRIGGER_PRIO);
	if (ret)
		goto task_exit;
	ret = register_trace_prio_sys_exit(ktrace_lat_sys_exit, l,
					   KTRACE_TRIGGER_PRIO);
	if (ret)
		goto enter;
	return 0;
off:
	unregister_trace_sys_exit(ktrace_lat_sys_exit, l);
enter:
	unregister_trace_sys_enter(ktrace_lat_sys_enter, l);
task_exit:
	unregister_trace_sched_process_exit(ktrace_lat_task_exit, l);
	return on ? ret : 0;
}
#else
static int ktrace_lat_syscall(struct ktrace_latency *l, bool on)
{
	return -EOPNOTSUPP;
}
#endif

/* Hardirq handlers do not nest: one pair per CPU. */
static void ktrace_lat_irq_entry(void *data, int irq, struct irqaction *action)
{
	ktrace_lat_begin_now(data, raw_smp_processor_id(), irq, true);
}

static void ktrace_lat_irq_exit(void *data, int irq, struct irqaction *action,
				int ret)
{
	ktrace_lat_end_now(data, raw_smp_processor_id(), NULL);
}

static int ktrace_lat_irq(struct ktrace_latency *l, bool on)
{
	int ret;

	if (!on)
		goto off;
	ret = register_trace_prio_irq_handler_entry(ktrace_lat_irq_entry, l,
						    KTRACE_TRIGGER_PRIO);
	if (ret)
		return ret;
	ret = register_trace_prio_irq_handler_exit(ktrace_lat_irq_exit, l,
						   KTRACE_TRIGGER_PRIO);
	if (ret)
		goto entry;
	return 0;
off:
	unregister_trace_irq_handler_exit(ktrace_lat_irq_exit, l);
entry:
	unregister_trace_irq_handler_entry(ktrace_lat_irq_entry, l);
	return on ? ret : 0;
}

static int (* const ktrace_lat_hooks[KTRACE_NR_LAT_KINDS])(struct ktrace_latency *l,
							     bool on) = {
	[KTRACE_LAT_BLOCK] = ktrace_lat_block,
	[KTRACE_LAT_WAKEUP] = ktrace_lat_sched,
	[KTRACE_LAT_SYSCALL] = ktrace_lat_syscall,
	[KTRACE_LAT_IRQ] = ktrace_lat_irq,
};

/*
 * Every scan period while a trace runs: fire on the pairs whose end has
 * not come.  Once the trace is stopped, the timer is not queued again
 * until ktrace_latency_start() at the next start.
 */
static void ktrace_lat_scan(struct timer_list *timer)
{
	struct ktrace_latency *l = from_timer(l, timer, scan);
	u64 now, since, key, elapsed, info;

	if (ktrace_lat_clock(&now, &since)) {
		while (ktrace_lat_expired(l, now, since, &key, &elapsed, &info))
			ktrace_lat_fire(l, key, info, elapsed, NULL, true);
	}
	/*
	 * A start racing with this read queues the timer itself, after it
	 * set ktrace_running: whichever wins, the timer stays queued.
	 */
	if (ktrace_is_running())
		mod_timer(&l->scan, jiffies + l->scan_period);
}

/**
 * ktrace_latency_start() - start the scan timer of a latency trigger
 * @t: an armed latency trigger
 *
 * Called with ktrace_mutex held when a trace starts, or when the trigger
 * is armed while one runs.
 */
void ktrace_latency_start(struct ktrace_trigger *t)
{
	lockdep_assert_held(&ktrace_mutex);
	mod_timer(&t->lat->scan, jiffies + t->lat->scan_period);
}
EXPORT_SYMBOL_IF_KUNIT(ktrace_latency_start);

/**
 * ktrace_lat_hook() - register or unregister the probes of a matcher
 * @l: the matcher, its trigger set
 * @on: true to register
 *
 * Return: 0, or the error of a registration; the probes registered
 * before it are unregistered then, but may still be running.
 */
VISIBLE_IF_KUNIT int ktrace_lat_hook(struct ktrace_latency *l, bool on)
{
	/* The tests make a registration fail while a probe runs. */
	KUNIT_STATIC_STUB_REDIRECT(ktrace_lat_hook, l, on);
	return ktrace_lat_hooks[l->trigger->spec.lat](l, on);
}
EXPORT_SYMBOL_IF_KUNIT(ktrace_lat_hook);

/* The probes of a matcher are unregistered: wait for them, then free it. */
static void ktrace_lat_free_matcher(struct ktrace_latency *l)
{
	/* A probe that found the matcher registered may still be using it. */
	tracepoint_synchronize_unregister();
	timer_shutdown_sync(&l->scan);
	kvfree(l->slots);
	kfree(l);
}

/**
 * ktrace_latency_arm() - set up the matcher of a latency trigger
 * @t: the trigger, not yet published
 *
 * The scan timer is started by ktrace_latency_start(), once the trigger is
 * published, if a trace runs.
 *
 * Return: 0, -ENOMEM, -EOPNOTSUPP if this kernel has no tracepoints for
 * that kind, or the error of a tracepoint registration.
 */
int ktrace_latency_arm(struct ktrace_trigger *t)
{
	struct ktrace_latency *l;
	int ret;

	l = kzalloc(sizeof(*l), GFP_KERNEL);
	if (!l)
		return -ENOMEM;
	l->slots = kvcalloc(KTRACE_LAT_SLOTS, sizeof(*l->slots), GFP_KERNEL);
	if (!l->slots) {
		ret = -ENOMEM;
		goto free_l;
	}
	/* The clock keeps its unit while the trigger is armed. */
	ktrace_clock_pin(true);
	l->threshold = ktrace_clock_units(t->spec.threshold_ns) ?: 1;
	l->scan_period = max(msecs_to_jiffies(KTRACE_LAT_SCAN_MIN_MS),
			     nsecs_to_jiffies(t->spec.threshold_ns));
	l->trigger = t;
	timer_setup(&l->scan, ktrace_lat_scan, 0);
	ret = ktrace_lat_hook(l, true);
	if (ret) {
		/*
		 * The probes registered before the one that failed were
		 * unregistered, but may be running on other CPUs, on @l
		 * and on @t, which the caller frees too.
		 */
		ktrace_lat_free_matcher(l);
		ktrace_clock_pin(false);
		return ret;
	}
	t->lat = l;
	return 0;

free_l:
	kfree(l);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(ktrace_latency_arm);

/**
 * ktrace_latency_disarm() - tear the matcher of a latency trigger down
 * @t: the trigger, unpublished
 *
 * Unregisters the probes and waits for them to finish, so the matcher can
 * be freed; the trace clock may change again.
 */
void ktrace_latency_disarm(struct ktrace_trigger *t)
{
	struct ktrace_latency *l = t->lat;

	ktrace_lat_hook(l, false);
	ktrace_lat_free_matcher(l);
	t->lat = NULL;
	ktrace_clock_pin(false);
}
EXPORT_SYMBOL_IF_KUNIT(ktrace_latency_disarm);

/* The untracked beginnings, on the trigger's line of the triggers file. */
static void ktrace_latency_show(struct ktrace_trigger *t, struct seq_file *m)
{
	seq_printf(m, " untracked=%lu", atomic_long_read(&t->lat->untracked));
}

static const struct ktrace_trigger_ops ktrace_latency_ops = {
	.arm = ktrace_latency_arm,
	.start = ktrace_latency_start,
	.disarm = ktrace_latency_disarm,
	.show = ktrace_latency_show,
};

static int __init ktrace_latency_init(void)
{
	ktrace_trigger_set_ops(KTRACE_TRIG_LATENCY, &ktrace_latency_ops);
	return 0;
}
core_initcall(ktrace_latency_init);
