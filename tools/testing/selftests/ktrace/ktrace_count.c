// SPDX-License-Identifier: GPL-2.0
/*
 * ktrace_count: check and count what a ktrace relay file holds.
 *
 *   ktrace_count [-m | -M] [-t ID] FILE
 *
 * Reading a relay file consumes it and skips the subbuffers' padding, so
 * the stream is a sequence of subbuffer headers, each followed by its
 * data_size bytes of records.  Every header and record is checked; the
 * counts are printed as key=value on one line:
 *
 *   subbufs=N events=N compact=N expanded=N timestamps=N marks=N gaps=N
 *   first_seq=N last_seq=N dropped=N overwritten=N overwrite_mode=0|1 errors=N
 *
 * gaps counts subbuffers missing between sequence numbers; dropped,
 * overwritten and overwrite_mode (its KTRACE_SUBBUF_OVERWRITE flag) come
 * from the last header.  With -m, the text of
 * every mark is printed first, one per line; with -M, every metadata
 * record, as "trace|clock|channel|event|field|enum key=value...".  With
 * -t ID, compact events of that id are test:tick events, whose payloads
 * must increase: ticks= counts them, tick_gaps= the sequence numbers
 * missing between them, and a tick out of order is an error.  Exit status: 0 if the stream
 * is well formed, 1 otherwise, 2 for a usage error.
 */
#include <errno.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../../../include/uapi/linux/ktrace.h"

/*
 * ktrace's own expanded events (kernel/trace/ktrace/ktrace_internal.h);
 * a mark's payload is the writer's pid (4 bytes), then the text.
 */
#define MAJOR_KTRACE	1
#define MINOR_MARK	0

struct counts {
	uint64_t subbufs, events, compact, expanded, timestamps, marks, gaps;
	uint64_t first_seq, last_seq, dropped, overwritten, errors;
	uint64_t ticks, tick_gaps, overwrite_mode;
	uint32_t last_tick;
	int have_seq;
};

static int tick_id = -1;

static int show_marks, show_meta;

/* Print a metadata record; returns -1 if it is too short for its type. */
static int meta(const unsigned char *p, unsigned int type, unsigned int len)
{
	union {
		struct ktrace_meta_trace t;
		struct ktrace_meta_clock c;
		struct ktrace_meta_channel ch;
		struct ktrace_meta_event e;
		struct ktrace_meta_field f;
		struct ktrace_meta_enum v;
	} m;
	static const unsigned int size[] = {
		[KTRACE_META_TRACE] = sizeof(m.t), [KTRACE_META_CLOCK] = sizeof(m.c),
		[KTRACE_META_CHANNEL] = sizeof(m.ch), [KTRACE_META_EVENT] = sizeof(m.e),
		[KTRACE_META_FIELD] = sizeof(m.f), [KTRACE_META_ENUM] = sizeof(m.v),
	};

	if (type < KTRACE_META_TRACE || type > KTRACE_META_ENUM || len < size[type])
		return -1;
	memcpy(&m, p, size[type]);
	switch (type) {
	case KTRACE_META_TRACE:
		printf("trace release=%.65s machine=%.65s nr_cpus=%u byte_order=%u nr_records=%u\n",
		       m.t.release, m.t.machine, m.t.nr_cpus, m.t.byte_order,
		       m.t.nr_records);
		break;
	case KTRACE_META_CLOCK:
		printf("clock name=%.16s freq_hz=%llu shift=%u\n", m.c.name,
		       (unsigned long long)m.c.freq_hz, m.c.shift);
		break;
	case KTRACE_META_CHANNEL:
		printf("channel name=%.32s mode=%s subbuf_size=%u n_subbufs=%u\n",
		       m.ch.name, m.ch.mode ? "overwrite" : "drop", m.ch.subbuf_size,
		       m.ch.n_subbufs);
		break;
	case KTRACE_META_EVENT:
		printf("event %.32s:%.32s channel=%u kind=%s id=%u major=%u minor=%u ",
		       m.e.group, m.e.name, m.e.channel,
		       m.e.kind ? "expanded" : "compact", m.e.id, m.e.major, m.e.minor);
		printf("fields=%u flags=%u\n", m.e.nr_fields, m.e.flags);
		break;
	case KTRACE_META_FIELD:
		printf("field %.32s offset=%u size=%u display=%u\n", m.f.name,
		       m.f.offset, m.f.size, m.f.display);
		break;
	default:
		printf("enum %.32s value=%llu\n", m.v.name,
		       (unsigned long long)m.v.value_hi << 32 | m.v.value_lo);
		break;
	}
	return 0;
}

static void bad(struct counts *c, const char *file, uint64_t off, const char *why)
{
	fprintf(stderr, "ktrace_count: %s: offset %llu: %s\n", file,
		(unsigned long long)off, why);
	c->errors++;
}

/* Records of one subbuffer; returns 0, or -1 at the first bad record. */
static int records(struct counts *c, const char *file, uint64_t base,
		   const unsigned char *p, uint32_t size)
{
	uint32_t pos = 0, hdr, id;
	int first = 1;

	while (pos < size) {
		if (size - pos < 8) {
			bad(c, file, base + pos, "truncated record");
			return -1;
		}
		memcpy(&hdr, p + pos, 4);
		id = KTRACE_HEADER_ID(hdr);
		if (first && id != KTRACE_ID_TIMESTAMP) {
			bad(c, file, base + pos, "subbuffer does not start with a timestamp");
			return -1;
		}
		first = 0;
		if (id == KTRACE_ID_TIMESTAMP) {
			struct ktrace_timestamp ts;

			if (size - pos < sizeof(ts)) {
				bad(c, file, base + pos, "truncated timestamp");
				return -1;
			}
			memcpy(&ts, p + pos, sizeof(ts));
			if ((ts.clock_lo & KTRACE_CLOCK_MASK) != KTRACE_HEADER_CLOCK(hdr)) {
				bad(c, file, base + pos, "inconsistent timestamp");
				return -1;
			}
			c->timestamps++;
			pos += sizeof(ts);
		} else if (id == KTRACE_ID_EXPANDED) {
			struct ktrace_expanded ex;
			uint32_t len;

			memcpy(&ex, p + pos, sizeof(ex));
			len = KTRACE_EXPANDED_SIZE(ex.length);
			if (size - pos < len) {
				bad(c, file, base + pos, "truncated expanded event");
				return -1;
			}
			if (ex.major == KTRACE_META_MAJOR && show_meta &&
			    meta(p + pos + sizeof(ex), ex.minor, ex.length)) {
				bad(c, file, base + pos, "bad metadata record");
				return -1;
			}
			if (ex.major == MAJOR_KTRACE && ex.minor == MINOR_MARK) {
				c->marks++;
				if (show_marks && ex.length >= 4)
					printf("%.*s\n", ex.length - 4, p + pos + sizeof(ex) + 4);
			}
			c->expanded++;
			c->events++;
			pos += len;
		} else {
			uint32_t payload;

			memcpy(&payload, p + pos + 4, 4);
			if ((int)id == tick_id) {
				if (c->ticks && payload <= c->last_tick) {
					bad(c, file, base + pos, "tick out of order");
					return -1;
				}
				if (c->ticks)
					c->tick_gaps += payload - c->last_tick - 1;
				c->last_tick = payload;
				c->ticks++;
			}
			c->compact++;
			c->events++;
			pos += 8;
		}
	}
	return 0;
}

static void count_file(struct counts *c, const char *file)
{
	struct ktrace_subbuf_header h;
	unsigned char *data = NULL;
	uint64_t off = 0;
	FILE *f;

	f = fopen(file, "r");
	if (!f) {
		fprintf(stderr, "ktrace_count: %s: %s\n", file, strerror(errno));
		c->errors++;
		return;
	}
	while (fread(&h, sizeof(h), 1, f) == 1) {
		if (h.magic != KTRACE_MAGIC || h.version != KTRACE_FORMAT_VERSION) {
			bad(c, file, off, "bad subbuffer header");
			break;
		}
		if (h.data_size > (1U << 28)) {
			bad(c, file, off, "absurd data size");
			break;
		}
		if (c->have_seq && h.seq != c->last_seq + 1) {
			if (h.seq <= c->last_seq) {
				bad(c, file, off, "sequence goes backwards");
				break;
			}
			c->gaps += h.seq - c->last_seq - 1;
		}
		if (!c->have_seq)
			c->first_seq = h.seq;
		c->have_seq = 1;
		c->last_seq = h.seq;
		c->dropped = h.dropped;
		c->overwritten = h.overwritten;
		c->overwrite_mode = !!(h.flags & KTRACE_SUBBUF_OVERWRITE);
		c->subbufs++;
		data = realloc(data, h.data_size ? h.data_size : 1);
		if (!data || fread(data, 1, h.data_size, f) != h.data_size) {
			bad(c, file, off, "truncated subbuffer");
			break;
		}
		if (records(c, file, off + sizeof(h), data, h.data_size))
			break;
		off += sizeof(h) + h.data_size;
	}
	free(data);
	fclose(f);
}

int main(int argc, char **argv)
{
	struct counts c = { 0 };
	int opt;

	while ((opt = getopt(argc, argv, "mMt:")) != -1) {
		switch (opt) {
		case 'm':
			show_marks = 1;
			break;
		case 'M':
			show_meta = 1;
			break;
		case 't':
			tick_id = atoi(optarg);
			break;
		default:
			goto usage;
		}
	}
	if (optind != argc - 1)
		goto usage;
	count_file(&c, argv[optind]);
	printf("subbufs=%llu events=%llu compact=%llu expanded=%llu timestamps=%llu marks=%llu ",
	       (unsigned long long)c.subbufs, (unsigned long long)c.events,
	       (unsigned long long)c.compact, (unsigned long long)c.expanded,
	       (unsigned long long)c.timestamps, (unsigned long long)c.marks);
	printf("gaps=%llu first_seq=%llu last_seq=%llu dropped=%llu overwritten=%llu ",
	       (unsigned long long)c.gaps, (unsigned long long)c.first_seq,
	       (unsigned long long)c.last_seq, (unsigned long long)c.dropped,
	       (unsigned long long)c.overwritten);
	printf("overwrite_mode=%llu errors=%llu\n", (unsigned long long)c.overwrite_mode,
	       (unsigned long long)c.errors);
	if (tick_id >= 0)
		printf("ticks=%llu tick_gaps=%llu\n", (unsigned long long)c.ticks,
		       (unsigned long long)c.tick_gaps);
	return c.errors ? 1 : 0;
usage:
	fprintf(stderr, "usage: ktrace_count [-m | -M] [-t ID] FILE\n");
	return 2;
}
