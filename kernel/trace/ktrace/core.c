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
#include <linux/time64.h>
#include <kunit/visibility.h>
#ifdef CONFIG_X86
#include <linux/cpufeature.h>
#include <asm/tsc.h>
#endif

#include "ktrace_internal.h"

/* Serializes changes of the tracing state: enable, later mode and sizes. */
static DEFINE_MUTEX(ktrace_mutex);
/* Written under ktrace_mutex; read without it, so with READ_ONCE(). */
static bool ktrace_enabled;

struct ktrace_clock_info ktrace_clock __ro_after_init = {
	.name = "mono",
	.freq_hz = NSEC_PER_SEC,
};
EXPORT_SYMBOL_IF_KUNIT(ktrace_clock);
DEFINE_STATIC_KEY_FALSE(ktrace_clock_tsc);

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
}

/**
 * ktrace_is_enabled() - tell whether ktrace is tracing
 *
 * Return: true between a start and the next stop.
 */
bool ktrace_is_enabled(void)
{
	return READ_ONCE(ktrace_enabled);
}

/**
 * ktrace_set_enabled() - start or stop tracing
 * @on: true to start, false to stop
 *
 * Starting an enabled tracer or stopping a stopped one changes nothing.
 *
 * Return: 0 on success, a negative errno otherwise.
 */
int ktrace_set_enabled(bool on)
{
	mutex_lock(&ktrace_mutex);
	WRITE_ONCE(ktrace_enabled, on);
	mutex_unlock(&ktrace_mutex);
	return 0;
}

static int __init ktrace_init(void)
{
	ktrace_clock_init();
	pr_info("clock %s, %llu Hz, shift %u (%llu ps per unit)\n",
		ktrace_clock.name, ktrace_clock.freq_hz, ktrace_clock.shift,
		mul_u64_u64_div_u64(PSEC_PER_SEC, 1ULL << ktrace_clock.shift,
				    ktrace_clock.freq_hz));
	return 0;
}
core_initcall(ktrace_init);
