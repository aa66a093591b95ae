/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ktrace private interface, shared by the core (kernel/trace/ktrace/), the
 * debugfs control layer (fs/debugfs-ktrace/) and the KUnit tests.  Nothing
 * outside ktrace includes it.
 */
#ifndef _KTRACE_INTERNAL_H
#define _KTRACE_INTERNAL_H

#include <linux/types.h>

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

unsigned int ktrace_clock_shift(u64 freq_hz);
int ktrace_set_enabled(bool on);

#endif /* _KTRACE_INTERNAL_H */
