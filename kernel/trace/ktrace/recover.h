/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Checking what a kernel that is gone left in its buffers: the crash table
 * (include/uapi/linux/ktrace.h) and each subbuffer it describes.  Shared
 * by the kernel (persist.c: the previous boot's trace, from the persistent
 * region) and tools/ktrace (extract --vmcore), so that both keep exactly
 * the same subbuffers.  Nothing read is trusted: every function takes
 * copies, and bad input only gives a reason, never an access out of what
 * the caller gave.
 */
#ifndef _KTRACE_RECOVER_H
#define _KTRACE_RECOVER_H

#include <linux/types.h>
#include <uapi/linux/ktrace.h>

/* Subbuffers from 512 bytes to 16 MiB, 2 to 2^20 of them, 1 GiB at most. */
#define KTRACE_SB_SHIFT_MIN	9
#define KTRACE_SB_SHIFT_MAX	24
#define KTRACE_NR_SHIFT_MAX	20
#define KTRACE_BUF_SHIFT_MAX	30

/* What a subbuffer slot was found to be (struct ktrace_recover_stats). */
enum ktrace_recover_reason {
	KTRACE_RECOVER_OK,	/* kept, whole or cut at its commit count */
	KTRACE_RECOVER_EMPTY,	/* never written in this use: not counted */
	KTRACE_RECOVER_STALE,	/* consumed or overwritten before the crash */
	KTRACE_RECOVER_HEADER,	/* header: magic, version, channel, cpu, slot */
	KTRACE_RECOVER_COMMIT,	/* commit count inconsistent with the header */
	KTRACE_RECOVER_RECORD,	/* a record truncated, or its id unknown */
	KTRACE_RECOVER_CLOCK,	/* a record's clock going back */
	KTRACE_RECOVER_UNCOMMITTED, /* open, and its committed bytes end in a record */
	KTRACE_RECOVER_SUM,	/* changed since the crash path froze it */
	KTRACE_RECOVER_NR_REASONS,
};

/* Valid event ids, per channel, from the recovered metadata. */
struct ktrace_recover_ids {
	bool known;			/* some metadata was found */
	u32 compact[KTRACE_NR_CHANNELS];	/* bit id: a compact id described */
	/* bit major << 8 | minor: an expanded event described */
	unsigned long expanded[KTRACE_NR_CHANNELS][65536 / (8 * sizeof(unsigned long))];
};

/**
 * struct ktrace_recover_stats - what was found in one buffer
 * @subbufs: per enum ktrace_recover_reason, the slots found so
 * @events: events kept
 * @lost: events the writer counted in slots that were not kept, or in
 *	the uncommitted end of the open subbuffer
 * @cut: the open subbuffer was kept up to its commit count, short of the
 *	write position (a writer stopped between reserving and committing)
 */
struct ktrace_recover_stats {
	u64 subbufs[KTRACE_RECOVER_NR_REASONS];
	u64 events;
	u64 lost;
	bool cut;
};

/*
 * ktrace_recover_buf()'s way to the memory of a buffer: copy slot @slot
 * (1 << sb_shift bytes) to @dst; 0 or a negative errno (unreadable).
 */
typedef int (*ktrace_recover_read_fn)(void *ctx, unsigned long slot, void *dst);
/* ... and where the subbuffers it keeps go, oldest first. */
typedef int (*ktrace_recover_emit_fn)(void *ctx, const void *sb, size_t len);

const char *ktrace_recover_reason_name(int reason);
u32 ktrace_crash_csum(const struct ktrace_crash_header *h,
		      const struct ktrace_crash_buf *bufs);
int ktrace_crash_check_header(const struct ktrace_crash_header *h);
int ktrace_crash_check_buf(const struct ktrace_crash_header *h,
			   const struct ktrace_crash_buf *b, unsigned int index);
u64 ktrace_recover_sum(const void *sb, size_t len);
size_t ktrace_recover_slot_end(const struct ktrace_crash_buf *b, const void *sb,
			       u64 commit);
void ktrace_recover_sums(const struct ktrace_crash_buf *b, const void *data,
			 const u64 *commit, u64 *sums);
int ktrace_recover_buf(const struct ktrace_crash_header *h,
		       const struct ktrace_crash_buf *b, const u64 *commit,
		       const u64 *sb_events, const u64 *sums,
		       const struct ktrace_recover_ids *ids,
		       ktrace_recover_read_fn read, ktrace_recover_emit_fn emit,
		       void *ctx, void *scratch, struct ktrace_recover_stats *st);
void ktrace_recover_add_meta(struct ktrace_recover_ids *ids, const void *sb,
			     size_t len);

#endif /* _KTRACE_RECOVER_H */
