// SPDX-License-Identifier: GPL-2.0
/*
 * ktrace core: the tracing state (start, stop, freeze, mode, sizes), and
 * the watch that moves the trace clock (clock.c) off a TSC found unstable
 * while tracing.
 */
#define pr_fmt(fmt) "ktrace: " fmt

#include <linux/cpu.h>
#include <linux/init.h>
#include <linux/log2.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/mutex.h>
#include <linux/notifier.h>
#include <linux/pid.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sizes.h>
#include <linux/string.h>
#include <linux/time64.h>
#include <linux/workqueue.h>
#include <kunit/visibility.h>
#ifdef CONFIG_X86
#include <asm/tsc.h>
#endif

#include "event.h"
#include "format.h"
#include "ktrace_internal.h"

/*
 * Written under ktrace_mutex, read locklessly by the statedump and
 * ktrace_is_running(): started and not stopped yet.  A trace frozen by a
 * trigger is still running, its gate closed, until it is stopped
 * (ktrace_stop_frozen(), or any write to enable, mode or buffer_size_kb):
 * the buffers must not be freed or resized in between.
 */
static bool ktrace_running;
/*
 * Set by ktrace_freeze() from any context, cleared at a start under
 * ktrace_mutex: keeps the gate closed.
 */
static bool ktrace_frozen;
/*
 * Set by a freeze (a trigger's), cleared by a start: until its streams
 * were read to the end (or its buffers freed), the trace a trigger kept
 * is unsaved (ktrace_unsaved()), and tools must not discard it.
 */
static bool ktrace_trigger_kept;
/* Under ktrace_mutex, read locklessly: which trace a freeze belongs to. */
static unsigned long ktrace_generation;
/* Under ktrace_mutex. */
static enum ktrace_trace_mode ktrace_mode = KTRACE_TRACE_HYBRID;
static unsigned long ktrace_buffer_kb = KTRACE_BUFFER_KB_DEFAULT;

static const char * const ktrace_state_names[KTRACE_NR_STATES] = {
	[KTRACE_STATE_STOPPED] = "stopped",
	[KTRACE_STATE_TRACING] = "tracing",
	[KTRACE_STATE_FROZEN] = "frozen",
};

static const char * const ktrace_mode_names[KTRACE_NR_TRACE_MODES] = {
	[KTRACE_TRACE_DROP] = "drop",
	[KTRACE_TRACE_OVERWRITE] = "overwrite",
	[KTRACE_TRACE_HYBRID] = "hybrid",
};

static void ktrace_clock_watch(struct work_struct *work);
/* While tracing on the TSC: checks once a second that it is still trusted. */
static DECLARE_DELAYED_WORK(ktrace_clock_work, ktrace_clock_watch);

/*
 * Start the writers: a new reference instant, the metadata, then the gate.
 * The metadata goes in first, through the gate closed to everyone else
 * (ktrace_metadata_write()): a trigger that freezes the trace meanwhile
 * cannot cut it short, and a decoder finds it before any event.
 */
static void ktrace_start_writers(void)
{
	ktrace_clock_set_ref();
	/* A start a trigger froze already writes nothing: no metadata lost. */
	if (!READ_ONCE(ktrace_frozen))
		ktrace_metadata_write();
	/*
	 * A trigger freezing the trace between this read and the store below
	 * (while the clock watcher restarts the writers) leaves a few more
	 * events; its stop work then stops the trace all the same.
	 */
	/*
	 * The buffers' state set while stopped (ktrace_buf_clock_changed(),
	 * new buffers) before the gate opens: pairs with smp_load_acquire()
	 * in ktrace_writer_buf().
	 */
	smp_store_release(&ktrace_tracing, !READ_ONCE(ktrace_frozen));
	if (static_branch_likely(&ktrace_clock_tsc))
		schedule_delayed_work(&ktrace_clock_work, HZ);
}

/* Stop the writers and wait for those inside the write path. */
static void ktrace_stop_writers(void)
{
	WRITE_ONCE(ktrace_tracing, false);
	cancel_delayed_work(&ktrace_clock_work);
	/*
	 * Writers run with preemption disabled.  The stop of a trace a
	 * trigger froze waits expedited: its history is safe already (the
	 * gate closed at the cause), and the grace period is then all that
	 * whoever waits for the trace (a script polling enable, a reader of
	 * trigger_pipe) waits for: several ticks for a normal one, tens of
	 * us for an expedited one, at the price of an IPI to each CPU once
	 * per firing.
	 */
	if (READ_ONCE(ktrace_frozen))
		synchronize_rcu_expedited();
	else
		synchronize_rcu();
}

/*
 * ktrace_clock_check() rewrites the clock the writers read: only with
 * ktrace_mutex held and the writers stopped, which the clock's layer,
 * below the mutex's, cannot assert itself.
 */
static void ktrace_clock_recheck(void)
{
	lockdep_assert_held(&ktrace_mutex);
	ktrace_clock_check();
}

/*
 * The TSC can be marked unstable while a trace runs for weeks: then the
 * writers are stopped for one RCU grace period while the clock changes,
 * every buffer writes a timestamp record before its next event, and the
 * metadata is written again with the new clock name and reference.
 */
static void ktrace_clock_watch(struct work_struct *work)
{
	mutex_lock(&ktrace_mutex);
	if (!ktrace_tracing)
		goto out;
#ifdef CONFIG_X86
	if (check_tsc_unstable()) {
		ktrace_stop_writers();
		ktrace_clock_recheck();
		ktrace_channels_clock_changed();
		ktrace_start_writers();
		goto out;
	}
#endif
	schedule_delayed_work(&ktrace_clock_work, HZ);
out:
	mutex_unlock(&ktrace_mutex);
}

/**
 * ktrace_is_enabled() - tell whether ktrace is tracing
 *
 * Return: true between a start and the next stop or freeze.
 */
bool ktrace_is_enabled(void)
{
	return READ_ONCE(ktrace_tracing);
}
EXPORT_SYMBOL_IF_KUNIT(ktrace_is_enabled);

/**
 * ktrace_is_running() - tell whether a trace is started and not stopped
 *
 * Any context; a hint only, unless ktrace_mutex is held.
 *
 * Return: true from a start to the next stop, frozen or not.
 */
bool ktrace_is_running(void)
{
	return READ_ONCE(ktrace_running);
}
EXPORT_SYMBOL_IF_KUNIT(ktrace_is_running);

/**
 * ktrace_get_state() - what the enable file and the stats tell
 *
 * Any context.  A trace whose writers are held for a moment while the
 * trace clock changes is tracing.
 *
 * Return: %KTRACE_STATE_FROZEN from a trigger's freeze to the stop that
 * follows it, else %KTRACE_STATE_TRACING from a start to the next stop,
 * else %KTRACE_STATE_STOPPED.
 */
enum ktrace_state ktrace_get_state(void)
{
	if (!READ_ONCE(ktrace_running))
		return KTRACE_STATE_STOPPED;
	return READ_ONCE(ktrace_frozen) ? KTRACE_STATE_FROZEN : KTRACE_STATE_TRACING;
}
EXPORT_SYMBOL_IF_KUNIT(ktrace_get_state);

/*
 * Called after every start, once ktrace_mutex is released: the statedump.
 * Its own rwsem orders registration against calls.
 */
static BLOCKING_NOTIFIER_HEAD(ktrace_start_chain);

/*
 * Called at every start with ktrace_mutex held, before the writers' gate
 * opens: the triggers, so that none of the new trace fired yet.  Changed
 * and called under ktrace_mutex.
 */
static RAW_NOTIFIER_HEAD(ktrace_starting_chain);

/**
 * ktrace_register_starting_notifier() - be called at every start
 * @nb: the callback, called with ktrace_mutex held while a trace starts,
 *	before the writers' gate opens; its action argument is the
 *	generation of that trace
 *
 * For the layers above the core (the triggers), which the core does not
 * call by name.
 *
 * Return: 0.
 */
int ktrace_register_starting_notifier(struct notifier_block *nb)
{
	int ret;

	mutex_lock(&ktrace_mutex);
	ret = raw_notifier_chain_register(&ktrace_starting_chain, nb);
	mutex_unlock(&ktrace_mutex);
	return ret;
}

/**
 * ktrace_register_start_notifier() - be called after every start
 * @nb: the callback, called in process context once tracing has started,
 *	without ktrace_mutex, so that a stop, the stats or a trigger never
 *	waits for it; it may sleep.  Its action argument is the generation
 *	of the trace it starts: it stops early once ktrace_start_current()
 *	says that trace is stopped, frozen or replaced.
 *
 * Return: 0.
 */
int ktrace_register_start_notifier(struct notifier_block *nb)
{
	return blocking_notifier_chain_register(&ktrace_start_chain, nb);
}

/* Under ktrace_mutex: stop the writers and make what they wrote readable. */
static void __ktrace_stop(void)
{
	lockdep_assert_held(&ktrace_mutex);
	ktrace_stop_writers();
	ktrace_channels_flush();
	/* A consistent state for whoever reads the buffers after a crash. */
	ktrace_crash_stop();
	WRITE_ONCE(ktrace_running, false);
}

/*
 * Under ktrace_mutex: a trace a trigger froze reads as stopped (enable
 * reads 0), so every control write treats it as stopped: it finishes the
 * stop the trigger's work would have made, before acting.  The work then
 * finds the trace stopped and does nothing.
 */
static void ktrace_stop_if_frozen(void)
{
	lockdep_assert_held(&ktrace_mutex);
	if (ktrace_running && READ_ONCE(ktrace_frozen))
		__ktrace_stop();
}

/* Set by ktrace_shutdown(), under ktrace_mutex: no start after it. */
static bool ktrace_shut;

/**
 * ktrace_shutdown() - stop tracing for good, and save the crash table
 * @reason: why, for the table ("reboot")
 *
 * Process context: at a reboot or a kexec, into a kernel that may find
 * the persistent region.  Stops the trace as writing 0 to enable does;
 * starts fail with -ESHUTDOWN from then on.
 */
void ktrace_shutdown(const char *reason)
{
	mutex_lock(&ktrace_mutex);
	ktrace_stop_if_frozen();
	if (ktrace_running)
		__ktrace_stop();
	WRITE_ONCE(ktrace_shut, true);
	cpus_read_lock();
	ktrace_crash_freeze(reason);
	cpus_read_unlock();
	mutex_unlock(&ktrace_mutex);
}

/**
 * ktrace_set_enabled() - start or stop tracing
 * @on: true to start, false to stop
 *
 * Starting allocates the channels that are not allocated yet, empties the
 * saved comms, and returns once the start notifiers (the statedump) are
 * done, which they do without ktrace_mutex.  Stopping waits for the
 * writers still inside the write path, then makes everything written
 * readable; a statedump still running stops at its next step.  Starting
 * an enabled tracer or stopping a stopped one changes nothing.  A trace
 * a trigger froze is stopped first, as the trigger asked: starting it
 * starts a new trace, as after any stop.
 *
 * Return: 0 on success, -ENOMEM if the buffers cannot be allocated,
 * -EBUSY while the stream files of buffers freed earlier are not yet
 * removed (a reader of one is still in read()), -ENOSPC if they do not fit
 * in the persistent region, -ESHUTDOWN once the machine is rebooting.
 */
int ktrace_set_enabled(bool on)
{
	bool started = false;
	unsigned long gen = 0;
	int ret = 0;

	mutex_lock(&ktrace_mutex);
	ktrace_stop_if_frozen();
	if (on == ktrace_running)
		goto out;
	if (on && ktrace_shut) {
		ret = -ESHUTDOWN;
	} else if (on) {
		ret = ktrace_channels_alloc((size_t)ktrace_buffer_kb * SZ_1K);
		if (!ret) {
			ktrace_clock_recheck();
			/* Every start begins with a timestamp record. */
			ktrace_channels_clock_changed();
			ktrace_crash_thaw();
			gen = ktrace_generation + 1;
			WRITE_ONCE(ktrace_generation, gen);
			WRITE_ONCE(ktrace_frozen, false);
			WRITE_ONCE(ktrace_trigger_kept, false);
			WRITE_ONCE(ktrace_running, true);
			ktrace_comms_reset();
			/* Before the gate opens: nothing of this trace fired yet. */
			raw_notifier_call_chain(&ktrace_starting_chain, gen, NULL);
			ktrace_start_writers();
			started = true;
		}
	} else {
		__ktrace_stop();
	}
out:
	mutex_unlock(&ktrace_mutex);
	if (started)
		blocking_notifier_call_chain(&ktrace_start_chain, gen, NULL);
	else if (ret)
		ktrace_channels_reap();	/* of a failed allocation */
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(ktrace_set_enabled);

/**
 * ktrace_start_current() - tell whether a trace still takes its statedump
 * @gen: the generation of the trace, as given to the start notifiers
 *
 * Lockless: the answer may be stale by the time it is used, which costs a
 * statedump step written into a stopped trace (refused by the gate) or
 * into the next one (before that trace's own statedump, which waits for
 * this one).
 *
 * Return: false once that trace was stopped, frozen or started again.
 */
bool ktrace_start_current(unsigned long gen)
{
	return READ_ONCE(ktrace_running) && !READ_ONCE(ktrace_frozen) &&
	       READ_ONCE(ktrace_generation) == gen;
}

/**
 * ktrace_generation_read() - which trace is running
 *
 * Return: a number that changes at every start; any context.
 */
unsigned long ktrace_generation_read(void)
{
	return READ_ONCE(ktrace_generation);
}
EXPORT_SYMBOL_IF_KUNIT(ktrace_generation_read);

/**
 * ktrace_freeze() - close the writers' gate now
 *
 * Any context, NMI included: a trigger freezes the flight recorder at the
 * moment of the bug, before anything else can overwrite the history.  The
 * writers inside the write path finish their event.  The trace stays
 * running (its buffers kept) until ktrace_stop_frozen(), from process
 * context, makes it readable.
 */
void ktrace_freeze(void)
{
	WRITE_ONCE(ktrace_trigger_kept, true);
	WRITE_ONCE(ktrace_frozen, true);
	WRITE_ONCE(ktrace_tracing, false);
}
EXPORT_SYMBOL_IF_KUNIT(ktrace_freeze);

/**
 * ktrace_stop_frozen() - stop the trace a trigger froze
 * @gen: ktrace_generation_read() when the trigger fired
 *
 * Process context.  Stops the trace as writing "0" to enable does, unless
 * it was stopped, or stopped and started again, since the trigger fired.
 *
 * Return: true if this call stopped it.
 */
bool ktrace_stop_frozen(unsigned long gen)
{
	bool stopped = false;

	mutex_lock(&ktrace_mutex);
	if (ktrace_running && gen == ktrace_generation) {
		ktrace_freeze();
		__ktrace_stop();
		stopped = true;
	}
	mutex_unlock(&ktrace_mutex);
	return stopped;
}
EXPORT_SYMBOL_IF_KUNIT(ktrace_stop_frozen);

/**
 * ktrace_unsaved() - whether a trace a trigger kept is still unread
 *
 * A trigger froze (and maybe stopped) the trace, and no reader has read
 * all of its streams since: a start, a mode or a size would destroy the
 * history of the bug.  Tools refuse to (stats says "unsaved 1").
 *
 * Return: true while that history is in the buffers, unread.
 */
bool ktrace_unsaved(void)
{
	/* Set only while frozen or stopped: a start clears it. */
	return READ_ONCE(ktrace_trigger_kept) && !ktrace_channels_drained();
}

/**
 * ktrace_state_name() - the name of a state
 * @state: the state
 *
 * Return: "stopped", "tracing" or "frozen".
 */
const char *ktrace_state_name(enum ktrace_state state)
{
	return ktrace_state_names[state];
}

/**
 * ktrace_mode_name() - the name of a mode
 * @mode: the mode
 *
 * Return: "drop", "overwrite" or "hybrid".
 */
const char *ktrace_mode_name(enum ktrace_trace_mode mode)
{
	return ktrace_mode_names[mode];
}

/**
 * ktrace_mode_of() - the mode a name names
 * @name: "drop", "overwrite" or "hybrid"
 *
 * Return: the mode, or -EINVAL if @name names none.
 */
int ktrace_mode_of(const char *name)
{
	return match_string(ktrace_mode_names, KTRACE_NR_TRACE_MODES, name);
}

/**
 * ktrace_set_mode() - choose what full buffers do
 * @mode: the mode
 *
 * A new mode starts a new trace: the buffers are freed, and allocated
 * empty, with their counters at zero, at the next start.  Returns once
 * their stream files are removed, which waits for readers still in
 * read(), but without ktrace_mutex: the other control files answer
 * meanwhile.
 *
 * Return: 0, or -EBUSY while tracing (a trace a trigger froze is stopped
 * first, as writing 0 to enable does).
 */
int ktrace_set_mode(enum ktrace_trace_mode mode)
{
	int ret = 0;

	mutex_lock(&ktrace_mutex);
	ktrace_stop_if_frozen();
	if (ktrace_running) {
		ret = -EBUSY;
	} else if (mode != ktrace_mode) {
		ktrace_mode = mode;
		ktrace_channels_set_mode(mode);
	}
	mutex_unlock(&ktrace_mutex);
	/* The stream files' close may wait for their readers: not under the mutex. */
	ktrace_channels_reap();
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(ktrace_set_mode);

/**
 * ktrace_get_mode() - the current mode
 *
 * Return: the mode.
 */
enum ktrace_trace_mode ktrace_get_mode(void)
{
	return READ_ONCE(ktrace_mode);
}
EXPORT_SYMBOL_IF_KUNIT(ktrace_get_mode);

/**
 * ktrace_set_buffer_size_kb() - size the high-rate channel
 * @kb: KiB per CPU, rounded up to a power of two
 *
 * A new size starts a new trace: all buffers are freed, and allocated
 * empty, with their counters at zero, at the next start; as for
 * ktrace_set_mode(), their stream files are removed without ktrace_mutex.
 *
 * Return: 0, -EINVAL outside %KTRACE_BUFFER_KB_MIN..%KTRACE_BUFFER_KB_MAX,
 * or -EBUSY while tracing (a trace a trigger froze is stopped first).
 */
int ktrace_set_buffer_size_kb(unsigned long kb)
{
	int ret = 0;

	if (kb < KTRACE_BUFFER_KB_MIN || kb > KTRACE_BUFFER_KB_MAX)
		return -EINVAL;
	kb = roundup_pow_of_two(kb);
	mutex_lock(&ktrace_mutex);
	ktrace_stop_if_frozen();
	if (ktrace_running) {
		ret = -EBUSY;
	} else if (kb != ktrace_buffer_kb) {
		ktrace_buffer_kb = kb;
		ktrace_channels_free();
	}
	mutex_unlock(&ktrace_mutex);
	/* As in ktrace_set_mode(). */
	ktrace_channels_reap();
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(ktrace_set_buffer_size_kb);

/**
 * ktrace_get_buffer_size_kb() - the size of the high-rate channel
 *
 * Return: KiB per CPU.
 */
unsigned long ktrace_get_buffer_size_kb(void)
{
	return READ_ONCE(ktrace_buffer_kb);
}
EXPORT_SYMBOL_IF_KUNIT(ktrace_get_buffer_size_kb);

/* Armed latency triggers: their thresholds and pairs are in clock units. */
static unsigned int ktrace_clock_pins;

/**
 * ktrace_clock_pin() - keep the trace clock as it is, or let it change
 * @pin: true to keep it, false to release a pin taken before
 *
 * For the latency triggers, whose thresholds and pending pairs are in
 * trace clock units: while one is armed, ktrace_set_clock() fails with
 * -EBUSY.  Under ktrace_mutex, so that a unit read after the pin is taken
 * stays valid.
 */
void ktrace_clock_pin(bool pin)
{
	mutex_lock(&ktrace_mutex);
	if (pin)
		ktrace_clock_pins++;
	else if (!WARN_ON_ONCE(!ktrace_clock_pins))
		ktrace_clock_pins--;
	mutex_unlock(&ktrace_mutex);
}
EXPORT_SYMBOL_IF_KUNIT(ktrace_clock_pin);

/**
 * ktrace_set_clock() - choose the trace clock
 * @name: "tsc" or "mono"; "tsc-mono", the TSC given up, cannot be chosen
 *
 * A new clock starts a new trace, as a new mode does: the buffers are
 * freed (records of the old clock would be decoded in the new clock's
 * unit) and allocated empty at the next start, whose metadata describes
 * the new clock.  Choosing the current clock changes nothing and
 * succeeds, even where it could not be chosen now; so does "tsc" while
 * the current clock is "tsc-mono" and the TSC was forced by
 * ktrace.clock=tsc (the next start would give the unstable TSC up again);
 * without the force, "tsc" then fails with -EOPNOTSUPP
 * (ktrace_clock_change()).
 *
 * Return: 0; -EINVAL for an unknown name ("tsc-mono" included); -ENODEV
 * for "tsc" without a TSC of known rate; -EOPNOTSUPP for "tsc" where the
 * TSC is not trusted (not constant, not non-stop, or marked unstable) and
 * was not forced at boot (ktrace_clock_allowed()); -EBUSY while tracing (a
 * trace a trigger froze is stopped first) or while a latency trigger is
 * armed, even for the current clock.  Nothing changes on an error.
 */
int ktrace_set_clock(const char *name)
{
	int id = ktrace_clock_parse(name), ret = 0;
	struct ktrace_clock_caps caps;

	if (id < 0)
		return id;
	ktrace_clock_get_caps(&caps);
	mutex_lock(&ktrace_mutex);
	ktrace_stop_if_frozen();
	if (ktrace_running || ktrace_clock_pins) {
		ret = -EBUSY;
	} else {
		ret = ktrace_clock_change(id, ktrace_clock.name, &caps);
		if (ret > 0) {
			ret = ktrace_clock_select(id);
			if (!ret)
				ktrace_channels_free();
		}
	}
	mutex_unlock(&ktrace_mutex);
	/* As in ktrace_set_mode(). */
	ktrace_channels_reap();
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(ktrace_set_clock);

/**
 * ktrace_clock_show() - the line the clock control file reads
 * @buf: where it goes
 * @size: its size
 *
 * Return: its length: the clocks that can be chosen, the current one in
 * brackets (ktrace_clock_list()).
 */
int ktrace_clock_show(char *buf, size_t size)
{
	struct ktrace_clock_caps caps;
	int len;

	ktrace_clock_get_caps(&caps);
	mutex_lock(&ktrace_mutex);
	len = ktrace_clock_list(buf, size, &caps, ktrace_clock.name);
	mutex_unlock(&ktrace_mutex);
	return len;
}
EXPORT_SYMBOL_IF_KUNIT(ktrace_clock_show);

/**
 * ktrace_mark_write() - write an annotation into the trace
 * @text: the annotation
 * @len: its length, 1 to %KTRACE_MARK_MAX
 *
 * Return: 0, -EAGAIN when not tracing or the ktrace:mark event is
 * disabled, -ENOBUFS if the buffer is full.
 */
int ktrace_mark_write(const char *text, size_t len)
{
	u32 pid = task_pid_nr(current);

	if (!READ_ONCE(ktrace_event_mark.enabled))
		return -EAGAIN;
	return ktrace_write_expanded2(KTRACE_CHANNEL_MEDIUM, KTRACE_MAJOR_KTRACE,
				      KTRACE_MINOR_MARK, &pid, sizeof(pid), text, len);
}

static int __init ktrace_init(void)
{
	int ret;

	/* The channels hold the mode too: told the core's default, not their own. */
	mutex_lock(&ktrace_mutex);
	ktrace_channels_set_mode(ktrace_mode);
	mutex_unlock(&ktrace_mutex);
	ret = ktrace_channels_init();
	if (ret)
		pr_warn("no CPU hotplug support: %d\n", ret);
	return 0;
}
core_initcall(ktrace_init);
