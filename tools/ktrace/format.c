// SPDX-License-Identifier: GPL-2.0
/*
 * tools/ktrace: one record as a line of text or a JSON object.
 *
 * The text line is what the kernel's ascii pipe prints for the same event
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
 * The JSON object (kt_format_json()) has the same values, typed.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "../../kernel/trace/ktrace/format.h"	/* the rules shared with the kernel */

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

/* The shared rules' output (struct ktrace_out): all of it, or nothing. */
static void buf_put(void *ctx, const char *s, size_t len)
{
	struct kt_buf *b = ctx;

	if (b->overflow || !buf_room(b, len)) {
		b->overflow = true;
		return;
	}
	memcpy(b->p + b->len, s, len);
	b->len += len;
	b->p[b->len] = '\0';
}

/* A string as the ascii pipe prints it (ktrace_put_string()). */
static void put_string(struct kt_buf *b, const unsigned char *s, size_t len)
{
	struct ktrace_out o = { buf_put, b };

	ktrace_put_string(&o, (const char *)s, len);
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

/* The named values of a field, for the shared rules (struct ktrace_value_desc). */
static u64 enum_value(const void *table, unsigned int i)
{
	return ((const struct kt_enum *)table)[i].value;
}

static const char *enum_name(const void *table, unsigned int i)
{
	return ((const struct kt_enum *)table)[i].name;
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
	bool compact = r->id != KTRACE_ID_EXPANDED, overflow = b->overflow;
	struct ktrace_value_desc d = {
		.display = f->display, .flags = f->flags,
		.bits = ktrace_field_bits(f->size, compact),
		.table = f->values, .nr_values = f->nr_values,
		.value = enum_value, .name = enum_name,
	};
	struct ktrace_record data = { .data = r->data, .length = r->length };
	struct ktrace_out o = { buf_put, b };
	size_t start = b->len;
	const char *str, *sym;
	uint64_t raw;
	u64 v;

	if (f->display == KTRACE_DISPLAY_STRING && !compact) {
		if (!ktrace_field_string(&data, f->offset, f->size, &str, len))
			return KT_VALUE_NONE;
		*s = (const unsigned char *)str;
		return KT_VALUE_STRING;
	}
	/*
	 * The metadata's fields are what the uapi allows (read_metadata()):
	 * 1 to 32 bits within a compact payload, 1, 2, 4 or 8 bytes.
	 */
	if (!kt_field_raw(f, r, &raw))
		return KT_VALUE_NONE;
	switch (ktrace_put_value(&o, &d, raw, &v)) {
	case KTRACE_VALUE_SYMBOL:
		/* The symbol saved with the trace, as the kernel's %pS. */
		sym = kt_symbol(t, v);
		if (sym)
			kt_bufprintf(b, "%s", sym);
		else
			kt_bufprintf(b, "0x%llx", (unsigned long long)v);
		break;
	case KTRACE_VALUE_WORD:
		break;
	case KTRACE_VALUE_NUMBER:
		/* Unless clamped (>=VALUE, <=VALUE: a word), the caller's to print. */
		if (ktrace_field_saturated(f->flags, d.bits, v))
			break;
		b->len = start;
		b->overflow = overflow;
		if (b->p)
			b->p[start] = '\0';
		*val = v;
		return f->flags & KTRACE_FIELD_SIGNED ? KT_VALUE_SIGNED : KT_VALUE_UNSIGNED;
	}
	*val = v;
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

/* A task's name and pid: prev_comm=NAME prev_pid=PID, or as JSON members. */
static void put_task(struct kt_buf *b, const struct kt_trace *t, const char *which, int pid,
		     bool json)
{
	const char *comm = kt_comm(t, pid);
	char word[17];

	if (json) {
		kt_bufprintf(b, "\"%s_comm\":", which);
		kt_json_string(b, (const unsigned char *)comm, strlen(comm));
		kt_bufprintf(b, ",\"%s_pid\":%d", which, pid);
		return;
	}
	kt_comm_word(t, pid, word, sizeof(word));
	kt_bufprintf(b, " %s_comm=%s %s_pid=%d", which, word, which, pid);
}

/*
 * sched:switch as ftrace prints it: "prev_comm=A prev_pid=1 prev_state=S
 * ==> next_comm=B next_pid=2".  The event carries the next pid and the
 * previous task's state; the previous task is the one running before it
 * on that CPU (kt_record.prev_pid: the stream's last switch, or its
 * subbuffer's header pid).  False if @r is no sched:switch of this shape
 * (a next_pid field first), to print as any event.
 */
static bool put_switch(struct kt_buf *b, const struct kt_trace *t, const struct kt_record *r,
		       bool json)
{
	const struct kt_event *ev = r->event;
	bool first = false;		/* JSON: after prev_pid */
	unsigned int i;

	if (strcmp(ev->group, "sched") || strcmp(ev->name, "switch") || !ev->nr_fields ||
	    strcmp(ev->fields[0].name, "next_pid") ||
	    !(ev->flags & KTRACE_EVENT_PID_IS_CURRENT))
		return false;
	put_task(b, t, "prev", r->prev_pid, json);
	/* prev_state and any field after next_pid, in their order. */
	for (i = 1; i < ev->nr_fields; i++)
		put_named(b, t, &ev->fields[i], r, json, &first);
	if (json)
		kt_bufprintf(b, ",");
	else
		kt_bufprintf(b, " ==>");
	put_task(b, t, "next", r->pid, json);
	return true;
}

/**
 * kt_field_sysnr() - the system call number of a syscalls record
 * @r: the record
 * @sat: set if the number saturated (the field's largest value: a lower
 *	 bound, which report prints as ">=511")
 *
 * Field "nr" as report prints it: sign-extended when the metadata says
 * it is signed (-1 is a system call number of -1: rt_sigreturn's exit).
 *
 * Return: the number; -1 if @r has no "nr".
 */
int kt_field_sysnr(const struct kt_record *r, bool *sat)
{
	const struct kt_field *f = NULL;
	unsigned int i, bits;
	uint64_t v;

	*sat = false;
	for (i = 0; r->event && i < r->event->nr_fields && !f; i++)
		if (!strcmp(r->event->fields[i].name, "nr"))
			f = &r->event->fields[i];
	if (!f || !kt_field_raw(f, r, &v))
		return -1;
	bits = ktrace_field_bits(f->size, r->id != KTRACE_ID_EXPANDED);
	v = ktrace_field_extend(f->flags, bits, v);
	*sat = ktrace_field_saturated(f->flags, bits, v) > 0;
	return (int)(int64_t)v;
}

/* A system call number as a word: "230", "-1", ">=511" when it saturated. */
const char *kt_sysnr_word(char *buf, size_t size, int nr, bool sat)
{
	snprintf(buf, size, "%s%d", sat ? ">=" : "", nr);
	return buf;
}

/*
 * After the "nr" field of a syscalls event: " name=NAME", or with @json
 * ,"name":"NAME", when the system call table of the trace's machine has
 * it (kt_syscall_name()).
 */
static void put_syscall_name(struct kt_buf *b, const struct kt_trace *t,
			     const struct kt_field *f, const struct kt_record *r, bool json)
{
	const char *name;
	uint64_t nr;

	if (strcmp(f->name, "nr") || strcmp(r->event->group, "syscalls") ||
	    !kt_field_raw(f, r, &nr) || ktrace_field_saturated(f->flags,
				ktrace_field_bits(f->size, r->id != KTRACE_ID_EXPANDED), nr))
		return;
	name = kt_syscall_name(t, nr);
	if (!name)
		return;
	if (json)
		kt_bufprintf(b, ",\"name\":\"%s\"", name);
	else
		kt_bufprintf(b, " name=%s", name);
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

	if (put_switch(b, t, r, json))
		return;
	for (i = 0; i < ev->nr_fields; i++) {
		const struct kt_field *f = &ev->fields[i];
		struct kt_record d;
		char word[32];
		uint64_t key;

		if (f->display != KTRACE_DISPLAY_KEY || !kt_field_raw(f, r, &key)) {
			put_named(b, t, f, r, json, &first);
			put_syscall_name(b, t, f, r, json);
			continue;
		}
		if (kt_key_named(t, r, i, &d)) {
			for (j = 0; j < d.event->nr_fields; j++)
				put_named(b, t, &d.event->fields[j], &d, json, &first);
			continue;
		}
		snprintf(word, sizeof(word), KTRACE_UNKNOWN_KEY, (uint32_t)key);
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
void kt_comm_word(const struct kt_trace *t, int pid, char *comm, size_t size)
{
	char *p;

	snprintf(comm, size, "%s", kt_comm(t, pid));
	/* One word of one line, as the ascii pipe prints it. */
	for (p = comm; *p; p++)
		if (*p == ' ')
			*p = '_';
		else if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = '?';
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
	kt_comm_word(t, r->pid, comm, sizeof(comm));
	kt_bufprintf(b, "%s %u %s-%d ", time, r->cpu, comm, r->pid);
	if (!ev && r->id != KTRACE_ID_EXPANDED)
		kt_bufprintf(b, KTRACE_UNKNOWN_COMPACT, kt_channel_name(r->channel),
			     r->id, r->payload);
	else if (!ev)
		kt_bufprintf(b, KTRACE_UNKNOWN_EXPANDED,
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
		kt_bufprintf(b, ",\"event\":\"" KTRACE_UNKNOWN_EVENT "\"",
			     kt_channel_name(r->channel));
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

/* The trigger record: ktrace:trigger, written when a trigger fires. */
bool kt_is_trigger(const struct kt_record *r)
{
	return r->event && !strcmp(r->event->group, "ktrace") &&
	       !strcmp(r->event->name, "trigger");
}
