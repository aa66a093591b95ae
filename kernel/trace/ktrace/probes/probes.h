/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared by ktrace's probes and statedump: field descriptions, and the
 * task states both report.
 */
#ifndef _KTRACE_PROBES_H
#define _KTRACE_PROBES_H

#include "../event.h"

#define KT_FIELD(nm, off, sz, disp)					\
	{ .name = nm, .offset = off, .size = sz, .display = disp }
#define KT_FIELD_S(nm, off, sz, disp)					\
	{ .name = nm, .offset = off, .size = sz, .display = disp,	\
	  .flags = KTRACE_FIELD_SIGNED }
/* A kernel address: a symbol, or (as a module's base) another display. */
#define KT_FIELD_K(nm, off, sz, disp)					\
	{ .name = nm, .offset = off, .size = sz, .display = disp,	\
	  .flags = KTRACE_FIELD_KADDR }
/* An enum field whose values are the array NAME_values. */
#define KT_FIELD_ENUM(nm, off, sz, tbl)					\
	{ .name = nm, .offset = off, .size = sz,			\
	  .display = KTRACE_DISPLAY_ENUM, .values = tbl##_values,	\
	  .nr_values = ARRAY_SIZE(tbl##_values) }

/*
 * Task states: the index of the letter ftrace prints (0 running ... 8
 * idle, task_state_index()), and 9 for a preempted task (ftrace's "R+").
 */
#define KT_STATE_PREEMPTED	9
#define KT_NR_STATES		10

#endif /* _KTRACE_PROBES_H */
