// SPDX-License-Identifier: GPL-2.0
/*
 * ktrace's block events, 8 bytes per request step.  A bio is described
 * when it is queued (block:bio_queue, 24 bytes: struct ktrace_blk_desc),
 * when it is queued again after a remap (NVMe multipath resubmits the same
 * bio to a path: bio_queue again), or when it is split (block:bio_split
 * describes the front part); the request events (insert, issue, requeue,
 * complete) are compact and carry only the key of the description
 * (ktrace_blk_key(): dev, sector, sectors, operation, flags).  A request
 * that is not exactly one described bio (merged bios, the rest of a split
 * bio, a passthrough or flush request, a request after a partial
 * completion, or any request while bio_queue or bio_split is off) is
 * described once by block:rq_describe, before its first event.
 *
 * What a decoder gets from this is honest even when the description was
 * lost (overwritten, or written before the trace started): the key then
 * matches no description and the request shows as unknown, never as
 * another one, because the key hashes the whole identity.
 *
 * A completion that is partial or failed is block:rq_status (12 bytes:
 * the key, the bytes done, the errno) instead of block:rq_complete.
 * Both end the request: decoders forget its description.
 */
#include <linux/blk-mq.h>
#include <linux/blkdev.h>
#include <linux/blktrace_api.h>
#include <linux/slab.h>
#include <trace/events/block.h>

#include "tracepoints.h"

static const struct ktrace_field kt_rq_fields[] = {
	KT_FIELD("rq", 0, 32, KTRACE_DISPLAY_KEY),
};

/* The request ends here: a decoder forgets its description. */
static const struct ktrace_field kt_rq_end_fields[] = {
	{ .name = "rq", .offset = 0, .size = 32, .display = KTRACE_DISPLAY_KEY,
	  .flags = KTRACE_FIELD_KEY_END },
};

KT_EVENT(kt_ev_bio_queue, "block", "bio_queue", KTRACE_CHANNEL_HIGH,
	 KTRACE_EVENT_EXPANDED, kt_blk_desc);
KT_EVENT(kt_ev_bio_split, "block", "bio_split", KTRACE_CHANNEL_HIGH,
	 KTRACE_EVENT_EXPANDED, kt_blk_desc);
/* Written by the request events, when enabled itself. */
KT_EVENT(kt_ev_rq_describe, "block", "rq_describe", KTRACE_CHANNEL_HIGH,
	 KTRACE_EVENT_EXPANDED, kt_blk_desc);
KT_EVENT(kt_ev_rq_insert, "block", "rq_insert", KTRACE_CHANNEL_HIGH, KTRACE_EVENT_COMPACT, kt_rq);
KT_EVENT(kt_ev_rq_issue, "block", "rq_issue", KTRACE_CHANNEL_HIGH, KTRACE_EVENT_COMPACT, kt_rq);
KT_EVENT(kt_ev_rq_requeue, "block", "rq_requeue", KTRACE_CHANNEL_HIGH, KTRACE_EVENT_COMPACT, kt_rq);
KT_EVENT(kt_ev_rq_complete, "block", "rq_complete", KTRACE_CHANNEL_HIGH,
	 KTRACE_EVENT_COMPACT, kt_rq_end);
/* Written by block:rq_complete's probe, when enabled itself. */
KT_EVENT(kt_ev_rq_status, "block", "rq_status", KTRACE_CHANNEL_HIGH,
	 KTRACE_EVENT_EXPANDED, kt_blk_status);

/*
 * Keys of the requests block:rq_describe described and that have not
 * ended, so that such a request is described once, not at each of its
 * events.  Lossy and racy by design, never wrong beyond the keys
 * themselves: a slot holds one key, so two requests sharing a slot, or
 * two CPUs racing on it, only make a description be written twice; and a
 * key found here whose description the decoder lacks (lost, or written
 * while tracing was off) shows as unknown.  Key 0 is never kept.
 */
#define KT_RQ_KEYS	256
static u32 kt_rq_keys[KT_RQ_KEYS];

/*
 * Whether the bio queued, remapped or split event that made @rq described
 * it exactly: the request is that one bio, on the disk it was queued to,
 * not completed in part since (blk_update_request() clears
 * BIO_TRACE_COMPLETION on every bio it touches; bio_queue set it), with
 * the same operation and flags, and both bio events are on.  False
 * whenever in doubt: a description too many costs 24 bytes.  A wrong
 * "true" costs an unknown request, never a wrong one: the key then matches
 * no description.
 */
static __always_inline bool kt_rq_described(struct request *rq)
{
	struct bio *bio = rq->bio;

	/*
	 * The same operation and flags in one test: kt_blk_flags() maps each
	 * bit of KT_BLK_REQ_FLAGS to its own, and ignores the others.
	 */
	return bio && bio == rq->biotail && !blk_rq_is_passthrough(rq) &&
	       !((bio->bi_opf ^ rq->cmd_flags) & (REQ_OP_MASK | KT_BLK_REQ_FLAGS)) &&
	       (bio->bi_flags & (BIT(BIO_TRACE_COMPLETION) | BIT(BIO_CHAIN))) ==
			BIT(BIO_TRACE_COMPLETION) &&
	       bio->bi_bdev && bio->bi_bdev->bd_disk == rq->q->disk &&
	       req_op(rq) != REQ_OP_ZONE_APPEND &&
	       bio->bi_iter.bi_sector == blk_rq_pos(rq) &&
	       bio->bi_iter.bi_size == blk_rq_bytes(rq) &&
	       READ_ONCE(kt_ev_bio_queue.enabled) && READ_ONCE(kt_ev_bio_split.enabled);
}

/* As blktrace and ftrace: no sector for passthrough and flush requests. */
static __always_inline void kt_rq_desc_fill(struct ktrace_blk_desc *d, struct request *rq)
{
	kt_blk_desc_fill(d, rq->q->disk ? disk_devt(rq->q->disk) : 0,
			 blk_rq_trace_sector(rq), blk_rq_bytes(rq), rq->cmd_flags);
}

/*
 * Describe @rq by block:rq_describe unless done already.  Out of line: the
 * description then stays in registers on the hot path, where most requests
 * were described by their bio.
 */
static noinline void kt_rq_describe(struct request *rq, u32 key)
{
	u32 *slot = &kt_rq_keys[key % KT_RQ_KEYS];
	struct ktrace_blk_desc d;

	if (key && READ_ONCE(*slot) == key)
		return;
	kt_rq_desc_fill(&d, rq);
	if (!ktrace_write_expanded(kt_ev_rq_describe.channel, kt_ev_rq_describe.major,
				   kt_ev_rq_describe.minor, &d, sizeof(d)) && key)
		WRITE_ONCE(*slot, key);
}

/* The key of @rq, described first unless a bio event or an earlier step did it. */
static u32 kt_rq_key(struct request *rq)
{
	struct ktrace_blk_desc d;
	u32 key;

	kt_rq_desc_fill(&d, rq);
	key = ktrace_blk_key(&d);
	if (likely(kt_rq_described(rq)) || !READ_ONCE(kt_ev_rq_describe.enabled))
		return key;
	kt_rq_describe(rq, key);
	return key;
}

/* The request of @key ended: the next of its identity is described again. */
static void kt_rq_end(u32 key)
{
	u32 *slot = &kt_rq_keys[key % KT_RQ_KEYS];

	/* Read first: most requests were described by their bio, not here. */
	if (key && READ_ONCE(*slot) == key)
		cmpxchg(slot, key, 0);
}

static void kt_probe_block_rq_insert(void *data, struct request *rq)
{
	ktrace_event_write_compact(&kt_ev_rq_insert, kt_rq_key(rq));
}

static void kt_probe_block_rq_issue(void *data, struct request *rq)
{
	ktrace_event_write_compact(&kt_ev_rq_issue, kt_rq_key(rq));
}

static void kt_probe_block_rq_requeue(void *data, struct request *rq)
{
	ktrace_event_write_compact(&kt_ev_rq_requeue, kt_rq_key(rq));
}

/* A partial or failed completion; out of line, as its record is not compact. */
static noinline void kt_rq_status(struct request *rq, blk_status_t error,
				  unsigned int nr_bytes)
{
	struct ktrace_blk_status e;
	u32 key;

	if (!READ_ONCE(kt_ev_rq_status.enabled))
		return;
	key = kt_rq_key(rq);
	kt_blk_status_fill(&e, key, nr_bytes, blk_status_to_errno(error));
	ktrace_event_write(&kt_ev_rq_status, &e, sizeof(e));
	kt_rq_end(key);
}

static void kt_probe_block_rq_complete(void *data, struct request *rq,
				       blk_status_t error, unsigned int nr_bytes)
{
	u32 key;

	if (unlikely(error || nr_bytes != blk_rq_bytes(rq))) {
		kt_rq_status(rq, error, nr_bytes);
		return;
	}
	key = kt_rq_key(rq);
	ktrace_event_write_compact(&kt_ev_rq_complete, key);
	kt_rq_end(key);
}

/* A bio as the request made of it will be: on the whole disk. */
static void kt_bio_write(struct ktrace_event *ev, struct bio *bio)
{
	struct ktrace_blk_desc d;

	kt_blk_desc_fill(&d, bio->bi_bdev ? disk_devt(bio->bi_bdev->bd_disk) : 0,
			 bio->bi_iter.bi_sector, bio->bi_iter.bi_size, bio->bi_opf);
	ktrace_event_write(ev, &d, sizeof(d));
}

static void kt_probe_block_bio_queue(void *data, struct bio *bio)
{
	kt_bio_write(&kt_ev_bio_queue, bio);
}

/*
 * A bio sent on to another disk.  Before it was queued (a partition's
 * remap), bio_queue will describe it as it ends up; a bio queued already
 * (NVMe multipath) is not queued again: describe it here.
 */
static void kt_probe_block_bio_remap(void *data, struct bio *bio, dev_t dev,
				     sector_t from)
{
	if (bio_flagged(bio, BIO_TRACE_COMPLETION))
		kt_bio_write(&kt_ev_bio_queue, bio);
}

/* @bio: the front part, split off; the rest goes on as the parent. */
static void kt_probe_block_split(void *data, struct bio *bio, unsigned int new_sector)
{
	kt_bio_write(&kt_ev_bio_split, bio);
}

KT_TP_PROBE(register_trace_block_bio_queue, kt_probe_block_bio_queue);
KT_TP_PROBE(register_trace_block_bio_remap, kt_probe_block_bio_remap);
KT_TP_PROBE(register_trace_block_split, kt_probe_block_split);
KT_TP_PROBE(register_trace_block_rq_insert, kt_probe_block_rq_insert);
KT_TP_PROBE(register_trace_block_rq_issue, kt_probe_block_rq_issue);
KT_TP_PROBE(register_trace_block_rq_requeue, kt_probe_block_rq_requeue);
KT_TP_PROBE(register_trace_block_rq_complete, kt_probe_block_rq_complete);

/* The events of block I/O, in registration order, and their tracepoints. */
static const struct kt_tp kt_block_tps[] = {
	KT_TP(kt_ev_bio_queue, register_trace_block_bio_queue),
	KT_TP(kt_ev_bio_queue, register_trace_block_bio_remap),
	KT_TP(kt_ev_bio_split, register_trace_block_split),
	KT_TP_NONE(kt_ev_rq_describe),
	KT_TP(kt_ev_rq_insert, register_trace_block_rq_insert),
	KT_TP(kt_ev_rq_issue, register_trace_block_rq_issue),
	KT_TP(kt_ev_rq_requeue, register_trace_block_rq_requeue),
	KT_TP(kt_ev_rq_complete, register_trace_block_rq_complete),
	KT_TP_NONE(kt_ev_rq_status),
};

KT_TP_TABLE(block);

#ifdef CONFIG_KTRACE_BENCH
static void __init kt_bench_rq_issue(void *arg)
{
	kt_probe_block_rq_issue(NULL, arg);
}

static void __init kt_bench_rq_complete(void *arg)
{
	kt_probe_block_rq_complete(NULL, arg, BLK_STS_OK, SZ_4K);
}

/* The parts of those probes, for their breakdown; the result kept. */
static u32 kt_bench_sink __initdata;

static void __init kt_bench_rq_key(void *arg)
{
	WRITE_ONCE(kt_bench_sink, kt_rq_key(arg));
}

static void __init kt_bench_rq_described(void *arg)
{
	WRITE_ONCE(kt_bench_sink, kt_rq_described(arg));
}

/*
 * See ktrace_probes_bench(): block:rq_issue and rq_complete of a request
 * that its bio described (a 4 KiB write of a request that never reaches a
 * driver); then, without writing, what both compute: the request's key
 * (its description filled and hashed, and whether its bio described it),
 * and of that the check of whether its bio described it.
 */
void __init kt_block_bench(void (*report)(const char *name, u64 ns))
{
	struct request_queue *q = kzalloc(sizeof(*q), GFP_KERNEL);
	struct request *rq = kzalloc(sizeof(*rq), GFP_KERNEL);
	struct bio *bio = kzalloc(sizeof(*bio), GFP_KERNEL);
	bool bq = kt_ev_bio_queue.enabled, bs = kt_ev_bio_split.enabled;

	if (!q || !rq || !bio)
		goto free;
	bio->bi_opf = REQ_OP_WRITE | REQ_SYNC;
	bio->bi_iter.bi_sector = 800;
	bio->bi_iter.bi_size = SZ_4K;
	rq->q = q;
	rq->bio = bio;
	rq->biotail = bio;
	rq->cmd_flags = bio->bi_opf;
	rq->__sector = 800;
	rq->__data_len = SZ_4K;
	/* Described by its bio: the events the probes check, not their sources. */
	WRITE_ONCE(kt_ev_bio_queue.enabled, true);
	WRITE_ONCE(kt_ev_bio_split.enabled, true);
	report("block:rq_issue", kt_bench_loop(kt_bench_rq_issue, rq));
	report("block:rq_complete", kt_bench_loop(kt_bench_rq_complete, rq));
	report("block key, no write", kt_bench_loop(kt_bench_rq_key, rq));
	report("block key's described check", kt_bench_loop(kt_bench_rq_described, rq));
	WRITE_ONCE(kt_ev_bio_queue.enabled, bq);
	WRITE_ONCE(kt_ev_bio_split.enabled, bs);
free:
	kfree(bio);
	kfree(rq);
	kfree(q);
}
#endif
