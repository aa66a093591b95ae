// SPDX-License-Identifier: GPL-2.0
/*
 * ktrace: checking what a kernel that is gone left in its buffers.
 *
 * Shared by the kernel (persist.c, the previous boot's trace) and
 * tools/ktrace (extract --vmcore), as decode.c is: both keep exactly the
 * same subbuffers of a crash table (include/uapi/linux/ktrace.h).
 *
 * A subbuffer slot is kept only if everything about it agrees:
 *
 *   - its commit count tells which use of the slot was last written, u,
 *     and whether that use is complete ((u + 1) << sb_shift) or open;
 *   - its header is that use's: magic, version, channel, CPU, and the
 *     sequence number u << nr_shift | slot;
 *   - its records decode one after the other, a timestamp record first,
 *     clocks never going back, every id one the metadata describes, and
 *     they end exactly at the data size (complete) or at the commit count
 *     (open: the writer's header has no data size yet);
 *   - in the persistent region, frozen by the crash path: its bytes are
 *     those the crash path summed (ktrace_recover_sum()), so that memory
 *     a reset or the firmware changed since is told from the trace;
 *   - the events decoded are the events the writer counted in that use
 *     (sb_events), all of them if complete; if open, the difference is
 *     the records reserved and never committed (a writer stopped by the
 *     crash between the two), which are lost, and the subbuffer is cut
 *     where the committed records end.
 *
 * A slot that fails any of these is dropped and counted by reason, with
 * the events its writer counted in it; never shown.  A subbuffer consumed
 * before the crash (a reader had it, or the writer counted it as
 * overwritten) is stale and not shown either.  The kept subbuffers come
 * out oldest first: in the ring, sequence numbers follow the slots.
 *
 * The one case the counts cannot tell: in an open subbuffer, a writer
 * stopped between reserving and committing, then a nested writer's record
 * after it, committed.  The hole is then inside the committed count, and
 * holds stale bytes (of the slot's previous use, or zeros).  Where they
 * do not decode, the subbuffer is dropped (uncommitted), records before
 * the hole included: nothing tells where the hole starts.  For the
 * subbuffer to be kept instead they would have to decode as records with known
 * ids, ending exactly at the count, with clocks that neither go back nor
 * leave the low 27 bits' range of the record before them (the writer
 * never does without a timestamp record) and stay below the nested
 * record's: a window of the microseconds between the two writers in 2^27
 * clock units.
 */
#include <linux/errno.h>
#include <linux/string.h>
#include <kunit/visibility.h>

#include "format.h"
#include "recover.h"

/* A subbuffer's header and first timestamp record. */
#define KTRACE_RECOVER_START \
	(sizeof(struct ktrace_subbuf_header) + sizeof(struct ktrace_timestamp))

static const char *const ktrace_recover_reasons[KTRACE_RECOVER_NR_REASONS] = {
	[KTRACE_RECOVER_OK]		= "kept",
	[KTRACE_RECOVER_EMPTY]		= "empty",
	[KTRACE_RECOVER_STALE]		= "stale",
	[KTRACE_RECOVER_HEADER]		= "header",
	[KTRACE_RECOVER_COMMIT]		= "commit",
	[KTRACE_RECOVER_RECORD]		= "record",
	[KTRACE_RECOVER_CLOCK]		= "clock",
	[KTRACE_RECOVER_UNCOMMITTED]	= "uncommitted",
	[KTRACE_RECOVER_SUM]		= "checksum",
};

/**
 * ktrace_recover_reason_name() - the name of a reason, as the info file says it
 * @reason: enum ktrace_recover_reason
 *
 * Return: the name, "?" for no reason.
 */
const char *ktrace_recover_reason_name(int reason)
{
	if (reason < 0 || reason >= KTRACE_RECOVER_NR_REASONS)
		return "?";
	return ktrace_recover_reasons[reason];
}
EXPORT_SYMBOL_IF_KUNIT(ktrace_recover_reason_name);

static u32 ktrace_fnv1a(u32 h, const void *p, size_t len)
{
	const u8 *b = p;

	while (len--)
		h = (h ^ *b++) * 16777619u;
	return h;
}

/**
 * ktrace_crash_csum() - the checksum of a crash table
 * @h: its header
 * @bufs: its h->nr_bufs descriptors
 *
 * FNV-1a over the header but its csum, then the descriptors: not against
 * an attacker, against memory that did not survive a reset, or a table
 * half rewritten.
 *
 * Return: the checksum.
 */
u32 ktrace_crash_csum(const struct ktrace_crash_header *h,
		      const struct ktrace_crash_buf *bufs)
{
	u32 c = ktrace_fnv1a(2166136261u, h, offsetof(struct ktrace_crash_header, csum));

	return ktrace_fnv1a(c, bufs, (size_t)h->nr_bufs * sizeof(*bufs));
}
EXPORT_SYMBOL_IF_KUNIT(ktrace_crash_csum);

/**
 * ktrace_crash_check_header() - whether a crash table's header can be used
 * @h: a copy of the header
 *
 * Checks what the descriptors' reader relies on: the layout (sizes, byte
 * order, word size) is this one's, and the count of descriptors agrees.
 * The checksum needs the descriptors: see ktrace_crash_csum().
 *
 * Return: 0; -ENODATA if there is no table (no magic); -EPROTO if it is
 * another layout; -EBADMSG if it is inconsistent.
 */
int ktrace_crash_check_header(const struct ktrace_crash_header *h)
{
	if (h->magic != KTRACE_CRASH_MAGIC)
		return -ENODATA;
	if (h->version != KTRACE_CRASH_VERSION ||
	    h->header_size != sizeof(*h) ||
	    h->buf_size != sizeof(struct ktrace_crash_buf) ||
	    h->word_size != sizeof(u64) ||
	    h->byte_order != (IS_ENABLED(CONFIG_CPU_BIG_ENDIAN) ?
			      KTRACE_BIG_ENDIAN : KTRACE_LITTLE_ENDIAN))
		return -EPROTO;
	if (h->nr_channels != KTRACE_NR_CHANNELS || !h->nr_cpus ||
	    h->nr_cpus > KTRACE_CRASH_MAX_CPUS ||
	    h->nr_bufs != h->nr_channels * h->nr_cpus ||
	    h->page_size < 4096 || (h->page_size & (h->page_size - 1)))
		return -EBADMSG;
	if ((h->flags & KTRACE_CRASH_REGION) &&
	    h->size < sizeof(*h) + (u64)h->nr_bufs * sizeof(struct ktrace_crash_buf))
		return -EBADMSG;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(ktrace_crash_check_header);

/* [off, off + len) inside the region, after the table, 8-byte aligned. */
static bool ktrace_crash_in_region(const struct ktrace_crash_header *h,
				   u64 off, u64 len)
{
	u64 table = sizeof(*h) + (u64)h->nr_bufs * sizeof(struct ktrace_crash_buf);

	return !(off & 7) && off >= table && off <= h->size && len <= h->size - off;
}

/**
 * ktrace_crash_check_buf() - whether a descriptor of a crash table can be used
 * @h: the table's header, checked by ktrace_crash_check_header()
 * @b: a copy of descriptor number @index
 * @index: its index, channel * nr_cpus + cpu
 *
 * Return: 0; -ENOENT if it describes no buffer (none was made for that
 * CPU); -EBADMSG if it is inconsistent, or out of the region.
 */
int ktrace_crash_check_buf(const struct ktrace_crash_header *h,
			   const struct ktrace_crash_buf *b, unsigned int index)
{
	u64 nr, size;

	if (!b->sb_shift)
		return -ENOENT;
	if (b->channel != index / h->nr_cpus || b->cpu != index % h->nr_cpus ||
	    b->sb_shift < KTRACE_SB_SHIFT_MIN || b->sb_shift > KTRACE_SB_SHIFT_MAX ||
	    !b->nr_shift || b->nr_shift > KTRACE_NR_SHIFT_MAX ||
	    b->sb_shift + b->nr_shift > KTRACE_BUF_SHIFT_MAX ||
	    (b->flags & ~KTRACE_SUBBUF_OVERWRITE))
		return -EBADMSG;
	nr = 1ULL << b->nr_shift;
	size = 1ULL << (b->sb_shift + b->nr_shift);
	/* Elsewhere, the buffer is a list of whole pages. */
	if (!(h->flags & KTRACE_CRASH_REGION))
		return size >= h->page_size && b->data && b->commit && b->sb_events &&
		       !b->sums ? 0 : -EBADMSG;
	if (!ktrace_crash_in_region(h, b->data, size) ||
	    !ktrace_crash_in_region(h, b->commit, nr * sizeof(u64)) ||
	    !ktrace_crash_in_region(h, b->sb_events, 2 * nr * sizeof(u64)) ||
	    (b->sums && !ktrace_crash_in_region(h, b->sums, nr * sizeof(u64))))
		return -EBADMSG;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(ktrace_crash_check_buf);

/**
 * ktrace_recover_sum() - the checksum of a slot's bytes
 * @sb: the bytes
 * @len: how many, a multiple of 4
 *
 * A 64-bit multiply-xor hash over 32-bit words: cheap enough for the crash
 * path to sum every slot of the region, and any changed bit changes it.
 *
 * Return: the checksum.
 */
u64 ktrace_recover_sum(const void *sb, size_t len)
{
	u64 h = 0x9e3779b97f4a7c15ULL ^ len;
	size_t i;
	u32 w;

	for (i = 0; i + 4 <= len; i += 4) {
		memcpy(&w, sb + i, sizeof(w));
		h = (h ^ w) * 0x100000001b3ULL;
		h ^= h >> 29;
	}
	return h;
}
EXPORT_SYMBOL_IF_KUNIT(ktrace_recover_sum);

/**
 * ktrace_recover_slot_end() - how many bytes of a slot its last use wrote
 * @b: the buffer's descriptor
 * @sb: the slot's bytes, 1 << b->sb_shift
 * @commit: its commit count
 *
 * What the crash path sums and the checks read: the header and its data
 * size if complete, the committed bytes if open.
 *
 * Return: the bytes, at most the slot's size; 0 if it was never written.
 */
size_t ktrace_recover_slot_end(const struct ktrace_crash_buf *b, const void *sb,
			       u64 commit)
{
	u64 sb_size = 1ULL << b->sb_shift, end;
	struct ktrace_subbuf_header hdr;

	if (!commit)
		return 0;
	if (commit & (sb_size - 1))
		return (commit & (sb_size - 1)) & ~3ULL;
	memcpy(&hdr, sb, sizeof(hdr));
	end = sizeof(hdr) + (u64)hdr.data_size;
	return end > sb_size ? sb_size : end & ~3ULL;
}
EXPORT_SYMBOL_IF_KUNIT(ktrace_recover_slot_end);

/**
 * ktrace_recover_sums() - sum every slot of a buffer, as the crash path does
 * @b: the buffer's descriptor
 * @data: its subbuffers
 * @commit: its commit counts, read once each
 * @sums: its 1 << nr_shift checksums, written
 */
void ktrace_recover_sums(const struct ktrace_crash_buf *b, const void *data,
			 const u64 *commit, u64 *sums)
{
	unsigned long slot, nr = 1UL << b->nr_shift;

	for (slot = 0; slot < nr; slot++) {
		const void *sb = data + (slot << b->sb_shift);
		u64 c = READ_ONCE(commit[slot]);

		sums[slot] = ktrace_recover_sum(sb, ktrace_recover_slot_end(b, sb, c));
	}
}
EXPORT_SYMBOL_IF_KUNIT(ktrace_recover_sums);

/* Whether the metadata describes the record's event (if there is any). */
static bool ktrace_recover_known(const struct ktrace_recover_ids *ids,
				 unsigned int ch, const struct ktrace_record *rec)
{
	unsigned int bit, bits = 8 * sizeof(unsigned long);

	if (rec->id == KTRACE_ID_TIMESTAMP)
		return true;
	if (rec->id == KTRACE_ID_EXPANDED && !rec->major)
		return ch == KTRACE_CHANNEL_LOW;	/* the metadata itself */
	if (!ids || !ids->known)
		return true;
	if (rec->id != KTRACE_ID_EXPANDED)
		return ids->compact[ch] & (1U << rec->id);
	bit = rec->major << 8 | rec->minor;
	return ids->expanded[ch][bit / bits] & (1UL << (bit % bits));
}

/*
 * Walk the records of a subbuffer copy, [header, end): a timestamp record
 * first, each decoding, clocks never going back, ids known.  Counts the
 * events in *events.  Returns KTRACE_RECOVER_OK or the reason.
 */
static int ktrace_recover_walk(const void *sb, size_t end, unsigned int ch,
			       const struct ktrace_recover_ids *ids, u64 *events)
{
	size_t pos = sizeof(struct ktrace_subbuf_header);
	struct ktrace_record rec;
	u64 clock = 0, last = 0;
	int len;

	*events = 0;
	while (pos < end) {
		u64 before = clock;

		len = ktrace_decode_record(sb + pos, end - pos, &clock, &rec);
		if (len <= 0)
			return KTRACE_RECOVER_RECORD;
		/*
		 * The writer puts a timestamp record before any record whose
		 * clock differs from the one before above the low bits: the
		 * decoder's tolerance of one rollover is for streams that
		 * break the rule, and a record that needs it here is stale
		 * bytes (see the top of this file).
		 */
		if (rec.id != KTRACE_ID_TIMESTAMP &&
		    ktrace_clock_needs_timestamp(before, rec.clock))
			return KTRACE_RECOVER_CLOCK;
		if (pos == sizeof(struct ktrace_subbuf_header) &&
		    rec.id != KTRACE_ID_TIMESTAMP)
			return KTRACE_RECOVER_RECORD;
		if (!ktrace_recover_known(ids, ch, &rec))
			return KTRACE_RECOVER_RECORD;
		if (rec.clock < last)
			return KTRACE_RECOVER_CLOCK;
		last = rec.clock;
		if (rec.id != KTRACE_ID_TIMESTAMP)
			(*events)++;
		pos += len;
	}
	return pos == end ? KTRACE_RECOVER_OK : KTRACE_RECOVER_RECORD;
}

/* What one slot's check found. */
struct ktrace_recover_slot {
	u64 seq;
	size_t len;
	u64 events;
	u64 lost;
	bool open;
};

/*
 * Check slot @slot, whose bytes are at @sb (a copy, which an open
 * subbuffer's data size and loss counts are written into).  Returns the
 * reason; fills @s.
 */
static int ktrace_recover_slot(const struct ktrace_crash_header *h,
			       const struct ktrace_crash_buf *b, unsigned long slot,
			       void *sb, u64 commit, const u64 *sb_events,
			       const u64 *sums, const struct ktrace_recover_ids *ids,
			       struct ktrace_recover_slot *s)
{
	u64 sb_size = 1ULL << b->sb_shift, use, counted, end;
	struct ktrace_subbuf_header *hdr = sb;
	int reason;

	memset(s, 0, sizeof(*s));
	/*
	 * Never written: neither parity counted an event.  A count of zero
	 * with events counted is a count that did not survive.
	 */
	if (!commit) {
		s->lost = sb_events[2 * slot] + sb_events[2 * slot + 1];
		return s->lost ? KTRACE_RECOVER_COMMIT : KTRACE_RECOVER_EMPTY;
	}
	/* Complete at (use + 1) << sb_shift, else open in use commit >> sb_shift. */
	s->open = commit & (sb_size - 1);
	use = (commit >> b->sb_shift) - !s->open;
	if (use >> (63 - b->nr_shift - b->sb_shift))
		return KTRACE_RECOVER_COMMIT;
	s->seq = use << b->nr_shift | slot;
	counted = sb_events[2 * slot + (use & 1)];
	s->lost = counted;
	if ((h->flags & KTRACE_CRASH_FROZEN) && s->seq < b->rpos) {
		s->lost = 0;	/* read, or counted as overwritten */
		return KTRACE_RECOVER_STALE;
	}
	if (sums && (h->flags & KTRACE_CRASH_FROZEN) &&
	    ktrace_recover_sum(sb, ktrace_recover_slot_end(b, sb, commit)) != sums[slot])
		return KTRACE_RECOVER_SUM;
	if (hdr->magic != KTRACE_MAGIC || hdr->version < KTRACE_FORMAT_VERSION_MIN ||
	    hdr->version > KTRACE_FORMAT_VERSION || hdr->channel != b->channel ||
	    hdr->cpu != b->cpu || hdr->seq != s->seq) {
		/*
		 * Still the previous use's header: a writer stopped between
		 * the reservation of the new use and its header, nested
		 * writers committing meanwhile.  The previous use, partly
		 * overwritten, was not collected: its events are lost too.
		 */
		if (s->open && use && hdr->magic == KTRACE_MAGIC &&
		    hdr->seq == s->seq - (1ULL << b->nr_shift) &&
		    !((h->flags & KTRACE_CRASH_FROZEN) && hdr->seq < b->rpos))
			s->lost += sb_events[2 * slot + ((use - 1) & 1)];
		return KTRACE_RECOVER_HEADER;
	}
	if (s->open) {
		end = commit & (sb_size - 1);
		if (end < KTRACE_RECOVER_START)
			return KTRACE_RECOVER_COMMIT;
		/* Nothing is committed beyond the write position. */
		if ((h->flags & KTRACE_CRASH_FROZEN) &&
		    b->offset < (s->seq << b->sb_shift) + end)
			return KTRACE_RECOVER_COMMIT;
	} else {
		end = sizeof(*hdr) + (u64)hdr->data_size;
		if (end < KTRACE_RECOVER_START || end >= sb_size)
			return KTRACE_RECOVER_HEADER;
	}
	reason = ktrace_recover_walk(sb, end, b->channel, ids, &s->events);
	/*
	 * Committed bytes that do not end on a record, or whose records do
	 * not decode, while reservations were not committed: a hole in
	 * them, whose stale bytes must not be shown (see the top of this
	 * file).  The whole subbuffer is dropped.
	 */
	if (reason != KTRACE_RECOVER_OK && s->open && (h->flags & KTRACE_CRASH_FROZEN) &&
	    b->offset > (s->seq << b->sb_shift) + end)
		return KTRACE_RECOVER_UNCOMMITTED;
	if (reason != KTRACE_RECOVER_OK)
		return reason;
	/* Every event the writer counted is here; an open one may lack some. */
	if (s->events > counted || (!s->open && s->events != counted))
		return KTRACE_RECOVER_COMMIT;
	s->lost = counted - s->events;
	s->len = end;
	if (s->open) {
		hdr->data_size = end - sizeof(*hdr);
		if (h->flags & KTRACE_CRASH_FROZEN) {
			hdr->dropped = b->dropped;
			hdr->overwritten = b->overwritten;
		}
	}
	return KTRACE_RECOVER_OK;
}

/**
 * ktrace_recover_buf() - keep the valid subbuffers of one buffer
 * @h: the crash table's header, checked
 * @b: the buffer's descriptor, checked by ktrace_crash_check_buf()
 * @commit: its 1 << nr_shift commit counts, which nothing changes meanwhile
 * @sb_events: its 2 << nr_shift event counts, likewise
 * @sums: its 1 << nr_shift checksums, likewise, or %NULL (none): checked
 *	if the table is frozen
 * @ids: the events the metadata describes, or %NULL for any
 * @read: copies a slot's bytes
 * @emit: takes a kept subbuffer, as a stream file gives it: header and
 *	data_size bytes of records
 * @ctx: for @read and @emit
 * @scratch: 1 << sb_shift bytes
 * @st: what was found, added to
 *
 * Every slot is checked twice: once to find the oldest kept, once to
 * keep it and those after it.  Subbuffers come out oldest first.  An open
 * subbuffer gets its data size (and, if the table is frozen, the loss
 * counts of the freeze) in its header; if the table is not frozen, its
 * loss counts are those of the kept subbuffer before it.  A slot @read
 * fails on is counted as a header failure.
 *
 * Return: 0, or the first error of @emit.
 */
int ktrace_recover_buf(const struct ktrace_crash_header *h,
		       const struct ktrace_crash_buf *b, const u64 *commit,
		       const u64 *sb_events, const u64 *sums,
		       const struct ktrace_recover_ids *ids,
		       ktrace_recover_read_fn read, ktrace_recover_emit_fn emit,
		       void *ctx, void *scratch, struct ktrace_recover_stats *st)
{
	unsigned long nr = 1UL << b->nr_shift, first = 0, i, slot;
	u64 dropped = 0, overwritten = 0, last = 0, min = ~0ULL;
	struct ktrace_recover_slot s;
	bool any = false;
	int reason, ret;

	/*
	 * The oldest slot kept: sequence numbers go up slot after slot from
	 * it.  Found among the slots that pass, each checked whole: a count
	 * no checksum covers must not decide the order of the others.
	 */
	for (slot = 0; slot < nr; slot++) {
		if (read(ctx, slot, scratch) ||
		    ktrace_recover_slot(h, b, slot, scratch, commit[slot], sb_events,
					sums, ids, &s) != KTRACE_RECOVER_OK)
			continue;
		if (s.seq < min) {
			min = s.seq;
			first = slot;
		}
	}
	for (i = 0; i < nr; i++) {
		slot = (first + i) & (nr - 1);
		if (read(ctx, slot, scratch)) {
			reason = KTRACE_RECOVER_HEADER;
			memset(&s, 0, sizeof(s));
		} else {
			reason = ktrace_recover_slot(h, b, slot, scratch, commit[slot],
						     sb_events, sums, ids, &s);
		}
		/* Sequence numbers only go up: a slot out of order is not believed. */
		if (reason == KTRACE_RECOVER_OK && any && s.seq <= last) {
			reason = KTRACE_RECOVER_COMMIT;
			s.lost = s.events;
		}
		st->subbufs[reason]++;
		st->lost += s.lost;
		if (reason != KTRACE_RECOVER_OK)
			continue;
		if (s.open && !(h->flags & KTRACE_CRASH_FROZEN)) {
			struct ktrace_subbuf_header *hdr = scratch;

			hdr->dropped = dropped;
			hdr->overwritten = overwritten;
		}
		if (s.open && s.lost)
			st->cut = true;
		dropped = ((struct ktrace_subbuf_header *)scratch)->dropped;
		overwritten = ((struct ktrace_subbuf_header *)scratch)->overwritten;
		st->events += s.events;
		last = s.seq;
		any = true;
		ret = emit(ctx, scratch, s.len);
		if (ret)
			return ret;
	}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(ktrace_recover_buf);

/**
 * ktrace_recover_add_meta() - learn the events a metadata subbuffer describes
 * @ids: the events known so far
 * @sb: a kept subbuffer of the low-rate channel
 * @len: its length
 */
void ktrace_recover_add_meta(struct ktrace_recover_ids *ids, const void *sb,
			     size_t len)
{
	unsigned int bits = 8 * sizeof(unsigned long), bit;
	size_t pos = sizeof(struct ktrace_subbuf_header);
	struct ktrace_meta_event ev;
	struct ktrace_record rec;
	u64 clock = 0;
	int n;

	while (pos < len) {
		n = ktrace_decode_record(sb + pos, len - pos, &clock, &rec);
		if (n <= 0)
			return;
		pos += n;
		if (rec.id != KTRACE_ID_EXPANDED || rec.major != KTRACE_META_MAJOR)
			continue;
		if (rec.minor == KTRACE_META_TRACE) {
			ids->known = true;
			continue;
		}
		if (rec.minor != KTRACE_META_EVENT || rec.length < sizeof(ev))
			continue;
		memcpy(&ev, rec.data, sizeof(ev));
		if (ev.channel >= KTRACE_NR_CHANNELS)
			continue;
		if (ev.kind == KTRACE_EVENT_COMPACT && ev.id <= KTRACE_ID_COMPACT_MAX) {
			ids->compact[ev.channel] |= 1U << ev.id;
		} else if (ev.kind == KTRACE_EVENT_EXPANDED) {
			bit = ev.major << 8 | ev.minor;
			ids->expanded[ev.channel][bit / bits] |= 1UL << (bit % bits);
		}
	}
}
EXPORT_SYMBOL_IF_KUNIT(ktrace_recover_add_meta);
