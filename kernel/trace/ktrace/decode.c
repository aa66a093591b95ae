// SPDX-License-Identifier: GPL-2.0
/*
 * ktrace record decoder.
 *
 * The decoder trusts nothing it reads: a record that would run past the end
 * of the data, or a timestamp record whose header disagrees with its full
 * value, is an error.  Times are unrolled from the last full value; the
 * writer guarantees a timestamp record whenever the bits above the 27-bit
 * range change, and the decoder still accepts one rollover between two
 * records, so that it can check a stream that breaks the rule.
 */
#include <linux/errno.h>
#include <linux/string.h>
#include <kunit/visibility.h>
#ifdef __KERNEL__
#include <linux/sprintf.h>
#else
#include <stdio.h>	/* tools/ktrace */
#endif

#include "format.h"

/**
 * ktrace_decode_record() - decode the record at the start of a buffer
 * @buf: the record
 * @avail: bytes available at @buf
 * @clock: the full clock of the previous record of the stream; updated to
 *	this record's
 * @rec: the decoded record
 *
 * Return: the size of the record in bytes, -ENODATA if @avail is zero,
 * -EBADMSG if the record is truncated or inconsistent (in which case
 * @clock is unchanged).
 */
int ktrace_decode_record(const void *buf, size_t avail, u64 *clock,
			 struct ktrace_record *rec)
{
	u32 hdr, low;
	u64 full;

	if (!avail)
		return -ENODATA;
	if (avail < sizeof(struct ktrace_compact))
		return -EBADMSG;
	memcpy(&hdr, buf, sizeof(hdr));
	memset(rec, 0, sizeof(*rec));
	rec->id = KTRACE_HEADER_ID(hdr);
	low = KTRACE_HEADER_CLOCK(hdr);

	switch (rec->id) {
	case KTRACE_ID_TIMESTAMP: {
		struct ktrace_timestamp ts;

		if (avail < sizeof(ts))
			return -EBADMSG;
		memcpy(&ts, buf, sizeof(ts));
		full = (u64)ts.clock_hi << 32 | ts.clock_lo;
		if ((full & KTRACE_CLOCK_MASK) != low)
			return -EBADMSG;
		rec->size = sizeof(ts);
		break;
	}
	case KTRACE_ID_EXPANDED: {
		struct ktrace_expanded ex;

		memcpy(&ex, buf, sizeof(ex));
		rec->size = KTRACE_EXPANDED_SIZE(ex.length);
		if (avail < rec->size)
			return -EBADMSG;
		rec->major = ex.major;
		rec->minor = ex.minor;
		rec->length = ex.length;
		rec->data = buf + sizeof(ex);
		break;
	}
	default: {
		struct ktrace_compact c;

		memcpy(&c, buf, sizeof(c));
		rec->payload = c.payload;
		rec->size = sizeof(c);
		break;
	}
	}

	if (rec->id != KTRACE_ID_TIMESTAMP) {
		full = (*clock & ~(u64)KTRACE_CLOCK_MASK) | low;
		if (low < (*clock & KTRACE_CLOCK_MASK))
			full += 1ULL << KTRACE_CLOCK_BITS;
	}
	rec->clock = full;
	*clock = full;
	return rec->size;
}
EXPORT_SYMBOL_IF_KUNIT(ktrace_decode_record);

/*
 * The rules of a field's value shared by the ascii pipe and tools/ktrace
 * (format.h).  A number field's raw value, zero-extended: of a compact
 * event from its payload (@offset and @size in bits), else from its data
 * (in bytes; 1, 2, 4 or 8), in the writer's byte order.  False if the
 * record is too short for it.
 */
bool ktrace_field_raw(const struct ktrace_record *rec, bool compact, unsigned int offset,
		      unsigned int size, u64 *v)
{
	union { u8 b; u16 h; u32 w; u64 q; } u;

	*v = 0;
	if (compact) {
		*v = rec->payload >> offset;
		if (size < 32)
			*v &= (1ULL << size) - 1;
		return true;
	}
	if (offset + size > rec->length || (size != 1 && size != 2 && size != 4 && size != 8))
		return false;
	/* Records are 4-byte aligned only. */
	memcpy(&u, rec->data + offset, size);
	*v = size == 1 ? u.b : size == 2 ? u.h : size == 4 ? u.w : u.q;
	return true;
}

/* A string field of an expanded event: of @size bytes, or 0 to the end of the data. */
bool ktrace_field_string(const struct ktrace_record *rec, unsigned int offset,
			 unsigned int size, const char **s, size_t *len)
{
	size_t n = size ? size : rec->length - (offset < rec->length ? offset : rec->length);

	if (offset + n > rec->length)
		return false;
	*s = (const char *)rec->data + offset;
	*len = strnlen(*s, n);
	return true;
}

/* A field's raw value of @bits, sign-extended if KTRACE_FIELD_SIGNED. */
u64 ktrace_field_extend(unsigned int flags, unsigned int bits, u64 raw)
{
	if ((flags & KTRACE_FIELD_SIGNED) && bits && bits < 64 && (raw >> (bits - 1)) & 1)
		raw |= ~0ULL << bits;
	return raw;
}

/*
 * KTRACE_FIELD_SATURATES: 1 if @v, the value of a field of @bits
 * (sign-extended if signed), is its largest, -1 if its smallest and
 * signed, else 0.
 */
int ktrace_field_saturated(unsigned int flags, unsigned int bits, u64 v)
{
	s64 max;

	if (!(flags & KTRACE_FIELD_SATURATES) || !bits || bits > 64)
		return 0;
	if (flags & KTRACE_FIELD_SIGNED) {
		/* A 1-bit signed field is 0 or -1: no shift by 64. */
		max = bits > 1 ? (s64)(~0ULL >> (65 - bits)) : 0;
		if ((s64)v == max)
			return 1;
		return (s64)v == -max - 1 ? -1 : 0;
	}
	return v == ~0ULL >> (64 - bits);
}

static void put_str(const struct ktrace_out *o, const char *s)
{
	o->put(o->ctx, s, strlen(s));
}

/*
 * A string quoted; quotes, backslashes, newlines and tabs escaped as in C,
 * other bytes outside printable ASCII as \xHH.
 */
void ktrace_put_string(const struct ktrace_out *o, const char *s, size_t len)
{
	char esc[8];
	size_t i;

	o->put(o->ctx, "\"", 1);
	for (i = 0; i < len; i++) {
		unsigned char ch = s[i];

		if (ch == '"' || ch == '\\')
			snprintf(esc, sizeof(esc), "\\%c", ch);
		else if (ch == '\n' || ch == '\t')
			snprintf(esc, sizeof(esc), "\\%c", ch == '\n' ? 'n' : 't');
		else if (ch < 0x20 || ch > 0x7e)
			snprintf(esc, sizeof(esc), "\\x%02x", ch);
		else
			esc[0] = '\0';
		if (esc[0])
			put_str(o, esc);
		else
			o->put(o->ctx, s + i, 1);
	}
	o->put(o->ctx, "\"", 1);
}

/* A number in decimal, after ">=" or "<=" at a saturating field's bound. */
void ktrace_put_number(const struct ktrace_out *o, unsigned int flags, unsigned int bits,
		       u64 v)
{
	int sat = ktrace_field_saturated(flags, bits, v);
	char num[32];

	if (flags & KTRACE_FIELD_SIGNED)
		snprintf(num, sizeof(num), "%s%lld", sat > 0 ? ">=" : sat < 0 ? "<=" : "",
			 (long long)v);
	else
		snprintf(num, sizeof(num), "%s%llu", sat ? ">=" : "", (unsigned long long)v);
	put_str(o, num);
}

/*
 * A FLAGS value as ftrace's __print_flags(): the names of the table's
 * masks all of whose bits are set, in table order, each clearing its
 * bits, then the bits left in hexadecimal, joined by '|'; 0 as the name
 * of the value 0 if the table has one.
 */
static void put_flags(const struct ktrace_out *o, const struct ktrace_value_desc *d, u64 v)
{
	const char *sep = "";
	char rest[24];
	unsigned int i;
	u64 mask;

	for (i = 0; !v && i < d->nr_values; i++) {
		if (!d->value(d->table, i)) {
			put_str(o, d->name(d->table, i));
			return;
		}
	}
	for (i = 0; i < d->nr_values && v; i++) {
		mask = d->value(d->table, i);
		if (mask && (v & mask) == mask) {
			put_str(o, sep);
			put_str(o, d->name(d->table, i));
			sep = "|";
			v &= ~mask;
		}
	}
	if (v || !*sep) {
		snprintf(rest, sizeof(rest), "%s0x%llx", sep, (unsigned long long)v);
		put_str(o, v ? rest : "0");
	}
}

/*
 * A number field's value as the ascii formats print it, and in *@v its
 * value (sign-extended if signed): FLAGS as the names of its raw bits,
 * HEX in 0x-prefixed hexadecimal, DEV as MAJOR:MINOR of the kernel's
 * dev_t (MINORBITS 20), an ENUM as the name of its value, else in decimal
 * (ktrace_put_number()).  Not a SYMBOL: each decoder names addresses its
 * own way.
 */
enum ktrace_value_kind ktrace_put_value(const struct ktrace_out *o,
					const struct ktrace_value_desc *d, u64 raw, u64 *v)
{
	char word[32];
	unsigned int i;

	*v = ktrace_field_extend(d->flags, d->bits, raw);
	switch (d->display) {
	case KTRACE_DISPLAY_FLAGS:
		put_flags(o, d, raw);
		return KTRACE_VALUE_WORD;
	case KTRACE_DISPLAY_SYMBOL:
		return KTRACE_VALUE_SYMBOL;
	case KTRACE_DISPLAY_HEX:
	case KTRACE_DISPLAY_DEV:
		if (d->display == KTRACE_DISPLAY_HEX)
			snprintf(word, sizeof(word), "0x%llx", (unsigned long long)*v);
		else
			snprintf(word, sizeof(word), "%u:%u", (unsigned int)(*v >> 20) & 0xfff,
				 (unsigned int)*v & 0xfffff);
		put_str(o, word);
		return KTRACE_VALUE_WORD;
	case KTRACE_DISPLAY_ENUM:
		for (i = 0; i < d->nr_values; i++) {
			if (d->value(d->table, i) == *v) {
				put_str(o, d->name(d->table, i));
				return KTRACE_VALUE_WORD;
			}
		}
		break;
	}
	ktrace_put_number(o, d->flags, d->bits, *v);
	return KTRACE_VALUE_NUMBER;
}
