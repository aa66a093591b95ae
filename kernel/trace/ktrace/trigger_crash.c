// SPDX-License-Identifier: GPL-2.0
/*
 * ktrace triggers: the crash hooks.  The oops trigger fires from the die
 * notifier; the panic trigger fires from the panic notifier, then prints
 * the last events of every CPU to the console, the trace being out of
 * user space's reach from then on.  Both find their trigger in its slot
 * (ktrace_trigger_get()) under RCU.
 */
#define pr_fmt(fmt) "ktrace: " fmt

#include <linux/err.h>
#include <linux/kdebug.h>
#include <linux/notifier.h>
#include <linux/panic_notifier.h>
#include <linux/pid.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>

#include "cluster.h"
#include "ktrace_internal.h"
#include "trigger.h"

/* oops: die() is reporting an oops, BUG() included. */
static int ktrace_trig_die(struct notifier_block *nb, unsigned long val, void *data)
{
	struct die_args *args = data;
	struct ktrace_trigger *t;

	if (val != DIE_OOPS)
		return NOTIFY_DONE;
	rcu_read_lock();
	t = ktrace_trigger_get(KTRACE_TRIG_OOPS);
	if (t) {
		struct ktrace_trigger_cause c = {
			.pid = task_pid_nr(current),
			.task = current,
			.value = args->err,
			.reason = args->str,
		};

		ktrace_trigger_fire(t, &c);
	}
	rcu_read_unlock();
	return NOTIFY_DONE;
}

static struct notifier_block ktrace_die_nb = {
	.notifier_call = ktrace_trig_die,
};

/*
 * panic: the trace cannot be read from user space any more, so its last
 * events go to the console.  The dump is printed even when the trace was
 * frozen before (an oops trigger, then panic_on_oops).  Interrupts are off
 * and the other CPUs stopped, maybe holding any lock: nothing here takes
 * one (see ktrace_ascii_dump()), but for the cluster's message, sent
 * through netpoll, which tries the device's transmit lock and polls it.
 */
static int ktrace_trig_panic(struct notifier_block *nb, unsigned long val, void *data)
{
	/*
	 * Once per boot.  A fault in the dump with panic_on_oops panics
	 * again on this CPU, and panic() runs the notifiers again: the dump's
	 * reader is half used and the fault would recur, so the second
	 * entry says so and lets the panic go on (ftrace_dump()'s
	 * dump_running).
	 */
	static atomic_t running = ATOMIC_INIT(0);
	struct ktrace_trigger *t;

	if (atomic_inc_return(&running) != 1) {
		pr_emerg("panic during the panic dump: no second dump\n");
		/* Sent already, unless the first entry faulted before. */
		ktrace_cluster_crash("panic", data);
		return NOTIFY_DONE;
	}
	rcu_read_lock();
	t = ktrace_trigger_get(KTRACE_TRIG_PANIC);
	if (t) {
		struct ktrace_trigger_cause c = {
			.pid = task_pid_nr(current),
			.task = current,
			.reason = data,
		};

		ktrace_trigger_fire(t, &c);
	}
	/*
	 * Armed or not, the trace is frozen and the crash table saved, for
	 * the next boot or the vmcore, before the dump (which may fault).
	 */
	ktrace_freeze();
	ktrace_crash_freeze("panic");
	/*
	 * The group freezes too, if no trigger message went out already:
	 * before the dump, which may print for long on a serial console
	 * while the others keep recording.
	 */
	ktrace_cluster_crash("panic", data);
	if (t)
		ktrace_ascii_dump(t->dump, t->spec.last);
	rcu_read_unlock();
	return NOTIFY_DONE;
}

static struct notifier_block ktrace_panic_nb = {
	.notifier_call = ktrace_trig_panic,
	/*
	 * First, as ftrace's dump_on_oops is early: before the notifiers
	 * that may not return (IPMI's, a hypervisor's), and before pvpanic's
	 * (INT_MAX too, registered later, at device probe): a host that
	 * resets the guest on that event would end it before the freeze of
	 * the persistent region and the dump.  The oops and the panic
	 * message are on the console before any notifier runs, and
	 * kmsg_dump() after them all still gets the dump.  A loaded kdump
	 * kernel boots before any notifier, so there is no dump (and the
	 * crash table is not frozen) unless crash_kexec_post_notifiers.
	 */
	.priority = INT_MAX,
};

/* panic: the reader that prints the dump, allocated at arming. */
static int ktrace_trig_panic_arm(struct ktrace_trigger *t)
{
	t->dump = ktrace_ascii_open();
	if (IS_ERR(t->dump)) {
		int ret = PTR_ERR(t->dump);

		t->dump = NULL;
		return ret;
	}
	return 0;
}

/* After the grace period: the panic notifier is done with the dump. */
static void ktrace_trig_panic_release(struct ktrace_trigger *t)
{
	ktrace_ascii_release(t->dump);
}

static const struct ktrace_trigger_ops ktrace_trig_panic_ops = {
	.arm = ktrace_trig_panic_arm,
	.release = ktrace_trig_panic_release,
};

/* oops: the notifier finds it in its slot, nothing to set up. */
static const struct ktrace_trigger_ops ktrace_trig_oops_ops = {};

static int __init ktrace_trigger_crash_init(void)
{
	int ret;

	ret = register_die_notifier(&ktrace_die_nb);
	if (ret)
		pr_warn("no oops trigger: %d\n", ret);
	ktrace_trigger_set_ops(KTRACE_TRIG_OOPS, &ktrace_trig_oops_ops);
	atomic_notifier_chain_register(&panic_notifier_list, &ktrace_panic_nb);
	ktrace_trigger_set_ops(KTRACE_TRIG_PANIC, &ktrace_trig_panic_ops);
	return 0;
}
core_initcall(ktrace_trigger_crash_init);

