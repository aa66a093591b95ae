// SPDX-License-Identifier: GPL-2.0
/*
 * ktrace triggers: freeze the flight recorder when the bug happens.
 *
 * A trigger is armed by writing its spec (trigger_parse.c) to the triggers
 * file.  One trigger of each kind (of each latency kind) can be armed; the
 * hooks find it through an RCU-protected slot, or are tracepoint probes
 * registered with it as their data.  This file keeps the slots and arms
 * the kinds it hooks itself (oom, hung_task, user, and warn and kernel,
 * which api.c fires); the kinds that need
 * more (the latency matcher in latency.c, the crash hooks and panic dump
 * in trigger_crash.c) are provided through struct ktrace_trigger_ops.  A
 * hook that sees its cause calls ktrace_trigger_fire() (trigger_fire.c).
 */
#define pr_fmt(fmt) "ktrace: " fmt

#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/notifier.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <trace/events/oom.h>
#include <trace/events/sched.h>
#include <kunit/visibility.h>

#include "ktrace_internal.h"
#include "trigger.h"

/*
 * The armed triggers, one slot per kind.  Changed under
 * ktrace_trigger_lock; the notifiers and the user trigger read them under
 * RCU, and a trigger is freed only after a grace period.
 */
static struct ktrace_trigger __rcu *ktrace_trigger_slots[KTRACE_NR_TRIG_SLOTS];
/* Serializes arming and disarming: the slots and the hooks' registration. */
static DEFINE_MUTEX(ktrace_trigger_lock);
/*
 * The kinds that higher layers provide (latency, the crash hooks): set at
 * boot by their initcalls, before the triggers file exists.
 */
static const struct ktrace_trigger_ops *
ktrace_trigger_kind_ops[KTRACE_NR_TRIG_KINDS] __ro_after_init;

/**
 * ktrace_trigger_set_ops() - provide a kind of trigger
 * @kind: enum ktrace_trigger_kind
 * @ops: how to set it up, start it and tear it down
 *
 * At boot, from an initcall.  Arming a kind that needs a provider
 * (oops, panic, latency) fails with -EOPNOTSUPP until one is set.
 */
void __init ktrace_trigger_set_ops(unsigned int kind,
				   const struct ktrace_trigger_ops *ops)
{
	if (WARN_ON(kind >= KTRACE_NR_TRIG_KINDS || ktrace_trigger_kind_ops[kind]))
		return;
	ktrace_trigger_kind_ops[kind] = ops;
}

static const struct ktrace_trigger_ops *ktrace_trigger_ops_of(const struct ktrace_trigger *t)
{
	return ktrace_trigger_kind_ops[t->spec.kind];
}

/* oom: the OOM killer chose a victim. */
static void ktrace_trig_oom(void *data, struct task_struct *task, uid_t uid)
{
	struct ktrace_trigger_cause c = {
		.pid = task->pid,
		.task = task,
		.reason = "oom-kill",
	};
	struct mm_struct *mm = READ_ONCE(task->mm);

	/* The victim's resident memory, KiB, as the OOM report gives it. */
	if (mm)
		c.value = get_mm_rss(mm) << (PAGE_SHIFT - 10);
	ktrace_trigger_fire(data, &c);
}

#ifdef CONFIG_DETECT_HUNG_TASK
/* hung_task: the detector found a task in D state for too long. */
static void ktrace_trig_hung(void *data, struct task_struct *task)
{
	struct ktrace_trigger_cause c = {
		.pid = task->pid,
		.task = task,
		.reason = "hung task",
	};

	/* How long it has been blocked, as the detector measures it. */
	c.value = jiffies_to_nsecs(jiffies - READ_ONCE(task->last_switch_time));
	ktrace_trigger_fire(data, &c);
}
#endif

/**
 * ktrace_trigger_get() - the trigger armed in a slot
 * @slot: the slot, below %KTRACE_NR_TRIG_SLOTS
 *
 * Called under rcu_read_lock(), by the hooks that find their trigger in
 * its slot rather than as their data: the crash notifiers, the user
 * trigger.
 *
 * Return: the trigger, or %NULL if none is armed there.
 */
struct ktrace_trigger *ktrace_trigger_get(unsigned int slot)
{
	return rcu_dereference(ktrace_trigger_slots[slot]);
}

/**
 * ktrace_trigger_user() - fire the user trigger
 * @text: the reason, from a write to the trigger file
 * @len: its length
 *
 * Return: 0; -ENOENT if the user trigger is not armed, -EAGAIN when not
 * tracing, -EINVAL for an empty reason or one of more than
 * %KTRACE_TRIGGER_REASON_MAX - 1 bytes.
 */
int ktrace_trigger_user(const char *text, size_t len)
{
	char reason[KTRACE_TRIGGER_REASON_MAX];
	struct ktrace_trigger *t;
	int ret = -ENOENT;

	if (!len || len >= sizeof(reason))
		return -EINVAL;
	memcpy(reason, text, len);
	reason[len] = '\0';
	rcu_read_lock();
	t = ktrace_trigger_get(KTRACE_TRIG_USER);
	if (t) {
		struct ktrace_trigger_cause c = {
			.pid = task_pid_nr(current),
			.task = current,
			.reason = reason,
		};

		ret = ktrace_trigger_fire(t, &c);
	}
	rcu_read_unlock();
	return ret;
}

/*
 * Attach a new trigger to its cause.  Under ktrace_trigger_lock.  On an
 * error, nothing of it is left attached.
 */
static int ktrace_trigger_hook(struct ktrace_trigger *t)
{
	const struct ktrace_trigger_ops *ops = ktrace_trigger_ops_of(t);

	switch (t->spec.kind) {
	case KTRACE_TRIG_OOM:
		return register_trace_prio_mark_victim(ktrace_trig_oom, t,
						       KTRACE_TRIGGER_PRIO);
	case KTRACE_TRIG_HUNG_TASK:
#ifdef CONFIG_DETECT_HUNG_TASK
		return register_trace_prio_sched_process_hang(ktrace_trig_hung, t,
							      KTRACE_TRIGGER_PRIO);
#else
		return -EOPNOTSUPP;
#endif
	case KTRACE_TRIG_USER:
	case KTRACE_TRIG_WARN:
	case KTRACE_TRIG_KERNEL:
		/* The file, __warn() and ktrace_trigger() find it in its slot. */
		return 0;
	case KTRACE_TRIG_CLUSTER:
		/* The receiver of the group's messages finds it in its slot. */
		return IS_ENABLED(CONFIG_KTRACE_CLUSTER) ? 0 : -EOPNOTSUPP;
	}
	/* oops, panic, latency: their provider, if there is one. */
	if (!ops)
		return -EOPNOTSUPP;
	return ops->arm ? ops->arm(t) : 0;
}

/* Detach a trigger, unpublished already, and free it. */
static void ktrace_trigger_unhook(struct ktrace_trigger *t)
{
	const struct ktrace_trigger_ops *ops = ktrace_trigger_ops_of(t);

	switch (t->spec.kind) {
	case KTRACE_TRIG_OOM:
		unregister_trace_mark_victim(ktrace_trig_oom, t);
		break;
	case KTRACE_TRIG_HUNG_TASK:
#ifdef CONFIG_DETECT_HUNG_TASK
		unregister_trace_sched_process_hang(ktrace_trig_hung, t);
#endif
		break;
	default:
		if (ops && ops->disarm)
			ops->disarm(t);
		break;
	}
	/* Probes, notifiers and the user trigger are all done with it. */
	tracepoint_synchronize_unregister();
	synchronize_rcu();
	if (ops && ops->release)
		ops->release(t);
	kfree(t);
}

/**
 * ktrace_trigger_write() - arm or disarm a trigger
 * @s: a write to the triggers file, without surrounding white space
 *
 * Return: 0; as ktrace_trigger_parse(); -EBUSY if a trigger of that kind
 * is armed already, -ENOENT to disarm one that is not, -EOPNOTSUPP for a
 * kind this kernel cannot detect, -ENOMEM.  Nothing changes on an error.
 */
int ktrace_trigger_write(char *s)
{
	const struct ktrace_trigger_ops *ops;
	struct ktrace_trigger_spec spec;
	struct ktrace_trigger *t;
	unsigned int slot;
	int ret;

	ret = ktrace_trigger_parse(s, &spec);
	if (ret)
		return ret;
	slot = ktrace_trigger_slot(&spec);
	mutex_lock(&ktrace_trigger_lock);
	t = rcu_dereference_protected(ktrace_trigger_slots[slot],
				      lockdep_is_held(&ktrace_trigger_lock));
	if (spec.disarm) {
		if (!t) {
			ret = -ENOENT;
			goto out;
		}
		RCU_INIT_POINTER(ktrace_trigger_slots[slot], NULL);
		ktrace_trigger_unhook(t);
		goto out;
	}
	if (t) {
		ret = -EBUSY;
		goto out;
	}
	t = kzalloc(sizeof(*t), GFP_KERNEL);
	if (!t) {
		ret = -ENOMEM;
		goto out;
	}
	t->spec = spec;
	ret = ktrace_trigger_hook(t);
	if (ret) {
		kfree(t);
		goto out;
	}
	rcu_assign_pointer(ktrace_trigger_slots[slot], t);
	ops = ktrace_trigger_ops_of(t);
	if (ops && ops->start) {
		/*
		 * Published first: a start either finds it (and starts its
		 * timer) or comes after this, under ktrace_mutex, which
		 * orders the two.
		 */
		mutex_lock(&ktrace_mutex);
		if (ktrace_is_running())
			ops->start(t);
		mutex_unlock(&ktrace_mutex);
	}
out:
	mutex_unlock(&ktrace_trigger_lock);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(ktrace_trigger_write);

/**
 * ktrace_triggers_start() - a new trace is starting
 *
 * Called at a start, through the core's starting notifier, with
 * ktrace_mutex held, before the writers' gate opens, so that no trigger
 * of the new trace fired yet.
 * Cancels the stop work an earlier trace's trigger queued
 * (ktrace_trigger_stop_cancel()), and starts the armed triggers that run
 * something while tracing (the scan timers of the latency triggers,
 * which stop while not tracing).
 */
static void ktrace_triggers_start(void)
{
	const struct ktrace_trigger_ops *ops;
	struct ktrace_trigger *t;
	unsigned int slot;

	lockdep_assert_held(&ktrace_mutex);
	ktrace_trigger_stop_cancel();
	/*
	 * Under RCU rather than ktrace_trigger_lock, which is taken before
	 * ktrace_mutex when arming.  A trigger published after this loop
	 * starts its own timer (ops->start(), see ktrace_trigger_write());
	 * one disarmed concurrently shuts its timer down after a grace
	 * period.
	 */
	rcu_read_lock();
	for (slot = 0; slot < KTRACE_NR_TRIG_SLOTS; slot++) {
		t = ktrace_trigger_get(slot);
		ops = t ? ktrace_trigger_ops_of(t) : NULL;
		if (ops && ops->start)
			ops->start(t);
	}
	rcu_read_unlock();
}

/**
 * ktrace_triggers_show() - list the armed triggers
 * @m: the triggers file
 *
 * One line per armed trigger: its spec with every option, then the
 * occurrences of its cause counted while tracing, the times it fired and,
 * for latency triggers, the beginnings the matcher had no room for.
 */
void ktrace_triggers_show(struct seq_file *m)
{
	const struct ktrace_trigger_ops *ops;
	char buf[KTRACE_TRIGGER_SPEC_MAX];
	struct ktrace_trigger *t;
	unsigned int slot;

	mutex_lock(&ktrace_trigger_lock);
	for (slot = 0; slot < KTRACE_NR_TRIG_SLOTS; slot++) {
		t = rcu_dereference_protected(ktrace_trigger_slots[slot],
					      lockdep_is_held(&ktrace_trigger_lock));
		if (!t)
			continue;
		ktrace_trigger_format_spec(&t->spec, buf, sizeof(buf));
		seq_printf(m, "%s hits=%u fired=%u", buf, atomic_read(&t->hits),
			   atomic_read(&t->fired));
		ops = ktrace_trigger_ops_of(t);
		if (ops && ops->show)
			ops->show(t, m);
		seq_putc(m, '\n');
	}
	mutex_unlock(&ktrace_trigger_lock);
}

/* At every start, under ktrace_mutex, before the writers' gate opens. */
static int ktrace_triggers_starting(struct notifier_block *nb,
				    unsigned long gen, void *data)
{
	ktrace_triggers_start();
	return NOTIFY_DONE;
}

static struct notifier_block ktrace_triggers_start_nb = {
	.notifier_call = ktrace_triggers_starting,
};

static int __init ktrace_triggers_init(void)
{
	ktrace_register_starting_notifier(&ktrace_triggers_start_nb);
	return 0;
}
core_initcall(ktrace_triggers_init);
