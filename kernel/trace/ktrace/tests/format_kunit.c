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

#include "event.h"
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

/* ---- the ascii pipe's fields: flag tables, saturation, keys ---------- */

static const struct ktrace_enum_value kt_test_flag_values[] = {
	{ 3, "ab" }, { 1, "a" }, { 4, "c" }, { 0, "none" },
};

static const struct ktrace_enum_value kt_test_op_values[] = {
	{ 1, "write" },
};

/* A description: struct ktrace_blk_desc, its identity as block's. */
static const struct ktrace_field kt_test_desc_fields[] = {
	{ .name = "dev", .offset = 8, .size = 4, .display = KTRACE_DISPLAY_DEV,
	  .flags = KTRACE_FIELD_IDENT },
	{ .name = "sector", .offset = 0, .size = 8, .display = KTRACE_DISPLAY_DEC,
	  .flags = KTRACE_FIELD_IDENT },
	{ .name = "nr_sector", .offset = 12, .size = 2, .display = KTRACE_DISPLAY_DEC,
	  .flags = KTRACE_FIELD_IDENT | KTRACE_FIELD_SATURATES },
	{ .name = "op", .offset = 14, .size = 1, .display = KTRACE_DISPLAY_ENUM,
	  .flags = KTRACE_FIELD_IDENT, .values = kt_test_op_values,
	  .nr_values = ARRAY_SIZE(kt_test_op_values) },
	{ .name = "flags", .offset = 15, .size = 1, .display = KTRACE_DISPLAY_FLAGS,
	  .values = kt_test_flag_values, .nr_values = ARRAY_SIZE(kt_test_flag_values) },
};

static const struct ktrace_field kt_test_key_fields[] = {
	{ .name = "rq", .offset = 0, .size = 32, .display = KTRACE_DISPLAY_KEY },
};

static const struct ktrace_field kt_test_end_fields[] = {
	{ .name = "rq", .offset = 0, .size = 32, .display = KTRACE_DISPLAY_KEY,
	  .flags = KTRACE_FIELD_KEY_END },
};

static const struct ktrace_field kt_test_sat_fields[] = {
	{ .name = "cpu", .offset = 0, .size = 10, .display = KTRACE_DISPLAY_DEC,
	  .flags = KTRACE_FIELD_SATURATES },
	{ .name = "ret", .offset = 10, .size = 22, .display = KTRACE_DISPLAY_DEC,
	  .flags = KTRACE_FIELD_SIGNED | KTRACE_FIELD_SATURATES },
};

static const struct ktrace_event kt_test_desc = {
	.group = "blk", .name = "desc", .fields = kt_test_desc_fields,
	.nr_fields = ARRAY_SIZE(kt_test_desc_fields),
};

static const struct ktrace_event kt_test_use = {
	.group = "blk", .name = "use", .fields = kt_test_key_fields, .nr_fields = 1,
};

static const struct ktrace_event kt_test_end = {
	.group = "blk", .name = "end", .fields = kt_test_end_fields, .nr_fields = 1,
};

static const struct ktrace_event kt_test_other = {
	.group = "net", .name = "other", .fields = kt_test_key_fields, .nr_fields = 1,
};

static const struct ktrace_event kt_test_sat = {
	.group = "sched", .name = "sat", .fields = kt_test_sat_fields,
	.nr_fields = ARRAY_SIZE(kt_test_sat_fields),
};

static u32 kt_test_key(const struct ktrace_blk_desc *d)
{
	u64 h = KTRACE_KEY_SEED;

	h = ktrace_key_add(h, d->dev);
	h = ktrace_key_add(h, d->sector);
	h = ktrace_key_add(h, d->nr_sector);
	h = ktrace_key_add(h, d->op);
	return ktrace_key_final(h);
}

/* The fields of one event, as the ascii pipe prints them after its name. */
static const char *kt_test_fields(struct ktrace_ascii *a, const struct ktrace_event *ev,
				  const void *data, u16 len, u32 payload, char *buf)
{
	struct ktrace_record rec = {
		.id = data ? KTRACE_ID_EXPANDED : 0, .payload = payload,
		.data = data, .length = len,
	};

	ktrace_ascii_fields(a, ev, &rec, !data);
	ktrace_ascii_take_line(a, buf, 256);
	return buf;
}

#define DESC(a, d, buf)	\
	kt_test_fields(a, &kt_test_desc, d, sizeof(struct ktrace_blk_desc), 0, buf)
#define USE(a, ev, key, buf) kt_test_fields(a, ev, NULL, 0, key, buf)

/*
 * A key names the newest description of its identity, only in its group,
 * and only until the event that ends it; a key seen with two identities
 * names neither; flags print by their table, saturated values with their
 * bound.
 */
static void format_ascii_keys_test(struct kunit *test)
{
	/* Two identities whose keys collide, found by a search over sectors. */
	struct ktrace_blk_desc d = {
		.sector = 800, .dev = MKDEV(8, 0), .nr_sector = 8, .op = 1, .flags = 7,
	}, c1 = {
		.sector = 1018177, .dev = MKDEV(8, 0), .nr_sector = 8, .op = 1,
	}, c2 = c1;
	struct ktrace_ascii *a = ktrace_ascii_open();
	char *buf = kunit_kzalloc(test, 256, GFP_KERNEL);
	char want[64];
	u32 key = kt_test_key(&d);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, a);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	c2.sector = 1018429;
	KUNIT_ASSERT_EQ(test, kt_test_key(&c1), kt_test_key(&c2));

	/* Before its description: unknown. */
	snprintf(want, sizeof(want), " rq=unknown:0x%08x", key);
	KUNIT_EXPECT_STREQ(test, USE(a, &kt_test_use, key, buf), want);
	KUNIT_EXPECT_STREQ(test, DESC(a, &d, buf),
			   " dev=8:0 sector=800 nr_sector=8 op=write flags=ab|c");
	KUNIT_EXPECT_STREQ(test, USE(a, &kt_test_use, key, buf),
			   " dev=8:0 sector=800 nr_sector=8 op=write flags=ab|c");
	/* Another group's key is another namespace. */
	KUNIT_EXPECT_STREQ(test, USE(a, &kt_test_other, key, buf), want);
	/* The end is still named, then the description is forgotten. */
	KUNIT_EXPECT_STREQ(test, USE(a, &kt_test_end, key, buf),
			   " dev=8:0 sector=800 nr_sector=8 op=write flags=ab|c");
	KUNIT_EXPECT_STREQ(test, USE(a, &kt_test_use, key, buf), want);
	KUNIT_EXPECT_STREQ(test, USE(a, &kt_test_end, key, buf), want);

	/* Described again, with flags no entry fully names, and saturated. */
	d.flags = 0x1d;
	d.nr_sector = U16_MAX;
	key = kt_test_key(&d);
	KUNIT_EXPECT_STREQ(test, DESC(a, &d, buf),
			   " dev=8:0 sector=800 nr_sector=>=65535 op=write flags=a|c|0x18");
	KUNIT_EXPECT_STREQ(test, USE(a, &kt_test_use, key, buf),
			   " dev=8:0 sector=800 nr_sector=>=65535 op=write flags=a|c|0x18");
	d.flags = 0;
	KUNIT_EXPECT_STREQ(test, DESC(a, &d, buf),
			   " dev=8:0 sector=800 nr_sector=>=65535 op=write flags=none");

	/* The same identity twice stays known; a second identity: unknown. */
	key = kt_test_key(&c1);
	snprintf(want, sizeof(want), " rq=unknown:0x%08x", key);
	DESC(a, &c1, buf);
	DESC(a, &c1, buf);
	KUNIT_EXPECT_STREQ(test, USE(a, &kt_test_use, key, buf),
			   " dev=8:0 sector=1018177 nr_sector=8 op=write flags=none");
	DESC(a, &c2, buf);
	KUNIT_EXPECT_STREQ(test, USE(a, &kt_test_use, key, buf), want);
	DESC(a, &c1, buf);
	KUNIT_EXPECT_STREQ(test, USE(a, &kt_test_use, key, buf), want);

	/* Saturated compact fields: the bounds, and the values inside. */
	KUNIT_EXPECT_STREQ(test, USE(a, &kt_test_sat, 1023 | (0x200000U << 10), buf),
			   " cpu=>=1023 ret=<=-2097152");
	KUNIT_EXPECT_STREQ(test, USE(a, &kt_test_sat, 1022 | (0x1fffffU << 10), buf),
			   " cpu=1022 ret=>=2097151");
	KUNIT_EXPECT_STREQ(test, USE(a, &kt_test_sat, 7 | ((u32)-2 << 10), buf),
			   " cpu=7 ret=-2");
	ktrace_ascii_release(a);
}

static const struct ktrace_field kt_test_pid_fields[] = {
	{ .name = "next_pid", .offset = 0, .size = 22, .display = KTRACE_DISPLAY_PID },
};

/* A switch: its first field is the task running from then on. */
static const struct ktrace_event kt_test_switch = {
	.group = "sched", .name = "switch", .fields = kt_test_pid_fields,
	.nr_fields = ARRAY_SIZE(kt_test_pid_fields), .pid_is_current = true,
};

/* The same layout, naming some other task (a wakeup, a rename). */
static const struct ktrace_event kt_test_wakeup = {
	.group = "sched", .name = "wakeup", .fields = kt_test_pid_fields,
	.nr_fields = ARRAY_SIZE(kt_test_pid_fields),
};

/*
 * The running task of a CPU, across its two channels in time order: a
 * switch on one channel names the task of the other's events after it; a
 * subbuffer header names the task running when it began, believed only
 * if nothing said otherwise since, and at the same time the event wins.
 */
static void format_ascii_running_test(struct kunit *test)
{
	struct ktrace_ascii_running run = {}, high = { .pid = 10, .clock = 100 },
		medium = { .pid = 10, .clock = 90 }, lost = { .pid = 40, .clock = 300 },
		tie = { .pid = 30, .clock = 200 };
	struct ktrace_record r = { .id = 4, .clock = 100, .payload = 77 };
	int prev;

	/* The high channel's first subbuffer: 10 runs; a wakeup of 77. */
	KUNIT_EXPECT_EQ(test, ktrace_ascii_running(&run, &high, &kt_test_wakeup, &r, &prev), 10);
	/* A switch to 20 on the high channel. */
	r.clock = 150;
	r.payload = 20;
	KUNIT_EXPECT_EQ(test, ktrace_ascii_running(&run, NULL, &kt_test_switch, &r, &prev), 20);
	KUNIT_EXPECT_EQ(test, prev, 10);
	/* The medium channel's first event, its subbuffer begun before: 20. */
	r.clock = 160;
	r.payload = 10;
	KUNIT_EXPECT_EQ(test, ktrace_ascii_running(&run, &medium, &kt_test_wakeup, &r, &prev), 20);
	KUNIT_EXPECT_EQ(test, ktrace_ascii_running(&run, NULL, NULL, &r, &prev), 20);
	/* A switch, and a header of the same time naming another task. */
	r.clock = 200;
	r.payload = 21;
	KUNIT_EXPECT_EQ(test, ktrace_ascii_running(&run, NULL, &kt_test_switch, &r, &prev), 21);
	KUNIT_EXPECT_EQ(test, prev, 20);
	KUNIT_EXPECT_EQ(test, ktrace_ascii_running(&run, &tie, &kt_test_wakeup, &r, &prev), 21);
	/* Switches lost: a newer subbuffer of either channel names the task. */
	r.clock = 300;
	KUNIT_EXPECT_EQ(test, ktrace_ascii_running(&run, &lost, &kt_test_wakeup, &r, &prev), 40);
	r.clock = 310;
	KUNIT_EXPECT_EQ(test, ktrace_ascii_running(&run, NULL, &kt_test_wakeup, &r, &prev), 40);
	KUNIT_EXPECT_EQ(test, run.clock, 300);
	/*
	 * A switch printed late (its channel's subbuffer completed after the
	 * other's later events) does not undo what came after it.
	 */
	r.clock = 250;
	r.payload = 22;
	KUNIT_EXPECT_EQ(test, ktrace_ascii_running(&run, NULL, &kt_test_switch, &r, &prev), 40);
	KUNIT_EXPECT_EQ(test, prev, 40);
	KUNIT_EXPECT_EQ(test, run.clock, 300);
}

/* syscalls:exit's nr, signed in 10 bits: -1 is no saturation. */
static const struct ktrace_field kt_test_nr_fields[] = {
	{ .name = "nr", .offset = 0, .size = 10, .display = KTRACE_DISPLAY_DEC,
	  .flags = KTRACE_FIELD_SIGNED | KTRACE_FIELD_SATURATES },
};

static const struct ktrace_event kt_test_nr = {
	.group = "syscalls", .name = "exit", .fields = kt_test_nr_fields,
	.nr_fields = ARRAY_SIZE(kt_test_nr_fields),
};

static void format_ascii_signed_nr_test(struct kunit *test)
{
	struct ktrace_ascii *a = ktrace_ascii_open();
	char *buf = kunit_kzalloc(test, 256, GFP_KERNEL);
	const char *name = ktrace_syscall_name(15);
	char want[64];

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, a);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_EXPECT_STREQ(test, USE(a, &kt_test_nr, 0x3ff, buf), " nr=-1");
	/* A system call of the table is named (x86-64: rt_sigreturn). */
	if (name)
		snprintf(want, sizeof(want), " nr=15 name=%s", name);
	else
		strscpy(want, " nr=15", sizeof(want));
	KUNIT_EXPECT_STREQ(test, USE(a, &kt_test_nr, 15, buf), want);
	KUNIT_EXPECT_STREQ(test, USE(a, &kt_test_nr, 510, buf), " nr=510");
	KUNIT_EXPECT_STREQ(test, USE(a, &kt_test_nr, 511, buf), " nr=>=511");
	KUNIT_EXPECT_STREQ(test, USE(a, &kt_test_nr, 512, buf), " nr=<=-512");
	ktrace_ascii_release(a);
}

static struct kunit_case ktrace_format_cases[] = {
	KUNIT_CASE(format_ascii_running_test),
	KUNIT_CASE(format_ascii_signed_nr_test),
	KUNIT_CASE(format_header_test),
	KUNIT_CASE(format_compact_test),
	KUNIT_CASE(format_expanded_test),
	KUNIT_CASE(format_timestamp_test),
	KUNIT_CASE(format_truncated_test),
	KUNIT_CASE(format_bad_timestamp_test),
	KUNIT_CASE(format_unroll_test),
	KUNIT_CASE(format_unroll_tolerance_test),
	KUNIT_CASE(format_ascii_cut_test),
	KUNIT_CASE(format_ascii_keys_test),
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
