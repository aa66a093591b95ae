// SPDX-License-Identifier: GPL-2.0
/*
 * ktrace test events: a source of events in hardirq context, for the
 * selftests, until the real instrumentation exists.
 *
 * test:tick is a compact event on the medium-rate channel, the channel the
 * mark file writes to from task context, so that ticks interrupt mark
 * writers between their reservation and their commit.  While the event is
 * enabled, a pinned hard hrtimer on every online CPU writes one tick every
 * tick_us microseconds (module parameter ktrace.tick_us, default 20); the
 * payload is a per-CPU sequence number, from 0 at every enable, that only
 * advances for ticks that reached the buffer, written or dropped, so that
 * a reader can check that the ticks it reads are in order and that the
 * missing ones were counted.
 *
 * The "test" directory of ktrace's debugfs directory has two causes of
 * latency on demand, for the selftests of the case studies, which need a
 * known cause with a known duration:
 *
 *  irqsoff_us	writing N (1..100000) disables interrupts on the writer's
 *		CPU for N microseconds, as a driver that spins with
 *		interrupts off would (the irqsoff tracer's delay test needs
 *		modules, which the test guests have none of).
 *  slow_irq_us	writing N (1..100000) raises "ktrace_slow", an interrupt of
 *		the interrupt simulator, on the writer's CPU; its handler
 *		busy-waits N microseconds, as the handler of a slow device
 *		would.  The write returns once the handler has run.
 *
 * Anything else written gets -EINVAL (not a number) or -ERANGE.
 */
#define pr_fmt(fmt) "ktrace: " fmt

#include <linux/completion.h>
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/hrtimer.h>
#include <linux/init.h>
#include <linux/interrupt.h>
#include <linux/irq.h>
#include <linux/irq_sim.h>
#include <linux/irqdomain.h>
#include <linux/hex.h>
#include <linux/kstrtox.h>
#include <linux/ktime.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/timekeeping.h>

#include "event.h"
#include "ktrace_internal.h"

#undef MODULE_PARAM_PREFIX
#define MODULE_PARAM_PREFIX "ktrace."

static unsigned int tick_us = 20;
module_param(tick_us, uint, 0600);
MODULE_PARM_DESC(tick_us, "period of the test:tick event, in microseconds");

static DEFINE_PER_CPU(struct hrtimer, ktrace_tick_timer);
static DEFINE_PER_CPU(u32, ktrace_tick_seq);

static const struct ktrace_field ktrace_tick_fields[] = {
	{ .name = "seq", .offset = 0, .size = 32, .display = KTRACE_DISPLAY_DEC },
};

static int ktrace_tick_enable(struct ktrace_event *ev, bool on);

static struct ktrace_event ktrace_event_tick = {
	.group = "test",
	.name = "tick",
	.channel = KTRACE_CHANNEL_MEDIUM,
	.kind = KTRACE_EVENT_COMPACT,
	.fields = ktrace_tick_fields,
	.nr_fields = ARRAY_SIZE(ktrace_tick_fields),
	.enable = ktrace_tick_enable,
};

static enum hrtimer_restart ktrace_tick(struct hrtimer *timer)
{
	u32 seq = __this_cpu_read(ktrace_tick_seq);

	if (ktrace_write_compact(KTRACE_CHANNEL_MEDIUM, ktrace_event_tick.id, seq) != -EAGAIN)
		__this_cpu_write(ktrace_tick_seq, seq + 1);
	hrtimer_forward_now(timer, ns_to_ktime(max(READ_ONCE(tick_us), 1U) * NSEC_PER_USEC));
	return HRTIMER_RESTART;
}

/* On each CPU: the timer must be started where it is pinned. */
static void ktrace_tick_start(void *info)
{
	struct hrtimer *timer = this_cpu_ptr(&ktrace_tick_timer);

	hrtimer_start(timer, ns_to_ktime(max(READ_ONCE(tick_us), 1U) * NSEC_PER_USEC),
		      HRTIMER_MODE_REL_PINNED_HARD);
}

static int ktrace_tick_enable(struct ktrace_event *ev, bool on)
{
	unsigned int cpu;

	if (on) {
		for_each_possible_cpu(cpu)
			per_cpu(ktrace_tick_seq, cpu) = 0;
		on_each_cpu(ktrace_tick_start, NULL, 1);
	} else {
		for_each_possible_cpu(cpu)
			hrtimer_cancel(per_cpu_ptr(&ktrace_tick_timer, cpu));
	}
	return 0;
}

/* The longest delay the test files accept: 100 ms. */
#define KTRACE_TEST_MAX_US	100000

/* Serializes the writers of slow_irq_us: one raise, one handler, at a time. */
static DEFINE_MUTEX(ktrace_slow_mutex);
static DECLARE_COMPLETION(ktrace_slow_done);
static unsigned int ktrace_slow_virq;
static unsigned int ktrace_slow_us;

/* A number of microseconds from user space, 1..KTRACE_TEST_MAX_US. */
static int ktrace_test_get_us(const char __user *ubuf, size_t count,
			      unsigned int *us)
{
	int ret = kstrtouint_from_user(ubuf, count, 0, us);

	if (ret)
		return ret;
	if (*us < 1 || *us > KTRACE_TEST_MAX_US)
		return -ERANGE;
	return 0;
}

/*
 * Busy-wait @us microseconds of CLOCK_MONOTONIC, the time the trace's
 * clock converts to: udelay() counts on its own calibration, which under
 * emulation can be off by half.  The fast accessor reads the clocksource
 * without a lock, interrupts off or not.  In case the clock stood still
 * (a jiffies clocksource, with the tick off), udelay(1) steps bound the
 * wait at ten times as long as asked.
 */
static void ktrace_test_spin(unsigned int us)
{
	u64 end = ktime_get_mono_fast_ns() + (u64)us * NSEC_PER_USEC;
	unsigned long n;

	for (n = 0; n < 10UL * us && ktime_get_mono_fast_ns() < end; n++)
		udelay(1);
}

static ssize_t ktrace_irqsoff_write(struct file *file, const char __user *ubuf,
				    size_t count, loff_t *ppos)
{
	unsigned long flags;
	unsigned int us;
	int ret;

	ret = ktrace_test_get_us(ubuf, count, &us);
	if (ret)
		return ret;
	local_irq_save(flags);
	ktrace_test_spin(us);
	local_irq_restore(flags);
	return count;
}

static const struct file_operations ktrace_irqsoff_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = ktrace_irqsoff_write,
	.llseek = noop_llseek,
};

/* At most this many bytes per write to persist_poke. */
#define KTRACE_POKE_MAX	64

/*
 * persist_poke: "OFFSET HEXBYTES" writes those bytes at that offset of the
 * persistent region, for the corruption tests of the next boot's checks.
 */
static ssize_t ktrace_poke_write(struct file *file, const char __user *ubuf,
				 size_t count, loff_t *ppos)
{
	u8 bytes[KTRACE_POKE_MAX];
	char *buf, *p, *hex;
	size_t n;
	u64 off;
	int ret = -EINVAL;

	if (count > 32 + 2 * KTRACE_POKE_MAX)
		return -EINVAL;
	buf = memdup_user_nul(ubuf, count);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	p = strim(buf);
	hex = strchr(p, ' ');
	if (!hex)
		goto out;
	*hex = '\0';
	hex = skip_spaces(hex + 1);
	n = strlen(hex) / 2;
	if (!n || strlen(hex) % 2 || n > sizeof(bytes) || kstrtou64(p, 0, &off) ||
	    hex2bin(bytes, hex, n))
		goto out;
	ret = ktrace_persist_poke(off, bytes, n);
out:
	kfree(buf);
	return ret ? ret : count;
}

static const struct file_operations ktrace_poke_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = ktrace_poke_write,
	.llseek = noop_llseek,
};

static irqreturn_t ktrace_slow_handler(int irq, void *dev_id)
{
	ktrace_test_spin(READ_ONCE(ktrace_slow_us));
	complete(&ktrace_slow_done);
	return IRQ_HANDLED;
}

/*
 * The simulator runs the handler from a hard irq_work on this CPU, as soon
 * as interrupts are enabled again; a second is plenty even under emulation.
 */
static ssize_t ktrace_slow_irq_write(struct file *file, const char __user *ubuf,
				     size_t count, loff_t *ppos)
{
	unsigned int us;
	int ret;

	ret = ktrace_test_get_us(ubuf, count, &us);
	if (ret)
		return ret;
	mutex_lock(&ktrace_slow_mutex);
	reinit_completion(&ktrace_slow_done);
	WRITE_ONCE(ktrace_slow_us, us);
	ret = irq_set_irqchip_state(ktrace_slow_virq, IRQCHIP_STATE_PENDING, true);
	if (!ret && !wait_for_completion_timeout(&ktrace_slow_done, HZ))
		ret = -ETIMEDOUT;
	mutex_unlock(&ktrace_slow_mutex);
	return ret ? ret : count;
}

static const struct file_operations ktrace_slow_irq_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = ktrace_slow_irq_write,
	.llseek = noop_llseek,
};

/*
 * The simulated interrupt exists from boot, so that every statedump names
 * its handler.  Failing leaves the file out, not the test events.
 */
static int __init ktrace_slow_irq_init(void)
{
	struct fwnode_handle *fwnode;
	struct irq_domain *domain;
	int virq, ret;

	fwnode = irq_domain_alloc_named_fwnode("ktrace-test");
	if (!fwnode)
		return -ENOMEM;
	domain = irq_domain_create_sim(fwnode, 1);
	if (IS_ERR(domain)) {
		ret = PTR_ERR(domain);
		goto free_fwnode;
	}
	virq = irq_create_mapping(domain, 0);
	if (!virq) {
		ret = -ENXIO;
		goto remove_domain;
	}
	ret = request_irq(virq, ktrace_slow_handler, IRQF_NO_THREAD, "ktrace_slow", NULL);
	if (ret)
		goto dispose;
	ktrace_slow_virq = virq;
	return 0;

dispose:
	irq_dispose_mapping(virq);
remove_domain:
	irq_domain_remove_sim(domain);
free_fwnode:
	irq_domain_free_fwnode(fwnode);
	return ret;
}

/* The files go in ktrace's debugfs directory, made at fs_initcall time. */
static void __init ktrace_test_files_init(void)
{
	struct dentry *parent, *dir;
	int ret;

	parent = debugfs_lookup("ktrace", NULL);
	if (IS_ERR_OR_NULL(parent))
		return;
	dir = debugfs_create_dir("test", parent);
	dput(parent);
	debugfs_create_file("irqsoff_us", 0200, dir, NULL, &ktrace_irqsoff_fops);
	debugfs_create_file("persist_poke", 0200, dir, NULL, &ktrace_poke_fops);
	ret = ktrace_slow_irq_init();
	if (ret)
		pr_warn("no simulated slow interrupt: %d\n", ret);
	else
		debugfs_create_file("slow_irq_us", 0200, dir, NULL, &ktrace_slow_irq_fops);
}

static int __init ktrace_test_events_init(void)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu) {
		struct hrtimer *timer = per_cpu_ptr(&ktrace_tick_timer, cpu);

		hrtimer_init(timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED_HARD);
		timer->function = ktrace_tick;
	}
	ktrace_test_files_init();
	return ktrace_event_register(&ktrace_event_tick);
}
device_initcall(ktrace_test_events_init);
