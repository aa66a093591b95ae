// SPDX-License-Identifier: GPL-2.0
/*
 * ktrace clock: the trace clock, at the bottom of ktrace; the buffers, the
 * channels and everything above them read it, and it calls nothing of
 * ktrace.
 *
 * Events carry a 27-bit truncated clock, (clock >> shift) & (2^27 - 1), and
 * full 64-bit timestamp records are written inline whenever the bits above
 * that range change.  The raw clock is, by default, the TSC where it is
 * constant and synchronized across CPUs (cheap, NMI-safe), else the NMI-safe
 * fast CLOCK_MONOTONIC accessor; "ktrace.clock=" at boot and the clock
 * control file choose one ("tsc" or "mono").  The shift is chosen with the
 * clock as the largest that keeps one unit at or below
 * KTRACE_CLOCK_MAX_UNIT_NS: the coarser the unit, the longer the 27-bit range
 * and the fewer timestamp records.
 */
#define pr_fmt(fmt) "ktrace: " fmt

#include <linux/init.h>
#include <linux/log2.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/moduleparam.h>
#include <linux/seqlock.h>
#include <linux/string.h>
#include <linux/time64.h>
#include <kunit/visibility.h>
#ifdef CONFIG_X86
#include <linux/cpufeature.h>
#include <asm/tsc.h>
#endif

#include "clock_latch.h"

#undef MODULE_PARAM_PREFIX
#define MODULE_PARAM_PREFIX "ktrace."

/* "tsc" or "mono"; empty: the default, the TSC where it is trusted. */
static char ktrace_clock_param[8];
module_param_string(clock, ktrace_clock_param, sizeof(ktrace_clock_param), 0400);
MODULE_PARM_DESC(clock, "trace clock: tsc (forced even where not trusted) or mono");

static const char * const ktrace_clock_names[KTRACE_NR_CLOCKS] = {
	[KTRACE_CLOCK_TSC] = "tsc",
	[KTRACE_CLOCK_MONO] = "mono",
};

/* Set at boot; changed under ktrace_mutex with writers stopped. */
struct ktrace_clock_info ktrace_clock = {
	.name = "mono",
	.freq_hz = NSEC_PER_SEC,
};
EXPORT_SYMBOL_IF_KUNIT(ktrace_clock);
DEFINE_STATIC_KEY_FALSE(ktrace_clock_tsc);
DEFINE_STATIC_KEY_FALSE(ktrace_clock_emulated);

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

/*
 * What converts trace clock values to times: the rate, the shift and a
 * reference instant, as one set.  A clock change (ktrace_clock_select())
 * rewrites them all and every start takes a new reference instant, while
 * the ascii pipe converts the records it reads, the panic dump converts
 * them with the other CPUs stopped in any state, and a latency trigger
 * reads the reference from the write path: a reader must never mix a new
 * rate with an old shift or reference.  They are published through a
 * latch (two copies, see write_seqcount_latch_begin()) rather than a
 * seqcount: the panic dump runs with the writer maybe stopped half-way on
 * another CPU, or interrupted on its own, and a seqcount reader would
 * then retry forever; a latch reader always has one complete copy.
 *
 * Writers are serialized by ktrace_mutex, which this layer below the
 * core's does not know of: ktrace_clock_set_ref() is the only writer, and
 * it is called at boot (before any reader) and, from ktrace_clock_select()
 * and at every start, with ktrace_mutex held.  write_seqcount_latch() in
 * ktrace_clock_conv_write() pairs with read_seqcount_latch() and
 * read_seqcount_latch_retry() in ktrace_clock_conv_get().
 *
 * The writers of the trace read &ktrace_clock itself (its shift at every
 * event): it changes only with them stopped.
 */
VISIBLE_IF_KUNIT struct ktrace_clock_latch ktrace_clock_latch = {
	.seq = SEQCNT_LATCH_ZERO(ktrace_clock_latch.seq),
	.conv = {
		{ .freq_hz = NSEC_PER_SEC },
		{ .freq_hz = NSEC_PER_SEC },
	},
};
EXPORT_SYMBOL_IF_KUNIT(ktrace_clock_latch);

/**
 * ktrace_clock_conv_write() - publish a new conversion set
 * @c: the set
 *
 * With ktrace_mutex held, or at boot.  Readers see the old set or @c
 * whole, never a mix.
 */
VISIBLE_IF_KUNIT void ktrace_clock_conv_write(const struct ktrace_clock_conv *c)
{
	struct ktrace_clock_latch *l = &ktrace_clock_latch;

	/* Readers go to conv[1] while conv[0] changes ... */
	write_seqcount_latch_begin(&l->seq);
	l->conv[0] = *c;
	/* ... then back to conv[0] while conv[1] changes. */
	write_seqcount_latch(&l->seq);
	l->conv[1] = *c;
	write_seqcount_latch_end(&l->seq);
}
EXPORT_SYMBOL_IF_KUNIT(ktrace_clock_conv_write);

/**
 * ktrace_clock_conv_get() - a consistent copy of the conversion set
 * @c: set to it
 *
 * Any context, NMI and a panic with the writer stopped half-way
 * included: the copy the latch points to is never being written, so the
 * loop ends once no writer moves the latch during the copy.
 */
void ktrace_clock_conv_get(struct ktrace_clock_conv *c)
{
	struct ktrace_clock_latch *l = &ktrace_clock_latch;
	unsigned int seq;

	do {
		seq = read_seqcount_latch(&l->seq);
		*c = l->conv[seq & 1];
	} while (read_seqcount_latch_retry(&l->seq, seq));
}
EXPORT_SYMBOL_IF_KUNIT(ktrace_clock_conv_get);

/**
 * ktrace_clock_set_ref() - take a reference instant of the trace clock
 *
 * Taken at boot, at every clock change and at every start, so that
 * TSC-based times stay close to CLOCK_MONOTONIC even as the two drift
 * apart over weeks; published with the clock's rate and shift.  When the
 * trace clock is CLOCK_MONOTONIC itself, the reference is exact by
 * construction, so that times convert back to what was read.  With
 * ktrace_mutex held, or at boot: the one writer of the conversion set.
 */
void ktrace_clock_set_ref(void)
{
	struct ktrace_clock_conv c = {
		.freq_hz = ktrace_clock.freq_hz,
		.shift = ktrace_clock.shift,
		.ref_clock = ktrace_clock_read(),
	};

	if (static_branch_likely(&ktrace_clock_tsc) ||
	    static_branch_unlikely(&ktrace_clock_emulated))
		c.ref_mono_ns = ktime_get_mono_fast_ns();
	else
		c.ref_mono_ns = c.ref_clock << c.shift;
	ktrace_clock_conv_write(&c);
}

/**
 * ktrace_clock_get_ref() - the reference instant ktrace_clock_ns() uses
 * @clock: the trace clock then
 * @mono_ns: CLOCK_MONOTONIC then
 *
 * For the metadata, so that decoders convert exactly as the kernel does.
 * Any context.
 */
void ktrace_clock_get_ref(u64 *clock, u64 *mono_ns)
{
	struct ktrace_clock_conv c;

	ktrace_clock_conv_get(&c);
	*clock = c.ref_clock;
	*mono_ns = c.ref_mono_ns;
}

/**
 * ktrace_clock_ns() - a trace clock value in CLOCK_MONOTONIC nanoseconds
 * @clock: a full (shifted) trace clock value
 *
 * Any context; rate, shift and reference from one consistent set.
 *
 * Return: the time in nanoseconds of CLOCK_MONOTONIC.
 */
u64 ktrace_clock_ns(u64 clock)
{
	struct ktrace_clock_conv c;
	u64 delta;

	ktrace_clock_conv_get(&c);
	if (clock >= c.ref_clock) {
		delta = mul_u64_u64_div_u64((clock - c.ref_clock) << c.shift,
					    NSEC_PER_SEC, c.freq_hz);
		return c.ref_mono_ns + delta;
	}
	delta = mul_u64_u64_div_u64((c.ref_clock - clock) << c.shift,
				    NSEC_PER_SEC, c.freq_hz);
	return c.ref_mono_ns > delta ? c.ref_mono_ns - delta : 0;
}
EXPORT_SYMBOL_IF_KUNIT(ktrace_clock_ns);

/**
 * ktrace_clock_delta_ns() - a duration of the trace clock in nanoseconds
 * @units: the duration, in (shifted) trace clock units
 *
 * Any context.
 *
 * Return: nanoseconds.
 */
u64 ktrace_clock_delta_ns(u64 units)
{
	struct ktrace_clock_conv c;

	ktrace_clock_conv_get(&c);
	return mul_u64_u64_div_u64(units << c.shift, NSEC_PER_SEC, c.freq_hz);
}
EXPORT_SYMBOL_IF_KUNIT(ktrace_clock_delta_ns);

/**
 * ktrace_clock_units() - a duration in nanoseconds in trace clock units
 * @ns: the duration; at most an hour, so that nothing overflows
 *
 * Any context.
 *
 * Return: the (shifted) trace clock units, rounded down.
 */
u64 ktrace_clock_units(u64 ns)
{
	struct ktrace_clock_conv c;

	ktrace_clock_conv_get(&c);
	return mul_u64_u64_div_u64(ns, c.freq_hz, NSEC_PER_SEC) >> c.shift;
}
EXPORT_SYMBOL_IF_KUNIT(ktrace_clock_units);

/**
 * ktrace_clock_parse() - the clock a name names
 * @name: "tsc" or "mono", as written to the clock control file or given
 *	as ktrace.clock= (without a trailing newline)
 *
 * Return: the &enum ktrace_clock_id, or -EINVAL if @name names none.
 */
int ktrace_clock_parse(const char *name)
{
	return match_string(ktrace_clock_names, KTRACE_NR_CLOCKS, name);
}
EXPORT_SYMBOL_IF_KUNIT(ktrace_clock_parse);

/**
 * ktrace_clock_allowed() - tell whether a clock can be chosen
 * @id: the clock, from ktrace_clock_parse()
 * @caps: what the machine offers
 *
 * "mono" always can.  "tsc" needs a TSC of known rate, trusted (constant,
 * non-stop, not marked unstable), or forced at boot by ktrace.clock=tsc:
 * the way to measure the production write path in a guest whose TSC is
 * not trusted (QEMU TCG), where CPUs may then record times out of order.
 *
 * Return: 0; -EINVAL for an unknown @id; -ENODEV for "tsc" without a TSC
 * (another architecture, or no rate known); -EOPNOTSUPP for "tsc" when it
 * is not trusted and was not forced.
 */
int ktrace_clock_allowed(int id, const struct ktrace_clock_caps *caps)
{
	switch (id) {
	case KTRACE_CLOCK_MONO:
		return 0;
	case KTRACE_CLOCK_TSC:
		if (!caps->tsc)
			return -ENODEV;
		return caps->tsc_trusted || caps->tsc_forced ? 0 : -EOPNOTSUPP;
	default:
		return -EINVAL;
	}
}
EXPORT_SYMBOL_IF_KUNIT(ktrace_clock_allowed);

/**
 * ktrace_clock_change() - what choosing a clock would do
 * @id: the clock, from ktrace_clock_parse()
 * @cur: the name of the current clock (&ktrace_clock.name)
 * @caps: what the machine offers
 *
 * Choosing the current clock changes nothing, even where it could not be
 * chosen now (a TSC found unstable since, not yet given up).  "tsc" while
 * the current clock is "tsc-mono" names the current clock too where the
 * TSC can be chosen (forced by ktrace.clock=tsc): the TSC was given up
 * because the kernel marked it unstable, which it never takes back, and
 * the next start would give it up again at once; without the force, "tsc"
 * fails as ktrace_clock_allowed() says.
 *
 * Return: 1 if @id is another clock and can be chosen; 0 if it names the
 * current clock; else the error of ktrace_clock_allowed().
 */
int ktrace_clock_change(int id, const char *cur,
			const struct ktrace_clock_caps *caps)
{
	int ret;

	if (id >= 0 && id < KTRACE_NR_CLOCKS && !strcmp(ktrace_clock_names[id], cur))
		return 0;
	ret = ktrace_clock_allowed(id, caps);
	if (ret)
		return ret;
	return id == KTRACE_CLOCK_TSC && !strcmp(cur, "tsc-mono") ? 0 : 1;
}
EXPORT_SYMBOL_IF_KUNIT(ktrace_clock_change);

/**
 * ktrace_clock_list() - what reading the clock control file shows
 * @buf: where the line goes
 * @size: its size
 * @caps: what the machine offers
 * @cur: the name of the current clock (&ktrace_clock.name)
 *
 * The clocks that can be chosen, separated by spaces, the current one in
 * brackets as ftrace's trace_clock shows it, and a newline; a current
 * clock that cannot be chosen ("tsc-mono", the fallback of an unstable
 * TSC) comes last, in brackets.
 *
 * Return: the length of the line, as scnprintf().
 */
int ktrace_clock_list(char *buf, size_t size,
		      const struct ktrace_clock_caps *caps, const char *cur)
{
	bool shown = false;
	int id, len = 0;

	for (id = 0; id < KTRACE_NR_CLOCKS; id++) {
		const char *name = ktrace_clock_names[id];
		bool is_cur = !strcmp(name, cur);

		if (ktrace_clock_allowed(id, caps) && !is_cur)
			continue;
		shown |= is_cur;
		len += scnprintf(buf + len, size - len, is_cur ? "%s[%s]" : "%s%s",
				 len ? " " : "", name);
	}
	if (!shown)
		len += scnprintf(buf + len, size - len, "%s[%s]", len ? " " : "",
				 cur);
	len += scnprintf(buf + len, size - len, "\n");
	return len;
}
EXPORT_SYMBOL_IF_KUNIT(ktrace_clock_list);

/**
 * ktrace_clock_get_caps() - what this machine offers the trace clock
 * @caps: filled in
 */
void ktrace_clock_get_caps(struct ktrace_clock_caps *caps)
{
	*caps = (struct ktrace_clock_caps){
		.tsc_forced = !strcmp(ktrace_clock_param, "tsc"),
	};
#ifdef CONFIG_X86
	caps->tsc = boot_cpu_has(X86_FEATURE_TSC) && tsc_khz;
	caps->tsc_trusted = caps->tsc &&
			    boot_cpu_has(X86_FEATURE_CONSTANT_TSC) &&
			    boot_cpu_has(X86_FEATURE_NONSTOP_TSC) &&
			    !check_tsc_unstable();
#endif
}

/**
 * ktrace_clock_select() - make a clock the trace clock
 * @id: the clock, from ktrace_clock_parse()
 *
 * With the writers stopped and ktrace_mutex held (or at boot): the raw
 * clock, its rate, the shift for it and a new reference instant.  The
 * caller starts a new trace, whose metadata describes the new clock:
 * records of the old clock in the same buffers would be decoded in the
 * new clock's unit.
 *
 * Return: 0, or the error of ktrace_clock_allowed(); nothing changes then.
 */
int ktrace_clock_select(int id)
{
	struct ktrace_clock_caps caps;
	int ret;

	ktrace_clock_get_caps(&caps);
	ret = ktrace_clock_allowed(id, &caps);
	if (ret)
		return ret;
	static_branch_disable(&ktrace_clock_emulated);
#ifdef CONFIG_X86
	if (id == KTRACE_CLOCK_TSC) {
		ktrace_clock.name = ktrace_clock_names[id];
		ktrace_clock.freq_hz = (u64)tsc_khz * 1000;
		static_branch_enable(&ktrace_clock_tsc);
	} else {
		static_branch_disable(&ktrace_clock_tsc);
	}
#endif
	if (id == KTRACE_CLOCK_MONO) {
		ktrace_clock.name = ktrace_clock_names[id];
		ktrace_clock.freq_hz = NSEC_PER_SEC;
	}
	ktrace_clock.shift = ktrace_clock_shift(ktrace_clock.freq_hz);
	ktrace_clock_set_ref();
	return 0;
}

/**
 * ktrace_clock_init() - choose the trace clock
 *
 * At boot, before the initcalls of the layers above (core_initcall) and so
 * before any channel exists, but after the secondary CPUs came up and
 * their TSCs were checked against the boot CPU's: the clock ktrace.clock=
 * names, else the TSC where it is constant, non-stop and not marked
 * unstable, else CLOCK_MONOTONIC; then the shift and the first reference
 * instant.  The rate is tsc_khz as calibrated at boot; the later
 * refinement of the TSC clocksource does not change it.
 *
 * Return: 0.
 */
static int __init ktrace_clock_init(void)
{
	struct ktrace_clock_caps caps;
	int id = -EINVAL, ret = 0;

	ktrace_clock_get_caps(&caps);
	if (ktrace_clock_param[0]) {
		id = ktrace_clock_parse(ktrace_clock_param);
		ret = id < 0 ? id : ktrace_clock_allowed(id, &caps);
		if (ret) {
			pr_warn("ktrace.clock=%s refused (%d): the default clock\n",
				ktrace_clock_param, ret);
			id = -EINVAL;
		} else if (id == KTRACE_CLOCK_TSC && !caps.tsc_trusted) {
			pr_warn("clock tsc forced by ktrace.clock=tsc: not constant, non-stop and stable; times across CPUs may be out of order\n");
		}
	}
	if (id < 0)
		id = caps.tsc_trusted ? KTRACE_CLOCK_TSC : KTRACE_CLOCK_MONO;
	ktrace_clock_select(id);
	pr_info("clock %s, %llu Hz, shift %u (%llu ps per unit)\n",
		ktrace_clock.name, ktrace_clock.freq_hz, ktrace_clock.shift,
		mul_u64_u64_div_u64(PSEC_PER_SEC, 1ULL << ktrace_clock.shift,
				    ktrace_clock.freq_hz));
	return 0;
}

/* After smp_init() (the TSC sync check), before every core_initcall. */
pure_initcall(ktrace_clock_init);

/**
 * ktrace_clock_check() - give up the TSC if it was found unstable
 *
 * Called with writers stopped, by the one caller that changes the tracing
 * state (under ktrace_mutex, which this layer below it does not know of).
 * When the kernel has
 * marked the TSC unstable (clocksource watchdog, TSC sync check), the
 * trace clock goes on from this CPU's TSC value in CLOCK_MONOTONIC scaled
 * to the TSC's rate: its unit, and so the trace's metadata, stay the same.
 * Another CPU's TSC may have been ahead: its buffers go on from their last
 * clock value at the new clock's rate (ktrace_buf_clock_changed()), so
 * that no buffer's clock goes back.
 *
 * Return: true if the clock changed.
 */
bool ktrace_clock_check(void)
{
#ifdef CONFIG_X86
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
