// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for ktrace triggers: the spec parser (good specs, and the
 * errno of each kind of bad one), and the listing of a spec as a spec that
 * parses back to the same trigger.  Then, on the real tracer (skipped if a
 * trace runs): what writes do to a trace a trigger froze, and a stop
 * across traces.
 *
 * The latency matcher, with a simulated clock: pairs under and over the
 * threshold, timeouts, pairs of an earlier trace, a full table, restarts,
 * forgotten pairs and a system call whose task changes pid (execve()); and
 * on the real tracer, the scan timer of a latency trigger, which runs only
 * while tracing, and an arm that fails while a probe of it runs.
 */
#include <kunit/static_stub.h>
#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/ktrace.h>
#include <linux/mman.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/timer.h>
#include <linux/uaccess.h>
#include <linux/nmi.h>
/* register_nmi_handler(): x86, by <linux/nmi.h> where ACPI has NMI handlers too. */
#if defined(CONFIG_X86_LOCAL_APIC) && defined(CONFIG_HAVE_ACPI_APEI_NMI)
#define KTRACE_TEST_NMI
#include <asm/apic.h>
#endif

#include "clock.h"
#include "ktrace_internal.h"
#include "latency.h"
#include "trigger.h"

struct parse_case {
	const char *spec;
	int ret;
	u8 kind;
	u8 lat;
	bool disarm;
	u8 action;
	u32 count;
	u32 delay_ms;
	u64 threshold_ns;
	int nr;
	u32 last;
};

/* Options not given expect their defaults: count 1, nr -1, last 100. */
#define GOOD(s, k, ...) { .spec = s, .kind = k, __VA_ARGS__ }
#define BAD(s, err) { .spec = s, .ret = err }

static const struct parse_case parse_cases[] = {
	GOOD("oom", KTRACE_TRIG_OOM),
	GOOD("oops", KTRACE_TRIG_OOPS),
	GOOD("hung_task", KTRACE_TRIG_HUNG_TASK),
	GOOD("user\tcount=7  delay=250", KTRACE_TRIG_USER, .count = 7, .delay_ms = 250),
	GOOD("panic last=5", KTRACE_TRIG_PANIC, .last = 5),
	GOOD("warn count=3", KTRACE_TRIG_WARN, .count = 3),
	GOOD("kernel action=mark delay=5", KTRACE_TRIG_KERNEL, .action = KTRACE_ACTION_MARK,
	     .delay_ms = 5),
	BAD("kernel nr=3", -EINVAL),
	BAD("warn last=3", -EINVAL),
	GOOD("oom action=mark", KTRACE_TRIG_OOM, .action = KTRACE_ACTION_MARK),
	GOOD("latency:block>10ms", KTRACE_TRIG_LATENCY, .lat = KTRACE_LAT_BLOCK,
	     .threshold_ns = 10 * NSEC_PER_MSEC),
	GOOD("latency:wakeup>1000ns", KTRACE_TRIG_LATENCY, .lat = KTRACE_LAT_WAKEUP,
	     .threshold_ns = 1000),
	GOOD("latency:syscall>2s nr=35", KTRACE_TRIG_LATENCY, .lat = KTRACE_LAT_SYSCALL,
	     .threshold_ns = 2 * NSEC_PER_SEC, .nr = 35),
#ifdef CONFIG_X86_64
	/* A name, from syscall_64.tbl (syscall_names.c). */
	GOOD("latency:syscall>1ms nr=clock_nanosleep", KTRACE_TRIG_LATENCY,
	     .lat = KTRACE_LAT_SYSCALL, .threshold_ns = NSEC_PER_MSEC, .nr = 230),
	GOOD("latency:syscall>1ms nr=write", KTRACE_TRIG_LATENCY,
	     .lat = KTRACE_LAT_SYSCALL, .threshold_ns = NSEC_PER_MSEC, .nr = 1),
#endif
	GOOD("latency:irq>3600s", KTRACE_TRIG_LATENCY, .lat = KTRACE_LAT_IRQ,
	     .threshold_ns = 3600 * NSEC_PER_SEC),
	GOOD("!oom", KTRACE_TRIG_OOM, .disarm = true),
	GOOD("!latency:irq", KTRACE_TRIG_LATENCY, .lat = KTRACE_LAT_IRQ, .disarm = true),
	BAD("", -EINVAL),
	BAD("oomx", -EINVAL),
	BAD("latency", -EINVAL),
	BAD("latency:block", -EINVAL),
	BAD("latency:block>", -EINVAL),
	BAD("latency:block>10", -EINVAL),
	BAD("latency:block>ms", -EINVAL),
	BAD("latency:block>10 ms", -EINVAL),
	BAD("latency:disk>10ms", -EINVAL),
	BAD("latency:block>999ns", -ERANGE),
	BAD("latency:block>3601s", -ERANGE),
	BAD("latency:block>18446744073709551616ns", -ERANGE),
	BAD("oom count=0", -ERANGE),
	BAD("oom count=+1", -EINVAL),
	BAD("oom count=-1", -EINVAL),
	BAD("oom count=4294967296", -ERANGE),
	BAD("oom delay=600001", -ERANGE),
	BAD("oom delay=", -EINVAL),
	BAD("oom action=", -EINVAL),
	BAD("oom action=stopp", -EINVAL),
	BAD("oom count=1 count=1", -EINVAL),
	BAD("oom nr=1", -EINVAL),
	BAD("latency:block>1ms nr=1", -EINVAL),
	BAD("latency:syscall>1ms nr=4096", -ERANGE),
	BAD("latency:syscall>1ms nr=no_such_call", -EINVAL),
	BAD("latency:syscall>1ms nr=-1", -EINVAL),
	BAD("oom nr=read", -EINVAL),
	BAD("oom last=1", -EINVAL),
	BAD("panic last=0", -ERANGE),
	BAD("oom =1", -EINVAL),
	BAD("!oom delay=1", -EINVAL),
	BAD("!latency:irq>1ms", -EINVAL),
	BAD("!", -EINVAL),
};

static void parse_case_desc(const struct parse_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "\"%s\"", c->spec);
}

KUNIT_ARRAY_PARAM(parse, parse_cases, parse_case_desc);

static void trigger_parse_test(struct kunit *test)
{
	const struct parse_case *c = test->param_value;
	struct ktrace_trigger_spec spec;
	char *s = kunit_kstrdup(test, c->spec, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, s);
	KUNIT_ASSERT_EQ(test, ktrace_trigger_parse(s, &spec), c->ret);
	if (c->ret)
		return;
	KUNIT_EXPECT_EQ(test, spec.kind, c->kind);
	KUNIT_EXPECT_EQ(test, spec.disarm, c->disarm);
	KUNIT_EXPECT_EQ(test, spec.action, c->action);
	KUNIT_EXPECT_EQ(test, spec.count, c->count ?: 1);
	KUNIT_EXPECT_EQ(test, spec.delay_ms, c->delay_ms);
	KUNIT_EXPECT_EQ(test, spec.nr, c->nr ?: -1);
	KUNIT_EXPECT_EQ(test, spec.last, c->last ?: KTRACE_TRIGGER_LAST_DEFAULT);
	if (c->kind == KTRACE_TRIG_LATENCY) {
		KUNIT_EXPECT_EQ(test, spec.lat, c->lat);
		KUNIT_EXPECT_EQ(test, spec.threshold_ns, c->threshold_ns);
	}
}

/* What the triggers file lists arms the same trigger again. */
static void trigger_format_test(struct kunit *test)
{
	static const char * const specs[][2] = {
		{ "oom", "oom count=1 delay=0 action=stop" },
		{ "latency:block>1500us count=2",
		  "latency:block>1500us count=2 delay=0 action=stop" },
		{ "latency:syscall>2000ms nr=0",
		  "latency:syscall>2s count=1 delay=0 action=stop nr=0" },
		{ "latency:irq>1001ns action=mark",
		  "latency:irq>1001ns count=1 delay=0 action=mark" },
		{ "panic last=9 delay=3", "panic count=1 delay=3 action=stop last=9" },
	};
	struct ktrace_trigger_spec spec, again;
	char buf[KTRACE_TRIGGER_SPEC_MAX], copy[KTRACE_TRIGGER_SPEC_MAX];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(specs); i++) {
		strscpy(copy, specs[i][0]);
		KUNIT_ASSERT_EQ(test, ktrace_trigger_parse(copy, &spec), 0);
		ktrace_trigger_format_spec(&spec, buf, sizeof(buf));
		KUNIT_EXPECT_STREQ(test, buf, specs[i][1]);
		strscpy(copy, buf);
		KUNIT_ASSERT_EQ(test, ktrace_trigger_parse(copy, &again), 0);
		KUNIT_EXPECT_EQ(test, memcmp(&spec, &again, sizeof(spec)), 0);
	}
}

/* A matcher with a threshold of 100 clock units, not armed to anything. */
static struct ktrace_latency *new_matcher(struct kunit *test)
{
	struct ktrace_latency *l = kunit_kzalloc(test, sizeof(*l), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, l);
	l->slots = kunit_kcalloc(test, KTRACE_LAT_SLOTS, sizeof(*l->slots), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, l->slots);
	l->threshold = 100;
	return l;
}

static void lat_pairs_test(struct kunit *test)
{
	struct ktrace_latency *l = new_matcher(test);
	u64 elapsed = 0;
	u64 info = 0;

	KUNIT_ASSERT_TRUE(test, ktrace_lat_begin(l, 42, 1000, 7, false));
	/* Under the threshold: found, not over, and removed. */
	KUNIT_EXPECT_FALSE(test, ktrace_lat_end(l, 42, 1100, 0, &elapsed, &info));
	KUNIT_EXPECT_EQ(test, elapsed, 100);
	KUNIT_EXPECT_EQ(test, info, 7);
	KUNIT_EXPECT_FALSE(test, ktrace_lat_end(l, 42, 5000, 0, &elapsed, &info));
	/* Over it. */
	KUNIT_ASSERT_TRUE(test, ktrace_lat_begin(l, 42, 2000, 8, false));
	KUNIT_EXPECT_TRUE(test, ktrace_lat_end(l, 42, 2101, 0, &elapsed, &info));
	KUNIT_EXPECT_EQ(test, elapsed, 101);
	KUNIT_EXPECT_EQ(test, info, 8);
	/* An end without a beginning, and keys that differ. */
	KUNIT_ASSERT_TRUE(test, ktrace_lat_begin(l, 1, 3000, 0, false));
	KUNIT_EXPECT_FALSE(test, ktrace_lat_end(l, 2, 9000, 0, &elapsed, &info));
	KUNIT_EXPECT_TRUE(test, ktrace_lat_end(l, 1, 9000, 0, &elapsed, &info));
	KUNIT_EXPECT_EQ(test, elapsed, 6000);
	/* Key 0 and the largest key are keys like any other. */
	KUNIT_ASSERT_TRUE(test, ktrace_lat_begin(l, 0, 1, 0, false));
	KUNIT_ASSERT_TRUE(test, ktrace_lat_begin(l, BIT_ULL(63) - 1, 1, 0, false));
	KUNIT_EXPECT_TRUE(test, ktrace_lat_end(l, 0, 500, 0, &elapsed, &info));
	KUNIT_EXPECT_TRUE(test, ktrace_lat_end(l, BIT_ULL(63) - 1, 500, 0, &elapsed, &info));
	KUNIT_EXPECT_EQ(test, atomic_long_read(&l->untracked), 0);
}

static void lat_restart_test(struct kunit *test)
{
	struct ktrace_latency *l = new_matcher(test);
	u64 elapsed;
	u64 info;

	/* Keep the first beginning (a second wakeup of a waiting task). */
	ktrace_lat_begin(l, 5, 1000, 1, false);
	ktrace_lat_begin(l, 5, 1090, 2, false);
	KUNIT_EXPECT_TRUE(test, ktrace_lat_end(l, 5, 1150, 0, &elapsed, &info));
	KUNIT_EXPECT_EQ(test, elapsed, 150);
	KUNIT_EXPECT_EQ(test, info, 1);
	/* Restart (a system call entered again: the exit was missed). */
	ktrace_lat_begin(l, 5, 1000, 1, true);
	ktrace_lat_begin(l, 5, 1090, 2, true);
	KUNIT_EXPECT_FALSE(test, ktrace_lat_end(l, 5, 1150, 0, &elapsed, &info));
	KUNIT_EXPECT_EQ(test, elapsed, 60);
	KUNIT_EXPECT_EQ(test, info, 2);
	/* Either way the key is in one slot only. */
	KUNIT_EXPECT_FALSE(test, ktrace_lat_end(l, 5, 9999, 0, &elapsed, &info));
}

static void lat_expired_test(struct kunit *test)
{
	struct ktrace_latency *l = new_matcher(test);
	u64 key, elapsed;
	u64 info;

	ktrace_lat_begin(l, 10, 1000, 100, false);
	ktrace_lat_begin(l, 11, 1050, 110, false);
	ktrace_lat_begin(l, 12, 1200, 120, false);
	/* Nothing older than the threshold yet. */
	KUNIT_EXPECT_FALSE(test, ktrace_lat_expired(l, 1100, 0, &key, &elapsed, &info));
	/* At 1160, 10 and 11 are; each is reported once, then removed. */
	KUNIT_ASSERT_TRUE(test, ktrace_lat_expired(l, 1160, 0, &key, &elapsed, &info));
	KUNIT_EXPECT_TRUE(test,
			  (key == 10 && elapsed == 160 && info == 100) ||
			  (key == 11 && elapsed == 110 && info == 110));
	KUNIT_ASSERT_TRUE(test, ktrace_lat_expired(l, 1160, 0, &key, &elapsed, &info));
	KUNIT_EXPECT_TRUE(test, (key == 10 && elapsed == 160) || (key == 11 && elapsed == 110));
	KUNIT_EXPECT_FALSE(test, ktrace_lat_expired(l, 1160, 0, &key, &elapsed, &info));
	/* A timed-out pair's end finds nothing: it does not fire twice. */
	KUNIT_EXPECT_FALSE(test, ktrace_lat_end(l, 10, 1170, 0, &elapsed, &info));
	KUNIT_EXPECT_TRUE(test, ktrace_lat_end(l, 12, 1301, 0, &elapsed, &info));
}

static void lat_since_test(struct kunit *test)
{
	struct ktrace_latency *l = new_matcher(test);
	u64 key, elapsed;
	u64 info;

	/* Begun before the trace started at 5000: dropped, never fired. */
	ktrace_lat_begin(l, 1, 1000, 0, false);
	ktrace_lat_begin(l, 2, 1000, 0, false);
	ktrace_lat_begin(l, 3, 5000, 0, false);
	KUNIT_EXPECT_FALSE(test, ktrace_lat_end(l, 1, 6000, 5000, &elapsed, &info));
	KUNIT_ASSERT_TRUE(test, ktrace_lat_expired(l, 6000, 5000, &key, &elapsed, &info));
	KUNIT_EXPECT_EQ(test, key, 3);
	KUNIT_EXPECT_EQ(test, elapsed, 1000);
	/* Key 2 never fires in this trace. */
	KUNIT_EXPECT_FALSE(test, ktrace_lat_expired(l, 9000, 5000, &key, &elapsed, &info));
	KUNIT_EXPECT_FALSE(test, ktrace_lat_end(l, 2, 9000, 5000, &elapsed, &info));
}

static void lat_full_test(struct kunit *test)
{
	struct ktrace_latency *l = new_matcher(test);
	unsigned int i, tracked = 0;
	u64 elapsed;
	u64 info;

	for (i = 0; i < 2 * KTRACE_LAT_SLOTS; i++)
		tracked += ktrace_lat_begin(l, i, 1000, 0, false);
	KUNIT_EXPECT_LE(test, tracked, KTRACE_LAT_SLOTS);
	KUNIT_EXPECT_GT(test, tracked, KTRACE_LAT_SLOTS / 2);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&l->untracked), 2 * KTRACE_LAT_SLOTS - tracked);
	/* Every tracked key ends; ending frees the slots for new keys. */
	for (i = 0; i < 2 * KTRACE_LAT_SLOTS; i++)
		tracked -= ktrace_lat_end(l, i, 2000, 0, &elapsed, &info);
	KUNIT_EXPECT_EQ(test, tracked, 0);
	KUNIT_EXPECT_TRUE(test, ktrace_lat_begin(l, 12345, 3000, 0, false));
}

static void lat_forget_test(struct kunit *test)
{
	struct ktrace_latency *l = new_matcher(test);
	u64 key, elapsed;
	u64 info;

	ktrace_lat_begin(l, 77, 1000, 0, false);
	ktrace_lat_forget(l, 77);
	KUNIT_EXPECT_FALSE(test, ktrace_lat_expired(l, 99999, 0, &key, &elapsed, &info));
	KUNIT_EXPECT_FALSE(test, ktrace_lat_end(l, 77, 99999, 0, &elapsed, &info));
}

/* A trigger, as armed by a write of @spec, but not published. */
static struct ktrace_trigger *new_trigger(struct kunit *test, const char *spec)
{
	struct ktrace_trigger *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	char *s = kunit_kstrdup(test, spec, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, t);
	KUNIT_ASSERT_NOT_NULL(test, s);
	KUNIT_ASSERT_EQ(test, ktrace_trigger_parse(s, &t->spec), 0);
	return t;
}

/*
 * An execve() by a thread other than the leader that fails after
 * de_thread(), its point of no return: the thread took the leader's pid
 * there (exchange_tids()), and returns from execve() under that pid,
 * without sched_process_exec.  Its system call still ends: nothing is
 * left to time out and fire later.  A successful execve() is the same
 * to the matcher.
 */
static void lat_exec_fail_test(struct kunit *test)
{
	struct ktrace_latency *l = new_matcher(test);
	struct task_struct *p = kunit_kzalloc(test, sizeof(*p), GFP_KERNEL);
	u64 key, elapsed = 0;
	u64 info = 0;

	KUNIT_ASSERT_NOT_NULL(test, p);
	l->trigger = new_trigger(test, "latency:syscall>1us");
	p->pid = 300;
	ktrace_lat_sys_begin(l, p, 59, 1000);
	p->pid = 200;
	KUNIT_EXPECT_TRUE(test, ktrace_lat_sys_end(l, p, 1150, 0, &elapsed, &info));
	KUNIT_EXPECT_EQ(test, elapsed, 150);
	KUNIT_EXPECT_EQ(test, info, 300ULL << 32 | 59);
	KUNIT_EXPECT_FALSE_MSG(test, ktrace_lat_expired(l, 99999, 0, &key, &elapsed, &info),
			       "left to time out: key %llu", key);
}

/* The tests start and stop the tracer: not while a trace of the user runs. */
/* The mode the tests found, put back at their exit. */
static enum ktrace_trace_mode tracer_found_mode;

/*
 * Overwrite mode: the tests start traces again and again without reading
 * them, and in a mode that drops, the low-rate channel would fill and
 * refuse a later start's metadata (and say so in the kernel log).
 */
static int tracer_init(struct kunit *test)
{
	/* Never at the cost of a trace someone may still want. */
	if (ktrace_is_running())
		kunit_skip(test, "a trace is running");
	if (!ktrace_channels_drained() || ktrace_trigger_pipe_ready())
		kunit_skip(test, "the buffers or trigger_pipe hold something unread");
	tracer_found_mode = ktrace_get_mode();
	KUNIT_ASSERT_EQ(test, ktrace_set_mode(KTRACE_TRACE_OVERWRITE), 0);
	test->priv = test;
	return 0;
}

/*
 * Leave ktrace as the test found it, a reader of the system would see
 * nothing of it: stopped, no buffers (a mode change frees them: no event
 * of the test unread, nothing "unsaved"), no firing left in trigger_pipe.
 */
static void tracer_exit(struct kunit *test)
{
	enum ktrace_trace_mode mode = tracer_found_mode;

	if (!test->priv)
		return;
	ktrace_set_enabled(false);
	ktrace_set_mode(mode == KTRACE_TRACE_DROP ? KTRACE_TRACE_OVERWRITE : KTRACE_TRACE_DROP);
	ktrace_set_mode(mode);
	ktrace_trigger_pipe_drain();
}

/*
 * A trace a trigger froze reads as stopped, and every write treats it so:
 * it is stopped first, then the write acts as on a stopped trace.
 */
static void frozen_writes_test(struct kunit *test)
{
	enum ktrace_trace_mode mode = ktrace_get_mode();
	unsigned long kb = ktrace_get_buffer_size_kb();
	unsigned long gen;

	KUNIT_ASSERT_EQ(test, ktrace_set_enabled(true), 0);
	KUNIT_EXPECT_EQ(test, ktrace_get_state(), KTRACE_STATE_TRACING);
	ktrace_freeze();
	KUNIT_EXPECT_EQ(test, ktrace_get_state(), KTRACE_STATE_FROZEN);
	KUNIT_EXPECT_FALSE(test, ktrace_is_enabled());
	KUNIT_EXPECT_TRUE(test, ktrace_is_running());
	/* Writing 1: a new trace, which the old trace's stop leaves alone. */
	gen = ktrace_generation_read();
	KUNIT_EXPECT_EQ(test, ktrace_set_enabled(true), 0);
	KUNIT_EXPECT_EQ(test, ktrace_get_state(), KTRACE_STATE_TRACING);
	KUNIT_EXPECT_TRUE(test, ktrace_is_enabled());
	KUNIT_EXPECT_NE(test, ktrace_generation_read(), gen);
	KUNIT_EXPECT_FALSE(test, ktrace_stop_frozen(gen));
	KUNIT_EXPECT_EQ(test, ktrace_get_state(), KTRACE_STATE_TRACING);
	/* mode and buffer_size_kb: EBUSY while tracing, not while frozen. */
	KUNIT_EXPECT_EQ(test, ktrace_set_mode(mode), -EBUSY);
	KUNIT_EXPECT_EQ(test, ktrace_set_buffer_size_kb(kb), -EBUSY);
	ktrace_freeze();
	KUNIT_EXPECT_EQ(test, ktrace_set_mode(mode), 0);
	KUNIT_EXPECT_EQ(test, ktrace_get_state(), KTRACE_STATE_STOPPED);
	KUNIT_ASSERT_EQ(test, ktrace_set_enabled(true), 0);
	ktrace_freeze();
	KUNIT_EXPECT_EQ(test, ktrace_set_buffer_size_kb(kb), 0);
	KUNIT_EXPECT_EQ(test, ktrace_get_state(), KTRACE_STATE_STOPPED);
	/* Writing 0 stops it too. */
	KUNIT_ASSERT_EQ(test, ktrace_set_enabled(true), 0);
	ktrace_freeze();
	KUNIT_EXPECT_EQ(test, ktrace_set_enabled(false), 0);
	KUNIT_EXPECT_EQ(test, ktrace_get_state(), KTRACE_STATE_STOPPED);
}

/* The trigger of trigger_log_test(), and the firings its hook makes. */
static struct ktrace_trigger *log_trigger;

static void log_fire(u64 value)
{
	char reason[32];
	struct ktrace_trigger_cause c = { .value = value, .reason = reason };

	snprintf(reason, sizeof(reason), "kunit %llu", value);
	ktrace_trigger_fire(log_trigger, &c);
}

/* A whole ring of firings while the first logger is between claim and publish. */
static void log_nested(void)
{
	unsigned int i;

	for (i = 1; i <= KTRACE_TRIGGER_FIRINGS; i++)
		log_fire(i);
}

/*
 * A logger of a firing preempted (or interrupted) halfway through writing
 * its slot of the trigger_pipe ring, while the ring fills up and the
 * newest firing comes back to that slot: two loggers must never share it.
 * A reader gets every firing whole (no line mixes two), or a count of the
 * lost ones, in order, never goes back, and a non-blocking read fails
 * with EAGAIN only when poll() would not say readable.
 */
static void trigger_log_test(struct kunit *test)
{
	unsigned long ubuf = kunit_vm_mmap(test, NULL, 0, PAGE_SIZE, PROT_READ | PROT_WRITE,
					   MAP_ANONYMOUS | MAP_PRIVATE, 0);
	char *text = kunit_kzalloc(test, PAGE_SIZE + 1, GFP_KERNEL);
	unsigned long long value, reason, lost, last = 0;
	unsigned int i, lines = 0, firings = 0, nr_lost = 0;
	char *p, *nl, *v;
	bool ready;
	int got;
	ssize_t n;

	KUNIT_ASSERT_NOT_NULL(test, text);
	KUNIT_ASSERT_LT_MSG(test, ubuf, (unsigned long)TASK_SIZE, "no user memory");
	log_trigger = new_trigger(test, "user action=mark");
	KUNIT_ASSERT_EQ(test, ktrace_set_enabled(true), 0);
	/* What earlier tests left. */
	while (ktrace_trigger_pipe_read((char __user *)ubuf, PAGE_SIZE, true) > 0)
		;
	ktrace_trigger_log_hook = log_nested;
	log_fire(0);
	KUNIT_EXPECT_NULL(test, ktrace_trigger_log_hook);

	for (i = 0; i < 200; i++) {
		ready = ktrace_trigger_pipe_ready();
		n = ktrace_trigger_pipe_read((char __user *)ubuf, PAGE_SIZE, true);
		if (n <= 0) {
			KUNIT_EXPECT_EQ(test, n, -EAGAIN);
			KUNIT_EXPECT_FALSE_MSG(test, ready, "EAGAIN, poll() readable, line %u",
					       lines);
			break;
		}
		KUNIT_ASSERT_EQ(test, copy_from_user(text, (char __user *)ubuf, n), 0);
		text[n] = '\0';
		for (p = text; (nl = strchr(p, '\n')); p = nl + 1) {
			*nl = '\0';
			lines++;
			if (sscanf(p, "# %llu firings lost", &lost) == 1) {
				nr_lost += lost;
				continue;
			}
			v = strstr(p, " value=");
			KUNIT_ASSERT_NOT_NULL_MSG(test, v, "line %s", p);
			got = sscanf(v, " value=%llu reason=\"kunit %llu", &value, &reason);
			KUNIT_ASSERT_EQ_MSG(test, got, 2, "line %s", p);
			KUNIT_EXPECT_EQ_MSG(test, value, reason, "a line of two firings: %s", p);
			if (firings)
				KUNIT_EXPECT_GT_MSG(test, value, last, "went back: %s", p);
			last = value;
			firings++;
		}
		KUNIT_EXPECT_EQ(test, *p, '\0');
	}
	KUNIT_EXPECT_LT(test, i, 200);
	KUNIT_EXPECT_FALSE(test, ktrace_trigger_pipe_ready());
	/* The ring keeps the newest: at most one of them lost with the slot. */
	KUNIT_EXPECT_EQ(test, firings + nr_lost, KTRACE_TRIGGER_FIRINGS + 1);
	KUNIT_EXPECT_GE(test, firings, KTRACE_TRIGGER_FIRINGS - 1);
	kunit_info(test, "%u lines: %u firings, %u lost\n", lines, firings, nr_lost);
}

/* Until @state, 2 s at most. */
static bool wait_state(enum ktrace_state state)
{
	int i;

	for (i = 0; i < 100 && ktrace_get_state() != state; i++)
		msleep(20);
	return ktrace_get_state() == state;
}

/*
 * A delay= stop still pending when its trace was stopped and another
 * started does not hold back the stop of the new trace's trigger.
 */
static void stop_across_traces_test(struct kunit *test)
{
	struct ktrace_trigger *slow = new_trigger(test, "user delay=600000");
	struct ktrace_trigger *now = new_trigger(test, "user");
	struct ktrace_trigger_cause c = { .reason = "kunit" };

	KUNIT_ASSERT_EQ(test, ktrace_set_enabled(true), 0);
	KUNIT_ASSERT_EQ(test, ktrace_trigger_fire(slow, &c), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&slow->fired), 1);
	msleep(20);
	KUNIT_EXPECT_EQ(test, ktrace_get_state(), KTRACE_STATE_TRACING);
	KUNIT_ASSERT_EQ(test, ktrace_set_enabled(false), 0);
	KUNIT_ASSERT_EQ(test, ktrace_set_enabled(true), 0);
	KUNIT_ASSERT_EQ(test, ktrace_trigger_fire(now, &c), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&now->fired), 1);
	KUNIT_EXPECT_TRUE(test, wait_state(KTRACE_STATE_STOPPED));
}

/* The new trace's delay= trigger, fired while the old trace's stop work runs. */
static struct ktrace_trigger *stale_stop_slow;

/*
 * As the stop work of a trace begins: the trace is started again, and
 * the new trace's trigger asks for a stop ten minutes from now.
 */
static void stale_stop_restart(void)
{
	struct ktrace_trigger_cause c = { .reason = "kunit" };

	if (ktrace_set_enabled(true))
		return;
	ktrace_trigger_fire(stale_stop_slow, &c);
}

/*
 * The stop work of a trace, running already when that trace is stopped
 * and a new one started, stops nothing of the new trace: not even once
 * the new trace's trigger asked for its own stop, later (delay=).
 */
static void stop_work_stale_test(struct kunit *test)
{
	struct ktrace_trigger *now = new_trigger(test, "user");
	struct ktrace_trigger_cause c = { .reason = "kunit" };
	unsigned long gen;
	int i;

	stale_stop_slow = new_trigger(test, "user delay=600000");
	KUNIT_ASSERT_EQ(test, ktrace_set_enabled(true), 0);
	gen = ktrace_generation_read();
	ktrace_trigger_stop_hook = stale_stop_restart;
	KUNIT_ASSERT_EQ(test, ktrace_trigger_fire(now, &c), 0);
	for (i = 0; i < 100 && READ_ONCE(ktrace_trigger_stop_hook); i++)
		msleep(20);
	if (READ_ONCE(ktrace_trigger_stop_hook)) {
		ktrace_trigger_stop_hook = NULL;
		KUNIT_FAIL(test, "the stop work did not run");
		return;
	}
	ktrace_trigger_stop_flush();
	KUNIT_EXPECT_EQ(test, atomic_read(&stale_stop_slow->fired), 1);
	KUNIT_EXPECT_EQ(test, ktrace_generation_read(), gen + 1);
	KUNIT_EXPECT_EQ_MSG(test, ktrace_get_state(), KTRACE_STATE_TRACING,
			    "the new trace stopped 10 minutes early");
}

/* A close of the channels held up, as by a reader blocked in read(). */
static struct {
	enum ktrace_trace_mode mode;
	struct completion closing;
	struct completion release;
	struct completion done;
} held_close;

/* Where relay_close() waits for the readers: until released, 3 s at most. */
static void held_close_hook(void)
{
	complete(&held_close.closing);
	wait_for_completion_timeout(&held_close.release, 3 * HZ);
}

/* echo MODE > mode, which frees the channels. */
static int held_close_fn(void *unused)
{
	ktrace_set_mode(held_close.mode);
	complete(&held_close.done);
	return 0;
}

/*
 * A mode or a size frees the channels, and relay_close() then waits for
 * the readers of their stream files: one blocked in copy_to_user() on a
 * userfaultfd or FUSE page holds that close up as long as it likes.  The
 * control files answer meanwhile: a start fails with EBUSY (the new stream
 * files would take the names of the old ones), a size is taken; once the
 * old files are gone, a start succeeds.
 */
static void close_held_test(struct kunit *test)
{
	unsigned long kb = ktrace_get_buffer_size_kb(), t0, ms;
	struct task_struct *k;
	int ret;

	held_close.mode = ktrace_get_mode() == KTRACE_TRACE_DROP ?
			  KTRACE_TRACE_OVERWRITE : KTRACE_TRACE_DROP;
	init_completion(&held_close.closing);
	init_completion(&held_close.release);
	init_completion(&held_close.done);
	/* Channels to free. */
	KUNIT_ASSERT_EQ(test, ktrace_set_enabled(true), 0);
	KUNIT_ASSERT_EQ(test, ktrace_set_enabled(false), 0);
	ktrace_channel_close_hook = held_close_hook;
	k = kthread_run(held_close_fn, NULL, "ktrace_kunit_close");
	if (IS_ERR(k)) {
		ktrace_channel_close_hook = NULL;
		KUNIT_FAIL(test, "no thread: %ld", PTR_ERR(k));
		return;
	}
	wait_for_completion(&held_close.closing);

	t0 = jiffies;
	ret = ktrace_set_enabled(true);
	ms = jiffies_to_msecs(jiffies - t0);
	KUNIT_EXPECT_EQ(test, ret, -EBUSY);
	KUNIT_EXPECT_LT_MSG(test, ms, 1000, "a start waited %lu ms for the close", ms);
	t0 = jiffies;
	ret = ktrace_set_buffer_size_kb(kb);
	ms = jiffies_to_msecs(jiffies - t0);
	KUNIT_EXPECT_EQ(test, ret, 0);
	KUNIT_EXPECT_LT_MSG(test, ms, 1000, "a size waited %lu ms for the close", ms);

	complete(&held_close.release);
	wait_for_completion(&held_close.done);
	KUNIT_EXPECT_EQ(test, ktrace_get_mode(), held_close.mode);
	KUNIT_EXPECT_EQ(test, ktrace_set_enabled(true), 0);
}

/* The scan timer of a latency trigger runs while a trace runs, only. */
static void lat_scan_timer_test(struct kunit *test)
{
	struct ktrace_trigger *t = new_trigger(test, "latency:irq>20ms action=mark");
	struct timer_list *scan;

	KUNIT_ASSERT_EQ(test, ktrace_latency_arm(t), 0);
	scan = &t->lat->scan;
	KUNIT_EXPECT_FALSE(test, timer_pending(scan));
	/* Started by a start; queued again while the trace runs. */
	KUNIT_ASSERT_EQ(test, ktrace_set_enabled(true), 0);
	mutex_lock(&ktrace_mutex);
	ktrace_latency_start(t);
	mutex_unlock(&ktrace_mutex);
	KUNIT_EXPECT_TRUE(test, timer_pending(scan));
	msleep(100);
	KUNIT_EXPECT_TRUE(test, timer_pending(scan));
	/* Not queued again once the trace stopped. */
	KUNIT_ASSERT_EQ(test, ktrace_set_enabled(false), 0);
	msleep(100);
	KUNIT_EXPECT_FALSE(test, timer_pending(scan));
	ktrace_latency_disarm(t);
}

/*
 * The name that chooses the current clock again, changing nothing:
 * "tsc-mono" (the TSC given up) cannot be written, "tsc" from it changes
 * nothing or fails (ktrace_clock_change()).
 */
static const char *current_clock_choice(void)
{
	return strcmp(ktrace_clock.name, "tsc-mono") ? ktrace_clock.name : "tsc";
}

/* The clock the test found, chosen again whatever the test left. */
static void clock_restore(void *found)
{
	ktrace_set_enabled(false);
	if (strcmp(ktrace_clock.name, found))
		ktrace_set_clock(found);
}

/*
 * The clock: a bad name is -EINVAL, a TSC not allowed the errno that says
 * why, and -EBUSY comes while tracing and while a latency trigger is armed
 * (its threshold and pairs are in clock units), even for the current
 * clock; nothing changes on an error.  "mono" can always be chosen: when
 * the clock found can be chosen back ("tsc" or "mono", whichever is the
 * default), it is, even after a failed assertion (a KUnit action); after
 * "tsc-mono", which cannot, the clock is not changed.
 */
static void clock_set_test(struct kunit *test)
{
	const char *found = ktrace_clock.name, *same = current_clock_choice();
	bool back = ktrace_clock_parse(found) >= 0;
	struct ktrace_trigger *t;
	struct ktrace_clock_caps caps;
	char before[64], after[64];
	int tsc;

	/* Before the trigger: the actions run last first, so after its own. */
	KUNIT_ASSERT_EQ(test, kunit_add_action(test, clock_restore, (void *)found), 0);
	t = new_trigger(test, "latency:irq>20ms action=mark");
	ktrace_clock_show(before, sizeof(before));
	KUNIT_EXPECT_EQ(test, ktrace_set_clock("bogus"), -EINVAL);
	KUNIT_EXPECT_EQ(test, ktrace_set_clock(""), -EINVAL);
	KUNIT_EXPECT_EQ(test, ktrace_set_clock("Mono"), -EINVAL);
	KUNIT_EXPECT_EQ(test, ktrace_set_clock("tsc-mono"), -EINVAL);
	ktrace_clock_show(after, sizeof(after));
	KUNIT_EXPECT_STREQ(test, after, before);
	KUNIT_EXPECT_PTR_EQ(test, ktrace_clock.name, found);
	ktrace_clock_get_caps(&caps);
	tsc = ktrace_clock_allowed(KTRACE_CLOCK_TSC, &caps);

	if (back) {
		KUNIT_ASSERT_EQ(test, ktrace_set_clock("mono"), 0);
		KUNIT_EXPECT_STREQ(test, ktrace_clock.name, "mono");
		KUNIT_EXPECT_EQ(test, ktrace_clock.freq_hz, NSEC_PER_SEC);
		KUNIT_EXPECT_EQ(test, ktrace_clock.shift, 6);
		ktrace_clock_show(after, sizeof(after));
		KUNIT_EXPECT_NOT_NULL(test, strstr(after, "[mono]"));
		if (tsc) {
			KUNIT_EXPECT_EQ(test, ktrace_set_clock("tsc"), tsc);
			KUNIT_EXPECT_STREQ(test, ktrace_clock.name, "mono");
		}
		same = "mono";
	} else {
		/* "tsc" from "tsc-mono": nothing changes, or the TSC's errno. */
		KUNIT_EXPECT_EQ(test, ktrace_set_clock("tsc"), tsc);
		KUNIT_EXPECT_PTR_EQ(test, ktrace_clock.name, found);
	}

	KUNIT_ASSERT_EQ(test, ktrace_set_enabled(true), 0);
	KUNIT_EXPECT_EQ(test, ktrace_set_clock(same), -EBUSY);
	KUNIT_EXPECT_EQ(test, ktrace_set_clock("mono"), -EBUSY);
	KUNIT_ASSERT_EQ(test, ktrace_set_enabled(false), 0);
	KUNIT_ASSERT_EQ(test, ktrace_latency_arm(t), 0);
	KUNIT_EXPECT_EQ(test, ktrace_set_clock(same), -EBUSY);
	KUNIT_EXPECT_EQ(test, ktrace_set_clock("mono"), -EBUSY);
	ktrace_latency_disarm(t);
	if (back)
		KUNIT_EXPECT_EQ(test, ktrace_set_clock(found), 0);
	KUNIT_EXPECT_STREQ(test, ktrace_clock.name, found);
}

/* A probe of the matcher, running while its registration fails. */
static struct {
	struct ktrace_latency *l;
	struct completion entered;
	atomic_t done;
} slow_probe;

/* As a tracepoint probe runs: preemption disabled, for 50 ms. */
static int slow_probe_fn(void *unused)
{
	preempt_disable();
	complete(&slow_probe.entered);
	mdelay(50);
	/* Freed already without a grace period: KASAN reports it here. */
	atomic_set(&slow_probe.done, READ_ONCE(slow_probe.l->threshold) == 1000);
	preempt_enable();
	return 0;
}

/*
 * The stub of ktrace_lat_hook(): a probe registered first runs, on
 * another CPU, when the registration of the next fails.
 */
static int failing_hook(struct ktrace_latency *l, bool on)
{
	struct task_struct *k;
	unsigned int cpu;

	if (!on)
		return 0;
	slow_probe.l = l;
	l->threshold = 1000;
	k = kthread_create(slow_probe_fn, NULL, "ktrace_kunit_probe");
	if (IS_ERR(k))
		return PTR_ERR(k);
	cpu = cpumask_any_but(cpu_online_mask, raw_smp_processor_id());
	if (cpu < nr_cpu_ids)
		kthread_bind(k, cpu);
	wake_up_process(k);
	wait_for_completion(&slow_probe.entered);
	return -EIO;
}

/* A failed arm frees the matcher once no probe can be using it. */
static void lat_arm_failure_test(struct kunit *test)
{
	struct ktrace_trigger *t = new_trigger(test, "latency:irq>1ms");

	init_completion(&slow_probe.entered);
	atomic_set(&slow_probe.done, 0);
	kunit_activate_static_stub(test, ktrace_lat_hook, failing_hook);
	KUNIT_EXPECT_EQ(test, ktrace_latency_arm(t), -EIO);
	KUNIT_EXPECT_NULL(test, t->lat);
	/* Returned only once the probe was done with the matcher. */
	KUNIT_EXPECT_EQ(test, atomic_read(&slow_probe.done), 1);
	/* And the clock is not kept from changing (no -EBUSY), whichever it is. */
	KUNIT_EXPECT_NE(test, ktrace_set_clock(current_clock_choice()), -EBUSY);
}

/* What trigger_pipe holds, read whole into @text (PAGE_SIZE + 1 bytes). */
static void read_firings(struct kunit *test, char *text)
{
	unsigned long ubuf = kunit_vm_mmap(test, NULL, 0, PAGE_SIZE, PROT_READ | PROT_WRITE,
					   MAP_ANONYMOUS | MAP_PRIVATE, 0);
	size_t len = 0;
	ssize_t n;

	KUNIT_ASSERT_LT_MSG(test, ubuf, (unsigned long)TASK_SIZE, "no user memory");
	while (len < PAGE_SIZE &&
	       (n = ktrace_trigger_pipe_read((char __user *)ubuf, PAGE_SIZE - len, true)) > 0) {
		KUNIT_ASSERT_EQ(test, copy_from_user(text + len, (char __user *)ubuf, n), 0);
		len += n;
	}
	text[len] = '\0';
}

/* The number of firings of the trigger armed in @slot, or -1 if none is. */
static int slot_fired(unsigned int slot)
{
	struct ktrace_trigger *t;
	int fired = -1;

	rcu_read_lock();
	t = ktrace_trigger_get(slot);
	if (t)
		fired = atomic_read(&t->fired);
	rcu_read_unlock();
	return fired;
}

static void arm(struct kunit *test, const char *spec)
{
	char *s = kunit_kstrdup(test, spec, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, s);
	KUNIT_ASSERT_EQ_MSG(test, ktrace_trigger_write(s), 0, "arming %s", spec);
}

/*
 * The kernel API as a caller uses it: ktrace_trigger() fires the "kernel"
 * trigger armed in the triggers file, with its options, and only then;
 * ktrace_on_warning() fires "warn"; ktrace_mark() writes marks.
 */
static void api_test(struct kunit *test)
{
	char *text = kunit_kzalloc(test, PAGE_SIZE + 1, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, text);
	KUNIT_EXPECT_EQ(test, ktrace_trigger("kunit"), -ENOENT);
	arm(test, "kernel action=mark count=2");
	KUNIT_EXPECT_EQ(test, ktrace_trigger("kunit"), -EAGAIN);
	KUNIT_EXPECT_EQ(test, ktrace_mark("kunit"), -EAGAIN);
	KUNIT_ASSERT_EQ(test, ktrace_set_enabled(true), 0);
	read_firings(test, text);
	KUNIT_EXPECT_EQ(test, ktrace_trigger("kunit one"), 0);
	KUNIT_EXPECT_EQ(test, slot_fired(KTRACE_TRIG_KERNEL), 0);
	KUNIT_EXPECT_EQ(test, ktrace_trigger(NULL), 0);
	KUNIT_EXPECT_EQ(test, slot_fired(KTRACE_TRIG_KERNEL), 1);
	KUNIT_EXPECT_EQ(test, ktrace_mark("kunit %d", 42), 0);
	KUNIT_EXPECT_EQ(test, ktrace_mark("%s", ""), -EINVAL);

	arm(test, "warn action=mark");
	ktrace_on_warning(read_firings);
	KUNIT_EXPECT_EQ(test, slot_fired(KTRACE_TRIG_WARN), 1);
	read_firings(test, text);
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(text, " kernel action=mark fired=1 pid="),
				  "%s", text);
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(text, "reason=\"no reason given\"\n"),
				  "%s", text);
	KUNIT_EXPECT_NULL_MSG(test, strstr(text, "kunit one"), "fired at count 1: %s", text);
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(text, " warn action=mark fired=1 pid="),
				  "%s", text);
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(text, "reason=\"WARNING at read_firings+0x"),
				  "%s", text);
	arm(test, "!kernel");
	arm(test, "!warn");
	KUNIT_EXPECT_EQ(test, ktrace_trigger("kunit"), -ENOENT);
}

#ifdef KTRACE_TEST_NMI
/* What the NMI handler of api_nmi_test() did. */
static struct {
	atomic_t armed;
	bool in_nmi;
	int trigger;
	int mark;
} api_nmi;

static int api_nmi_handler(unsigned int type, struct pt_regs *regs)
{
	if (!atomic_xchg(&api_nmi.armed, 0))
		return NMI_DONE;
	api_nmi.in_nmi = in_nmi();
	api_nmi.trigger = ktrace_trigger("from an NMI");
	api_nmi.mark = ktrace_mark("from an NMI on CPU %d", smp_processor_id());
	return NMI_HANDLED;
}

/*
 * ktrace_trigger() and ktrace_mark() from a real NMI, sent by this CPU to
 * itself: the trigger freezes the trace from there (action=stop).
 */
static void api_nmi_test(struct kunit *test)
{
	char *text = kunit_kzalloc(test, PAGE_SIZE + 1, GFP_KERNEL);
	int i;

	KUNIT_ASSERT_NOT_NULL(test, text);
	if (!apic || !apic->send_IPI_self)
		kunit_skip(test, "no local APIC");
	arm(test, "kernel");
	KUNIT_ASSERT_EQ(test, ktrace_set_enabled(true), 0);
	read_firings(test, text);
	KUNIT_ASSERT_EQ(test, register_nmi_handler(NMI_LOCAL, api_nmi_handler, 0, "ktrace_kunit"),
			0);
	atomic_set(&api_nmi.armed, 1);
	apic->send_IPI_self(NMI_VECTOR);
	for (i = 0; i < 100 && atomic_read(&api_nmi.armed); i++)
		msleep(20);
	unregister_nmi_handler(NMI_LOCAL, "ktrace_kunit");
	KUNIT_ASSERT_EQ_MSG(test, atomic_read(&api_nmi.armed), 0, "the NMI never came");
	KUNIT_EXPECT_TRUE(test, api_nmi.in_nmi);
	KUNIT_EXPECT_EQ(test, api_nmi.trigger, 0);
	/* The gate closes at the firing: the mark after it is refused. */
	KUNIT_EXPECT_EQ(test, api_nmi.mark, -EAGAIN);
	KUNIT_EXPECT_EQ(test, slot_fired(KTRACE_TRIG_KERNEL), 1);
	KUNIT_EXPECT_TRUE(test, wait_state(KTRACE_STATE_STOPPED));
	read_firings(test, text);
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(text, " kernel action=stop fired=1 pid="),
				  "%s", text);
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(text, "reason=\"from an NMI\"\n"), "%s", text);
	arm(test, "!kernel");
}
#else
static void api_nmi_test(struct kunit *test)
{
	kunit_skip(test, "no x86 local APIC to send an NMI with");
}
#endif

static struct kunit_case trigger_cases[] = {
	KUNIT_CASE_PARAM(trigger_parse_test, parse_gen_params),
	KUNIT_CASE(trigger_format_test),
	KUNIT_CASE(lat_pairs_test),
	KUNIT_CASE(lat_restart_test),
	KUNIT_CASE(lat_expired_test),
	KUNIT_CASE(lat_since_test),
	KUNIT_CASE(lat_full_test),
	KUNIT_CASE(lat_forget_test),
	KUNIT_CASE(lat_exec_fail_test),
	{}
};

static struct kunit_suite trigger_suite = {
	.name = "ktrace_trigger",
	.test_cases = trigger_cases,
};

static struct kunit_case trigger_tracer_cases[] = {
	KUNIT_CASE(trigger_log_test),
	KUNIT_CASE(frozen_writes_test),
	KUNIT_CASE(stop_across_traces_test),
	KUNIT_CASE(stop_work_stale_test),
	KUNIT_CASE(close_held_test),
	KUNIT_CASE(lat_scan_timer_test),
	KUNIT_CASE(lat_arm_failure_test),
	KUNIT_CASE(api_test),
	KUNIT_CASE(api_nmi_test),
	KUNIT_CASE(clock_set_test),
	{}
};

static struct kunit_suite trigger_tracer_suite = {
	.name = "ktrace_trigger_tracer",
	.init = tracer_init,
	.exit = tracer_exit,
	.test_cases = trigger_tracer_cases,
};

kunit_test_suites(&trigger_suite, &trigger_tracer_suite);

MODULE_DESCRIPTION("KUnit tests for ktrace triggers");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
