// SPDX-License-Identifier: GPL-2.0
/*
 * ktrace per-CPU buffers: lockless reservation over relay's memory.
 *
 * relay allocates each CPU's buffer (one vmap'd area of nr subbuffers of
 * sb_size bytes, both powers of two) and owns the files readers use.  The
 * writer here owns the write position and the commit counts, and writes
 * straight into that memory:
 *
 *   offset:  | sb 0 | sb 1 | ... | sb nr-1 | sb nr (slot 0 again) | ...
 *            ^ header, timestamp record, records ..., padding
 *
 * Reservation is a local_cmpxchg() loop on buf->offset (LTTng style): no
 * lock, no IRQ disabling, no allocation.  A writer interrupted anywhere in
 * the loop by a nested writer (softirq, hardirq, NMI) sees its cmpxchg fail
 * and retries with a fresh clock value, so records appear in a buffer in
 * clock order.  A writer interrupted between its reservation and its
 * commit simply commits later: a subbuffer is complete when its commit
 * count reaches sb_size, whatever the order of the commits.
 *
 * The writer that starts a subbuffer writes its header and first timestamp
 * record; the writer that moves past the end of one writes its data size
 * and loss counts into its header and commits the unused end as padding.
 * Records never fill a subbuffer to the last byte, so that the writer that
 * switches is always the one that closes it.
 *
 * Completed subbuffers are handed to relay's reader bookkeeping (produced
 * count, padding, reader wakeup) by ktrace_deliver(), an irq_work on the
 * buffer's CPU, never inside the write path: relay's state is not
 * reentrant, and an NMI writer must never touch it.  relay's current
 * subbuffer is always the first one not delivered, with relay's offset at
 * zero, so readers only ever see fully committed subbuffers.
 *
 * Readers never read relay's memory in place: ktrace_buf_read() copies the
 * oldest unread subbuffer out, then checks that the writer did not start
 * reusing its slot during the copy, and only then consumes it:
 *
 *   reader                               writer (on the buffer's CPU)
 *   s = rpos                             cmpxchg offset into use s + nr
 *   copy slot of s                       smp_wmb()
 *   smp_rmb()                            store header, records, ...
 *   offset > (s + nr) * sb_size? torn    claim s: cmpxchg rpos s -> s + 1,
 *   claim s: cmpxchg rpos s -> s + 1         count its events overwritten
 *
 * rpos, the next subbuffer to read, is the one word both sides move: the
 * writer that reuses a slot moves it past the old use unless a reader
 * already did, and only the side whose cmpxchg succeeds accounts for that
 * subbuffer.  So a subbuffer is either read whole, as committed, or counted
 * as overwritten; never both, never torn.  Drop mode refuses (and counts)
 * a record when nr - 1 subbuffers are unread.  Overwrite mode reuses the
 * oldest subbuffer, but never one that a nested writer has not finished
 * committing: the record is dropped instead.
 */
#include <linux/align.h>
#include <linux/atomic.h>
#include <linux/log2.h>
#include <linux/relay.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/wait.h>
#include <kunit/visibility.h>

#include "buffer.h"
#include "clock.h"

/* Readers of ktrace's own (the ascii pipe) wait here for deliveries. */
DECLARE_WAIT_QUEUE_HEAD(ktrace_readers_wait);
/* Subbuffers delivered, all buffers: what those readers wait for. */
atomic_long_t ktrace_deliveries = ATOMIC_LONG_INIT(0);

/*
 * last_end when no writer's record is known to end at the write position:
 * never an offset, which is a multiple of 4.
 */
#define KTRACE_END_UNKNOWN	ULONG_MAX

static __always_inline u64 ktrace_buf_clock(struct ktrace_buf *buf)
{
	if (IS_ENABLED(CONFIG_KTRACE_KUNIT_TEST) && unlikely(buf->clock_override))
		return READ_ONCE(*buf->clock_override);
	return ktrace_clock_read();
}

/* Subbuffers read or lost: the next one a reader gets. */
static __always_inline unsigned long ktrace_buf_consumed(struct ktrace_buf *buf)
{
	return atomic_long_read(&buf->rpos);
}

static __always_inline void *ktrace_buf_ptr(struct ktrace_buf *buf,
					    unsigned long offset)
{
	unsigned long ring = 1UL << (buf->sb_shift + buf->nr_shift);

	return buf->start + (offset & (ring - 1));
}

/* Add committed bytes to a slot; queue delivery when the slot completes. */
static __always_inline void ktrace_buf_commit_bytes(struct ktrace_buf *buf,
						    unsigned long slot,
						    unsigned long bytes)
{
	unsigned long sb_mask = (1UL << buf->sb_shift) - 1;

	/* The data before the count: delivery trusts what the count covers. */
	smp_wmb();
	/*
	 * Not on a dying CPU: an irq_work queued after the CPU's last
	 * irq_work_run() (CPUHP_AP_SMPCFD_DYING; on PREEMPT_RT, once
	 * irq_workd is parked) would never run, and ktrace_buf_sync() would
	 * wait for it forever.  The flag is this CPU's own
	 * (ktrace_buf_set_cpu_dying()); a completed subbuffer it holds back
	 * is delivered by the next delivery or ktrace_buf_sync().
	 */
	if (!(local_add_return(bytes, &buf->commit[slot]) & sb_mask) &&
	    likely(!READ_ONCE(buf->cpu_dying)))
		irq_work_queue(&buf->deliver_work);
}

/*
 * The event count of subbuffer number sb.  Each slot has two, used by
 * alternate uses of the slot: the writer that starts a subbuffer collects
 * the count of the slot's previous use only after its cmpxchg, and by then
 * writers nested inside it may already have counted events of the new use.
 */
static __always_inline local_t *ktrace_sb_events(struct ktrace_buf *buf,
						 unsigned long sb)
{
	unsigned long slot = sb & ((1UL << buf->nr_shift) - 1);

	return &buf->sb_events[slot << 1 | ((sb >> buf->nr_shift) & 1)];
}

/*
 * The previous use of a slot, subbuffer number old, is gone: its events are
 * lost unless a reader claimed it first (see ktrace_buf_read()).  Every
 * writer of that use has counted its event, having committed.
 */
static void ktrace_collect_subbuf(struct ktrace_buf *buf, unsigned long old)
{
	long pos = atomic_long_read(&buf->rpos);

	/*
	 * One subbuffer at a time, up to old: a writer nested between
	 * another's cmpxchg and its collect may collect a later subbuffer
	 * first, and must then take the older ones too.  Their uses are
	 * committed, and the slots' new uses count in the other parity.
	 * The cmpxchg is fully ordered: it decides, against the reader's,
	 * who accounts for subbuffer pos.
	 */
	while (pos <= (long)old) {
		if (atomic_long_try_cmpxchg(&buf->rpos, &pos, pos + 1)) {
			local_t *events = ktrace_sb_events(buf, pos);

			local_add(local_read(events), &buf->overwritten);
			local_set(events, 0);
			pos++;
		}
	}
	/* Read by a reader, or counted above: the counter starts again. */
	local_set(ktrace_sb_events(buf, old), 0);
}

/* Start subbuffer number sb at offset begin: header and timestamp record. */
static void ktrace_begin_subbuf(struct ktrace_buf *buf, unsigned long begin,
				u64 clock)
{
	unsigned long sb = begin >> buf->sb_shift;
	unsigned long nr = 1UL << buf->nr_shift;
	unsigned long slot = sb & (nr - 1);
	struct ktrace_subbuf_header *h = ktrace_buf_ptr(buf, begin);

	if (sb >= nr)
		ktrace_collect_subbuf(buf, sb - nr);

	h->magic = KTRACE_MAGIC;
	h->version = KTRACE_FORMAT_VERSION;
	h->channel = buf->channel;
	h->flags = buf->overwrite ? KTRACE_SUBBUF_OVERWRITE : 0;
	h->cpu = buf->cpu;
	/*
	 * Not data_size, dropped and overwritten: ktrace_end_subbuf() sets
	 * them, before the padding commit that completes the subbuffer, and
	 * it can run first.  Nested writers (an interrupt storm, NMIs) may
	 * fill and close this subbuffer between our cmpxchg and this header.
	 */
	h->seq = sb;
	h->pid = task_pid_nr(current);
	h->reserved = 0;
	ktrace_put_timestamp(h + 1, clock);
	local_inc(&buf->timestamps);
	ktrace_buf_commit_bytes(buf, slot, KTRACE_SUBBUF_START);
}

/* Close the subbuffer whose data ends at end (not a subbuffer boundary). */
static void ktrace_end_subbuf(struct ktrace_buf *buf, unsigned long end)
{
	unsigned long sb_size = 1UL << buf->sb_shift;
	unsigned long used = end & (sb_size - 1);
	unsigned long slot = (end >> buf->sb_shift) & ((1UL << buf->nr_shift) - 1);
	struct ktrace_subbuf_header *h = ktrace_buf_ptr(buf, end & ~(sb_size - 1));

	h->data_size = used - sizeof(*h);
	h->dropped = local_read(&buf->dropped);
	h->overwritten = local_read(&buf->overwritten);
	ktrace_buf_commit_bytes(buf, slot, sb_size - used);
}

/*
 * The body of ktrace_reserve(), inlined into it and into
 * ktrace_buf_write_compact(): see there.
 */
static __always_inline int __ktrace_reserve(struct ktrace_buf *buf,
					    unsigned long len,
					    struct ktrace_ctx *ctx)
{
	unsigned long sb_size = 1UL << buf->sb_shift;
	unsigned long nr = 1UL << buf->nr_shift;
	unsigned long old, new, begin = 0, pos, ts, sb;
	bool new_sb, known;
	u64 clock, last;

	do {
		old = local_read(&buf->offset);
		/*
		 * The decoder unrolls a record's low clock bits against the
		 * record before it in the buffer, so the writer must know
		 * that record's clock: last_clock is it if last_end is where
		 * that record ends.  A writer's bookkeeping after its cmpxchg
		 * (below) makes last_end unknown before it changes last_clock,
		 * and stores its own end only after its clock: so a writer
		 * nested anywhere in it, or after a flush or a clock change,
		 * either finds the pair of one writer or does not know, and
		 * then writes a timestamp record; it never unrolls against a
		 * clock that is not its predecessor's.  Nested writers run on
		 * this CPU, after the stores of the writer they interrupt in
		 * its program order: a compiler barrier pairs with the ones
		 * between those stores.
		 */
		known = READ_ONCE(buf->last_end) == old;
		barrier(); /* pairs with the barriers of the stores below */
		last = READ_ONCE(buf->last_clock);
		/*
		 * The offset set at the last clock change, with the writers
		 * stopped (ktrace_buf_clock_changed()): a clock that starts
		 * behind this buffer's last record goes on from it at its
		 * own rate, rather than being clamped to it until it catches
		 * up.  A load from the line of last_clock and an add: the
		 * write path's only cost for it.
		 */
		clock = ktrace_buf_clock(buf) + buf->clock_offset;
		/*
		 * The recorded clock never goes back behind an earlier record
		 * of the buffer (ktime_get_mono_fast_ns() can step back
		 * across an update, a nested writer reads the clock after
		 * the record it follows, a TSC a little behind another
		 * CPU's): clamp, as LTTng does.  last is an earlier record's
		 * (0 before the first), kept across clock changes.
		 */
		if (clock < last)
			clock = last;
		pos = old & (sb_size - 1);
		/*
		 * The common case: no timestamp record, and the record fits
		 * in the current subbuffer.  Tested with branches rather than
		 * folded into the size arithmetic, on purpose: once the
		 * branches are predicted, new does not wait for the clock, so
		 * the cmpxchg and the next reservation go ahead while the
		 * clock read completes.  Reading the TSC is the slowest step
		 * of the write path (see ktrace_clock_read()); with new
		 * depending on it, its latency added to the cmpxchg's at
		 * every event.
		 */
		if (likely(known && !ktrace_clock_needs_timestamp(last, clock) &&
			   pos && pos + len < sb_size)) {
			ts = 0;
			new_sb = false;
			new = old + len;
			continue;
		}
		ts = !known || ktrace_clock_needs_timestamp(last, clock) ?
		     sizeof(struct ktrace_timestamp) : 0;
		new_sb = !pos || pos + ts + len >= sb_size;
		if (!new_sb) {
			new = old + ts + len;
			continue;
		}
		/* A new subbuffer: at old, or after padding out the current. */
		begin = pos ? ALIGN(old, sb_size) : old;
		if (KTRACE_SUBBUF_START + len >= sb_size)
			goto too_big;
		sb = begin >> buf->sb_shift;
		if (!buf->overwrite) {
			/* Keep at most nr - 1 subbuffers unread, as relay does. */
			if (sb - ktrace_buf_consumed(buf) >= nr - 1)
				goto full;
		} else if (sb >= nr &&
			   local_read(&buf->commit[sb & (nr - 1)]) !=
			   (sb >> buf->nr_shift) << buf->sb_shift) {
			/* The oldest subbuffer's last writer has not committed. */
			goto full;
		}
		ts = 0;
		new = begin + KTRACE_SUBBUF_START + len;
	} while (local_cmpxchg(&buf->offset, old, new) != old);

	if (IS_ENABLED(CONFIG_KTRACE_KUNIT_TEST) && unlikely(buf->nested_hook)) {
		void (*hook)(struct ktrace_buf *buf) = buf->nested_hook;

		buf->nested_hook = NULL;
		hook(buf);
	}
	/*
	 * Unknown, the clock, then where its record ends (see the top of the
	 * loop): a writer nested after our cmpxchg may have stored a later
	 * pair already; ours replaces it, and last_end != offset then, so
	 * the next writer writes a timestamp record.  A writer nested
	 * between these stores finds last_end unknown, never our clock
	 * beside the end of a nested writer's record.  The stores of a
	 * nested writer come whole between two of ours.
	 */
	WRITE_ONCE(buf->last_end, KTRACE_END_UNKNOWN);
	barrier(); /* pairs with the barrier() between the loads above */
	WRITE_ONCE(buf->last_clock, clock);
	if (IS_ENABLED(CONFIG_KTRACE_KUNIT_TEST) && unlikely(buf->nested_hook)) {
		void (*hook)(struct ktrace_buf *buf) = buf->nested_hook;

		buf->nested_hook = NULL;
		hook(buf);
	}
	barrier(); /* pairs with the barrier() between the loads above */
	WRITE_ONCE(buf->last_end, new);

	/*
	 * The new offset before anything written at it: a reader copying the
	 * slot's previous use checks the offset after its copy, see
	 * ktrace_buf_read().  Free on x86 (TSO); on weakly ordered CPUs only
	 * overwrite mode needs it, as drop mode never reuses an unread slot.
	 */
	if (buf->overwrite)
		smp_wmb(); /* pairs with smp_rmb() in ktrace_buf_read() */
	if (new_sb) {
		if (pos)
			ktrace_end_subbuf(buf, old);
		ktrace_begin_subbuf(buf, begin, clock);
	}

	ctx->buf = buf;
	ctx->clock = clock;
	ctx->slot = ((new - len) >> buf->sb_shift) & (nr - 1);
	ctx->size = ts + len;
	ctx->data = ktrace_buf_ptr(buf, new - len);
	if (ts) {
		ktrace_put_timestamp(ctx->data - ts, clock);
		local_inc(&buf->timestamps);
	}
	local_inc(ktrace_sb_events(buf, (new - len) >> buf->sb_shift));
	local_inc(&buf->events);
	local_add(ts + len, &buf->bytes);
	return 0;

too_big:
	local_inc(&buf->events);
	local_inc(&buf->dropped);
	return -E2BIG;
full:
	local_inc(&buf->events);
	local_inc(&buf->dropped);
	return -ENOBUFS;
}

/**
 * ktrace_reserve() - reserve space for a record
 * @buf: this CPU's buffer of the channel
 * @len: bytes of the record, a multiple of 4
 * @ctx: the reservation, filled in
 *
 * Call with preemption disabled, on the CPU @buf belongs to; any context,
 * NMI included.  A timestamp record is written first if the clock needs
 * one.  Must be paired with ktrace_commit(), unless it fails.
 *
 * Return: 0, with @ctx->data where the record goes; -ENOBUFS if the buffer
 * is full (drop mode) or its oldest subbuffer is still being written
 * (overwrite mode); -E2BIG if the record cannot fit in a subbuffer.  A
 * refused record is counted as dropped.
 */
int ktrace_reserve(struct ktrace_buf *buf, unsigned long len,
		   struct ktrace_ctx *ctx)
{
	return __ktrace_reserve(buf, len, ctx);
}
EXPORT_SYMBOL_IF_KUNIT(ktrace_reserve);

/**
 * ktrace_commit() - commit a reserved record
 * @ctx: the reservation of ktrace_reserve()
 *
 * The record must have been written; readers may see it from now on.
 */
void ktrace_commit(struct ktrace_ctx *ctx)
{
	ktrace_buf_commit_bytes(ctx->buf, ctx->slot, ctx->size);
}
EXPORT_SYMBOL_IF_KUNIT(ktrace_commit);

/**
 * ktrace_buf_write_compact() - reserve, write and commit a compact event
 * @buf: this CPU's buffer of the channel
 * @id: the event's compact id
 * @payload: its 32-bit payload
 *
 * ktrace_reserve(), ktrace_put_compact() and ktrace_commit() in one call,
 * for the commonest event of the hottest path: with the reservation
 * inlined, its context stays in registers, where a context on the stack
 * that ktrace_reserve() fills costs a call, a return, the stores and loads
 * of the context and, with CONFIG_INIT_STACK_ALL_ZERO, its clearing: 55
 * of the 215 guest instructions of a compact event (make bench).  Same
 * rules as ktrace_reserve().
 *
 * Return: as ktrace_reserve().
 */
int ktrace_buf_write_compact(struct ktrace_buf *buf, unsigned int id,
			     u32 payload)
{
	/*
	 * Not cleared by CONFIG_INIT_STACK_ALL_ZERO (16 instructions): a
	 * successful reservation sets every field.
	 */
	struct ktrace_ctx ctx __uninitialized;
	int ret;

	ret = __ktrace_reserve(buf, sizeof(struct ktrace_compact), &ctx);
	if (ret)
		return ret;
	ktrace_put_compact(ctx.data, id, ctx.clock, payload);
	ktrace_buf_commit_bytes(buf, ctx.slot, ctx.size);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(ktrace_buf_write_compact);

/*
 * Hand completed subbuffers to relay, in order.  Runs in irq_work on the
 * buffer's CPU, or from ktrace_buf_sync() once writers are stopped.
 */
static void ktrace_deliver(struct ktrace_buf *buf)
{
	unsigned long nr = 1UL << buf->nr_shift;
	unsigned long sb_size = 1UL << buf->sb_shift;

	for (;;) {
		unsigned long sb = buf->delivered;
		unsigned long full = ((sb >> buf->nr_shift) + 1) << buf->sb_shift;
		unsigned long commit = local_read(&buf->commit[sb & (nr - 1)]);
		struct ktrace_subbuf_header *h;
		size_t size;

		if ((long)(commit - full) < 0)
			break;
		/* The count before the header it covers: pairs with smp_wmb()
		 * in ktrace_buf_commit_bytes().
		 */
		smp_rmb();
		h = ktrace_buf_ptr(buf, sb << buf->sb_shift);
		size = sizeof(*h) + READ_ONCE(h->data_size);
		/*
		 * Delivery ran late and the writer has started reusing the
		 * slot (overwrite mode): its header is no longer this use's.
		 * relay still counts the subbuffer, so that its numbering
		 * stays the writer's, but with no data; ktrace_buf_read()
		 * finds it overwritten, and the writer counted its events so.
		 * The size is clamped in any case: the memory is relay's,
		 * which a reader may have mapped.
		 */
		if (commit != full || local_read(&buf->offset) > (sb + nr) << buf->sb_shift ||
		    size > sb_size)
			size = sizeof(*h);
		if (buf->rbuf) {
			buf->rbuf->offset = size;
			relay_switch_subbuf(buf->rbuf, 0);
		}
		/* Pairs with smp_load_acquire() in ktrace_buf_read(). */
		smp_store_release(&buf->delivered, sb + 1);
		atomic_long_inc(&ktrace_deliveries);
		/* Pairs with the barrier in wq_has_sleeper(): see its comment. */
		if (wq_has_sleeper(&ktrace_readers_wait))
			wake_up(&ktrace_readers_wait);
	}
}

static void ktrace_deliver_work(struct irq_work *work)
{
	ktrace_deliver(container_of(work, struct ktrace_buf, deliver_work));
}

/**
 * ktrace_buf_read() - copy out the oldest unread subbuffer and consume it
 * @buf: the buffer
 * @dst: where the header and records go
 * @max: bytes at @dst, at least a subbuffer
 *
 * Any context but NMI, on any CPU, while the writers run or not; callers
 * serialise their reads of one buffer.  What is copied is exactly what the
 * writers committed in that subbuffer: if the writer started reusing the
 * slot during the copy (overwrite mode), the copy is discarded, and the
 * subbuffer's events were counted as overwritten by the writer.  See the
 * diagram at the top of this file.
 *
 * Return: the bytes copied (the header and its data_size bytes);
 * -ENODATA if no complete subbuffer is unread; -EAGAIN if the subbuffer
 * was overwritten during the copy (the next call reads the one after it,
 * once the writer has claimed it); -EBADMSG if its header was corrupt (it
 * is consumed); -ENOSPC if @max is too small.
 */
int ktrace_buf_read(struct ktrace_buf *buf, void *dst, size_t max)
{
	unsigned long sb_size = 1UL << buf->sb_shift;
	unsigned long nr = 1UL << buf->nr_shift;
	struct ktrace_subbuf_header *h = dst;
	long s = atomic_long_read(&buf->rpos);
	unsigned long events;
	bool valid;
	size_t len;

	if (max < sb_size)
		return -ENOSPC;
	/* Pairs with smp_store_release() in ktrace_deliver(). */
	if ((unsigned long)s >= smp_load_acquire(&buf->delivered))
		return -ENODATA;
	memcpy(h, ktrace_buf_ptr(buf, s << buf->sb_shift), sizeof(*h));
	len = sizeof(*h) + h->data_size;
	valid = len <= sb_size && h->magic == KTRACE_MAGIC && h->seq == s;
	if (!valid)
		len = sizeof(*h);
	memcpy(h + 1, ktrace_buf_ptr(buf, (s << buf->sb_shift) + sizeof(*h)),
	       len - sizeof(*h));
	/*
	 * The copy before the offset: if the writer's reservation in the
	 * slot's next use is not seen here, nothing it wrote was copied.
	 * Pairs with smp_wmb() in ktrace_reserve().
	 */
	smp_rmb();
	if (local_read(&buf->offset) > (s + nr) << buf->sb_shift)
		return -EAGAIN;
	/*
	 * Its event count before the cmpxchg: only the writer's collect of s
	 * zeroes it (overwrite mode), and that writer claims s first, which
	 * fails the cmpxchg below.  After it, the writer may be there already.
	 */
	events = local_read(ktrace_sb_events(buf, s));
	/* Fully ordered; fails if the writer claimed s, having reused it. */
	if (!atomic_long_try_cmpxchg(&buf->rpos, &s, s + 1))
		return -EAGAIN;
	if (likely(valid))
		return len;
	/*
	 * Not overwritten, yet not what the writer wrote: only a reader
	 * that wrote into relay's mapping can cause that.  The subbuffer is
	 * consumed, its events lost unread: counted with the overwritten
	 * ones (ktrace_buf_stats()), so that events = read + dropped +
	 * overwritten still holds.
	 */
	WRITE_ONCE(buf->corrupt_lost, buf->corrupt_lost + events);
	return -EBADMSG;
}
EXPORT_SYMBOL_IF_KUNIT(ktrace_buf_read);

/**
 * ktrace_buf_create_at() - set up the writer's state, its counts given
 * @start: the buffer memory, @nr_subbufs * @sb_size bytes
 * @rbuf: relay's buffer over @start, or %NULL (tests, or @start elsewhere)
 * @channel: enum ktrace_channel_id, for the headers
 * @cpu: the CPU of the buffer
 * @sb_size: bytes per subbuffer, a power of two
 * @nr_subbufs: number of subbuffers, a power of two, at least 2
 * @overwrite: overwrite rather than drop when full
 * @commit: @nr_subbufs zeroed commit counts, or %NULL to allocate them
 * @sb_events: 2 * @nr_subbufs zeroed event counts, or %NULL likewise
 *
 * The persistent recorder gives counts in its region (persist.c), where
 * the next boot reads them; they are the caller's to free.
 *
 * Return: the buffer, or an ERR_PTR(): -EINVAL for bad sizes, -ENOMEM.
 */
struct ktrace_buf *ktrace_buf_create_at(void *start, struct rchan_buf *rbuf,
					u8 channel, unsigned int cpu,
					size_t sb_size, size_t nr_subbufs,
					bool overwrite, local_t *commit,
					local_t *sb_events)
{
	struct ktrace_buf *buf;

	if (!is_power_of_2(sb_size) || !is_power_of_2(nr_subbufs) ||
	    nr_subbufs < 2 || sb_size < 2 * KTRACE_SUBBUF_START ||
	    !commit != !sb_events)
		return ERR_PTR(-EINVAL);

	buf = kzalloc(sizeof(*buf), GFP_KERNEL);
	if (!buf)
		return ERR_PTR(-ENOMEM);
	if (commit) {
		buf->commit = commit;
		buf->sb_events = sb_events;
		buf->counts_given = true;
	} else {
		buf->commit = kcalloc(nr_subbufs, sizeof(*buf->commit), GFP_KERNEL);
		if (!buf->commit)
			goto free_buf;
		buf->sb_events = kcalloc(2 * nr_subbufs, sizeof(*buf->sb_events),
					 GFP_KERNEL);
		if (!buf->sb_events)
			goto free_commit;
	}

	buf->start = start;
	buf->rbuf = rbuf;
	buf->channel = channel;
	buf->cpu = cpu;
	buf->overwrite = overwrite;
	buf->sb_shift = ilog2(sb_size);
	buf->nr_shift = ilog2(nr_subbufs);
	init_irq_work(&buf->deliver_work, ktrace_deliver_work);
	return buf;

free_commit:
	kfree(buf->commit);
free_buf:
	kfree(buf);
	return ERR_PTR(-ENOMEM);
}
EXPORT_SYMBOL_IF_KUNIT(ktrace_buf_create_at);

/**
 * ktrace_buf_create() - set up the writer's state over a buffer memory
 * @start: the buffer memory, @nr_subbufs * @sb_size bytes
 * @rbuf: relay's buffer over @start, or %NULL (tests)
 * @channel: enum ktrace_channel_id, for the headers
 * @cpu: the CPU of the buffer
 * @sb_size: bytes per subbuffer, a power of two
 * @nr_subbufs: number of subbuffers, a power of two, at least 2
 * @overwrite: overwrite rather than drop when full
 *
 * Return: as ktrace_buf_create_at().
 */
struct ktrace_buf *ktrace_buf_create(void *start, struct rchan_buf *rbuf,
				     u8 channel, unsigned int cpu,
				     size_t sb_size, size_t nr_subbufs,
				     bool overwrite)
{
	return ktrace_buf_create_at(start, rbuf, channel, cpu, sb_size,
				    nr_subbufs, overwrite, NULL, NULL);
}
EXPORT_SYMBOL_IF_KUNIT(ktrace_buf_create);

/**
 * ktrace_buf_destroy() - free the writer's state
 * @buf: the buffer, with no writer left
 */
void ktrace_buf_destroy(struct ktrace_buf *buf)
{
	if (!buf)
		return;
	irq_work_sync(&buf->deliver_work);
	if (!buf->counts_given) {
		kfree(buf->sb_events);
		kfree(buf->commit);
	}
	kfree(buf);
}
EXPORT_SYMBOL_IF_KUNIT(ktrace_buf_destroy);

/**
 * ktrace_buf_flush() - close the current subbuffer
 * @buf: the buffer
 *
 * Call on the buffer's CPU with preemption disabled once writers are
 * stopped, or anywhere if no writer is possible (an offline CPU).  A
 * subbuffer that holds nothing but its header and timestamp stays open.
 * ktrace_buf_sync() then waits for the delivery.
 */
void ktrace_buf_flush(struct ktrace_buf *buf)
{
	unsigned long sb_size = 1UL << buf->sb_shift;
	unsigned long old, pos;

	do {
		old = local_read(&buf->offset);
		pos = old & (sb_size - 1);
		if (pos <= KTRACE_SUBBUF_START)
			break;
	} while (local_cmpxchg(&buf->offset, old, ALIGN(old, sb_size)) != old);

	if (pos > KTRACE_SUBBUF_START)
		ktrace_end_subbuf(buf, old);
}
EXPORT_SYMBOL_IF_KUNIT(ktrace_buf_flush);

/**
 * ktrace_buf_drained() - whether a reader has had everything written
 * @buf: the buffer, its writers stopped or frozen
 *
 * Return: true if every delivered subbuffer was consumed and no record
 * waits in an open one (only its header and timestamp, or none).
 */
bool ktrace_buf_drained(struct ktrace_buf *buf)
{
	unsigned long sb_size = 1UL << buf->sb_shift;
	unsigned long off = local_read(&buf->offset);

	return atomic_long_read(&buf->rpos) >= (long)READ_ONCE(buf->delivered) &&
	       (off & (sb_size - 1)) <= KTRACE_SUBBUF_START;
}
EXPORT_SYMBOL_IF_KUNIT(ktrace_buf_drained);

/**
 * ktrace_buf_peek() - copy a subbuffer out without consuming it
 * @buf: the buffer, its writers stopped or frozen
 * @back: 0 for the subbuffer being written (or the last one, if none is
 *	open), 1 for the one before it, and so on
 * @dst: where the header and records go
 * @max: bytes at @dst, at least a subbuffer
 *
 * For the dump at a panic, where other CPUs are stopped wherever they
 * were: lockless, and it trusts nothing it reads.  The copy of an open
 * subbuffer gets the data size written so far; a record a stopped CPU
 * had reserved but not written may decode as garbage at its end.
 *
 * Return: the bytes copied, -ENODATA if there is no such subbuffer (never
 * written, or overwritten since), -ENOSPC if @max is too small.
 */
int ktrace_buf_peek(struct ktrace_buf *buf, unsigned long back, void *dst,
		    size_t max)
{
	unsigned long sb_size = 1UL << buf->sb_shift;
	unsigned long off = local_read(&buf->offset);
	unsigned long pos = off & (sb_size - 1);
	unsigned long top = off >> buf->sb_shift, sb;
	struct ktrace_subbuf_header *h = dst;
	size_t len;

	if (max < sb_size)
		return -ENOSPC;
	if (!pos) {
		if (!top)
			return -ENODATA;
		top--;
	}
	if (back > top || back >= (1UL << buf->nr_shift))
		return -ENODATA;
	sb = top - back;
	memcpy(dst, ktrace_buf_ptr(buf, sb << buf->sb_shift), sb_size);
	if (h->magic != KTRACE_MAGIC || h->seq != sb)
		return -ENODATA;
	len = sb == off >> buf->sb_shift ? pos : sizeof(*h) + h->data_size;
	if (len < KTRACE_SUBBUF_START || len > sb_size)
		return -ENODATA;
	h->data_size = len - sizeof(*h);
	return len;
}
EXPORT_SYMBOL_IF_KUNIT(ktrace_buf_peek);

/**
 * ktrace_buf_clock_changed() - have a timestamp record before the next record
 * @buf: the buffer
 *
 * For a new start, or a change of the clock: the next record's full clock
 * value is then in the buffer, whatever the clock did meanwhile.  The
 * buffer's clock never goes back, not even across the change from the
 * TSC to tsc-mono (which goes on from the TSC of the CPU that changed it,
 * maybe far behind this buffer's, if this CPU's TSC jumped ahead before
 * it was found unstable): if the clock is now behind the last record, the
 * buffer's clock is offset by the difference, so that it goes on from
 * that record at the clock's rate.  The offset is the least that keeps
 * the clock from going back: it is taken again at every change and start,
 * and is 0 once the clock caught up (after a stop long enough).  Call
 * with the writers stopped, from any CPU: the clock read here is the new
 * one, which is the same on every CPU but for the skew of a stable TSC,
 * which the clamp in ktrace_reserve() absorbs.
 */
void ktrace_buf_clock_changed(struct ktrace_buf *buf)
{
	u64 now = ktrace_buf_clock(buf), last = READ_ONCE(buf->last_clock);

	buf->clock_offset = last > now ? last - now : 0;
	WRITE_ONCE(buf->last_end, KTRACE_END_UNKNOWN);
}
EXPORT_SYMBOL_IF_KUNIT(ktrace_buf_clock_changed);

/**
 * ktrace_buf_set_cpu_dying() - stop or resume queueing deliveries
 * @buf: the buffer
 * @dying: true on buf->cpu in its offline callback, before its last flush
 *	(which ktrace_buf_sync() then delivers); false on buf->cpu in its
 *	online callback
 */
void ktrace_buf_set_cpu_dying(struct ktrace_buf *buf, bool dying)
{
	WRITE_ONCE(buf->cpu_dying, dying);
}
EXPORT_SYMBOL_IF_KUNIT(ktrace_buf_set_cpu_dying);

/**
 * ktrace_buf_sync() - deliver every completed subbuffer
 * @buf: the buffer, its writers stopped
 *
 * Process context.  Waits for a pending delivery, then delivers what is
 * left.  The wait ends: a delivery is queued only on buf->cpu, and never
 * once it is going offline (ktrace_buf_set_cpu_dying()), so none is left
 * on a CPU that will not run it.
 */
void ktrace_buf_sync(struct ktrace_buf *buf)
{
	irq_work_sync(&buf->deliver_work);
	ktrace_deliver(buf);
}
EXPORT_SYMBOL_IF_KUNIT(ktrace_buf_sync);

/**
 * ktrace_buf_stats() - read a buffer's counters
 * @buf: the buffer
 * @st: the counters
 */
void ktrace_buf_stats(struct ktrace_buf *buf, struct ktrace_buf_stats *st)
{
	st->events = local_read(&buf->events);
	st->bytes = local_read(&buf->bytes);
	st->dropped = local_read(&buf->dropped);
	st->overwritten = local_read(&buf->overwritten) + READ_ONCE(buf->corrupt_lost);
	st->timestamps = local_read(&buf->timestamps);
	st->subbufs = READ_ONCE(buf->delivered);
	st->used = local_read(&buf->offset);
	st->torn_reads = READ_ONCE(buf->torn_reads);
}
EXPORT_SYMBOL_IF_KUNIT(ktrace_buf_stats);
