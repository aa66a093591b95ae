// SPDX-License-Identifier: GPL-2.0
/*
 * ktrace triggers: freeze the flight recorder when the bug happens.
 *
 * A trigger is armed by writing its spec to the triggers file:
 *
 *   KIND [count=N] [delay=MS] [action=stop|mark] [nr=SYSCALL] [last=N]
 *   !KIND
 *
 * KIND is oom, oops, panic, hung_task, user or latency:LAT>DURATION with LAT
 * one of block, wakeup, syscall, irq and DURATION a number with a unit
 * (ns, us, ms, s).  One trigger of each kind (of each latency kind) can be
 * armed; the hooks find it through an RCU-protected slot, or are
 * tracepoint probes registered with it as their data.
 *
 * When the cause happens while tracing, ktrace_trigger_fire() counts it
 * and, at the count-th occurrence:
 *
 *   1. writes a ktrace:trigger record into the high-rate channel, which
 *      in overwrite and hybrid mode always has room;
 *   2. emits the ktrace_trigger tracepoint for ftrace, perf and BPF;
 *   3. for action=stop without delay, closes the writers' gate at once
 *      (ktrace_freeze()), so that nothing after the bug overwrites the
 *      history before it;
 *   4. logs the firing for trigger_pipe readers;
 *   5. queues an irq_work, which wakes those readers and queues the work
 *      that stops the trace (after delay=), making it readable.
 *
 * Steps 1 to 5 take no lock and allocate nothing, so a trigger can fire
 * from any context: an NMI, the die notifier of an oops, a tracepoint
 * probe with the runqueue lock held.  One action=stop firing per trace:
 * once one has fired, the causes of the others are only counted, until
 * the next start.
 */
#define pr_fmt(fmt) "ktrace: " fmt

#include <linux/ctype.h>
#include <linux/irq_work.h>
#include <linux/kdebug.h>
#include <linux/mm.h>
#include <linux/notifier.h>
#include <linux/panic_notifier.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/seq_buf.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <linux/uaccess.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <kunit/visibility.h>
#include <trace/events/oom.h>
#include <trace/events/sched.h>

#define CREATE_TRACE_POINTS
#include <trace/events/ktrace.h>

#include "event.h"
#include "ktrace_internal.h"
#include "trigger.h"

static const char * const ktrace_trigger_kinds[KTRACE_NR_TRIG_KINDS] = {
	[KTRACE_TRIG_OOM] = "oom",
	[KTRACE_TRIG_OOPS] = "oops",
	[KTRACE_TRIG_PANIC] = "panic",
	[KTRACE_TRIG_HUNG_TASK] = "hung_task",
	[KTRACE_TRIG_USER] = "user",
	[KTRACE_TRIG_LATENCY] = "latency",
};

static const char * const ktrace_trigger_slot_names[KTRACE_NR_TRIG_SLOTS] = {
	[KTRACE_TRIG_OOM] = "oom",
	[KTRACE_TRIG_OOPS] = "oops",
	[KTRACE_TRIG_PANIC] = "panic",
	[KTRACE_TRIG_HUNG_TASK] = "hung_task",
	[KTRACE_TRIG_USER] = "user",
	[KTRACE_TRIG_LATENCY + KTRACE_LAT_BLOCK] = "latency:block",
	[KTRACE_TRIG_LATENCY + KTRACE_LAT_WAKEUP] = "latency:wakeup",
	[KTRACE_TRIG_LATENCY + KTRACE_LAT_SYSCALL] = "latency:syscall",
	[KTRACE_TRIG_LATENCY + KTRACE_LAT_IRQ] = "latency:irq",
};

static const char * const ktrace_latency_kinds[KTRACE_NR_LAT_KINDS] = {
	[KTRACE_LAT_BLOCK] = "block",
	[KTRACE_LAT_WAKEUP] = "wakeup",
	[KTRACE_LAT_SYSCALL] = "syscall",
	[KTRACE_LAT_IRQ] = "irq",
};

static const char * const ktrace_trigger_actions[] = {
	[KTRACE_ACTION_STOP] = "stop",
	[KTRACE_ACTION_MARK] = "mark",
};

static const struct {
	const char *unit;
	u64 ns;
} ktrace_duration_units[] = {
	/* Largest first: the listing prints the largest exact unit. */
	{ "s", NSEC_PER_SEC },
	{ "ms", NSEC_PER_MSEC },
	{ "us", NSEC_PER_USEC },
	{ "ns", 1 },
};

/**
 * ktrace_trigger_slot() - where an armed trigger of a spec is kept
 * @spec: a parsed spec
 *
 * Return: the slot, below %KTRACE_NR_TRIG_SLOTS.
 */
unsigned int ktrace_trigger_slot(const struct ktrace_trigger_spec *spec)
{
	return spec->kind == KTRACE_TRIG_LATENCY ? KTRACE_TRIG_LATENCY + spec->lat :
						   spec->kind;
}
EXPORT_SYMBOL_IF_KUNIT(ktrace_trigger_slot);

/**
 * ktrace_trigger_slot_name() - the name a trigger is listed and disarmed by
 * @slot: its slot
 *
 * Return: "oom", ..., "latency:block", ...
 */
const char *ktrace_trigger_slot_name(unsigned int slot)
{
	return ktrace_trigger_slot_names[slot];
}
EXPORT_SYMBOL_IF_KUNIT(ktrace_trigger_slot_name);

/**
 * ktrace_parse_duration() - parse a latency threshold
 * @s: digits and a unit: ns, us, ms or s
 * @ns: set to the duration in nanoseconds
 *
 * Return: 0; -EINVAL if @s is not digits followed by a unit; -ERANGE
 * outside %KTRACE_LATENCY_MIN_NS to %KTRACE_LATENCY_MAX_NS.
 */
static int ktrace_parse_duration(const char *s, u64 *ns)
{
	char digits[24];
	const char *unit = s;
	unsigned int i;
	u64 v;
	int ret;

	while (isdigit(*unit))
		unit++;
	if (unit == s || unit - s >= sizeof(digits))
		return unit == s ? -EINVAL : -ERANGE;
	memcpy(digits, s, unit - s);
	digits[unit - s] = '\0';
	ret = kstrtou64(digits, 10, &v);
	if (ret)
		return ret;
	for (i = 0; i < ARRAY_SIZE(ktrace_duration_units); i++) {
		if (strcmp(unit, ktrace_duration_units[i].unit))
			continue;
		if (v > KTRACE_LATENCY_MAX_NS / ktrace_duration_units[i].ns)
			return -ERANGE;
		v *= ktrace_duration_units[i].ns;
		if (v < KTRACE_LATENCY_MIN_NS)
			return -ERANGE;
		*ns = v;
		return 0;
	}
	return -EINVAL;
}

/**
 * ktrace_parse_uint() - parse an option's number within limits
 * @s: decimal digits
 * @min: the smallest value allowed
 * @max: the largest
 * @v: set to the value
 *
 * Return: 0; -EINVAL if @s is not a decimal number (a sign included);
 * -ERANGE outside @min..@max.
 */
static int ktrace_parse_uint(const char *s, u32 min, u32 max, u32 *v)
{
	int ret;

	if (!isdigit(*s))
		return -EINVAL;
	ret = kstrtou32(s, 10, v);
	if (ret)
		return ret;
	return *v < min || *v > max ? -ERANGE : 0;
}

enum {
	KTRACE_OPT_COUNT,
	KTRACE_OPT_DELAY,
	KTRACE_OPT_ACTION,
	KTRACE_OPT_NR,
	KTRACE_OPT_LAST,
	KTRACE_NR_OPTS,
};

static const char * const ktrace_trigger_opts[KTRACE_NR_OPTS] = {
	[KTRACE_OPT_COUNT] = "count",
	[KTRACE_OPT_DELAY] = "delay",
	[KTRACE_OPT_ACTION] = "action",
	[KTRACE_OPT_NR] = "nr",
	[KTRACE_OPT_LAST] = "last",
};

/**
 * ktrace_trigger_parse_opt() - parse one KEY=VALUE option
 * @spec: the spec so far; its kind is known
 * @opt: the option, modified
 * @seen: the options already given, updated
 *
 * Return: 0; -EINVAL for an unknown, repeated or malformed option, or
 * one that does not apply to the kind; -ERANGE for a value out of range.
 */
static int ktrace_trigger_parse_opt(struct ktrace_trigger_spec *spec,
				    char *opt, unsigned long *seen)
{
	char *val = strchr(opt, '=');
	int o, ret;
	u32 v;

	if (!val)
		return -EINVAL;
	*val++ = '\0';
	o = match_string(ktrace_trigger_opts, KTRACE_NR_OPTS, opt);
	if (o < 0 || __test_and_set_bit(o, seen))
		return -EINVAL;
	switch (o) {
	case KTRACE_OPT_COUNT:
		return ktrace_parse_uint(val, 1, KTRACE_TRIGGER_COUNT_MAX, &spec->count);
	case KTRACE_OPT_DELAY:
		return ktrace_parse_uint(val, 0, KTRACE_TRIGGER_DELAY_MAX_MS,
					 &spec->delay_ms);
	case KTRACE_OPT_ACTION:
		ret = match_string(ktrace_trigger_actions,
				   ARRAY_SIZE(ktrace_trigger_actions), val);
		if (ret < 0)
			return ret;
		spec->action = ret;
		return 0;
	case KTRACE_OPT_NR:
		if (spec->kind != KTRACE_TRIG_LATENCY || spec->lat != KTRACE_LAT_SYSCALL)
			return -EINVAL;
		ret = ktrace_parse_uint(val, 0, 4095, &v);
		if (!ret)
			spec->nr = v;
		return ret;
	case KTRACE_OPT_LAST:
		if (spec->kind != KTRACE_TRIG_PANIC)
			return -EINVAL;
		return ktrace_parse_uint(val, 1, KTRACE_TRIGGER_LAST_MAX, &spec->last);
	}
	return -EINVAL;
}

/**
 * ktrace_trigger_parse() - parse a write to the triggers file
 * @s: the text, without surrounding white space; modified
 * @spec: set to what it asks for
 *
 * "KIND [OPTION=VALUE]..." arms, "!KIND" disarms; see the top of this
 * file.  Options are separated by spaces or tabs; each may be given once.
 *
 * Return: 0; -EINVAL for an unknown kind or option, a malformed number,
 * threshold or option, or options after "!KIND"; -ERANGE for a value out
 * of range.  @spec is meaningful only on success.
 */
int ktrace_trigger_parse(char *s, struct ktrace_trigger_spec *spec)
{
	unsigned long seen = 0;
	char *name, *opt;
	int ret;

	*spec = (struct ktrace_trigger_spec) {
		.count = 1,
		.action = KTRACE_ACTION_STOP,
		.nr = -1,
		.last = KTRACE_TRIGGER_LAST_DEFAULT,
	};
	if (*s == '!') {
		spec->disarm = true;
		s++;
	}
	name = strsep(&s, " \t");
	if (str_has_prefix(name, "latency:")) {
		char *lat = name + strlen("latency:");
		char *gt = strchr(lat, '>');

		if (!gt == !spec->disarm)
			return -EINVAL;
		if (gt)
			*gt = '\0';
		ret = match_string(ktrace_latency_kinds, KTRACE_NR_LAT_KINDS, lat);
		if (ret < 0)
			return ret;
		spec->kind = KTRACE_TRIG_LATENCY;
		spec->lat = ret;
		if (gt) {
			ret = ktrace_parse_duration(gt + 1, &spec->threshold_ns);
			if (ret)
				return ret;
		}
	} else {
		ret = match_string(ktrace_trigger_kinds, KTRACE_NR_TRIG_KINDS, name);
		if (ret < 0 || ret == KTRACE_TRIG_LATENCY)
			return -EINVAL;
		spec->kind = ret;
	}
	while ((opt = strsep(&s, " \t"))) {
		if (!*opt)
			continue;
		if (spec->disarm)
			return -EINVAL;
		ret = ktrace_trigger_parse_opt(spec, opt, &seen);
		if (ret)
			return ret;
	}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(ktrace_trigger_parse);

/**
 * ktrace_trigger_format_spec() - a spec as the triggers file lists it
 * @spec: an armed spec
 * @buf: where to
 * @size: bytes at @buf
 *
 * Every option is shown, with its default if it was not given, so that
 * the line armed again gives the same trigger.
 *
 * Return: the length, as scnprintf().
 */
int ktrace_trigger_format_spec(const struct ktrace_trigger_spec *spec,
			       char *buf, size_t size)
{
	int len = scnprintf(buf, size, "%s",
			    ktrace_trigger_slot_name(ktrace_trigger_slot(spec)));
	unsigned int i;

	if (spec->kind == KTRACE_TRIG_LATENCY) {
		for (i = 0; i < ARRAY_SIZE(ktrace_duration_units); i++)
			if (!(spec->threshold_ns % ktrace_duration_units[i].ns))
				break;
		len += scnprintf(buf + len, size - len, ">%llu%s",
				 div64_u64(spec->threshold_ns, ktrace_duration_units[i].ns),
				 ktrace_duration_units[i].unit);
	}
	len += scnprintf(buf + len, size - len, " count=%u delay=%u action=%s",
			 spec->count, spec->delay_ms,
			 ktrace_trigger_actions[spec->action]);
	if (spec->kind == KTRACE_TRIG_LATENCY && spec->lat == KTRACE_LAT_SYSCALL &&
	    spec->nr >= 0)
		len += scnprintf(buf + len, size - len, " nr=%d", spec->nr);
	if (spec->kind == KTRACE_TRIG_PANIC)
		len += scnprintf(buf + len, size - len, " last=%u", spec->last);
	return len;
}
EXPORT_SYMBOL_IF_KUNIT(ktrace_trigger_format_spec);

/*
 * The trigger record: ktrace:trigger in the high-rate channel.  pid and
 * comm name the task concerned, not the running one.
 */
struct kt_trigger_rec {
	char trigger[16];
	u32 pid;
	char comm[TASK_COMM_LEN];
	u64 value;
	u32 fired;
	u8 action;
	char reason[];
} __packed;

static const struct ktrace_enum_value ktrace_action_values[] = {
	{ KTRACE_ACTION_STOP, "stop" },
	{ KTRACE_ACTION_MARK, "mark" },
};

static const struct ktrace_field ktrace_trigger_fields[] = {
	{ .name = "trigger", .offset = offsetof(struct kt_trigger_rec, trigger),
	  .size = 16, .display = KTRACE_DISPLAY_STRING },
	{ .name = "pid", .offset = offsetof(struct kt_trigger_rec, pid),
	  .size = 4, .display = KTRACE_DISPLAY_PID },
	{ .name = "comm", .offset = offsetof(struct kt_trigger_rec, comm),
	  .size = TASK_COMM_LEN, .display = KTRACE_DISPLAY_STRING },
	{ .name = "value", .offset = offsetof(struct kt_trigger_rec, value),
	  .size = 8, .display = KTRACE_DISPLAY_DEC },
	{ .name = "fired", .offset = offsetof(struct kt_trigger_rec, fired),
	  .size = 4, .display = KTRACE_DISPLAY_DEC },
	{ .name = "action", .offset = offsetof(struct kt_trigger_rec, action),
	  .size = 1, .display = KTRACE_DISPLAY_ENUM,
	  .values = ktrace_action_values, .nr_values = ARRAY_SIZE(ktrace_action_values) },
	{ .name = "reason", .offset = offsetof(struct kt_trigger_rec, reason),
	  .size = 0, .display = KTRACE_DISPLAY_STRING },
};

/* A trigger fired: written whenever one does, unless disabled under events/. */
static struct ktrace_event ktrace_event_trigger = {
	.group = "ktrace",
	.name = "trigger",
	.channel = KTRACE_CHANNEL_HIGH,
	.kind = KTRACE_EVENT_EXPANDED,
	.fields = ktrace_trigger_fields,
	.nr_fields = ARRAY_SIZE(ktrace_trigger_fields),
	.enabled = true,
};

/*
 * The firings, for trigger_pipe: a ring that writers fill locklessly from
 * any context, each slot published by its sequence number (position + 1)
 * once written; a reader that finds a different number there lost that
 * firing to a later one.
 */
#define KTRACE_FIRINGS	64

struct ktrace_firing {
	unsigned long seq;
	u64 time_ns;
	char trigger[16];
	char comm[TASK_COMM_LEN];
	u32 pid;
	u32 fired;
	u64 value;
	u8 action;
	char reason[KTRACE_TRIGGER_REASON_MAX];
};

static struct ktrace_firing ktrace_firings[KTRACE_FIRINGS];
static atomic_long_t ktrace_firings_head = ATOMIC_LONG_INIT(0);
static DECLARE_WAIT_QUEUE_HEAD(ktrace_pipe_wait);

/* Serializes trigger_pipe readers: the read position and the pending line. */
static DEFINE_MUTEX(ktrace_pipe_lock);
static unsigned long ktrace_pipe_pos;
static char ktrace_pipe_line[KTRACE_TRIGGER_REASON_MAX * 4 + 256];
static struct seq_buf ktrace_pipe_buf;
static size_t ktrace_pipe_done;

/*
 * The stop a trigger asked for: the generation of the trace it froze
 * (at most one per trace, claimed by cmpxchg), the delay, and when the
 * cause happened, for the log line that measures the freeze.
 */
static atomic_long_t ktrace_stop_gen = ATOMIC_LONG_INIT(0);
static atomic_t ktrace_stop_requested = ATOMIC_INIT(0);
static unsigned int ktrace_stop_delay_ms;
static u64 ktrace_stop_cause_ns;
static u64 ktrace_stop_frozen_ns;
static const char *ktrace_stop_trigger;

static void ktrace_trigger_stop_fn(struct work_struct *work);
static DECLARE_DELAYED_WORK(ktrace_stop_work, ktrace_trigger_stop_fn);

/*
 * From any context: wake trigger_pipe readers, queue the stop.  The stop
 * work may still be pending for an earlier trace (a delay= of up to ten
 * minutes, then a stop and a start): queue_delayed_work() would leave it
 * at its old time, and this trace frozen until then.  mod_delayed_work()
 * sets the time of this request; the work stops whichever trace claimed
 * ktrace_stop_gen last, this one.
 */
static void ktrace_trigger_irq_work_fn(struct irq_work *work)
{
	wake_up_interruptible(&ktrace_pipe_wait);
	if (atomic_xchg(&ktrace_stop_requested, 0))
		mod_delayed_work(system_unbound_wq, &ktrace_stop_work,
				 msecs_to_jiffies(READ_ONCE(ktrace_stop_delay_ms)));
}

static DEFINE_IRQ_WORK(ktrace_trigger_irq_work, ktrace_trigger_irq_work_fn);

static void ktrace_trigger_stop_fn(struct work_struct *work)
{
	unsigned long gen = atomic_long_read(&ktrace_stop_gen);
	u64 cause = READ_ONCE(ktrace_stop_cause_ns), frozen;

	if (!READ_ONCE(ktrace_stop_frozen_ns))
		WRITE_ONCE(ktrace_stop_frozen_ns, ktime_get_mono_fast_ns());
	if (!ktrace_stop_frozen(gen))
		return;
	frozen = READ_ONCE(ktrace_stop_frozen_ns);
	pr_info("trigger %s: trace frozen %llu ns and stopped %llu us after the cause\n",
		READ_ONCE(ktrace_stop_trigger), frozen - cause,
		div_u64(ktime_get_mono_fast_ns() - cause, NSEC_PER_USEC));
}

/* Log a firing for trigger_pipe; any context. */
static void ktrace_trigger_log(const struct kt_trigger_rec *rec, size_t reason_len,
			       u64 now)
{
	unsigned long pos = atomic_long_fetch_inc(&ktrace_firings_head);
	struct ktrace_firing *f = &ktrace_firings[pos % KTRACE_FIRINGS];

	WRITE_ONCE(f->seq, 0);
	/* The slot is taken before it is changed: pairs with the reader's smp_rmb(). */
	smp_wmb();
	f->time_ns = now;
	memcpy(f->trigger, rec->trigger, sizeof(f->trigger));
	memcpy(f->comm, rec->comm, sizeof(f->comm));
	f->pid = rec->pid;
	f->fired = rec->fired;
	f->value = rec->value;
	f->action = rec->action;
	memcpy(f->reason, rec->reason, reason_len);
	f->reason[reason_len] = '\0';
	/* Publish: the fields before the number, for the acquire of the reader. */
	smp_store_release(&f->seq, pos + 1);
}

/**
 * ktrace_trigger_fire() - the cause of a trigger happened
 * @t: the trigger
 * @cause: who, what was measured and why
 *
 * Any context, NMI included: no lock, no allocation (see the top of this
 * file).
 *
 * Return: 0 if it was counted (and fired, if it was the count-th or a
 * later one, and no action=stop firing was already under way); -EAGAIN
 * when not tracing.
 */
int ktrace_trigger_fire(struct ktrace_trigger *t,
			const struct ktrace_trigger_cause *cause)
{
	u8 buf[sizeof(struct kt_trigger_rec) + KTRACE_TRIGGER_REASON_MAX] = {};
	struct kt_trigger_rec *rec = (struct kt_trigger_rec *)buf;
	bool stop = t->spec.action == KTRACE_ACTION_STOP;
	unsigned long gen, old;
	const char *name;
	size_t len;
	u64 now;

	if (!READ_ONCE(ktrace_tracing))
		return -EAGAIN;
	if ((unsigned int)atomic_inc_return(&t->hits) < t->spec.count)
		return 0;
	if (stop) {
		gen = ktrace_generation_read();
		old = atomic_long_read(&ktrace_stop_gen);
		if (old == gen || atomic_long_cmpxchg(&ktrace_stop_gen, old, gen) != old)
			return 0;
	}
	now = ktime_get_mono_fast_ns();
	name = ktrace_trigger_slot_name(ktrace_trigger_slot(&t->spec));
	strscpy_pad(rec->trigger, name, sizeof(rec->trigger));
	rec->pid = cause->pid;
	if (cause->comm)
		strscpy_pad(rec->comm, cause->comm, sizeof(rec->comm));
	else if (cause->task)
		/* Locklessly, as tracepoints do: the OOM killer holds task_lock. */
		memcpy(rec->comm, cause->task->comm, sizeof(rec->comm));
	rec->value = cause->value;
	rec->fired = atomic_inc_return(&t->fired);
	rec->action = t->spec.action;
	len = strnlen(cause->reason ?: "", KTRACE_TRIGGER_REASON_MAX - 1);
	memcpy(rec->reason, cause->reason ?: "", len);

	if (READ_ONCE(ktrace_event_trigger.enabled))
		ktrace_event_write(&ktrace_event_trigger, rec, sizeof(*rec) + len + 1);
	trace_ktrace_trigger(rec->trigger, rec->reason, rec->pid, rec->comm,
			     rec->value);
	if (stop) {
		WRITE_ONCE(ktrace_stop_trigger, name);
		WRITE_ONCE(ktrace_stop_cause_ns, now);
		WRITE_ONCE(ktrace_stop_delay_ms, t->spec.delay_ms);
		if (!t->spec.delay_ms) {
			ktrace_freeze();
			WRITE_ONCE(ktrace_stop_frozen_ns, ktime_get_mono_fast_ns());
		} else {
			WRITE_ONCE(ktrace_stop_frozen_ns, 0);
		}
		atomic_set(&ktrace_stop_requested, 1);
	}
	ktrace_trigger_log(rec, len, now);
	irq_work_queue(&ktrace_trigger_irq_work);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(ktrace_trigger_fire);

/*
 * The armed triggers, one slot per kind.  Changed under
 * ktrace_trigger_lock; the notifiers and the user trigger read them under
 * RCU, and a trigger is freed only after a grace period.
 */
static struct ktrace_trigger __rcu *ktrace_trigger_slots[KTRACE_NR_TRIG_SLOTS];
/* Serializes arming and disarming: the slots and the hooks' registration. */
static DEFINE_MUTEX(ktrace_trigger_lock);

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

static struct ktrace_trigger *ktrace_trigger_get(unsigned int slot)
{
	return rcu_dereference(ktrace_trigger_slots[slot]);
}

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
 * one (see ktrace_ascii_dump()).
 */
static int ktrace_trig_panic(struct notifier_block *nb, unsigned long val, void *data)
{
	struct ktrace_trigger *t;

	rcu_read_lock();
	t = ktrace_trigger_get(KTRACE_TRIG_PANIC);
	if (t) {
		struct ktrace_trigger_cause c = {
			.pid = task_pid_nr(current),
			.task = current,
			.reason = data,
		};

		ktrace_trigger_fire(t, &c);
		ktrace_freeze();
		ktrace_ascii_dump(t->dump, t->spec.last);
	}
	rcu_read_unlock();
	return NOTIFY_DONE;
}

static struct notifier_block ktrace_panic_nb = {
	.notifier_call = ktrace_trig_panic,
	/*
	 * Early, as ftrace's dump_on_oops: before the notifiers that may not
	 * return (a hypervisor's, IPMI's).  The oops and the panic message
	 * are on the console before any notifier runs, and kmsg_dump() after
	 * them all still gets the dump.
	 */
	.priority = INT_MAX - 1,
};

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

/* Attach a new trigger to its cause.  Under ktrace_trigger_lock. */
static int ktrace_trigger_hook(struct ktrace_trigger *t)
{
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
	case KTRACE_TRIG_PANIC:
		t->dump = ktrace_ascii_open();
		return PTR_ERR_OR_ZERO(t->dump);
	case KTRACE_TRIG_LATENCY:
		return ktrace_latency_arm(t);
	}
	/* oops and user: the notifier and the file find it in its slot. */
	return 0;
}

/* Detach a trigger, unpublished already, and free it. */
static void ktrace_trigger_unhook(struct ktrace_trigger *t)
{
	switch (t->spec.kind) {
	case KTRACE_TRIG_OOM:
		unregister_trace_mark_victim(ktrace_trig_oom, t);
		break;
	case KTRACE_TRIG_HUNG_TASK:
#ifdef CONFIG_DETECT_HUNG_TASK
		unregister_trace_sched_process_hang(ktrace_trig_hung, t);
#endif
		break;
	case KTRACE_TRIG_LATENCY:
		ktrace_latency_disarm(t);
		break;
	}
	/* Probes, notifiers and the user trigger are all done with it. */
	tracepoint_synchronize_unregister();
	synchronize_rcu();
	if (t->dump)
		ktrace_ascii_release(t->dump);
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
		if (!IS_ERR_OR_NULL(t->dump))
			ktrace_ascii_release(t->dump);
		kfree(t);
		goto out;
	}
	rcu_assign_pointer(ktrace_trigger_slots[slot], t);
	if (t->lat) {
		/*
		 * Published first: a start either finds it (and starts its
		 * timer) or comes after this, under ktrace_mutex, which
		 * orders the two.
		 */
		mutex_lock(&ktrace_mutex);
		if (ktrace_is_running())
			ktrace_latency_start(t);
		mutex_unlock(&ktrace_mutex);
	}
out:
	mutex_unlock(&ktrace_trigger_lock);
	return ret;
}

/**
 * ktrace_triggers_start() - a new trace is starting
 *
 * Called at a start, through the core's starting notifier, with
 * ktrace_mutex held, before the writers' gate opens, so that no trigger
 * of the new trace fired yet.
 * Cancels the stop work an earlier trace's trigger queued (it would find
 * that trace stopped already, but a delay= keeps it pending for up to
 * ten minutes), and starts the scan timers of the armed latency triggers,
 * which stop while not tracing.
 */
void ktrace_triggers_start(void)
{
	struct ktrace_trigger *t;
	unsigned int slot;

	lockdep_assert_held(&ktrace_mutex);
	/*
	 * Not the _sync variant: the work takes ktrace_mutex.  Running
	 * already, it read the generation of an earlier trace, and
	 * ktrace_stop_frozen() finds it ended.
	 */
	cancel_delayed_work(&ktrace_stop_work);
	/*
	 * Under RCU rather than ktrace_trigger_lock, which is taken before
	 * ktrace_mutex when arming.  A trigger published after this loop
	 * starts its own timer (ktrace_latency_start()); one disarmed
	 * concurrently shuts its timer down after a grace period.
	 */
	rcu_read_lock();
	for (slot = KTRACE_TRIG_LATENCY; slot < KTRACE_NR_TRIG_SLOTS; slot++) {
		t = ktrace_trigger_get(slot);
		if (t)
			ktrace_latency_start(t);
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
		if (t->lat)
			seq_printf(m, " untracked=%lu", atomic_long_read(&t->lat->untracked));
		seq_putc(m, '\n');
	}
	mutex_unlock(&ktrace_trigger_lock);
}

/* Under ktrace_pipe_lock: format the next firing; false if there is none yet. */
static bool ktrace_pipe_next(void)
{
	unsigned long head = atomic_long_read(&ktrace_firings_head), seq;
	struct ktrace_firing *f, copy;
	u32 rem;

	seq_buf_init(&ktrace_pipe_buf, ktrace_pipe_line, sizeof(ktrace_pipe_line));
	ktrace_pipe_done = 0;
	if (head - ktrace_pipe_pos > KTRACE_FIRINGS) {
		seq_buf_printf(&ktrace_pipe_buf, "# %lu firings lost\n",
			       head - KTRACE_FIRINGS - ktrace_pipe_pos);
		ktrace_pipe_pos = head - KTRACE_FIRINGS;
		return true;
	}
	if (head == ktrace_pipe_pos)
		return false;
	f = &ktrace_firings[ktrace_pipe_pos % KTRACE_FIRINGS];
	/* Pairs with the writer's release: the fields are those of seq. */
	seq = smp_load_acquire(&f->seq);
	if (seq != ktrace_pipe_pos + 1) {
		/* Being written (0 or older), or overwritten already. */
		if (!seq || seq < ktrace_pipe_pos + 1)
			return false;
		seq_buf_puts(&ktrace_pipe_buf, "# 1 firings lost\n");
		ktrace_pipe_pos++;
		return true;
	}
	copy = *f;
	/* The copy before the check: pairs with the smp_wmb() of the writer. */
	smp_rmb();
	ktrace_pipe_pos++;
	if (READ_ONCE(f->seq) != seq) {
		seq_buf_puts(&ktrace_pipe_buf, "# 1 firings lost\n");
		return true;
	}
	copy.time_ns = div_u64_rem(copy.time_ns, NSEC_PER_SEC, &rem);
	seq_buf_printf(&ktrace_pipe_buf,
		       "%llu.%09u %.*s action=%s fired=%u pid=%u comm=",
		       copy.time_ns, rem, (int)sizeof(copy.trigger), copy.trigger,
		       ktrace_trigger_actions[copy.action & 1], copy.fired, copy.pid);
	ktrace_ascii_string(&ktrace_pipe_buf, copy.comm,
			    strnlen(copy.comm, sizeof(copy.comm)));
	seq_buf_printf(&ktrace_pipe_buf, " value=%llu reason=", copy.value);
	ktrace_ascii_string(&ktrace_pipe_buf, copy.reason,
			    strnlen(copy.reason, sizeof(copy.reason)));
	seq_buf_putc(&ktrace_pipe_buf, '\n');
	return true;
}

/**
 * ktrace_trigger_pipe_ready() - tell whether a firing waits for a reader
 *
 * Return: true if trigger_pipe has a line to read (or one being written).
 */
bool ktrace_trigger_pipe_ready(void)
{
	return atomic_long_read(&ktrace_firings_head) != READ_ONCE(ktrace_pipe_pos);
}

/**
 * ktrace_trigger_pipe_waitq() - where trigger_pipe readers wait
 *
 * Return: the wait queue woken at every firing, for poll().
 */
struct wait_queue_head *ktrace_trigger_pipe_waitq(void)
{
	return &ktrace_pipe_wait;
}

/**
 * ktrace_trigger_pipe_read() - read firings, one line each
 * @ubuf: where to
 * @cnt: at most this many bytes
 * @nonblock: fail with -EAGAIN rather than wait for a firing
 *
 * Consuming, as ftrace's trace_pipe: each line goes to one reader.
 *
 * Return: the bytes read, whole lines unless @cnt is smaller than one;
 * -EAGAIN, -EINTR or -EFAULT.
 */
ssize_t ktrace_trigger_pipe_read(char __user *ubuf, size_t cnt, bool nonblock)
{
	size_t copied = 0, len, used;
	ssize_t ret = 0;

	if (mutex_lock_interruptible(&ktrace_pipe_lock))
		return -EINTR;
	while (copied < cnt) {
		used = seq_buf_used(&ktrace_pipe_buf);
		if (ktrace_pipe_done == used && !ktrace_pipe_next()) {
			if (copied)
				break;
			if (nonblock) {
				ret = -EAGAIN;
				break;
			}
			mutex_unlock(&ktrace_pipe_lock);
			/* A slot being written: wait a tick for it. */
			if (ktrace_trigger_pipe_ready())
				ret = schedule_timeout_interruptible(1) ? -EINTR : 0;
			else
				ret = wait_event_interruptible(ktrace_pipe_wait,
							       ktrace_trigger_pipe_ready());
			if (ret || signal_pending(current))
				return -EINTR;
			if (mutex_lock_interruptible(&ktrace_pipe_lock))
				return -EINTR;
			continue;
		}
		used = seq_buf_used(&ktrace_pipe_buf);
		len = min(cnt - copied, used - ktrace_pipe_done);
		if (copied && len < used - ktrace_pipe_done)
			break;
		if (copy_to_user(ubuf + copied, ktrace_pipe_line + ktrace_pipe_done, len)) {
			ret = -EFAULT;
			break;
		}
		ktrace_pipe_done += len;
		copied += len;
	}
	mutex_unlock(&ktrace_pipe_lock);
	return copied ? copied : ret;
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
	int ret;

	seq_buf_init(&ktrace_pipe_buf, ktrace_pipe_line, sizeof(ktrace_pipe_line));
	ret = ktrace_event_register(&ktrace_event_trigger);
	if (ret)
		pr_warn("no ktrace:trigger event: %d\n", ret);
	ret = register_die_notifier(&ktrace_die_nb);
	if (ret)
		pr_warn("no oops trigger: %d\n", ret);
	atomic_notifier_chain_register(&panic_notifier_list, &ktrace_panic_nb);
	ktrace_register_starting_notifier(&ktrace_triggers_start_nb);
	return 0;
}
core_initcall(ktrace_triggers_init);
