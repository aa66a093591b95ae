// SPDX-License-Identifier: GPL-2.0
/*
 * ktrace write-path benchmark, against ftrace's ring buffer in the same
 * boot.  Runs once at the end of boot when the kernel command line has
 * "ktrace.bench=1", and prints one "ktrace_bench:" line per figure:
 *
 *   ns per compact event (4-byte payload) and per 32-byte expanded event,
 *   ktrace's write path and ring_buffer_lock_reserve()/unlock_commit()
 *   with the same payloads, on one CPU and on every CPU at once, in
 *   overwrite mode, and their ratios; the hot probes against the bare
 *   write (ktrace_probes_bench()); and the bytes per event of compact
 *   events alone and of a mix of 90% compact and 10% expanded events,
 *   subbuffer headers, timestamp records and padding included.
 *
 * Every time is measured in BENCH_ROUNDS rounds: the median is printed
 * with the smallest and largest, so that a reader sees the spread.
 *
 * A benchmark, not a test: numbers under emulation (QEMU TCG) are only
 * meaningful as ratios within one boot; under QEMU's instruction counting
 * (make bench) guest time counts guest instructions, and two boots give
 * the one-CPU figures within a few tenths of a percent (the all-CPU ones
 * count both vCPUs' instructions, as one host thread interleaved them).
 * The trace clock is whatever ktrace.clock= chose: make bench forces the
 * TSC, the production path.
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
#include "clock.h"
#include "ktrace_internal.h"

#define BENCH_EVENTS	200000
#define BENCH_RB_SIZE	(4 << 20)
#define BENCH_ROUNDS	3
#define BENCH_PROBES	12

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

/* Rounds of one figure: the median, the smallest and the largest. */
struct bench_fig {
	u64 v[BENCH_ROUNDS];
};

static void __init bench_fig_sort(struct bench_fig *f, u64 *med, u64 *lo, u64 *hi)
{
	u64 v[BENCH_ROUNDS];
	unsigned int i, j;

	memcpy(v, f->v, sizeof(v));
	for (i = 1; i < BENCH_ROUNDS; i++)
		for (j = i; j > 0 && v[j - 1] > v[j]; j--)
			swap(v[j - 1], v[j]);
	*med = v[BENCH_ROUNDS / 2];
	*lo = v[0];
	*hi = v[BENCH_ROUNDS - 1];
}

/*
 * "median (lowest..highest)" of hundredths, as "12.34 (12.30..12.40)":
 * 69 bytes at most, with the NUL.
 */
static const char * __init bench_fig_fmt(struct bench_fig *f, char *buf, size_t size)
{
	u64 med, lo, hi;

	bench_fig_sort(f, &med, &lo, &hi);
	snprintf(buf, size, "%llu.%02llu (%llu.%02llu..%llu.%02llu)",
		 div_u64(med, 100), med % 100, div_u64(lo, 100), lo % 100,
		 div_u64(hi, 100), hi % 100);
	return buf;
}

/* @num / @den in hundredths of a percent, for bench_fig_fmt(). */
static u64 __init bench_ratio(u64 num, u64 den)
{
	return div64_u64(num * 10000, max(den, 1ULL));
}

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

/*
 * Average hundredths of a ns per event on one CPU (all false) or on every
 * CPU at once.
 */
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
	return n ? div64_u64(sum * 100, (u64)n * BENCH_EVENTS) : 0;
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

/* The probes' ns per call, by round, in the order they are reported. */
static struct {
	const char *name;
	struct bench_fig ns;
} bench_probes[BENCH_PROBES] __initdata;
static unsigned int bench_probe_round __initdata, bench_probe_next __initdata;

static void __init bench_probe_report(const char *name, u64 ns)
{
	unsigned int i = bench_probe_next++;

	if (i >= BENCH_PROBES)
		return;
	bench_probes[i].name = name;
	bench_probes[i].ns.v[bench_probe_round] = ns * 100;
}

/* The probes, each against the bare write ("write", reported first). */
static void __init bench_probes_run(void)
{
	struct bench_fig ratio;
	char a[72], b[72];
	unsigned int i, r;

	for (r = 0; r < BENCH_ROUNDS; r++) {
		bench_probe_round = r;
		bench_probe_next = 0;
		ktrace_probes_bench(bench_probe_report);
	}
	for (i = 0; i < min(bench_probe_next, BENCH_PROBES); i++) {
		if (!i) {
			pr_info("probe micro-benchmark: compact write alone %s ns/event\n",
				bench_fig_fmt(&bench_probes[0].ns, a, sizeof(a)));
			continue;
		}
		for (r = 0; r < BENCH_ROUNDS; r++)
			ratio.v[r] = bench_ratio(bench_probes[i].ns.v[r],
						 bench_probes[0].ns.v[r]) / 100;
		pr_info("probe %s: %s ns/call, %sx the write alone\n",
			bench_probes[i].name,
			bench_fig_fmt(&bench_probes[i].ns, a, sizeof(a)),
			bench_fig_fmt(&ratio, b, sizeof(b)));
	}
}

/* Every write-path figure, BENCH_ROUNDS rounds each, and the ratios. */
static void __init bench_write_path(struct bench_run *run)
{
	struct bench_fig ns[NR_BENCH], rc, re;
	unsigned int k, all, r;
	char a[72], b[72];

	for (all = 0; all < 2; all++) {
		for (r = 0; r < BENCH_ROUNDS; r++) {
			for (k = 0; k < NR_BENCH; k++) {
				run->kind = k;
				ns[k].v[r] = bench(run, all);
			}
			rc.v[r] = bench_ratio(ns[BENCH_KTRACE_COMPACT].v[r],
					      ns[BENCH_FTRACE_COMPACT].v[r]);
			re.v[r] = bench_ratio(ns[BENCH_KTRACE_EXPANDED].v[r],
					      ns[BENCH_FTRACE_EXPANDED].v[r]);
		}
		for (k = 0; k < NR_BENCH; k++)
			pr_info("%s, %s: %s ns/event\n", bench_names[k],
				all ? "all CPUs" : "one CPU",
				bench_fig_fmt(&ns[k], a, sizeof(a)));
		pr_info("ratio ktrace/ftrace, %s: compact %s%%, expanded32 %s%%\n",
			all ? "all CPUs" : "one CPU", bench_fig_fmt(&rc, a, sizeof(a)),
			bench_fig_fmt(&re, b, sizeof(b)));
	}
}

static int __init ktrace_bench(void)
{
	struct bench_run run = {};

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
	pr_info("trace clock %s, %d rounds: median (lowest..highest)\n",
		ktrace_clock.name, BENCH_ROUNDS);
	bench_write_path(&run);
	bench_bytes(0);
	bench_bytes(10);
	bench_probes_run();
	ktrace_set_enabled(false);
free:
	if (run.rb)
		ring_buffer_free(run.rb);
	kfree(run.ns);
	return 0;
}
late_initcall_sync(ktrace_bench);
