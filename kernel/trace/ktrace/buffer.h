/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ktrace per-CPU buffers: lockless reservation over relay's memory.
 *
 * See buffer.c for the design.  A writer does
 *
 *	struct ktrace_ctx ctx;
 *
 *	if (!ktrace_reserve(buf, len, &ctx)) {
 *		... write len bytes at ctx.data, with clock ctx.clock ...
 *		ktrace_commit(&ctx);
 *	}
 *
 * with preemption disabled, from any context including NMI.
 */
#ifndef _KTRACE_BUFFER_H
#define _KTRACE_BUFFER_H

#include <linux/atomic.h>
#include <linux/irq_work.h>
#include <linux/types.h>
#include <linux/wait.h>
#include <asm/local.h>

#include "format.h"

struct rchan;
struct rchan_buf;

/**
 * struct ktrace_buf_stats - what one CPU's buffer of a channel counts
 * @events: events that reached the buffer: written, or dropped; so
 *	events = read + dropped + overwritten
 * @bytes: bytes of records reserved, with the timestamp records written
 *	inline (not the header and timestamp that start each subbuffer)
 * @dropped: events refused: buffer full in drop mode, or too deep nesting
 * @overwritten: events lost unread to overwrite mode, or with a
 *	subbuffer whose header a writer into relay's mapping corrupted
 * @timestamps: timestamp records written
 * @subbufs: subbuffers completed and handed to relay
 * @used: bytes of buffer used since it was allocated: records, subbuffer
 *	headers and padding
 * @torn_reads: copies of subbuffers that readers discarded because the
 *	writer overwrote the subbuffer during the copy (its events are
 *	counted in @overwritten)
 */
struct ktrace_buf_stats {
	u64 events;
	u64 bytes;
	u64 dropped;
	u64 overwritten;
	u64 timestamps;
	u64 subbufs;
	u64 used;
	u64 torn_reads;
};

/**
 * struct ktrace_buf - one CPU's buffer of one channel
 * @offset: the write position, in bytes since the buffer was created,
 *	over all subbuffers: subbuffer number offset >> sb_shift, at byte
 *	offset & (sb_size - 1) of it
 * @commit: per subbuffer slot, bytes committed over all its uses; use u
 *	of a slot is complete when it reaches (u + 1) * sb_size
 * @sb_events: per subbuffer slot, events reserved in its uses, one count
 *	for even uses and one for odd (see ktrace_sb_events())
 * @last_clock: clock of the last record reserved, to decide on timestamp
 *	records and to clamp the clock; kept across clock changes
 * @clock_offset: added to the clock read: how far the clock was behind
 *	@last_clock at the last change (ktrace_buf_clock_changed()), so that
 *	the buffer's clock goes on from there at the clock's rate
 * @last_end: where the record of @last_clock ends; a writer whose record
 *	does not start there writes a timestamp record; unknown (%ULONG_MAX)
 *	while a writer changes @last_clock, and after a clock change
 * @events: see struct ktrace_buf_stats, and the same for the rest
 * @bytes: see struct ktrace_buf_stats
 * @dropped: see struct ktrace_buf_stats
 * @overwritten: see struct ktrace_buf_stats
 * @timestamps: see struct ktrace_buf_stats
 * @delivered: subbuffers handed to relay; only ktrace_deliver() writes it
 * @rpos: the next subbuffer a reader gets: moved by the reader that
 *	consumes a subbuffer, or by the writer that overwrites one unread
 * @torn_reads: see struct ktrace_buf_stats; readers count it, serialised
 *	by their lock (channel.c)
 * @corrupt_lost: events of subbuffers consumed with a corrupt header
 *	(-EBADMSG from ktrace_buf_read()), counted in @overwritten of
 *	struct ktrace_buf_stats; readers count it, as @torn_reads
 * @deliver_work: runs ktrace_deliver() on this CPU
 * @cpu_dying: set on @cpu once it is going offline, cleared when it is
 *	online again: a subbuffer completed meanwhile is not queued on
 *	@deliver_work, which would be stranded on the dead CPU (and
 *	irq_work_sync() spin forever), but left to ktrace_buf_sync()
 * @start: the buffer memory (relay's vmap'd area)
 * @rbuf: relay's buffer, for its reader bookkeeping
 * @overwrite: overwrite (flight recorder) rather than drop when full
 * @counts_given: @commit and @sb_events are the creator's (the persistent
 *	region's), not to be freed here
 * @channel: enum ktrace_channel_id, for the subbuffer headers
 * @cpu: the CPU this buffer belongs to
 * @sb_shift: log2 of the subbuffer size
 * @nr_shift: log2 of the number of subbuffers
 * @clock_override: KUnit only: read the clock from here when set
 * @nested_hook: KUnit only: when set, cleared and called once right after
 *	a reservation's cmpxchg, and (set again) between its stores of
 *	@last_clock and @last_end: where a nested writer can interrupt it
 */
struct ktrace_buf {
	local_t offset;
	local_t *commit;
	local_t *sb_events;
	u64 last_clock;
	u64 clock_offset;
	unsigned long last_end;
	local_t events;
	local_t bytes;
	local_t dropped;
	local_t overwritten;
	local_t timestamps;
	unsigned long delivered;
	atomic_long_t rpos;
	unsigned long torn_reads;
	unsigned long corrupt_lost;
	struct irq_work deliver_work;
	bool cpu_dying;
	void *start;
	struct rchan_buf *rbuf;
	bool overwrite;
	bool counts_given;
	u8 channel;
	int cpu;
	unsigned int sb_shift;
	unsigned int nr_shift;
	u64 *clock_override;
	void (*nested_hook)(struct ktrace_buf *buf);
};

/**
 * struct ktrace_ctx - a reservation
 * @buf: the buffer
 * @data: where the caller writes its record
 * @clock: the clock value the record carries
 * @slot: the subbuffer slot of the record
 * @size: bytes to commit: the record and its timestamp record, if any
 */
struct ktrace_ctx {
	struct ktrace_buf *buf;
	void *data;
	u64 clock;
	unsigned long slot;
	unsigned long size;
};

/* The subbuffer header and the timestamp record that starts every subbuffer. */
#define KTRACE_SUBBUF_START \
	(sizeof(struct ktrace_subbuf_header) + sizeof(struct ktrace_timestamp))

extern struct wait_queue_head ktrace_readers_wait;
extern atomic_long_t ktrace_deliveries;

int ktrace_reserve(struct ktrace_buf *buf, unsigned long len,
		   struct ktrace_ctx *ctx);
void ktrace_commit(struct ktrace_ctx *ctx);
int ktrace_buf_write_compact(struct ktrace_buf *buf, unsigned int id,
			     u32 payload);

struct ktrace_buf *ktrace_buf_create(void *start, struct rchan_buf *rbuf,
				     u8 channel, unsigned int cpu,
				     size_t sb_size, size_t nr_subbufs,
				     bool overwrite);
struct ktrace_buf *ktrace_buf_create_at(void *start, struct rchan_buf *rbuf,
					u8 channel, unsigned int cpu,
					size_t sb_size, size_t nr_subbufs,
					bool overwrite, local_t *commit,
					local_t *sb_events);
void ktrace_buf_destroy(struct ktrace_buf *buf);
void ktrace_buf_flush(struct ktrace_buf *buf);
int ktrace_buf_read(struct ktrace_buf *buf, void *dst, size_t max);
int ktrace_buf_peek(struct ktrace_buf *buf, unsigned long back, void *dst,
		    size_t max);
void ktrace_buf_clock_changed(struct ktrace_buf *buf);
void ktrace_buf_set_cpu_dying(struct ktrace_buf *buf, bool dying);
void ktrace_buf_sync(struct ktrace_buf *buf);
void ktrace_buf_stats(struct ktrace_buf *buf, struct ktrace_buf_stats *st);
bool ktrace_buf_drained(struct ktrace_buf *buf);

#endif /* _KTRACE_BUFFER_H */
