// SPDX-License-Identifier: GPL-2.0
/*
 * tools/ktrace: ktrace report and ktrace stat.
 *
 * report prints what the kernel's ascii pipe prints for the same events
 * (see kernel/trace/ktrace/ascii.c and Documentation/trace/ktrace.rst):
 *
 *   TIME CPU COMM-PID GROUP:NAME KEY=VALUE...
 *
 * Task names come from the trace, then the saved comms and the tasks
 * recorded with it (the kernel names tasks alive when the line is read).
 * SYMBOL fields print as the symbols section recorded with the trace says
 * (symbols.c: name+0xoff/0xsize [module], as the kernel's %pS), also when
 * it hid the addresses behind tokens; a value it does not name prints as
 * a hexadecimal address.
 *
 * With --json, one JSON object per event instead (kt_format_json()), the
 * values typed; with --realtime, CLOCK_REALTIME times from the clock
 * record's reference.
 */
#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "trace.h"

#define EXIT_USAGE	2

/* Make room in @b for @n more bytes and a NUL; false if it cannot. */
static bool buf_room(struct kt_buf *b, size_t n)
{
	size_t size = b->size ? b->size : 256;
	char *p;

	if (b->len + n < b->size)
		return true;
	if (!b->grow || n > SIZE_MAX / 4 - b->len)
		return false;
	while (size <= b->len + n)
		size *= 2;
	p = realloc(b->p, size);
	if (!p)
		return false;
	b->p = p;
	b->size = size;
	return true;
}

void kt_bufprintf(struct kt_buf *b, const char *fmt, ...)
{
	va_list ap;
	size_t room;
	int n;

	if (b->overflow)
		return;
	/* Where it fits, once; else again once there is room. */
	room = b->size > b->len ? b->size - b->len : 0;
	va_start(ap, fmt);
	n = vsnprintf(room ? b->p + b->len : NULL, room, fmt, ap);
	va_end(ap);
	if (n >= 0 && (size_t)n >= room) {
		if (room)
			b->p[b->len] = '\0';	/* nothing of it, rather than a part */
		if (!buf_room(b, n)) {
			b->overflow = true;
			return;
		}
		va_start(ap, fmt);
		vsnprintf(b->p + b->len, b->size - b->len, fmt, ap);
		va_end(ap);
	}
	if (n < 0) {
		b->overflow = true;
		return;
	}
	b->len += n;
}

/* One byte, the common case of the string escapers, without vsnprintf(). */
static void buf_putc(struct kt_buf *b, char ch)
{
	if (b->overflow || !buf_room(b, 1)) {
		b->overflow = true;
		return;
	}
	b->p[b->len++] = ch;
	b->p[b->len] = '\0';
}

static void put_string(struct kt_buf *b, const unsigned char *s, size_t len)
{
	size_t i;

	buf_putc(b, '"');
	for (i = 0; i < len; i++) {
		unsigned char ch = s[i];

		if (ch == '"' || ch == '\\')
			kt_bufprintf(b, "\\%c", ch);
		else if (ch == '\n')
			kt_bufprintf(b, "\\n");
		else if (ch == '\t')
			kt_bufprintf(b, "\\t");
		else if (ch < 0x20 || ch > 0x7e)
			kt_bufprintf(b, "\\x%02x", ch);
		else
			buf_putc(b, ch);
	}
	buf_putc(b, '"');
}

/* The length of the well-formed UTF-8 sequence at s, or 0. */
static size_t utf8_len(const unsigned char *s, size_t left)
{
	size_t n, i;
	uint32_t cp;

	if (s[0] < 0xc2 || s[0] > 0xf4)
		return 0;
	n = s[0] < 0xe0 ? 2 : s[0] < 0xf0 ? 3 : 4;
	if (n > left)
		return 0;
	cp = s[0] & (0x7f >> n);
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	/* Not overlong, no surrogates, at most U+10FFFF. */
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	return n;
}

/*
 * A JSON string: quotes, backslashes and control characters escaped,
 * well-formed UTF-8 as it is, any other byte as \u00XX (its Latin-1
 * character), so that every line is valid JSON whatever the trace holds.
 */
void kt_json_string(struct kt_buf *b, const unsigned char *s, size_t len)
{
	size_t i, n;

	buf_putc(b, '"');
	for (i = 0; i < len; i++) {
		unsigned char ch = s[i];

		n = ch >= 0x80 ? utf8_len(s + i, len - i) : 0;
		if (ch == '"' || ch == '\\') {
			kt_bufprintf(b, "\\%c", ch);
		} else if (ch == '\n') {
			kt_bufprintf(b, "\\n");
		} else if (ch == '\t') {
			kt_bufprintf(b, "\\t");
		} else if (ch >= 0x20 && ch < 0x7f) {
			buf_putc(b, ch);
		} else if (n) {
			kt_bufprintf(b, "%.*s", (int)n, (const char *)s + i);
			i += n - 1;
		} else {
			kt_bufprintf(b, "\\u%04x", ch);
		}
	}
	buf_putc(b, '"');
}

/*
 * A FLAGS value as ftrace's __print_flags(): the names of the table's
 * masks all of whose bits are set, in table order, each clearing its
 * bits, then the bits left in hexadecimal, joined by '|'; 0 as the name
 * of the value 0 if the table has one.
 */
static void put_flags(struct kt_buf *b, const struct kt_field *f, uint64_t v)
{
	const char *sep = "";
	unsigned int i;

	if (!v) {
		for (i = 0; i < f->nr_values; i++) {
			if (!f->values[i].value) {
				kt_bufprintf(b, "%s", f->values[i].name);
				return;
			}
		}
		kt_bufprintf(b, "0");
		return;
	}
	for (i = 0; i < f->nr_values && v; i++) {
		uint64_t mask = f->values[i].value;

		if (mask && (v & mask) == mask) {
			kt_bufprintf(b, "%s%s", sep, f->values[i].name);
			sep = "|";
			v &= ~mask;
		}
	}
	if (v)
		kt_bufprintf(b, "%s0x%llx", sep, (unsigned long long)v);
}

/*
 * KTRACE_FIELD_SATURATES: 1 if @v, the value of @f (sign-extended if
 * signed), is its largest, -1 if its smallest and signed, else 0.  @bits
 * is its width.
 */
static int saturated(const struct kt_field *f, unsigned int bits, uint64_t v)
{
	if (!(f->flags & KTRACE_FIELD_SATURATES) || !bits || bits > 64)
		return 0;
	if (f->flags & KTRACE_FIELD_SIGNED) {
		int64_t max = bits > 1 ? (int64_t)(~0ULL >> (65 - bits)) : 0;

		if ((int64_t)v == max)
			return 1;
		return (int64_t)v == -max - 1 ? -1 : 0;
	}
	return v == ~0ULL >> (64 - bits) ? 1 : 0;
}

/*
 * The value of field @f of @r: a number in *@val, the bytes of a string
 * field in *@s and *@len, or, for the displays that print as one word
 * (HEX, SYMBOL, DEV, a named ENUM value, FLAGS, a clamped number as
 * >=VALUE or <=VALUE), that word printed in @b.
 */
static enum kt_value field_value(struct kt_buf *b, const struct kt_trace *t,
				 const struct kt_field *f, const struct kt_record *r,
				 uint64_t *val, const unsigned char **s, size_t *len)
{
	const char *sym;
	bool compact = r->id != KTRACE_ID_EXPANDED;
	uint64_t v = 0, raw;
	unsigned int i, bits;
	int sat;

	if (f->display == KTRACE_DISPLAY_STRING && !compact) {
		size_t off = f->offset < r->length ? f->offset : r->length;
		size_t size = f->size ? f->size : r->length - off;

		if (f->offset + size > r->length)
			return KT_VALUE_NONE;
		*s = r->data + f->offset;
		*len = strnlen((const char *)r->data + f->offset, size);
		return KT_VALUE_STRING;
	}
	/*
	 * The metadata's fields are what the uapi allows (read_metadata()):
	 * 1 to 32 bits within a compact payload, 1, 2, 4 or 8 bytes.
	 */
	if (!kt_field_raw(f, r, &raw))
		return KT_VALUE_NONE;
	v = raw;
	bits = compact ? f->size : f->size * 8;
	if ((f->flags & KTRACE_FIELD_SIGNED) && bits < 64 && (v >> (bits - 1)) & 1)
		v |= ~0ULL << bits;
	*val = v;
	switch (f->display) {
	case KTRACE_DISPLAY_SYMBOL:
		/* The symbol saved with the trace, as the kernel's %pS. */
		sym = kt_symbol(t, v);
		if (sym)
			kt_bufprintf(b, "%s", sym);
		else
			kt_bufprintf(b, "0x%llx", (unsigned long long)v);
		return KT_VALUE_WORD;
	case KTRACE_DISPLAY_HEX:
		kt_bufprintf(b, "0x%llx", (unsigned long long)v);
		return KT_VALUE_WORD;
	case KTRACE_DISPLAY_DEV:
		/* The kernel's dev_t: MINORBITS is 20. */
		kt_bufprintf(b, "%u:%u", (unsigned int)(v >> 20) & 0xfff,
			     (unsigned int)v & 0xfffff);
		return KT_VALUE_WORD;
	case KTRACE_DISPLAY_FLAGS:
		put_flags(b, f, raw);
		return KT_VALUE_WORD;
	case KTRACE_DISPLAY_ENUM:
		for (i = 0; i < f->nr_values; i++) {
			if (f->values[i].value == v) {
				kt_bufprintf(b, "%s", f->values[i].name);
				return KT_VALUE_WORD;
			}
		}
		break;
	}
	/*
	 * A number (DEC, PID, an enum value without a name, a key printed as
	 * it is); clamped: >= the largest value, <= the smallest, a word.
	 */
	sat = saturated(f, bits, v);
	if (!sat)
		return f->flags & KTRACE_FIELD_SIGNED ? KT_VALUE_SIGNED : KT_VALUE_UNSIGNED;
	if (f->flags & KTRACE_FIELD_SIGNED)
		kt_bufprintf(b, "%s%lld", sat > 0 ? ">=" : "<=", (long long)v);
	else
		kt_bufprintf(b, ">=%llu", (unsigned long long)v);
	return KT_VALUE_WORD;
}

/*
 * Print field @f of @r: as the ascii pipe does, or with @json as a JSON
 * value: numbers for decimal and pid fields, strings for the rest.
 */
static void put_field(struct kt_buf *b, const struct kt_trace *t, const struct kt_field *f,
		      const struct kt_record *r, bool json)
{
	/* An enum name, a symbol (of any length the symbols section has), ... */
	struct kt_buf w = { .grow = true };
	const unsigned char *s = NULL;
	size_t len = 0;
	uint64_t v = 0;

	switch (field_value(&w, t, f, r, &v, &s, &len)) {
	case KT_VALUE_NONE:
		kt_bufprintf(b, json ? "null" : "?");
		break;
	case KT_VALUE_WORD:
		if (w.overflow)
			b->overflow = true;
		else if (json)
			kt_json_string(b, (const unsigned char *)w.p, w.len);
		else
			kt_bufprintf(b, "%s", w.p);
		break;
	case KT_VALUE_SIGNED:
		kt_bufprintf(b, "%lld", (long long)v);
		break;
	case KT_VALUE_UNSIGNED:
		kt_bufprintf(b, "%llu", (unsigned long long)v);
		break;
	case KT_VALUE_STRING:
		if (json)
			kt_json_string(b, s, len);
		else
			put_string(b, s, len);
		break;
	}
	free(w.p);
}

enum kt_value kt_field_text(struct kt_buf *b, const struct kt_trace *t,
			    const struct kt_field *f, const struct kt_record *r, uint64_t *val)
{
	const unsigned char *s = NULL;
	size_t len = 0;
	enum kt_value k = field_value(b, t, f, r, val, &s, &len);

	if (k == KT_VALUE_STRING)
		put_string(b, s, len);
	return k;
}

/* " NAME=VALUE", or with @json "NAME":VALUE after a comma unless *@first. */
static void put_named(struct kt_buf *b, const struct kt_trace *t, const struct kt_field *f,
		      const struct kt_record *r, bool json, bool *first)
{
	if (json) {
		kt_bufprintf(b, "%s", *first ? "" : ",");
		kt_json_string(b, (const unsigned char *)f->name, strlen(f->name));
		kt_bufprintf(b, ":");
	} else {
		kt_bufprintf(b, " %s=", f->name);
	}
	*first = false;
	put_field(b, t, f, r, json);
}

/*
 * The fields of @r, an event of the metadata, with put_named().  A KEY
 * field prints, in its place, the fields of the description its key names
 * (kt_key_named()) as in the description's own line: "block:rq_issue
 * dev=8:0 sector=2048 ..."; or "unknown:0x%08x" if it names none.  The
 * description's own KEY fields, if any, print as numbers.
 */
static void put_fields(struct kt_buf *b, const struct kt_trace *t, const struct kt_record *r,
		       bool json)
{
	const struct kt_event *ev = r->event;
	bool first = true;
	unsigned int i, j;

	for (i = 0; i < ev->nr_fields; i++) {
		const struct kt_field *f = &ev->fields[i];
		struct kt_record d;
		char word[32];
		uint64_t key;

		if (f->display != KTRACE_DISPLAY_KEY || !kt_field_raw(f, r, &key)) {
			put_named(b, t, f, r, json, &first);
			continue;
		}
		if (kt_key_named(t, r, i, &d)) {
			for (j = 0; j < d.event->nr_fields; j++)
				put_named(b, t, &d.event->fields[j], &d, json, &first);
			continue;
		}
		snprintf(word, sizeof(word), "unknown:0x%08x", (uint32_t)key);
		if (json) {
			kt_bufprintf(b, "%s", first ? "" : ",");
			kt_json_string(b, (const unsigned char *)f->name, strlen(f->name));
			kt_bufprintf(b, ":\"%s\"", word);
		} else {
			kt_bufprintf(b, " %s=%s", f->name, word);
		}
		first = false;
	}
}

void kt_time_str(char *buf, size_t size, uint64_t ns)
{
	snprintf(buf, size, "%llu.%09u", (unsigned long long)(ns / 1000000000),
		 (unsigned int)(ns % 1000000000));
}

/* The task name as report prints it: no spaces, so that it stays one word. */
static void comm_word(const struct kt_trace *t, int pid, char *comm, size_t size)
{
	char *p;

	snprintf(comm, size, "%s", kt_comm(t, pid));
	for (p = comm; *p; p++)
		if (*p == ' ')
			*p = '_';
}

/*
 * The text line of @r in @b, grown as needed; a line longer than the
 * kernel's ascii pipe prints (KT_LINE_MAX bytes with its newline) is cut
 * as it cuts it: its first KT_LINE_MAX - 1 bytes, then the newline.
 */
int kt_format_time(struct kt_trace *t, const struct kt_record *r, const char *time,
		   struct kt_buf *b)
{
	const struct kt_event *ev = r->event;
	char comm[17];

	b->len = 0;
	b->overflow = false;
	comm_word(t, r->pid, comm, sizeof(comm));
	kt_bufprintf(b, "%s %u %s-%d ", time, r->cpu, comm, r->pid);
	if (!ev && r->id != KTRACE_ID_EXPANDED)
		kt_bufprintf(b, "unknown:%s id=%u payload=0x%x", kt_channel_name(r->channel),
			     r->id, r->payload);
	else if (!ev)
		kt_bufprintf(b, "unknown:%s major=%u minor=%u length=%u",
			     kt_channel_name(r->channel), r->major, r->minor, r->length);
	else
		kt_bufprintf(b, "%s:%s", ev->group, ev->name);
	if (ev)
		put_fields(b, t, r, false);
	buf_putc(b, '\n');
	if (b->overflow)
		return -1;
	if (b->len > KT_LINE_MAX) {
		b->len = KT_LINE_MAX;
		b->p[b->len - 1] = '\n';
		b->p[b->len] = '\0';
	}
	return 0;
}

int kt_format(struct kt_trace *t, const struct kt_record *r, struct kt_buf *b)
{
	char time[32];

	kt_time_str(time, sizeof(time), r->ns);
	return kt_format_time(t, r, time, b);
}

/* ,"event":"GROUP:NAME", names of the trace, escaped as any string of it. */
static void put_json_event(struct kt_buf *b, const struct kt_event *ev)
{
	char name[2 * KTRACE_NAME_LEN + 2];

	snprintf(name, sizeof(name), "%s:%s", ev->group, ev->name);
	kt_bufprintf(b, ",\"event\":");
	kt_json_string(b, (const unsigned char *)name, strlen(name));
}

/*
 * One record as a JSON object, without a newline, in @b, grown as needed:
 * @time as a string (the first column of the text report), the task's
 * real name, the event as "group:name" and its fields as an object;
 * @extra, if not NULL, is inserted after the time ("\"realtime\":\"...\",").
 * Never cut short: 0, or -1 when out of memory.
 */
int kt_format_json(struct kt_trace *t, const struct kt_record *r, const char *time,
		   const char *extra, struct kt_buf *b)
{
	const struct kt_event *ev = r->event;
	const char *comm = kt_comm(t, r->pid);

	b->len = 0;
	b->overflow = false;
	kt_bufprintf(b, "{\"time\":\"%s\",%s\"cpu\":%u,\"pid\":%d,\"comm\":", time,
		     extra ? extra : "", r->cpu, r->pid);
	kt_json_string(b, (const unsigned char *)comm, strlen(comm));
	if (!ev)
		kt_bufprintf(b, ",\"event\":\"unknown:%s\"", kt_channel_name(r->channel));
	if (!ev && r->id != KTRACE_ID_EXPANDED)
		kt_bufprintf(b, ",\"fields\":{\"id\":%u,\"payload\":\"0x%x\"}", r->id,
			     r->payload);
	else if (!ev)
		kt_bufprintf(b, ",\"fields\":{\"major\":%u,\"minor\":%u,\"length\":%u}",
			     r->major, r->minor, r->length);
	else
		put_json_event(b, ev);
	if (ev) {
		kt_bufprintf(b, ",\"fields\":{");
		put_fields(b, t, r, true);
	}
	kt_bufprintf(b, "%s}", ev ? "}" : "");
	return b->overflow ? -1 : 0;
}

/* The time bases of report's time column, --from and --to. */
enum time_base { TB_MONO, TB_REAL, TB_REAL_ISO };

struct filter {
	long *cpus, *pids;
	unsigned int nr_cpus, nr_pids;
	char **comms;
	unsigned int nr_comms;
	/* Which -c, -p items some event of the trace has: warned of if not. */
	bool *cpu_hit, *pid_hit, *comm_hit;
	char **events;
	unsigned int nr_events;
	uint64_t from, to;
	struct kt_buf line;		/* grown as lines need */
	bool relative, json;
	enum time_base base;
	/* CLOCK_REALTIME - CLOCK_MONOTONIC, as a sign and a magnitude: all of u64 */
	uint64_t real_mag;
	bool real_neg;
	int64_t rel_from, rel_to;
	uint64_t origin;
	bool have_origin;
	/*
	 * Several traces: times are CLOCK_REALTIME plus each file's
	 * offset (kt_real_ns()), and a HOST column follows the time.
	 */
	bool multi;
};

/* The trigger record: ktrace:trigger, written when a trigger fires. */
static bool is_trigger(const struct kt_record *r)
{
	return r->event && !strcmp(r->event->group, "ktrace") &&
	       !strcmp(r->event->name, "trigger");
}

/* The time of @r that report compares and prints (monotonic or merged). */
static uint64_t rec_ns(const struct filter *f, const struct kt_trace *t,
		       const struct kt_record *r)
{
	int64_t v;

	if (!f->multi)
		return kt_mono_ns(t, r->ns);
	v = kt_real_ns(t, r->ns);
	return v < 0 ? 0 : v;
}

static int find_trigger(struct kt_trace *t, const struct kt_record *r, void *arg)
{
	struct filter *f = arg;

	if (!is_trigger(r))
		return 0;
	f->origin = rec_ns(f, t, r);
	f->have_origin = true;
	return 1;
}

static int parse_time(const char *s, uint64_t *ns);

/* @e, GROUP or GROUP:NAME, names the event @group:@name. */
static bool event_is(const char *e, const char *group, const char *name)
{
	size_t glen = strlen(group);

	return !strcmp(e, group) ||
	       (!strncmp(e, group, glen) && e[glen] == ':' && !strcmp(e + glen + 1, name));
}

static bool event_matches(const struct filter *f, const struct kt_record *r)
{
	unsigned int i;

	if (!f->nr_events)
		return true;
	for (i = 0; i < f->nr_events; i++) {
		if (r->event ? event_is(f->events[i], r->event->group, r->event->name) :
		    event_is(f->events[i], "unknown", kt_channel_name(r->channel)))
			return true;
	}
	return false;
}

/* @name, a -p item, names the task @pid: as report prints it or as it is. */
static bool comm_is(struct kt_trace *t, int pid, const char *name)
{
	char comm[17];

	if (!strcmp(kt_comm(t, pid), name))
		return true;
	comm_word(t, pid, comm, sizeof(comm));
	return !strcmp(comm, name);
}

static bool task_matches(const struct filter *f, struct kt_trace *t, const struct kt_record *r)
{
	unsigned int i;

	if (!f->nr_pids && !f->nr_comms)
		return true;
	for (i = 0; i < f->nr_pids; i++)
		if (r->pid == f->pids[i])
			return true;
	for (i = 0; i < f->nr_comms; i++)
		if (comm_is(t, r->pid, f->comms[i]))
			return true;
	return false;
}

static bool cpu_matches(const struct filter *f, const struct kt_record *r)
{
	unsigned int i;

	for (i = 0; i < f->nr_cpus; i++)
		if (r->cpu == f->cpus[i])
			return true;
	return !f->nr_cpus;
}

/* Note the -c and -p items that @r has, whatever the other filters say. */
static void note_hits(struct filter *f, struct kt_trace *t, const struct kt_record *r)
{
	unsigned int i;

	for (i = 0; i < f->nr_cpus; i++)
		f->cpu_hit[i] = f->cpu_hit[i] || r->cpu == f->cpus[i];
	for (i = 0; i < f->nr_pids; i++)
		f->pid_hit[i] = f->pid_hit[i] || r->pid == f->pids[i];
	for (i = 0; i < f->nr_comms; i++)
		f->comm_hit[i] = f->comm_hit[i] || comm_is(t, r->pid, f->comms[i]);
}

/* A warning for each -c or -p item that no event of the trace has. */
static void warn_misses(const struct filter *f, const char *path)
{
	unsigned int i;

	for (i = 0; i < f->nr_cpus; i++)
		if (!f->cpu_hit[i])
			fprintf(stderr,
				"ktrace report: %s: warning: -c %ld: no event on this CPU\n",
				path, f->cpus[i]);
	for (i = 0; i < f->nr_pids; i++)
		if (!f->pid_hit[i])
			fprintf(stderr,
				"ktrace report: %s: warning: -p %ld: no event of this pid\n",
				path, f->pids[i]);
	for (i = 0; i < f->nr_comms; i++)
		if (!f->comm_hit[i])
			fprintf(stderr,
				"ktrace report: %s: warning: -p %s: no event of a task of this name\n",
				path, f->comms[i]);
}

/*
 * CLOCK_REALTIME of a CLOCK_MONOTONIC time of the trace, saturated at 0
 * and UINT64_MAX: the references can be anything a file holds.
 */
static uint64_t real_ns(const struct filter *f, uint64_t ns)
{
	if (f->real_neg)
		return ns > f->real_mag ? ns - f->real_mag : 0;
	return ns > UINT64_MAX - f->real_mag ? UINT64_MAX : ns + f->real_mag;
}

/* A CLOCK_REALTIME time as SECONDS.NANOSECONDS, or in ISO 8601 UTC. */
static void real_str(const struct filter *f, char *buf, size_t size, uint64_t ns)
{
	time_t sec = ns / 1000000000;
	struct tm tm;

	if (f->base != TB_REAL_ISO || !gmtime_r(&sec, &tm)) {
		kt_time_str(buf, size, ns);
		return;
	}
	snprintf(buf, size, "%04d-%02d-%02dT%02d:%02d:%02d.%09uZ", tm.tm_year + 1900,
		 tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec,
		 (unsigned int)(ns % 1000000000));
}

static int report_one(struct kt_trace *t, const struct kt_record *r, void *arg)
{
	struct filter *f = arg;
	uint64_t ns = rec_ns(f, t, r);
	int64_t rel = (int64_t)(ns - f->origin);
	uint64_t mag = rel < 0 ? -(uint64_t)rel : (uint64_t)rel;
	uint64_t at = f->base == TB_MONO || f->multi ? ns : real_ns(f, ns);
	char time[160], extra[256] = "";
	size_t len;

	note_hits(f, t, r);
	if (!cpu_matches(f, r) || at < f->from || at > f->to || !event_matches(f, r) ||
	    !task_matches(f, t, r))
		return 0;
	if (f->relative && (rel < f->rel_from || rel > f->rel_to))
		return 0;
	if (f->relative) {
		/* JSON: the wall-clock time too, if asked for. */
		if (f->base != TB_MONO) {
			real_str(f, time, sizeof(time), f->multi ? ns : real_ns(f, ns));
			snprintf(extra, sizeof(extra), "\"realtime\":\"%s\",", time);
		}
		/* The time relative to the first trigger record: -S.N before, +S.N from it. */
		snprintf(time, sizeof(time), "%c%llu.%09u", rel < 0 ? '-' : '+',
			 (unsigned long long)(mag / 1000000000), (unsigned int)(mag % 1000000000));
	} else if (f->base != TB_MONO) {
		real_str(f, time, sizeof(time), at);
	} else {
		kt_time_str(time, sizeof(time), ns);
	}
	if (f->multi) {
		/* The host is a word (kt_set_open()), JSON-safe but for quotes. */
		len = strlen(extra);
		if (f->json)
			snprintf(extra + len, sizeof(extra) - len, "\"host\":\"%s\",", t->host);
		else
			snprintf(time + strlen(time), sizeof(time) - strlen(time), " %s", t->host);
	}
	if (f->json) {
		if (kt_format_json(t, r, time, extra, &f->line))
			return -1;
		buf_putc(&f->line, '\n');
	} else if (kt_format_time(t, r, time, &f->line)) {
		return -1;
	}
	return fwrite(f->line.p, 1, f->line.len, stdout) != f->line.len ? -1 : 0;
}

/* [+-]SECONDS[.FRACTION] to signed nanoseconds; -1 if malformed. */
static int parse_rel_time(const char *s, int64_t *ns)
{
	bool neg = *s == '-';
	uint64_t v;

	if (*s == '-' || *s == '+')
		s++;
	if (parse_time(s, &v) || v > INT64_MAX)
		return -1;
	*ns = neg ? -(int64_t)v : (int64_t)v;
	return 0;
}

/* SECONDS[.FRACTION] to nanoseconds; -1 if malformed. */
static int parse_time(const char *s, uint64_t *ns)
{
	unsigned long long sec = 0, frac = 0, scale = 1000000000;
	char *end;

	if (*s < '0' || *s > '9')
		return -1;
	sec = strtoull(s, &end, 10);
	if (sec > 18000000000ULL)
		return -1;
	if (*end == '.') {
		for (end++; *end >= '0' && *end <= '9'; end++) {
			if (scale > 1) {
				scale /= 10;
				frac += (*end - '0') * scale;
			}
		}
	}
	if (*end)
		return -1;
	*ns = sec * 1000000000 + frac;
	return 0;
}

static long parse_num(const char *s, long max)
{
	char *end;
	long v;

	if (*s < '0' || *s > '9')
		return -1;
	v = strtol(s, &end, 10);
	return *end || v > max ? -1 : v;
}

/* Parse --from or --to, absolute or (-r) relative; true after a message if bad. */
static bool bad_time(const struct filter *f, const char *s, uint64_t *abs, int64_t *rel)
{
	if (!s || !(f->relative ? parse_rel_time(s, rel) : parse_time(s, abs)))
		return false;
	fprintf(stderr, "ktrace report: bad time '%s': want %sSECONDS[.FRACTION]\n", s,
		f->relative ? "[+-]" : "");
	return true;
}

/* Append to a list; false when out of memory. */
static bool add_long(long **list, unsigned int *nr, long v)
{
	long *l = realloc(*list, (*nr + 1) * sizeof(*l));

	if (!l)
		return false;
	l[(*nr)++] = v;
	*list = l;
	return true;
}

static bool add_str(char ***list, unsigned int *nr, char *v)
{
	char **l = realloc(*list, (*nr + 1) * sizeof(*l));

	if (!l)
		return false;
	l[(*nr)++] = v;
	*list = l;
	return true;
}

/* All digits: a pid, a CPU. */
static bool all_digits(const char *s)
{
	return *s && strspn(s, "0123456789") == strlen(s);
}

/*
 * -c, -p and -e: comma-separated lists, the option repeatable; a list of
 * no item (-p '', -p ,) is an error, not "no filter".  A -p item of
 * digits only is a pid, any other a task name (7z, 2to3).  Events as
 * GROUP, GROUP:NAME or GROUP/NAME, kept as GROUP or GROUP:NAME.  Returns
 * 0, 1 when out of memory, or EXIT_USAGE after a message.
 */
static int parse_list(struct filter *f, int opt, char *arg)
{
	char *tok, *save = NULL, *p;
	unsigned int items = 0;
	long v;

	for (tok = strtok_r(arg, ",", &save); tok; tok = strtok_r(NULL, ",", &save), items++) {
		switch (opt) {
		case 'c':
			v = all_digits(tok) ? parse_num(tok, KTF_MAX_CPUS - 1) : -1;
			if (v < 0) {
				fprintf(stderr, "ktrace report: bad CPU '%s'\n", tok);
				return EXIT_USAGE;
			}
			if (!add_long(&f->cpus, &f->nr_cpus, v))
				return 1;
			break;
		case 'p':
			if (all_digits(tok)) {
				v = parse_num(tok, INT32_MAX);
				if (v < 0) {
					fprintf(stderr, "ktrace report: bad pid '%s'\n", tok);
					return EXIT_USAGE;
				}
				if (!add_long(&f->pids, &f->nr_pids, v))
					return 1;
			} else if (!add_str(&f->comms, &f->nr_comms, tok)) {
				return 1;
			}
			break;
		default:
			p = strchr(tok, '/');
			if (p)
				*p = ':';
			if (!*tok || *tok == ':' || tok[strlen(tok) - 1] == ':') {
				fprintf(stderr,
					"ktrace report: bad event '%s': want GROUP, GROUP:NAME or GROUP/NAME\n",
					tok);
				return EXIT_USAGE;
			}
			if (!add_str(&f->events, &f->nr_events, tok))
				return 1;
		}
	}
	if (!items) {
		fprintf(stderr, "ktrace report: -%c '%s': an empty list: want %s\n", opt, arg,
			opt == 'c' ? "CPU,..." : opt == 'p' ? "PID|COMM,..." : "EVENT,...");
		return EXIT_USAGE;
	}
	return 0;
}

/* Every -e names an event or a group of the trace's metadata (or unknown). */
static int check_events(const struct filter *f, const struct kt_trace *t, bool quiet)
{
	unsigned int i, j, k;
	const struct kt_event *ev;

	for (i = 0; i < f->nr_events; i++) {
		const char *e = f->events[i];
		bool found = false;

		for (j = 0; j < KTRACE_NR_CHANNELS && !found; j++)
			found = event_is(e, "unknown", kt_channel_name(j));
		for (j = 0; j < 256 && !found; j++) {
			for (k = 0; k < 256 && !found; k++) {
				ev = t->expanded[j][k];
				found = ev && event_is(e, ev->group, ev->name);
				ev = j < KTRACE_NR_CHANNELS && k <= KTRACE_ID_COMPACT_MAX ?
				     t->compact[j][k] : NULL;
				found = found || (ev && event_is(e, ev->group, ev->name));
			}
		}
		if (!found) {
			if (!quiet)
				fprintf(stderr,
					"ktrace report: %s: no event or group '%s' in the trace's metadata\n",
					t->path, e);
			return EXIT_USAGE;
		}
	}
	return 0;
}

#define DEFAULT_FILE	"ktrace.dat"

static const char report_help[] =
	"usage: ktrace report [-c CPU,...] [-p PID|COMM,...] [-e EVENT,...] [--from SEC]\n"
	"                     [--to SEC] [-r] [--realtime[=iso]] [--json]\n"
	"                     [--offset FILE=NS]... [FILE...]\n"
	"\n"
	"Print the events of a trace file (by default " DEFAULT_FILE "), one per line,\n"
	"merged across CPUs in time order, as /sys/kernel/debug/ktrace/ascii prints them:\n"
	"  TIME CPU COMM-PID GROUP:NAME KEY=VALUE...\n"
	"\n"
	"  -c, --cpu LIST       only events of these CPUs\n"
	"  -p, --pid LIST       only events while these tasks ran: pids (digits only),\n"
	"                       or names, as report prints them or as they are\n"
	"  -e, --event LIST     only these events: GROUP, GROUP:NAME or GROUP/NAME\n"
	"                       (unknown, unknown:CHANNEL for events without metadata)\n"
	"      --from SEC       only events at or after this time (in the time base of\n"
	"                       the TIME column: CLOCK_MONOTONIC seconds by default)\n"
	"      --to SEC         only events at or before this time\n"
	"  -r, --relative       times relative to the first trigger record (ktrace:trigger),\n"
	"                       -S.N before it and +S.N from it; --from and --to are then\n"
	"                       relative too and may be negative\n"
	"      --realtime[=iso] CLOCK_REALTIME times, seconds since the epoch or ISO 8601\n"
	"                       UTC; with -r, times stay relative and a first line\n"
	"                       '# trigger at TIME' gives the trigger's wall-clock time\n"
	"      --json           one JSON object per event (see ktrace(1))\n"
	"      --offset FILE=NS add NS nanoseconds (signed) to the times of FILE\n"
	"  -h, --help           this help\n"
	"\n"
	"Several files (of several machines, or several recordings of one) are merged\n"
	"on CLOCK_REALTIME from each trace's clock reference, plus its offset; a HOST\n"
	"column (the machine's nodename) follows the time, and times are CLOCK_REALTIME.\n"
	"\n"
	"Lists are comma-separated, not empty; -c, -p and -e may be repeated.  A -c\n"
	"or -p item that no event of the trace has is warned of on stderr.\n";

static void filter_free(struct filter *f)
{
	free(f->line.p);
	free(f->cpus);
	free(f->pids);
	free(f->comms);
	free(f->events);
	free(f->cpu_hit);
	free(f->pid_hit);
	free(f->comm_hit);
}

int cmd_report(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "cpu", required_argument, NULL, 'c' },
		{ "pid", required_argument, NULL, 'p' },
		{ "event", required_argument, NULL, 'e' },
		{ "from", required_argument, NULL, 'F' },
		{ "to", required_argument, NULL, 'T' },
		{ "relative", no_argument, NULL, 'r' },
		{ "realtime", optional_argument, NULL, 'R' },
		{ "json", no_argument, NULL, 'j' },
		{ "offset", required_argument, NULL, 'O' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct filter f = { .to = UINT64_MAX, .rel_from = INT64_MIN, .rel_to = INT64_MAX };
	const char *from = NULL, *to = NULL, *path;
	struct kt_set set = { 0 };
	struct kt_trace *t;
	unsigned int i, bad;
	char real[64];
	int c, ret;

	while ((c = getopt_long(argc, argv, "c:p:e:rh", opts, NULL)) != -1) {
		switch (c) {
		case 'c':
		case 'p':
		case 'e':
			ret = parse_list(&f, c, optarg);
			if (ret) {
				filter_free(&f);
				return ret;
			}
			break;
		case 'F':
			from = optarg;
			break;
		case 'T':
			to = optarg;
			break;
		case 'r':
			f.relative = true;
			break;
		case 'R':
			if (optarg && strcmp(optarg, "iso")) {
				fprintf(stderr,
					"ktrace report: bad --realtime '%s': want --realtime or --realtime=iso\n",
					optarg);
				filter_free(&f);
				return EXIT_USAGE;
			}
			f.base = optarg ? TB_REAL_ISO : TB_REAL;
			break;
		case 'j':
			f.json = true;
			break;
		case 'O':
			ret = kt_set_offset(&set, "report", optarg);
			if (ret) {
				kt_set_close(&set);
				filter_free(&f);
				return ret;
			}
			break;
		case 'h':
			fputs(report_help, stdout);
			kt_set_close(&set);
			filter_free(&f);
			return 0;
		default:
			fputs(report_help, stderr);
			kt_set_close(&set);
			filter_free(&f);
			return EXIT_USAGE;
		}
	}
	/* Several files: CLOCK_REALTIME times, unless ISO 8601 was asked for. */
	f.multi = argc - optind > 1;
	if (f.multi && f.base == TB_MONO)
		f.base = TB_REAL;
	if (bad_time(&f, from, &f.from, &f.rel_from) || bad_time(&f, to, &f.to, &f.rel_to)) {
		kt_set_close(&set);
		filter_free(&f);
		return EXIT_USAGE;
	}
	f.line.grow = true;
	f.cpu_hit = calloc(f.nr_cpus + 1, sizeof(bool));
	f.pid_hit = calloc(f.nr_pids + 1, sizeof(bool));
	f.comm_hit = calloc(f.nr_comms + 1, sizeof(bool));
	ret = !f.cpu_hit || !f.pid_hit || !f.comm_hit;
	if (ret)
		fprintf(stderr, "ktrace report: out of memory\n");
	else
		ret = kt_set_open(&set, "report", argc - optind, argv + optind);
	if (ret) {
		kt_set_close(&set);
		filter_free(&f);
		return ret;
	}
	t = &set.traces[0];
	path = f.multi ? "the traces" : t->path;
	/* An event must be in the metadata of one of the traces at least. */
	for (i = 0, bad = 0; i < set.nr && !ret; i++) {
		ret = check_events(&f, &set.traces[i], f.multi);
		bad += !!ret;
		if (f.multi && ret && bad < set.nr)
			ret = 0;
	}
	if (ret && f.multi)
		fprintf(stderr,
			"ktrace report: an event of -e is in none of the traces' metadata\n");
	if (!ret && f.base != TB_MONO && !f.multi) {
		if (!t->have_clock || !t->clock.ref_real_ns) {
			fprintf(stderr,
				"ktrace report: %s: no CLOCK_REALTIME reference in the trace's clock record\n",
				path);
			ret = 1;
		}
		f.real_neg = t->clock.ref_real_ns < t->clock.ref_mono_ns;
		f.real_mag = f.real_neg ? t->clock.ref_mono_ns - t->clock.ref_real_ns :
			     t->clock.ref_real_ns - t->clock.ref_mono_ns;
	}
	if (!ret && f.relative && kt_set_merge(&set, find_trigger, &f) < 0) {
		/* find_trigger() stops the merge with 1: only -1 is an error. */
		fprintf(stderr, "ktrace report: %s: out of memory looking for the trigger\n",
			path);
		ret = 1;
	}
	if (!ret && f.relative) {
		if (!f.have_origin) {
			fprintf(stderr, "ktrace report: %s: no trigger record (ktrace:trigger)\n",
				path);
			ret = 1;
		}
		/* Relative times, the trigger's wall-clock time once. */
		if (!ret && f.base != TB_MONO && !f.json) {
			real_str(&f, real, sizeof(real), real_ns(&f, f.origin));
			printf("# trigger at %s\n", real);
		}
	}
	if (!ret) {
		ret = kt_set_merge(&set, report_one, &f);
		if (ret || fflush(stdout)) {
			fprintf(stderr, "ktrace report: %s\n",
				ferror(stdout) ? "write error" : "out of memory");
			ret = 1;
		} else {
			warn_misses(&f, path);
		}
	}
	kt_set_close(&set);
	filter_free(&f);
	return ret;
}

#define STAT_TRIGGERS	16

struct stat_acc {
	unsigned long long events, unknown;
	uint64_t first, last;
	unsigned long long *per_cpu;
	unsigned int nr_cpus;
	char *triggers[STAT_TRIGGERS];
	unsigned int nr_triggers;
	bool json;
};

static int stat_one(struct kt_trace *t, const struct kt_record *r, void *arg)
{
	struct stat_acc *a = arg;

	if (!a->events)
		a->first = r->ns;
	a->last = r->ns;
	a->events++;
	if (r->event)
		r->event->count++;
	else
		a->unknown++;
	if (r->cpu < a->nr_cpus)
		a->per_cpu[r->cpu]++;
	if (is_trigger(r) && a->nr_triggers < STAT_TRIGGERS) {
		struct kt_buf line = { .grow = true };
		char time[32];

		kt_time_str(time, sizeof(time), r->ns);
		if (a->json ? kt_format_json(t, r, time, NULL, &line) : kt_format(t, r, &line)) {
			free(line.p);
			return -1;
		}
		a->triggers[a->nr_triggers++] = line.p;
	}
	return 0;
}

static void print_time(const char *what, uint64_t ns)
{
	printf("%s%llu.%09u\n", what, (unsigned long long)(ns / 1000000000),
	       (unsigned int)(ns % 1000000000));
}

/* A JSON string, whole (escaped in a buffer grown to fit); false if out of memory. */
static bool json_bytes(const char *s, size_t len)
{
	struct kt_buf b = { .grow = true };
	bool ok;

	kt_json_string(&b, (const unsigned char *)s, len);
	ok = !b.overflow;
	fputs(ok ? b.p : "\"\"", stdout);
	free(b.p);
	return ok;
}

static bool json_str(const char *s, size_t max)
{
	return json_bytes(s, strnlen(s, max));
}

static void json_time(const char *key, uint64_t ns)
{
	printf(",\n \"%s\": \"%llu.%09u\"", key, (unsigned long long)(ns / 1000000000),
	       (unsigned int)(ns % 1000000000));
}

/*
 * One entry of "events_per_type": an object, as two types may share a
 * GROUP:NAME (on different channels, compact and expanded).
 */
static void json_type(const struct kt_event *ev, bool *first)
{
	char name[2 * KTRACE_NAME_LEN + 2];

	if (!ev || !ev->count)
		return;
	snprintf(name, sizeof(name), "%s:%s", ev->group, ev->name);
	printf("%s\n  {\"event\": ", *first ? "" : ",");
	json_str(name, sizeof(name));
	printf(", \"channel\": \"%s\", \"kind\": \"%s\", \"count\": %llu}",
	       kt_channel_name(ev->channel),
	       ev->kind == KTRACE_EVENT_EXPANDED ? "expanded" : "compact", ev->count);
	*first = false;
}

/* The text lines of @text as a JSON array of strings, each whole; false if out of memory. */
static bool json_lines(const char *text)
{
	bool first = true, ok = true;

	printf("[");
	while (text && *text) {
		size_t len = strcspn(text, "\n");

		if (len) {
			printf("%s\n  ", first ? "" : ",");
			ok = json_bytes(text, len) && ok;
			first = false;
		}
		text += len + !!text[len];
	}
	printf("%s]", first ? "" : "\n ");
	return ok;
}

/* What stat prints, as one JSON document. */
static bool stat_json(struct kt_trace *t, struct stat_acc *a)
{
	bool first = true, ok;
	unsigned int i, j;

	printf("{\"file\": ");
	json_str(t->path, 4096);
	printf(",\n \"machine\": ");
	if (t->have_trace) {
		printf("{\"nodename\": ");
		json_str(t->machine.nodename, sizeof(t->machine.nodename));
		printf(", \"release\": ");
		json_str(t->machine.release, sizeof(t->machine.release));
		printf(", \"machine\": ");
		json_str(t->machine.machine, sizeof(t->machine.machine));
		printf(", \"nr_cpus\": %u}", t->machine.nr_cpus);
	} else {
		printf("null");
	}
	printf(",\n \"clock\": ");
	if (t->have_clock) {
		printf("{\"name\": ");
		json_str(t->clock.name, sizeof(t->clock.name));
		printf(", \"freq_hz\": %llu, \"shift\": %u, \"ref_clock\": %llu, ",
		       (unsigned long long)t->clock.freq_hz, t->clock.shift,
		       (unsigned long long)t->clock.ref_clock);
		printf("\"ref_mono_ns\": %llu, \"ref_real_ns\": %llu}",
		       (unsigned long long)t->clock.ref_mono_ns,
		       (unsigned long long)t->clock.ref_real_ns);
	} else {
		printf("null");
	}
	printf(",\n \"events\": %llu", a->events);
	if (a->events) {
		json_time("first", a->first);
		json_time("last", a->last);
		json_time("span", a->last - a->first);
	}
	printf(",\n \"events_per_type\": [");
	for (i = 0; i < 256; i++)
		for (j = 0; j < 256; j++)
			json_type(t->expanded[i][j], &first);
	for (i = 0; i < KTRACE_NR_CHANNELS; i++)
		for (j = 0; j <= KTRACE_ID_COMPACT_MAX; j++)
			json_type(t->compact[i][j], &first);
	if (a->unknown)
		printf("%s\n  {\"event\": \"unknown\", \"count\": %llu}", first ? "" : ",",
		       a->unknown);
	printf("%s],\n \"events_per_cpu\": {", first && !a->unknown ? "" : "\n ");
	for (i = 0, first = true; i < a->nr_cpus; i++) {
		if (a->per_cpu[i]) {
			printf("%s\"%u\": %llu", first ? "" : ", ", i, a->per_cpu[i]);
			first = false;
		}
	}
	printf("},\n \"streams\": [");
	for (i = 0; i < t->nr_streams; i++) {
		unsigned long long gfirst, glast, goff;
		struct kt_stream_stats st;
		char *gaps = NULL, *p;
		size_t len = 0;
		FILE *g = open_memstream(&gaps, &len);

		kt_stream_stats(t, &t->streams[i], &st, g);
		if (g)
			fclose(g);
		printf("%s\n  {\"cpu\": %u, \"channel\": \"%s\", \"subbufs\": %llu, ", i ? "," : "",
		       t->streams[i].cpu, kt_channel_name(t->streams[i].channel), st.subbufs);
		printf("\"first_seq\": %llu, \"last_seq\": %llu, \"events\": %llu, ",
		       st.first_seq, st.last_seq, st.events);
		printf("\"dropped\": %llu, \"overwritten\": %llu, \"lost_subbufs\": %llu, ",
		       st.dropped, st.overwritten, st.lost_subbufs);
		printf("\"mode\": \"%s\", \"gaps\": [", st.overwrite ? "overwrite" : "drop");
		/* Its lines: "  gap: CH CPU N: subbuffers A to B missing (offset O)" */
		for (p = gaps, first = true; p && (p = strstr(p, "subbuffers ")); p++) {
			if (sscanf(p, "subbuffers %llu to %llu missing (offset %llu)", &gfirst,
				   &glast, &goff) != 3)
				continue;
			printf("%s{\"first\": %llu, \"last\": %llu, \"offset\": %llu}",
			       first ? "" : ", ", gfirst, glast, goff);
			first = false;
		}
		printf("]}");
		free(gaps);
	}
	printf("%s],\n \"triggers\": ", t->nr_streams ? "\n " : "");
	ok = json_lines(t->text[KTF_TRIGGERS]);
	printf(",\n \"trigger_records\": [");
	for (i = 0; i < a->nr_triggers; i++)
		printf("%s\n  %s", i ? "," : "", a->triggers[i]);
	printf("%s]}\n", a->nr_triggers ? "\n " : "");
	return ok;
}

static const char stat_help[] =
	"usage: ktrace stat [--json] [FILE]\n"
	"\n"
	"Summarize a trace file (by default " DEFAULT_FILE "): the machine and clock,\n"
	"the time span, events per type and per CPU, and per stream the subbuffers,\n"
	"the events lost (dropped, overwritten) and where sequence numbers show gaps;\n"
	"the armed triggers and the trigger records (the first 16).\n"
	"\n"
	"      --json           the same as one JSON document (see ktrace(1))\n"
	"  -h, --help           this help\n";

int cmd_stat(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct stat_acc a = { 0 };
	struct kt_trace t;
	unsigned int i, j;
	int c, ret;

	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		if (c == 'j') {
			a.json = true;
			continue;
		}
		if (c == 'h') {
			fputs(stat_help, stdout);
			return 0;
		}
		fputs(stat_help, stderr);
		return EXIT_USAGE;
	}
	if (optind < argc - 1) {
		fprintf(stderr, "ktrace stat: one trace file only\n");
		return EXIT_USAGE;
	}
	if (kt_open(&t, optind == argc ? DEFAULT_FILE : argv[optind]))
		return 1;
	for (i = 0; i < t.nr_streams; i++)
		if (t.streams[i].cpu + 1 > a.nr_cpus)
			a.nr_cpus = t.streams[i].cpu + 1;
	a.per_cpu = calloc(a.nr_cpus + 1, sizeof(*a.per_cpu));
	if (!a.per_cpu) {
		kt_close(&t);
		return 1;
	}
	/* stat prints no field: no key to follow. */
	t.no_keys = true;
	ret = kt_merge(&t, stat_one, &a);
	if (ret)
		fprintf(stderr, "ktrace stat: %s: out of memory\n", t.path);
	else if (a.json && !stat_json(&t, &a))
		ret = 1;
	if (a.json || ret) {
		for (i = 0; i < a.nr_triggers; i++)
			free(a.triggers[i]);
		free(a.per_cpu);
		kt_close(&t);
		return ret || fflush(stdout) ? 1 : 0;
	}
	if (t.have_trace)
		printf("machine: %.65s %.65s %.65s, %u CPUs\n", t.machine.nodename,
		       t.machine.release, t.machine.machine, t.machine.nr_cpus);
	if (t.have_clock)
		printf("clock: %.16s, %llu Hz, shift %u\n", t.clock.name,
		       (unsigned long long)t.clock.freq_hz, t.clock.shift);
	printf("events: %llu\n", a.events);
	if (a.events) {
		print_time("first: ", a.first);
		print_time("last: ", a.last);
		print_time("span: ", a.last - a.first);
	}
	printf("events per type:\n");
	for (i = 0; i < 256; i++)
		for (j = 0; j < 256; j++)
			if (t.expanded[i][j] && t.expanded[i][j]->count)
				printf("  %s:%s %llu\n", t.expanded[i][j]->group,
				       t.expanded[i][j]->name, t.expanded[i][j]->count);
	for (i = 0; i < KTRACE_NR_CHANNELS; i++)
		for (j = 0; j <= KTRACE_ID_COMPACT_MAX; j++)
			if (t.compact[i][j] && t.compact[i][j]->count)
				printf("  %s:%s %llu\n", t.compact[i][j]->group,
				       t.compact[i][j]->name, t.compact[i][j]->count);
	if (a.unknown)
		printf("  unknown %llu\n", a.unknown);
	printf("events per CPU:\n");
	for (i = 0; i < a.nr_cpus; i++)
		if (a.per_cpu[i])
			printf("  cpu%u %llu\n", i, a.per_cpu[i]);
	printf("streams:\n");
	for (i = 0; i < t.nr_streams; i++) {
		struct kt_stream_stats st;

		char *gaps = NULL;
		size_t len = 0;
		FILE *g = open_memstream(&gaps, &len);

		kt_stream_stats(&t, &t.streams[i], &st, g);
		if (g)
			fclose(g);
		printf("  cpu%u %s: subbufs=%llu seq=%llu-%llu events=%llu dropped=%llu ",
		       t.streams[i].cpu, kt_channel_name(t.streams[i].channel), st.subbufs,
		       st.first_seq, st.last_seq, st.events, st.dropped);
		printf("overwritten=%llu lost_subbufs=%llu mode=%s\n", st.overwritten,
		       st.lost_subbufs, st.overwrite ? "overwrite" : "drop");
		if (gaps)
			fputs(gaps, stdout);
		free(gaps);
	}
	if (t.text[KTF_TRIGGERS] && *t.text[KTF_TRIGGERS])
		printf("triggers:\n%s", t.text[KTF_TRIGGERS]);
	if (a.nr_triggers)
		printf("trigger records:\n");
	for (i = 0; i < a.nr_triggers; i++) {
		printf("  %s", a.triggers[i]);
		free(a.triggers[i]);
	}
	free(a.per_cpu);
	kt_close(&t);
	return fflush(stdout) ? 1 : 0;
}
