/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ktrace: an always-on flight-recorder tracer.
 *
 * This header is what the rest of the kernel calls.  With CONFIG_KTRACE=n
 * every function is an empty inline, so callers need no #ifdef.
 */
#ifndef _LINUX_KTRACE_H
#define _LINUX_KTRACE_H

#include <linux/types.h>

#ifdef CONFIG_KTRACE
bool ktrace_is_enabled(void);
#else
static inline bool ktrace_is_enabled(void)
{
	return false;
}
#endif /* CONFIG_KTRACE */

#endif /* _LINUX_KTRACE_H */
