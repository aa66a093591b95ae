/* SPDX-License-Identifier: GPL-2.0 */
/* ktrace harness: the TSC. */
#ifndef _KTRACE_HARNESS_TIMEX_H
#define _KTRACE_HARNESS_TIMEX_H

#include <linux/types.h>

static inline u64 get_cycles(void)
{
	return __builtin_ia32_rdtsc();
}
#endif /* _KTRACE_HARNESS_TIMEX_H */
