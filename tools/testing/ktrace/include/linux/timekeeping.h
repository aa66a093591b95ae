/* SPDX-License-Identifier: GPL-2.0 */
/* ktrace harness: CLOCK_MONOTONIC from the C library. */
#ifndef _KTRACE_HARNESS_TIMEKEEPING_H
#define _KTRACE_HARNESS_TIMEKEEPING_H

#include <time.h>
#include <linux/types.h>

static inline u64 ktime_get_mono_fast_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}
#endif /* _KTRACE_HARNESS_TIMEKEEPING_H */
