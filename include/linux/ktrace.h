/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ktrace, the flight-recorder tracer: the calls kernel code may make, as
 * ftrace gives it tracing_off() and trace_printk().  All of them may be
 * called from any context, NMI included, and cost a test of a pointer or a
 * flag when ktrace is not armed or not tracing.  Without CONFIG_KTRACE they
 * are empty, so callers need no #ifdef.  Documentation/trace/ktrace.rst,
 * "From kernel code".
 */
#ifndef _LINUX_KTRACE_H
#define _LINUX_KTRACE_H

#include <linux/compiler_attributes.h>
#include <linux/errno.h>

#ifdef CONFIG_KTRACE
int ktrace_trigger(const char *reason);
__printf(1, 2) int ktrace_mark(const char *fmt, ...);
void ktrace_on_warning(const void *caller);
#else
static inline int ktrace_trigger(const char *reason)
{
	return -ENODEV;
}

static inline __printf(1, 2) int ktrace_mark(const char *fmt, ...)
{
	return -ENODEV;
}

static inline void ktrace_on_warning(const void *caller)
{
}
#endif

#endif /* _LINUX_KTRACE_H */
