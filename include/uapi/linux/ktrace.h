/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * ktrace trace format: what a decoder needs, and nothing else.
 *
 * A trace is a set of streams, one per CPU and channel.  A stream is a
 * sequence of subbuffers of one size; each subbuffer starts with a
 * struct ktrace_subbuf_header, followed by data_size bytes of records.  A
 * subbuffer is decodable on its own: its first record is a timestamp record.
 *
 * Every record is a multiple of 4 bytes and starts with a 32-bit header word:
 *
 *    31      27 26                                  0
 *   +----------+-------------------------------------+
 *   |    id    |   clock >> shift, low 27 bits        |
 *   +----------+-------------------------------------+
 *
 *   id 0..29   compact event, 8 bytes: header word, 32-bit payload
 *   id 30      expanded event: header word, struct ktrace_expanded, then
 *              length payload bytes, padded with zeros to a multiple of 4
 *   id 31      timestamp record, 12 bytes: header word, the full 64-bit
 *              shifted clock
 *
 * A timestamp record is written at the start of every subbuffer, and before
 * any record whose clock differs from the previous record's above the low
 * 27 bits; so every record's full clock is the last timestamp record's with
 * the low 27 bits replaced, and no rollover has to be guessed.
 *
 * Compact event ids are per channel.  Expanded events are identified by
 * (major, minor) per channel; major 0 is the metadata.  The metadata
 * (struct ktrace_meta_*, as expanded events of major 0 on the low-rate
 * channel) describes the machine, the clock, the channels, and every event
 * with its fields, so that a decoder needs no built-in event table.
 *
 * Multi-byte values are in the byte order of the traced machine; a decoder
 * recognizes the other order by a byte-swapped magic.  64-bit values inside
 * records are split in two 32-bit words (low first) because records are
 * only 4-byte aligned.
 */
#ifndef _UAPI_LINUX_KTRACE_H
#define _UAPI_LINUX_KTRACE_H

#include <linux/types.h>

#define KTRACE_MAGIC		0x4b545243	/* "KTRC" */
/*
 * Version 2 added the flags and key displays, the ident, saturates and
 * key-end field flags, and the block events of struct ktrace_blk_desc.  A version 2
 * decoder reads version 1 traces unchanged: those only use what version 1
 * defines.
 */
#define KTRACE_FORMAT_VERSION	2
#define KTRACE_FORMAT_VERSION_MIN 1	/* the oldest version decoders read */

/* The record header word. */
#define KTRACE_CLOCK_BITS	27
#define KTRACE_CLOCK_MASK	((1U << KTRACE_CLOCK_BITS) - 1)
#define KTRACE_ID_BITS		5
#define KTRACE_ID_COMPACT_MAX	29		/* compact ids: 0..29 */
#define KTRACE_ID_EXPANDED	30
#define KTRACE_ID_TIMESTAMP	31
#define KTRACE_RECORD_ALIGN	4

#define KTRACE_HEADER(id, clock) \
	((__u32)(id) << KTRACE_CLOCK_BITS | ((__u32)(clock) & KTRACE_CLOCK_MASK))
#define KTRACE_HEADER_ID(hdr)		((__u32)(hdr) >> KTRACE_CLOCK_BITS)
#define KTRACE_HEADER_CLOCK(hdr)	((__u32)(hdr) & KTRACE_CLOCK_MASK)

/* Largest expanded payload, and the bytes an expanded record takes. */
#define KTRACE_EXPANDED_MAX	65535
#define KTRACE_EXPANDED_SIZE(len) \
	(sizeof(struct ktrace_expanded) + (((len) + 3) & ~3U))

/**
 * struct ktrace_compact - a compact event, 8 bytes
 * @header: KTRACE_HEADER(id, clock), id 0..KTRACE_ID_COMPACT_MAX
 * @payload: the event's fields, as bit ranges the metadata describes
 */
struct ktrace_compact {
	__u32 header;
	__u32 payload;
};

/**
 * struct ktrace_expanded - the head of an expanded event
 * @header: KTRACE_HEADER(KTRACE_ID_EXPANDED, clock)
 * @major: event group; 0 is the metadata
 * @minor: event within the group
 * @length: payload bytes that follow, before padding to 4
 */
struct ktrace_expanded {
	__u32 header;
	__u8 major;
	__u8 minor;
	__u16 length;
};

/**
 * struct ktrace_timestamp - a timestamp record, 12 bytes
 * @header: KTRACE_HEADER(KTRACE_ID_TIMESTAMP, clock)
 * @clock_lo: the full shifted clock, low 32 bits
 * @clock_hi: the full shifted clock, high 32 bits
 */
struct ktrace_timestamp {
	__u32 header;
	__u32 clock_lo;
	__u32 clock_hi;
};

/* Channels. */
enum ktrace_channel_id {
	KTRACE_CHANNEL_HIGH	= 0,	/* scheduler, IRQ, syscalls, block, VM */
	KTRACE_CHANNEL_MEDIUM	= 1,	/* names, statedump, marks */
	KTRACE_CHANNEL_LOW	= 2,	/* metadata */
	KTRACE_NR_CHANNELS	= 3,
};

/* struct ktrace_subbuf_header.flags */
#define KTRACE_SUBBUF_OVERWRITE	(1U << 0)	/* written in overwrite mode */

/**
 * struct ktrace_subbuf_header - the start of every subbuffer, 48 bytes
 * @magic: KTRACE_MAGIC, byte-swapped if the trace has the other byte order
 * @version: KTRACE_FORMAT_VERSION
 * @channel: enum ktrace_channel_id
 * @flags: KTRACE_SUBBUF_*
 * @cpu: the CPU of the stream
 * @data_size: bytes of records after this header
 * @seq: sequence number of the subbuffer in its stream, from 0; a gap means
 *	lost (dropped or overwritten) subbuffers
 * @dropped: events of the stream dropped, up to the end of this subbuffer,
 *	because the buffer was full (drop mode)
 * @overwritten: events of the stream overwritten unread, up to the end of
 *	this subbuffer (overwrite mode)
 * @pid: the task running on @cpu when the subbuffer was started
 * @reserved: zero
 */
struct ktrace_subbuf_header {
	__u32 magic;
	__u16 version;
	__u8 channel;
	__u8 flags;
	__u32 cpu;
	__u32 data_size;
	__u64 seq;
	__u64 dropped;
	__u64 overwritten;
	__s32 pid;
	__u32 reserved;
};

/*
 * Metadata: expanded events of major KTRACE_META_MAJOR on the low-rate
 * channel, minor one of enum ktrace_meta_type, payload the matching struct.
 * Names are NUL-padded.  A struct ktrace_meta_event is followed by the
 * struct ktrace_meta_field records of its fields, in order, and a field of
 * display KTRACE_DISPLAY_ENUM by the struct ktrace_meta_enum records of its
 * values.  A field of display KTRACE_DISPLAY_FLAGS is followed the same
 * way by its flag table: each value is a mask, printed as its name when
 * all its bits are set, in table order, the bits it names then cleared
 * (ftrace's __print_flags()); bits no entry names print as hexadecimal;
 * an entry of value 0 names the value 0 only.
 */
#define KTRACE_META_MAJOR	0
#define KTRACE_NAME_LEN		32

enum ktrace_meta_type {
	KTRACE_META_TRACE	= 1,	/* struct ktrace_meta_trace */
	KTRACE_META_CLOCK	= 2,	/* struct ktrace_meta_clock */
	KTRACE_META_CHANNEL	= 3,	/* struct ktrace_meta_channel */
	KTRACE_META_EVENT	= 4,	/* struct ktrace_meta_event */
	KTRACE_META_FIELD	= 5,	/* struct ktrace_meta_field */
	KTRACE_META_ENUM	= 6,	/* struct ktrace_meta_enum */
};

/* struct ktrace_meta_trace.byte_order */
#define KTRACE_LITTLE_ENDIAN	1
#define KTRACE_BIG_ENDIAN	2

/**
 * struct ktrace_meta_trace - the traced machine
 * @magic: KTRACE_MAGIC
 * @version: KTRACE_FORMAT_VERSION
 * @byte_order: KTRACE_LITTLE_ENDIAN or KTRACE_BIG_ENDIAN
 * @nr_channels: KTRACE_NR_CHANNELS
 * @nr_cpus: highest possible CPU number + 1
 * @nr_records: the metadata records of this start after this one; a
 *	decoder that finds fewer before the next struct ktrace_meta_trace
 *	has an incomplete metadata; 0 when not known
 * @release: utsname release, as uname -r prints it
 * @machine: utsname machine, as uname -m prints it
 * @nodename: utsname nodename, as uname -n prints it
 * @pad: zero, to a multiple of 8 bytes
 */
struct ktrace_meta_trace {
	__u32 magic;
	__u16 version;
	__u8 byte_order;
	__u8 nr_channels;
	__u32 nr_cpus;
	__u32 nr_records;
	char release[65];
	char machine[65];
	char nodename[65];
	char pad[5];
};

/**
 * struct ktrace_meta_clock - how to turn clock values into times
 * @freq_hz: counts per second of the raw clock
 * @shift: traced clock values are the raw clock shifted right by this
 * @reserved: zero
 * @ref_clock: the shifted clock at a reference instant
 * @ref_mono_ns: CLOCK_MONOTONIC at that instant, in nanoseconds
 * @ref_real_ns: CLOCK_REALTIME at that instant, in nanoseconds
 * @name: the raw clock: "tsc", "mono", or "tsc-mono" (CLOCK_MONOTONIC
 *	at the TSC's rate, after the TSC was found unstable)
 *
 * A clock value c is at CLOCK_MONOTONIC
 * ref_mono_ns + (c - ref_clock) * 2^shift * 10^9 / freq_hz.  Written at
 * every start, and again when the raw clock changes during a trace; such a
 * change keeps freq_hz and shift, so the newest record converts any value
 * of the trace.
 */
struct ktrace_meta_clock {
	__u64 freq_hz;
	__u32 shift;
	__u32 reserved;
	__u64 ref_clock;
	__u64 ref_mono_ns;
	__u64 ref_real_ns;
	char name[16];
};

/* struct ktrace_meta_channel.mode */
enum ktrace_mode {
	KTRACE_MODE_DROP	= 0,	/* when full, drop new events */
	KTRACE_MODE_OVERWRITE	= 1,	/* when full, overwrite the oldest */
};

/**
 * struct ktrace_meta_channel - one channel
 * @channel: enum ktrace_channel_id
 * @mode: enum ktrace_mode of this channel in this trace
 * @reserved: zero
 * @subbuf_size: bytes per subbuffer, header included
 * @n_subbufs: subbuffers per CPU
 * @name: "high", "medium" or "low"
 */
struct ktrace_meta_channel {
	__u8 channel;
	__u8 mode;
	__u16 reserved;
	__u32 subbuf_size;
	__u32 n_subbufs;
	char name[KTRACE_NAME_LEN];
};

/* struct ktrace_meta_event.kind */
#define KTRACE_EVENT_COMPACT	0
#define KTRACE_EVENT_EXPANDED	1

/* struct ktrace_meta_event.flags */
#define KTRACE_EVENT_PID_IS_CURRENT (1U << 0)	/* first field: the running task */

/**
 * struct ktrace_meta_event - one event
 * @channel: enum ktrace_channel_id
 * @kind: KTRACE_EVENT_COMPACT or KTRACE_EVENT_EXPANDED
 * @id: compact id (0..KTRACE_ID_COMPACT_MAX); KTRACE_ID_EXPANDED otherwise
 * @major: expanded events: the major; 0 for compact events
 * @minor: expanded events: the minor; 0 for compact events
 * @nr_fields: number of struct ktrace_meta_field records that follow
 * @flags: KTRACE_EVENT_*; with KTRACE_EVENT_PID_IS_CURRENT the first field
 *	is the pid of the task running from this event on
 * @reserved: zero
 * @group: the event's group, as in events/GROUP/NAME
 * @name: the event's name
 */
struct ktrace_meta_event {
	__u8 channel;
	__u8 kind;
	__u8 id;
	__u8 major;
	__u8 minor;
	__u8 nr_fields;
	__u8 flags;
	__u8 reserved;
	char group[KTRACE_NAME_LEN];
	char name[KTRACE_NAME_LEN];
};

/* struct ktrace_meta_field.display */
enum ktrace_display {
	KTRACE_DISPLAY_DEC	= 0,	/* decimal */
	KTRACE_DISPLAY_HEX	= 1,	/* 0x-prefixed hexadecimal */
	KTRACE_DISPLAY_PID	= 2,	/* a pid, named from the trace */
	KTRACE_DISPLAY_ENUM	= 3,	/* a value of the struct ktrace_meta_enum list */
	KTRACE_DISPLAY_STRING	= 4,	/* NUL-terminated or field-sized text */
	KTRACE_DISPLAY_SYMBOL	= 5,	/* a kernel text address */
	KTRACE_DISPLAY_DEV	= 6,	/* a dev_t, as major:minor */
	KTRACE_DISPLAY_FLAGS	= 7,	/* bits named by struct ktrace_meta_enum masks */
	KTRACE_DISPLAY_KEY	= 8,	/* a key: see KTRACE_FIELD_IDENT */
};

/* struct ktrace_meta_field.flags */
#define KTRACE_FIELD_SIGNED	(1U << 0)	/* two's complement */
/*
 * A kernel address (every KTRACE_DISPLAY_SYMBOL field, and others such as
 * a module's base): it reveals the traced kernel's layout (KASLR), so a
 * tool may hide it from a trace that leaves the machine.
 */
#define KTRACE_FIELD_KADDR	(1U << 1)
/*
 * Part of an identity: the fields of an event with this flag, in order,
 * hash to a 32-bit key (ktrace_key_add(), ktrace_key_final()).  A field of
 * display KTRACE_DISPLAY_KEY in an event of the same group carries such a
 * key instead of the fields: a decoder prints the fields of the newest
 * earlier event whose identity hashes to it, and "unknown" when there is
 * none, or when two different identities seen hash to it.  This is how a
 * block request is described once and then named by 8-byte events.  The
 * kernel's own decoder (the ascii pipe) learns descriptions of at most 32
 * bytes with at most 8 identity fields.
 */
#define KTRACE_FIELD_IDENT	(1U << 2)
/*
 * The field's largest value (and, if signed, its smallest) stands for
 * itself or anything beyond: the value did not fit and was clamped.
 */
#define KTRACE_FIELD_SATURATES	(1U << 3)
/*
 * On a KTRACE_DISPLAY_KEY field: the object the key names ends with this
 * event (a request completes), and a decoder forgets its description once
 * the event is printed.  Every new object is described again, so
 * descriptions do not outlive their objects, and a key whose description
 * was lost cannot match a stale one.  (Two objects of one identity at
 * once: the second is unknown after the first ended, unless described
 * again.)
 */
#define KTRACE_FIELD_KEY_END	(1U << 4)

/**
 * struct ktrace_meta_field - one field of the event before it
 * @offset: compact events: first bit in the payload (0 is the least
 *	significant); expanded events: byte offset in the payload
 * @size: compact events: width in bits, 1..32; expanded events: size in
 *	bytes (1, 2, 4 or 8 for numbers; any for strings, 0 for "to the end")
 * @display: enum ktrace_display
 * @flags: KTRACE_FIELD_*
 * @nr_values: KTRACE_DISPLAY_ENUM and KTRACE_DISPLAY_FLAGS: number of
 *	struct ktrace_meta_enum that follow
 * @name: the field's name, as in key=value
 */
struct ktrace_meta_field {
	__u16 offset;
	__u16 size;
	__u8 display;
	__u8 flags;
	__u16 nr_values;
	char name[KTRACE_NAME_LEN];
};

/**
 * struct ktrace_meta_enum - one named value of the enum field before it
 * @value_lo: the value, low 32 bits
 * @value_hi: the value, high 32 bits
 * @name: its name
 */
struct ktrace_meta_enum {
	__u32 value_lo;
	__u32 value_hi;
	char name[KTRACE_NAME_LEN];
};

/*
 * Keys (KTRACE_FIELD_IDENT): h = KTRACE_KEY_SEED, then
 * h = ktrace_key_add(h, v) for the value v of each identity field in order
 * (zero-extended to 64 bits), then key = ktrace_key_final(h).  Not a
 * cryptographic hash: a decoder that sees two identities with one key
 * treats that key as unknown.
 */
#define KTRACE_KEY_SEED		0x6b74726163656b79ULL	/* "ktracekey" */

static __inline__ __u64 ktrace_key_add(__u64 h, __u64 v)
{
	h ^= v;
	h *= 0x9e3779b97f4a7c15ULL;
	return h ^ (h >> 29);
}

static __inline__ __u32 ktrace_key_final(__u64 h)
{
	h *= 0xbf58476d1ce4e5b9ULL;
	return (__u32)(h >> 32);
}

/*
 * Block requests.  struct ktrace_blk_desc describes a bio or request
 * (block:bio_queue, block:bio_split, block:rq_describe); all its fields
 * are its identity, whose key the 8-byte request events
 * (block:rq_insert, rq_issue, rq_requeue, rq_complete) carry.  Operations
 * and flags are translated to the stable values below, as blktrace's
 * BLK_TC_* are, rather than copied from the kernel's REQ_* bits, which
 * change between releases.
 */
enum ktrace_blk_op {
	KTRACE_BLK_OP_READ		= 0,
	KTRACE_BLK_OP_WRITE		= 1,
	KTRACE_BLK_OP_FLUSH		= 2,
	KTRACE_BLK_OP_DISCARD		= 3,
	KTRACE_BLK_OP_SECURE_ERASE	= 4,
	KTRACE_BLK_OP_WRITE_ZEROES	= 5,
	KTRACE_BLK_OP_ZONE_APPEND	= 6,
	KTRACE_BLK_OP_ZONE_MGMT		= 7,	/* open, close, finish, reset */
	KTRACE_BLK_OP_DRV_IN		= 8,	/* passthrough */
	KTRACE_BLK_OP_DRV_OUT		= 9,	/* passthrough */
	KTRACE_BLK_OP_OTHER		= 15,	/* one this list does not know */
};

/* struct ktrace_blk_desc.flags */
#define KTRACE_BLK_SYNC		(1U << 0)	/* REQ_SYNC */
#define KTRACE_BLK_META		(1U << 1)	/* REQ_META */
#define KTRACE_BLK_PRIO		(1U << 2)	/* REQ_PRIO */
#define KTRACE_BLK_FUA		(1U << 3)	/* REQ_FUA */
#define KTRACE_BLK_PREFLUSH	(1U << 4)	/* REQ_PREFLUSH */
#define KTRACE_BLK_RAHEAD	(1U << 5)	/* REQ_RAHEAD: readahead */
#define KTRACE_BLK_BACKGROUND	(1U << 6)	/* REQ_BACKGROUND */
#define KTRACE_BLK_NOWAIT	(1U << 7)	/* REQ_NOWAIT */

/**
 * struct ktrace_blk_desc - a block request, 16 bytes
 * @sector: first sector (512 bytes), on the whole disk; 0 for passthrough
 *	and flush requests, as blktrace records them
 * @dev: the disk's dev_t, major << 20 | minor as the kernel's dev_t
 * @nr_sector: sectors (512 bytes), rounded down (a passthrough request of
 *	36 bytes has 0); 65535 means 65535 or more (KTRACE_FIELD_SATURATES)
 * @op: enum ktrace_blk_op
 * @flags: KTRACE_BLK_*
 */
struct ktrace_blk_desc {
	__u64 sector;
	__u32 dev;
	__u16 nr_sector;
	__u8 op;
	__u8 flags;
};

/*
 * The key of a block request's description: what a decoder computes from
 * its KTRACE_FIELD_IDENT fields, in the order the metadata gives them.
 */
static __inline__ __u32 ktrace_blk_key(const struct ktrace_blk_desc *d)
{
	__u64 h = KTRACE_KEY_SEED;

	h = ktrace_key_add(h, d->dev);
	h = ktrace_key_add(h, d->sector);
	h = ktrace_key_add(h, d->nr_sector);
	h = ktrace_key_add(h, d->op);
	h = ktrace_key_add(h, d->flags);
	return ktrace_key_final(h);
}

/**
 * struct ktrace_blk_status - a completion that is partial or failed, 12 bytes
 * @rq: the request's key
 * @bytes: bytes completed
 * @error: 0, or the negative errno of the failure (blk_status_to_errno())
 */
struct ktrace_blk_status {
	__u32 rq;
	__u32 bytes;
	__s32 error;
};

/*
 * The crash table: where a kernel's buffers are, for whoever reads them
 * after that kernel is gone.  The next boot reads it from the persistent
 * region (ktrace.persist=LABEL over reserve_mem=), and tools/ktrace
 * extract --vmcore from a kdump vmcore.  A struct ktrace_crash_header,
 * then nr_bufs struct ktrace_crash_buf, one per channel and possible CPU
 * (index channel * nr_cpus + cpu).
 *
 * With KTRACE_CRASH_REGION, the table starts the persistent region and
 * every address in it is an offset from the table; a buffer's subbuffers
 * are contiguous there.  Without it (a table in ordinary kernel memory,
 * found through the vmcoreinfo entry KTRACE_CRASH=, the physical address
 * of struct ktrace_crash_anchor), addresses are physical and a buffer's
 * data address is that of the list of its pages' physical addresses
 * (__u64 each, in order).  Counts are word_size bytes each.
 *
 * Nothing here is trusted by a reader: csum covers the header (csum
 * zero) and the descriptors; each subbuffer is checked on its own
 * (kernel/trace/ktrace/recover.c).
 */
#define KTRACE_CRASH_MAGIC	0x4b544342	/* "KTCB" */
#define KTRACE_CRASH_VERSION	1
#define KTRACE_CRASH_MAX_CPUS	8192	/* a table that says more is not believed */
#define KTRACE_CRASH_ANCHOR_MAGIC	0x726f68636e61544bULL	/* "KTanchor" */

/* struct ktrace_crash_header.flags */
#define KTRACE_CRASH_REGION	(1U << 0)	/* the persistent region: offsets */
#define KTRACE_CRASH_FROZEN	(1U << 1)	/* the crash path saved the state */

/**
 * struct ktrace_crash_header - the start of the crash table, 256 bytes
 * @magic: KTRACE_CRASH_MAGIC
 * @version: KTRACE_CRASH_VERSION
 * @header_size: sizeof(struct ktrace_crash_header)
 * @buf_size: sizeof(struct ktrace_crash_buf)
 * @byte_order: KTRACE_LITTLE_ENDIAN or KTRACE_BIG_ENDIAN
 * @word_size: bytes of a commit or event count (the kernel's long)
 * @flags: KTRACE_CRASH_*
 * @nr_bufs: descriptors after the header: nr_channels * nr_cpus
 * @nr_cpus: possible CPUs (nr_cpu_ids) of the traced kernel
 * @page_size: its page size
 * @nr_channels: KTRACE_NR_CHANNELS
 * @size: bytes of the region (KTRACE_CRASH_REGION), else of the table
 * @boot_id: random, drawn at each boot
 * @text_addr: the address of _text in the traced kernel, which gives its
 *	KASLR offset against the same build's System.map
 * @freeze_clock: the trace clock when the crash path froze the trace
 * @freeze_reason: why: "panic", "stop" or "reboot"
 * @release: utsname release of the traced kernel
 * @build: utsname version of the traced kernel ("#1 SMP ...")
 * @reserved: zero
 * @csum: ktrace_crash_csum() of the header and descriptors
 */
struct ktrace_crash_header {
	__u32 magic;
	__u16 version;
	__u16 header_size;
	__u16 buf_size;
	__u8 byte_order;
	__u8 word_size;
	__u32 flags;
	__u32 nr_bufs;
	__u32 nr_cpus;
	__u32 page_size;
	__u32 nr_channels;
	__u64 size;
	__u64 boot_id;
	__u64 text_addr;
	__u64 freeze_clock;
	char freeze_reason[16];
	char release[65];
	char build[65];
	__u8 reserved[42];
	__u32 csum;
};

/**
 * struct ktrace_crash_buf - one CPU's buffer of one channel, 80 bytes
 * @channel: enum ktrace_channel_id
 * @flags: KTRACE_SUBBUF_OVERWRITE if written in overwrite mode
 * @sb_shift: log2 of the subbuffer size; 0 if the buffer does not exist
 * @nr_shift: log2 of the number of subbuffers
 * @cpu: the CPU
 * @sums: in the region, 1 << nr_shift checksums (ktrace_recover_sum()) of
 *	the slots as the crash path froze them, so that memory that changed
 *	after it (a reset, firmware) is told from the trace; 0 elsewhere
 * @data: the subbuffers (see above)
 * @commit: 1 << nr_shift commit counts: bytes committed in a slot over
 *	all its uses, so that use u of a slot is complete at (u + 1) << sb_shift
 * @sb_events: 2 << nr_shift event counts: for slot s, the events of its
 *	even uses at 2s, of its odd uses at 2s + 1
 * @offset: the write position at the freeze (KTRACE_CRASH_FROZEN)
 * @rpos: the next subbuffer a reader would have read, at the freeze
 * @events: events that reached the buffer, at the freeze
 * @dropped: of them, dropped (buffer full, nesting)
 * @overwritten: of them, overwritten unread
 */
struct ktrace_crash_buf {
	__u8 channel;
	__u8 flags;
	__u8 sb_shift;
	__u8 nr_shift;
	__u32 cpu;
	__u64 sums;
	__u64 data;
	__u64 commit;
	__u64 sb_events;
	__u64 offset;
	__u64 rpos;
	__u64 events;
	__u64 dropped;
	__u64 overwritten;
};

/**
 * struct ktrace_crash_anchor - where the crash table is, 32 bytes
 * @magic: KTRACE_CRASH_ANCHOR_MAGIC
 * @magic2: its bitwise complement
 * @table: the physical address of the table, 0 if there is none
 * @size: bytes of the table (the region's, with KTRACE_CRASH_REGION)
 */
struct ktrace_crash_anchor {
	__u64 magic;
	__u64 magic2;
	__u64 table;
	__u64 size;
};

/*
 * The cluster messages (CONFIG_KTRACE_CLUSTER): one UDP datagram of
 * exactly sizeof(struct ktrace_cluster_msg) bytes, every integer
 * big-endian, whatever the machines' byte order.
 */
#define KTRACE_CLUSTER_MAGIC	0x4b54434cU	/* "KTCL" */
#define KTRACE_CLUSTER_VERSION	1
#define KTRACE_CLUSTER_PORT	6363
#define KTRACE_CLUSTER_NAME_LEN	16
#define KTRACE_CLUSTER_REASON_LEN	64

/* enum ktrace_cluster_type: what a cluster message is */
#define KTRACE_CLUSTER_TRIGGER	1	/* freeze: a trigger fired at the origin */
#define KTRACE_CLUSTER_BEACON	2	/* time base: its arrivals are recorded */

/**
 * struct ktrace_cluster_msg - a cluster message, 132 bytes
 * @magic: KTRACE_CLUSTER_MAGIC
 * @version: KTRACE_CLUSTER_VERSION
 * @type: KTRACE_CLUSTER_TRIGGER or KTRACE_CLUSTER_BEACON
 * @reserved: zero
 * @origin_id: the sender's id (its IPv4 address)
 * @origin: the sender's name, NUL-padded
 * @seq: the sender's sequence number: its CLOCK_REALTIME in ns when it
 *	joined the group, plus one per message sent
 * @sent_ns: the sender's CLOCK_REALTIME in ns when it sent the message
 * @trigger: KTRACE_CLUSTER_TRIGGER: the trigger that fired, NUL-padded
 * @reason: KTRACE_CLUSTER_TRIGGER: its reason, cut, NUL-padded
 * @mac: SipHash-2-4 of every byte before it, under the group's 128-bit key
 *	(its two halves the key's first and last 8 bytes, little-endian)
 */
struct ktrace_cluster_msg {
	__be32 magic;
	__u8 version;
	__u8 type;
	__be16 reserved;
	__be32 origin_id;
	char origin[KTRACE_CLUSTER_NAME_LEN];
	__be64 seq;
	__be64 sent_ns;
	char trigger[KTRACE_CLUSTER_NAME_LEN];
	char reason[KTRACE_CLUSTER_REASON_LEN];
	__be64 mac;
} __attribute__((packed));

#endif /* _UAPI_LINUX_KTRACE_H */
