/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ktrace clock: the latched conversion set, for clock.c and its KUnit
 * test only.  Not in clock.h: linux/seqlock.h brings in lockdep and the
 * per-CPU headers, which the native harness (tools/testing/ktrace), that
 * builds ktrace_internal.h in user space, cannot include.
 */
#ifndef _KTRACE_CLOCK_LATCH_H
#define _KTRACE_CLOCK_LATCH_H

#include <linux/seqlock.h>

#include "clock.h"

/**
 * struct ktrace_clock_latch - the conversion set, latched (see clock.c)
 * @seq: its latch count
 * @conv: the two copies
 */
struct ktrace_clock_latch {
	seqcount_latch_t seq;
	struct ktrace_clock_conv conv[2];
};

#if IS_ENABLED(CONFIG_KUNIT)
extern struct ktrace_clock_latch ktrace_clock_latch;
void ktrace_clock_conv_write(const struct ktrace_clock_conv *c);
#endif

#endif /* _KTRACE_CLOCK_LATCH_H */
