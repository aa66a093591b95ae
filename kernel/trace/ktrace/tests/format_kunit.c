// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the ktrace record format: every record kind round-trips
 * through the encoders and the decoder, truncated and inconsistent records
 * are refused, and 27-bit clocks unroll across many rollovers.
 */
#include <kunit/test.h>
#include <linux/prandom.h>
#include <linux/seq_buf.h>
#include <linux/slab.h>

#include "format.h"
#include "ktrace_internal.h"

static void format_header_test(struct kunit *test)
{
	static const struct {
		unsigned int id;
		u64 clock;
		u32 header;
	} cases[] = {
		{ 0, 0, 0x00000000 },
		{ 1, 1, 0x08000001 },
		{ KTRACE_ID_COMPACT_MAX, KTRACE_CLOCK_MASK, 0xefffffff },
		{ KTRACE_ID_EXPANDED, 0x12345678, 0xf2345678 },
		{ KTRACE_ID_TIMESTAMP, 0xffffffff00000005ULL, 0xf8000005 },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		u32 h = KTRACE_HEADER(cases[i].id, cases[i].clock);

		KUNIT_EXPECT_EQ_MSG(test, h, cases[i].header, "case %u", i);
		KUNIT_EXPECT_EQ(test, KTRACE_HEADER_ID(h), cases[i].id);
		KUNIT_EXPECT_EQ(test, KTRACE_HEADER_CLOCK(h),
				(u32)(cases[i].clock & KTRACE_CLOCK_MASK));
	}
}

static void format_compact_test(struct kunit *test)
{
	u64 last = 0x7ULL << KTRACE_CLOCK_BITS | 5, clock = last;
	struct ktrace_record rec;
	u32 buf[3] = { 0, 0, 0xdeadbeef };
	unsigned int id;

	for (id = 0; id <= KTRACE_ID_COMPACT_MAX; id++) {
		clock = last + id * 3;
		ktrace_put_compact(buf, id, clock, 0xa5a50000 | id);
		KUNIT_ASSERT_EQ(test, ktrace_decode_record(buf, sizeof(buf), &last, &rec), 8);
		KUNIT_EXPECT_EQ(test, rec.id, id);
		KUNIT_EXPECT_EQ(test, rec.payload, 0xa5a50000 | id);
		KUNIT_EXPECT_EQ(test, rec.clock, clock);
		KUNIT_EXPECT_EQ(test, last, clock);
		KUNIT_EXPECT_EQ(test, buf[2], 0xdeadbeef);
	}
}

static const u16 expanded_lengths[] = { 0, 1, 2, 3, 4, 5, 31, 32, 33, 65535 };

static void format_expanded_test(struct kunit *test)
{
	size_t bufsize = KTRACE_EXPANDED_SIZE(KTRACE_EXPANDED_MAX) + 8;
	u8 *buf = kunit_kmalloc(test, bufsize, GFP_KERNEL);
	u8 *payload = kunit_kmalloc(test, KTRACE_EXPANDED_MAX, GFP_KERNEL);
	struct ktrace_record rec;
	unsigned int i, j;
	u64 last = 100;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_ASSERT_NOT_NULL(test, payload);
	for (j = 0; j < KTRACE_EXPANDED_MAX; j++)
		payload[j] = j * 7 + 1;

	for (i = 0; i < ARRAY_SIZE(expanded_lengths); i++) {
		u16 len = expanded_lengths[i];
		size_t size = KTRACE_EXPANDED_SIZE(len);

		KUNIT_EXPECT_EQ(test, size % 4, 0);
		KUNIT_EXPECT_LT(test, size - 8 - len, 4);
		memset(buf, 0xaa, bufsize);
		ktrace_put_expanded(buf, 200 + i, 7, 9, len);
		memcpy(buf + 8, payload, len);

		KUNIT_ASSERT_EQ(test, ktrace_decode_record(buf, bufsize, &last, &rec),
				(int)size);
		KUNIT_EXPECT_EQ(test, rec.id, KTRACE_ID_EXPANDED);
		KUNIT_EXPECT_EQ(test, rec.major, 7);
		KUNIT_EXPECT_EQ(test, rec.minor, 9);
		KUNIT_EXPECT_EQ(test, rec.length, len);
		KUNIT_EXPECT_EQ(test, rec.clock, 200 + i);
		KUNIT_EXPECT_PTR_EQ(test, rec.data, (const void *)(buf + 8));
		KUNIT_EXPECT_EQ(test, memcmp(rec.data, payload, len), 0);
		for (j = 8 + len; j < size; j++)
			KUNIT_EXPECT_EQ_MSG(test, buf[j], 0, "padding byte %u, length %u", j, len);
		KUNIT_EXPECT_EQ(test, buf[size], 0xaa);
	}
}

static void format_timestamp_test(struct kunit *test)
{
	static const u64 clocks[] = {
		0, 1, KTRACE_CLOCK_MASK, 1ULL << KTRACE_CLOCK_BITS,
		0x123456789abcdefULL, U64_MAX,
	};
	struct ktrace_record rec;
	u32 buf[4];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(clocks); i++) {
		u64 last = 0x5555;

		ktrace_put_timestamp(buf, clocks[i]);
		KUNIT_ASSERT_EQ(test, ktrace_decode_record(buf, 12, &last, &rec), 12);
		KUNIT_EXPECT_EQ(test, rec.id, KTRACE_ID_TIMESTAMP);
		KUNIT_EXPECT_EQ(test, rec.clock, clocks[i]);
		KUNIT_EXPECT_EQ(test, last, clocks[i]);
	}
}

/* Every prefix of a record is refused, and leaves the clock alone. */
static void format_truncated_test(struct kunit *test)
{
	u8 buf[KTRACE_EXPANDED_SIZE(33)];
	struct ktrace_record rec;
	size_t sizes[3], avail;
	unsigned int k;

	for (k = 0; k < 3; k++) {
		u64 last = 42;

		if (k == 0) {
			ktrace_put_compact(buf, 3, 43, 1);
			sizes[k] = 8;
		} else if (k == 1) {
			ktrace_put_timestamp(buf, 44);
			sizes[k] = 12;
		} else {
			ktrace_put_expanded(buf, 45, 1, 2, 33);
			memset(buf + 8, 'x', 33);
			sizes[k] = sizeof(buf);
		}
		KUNIT_EXPECT_EQ(test, ktrace_decode_record(buf, 0, &last, &rec), -ENODATA);
		for (avail = 1; avail < sizes[k]; avail++) {
			KUNIT_EXPECT_EQ_MSG(test, ktrace_decode_record(buf, avail, &last, &rec),
					    -EBADMSG, "kind %u, %zu of %zu bytes", k, avail,
					    sizes[k]);
			KUNIT_EXPECT_EQ(test, last, 42);
		}
		KUNIT_EXPECT_EQ(test, ktrace_decode_record(buf, sizes[k], &last, &rec),
				(int)sizes[k]);
	}
}

/* A timestamp record whose header disagrees with its full value. */
static void format_bad_timestamp_test(struct kunit *test)
{
	struct ktrace_timestamp ts = {
		.header = KTRACE_HEADER(KTRACE_ID_TIMESTAMP, 5),
		.clock_lo = 6,
	};
	struct ktrace_record rec;
	u64 last = 1;

	KUNIT_EXPECT_EQ(test, ktrace_decode_record(&ts, sizeof(ts), &last, &rec), -EBADMSG);
	KUNIT_EXPECT_EQ(test, last, 1);
}

/*
 * A simulated clock with steps from 1 unit to 2^28 units crosses the 27-bit
 * range thousands of times; a stream written with the writer's rule (a
 * timestamp record first and whenever the high bits change) decodes to the
 * exact clock of every event, and holds exactly one timestamp record per
 * change.
 */
static void format_unroll_test(struct kunit *test)
{
	const unsigned int nr = 20000;
	u64 *clocks = kunit_kmalloc_array(test, nr, sizeof(u64), GFP_KERNEL);
	u8 *buf = kunit_kmalloc(test, nr * 20, GFP_KERNEL);
	unsigned int i, changes = 0, timestamps = 0, events = 0;
	struct rnd_state rnd;
	struct ktrace_record rec;
	size_t len = 0, pos = 0;
	u64 clock = (1ULL << 40) - 12345, last = 0;
	int ret;

	KUNIT_ASSERT_NOT_NULL(test, clocks);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	prandom_seed_state(&rnd, 2007);
	for (i = 0; i < nr; i++) {
		u32 r = prandom_u32_state(&rnd);

		switch (r & 3) {
		case 0:
			clock += r >> 22;		/* up to 2^10 */
			break;
		case 1:
			clock += r >> 12;		/* up to 2^20 */
			break;
		case 2:
			clock += r >> 4;		/* up to 2^28 */
			break;
		default:
			break;				/* same clock */
		}
		clocks[i] = clock;
		if (!i || ktrace_clock_needs_timestamp(last, clock)) {
			ktrace_put_timestamp(buf + len, clock);
			len += sizeof(struct ktrace_timestamp);
			changes++;
		}
		ktrace_put_compact(buf + len, i % (KTRACE_ID_COMPACT_MAX + 1), clock, i);
		len += sizeof(struct ktrace_compact);
		last = clock;
	}
	KUNIT_ASSERT_GT(test, changes, 1000);

	last = 0;
	while ((ret = ktrace_decode_record(buf + pos, len - pos, &last, &rec)) > 0) {
		pos += ret;
		if (rec.id == KTRACE_ID_TIMESTAMP) {
			timestamps++;
			continue;
		}
		KUNIT_ASSERT_LT(test, events, nr);
		KUNIT_ASSERT_EQ_MSG(test, rec.clock, clocks[events],
				    "event %u", events);
		KUNIT_ASSERT_EQ(test, rec.payload, events);
		events++;
	}
	KUNIT_EXPECT_EQ(test, ret, -ENODATA);
	KUNIT_EXPECT_EQ(test, events, nr);
	KUNIT_EXPECT_EQ(test, timestamps, changes);
}

/* Without the timestamp records, one rollover between records still unrolls. */
static void format_unroll_tolerance_test(struct kunit *test)
{
	static const u64 clocks[] = {
		(3ULL << KTRACE_CLOCK_BITS) + KTRACE_CLOCK_MASK - 2,
		(4ULL << KTRACE_CLOCK_BITS) + 1,
		(4ULL << KTRACE_CLOCK_BITS) + KTRACE_CLOCK_MASK,
		(5ULL << KTRACE_CLOCK_BITS),
	};
	u64 last = (3ULL << KTRACE_CLOCK_BITS) + 7;
	struct ktrace_record rec;
	u32 buf[2];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(clocks); i++) {
		ktrace_put_compact(buf, 1, clocks[i], 0);
		KUNIT_ASSERT_EQ(test, ktrace_decode_record(buf, 8, &last, &rec), 8);
		KUNIT_EXPECT_EQ_MSG(test, rec.clock, clocks[i], "record %u", i);
	}
}

/*
 * A string cut at any byte of a line leaves no byte of the line unwritten:
 * the ascii pipe delivers a cut line whole, so a byte the formatter
 * skipped would show what the buffer held before (seq_buf_puts() writes
 * nothing of a string that does not fit).
 */
static void format_ascii_cut_test(struct kunit *test)
{
	static const char str[] = "a\nb\tc\x01\"d";
	char buf[12];
	unsigned int k, i;
	struct seq_buf s;

	for (k = 0; k < sizeof(buf); k++) {
		memset(buf, 0xaa, sizeof(buf));
		seq_buf_init(&s, buf, sizeof(buf));
		seq_buf_printf(&s, "%.*s", k, "xxxxxxxxxxxx");
		ktrace_ascii_string(&s, str, sizeof(str) - 1);
		KUNIT_EXPECT_TRUE(test, seq_buf_has_overflowed(&s));
		for (i = 0; i < seq_buf_used(&s); i++)
			KUNIT_EXPECT_NE_MSG(test, (u8)buf[i], 0xaa, "cut after %u bytes: byte %u",
					    k, i);
	}
}

static struct kunit_case ktrace_format_cases[] = {
	KUNIT_CASE(format_header_test),
	KUNIT_CASE(format_compact_test),
	KUNIT_CASE(format_expanded_test),
	KUNIT_CASE(format_timestamp_test),
	KUNIT_CASE(format_truncated_test),
	KUNIT_CASE(format_bad_timestamp_test),
	KUNIT_CASE(format_unroll_test),
	KUNIT_CASE(format_unroll_tolerance_test),
	KUNIT_CASE(format_ascii_cut_test),
	{}
};

static struct kunit_suite ktrace_format_suite = {
	.name = "ktrace_format",
	.test_cases = ktrace_format_cases,
};

kunit_test_suite(ktrace_format_suite);

MODULE_DESCRIPTION("KUnit tests for the ktrace record format");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
