// SPDX-License-Identifier: GPL-2.0
/*
 * ktrace write-path benchmark, against ftrace's ring buffer in the same
 * boot.  Runs once at the end of boot when the kernel command line has
 * "ktrace.bench=1", and prints one "ktrace_bench:" line per figure:
 *
 *   ns per compact event (4-byte payload) and per 32-byte expanded event,
 *   ktrace's write path and ring_buffer_lock_reserve()/unlock_commit()
 *   with the same payloads, on one CPU and on every CPU at once, in
 *   overwrite mode; and the bytes per event of compact events alone and
 *   of a mix of 90% compact and 10% expanded events, subbuffer headers,
 *   timestamp records and padding included.
 *
 * A benchmark, not a test: numbers under emulation (QEMU TCG) are only
 * meaningful as ratios within one boot.
 */
#define pr_fmt(fmt) "ktrace_bench: " fmt

#include <linux/init.h>
#include <linux/moduleparam.h>
#include <linux/ring_buffer.h>
#include <linux/sched/clock.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/string.h>

#include "buffer.h"
#include "ktrace_internal.h"

#define BENCH_EVENTS	200000
#define BENCH_RB_SIZE	(4 << 20)

#undef MODULE_PARAM_PREFIX
#define MODULE_PARAM_PREFIX "ktrace."

static bool ktrace_bench_requested;
module_param_named(bench, ktrace_bench_requested, bool, 0400);
MODULE_PARM_DESC(bench, "run the write-path benchmark at the end of boot");

enum bench_kind { BENCH_KTRACE_COMPACT, BENCH_KTRACE_EXPANDED,
		  BENCH_FTRACE_COMPACT, BENCH_FTRACE_EXPANDED, NR_BENCH };

static const char * const bench_names[NR_BENCH] = {
	"ktrace compact", "ktrace expanded32", "ftrace 4-byte", "ftrace 32-byte",
};

struct bench_run {
	enum bench_kind kind;
	struct trace_buffer *rb;
	u64 *ns;	/* per CPU id, nr_cpu_ids of them */
};

static void __init bench_ftrace(struct trace_buffer *rb, unsigned long len)
{
	static const u8 payload[32] = { 1, 2, 3 };
	struct ring_buffer_event *ev;
	unsigned int i;

	for (i = 0; i < BENCH_EVENTS; i++) {
		ev = ring_buffer_lock_reserve(rb, len);
		if (!ev)
			continue;
		memcpy(ring_buffer_event_data(ev), payload, len);
		ring_buffer_unlock_commit(rb);
	}
}

static void __init bench_one_cpu(void *arg)
{
	static const u8 payload[32] = { 1, 2, 3 };
	struct bench_run *run = arg;
	unsigned int i;
	u64 start;

	start = local_clock();
	switch (run->kind) {
	case BENCH_KTRACE_COMPACT:
		for (i = 0; i < BENCH_EVENTS; i++)
			ktrace_write_compact(KTRACE_CHANNEL_HIGH, 1, i);
		break;
	case BENCH_KTRACE_EXPANDED:
		for (i = 0; i < BENCH_EVENTS; i++)
			ktrace_write_expanded(KTRACE_CHANNEL_HIGH, 2, 0, payload, 32);
		break;
	case BENCH_FTRACE_COMPACT:
		bench_ftrace(run->rb, 4);
		break;
	default:
		bench_ftrace(run->rb, 32);
		break;
	}
	run->ns[smp_processor_id()] = local_clock() - start;
}

/* Average ns per event on one CPU (all false) or on every CPU at once. */
static u64 __init bench(struct bench_run *run, bool all)
{
	unsigned int cpu, n = 0;
	u64 sum = 0;

	memset(run->ns, 0, nr_cpu_ids * sizeof(*run->ns));
	if (all) {
		on_each_cpu(bench_one_cpu, run, 1);
	} else {
		preempt_disable();
		bench_one_cpu(run);
		preempt_enable();
	}
	for_each_online_cpu(cpu) {
		if (run->ns[cpu]) {
			sum += run->ns[cpu];
			n++;
		}
	}
	return n ? div_u64(sum, (u64)n * BENCH_EVENTS) : 0;
}

/* Bytes of buffer used per event, one in every_expanded 32-byte expanded. */
static void __init bench_bytes(unsigned int every_expanded)
{
	static const u8 payload[32];
	struct ktrace_buf_stats before, after;
	unsigned int i, cpu;
	u64 events, bytes;

	migrate_disable();
	cpu = smp_processor_id();
	ktrace_channel_stats(KTRACE_CHANNEL_HIGH, cpu, &before);
	for (i = 0; i < BENCH_EVENTS; i++) {
		if (!every_expanded || i % every_expanded)
			ktrace_write_compact(KTRACE_CHANNEL_HIGH, 1, i);
		else
			ktrace_write_expanded(KTRACE_CHANNEL_HIGH, 2, 0, payload, 32);
	}
	ktrace_channel_stats(KTRACE_CHANNEL_HIGH, cpu, &after);
	migrate_enable();
	events = after.events - before.events;
	bytes = after.used - before.used;
	pr_info("%u%% compact (rest expanded32): %llu.%02llu bytes/event (%llu events, %llu subbuffers, %llu timestamps)\n",
		every_expanded ? 100 - 100 / every_expanded : 100,
		div_u64(bytes, events), div_u64(bytes * 100, events) % 100, events,
		after.subbufs - before.subbufs, after.timestamps - before.timestamps);
}

static u64 bench_write_ns __initdata;

static void __init bench_probe_report(const char *name, u64 ns)
{
	if (!strcmp(name, "write")) {
		bench_write_ns = ns;
		pr_info("probe micro-benchmark: compact write alone %llu ns/event\n", ns);
		return;
	}
	pr_info("probe %s: %llu ns/call, %llu.%02llux the write alone\n", name, ns,
		div64_u64(ns, max(bench_write_ns, 1ULL)),
		div64_u64(ns * 100, max(bench_write_ns, 1ULL)) % 100);
}

static int __init ktrace_bench(void)
{
	struct bench_run run = {};
	u64 ns[NR_BENCH][2];
	unsigned int k, all;

	if (!ktrace_bench_requested)
		return 0;
	/* Not u64[NR_CPUS] on the stack: 64 KiB with NR_CPUS=8192. */
	run.ns = kcalloc(nr_cpu_ids, sizeof(*run.ns), GFP_KERNEL);
	run.rb = ring_buffer_alloc(BENCH_RB_SIZE, RB_FL_OVERWRITE);
	if (!run.ns || !run.rb) {
		pr_err("no memory\n");
		goto free;
	}
	if (ktrace_set_mode(KTRACE_TRACE_OVERWRITE) ||
	    ktrace_set_buffer_size_kb(BENCH_RB_SIZE >> 10) ||
	    ktrace_set_enabled(true)) {
		pr_err("cannot start ktrace\n");
		goto free;
	}
	for (all = 0; all < 2; all++) {
		for (k = 0; k < NR_BENCH; k++) {
			run.kind = k;
			ns[k][all] = bench(&run, all);
			pr_info("%s, %s: %llu ns/event\n", bench_names[k],
				all ? "all CPUs" : "one CPU", ns[k][all]);
		}
		pr_info("ratio ktrace/ftrace, %s: compact %llu%%, expanded32 %llu%%\n",
			all ? "all CPUs" : "one CPU",
			div64_u64(ns[BENCH_KTRACE_COMPACT][all] * 100,
				  max(ns[BENCH_FTRACE_COMPACT][all], 1ULL)),
			div64_u64(ns[BENCH_KTRACE_EXPANDED][all] * 100,
				  max(ns[BENCH_FTRACE_EXPANDED][all], 1ULL)));
	}
	bench_bytes(0);
	bench_bytes(10);
	ktrace_probes_bench(bench_probe_report);
	ktrace_set_enabled(false);
free:
	if (run.rb)
		ring_buffer_free(run.rb);
	kfree(run.ns);
	return 0;
}
late_initcall_sync(ktrace_bench);
