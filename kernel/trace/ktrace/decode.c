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
