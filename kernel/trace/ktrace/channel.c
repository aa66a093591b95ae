// SPDX-License-Identifier: GPL-2.0
/*
 * ktrace channels: three per-CPU relay channels, each CPU's buffer written
 * by the lockless writer of buffer.c.
 *
 *   high    scheduler, IRQ, syscalls, block, VM; buffer_size_kb per CPU
 *   medium  names, statedump, marks; 512 KiB per CPU
 *   low     metadata; 64 KiB per CPU
 *
 * Channels are allocated at the first start and freed when the size of
 * the high-rate channel or the mode changes, always with tracing stopped: writers check
 * ktrace_tracing with preemption disabled, and the stop path waits for
 * them with synchronize_rcu() before anything is flushed or freed.
 *
 * CPU hotplug: a CPU that comes online after the channels were allocated
 * gets its buffers then (relay has made its own in CPUHP_RELAY_PREPARE,
 * which runs before the dynamic prepare states); a CPU going offline
 * closes its current subbuffers, so that what it wrote can be read while
 * it is away.  Buffers are kept across offline periods.  The hotplug
 * callbacks run with the hotplug lock held for writing, and allocating or
 * freeing the channels holds it for reading, so neither ever sees the
 * other half done.
 */
#define pr_fmt(fmt) "ktrace: " fmt

#include <linux/cpu.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/oom.h>
#include <linux/percpu.h>
#include <linux/relay.h>
#include <linux/sched.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <kunit/visibility.h>

#include "buffer.h"
#include "ktrace_internal.h"

/**
 * struct ktrace_channel - one channel
 * @name: its name, also its directory under /sys/kernel/debug/ktrace/
 * @rchan: the relay channel: memory, files, reader bookkeeping
 * @bufs: per CPU, the writer's state over relay's buffer, or %NULL
 * @dead_rchan: a relay channel freed, whose files are not yet closed
 *	(see the lifetime rules above ktrace_channels_closing)
 * @dead_bufs: its per-CPU array, its buffers destroyed
 * @dead_by: the task that freed it, and closes it
 * @size: bytes per CPU
 * @overwrite: overwrite rather than drop, for the buffers it allocates
 */
struct ktrace_channel {
	const char *name;
	struct rchan *rchan;
	struct ktrace_buf * __percpu *bufs;
	struct rchan *dead_rchan;
	struct ktrace_buf * __percpu *dead_bufs;
	struct task_struct *dead_by;
	size_t size;
	bool overwrite;
};

static struct ktrace_channel ktrace_channels[KTRACE_NR_CHANNELS] = {
	[KTRACE_CHANNEL_HIGH] = { .name = "high" },
	[KTRACE_CHANNEL_MEDIUM] = { .name = "medium", .size = SZ_512K },
	[KTRACE_CHANNEL_LOW] = { .name = "low", .size = SZ_64K },
};

/*
 * Serializes changes of the tracing state (start, stop, mode, sizes) and
 * the allocation of the channels.  Defined here, with the gate, because
 * the channels are the lowest layer that needs them; the state itself is
 * core.c's, which tells the channels what they need (the mode, the size).
 */
struct mutex ktrace_mutex = __MUTEX_INITIALIZER(ktrace_mutex);
EXPORT_SYMBOL_IF_KUNIT(ktrace_mutex);
/*
 * The writers' gate: written under ktrace_mutex, and cleared without it by
 * ktrace_freeze(); writers read it locklessly with READ_ONCE().
 */
bool ktrace_tracing;

/* The control layer's hooks, under ktrace_mutex. */
const struct ktrace_fs_ops *ktrace_fs;
EXPORT_SYMBOL_IF_KUNIT(ktrace_fs);

/*
 * The mode, as the caller last told it (ktrace_channels_set_mode()), under
 * ktrace_mutex: what the channels allocate with and what the metadata
 * says.  The default is the core's.
 */
static enum ktrace_trace_mode ktrace_channels_mode = KTRACE_TRACE_HYBRID;

/*
 * Readers (the ascii pipe, the stream files) copy subbuffers under this
 * lock, never under ktrace_mutex.  Taking it to unpublish a channel's
 * buffers is what keeps them alive for a reader; it is never held across
 * anything that waits.
 */
static DEFINE_MUTEX(ktrace_read_mutex);

/* Nesting depth of writers on this CPU: task, softirq, hardirq, NMI. */
static DEFINE_PER_CPU(unsigned int, ktrace_nesting);
#define KTRACE_MAX_NESTING	5

const char *ktrace_channel_name(unsigned int ch)
{
	return ktrace_channels[ch].name;
}

/*
 * Subbuffers: 128 KiB where the channel is large enough, so that the
 * largest expanded event fits, and at least four per CPU.
 */
static size_t ktrace_subbuf_size(size_t size)
{
	return min_t(size_t, SZ_128K, size / 4);
}

static bool ktrace_channel_overwrites(unsigned int ch, enum ktrace_trace_mode mode)
{
	return mode == KTRACE_TRACE_OVERWRITE ||
	       (mode == KTRACE_TRACE_HYBRID && ch == KTRACE_CHANNEL_HIGH);
}

/* relay: ktrace decides on drop and overwrite itself, before relay sees a subbuffer. */
static int ktrace_subbuf_start(struct rchan_buf *rbuf, void *subbuf,
			       void *prev_subbuf, size_t prev_padding)
{
	return 1;
}

/*
 * relay's files are the control layer's, if it registered.  relay calls
 * these with ktrace_mutex held, from a channel's close (without it), or
 * from CPU hotplug: ktrace_fs is set at boot, before any channel exists,
 * and never changes after.
 */
static struct dentry *ktrace_create_buf_file(const char *filename,
					     struct dentry *parent, umode_t mode,
					     struct rchan_buf *buf, int *is_global)
{
	return ktrace_fs ? ktrace_fs->create_buf_file(filename, parent, mode,
						      buf, is_global) : NULL;
}

static int ktrace_remove_buf_file(struct dentry *dentry)
{
	return ktrace_fs ? ktrace_fs->remove_buf_file(dentry) : 0;
}

static const struct rchan_callbacks ktrace_relay_callbacks = {
	.subbuf_start = ktrace_subbuf_start,
	.create_buf_file = ktrace_create_buf_file,
	.remove_buf_file = ktrace_remove_buf_file,
};

/*
 * KUnit only: when set, cleared and called once right before a channel's
 * relay_close(), which waits there for the readers of its stream files
 * (one blocked in copy_to_user() on a userfaultfd or FUSE page).
 */
VISIBLE_IF_KUNIT ktrace_channel_hook_fn ktrace_channel_close_hook;
EXPORT_SYMBOL_IF_KUNIT(ktrace_channel_close_hook);

/*
 * The lifetime of a channel's relay files.  relay_close() removes the
 * stream files, and debugfs_remove() waits there for every reader still
 * inside read(): one blocked in copy_to_user() on a userfaultfd or FUSE
 * page holds it up for as long as that page does not come.  So it never
 * runs under ktrace_mutex, which every control file takes:
 *
 *   live      c->rchan and c->bufs set, under ktrace_mutex and the hotplug
 *             lock (ktrace_channel_alloc())
 *   dead      unpublished and its ktrace buffers destroyed under both
 *             (ktrace_channel_free()); relay's channel and the per-CPU
 *             array moved to c->dead_rchan and c->dead_bufs, still under
 *             ktrace_mutex, with the task that freed it (c->dead_by), and
 *             counted in ktrace_channels_closing
 *   closing   taken from there under ktrace_mutex by that task, once it
 *             released the mutex (ktrace_channels_reap()): it alone owns
 *             them, and closes them without any lock of ktrace; then it
 *             uncounts them, under ktrace_mutex.  Only that task: another
 *             control write never ends up waiting for the readers
 *
 * While any channel is dead or closing, ktrace_channels_alloc() fails with
 * -EBUSY rather than wait: the new channel's stream files take the names of
 * the old ones ("cpuN" in the channel's directory), which debugfs refuses
 * while those exist, and waiting under ktrace_mutex is what this avoids.
 * A mode or a size finds no live channel then, and frees nothing.  So a
 * channel is dead at most once at a time, and c->dead_rchan is never
 * overwritten.  A stream file still open after its close keeps relay's
 * buffer (relay's reference) and reads empty: c->bufs no longer holds
 * its buffer (ktrace_stream_fill()).  relay's own CPU hotplug callbacks
 * may add a file to a dead channel until its close, which removes it too.
 */
static unsigned int ktrace_channels_closing;

/* relay_close() of a channel's files. */
static void ktrace_channel_close(struct rchan *rchan)
{
	if (IS_ENABLED(CONFIG_KTRACE_KUNIT_TEST) && unlikely(ktrace_channel_close_hook)) {
		ktrace_channel_hook_fn hook = ktrace_channel_close_hook;

		ktrace_channel_close_hook = NULL;
		hook();
	}
	relay_close(rchan);
}

/*
 * Unpublish a channel's buffers and free them, leaving relay's channel
 * dead for ktrace_channels_reap(); with ktrace_mutex held.
 *
 * The hotplug lock is taken before c->bufs is read and cleared: a CPU
 * coming up (ktrace_cpu_prepare()) must see either the complete channel
 * or none, never add its buffer to a per-CPU array being freed.
 */
static void ktrace_channel_free(struct ktrace_channel *c)
{
	struct ktrace_buf * __percpu *bufs;
	struct rchan *rchan;
	unsigned int cpu;

	cpus_read_lock();
	bufs = c->bufs;
	if (!bufs) {
		cpus_read_unlock();
		return;
	}
	/*
	 * Unpublished before anything is freed: the panic dump reads c->bufs
	 * without a lock (ktrace_channel_peek_subbuf()), possibly on another
	 * CPU while this one is stopped anywhere below.  The full barrier
	 * orders the store before the frees; the panic CPU's view is ordered
	 * by the IPI or NMI that stopped this one.
	 */
	mutex_lock(&ktrace_read_mutex);
	WRITE_ONCE(c->bufs, NULL);
	mutex_unlock(&ktrace_read_mutex);
	smp_mb(); /* the store above before the frees below */
	for_each_possible_cpu(cpu) {
		struct ktrace_buf *buf = *per_cpu_ptr(bufs, cpu);

		if (buf)
			ktrace_crash_remove(buf);
		ktrace_buf_destroy(buf);
	}
	rchan = c->rchan;
	c->rchan = NULL;
	cpus_read_unlock();
	c->dead_rchan = rchan;
	c->dead_bufs = bufs;
	c->dead_by = current;
	ktrace_channels_closing++;
}

/* Make @cpu's buffer of channel @c over relay's, if it has none yet. */
static int ktrace_channel_add_cpu(struct ktrace_channel *c, unsigned int cpu)
{
	size_t sb_size = ktrace_subbuf_size(c->size);
	struct rchan_buf *rbuf = *per_cpu_ptr(c->rchan->buf, cpu);
	local_t *commit = NULL, *sb_events = NULL;
	void *start = rbuf->start;
	struct ktrace_buf *buf;

	if (*per_cpu_ptr(c->bufs, cpu))
		return 0;
	if (ktrace_persist_enabled())
		ktrace_persist_carve(c - ktrace_channels, cpu, c->size, c->size / sb_size,
				     &start, &commit, &sb_events);
	buf = ktrace_buf_create_at(start, rbuf, c - ktrace_channels, cpu, sb_size,
				   c->size / sb_size, c->overwrite, commit, sb_events);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	/* Where a vmcore's reader or the next boot finds it. */
	ktrace_crash_add(buf, rbuf);
	/* Complete before the CPU's writers can find it: see ktrace_writer_buf(). */
	smp_store_release(per_cpu_ptr(c->bufs, cpu), buf);
	return 0;
}

static int ktrace_channel_alloc(unsigned int ch)
{
	struct ktrace_channel *c = &ktrace_channels[ch];
	size_t sb_size = ktrace_subbuf_size(c->size);
	struct dentry *dir = ktrace_fs ? ktrace_fs->channel_dir(ch) : NULL;
	unsigned int cpu;
	int ret;

	c->overwrite = ktrace_channel_overwrites(ch, ktrace_channels_mode);
	/* Hotplug callbacks look at c->bufs: only complete channels for them. */
	cpus_read_lock();
	c->bufs = alloc_percpu(struct ktrace_buf *);
	if (!c->bufs) {
		ret = -ENOMEM;
		goto unlock;
	}
	/* Should relay's allocations wake the OOM killer, this task goes first. */
	if (!(current->flags & PF_KTHREAD))
		set_current_oom_origin();
	/*
	 * In the persistent region, the buffers are not relay's: relay keeps
	 * the files, their reader bookkeeping, and two pages it never uses.
	 * ktrace_deliver() then hands relay subbuffers larger than relay's
	 * own: its produced count, wakeups and file size stay right (the
	 * file size by wrapping arithmetic on the padding it computes), and
	 * its padding, which only relay's own read(), mmap() and splice()
	 * use, is meaningless: the stream files have none of those.
	 */
	if (ktrace_persist_enabled())
		c->rchan = relay_open(dir ? "cpu" : NULL, dir, PAGE_SIZE, 2,
				      &ktrace_relay_callbacks, c);
	else
		c->rchan = relay_open(dir ? "cpu" : NULL, dir, sb_size, c->size / sb_size,
				      &ktrace_relay_callbacks, c);
	if (!(current->flags & PF_KTHREAD))
		clear_current_oom_origin();
	if (!c->rchan) {
		ret = -ENOMEM;
		goto free_bufs;
	}
	for_each_online_cpu(cpu) {
		ret = ktrace_channel_add_cpu(c, cpu);
		if (ret)
			goto destroy;
	}
	cpus_read_unlock();
	return 0;

destroy:
	cpus_read_unlock();
	/* Complete or not, its files exist: dead, as any channel freed. */
	ktrace_channel_free(c);
	return ret;
free_bufs:
	free_percpu(c->bufs);
	c->bufs = NULL;
unlock:
	cpus_read_unlock();
	return ret;
}

/**
 * ktrace_channels_alloc() - allocate the channels not allocated yet
 * @high_size: per-CPU bytes of the high-rate channel, a power of two
 *
 * Called with ktrace_mutex held and tracing stopped.  They drop or
 * overwrite as the mode last given to ktrace_channels_set_mode() says.
 * On an error, call ktrace_channels_reap() once ktrace_mutex is released.
 *
 * Return: 0 or a negative errno, with nothing allocated by this call left;
 * -EBUSY while the stream files of channels freed earlier are not yet
 * removed (a reader of them is blocked in read()).
 */
int ktrace_channels_alloc(size_t high_size)
{
	size_t size[KTRACE_NR_CHANNELS], sb_size[KTRACE_NR_CHANNELS];
	unsigned long pages = 0;
	bool all = true;
	unsigned int ch;
	int ret;

	lockdep_assert_held(&ktrace_mutex);
	if (ktrace_channels_closing)
		return -EBUSY;
	ktrace_channels[KTRACE_CHANNEL_HIGH].size = high_size;
	for (ch = 0; ch < KTRACE_NR_CHANNELS; ch++) {
		size[ch] = ktrace_channels[ch].size;
		sb_size[ch] = ktrace_subbuf_size(size[ch]);
		all &= !!ktrace_channels[ch].bufs;
	}
	if (all)
		return 0;
	/* Channels are freed all together: here none is allocated. */
	ret = ktrace_persist_layout(size, sb_size);
	if (ret)
		return ret;
	/*
	 * relay allocates its pages with plain GFP_KERNEL: sizes the memory
	 * cannot hold, all channels together, fail here with -ENOMEM, as
	 * ring_buffer.c does, rather than waking the OOM killer; should it
	 * wake anyway (another task allocating meanwhile), the task that
	 * asked for the size goes first (ktrace_channel_alloc()).
	 */
	/* In the persistent region, relay has two pages of each channel's CPUs. */
	for (ch = 0; ch < KTRACE_NR_CHANNELS && !ktrace_persist_enabled(); ch++)
		if (!ktrace_channels[ch].bufs)
			pages += (ktrace_channels[ch].size >> PAGE_SHIFT) * num_online_cpus();
	if (pages > si_mem_available())
		return -ENOMEM;
	for (ch = 0; ch < KTRACE_NR_CHANNELS; ch++) {
		if (ktrace_channels[ch].bufs)
			continue;
		ret = ktrace_channel_alloc(ch);
		if (ret)
			goto free;
	}
	return 0;

free:
	while (ch--)
		ktrace_channel_free(&ktrace_channels[ch]);
	return ret;
}

/**
 * ktrace_channels_free() - free the channels
 *
 * Called with ktrace_mutex held and tracing stopped; then, once
 * ktrace_mutex is released, ktrace_channels_reap() removes their files.
 */
void ktrace_channels_free(void)
{
	unsigned int ch;

	lockdep_assert_held(&ktrace_mutex);
	for (ch = 0; ch < KTRACE_NR_CHANNELS; ch++)
		ktrace_channel_free(&ktrace_channels[ch]);
}

/**
 * ktrace_channels_reap() - remove the files of the channels freed
 *
 * Called without ktrace_mutex after a call that may have freed channels
 * (a mode, a size, a failed start): relay_close() of the channels this
 * task freed waits there for readers of their stream files, which only
 * this task then waits for (see the lifetime rules above
 * ktrace_channels_closing).  Nothing to do if it freed none.  May sleep.
 */
void ktrace_channels_reap(void)
{
	struct ktrace_buf * __percpu *bufs[KTRACE_NR_CHANNELS];
	struct rchan *rchan[KTRACE_NR_CHANNELS];
	unsigned int ch, n = 0, i;

	mutex_lock(&ktrace_mutex);
	for (ch = 0; ch < KTRACE_NR_CHANNELS; ch++) {
		struct ktrace_channel *c = &ktrace_channels[ch];

		if (!c->dead_bufs || c->dead_by != current)
			continue;
		rchan[n] = c->dead_rchan;
		bufs[n++] = c->dead_bufs;
		c->dead_rchan = NULL;
		c->dead_bufs = NULL;
		c->dead_by = NULL;
	}
	mutex_unlock(&ktrace_mutex);
	if (!n)
		return;
	for (i = 0; i < n; i++) {
		/* relay's own hotplug callbacks take relay_channels_mutex, not ours. */
		ktrace_channel_close(rchan[i]);
		free_percpu(bufs[i]);
	}
	mutex_lock(&ktrace_mutex);
	ktrace_channels_closing -= n;
	mutex_unlock(&ktrace_mutex);
}

/**
 * ktrace_channels_set_mode() - tell the channels the tracing mode
 * @mode: what full buffers do from the next allocation on
 *
 * Called with ktrace_mutex held and tracing stopped, by the core when the
 * mode changes: the channels allocated with another mode are freed (call
 * ktrace_channels_reap() once ktrace_mutex is released), and allocated
 * again with @mode at the next start.
 */
void ktrace_channels_set_mode(enum ktrace_trace_mode mode)
{
	lockdep_assert_held(&ktrace_mutex);
	if (mode == ktrace_channels_mode)
		return;
	WRITE_ONCE(ktrace_channels_mode, mode);
	ktrace_channels_free();
}

/**
 * ktrace_channel_info() - describe a channel for the metadata
 * @ch: enum ktrace_channel_id
 * @mch: filled in: mode, sizes and name
 */
void ktrace_channel_info(unsigned int ch, struct ktrace_meta_channel *mch)
{
	struct ktrace_channel *c = &ktrace_channels[ch];
	size_t sb_size = ktrace_subbuf_size(c->size);

	mch->channel = ch;
	mch->mode = ktrace_channel_overwrites(ch, READ_ONCE(ktrace_channels_mode)) ?
		    KTRACE_MODE_OVERWRITE : KTRACE_MODE_DROP;
	mch->subbuf_size = sb_size;
	/* Before the first start the high-rate channel has no size. */
	mch->n_subbufs = sb_size ? c->size / sb_size : 0;
	strscpy_pad(mch->name, c->name);
}

/* This CPU's buffer of channel @c, or NULL; with the hotplug lock held. */
static struct ktrace_buf *ktrace_this_cpu_buf(struct ktrace_channel *c,
					      unsigned int cpu)
{
	/* Read once: ktrace_channel_free() may clear it meanwhile. */
	struct ktrace_buf * __percpu *bufs = READ_ONCE(c->bufs);

	return bufs ? READ_ONCE(*per_cpu_ptr(bufs, cpu)) : NULL;
}

static void ktrace_flush_cpu(void *info)
{
	unsigned int ch, cpu = smp_processor_id();

	for (ch = 0; ch < KTRACE_NR_CHANNELS; ch++) {
		struct ktrace_buf *buf = ktrace_this_cpu_buf(&ktrace_channels[ch], cpu);

		if (buf)
			ktrace_buf_flush(buf);
	}
}

/* On @cpu: queue its deliveries (@dying false) or stop queueing them. */
static void ktrace_cpu_set_dying(unsigned int cpu, bool dying)
{
	unsigned int ch;

	for (ch = 0; ch < KTRACE_NR_CHANNELS; ch++) {
		struct ktrace_buf *buf = ktrace_this_cpu_buf(&ktrace_channels[ch], cpu);

		if (buf)
			ktrace_buf_set_cpu_dying(buf, dying);
	}
}

/* On @cpu, going offline: deliver what it completed, in process context. */
static void ktrace_cpu_deliver(unsigned int cpu)
{
	unsigned int ch;

	for (ch = 0; ch < KTRACE_NR_CHANNELS; ch++) {
		struct ktrace_buf *buf = ktrace_this_cpu_buf(&ktrace_channels[ch], cpu);

		if (buf)
			ktrace_buf_sync(buf);
	}
}

/* fn on every CPU's buffer of every allocated channel; hotplug held off. */
static void ktrace_channels_apply(void (*fn)(struct ktrace_buf *))
{
	unsigned int ch, cpu;

	lockdep_assert_cpus_held();
	for (ch = 0; ch < KTRACE_NR_CHANNELS; ch++) {
		struct ktrace_channel *c = &ktrace_channels[ch];

		if (!c->bufs)
			continue;
		for_each_possible_cpu(cpu) {
			struct ktrace_buf *buf = *per_cpu_ptr(c->bufs, cpu);

			if (buf)
				fn(buf);
		}
	}
}

/* After ktrace_flush_cpu() on every online CPU: the offline ones, then relay. */
static void ktrace_buf_flush_sync(struct ktrace_buf *buf)
{
	if (!cpu_online(buf->cpu))
		ktrace_buf_flush(buf);
	ktrace_buf_sync(buf);
}

/**
 * ktrace_channels_flush() - make everything written readable
 *
 * Called with ktrace_mutex held, once tracing is stopped and the writers
 * are gone: closes every CPU's current subbuffers, on their own CPUs, and
 * waits until relay has them.
 */
void ktrace_channels_flush(void)
{
	lockdep_assert_held(&ktrace_mutex);
	cpus_read_lock();
	on_each_cpu(ktrace_flush_cpu, NULL, 1);
	ktrace_channels_apply(ktrace_buf_flush_sync);
	cpus_read_unlock();
}

/**
 * ktrace_channels_clock_changed() - a timestamp record before the next events
 *
 * Called with ktrace_mutex held and the writers stopped, at every start
 * and when the clock changes.
 */
void ktrace_channels_clock_changed(void)
{
	lockdep_assert_held(&ktrace_mutex);
	cpus_read_lock();
	ktrace_channels_apply(ktrace_buf_clock_changed);
	cpus_read_unlock();
}

/* A CPU comes online: buffers for it in every allocated channel. */
static int ktrace_cpu_prepare(unsigned int cpu)
{
	unsigned int ch;
	int ret;

	for (ch = 0; ch < KTRACE_NR_CHANNELS; ch++) {
		if (!ktrace_channels[ch].bufs)
			continue;
		ret = ktrace_channel_add_cpu(&ktrace_channels[ch], cpu);
		if (ret)
			return ret;
	}
	return 0;
}

/* A CPU is online again (or its offlining failed): deliveries queue again. */
static int ktrace_cpu_online(unsigned int cpu)
{
	ktrace_cpu_set_dying(cpu, false);
	return 0;
}

/*
 * A CPU goes offline: on it (the hotplug thread, bound to it), stop
 * queueing deliveries there, close its subbuffers and deliver them here
 * and now, after any delivery queued before (which still runs: the
 * irq_work interrupt, or irq_workd on PREEMPT_RT, is not parked yet).
 * Nothing is queued that would be stranded on the dead CPU; what it
 * completes from now on waits for ktrace_buf_sync() or its next life.
 */
static int ktrace_cpu_offline(unsigned int cpu)
{
	ktrace_cpu_set_dying(cpu, true);
	preempt_disable();
	ktrace_flush_cpu(NULL);
	preempt_enable();
	ktrace_cpu_deliver(cpu);
	return 0;
}

/**
 * ktrace_channels_init() - follow CPU hotplug
 *
 * Return: 0 or a negative errno.
 */
int __init ktrace_channels_init(void)
{
	int ret;

	ret = cpuhp_setup_state_nocalls(CPUHP_BP_PREPARE_DYN, "ktrace:prepare",
					ktrace_cpu_prepare, NULL);
	if (ret < 0)
		return ret;
	ret = cpuhp_setup_state_nocalls(CPUHP_AP_ONLINE_DYN, "ktrace:online",
					ktrace_cpu_online, ktrace_cpu_offline);
	return ret < 0 ? ret : 0;
}

/* Copies tried in a row while a writer laps the reader faster than it copies. */
#define KTRACE_READ_TRIES	8
/* How long a reader waits for the writer to claim what it overwrote. */
#define KTRACE_CLAIM_SPINS	10000

/*
 * Consume the next subbuffer of @buf into @dst (see ktrace_buf_read()).  A
 * copy the writer overwrote is counted once, the writer given the moment
 * it needs to claim that subbuffer, and the next one read; after that many
 * such copies in a row, nothing is read this time.
 */
static int ktrace_take(struct ktrace_buf *buf, void *dst, size_t max)
{
	unsigned int tries, spins;
	int ret = -ENODATA;
	long s;

	lockdep_assert_held(&ktrace_read_mutex);
	for (tries = 0; tries < KTRACE_READ_TRIES; tries++) {
		s = atomic_long_read(&buf->rpos);
		ret = ktrace_buf_read(buf, dst, max);
		if (ret != -EAGAIN && ret != -EBADMSG)
			break;
		buf->torn_reads++;
		/* The writer is between its cmpxchg and its claim of s. */
		for (spins = 0; spins < KTRACE_CLAIM_SPINS &&
		     atomic_long_read(&buf->rpos) == s; spins++)
			cpu_relax();
	}
	/*
	 * relay's count, for relay's poll: what is left to read.  rpos may
	 * run ahead of the deliveries (overwrite mode).
	 */
	if (buf->rbuf)
		WRITE_ONCE(buf->rbuf->subbufs_consumed,
			   min_t(unsigned long, atomic_long_read(&buf->rpos),
				 READ_ONCE(buf->delivered)));
	return ret < 0 ? -ENODATA : ret;
}

/**
 * ktrace_channel_take_subbuf() - consume the next subbuffer of a stream
 * @ch: enum ktrace_channel_id
 * @cpu: the CPU
 * @dst: where the subbuffer (header and records) is copied
 * @max: bytes at @dst, at least a subbuffer
 *
 * For the ascii pipe.  It consumes what the stream files' readers would,
 * so the two must not be used on one stream at the same time.  What it
 * copies is a subbuffer exactly as committed, never one the writer was
 * overwriting meanwhile (overwrite mode): see ktrace_buf_read().
 *
 * Return: the bytes copied, -ENODATA if no complete subbuffer is waiting.
 */
int ktrace_channel_take_subbuf(unsigned int ch, unsigned int cpu, void *dst,
			       size_t max)
{
	struct ktrace_channel *c = &ktrace_channels[ch];
	struct ktrace_buf *buf;
	int ret = -ENODATA;

	mutex_lock(&ktrace_read_mutex);
	buf = c->bufs ? READ_ONCE(*per_cpu_ptr(c->bufs, cpu)) : NULL;
	if (buf)
		ret = ktrace_take(buf, dst, max);
	mutex_unlock(&ktrace_read_mutex);
	return ret;
}

/**
 * struct ktrace_stream - a reader of a stream file (high/cpuN, ...)
 * @rbuf: relay's buffer the file was opened on; relay holds a reference
 *	until the file is released
 * @lock: serialises this file's reads: the copy and the position in it
 * @copy: the subbuffer being read, as ktrace_buf_read() copied it
 * @size: bytes at @copy: a subbuffer of the channel
 * @len: bytes in @copy
 * @pos: bytes of @copy already read
 */
struct ktrace_stream {
	struct rchan_buf *rbuf;
	struct mutex lock; /* serialises this file's reads */
	void *copy;
	size_t size;
	size_t len;
	size_t pos;
};

/**
 * ktrace_stream_open() - a reader of a stream file
 * @rbuf: relay's buffer of the file (its inode's private data)
 *
 * Return: the reader, or ERR_PTR(-ENOMEM).
 */
struct ktrace_stream *ktrace_stream_open(struct rchan_buf *rbuf)
{
	struct ktrace_channel *c = rbuf->chan->private_data;
	struct ktrace_stream *s = kzalloc(sizeof(*s), GFP_KERNEL);

	if (!s)
		return ERR_PTR(-ENOMEM);
	/* The channel's subbuffers: relay's are smaller in the persistent region. */
	s->size = ktrace_subbuf_size(c->size);
	s->copy = kvmalloc(s->size, GFP_KERNEL);
	if (!s->copy) {
		kfree(s);
		return ERR_PTR(-ENOMEM);
	}
	s->rbuf = rbuf;
	mutex_init(&s->lock);
	return s;
}

/**
 * ktrace_stream_release() - free a reader
 * @s: the reader
 */
void ktrace_stream_release(struct ktrace_stream *s)
{
	mutex_destroy(&s->lock);
	kvfree(s->copy);
	kfree(s);
}

/**
 * ktrace_stream_rbuf() - relay's buffer of a reader
 * @s: the reader
 *
 * Return: the buffer, for relay's file operations and its wait queue.
 */
struct rchan_buf *ktrace_stream_rbuf(struct ktrace_stream *s)
{
	return s->rbuf;
}

/* Fill the reader's copy with the next subbuffer of its stream. */
static int ktrace_stream_fill(struct ktrace_stream *s)
{
	struct ktrace_channel *c = s->rbuf->chan->private_data;
	struct ktrace_buf *buf;
	int ret = -ENODATA;

	mutex_lock(&ktrace_read_mutex);
	buf = c->bufs ? READ_ONCE(*per_cpu_ptr(c->bufs, s->rbuf->cpu)) : NULL;
	/* A file of channels freed since (mode or size changed) reads empty. */
	if (buf && buf->rbuf == s->rbuf)
		ret = ktrace_take(buf, s->copy, s->size);
	mutex_unlock(&ktrace_read_mutex);
	if (ret > 0) {
		s->len = ret;
		s->pos = 0;
	}
	return ret;
}

/**
 * ktrace_stream_read() - read() of a stream file
 * @s: the reader
 * @ubuf: the user buffer
 * @cnt: its size
 *
 * Gives the complete subbuffers (header and data, no padding) in order,
 * as relay's read() does, but each copied out whole and checked first, so
 * that a reader never gets a subbuffer the writer was overwriting.  Never
 * waits for data: poll() does.
 *
 * Return: bytes read, 0 if no complete subbuffer is waiting, -EFAULT.
 */
ssize_t ktrace_stream_read(struct ktrace_stream *s, char __user *ubuf,
			   size_t cnt)
{
	ssize_t done = 0;
	size_t n;

	mutex_lock(&s->lock);
	while (done < cnt) {
		if (s->pos == s->len && ktrace_stream_fill(s) < 0)
			break;
		n = min(cnt - done, s->len - s->pos);
		if (copy_to_user(ubuf + done, s->copy + s->pos, n)) {
			done = done ? done : -EFAULT;
			break;
		}
		s->pos += n;
		done += n;
	}
	mutex_unlock(&s->lock);
	return done;
}

/**
 * ktrace_stream_ready() - whether read() of a stream file would give data
 * @s: the reader
 *
 * Return: true if part of a subbuffer or a delivered one is unread.
 */
bool ktrace_stream_ready(struct ktrace_stream *s)
{
	struct rchan_buf *rbuf = s->rbuf;

	return READ_ONCE(s->pos) != READ_ONCE(s->len) ||
	       READ_ONCE(rbuf->subbufs_produced) != READ_ONCE(rbuf->subbufs_consumed);
}

/**
 * ktrace_channel_peek_subbuf() - copy a subbuffer of a stream, unconsumed
 * @ch: enum ktrace_channel_id
 * @cpu: the CPU
 * @back: 0 for the newest subbuffer, 1 for the one before, ...
 * @dst: where it is copied
 * @max: bytes at @dst
 *
 * For the panic dump: no lock, as the other CPUs are stopped and may hold
 * any.  See ktrace_buf_peek().
 *
 * Return: the bytes copied, or -ENODATA.
 */
int ktrace_channel_peek_subbuf(unsigned int ch, unsigned int cpu,
			       unsigned long back, void *dst, size_t max)
{
	struct ktrace_buf * __percpu *bufs = READ_ONCE(ktrace_channels[ch].bufs);
	struct ktrace_buf *buf;

	/* c->bufs read once: ktrace_channel_free() may be clearing it. */
	buf = bufs ? READ_ONCE(*per_cpu_ptr(bufs, cpu)) : NULL;
	if (!buf)
		return -ENODATA;
	return ktrace_buf_peek(buf, back, dst, max);
}

/**
 * ktrace_channels_flush_live() - close partly filled subbuffers while tracing
 *
 * For a reader waiting on a slow stream: on every CPU, the current
 * subbuffers are closed as if a writer had switched, and delivered from
 * irq_work.  Costs the rest of each subbuffer.
 */
void ktrace_channels_flush_live(void)
{
	mutex_lock(&ktrace_mutex);
	if (ktrace_tracing)
		on_each_cpu(ktrace_flush_cpu, NULL, 1);
	mutex_unlock(&ktrace_mutex);
}

/**
 * ktrace_channel_stats() - the counters of one CPU's buffer of a channel
 * @ch: enum ktrace_channel_id
 * @cpu: the CPU
 * @st: the counters
 *
 * Return: false if that buffer does not exist (not allocated yet, or the
 * CPU was offline when it was).
 */
bool ktrace_channel_stats(unsigned int ch, unsigned int cpu,
			  struct ktrace_buf_stats *st)
{
	struct ktrace_channel *c = &ktrace_channels[ch];
	struct ktrace_buf *buf;

	mutex_lock(&ktrace_mutex);
	buf = c->bufs ? READ_ONCE(*per_cpu_ptr(c->bufs, cpu)) : NULL;
	if (buf)
		ktrace_buf_stats(buf, st);
	mutex_unlock(&ktrace_mutex);
	return buf;
}

/**
 * ktrace_channels_drained() - whether the streams were read to the end
 *
 * Call with the writers stopped or frozen.
 *
 * Return: true if no buffer of any channel holds a record no reader had.
 */
bool ktrace_channels_drained(void)
{
	bool drained = true;
	unsigned int ch, cpu;

	/* ktrace_channel_free() unpublishes under it before it frees. */
	mutex_lock(&ktrace_read_mutex);
	for (ch = 0; ch < KTRACE_NR_CHANNELS && drained; ch++) {
		struct ktrace_buf * __percpu *bufs = READ_ONCE(ktrace_channels[ch].bufs);

		for_each_possible_cpu(cpu) {
			struct ktrace_buf *buf = bufs ? READ_ONCE(*per_cpu_ptr(bufs, cpu)) : NULL;

			if (buf && !ktrace_buf_drained(buf)) {
				drained = false;
				break;
			}
		}
	}
	mutex_unlock(&ktrace_read_mutex);
	return drained;
}
EXPORT_SYMBOL_IF_KUNIT(ktrace_channels_drained);

/*
 * This CPU's buffer of @ch if tracing, else NULL; preemption disabled.
 * @meta: the metadata writer, which passes the gate while it is still
 * shut, at a start (ktrace_write_meta()); a constant, so free elsewhere.
 */
static __always_inline struct ktrace_buf *ktrace_writer_buf(unsigned int ch, bool meta)
{
	struct ktrace_buf * __percpu *bufs;

	/*
	 * Pairs with smp_store_release() in ktrace_start_writers().  The
	 * metadata writer set the buffers up itself, under ktrace_mutex.
	 */
	if (!meta && !smp_load_acquire(&ktrace_tracing))
		return NULL;
	bufs = READ_ONCE(ktrace_channels[ch].bufs);
	/* Pairs with smp_store_release() in ktrace_channel_add_cpu(). */
	return bufs ? READ_ONCE(*this_cpu_ptr(bufs)) : NULL;
}

/*
 * The write path's way in: only while tracing, on this CPU's buffer, with
 * preemption disabled until ktrace_leave() and recursion beyond the four
 * contexts refused.  On an error, preemption is enabled again.
 */
static __always_inline struct ktrace_buf *ktrace_enter(unsigned int ch,
						       bool meta, int *ret)
{
	struct ktrace_buf *buf;

	preempt_disable_notrace();
	buf = ktrace_writer_buf(ch, meta);
	if (!buf) {
		*ret = -EAGAIN;
		goto out;
	}
	/*
	 * The write path's local_cmpxchg() is safe against an NMI only where
	 * the architecture says so; elsewhere NMI writers are refused, as
	 * ring_buffer.c refuses them.
	 */
	if (!IS_ENABLED(CONFIG_ARCH_HAVE_NMI_SAFE_CMPXCHG) && unlikely(in_nmi())) {
		local_inc(&buf->events);
		local_inc(&buf->dropped);
		*ret = -EOPNOTSUPP;
		goto out;
	}
	if (this_cpu_inc_return(ktrace_nesting) > KTRACE_MAX_NESTING) {
		local_inc(&buf->events);
		local_inc(&buf->dropped);
		*ret = -EDEADLK;
		goto nested;
	}
	return buf;
nested:
	this_cpu_dec(ktrace_nesting);
out:
	preempt_enable_notrace();
	return NULL;
}

static __always_inline void ktrace_leave(void)
{
	this_cpu_dec(ktrace_nesting);
	preempt_enable_notrace();
}

/* ktrace_enter(), then ktrace_reserve(): paired with ktrace_end(). */
static __always_inline int ktrace_begin(unsigned int ch, unsigned long len,
					struct ktrace_ctx *ctx, bool meta)
{
	struct ktrace_buf *buf;
	int ret;

	buf = ktrace_enter(ch, meta, &ret);
	if (!buf)
		return ret;
	ret = ktrace_reserve(buf, len, ctx);
	if (ret)
		ktrace_leave();
	return ret;
}

static __always_inline void ktrace_end(struct ktrace_ctx *ctx)
{
	ktrace_commit(ctx);
	ktrace_leave();
}

/**
 * ktrace_write_compact() - write a compact event from any context
 * @ch: enum ktrace_channel_id
 * @id: the event's compact id
 * @payload: its 32-bit payload
 *
 * Safe from task, softirq, hardirq and NMI context.
 *
 * Return: 0 if written, -EAGAIN when not tracing, -EDEADLK for recursion,
 * or the error of ktrace_reserve(); a refused event is counted as dropped.
 */
int ktrace_write_compact(unsigned int ch, unsigned int id, u32 payload)
{
	struct ktrace_buf *buf;
	int ret;

	buf = ktrace_enter(ch, false, &ret);
	if (!buf)
		return ret;
	/* The reservation inlined there, not a context on the stack. */
	ret = ktrace_buf_write_compact(buf, id, payload);
	ktrace_leave();
	return ret;
}

/**
 * ktrace_write_expanded() - write an expanded event from any context
 * @ch: enum ktrace_channel_id
 * @major: the event's major
 * @minor: the event's minor
 * @data: the payload
 * @len: its length
 *
 * Safe from task, softirq, hardirq and NMI context.
 *
 * Return: as ktrace_write_compact(); -E2BIG if the event cannot fit in a
 * subbuffer of @ch.
 */
int ktrace_write_expanded(unsigned int ch, u8 major, u8 minor,
			  const void *data, u16 len)
{
	return ktrace_write_expanded2(ch, major, minor, NULL, 0, data, len);
}

/* ktrace_write_expanded2(), and for the metadata writer (@meta). */
static __always_inline int __ktrace_write_expanded2(unsigned int ch, u8 major, u8 minor,
						    const void *head, u16 hlen,
						    const void *data, u16 len, bool meta)
{
	/* Set whole by a successful ktrace_begin(): not cleared before. */
	struct ktrace_ctx ctx __uninitialized;
	void *p;
	int ret;

	if (unlikely(hlen + len > KTRACE_EXPANDED_MAX)) {
		struct ktrace_buf *buf;

		preempt_disable_notrace();
		buf = ktrace_writer_buf(ch, meta);
		if (buf) {
			local_inc(&buf->events);
			local_inc(&buf->dropped);
		}
		preempt_enable_notrace();
		return -E2BIG;
	}
	ret = ktrace_begin(ch, KTRACE_EXPANDED_SIZE(hlen + len), &ctx, meta);
	if (ret)
		return ret;
	ktrace_put_expanded(ctx.data, ctx.clock, major, minor, hlen + len);
	p = ctx.data + sizeof(struct ktrace_expanded);
	memcpy(p, head, hlen);
	memcpy(p + hlen, data, len);
	ktrace_end(&ctx);
	return 0;
}

/**
 * ktrace_write_expanded2() - write an expanded event in two parts
 * @ch: enum ktrace_channel_id
 * @major: the event's major
 * @minor: the event's minor
 * @head: the start of the payload
 * @hlen: its length
 * @data: the rest of the payload
 * @len: its length
 *
 * As ktrace_write_expanded(), for a payload whose parts are apart.
 *
 * Return: as ktrace_write_expanded(); -E2BIG if @hlen + @len exceeds
 * %KTRACE_EXPANDED_MAX, the event counted as dropped as one too big for
 * a subbuffer is.
 */
int ktrace_write_expanded2(unsigned int ch, u8 major, u8 minor,
			   const void *head, u16 hlen, const void *data, u16 len)
{
	return __ktrace_write_expanded2(ch, major, minor, head, hlen, data, len, false);
}

/**
 * ktrace_write_meta() - write a metadata record at a start
 * @type: the record's type, its minor under %KTRACE_META_MAJOR
 * @rec: the record
 * @len: its length
 *
 * With ktrace_mutex held, before the writers' gate opens
 * (ktrace_start_writers()): the metadata passes the gate alone, so that a
 * trigger freezing the trace meanwhile cannot cut it short.
 *
 * Return: as ktrace_write_expanded().
 */
int ktrace_write_meta(u8 type, const void *rec, u16 len)
{
	lockdep_assert_held(&ktrace_mutex);
	return __ktrace_write_expanded2(KTRACE_CHANNEL_LOW, KTRACE_META_MAJOR, type,
					NULL, 0, rec, len, true);
}
