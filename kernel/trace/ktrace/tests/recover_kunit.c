// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the checks of a crashed kernel's buffers (recover.c):
 * a region laid out as the persistent recorder lays it out, written by
 * the real writer, frozen as the crash path freezes it; then what the
 * checks keep, against what was written, exactly: after an overwriting
 * wrap, with a writer stopped between its reservation and its commit, and
 * under thousands of random corruptions, after which every subbuffer kept
 * must be byte for byte one that was written.
 */
#include <kunit/test.h>
#include <linux/prandom.h>
#include <linux/preempt.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/vmalloc.h>

#include "buffer.h"
#include "recover.h"

#define SB_SHIFT	9
#define SB_SIZE		BIT(SB_SHIFT)
#define NR_SHIFT	2
#define NR		BIT(NR_SHIFT)
#define TABLE		4096
#define COUNTS		(TABLE + SB_SIZE * NR)
#define REGION		(COUNTS + 4 * NR * sizeof(u64))
#define CPUS		1
/* Events a buffer holds at most. */
#define PMAX		(NR * SB_SIZE / 8)

/* The kept subbuffers, concatenated. */
struct out {
	const void *data;
	u8 kept[SB_SIZE * NR];
	size_t len;
	u32 p[PMAX];		/* their payloads, see payloads() */
};

/* A region with one buffer (high channel, CPU 0) of NR subbuffers. */
struct region {
	void *mem;
	struct ktrace_crash_header *h;
	struct ktrace_crash_buf *d;
	struct ktrace_buf *buf;
	u64 clock;
	struct out *o;
};

static void region_destroy(void *p)
{
	ktrace_buf_destroy(p);
}

static struct region *region_create(struct kunit *test, bool overwrite)
{
	struct region *r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);
	struct ktrace_crash_header *h;
	struct ktrace_crash_buf *d;

	KUNIT_ASSERT_NOT_NULL(test, r);
	r->mem = kunit_kzalloc(test, REGION, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, r->mem);
	r->o = kunit_kzalloc(test, sizeof(*r->o), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, r->o);
	r->h = r->mem;
	h = r->h;
	h->magic = KTRACE_CRASH_MAGIC;
	h->version = KTRACE_CRASH_VERSION;
	h->header_size = sizeof(*h);
	h->buf_size = sizeof(*d);
	h->byte_order = IS_ENABLED(CONFIG_CPU_BIG_ENDIAN) ? KTRACE_BIG_ENDIAN :
			KTRACE_LITTLE_ENDIAN;
	h->word_size = 8;
	h->flags = KTRACE_CRASH_REGION;
	h->nr_channels = KTRACE_NR_CHANNELS;
	h->nr_cpus = CPUS;
	h->nr_bufs = KTRACE_NR_CHANNELS * CPUS;
	h->page_size = 4096;
	h->size = REGION;
	d = (void *)(h + 1);	/* index 0: high, CPU 0 */
	r->d = d;
	d->channel = KTRACE_CHANNEL_HIGH;
	d->flags = overwrite ? KTRACE_SUBBUF_OVERWRITE : 0;
	d->sb_shift = SB_SHIFT;
	d->nr_shift = NR_SHIFT;
	d->data = TABLE;
	d->commit = COUNTS;
	d->sb_events = COUNTS + NR * sizeof(u64);
	d->sums = COUNTS + 3 * NR * sizeof(u64);
	r->buf = ktrace_buf_create_at(r->mem + TABLE, NULL, KTRACE_CHANNEL_HIGH, 0,
				      SB_SIZE, NR, overwrite, r->mem + d->commit,
				      r->mem + d->sb_events);
	KUNIT_ASSERT_FALSE(test, IS_ERR(r->buf));
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, region_destroy, r->buf), 0);
	r->clock = 1000;
	r->buf->clock_override = &r->clock;
	return r;
}

/*
 * One compact event; unless @commit, a writer stopped by the crash right
 * after its reservation: nothing written, nothing committed.
 */
static void put(struct region *r, u32 p, bool commit)
{
	struct ktrace_ctx ctx;

	r->clock += 3;
	preempt_disable();
	if (!ktrace_reserve(r->buf, 8, &ctx) && commit) {
		ktrace_put_compact(ctx.data, p % 8, ctx.clock, p);
		ktrace_commit(&ctx);
	}
	preempt_enable();
}

/* What ktrace_crash_freeze() saves, then the table's checksum. */
static void freeze(struct region *r)
{
	struct ktrace_crash_buf *d = r->d;

	d->offset = local_read(&r->buf->offset);
	d->rpos = atomic_long_read(&r->buf->rpos);
	d->events = local_read(&r->buf->events);
	d->dropped = local_read(&r->buf->dropped);
	d->overwritten = local_read(&r->buf->overwritten);
	r->h->flags |= KTRACE_CRASH_FROZEN;
	ktrace_recover_sums(d, r->mem + d->data, r->mem + d->commit, r->mem + d->sums);
	r->h->csum = ktrace_crash_csum(r->h, d);
}

static int read_slot(void *ctx, unsigned long slot, void *dst)
{
	struct out *o = ctx;

	memcpy(dst, o->data + slot * SB_SIZE, SB_SIZE);
	return 0;
}

static int emit(void *ctx, const void *sb, size_t len)
{
	struct out *o = ctx;

	if (len > sizeof(o->kept) - o->len)
		return -ENOSPC;
	memcpy(o->kept + o->len, sb, len);
	o->len += len;
	return 0;
}

/* Run the checks over @mem (a region, maybe corrupted) into @o. */
static int recover(struct region *r, void *mem, struct out *o,
		   struct ktrace_recover_stats *st)
{
	const struct ktrace_crash_header *h = mem;
	const struct ktrace_crash_buf *d = mem + sizeof(*h);
	void *scratch = kmalloc(SB_SIZE, GFP_KERNEL);
	int ret;

	memset(o, 0, sizeof(*o));
	memset(st, 0, sizeof(*st));
	if (!scratch)
		return -ENOMEM;
	ret = ktrace_crash_check_header(h);
	/* As persist.c: the table is the region's, and in it. */
	if (!ret && h->size != REGION)
		ret = -EBADMSG;
	if (!ret && ktrace_crash_csum(h, d) != h->csum)
		ret = -EBADMSG;
	if (!ret)
		ret = ktrace_crash_check_buf(h, d, 0);
	/* Where the descriptor says, as persist.c reads the region. */
	if (!ret) {
		o->data = mem + d->data;
		ret = ktrace_recover_buf(h, d, mem + d->commit, mem + d->sb_events,
					 d->sums ? mem + d->sums : NULL, NULL,
					 read_slot, emit, o, scratch, st);
	}
	kfree(scratch);
	return ret;
}

/* The payloads of the kept subbuffers, in order; -1 on a decoding error. */
static int payloads(const struct out *o, u32 *p, unsigned int max)
{
	size_t pos = 0;
	unsigned int n = 0;

	while (pos < o->len) {
		struct ktrace_subbuf_header hdr;
		size_t at, end;
		u64 clock = 0;

		memcpy(&hdr, o->kept + pos, sizeof(hdr));
		end = pos + sizeof(hdr) + hdr.data_size;
		for (at = pos + sizeof(hdr); at < end;) {
			struct ktrace_record rec;
			int len = ktrace_decode_record(o->kept + at, end - at, &clock, &rec);

			if (len <= 0)
				return -1;
			if (rec.id != KTRACE_ID_TIMESTAMP && n < max)
				p[n++] = rec.payload;
			at += len;
		}
		pos = end;
	}
	return n;
}

/* Written = kept + overwritten, the newest events kept, in order. */
static void recover_wrap_test(struct kunit *test)
{
	struct region *r = region_create(test, true);
	struct ktrace_recover_stats st;
	struct out *o = r->o;
	u32 *p = o->p;
	unsigned int i;
	int n;

	for (i = 0; i < 500; i++)
		put(r, i, true);
	freeze(r);
	KUNIT_ASSERT_EQ(test, recover(r, r->mem, o, &st), 0);
	KUNIT_EXPECT_EQ(test, st.events + r->d->overwritten, 500ULL);
	KUNIT_EXPECT_EQ(test, st.lost, 0ULL);
	KUNIT_EXPECT_FALSE(test, st.cut);
	KUNIT_EXPECT_EQ(test, st.subbufs[KTRACE_RECOVER_OK], NR);
	n = payloads(o, p, PMAX);
	KUNIT_ASSERT_EQ(test, (u64)n, st.events);
	/* The last event written is the last kept, and they follow on. */
	KUNIT_EXPECT_EQ(test, p[n - 1], 499U);
	for (i = 1; i < n; i++)
		KUNIT_EXPECT_EQ(test, p[i], p[i - 1] + 1);
}

/* Drop mode: what did not fit was dropped, and the first events are kept. */
static void recover_drop_test(struct kunit *test)
{
	struct region *r = region_create(test, false);
	struct ktrace_recover_stats st;
	struct out *o = r->o;
	u32 *p = o->p;
	int n;
	int i;

	for (i = 0; i < 500; i++)
		put(r, i, true);
	freeze(r);
	KUNIT_ASSERT_EQ(test, recover(r, r->mem, o, &st), 0);
	KUNIT_EXPECT_EQ(test, st.events + r->d->dropped, 500ULL);
	KUNIT_EXPECT_GT(test, r->d->dropped, 0ULL);
	n = payloads(o, p, PMAX);
	KUNIT_ASSERT_GT(test, n, 0);
	KUNIT_EXPECT_EQ(test, p[0], 0U);
}

/*
 * A writer stopped between its reservation and its commit (the crash):
 * its record is lost and counted, everything before it kept.
 */
static void recover_uncommitted_test(struct kunit *test)
{
	struct region *r = region_create(test, true);
	struct ktrace_recover_stats st;
	struct out *o = r->o;
	u32 *p = o->p;
	int i, n;

	for (i = 0; i < 20; i++)
		put(r, i, true);
	put(r, 20, false);
	freeze(r);
	KUNIT_ASSERT_EQ(test, recover(r, r->mem, o, &st), 0);
	KUNIT_EXPECT_EQ(test, st.events, 20ULL);
	KUNIT_EXPECT_EQ(test, st.lost, 1ULL);
	KUNIT_EXPECT_TRUE(test, st.cut);
	KUNIT_EXPECT_EQ(test, st.events + st.lost + r->d->overwritten, r->d->events);
	n = payloads(o, p, PMAX);
	KUNIT_ASSERT_EQ(test, n, 20);
	KUNIT_EXPECT_EQ(test, p[19], 19U);
}

/*
 * The stopped writer's record followed by a committed one (a nested
 * writer): the committed count then ends inside stale bytes, which must
 * not be shown as events.
 */
static void recover_hole_test(struct kunit *test)
{
	struct region *r = region_create(test, true);
	struct ktrace_recover_stats st;
	struct out *o = r->o;
	u32 *p = o->p;
	int i, n;

	for (i = 0; i < 10; i++)
		put(r, i, true);
	put(r, 10, false);
	put(r, 11, true);
	freeze(r);
	KUNIT_ASSERT_EQ(test, recover(r, r->mem, o, &st), 0);
	/* Nothing tells where the hole starts: the open subbuffer is dropped. */
	KUNIT_EXPECT_EQ(test, st.subbufs[KTRACE_RECOVER_UNCOMMITTED], 1ULL);
	KUNIT_EXPECT_EQ(test, st.events, 0ULL);
	KUNIT_EXPECT_EQ(test, st.lost, 12ULL);
	n = payloads(o, p, PMAX);
	KUNIT_EXPECT_EQ(test, n, 0);
	KUNIT_EXPECT_EQ(test, st.events + st.lost + r->d->overwritten, r->d->events);
}

/*
 * The writer that starts a new use of a slot, stopped between its
 * reservation and the new header, nested writers committing meanwhile:
 * the slot still holds the previous use's header, that use is partly
 * overwritten and was not counted as overwritten.  Its events are lost,
 * counted; the subbuffer before, never closed, is kept up to its commit.
 */
static struct region *nested_r;
static void *nested_snap;

static void nested_then_crash(struct ktrace_buf *buf)
{
	put(nested_r, 9999, true);
	freeze(nested_r);
	memcpy(nested_snap, nested_r->mem, REGION);
}

static void recover_nested_switch_test(struct kunit *test)
{
	struct region *r = region_create(test, true);
	struct ktrace_recover_stats st;
	struct out *o = r->o;
	unsigned int i;
	int n;

	nested_snap = kunit_kzalloc(test, REGION, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, nested_snap);
	nested_r = r;
	/* Round the ring once, then up to the end of a subbuffer. */
	for (i = 0; i < NR * SB_SIZE / 8 ||
	     (local_read(&r->buf->offset) & (SB_SIZE - 1)) + 8 < SB_SIZE; i++)
		put(r, i, true);
	r->buf->nested_hook = nested_then_crash;
	put(r, i, true);
	KUNIT_ASSERT_NULL(test, r->buf->nested_hook);
	KUNIT_ASSERT_EQ(test, recover(r, nested_snap, o, &st), 0);
	KUNIT_EXPECT_EQ(test, st.subbufs[KTRACE_RECOVER_HEADER], 1ULL);
	KUNIT_EXPECT_EQ(test, st.subbufs[KTRACE_RECOVER_OK], NR - 1);
	/* The outer event and the nested one, both in the new use, are lost. */
	KUNIT_EXPECT_EQ(test, st.events + st.lost + r->d->overwritten, r->d->events);
	n = payloads(o, o->p, PMAX);
	KUNIT_ASSERT_GT(test, n, 0);
	/* The newest kept is the last event before the switch. */
	KUNIT_EXPECT_EQ(test, o->p[n - 1], i - 1);
}

/* Not frozen (a reset with no panic, or kdump): cut at the commit counts. */
static void recover_unfrozen_test(struct kunit *test)
{
	struct region *r = region_create(test, true);
	struct ktrace_recover_stats st;
	struct out *o = r->o;
	int i;

	for (i = 0; i < 100; i++)
		put(r, i, true);
	r->d->sums = 0;
	r->h->csum = ktrace_crash_csum(r->h, r->d);
	KUNIT_ASSERT_EQ(test, recover(r, r->mem, o, &st), 0);
	KUNIT_EXPECT_EQ(test, st.events + local_read(&r->buf->overwritten), 100ULL);
	KUNIT_EXPECT_EQ(test, st.lost, 0ULL);
}

/* A commit count zeroed after the freeze: the slot's events lost, counted. */
static void recover_commit_zeroed_test(struct kunit *test)
{
	struct region *r = region_create(test, true);
	struct ktrace_recover_stats st;
	unsigned int i, empty = 0;
	u64 *commit;

	for (i = 0; i < 100; i++)
		put(r, i, true);
	freeze(r);
	commit = r->mem + r->d->commit;
	for (i = 0; i < NR; i++)
		empty += !commit[i];
	commit[0] = 0;
	KUNIT_ASSERT_EQ(test, recover(r, r->mem, r->o, &st), 0);
	KUNIT_EXPECT_EQ(test, st.subbufs[KTRACE_RECOVER_COMMIT], 1ULL);
	KUNIT_EXPECT_EQ(test, st.subbufs[KTRACE_RECOVER_EMPTY], (u64)empty);
	KUNIT_EXPECT_GT(test, st.lost, 0ULL);
	KUNIT_EXPECT_EQ(test, st.events + st.lost + r->d->overwritten, r->d->events);
}

/* Tables that must not be believed. */
static void recover_table_test(struct kunit *test)
{
	struct region *r = region_create(test, true);
	struct ktrace_crash_buf d, *dd;
	struct ktrace_crash_header h;

	put(r, 1, true);
	freeze(r);
	h = *r->h;
	h.magic = 0;
	KUNIT_EXPECT_EQ(test, ktrace_crash_check_header(&h), -ENODATA);
	h = *r->h;
	h.version++;
	KUNIT_EXPECT_EQ(test, ktrace_crash_check_header(&h), -EPROTO);
	h = *r->h;
	h.nr_bufs++;
	KUNIT_EXPECT_EQ(test, ktrace_crash_check_header(&h), -EBADMSG);
	KUNIT_EXPECT_EQ(test, ktrace_crash_check_header(r->h), 0);
	d = *r->d;
	d.data = REGION - SB_SIZE;	/* runs off the end */
	KUNIT_EXPECT_EQ(test, ktrace_crash_check_buf(r->h, &d, 0), -EBADMSG);
	d = *r->d;
	d.cpu = 1;			/* not descriptor 0's */
	KUNIT_EXPECT_EQ(test, ktrace_crash_check_buf(r->h, &d, 0), -EBADMSG);
	d = *r->d;
	d.sb_shift = 0;
	KUNIT_EXPECT_EQ(test, ktrace_crash_check_buf(r->h, &d, 0), -ENOENT);
	KUNIT_EXPECT_EQ(test, ktrace_crash_check_buf(r->h, r->d, 0), 0);
	/* One byte of a descriptor changed: the checksum (of all) says so. */
	dd = kunit_kmalloc_array(test, r->h->nr_bufs, sizeof(*dd), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, dd);
	memcpy(dd, r->d, r->h->nr_bufs * sizeof(*dd));
	KUNIT_EXPECT_EQ(test, ktrace_crash_csum(r->h, dd), r->h->csum);
	dd[0].events++;
	KUNIT_EXPECT_NE(test, ktrace_crash_csum(r->h, dd), r->h->csum);
}

/* Whether @sb (len bytes) is one of the subbuffers kept from the intact region. */
static bool written(const struct out *good, const void *sb, size_t len)
{
	size_t pos = 0;

	while (pos < good->len) {
		struct ktrace_subbuf_header hdr;
		size_t n;

		memcpy(&hdr, good->kept + pos, sizeof(hdr));
		n = sizeof(hdr) + hdr.data_size;
		if (n == len && !memcmp(good->kept + pos, sb, len))
			return true;
		pos += n;
	}
	return false;
}

#define MUTATIONS	3000

/*
 * Random corruption anywhere in the region, after the freeze (a reset,
 * firmware), or before it (frozen again: what a bug in the kernel would
 * write): never a crash, never an access out of the region (KASAN), and,
 * after the freeze, every subbuffer kept is one that was written.
 */
static void recover_mutation_test(struct kunit *test)
{
	struct region *r = region_create(test, true);
	struct ktrace_recover_stats st, good_st;
	struct out *good = kunit_kzalloc(test, sizeof(*good), GFP_KERNEL);
	struct out *o = kunit_kzalloc(test, sizeof(*o), GFP_KERNEL);
	void *mem = kunit_kzalloc(test, REGION, GFP_KERNEL);
	struct rnd_state rnd;
	unsigned int i, j, kept_some = 0, refused = 0;

	KUNIT_ASSERT_NOT_NULL(test, good);
	KUNIT_ASSERT_NOT_NULL(test, o);
	KUNIT_ASSERT_NOT_NULL(test, mem);
	for (i = 0; i < 300; i++)
		put(r, i, true);
	put(r, 300, false);
	freeze(r);
	KUNIT_ASSERT_EQ(test, recover(r, r->mem, good, &good_st), 0);
	prandom_seed_state(&rnd, 26);
	for (i = 0; i < MUTATIONS; i++) {
		unsigned int flips = 1 + prandom_u32_state(&rnd) % 4;
		/* 0: before the freeze; 1: never frozen; 2, 3: after it. */
		unsigned int when = i % 4;
		bool after = when >= 2;
		size_t pos;
		int ret;

		memcpy(mem, r->mem, REGION);
		for (j = 0; j < flips; j++) {
			/* Mostly the data, often the counts, sometimes anywhere. */
			u32 x = prandom_u32_state(&rnd);

			if (x % 8 == 0)
				pos = x % REGION;
			else if (x % 8 <= 2)
				pos = COUNTS + x % (REGION - COUNTS);
			else
				pos = TABLE + x % (SB_SIZE * NR);
			((u8 *)mem)[pos] ^= 1 + prandom_u32_state(&rnd) % 255;
		}
		if (!after) {
			/*
			 * Corrupted before the freeze, summed and sealed with
			 * it, or in a table never frozen: only the structural
			 * checks, and the descriptor's bounds, stand.
			 */
			struct ktrace_crash_header *h = mem;
			struct ktrace_crash_buf *d = mem + sizeof(*h);

			if (when == 1)
				h->flags &= ~KTRACE_CRASH_FROZEN;
			if (!ktrace_crash_check_header(h) && h->size == REGION &&
			    !ktrace_crash_check_buf(h, d, 0) && d->sums)
				ktrace_recover_sums(d, mem + d->data, mem + d->commit,
						    mem + d->sums);
			if (!ktrace_crash_check_header(h) && h->size == REGION)
				h->csum = ktrace_crash_csum(h, d);
		}
		ret = recover(r, mem, o, &st);
		if (ret) {
			refused++;
			continue;
		}
		if (after) {
			size_t p = 0;

			while (p < o->len) {
				struct ktrace_subbuf_header hdr;
				size_t n;

				memcpy(&hdr, o->kept + p, sizeof(hdr));
				n = sizeof(hdr) + hdr.data_size;
				KUNIT_ASSERT_TRUE_MSG(test, written(good, o->kept + p, n),
						      "mutation %u: kept one never written", i);
				p += n;
			}
		}
		/* Every kept subbuffer decodes. */
		KUNIT_ASSERT_GE_MSG(test, payloads(o, NULL, 0), 0, "mutation %u", i);
		kept_some += !!o->len;
	}
	/* The checks did both: kept the intact slots, refused the corrupt table. */
	KUNIT_EXPECT_GT(test, kept_some, MUTATIONS / 2);
	KUNIT_EXPECT_GT(test, refused, 0U);
}

static struct kunit_case ktrace_recover_cases[] = {
	KUNIT_CASE(recover_wrap_test),
	KUNIT_CASE(recover_drop_test),
	KUNIT_CASE(recover_uncommitted_test),
	KUNIT_CASE(recover_hole_test),
	KUNIT_CASE(recover_nested_switch_test),
	KUNIT_CASE(recover_unfrozen_test),
	KUNIT_CASE(recover_commit_zeroed_test),
	KUNIT_CASE(recover_table_test),
	KUNIT_CASE(recover_mutation_test),
	{}
};

static struct kunit_suite ktrace_recover_suite = {
	.name = "ktrace_recover",
	.test_cases = ktrace_recover_cases,
};

kunit_test_suite(ktrace_recover_suite);

MODULE_DESCRIPTION("KUnit tests for the checks of a crashed kernel's ktrace buffers");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
