/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ktrace private interface, shared by the core (kernel/trace/ktrace/), the
 * debugfs control layer (fs/debugfs-ktrace/) and the KUnit tests.  Nothing
 * outside ktrace includes it.
 */
#ifndef _KTRACE_INTERNAL_H
#define _KTRACE_INTERNAL_H

#include <linux/jump_label.h>
#include <linux/timekeeping.h>
#include <linux/types.h>
#ifdef CONFIG_X86
#include <asm/timex.h>
#endif

/* One unit of the truncated trace clock is at most this long. */
#define KTRACE_CLOCK_MAX_UNIT_NS	64

/**
 * struct ktrace_clock_info - the trace clock, chosen once at boot
 * @name: "tsc" (constant, synchronized x86 TSC) or "mono" (the NMI-safe
 *	fast CLOCK_MONOTONIC accessor, in nanoseconds)
 * @freq_hz: counts per second of the raw clock
 * @shift: raw counts are shifted right by this before truncation, so that one
 *	unit is at most %KTRACE_CLOCK_MAX_UNIT_NS nanoseconds
 */
struct ktrace_clock_info {
	const char *name;
	u64 freq_hz;
	unsigned int shift;
};

extern struct ktrace_clock_info ktrace_clock;
DECLARE_STATIC_KEY_FALSE(ktrace_clock_tsc);

/*
 * The trace clock: raw clock >> shift.  NMI-safe, no lock: the TSC where it
 * is constant and synchronized, else ktime_get_mono_fast_ns().
 */
static __always_inline u64 ktrace_clock_read(void)
{
	u64 raw;

#ifdef CONFIG_X86
	if (static_branch_likely(&ktrace_clock_tsc))
		raw = get_cycles();
	else
#endif
		raw = ktime_get_mono_fast_ns();
	return raw >> ktrace_clock.shift;
}

unsigned int ktrace_clock_shift(u64 freq_hz);
int ktrace_set_enabled(bool on);

#endif /* _KTRACE_INTERNAL_H */
