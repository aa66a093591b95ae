// SPDX-License-Identifier: GPL-2.0
/*
 * The ascii pipe: the high and medium-rate streams of every CPU, decoded
 * in the kernel, merged in time order, one event per line:
 *
 *   TIME CPU COMM-PID GROUP:NAME KEY=VALUE...
 *   51.734017472 1 sh-87 ktrace:mark pid=87 text="before the upgrade"
 *
 * TIME is CLOCK_MONOTONIC in seconds.nanoseconds; COMM-PID the task
 * running on CPU, followed per CPU across both channels in time order:
 * the events that name the running task (the first field of such an event
 * is its pid: a switch's next task, a fork's parent, a mark's writer) set
 * it, and so does the header of each subbuffer, which names the task
 * running when it began, if that is newer than what set it last.  A
 * channel that lost events thus picks the task up again from the other
 * channel, or from its own next subbuffer.
 *
 * COMM is the last name the trace gave that pid (statedump, fork, exec and
 * comm events), else the saved comm of that pid (the name those events or
 * a switch gave it even when the medium-rate channel was full), else the
 * live task's; a task never named that is gone shows as <...>.  Spaces in
 * COMM become underscores, control characters question marks.  Strings
 * are quoted; quotes, backslashes, newlines, tabs and bytes outside
 * printable ASCII are escaped as in C (bytes as \xHH).
 *
 * Reading consumes complete subbuffers, as the relay files do: read one or
 * the other.  Each reader copies a subbuffer out before decoding it, so an
 * overwriting writer cannot tear what it decodes.  An empty pipe blocks;
 * while tracing, a reader that waited a second closes the partly filled
 * subbuffers (as LTTng's live timer does), so that slow streams show up.
 */
#include <kunit/visibility.h>
#include <linux/mm.h>
#include <linux/moduleparam.h>
#include <linux/nmi.h>
#include <linux/pid.h>
#include <linux/printk.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/seq_buf.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/wait.h>

#include "buffer.h"
#include "event.h"
#include "format.h"

#define ASCII_CHANNELS	2		/* high and medium */
#define ASCII_SUBBUF_MAX (128 * 1024)	/* the largest subbuffer */
#define ASCII_LINE_MAX	(32 * 1024)

/**
 * struct ktrace_ascii_cursor - where a reader is in one CPU's stream
 * @copy: the subbuffer being decoded, copied out of the buffer
 * @size: bytes in @copy
 * @pos: the next record in @copy
 * @clock: the decoder's clock
 * @rec: the next event, when @have
 * @have: @rec holds an event not printed yet
 * @start: the task running on the CPU when the subbuffer began (its
 *	header's pid), and when that was (its timestamp record)
 * @start_new: @start was not yet applied to the CPU's running task
 * @back: a dump: the next subbuffer to copy, counted back from the
 *	newest; -1 once the newest was copied
 * @skip: a dump: events still to pass over before the last ones
 */
struct ktrace_ascii_cursor {
	void *copy;
	size_t size;
	size_t pos;
	u64 clock;
	struct ktrace_record rec;
	bool have;
	struct ktrace_ascii_running start;
	bool start_new;
	long back;
	unsigned long skip;
};

/* Names learned from the trace, by pid: a cache, collisions replace. */
#define ASCII_NAMES	4096

struct ktrace_ascii_name {
	int pid;
	char comm[TASK_COMM_LEN];
};

/*
 * Descriptions of keys (KTRACE_FIELD_IDENT) learned from the trace, by
 * key: a cache, collisions replace; a key found with another identity is
 * ambiguous and prints as unknown until replaced.  Direct-mapped by the
 * key's low bits: a description can be pushed out by another before its
 * end, and its requests then show as unknown.
 */
#define ASCII_KEYS	1024
#define ASCII_KEY_DATA	32	/* the largest description kept */

struct ktrace_ascii_key {
	const struct ktrace_event *ev;
	u32 key;
	bool ambiguous;
	u16 length;
	u8 data[ASCII_KEY_DATA];
};

/**
 * struct ktrace_ascii - one open ascii file
 * @lock: serializes reads of this file: its cursors and its line
 * @nr_cpus: cursors per channel
 * @cur: the cursors, channel by channel, CPU by CPU
 * @running: the task running on each CPU, from the events of both
 *	channels in the order they are printed
 * @names: names the trace gave pids, %ASCII_NAMES slots by pid
 * @keys: descriptions of keys, %ASCII_KEYS slots by key
 * @line: the formatted line not yet read
 * @done: bytes of @line already read
 * @dump: a dump (ktrace_ascii_dump()): subbuffers are copied, not consumed
 * @since: a dump: the start of the trace; earlier events are left out
 */
struct ktrace_ascii {
	struct mutex lock;	/* see the kernel-doc above */
	unsigned int nr_cpus;
	struct ktrace_ascii_cursor *cur;
	struct ktrace_ascii_running *running;
	struct ktrace_ascii_name *names;
	struct ktrace_ascii_key *keys;
	struct seq_buf line;
	size_t done;
	bool dump;
	u64 since;
};

/* The next subbuffer of a cursor: consumed, or for a dump copied. */
static int ascii_next_subbuf(struct ktrace_ascii *a, struct ktrace_ascii_cursor *c,
			     unsigned int ch, unsigned int cpu)
{
	if (!a->dump)
		return ktrace_channel_take_subbuf(ch, cpu, c->copy, ASCII_SUBBUF_MAX);
	if (c->back < 0)
		return -ENODATA;
	return ktrace_channel_peek_subbuf(ch, cpu, c->back--, c->copy,
					  ASCII_SUBBUF_MAX);
}

static void ascii_learn_key(struct ktrace_ascii *a, const struct ktrace_event *ev,
			    const struct ktrace_record *rec);

/* Load the cursor's next event, taking a new subbuffer if needed. */
static bool ascii_advance(struct ktrace_ascii *a, struct ktrace_ascii_cursor *c,
			  unsigned int ch, unsigned int cpu)
{
	const struct ktrace_event *ev;
	int ret;

	while (!c->have) {
		if (c->pos >= c->size) {
			const struct ktrace_subbuf_header *h = c->copy;

			ret = ascii_next_subbuf(a, c, ch, cpu);
			if (ret < (int)sizeof(*h))
				return false;
			c->size = ret;
			c->pos = sizeof(*h);
			c->clock = 0;
			c->start.pid = h->pid;
			c->start_new = true;
		}
		ret = ktrace_decode_record(c->copy + c->pos, c->size - c->pos,
					   &c->clock, &c->rec);
		if (ret <= 0) {
			/* Corrupt: drop the rest of this subbuffer. */
			c->pos = c->size;
			continue;
		}
		c->pos += ret;
		/* The subbuffer's first record: when it began. */
		if (c->rec.id == KTRACE_ID_TIMESTAMP &&
		    c->pos == sizeof(struct ktrace_subbuf_header) + ret)
			c->start.clock = c->rec.clock;
		c->have = c->rec.id != KTRACE_ID_TIMESTAMP &&
			  (!a->dump || c->rec.clock >= a->since);
		if (c->have && c->skip) {
			/* Left out of a dump, still describing what follows. */
			ev = c->rec.id == KTRACE_ID_EXPANDED ?
			     ktrace_event_lookup(ch, c->rec.id, c->rec.major, c->rec.minor) :
			     NULL;
			if (ev)
				ascii_learn_key(a, ev, &c->rec);
			c->skip--;
			c->have = false;
		}
	}
	return true;
}

/*
 * The name of a pid: the last one the trace gave it (an event with a
 * "comm" string and a "pid" or "child_pid" field: the statedump, fork,
 * exec, comm changes), else its saved comm, else the running task's, else
 * "<...>".  No lock: the panic dump calls it with the other CPUs stopped.
 */
static void ascii_comm(struct ktrace_ascii *a, int pid, char *comm)
{
	struct ktrace_ascii_name *n = &a->names[pid & (ASCII_NAMES - 1)];
	struct task_struct *task;
	char *p;

	if (!pid) {
		strscpy(comm, "<idle>", TASK_COMM_LEN);
		return;
	}
	if (n->pid == pid && n->comm[0]) {
		strscpy(comm, n->comm, TASK_COMM_LEN);
	} else if (!ktrace_comm_lookup(pid, comm)) {
		rcu_read_lock();
		task = pid_task(find_pid_ns(pid, &init_pid_ns), PIDTYPE_PID);
		if (task)
			/*
			 * Without task_lock(), as tracepoints copy it: a
			 * stopped CPU may hold it.  A rename racing with us
			 * mixes two names, still NUL-terminated.
			 */
			strscpy_pad(comm, task->comm, TASK_COMM_LEN);
		else
			strscpy(comm, "<...>", TASK_COMM_LEN);
		rcu_read_unlock();
	}
	/*
	 * One word of one line: a name written to /proc/PID/comm can hold
	 * a newline.
	 */
	for (p = comm; *p; p++)
		if (*p == ' ')
			*p = '_';
		else if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = '?';
}

/* An expanded event naming a pid: remember the name. */
static void ascii_learn(struct ktrace_ascii *a, const struct ktrace_event *ev,
			const struct ktrace_record *rec)
{
	const struct ktrace_field *pidf = NULL, *commf = NULL;
	struct ktrace_ascii_name *n;
	unsigned int i;
	size_t len;
	u32 pid;

	for (i = 0; i < ev->nr_fields; i++) {
		const struct ktrace_field *f = &ev->fields[i];

		if (!strcmp(f->name, "comm") && f->display == KTRACE_DISPLAY_STRING)
			commf = f;
		else if (f->size == sizeof(pid) &&
			 (!strcmp(f->name, "child_pid") || (!pidf && !strcmp(f->name, "pid"))))
			pidf = f;
	}
	if (!pidf || !commf || pidf->offset + sizeof(pid) > rec->length ||
	    commf->offset + commf->size > rec->length)
		return;
	/* A sized comm, or one to the end of the payload. */
	len = commf->size ? commf->size : rec->length - commf->offset;
	memcpy(&pid, rec->data + pidf->offset, sizeof(pid));
	n = &a->names[pid & (ASCII_NAMES - 1)];
	n->pid = pid;
	memset(n->comm, 0, sizeof(n->comm));
	memcpy(n->comm, rec->data + commf->offset, min_t(size_t, len, TASK_COMM_LEN - 1));
}

/* The shared rules' output (struct ktrace_out): what fits of it. */
static void ascii_put(void *ctx, const char *str, size_t len)
{
	seq_buf_printf(ctx, "%.*s", (int)len, str);
}

/**
 * ktrace_ascii_string() - a string as the ascii formats print it
 * @s: where to
 * @str: the string
 * @len: its length
 *
 * Quoted and escaped as in C, other unprintable bytes as \xHH
 * (ktrace_put_string()).  Only seq_buf_printf() and seq_buf_putc(),
 * which write what fits: a cut line is delivered whole, so
 * seq_buf_puts(), which writes nothing of a string that does not fit,
 * would leave bytes of the buffer unwritten in it.
 */
void ktrace_ascii_string(struct seq_buf *s, const char *str, size_t len)
{
	struct ktrace_out o = { ascii_put, s };

	ktrace_put_string(&o, str, len);
}
EXPORT_SYMBOL_IF_KUNIT(ktrace_ascii_string);

/*
 * A number field's raw value, zero-extended: compact events from the
 * payload, expanded from data.  False if the record is too short for it.
 */
static bool ascii_raw(const struct ktrace_field *f, const struct ktrace_record *rec,
		      bool compact, u64 *v)
{
	return ktrace_field_raw(rec, compact, f->offset, f->size, v);
}

static u64 ascii_enum_value(const void *table, unsigned int i)
{
	return ((const struct ktrace_enum_value *)table)[i].value;
}

static const char *ascii_enum_name(const void *table, unsigned int i)
{
	return ((const struct ktrace_enum_value *)table)[i].name;
}

/* One field's value: compact events from the payload, expanded from data. */
static void ascii_field(struct seq_buf *s, const struct ktrace_field *f,
			const struct ktrace_record *rec, bool compact)
{
	struct ktrace_value_desc d = {
		.display = f->display, .flags = f->flags,
		.bits = ktrace_field_bits(f->size, compact),
		.table = f->values, .nr_values = f->nr_values,
		.value = ascii_enum_value, .name = ascii_enum_name,
	};
	struct ktrace_out o = { ascii_put, s };
	const char *str;
	size_t len;
	u64 raw, v;

	if (f->display == KTRACE_DISPLAY_STRING && !compact) {
		if (ktrace_field_string(rec, f->offset, f->size, &str, &len))
			ktrace_put_string(&o, str, len);
		else
			seq_buf_printf(s, "?");
		return;
	}
	if (!ascii_raw(f, rec, compact, &raw)) {
		seq_buf_printf(s, "?");
		return;
	}
	/* name+0xoff/0xsize [module], as ktrace report prints it. */
	if (ktrace_put_value(&o, &d, raw, &v) == KTRACE_VALUE_SYMBOL)
		seq_buf_printf(s, "%pS", (void *)(unsigned long)v);
}

#define ASCII_IDENT_MAX	8

/*
 * The values of an event's identity (KTRACE_FIELD_IDENT fields), in
 * order; how many, 0 if it has none or the record is too short for them.
 */
static unsigned int ascii_ident(const struct ktrace_event *ev,
				const struct ktrace_record *rec, u64 *v)
{
	unsigned int i, n = 0;

	for (i = 0; i < ev->nr_fields; i++) {
		const struct ktrace_field *f = &ev->fields[i];

		if (!(f->flags & KTRACE_FIELD_IDENT))
			continue;
		if (n == ASCII_IDENT_MAX || !ascii_raw(f, rec, false, &v[n]))
			return 0;
		n++;
	}
	return n;
}

/* An expanded event with an identity: remember it under its key. */
static void ascii_learn_key(struct ktrace_ascii *a, const struct ktrace_event *ev,
			    const struct ktrace_record *rec)
{
	u64 v[ASCII_IDENT_MAX], old[ASCII_IDENT_MAX], h = KTRACE_KEY_SEED;
	struct ktrace_ascii_key *k;
	unsigned int i, n;
	u32 key;

	n = ascii_ident(ev, rec, v);
	if (!n || rec->length > ASCII_KEY_DATA)
		return;
	for (i = 0; i < n; i++)
		h = ktrace_key_add(h, v[i]);
	key = ktrace_key_final(h);
	k = &a->keys[key & (ASCII_KEYS - 1)];
	if (k->ev && k->key == key) {
		struct ktrace_record kr = { .data = k->data, .length = k->length };

		/* One key, two identities: the key names neither. */
		if (k->ambiguous || ascii_ident(k->ev, &kr, old) != n ||
		    memcmp(old, v, n * sizeof(*v)) || strcmp(k->ev->group, ev->group)) {
			k->ambiguous = true;
			return;
		}
	} else {
		k->ambiguous = false;
	}
	k->ev = ev;
	k->key = key;
	k->length = rec->length;
	memset(k->data, 0, sizeof(k->data));
	memcpy(k->data, rec->data, rec->length);
}

/* A key field: the fields of the description it names, or unknown. */
static void ascii_key(struct ktrace_ascii *a, const struct ktrace_event *ev,
		      const struct ktrace_field *f, const struct ktrace_record *rec,
		      bool compact)
{
	const struct ktrace_ascii_key *k;
	struct ktrace_record d;
	unsigned int i;
	u64 v;

	if (!ascii_raw(f, rec, compact, &v)) {
		seq_buf_printf(&a->line, " %s=?", f->name);
		return;
	}
	k = &a->keys[v & (ASCII_KEYS - 1)];
	if (!k->ev || k->key != (u32)v || k->ambiguous || strcmp(k->ev->group, ev->group)) {
		seq_buf_printf(&a->line, " %s=" KTRACE_UNKNOWN_KEY, f->name, (u32)v);
		return;
	}
	d = (struct ktrace_record) { .data = k->data, .length = k->length };
	for (i = 0; i < k->ev->nr_fields; i++) {
		seq_buf_printf(&a->line, " %s=", k->ev->fields[i].name);
		ascii_field(&a->line, &k->ev->fields[i], &d, false);
	}
	if (f->flags & KTRACE_FIELD_KEY_END)
		memset(&a->keys[v & (ASCII_KEYS - 1)], 0, sizeof(*k));
}

/* After the nr field of a syscalls event: " name=NAME", if known. */
static void ascii_syscall(struct ktrace_ascii *a, const struct ktrace_event *ev,
			  const struct ktrace_field *f, const struct ktrace_record *rec,
			  bool compact)
{
	const char *name;
	u64 nr;

	if (strcmp(ev->group, "syscalls") || strcmp(f->name, "nr") ||
	    !ascii_raw(f, rec, compact, &nr) ||
	    ktrace_field_saturated(f->flags, ktrace_field_bits(f->size, compact), nr))
		return;
	name = ktrace_syscall_name(nr);
	if (name)
		seq_buf_printf(&a->line, " name=%s", name);
}

/**
 * ktrace_ascii_fields() - an event's fields as the ascii pipe prints them
 * @a: the reader, whose names and keys it uses and learns
 * @ev: the event
 * @rec: its record
 * @compact: whether @rec is a compact event
 *
 * Appends " KEY=VALUE" for each field to the reader's line.
 */
VISIBLE_IF_KUNIT void ktrace_ascii_fields(struct ktrace_ascii *a,
					  const struct ktrace_event *ev,
					  const struct ktrace_record *rec, bool compact)
{
	unsigned int i;

	if (!compact)
		ascii_learn_key(a, ev, rec);
	for (i = 0; i < ev->nr_fields; i++) {
		if (ev->fields[i].display == KTRACE_DISPLAY_KEY) {
			ascii_key(a, ev, &ev->fields[i], rec, compact);
			continue;
		}
		seq_buf_printf(&a->line, " %s=", ev->fields[i].name);
		ascii_field(&a->line, &ev->fields[i], rec, compact);
		ascii_syscall(a, ev, &ev->fields[i], rec, compact);
	}
}
EXPORT_SYMBOL_IF_KUNIT(ktrace_ascii_fields);

/*
 * sched:switch as ftrace prints it: "prev_comm=A prev_pid=1 prev_state=S
 * ==> next_comm=B next_pid=2".  The event carries the next pid and the
 * previous task's state; the previous task, @prev, is the CPU's running
 * task before it (ktrace_ascii_running()).  False if @ev is not of that shape.
 */
static bool ascii_switch(struct ktrace_ascii *a, const struct ktrace_event *ev,
			 const struct ktrace_record *rec, bool compact, int prev, int next)
{
	char comm[TASK_COMM_LEN];
	unsigned int i;

	if (strcmp(ev->group, "sched") || strcmp(ev->name, "switch") ||
	    !ev->pid_is_current || !ev->nr_fields || strcmp(ev->fields[0].name, "next_pid"))
		return false;
	ascii_comm(a, prev, comm);
	seq_buf_printf(&a->line, " prev_comm=%s prev_pid=%d", comm, prev);
	for (i = 1; i < ev->nr_fields; i++) {
		seq_buf_printf(&a->line, " %s=", ev->fields[i].name);
		ascii_field(&a->line, &ev->fields[i], rec, compact);
	}
	ascii_comm(a, next, comm);
	seq_buf_printf(&a->line, " ==> next_comm=%s next_pid=%d", comm, next);
	return true;
}

#if IS_ENABLED(CONFIG_KUNIT)
/**
 * ktrace_ascii_take_line() - the line formatted so far, for tests
 * @a: the reader
 * @buf: where to copy it, NUL-terminated
 * @size: bytes at @buf
 *
 * Empties the line.
 */
void ktrace_ascii_take_line(struct ktrace_ascii *a, char *buf, size_t size)
{
	strscpy(buf, a->line.buffer, min(size, seq_buf_used(&a->line) + 1));
	seq_buf_clear(&a->line);
	memset(a->line.buffer, 0, ASCII_LINE_MAX);
}
EXPORT_SYMBOL_IF_KUNIT(ktrace_ascii_take_line);
#endif

/**
 * ktrace_ascii_running() - the task running when an event was written
 * @run: the task running on the event's CPU, as printed so far
 * @start: if the event is the first printed of its subbuffer, the task
 *	running when the subbuffer began (its header's pid), else NULL
 * @ev: the event, NULL if unknown
 * @rec: its record
 * @prev: set to the task running before @rec, @start applied (the
 *	previous task of a sched:switch); may be NULL
 *
 * Called for the events of one CPU, of both channels, in time order as
 * far as the pipe can tell: a channel's subbuffer is printed once it is
 * complete, so a low-rate channel's events can come after the other's
 * later ones.  @start replaces @run if it is newer, or if nothing set
 * @run yet (at the same time, the event wins: it names the task on
 * purpose, where the header names whichever task was current when the
 * subbuffer began, maybe still the previous one within a switch); then
 * an event that names the running task (&ktrace_event.pid_is_current)
 * sets it, unless it is older than what set it already (a late event
 * must not undo a later switch).
 *
 * Return: the pid of the task running on the CPU at @rec.
 */
VISIBLE_IF_KUNIT int ktrace_ascii_running(struct ktrace_ascii_running *run,
					  const struct ktrace_ascii_running *start,
					  const struct ktrace_event *ev,
					  const struct ktrace_record *rec, int *prev)
{
	u64 pid;

	if (start && (start->clock > run->clock || !run->clock))
		*run = *start;
	if (prev)
		*prev = run->pid;
	if (ev && ev->pid_is_current && ev->nr_fields && rec->clock >= run->clock) {
		/* The first field, read as every number field is. */
		run->pid = ascii_raw(&ev->fields[0], rec, rec->id != KTRACE_ID_EXPANDED,
				     &pid) ? (u32)pid : 0;
		run->clock = rec->clock;
	}
	return run->pid;
}
EXPORT_SYMBOL_IF_KUNIT(ktrace_ascii_running);

static void ascii_format(struct ktrace_ascii *a, struct ktrace_ascii_cursor *c,
			 unsigned int ch, unsigned int cpu)
{
	const struct ktrace_record *rec = &c->rec;
	bool compact = rec->id != KTRACE_ID_EXPANDED;
	const struct ktrace_event *ev;
	char comm[TASK_COMM_LEN];
	u64 ns = ktrace_clock_ns(rec->clock);
	u32 rem;
	int pid, prev;

	ev = ktrace_event_lookup(ch, rec->id, rec->major, rec->minor);
	pid = ktrace_ascii_running(&a->running[cpu], c->start_new ? &c->start : NULL, ev, rec,
				   &prev);
	c->start_new = false;
	if (ev && !compact)
		ascii_learn(a, ev, rec);
	ascii_comm(a, pid, comm);
	ns = div_u64_rem(ns, NSEC_PER_SEC, &rem);
	seq_buf_printf(&a->line, "%llu.%09u %u %s-%d ", ns, rem, cpu, comm, pid);
	if (!ev) {
		if (compact)
			seq_buf_printf(&a->line, KTRACE_UNKNOWN_COMPACT "\n",
				       ktrace_channel_name(ch), rec->id, rec->payload);
		else
			seq_buf_printf(&a->line, KTRACE_UNKNOWN_EXPANDED "\n",
				       ktrace_channel_name(ch), rec->major, rec->minor,
				       rec->length);
		return;
	}
	seq_buf_printf(&a->line, "%s:%s", ev->group, ev->name);
	if (!ascii_switch(a, ev, rec, compact, prev, pid))
		ktrace_ascii_fields(a, ev, rec, compact);
	seq_buf_putc(&a->line, '\n');
	/* A line too long for the buffer is cut, but still a line. */
	if (seq_buf_has_overflowed(&a->line))
		a->line.buffer[ASCII_LINE_MAX - 1] = '\n';
}

/* Format the earliest waiting event; false if there is none. */
static bool ascii_next_line(struct ktrace_ascii *a)
{
	struct ktrace_ascii_cursor *best = NULL;
	unsigned int ch, cpu, best_ch = 0, best_cpu = 0;

	for (ch = 0; ch < ASCII_CHANNELS; ch++) {
		for (cpu = 0; cpu < a->nr_cpus; cpu++) {
			struct ktrace_ascii_cursor *c = &a->cur[ch * a->nr_cpus + cpu];

			if (!cpu_possible(cpu) || !ascii_advance(a, c, ch, cpu))
				continue;
			if (!best || c->rec.clock < best->rec.clock) {
				best = c;
				best_ch = ch;
				best_cpu = cpu;
			}
		}
	}
	if (!best)
		return false;
	seq_buf_clear(&a->line);
	a->done = 0;
	ascii_format(a, best, best_ch, best_cpu);
	best->have = false;
	return true;
}

/**
 * ktrace_ascii_open() - a new reader of the ascii pipe
 *
 * Return: the reader, or an ERR_PTR(-ENOMEM).
 */
struct ktrace_ascii *ktrace_ascii_open(void)
{
	struct ktrace_ascii *a;
	unsigned int i;
	char *line;

	a = kzalloc(sizeof(*a), GFP_KERNEL);
	if (!a)
		return ERR_PTR(-ENOMEM);
	a->nr_cpus = nr_cpu_ids;
	a->cur = kcalloc(ASCII_CHANNELS * a->nr_cpus, sizeof(*a->cur), GFP_KERNEL);
	if (!a->cur)
		goto free_a;
	a->running = kcalloc(a->nr_cpus, sizeof(*a->running), GFP_KERNEL);
	if (!a->running)
		goto free_cur;
	a->names = kvcalloc(ASCII_NAMES, sizeof(*a->names), GFP_KERNEL);
	if (!a->names)
		goto free_running;
	a->keys = kvcalloc(ASCII_KEYS, sizeof(*a->keys), GFP_KERNEL);
	if (!a->keys)
		goto free_names;
	/* Zeroed: no byte of a line comes from memory this reader did not write. */
	line = kvzalloc(ASCII_LINE_MAX, GFP_KERNEL);
	if (!line)
		goto free_keys;
	seq_buf_init(&a->line, line, ASCII_LINE_MAX);
	for (i = 0; i < ASCII_CHANNELS * a->nr_cpus; i++) {
		a->cur[i].copy = kvmalloc(ASCII_SUBBUF_MAX, GFP_KERNEL);
		if (!a->cur[i].copy)
			goto free_copies;
	}
	mutex_init(&a->lock);
	return a;

free_copies:
	while (i--)
		kvfree(a->cur[i].copy);
	kvfree(line);
free_keys:
	kvfree(a->keys);
free_names:
	kvfree(a->names);
free_running:
	kfree(a->running);
free_cur:
	kfree(a->cur);
free_a:
	kfree(a);
	return ERR_PTR(-ENOMEM);
}

/**
 * ktrace_ascii_release() - free a reader
 * @a: the reader
 */
void ktrace_ascii_release(struct ktrace_ascii *a)
{
	unsigned int i;

	for (i = 0; i < ASCII_CHANNELS * a->nr_cpus; i++)
		kvfree(a->cur[i].copy);
	kvfree(a->line.buffer);
	kvfree(a->keys);
	kvfree(a->names);
	kfree(a->running);
	kfree(a->cur);
	kfree(a);
}

/* Events in one copied subbuffer, since a time. */
static unsigned long ascii_count(const void *copy, size_t size, u64 since)
{
	struct ktrace_record rec;
	size_t pos = sizeof(struct ktrace_subbuf_header);
	unsigned long n = 0;
	u64 clock = 0;
	int ret;

	while (pos < size) {
		ret = ktrace_decode_record(copy + pos, size - pos, &clock, &rec);
		if (ret <= 0)
			break;
		pos += ret;
		n += rec.id != KTRACE_ID_TIMESTAMP && rec.clock >= since;
	}
	return n;
}

/*
 * The panic dump's bounds, whatever last= and the number of CPUs: a serial
 * console at 115200 baud prints about 150 lines a second, and the panic
 * (a reboot, kmsg_dump()) waits for the dump.
 */
#define ASCII_DUMP_MAX_LINES	20000
#define ASCII_DUMP_MAX_S	120

#if IS_ENABLED(CONFIG_KTRACE_TEST_EVENTS)
/* Tests only: ktrace.dump_fault_at=N: the dump faults after line N. */
#undef MODULE_PARAM_PREFIX
#define MODULE_PARAM_PREFIX "ktrace."
static unsigned int dump_fault_at;
module_param(dump_fault_at, uint, 0400);

/* A real fault, as a bug in the dump would cause: a store through NULL. */
static int *ascii_dump_fault_ptr;

static noinline void ascii_dump_fault(void)
{
	WRITE_ONCE(*ascii_dump_fault_ptr, 1);
}
#endif

/**
 * ktrace_ascii_dump() - print the last events to the console
 * @a: a reader, opened beforehand and used for nothing else
 * @last: events per CPU and channel
 *
 * For a panic, when user space will never read the trace: the last @last
 * events of every CPU's high and medium-rate streams, merged in time
 * order, as ascii lines at KERN_EMERG, as ftrace_dump_on_oops does, so
 * that they reach the serial console or netconsole.  Allocates nothing,
 * takes no lock (the other CPUs may have stopped in any: events are looked
 * up under RCU, task names copied without task_lock()) and consumes
 * nothing: call it with the writers frozen and the other CPUs stopped.
 * Only the current trace's events are printed, not what earlier ones left
 * in the buffers.  Touches the NMI watchdog per line, as ftrace_dump()
 * does: a slow serial console can take seconds.  Stops after
 * %ASCII_DUMP_MAX_LINES lines, half the printk ring (log_buf_len_get():
 * the oops and the panic message before the dump stay in it, for the
 * console flush and kmsg_dump()), or %ASCII_DUMP_MAX_S seconds, saying so.
 */
void ktrace_ascii_dump(struct ktrace_ascii *a, unsigned int last)
{
	unsigned int ch, cpu;
	unsigned long lines = 0, bytes = 0;
	u64 mono, start = local_clock();

	a->dump = true;
	ktrace_clock_get_ref(&a->since, &mono);
	for (ch = 0; ch < ASCII_CHANNELS; ch++) {
		for (cpu = 0; cpu < a->nr_cpus; cpu++) {
			struct ktrace_ascii_cursor *c = &a->cur[ch * a->nr_cpus + cpu];
			unsigned long n = 0;
			long back = 0;
			int ret;

			/* Walk back from the newest until @last events are covered. */
			while (n < last) {
				ret = ktrace_channel_peek_subbuf(ch, cpu, back, c->copy,
								 ASCII_SUBBUF_MAX);
				if (ret <= 0)
					break;
				n += ascii_count(c->copy, ret, a->since);
				back++;
			}
			c->back = back - 1;
			c->skip = n > last ? n - last : 0;
			c->pos = 0;
			c->size = 0;
			c->have = false;
		}
	}
	pr_emerg("ktrace: the last %u events per CPU and channel:\n", last);
	while (ascii_next_line(a)) {
		/* Half the printk ring at most: the oops before it stays there. */
		bytes += seq_buf_used(&a->line);
		if (lines == ASCII_DUMP_MAX_LINES || bytes > log_buf_len_get() / 2 ||
		    local_clock() - start > ASCII_DUMP_MAX_S * NSEC_PER_SEC) {
			pr_emerg("ktrace: dump cut after %lu events (%u lines, half the log buffer, %u s at most)\n",
				 lines, ASCII_DUMP_MAX_LINES, ASCII_DUMP_MAX_S);
			break;
		}
		pr_emerg("%.*s", (int)seq_buf_used(&a->line), a->line.buffer);
		lines++;
		touch_nmi_watchdog();
#if IS_ENABLED(CONFIG_KTRACE_TEST_EVENTS)
		if (unlikely(lines == dump_fault_at))
			ascii_dump_fault();
#endif
	}
	pr_emerg("ktrace: end of dump, %lu events\n", lines);
}

static bool ascii_delivered_since(unsigned long seen)
{
	return atomic_long_read(&ktrace_deliveries) != seen;
}

/**
 * ktrace_ascii_read() - read lines of the ascii pipe
 * @a: the reader
 * @ubuf: where to
 * @cnt: at most this many bytes
 * @nonblock: fail with -EAGAIN rather than wait for an event
 *
 * Return: the bytes read, whole lines unless @cnt is smaller than a line;
 * -EAGAIN, -EINTR or -EFAULT.
 */
ssize_t ktrace_ascii_read(struct ktrace_ascii *a, char __user *ubuf,
			  size_t cnt, bool nonblock)
{
	size_t copied = 0, len;
	unsigned long seen;
	long ret;

	if (mutex_lock_interruptible(&a->lock))
		return -EINTR;
	while (copied < cnt) {
		/* Read the count first: a delivery after it ends the wait. */
		seen = atomic_long_read(&ktrace_deliveries);
		if (a->done == seq_buf_used(&a->line) && !ascii_next_line(a)) {
			if (copied)
				break;
			if (nonblock) {
				copied = -EAGAIN;
				break;
			}
			ret = wait_event_interruptible_timeout(ktrace_readers_wait,
							       ascii_delivered_since(seen), HZ);
			if (ret < 0) {
				copied = -EINTR;
				break;
			}
			if (!ret)
				ktrace_channels_flush_live();
			continue;
		}
		len = min(cnt - copied, seq_buf_used(&a->line) - a->done);
		/* Whole lines only, unless not even one fits. */
		if (copied && len < seq_buf_used(&a->line) - a->done)
			break;
		if (copy_to_user(ubuf + copied, a->line.buffer + a->done, len)) {
			copied = copied ? copied : -EFAULT;
			break;
		}
		a->done += len;
		copied += len;
	}
	mutex_unlock(&a->lock);
	return copied;
}
