// SPDX-License-Identifier: GPL-2.0
/*
 * ktrace's memory reclaim events: direct reclaim begin and end, kswapd
 * wake and sleep, compact; each pass of reclaim over an inactive list,
 * and the OOM killer's victim.
 */
#include <linux/mm.h>
#include <linux/sched/signal.h>
#include <linux/vmstat.h>
#include <trace/events/oom.h>
#include <trace/events/vmscan.h>

#include "tracepoints.h"

/* order below 16, then the gfp flags */
#define KT_ORDER_BITS	4

static_assert(KT_ORDER_BITS + __GFP_BITS_SHIFT <= 32);
static_assert(BIT(KT_ORDER_BITS) > MAX_PAGE_ORDER);

static const struct ktrace_field kt_reclaim_begin_fields[] = {
	KT_FIELD("order", 0, KT_ORDER_BITS, KTRACE_DISPLAY_DEC),
	{ .name = "gfp_flags", .offset = KT_ORDER_BITS, .size = 32 - KT_ORDER_BITS,
	  .display = KTRACE_DISPLAY_FLAGS, .values = kt_gfp_values,
	  .nr_values = ARRAY_SIZE(kt_gfp_values) },
};

static const struct ktrace_field kt_reclaim_end_fields[] = {
	KT_FIELD("nr_reclaimed", 0, 32, KTRACE_DISPLAY_DEC),
};

static const struct ktrace_field kt_kswapd_wake_fields[] = {
	KT_FIELD("nid", 0, 10, KTRACE_DISPLAY_DEC),
	KT_FIELD("zid", 10, 3, KTRACE_DISPLAY_DEC),
	KT_FIELD("order", 13, KT_ORDER_BITS, KTRACE_DISPLAY_DEC),
};

static const struct ktrace_field kt_kswapd_sleep_fields[] = {
	KT_FIELD("nid", 0, 10, KTRACE_DISPLAY_DEC),
};

KT_EVENT(kt_ev_reclaim_begin, "vm", "direct_reclaim_begin", KTRACE_CHANNEL_HIGH,
	 KTRACE_EVENT_COMPACT, kt_reclaim_begin);
KT_EVENT(kt_ev_reclaim_end, "vm", "direct_reclaim_end", KTRACE_CHANNEL_HIGH,
	 KTRACE_EVENT_COMPACT, kt_reclaim_end);
KT_EVENT(kt_ev_kswapd_wake, "vm", "kswapd_wake", KTRACE_CHANNEL_HIGH,
	 KTRACE_EVENT_COMPACT, kt_kswapd_wake);
KT_EVENT(kt_ev_kswapd_sleep, "vm", "kswapd_sleep", KTRACE_CHANNEL_HIGH,
	 KTRACE_EVENT_COMPACT, kt_kswapd_sleep);
/*
 * vm:shrink_inactive: one pass of reclaim over an inactive LRU list, the
 * unit of the paper's OOM investigation: at which priority, how many
 * pages were scanned and reclaimed, and why the others were kept.
 * Counts saturate at 65535.
 *
 * vm:oom_kill: the OOM killer's victim, sizes in KiB as ftrace's
 * oom:mark_victim; the comm so that the victim is named even when its
 * fork predates the trace.
 */
KT_EVENT(kt_ev_shrink, "vm", "shrink_inactive", KTRACE_CHANNEL_HIGH,
	 KTRACE_EVENT_EXPANDED, kt_shrink);
KT_EVENT(kt_ev_oom, "vm", "oom_kill", KTRACE_CHANNEL_HIGH, KTRACE_EVENT_EXPANDED, kt_oom);

static void kt_probe_reclaim_begin(void *data, int order, gfp_t gfp_flags)
{
	ktrace_event_write_compact(&kt_ev_reclaim_begin,
				   (order & (BIT(KT_ORDER_BITS) - 1)) |
				   ((__force u32)gfp_flags << KT_ORDER_BITS));
}

static void kt_probe_reclaim_end(void *data, unsigned long nr_reclaimed)
{
	ktrace_event_write_compact(&kt_ev_reclaim_end, min(nr_reclaimed, U32_MAX));
}

static void kt_probe_mm_vmscan_kswapd_wake(void *data, int nid, int zid, int order)
{
	ktrace_event_write_compact(&kt_ev_kswapd_wake, (nid & 1023) | ((zid & 7) << 10) |
				   ((order & (BIT(KT_ORDER_BITS) - 1)) << 13));
}

static void kt_probe_mm_vmscan_kswapd_sleep(void *data, int nid)
{
	ktrace_event_write_compact(&kt_ev_kswapd_sleep, nid & 1023);
}

static void kt_probe_shrink_inactive(void *data, int nid,
				     unsigned long nr_scanned,
				     unsigned long nr_reclaimed,
				     struct reclaim_stat *stat,
				     int priority, int file)
{
	struct kt_shrink e;

	kt_shrink_fill(&e, nid, nr_scanned, nr_reclaimed, stat, priority, file);
	ktrace_event_write(&kt_ev_shrink, &e, sizeof(e));
}

static void kt_probe_mark_victim(void *data, struct task_struct *task, uid_t uid)
{
	struct mm_struct *mm = task->mm;
	struct kt_oom_mem mem;
	struct kt_oom e;

	if (mm) {
		mem.total_vm = mm->total_vm;
		mem.anon_rss = get_mm_counter(mm, MM_ANONPAGES);
		mem.file_rss = get_mm_counter(mm, MM_FILEPAGES);
		mem.shmem_rss = get_mm_counter(mm, MM_SHMEMPAGES);
		mem.pgtables_bytes = mm_pgtables_bytes(mm);
	}
	kt_oom_fill(&e, task->pid, task->comm, uid, task->signal->oom_score_adj,
		    mm ? &mem : NULL);
	ktrace_event_write(&kt_ev_oom, &e, sizeof(e));
}

KT_TP_PROBE(register_trace_mm_vmscan_direct_reclaim_begin, kt_probe_reclaim_begin);
KT_TP_PROBE(register_trace_mm_vmscan_direct_reclaim_end, kt_probe_reclaim_end);
KT_TP_PROBE(register_trace_mm_vmscan_kswapd_wake, kt_probe_mm_vmscan_kswapd_wake);
KT_TP_PROBE(register_trace_mm_vmscan_kswapd_sleep, kt_probe_mm_vmscan_kswapd_sleep);
KT_TP_PROBE(register_trace_mm_vmscan_lru_shrink_inactive, kt_probe_shrink_inactive);
KT_TP_PROBE(register_trace_mark_victim, kt_probe_mark_victim);

/* The events of reclaim, in registration order, and their tracepoints. */
static const struct kt_tp kt_vm_tps[] = {
	KT_TP(kt_ev_reclaim_begin, register_trace_mm_vmscan_direct_reclaim_begin),
	KT_TP(kt_ev_reclaim_end, register_trace_mm_vmscan_direct_reclaim_end),
	KT_TP(kt_ev_kswapd_wake, register_trace_mm_vmscan_kswapd_wake),
	KT_TP(kt_ev_kswapd_sleep, register_trace_mm_vmscan_kswapd_sleep),
	KT_TP(kt_ev_shrink, register_trace_mm_vmscan_lru_shrink_inactive),
	KT_TP(kt_ev_oom, register_trace_mark_victim),
};

KT_TP_TABLE(vm);
