// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the ktrace per-CPU buffer: subbuffer layout, switches,
 * a writer nested between the reservation and the commit of another,
 * exact drop and overwrite accounting, and a flight-recorder wrap decoded
 * from the newest subbuffers alone.  The buffers here have no relay
 * channel and a simulated clock.  The tests of writers run twice: through
 * ktrace_reserve(), and through ktrace_buf_write_compact(), whose copy of
 * the reservation is inlined.
 */
#include <kunit/test.h>
#include <linux/irq_work.h>
#include <linux/preempt.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "buffer.h"

#define SB_SIZE		256
#define NR_SUBBUFS	4
/* Compact events per subbuffer: 8-byte records after the 60-byte start,
 * never filling the subbuffer to its last byte.
 */
#define PER_SUBBUF	((SB_SIZE - KTRACE_SUBBUF_START - 1) / 8)

struct tbuf {
	struct ktrace_buf *buf;
	void *mem;
	u64 clock;
};

/*
 * put() through ktrace_reserve() and ktrace_commit(), or through
 * ktrace_buf_write_compact(), which has its own inlined copy of the
 * reservation: the tests run with a put_path parameter run on both.
 */
static bool put_inline;

static const bool put_paths[] = { false, true };

static void put_path_desc(const bool *inline_path, char *desc)
{
	strscpy(desc, *inline_path ? "ktrace_buf_write_compact" : "ktrace_reserve",
		KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(put_path, put_paths, put_path_desc);

static void tbuf_destroy(void *p)
{
	ktrace_buf_destroy(p);
}

static struct tbuf *tbuf_create(struct kunit *test, bool overwrite)
{
	struct tbuf *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, t);
	t->mem = kunit_kzalloc(test, SB_SIZE * NR_SUBBUFS, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t->mem);
	t->buf = ktrace_buf_create(t->mem, NULL, KTRACE_CHANNEL_MEDIUM, 3,
				   SB_SIZE, NR_SUBBUFS, overwrite);
	KUNIT_ASSERT_FALSE(test, IS_ERR(t->buf));
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, tbuf_destroy, t->buf), 0);
	t->clock = 1000;
	t->buf->clock_override = &t->clock;
	put_inline = test->param_value && *(const bool *)test->param_value;
	return t;
}

/* One compact event with payload p, the clock advanced by step first. */
static int put(struct tbuf *t, u32 p, u64 step)
{
	struct ktrace_ctx ctx;
	int ret;

	t->clock += step;
	preempt_disable();
	if (put_inline) {
		ret = ktrace_buf_write_compact(t->buf, p % (KTRACE_ID_COMPACT_MAX + 1), p);
	} else {
		ret = ktrace_reserve(t->buf, 8, &ctx);
		if (!ret) {
			ktrace_put_compact(ctx.data, p % (KTRACE_ID_COMPACT_MAX + 1),
					   ctx.clock, p);
			ktrace_commit(&ctx);
		}
	}
	preempt_enable();
	return ret;
}

static void flush(struct tbuf *t)
{
	preempt_disable();
	ktrace_buf_flush(t->buf);
	preempt_enable();
	ktrace_buf_sync(t->buf);
}

struct decoded {
	u64 seq;
	unsigned int nr;
	u32 payload[SB_SIZE / 8];
	u64 clock[SB_SIZE / 8];
};

/*
 * Decode a subbuffer on its own: a valid header, a timestamp record first,
 * then compact events only.
 */
static void decode_subbuf(struct kunit *test, struct tbuf *t,
			  const struct ktrace_subbuf_header *h, struct decoded *d)
{
	const void *p = h + 1;
	struct ktrace_record rec;
	size_t pos = 0;
	u64 clock = 0;
	int ret;

	KUNIT_ASSERT_EQ(test, h->magic, KTRACE_MAGIC);
	KUNIT_EXPECT_EQ(test, h->version, KTRACE_FORMAT_VERSION);
	KUNIT_EXPECT_EQ(test, h->channel, KTRACE_CHANNEL_MEDIUM);
	KUNIT_EXPECT_EQ(test, h->cpu, 3);
	KUNIT_EXPECT_EQ(test, h->flags, t->buf->overwrite ? KTRACE_SUBBUF_OVERWRITE : 0);
	KUNIT_ASSERT_LE(test, h->data_size, SB_SIZE - sizeof(*h));
	d->seq = h->seq;
	d->nr = 0;

	ret = ktrace_decode_record(p, h->data_size, &clock, &rec);
	KUNIT_ASSERT_EQ(test, ret, (int)sizeof(struct ktrace_timestamp));
	KUNIT_ASSERT_EQ(test, rec.id, KTRACE_ID_TIMESTAMP);
	pos = ret;
	while ((ret = ktrace_decode_record(p + pos, h->data_size - pos, &clock, &rec)) > 0) {
		pos += ret;
		if (rec.id == KTRACE_ID_TIMESTAMP)
			continue;
		KUNIT_ASSERT_LE(test, rec.id, KTRACE_ID_COMPACT_MAX);
		d->payload[d->nr] = rec.payload;
		d->clock[d->nr] = rec.clock;
		d->nr++;
	}
	KUNIT_EXPECT_EQ(test, ret, -ENODATA);
}

/* The subbuffer in a slot of the buffer's memory, read in place. */
static void decode_slot(struct kunit *test, struct tbuf *t, unsigned int slot,
			struct decoded *d)
{
	decode_subbuf(test, t, t->mem + slot * SB_SIZE, d);
}

/* The next subbuffer as a reader gets it: -ENODATA if none. */
static int read_next(struct kunit *test, struct tbuf *t, struct decoded *d)
{
	u8 *copy = kunit_kmalloc(test, SB_SIZE, GFP_KERNEL);
	int len;

	KUNIT_ASSERT_NOT_NULL(test, copy);
	len = ktrace_buf_read(t->buf, copy, SB_SIZE);
	if (len > 0 && d) {
		KUNIT_EXPECT_EQ(test, len, sizeof(struct ktrace_subbuf_header) +
			       ((struct ktrace_subbuf_header *)copy)->data_size);
		decode_subbuf(test, t, (void *)copy, d);
	}
	kunit_kfree(test, copy);
	return len;
}

static void buffer_layout_test(struct kunit *test)
{
	struct tbuf *t = tbuf_create(test, false);
	struct ktrace_buf_stats st;
	struct decoded d;
	unsigned int i;

	for (i = 0; i < 10; i++)
		KUNIT_ASSERT_EQ(test, put(t, i, 3), 0);
	ktrace_buf_stats(t->buf, &st);
	KUNIT_EXPECT_EQ(test, st.subbufs, 0);	/* nothing complete yet */
	flush(t);
	ktrace_buf_stats(t->buf, &st);
	KUNIT_EXPECT_EQ(test, st.subbufs, 1);
	KUNIT_EXPECT_EQ(test, st.events, 10);
	KUNIT_EXPECT_EQ(test, st.timestamps, 1);
	KUNIT_EXPECT_EQ(test, st.bytes, 80);
	KUNIT_EXPECT_EQ(test, st.dropped, 0);

	decode_slot(test, t, 0, &d);
	KUNIT_EXPECT_EQ(test, d.seq, 0);
	KUNIT_ASSERT_EQ(test, d.nr, 10);
	for (i = 0; i < 10; i++) {
		KUNIT_EXPECT_EQ(test, d.payload[i], i);
		KUNIT_EXPECT_EQ(test, d.clock[i], 1003 + 3 * i);
	}
	/* Flushing an empty buffer changes nothing. */
	flush(t);
	ktrace_buf_stats(t->buf, &st);
	KUNIT_EXPECT_EQ(test, st.subbufs, 1);
}

/* The reader: consume every delivered subbuffer, checking its events. */
static void consume(struct kunit *test, struct tbuf *t, u64 *seq,
		    unsigned int *seen, const u64 *clocks)
{
	struct decoded d;
	unsigned int i;

	ktrace_buf_sync(t->buf);
	while (read_next(test, t, &d) > 0) {
		KUNIT_ASSERT_EQ(test, d.seq, (*seq)++);
		KUNIT_ASSERT_GT(test, d.nr, 0);
		for (i = 0; i < d.nr; i++, (*seen)++) {
			KUNIT_ASSERT_EQ(test, d.payload[i], *seen);
			KUNIT_ASSERT_EQ(test, d.clock[i], clocks[*seen]);
		}
	}
}

/*
 * Drop mode with a reader that keeps up: 1000 events over 40-odd
 * subbuffers, with clock steps that cross the 27-bit range; each subbuffer
 * decodes alone, in sequence, to exactly the events written.
 */
static void buffer_switch_test(struct kunit *test)
{
	struct tbuf *t = tbuf_create(test, false);
	struct ktrace_buf_stats st;
	u64 *clocks = kunit_kmalloc_array(test, 1000, sizeof(u64), GFP_KERNEL);
	unsigned int i, seen = 0;
	u64 seq = 0;

	KUNIT_ASSERT_NOT_NULL(test, clocks);
	for (i = 0; i < 1000; i++) {
		KUNIT_ASSERT_EQ(test, put(t, i, i % 97 ? 5 : 1ULL << KTRACE_CLOCK_BITS), 0);
		clocks[i] = t->clock;
		consume(test, t, &seq, &seen, clocks);
	}
	flush(t);
	consume(test, t, &seq, &seen, clocks);
	KUNIT_EXPECT_EQ(test, seen, 1000);
	ktrace_buf_stats(t->buf, &st);
	KUNIT_EXPECT_EQ(test, st.events, 1000);
	KUNIT_EXPECT_EQ(test, st.dropped, 0);
	KUNIT_EXPECT_EQ(test, st.subbufs, seq);
	/* One per subbuffer, and one per step of 2^27 inside a subbuffer. */
	KUNIT_EXPECT_GT(test, st.timestamps, st.subbufs + 5);
}

/*
 * A writer interrupted between its reservation and its commit, at the end
 * of a subbuffer: the nested writer switches to the next subbuffer, but
 * the first stays undelivered until the interrupted writer commits.
 */
static void buffer_nesting_test(struct kunit *test)
{
	struct tbuf *t = tbuf_create(test, false);
	struct ktrace_ctx outer;
	struct decoded d;
	unsigned int i;

	for (i = 0; i < PER_SUBBUF - 1; i++)
		KUNIT_ASSERT_EQ(test, put(t, i, 1), 0);

	t->clock += 1;
	preempt_disable();
	KUNIT_ASSERT_EQ(test, ktrace_reserve(t->buf, 8, &outer), 0);
	preempt_enable();
	/* Interrupted here: the nested writer starts subbuffer 1. */
	KUNIT_ASSERT_EQ(test, put(t, 1000, 1), 0);
	ktrace_buf_sync(t->buf);
	KUNIT_EXPECT_EQ(test, t->buf->delivered, 0);

	ktrace_put_compact(outer.data, 7, outer.clock, 999);
	preempt_disable();
	ktrace_commit(&outer);
	preempt_enable();
	ktrace_buf_sync(t->buf);
	KUNIT_EXPECT_EQ(test, t->buf->delivered, 1);

	decode_slot(test, t, 0, &d);
	KUNIT_ASSERT_EQ(test, d.nr, PER_SUBBUF);
	KUNIT_EXPECT_EQ(test, d.payload[PER_SUBBUF - 1], 999);
	KUNIT_EXPECT_EQ(test, d.clock[PER_SUBBUF - 1], outer.clock);
	flush(t);
	decode_slot(test, t, 1, &d);
	KUNIT_EXPECT_EQ(test, d.seq, 1);
	KUNIT_ASSERT_EQ(test, d.nr, 1);
	KUNIT_EXPECT_EQ(test, d.payload[0], 1000);
	KUNIT_EXPECT_GT(test, d.clock[0], outer.clock);
}

/*
 * Drop mode, no reader: exactly the buffer's capacity is kept, nr - 1
 * subbuffers, the most relay's reader can show.
 */
static void buffer_drop_test(struct kunit *test)
{
	struct tbuf *t = tbuf_create(test, false);
	unsigned int i, accepted = 0, kept = 0;
	struct ktrace_buf_stats st;
	struct decoded d;

	for (i = 0; i < 150; i++)
		accepted += !put(t, i, 2);
	flush(t);
	ktrace_buf_stats(t->buf, &st);
	KUNIT_EXPECT_EQ(test, accepted, (NR_SUBBUFS - 1) * PER_SUBBUF);
	KUNIT_EXPECT_EQ(test, st.events, 150);
	KUNIT_EXPECT_EQ(test, st.dropped, 150 - accepted);
	KUNIT_EXPECT_EQ(test, st.overwritten, 0);
	KUNIT_EXPECT_EQ(test, st.torn_reads, 0);
	KUNIT_EXPECT_EQ(test, st.subbufs, NR_SUBBUFS - 1);
	for (i = 0; i < NR_SUBBUFS - 1; i++) {
		decode_slot(test, t, i, &d);
		KUNIT_EXPECT_EQ(test, d.seq, i);
		kept += d.nr;
	}
	/* written = read + dropped */
	KUNIT_EXPECT_EQ(test, kept + st.dropped, 150);

	/* The reader frees a subbuffer: writing resumes. */
	KUNIT_EXPECT_EQ(test, put(t, 150, 2), -ENOBUFS);
	KUNIT_EXPECT_GT(test, read_next(test, t, &d), 0);
	KUNIT_EXPECT_EQ(test, d.seq, 0);
	KUNIT_EXPECT_EQ(test, put(t, 151, 2), 0);
}

/*
 * Read every subbuffer a reader gets now and check that, in sequence order,
 * they hold exactly the newest events written, with their exact clocks, and
 * that everything else was counted as overwritten.  Returns the subbuffers
 * read.
 */
static unsigned int read_newest(struct kunit *test, struct tbuf *t,
				const u64 *clocks, unsigned int written)
{
	struct decoded *d = kunit_kmalloc_array(test, NR_SUBBUFS + 1, sizeof(*d), GFP_KERNEL);
	struct ktrace_buf_stats st;
	unsigned int i, s, n = 0, kept = 0, first;

	KUNIT_ASSERT_NOT_NULL(test, d);
	while (n <= NR_SUBBUFS && read_next(test, t, &d[n]) > 0)
		n++;
	KUNIT_ASSERT_LE(test, n, NR_SUBBUFS);
	for (s = 0; s < n; s++)
		kept += d[s].nr;
	ktrace_buf_stats(t->buf, &st);
	/* written = read + overwritten */
	KUNIT_EXPECT_EQ(test, kept + st.overwritten + st.dropped, written);
	first = written - kept;
	for (s = 0; s < n; s++) {
		if (s)
			KUNIT_ASSERT_EQ(test, d[s].seq, d[s - 1].seq + 1);
		for (i = 0; i < d[s].nr; i++, first++) {
			KUNIT_ASSERT_EQ(test, d[s].payload[i], first);
			KUNIT_ASSERT_EQ(test, d[s].clock[i], clocks[first]);
		}
	}
	KUNIT_EXPECT_EQ(test, first, written);
	kunit_kfree(test, d);
	return n;
}

/*
 * Overwrite mode, no reader: once stopped, a reader gets every subbuffer
 * the buffer holds, nr of them, the newest events, in order, with their
 * exact clocks; everything else is counted as overwritten, exactly.
 */
static void buffer_overwrite_test(struct kunit *test)
{
	struct tbuf *t = tbuf_create(test, true);
	u64 *clocks = kunit_kmalloc_array(test, 1000, sizeof(u64), GFP_KERNEL);
	struct ktrace_buf_stats st;
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, clocks);
	for (i = 0; i < 1000; i++) {
		KUNIT_ASSERT_EQ(test, put(t, i, i % 13 ? 9 : 3ULL << 25), 0);
		clocks[i] = t->clock;
	}
	flush(t);
	ktrace_buf_stats(t->buf, &st);
	KUNIT_EXPECT_EQ(test, st.dropped, 0);
	KUNIT_EXPECT_EQ(test, read_newest(test, t, clocks, 1000), NR_SUBBUFS);
	KUNIT_EXPECT_EQ(test, read_next(test, t, NULL), -ENODATA);
}

/*
 * Deliveries late (interrupts off while the writer laps the buffer twice,
 * as behind a long IRQs-off section or a threaded irq_work on PREEMPT_RT):
 * the slots reused since are never handed over as the subbuffers they
 * were, and what the reader gets is exactly the newest events, with every
 * other event counted as overwritten.
 */
static void buffer_late_delivery_test(struct kunit *test)
{
	struct tbuf *t = tbuf_create(test, true);
	u64 *clocks = kunit_kmalloc_array(test, 10 * PER_SUBBUF + 3, sizeof(u64), GFP_KERNEL);
	struct decoded *d = kunit_kzalloc(test, sizeof(*d), GFP_KERNEL);
	struct ktrace_buf_stats st;
	unsigned long flags;
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, clocks);
	KUNIT_ASSERT_NOT_NULL(test, d);
	/* Ten subbuffers' worth, then part of one: no delivery meanwhile. */
	local_irq_save(flags);
	for (i = 0; i < 10 * PER_SUBBUF + 3; i++) {
		KUNIT_ASSERT_EQ(test, put(t, i, 7), 0);
		clocks[i] = t->clock;
	}
	KUNIT_EXPECT_EQ(test, t->buf->delivered, 0);
	local_irq_restore(flags);
	/* The delivery runs now, with the writer three uses further on. */
	ktrace_buf_sync(t->buf);
	KUNIT_EXPECT_EQ(test, t->buf->delivered, 10);
	/* The open subbuffer is not complete: the last 3 events are not read. */
	KUNIT_EXPECT_EQ(test, read_newest(test, t, clocks, 10 * PER_SUBBUF), NR_SUBBUFS - 1);
	flush(t);
	KUNIT_ASSERT_GT(test, read_next(test, t, d), 0);
	KUNIT_EXPECT_EQ(test, d->seq, 10);
	KUNIT_ASSERT_EQ(test, d->nr, 3);
	KUNIT_EXPECT_EQ(test, d->payload[0], 10 * PER_SUBBUF);
	ktrace_buf_stats(t->buf, &st);
	KUNIT_EXPECT_EQ(test, st.events, 10 * PER_SUBBUF + 3);
	KUNIT_EXPECT_EQ(test, st.overwritten, 7 * PER_SUBBUF);
}

/*
 * A reader lapped by the writer gets the oldest subbuffer still whole,
 * never the slot of one overwritten: here the writer has just started
 * reusing slot 0, so subbuffer 0 is gone (counted) and 1 comes next.
 */
static void buffer_lapped_read_test(struct kunit *test)
{
	struct tbuf *t = tbuf_create(test, true);
	struct ktrace_buf_stats st;
	struct decoded d;
	unsigned int i;

	for (i = 0; i < PER_SUBBUF + 1; i++)
		KUNIT_ASSERT_EQ(test, put(t, i, 1), 0);
	ktrace_buf_sync(t->buf);
	KUNIT_ASSERT_EQ(test, t->buf->delivered, 1);
	/* The rest of 1, all of 2 and 3, and the first event of 4 (slot 0). */
	for (i = 0; i < 3 * PER_SUBBUF; i++)
		KUNIT_ASSERT_EQ(test, put(t, PER_SUBBUF + 1 + i, 1), 0);
	ktrace_buf_sync(t->buf);
	KUNIT_ASSERT_GT(test, read_next(test, t, &d), 0);
	KUNIT_EXPECT_EQ(test, d.seq, 1);
	KUNIT_ASSERT_EQ(test, d.nr, PER_SUBBUF);
	KUNIT_EXPECT_EQ(test, d.payload[0], PER_SUBBUF);
	ktrace_buf_stats(t->buf, &st);
	KUNIT_EXPECT_EQ(test, st.overwritten, PER_SUBBUF);
}

/* The buffer of the nested-writer tests, and what their hook writes. */
static struct tbuf *nested_t;
static unsigned int nested_count;
static u64 nested_clock;

static void nested_writer(struct ktrace_buf *buf)
{
	unsigned int i;

	nested_t->clock = nested_clock;
	for (i = 0; i < nested_count; i++)
		put(nested_t, 5000 + i, 1);
}

/*
 * A writer interrupted right after its cmpxchg into a new subbuffer, the
 * slot's previous use not collected yet, by a nested writer that fills it
 * and starts the next (an interrupt storm): the nested writer collects the
 * next slot's previous use, and must take the older one as well.  Every
 * event is still read or counted, once.
 */
static void buffer_nested_collect_test(struct kunit *test)
{
	struct tbuf *t = tbuf_create(test, true);
	struct ktrace_buf_stats st;
	struct decoded d;
	unsigned int i, written = 0, kept = 0;

	/* Exactly nr full subbuffers: the next event reuses slot 0. */
	for (i = 0; i < NR_SUBBUFS * PER_SUBBUF; i++, written++)
		KUNIT_ASSERT_EQ(test, put(t, i, 1), 0);
	nested_t = t;
	nested_count = PER_SUBBUF;
	nested_clock = t->clock + 100;
	t->buf->nested_hook = nested_writer;
	KUNIT_ASSERT_EQ(test, put(t, 9999, 1), 0);
	written += 1 + PER_SUBBUF;
	KUNIT_EXPECT_NULL(test, t->buf->nested_hook);
	flush(t);
	while (read_next(test, t, &d) > 0)
		kept += d.nr;
	ktrace_buf_stats(t->buf, &st);
	KUNIT_EXPECT_EQ(test, st.events, written);
	KUNIT_EXPECT_EQ(test, st.overwritten, 2 * PER_SUBBUF);
	KUNIT_EXPECT_EQ(test, kept + st.overwritten + st.dropped, written);
}

/*
 * A writer interrupted between its cmpxchg and its bookkeeping by a
 * nested writer whose clock is in the next 2^27 range: the nested writer
 * does not know the clock of the record before its own, so it writes a
 * timestamp record, and so does the next writer after them: every record
 * decodes to exactly the clock written.
 */
static void buffer_nested_clock_test(struct kunit *test)
{
	struct tbuf *t = tbuf_create(test, false);
	struct decoded *d = kunit_kzalloc(test, sizeof(*d), GFP_KERNEL);
	u64 base = 5ULL << KTRACE_CLOCK_BITS;

	KUNIT_ASSERT_NOT_NULL(test, d);
	t->clock = base - 50;
	KUNIT_ASSERT_EQ(test, put(t, 1, 0), 0);
	nested_t = t;
	nested_count = 1;
	nested_clock = base + 199;		/* put() adds 1 */
	t->buf->nested_hook = nested_writer;
	t->clock = base + 100;
	KUNIT_ASSERT_EQ(test, put(t, 2, 0), 0);
	t->clock = base + 300;
	KUNIT_ASSERT_EQ(test, put(t, 3, 0), 0);
	flush(t);
	decode_slot(test, t, 0, d);
	KUNIT_ASSERT_EQ(test, d->nr, 4);
	KUNIT_EXPECT_EQ(test, d->payload[1], 2);
	KUNIT_EXPECT_EQ(test, d->clock[1], base + 100);
	KUNIT_EXPECT_EQ(test, d->payload[2], 5000);
	KUNIT_EXPECT_EQ(test, d->clock[2], base + 200);
	KUNIT_EXPECT_EQ(test, d->payload[3], 3);
	KUNIT_EXPECT_EQ(test, d->clock[3], base + 300);
}

/* The second nested writer of buffer_nested_stores_test(). */
static void nested_between_stores(struct ktrace_buf *buf)
{
	nested_t->clock = nested_clock - 50;
	put(nested_t, 6000, 1);
	put(nested_t, 6001, 1);
}

/* Nest a writer after the cmpxchg, then arm the hook for the stores. */
static void nested_then_between_stores(struct ktrace_buf *buf)
{
	nested_writer(buf);
	buf->nested_hook = nested_between_stores;
}

/*
 * A writer interrupted after its cmpxchg by a nested writer that completes
 * (and leaves its clock and end in the buffer's bookkeeping), then again
 * between its own stores of the clock and of the end by a second nested
 * writer, whose clock stepped back below the first nested writer's (the
 * fast CLOCK_MONOTONIC accessor across an update).  The second nested
 * writer must not take the interrupted writer's older clock for that of
 * the record before its own: it writes a timestamp record, and every
 * record decodes to exactly the clock written, none 2^27 units late.
 */
static void buffer_nested_stores_test(struct kunit *test)
{
	struct tbuf *t = tbuf_create(test, false);
	struct decoded *d = kunit_kzalloc(test, sizeof(*d), GFP_KERNEL);
	u64 base = 5ULL << KTRACE_CLOCK_BITS;

	KUNIT_ASSERT_NOT_NULL(test, d);
	t->clock = base + 100;
	KUNIT_ASSERT_EQ(test, put(t, 1, 0), 0);
	nested_t = t;
	nested_count = 1;
	nested_clock = base + 299;		/* put() adds 1 */
	t->buf->nested_hook = nested_then_between_stores;
	t->clock = base + 120;
	KUNIT_ASSERT_EQ(test, put(t, 2, 0), 0);
	KUNIT_EXPECT_NULL(test, t->buf->nested_hook);
	t->clock = base + 400;
	KUNIT_ASSERT_EQ(test, put(t, 3, 0), 0);
	flush(t);
	decode_slot(test, t, 0, d);
	KUNIT_ASSERT_EQ(test, d->nr, 6);
	KUNIT_EXPECT_EQ(test, d->payload[1], 2);
	KUNIT_EXPECT_EQ(test, d->clock[1], base + 120);
	KUNIT_EXPECT_EQ(test, d->payload[2], 5000);
	KUNIT_EXPECT_EQ(test, d->clock[2], base + 300);
	KUNIT_EXPECT_EQ(test, d->payload[3], 6000);
	KUNIT_EXPECT_EQ(test, d->clock[3], base + 250);
	KUNIT_EXPECT_EQ(test, d->payload[4], 6001);
	KUNIT_EXPECT_EQ(test, d->clock[4], base + 251);
	KUNIT_EXPECT_EQ(test, d->payload[5], 3);
	KUNIT_EXPECT_EQ(test, d->clock[5], base + 400);
}

/*
 * The clock steps back (ktime_get_mono_fast_ns() across an update, a
 * nested writer's earlier read): the record keeps the previous record's
 * clock, and decodes to it, not to a rollover 2^27 units later.
 */
static void buffer_clock_back_test(struct kunit *test)
{
	struct tbuf *t = tbuf_create(test, false);
	struct decoded *d = kunit_kzalloc(test, sizeof(*d), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, d);
	t->clock = (5ULL << KTRACE_CLOCK_BITS) + 100;
	KUNIT_ASSERT_EQ(test, put(t, 1, 0), 0);
	KUNIT_ASSERT_EQ(test, put(t, 2, 20), 0);
	t->clock -= 15;				/* back by 15 */
	KUNIT_ASSERT_EQ(test, put(t, 3, 0), 0);
	t->clock -= 200;			/* back across a 2^27 boundary */
	KUNIT_ASSERT_EQ(test, put(t, 4, 0), 0);
	KUNIT_ASSERT_EQ(test, put(t, 5, 300), 0);
	flush(t);
	decode_slot(test, t, 0, d);
	KUNIT_ASSERT_EQ(test, d->nr, 5);
	KUNIT_EXPECT_EQ(test, d->clock[0], (5ULL << KTRACE_CLOCK_BITS) + 100);
	KUNIT_EXPECT_EQ(test, d->clock[1], (5ULL << KTRACE_CLOCK_BITS) + 120);
	KUNIT_EXPECT_EQ(test, d->clock[2], (5ULL << KTRACE_CLOCK_BITS) + 120);
	KUNIT_EXPECT_EQ(test, d->clock[3], (5ULL << KTRACE_CLOCK_BITS) + 120);
	KUNIT_EXPECT_EQ(test, d->clock[4], (5ULL << KTRACE_CLOCK_BITS) + 205);
}

/* Overwrite mode never reuses a subbuffer a writer is still filling. */
static void buffer_overwrite_pending_test(struct kunit *test)
{
	struct tbuf *t = tbuf_create(test, true);
	struct ktrace_buf_stats st;
	struct ktrace_ctx pending;
	unsigned int i, accepted = 0;

	preempt_disable();
	KUNIT_ASSERT_EQ(test, ktrace_reserve(t->buf, 8, &pending), 0);
	preempt_enable();
	for (i = 0; i < 200; i++)
		accepted += !put(t, i, 1);
	/* Slot 0 cannot be reused: the other three and what slot 0 held. */
	KUNIT_EXPECT_EQ(test, accepted, NR_SUBBUFS * PER_SUBBUF - 1);
	ktrace_buf_stats(t->buf, &st);
	KUNIT_EXPECT_EQ(test, st.dropped, 200 - accepted);

	ktrace_put_compact(pending.data, 1, pending.clock, 12345);
	preempt_disable();
	ktrace_commit(&pending);
	preempt_enable();
	KUNIT_EXPECT_EQ(test, put(t, 200, 1), 0);
}

static void buffer_too_big_test(struct kunit *test)
{
	struct tbuf *t = tbuf_create(test, false);
	struct ktrace_buf_stats st;
	struct ktrace_ctx ctx;

	preempt_disable();
	KUNIT_EXPECT_EQ(test, ktrace_reserve(t->buf, SB_SIZE - KTRACE_SUBBUF_START, &ctx),
			-E2BIG);
	KUNIT_EXPECT_EQ(test, ktrace_reserve(t->buf, SB_SIZE - KTRACE_SUBBUF_START - 4, &ctx),
			0);
	ktrace_commit(&ctx);
	preempt_enable();
	ktrace_buf_stats(t->buf, &st);
	KUNIT_EXPECT_EQ(test, st.dropped, 1);
	KUNIT_EXPECT_EQ(test, st.events, 2);
}

/*
 * After ktrace_buf_clock_changed() the next record comes with a timestamp
 * record, so that it decodes on its own whatever the clock did meanwhile
 * (a new start, the switch from the TSC to tsc-mono); the records after it
 * need none.  And the recorded clock still never goes back: a clock that
 * steps back behind the last record after the change is recorded as that
 * last value until it catches up (one behind it at the change goes on
 * from it: buffer_clock_jump_test()).
 */
static void buffer_clock_change_test(struct kunit *test)
{
	struct tbuf *t = tbuf_create(test, false);
	struct ktrace_buf_stats st;
	struct decoded *d = kunit_kzalloc(test, sizeof(*d), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, d);
	KUNIT_ASSERT_EQ(test, put(t, 1, 5), 0);
	KUNIT_ASSERT_EQ(test, put(t, 2, 5), 0);
	ktrace_buf_stats(t->buf, &st);
	KUNIT_EXPECT_EQ(test, st.timestamps, 1);

	ktrace_buf_clock_changed(t->buf);
	t->clock = 400;
	KUNIT_ASSERT_EQ(test, put(t, 3, 0), 0);
	KUNIT_ASSERT_EQ(test, put(t, 4, 7), 0);
	t->clock = 1 << KTRACE_CLOCK_BITS;
	KUNIT_ASSERT_EQ(test, put(t, 5, 0), 0);
	ktrace_buf_stats(t->buf, &st);
	KUNIT_EXPECT_EQ(test, st.timestamps, 3);
	KUNIT_EXPECT_EQ(test, st.bytes, 5 * 8 + 2 * sizeof(struct ktrace_timestamp));

	ktrace_buf_clock_changed(t->buf);
	t->clock += 3;
	KUNIT_ASSERT_EQ(test, put(t, 6, 0), 0);
	ktrace_buf_stats(t->buf, &st);
	KUNIT_EXPECT_EQ(test, st.timestamps, 4);

	flush(t);
	decode_slot(test, t, 0, d);
	KUNIT_ASSERT_EQ(test, d->nr, 6);
	KUNIT_EXPECT_EQ(test, d->clock[0], 1005);
	KUNIT_EXPECT_EQ(test, d->clock[1], 1010);
	KUNIT_EXPECT_EQ(test, d->clock[2], 1010);
	KUNIT_EXPECT_EQ(test, d->clock[3], 1010);
	KUNIT_EXPECT_EQ(test, d->clock[4], 1 << KTRACE_CLOCK_BITS);
	KUNIT_EXPECT_EQ(test, d->clock[5], (1 << KTRACE_CLOCK_BITS) + 3);
	KUNIT_EXPECT_EQ(test, d->payload[2], 3);
}

/*
 * A buffer's clock that jumped far ahead (a TSC that did, before it was
 * found unstable), then a change to a clock behind it (tsc-mono): the
 * records after the change never go back, and advance as the new clock
 * does, rather than stay at the last value until the new clock catches
 * up (hours, for a jump of hours).
 */
static void buffer_clock_jump_test(struct kunit *test)
{
	struct tbuf *t = tbuf_create(test, false);
	struct decoded *d = kunit_kzalloc(test, sizeof(*d), GFP_KERNEL);
	u64 jumped = 1000000000000ULL;
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, d);
	KUNIT_ASSERT_EQ(test, put(t, 1, 5), 0);
	t->clock = jumped;
	KUNIT_ASSERT_EQ(test, put(t, 2, 0), 0);
	t->clock = 2000;
	ktrace_buf_clock_changed(t->buf);
	for (i = 3; i <= 6; i++)
		KUNIT_ASSERT_EQ(test, put(t, i, 10), 0);
	/* A later change (a start) keeps the clock going as it went. */
	ktrace_buf_clock_changed(t->buf);
	KUNIT_ASSERT_EQ(test, put(t, 7, 10), 0);

	flush(t);
	decode_slot(test, t, 0, d);
	KUNIT_ASSERT_EQ(test, d->nr, 7);
	KUNIT_EXPECT_EQ(test, d->clock[1], jumped);
	for (i = 2; i < d->nr; i++) {
		KUNIT_EXPECT_GE(test, d->clock[i], jumped);
		KUNIT_EXPECT_EQ_MSG(test, d->clock[i] - d->clock[i - 1], 10,
				    "record %u: %llu after %llu", i, d->clock[i], d->clock[i - 1]);
	}
}

/*
 * A subbuffer whose header a writer into relay's mapping corrupted: the
 * reader consumes it with -EBADMSG, and its events are lost unread, so
 * they count with the overwritten ones: events = read + dropped +
 * overwritten still holds.
 */
static void buffer_corrupt_header_test(struct kunit *test)
{
	struct tbuf *t = tbuf_create(test, false);
	struct ktrace_subbuf_header *h = t->mem;
	struct ktrace_buf_stats st;
	unsigned int i, read = 0;
	struct decoded d;
	int len;

	for (i = 0; i < 2 * PER_SUBBUF; i++)
		KUNIT_ASSERT_EQ(test, put(t, i, 2), 0);
	flush(t);
	h->magic ^= 1;
	KUNIT_EXPECT_EQ(test, read_next(test, t, &d), -EBADMSG);
	while ((len = read_next(test, t, &d)) > 0)
		read += d.nr;
	KUNIT_EXPECT_EQ(test, len, -ENODATA);
	KUNIT_EXPECT_EQ(test, read, PER_SUBBUF);
	ktrace_buf_stats(t->buf, &st);
	KUNIT_EXPECT_EQ(test, st.events, 2 * PER_SUBBUF);
	KUNIT_EXPECT_EQ(test, st.dropped, 0);
	KUNIT_EXPECT_EQ(test, st.overwritten, PER_SUBBUF);
	KUNIT_EXPECT_EQ(test, read + st.dropped + st.overwritten, st.events);
}

/*
 * While its CPU is going offline, a buffer queues no delivery (it would
 * be stranded there): a completed subbuffer waits for ktrace_buf_sync(),
 * which delivers it and returns; once online again, deliveries queue.
 */
static void buffer_cpu_dying_test(struct kunit *test)
{
	struct tbuf *t = tbuf_create(test, false);
	unsigned int i;

	ktrace_buf_set_cpu_dying(t->buf, true);
	for (i = 0; i < PER_SUBBUF + 1; i++)
		KUNIT_ASSERT_EQ(test, put(t, i, 2), 0);
	KUNIT_EXPECT_FALSE(test, irq_work_is_pending(&t->buf->deliver_work));
	KUNIT_EXPECT_EQ(test, t->buf->delivered, 0);
	ktrace_buf_sync(t->buf);
	KUNIT_EXPECT_EQ(test, t->buf->delivered, 1);

	ktrace_buf_set_cpu_dying(t->buf, false);
	for (i = 0; i < PER_SUBBUF; i++)
		KUNIT_ASSERT_EQ(test, put(t, i, 2), 0);
	/* The subbuffer completed: its delivery queued, or already ran. */
	KUNIT_EXPECT_TRUE(test, irq_work_is_busy(&t->buf->deliver_work) ||
			  READ_ONCE(t->buf->delivered) == 2);
	ktrace_buf_sync(t->buf);
	KUNIT_EXPECT_EQ(test, t->buf->delivered, 2);
}

static void buffer_create_test(struct kunit *test)
{
	static const size_t bad[][2] = {
		{ 255, 4 }, { 256, 3 }, { 256, 1 }, { 64, 4 }, { 0, 4 },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++)
		KUNIT_EXPECT_EQ(test, PTR_ERR(ktrace_buf_create(NULL, NULL, 0, 0, bad[i][0],
								bad[i][1], false)),
				-EINVAL);
}

static struct kunit_case ktrace_buffer_cases[] = {
	KUNIT_CASE(buffer_create_test),
	KUNIT_CASE(buffer_layout_test),
	KUNIT_CASE(buffer_switch_test),
	KUNIT_CASE(buffer_nesting_test),
	KUNIT_CASE_PARAM(buffer_drop_test, put_path_gen_params),
	KUNIT_CASE_PARAM(buffer_overwrite_test, put_path_gen_params),
	KUNIT_CASE(buffer_late_delivery_test),
	KUNIT_CASE(buffer_lapped_read_test),
	KUNIT_CASE_PARAM(buffer_clock_back_test, put_path_gen_params),
	KUNIT_CASE_PARAM(buffer_nested_collect_test, put_path_gen_params),
	KUNIT_CASE_PARAM(buffer_nested_clock_test, put_path_gen_params),
	KUNIT_CASE_PARAM(buffer_nested_stores_test, put_path_gen_params),
	KUNIT_CASE_PARAM(buffer_overwrite_pending_test, put_path_gen_params),
	KUNIT_CASE(buffer_too_big_test),
	KUNIT_CASE(buffer_clock_change_test),
	KUNIT_CASE_PARAM(buffer_clock_jump_test, put_path_gen_params),
	KUNIT_CASE(buffer_corrupt_header_test),
	KUNIT_CASE(buffer_cpu_dying_test),
	{}
};

static struct kunit_suite ktrace_buffer_suite = {
	.name = "ktrace_buffer",
	.test_cases = ktrace_buffer_cases,
};

kunit_test_suite(ktrace_buffer_suite);

MODULE_DESCRIPTION("KUnit tests for the ktrace per-CPU buffers");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
