// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the crash table's checker (kernel/trace/ktrace/
 * recover.c), which the kernel runs at boot on whatever the persistent
 * region holds and extract --vmcore on a vmcore's memory.  Any bytes
 * must give a verdict, never a crash, a hang, a leak or an access out of
 * what the caller gave; and what it keeps must be whole subbuffers as a
 * stream gives them (abort() if not).  Built by "make fuzz" and "make
 * test" with clang (fuzz-crash); run by tests/t-crash.sh.
 *
 * The input is used twice: as a raw crash header (the checks alone), then
 * as a table made plausible (magic, version, sizes, one or two CPUs: what
 * random bytes would almost never hit), its descriptors, commit and event
 * counts and slot bytes taken from the input in turn; with a bit of the
 * first byte, each slot starts as its writer starts it (a header that
 * agrees with its commit count, a timestamp record), so that the records
 * after it are what the checker walks.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/bits.h>

#include "../trace.h"
#include "../../../kernel/trace/ktrace/recover.h"

/* libFuzzer's entry point, named on the compiler's command line. */
int KT_FUZZ_ENTRY(const uint8_t *data, size_t size);

/* The input, read in turn, from the start again at its end; zeros if empty. */
struct fz {
	const uint8_t *data;
	size_t size, pos;
};

static void fz_take(struct fz *f, void *dst, size_t len)
{
	uint8_t *d = dst;
	size_t n;

	if (!f->size) {
		memset(dst, 0, len);
		return;
	}
	while (len) {
		f->pos %= f->size;
		n = f->size - f->pos < len ? f->size - f->pos : len;
		memcpy(d, f->data + f->pos, n);
		d += n;
		len -= n;
		f->pos += n;
	}
}

struct fz_buf {
	struct fz *f;
	const struct ktrace_crash_buf *b;
	struct ktrace_recover_ids *ids;
	const uint64_t *commit;
	bool fix;			/* make each slot's start plausible */
	size_t emitted;
};

/*
 * The start of slot @slot as the writer of its last use leaves it: a
 * header that agrees with the commit count, a timestamp record; the
 * records after it are the input's.
 */
static void fz_fix(const struct fz_buf *fb, unsigned long slot, void *dst)
{
	uint64_t c = fb->commit[slot], sb = 1ULL << fb->b->sb_shift, use;
	struct ktrace_subbuf_header *h = dst;
	struct ktrace_timestamp ts;

	if (!c)
		return;
	use = (c >> fb->b->sb_shift) - !(c & (sb - 1));
	h->magic = KTRACE_MAGIC;
	h->version = KTRACE_FORMAT_VERSION;
	h->channel = fb->b->channel;
	h->cpu = fb->b->cpu;
	h->seq = use << fb->b->nr_shift | slot;
	h->data_size %= sb - sizeof(*h);
	ts.clock_lo = h->pid & 0xffff;
	ts.clock_hi = 0;
	ts.header = KTRACE_HEADER(KTRACE_ID_TIMESTAMP, ts.clock_lo);
	memcpy(h + 1, &ts, sizeof(ts));
}

static int fz_read(void *ctx, unsigned long slot, void *dst)
{
	struct fz_buf *fb = ctx;

	if (slot >= 1UL << fb->b->nr_shift)
		abort();
	/* An unreadable slot, now and then. */
	if (fb->f->size && fb->f->data[(fb->f->pos + slot) % fb->f->size] == 0xee)
		return -5;
	fz_take(fb->f, dst, 1UL << fb->b->sb_shift);
	if (fb->fix)
		fz_fix(fb, slot, dst);
	return 0;
}

static int fz_emit(void *ctx, const void *sb, size_t len)
{
	struct fz_buf *fb = ctx;
	struct ktrace_subbuf_header h;

	/* A kept subbuffer: a header of its buffer and data_size bytes after it. */
	if (len < sizeof(h) || len > 1UL << fb->b->sb_shift)
		abort();
	memcpy(&h, sb, sizeof(h));
	if (h.magic != KTRACE_MAGIC || h.channel != fb->b->channel || h.cpu != fb->b->cpu ||
	    sizeof(h) + h.data_size != len)
		abort();
	if (fb->b->channel == KTRACE_CHANNEL_LOW)
		ktrace_recover_add_meta(fb->ids, sb, len);
	fb->emitted++;
	return 0;
}

static void fz_header(struct fz *f, struct ktrace_crash_header *h, uint8_t ctl)
{
	fz_take(f, h, sizeof(*h));
	h->magic = KTRACE_CRASH_MAGIC;
	h->version = KTRACE_CRASH_VERSION;
	h->header_size = sizeof(*h);
	h->buf_size = sizeof(struct ktrace_crash_buf);
	h->byte_order = KTRACE_LITTLE_ENDIAN;
	h->word_size = ctl & 1 ? 4 : 8;
	h->flags &= KTRACE_CRASH_REGION | KTRACE_CRASH_FROZEN;
	h->nr_cpus = 1 + (ctl >> 1 & 1);
	h->nr_channels = KTRACE_NR_CHANNELS;
	h->nr_bufs = h->nr_cpus * KTRACE_NR_CHANNELS;
	h->page_size = 4096;
	if (h->flags & KTRACE_CRASH_REGION)
		h->size = BIT_ULL(32);
}

/* One buffer of the table: its counts and slots from the input. */
static void fz_one(struct fz *f, const struct ktrace_crash_header *h,
		   struct ktrace_crash_buf *b, unsigned int i, struct ktrace_recover_ids *ids,
		   bool fix)
{
	struct fz_buf fb = { .f = f, .b = b, .ids = ids, .fix = fix };
	struct ktrace_recover_stats st = { 0 };
	uint64_t *commit, *events, *sums = NULL;
	size_t nr, k;
	void *scratch;

	if (ktrace_crash_check_buf(h, b, i) || !b->sb_shift || b->sb_shift > 16 ||
	    b->nr_shift > 6)
		return;
	nr = 1UL << b->nr_shift;
	commit = calloc(nr, sizeof(*commit));
	events = calloc(2 * nr, sizeof(*events));
	scratch = malloc(1UL << b->sb_shift);
	if (!commit || !events || !scratch)
		abort();
	fb.commit = commit;
	for (k = 0; k < nr; k++) {
		uint16_t c;

		/* Use c >> 13 of the slot: complete, open, never written, or off. */
		fz_take(f, &c, sizeof(c));
		switch (c >> 11 & 3) {
		case 0:
			commit[k] = (uint64_t)((c >> 13) + 1) << b->sb_shift;
			break;
		case 1:
			commit[k] = ((uint64_t)(c >> 13) << b->sb_shift) +
				    (c & 0x7ff) % (1UL << b->sb_shift);
			break;
		case 2:
			commit[k] = 0;
			break;
		default:
			commit[k] = ((uint64_t)(c >> 13) << b->sb_shift) + (c & 0x7ff) * 37ULL;
		}
	}
	fz_take(f, events, 2 * nr * sizeof(*events));
	if (b->sums) {
		sums = calloc(nr, sizeof(*sums));
		if (!sums)
			abort();
		fz_take(f, sums, nr * sizeof(*sums));
	}
	/* The low channel's ids are its own metadata's, as the callers do. */
	ktrace_recover_buf(h, b, commit, events, sums,
			   b->channel == KTRACE_CHANNEL_LOW ? NULL : ids, fz_read, fz_emit, &fb,
			   scratch, &st);
	if (st.subbufs[KTRACE_RECOVER_OK] != fb.emitted)
		abort();
	free(sums);
	free(commit);
	free(events);
	free(scratch);
}

int KT_FUZZ_ENTRY(const uint8_t *data, size_t size)
{
	struct ktrace_crash_buf bufs[2 * KTRACE_NR_CHANNELS];
	struct ktrace_crash_header h;
	struct ktrace_recover_ids *ids;
	struct fz f = { data, size, 0 };
	unsigned int i, k;
	uint8_t ctl = 0;

	/* Raw: the header's checks on any bytes. */
	fz_take(&f, &h, sizeof(h));
	if (!ktrace_crash_check_header(&h) && h.nr_bufs <= 2 * KTRACE_NR_CHANNELS) {
		fz_take(&f, bufs, h.nr_bufs * sizeof(*bufs));
		ktrace_crash_csum(&h, bufs);
		for (i = 0; i < h.nr_bufs; i++)
			ktrace_crash_check_buf(&h, &bufs[i], i);
	}
	/* Plausible: every buffer through the checker, the low channel first. */
	f.pos = 0;
	fz_take(&f, &ctl, 1);
	fz_header(&f, &h, ctl);
	if (ktrace_crash_check_header(&h))
		return 0;
	fz_take(&f, bufs, h.nr_bufs * sizeof(*bufs));
	for (i = 0; i < h.nr_bufs; i++) {
		bufs[i].channel = i / h.nr_cpus;
		bufs[i].cpu = i % h.nr_cpus;
		bufs[i].sb_shift = 9 + bufs[i].sb_shift % 4;
		bufs[i].nr_shift = 1 + bufs[i].nr_shift % 3;
		bufs[i].flags &= KTRACE_SUBBUF_OVERWRITE;
		/* In the region, offsets inside it (its size from the input too). */
		if (h.flags & KTRACE_CRASH_REGION) {
			bufs[i].data = 4096 + (bufs[i].data & 0xfff8);
			bufs[i].commit = 4096 + (bufs[i].commit & 0xfff8);
			bufs[i].sb_events = 4096 + (bufs[i].sb_events & 0xfff8);
			bufs[i].sums = bufs[i].sums & 1 ? 4096 + (bufs[i].sums & 0xfff8) : 0;
		} else {
			bufs[i].sums = 0;
		}
	}
	if (ktrace_crash_csum(&h, bufs) == 0x12345678)
		ctl ^= 1;
	ids = calloc(1, sizeof(*ids));
	if (!ids)
		abort();
	for (k = KTRACE_NR_CHANNELS; k-- > 0;)
		for (i = 0; i < h.nr_bufs; i++)
			if (bufs[i].channel == k)
				fz_one(&f, &h, &bufs[i], i, ids, ctl & 4);
	free(ids);
	return 0;
}
