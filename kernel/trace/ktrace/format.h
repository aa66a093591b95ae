/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Encoding and decoding of ktrace records (include/uapi/linux/ktrace.h).
 *
 * The encoders are what the write path inlines.  The decoder is what the
 * ascii pipe, the panic dump and the tests use: it trusts nothing it reads,
 * so a corrupt subbuffer gives an error, never an access out of bounds.
 */
#ifndef _KTRACE_FORMAT_H
#define _KTRACE_FORMAT_H

#include <linux/build_bug.h>
#include <linux/errno.h>
#include <linux/string.h>
#include <linux/types.h>
#include <linux/wordpart.h>
#include <uapi/linux/ktrace.h>

/* The ABI: sizes that decoders elsewhere rely on. */
static_assert(sizeof(struct ktrace_compact) == 8);
static_assert(sizeof(struct ktrace_expanded) == 8);
static_assert(sizeof(struct ktrace_timestamp) == 12);
static_assert(sizeof(struct ktrace_subbuf_header) == 48);
static_assert(sizeof(struct ktrace_meta_trace) == 216);
static_assert(sizeof(struct ktrace_meta_clock) == 56);
static_assert(sizeof(struct ktrace_meta_channel) == 44);
static_assert(sizeof(struct ktrace_meta_event) == 72);
static_assert(sizeof(struct ktrace_meta_field) == 40);
static_assert(sizeof(struct ktrace_meta_enum) == 40);
static_assert(sizeof(struct ktrace_crash_header) == 256);
static_assert(sizeof(struct ktrace_crash_buf) == 80);
static_assert(sizeof(struct ktrace_crash_anchor) == 32);

/*
 * A record needs a timestamp record before it when its clock differs from
 * the previous record's above the low KTRACE_CLOCK_BITS bits.
 */
static inline bool ktrace_clock_needs_timestamp(u64 last, u64 now)
{
	return (last ^ now) >> KTRACE_CLOCK_BITS;
}

static inline void ktrace_put_compact(void *p, unsigned int id, u64 clock,
				      u32 payload)
{
	struct ktrace_compact rec = {
		.header = KTRACE_HEADER(id, clock),
		.payload = payload,
	};

	memcpy(p, &rec, sizeof(rec));
}

static inline void ktrace_put_timestamp(void *p, u64 clock)
{
	struct ktrace_timestamp rec = {
		.header = KTRACE_HEADER(KTRACE_ID_TIMESTAMP, clock),
		.clock_lo = lower_32_bits(clock),
		.clock_hi = upper_32_bits(clock),
	};

	memcpy(p, &rec, sizeof(rec));
}

/*
 * Writes the head and zeroes the padding; the caller copies the payload
 * after it, over the padding's first bytes.
 */
static inline void ktrace_put_expanded(void *p, u64 clock, u8 major, u8 minor,
				       u16 length)
{
	struct ktrace_expanded rec = {
		.header = KTRACE_HEADER(KTRACE_ID_EXPANDED, clock),
		.major = major,
		.minor = minor,
		.length = length,
	};
	size_t padded = KTRACE_EXPANDED_SIZE(length) - sizeof(rec);

	memcpy(p, &rec, sizeof(rec));
	if (padded != length)
		memset(p + sizeof(rec) + padded - 4, 0, 4);
}

/**
 * struct ktrace_record - one decoded record
 * @id: the record id of the header word
 * @clock: the full shifted clock of the record
 * @payload: compact events: the 32-bit payload
 * @major: expanded events: the major
 * @minor: expanded events: the minor
 * @length: expanded events: payload bytes
 * @data: expanded events: the payload, inside the decoded buffer
 * @size: bytes the record takes in the stream
 */
struct ktrace_record {
	unsigned int id;
	u64 clock;
	u32 payload;
	u8 major;
	u8 minor;
	u16 length;
	const void *data;
	size_t size;
};

int ktrace_decode_record(const void *buf, size_t avail, u64 *clock,
			 struct ktrace_record *rec);

/*
 * What both decoders print for an event without metadata (its channel's
 * name, then the header's numbers) and for a key that names nothing.
 */
#define KTRACE_UNKNOWN_EVENT	"unknown:%s"
#define KTRACE_UNKNOWN_COMPACT	KTRACE_UNKNOWN_EVENT " id=%u payload=0x%x"
#define KTRACE_UNKNOWN_EXPANDED	KTRACE_UNKNOWN_EVENT " major=%u minor=%u length=%u"
#define KTRACE_UNKNOWN_KEY	"unknown:0x%08x"

/*
 * The rules of a field's value (decode.c): the ascii pipe (ascii.c) and
 * tools/ktrace (tools/ktrace/format.c) print the same line for a record.
 * They print with @put (@len bytes of @s, as many as fit) to @ctx.
 */
struct ktrace_out {
	void (*put)(void *ctx, const char *s, size_t len);
	void *ctx;
};

/*
 * A number field: its display, flags (KTRACE_FIELD_*), width in bits
 * (ktrace_field_bits()) and named values (enum values, flag masks), the
 * @nr_values entries of @table, as each decoder keeps them.
 */
struct ktrace_value_desc {
	unsigned int display, flags, bits;
	const void *table;
	unsigned int nr_values;
	u64 (*value)(const void *table, unsigned int i);
	const char *(*name)(const void *table, unsigned int i);
};

/* What ktrace_put_value() printed. */
enum ktrace_value_kind {
	KTRACE_VALUE_SYMBOL,	/* nothing: each decoder names addresses its own way */
	KTRACE_VALUE_WORD,	/* a name, flags, hexadecimal, a dev_t */
	KTRACE_VALUE_NUMBER,	/* a number, in decimal (ktrace_put_number()) */
};

/* Compact fields are sized in bits, expanded ones in bytes. */
static inline unsigned int ktrace_field_bits(unsigned int size, bool compact)
{
	return compact ? size : size * 8;
}

bool ktrace_field_raw(const struct ktrace_record *rec, bool compact, unsigned int offset,
		      unsigned int size, u64 *v);
bool ktrace_field_string(const struct ktrace_record *rec, unsigned int offset,
			 unsigned int size, const char **s, size_t *len);
u64 ktrace_field_extend(unsigned int flags, unsigned int bits, u64 raw);
int ktrace_field_saturated(unsigned int flags, unsigned int bits, u64 v);
void ktrace_put_string(const struct ktrace_out *o, const char *s, size_t len);
void ktrace_put_number(const struct ktrace_out *o, unsigned int flags, unsigned int bits,
		       u64 v);
enum ktrace_value_kind ktrace_put_value(const struct ktrace_out *o,
					const struct ktrace_value_desc *d, u64 raw, u64 *v);

#endif /* _KTRACE_FORMAT_H */
