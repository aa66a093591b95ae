/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ktrace latency triggers: the matcher (latency.c), above the triggers
 * (trigger.h), which know it only as the provider of the latency kind.
 */
#ifndef _KTRACE_LATENCY_H
#define _KTRACE_LATENCY_H

#include <linux/atomic.h>
#include <linux/timer.h>
#include <linux/types.h>

#include "trigger.h"

/* latency.c: the matcher of a latency trigger. */
#define KTRACE_LAT_SLOTS	4096	/* entries in flight, per trigger */
#define KTRACE_LAT_PROBES	8	/* slots tried per key */

/**
 * struct ktrace_lat_slot - one begun, unfinished pair
 * @key: the key, with bit 63 set; 0 when free
 * @start: trace clock at the beginning, never 0; 0 while being filled
 *	or claimed
 * @info: kept for the report: the system call and pid, the IRQ, the dev_t
 */
struct ktrace_lat_slot {
	u64 key;
	u64 start;
	u64 info;
};

/**
 * struct ktrace_latency - the matcher of one latency trigger
 * @slots: %KTRACE_LAT_SLOTS entries, allocated at arming
 * @threshold: in trace clock units
 * @untracked: beginnings not tracked: no free slot among the probed
 * @scan: the timer that fires on pairs whose end never came; queued only
 *	while a trace runs
 * @scan_period: its period in jiffies
 * @trigger: the trigger it fires
 */
struct ktrace_latency {
	struct ktrace_lat_slot *slots;
	u64 threshold;
	atomic_long_t untracked;
	struct timer_list scan;
	unsigned long scan_period;
	struct ktrace_trigger *trigger;
};

bool ktrace_lat_begin(struct ktrace_latency *l, u64 key, u64 now, u64 info,
		      bool restart);
bool ktrace_lat_end(struct ktrace_latency *l, u64 key, u64 now, u64 since,
		    u64 *elapsed, u64 *info);
bool ktrace_lat_expired(struct ktrace_latency *l, u64 now, u64 since,
			u64 *key, u64 *elapsed, u64 *info);
void ktrace_lat_forget(struct ktrace_latency *l, u64 key);
#if IS_ENABLED(CONFIG_KUNIT)
int ktrace_lat_hook(struct ktrace_latency *l, bool on);
void ktrace_lat_sys_begin(struct ktrace_latency *l, struct task_struct *p,
			  long id, u64 now);
bool ktrace_lat_sys_end(struct ktrace_latency *l, struct task_struct *p,
			u64 now, u64 since, u64 *elapsed, u64 *info);
#endif
int ktrace_latency_arm(struct ktrace_trigger *t);
void ktrace_latency_start(struct ktrace_trigger *t);
void ktrace_latency_disarm(struct ktrace_trigger *t);

#endif /* _KTRACE_LATENCY_H */
