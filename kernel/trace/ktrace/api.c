// SPDX-License-Identifier: GPL-2.0
/*
 * ktrace's kernel API (include/linux/ktrace.h): kernel code fires the
 * "kernel" trigger and writes marks; WARN() fires the "warn" trigger.
 *
 * Everything here runs in any context, NMI included: the firing and the
 * write path take no lock and allocate nothing (trigger_fire.c,
 * buffer.c), the armed trigger is found under RCU, whose readers may be
 * NMI handlers, and what is formatted is formatted on the stack.  When no
 * trigger of the kind is armed, a call costs an RCU pointer load.
 */
#define pr_fmt(fmt) "ktrace: " fmt

#include <linux/export.h>
#include <linux/kernel.h>
#include <linux/ktrace.h>
#include <linux/pid.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>

#include "ktrace_internal.h"
#include "trigger.h"

/* A mark written by kernel code is formatted on the stack: this long at most. */
#define KTRACE_KERNEL_MARK_MAX	128

/* Fire @t, found in its slot under rcu_read_lock(), for the running task. */
static int ktrace_api_fire(struct ktrace_trigger *t, const char *reason, u64 value)
{
	struct ktrace_trigger_cause c = {
		.pid = task_pid_nr(current),
		.task = current,
		.value = value,
		.reason = reason,
	};

	return ktrace_trigger_fire(t, &c);
}

/**
 * ktrace_trigger() - fire the kernel trigger
 * @reason: what happened, in words (%NULL or "": "no reason given"); it
 *	is cut at %KTRACE_TRIGGER_REASON_MAX - 1 bytes
 *
 * Freezes the flight recorder as any armed trigger does, from any context
 * (NMI included), if "kernel" is armed in the triggers file, with the
 * options it was armed with (count=, delay=, action=).  The trigger record
 * names the running task.
 *
 * Return: 0 if the firing was counted (it fires at the count-th); -ENOENT
 * if the kernel trigger is not armed, -EAGAIN when not tracing.
 */
int ktrace_trigger(const char *reason)
{
	struct ktrace_trigger *t;
	int ret = -ENOENT;

	if (!reason || !*reason)
		reason = "no reason given";
	rcu_read_lock();
	t = ktrace_trigger_get(KTRACE_TRIG_KERNEL);
	if (t)
		ret = ktrace_api_fire(t, reason, 0);
	rcu_read_unlock();
	return ret;
}
EXPORT_SYMBOL_GPL(ktrace_trigger);

/**
 * ktrace_mark() - write a mark into the trace from kernel code
 * @fmt: printf format of the text
 *
 * Writes a ktrace:mark event, as a write to the marker file does, naming
 * the running task; the text is cut at %KTRACE_KERNEL_MARK_MAX - 1 bytes.
 * Any context, NMI included.
 *
 * Return: 0; -EINVAL for an empty text, -EAGAIN when not tracing or the
 * ktrace:mark event is disabled, -ENOBUFS if the buffer is full.
 */
int ktrace_mark(const char *fmt, ...)
{
	char text[KTRACE_KERNEL_MARK_MAX];
	va_list args;
	int len;

	va_start(args, fmt);
	len = vscnprintf(text, sizeof(text), fmt, args);
	va_end(args);
	if (!len)
		return -EINVAL;
	return ktrace_mark_write(text, len);
}
EXPORT_SYMBOL_GPL(ktrace_mark);

/**
 * ktrace_on_warning() - fire the warn trigger
 * @caller: where the WARN() is
 *
 * Called by __warn() for every WARN() that prints, where ftrace's
 * traceoff_on_warning stops ftrace: before the warning is printed, so the
 * trace ends at the warning, not seconds of console output after it.  The
 * reason is "WARNING at FUNCTION+OFFSET/SIZE".  A WARN() inside ktrace's
 * own write path fires it too: the write path's nesting limit bounds that.
 */
void ktrace_on_warning(const void *caller)
{
	struct ktrace_trigger *t;

	/*
	 * A WARN() in the idle loop or in noinstr entry code: RCU is not
	 * watching, so a reader there would not hold off the grace period of
	 * a "!warn" that frees the trigger.  ftrace's traceoff_on_warning
	 * needs no RCU; this trigger gives up such a warning.
	 */
	if (!rcu_is_watching())
		return;
	rcu_read_lock();
	t = ktrace_trigger_get(KTRACE_TRIG_WARN);
	if (t) {
		char reason[KTRACE_TRIGGER_REASON_MAX];

		snprintf(reason, sizeof(reason), "WARNING at %pS", caller);
		ktrace_api_fire(t, reason, 0);
	}
	rcu_read_unlock();
}
