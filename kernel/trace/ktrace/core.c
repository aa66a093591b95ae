// SPDX-License-Identifier: GPL-2.0
/*
 * ktrace core: the tracing state and the trace clock.
 *
 * Events carry a 27-bit truncated clock, (clock >> shift) & (2^27 - 1), and
 * full 64-bit timestamp records are written inline whenever the bits above
 * that range change.  The raw clock is the TSC where it is constant and
 * synchronized across CPUs (cheap, NMI-safe), else the NMI-safe fast
 * CLOCK_MONOTONIC accessor.  The shift is chosen once at boot as the largest
 * that keeps one unit at or below KTRACE_CLOCK_MAX_UNIT_NS: the coarser the
 * unit, the longer the 27-bit range and the fewer timestamp records.
 */
#define pr_fmt(fmt) "ktrace: " fmt

#include <linux/init.h>
#include <linux/ktrace.h>
#include <linux/log2.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/mutex.h>
#include <linux/notifier.h>
#include <linux/pid.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sizes.h>
#include <linux/time64.h>
#include <linux/workqueue.h>
#include <kunit/visibility.h>
#ifdef CONFIG_X86
#include <linux/cpufeature.h>
#include <asm/tsc.h>
#endif

#include "event.h"
#include "format.h"
#include "ktrace_internal.h"

/*
 * Serializes changes of the tracing state (start, stop, mode, sizes) and
 * the allocation of the channels.
 */
struct mutex ktrace_mutex = __MUTEX_INITIALIZER(ktrace_mutex);
EXPORT_SYMBOL_IF_KUNIT(ktrace_mutex);
/*
 * The writers' gate: written under ktrace_mutex, and cleared without it by
 * ktrace_freeze(); writers read it locklessly with READ_ONCE().
 */
bool ktrace_tracing;
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

/* Set at boot; changed under ktrace_mutex with writers stopped. */
struct ktrace_clock_info ktrace_clock = {
	.name = "mono",
	.freq_hz = NSEC_PER_SEC,
};
EXPORT_SYMBOL_IF_KUNIT(ktrace_clock);
DEFINE_STATIC_KEY_FALSE(ktrace_clock_tsc);
DEFINE_STATIC_KEY_FALSE(ktrace_clock_emulated);

static void ktrace_clock_watch(struct work_struct *work);
/* While tracing on the TSC: checks once a second that it is still trusted. */
static DECLARE_DELAYED_WORK(ktrace_clock_work, ktrace_clock_watch);

/**
 * ktrace_clock_shift() - choose the truncation shift of the trace clock
 * @freq_hz: frequency of the raw clock in Hz
 *
 * One unit of the shifted clock lasts (1 << shift) / @freq_hz seconds.  The
 * shift returned is the largest for which that is at most
 * %KTRACE_CLOCK_MAX_UNIT_NS nanoseconds.  A clock slower than one count per
 * %KTRACE_CLOCK_MAX_UNIT_NS nanoseconds, or of unknown (zero) frequency, is
 * not shifted at all.
 *
 * Return: the shift, 0 to 34.
 */
unsigned int ktrace_clock_shift(u64 freq_hz)
{
	/*
	 * (1 << s) * NSEC_PER_SEC <= MAX_UNIT_NS * freq_hz holds for
	 * s <= log2(MAX_UNIT_NS * freq_hz / NSEC_PER_SEC), and the floor of
	 * log2(x) equals ilog2(floor(x)) for x >= 1.
	 */
	u64 units = min_t(u64, freq_hz, U64_MAX / KTRACE_CLOCK_MAX_UNIT_NS) *
		    KTRACE_CLOCK_MAX_UNIT_NS;
	u64 ratio = div64_u64(units, NSEC_PER_SEC);

	return ratio ? ilog2(ratio) : 0;
}
EXPORT_SYMBOL_IF_KUNIT(ktrace_clock_shift);

/**
 * ktrace_clock_emulate() - CLOCK_MONOTONIC in counts of a given rate
 * @mono_ns: CLOCK_MONOTONIC, nanoseconds
 * @c: the clock, with @c->emu_ns, @c->emu_raw and @c->emu_mult set by
 *	ktrace_clock_emulate_from()
 *
 * Return: the raw count @mono_ns corresponds to: @c->emu_raw at
 * @c->emu_ns, advancing at @c->freq_hz (and never less than @c->emu_raw).
 */
notrace u64 ktrace_clock_emulate(u64 mono_ns, const struct ktrace_clock_info *c)
{
	if (mono_ns <= c->emu_ns)
		return c->emu_raw;
	return c->emu_raw + mul_u64_u32_shr(mono_ns - c->emu_ns, c->emu_mult,
					    KTRACE_EMU_SHIFT);
}
EXPORT_SYMBOL_IF_KUNIT(ktrace_clock_emulate);

/**
 * ktrace_clock_emulate_from() - continue a raw clock with CLOCK_MONOTONIC
 * @c: the clock; its rate and shift are kept
 * @now_ns: CLOCK_MONOTONIC now
 * @now_raw: the raw clock now
 *
 * From here on ktrace_clock_emulate() gives @c's counts: trace clock
 * values keep their unit, and go on from where the raw clock was.
 */
void ktrace_clock_emulate_from(struct ktrace_clock_info *c, u64 now_ns,
			       u64 now_raw)
{
	c->emu_ns = now_ns;
	c->emu_raw = now_raw;
	/* Below 2^32 for any rate below 256 GHz. */
	c->emu_mult = min_t(u64, U32_MAX,
			    div_u64(c->freq_hz << KTRACE_EMU_SHIFT, NSEC_PER_SEC));
	c->name = "tsc-mono";
}
EXPORT_SYMBOL_IF_KUNIT(ktrace_clock_emulate_from);

/* A reference instant of the trace clock, for ktrace_clock_ns(). */
static u64 ktrace_ref_clock;
static u64 ktrace_ref_mono_ns;

/**
 * ktrace_clock_set_ref() - take a reference instant of the trace clock
 *
 * Taken at boot and at every start, so that TSC-based times stay close to
 * CLOCK_MONOTONIC even as the two drift apart over weeks.  When the trace
 * clock is CLOCK_MONOTONIC itself, the reference is exact by construction,
 * so that times convert back to what was read.
 */
void ktrace_clock_set_ref(void)
{
	u64 clock = ktrace_clock_read();

	WRITE_ONCE(ktrace_ref_clock, clock);
	if (static_branch_likely(&ktrace_clock_tsc) ||
	    static_branch_unlikely(&ktrace_clock_emulated))
		WRITE_ONCE(ktrace_ref_mono_ns, ktime_get_mono_fast_ns());
	else
		WRITE_ONCE(ktrace_ref_mono_ns, clock << ktrace_clock.shift);
}

/**
 * ktrace_clock_get_ref() - the reference instant ktrace_clock_ns() uses
 * @clock: the trace clock then
 * @mono_ns: CLOCK_MONOTONIC then
 *
 * For the metadata, so that decoders convert exactly as the kernel does.
 */
void ktrace_clock_get_ref(u64 *clock, u64 *mono_ns)
{
	*clock = READ_ONCE(ktrace_ref_clock);
	*mono_ns = READ_ONCE(ktrace_ref_mono_ns);
}

/**
 * ktrace_clock_ns() - a trace clock value in CLOCK_MONOTONIC nanoseconds
 * @clock: a full (shifted) trace clock value
 *
 * Return: the time in nanoseconds of CLOCK_MONOTONIC.
 */
u64 ktrace_clock_ns(u64 clock)
{
	u64 ref = READ_ONCE(ktrace_ref_clock), mono = READ_ONCE(ktrace_ref_mono_ns);
	u64 delta;

	if (clock >= ref) {
		delta = mul_u64_u64_div_u64((clock - ref) << ktrace_clock.shift,
					    NSEC_PER_SEC, ktrace_clock.freq_hz);
		return mono + delta;
	}
	delta = mul_u64_u64_div_u64((ref - clock) << ktrace_clock.shift,
				    NSEC_PER_SEC, ktrace_clock.freq_hz);
	return mono > delta ? mono - delta : 0;
}

/**
 * ktrace_clock_delta_ns() - a duration of the trace clock in nanoseconds
 * @units: the duration, in (shifted) trace clock units
 *
 * Return: nanoseconds.
 */
u64 ktrace_clock_delta_ns(u64 units)
{
	return mul_u64_u64_div_u64(units << ktrace_clock.shift, NSEC_PER_SEC,
				   ktrace_clock.freq_hz);
}
EXPORT_SYMBOL_IF_KUNIT(ktrace_clock_delta_ns);

/**
 * ktrace_clock_units() - a duration in nanoseconds in trace clock units
 * @ns: the duration; at most an hour, so that nothing overflows
 *
 * Return: the (shifted) trace clock units, rounded down.
 */
u64 ktrace_clock_units(u64 ns)
{
	return mul_u64_u64_div_u64(ns, ktrace_clock.freq_hz, NSEC_PER_SEC) >>
	       ktrace_clock.shift;
}
EXPORT_SYMBOL_IF_KUNIT(ktrace_clock_units);

static void __init ktrace_clock_init(void)
{
#ifdef CONFIG_X86
	if (boot_cpu_has(X86_FEATURE_CONSTANT_TSC) &&
	    boot_cpu_has(X86_FEATURE_NONSTOP_TSC) &&
	    !check_tsc_unstable() && tsc_khz) {
		ktrace_clock.name = "tsc";
		ktrace_clock.freq_hz = (u64)tsc_khz * 1000;
		static_branch_enable(&ktrace_clock_tsc);
	}
#endif
	ktrace_clock.shift = ktrace_clock_shift(ktrace_clock.freq_hz);
	ktrace_clock_set_ref();
}

/**
 * ktrace_clock_check() - give up the TSC if it was found unstable
 *
 * Called with ktrace_mutex held and writers stopped.  When the kernel has
 * marked the TSC unstable (clocksource watchdog, TSC sync check), the
 * trace clock goes on from the TSC's last value in CLOCK_MONOTONIC scaled
 * to the TSC's rate: its unit, and so the trace's metadata, stay the same,
 * and no trace clock value goes back.
 *
 * Return: true if the clock changed.
 */
bool ktrace_clock_check(void)
{
#ifdef CONFIG_X86
	lockdep_assert_held(&ktrace_mutex);
	if (!static_branch_likely(&ktrace_clock_tsc) || !check_tsc_unstable())
		return false;
	ktrace_clock_emulate_from(&ktrace_clock, ktime_get_mono_fast_ns(),
				  get_cycles());
	static_branch_enable(&ktrace_clock_emulated);
	static_branch_disable(&ktrace_clock_tsc);
	pr_warn("TSC unstable: trace clock now CLOCK_MONOTONIC at the TSC's rate\n");
	return true;
#else
	return false;
#endif
}

/* Start the writers: a new reference instant, then the metadata. */
static void ktrace_start_writers(void)
{
	ktrace_clock_set_ref();
	/*
	 * A trigger freezing the trace between this read and the store below
	 * (while the clock watcher restarts the writers) leaves a few more
	 * events; its stop work then stops the trace all the same.
	 */
	/*
	 * The buffers' state set while stopped (ktrace_buf_clock_changed(),
	 * new buffers) before the gate opens: pairs with smp_load_acquire()
	 * in ktrace_begin().
	 */
	smp_store_release(&ktrace_tracing, !READ_ONCE(ktrace_frozen));
	ktrace_metadata_write();
	if (static_branch_likely(&ktrace_clock_tsc))
		schedule_delayed_work(&ktrace_clock_work, HZ);
}

/* Stop the writers and wait for those inside the write path. */
static void ktrace_stop_writers(void)
{
	WRITE_ONCE(ktrace_tracing, false);
	cancel_delayed_work(&ktrace_clock_work);
	/* Writers run with preemption disabled. */
	synchronize_rcu();
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
		ktrace_clock_check();
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
 * Return: 0 on success, -ENOMEM if the buffers cannot be allocated.
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
	if (on) {
		ret = ktrace_channels_alloc((size_t)ktrace_buffer_kb * SZ_1K, ktrace_mode);
		if (!ret) {
			ktrace_clock_check();
			/* Every start begins with a timestamp record. */
			ktrace_channels_clock_changed();
			gen = ktrace_generation + 1;
			WRITE_ONCE(ktrace_generation, gen);
			WRITE_ONCE(ktrace_frozen, false);
			WRITE_ONCE(ktrace_running, true);
			ktrace_comms_reset();
			/* Before the gate opens: nothing of this trace fired yet. */
			ktrace_triggers_start();
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
 * ktrace_set_mode() - choose what full buffers do
 * @mode: the mode
 *
 * A new mode starts a new trace: the buffers are freed, and allocated
 * empty, with their counters at zero, at the next start.
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
		ktrace_channels_free();
	}
	mutex_unlock(&ktrace_mutex);
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
 * empty, with their counters at zero, at the next start.
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

/**
 * ktrace_mark() - write a user annotation into the trace
 * @text: the annotation
 * @len: its length, 1 to %KTRACE_MARK_MAX
 *
 * Return: 0, -EAGAIN when not tracing or the ktrace:mark event is
 * disabled, -ENOBUFS if the buffer is full.
 */
int ktrace_mark(const char *text, size_t len)
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

	ktrace_clock_init();
	ret = ktrace_channels_init();
	if (ret)
		pr_warn("no CPU hotplug support: %d\n", ret);
	pr_info("clock %s, %llu Hz, shift %u (%llu ps per unit)\n",
		ktrace_clock.name, ktrace_clock.freq_hz, ktrace_clock.shift,
		mul_u64_u64_div_u64(PSEC_PER_SEC, 1ULL << ktrace_clock.shift,
				    ktrace_clock.freq_hz));
	return 0;
}
core_initcall(ktrace_init);
