/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ktrace's own tracepoint: a ktrace trigger fired, so that ftrace, perf
 * and BPF users see the moment ktrace froze its flight recorder.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM ktrace

#if !defined(_TRACE_KTRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_KTRACE_H

#include <linux/sched.h>
#include <linux/tracepoint.h>

/**
 * ktrace_trigger - a ktrace trigger fired
 * @trigger: its name, as listed in /sys/kernel/debug/ktrace/triggers
 * @reason: what happened, in words
 * @pid: the task concerned (the OOM victim, the hung task, the slow one)
 * @comm: its name, %TASK_COMM_LEN bytes
 * @value: what was measured (see Documentation/trace/ktrace.rst)
 */
TRACE_EVENT(ktrace_trigger,
	    TP_PROTO(const char *trigger, const char *reason, pid_t pid,
		     const char *comm, u64 value),
	    TP_ARGS(trigger, reason, pid, comm, value),
	    TP_STRUCT__entry(__string(trigger, trigger)
			     __string(reason, reason)
			     __field(pid_t, pid)
			     __array(char, comm, TASK_COMM_LEN)
			     __field(u64, value)),
	    TP_fast_assign(__assign_str(trigger);
			   __assign_str(reason);
			   __entry->pid = pid;
			   memcpy(__entry->comm, comm, TASK_COMM_LEN);
			   __entry->value = value;),
	    TP_printk("trigger=%s pid=%d comm=%s value=%llu reason=%s",
		      __get_str(trigger), __entry->pid, __entry->comm,
		      __entry->value, __get_str(reason))
);

#endif /* _TRACE_KTRACE_H */

/* This part must be outside protection */
#include <trace/define_trace.h>
