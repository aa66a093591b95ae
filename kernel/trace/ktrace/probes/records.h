/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The payloads of ktrace's expanded events: for each, the struct the probe
 * or the statedump writes, the fill-in that sets every byte of it, and the
 * field table the metadata describes it with.
 *
 * A decoder knows a payload only through its field table, and the record
 * is copied to the trace byte for byte, so:
 *  - no struct has implicit padding: it is __packed, or its padding is a
 *    named member, and its size is asserted below;
 *  - the fill-ins assign the whole struct, so that no byte of the stack is
 *    copied into the trace;
 *  - every offset and size comes from offsetof() and sizeof_field(), and a
 *    string written after the struct (ktrace_event_write2()) starts at
 *    sizeof() of it.
 * tests/layout_kunit.c decodes what each fill-in writes through the
 * metadata emitted for its field table.
 */
#ifndef _KTRACE_PROBES_RECORDS_H
#define _KTRACE_PROBES_RECORDS_H

#include <linux/blk_types.h>
#include <linux/build_bug.h>
#include <linux/compiler.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/stddef.h>
#include <linux/string.h>
#include <linux/types.h>
#include <linux/tracepoint.h>
#include <linux/vmstat.h>
#include <trace/events/mmflags.h>

#include "probes.h"

/*
 * Field NAME: the member NAME of struct S, at its offset and size.  The
 * member's parameter is called "type" because checkpatch exempts that name
 * from its macro-argument-reuse check: a member name has no side effects.
 */
#define KT_FIELD_OF(s, type, disp)					\
	KT_FIELD(#type, offsetof(s, type), sizeof_field(s, type), disp)
#define KT_FIELD_S_OF(s, type, disp)					\
	KT_FIELD_S(#type, offsetof(s, type), sizeof_field(s, type), disp)
#define KT_FIELD_K_OF(s, type, disp)					\
	KT_FIELD_K(#type, offsetof(s, type), sizeof_field(s, type), disp)
#define KT_FIELD_ENUM_OF(s, type, tbl)					\
	KT_FIELD_ENUM(#type, offsetof(s, type), sizeof_field(s, type), tbl)
/* A number clamped to its range: KTRACE_FIELD_SATURATES. */
#define KT_FIELD_SAT_OF(s, type, disp)					\
	{ .name = #type, .offset = offsetof(s, type), .size = sizeof_field(s, type), \
	  .display = disp, .flags = KTRACE_FIELD_SATURATES }
#define KT_FIELD_S_SAT_OF(s, type, disp)				\
	{ .name = #type, .offset = offsetof(s, type), .size = sizeof_field(s, type), \
	  .display = disp, .flags = KTRACE_FIELD_SIGNED | KTRACE_FIELD_SATURATES }
/* A string after struct TYPE, to the end of the payload. */
#define KT_FIELD_TAIL(type, nm)						\
	KT_FIELD(nm, sizeof(type), 0, KTRACE_DISPLAY_STRING)

/* ---- sched ---------------------------------------------------------- */

/* prev_state of sched:switch; the statedump reports states with it too. */
static const struct ktrace_enum_value kt_state_values[KT_NR_STATES] __maybe_unused = {
	{ 0, "R" }, { 1, "S" }, { 2, "D" }, { 3, "T" }, { 4, "t" },
	{ 5, "X" }, { 6, "Z" }, { 7, "P" }, { 8, "I" },
	{ KT_STATE_PREEMPTED, "R+" },
};

/*
 * Followed by the child's comm, as long as it is: fork and comm events go
 * to the medium-rate channel of a flight recorder, where 12 bytes of
 * padding per name are history lost.
 */
struct kt_fork {
	u32 parent_pid;
	u32 child_pid;
	u32 child_tgid;
};

static_assert(sizeof(struct kt_fork) == 12);

static const struct ktrace_field kt_fork_fields[] __maybe_unused = {
	KT_FIELD_OF(struct kt_fork, parent_pid, KTRACE_DISPLAY_PID),
	KT_FIELD_OF(struct kt_fork, child_pid, KTRACE_DISPLAY_DEC),
	KT_FIELD_OF(struct kt_fork, child_tgid, KTRACE_DISPLAY_DEC),
	KT_FIELD_TAIL(struct kt_fork, "comm"),
};

static inline void kt_fork_fill(struct kt_fork *e, u32 parent_pid, u32 child_pid,
				u32 child_tgid)
{
	*e = (struct kt_fork) {
		.parent_pid = parent_pid,
		.child_pid = child_pid,
		.child_tgid = child_tgid,
	};
}

/* Followed by the file name. */
struct kt_exec {
	u32 pid;
	u32 old_pid;
	char comm[TASK_COMM_LEN];
};

static_assert(sizeof(struct kt_exec) == 8 + TASK_COMM_LEN);

static const struct ktrace_field kt_exec_fields[] __maybe_unused = {
	KT_FIELD_OF(struct kt_exec, pid, KTRACE_DISPLAY_PID),
	KT_FIELD_OF(struct kt_exec, old_pid, KTRACE_DISPLAY_DEC),
	KT_FIELD_OF(struct kt_exec, comm, KTRACE_DISPLAY_STRING),
	KT_FIELD_TAIL(struct kt_exec, "filename"),
};

static inline void kt_exec_fill(struct kt_exec *e, u32 pid, u32 old_pid,
				const char *comm)
{
	*e = (struct kt_exec) { .pid = pid, .old_pid = old_pid };
	strscpy_pad(e->comm, comm);
}

/* Followed by the new comm, as long as it is. */
struct kt_comm {
	u32 pid;
};

static_assert(sizeof(struct kt_comm) == 4);

static const struct ktrace_field kt_comm_fields[] __maybe_unused = {
	KT_FIELD_OF(struct kt_comm, pid, KTRACE_DISPLAY_DEC),
	KT_FIELD_TAIL(struct kt_comm, "comm"),
};

static inline void kt_comm_fill(struct kt_comm *e, u32 pid)
{
	*e = (struct kt_comm) { .pid = pid };
}

/* ---- irq ------------------------------------------------------------ */

static const struct ktrace_enum_value kt_timerkind_values[] __maybe_unused = {
	{ 0, "timer" }, { 1, "hrtimer" },
};

struct kt_timer {
	u64 function;
	s32 late_ns;
	u32 kind;
};

static_assert(sizeof(struct kt_timer) == 16);

static const struct ktrace_field kt_timer_fields[] __maybe_unused = {
	KT_FIELD_K_OF(struct kt_timer, function, KTRACE_DISPLAY_SYMBOL),
	KT_FIELD_S_SAT_OF(struct kt_timer, late_ns, KTRACE_DISPLAY_DEC),
	KT_FIELD_ENUM_OF(struct kt_timer, kind, kt_timerkind),
};

/* Lateness saturates at +-2 s. */
static inline void kt_timer_fill(struct kt_timer *e, const void *fn, s64 late,
				 u32 kind)
{
	*e = (struct kt_timer) {
		.function = (unsigned long)fn,
		.late_ns = clamp_t(s64, late, S32_MIN, S32_MAX),
		.kind = kind,
	};
}

/* __packed: 12 bytes, not 16 with 4 of padding. */
struct kt_irqsoff {
	u64 caller;
	u32 duration_ns;
} __packed;

static_assert(sizeof(struct kt_irqsoff) == 12);

static const struct ktrace_field kt_irqsoff_fields[] __maybe_unused = {
	KT_FIELD_K_OF(struct kt_irqsoff, caller, KTRACE_DISPLAY_SYMBOL),
	KT_FIELD_SAT_OF(struct kt_irqsoff, duration_ns, KTRACE_DISPLAY_DEC),
};

/* The duration saturates at 4 s. */
static inline void kt_irqsoff_fill(struct kt_irqsoff *e, unsigned long caller,
				   u64 duration_ns)
{
	*e = (struct kt_irqsoff) {
		.caller = caller,
		.duration_ns = min_t(u64, duration_ns, U32_MAX),
	};
}

/* ---- block ---------------------------------------------------------- */

/*
 * Block requests are described once, by struct ktrace_blk_desc (uapi),
 * and named afterwards by the key of that description in 8-byte events.
 * Operations and flags are translated to the uapi's stable values: the
 * kernel's REQ_* bits move between releases, a trace must not.
 */
static const struct ktrace_enum_value kt_blkop_values[] __maybe_unused = {
	{ KTRACE_BLK_OP_READ, "read" }, { KTRACE_BLK_OP_WRITE, "write" },
	{ KTRACE_BLK_OP_FLUSH, "flush" }, { KTRACE_BLK_OP_DISCARD, "discard" },
	{ KTRACE_BLK_OP_SECURE_ERASE, "secure_erase" },
	{ KTRACE_BLK_OP_WRITE_ZEROES, "write_zeroes" },
	{ KTRACE_BLK_OP_ZONE_APPEND, "zone_append" },
	{ KTRACE_BLK_OP_ZONE_MGMT, "zone_mgmt" },
	{ KTRACE_BLK_OP_DRV_IN, "drv_in" }, { KTRACE_BLK_OP_DRV_OUT, "drv_out" },
	{ KTRACE_BLK_OP_OTHER, "other" },
};

static const struct ktrace_enum_value kt_blkflag_values[] __maybe_unused = {
	{ KTRACE_BLK_SYNC, "sync" }, { KTRACE_BLK_META, "meta" },
	{ KTRACE_BLK_PRIO, "prio" }, { KTRACE_BLK_FUA, "fua" },
	{ KTRACE_BLK_PREFLUSH, "preflush" }, { KTRACE_BLK_RAHEAD, "rahead" },
	{ KTRACE_BLK_BACKGROUND, "background" }, { KTRACE_BLK_NOWAIT, "nowait" },
};

#define KT_IDENT	KTRACE_FIELD_IDENT
#define KT_FIELD_F_OF(s, type, disp, fl)				\
	{ .name = #type, .offset = offsetof(s, type),			\
	  .size = sizeof_field(s, type), .display = disp, .flags = fl }

static_assert(sizeof(struct ktrace_blk_desc) == 16);

/* The identity first, in the order its key hashes it: ktrace_blk_key(). */
static const struct ktrace_field kt_blk_desc_fields[] __maybe_unused = {
	KT_FIELD_F_OF(struct ktrace_blk_desc, dev, KTRACE_DISPLAY_DEV, KT_IDENT),
	KT_FIELD_F_OF(struct ktrace_blk_desc, sector, KTRACE_DISPLAY_DEC, KT_IDENT),
	KT_FIELD_F_OF(struct ktrace_blk_desc, nr_sector, KTRACE_DISPLAY_DEC,
		      KT_IDENT | KTRACE_FIELD_SATURATES),
	{ .name = "op", .offset = offsetof(struct ktrace_blk_desc, op), .size = 1,
	  .display = KTRACE_DISPLAY_ENUM, .flags = KT_IDENT,
	  .values = kt_blkop_values, .nr_values = ARRAY_SIZE(kt_blkop_values) },
	{ .name = "flags", .offset = offsetof(struct ktrace_blk_desc, flags), .size = 1,
	  .display = KTRACE_DISPLAY_FLAGS, .flags = KT_IDENT, .values = kt_blkflag_values,
	  .nr_values = ARRAY_SIZE(kt_blkflag_values) },
};

static_assert(sizeof(struct ktrace_blk_status) == 12);

static const struct ktrace_field kt_blk_status_fields[] __maybe_unused = {
	KT_FIELD_F_OF(struct ktrace_blk_status, rq, KTRACE_DISPLAY_KEY, KTRACE_FIELD_KEY_END),
	KT_FIELD_OF(struct ktrace_blk_status, bytes, KTRACE_DISPLAY_DEC),
	KT_FIELD_S_OF(struct ktrace_blk_status, error, KTRACE_DISPLAY_DEC),
};

/**
 * kt_blk_op() - the stable operation of a request or bio
 * @opf: REQ_OP_* | REQ_*
 *
 * Return: enum ktrace_blk_op.
 */
static __always_inline u8 kt_blk_op(blk_opf_t opf)
{
	switch (opf & REQ_OP_MASK) {
	case REQ_OP_READ:
		return KTRACE_BLK_OP_READ;
	case REQ_OP_WRITE:
		return KTRACE_BLK_OP_WRITE;
	case REQ_OP_FLUSH:
		return KTRACE_BLK_OP_FLUSH;
	case REQ_OP_DISCARD:
		return KTRACE_BLK_OP_DISCARD;
	case REQ_OP_SECURE_ERASE:
		return KTRACE_BLK_OP_SECURE_ERASE;
	case REQ_OP_WRITE_ZEROES:
		return KTRACE_BLK_OP_WRITE_ZEROES;
	case REQ_OP_ZONE_APPEND:
		return KTRACE_BLK_OP_ZONE_APPEND;
	case REQ_OP_ZONE_OPEN:
	case REQ_OP_ZONE_CLOSE:
	case REQ_OP_ZONE_FINISH:
	case REQ_OP_ZONE_RESET:
	case REQ_OP_ZONE_RESET_ALL:
		return KTRACE_BLK_OP_ZONE_MGMT;
	case REQ_OP_DRV_IN:
		return KTRACE_BLK_OP_DRV_IN;
	case REQ_OP_DRV_OUT:
		return KTRACE_BLK_OP_DRV_OUT;
	default:
		return KTRACE_BLK_OP_OTHER;
	}
}

/* The REQ_* bits kt_blk_flags() passes on, each to a bit of its own. */
#define KT_BLK_REQ_FLAGS	(REQ_SYNC | REQ_META | REQ_PRIO | REQ_FUA |	\
				 REQ_PREFLUSH | REQ_RAHEAD | REQ_BACKGROUND |	\
				 REQ_NOWAIT)

/* The stable flags (KTRACE_BLK_*) of REQ_* bits. */
static __always_inline u8 kt_blk_flags(blk_opf_t opf)
{
	return (opf & REQ_SYNC ? KTRACE_BLK_SYNC : 0) |
	       (opf & REQ_META ? KTRACE_BLK_META : 0) |
	       (opf & REQ_PRIO ? KTRACE_BLK_PRIO : 0) |
	       (opf & REQ_FUA ? KTRACE_BLK_FUA : 0) |
	       (opf & REQ_PREFLUSH ? KTRACE_BLK_PREFLUSH : 0) |
	       (opf & REQ_RAHEAD ? KTRACE_BLK_RAHEAD : 0) |
	       (opf & REQ_BACKGROUND ? KTRACE_BLK_BACKGROUND : 0) |
	       (opf & REQ_NOWAIT ? KTRACE_BLK_NOWAIT : 0);
}

/*
 * @bytes: saturates at 65535 sectors, as its field says.  Field by field:
 * the struct has no padding, and a compound literal made GCC clear it
 * first, on the hot path of the block probes.
 */
static __always_inline void kt_blk_desc_fill(struct ktrace_blk_desc *d,
					     dev_t dev, sector_t sector,
					     unsigned int bytes, blk_opf_t opf)
{
	d->sector = sector;
	d->dev = dev;
	d->nr_sector = min_t(unsigned int, bytes >> SECTOR_SHIFT, U16_MAX);
	d->op = kt_blk_op(opf);
	d->flags = kt_blk_flags(opf);
}

static inline void kt_blk_status_fill(struct ktrace_blk_status *e, u32 rq,
				      unsigned int bytes, int error)
{
	*e = (struct ktrace_blk_status) { .rq = rq, .bytes = bytes, .error = error };
}

/* ---- vm ------------------------------------------------------------- */

/*
 * GFP bits move between releases: the metadata carries the names the
 * traced kernel gives them, its show_gfp_flags() table, composite masks
 * (GFP_KERNEL) first.
 */
static const struct ktrace_enum_value kt_gfp_values[] __maybe_unused = {
	__def_gfpflag_names __def_gfpflag_names_kasan
};

static const struct ktrace_enum_value kt_lru_values[] __maybe_unused = {
	{ 0, "anon" }, { 1, "file" },
};

/* Counts saturate at 65535. */
struct kt_shrink {
	u16 nid;
	u8 priority;
	u8 lru;
	u16 scanned;
	u16 reclaimed;
	u16 dirty;
	u16 writeback;
	u16 congested;
	u16 immediate;
	u16 activated;	/* anon and file pages moved to the active list */
	u16 referenced;	/* referenced, kept on the inactive list */
	u16 unmap_fail;
	u16 locked;	/* locked by someone else: skipped */
	u16 lazyfree_fail;
};

static_assert(sizeof(struct kt_shrink) == 26);

static const struct ktrace_field kt_shrink_fields[] __maybe_unused = {
	KT_FIELD_OF(struct kt_shrink, nid, KTRACE_DISPLAY_DEC),
	KT_FIELD_OF(struct kt_shrink, priority, KTRACE_DISPLAY_DEC),
	KT_FIELD_ENUM_OF(struct kt_shrink, lru, kt_lru),
	KT_FIELD_SAT_OF(struct kt_shrink, scanned, KTRACE_DISPLAY_DEC),
	KT_FIELD_SAT_OF(struct kt_shrink, reclaimed, KTRACE_DISPLAY_DEC),
	KT_FIELD_SAT_OF(struct kt_shrink, dirty, KTRACE_DISPLAY_DEC),
	KT_FIELD_SAT_OF(struct kt_shrink, writeback, KTRACE_DISPLAY_DEC),
	KT_FIELD_SAT_OF(struct kt_shrink, congested, KTRACE_DISPLAY_DEC),
	KT_FIELD_SAT_OF(struct kt_shrink, immediate, KTRACE_DISPLAY_DEC),
	KT_FIELD_SAT_OF(struct kt_shrink, activated, KTRACE_DISPLAY_DEC),
	KT_FIELD_SAT_OF(struct kt_shrink, referenced, KTRACE_DISPLAY_DEC),
	KT_FIELD_SAT_OF(struct kt_shrink, unmap_fail, KTRACE_DISPLAY_DEC),
	KT_FIELD_SAT_OF(struct kt_shrink, locked, KTRACE_DISPLAY_DEC),
	KT_FIELD_SAT_OF(struct kt_shrink, lazyfree_fail, KTRACE_DISPLAY_DEC),
};

static inline u16 kt_sat16(unsigned long v)
{
	return min_t(unsigned long, v, U16_MAX);
}

static inline void kt_shrink_fill(struct kt_shrink *e, int nid,
				  unsigned long nr_scanned,
				  unsigned long nr_reclaimed,
				  const struct reclaim_stat *stat,
				  int priority, int file)
{
	*e = (struct kt_shrink) {
		.nid = nid,
		.priority = priority,
		.lru = !!file,
		.scanned = kt_sat16(nr_scanned),
		.reclaimed = kt_sat16(nr_reclaimed),
		.dirty = kt_sat16(stat->nr_dirty),
		.writeback = kt_sat16(stat->nr_writeback),
		.congested = kt_sat16(stat->nr_congested),
		.immediate = kt_sat16(stat->nr_immediate),
		.activated = kt_sat16(stat->nr_activate[0] + stat->nr_activate[1]),
		.referenced = kt_sat16(stat->nr_ref_keep),
		.unmap_fail = kt_sat16(stat->nr_unmap_fail),
		.locked = kt_sat16(stat->nr_locked),
		.lazyfree_fail = kt_sat16(stat->nr_lazyfree_fail),
	};
}

/* Sizes in KiB, as ftrace's oom:mark_victim. */
struct kt_oom {
	u32 pid;
	char comm[TASK_COMM_LEN];
	u32 total_vm_kb;
	u32 anon_rss_kb;
	u32 file_rss_kb;
	u32 shmem_rss_kb;
	u32 pgtables_kb;
	u32 uid;
	s16 oom_score_adj;
	u16 pad;
};

static_assert(sizeof(struct kt_oom) == 32 + TASK_COMM_LEN);

static const struct ktrace_field kt_oom_fields[] __maybe_unused = {
	KT_FIELD_OF(struct kt_oom, pid, KTRACE_DISPLAY_DEC),
	KT_FIELD_OF(struct kt_oom, comm, KTRACE_DISPLAY_STRING),
	KT_FIELD_SAT_OF(struct kt_oom, total_vm_kb, KTRACE_DISPLAY_DEC),
	KT_FIELD_SAT_OF(struct kt_oom, anon_rss_kb, KTRACE_DISPLAY_DEC),
	KT_FIELD_SAT_OF(struct kt_oom, file_rss_kb, KTRACE_DISPLAY_DEC),
	KT_FIELD_SAT_OF(struct kt_oom, shmem_rss_kb, KTRACE_DISPLAY_DEC),
	KT_FIELD_SAT_OF(struct kt_oom, pgtables_kb, KTRACE_DISPLAY_DEC),
	KT_FIELD_OF(struct kt_oom, uid, KTRACE_DISPLAY_DEC),
	KT_FIELD_S_OF(struct kt_oom, oom_score_adj, KTRACE_DISPLAY_DEC),
};

static inline u32 kt_kb(unsigned long pages)
{
	return min_t(unsigned long, pages << (PAGE_SHIFT - 10), U32_MAX);
}

/**
 * struct kt_oom_mem - what the OOM victim's mm holds
 * @total_vm: pages mapped
 * @anon_rss: anonymous pages resident
 * @file_rss: file pages resident
 * @shmem_rss: shmem pages resident
 * @pgtables_bytes: bytes of page tables
 */
struct kt_oom_mem {
	unsigned long total_vm;
	unsigned long anon_rss;
	unsigned long file_rss;
	unsigned long shmem_rss;
	unsigned long pgtables_bytes;
};

/* @mem: %NULL for a task without a mm. */
static inline void kt_oom_fill(struct kt_oom *e, u32 pid, const char *comm,
			       u32 uid, s16 oom_score_adj,
			       const struct kt_oom_mem *mem)
{
	*e = (struct kt_oom) {
		.pid = pid,
		.uid = uid,
		.oom_score_adj = oom_score_adj,
	};
	strscpy_pad(e->comm, comm);
	if (mem) {
		e->total_vm_kb = kt_kb(mem->total_vm);
		e->anon_rss_kb = kt_kb(mem->anon_rss);
		e->file_rss_kb = kt_kb(mem->file_rss);
		e->shmem_rss_kb = kt_kb(mem->shmem_rss);
		e->pgtables_kb = min_t(unsigned long, mem->pgtables_bytes >> 10,
				       U32_MAX);
	}
}

/* ---- statedump ------------------------------------------------------ */

struct kt_sd_task {
	u32 pid;
	u32 tgid;
	u32 ppid;
	u8 state;
	u8 kthread;
	u16 pad;
	char comm[TASK_COMM_LEN];
};

static_assert(sizeof(struct kt_sd_task) == 16 + TASK_COMM_LEN);

static const struct ktrace_field kt_sd_task_fields[] __maybe_unused = {
	KT_FIELD_OF(struct kt_sd_task, pid, KTRACE_DISPLAY_DEC),
	KT_FIELD_OF(struct kt_sd_task, tgid, KTRACE_DISPLAY_DEC),
	KT_FIELD_OF(struct kt_sd_task, ppid, KTRACE_DISPLAY_DEC),
	KT_FIELD_ENUM_OF(struct kt_sd_task, state, kt_state),
	KT_FIELD_OF(struct kt_sd_task, kthread, KTRACE_DISPLAY_DEC),
	KT_FIELD_OF(struct kt_sd_task, comm, KTRACE_DISPLAY_STRING),
};

static inline void kt_sd_task_fill(struct kt_sd_task *e, u32 pid, u32 tgid,
				   u32 ppid, u8 state, bool kthread,
				   const char *comm)
{
	*e = (struct kt_sd_task) {
		.pid = pid,
		.tgid = tgid,
		.ppid = ppid,
		.state = state,
		.kthread = kthread,
	};
	strscpy_pad(e->comm, comm);
}

/* Followed by the path. */
struct kt_sd_fd {
	u32 pid;
	u32 fd;
};

static_assert(sizeof(struct kt_sd_fd) == 8);

static const struct ktrace_field kt_sd_fd_fields[] __maybe_unused = {
	KT_FIELD_OF(struct kt_sd_fd, pid, KTRACE_DISPLAY_DEC),
	KT_FIELD_OF(struct kt_sd_fd, fd, KTRACE_DISPLAY_DEC),
	KT_FIELD_TAIL(struct kt_sd_fd, "path"),
};

static inline void kt_sd_fd_fill(struct kt_sd_fd *e, u32 pid, u32 fd)
{
	*e = (struct kt_sd_fd) { .pid = pid, .fd = fd };
}

/* Followed by the path, or the name /proc/PID/maps shows. */
struct kt_sd_map {
	u64 start;
	u64 end;
	u64 pgoff;
	u64 flags;	/* vm_flags, named by the kernel's table */
	u32 pid;
	u32 pad;
};

static_assert(sizeof(struct kt_sd_map) == 40);

/*
 * vm_flags bits move between releases: the metadata carries the names
 * the traced kernel gives them (its show_vma_flags() table).
 */
static const struct ktrace_enum_value kt_vmflag_values[] __maybe_unused = {
	__def_vmaflag_names
};

static const struct ktrace_field kt_sd_map_fields[] __maybe_unused = {
	KT_FIELD_OF(struct kt_sd_map, pid, KTRACE_DISPLAY_DEC),
	KT_FIELD_OF(struct kt_sd_map, start, KTRACE_DISPLAY_HEX),
	KT_FIELD_OF(struct kt_sd_map, end, KTRACE_DISPLAY_HEX),
	{ .name = "flags", .offset = offsetof(struct kt_sd_map, flags),
	  .size = sizeof_field(struct kt_sd_map, flags), .display = KTRACE_DISPLAY_FLAGS,
	  .values = kt_vmflag_values, .nr_values = ARRAY_SIZE(kt_vmflag_values) },
	KT_FIELD_OF(struct kt_sd_map, pgoff, KTRACE_DISPLAY_HEX),
	KT_FIELD_TAIL(struct kt_sd_map, "path"),
};

/* @pgoff: in bytes. */
static inline void kt_sd_map_fill(struct kt_sd_map *e, u32 pid, u64 start,
				  u64 end, u64 pgoff, u64 flags)
{
	*e = (struct kt_sd_map) {
		.start = start,
		.end = end,
		.pgoff = pgoff,
		.pid = pid,
		.flags = flags,
	};
}

/* Followed by the action's name. */
struct kt_sd_irq {
	u32 irq;
	u32 pad;
	u64 handler;
};

static_assert(sizeof(struct kt_sd_irq) == 16);

static const struct ktrace_field kt_sd_irq_fields[] __maybe_unused = {
	KT_FIELD_OF(struct kt_sd_irq, irq, KTRACE_DISPLAY_DEC),
	KT_FIELD_K_OF(struct kt_sd_irq, handler, KTRACE_DISPLAY_SYMBOL),
	KT_FIELD_TAIL(struct kt_sd_irq, "name"),
};

static inline void kt_sd_irq_fill(struct kt_sd_irq *e, u32 irq, const void *handler)
{
	*e = (struct kt_sd_irq) { .irq = irq, .handler = (unsigned long)handler };
}

/* Followed by the disk's or partition's name; its size in MiB, saturated. */
struct kt_sd_blockdev {
	u32 dev;
	u32 size_mib;
};

static_assert(sizeof(struct kt_sd_blockdev) == 8);

static const struct ktrace_field kt_sd_blockdev_fields[] __maybe_unused = {
	KT_FIELD_OF(struct kt_sd_blockdev, dev, KTRACE_DISPLAY_DEV),
	KT_FIELD_OF(struct kt_sd_blockdev, size_mib, KTRACE_DISPLAY_DEC),
	KT_FIELD_TAIL(struct kt_sd_blockdev, "name"),
};

/* Followed by the interface's name. */
struct kt_sd_netdev {
	u32 ifindex;
};

static_assert(sizeof(struct kt_sd_netdev) == 4);

static const struct ktrace_field kt_sd_netdev_fields[] __maybe_unused = {
	KT_FIELD_OF(struct kt_sd_netdev, ifindex, KTRACE_DISPLAY_DEC),
	KT_FIELD_TAIL(struct kt_sd_netdev, "name"),
};

/* Followed by the module's name; __packed: 12 bytes on every architecture. */
struct kt_sd_module {
	u64 base;
	u32 size;
} __packed;

static_assert(sizeof(struct kt_sd_module) == 12);

static const struct ktrace_field kt_sd_module_fields[] __maybe_unused = {
	KT_FIELD_K_OF(struct kt_sd_module, base, KTRACE_DISPLAY_HEX),
	KT_FIELD_OF(struct kt_sd_module, size, KTRACE_DISPLAY_DEC),
	KT_FIELD_TAIL(struct kt_sd_module, "name"),
};

static inline void kt_sd_module_fill(struct kt_sd_module *e, u64 base, u32 size)
{
	*e = (struct kt_sd_module) { .base = base, .size = size };
}

struct kt_sd_end {
	u64 duration_ns;
	u64 longest_hold_ns;
	u32 tasks;
	u32 fds;
	u32 maps;
	u32 cpus;
	u32 dropped;
	u32 pad;
};

static_assert(sizeof(struct kt_sd_end) == 40);

static const struct ktrace_field kt_sd_end_fields[] __maybe_unused = {
	KT_FIELD_OF(struct kt_sd_end, duration_ns, KTRACE_DISPLAY_DEC),
	KT_FIELD_OF(struct kt_sd_end, longest_hold_ns, KTRACE_DISPLAY_DEC),
	KT_FIELD_OF(struct kt_sd_end, tasks, KTRACE_DISPLAY_DEC),
	KT_FIELD_OF(struct kt_sd_end, fds, KTRACE_DISPLAY_DEC),
	KT_FIELD_OF(struct kt_sd_end, maps, KTRACE_DISPLAY_DEC),
	KT_FIELD_OF(struct kt_sd_end, cpus, KTRACE_DISPLAY_DEC),
	KT_FIELD_OF(struct kt_sd_end, dropped, KTRACE_DISPLAY_DEC),
};

static inline void kt_sd_end_fill(struct kt_sd_end *e, u64 duration_ns,
				  u64 longest_hold_ns, u32 tasks, u32 fds,
				  u32 maps, u32 cpus, u32 dropped)
{
	*e = (struct kt_sd_end) {
		.duration_ns = duration_ns,
		.longest_hold_ns = longest_hold_ns,
		.tasks = tasks,
		.fds = fds,
		.maps = maps,
		.cpus = cpus,
		.dropped = dropped,
	};
}

#endif /* _KTRACE_PROBES_RECORDS_H */
