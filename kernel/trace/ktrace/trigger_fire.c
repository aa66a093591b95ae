// SPDX-License-Identifier: GPL-2.0
/*
 * ktrace triggers: the firing, its lockless log and the trigger_pipe
 * reader of that log, and the stop a firing asks for.
 *
 * When the cause of an armed trigger happens while tracing, its hook calls
 * ktrace_trigger_fire(), which counts it and, at the count-th occurrence:
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

#include <linux/atomic.h>
#include <linux/cpumask.h>
#include <linux/irq_work.h>
#include <linux/lockdep.h>
#include <linux/smp.h>
#include <linux/spinlock.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/seq_buf.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <linux/uaccess.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <kunit/visibility.h>

#define CREATE_TRACE_POINTS
#include <trace/events/ktrace.h>

#include "cluster.h"
#include "event.h"
#include "ktrace_internal.h"
#include "trigger.h"

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
 * The firings, for trigger_pipe: a ring that loggers fill locklessly from
 * any context, the newest KTRACE_TRIGGER_FIRINGS kept.  The firing at
 * position pos (counted by ktrace_firings_head) goes to slot pos % size,
 * and its sequence number is seq = pos + 1.  Each slot has an owner, as
 * printk_ringbuffer's descriptors do: its state word, changed only by
 * cmpxchg (but for the owner's release of it), holds the sequence number
 * of the last firing that claimed the slot and two flags:
 *
 *   seq              firing seq is in the slot, whole: readable
 *   seq | WRITING    firing seq's logger owns the slot and writes it
 *   seq | LOST       firing seq is lost: the slot was busy when it came;
 *                    nobody writes it
 *   seq | LOST | WRITING   the same, while the logger of an older firing
 *                    still writes into the slot (preempted, interrupted)
 *
 * A logger claims its slot by a cmpxchg from a state of an older firing
 * without WRITING; it then writes the fields and releases the slot with a
 * cmpxchg that publishes seq.  A logger that finds WRITING (the logger of
 * the firing a whole ring before is still at work) never touches the
 * fields: it marks its own firing LOST, leaving WRITING to the owner,
 * whose publish then fails; the owner only clears WRITING.  So the fields
 * have at most one writer, the number in a slot never goes back, and a
 * reader that wants firing seq finds, in its slot:
 *
 *   an older number       seq's logger has not claimed it yet: not ready
 *   seq | WRITING         being written: not ready
 *   seq                   copy it, then check the state did not change
 *   seq | LOST, or newer  lost: skip it
 *
 * Sequence numbers are compared modulo 2^(BITS_PER_LONG - 2).
 */
#define KTRACE_FIRING_WRITING	1UL
#define KTRACE_FIRING_LOST	2UL
#define KTRACE_FIRING_FLAGS	3UL
#define KTRACE_FIRING_SEQ_SHIFT	2

struct ktrace_firing {
	unsigned long state;
	u64 time_ns;
	char trigger[16];
	char comm[TASK_COMM_LEN];
	u32 pid;
	u32 fired;
	u64 value;
	u8 action;
	char reason[KTRACE_TRIGGER_REASON_MAX];
};

static struct ktrace_firing ktrace_firings[KTRACE_TRIGGER_FIRINGS];
static atomic_long_t ktrace_firings_head = ATOMIC_LONG_INIT(0);
static DECLARE_WAIT_QUEUE_HEAD(ktrace_pipe_wait);

/**
 * struct ktrace_trigger_pipe - the consuming reader of the firings
 * @lock: serializes trigger_pipe readers: each line goes to one of them
 * @pos: the next firing to read
 * @buf: the line being read, over @line
 * @done: bytes of it read already
 * @line: its text
 *
 * One for all the readers, as ftrace's trace_pipe: reading consumes.
 */
struct ktrace_trigger_pipe {
	/* Serializes trigger_pipe readers: the position and the pending line. */
	struct mutex lock;
	unsigned long pos;
	struct seq_buf buf;
	size_t done;
	char line[KTRACE_TRIGGER_REASON_MAX * 4 + 256];
};

static struct ktrace_trigger_pipe ktrace_pipe = {
	.lock = __MUTEX_INITIALIZER(ktrace_pipe.lock),
};

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

/**
 * struct ktrace_stop_order - what a run of the stop work is to do
 * @lock: makes the order whole for the stop work, which reads and
 *	consumes it, the irq_work, which sets it as it queues the work, and
 *	a start, which cancels it
 * @gen: the generation of the trace to stop; 0 once done or cancelled
 * @due: jiffies from when the stop is due
 * @trigger: the trigger that asked for it, for the log line
 * @cause_ns: when its cause happened
 * @frozen_ns: when it froze the trace, or 0 if the stop freezes it (delay=)
 *
 * The work is one for all traces, and a run cannot tell which queueing it
 * comes from: the run of an earlier trace's order may be under way (past
 * its dequeue, not yet at ktrace_mutex) when that trace is stopped, a new
 * one started, and the new trace's trigger orders its stop for later; the
 * irq_work then queues the work again.  So a run takes the generation and
 * the time from the order, not from the firing: a start empties the
 * order, and a run finds either nothing (the old trace's order is gone),
 * or an order not yet due, which it leaves to the run queued for it.
 */
struct ktrace_stop_order {
	/* Orders the irq_work, the stop work and a start on the fields below. */
	raw_spinlock_t lock;
	unsigned long gen;
	unsigned long due;
	const char *trigger;
	u64 cause_ns;
	u64 frozen_ns;
};

static struct ktrace_stop_order ktrace_stop_order = {
	.lock = __RAW_SPIN_LOCK_UNLOCKED(ktrace_stop_order.lock),
};

/**
 * ktrace_trigger_stop_cancel() - forget the stop an earlier trace asked for
 *
 * Called at a start, with ktrace_mutex held, before the writers' gate
 * opens: the stop work an earlier trace's trigger queued would find that
 * trace stopped already, but a delay= keeps it pending for up to ten
 * minutes.
 */
void ktrace_trigger_stop_cancel(void)
{
	lockdep_assert_held(&ktrace_mutex);
	/*
	 * Not the _sync variant: the work takes ktrace_mutex.  A run under
	 * way finds the order empty, or took an earlier trace's generation,
	 * which ktrace_stop_frozen() finds ended.
	 */
	raw_spin_lock_irq(&ktrace_stop_order.lock);
	ktrace_stop_order.gen = 0;
	/*
	 * A request the irq_work has not taken yet (its firing was on a CPU
	 * going offline, or irq_workd is late): taken after this start, it
	 * would order the stop of the new trace, with the old one's delay.
	 */
	atomic_set(&ktrace_stop_requested, 0);
	raw_spin_unlock_irq(&ktrace_stop_order.lock);
	cancel_delayed_work(&ktrace_stop_work);
}

/*
 * From any context: wake trigger_pipe readers, queue the stop.  The stop
 * work may still be pending for an earlier trace (a delay= of up to ten
 * minutes, then a stop and a start): queue_delayed_work() would leave it
 * at its old time, and this trace frozen until then.  mod_delayed_work()
 * sets the time of this request, and the order it carries out is this
 * trace's, the last to claim ktrace_stop_gen.
 */
static void ktrace_trigger_irq_work_fn(struct irq_work *work)
{
	unsigned long delay, flags;

	wake_up_interruptible(&ktrace_pipe_wait);
	if (!atomic_xchg(&ktrace_stop_requested, 0))
		return;
	delay = msecs_to_jiffies(READ_ONCE(ktrace_stop_delay_ms));
	raw_spin_lock_irqsave(&ktrace_stop_order.lock, flags);
	ktrace_stop_order.gen = atomic_long_read(&ktrace_stop_gen);
	ktrace_stop_order.due = jiffies + delay;
	ktrace_stop_order.trigger = READ_ONCE(ktrace_stop_trigger);
	ktrace_stop_order.cause_ns = READ_ONCE(ktrace_stop_cause_ns);
	ktrace_stop_order.frozen_ns = READ_ONCE(ktrace_stop_frozen_ns);
	raw_spin_unlock_irqrestore(&ktrace_stop_order.lock, flags);
	mod_delayed_work(system_unbound_wq, &ktrace_stop_work, delay);
}

static DEFINE_IRQ_WORK(ktrace_trigger_irq_work, ktrace_trigger_irq_work_fn);

/*
 * KUnit only: when set, cleared and called once by the stop work as it
 * begins to run, where a stop and a start (and the new trace's firing) can
 * come while the work is already running.
 */
VISIBLE_IF_KUNIT ktrace_trigger_hook_fn ktrace_trigger_stop_hook;
EXPORT_SYMBOL_IF_KUNIT(ktrace_trigger_stop_hook);

static void ktrace_trigger_stop_fn(struct work_struct *work)
{
	u64 cause, frozen, begun = ktime_get_mono_fast_ns();
	unsigned long gen;
	const char *name;

	if (IS_ENABLED(CONFIG_KTRACE_KUNIT_TEST) && unlikely(ktrace_trigger_stop_hook)) {
		ktrace_trigger_hook_fn hook = ktrace_trigger_stop_hook;

		ktrace_trigger_stop_hook = NULL;
		hook();
	}
	/*
	 * The order, whole: a run of an earlier trace's order that began
	 * before a start finds it emptied, or the new trace's order, which
	 * it carries out only if due (see struct ktrace_stop_order).
	 */
	raw_spin_lock_irq(&ktrace_stop_order.lock);
	gen = ktrace_stop_order.gen;
	if (gen && time_before(jiffies, ktrace_stop_order.due))
		gen = 0;
	else
		ktrace_stop_order.gen = 0;
	name = ktrace_stop_order.trigger;
	cause = ktrace_stop_order.cause_ns;
	frozen = ktrace_stop_order.frozen_ns;
	raw_spin_unlock_irq(&ktrace_stop_order.lock);
	if (!gen)
		return;

	if (!frozen)
		frozen = ktime_get_mono_fast_ns();
	if (!ktrace_stop_frozen(gen))
		return;
	pr_info("trigger %s: trace frozen %llu ns and stopped %llu us after the cause (its stop began at %llu us)\n",
		name, frozen - cause,
		div_u64(ktime_get_mono_fast_ns() - cause, NSEC_PER_USEC),
		/* A work that began before this order's firing: at once. */
		div_u64(begun > cause ? begun - cause : 0, NSEC_PER_USEC));
}

/*
 * KUnit only: when set, cleared and called once by a logger halfway
 * through writing its slot, where a firing in an interrupt, or the firings
 * while the logger is preempted, can come.
 */
VISIBLE_IF_KUNIT ktrace_trigger_hook_fn ktrace_trigger_log_hook;
EXPORT_SYMBOL_IF_KUNIT(ktrace_trigger_log_hook);

/* The state word of firing seq, with flags. */
static inline unsigned long ktrace_firing_state(unsigned long seq, unsigned long flags)
{
	return seq << KTRACE_FIRING_SEQ_SHIFT | flags;
}

/* How the firing in state st compares with firing seq: <0, 0 or >0. */
static inline long ktrace_firing_cmp(unsigned long st, unsigned long seq)
{
	return (long)((st & ~KTRACE_FIRING_FLAGS) - ktrace_firing_state(seq, 0));
}

/* Log a firing for trigger_pipe; any context. */
static void ktrace_trigger_log(const struct kt_trigger_rec *rec, size_t reason_len,
			       u64 now)
{
	unsigned long seq = atomic_long_fetch_inc(&ktrace_firings_head) + 1;
	struct ktrace_firing *f = &ktrace_firings[(seq - 1) % KTRACE_TRIGGER_FIRINGS];
	unsigned long st = READ_ONCE(f->state), mine;

	/*
	 * Claim the slot.  The cmpxchg is fully ordered: the fields written
	 * below cannot be seen before the claim, which a reader copying the
	 * slot's previous firing checks after its copy (the smp_rmb() in
	 * ktrace_pipe_next()).
	 */
	for (;;) {
		/* A later firing took the slot while this one waited. */
		if (ktrace_firing_cmp(st, seq) >= 0)
			return;
		if (st & KTRACE_FIRING_WRITING) {
			/* Its owner writes still: this firing is lost. */
			mine = ktrace_firing_state(seq, KTRACE_FIRING_LOST |
							 KTRACE_FIRING_WRITING);
			if (try_cmpxchg(&f->state, &st, mine))
				return;
			continue;
		}
		mine = ktrace_firing_state(seq, KTRACE_FIRING_WRITING);
		if (try_cmpxchg(&f->state, &st, mine))
			break;
	}

	f->time_ns = now;
	memcpy(f->trigger, rec->trigger, sizeof(f->trigger));
	memcpy(f->comm, rec->comm, sizeof(f->comm));
	f->pid = rec->pid;
	if (IS_ENABLED(CONFIG_KTRACE_KUNIT_TEST) && unlikely(ktrace_trigger_log_hook)) {
		ktrace_trigger_hook_fn hook = ktrace_trigger_log_hook;

		ktrace_trigger_log_hook = NULL;
		hook();
	}
	f->fired = rec->fired;
	f->value = rec->value;
	f->action = rec->action;
	memcpy(f->reason, rec->reason, reason_len);
	f->reason[reason_len] = '\0';

	/*
	 * Publish: the fields before the state, for the reader's acquire
	 * (pairs with smp_load_acquire() in ktrace_firing_ready()).
	 */
	st = mine;
	if (try_cmpxchg_release(&f->state, &st, ktrace_firing_state(seq, 0)))
		return;
	/*
	 * A later firing marked itself lost here while we wrote: ours is
	 * lost to it (a reader skips both).  Only we clear WRITING, the last
	 * of our stores to the slot: release, so that the logger that then
	 * claims the slot writes after them.
	 */
	do {
		mine = st & ~KTRACE_FIRING_WRITING;
	} while (!try_cmpxchg_release(&f->state, &st, mine));
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
		/* The stores above before it: pairs with atomic_xchg() in the irq_work. */
		atomic_set_release(&ktrace_stop_requested, 1);
		/*
		 * Tell the group, if there is one; not a message from it.  An
		 * oops fires on the dying CPU, from the die notifier.
		 */
		if (t->spec.kind != KTRACE_TRIG_CLUSTER)
			ktrace_cluster_send_trigger(name, rec->reason,
						    t->spec.kind == KTRACE_TRIG_OOPS);
	}
	ktrace_trigger_log(rec, len, now);
	/*
	 * Not from a CPU going offline, past its last irq_work_run(): the
	 * work would stay pending there and every later queue fail.  The
	 * firing is logged and the trace frozen all the same; its stop and
	 * the readers' wakeup wait for the next firing on a live CPU (or a
	 * write to enable).
	 */
	if (likely(cpu_online(raw_smp_processor_id())))
		irq_work_queue(&ktrace_trigger_irq_work);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(ktrace_trigger_fire);

/* What the next firing a reader wants, at position pos, is. */
enum ktrace_firing_next {
	KTRACE_FIRING_NONE,	/* none yet, or not yet whole */
	KTRACE_FIRING_READY,	/* whole: copy it */
	KTRACE_FIRING_GONE,	/* lost: skip it */
	KTRACE_FIRING_LAPPED,	/* older than the ring: skip to its oldest */
};

/*
 * Where the reader at pos is, and, for KTRACE_FIRING_READY, the state of
 * its slot.  Lockless, for poll() too: the answer of a non-blocking read
 * under ktrace_pipe.lock, unless a logger changed it meanwhile.
 */
static enum ktrace_firing_next ktrace_firing_ready(unsigned long pos, unsigned long head,
						   unsigned long *state)
{
	struct ktrace_firing *f = &ktrace_firings[pos % KTRACE_TRIGGER_FIRINGS];
	unsigned long st;
	long cmp;

	if (head - pos > KTRACE_TRIGGER_FIRINGS)
		return KTRACE_FIRING_LAPPED;
	if (head == pos)
		return KTRACE_FIRING_NONE;
	/* Pairs with the logger's publishing cmpxchg_release(): the fields are those of st. */
	st = smp_load_acquire(&f->state);
	*state = st;
	cmp = ktrace_firing_cmp(st, pos + 1);
	if (cmp < 0)
		return KTRACE_FIRING_NONE;	/* not claimed yet */
	if (cmp > 0 || (st & KTRACE_FIRING_LOST))
		return KTRACE_FIRING_GONE;
	if (st & KTRACE_FIRING_WRITING)
		return KTRACE_FIRING_NONE;
	return KTRACE_FIRING_READY;
}

/* Under ktrace_pipe.lock: format the next firing; false if there is none yet. */
static bool ktrace_pipe_next(void)
{
	unsigned long head = atomic_long_read(&ktrace_firings_head), st = 0;
	struct ktrace_firing *f, copy;
	u32 rem;

	seq_buf_init(&ktrace_pipe.buf, ktrace_pipe.line, sizeof(ktrace_pipe.line));
	ktrace_pipe.done = 0;
	switch (ktrace_firing_ready(ktrace_pipe.pos, head, &st)) {
	case KTRACE_FIRING_NONE:
		return false;
	case KTRACE_FIRING_LAPPED:
		seq_buf_printf(&ktrace_pipe.buf, "# %lu firings lost\n",
			       head - KTRACE_TRIGGER_FIRINGS - ktrace_pipe.pos);
		WRITE_ONCE(ktrace_pipe.pos, head - KTRACE_TRIGGER_FIRINGS);
		return true;
	case KTRACE_FIRING_GONE:
		seq_buf_puts(&ktrace_pipe.buf, "# 1 firings lost\n");
		WRITE_ONCE(ktrace_pipe.pos, ktrace_pipe.pos + 1);
		return true;
	case KTRACE_FIRING_READY:
		break;
	}
	f = &ktrace_firings[ktrace_pipe.pos % KTRACE_TRIGGER_FIRINGS];
	copy = *f;
	/*
	 * The copy before the check: pairs with the full barrier of the
	 * cmpxchg by which a later logger claims the slot before it writes.
	 */
	smp_rmb();
	WRITE_ONCE(ktrace_pipe.pos, ktrace_pipe.pos + 1);
	if (READ_ONCE(f->state) != st) {
		seq_buf_puts(&ktrace_pipe.buf, "# 1 firings lost\n");
		return true;
	}
	copy.time_ns = div_u64_rem(copy.time_ns, NSEC_PER_SEC, &rem);
	seq_buf_printf(&ktrace_pipe.buf,
		       "%llu.%09u %.*s action=%s fired=%u pid=%u comm=",
		       copy.time_ns, rem, (int)sizeof(copy.trigger), copy.trigger,
		       ktrace_trigger_action_name(copy.action), copy.fired, copy.pid);
	ktrace_ascii_string(&ktrace_pipe.buf, copy.comm,
			    strnlen(copy.comm, sizeof(copy.comm)));
	seq_buf_printf(&ktrace_pipe.buf, " value=%llu reason=", copy.value);
	ktrace_ascii_string(&ktrace_pipe.buf, copy.reason,
			    strnlen(copy.reason, sizeof(copy.reason)));
	seq_buf_putc(&ktrace_pipe.buf, '\n');
	return true;
}

#if IS_ENABLED(CONFIG_KUNIT)
/**
 * ktrace_trigger_stop_flush() - wait for a run of the stop work under way
 *
 * For tests: a run queued for later (a delay=) is left queued.
 */
void ktrace_trigger_stop_flush(void)
{
	flush_work(&ktrace_stop_work.work);
}
EXPORT_SYMBOL_IF_KUNIT(ktrace_trigger_stop_flush);

/**
 * ktrace_trigger_pipe_drain() - consume every firing logged so far
 *
 * For tests that fire triggers: what they fired is not left for the first
 * reader of trigger_pipe, as if a reader had read it.
 */
void ktrace_trigger_pipe_drain(void)
{
	mutex_lock(&ktrace_pipe.lock);
	WRITE_ONCE(ktrace_pipe.pos, atomic_long_read(&ktrace_firings_head));
	seq_buf_init(&ktrace_pipe.buf, ktrace_pipe.line, sizeof(ktrace_pipe.line));
	ktrace_pipe.done = 0;
	mutex_unlock(&ktrace_pipe.lock);
}
EXPORT_SYMBOL_IF_KUNIT(ktrace_trigger_pipe_drain);
#endif

/**
 * ktrace_trigger_pipe_ready() - tell whether a firing waits for a reader
 *
 * Exactly when a non-blocking read would not fail with -EAGAIN (but for
 * the firings logged meanwhile): a firing still being written is not
 * ready, and its logger wakes the readers once it is.
 *
 * Return: true if trigger_pipe has a line to read.
 */
bool ktrace_trigger_pipe_ready(void)
{
	unsigned long st;

	return ktrace_firing_ready(READ_ONCE(ktrace_pipe.pos),
				   atomic_long_read(&ktrace_firings_head),
				   &st) != KTRACE_FIRING_NONE;
}
EXPORT_SYMBOL_IF_KUNIT(ktrace_trigger_pipe_ready);

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

	if (mutex_lock_interruptible(&ktrace_pipe.lock))
		return -EINTR;
	while (copied < cnt) {
		used = seq_buf_used(&ktrace_pipe.buf);
		if (ktrace_pipe.done == used && !ktrace_pipe_next()) {
			if (copied)
				break;
			if (nonblock) {
				ret = -EAGAIN;
				break;
			}
			mutex_unlock(&ktrace_pipe.lock);
			/*
			 * Every logger queues the irq_work that wakes us once
			 * its slot is published or marked lost.
			 */
			if (wait_event_interruptible(ktrace_pipe_wait,
						     ktrace_trigger_pipe_ready()))
				return -EINTR;
			if (mutex_lock_interruptible(&ktrace_pipe.lock))
				return -EINTR;
			continue;
		}
		used = seq_buf_used(&ktrace_pipe.buf);
		len = min(cnt - copied, used - ktrace_pipe.done);
		if (copied && len < used - ktrace_pipe.done)
			break;
		if (copy_to_user(ubuf + copied, ktrace_pipe.line + ktrace_pipe.done, len)) {
			ret = -EFAULT;
			break;
		}
		ktrace_pipe.done += len;
		copied += len;
	}
	mutex_unlock(&ktrace_pipe.lock);
	return copied ? copied : ret;
}

static int __init ktrace_trigger_fire_init(void)
{
	int ret;

	seq_buf_init(&ktrace_pipe.buf, ktrace_pipe.line, sizeof(ktrace_pipe.line));
	ret = ktrace_event_register(&ktrace_event_trigger);
	if (ret)
		pr_warn("no ktrace:trigger event: %d\n", ret);
	return 0;
}
core_initcall(ktrace_trigger_fire_init);
