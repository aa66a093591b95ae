// SPDX-License-Identifier: GPL-2.0
/*
 * tools/ktrace: read a trace file and decode it from its own metadata.
 *
 * Nothing in the file is trusted: every length is checked against what
 * is left, a bad subbuffer header makes the decoder look for the next
 * one, a bad record ends its subbuffer, and each problem is reported
 * once with its file offset while the rest is decoded.  Allocations are
 * bounded by the size of the file.
 */
#include <ctype.h>
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "trace.h"
#include "../../kernel/trace/ktrace/format.h"
/* After format.h, whose static_assert()s are the C11 ones. */
#include <linux/kernel.h>		/* tools/include: ARRAY_SIZE() */

#define MAX_WARNINGS	20

void kt_warn(struct kt_trace *t, uint64_t offset, const char *fmt, ...)
{
	va_list ap;

	if (++t->warnings > MAX_WARNINGS) {
		if (t->warnings == MAX_WARNINGS + 1)
			fprintf(stderr, "ktrace: %s: more problems, not shown\n", t->path);
		return;
	}
	fprintf(stderr, "ktrace: %s: offset %llu: warning: ", t->path,
		(unsigned long long)offset);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/**
 * kt_put_section() - write one section of a trace file
 * @f: the file
 * @type: enum ktf_section_type
 * @ch: the channel of a stream section, else 0
 * @cpu: the CPU of a stream section, else 0
 * @data: its bytes
 * @len: how many
 *
 * The header, the bytes and the zero padding to a multiple of 8.
 *
 * Return: 0, or -1 with errno set by the failed write.
 */
int kt_put_section(FILE *f, uint32_t type, unsigned int ch, unsigned int cpu,
		   const void *data, size_t len)
{
	static const char zero[8];
	struct ktf_section s = {
		.type = htole32(type),
		.channel = htole16(ch),
		.cpu = htole16(cpu),
		.length = htole64(len),
	};
	size_t pad = (8 - len % 8) % 8;

	if (fwrite(&s, sizeof(s), 1, f) != 1 || (len && fwrite(data, 1, len, f) != len) ||
	    (pad && fwrite(zero, 1, pad, f) != pad))
		return -1;
	return 0;
}

/**
 * kt_put_header() - write the file header of a trace file
 * @f: the file, at its start
 *
 * The header of the layout trace.h describes: the writer promises a
 * KTF_END section last (KTF_FLAG_END), so that a reader can tell a file
 * cut short.
 *
 * Return: 0, or -1 with errno set by the failed write.
 */
int kt_put_header(FILE *f)
{
	struct ktf_header h = {
		.magic = KTF_MAGIC,
		.version = htole32(KTF_VERSION),
		.flags = htole32(KTF_FLAG_END),
	};

	return fwrite(&h, sizeof(h), 1, f) == 1 ? 0 : -1;
}

/**
 * kt_put_trace() - write a whole trace file from a decoded trace
 * @f: the file, empty
 * @t: the trace
 * @symbols: the text of its symbols section (NULL: @t's own, if any)
 * @len: its length
 *
 * The layout of trace.h: the header, the text sections but stats and
 * symbols, the streams (low, medium, high: the metadata first), the
 * stats, the symbols and the end.
 *
 * Return: 0, or -1 with errno set by the failed write.
 */
int kt_put_trace(FILE *f, const struct kt_trace *t, const char *symbols, size_t len)
{
	static const unsigned int first[] = { KTF_UNAME, KTF_EVENTS, KTF_TASKS, KTF_COMMS,
					      KTF_TRIGGERS };
	unsigned int i, ch;

	if (kt_put_header(f))
		return -1;
	for (i = 0; i < ARRAY_SIZE(first); i++)
		if (t->text[first[i]] && kt_put_section(f, first[i], 0, 0, t->text[first[i]],
							strlen(t->text[first[i]])))
			return -1;
	for (ch = KTRACE_NR_CHANNELS; ch-- > 0;)
		for (i = 0; i < t->nr_streams; i++)
			if (t->streams[i].channel == ch &&
			    kt_put_section(f, KTF_STREAM, ch, t->streams[i].cpu,
					   t->streams[i].data, t->streams[i].size))
				return -1;
	if (t->text[KTF_STATS] && kt_put_section(f, KTF_STATS, 0, 0, t->text[KTF_STATS],
						 strlen(t->text[KTF_STATS])))
		return -1;
	if (!symbols && t->text[KTF_SYMBOLS]) {
		symbols = t->text[KTF_SYMBOLS];
		len = strlen(symbols);
	}
	if (symbols && kt_put_section(f, KTF_SYMBOLS, 0, 0, symbols, len))
		return -1;
	return kt_put_section(f, KTF_END, 0, 0, NULL, 0);
}

/* The control directory: $KTRACE_DIR, else KT_DEFAULT_DIR. */
const char *kt_dir(void)
{
	const char *dir = getenv("KTRACE_DIR");

	return dir && *dir ? dir : KT_DEFAULT_DIR;
}

const char *kt_channel_name(unsigned int ch)
{
	static const char *const names[] = { "high", "medium", "low" };

	return ch < KTRACE_NR_CHANNELS ? names[ch] : "?";
}

static struct kt_stream *stream_of(struct kt_trace *t, unsigned int ch,
				   unsigned int cpu, uint64_t offset)
{
	struct kt_stream *s;
	unsigned int i;

	for (i = 0; i < t->nr_streams; i++)
		if (t->streams[i].channel == ch && t->streams[i].cpu == cpu)
			return &t->streams[i];
	s = realloc(t->streams, (t->nr_streams + 1) * sizeof(*s));
	if (!s)
		return NULL;
	t->streams = s;
	s = &t->streams[t->nr_streams++];
	memset(s, 0, sizeof(*s));
	s->channel = ch;
	s->cpu = cpu;
	s->file_offset = offset;
	return s;
}

static int stream_cmp(const void *a, const void *b)
{
	const struct kt_stream *x = a, *y = b;

	if (x->channel != y->channel)
		return x->channel < y->channel ? -1 : 1;
	return x->cpu < y->cpu ? -1 : x->cpu > y->cpu;
}

/* Copy a NUL-padded name of the trace into a C string. */
static void name_copy(char *dst, const char *src, size_t len)
{
	memcpy(dst, src, len);
	dst[len] = '\0';
}

/* Parse the sections; 0, or -1 if the file is not a trace at all. */
static int read_sections(struct kt_trace *t, const unsigned char *map, size_t size)
{
	struct ktf_header h;
	uint64_t off = sizeof(h);

	if (size < sizeof(h)) {
		fprintf(stderr, "ktrace: %s: offset 0: too short for a trace file\n", t->path);
		return -1;
	}
	memcpy(&h, map, sizeof(h));
	if (memcmp(h.magic, KTF_MAGIC, 8)) {
		fprintf(stderr, "ktrace: %s: offset 0: not a ktrace trace file\n", t->path);
		return -1;
	}
	if (le32toh(h.version) != KTF_VERSION) {
		fprintf(stderr, "ktrace: %s: offset 8: trace file version %u, this tool reads %u\n",
			t->path, le32toh(h.version), KTF_VERSION);
		return -1;
	}
	t->flags = le32toh(h.flags);
	t->size = size;
	/* Cut short until its end is seen (a file of the end flag). */
	t->cut = t->flags & KTF_FLAG_END;
	while (off < size) {
		struct ktf_section sec;
		uint64_t len, type;
		struct kt_stream *s;
		unsigned char *p;

		if (size - off < sizeof(sec)) {
			if (!t->cut)
				kt_warn(t, off, "truncated section header");
			break;
		}
		memcpy(&sec, map + off, sizeof(sec));
		len = le64toh(sec.length);
		type = le32toh(sec.type);
		if (len > size - off - sizeof(sec)) {
			/* A file of the end flag: said once, by cut_note(). */
			if (!t->cut)
				kt_warn(t, off,
					"section of %llu bytes, only %llu left: truncated file",
					(unsigned long long)len,
					(unsigned long long)(size - off - sizeof(sec)));
			len = size - off - sizeof(sec);
		}
		if (type == KTF_END && (t->flags & KTF_FLAG_END)) {
			t->cut = false;
			off += sizeof(sec) + ((len + 7) & ~7ULL);
			if (off < size)
				kt_warn(t, off, "%llu bytes after the end section ignored",
					(unsigned long long)(size - off));
			break;
		}
		off += sizeof(sec);
		if (type == KTF_STREAM) {
			unsigned int ch = le16toh(sec.channel), cpu = le16toh(sec.cpu);

			if (!len) {
				/* Nothing to add. */
			} else if (ch >= KTRACE_NR_CHANNELS || cpu >= KTF_MAX_CPUS) {
				kt_warn(t, off - sizeof(sec), "stream of channel %u, CPU %u ignored",
					ch, cpu);
			} else {
				s = stream_of(t, ch, cpu, off);
				p = s ? realloc(s->data, s->size + len) : NULL;
				if (!p) {
					fprintf(stderr, "ktrace: %s: out of memory\n", t->path);
					return -1;
				}
				memcpy(p + s->size, map + off, len);
				s->data = p;
				s->size += len;
			}
		} else if (type >= KTF_UNAME && type <= KTF_TEXT_LAST) {
			size_t old = t->text[type] ? strlen(t->text[type]) : 0;

			p = realloc(t->text[type], old + len + 1);
			if (!p) {
				fprintf(stderr, "ktrace: %s: out of memory\n", t->path);
				return -1;
			}
			if (!t->text[type])
				t->text_offset[type] = off;
			memcpy(p + old, map + off, len);
			p[old + len] = '\0';
			/* Text stops at a NUL byte, whatever the file holds. */
			t->text[type] = (char *)p;
		} else {
			kt_warn(t, off - sizeof(sec), "unknown section type %llu skipped",
				(unsigned long long)type);
		}
		off += (len + 7) & ~7ULL;
	}
	if (t->nr_streams)
		qsort(t->streams, t->nr_streams, sizeof(*t->streams), stream_cmp);
	return 0;
}

/*
 * Decode one record at p, avail bytes, with the kernel's decoder; clock is
 * the decoder's full clock.  Returns its size, 0 at the end, or -1 if it
 * is corrupt.
 */
static int decode_record(const unsigned char *p, size_t avail, uint64_t *clock,
			 struct kt_record *r)
{
	struct ktrace_record rec;
	int ret = ktrace_decode_record(p, avail, clock, &rec);

	if (ret <= 0)
		return ret == -ENODATA ? 0 : -1;
	r->id = rec.id;
	r->clock = rec.clock;
	r->payload = rec.payload;
	r->major = rec.major;
	r->minor = rec.minor;
	r->length = rec.length;
	r->data = rec.data;
	return ret;
}

/*
 * The format versions this tool reads: a version 2 decoder reads version 1
 * traces unchanged, as they only use what version 1 defines.
 */
static bool version_ok(unsigned int version)
{
	return version >= KTRACE_FORMAT_VERSION_MIN && version <= KTRACE_FORMAT_VERSION;
}

/* Refuse a trace of a version this tool does not read; always -1. */
static int bad_version(const struct kt_trace *t, unsigned int version)
{
	fprintf(stderr,
		"ktrace: %s: trace format version %u; this ktrace reads versions %u to %u\n",
		t->path, version, KTRACE_FORMAT_VERSION_MIN, KTRACE_FORMAT_VERSION);
	return -1;
}

/* A subbuffer header at off of stream s; its total size, or 0 if bad. */
static size_t subbuf_at(const struct kt_stream *s, size_t off,
			struct ktrace_subbuf_header *h)
{
	if (s->size - off < sizeof(*h)) {
		memset(h, 0, sizeof(*h));
		return 0;
	}
	memcpy(h, s->data + off, sizeof(*h));
	if (h->magic != KTRACE_MAGIC || !version_ok(h->version) ||
	    h->channel != s->channel || h->cpu != s->cpu || h->data_size % 4 ||
	    h->data_size > s->size - off - sizeof(*h))
		return 0;
	return sizeof(*h) + h->data_size;
}

/* The next good subbuffer header at or after off, 4-byte aligned. */
static size_t next_subbuf(struct kt_trace *t, const struct kt_stream *s, size_t off,
			  struct ktrace_subbuf_header *h, size_t *size)
{
	bool warned = false;

	for (; off + sizeof(*h) <= s->size; off += 4) {
		*size = subbuf_at(s, off, h);
		if (*size)
			return off;
		if (!warned) {
			/* A header of another version: its version rather than "bad". */
			if (h->magic == KTRACE_MAGIC && !version_ok(h->version))
				kt_warn(t, s->file_offset + off,
					"%s CPU %u: subbuffer of format version %u, looking for the next",
					kt_channel_name(s->channel), s->cpu, h->version);
			else
				kt_warn(t, s->file_offset + off,
					"%s CPU %u: bad subbuffer header, looking for the next",
					kt_channel_name(s->channel), s->cpu);
			warned = true;
		}
	}
	if (off < s->size && !warned)
		kt_warn(t, s->file_offset + off, "CPU %u: %zu bytes after the last subbuffer",
			s->cpu, s->size - off);
	return s->size;
}

static struct kt_event *lookup(struct kt_trace *t, unsigned int ch, const struct kt_record *r)
{
	if (r->id == KTRACE_ID_EXPANDED)
		return t->expanded[r->major][r->minor];
	if (r->id <= KTRACE_ID_COMPACT_MAX && ch < KTRACE_NR_CHANNELS)
		return t->compact[ch][r->id];
	return NULL;
}

static void event_free(struct kt_event *e)
{
	unsigned int i;

	if (!e)
		return;
	for (i = 0; i < e->nr_fields; i++)
		free(e->fields[i].values);
	free(e->fields);
	free(e);
}

/* Make e the event of its id, in place of an earlier definition. */
static void event_install(struct kt_trace *t, struct kt_event *e)
{
	struct kt_event **slot;

	if (e->kind == KTRACE_EVENT_EXPANDED)
		slot = &t->expanded[e->major][e->minor];
	else
		slot = &t->compact[e->channel][e->id];
	if (*slot)
		event_free(*slot);
	*slot = e;
}

/*
 * A trace record announces the metadata records after it (0: not known);
 * fewer before the next trace record or the end of the stream means that
 * some did not fit, and events may be undecodable.
 */
static void check_metadata_count(struct kt_trace *t, uint64_t at, unsigned int want,
				 unsigned int got)
{
	if (got < want)
		kt_warn(t, at, "metadata incomplete: %u of the %u records announced", got,
			want);
}

/* Remove @e, installed by event_install(), and free it. */
static void event_drop(struct kt_trace *t, struct kt_event *e)
{
	struct kt_event **slot;

	if (e->kind == KTRACE_EVENT_EXPANDED)
		slot = &t->expanded[e->major][e->minor];
	else
		slot = &t->compact[e->channel][e->id];
	if (*slot == e)
		*slot = NULL;
	event_free(e);
}

/*
 * Whether field @m of an event of kind @kind is one the uapi allows: a
 * compact field of 1 to 32 bits within the payload; an expanded field a
 * string or a number of 1, 2, 4 or 8 bytes (as the kernel's ascii pipe
 * reads them).  The decoding of values relies on it.
 */
static bool field_ok(unsigned int kind, const struct ktrace_meta_field *m)
{
	if (kind == KTRACE_EVENT_COMPACT)
		return m->size && m->size <= 32 && m->offset + m->size <= 32;
	return m->display == KTRACE_DISPLAY_STRING || m->size == 1 || m->size == 2 ||
	       m->size == 4 || m->size == 8;
}

/*
 * The metadata of one low-channel stream, in order; 0, or -1 after saying
 * so if its trace record is of a version this tool does not read.
 */
/* Where read_metadata() is: the event whose fields come, the records counted. */
struct meta_state {
	struct kt_event *ev;
	unsigned int field, meta_want, meta_got;
	/* The fields and values of an event dropped for a bad field. */
	bool dropped;
	uint64_t meta_at;
};

/*
 * The metadata records, one function each: 0; 1 if @r is too short for
 * its record; -1 to stop reading the trace.
 */
static int meta_trace(struct kt_trace *t, struct meta_state *m, const struct kt_record *r,
		      uint64_t at)
{
	if (r->length < sizeof(t->machine))
		return 1;
	memcpy(&t->machine, r->data, sizeof(t->machine));
	if (!version_ok(t->machine.version))
		return bad_version(t, t->machine.version);
	t->have_trace = true;
	check_metadata_count(t, m->meta_at, m->meta_want, m->meta_got - 1);
	m->meta_want = t->machine.nr_records;
	m->meta_got = 0;
	m->meta_at = at;
	return 0;
}

static int meta_clock(struct kt_trace *t, const struct kt_record *r, uint64_t at)
{
	struct ktrace_meta_clock c;

	if (r->length < sizeof(c))
		return 1;
	memcpy(&c, r->data, sizeof(c));
	if (!c.freq_hz || c.shift > 63) {
		kt_warn(t, at, "clock record with frequency %llu, shift %u ignored",
			(unsigned long long)c.freq_hz, c.shift);
		return 0;
	}
	/* The newest reference converts every value. */
	if (!t->have_clock || c.ref_clock >= t->clock.ref_clock)
		t->clock = c;
	t->have_clock = true;
	return 0;
}

static int meta_channel(struct kt_trace *t, const struct kt_record *r)
{
	struct ktrace_meta_channel c;

	if (r->length < sizeof(c))
		return 1;
	memcpy(&c, r->data, sizeof(c));
	if (c.channel < KTRACE_NR_CHANNELS)
		t->channels[c.channel] = c;
	return 0;
}

static int meta_event(struct kt_trace *t, struct meta_state *s, const struct kt_record *r,
		      uint64_t at)
{
	struct ktrace_meta_event m;
	struct kt_event *ev;

	if (r->length < sizeof(m))
		return 1;
	memcpy(&m, r->data, sizeof(m));
	if (s->ev && s->field < s->ev->nr_fields)
		kt_warn(t, at, "event %s:%s has %u of its %u fields",
			s->ev->group, s->ev->name, s->field, s->ev->nr_fields);
	s->ev = NULL;
	s->dropped = false;
	if (m.channel >= KTRACE_NR_CHANNELS || m.kind > KTRACE_EVENT_EXPANDED ||
	    (m.kind == KTRACE_EVENT_COMPACT && m.id > KTRACE_ID_COMPACT_MAX)) {
		kt_warn(t, at, "event record with channel %u, kind %u, id %u ignored",
			m.channel, m.kind, m.id);
		return 0;
	}
	ev = calloc(1, sizeof(*ev));
	if (ev && m.nr_fields)
		ev->fields = calloc(m.nr_fields, sizeof(*ev->fields));
	if (!ev || (m.nr_fields && !ev->fields)) {
		free(ev);
		return 0;
	}
	ev->channel = m.channel;
	ev->kind = m.kind;
	ev->id = m.id;
	ev->major = m.major;
	ev->minor = m.minor;
	ev->flags = m.flags;
	ev->nr_fields = m.nr_fields;
	name_copy(ev->group, m.group, KTRACE_NAME_LEN);
	name_copy(ev->name, m.name, KTRACE_NAME_LEN);
	s->field = 0;
	s->ev = ev;
	event_install(t, ev);
	return 0;
}

static int meta_field(struct kt_trace *t, struct meta_state *s, const struct kt_record *r,
		      uint64_t at)
{
	struct kt_event *ev = s->ev;
	struct ktrace_meta_field m;
	struct kt_field *f;

	if (r->length < sizeof(m))
		return 1;
	if (s->dropped)
		return 0;
	if (!ev || s->field >= ev->nr_fields) {
		kt_warn(t, at, "field record without its event");
		return 0;
	}
	memcpy(&m, r->data, sizeof(m));
	if (!field_ok(ev->kind, &m)) {
		kt_warn(t, at, "event %s:%s ignored: field %.*s of offset %u, size %u",
			ev->group, ev->name, KTRACE_NAME_LEN, m.name, m.offset, m.size);
		event_drop(t, ev);
		s->ev = NULL;
		s->dropped = true;
		return 0;
	}
	f = &ev->fields[s->field++];
	name_copy(f->name, m.name, KTRACE_NAME_LEN);
	f->offset = m.offset;
	f->size = m.size;
	f->display = m.display;
	f->flags = m.flags;
	/* Allocated as read: an announced count costs nothing. */
	f->values = NULL;
	f->nr_values = 0;
	f->values_size = 0;
	f->max_values = m.nr_values;
	return 0;
}

static int meta_enum(struct kt_trace *t, struct meta_state *s, const struct kt_record *r,
		     uint64_t at)
{
	struct kt_field *f = s->ev && s->field ? &s->ev->fields[s->field - 1] : NULL;
	struct ktrace_meta_enum m;
	struct kt_enum *e;

	if (r->length < sizeof(m))
		return 1;
	if (s->dropped)
		return 0;
	if (!f || f->nr_values >= f->max_values) {
		kt_warn(t, at, "enum record without its field");
		return 0;
	}
	if (f->nr_values == f->values_size) {
		unsigned int n = f->values_size ? 2 * f->values_size : 8;

		n = n < f->max_values ? n : f->max_values;
		e = realloc(f->values, n * sizeof(*e));
		if (!e)
			return 0;
		f->values = e;
		f->values_size = n;
	}
	memcpy(&m, r->data, sizeof(m));
	/* Only the values read count: a table cut short has no zeroes. */
	e = &f->values[f->nr_values++];
	e->value = (uint64_t)m.value_hi << 32 | m.value_lo;
	name_copy(e->name, m.name, KTRACE_NAME_LEN);
	return 0;
}

/* One metadata record at file offset @at: 0, or -1 to stop reading. */
static int meta_one(struct kt_trace *t, struct meta_state *m, const struct kt_record *r,
		    uint64_t at)
{
	int ret;

	m->meta_got++;
	switch (r->minor) {
	case KTRACE_META_TRACE:
		ret = meta_trace(t, m, r, at);
		break;
	case KTRACE_META_CLOCK:
		ret = meta_clock(t, r, at);
		break;
	case KTRACE_META_CHANNEL:
		ret = meta_channel(t, r);
		break;
	case KTRACE_META_EVENT:
		ret = meta_event(t, m, r, at);
		break;
	case KTRACE_META_FIELD:
		ret = meta_field(t, m, r, at);
		break;
	case KTRACE_META_ENUM:
		ret = meta_enum(t, m, r, at);
		break;
	default:
		kt_warn(t, at, "unknown metadata record %u ignored", r->minor);
		ret = 0;
	}
	if (ret > 0)
		kt_warn(t, at, "metadata record %u too short (%u bytes)", r->minor,
			r->length);
	return ret < 0 ? -1 : 0;
}

static int read_metadata(struct kt_trace *t, const struct kt_stream *s)
{
	struct meta_state m = { 0 };
	struct ktrace_subbuf_header h;
	size_t off = 0, size;

	while ((off = next_subbuf(t, s, off, &h, &size)) < s->size) {
		size_t pos = sizeof(h);
		uint64_t clock = 0;
		struct kt_record r;
		int ret;

		while ((ret = decode_record(s->data + off + pos, size - pos, &clock, &r)) > 0) {
			uint64_t at = s->file_offset + off + pos;

			pos += ret;
			if (r.id != KTRACE_ID_EXPANDED || r.major != KTRACE_META_MAJOR)
				continue;
			if (meta_one(t, &m, &r, at))
				return -1;
		}
		if (ret < 0)
			kt_warn(t, s->file_offset + off + pos, "corrupt record, rest of subbuffer skipped");
		off += size;
	}
	check_metadata_count(t, m.meta_at, m.meta_want, m.meta_got);
	return 0;
}

static int task_cmp(const void *a, const void *b)
{
	const struct kt_task *x = a, *y = b;

	return (x->pid > y->pid) - (x->pid < y->pid);
}

/*
 * By pid, then by position: a section written twice (at the start and the
 * end of a recording) names a pid by its later line.  The comm of the
 * sort is the line's index (the names are copied back after).
 */
struct task_line {
	struct kt_task task;
	size_t line;
};

static int task_line_cmp(const void *a, const void *b)
{
	const struct task_line *x = a, *y = b;

	if (x->task.pid != y->task.pid)
		return (x->task.pid > y->task.pid) - (x->task.pid < y->task.pid);
	return (x->line > y->line) - (x->line < y->line);
}

/* Sort @n tasks by pid, keeping the last of each pid; how many are left. */
static size_t tasks_unique(struct kt_task *tasks, size_t n)
{
	struct task_line *l = malloc(n * sizeof(*l));
	size_t i, out = 0;

	if (!l) {
		qsort(tasks, n, sizeof(*tasks), task_cmp);
		return n;
	}
	for (i = 0; i < n; i++) {
		l[i].task = tasks[i];
		l[i].line = i;
	}
	qsort(l, n, sizeof(*l), task_line_cmp);
	for (i = 0; i < n; i++) {
		if (out && tasks[out - 1].pid == l[i].task.pid)
			out--;
		tasks[out++] = l[i].task;
	}
	free(l);
	return out;
}

/* "PID COMM" lines of a text section (tasks, comms), sorted by pid. */
static unsigned int read_tasks(const char *p, struct kt_task **tasks)
{
	size_t n = 0, max = 0;

	while (p && *p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		struct kt_task task = { 0 };
		char *end;
		long pid = strtol(p, &end, 10);

		if (end != p && *end == ' ' && pid >= 0 && pid <= INT32_MAX &&
		    len > (size_t)(end - p) + 1) {
			size_t clen = len - (end - p) - 1;

			task.pid = pid;
			memcpy(task.comm, end + 1, clen < 16 ? clen : 16);
			if (n == max) {
				struct kt_task *nt;

				max = max ? 2 * max : 256;
				nt = realloc(*tasks, max * sizeof(*nt));
				if (!nt)
					break;
				*tasks = nt;
			}
			(*tasks)[n++] = task;
		}
		p += len + !!nl;
	}
	return n ? tasks_unique(*tasks, n) : 0;
}

static int symbol_cmp(const void *a, const void *b)
{
	const struct kt_symbol *x = a, *y = b;

	return (x->value > y->value) - (x->value < y->value);
}

/* "0x" and hexadecimal digits at *p, which is moved past them. */
static bool hex_word(const char **p)
{
	const char *s = *p;

	if (s[0] != '0' || s[1] != 'x' || !isxdigit((unsigned char)s[2]))
		return false;
	for (s += 2; isxdigit((unsigned char)*s); s++)
		;
	*p = s;
	return true;
}

/*
 * Whether s is a symbol as symbols.c writes them: NAME+0xOFF/0xSIZE,
 * then " [MODULE]" or nothing; or "?".  The line's bytes are printable.
 */
static bool symbol_ok(const char *s)
{
	const char *plus = NULL, *p;

	if (!strcmp(s, "?"))
		return true;
	for (p = s; *p && *p != ' '; p++)
		if (*p == '+')
			plus = p;
	if (!plus || plus == s)
		return false;
	p = plus + 1;
	if (!hex_word(&p) || *p++ != '/' || !hex_word(&p))
		return false;
	if (!*p)
		return true;
	if (p[0] != ' ' || p[1] != '[' || p[2] == ']')
		return false;
	for (p += 2; *p && *p != ']' && *p != ' ' && *p != '['; p++)
		;
	return p[0] == ']' && !p[1];
}

/*
 * The symbols section: "VALUE NAME" lines, VALUE in hexadecimal; lines
 * starting with '#' are comments, "# hidden" first says that the values
 * are tokens.  Malformed lines are skipped, and so are lines that report
 * would print as they are but are no symbol of symbols.c's form, or hold
 * bytes that are not printable ASCII (a crafted trace's terminal
 * controls): one warning for all.
 */
static void read_symbols(struct kt_trace *t)
{
	size_t n = 0, max = 0, bad = 0, first_bad = 0;
	char *p;

	if (!t->text[KTF_SYMBOLS])
		return;
	t->symbol_names = strdup(t->text[KTF_SYMBOLS]);
	t->symbols_hidden = !strncmp(t->text[KTF_SYMBOLS], "# hidden\n", 9);
	for (p = t->symbol_names; p && *p;) {
		char *nl = strchr(p, '\n'), *end, *c;
		unsigned long long v;
		bool printable = true;

		if (nl)
			*nl = '\0';
		for (c = p; *c; c++)
			if ((unsigned char)*c < 0x20 || (unsigned char)*c > 0x7e)
				printable = false;
		v = strtoull(p, &end, 16);
		if (*p == '#' && printable) {
			/* A comment. */
		} else if (printable && end != p && *end == ' ' && symbol_ok(end + 1)) {
			if (n == max) {
				struct kt_symbol *ns;

				max = max ? 2 * max : 256;
				ns = realloc(t->symbols, max * sizeof(*ns));
				if (!ns)
					break;
				t->symbols = ns;
			}
			t->symbols[n].value = v;
			t->symbols[n++].name = end + 1;
		} else if (*p && !bad++) {
			first_bad = p - t->symbol_names;
		}
		p = nl ? nl + 1 : p + strlen(p);
	}
	if (bad)
		kt_warn(t, t->text_offset[KTF_SYMBOLS] + first_bad,
			"symbols section: %zu bad lines skipped (the first here)", bad);
	t->nr_symbols = n;
	if (n)
		qsort(t->symbols, n, sizeof(*t->symbols), symbol_cmp);
}

const char *kt_symbol(const struct kt_trace *t, uint64_t value)
{
	struct kt_symbol key = { .value = value }, *found = NULL;

	if (t->nr_symbols)
		found = bsearch(&key, t->symbols, t->nr_symbols, sizeof(key), symbol_cmp);
	return found ? found->name : NULL;
}

/*
 * A stream of a file cut short ends inside a subbuffer: keep its whole
 * records, as a shorter subbuffer (its header's data_size), so that every
 * reader decodes them without a warning.  The copy of the stream is
 * changed, never the file.
 */
static void trim_cut_stream(struct kt_stream *s)
{
	struct ktrace_subbuf_header h;
	size_t off = 0, size, pos;
	uint64_t clock = 0;

	while (off < s->size) {
		size = subbuf_at(s, off, &h);
		if (size) {
			off += size;
			continue;
		}
		if (s->size - off < sizeof(h)) {
			s->size = off;
			return;
		}
		if (h.magic != KTRACE_MAGIC || !version_ok(h.version) ||
		    h.channel != s->channel || h.cpu != s->cpu || h.data_size % 4) {
			off += 4;	/* corrupt: the readers say so */
			continue;
		}
		/* The subbuffer the cut fell in: its whole records. */
		for (pos = sizeof(h);;) {
			struct kt_record r;
			int ret = decode_record(s->data + off + pos, s->size - off - pos,
						&clock, &r);

			if (ret <= 0)
				break;
			pos += ret;
		}
		h.data_size = pos - sizeof(h);
		memcpy(s->data + off, &h, sizeof(h));
		s->size = off + pos;
		return;
	}
}

/* Whether @t has any event in its metadata. */
static bool have_events(const struct kt_trace *t)
{
	unsigned int i, j;

	for (i = 0; i < 256 * 256; i++)
		if (t->expanded[i / 256][i % 256])
			return true;
	for (i = 0; i < KTRACE_NR_CHANNELS; i++)
		for (j = 0; j <= KTRACE_ID_COMPACT_MAX; j++)
			if (t->compact[i][j])
				return true;
	return false;
}

/* Whether a stream of events (not the metadata's) has a record. */
static bool have_records(const struct kt_trace *t)
{
	struct ktrace_subbuf_header h;
	unsigned int i;

	for (i = 0; i < t->nr_streams; i++) {
		const struct kt_stream *s = &t->streams[i];
		size_t off = 0, size;

		while (s->channel != KTRACE_CHANNEL_LOW && off < s->size) {
			size = subbuf_at(s, off, &h);
			if (size && h.data_size)
				return true;
			off += size ? size : 4;
		}
	}
	return false;
}

/*
 * A file cut short: say where, and what it lacks.  -1 if nothing in it
 * can be decoded (no metadata, or no event), 0 if what it holds is decoded.
 */
static int cut_note(struct kt_trace *t)
{
	static const struct {
		unsigned int type;
		const char *what;
	} parts[] = {
		{ KTF_UNAME, "uname" }, { KTF_EVENTS, "the enabled events" },
		{ KTF_TASKS, "the tasks" }, { KTF_COMMS, "the saved comms" },
		{ KTF_TRIGGERS, "the triggers" }, { KTF_STATS, "the stats" },
		{ KTF_SYMBOLS, "the symbols" },
	};
	char missing[256] = "";
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(parts); i++)
		if (!t->text[parts[i].type])
			snprintf(missing + strlen(missing), sizeof(missing) - strlen(missing),
				 "%s%s", *missing ? ", " : "", parts[i].what);
	if (!t->have_trace || !have_events(t) || !have_records(t)) {
		fprintf(stderr,
			"ktrace: %s: the file is cut short at byte %llu%s, before %s: nothing can be decoded\n",
			t->path, (unsigned long long)t->size, t->zstd ? " of its trace" : "",
			!t->have_trace || !have_events(t) ? "the end of the trace's metadata" :
			"its first event");
		return -1;
	}
	fprintf(stderr,
		"ktrace: %s: the file is cut short at byte %llu%s (no end section): decoding what it holds; the events after the cut are missing%s%s\n",
		t->path, (unsigned long long)t->size, t->zstd ? " of its trace" : "",
		*missing ? "; not in it: " : "", missing);
	return 0;
}

static int open_mem(struct kt_trace *t, const char *name, const void *data, size_t size,
		    bool zstd);

/**
 * kt_open_mem() - decode a trace file already in memory
 * @t: the trace, filled in
 * @name: its name, for messages
 * @data: the file's bytes
 * @size: how many
 *
 * Return: 0, or -1 if it is not a trace file at all (said on stderr).
 */
int kt_open_mem(struct kt_trace *t, const char *name, const void *data, size_t size)
{
	return open_mem(t, name, data, size, false);
}

/* kt_open_mem(), of the trace in a zstd file if @zstd: its offsets are the trace's. */
static int open_mem(struct kt_trace *t, const char *name, const void *data, size_t size,
		    bool zstd)
{
	unsigned int i;

	memset(t, 0, sizeof(*t));
	t->path = name;
	t->zstd = zstd;
	if (read_sections(t, data, size)) {
		kt_close(t);
		return -1;
	}
	/*
	 * A trace of another version: said once, rather than each of its
	 * subbuffers warned of as a bad header.
	 */
	for (i = 0; i < t->nr_streams; i++) {
		struct ktrace_subbuf_header h;

		if (t->streams[i].size < sizeof(h))
			continue;
		memcpy(&h, t->streams[i].data, sizeof(h));
		if (h.magic == KTRACE_MAGIC && !version_ok(h.version)) {
			bad_version(t, h.version);
			kt_close(t);
			return -1;
		}
	}
	for (i = 0; t->cut && i < t->nr_streams; i++)
		trim_cut_stream(&t->streams[i]);
	for (i = 0; i < t->nr_streams; i++) {
		if (t->streams[i].channel == KTRACE_CHANNEL_LOW &&
		    read_metadata(t, &t->streams[i])) {
			kt_close(t);
			return -1;
		}
	}
	if (t->cut && cut_note(t)) {
		kt_close(t);
		return -1;
	}
	if (!t->have_clock)
		kt_warn(t, 0, "no clock in the metadata: times are raw clock values");
	t->nr_tasks = read_tasks(t->text[KTF_TASKS], &t->tasks);
	t->nr_comms = read_tasks(t->text[KTF_COMMS], &t->comms);
	read_symbols(t);
	return 0;
}

int kt_open(struct kt_trace *t, const char *path)
{
	struct stat st;
	void *map;
	int fd, ret;

	memset(t, 0, sizeof(*t));
	t->path = path;
	fd = open(path, O_RDONLY);
	if (fd < 0 || fstat(fd, &st)) {
		fprintf(stderr, "ktrace: %s: %s\n", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	if (!S_ISREG(st.st_mode) || !st.st_size) {
		fprintf(stderr, "ktrace: %s: offset 0: %s\n", path,
			S_ISREG(st.st_mode) ? "empty file" : "not a regular file");
		close(fd);
		return -1;
	}
	map = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED) {
		fprintf(stderr, "ktrace: %s: %s\n", path, strerror(errno));
		return -1;
	}
	if (kt_is_compressed(map, st.st_size)) {
		void *plain;
		size_t size;

		ret = kt_decompress(path, map, st.st_size, &plain, &size);
		munmap(map, st.st_size);
		if (ret)
			return -1;
		ret = open_mem(t, path, plain, size, true);
		free(plain);
		return ret;
	}
	ret = kt_open_mem(t, path, map, st.st_size);
	munmap(map, st.st_size);
	return ret;
}

void kt_close(struct kt_trace *t)
{
	unsigned int i, j;

	for (i = 0; i < t->nr_streams; i++)
		free(t->streams[i].data);
	free(t->streams);
	for (i = 0; i <= KTF_TEXT_LAST; i++)
		free(t->text[i]);
	free(t->symbols);
	free(t->symbol_names);
	for (i = 0; i < KTRACE_NR_CHANNELS; i++)
		for (j = 0; j <= KTRACE_ID_COMPACT_MAX; j++)
			event_free(t->compact[i][j]);
	for (i = 0; i < 256; i++)
		for (j = 0; j < 256; j++)
			event_free(t->expanded[i][j]);
	free(t->tasks);
	free(t->comms);
	free(t->names);
	free(t->keys.slots);
	free(t->named);
}

/* a * b / c, without overflow in the product. */
static uint64_t mul_div(uint64_t a, uint64_t b, uint64_t c)
{
	return (__uint128_t)a * b / c;
}

/* As ktrace_clock_ns() in the kernel, from the metadata's reference. */
uint64_t kt_clock_ns(const struct kt_trace *t, uint64_t clock)
{
	const struct ktrace_meta_clock *c = &t->clock;
	uint64_t delta;

	if (!t->have_clock)
		return clock;
	if (clock >= c->ref_clock)
		return c->ref_mono_ns + mul_div((clock - c->ref_clock) << c->shift,
						1000000000, c->freq_hz);
	delta = mul_div((c->ref_clock - clock) << c->shift, 1000000000, c->freq_hz);
	return c->ref_mono_ns > delta ? c->ref_mono_ns - delta : 0;
}

/*
 * As the kernel's ascii pipe: an expanded event with a "comm" string and
 * a "pid" or "child_pid" field names that pid from there on (statedump,
 * fork, exec, comm changes).
 */
static void learn(struct kt_trace *t, const struct kt_record *r)
{
	const struct kt_event *ev = r->event;
	const struct kt_field *pidf = NULL, *commf = NULL;
	struct kt_task *n;
	unsigned int i;
	size_t len;
	uint32_t pid;

	for (i = 0; i < ev->nr_fields; i++) {
		const struct kt_field *f = &ev->fields[i];

		if (!strcmp(f->name, "comm") && f->display == KTRACE_DISPLAY_STRING)
			commf = f;
		else if (f->size == sizeof(pid) &&
			 (!strcmp(f->name, "child_pid") || (!pidf && !strcmp(f->name, "pid"))))
			pidf = f;
	}
	if (!pidf || !commf || (size_t)pidf->offset + sizeof(pid) > r->length ||
	    (size_t)commf->offset + commf->size > r->length)
		return;
	/* A sized comm, or one to the end of the payload (fork, comm). */
	len = commf->size ? commf->size : r->length - commf->offset;
	if (!t->names) {
		t->names = calloc(KT_NAMES, sizeof(*t->names));
		if (!t->names)
			return;
	}
	memcpy(&pid, r->data + pidf->offset, sizeof(pid));
	n = &t->names[pid & (KT_NAMES - 1)];
	n->pid = pid;
	memset(n->comm, 0, sizeof(n->comm));
	memcpy(n->comm, r->data + commf->offset, len < 15 ? len : 15);
}

/**
 * kt_event_seen() - whether a trace holds a record of an event
 * @t: the trace
 * @ev: an event of its metadata
 *
 * Reads the streams of @ev's channel until a record of it, quietly (the
 * readers warn of what is corrupt).
 *
 * Return: true if there is one.
 */
bool kt_event_seen(const struct kt_trace *t, const struct kt_event *ev)
{
	struct ktrace_subbuf_header h;
	unsigned int i;

	for (i = 0; i < t->nr_streams; i++) {
		const struct kt_stream *s = &t->streams[i];
		size_t off = 0, size;

		if (s->channel != ev->channel)
			continue;
		while (off < s->size) {
			size_t pos = sizeof(h);
			uint64_t clock = 0;
			struct kt_record r;
			int ret;

			size = subbuf_at(s, off, &h);
			if (!size) {
				off += 4;
				continue;
			}
			while ((ret = decode_record(s->data + off + pos, size - pos, &clock,
						    &r)) > 0) {
				pos += ret;
				if (ev->kind == KTRACE_EVENT_EXPANDED ?
				    r.id == KTRACE_ID_EXPANDED && r.major == ev->major &&
				    r.minor == ev->minor : r.id == ev->id)
					return true;
			}
			off += size;
		}
	}
	return false;
}

/**
 * kt_event_enabled() - whether an event was on when the trace was recorded
 * @t: the trace
 * @group: the event's group
 * @name: its name
 *
 * Return: 1 if the events section names @group:@name, 0 if it does not,
 * -1 if the file has no events section (an older tool, or cut short).
 */
int kt_event_enabled(const struct kt_trace *t, const char *group, const char *name)
{
	size_t gl = strlen(group), nl = strlen(name);
	const char *p = t->text[KTF_EVENTS];

	if (!p)
		return -1;
	for (; *p; p += strcspn(p, "\n") + !!p[strcspn(p, "\n")])
		if (!strncmp(p, group, gl) && p[gl] == ':' && !strncmp(p + gl + 1, name, nl) &&
		    (p[gl + 1 + nl] == '\n' || !p[gl + 1 + nl]))
			return 1;
	return 0;
}

void kt_forget_names(struct kt_trace *t)
{
	free(t->names);
	t->names = NULL;
}

const char *kt_comm(const struct kt_trace *t, int pid)
{
	struct kt_task key = { .pid = pid }, *found;

	if (!pid)
		return "<idle>";
	if (t->names && t->names[pid & (KT_NAMES - 1)].pid == pid &&
	    t->names[pid & (KT_NAMES - 1)].comm[0])
		return t->names[pid & (KT_NAMES - 1)].comm;
	/* The name the kernel saved during the trace, then the live task's. */
	found = NULL;
	if (t->nr_comms)
		found = bsearch(&key, t->comms, t->nr_comms, sizeof(key), task_cmp);
	if (!found && t->nr_tasks)
		found = bsearch(&key, t->tasks, t->nr_tasks, sizeof(key), task_cmp);
	return found ? found->comm : "<...>";
}

bool kt_field_raw(const struct kt_field *f, const struct kt_record *r, uint64_t *raw)
{
	const struct ktrace_record rec = {
		.payload = r->payload, .data = r->data, .length = r->length,
	};
	u64 v;
	bool ok;

	/*
	 * The kernel's rule (decode.c); read_metadata() let only 1 to 32
	 * bits within the payload through.
	 */
	ok = ktrace_field_raw(&rec, r->id != KTRACE_ID_EXPANDED, f->offset, f->size, &v);
	*raw = v;
	return ok;
}

/*
 * Keys (KTRACE_FIELD_IDENT, KTRACE_DISPLAY_KEY).  A block request is
 * described once by an expanded event whose identity fields hash to a
 * 32-bit key (block:bio_queue, rq_describe), then named by that key in
 * 8-byte events (rq_issue, rq_complete).  As the kernel's ascii pipe
 * (kernel/trace/ktrace/ascii.c), the tool remembers by key the newest
 * description of each identity, in the order it prints the records (time
 * order across CPUs), so that a record is only ever described by one
 * before it; a key two identities had (of any group) names nothing from
 * then on; an event that ends a request (KTRACE_FIELD_KEY_END) forgets the
 * description it printed, so that a stale one never names a new request.
 * Unlike the ascii pipe's cache of 1024, every description not yet ended
 * is kept: an entry is small (the event and a pointer to the bytes) and
 * deleted when ended, so the table holds the requests in flight.
 */

/*
 * The slot hash: the keys come from the file, so one could be forged that
 * all fall in one run of slots (N^2 probes); mixed with a seed drawn per
 * merge, they cannot be chosen to.  Only slot placement depends on it,
 * never the output.
 */
static size_t key_home(const struct kt_keys *k, uint32_t key)
{
	uint64_t x = key ^ k->seed;

	/* splitmix64's finalizer */
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return (x ^ (x >> 31)) & (k->nr_slots - 1);
}

/* The slot of @key: its entry, or the empty slot it would take. */
static struct kt_key *key_slot(const struct kt_keys *k, uint32_t key)
{
	size_t mask = k->nr_slots - 1, i = key_home(k, key);

	for (;; i = (i + 1) & mask) {
		struct kt_key *s = &k->slots[i];

		if (!s->used || s->key == key)
			return s;
	}
}

/*
 * Empty slot @s, moving back the entries after it that probing would no
 * longer find (linear probing's deletion: no tombstones, so that the table
 * only holds the requests in flight, not every request ever seen).
 */
static void key_delete(struct kt_keys *k, struct kt_key *s)
{
	size_t mask = k->nr_slots - 1, i = s - k->slots, j = i;

	for (;;) {
		size_t home;

		j = (j + 1) & mask;
		if (!k->slots[j].used)
			break;
		home = key_home(k, k->slots[j].key);
		/* The entry at j stays if its home is cyclically in (i, j]. */
		if (i <= j ? (home > i && home <= j) : (home > i || home <= j))
			continue;
		k->slots[i] = k->slots[j];
		i = j;
	}
	k->slots[i].used = false;
	k->used--;
}

/* Twice the slots, at most half of them used after; false if out of memory. */
static bool keys_grow(struct kt_keys *k)
{
	struct kt_keys n = *k;
	size_t i;

	n.nr_slots = k->nr_slots ? 2 * k->nr_slots : 1024;
	n.slots = calloc(n.nr_slots, sizeof(*n.slots));
	if (!n.slots)
		return false;
	for (i = 0; i < k->nr_slots; i++)
		if (k->slots[i].used)
			*key_slot(&n, k->slots[i].key) = k->slots[i];
	free(k->slots);
	*k = n;
	return true;
}

/* The description an entry holds, as a record to decode its fields from. */
static void key_record(const struct kt_key *s, struct kt_record *r)
{
	memset(r, 0, sizeof(*r));
	r->id = KTRACE_ID_EXPANDED;
	r->event = (struct kt_event *)s->event;
	r->data = s->data;
	r->length = s->length;
}

/* The value of the identity field of @r at or after field *@i; false at the end. */
static bool next_ident(const struct kt_record *r, unsigned int *i, uint64_t *v)
{
	const struct kt_event *ev = r->event;

	for (; *i < ev->nr_fields; (*i)++) {
		if (ev->fields[*i].flags & KTRACE_FIELD_IDENT) {
			*v = 0;
			kt_field_raw(&ev->fields[*i], r, v);
			(*i)++;
			return true;
		}
	}
	return false;
}

/* Whether @a and @b have the same identity: the same group and values. */
static bool same_identity(const struct kt_record *a, const struct kt_record *b)
{
	unsigned int i = 0, j = 0;
	uint64_t va, vb;

	if (strcmp(a->event->group, b->event->group))
		return false;
	for (;;) {
		bool ha = next_ident(a, &i, &va), hb = next_ident(b, &j, &vb);

		if (!ha || !hb)
			return ha == hb;
		if (va != vb)
			return false;
	}
}

/*
 * Remember @r by its key, if it is an expanded event with identity fields
 * (all in the record).  Return: 0, or -1 when out of memory.
 */
static int key_remember(struct kt_trace *t, const struct kt_record *r)
{
	const struct kt_event *ev = r->event;
	uint64_t h = KTRACE_KEY_SEED, v;
	struct kt_record old;
	unsigned int i, n = 0;
	struct kt_key *s;
	uint32_t key;

	if (!ev || r->id != KTRACE_ID_EXPANDED)
		return 0;
	for (i = 0; i < ev->nr_fields; i++) {
		if (!(ev->fields[i].flags & KTRACE_FIELD_IDENT))
			continue;
		if (!kt_field_raw(&ev->fields[i], r, &v))
			return 0;
		h = ktrace_key_add(h, v);
		n++;
	}
	if (!n)
		return 0;
	if (2 * (t->keys.used + 1) > t->keys.nr_slots && !keys_grow(&t->keys))
		return -1;
	key = ktrace_key_final(h);
	s = key_slot(&t->keys, key);
	if (s->used && s->ambiguous)
		return 0;
	if (!s->used) {
		t->keys.used++;
		*s = (struct kt_key){ .key = key, .used = true };
	} else {
		/* The newest of an identity; two identities, none until forgotten. */
		key_record(s, &old);
		if (!same_identity(&old, r)) {
			s->ambiguous = true;
			return 0;
		}
	}
	s->event = ev;
	s->data = r->data;
	s->length = r->length;
	return 0;
}

/* The entry naming @key in @group: NULL if none, or if two identities had it. */
static struct kt_key *key_lookup(const struct kt_trace *t, const char *group, uint32_t key)
{
	struct kt_key *s;

	if (!t->keys.nr_slots)
		return NULL;
	s = key_slot(&t->keys, key);
	if (!s->used || s->ambiguous || strcmp(s->event->group, group))
		return NULL;
	return s;
}

/*
 * Before @r is handed out: what each of its KEY fields names, in
 * t->named, as the ascii pipe finds it while printing the fields left to
 * right: a KTRACE_FIELD_KEY_END field ends what it named, whose
 * description is forgotten (deleted) at once, for the fields after it and
 * the records after @r.  A key that named nothing (none, or ambiguous)
 * stays as it is.  Return: 0, or -1 when out of memory.
 */
static int key_resolve(struct kt_trace *t, const struct kt_record *r)
{
	const struct kt_event *ev = r->event;
	unsigned int i;
	uint64_t v;

	t->named_rec = NULL;
	if (!ev)
		return 0;
	if (ev->nr_fields > t->nr_named) {
		struct kt_key *n = realloc(t->named, ev->nr_fields * sizeof(*n));

		if (!n)
			return -1;
		t->named = n;
		t->nr_named = ev->nr_fields;
	}
	for (i = 0; i < ev->nr_fields; i++) {
		const struct kt_field *f = &ev->fields[i];
		struct kt_key *s;

		t->named[i].used = false;
		if (f->display != KTRACE_DISPLAY_KEY || !kt_field_raw(f, r, &v))
			continue;
		s = key_lookup(t, ev->group, (uint32_t)v);
		if (!s)
			continue;
		t->named[i] = *s;
		if (f->flags & KTRACE_FIELD_KEY_END)
			key_delete(&t->keys, s);
	}
	t->named_rec = r;
	return 0;
}

bool kt_key_named(const struct kt_trace *t, const struct kt_record *r, unsigned int i,
		  struct kt_record *d)
{
	if (r != t->named_rec || !r->event || i >= r->event->nr_fields || !t->named[i].used)
		return false;
	key_record(&t->named[i], d);
	return true;
}

/* Whether an event of the metadata has a KEY field: else no key is tracked. */
static bool have_keys(const struct kt_trace *t)
{
	const struct kt_event *ev;
	unsigned int i, j, k;

	for (i = 0; i < KTRACE_NR_CHANNELS * (KTRACE_ID_COMPACT_MAX + 1) + 256 * 256; i++) {
		j = KTRACE_NR_CHANNELS * (KTRACE_ID_COMPACT_MAX + 1);
		ev = i < j ? t->compact[i / (KTRACE_ID_COMPACT_MAX + 1)]
				       [i % (KTRACE_ID_COMPACT_MAX + 1)] :
			     t->expanded[(i - j) / 256][(i - j) % 256];
		for (k = 0; ev && k < ev->nr_fields; k++)
			if (ev->fields[k].display == KTRACE_DISPLAY_KEY)
				return true;
	}
	return false;
}

/* A seed for the slot hash, different in each run. */
static uint64_t keys_seed(void)
{
	uint64_t seed;

	if (getrandom(&seed, sizeof(seed), GRND_NONBLOCK) == sizeof(seed))
		return seed;
	return (uint64_t)time(NULL) ^ (uint64_t)getpid() << 32 ^ (uintptr_t)&seed;
}

/*
 * Where the merge is in one stream.  start is the task running on the CPU
 * when the subbuffer began (its header's pid, at its timestamp record),
 * not yet applied to the CPU's running task while start_new.
 */
struct cursor {
	struct kt_stream *s;
	size_t off, size, pos;
	uint64_t clock;
	struct kt_running start;
	bool start_new;
	bool have;
	/*
	 * The current subbuffer's seq and dropped count, and the stream's
	 * dropped count when it began, if known.
	 */
	uint64_t seq, dropped, dropped_before;
	bool before_known;
	unsigned int subbufs;		/* one begun */
	bool lost;			/* records lost before the next record */
	struct kt_record rec;
};

/*
 * Whether records were lost before subbuffer @h of the stream: a sequence
 * gap (overwritten subbuffers), or drops counted while the previous one
 * was the newest.  The kernel closes a subbuffer, and sets its dropped
 * count (the stream's, so far), when the next one begins: the drops that
 * the previous header counts beyond the count when it began are between
 * the two.  A stream's first subbuffer began with 0 dropped if it is the
 * first (seq 0); else what came before it is the trace's edge.
 */
static void note_loss(struct cursor *c, const struct ktrace_subbuf_header *h)
{
	if (c->subbufs && (h->seq != c->seq + 1 ||
			   (c->before_known && c->dropped != c->dropped_before)))
		c->lost = true;
	c->before_known = c->subbufs ? true : h->seq == 0;
	c->dropped_before = c->subbufs ? c->dropped : 0;
	c->dropped = h->dropped;
	c->seq = h->seq;
	c->subbufs = 1;
}

static bool advance(struct kt_trace *t, struct cursor *c)
{
	struct ktrace_subbuf_header h;
	int ret;

	while (!c->have) {
		if (c->pos >= c->size) {
			c->off += c->size;
			c->off = next_subbuf(t, c->s, c->off, &h, &c->size);
			if (c->off >= c->s->size)
				return false;
			c->pos = sizeof(h);
			c->clock = 0;
			c->start.pid = h.pid;
			c->start_new = true;
			note_loss(c, &h);
		}
		c->rec.raw = c->s->data + c->off + c->pos;
		c->rec.subbuf = c->off;
		ret = decode_record(c->rec.raw, c->size - c->pos, &c->clock, &c->rec);
		if (ret <= 0) {
			if (ret < 0)
				kt_warn(t, c->s->file_offset + c->off + c->pos,
					"CPU %u: corrupt record, rest of subbuffer skipped",
					c->s->cpu);
			c->pos = c->size;
			continue;
		}
		c->pos += ret;
		/* The subbuffer's first record: when it began. */
		if (c->rec.id == KTRACE_ID_TIMESTAMP && c->pos == sizeof(h) + (size_t)ret)
			c->start.clock = c->rec.clock;
		c->have = c->rec.id != KTRACE_ID_TIMESTAMP;
	}
	return true;
}

/* The first field of an event that names the running task: its pid. */
static int current_pid(const struct kt_record *r)
{
	const struct kt_field *f = &r->event->fields[0];
	uint32_t pid = 0;

	/* Wherever the metadata puts it. */
	if (r->id != KTRACE_ID_EXPANDED) {
		pid = f->offset < 32 ? r->payload >> f->offset : 0;
		if (f->size < 32)
			pid &= (1U << f->size) - 1;
	} else if (f->size <= 4 && f->offset + f->size <= r->length) {
		memcpy(&pid, r->data + f->offset, f->size);
	}
	return pid;
}

/**
 * kt_running() - the task running when a record was written
 * @run: the task running on the record's CPU, as handed out so far
 * @start: if the record is the first handed out of its subbuffer, the
 *	task running when the subbuffer began (its header's pid), else NULL
 * @r: the record
 * @prev: set to the task running before @r (the previous task of a
 *	sched:switch), @start applied
 *
 * As the kernel's ascii pipe (ktrace_ascii_running()): called for the
 * records of one CPU, of both channels, in time order.  @start replaces
 * @run if it is newer, or if nothing set @run yet (at the same time, the
 * record wins: it names the task on purpose, where the header names
 * whichever task was current, maybe still the previous one within a
 * switch); then a record that names the running task
 * (KTRACE_EVENT_PID_IS_CURRENT) sets it.  So the
 * records of the medium-rate channel follow the high-rate channel's
 * switches, and a channel that lost records picks the task up again from
 * the other one or from its own next subbuffer.
 *
 * Return: the pid of the task running on the CPU at @r.
 */
int kt_running(struct kt_running *run, const struct kt_running *start,
	       const struct kt_record *r, int *prev)
{
	if (start && (start->clock > run->clock || !run->clock))
		*run = *start;
	*prev = run->pid;
	/* An older record (a damaged trace) does not undo a later switch. */
	if (r->event && (r->event->flags & KTRACE_EVENT_PID_IS_CURRENT) &&
	    r->event->nr_fields && r->clock >= run->clock) {
		run->pid = current_pid(r);
		run->clock = r->clock;
	}
	return run->pid;
}

/**
 * kt_iter_begin() - start reading @t's records in time order
 * @t: the trace
 * @it: the iteration, for kt_iter_next() and kt_iter_end()
 *
 * Return: 0, or -1 when out of memory.
 */
int kt_iter_begin(struct kt_trace *t, struct kt_iter *it)
{
	unsigned int i;

	it->n = 0;
	it->cur = calloc(t->nr_streams + 1, sizeof(*it->cur));
	/* The running task of each CPU, shared by its channels. */
	it->running = calloc(KTF_MAX_CPUS, sizeof(*it->running));
	if (!it->cur || !it->running) {
		free(it->cur);
		free(it->running);
		it->cur = NULL;
		it->running = NULL;
		return -1;
	}
	/* Keys name records of this merge only, from its start. */
	free(t->keys.slots);
	memset(&t->keys, 0, sizeof(t->keys));
	t->named_rec = NULL;
	t->keys.off = t->no_keys || !have_keys(t);
	t->keys.seed = keys_seed();
	/* As the ascii pipe: high then medium, CPU by CPU; ties go first. */
	for (i = 0; i < t->nr_streams; i++) {
		if (t->streams[i].channel == KTRACE_CHANNEL_LOW)
			continue;
		it->cur[it->n].s = &t->streams[i];
		it->n++;
	}
	return 0;
}

/**
 * kt_iter_next() - the next record of @t in time order
 * @t: the trace
 * @it: its iteration, from kt_iter_begin()
 * @rec: the record, valid (and its keys named, kt_key_named()) until the
 *	next call
 *
 * Return: 1 with a record, 0 at the end, -1 when out of memory.
 */
int kt_iter_next(struct kt_trace *t, struct kt_iter *it, const struct kt_record **rec)
{
	struct cursor *best = NULL;
	unsigned int i;
	int ret = 0;

	t->named_rec = NULL;
	for (i = 0; i < it->n; i++) {
		if (!advance(t, &it->cur[i]))
			continue;
		if (!best || it->cur[i].rec.clock < best->rec.clock)
			best = &it->cur[i];
	}
	if (!best)
		return 0;
	best->have = false;
	best->rec.channel = best->s->channel;
	best->rec.cpu = best->s->cpu;
	best->rec.ns = kt_clock_ns(t, best->rec.clock);
	best->rec.event = lookup(t, best->s->channel, &best->rec);
	best->rec.lost = best->lost;
	best->lost = false;
	best->rec.pid = kt_running(&it->running[best->s->cpu],
				   best->start_new ? &best->start : NULL, &best->rec,
				   &best->rec.prev_pid);
	best->start_new = false;
	if (best->rec.event && best->rec.id == KTRACE_ID_EXPANDED)
		learn(t, &best->rec);
	/*
	 * As the ascii pipe: the record's own identity learned first,
	 * then its fields printed left to right, each KEY_END field
	 * forgetting what it named once printed.
	 */
	if (!t->keys.off) {
		ret = key_remember(t, &best->rec);
		if (!ret)
			ret = key_resolve(t, &best->rec);
	}
	if (ret)
		return -1;
	*rec = &best->rec;
	return 1;
}

void kt_iter_end(struct kt_trace *t, struct kt_iter *it)
{
	t->named_rec = NULL;
	free(it->cur);
	free(it->running);
	it->cur = NULL;
	it->running = NULL;
	it->n = 0;
}

int kt_merge(struct kt_trace *t, kt_record_fn fn, void *arg)
{
	const struct kt_record *r;
	struct kt_iter it;
	int ret;

	if (kt_iter_begin(t, &it))
		return -1;
	while ((ret = kt_iter_next(t, &it, &r)) > 0) {
		ret = fn(t, r, arg);
		t->named_rec = NULL;
		if (ret)
			break;
	}
	kt_iter_end(t, &it);
	return ret;
}

/*
 * CLOCK_REALTIME of @ns, a CLOCK_MONOTONIC time of @t, plus its offset,
 * saturated: the references can be anything a file holds.
 */
int64_t kt_real_ns(const struct kt_trace *t, uint64_t ns)
{
	__int128 v = (__int128)ns + t->offset_ns;

	if (t->have_clock && t->clock.ref_real_ns)
		v += (__int128)t->clock.ref_real_ns - t->clock.ref_mono_ns;
	if (t->align_ns || t->drift) {
		double dx = (double)(v - t->drift_x0);

		v += t->align_ns + (__int128)(t->drift * dx);
	}
	if (v > INT64_MAX)
		return INT64_MAX;
	return v < INT64_MIN ? INT64_MIN : (int64_t)v;
}

/**
 * kt_parse_duration() - a time with its unit, as the latency triggers and
 *	the analyses' options take it
 * @s: digits, optionally a fraction, then ns, us, ms or s ("2.5ms")
 *
 * Return: the nanoseconds (fractions of a nanosecond dropped), or -1 if
 * @s is not such a time or is beyond 10^12 of its unit.
 */
int64_t kt_parse_duration(const char *s)
{
	static const struct { const char *unit; int64_t ns; } units[] = {
		{ "ns", 1 }, { "us", 1000 }, { "ms", 1000000 }, { "s", 1000000000 },
	};
	unsigned long long whole = 0, frac = 0, scale = 1;
	const char *p = s;
	unsigned int i;

	if (*p < '0' || *p > '9')
		return -1;
	for (; *p >= '0' && *p <= '9'; p++) {
		whole = whole * 10 + (*p - '0');
		if (whole > 1000000000000ULL)
			return -1;
	}
	if (*p == '.') {
		for (p++; *p >= '0' && *p <= '9'; p++) {
			if (scale < 1000000000ULL) {
				frac = frac * 10 + (*p - '0');
				scale *= 10;
			}
		}
	}
	for (i = 0; i < ARRAY_SIZE(units); i++)
		if (!strcmp(p, units[i].unit))
			return (int64_t)((__int128)whole * units[i].ns +
					 (__int128)frac * units[i].ns / scale);
	return -1;
}

/* @ns, a CLOCK_MONOTONIC time of @t, plus its offset, saturated. */
uint64_t kt_mono_ns(const struct kt_trace *t, uint64_t ns)
{
	if (t->offset_ns < 0)
		return ns > (uint64_t)-(t->offset_ns + 1) ? ns + t->offset_ns : 0;
	return ns > UINT64_MAX - (uint64_t)t->offset_ns ? UINT64_MAX : ns + t->offset_ns;
}

/*
 * The traced machine's name: the nodename of its metadata, else the
 * second word of the uname section, else the file's name.
 */
static void set_host(struct kt_trace *t)
{
	const char *u = t->text[KTF_UNAME];
	size_t len;

	if (t->have_trace && t->machine.nodename[0]) {
		name_copy(t->host, t->machine.nodename, sizeof(t->machine.nodename));
		return;
	}
	if (u) {
		u += strcspn(u, "\n ");
		u += strspn(u, " ");
		len = strcspn(u, "\n ");
		if (len && len < sizeof(t->host)) {
			memcpy(t->host, u, len);
			t->host[len] = '\0';
			return;
		}
	}
	snprintf(t->host, sizeof(t->host), "%s", t->path);
}

/*
 * A host name is one word of printable ASCII, without quotes or
 * backslashes: it is a column of report and a JSON string as it is.
 */
static void host_word(char *h)
{
	for (; *h; h++)
		if ((unsigned char)*h <= ' ' || (unsigned char)*h >= 0x7f || *h == '"' ||
		    *h == '\\')
			*h = '_';
}

/**
 * kt_set_offset() - parse one --offset FILE=NS into @s
 * @s: the set being built (before kt_set_open())
 * @cmd: the command, for messages
 * @arg: FILE=NS, NS signed nanoseconds
 *
 * Return: 0, or EXIT_USAGE (2) after saying why on stderr.
 */
int kt_set_offset(struct kt_set *s, const char *cmd, const char *arg)
{
	const char *eq = strrchr(arg, '=');
	struct kt_offset *o;
	char *end;
	long long v;

	if (!eq || eq == arg || !eq[1]) {
		fprintf(stderr, "ktrace %s: bad --offset '%s': want FILE=NANOSECONDS\n", cmd, arg);
		return 2;
	}
	errno = 0;
	v = strtoll(eq + 1, &end, 10);
	if (*end || errno) {
		fprintf(stderr, "ktrace %s: bad --offset '%s': want FILE=NANOSECONDS\n", cmd, arg);
		return 2;
	}
	/* One offset per file: a sum of several could overflow, and means nothing. */
	for (o = s->offsets; o < s->offsets + s->nr_offsets; o++) {
		if (o->len == (size_t)(eq - arg) && !memcmp(o->file, arg, o->len)) {
			fprintf(stderr, "ktrace %s: --offset %.*s: given twice\n", cmd,
				(int)o->len, arg);
			return 2;
		}
	}
	o = realloc(s->offsets, (s->nr_offsets + 1) * sizeof(*o));
	if (!o) {
		fprintf(stderr, "ktrace %s: out of memory\n", cmd);
		return 1;
	}
	s->offsets = o;
	o += s->nr_offsets++;
	o->file = arg;
	o->len = eq - arg;
	o->ns = v;
	return 0;
}

/**
 * kt_set_open() - open the trace files of a command line
 * @s: the set, zeroed or with kt_set_offset()'s offsets
 * @cmd: the command, for messages
 * @nr: how many files (0: the default file)
 * @paths: their names
 *
 * Several traces are merged on CLOCK_REALTIME, which each must then have,
 * aligned on the first by their cluster messages if they have some
 * (kt_set_align()).
 *
 * Return: 0; 1 after saying why on stderr (a file), 2 (a usage error).
 */
int kt_set_open(struct kt_set *s, const char *cmd, int nr, char **paths)
{
	char *dflt = DEFAULT_FILE;
	unsigned int i, j;

	if (!nr) {
		nr = 1;
		paths = &dflt;
	}
	for (i = 0; i < s->nr_offsets; i++) {
		for (j = 0; j < (unsigned int)nr; j++)
			if (strlen(paths[j]) == s->offsets[i].len &&
			    !memcmp(paths[j], s->offsets[i].file, s->offsets[i].len))
				break;
		if (j == (unsigned int)nr) {
			fprintf(stderr, "ktrace %s: --offset %.*s: not a file of the command\n",
				cmd, (int)s->offsets[i].len, s->offsets[i].file);
			return 2;
		}
	}
	s->traces = calloc(nr, sizeof(*s->traces));
	if (!s->traces) {
		fprintf(stderr, "ktrace %s: out of memory\n", cmd);
		return 1;
	}
	for (s->nr = 0; s->nr < (unsigned int)nr; s->nr++) {
		struct kt_trace *t = &s->traces[s->nr];

		if (kt_open(t, paths[s->nr]))
			return 1;
		for (i = 0; i < s->nr_offsets; i++)
			if (strlen(t->path) == s->offsets[i].len &&
			    !memcmp(t->path, s->offsets[i].file, s->offsets[i].len))
				t->offset_ns += s->offsets[i].ns;
		set_host(t);
		host_word(t->host);
		if (nr > 1 && (!t->have_clock || !t->clock.ref_real_ns)) {
			fprintf(stderr,
				"ktrace %s: %s: no CLOCK_REALTIME reference in the trace's clock record: cannot merge it with other traces\n",
				cmd, t->path);
			s->nr++;
			return 1;
		}
	}
	return s->nr > 1 ? kt_set_align(s, cmd) : 0;
}

void kt_set_close(struct kt_set *s)
{
	unsigned int i;

	for (i = 0; i < s->nr; i++)
		kt_close(&s->traces[i]);
	free(s->traces);
	free(s->offsets);
	memset(s, 0, sizeof(*s));
}

/**
 * kt_set_merge() - call @fn for every record of the traces of @s, in time
 *	order
 * @s: the traces
 * @fn: called with each record and the trace it is from
 * @arg: for @fn
 *
 * One trace is read in its own time order (kt_merge()); several in
 * CLOCK_REALTIME order plus their offsets, ties to the earlier file.
 *
 * Return: 0, -1 when out of memory, or what @fn returned to stop.
 */
int kt_set_merge(struct kt_set *s, kt_record_fn fn, void *arg)
{
	const struct kt_record **head;
	struct kt_iter *it;
	unsigned int i;
	int ret = 0;

	if (s->nr == 1)
		return kt_merge(&s->traces[0], fn, arg);
	it = calloc(s->nr, sizeof(*it));
	head = calloc(s->nr, sizeof(*head));
	if (!it || !head) {
		free(it);
		free(head);
		return -1;
	}
	for (i = 0; i < s->nr && !ret; i++)
		if (kt_iter_begin(&s->traces[i], &it[i]) ||
		    kt_iter_next(&s->traces[i], &it[i], &head[i]) < 0)
			ret = -1;
	while (!ret) {
		int best = -1;

		for (i = 0; i < s->nr; i++)
			if (head[i] && (best < 0 ||
					kt_real_ns(&s->traces[i], head[i]->ns) <
					kt_real_ns(&s->traces[best], head[best]->ns)))
				best = i;
		if (best < 0)
			break;
		ret = fn(&s->traces[best], head[best], arg);
		if (!ret) {
			head[best] = NULL;
			if (kt_iter_next(&s->traces[best], &it[best], &head[best]) < 0)
				ret = -1;
		}
	}
	for (i = 0; i < s->nr; i++)
		if (it[i].cur)
			kt_iter_end(&s->traces[i], &it[i]);
	free(it);
	free(head);
	return ret;
}

void kt_stream_stats(struct kt_trace *t, const struct kt_stream *s,
		     struct kt_stream_stats *st, FILE *gaps)
{
	struct ktrace_subbuf_header h;
	size_t off = 0, size;

	memset(st, 0, sizeof(*st));
	while ((off = next_subbuf(t, s, off, &h, &size)) < s->size) {
		size_t pos = sizeof(h);
		uint64_t clock = 0;
		struct kt_record r;
		int ret;

		if (st->subbufs && h.seq != st->last_seq + 1) {
			st->gaps++;
			if (h.seq > st->last_seq)
				st->lost_subbufs += h.seq - st->last_seq - 1;
			if (gaps)
				fprintf(gaps,
					"  gap: %s CPU %u: subbuffers %llu to %llu missing (offset %llu)\n",
					kt_channel_name(s->channel),
					s->cpu, (unsigned long long)st->last_seq + 1,
					(unsigned long long)h.seq - 1,
					(unsigned long long)(s->file_offset + off));
		}
		if (!st->subbufs)
			st->first_seq = h.seq;
		st->last_seq = h.seq;
		st->subbufs++;
		st->dropped = h.dropped;
		st->overwritten = h.overwritten;
		st->overwrite = h.flags & KTRACE_SUBBUF_OVERWRITE;
		while ((ret = decode_record(s->data + off + pos, size - pos, &clock, &r)) > 0) {
			pos += ret;
			if (r.id != KTRACE_ID_TIMESTAMP)
				st->events++;
		}
		off += size;
	}
}
