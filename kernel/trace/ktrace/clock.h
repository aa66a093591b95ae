/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ktrace clock: the trace clock (clock.c), the bottom layer of ktrace.  It
 * includes no other header of ktrace.
 */
#ifndef _KTRACE_CLOCK_H
#define _KTRACE_CLOCK_H

#include <linux/jump_label.h>
#include <linux/timekeeping.h>
#include <linux/types.h>
#ifdef CONFIG_X86
#include <asm/timex.h>
#endif

/* One unit of the truncated trace clock is at most this long. */
#define KTRACE_CLOCK_MAX_UNIT_NS	64

/**
 * struct ktrace_clock_info - the trace clock
 * @name: "tsc" (constant, synchronized x86 TSC), "mono" (the NMI-safe fast
 *	CLOCK_MONOTONIC accessor, in nanoseconds) or "tsc-mono" (that
 *	accessor scaled to the TSC's rate, once the TSC was found unstable)
 * @freq_hz: counts per second of the raw clock
 * @shift: raw counts are shifted right by this before truncation, so that one
 *	unit is at most %KTRACE_CLOCK_MAX_UNIT_NS nanoseconds
 * @emu_ns: "tsc-mono": CLOCK_MONOTONIC when the TSC was given up
 * @emu_raw: "tsc-mono": the TSC then
 * @emu_mult: "tsc-mono": TSC counts per nanosecond, times 2^%KTRACE_EMU_SHIFT
 *
 * Chosen at boot (ktrace.clock=), by the clock control file
 * (ktrace_clock_select()) and from "tsc" to "tsc-mono" (see
 * ktrace_clock_check()): always with writers stopped and ktrace_mutex held.
 * Readers outside ktrace_mutex convert with ktrace_clock_conv_get()'s
 * consistent copy instead.
 */
struct ktrace_clock_info {
	const char *name;
	u64 freq_hz;
	unsigned int shift;
	u64 emu_ns;
	u64 emu_raw;
	u32 emu_mult;
};

#define KTRACE_EMU_SHIFT	24

/* The clocks one can choose (ktrace.clock=, the clock control file). */
enum ktrace_clock_id {
	KTRACE_CLOCK_TSC,
	KTRACE_CLOCK_MONO,
	KTRACE_NR_CLOCKS,
};

/**
 * struct ktrace_clock_caps - what the machine offers the trace clock
 * @tsc: a TSC of known rate (x86, tsc_khz calibrated)
 * @tsc_trusted: that TSC is constant, non-stop and not marked unstable
 * @tsc_forced: "ktrace.clock=tsc" was on the command line: the TSC may be
 *	chosen even where it is not trusted (a benchmark under emulation)
 */
struct ktrace_clock_caps {
	bool tsc;
	bool tsc_trusted;
	bool tsc_forced;
};

extern struct ktrace_clock_info ktrace_clock;
DECLARE_STATIC_KEY_FALSE(ktrace_clock_tsc);
DECLARE_STATIC_KEY_FALSE(ktrace_clock_emulated);

u64 ktrace_clock_emulate(u64 mono_ns, const struct ktrace_clock_info *c);
void ktrace_clock_emulate_from(struct ktrace_clock_info *c, u64 now_ns,
			       u64 now_raw);

/*
 * The trace clock: raw clock >> shift.  NMI-safe, no lock: the TSC where it
 * is constant and synchronized, else ktime_get_mono_fast_ns(); when the
 * TSC turns out unstable during a trace, that accessor in TSC counts, so
 * that the trace keeps one unit and the metadata stays valid.
 *
 * The TSC is read with get_cycles(), RDTSC without the fence of
 * rdtsc_ordered(), as native_sched_clock() reads it for ftrace's default
 * clock: the read may complete before earlier or after later instructions
 * of the write path.  No order is lost that a trace promises:
 *
 * - Within a CPU's buffer, records are in clock order because the writer
 *   clamps its clock to the previous record's (see ktrace_reserve()),
 *   whatever order the reads completed in; and a nested writer (an
 *   interrupt, an NMI) reads the clock after every instruction of the
 *   writer it interrupted has completed, that writer's read included.
 * - Across CPUs, order comes from the TSCs being synchronized, to a few
 *   cycles at best; a fence would buy a few tens of cycles out of a clock
 *   unit of up to %KTRACE_CLOCK_MAX_UNIT_NS nanoseconds, and cost the
 *   write path a pipeline drain at every event.
 */
static __always_inline u64 ktrace_clock_read(void)
{
	u64 raw;

#ifdef CONFIG_X86
	if (static_branch_likely(&ktrace_clock_tsc))
		return get_cycles() >> ktrace_clock.shift;
#endif
	if (static_branch_unlikely(&ktrace_clock_emulated))
		raw = ktrace_clock_emulate(ktime_get_mono_fast_ns(), &ktrace_clock);
	else
		raw = ktime_get_mono_fast_ns();
	return raw >> ktrace_clock.shift;
}

/**
 * struct ktrace_clock_conv - what converts trace clock values to times
 * @freq_hz: &ktrace_clock.freq_hz
 * @ref_clock: the trace clock at the reference instant
 * @ref_mono_ns: CLOCK_MONOTONIC then
 * @shift: &ktrace_clock.shift
 *
 * One set, published by ktrace_clock_set_ref() and read whole by
 * ktrace_clock_conv_get().
 */
struct ktrace_clock_conv {
	u64 freq_hz;
	u64 ref_clock;
	u64 ref_mono_ns;
	unsigned int shift;
};

void ktrace_clock_conv_get(struct ktrace_clock_conv *c);

unsigned int ktrace_clock_shift(u64 freq_hz);
int ktrace_clock_parse(const char *name);
int ktrace_clock_allowed(int id, const struct ktrace_clock_caps *caps);
int ktrace_clock_change(int id, const char *cur,
			const struct ktrace_clock_caps *caps);
int ktrace_clock_list(char *buf, size_t size,
		      const struct ktrace_clock_caps *caps, const char *cur);
void ktrace_clock_get_caps(struct ktrace_clock_caps *caps);
int ktrace_clock_select(int id);
bool ktrace_clock_check(void);
void ktrace_clock_set_ref(void);
void ktrace_clock_get_ref(u64 *clock, u64 *mono_ns);
u64 ktrace_clock_ns(u64 clock);
u64 ktrace_clock_delta_ns(u64 units);
u64 ktrace_clock_units(u64 ns);

#endif /* _KTRACE_CLOCK_H */
