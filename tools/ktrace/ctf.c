// SPDX-License-Identifier: GPL-2.0
/*
 * ktrace convert --ctf DIR: trace files as CTF 1.8 traces, for babeltrace2
 * and Trace Compass.
 *
 * One CTF trace per input file: DIR/ itself for one file, DIR/HOST-N/ (N
 * from 1, in the order of the command line) for several.  Each has a TSDL
 * "metadata" file and one stream file per channel and CPU ("high_1",
 * "medium_0"), each stream file packets of about 256 KiB: a header (magic,
 * uuid, stream_id = the channel), a context (timestamp_begin/end, sizes,
 * events_discarded, cpu_id), then the events: a header (uint32 id, uint64
 * timestamp in ns), the stream's event context (procname, tid: the running
 * task as report names it) and the fields.
 *
 * The fields are those report prints, in its order, with its values: an
 * event class is one shape of the fields, so that an event whose KEY field
 * names a description (block requests) gets the description's fields, typed
 * from its metadata, and one whose key names none gets a string field
 * "unknown:0x...".  Numbers (DEC, PID) are integers of the field's
 * signedness, HEX integers in base 16, ENUM fields enumerations of the
 * metadata's names; a field that saturates is an enumeration too, whose
 * labels are report's ">=MAX" and "<=MIN".  What no CTF type expresses is
 * a string holding report's rendering: FLAGS ("sync|fua"), DEV ("8:3"),
 * SYMBOL (the symbol or 0x...), STRING fields (quoted and escaped, so
 * ASCII), a field the record is too short for ("?").  Events without
 * metadata are "unknown:high" (id, payload) and "unknown:medium" (major,
 * minor, length), as report prints them.
 *
 * The clock: one file, "monotonic", CLOCK_MONOTONIC ns since boot (offset
 * 0: babeltrace2 --clock-seconds prints report's times); the CLOCK_REALTIME
 * reference is in the environment (ktrace_realtime_offset_ns, realtime =
 * monotonic + it, --offset included; "none" if the trace has none).
 * Several files: "realtime", the same timestamps with that offset as the
 * clock's, absolute, so that babeltrace2 merges them on CLOCK_REALTIME and
 * prints report's times of several files.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <dirent.h>
#include <unistd.h>

#include "format.h"
#include "../../kernel/trace/ktrace/format.h"	/* the ascii pipe's words */

#define CTF_MAGIC		0xc1fc1fc1U
/* Packet header (24 bytes) and context (44 bytes); all byte-aligned. */
#define CTF_PACKET_HEADER	68
/*
 * A packet ends after the event that takes it to this size: readers seek
 * by packet (Trace Compass reads a packet from its start to find a time).
 */
#define CTF_PACKET_MAX		(256 * 1024)

enum item_kind { ITEM_INT, ITEM_ENUM, ITEM_STRING };

/* One field of an event as written: its type and value. */
struct item {
	char name[KTRACE_NAME_LEN + 16];
	enum item_kind kind;
	unsigned int bytes, base, bits;	/* ints: container size; the field's width */
	bool sign;
	uint64_t v;
	const struct kt_field *f;	/* enums: the labels */
	size_t text, len;		/* strings: in conv->text */
};

struct ctf_class {
	unsigned int id, channel;
	char *name, *body;
	uint64_t hash;
};

struct ctf_stream {
	FILE *f;
	unsigned int channel, cpu;
	uint64_t start;			/* of the packet being written, in the file */
	uint64_t first, last, bytes;	/* of the packet: times, size */
	uint64_t discarded;		/* dropped + overwritten, stat's counts */
};

struct ctf_trace {
	struct kt_trace *t;
	char sub[96];			/* "" or "HOST-N/" */
	unsigned char uuid[16];
	struct ctf_stream **idx[KTRACE_NR_CHANNELS];	/* by CPU */
	struct ctf_stream *streams;
	unsigned int nr_streams;
	struct ctf_class *classes;
	unsigned int nr_classes;
	unsigned int *slots;		/* class index + 1, by hash */
	unsigned int nr_slots;
};

struct conv {
	const char *cmd;
	struct ctf_trace *tr;
	unsigned int nr;
	bool multi;
	bool warned_back;		/* a stream's time went back (said once) */
	kt_ctf_open_fn open;
	void *arg;
	struct item *items;
	unsigned int nr_items, max_items;
	struct kt_buf text, body, word;
};

static uint64_t fnv(uint64_t h, const void *p, size_t len)
{
	const unsigned char *c = p;

	while (len--)
		h = (h ^ *c++) * 0x100000001b3ULL;
	return h;
}

/* A TSDL string literal's content: printable ASCII, '"' and '\' escaped. */
static void put_tsdl(struct kt_buf *b, const char *s)
{
	for (; *s; s++) {
		unsigned char ch = *s;

		if (ch == '"' || ch == '\\')
			kt_bufprintf(b, "\\%c", ch);
		else
			kt_bufprintf(b, "%c", ch < 0x20 || ch > 0x7e ? '?' : ch);
	}
}

static struct item *new_item(struct conv *c, const char *name)
{
	char base[KTRACE_NAME_LEN + 1], *p;
	unsigned int i, n = 1;
	struct item *it;

	if (c->nr_items == c->max_items) {
		unsigned int max = c->max_items ? 2 * c->max_items : 16;

		it = realloc(c->items, max * sizeof(*it));
		if (!it)
			return NULL;
		c->items = it;
		c->max_items = max;
	}
	it = &c->items[c->nr_items];
	memset(it, 0, sizeof(*it));
	/* A TSDL identifier; a name seen before in the event gets a suffix. */
	snprintf(base, sizeof(base), "%.*s", KTRACE_NAME_LEN, name);
	for (p = base; *p; p++)
		if (!(*p == '_' || (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9')))
			*p = '_';
	/* Written as "_NAME": three of those are C99 keywords that TSDL keeps. */
	if (!strcmp(base, "Bool") || !strcmp(base, "Complex") || !strcmp(base, "Imaginary"))
		strcat(base, "_");
	snprintf(it->name, sizeof(it->name), "%s", base);
	for (i = 0; i < c->nr_items; i++) {
		if (!strcmp(c->items[i].name, it->name)) {
			snprintf(it->name, sizeof(it->name), "%s_%u", base, ++n);
			i = -1U;	/* and look again from the first */
		}
	}
	c->nr_items++;
	return it;
}

static int add_string(struct conv *c, const char *name, const char *s, size_t len)
{
	struct item *it = new_item(c, name);

	if (!it)
		return -1;
	it->kind = ITEM_STRING;
	it->text = c->text.len;
	it->len = len;
	kt_bufprintf(&c->text, "%.*s", (int)len, s);
	return c->text.overflow ? -1 : 0;
}

static int add_int(struct conv *c, const char *name, unsigned int bits, bool sign,
		   unsigned int base, uint64_t v)
{
	struct item *it = new_item(c, name);

	if (!it)
		return -1;
	it->kind = ITEM_INT;
	it->bits = bits;
	it->bytes = bits <= 8 ? 1 : bits <= 16 ? 2 : bits <= 32 ? 4 : 8;
	it->sign = sign;
	it->base = base;
	it->v = v;
	return 0;
}

/* The item of field @f of @r: typed by its display, valued as report prints it. */
static int add_field(struct conv *c, const struct kt_trace *t, const struct kt_field *f,
		     const struct kt_record *r)
{
	bool compact = r->id != KTRACE_ID_EXPANDED;
	unsigned int bits = compact ? f->size : f->size * 8;
	bool sign = f->flags & KTRACE_FIELD_SIGNED;
	enum kt_value k;
	uint64_t v = 0;
	int ret;

	c->word.len = 0;
	c->word.overflow = false;
	k = kt_field_text(&c->word, t, f, r, &v);
	if (c->word.overflow)
		return -1;
	if (k == KT_VALUE_NONE)
		return add_string(c, f->name, "?", 1);
	if (k == KT_VALUE_STRING)
		return add_string(c, f->name, c->word.p, c->word.len);
	switch (f->display) {
	case KTRACE_DISPLAY_HEX:
		/* report prints the sign-extended value: all 64 bits of it. */
		return add_int(c, f->name, sign ? 64 : bits, false, 16, v);
	case KTRACE_DISPLAY_FLAGS:
	case KTRACE_DISPLAY_DEV:
	case KTRACE_DISPLAY_SYMBOL:
		return add_string(c, f->name, c->word.p, c->word.len);
	}
	ret = add_int(c, f->name, bits, sign, 10, v);
	if (!ret && (f->display == KTRACE_DISPLAY_ENUM || (f->flags & KTRACE_FIELD_SATURATES))) {
		c->items[c->nr_items - 1].kind = ITEM_ENUM;
		c->items[c->nr_items - 1].f = f;
	}
	return ret;
}

/* The items of @r: report's fields (put_fields() of format.c). */
static int add_fields(struct conv *c, struct kt_trace *t, const struct kt_record *r)
{
	const struct kt_event *ev = r->event;
	unsigned int i, j;
	char word[32];
	uint64_t key;

	if (!ev && r->id != KTRACE_ID_EXPANDED)
		return add_int(c, "id", 32, false, 10, r->id) ||
			add_int(c, "payload", 32, false, 16, r->payload);
	if (!ev)
		return add_int(c, "major", 32, false, 10, r->major) ||
			add_int(c, "minor", 32, false, 10, r->minor) ||
			add_int(c, "length", 32, false, 10, r->length);
	for (i = 0; i < ev->nr_fields; i++) {
		const struct kt_field *f = &ev->fields[i];
		struct kt_record d;
		int ret = 0;

		if (f->display != KTRACE_DISPLAY_KEY || !kt_field_raw(f, r, &key)) {
			ret = add_field(c, t, f, r);
		} else if (kt_key_named(t, r, i, &d)) {
			for (j = 0; j < d.event->nr_fields && !ret; j++)
				ret = add_field(c, t, &d.event->fields[j], &d);
		} else {
			snprintf(word, sizeof(word), KTRACE_UNKNOWN_KEY, (uint32_t)key);
			ret = add_string(c, f->name, word, strlen(word));
		}
		if (ret)
			return -1;
	}
	return 0;
}

/* Whether @v, sign-extended from @bits, fits an integer of @bytes. */
static bool fits(uint64_t v, unsigned int bytes, bool sign)
{
	unsigned int b = bytes * 8;

	if (b == 64)
		return true;
	if (!sign)
		return v < 1ULL << b;
	return (int64_t)v >= -(1LL << (b - 1)) && (int64_t)v < 1LL << (b - 1);
}

static void put_label(struct kt_buf *b, bool *first, const char *label, uint64_t v, bool sign)
{
	kt_bufprintf(b, "%s\"", *first ? "" : ", ");
	put_tsdl(b, label);
	if (sign)
		kt_bufprintf(b, "\" = %lld", (long long)v);
	else
		kt_bufprintf(b, "\" = %llu", (unsigned long long)v);
	*first = false;
}

/*
 * An enumeration's labels: the metadata's names (the first of a value, as
 * report takes it), then the saturated values report prints as words.
 */
static void put_labels(struct kt_buf *b, const struct item *it)
{
	const struct kt_field *f = it->f;
	bool first = true, named;
	unsigned int i, j;
	uint64_t ext[2];
	char word[32];

	for (i = 0; f->display == KTRACE_DISPLAY_ENUM && i < f->nr_values; i++) {
		uint64_t v = f->values[i].value;

		for (j = 0; j < i && f->values[j].value != v; j++)
			;
		if (j == i && fits(v, it->bytes, it->sign))
			put_label(b, &first, f->values[i].name, v, it->sign);
	}
	if (!(f->flags & KTRACE_FIELD_SATURATES) || !it->bits || it->bits > 64)
		return;
	if (it->sign) {
		ext[0] = it->bits > 1 ? ~0ULL >> (65 - it->bits) : 0;
		ext[1] = -ext[0] - 1;
	} else {
		ext[0] = ~0ULL >> (64 - it->bits);
	}
	for (i = 0; i < (it->sign ? 2U : 1U); i++) {
		named = false;
		for (j = 0; f->display == KTRACE_DISPLAY_ENUM && j < f->nr_values; j++)
			named |= f->values[j].value == ext[i];
		if (named)
			continue;
		if (it->sign)
			snprintf(word, sizeof(word), "%s%lld", i ? "<=" : ">=", (long long)ext[i]);
		else
			snprintf(word, sizeof(word), ">=%llu", (unsigned long long)ext[i]);
		put_label(b, &first, word, ext[i], it->sign);
	}
}

static void put_int_type(struct kt_buf *b, const struct item *it)
{
	kt_bufprintf(b, "integer { size = %u; align = 8; signed = %s;%s }", it->bytes * 8,
		     it->sign ? "true" : "false", it->base == 16 ? " base = 16;" : "");
}

/* The TSDL of the items, the body of their event class. */
static void items_tsdl(struct conv *c)
{
	struct kt_buf *b = &c->body;
	unsigned int i;
	size_t at, n;

	b->len = 0;
	b->overflow = false;
	kt_bufprintf(b, "%s", "");
	for (i = 0; i < c->nr_items; i++) {
		const struct item *it = &c->items[i];

		kt_bufprintf(b, "\t\t");
		if (it->kind == ITEM_STRING) {
			kt_bufprintf(b, "string { encoding = UTF8; }");
		} else if (it->kind == ITEM_INT) {
			put_int_type(b, it);
		} else {
			at = b->len;
			kt_bufprintf(b, "enum : ");
			put_int_type(b, it);
			kt_bufprintf(b, " { ");
			n = b->len;
			put_labels(b, it);
			if (b->len == n && !b->overflow) {
				/* No label (no name fits): a plain integer. */
				b->len = at;
				b->p[at] = '\0';
				put_int_type(b, it);
			} else {
				kt_bufprintf(b, " }");
			}
		}
		kt_bufprintf(b, " _%s;\n", it->name);
	}
}

/* The class of the event just described (name, c->body), made if new. */
static int class_of(struct conv *c, struct ctf_trace *tr, unsigned int channel,
		    const char *name, unsigned int *id)
{
	uint64_t h = fnv(fnv(0xcbf29ce484222325ULL ^ channel, name, strlen(name)),
			 c->body.p, c->body.len);
	struct ctf_class *cl;
	unsigned int i, s;

	for (s = h % (tr->nr_slots ? tr->nr_slots : 1); tr->nr_slots && tr->slots[s];
	     s = (s + 1) % tr->nr_slots) {
		cl = &tr->classes[tr->slots[s] - 1];
		if (cl->hash == h && cl->channel == channel && !strcmp(cl->name, name) &&
		    !strcmp(cl->body, c->body.p)) {
			*id = cl->id;
			return 0;
		}
	}
	if (2 * (tr->nr_classes + 1) > tr->nr_slots) {
		unsigned int n = tr->nr_slots ? 2 * tr->nr_slots : 64;
		unsigned int *slots = calloc(n, sizeof(*slots));

		if (!slots)
			return -1;
		for (i = 0; i < tr->nr_classes; i++) {
			for (s = tr->classes[i].hash % n; slots[s]; s = (s + 1) % n)
				;
			slots[s] = i + 1;
		}
		free(tr->slots);
		tr->slots = slots;
		tr->nr_slots = n;
		cl = realloc(tr->classes, n / 2 * sizeof(*cl));
		if (!cl)
			return -1;
		tr->classes = cl;
	}
	cl = &tr->classes[tr->nr_classes];
	cl->id = tr->nr_classes;
	cl->channel = channel;
	cl->hash = h;
	cl->name = strdup(name);
	cl->body = strdup(c->body.p);
	if (!cl->name || !cl->body) {
		free(cl->name);
		free(cl->body);
		return -1;
	}
	for (s = h % tr->nr_slots; tr->slots[s]; s = (s + 1) % tr->nr_slots)
		;
	tr->slots[s] = ++tr->nr_classes;
	*id = cl->id;
	return 0;
}

static FILE *open_file(struct conv *c, struct ctf_trace *tr, const char *name)
{
	char path[160];

	snprintf(path, sizeof(path), "%s%s", tr->sub, name);
	return c->open(c->arg, path);
}

/* Little-endian bytes. */
static void put_le(unsigned char *p, uint64_t v, unsigned int bytes)
{
	unsigned int i;

	for (i = 0; i < bytes; i++)
		p[i] = v >> 8 * i;
}

static void packet_header(const struct ctf_trace *tr, const struct ctf_stream *st,
			  unsigned char *h)
{
	put_le(h, CTF_MAGIC, 4);
	memcpy(h + 4, tr->uuid, 16);
	put_le(h + 20, st->channel, 4);
	put_le(h + 24, st->first, 8);
	put_le(h + 32, st->last, 8);
	put_le(h + 40, st->bytes * 8, 8);
	put_le(h + 48, st->bytes * 8, 8);
	put_le(h + 56, st->discarded, 8);
	put_le(h + 64, st->cpu, 4);
}

/* A packet's header in place of its placeholder, then on at the end. */
static int end_packet(const struct ctf_trace *tr, const struct ctf_stream *st)
{
	unsigned char h[CTF_PACKET_HEADER];

	packet_header(tr, st, h);
	if (fflush(st->f) || fseek(st->f, st->start, SEEK_SET) ||
	    fwrite(h, 1, sizeof(h), st->f) != sizeof(h) || fseek(st->f, 0, SEEK_END))
		return -1;
	return 0;
}

/* A new packet from event @r on: its header, rewritten by end_packet(). */
/* A new packet of @st, from @ns (its first event's time, as written). */
static int begin_packet(const struct ctf_trace *tr, struct ctf_stream *st, uint64_t ns)
{
	unsigned char h[CTF_PACKET_HEADER];

	st->first = ns;
	st->last = ns;
	st->bytes = CTF_PACKET_HEADER;
	packet_header(tr, st, h);
	return fwrite(h, 1, sizeof(h), st->f) != sizeof(h) ? -1 : 0;
}

static struct ctf_stream *stream_of(struct conv *c, struct ctf_trace *tr,
				    const struct kt_record *r)
{
	const struct kt_trace *t = tr->t;
	struct ctf_stream *st, *all;
	struct kt_stream_stats ss;
	char name[32];
	unsigned int i;

	if (r->channel >= KTRACE_NR_CHANNELS || r->cpu >= KTF_MAX_CPUS)
		return NULL;
	if (!tr->idx[r->channel]) {
		tr->idx[r->channel] = calloc(KTF_MAX_CPUS, sizeof(*tr->idx[0]));
		if (!tr->idx[r->channel])
			return NULL;
	}
	if (tr->idx[r->channel][r->cpu])
		return tr->idx[r->channel][r->cpu];
	all = realloc(tr->streams, (tr->nr_streams + 1) * sizeof(*all));
	if (!all)
		return NULL;
	if (all != tr->streams) {
		/* Moved: the index points into the new array. */
		for (i = 0; i < tr->nr_streams; i++)
			tr->idx[all[i].channel][all[i].cpu] = &all[i];
		tr->streams = all;
	}
	st = &all[tr->nr_streams];
	memset(st, 0, sizeof(*st));
	st->channel = r->channel;
	st->cpu = r->cpu;
	/*
	 * Every packet says how many events the stream lost in all: when is
	 * not known, and the readers put the losses in its first packet.
	 */
	for (i = 0; i < t->nr_streams; i++) {
		if (t->streams[i].channel == r->channel && t->streams[i].cpu == r->cpu) {
			kt_stream_stats(tr->t, &t->streams[i], &ss, NULL);
			st->discarded = ss.dropped + ss.overwritten;
		}
	}
	snprintf(name, sizeof(name), "%s_%u", kt_channel_name(r->channel), r->cpu);
	st->f = open_file(c, tr, name);
	if (!st->f)
		return NULL;
	tr->nr_streams++;
	tr->idx[r->channel][r->cpu] = st;
	return begin_packet(tr, st, r->ns) ? NULL : st;
}

static int write_event(struct conv *c, struct kt_trace *t, const struct kt_record *r,
		       struct ctf_trace *tr)
{
	const struct kt_event *ev = r->event;
	struct ctf_stream *st;
	char name[2 * KTRACE_NAME_LEN + 16];
	unsigned int i, id;
	unsigned char num[8];
	char comm[17];
	uint64_t ns;
	size_t n;

	/*
	 * A stream's times never go back in CTF (nor in a kernel trace: the
	 * decoder takes a clock that goes back inside a subbuffer for a
	 * rollover); a damaged file's subbuffer that starts earlier than the
	 * one before it is written at the stream's last time, said once.
	 */
	ns = r->ns;
	st = stream_of(c, tr, r);
	if (!st)
		return -1;
	if (st->bytes && ns < st->last) {
		if (!c->warned_back)
			fprintf(stderr,
				"ktrace %s: %s: warning: CPU %u %s: time goes back at %llu ns; written at %llu ns in CTF\n",
				c->cmd, t->path, r->cpu, kt_channel_name(r->channel),
				(unsigned long long)ns, (unsigned long long)st->last);
		c->warned_back = true;
		ns = st->last;
	}
	/* Several traces: the clock's offset plus the time must be an int64 of ns. */
	if (c->multi && (__int128)kt_real_ns(t, 0) + ns > INT64_MAX) {
		fprintf(stderr, "ktrace %s: %s: the CLOCK_REALTIME of %llu ns is beyond 2^63 ns\n",
			c->cmd, t->path, (unsigned long long)ns);
		return -1;
	}

	c->nr_items = 0;
	c->text.len = 0;
	c->text.overflow = false;
	if (add_fields(c, t, r))
		return -1;
	items_tsdl(c);
	if (c->body.overflow)
		return -1;
	if (ev)
		snprintf(name, sizeof(name), "%s:%s", ev->group, ev->name);
	else
		snprintf(name, sizeof(name), KTRACE_UNKNOWN_EVENT, kt_channel_name(r->channel));
	if (class_of(c, tr, r->channel, name, &id))
		return -1;
	if (st->bytes >= CTF_PACKET_MAX) {
		if (end_packet(tr, st))
			return -1;
		st->start += st->bytes;
		if (begin_packet(tr, st, ns))
			return -1;
	}
	/* Header, context (procname, tid), fields. */
	put_le(num, id, 4);
	fwrite(num, 1, 4, st->f);
	put_le(num, ns, 8);
	fwrite(num, 1, 8, st->f);
	n = 12;
	/* The task as report names it (no spaces), at most 16 bytes. */
	kt_comm_word(t, r->pid, comm, sizeof(comm));
	fwrite(comm, 1, strlen(comm) + 1, st->f);
	n += strlen(comm) + 1;
	put_le(num, (uint32_t)r->pid, 4);
	fwrite(num, 1, 4, st->f);
	n += 4;
	for (i = 0; i < c->nr_items; i++) {
		const struct item *it = &c->items[i];

		if (it->kind == ITEM_STRING) {
			if (it->len)
				fwrite(c->text.p + it->text, 1, it->len, st->f);
			fputc('\0', st->f);
			n += it->len + 1;
		} else {
			put_le(num, it->v, it->bytes);
			fwrite(num, 1, it->bytes, st->f);
			n += it->bytes;
		}
	}
	st->bytes += n;
	st->last = ns;
	return ferror(st->f) ? -1 : 0;
}

static int convert_one(struct kt_trace *t, const struct kt_record *r, void *arg)
{
	struct conv *c = arg;
	unsigned int i;

	for (i = 0; i < c->nr && c->tr[i].t != t; i++)
		;
	if (i == c->nr || write_event(c, t, r, &c->tr[i])) {
		fprintf(stderr, "ktrace %s: %s: cannot write the event at %llu ns\n", c->cmd,
			t->path, (unsigned long long)r->ns);
		return -1;
	}
	return 0;
}

static void put_uuid(FILE *f, const unsigned char *u)
{
	unsigned int i;

	for (i = 0; i < 16; i++)
		fprintf(f, "%02x%s", u[i], i == 3 || i == 5 || i == 7 || i == 9 ? "-" : "");
}

static int write_metadata(struct conv *c, struct ctf_trace *tr)
{
	const struct kt_trace *t = tr->t;
	int64_t off = kt_real_ns(t, 0), sec, ns;
	bool used[KTRACE_NR_CHANNELS] = { false };
	struct kt_buf q = { .grow = true };
	unsigned int i, ch;
	FILE *f;
	int ret;

	/*
	 * The clock's offset: CLOCK_REALTIME - CLOCK_MONOTONIC with several
	 * traces; with one, its --offset only (report's monotonic times).
	 */
	sec = (c->multi ? off : t->offset_ns) / 1000000000;
	ns = (c->multi ? off : t->offset_ns) % 1000000000;
	if (ns < 0) {
		sec--;
		ns += 1000000000;
	}
	if (c->multi && (off == INT64_MAX || off == INT64_MIN)) {
		fprintf(stderr,
			"ktrace %s: %s: its CLOCK_REALTIME reference is out of range for a merge\n",
			c->cmd, t->path);
		return -1;
	}
	f = open_file(c, tr, "metadata");
	if (!f)
		return -1;
	fprintf(f, "/* CTF 1.8 */\n\n"
		"/* Converted by ktrace convert from %s. */\n\n"
		"typealias integer { size = 8; align = 8; signed = false; } := uint8_t;\n"
		"typealias integer { size = 32; align = 8; signed = false; } := uint32_t;\n"
		"typealias integer { size = 32; align = 8; signed = true; } := int32_t;\n"
		"typealias integer { size = 64; align = 8; signed = false; } := uint64_t;\n\n"
		"trace {\n\tmajor = 1;\n\tminor = 8;\n\tuuid = \"", "a ktrace trace");
	put_uuid(f, tr->uuid);
	fprintf(f, "\";\n\tbyte_order = le;\n"
		"\tpacket.header := struct {\n\t\tuint32_t magic;\n\t\tuint8_t uuid[16];\n"
		"\t\tuint32_t stream_id;\n\t};\n};\n\n");
	kt_bufprintf(&q, "%s", "");
	put_tsdl(&q, t->host);
	fprintf(f, "env {\n\thostname = \"%s\";\n\tdomain = \"kernel\";\n"
		"\ttracer_name = \"ktrace\";\n\tktrace_clock = \"%s\";\n",
		q.p ? q.p : "", c->multi ? "realtime" : "monotonic");
	/* CLOCK_REALTIME - CLOCK_MONOTONIC (+ --offset), if the trace has it. */
	if (t->have_clock && t->clock.ref_real_ns)
		fprintf(f, "\tktrace_realtime_offset_ns = \"%lld\";\n};\n\n", (long long)off);
	else
		fprintf(f, "\tktrace_realtime_offset_ns = \"none\";\n};\n\n");
	if (c->multi)
		fprintf(f, "clock {\n\tname = \"realtime\";\n\tuuid = \"");
	else
		fprintf(f, "clock {\n\tname = \"monotonic\";\n\tuuid = \"");
	put_uuid(f, tr->uuid);
	fprintf(f, "\";\n\tdescription = \"%s\";\n\tfreq = 1000000000;\n"
		"\tprecision = 1;\n\toffset_s = %lld;\n\toffset = %lld;\n\tabsolute = %s;\n"
		"};\n\n",
		c->multi ? "CLOCK_MONOTONIC, offset to CLOCK_REALTIME" : "CLOCK_MONOTONIC",
		(long long)sec, (long long)ns, c->multi ? "true" : "false");
	fprintf(f, "typealias integer { size = 64; align = 8; signed = false; "
		"map = clock.%s.value; } := ktrace_clock_t;\n\n",
		c->multi ? "realtime" : "monotonic");
	for (i = 0; i < tr->nr_streams; i++)
		used[tr->streams[i].channel] = true;
	for (ch = 0; ch < KTRACE_NR_CHANNELS; ch++) {
		if (!used[ch])
			continue;
		fprintf(f, "stream {\n\tid = %u;\n\tpacket.context := struct {\n"
			"\t\tktrace_clock_t timestamp_begin;\n\t\tktrace_clock_t timestamp_end;\n"
			"\t\tuint64_t content_size;\n\t\tuint64_t packet_size;\n"
			"\t\tuint64_t events_discarded;\n\t\tuint32_t cpu_id;\n\t};\n"
			"\tevent.header := struct {\n\t\tuint32_t id;\n"
			"\t\tktrace_clock_t timestamp;\n\t};\n"
			"\tevent.context := struct {\n\t\tstring { encoding = UTF8; } _procname;\n"
			"\t\tint32_t _tid;\n\t};\n};\n\n", ch);
	}
	for (i = 0; i < tr->nr_classes; i++) {
		const struct ctf_class *cl = &tr->classes[i];

		q.len = 0;
		kt_bufprintf(&q, "%s", "");
		put_tsdl(&q, cl->name);
		fprintf(f, "event {\n\tname = \"%s\";\n\tid = %u;\n\tstream_id = %u;\n",
			q.p ? q.p : "", cl->id, cl->channel);
		if (cl->body[0])
			fprintf(f, "\tfields := struct {\n%s\t};\n", cl->body);
		fprintf(f, "};\n\n");
	}
	free(q.p);
	ret = ferror(f) || q.overflow ? -1 : 0;
	if (fclose(f))
		ret = -1;
	return ret;
}

static int finish_streams(struct ctf_trace *tr)
{
	unsigned int i;
	int ret = 0;

	for (i = 0; i < tr->nr_streams; i++) {
		struct ctf_stream *st = &tr->streams[i];

		if (!st->f)
			continue;
		if (end_packet(tr, st))
			ret = -1;
		if (fclose(st->f))
			ret = -1;
		st->f = NULL;
	}
	return ret;
}

static void free_trace(struct ctf_trace *tr)
{
	unsigned int i;

	finish_streams(tr);
	for (i = 0; i < tr->nr_classes; i++) {
		free(tr->classes[i].name);
		free(tr->classes[i].body);
	}
	for (i = 0; i < KTRACE_NR_CHANNELS; i++)
		free(tr->idx[i]);
	free(tr->classes);
	free(tr->slots);
	free(tr->streams);
}

int kt_ctf_write(struct kt_set *s, const char *cmd, kt_ctf_open_fn open, void *arg)
{
	struct conv c = {
		.cmd = cmd, .nr = s->nr, .multi = s->nr > 1, .open = open, .arg = arg,
		.text.grow = true, .body.grow = true, .word.grow = true,
	};
	unsigned int i;
	uint64_t h;
	int ret = 0;

	c.tr = calloc(s->nr, sizeof(*c.tr));
	if (!c.tr) {
		fprintf(stderr, "ktrace %s: out of memory\n", cmd);
		return -1;
	}
	for (i = 0; i < s->nr; i++) {
		struct ctf_trace *tr = &c.tr[i];
		struct kt_trace *t = &s->traces[i];

		tr->t = t;
		if (c.multi) {
			char *p;

			snprintf(tr->sub, sizeof(tr->sub), "%.64s-%u", t->host, i + 1);
			/* One directory, whatever the host's name (a file's) has. */
			for (p = tr->sub; *p; p++)
				if (*p == '/')
					*p = '_';
			strcat(tr->sub, "/");
		}
		/* A uuid of the trace's identity: the same file, the same uuid. */
		h = fnv(0xcbf29ce484222325ULL, t->host, strlen(t->host));
		if (t->have_clock)
			h = fnv(h, &t->clock, sizeof(t->clock));
		h = fnv(h, &i, sizeof(i));
		put_le(tr->uuid, h, 8);
		put_le(tr->uuid + 8, fnv(h, t->path, strlen(t->path)), 8);
		tr->uuid[6] = (tr->uuid[6] & 0x0f) | 0x40;
		tr->uuid[8] = (tr->uuid[8] & 0x3f) | 0x80;
	}
	if (kt_set_merge(s, convert_one, &c))
		ret = -1;
	for (i = 0; i < s->nr; i++) {
		if (finish_streams(&c.tr[i]) && !ret) {
			fprintf(stderr, "ktrace %s: %s: cannot write its streams\n", cmd,
				c.tr[i].t->path);
			ret = -1;
		}
		if (!ret && write_metadata(&c, &c.tr[i])) {
			fprintf(stderr, "ktrace %s: %s: cannot write its metadata\n", cmd,
				c.tr[i].t->path);
			ret = -1;
		}
		free_trace(&c.tr[i]);
	}
	free(c.tr);
	free(c.items);
	free(c.text.p);
	free(c.body.p);
	free(c.word.p);
	return ret;
}

/* Files of the output directory, made as they are opened. */
struct out_dir {
	const char *dir, *cmd;
};

static FILE *open_in_dir(void *arg, const char *name)
{
	struct out_dir *o = arg;
	char path[4096];
	const char *slash = strchr(name, '/');
	FILE *f;

	if (slash) {
		snprintf(path, sizeof(path), "%s/%.*s", o->dir, (int)(slash - name), name);
		if (mkdir(path, 0755) && errno != EEXIST) {
			fprintf(stderr, "ktrace %s: %s: %s\n", o->cmd, path, strerror(errno));
			return NULL;
		}
	}
	snprintf(path, sizeof(path), "%s/%s", o->dir, name);
	f = fopen(path, "w");
	if (!f)
		fprintf(stderr, "ktrace %s: %s: %s\n", o->cmd, path, strerror(errno));
	return f;
}

/* DIR: made if missing; refused unless an empty directory. */
static int out_dir_ready(const char *cmd, const char *dir)
{
	char path[4096];
	struct dirent *d;
	DIR *dp;
	FILE *f;

	if (mkdir(dir, 0755) && errno != EEXIST) {
		fprintf(stderr, "ktrace %s: --ctf %s: %s\n", cmd, dir, strerror(errno));
		return -1;
	}
	dp = opendir(dir);
	if (!dp) {
		fprintf(stderr, "ktrace %s: --ctf %s: %s\n", cmd, dir, strerror(errno));
		return -1;
	}
	while ((d = readdir(dp))) {
		if (strcmp(d->d_name, ".") && strcmp(d->d_name, "..")) {
			closedir(dp);
			fprintf(stderr,
				"ktrace %s: --ctf %s: not empty: want a new or empty directory\n",
				cmd, dir);
			return -1;
		}
	}
	closedir(dp);
	/* Writable: a file made and removed, before any is written. */
	snprintf(path, sizeof(path), "%s/metadata", dir);
	f = fopen(path, "w");
	if (!f) {
		fprintf(stderr, "ktrace %s: --ctf %s: %s\n", cmd, dir, strerror(errno));
		return -1;
	}
	fclose(f);
	unlink(path);
	return 0;
}

static const char convert_help[] =
	"usage: ktrace convert --ctf DIR [--offset FILE=NS] [FILE...]\n"
	"       ktrace convert --ftrace [-o OUT] [FILE]\n\n"
	"Convert trace files (default ktrace.dat) to CTF 1.8, for babeltrace2 and\n"
	"Trace Compass: DIR (new or empty) holds the trace of one file, or one\n"
	"trace per file, DIR/HOST-N/, for several.  Or convert one trace file to\n"
	"the text of ftrace's tracefs \"trace\" file, for Perfetto and scripts.\n\n"
	"      --ctf DIR        the output directory\n"
	"      --offset FILE=NS add NS nanoseconds to FILE's times (several files)\n"
	"      --ftrace         ftrace's text, to standard output or OUT\n"
	"  -o, --output OUT     with --ftrace: the file to write (made or replaced)\n"
	"  -h, --help           this help\n";

/* ktrace convert --ftrace [-o OUT] [FILE]: one trace, ftrace's text. */
static int convert_ftrace(struct kt_set *set, int argc, char **argv, const char *path)
{
	FILE *out = stdout;
	int ret;

	if (argc > 1) {
		fprintf(stderr, "ktrace convert: --ftrace converts one trace file, not %d\n",
			argc);
		return EXIT_USAGE;
	}
	ret = kt_set_open(set, "convert", argc, argv);
	if (ret)
		return ret;
	if (path) {
		out = fopen(path, "w");
		if (!out) {
			fprintf(stderr, "ktrace convert: -o %s: %s\n", path, strerror(errno));
			return 1;
		}
	}
	ret = kt_ftrace_write(&set->traces[0], "convert", out) ? 1 : 0;
	if (path && fclose(out) && !ret) {
		fprintf(stderr, "ktrace convert: -o %s: %s\n", path, strerror(errno));
		ret = 1;
	}
	return ret;
}

int cmd_convert(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "ctf", required_argument, NULL, 'c' },
		{ "offset", required_argument, NULL, 'O' },
		{ "ftrace", no_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct kt_set set = { 0 };
	struct out_dir o = { .cmd = "convert" };
	const char *output = NULL;
	bool ftrace = false;
	int c, ret;

	while ((c = getopt_long(argc, argv, "ho:", opts, NULL)) != -1) {
		switch (c) {
		case 'c':
			o.dir = optarg;
			break;
		case 'f':
			ftrace = true;
			break;
		case 'o':
			output = optarg;
			break;
		case 'O':
			ret = kt_set_offset(&set, "convert", optarg);
			if (ret) {
				kt_set_close(&set);
				return ret;
			}
			break;
		case 'h':
			fputs(convert_help, stdout);
			kt_set_close(&set);
			return 0;
		default:
			fputs(convert_help, stderr);
			kt_set_close(&set);
			return 2;
		}
	}
	if (ftrace && (o.dir || set.nr_offsets || (output && !output[0]))) {
		fprintf(stderr, "ktrace convert: --ftrace takes -o OUT, not --ctf or --offset\n");
		kt_set_close(&set);
		return 2;
	}
	if (ftrace) {
		ret = convert_ftrace(&set, argc - optind, argv + optind, output);
		kt_set_close(&set);
		return ret;
	}
	if (output) {
		fprintf(stderr, "ktrace convert: -o is for --ftrace (--ctf DIR names the output)\n");
		kt_set_close(&set);
		return 2;
	}
	if (!o.dir || !o.dir[0]) {
		fprintf(stderr, "ktrace convert: --ctf DIR is required (or --ftrace)\n");
		kt_set_close(&set);
		return 2;
	}
	ret = kt_set_open(&set, "convert", argc - optind, argv + optind);
	if (!ret && out_dir_ready("convert", o.dir))
		ret = 1;
	if (!ret && kt_ctf_write(&set, "convert", open_in_dir, &o))
		ret = 1;
	kt_set_close(&set);
	return ret;
}
