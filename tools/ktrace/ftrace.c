// SPDX-License-Identifier: GPL-2.0
/*
 * ktrace convert --ftrace: a trace file as the text of the kernel's
 * tracefs "trace" file (6.12), for Perfetto's text importer, trace-cmd's
 * and ftrace's scripts.
 *
 * The header is the one tracefs prints with the nop tracer and the
 * default options (irq-info on, record-tgid off); each event is one line
 *
 *   "%16s-%-7d [%03d] FLAGS %5lu.%06lu: EVENT: FIELDS"
 *
 * TASK-PID the running task (its name as the trace last gave it: "<idle>"
 * for pid 0, "<...>" if it gave none, as ftrace's saved_cmdlines), the
 * CPU, the time in CLOCK_MONOTONIC microseconds rounded as ftrace rounds,
 * and the event's fields in the TP_printk() syntax of the kernel's own
 * tracepoint: sched_switch, sched_wakeup, sched_wakeup_new,
 * irq_handler_entry/exit, softirq_entry/exit/raise, sys_enter/sys_exit
 * (raw_syscalls) and block_rq_issue/complete.  What ktrace does not record
 * is printed as ftrace prints its "none" value, and documented
 * (Documentation/tools/ktrace/ktrace.rst): the FLAGS column "....." (no
 * irqs-off, need-resched, irq context, preempt or migrate-disable count
 * is recorded); priorities 120; sys_enter's first argument alone, its low
 * 22 bits; an IRQ's name from the statedump, else "?"; a block request's
 * I/O priority "none,0,0" and its command "()".
 *
 * Every other event of ktrace is a "tracing_mark_write" line whose text
 * is "I|PID|GROUP:NAME FIELDS" ('|' in the text made '/'): what user
 * space's writes to trace_marker give, and in the systrace syntax that
 * Perfetto draws as an instant on the task's track.  Records a stream
 * lost before one (overwritten, dropped) give a "CPU:N [LOST EVENTS]" line
 * first, as ftrace prints its own losses.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "../../kernel/trace/ktrace/format.h"
#include <linux/kernel.h>		/* tools/include: ARRAY_SIZE() */

/* What ftrace prints for an event whose value ktrace does not record. */
#define FT_PRIO			120
#define FT_FLAGS		"....."
#define FT_IRQ_NAMES		1024
/* sys_enter's arg0: ktrace keeps its low 22 bits (probes/syscalls.c). */
#define FT_ARG0_MASK		0x3fffffULL

struct ft {
	FILE *out;
	struct kt_buf line, rep;
	char *irq_name[FT_IRQ_NAMES];	/* statedump:irq, by IRQ number */
	unsigned long long lines;
};

/* Field @name of @r as a number, sign-extended if signed; false if none. */
static bool ft_num(const struct kt_record *r, const char *name, int64_t *v)
{
	const struct kt_event *ev = r->event;
	unsigned int i;
	uint64_t raw;

	for (i = 0; ev && i < ev->nr_fields; i++) {
		const struct kt_field *f = &ev->fields[i];

		if (strcmp(f->name, name))
			continue;
		if (!kt_field_raw(f, r, &raw))
			return false;
		*v = (int64_t)ktrace_field_extend(f->flags,
						  ktrace_field_bits(f->size,
								    r->id != KTRACE_ID_EXPANDED),
						  raw);
		return true;
	}
	return false;
}

static bool ft_is(const struct kt_record *r, const char *group, const char *name)
{
	return r->event && !strcmp(r->event->group, group) && !strcmp(r->event->name, name);
}

/*
 * A task's name in a field: ftrace's comm, swapper/CPU for the idle task;
 * one word of one line, as report prints it (kt_comm_word()).
 */
static void ft_comm(struct ft *f, const struct kt_trace *t, int pid, unsigned int cpu)
{
	char comm[17];

	kt_comm_word(t, pid, comm, sizeof(comm));
	if (!pid)
		kt_bufprintf(&f->line, "swapper/%u", cpu);
	else
		kt_bufprintf(&f->line, "%s", comm);
}

/* ftrace's letters of a sched_switch prev_state, from ktrace's state index. */
static const char *ft_state(int64_t state)
{
	static const char *const letters[] = { "R", "S", "D", "T", "t", "X", "Z", "P", "I" };

	if (state >= 0 && state < (int64_t)ARRAY_SIZE(letters))
		return letters[state];
	return "R+";	/* KT_STATE_PREEMPTED: TASK_REPORT_MAX */
}

static bool ft_sched(struct ft *f, const struct kt_trace *t, const struct kt_record *r)
{
	int64_t v, cpu;

	if (ft_is(r, "sched", "switch") && ft_num(r, "prev_state", &v)) {
		kt_bufprintf(&f->line, "sched_switch: prev_comm=");
		ft_comm(f, t, r->prev_pid, r->cpu);
		kt_bufprintf(&f->line, " prev_pid=%d prev_prio=%d prev_state=%s ==> next_comm=",
			     r->prev_pid, FT_PRIO, ft_state(v));
		ft_comm(f, t, r->pid, r->cpu);
		kt_bufprintf(&f->line, " next_pid=%d next_prio=%d", r->pid, FT_PRIO);
		return true;
	}
	if ((ft_is(r, "sched", "wakeup") || ft_is(r, "sched", "wakeup_new")) &&
	    ft_num(r, "pid", &v) && ft_num(r, "cpu", &cpu)) {
		kt_bufprintf(&f->line, "sched_%s: comm=", r->event->name);
		ft_comm(f, t, (int)v, (unsigned int)cpu);
		kt_bufprintf(&f->line, " pid=%d prio=%d target_cpu=%03d", (int)v, FT_PRIO,
			     (int)cpu);
		return true;
	}
	return false;
}

static const char *const ft_softirqs[] = {
	"HI", "TIMER", "NET_TX", "NET_RX", "BLOCK", "IRQ_POLL", "TASKLET", "SCHED",
	"HRTIMER", "RCU",
};

static bool ft_irq(struct ft *f, const struct kt_record *r)
{
	int64_t irq, v;
	const char *name;

	if (ft_is(r, "irq", "hardirq_entry") && ft_num(r, "irq", &irq)) {
		name = irq >= 0 && irq < FT_IRQ_NAMES ? f->irq_name[irq] : NULL;
		kt_bufprintf(&f->line, "irq_handler_entry: irq=%d name=%s", (int)irq,
			     name ? name : "?");
		return true;
	}
	if (ft_is(r, "irq", "hardirq_exit") && ft_num(r, "irq", &irq) && ft_num(r, "ret", &v)) {
		kt_bufprintf(&f->line, "irq_handler_exit: irq=%d ret=%s", (int)irq,
			     v ? "handled" : "unhandled");
		return true;
	}
	if (r->event && !strcmp(r->event->group, "irq") &&
	    !strncmp(r->event->name, "softirq_", 8) && ft_num(r, "vec", &v)) {
		kt_bufprintf(&f->line, "%s: vec=%u [action=", r->event->name, (unsigned int)v);
		/* __print_symbolic(): the value itself when no name is known. */
		if (v >= 0 && v < (int64_t)ARRAY_SIZE(ft_softirqs))
			kt_bufprintf(&f->line, "%s]", ft_softirqs[v]);
		else
			kt_bufprintf(&f->line, "0x%x]", (unsigned int)v);
		return true;
	}
	return false;
}

static bool ft_syscall(struct ft *f, const struct kt_record *r)
{
	int64_t nr, v;

	if (ft_is(r, "syscalls", "entry") && ft_num(r, "nr", &nr) && ft_num(r, "arg0", &v)) {
		kt_bufprintf(&f->line, "sys_enter: NR %lld (%llx)", (long long)nr,
			     (unsigned long long)v & FT_ARG0_MASK);
		return true;
	}
	if (ft_is(r, "syscalls", "exit") && ft_num(r, "nr", &nr) && ft_num(r, "ret", &v)) {
		kt_bufprintf(&f->line, "sys_exit: NR %lld = %lld", (long long)nr, (long long)v);
		return true;
	}
	return false;
}

/* blk_fill_rwbs() of the kernel, from ktrace's stable op and flags. */
static void ft_rwbs(char *s, int64_t op, int64_t flags)
{
	static const char *const ops[] = {
		[KTRACE_BLK_OP_READ] = "R", [KTRACE_BLK_OP_WRITE] = "W",
		[KTRACE_BLK_OP_FLUSH] = "F", [KTRACE_BLK_OP_DISCARD] = "D",
		[KTRACE_BLK_OP_SECURE_ERASE] = "DE",
	};
	const char *o = op >= 0 && op < (int64_t)ARRAY_SIZE(ops) && ops[op] ? ops[op] : "N";

	*s = '\0';
	if (flags & KTRACE_BLK_PREFLUSH)
		strcat(s, "F");
	strcat(s, o);
	if (flags & KTRACE_BLK_FUA)
		strcat(s, "F");
	if (flags & KTRACE_BLK_RAHEAD)
		strcat(s, "A");
	if (flags & KTRACE_BLK_SYNC)
		strcat(s, "S");
	if (flags & KTRACE_BLK_META)
		strcat(s, "M");
}

/*
 * block_rq_issue and block_rq_complete, from the description the record's
 * key names; a request whose description was lost is a mark line.
 */
static bool ft_block(struct ft *f, const struct kt_trace *t, const struct kt_record *r)
{
	int64_t dev, sector, nr, op, flags, err = 0;
	bool issue = ft_is(r, "block", "rq_issue");
	struct kt_record d;
	char rwbs[8];

	if (!issue && !ft_is(r, "block", "rq_complete") && !ft_is(r, "block", "rq_status"))
		return false;
	if (!r->event->nr_fields || r->event->fields[0].display != KTRACE_DISPLAY_KEY ||
	    !kt_key_named(t, r, 0, &d))
		return false;
	if (!ft_num(&d, "dev", &dev) || !ft_num(&d, "sector", &sector) ||
	    !ft_num(&d, "nr_sector", &nr) || !ft_num(&d, "op", &op) ||
	    !ft_num(&d, "flags", &flags))
		return false;
	ft_rwbs(rwbs, op, flags);
	if (issue) {
		kt_bufprintf(&f->line,
			     "block_rq_issue: %d,%d %s %llu () %llu + %u none,0,0 [",
			     (int)(dev >> 20), (int)(dev & 0xfffff), rwbs,
			     (unsigned long long)nr * 512, (unsigned long long)sector,
			     (unsigned int)nr);
		ft_comm(f, t, r->pid, r->cpu);
		kt_bufprintf(&f->line, "]");
		return true;
	}
	if (ft_is(r, "block", "rq_status")) {
		int64_t bytes;

		if (!ft_num(r, "bytes", &bytes) || !ft_num(r, "error", &err))
			return false;
		nr = bytes >> 9;
	}
	kt_bufprintf(&f->line, "block_rq_complete: %d,%d %s () %llu + %u none,0,0 [%d]",
		     (int)(dev >> 20), (int)(dev & 0xfffff), rwbs, (unsigned long long)sector,
		     (unsigned int)nr, (int)err);
	return true;
}

/* Any other event: "tracing_mark_write: I|PID|GROUP:NAME FIELDS", PID the line's. */
static int ft_mark(struct ft *f, struct kt_trace *t, const struct kt_record *r, int pid)
{
	const char *p = NULL;
	unsigned int words = 0;
	size_t i;

	if (kt_format_time(t, r, "0", &f->rep))
		return -1;
	/* Report's line: TIME CPU COMM-PID GROUP:NAME FIELDS; COMM has no spaces. */
	for (i = 0; i < f->rep.len && !p; i++)
		if (f->rep.p[i] == ' ' && ++words == 3)
			p = f->rep.p + i + 1;
	if (!p)
		p = "";
	kt_bufprintf(&f->line, "tracing_mark_write: I|%d|", pid);
	for (; *p && *p != '\n'; p++)
		kt_bufprintf(&f->line, "%c", *p == '|' ? '/' : *p);
	return 0;
}

/* statedump:irq names the IRQs of irq_handler_entry lines. */
static void ft_note_irq(struct ft *f, const struct kt_record *r)
{
	const struct kt_event *ev = r->event;
	unsigned int i;
	int64_t irq;

	if (!ft_is(r, "statedump", "irq") || !ft_num(r, "irq", &irq) || irq < 0 ||
	    irq >= FT_IRQ_NAMES)
		return;
	for (i = 0; i < ev->nr_fields; i++) {
		const struct kt_field *fl = &ev->fields[i];
		size_t len;
		char *s;

		if (strcmp(fl->name, "name") || fl->display != KTRACE_DISPLAY_STRING ||
		    fl->offset > r->length)
			continue;
		len = fl->size ? fl->size : r->length - fl->offset;
		if (fl->offset + len > r->length)
			len = r->length - fl->offset;
		s = strndup((const char *)r->data + fl->offset, len);
		if (!s)
			return;
		/* One word of one line, as report prints a comm (kt_comm_word()). */
		for (len = 0; s[len]; len++)
			if (s[len] == ' ')
				s[len] = '_';
			else if ((unsigned char)s[len] < 0x20 || s[len] == 0x7f)
				s[len] = '?';
		free(f->irq_name[irq]);
		f->irq_name[irq] = s;
	}
}

static int ft_one(struct kt_trace *t, const struct kt_record *r, void *arg)
{
	struct ft *f = arg;
	uint64_t us = (r->ns + 500) / 1000;
	int pid = r->pid;
	char comm[17];

	/* The counting pass: one line a record. */
	if (!f->out) {
		f->lines++;
		return 0;
	}
	ft_note_irq(f, r);
	if (r->lost && fprintf(f->out, "CPU:%u [LOST EVENTS]\n", r->cpu) < 0)
		return -1;
	/* The line's task is the one that ran: the previous one for a switch. */
	if (ft_is(r, "sched", "switch"))
		pid = r->prev_pid;
	f->line.len = 0;
	f->line.overflow = false;
	kt_comm_word(t, pid, comm, sizeof(comm));
	kt_bufprintf(&f->line, "%16s-%-7d [%03u] " FT_FLAGS " %5llu.%06u: ",
		     comm, pid, r->cpu, (unsigned long long)(us / 1000000),
		     (unsigned int)(us % 1000000));
	if (!ft_sched(f, t, r) && !ft_irq(f, r) && !ft_syscall(f, r) && !ft_block(f, t, r) &&
	    ft_mark(f, t, r, pid))
		return -1;
	if (f->line.overflow || fprintf(f->out, "%s\n", f->line.p) < 0)
		return -1;
	f->lines++;
	return 0;
}

/* The header of tracefs "trace" with the nop tracer and irq-info. */
static void ft_header(FILE *out, unsigned long long n, unsigned int cpus)
{
	fprintf(out, "# tracer: nop\n#\n"
		"# entries-in-buffer/entries-written: %llu/%llu   #P:%u\n#\n"
		"#                                _-----=> irqs-off/BH-disabled\n"
		"#                               / _----=> need-resched\n"
		"#                              | / _---=> hardirq/softirq\n"
		"#                              || / _--=> preempt-depth\n"
		"#                              ||| / _-=> migrate-disable\n"
		"#                              |||| /     delay\n"
		"#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION\n"
		"#              | |         |   |||||     |         |\n", n, n, cpus);
}

/**
 * kt_ftrace_write() - a trace as the text of tracefs "trace"
 * @t: the trace
 * @cmd: the command, for messages
 * @out: where to write it
 *
 * Return: 0, or -1 after saying why on stderr.
 */
int kt_ftrace_write(struct kt_trace *t, const char *cmd, FILE *out)
{
	struct ft f = { .line.grow = true, .rep.grow = true };
	unsigned int i, warnings, cpus = 0;
	int ret = 0;

	for (i = 0; i < t->nr_streams; i++)
		if (t->streams[i].cpu + 1 > cpus)
			cpus = t->streams[i].cpu + 1;
	if (t->have_trace && t->machine.nr_cpus)
		cpus = t->machine.nr_cpus;
	/* A first pass counts the lines for the header; warnings are its. */
	if (kt_merge(t, ft_one, &f)) {
		fprintf(stderr, "ktrace %s: %s: cannot convert it\n", cmd, t->path);
		return -1;
	}
	warnings = t->warnings;
	t->warnings = UINT_MAX / 2;
	kt_forget_names(t);
	ft_header(out, f.lines, cpus);
	f.out = out;
	f.lines = 0;
	ret = kt_merge(t, ft_one, &f) ? -1 : 0;
	t->warnings = warnings;
	if (ferror(out) || fflush(out)) {
		fprintf(stderr, "ktrace %s: cannot write: %s\n", cmd, strerror(errno));
		ret = -1;
	} else if (ret) {
		fprintf(stderr, "ktrace %s: %s: cannot convert it\n", cmd, t->path);
	}
	for (i = 0; i < FT_IRQ_NAMES; i++)
		free(f.irq_name[i]);
	free(f.line.p);
	free(f.rep.p);
	return ret;
}
