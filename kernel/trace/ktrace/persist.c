// SPDX-License-Identifier: GPL-2.0
/*
 * ktrace after a crash: the crash table, the persistent recorder and the
 * previous boot's trace.
 *
 * The crash table (include/uapi/linux/ktrace.h) says where every buffer
 * is, for whoever reads this kernel's memory once it is gone:
 *
 *   - by default it is in ordinary kernel memory, with physical
 *     addresses: a buffer's page list (relay's pages are scattered), its
 *     commit counts and its event counts.  vmcoreinfo's KTRACE_CRASH=
 *     gives the physical address of ktrace_crash_anchor, which points to
 *     the table, so that tools/ktrace extract --vmcore finds the buffers
 *     in a kdump vmcore;
 *   - with ktrace.persist=LABEL and reserve_mem=SIZE:ALIGN:LABEL, the
 *     table starts that reserved region and the buffers are carved from
 *     it, their commit and event counts too: what the writers commit
 *     is in the region as they commit it, with no copy and no cost on the
 *     write path.  After a warm reboot (a panic with panic=N, a watchdog,
 *     kexec) the next boot finds it there.
 *
 * Either way the crash path (ktrace_crash_freeze(): a panic, and every
 * stop) saves what the counts alone do not say, the write positions and
 * the loss counters, marks the table frozen and, for the region, writes
 * the CPU caches back where the architecture can.  With no lock and no
 * allocation: at a panic the other CPUs are stopped wherever they were.
 * A reset with no panic (a hardware watchdog) leaves the table not
 * frozen: the subbuffers are then cut at their commit counts.
 *
 * At boot, before anything can trace, ktrace_persist_init() checks what
 * the region holds (recover.c), subbuffer by subbuffer, copies what it
 * keeps into ordinary memory and frees the region for the new recorder:
 * the first start of this boot writes a new table over the old one.  The
 * copy is the previous boot's trace, in last_boot/ of the control files
 * until it is released (ktrace_last_boot_release()).
 */
#define pr_fmt(fmt) "ktrace: " fmt

#include <linux/cpu.h>
#include <linux/io.h>
#include <linux/kernel.h>
#include <linux/libnvdimm.h>
#include <linux/mm.h>
#include <linux/moduleparam.h>
#include <linux/random.h>
#include <linux/rcupdate.h>
#include <linux/reboot.h>
#include <linux/relay.h>
#include <linux/sched.h>
#include <linux/seq_buf.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/utsname.h>
#include <linux/vmalloc.h>
#include <linux/vmcore_info.h>
#include <asm/sections.h>
#include <kunit/visibility.h>

#include "buffer.h"
#include "ktrace_internal.h"
#include "recover.h"

#undef MODULE_PARAM_PREFIX
#define MODULE_PARAM_PREFIX "ktrace."

/* ktrace.persist=LABEL: the reserve_mem= region the recorder lives in. */
static char ktrace_persist_label[32];
module_param_string(persist, ktrace_persist_label, sizeof(ktrace_persist_label), 0400);

/*
 * In the kernel image, where vmcoreinfo's KTRACE_CRASH= points.  Nothing
 * in the kernel reads it: without CONFIG_VMCORE_INFO the compiler would
 * drop it, and a reader scanning memory for its magic would find nothing.
 */
static struct ktrace_crash_anchor ktrace_crash_anchor __used = {
	.magic = KTRACE_CRASH_ANCHOR_MAGIC,
	.magic2 = ~KTRACE_CRASH_ANCHOR_MAGIC,
};

/*
 * The crash table and the buffers it describes.  Changed with the
 * channels, under ktrace_mutex or the CPU hotplug lock held for writing
 * (see channel.c: the two exclude each other); read locklessly by the
 * crash path, which tolerates a buffer being added or removed meanwhile
 * as the panic dump does (see ktrace_channel_free()).
 */
static struct ktrace_crash_header *ktrace_crash_hdr;
static struct ktrace_crash_buf *ktrace_crash_descs;
static struct ktrace_buf **ktrace_crash_bufs;	/* [channel * nr_cpu_ids + cpu] */
static u64 **ktrace_crash_pages;		/* their page lists, no region */
static unsigned int ktrace_crash_nr;
static u64 ktrace_boot_id;

/* The persistent region, mapped, and where each channel's buffers go. */
static void *ktrace_region;
static phys_addr_t ktrace_region_phys;
static size_t ktrace_region_size;
static u64 ktrace_region_data[KTRACE_NR_CHANNELS];
static u64 ktrace_region_counts[KTRACE_NR_CHANNELS];

/* Bytes of the table: header and descriptors, page aligned. */
static size_t ktrace_crash_table_size(void)
{
	return PAGE_ALIGN(sizeof(struct ktrace_crash_header) +
			  (size_t)ktrace_crash_nr * sizeof(struct ktrace_crash_buf));
}

/**
 * ktrace_persist_enabled() - whether the recorder lives in a reserved region
 *
 * Return: true with ktrace.persist= naming a region found at boot.
 */
bool ktrace_persist_enabled(void)
{
	return ktrace_region;
}

/* Rewrite the checksum, once the table changed; the caller's locks. */
static void ktrace_crash_seal(void)
{
	ktrace_crash_hdr->csum = ktrace_crash_csum(ktrace_crash_hdr, ktrace_crash_descs);
}

/* A new table: header, no buffer yet. */
static void ktrace_crash_table_init(struct ktrace_crash_header *h)
{
	memset(h, 0, ktrace_crash_table_size());
	h->magic = KTRACE_CRASH_MAGIC;
	h->version = KTRACE_CRASH_VERSION;
	h->header_size = sizeof(*h);
	h->buf_size = sizeof(struct ktrace_crash_buf);
	h->byte_order = IS_ENABLED(CONFIG_CPU_BIG_ENDIAN) ?
			KTRACE_BIG_ENDIAN : KTRACE_LITTLE_ENDIAN;
	h->word_size = sizeof(u64);
	h->flags = ktrace_region ? KTRACE_CRASH_REGION : 0;
	h->nr_bufs = ktrace_crash_nr;
	h->nr_cpus = nr_cpu_ids;
	h->page_size = PAGE_SIZE;
	h->nr_channels = KTRACE_NR_CHANNELS;
	h->size = ktrace_region ? ktrace_region_size : ktrace_crash_table_size();
	h->boot_id = ktrace_boot_id;
	h->text_addr = (unsigned long)_text;
	strscpy_pad(h->release, init_utsname()->release);
	strscpy_pad(h->build, init_utsname()->version);
	h->csum = ktrace_crash_csum(h, ktrace_crash_descs);
}

/**
 * ktrace_persist_layout() - place the channels in the region
 * @size: per channel, bytes per CPU
 * @sb_size: per channel, bytes per subbuffer
 *
 * Called with ktrace_mutex held, before channels are allocated: the
 * region holds the table, then each channel's buffers for every possible
 * CPU, then their counts.  With no region, nothing to do.  A new table
 * replaces the previous boot's, whose trace was copied at boot.
 *
 * Return: 0, or -ENOSPC if the buffers do not fit in the region.
 */
int ktrace_persist_layout(const size_t *size, const size_t *sb_size)
{
	u64 off = ktrace_crash_table_size(), counts;
	unsigned int ch;

	if (!ktrace_region || !ktrace_crash_bufs)
		return 0;
	for (ch = 0; ch < KTRACE_NR_CHANNELS; ch++) {
		ktrace_region_data[ch] = off;
		off += (u64)nr_cpu_ids * size[ch];
	}
	for (ch = 0; ch < KTRACE_NR_CHANNELS; ch++) {
		ktrace_region_counts[ch] = off;
		/* Per slot: a commit count, two event counts, a checksum. */
		counts = 4 * (size[ch] / sb_size[ch]) * sizeof(u64);
		off += (u64)nr_cpu_ids * counts;
	}
	if (off > ktrace_region_size) {
		pr_info_ratelimited("buffers of %llu KiB do not fit in the %zu KiB of region %s\n",
				    off >> 10, ktrace_region_size >> 10, ktrace_persist_label);
		return -ENOSPC;
	}
	/*
	 * From the first start on, the region holds this boot's table; the
	 * previous boot's trace was copied at boot.  Crash path readers see
	 * the header before the table is in place (see ktrace_crash_freeze()).
	 */
	ktrace_crash_descs = ktrace_region + sizeof(struct ktrace_crash_header);
	ktrace_crash_table_init(ktrace_region);
	WRITE_ONCE(ktrace_crash_hdr, ktrace_region);
	ktrace_crash_anchor.table = ktrace_region_phys;
	return 0;
}

/**
 * ktrace_persist_carve() - where a CPU's buffer of a channel goes in the region
 * @ch: enum ktrace_channel_id
 * @cpu: the CPU
 * @size: bytes of the buffer
 * @nr: its number of subbuffers
 * @start: its memory
 * @commit: its @nr commit counts, zeroed
 * @sb_events: its 2 * @nr event counts, then @nr checksums (see
 *	ktrace_crash_buf_sums()), zeroed
 *
 * After ktrace_persist_layout(), with the same locks.
 */
void ktrace_persist_carve(unsigned int ch, unsigned int cpu, size_t size,
			  size_t nr, void **start, local_t **commit,
			  local_t **sb_events)
{
	void *counts = ktrace_region + ktrace_region_counts[ch] + cpu * 4 * nr * sizeof(u64);

	*start = ktrace_region + ktrace_region_data[ch] + (u64)cpu * size;
	memset(counts, 0, 4 * nr * sizeof(u64));
	*commit = counts;
	*sb_events = counts + nr * sizeof(u64);
}

/* In the region, a buffer's checksums follow its event counts. */
static u64 *ktrace_crash_buf_sums(struct ktrace_buf *buf)
{
	return (u64 *)(buf->sb_events + (2UL << buf->nr_shift));
}

/* The address of @p in the table: an offset in the region, else physical. */
static u64 ktrace_crash_addr(void *p)
{
	if (ktrace_region)
		return p - ktrace_region;
	return virt_to_phys(p);
}

/**
 * ktrace_crash_add() - describe a new buffer in the crash table
 * @buf: the buffer
 * @rbuf: relay's buffer, whose pages hold it unless it is in the region
 *
 * Under ktrace_mutex or the hotplug lock, as the channels.  The table is
 * for afterwards, never a reason to refuse a buffer: should the page list
 * (outside the region) not be allocated, the buffer is left out of it.
 */
void ktrace_crash_add(struct ktrace_buf *buf, struct rchan_buf *rbuf)
{
	unsigned int i = buf->channel * nr_cpu_ids + buf->cpu;
	struct ktrace_crash_buf *d;
	unsigned int n, nr_pages;
	u64 *pages = NULL;

	if (!ktrace_crash_hdr)
		return;
	d = &ktrace_crash_descs[i];
	if (!ktrace_region) {
		nr_pages = DIV_ROUND_UP(1UL << (buf->sb_shift + buf->nr_shift), PAGE_SIZE);
		if (!rbuf || rbuf->page_count < nr_pages)
			return;
		pages = kmalloc_array(nr_pages, sizeof(*pages), GFP_KERNEL);
		if (!pages) {
			pr_warn_once("a buffer left out of the crash table: out of memory\n");
			return;
		}
		for (n = 0; n < nr_pages; n++)
			pages[n] = page_to_phys(rbuf->page_array[n]);
	}
	memset(d, 0, sizeof(*d));
	d->channel = buf->channel;
	d->flags = buf->overwrite ? KTRACE_SUBBUF_OVERWRITE : 0;
	d->sb_shift = buf->sb_shift;
	d->nr_shift = buf->nr_shift;
	d->cpu = buf->cpu;
	d->data = pages ? virt_to_phys(pages) : ktrace_crash_addr(buf->start);
	d->commit = ktrace_crash_addr(buf->commit);
	d->sb_events = ktrace_crash_addr(buf->sb_events);
	if (ktrace_region)
		d->sums = ktrace_crash_addr(ktrace_crash_buf_sums(buf));
	ktrace_crash_pages[i] = pages;
	WRITE_ONCE(ktrace_crash_bufs[i], buf);
	ktrace_crash_seal();
}

/**
 * ktrace_crash_remove() - a buffer is going away
 * @buf: the buffer, unpublished, not yet destroyed
 */
void ktrace_crash_remove(struct ktrace_buf *buf)
{
	unsigned int i = buf->channel * nr_cpu_ids + buf->cpu;

	if (!ktrace_crash_hdr || READ_ONCE(ktrace_crash_bufs[i]) != buf)
		return;
	WRITE_ONCE(ktrace_crash_bufs[i], NULL);
	memset(&ktrace_crash_descs[i], 0, sizeof(ktrace_crash_descs[i]));
	ktrace_crash_seal();
	kfree(ktrace_crash_pages[i]);
	ktrace_crash_pages[i] = NULL;
}

/**
 * ktrace_crash_freeze() - save what a reader of the crashed memory needs
 * @reason: why, for the table ("panic", "stop")
 *
 * Any context, with the writers stopped or frozen: at a panic (the other
 * CPUs stopped), at a reboot, and at every stop (ktrace_crash_stop()).
 * No lock, no allocation.
 */
void ktrace_crash_freeze(const char *reason)
{
	struct ktrace_crash_header *h = READ_ONCE(ktrace_crash_hdr);
	unsigned int i;

	if (!h)
		return;
	for (i = 0; i < ktrace_crash_nr; i++) {
		struct ktrace_buf *buf = READ_ONCE(ktrace_crash_bufs[i]);
		struct ktrace_crash_buf *d = &ktrace_crash_descs[i];

		if (!buf)
			continue;
		d->offset = local_read(&buf->offset);
		d->rpos = atomic_long_read(&buf->rpos);
		d->events = local_read(&buf->events);
		d->dropped = local_read(&buf->dropped);
		d->overwritten = local_read(&buf->overwritten) + READ_ONCE(buf->corrupt_lost);
		/* What the next boot tells changed memory from the trace by. */
		if (ktrace_region)
			ktrace_recover_sums(d, buf->start, (const u64 *)buf->commit,
					    ktrace_crash_buf_sums(buf));
	}
	h->freeze_clock = ktrace_clock_read();
	strscpy_pad(h->freeze_reason, reason);
	h->flags |= KTRACE_CRASH_FROZEN;
	ktrace_crash_seal();
	/* What a reset may not write back itself. */
	if (ktrace_region && IS_ENABLED(CONFIG_ARCH_HAS_PMEM_API))
		arch_wb_cache_pmem(ktrace_region, ktrace_region_size);
}

/**
 * ktrace_crash_stop() - save the table at a stop
 *
 * With ktrace_mutex held, the writers stopped: the hotplug lock too, as
 * a CPU coming up adds its buffers to the table meanwhile.
 */
void ktrace_crash_stop(void)
{
	cpus_read_lock();
	ktrace_crash_freeze("stop");
	cpus_read_unlock();
}

/**
 * ktrace_crash_thaw() - the trace runs again: nothing saved is current
 *
 * With ktrace_mutex held, the writers stopped, at a start.
 */
void ktrace_crash_thaw(void)
{
	unsigned int i;

	if (!ktrace_crash_hdr)
		return;
	cpus_read_lock();
	for (i = 0; i < ktrace_crash_nr; i++) {
		struct ktrace_crash_buf *d = &ktrace_crash_descs[i];

		d->offset = 0;
		d->rpos = 0;
		d->events = 0;
		d->dropped = 0;
		d->overwritten = 0;
	}
	ktrace_crash_hdr->flags &= ~KTRACE_CRASH_FROZEN;
	ktrace_crash_hdr->freeze_clock = 0;
	memset(ktrace_crash_hdr->freeze_reason, 0, sizeof(ktrace_crash_hdr->freeze_reason));
	ktrace_crash_seal();
	cpus_read_unlock();
}

/**
 * ktrace_persist_show() - the persist file: the region and its buffers
 * @m: the seq_file
 *
 * For tests and the curious: where the current recorder's buffers are.
 */
void ktrace_persist_show(struct seq_file *m)
{
	unsigned int i;

	mutex_lock(&ktrace_mutex);
	if (ktrace_region)
		seq_printf(m, "region: %s %pa %zu\n", ktrace_persist_label,
			   &ktrace_region_phys, ktrace_region_size);
	else
		seq_puts(m, "region: none\n");
	for (i = 0; ktrace_crash_hdr && i < ktrace_crash_nr; i++) {
		const struct ktrace_crash_buf *d = &ktrace_crash_descs[i];

		if (!d->sb_shift)
			continue;
		seq_printf(m, "buf %s cpu%u data=%llu commit=%llu sb_events=%llu sb_shift=%u nr_shift=%u\n",
			   ktrace_channel_name(d->channel), d->cpu, d->data,
			   d->commit, d->sb_events, d->sb_shift, d->nr_shift);
	}
	mutex_unlock(&ktrace_mutex);
}

#if IS_ENABLED(CONFIG_KTRACE_TEST_EVENTS)
/**
 * ktrace_persist_poke() - write bytes into the region, for corruption tests
 * @off: where, from the region's start
 * @bytes: what
 * @len: how many
 *
 * Return: 0, -ENODEV without a region, -EINVAL out of it.
 */
int ktrace_persist_poke(u64 off, const void *bytes, size_t len)
{
	if (!ktrace_region)
		return -ENODEV;
	if (off > ktrace_region_size || len > ktrace_region_size - off)
		return -EINVAL;
	memcpy(ktrace_region + off, bytes, len);
	return 0;
}
#endif

/* The previous boot's trace. */
struct ktrace_last_boot_stream {
	void *data;
	size_t len;
	size_t size;
};

static struct ktrace_last_boot {
	char *info;
	size_t info_len;
	unsigned int nr_cpus;
	struct ktrace_last_boot_stream *streams;	/* [channel * nr_cpus + cpu] */
} *ktrace_last;

struct ktrace_recover_ctx {
	const void *data;
	size_t sb_size;
	struct ktrace_last_boot_stream *out;
};

static int ktrace_last_read(void *ctx, unsigned long slot, void *dst)
{
	struct ktrace_recover_ctx *c = ctx;

	memcpy(dst, c->data + slot * c->sb_size, c->sb_size);
	return 0;
}

static int ktrace_last_emit(void *ctx, const void *sb, size_t len)
{
	struct ktrace_recover_ctx *c = ctx;
	struct ktrace_last_boot_stream *s = c->out;

	if (!s->data) {
		s->data = __vmalloc(s->size, GFP_KERNEL | __GFP_NOWARN);
		if (!s->data)
			return -ENOMEM;
	}
	if (len > s->size - s->len)
		return -ENOSPC;
	memcpy(s->data + s->len, sb, len);
	s->len += len;
	return 0;
}

/* Recover one buffer of the old table (copied in @h, @descs) into @lb. */
static void ktrace_last_recover_buf(const struct ktrace_crash_header *h,
				    const struct ktrace_crash_buf *d, unsigned int i,
				    const struct ktrace_recover_ids *ids,
				    struct ktrace_last_boot *lb, void *scratch,
				    struct seq_buf *info)
{
	struct ktrace_recover_stats st = {};
	unsigned long nr = 1UL << d->nr_shift;
	struct ktrace_recover_ctx c = {
		.data = ktrace_region + d->data,
		.sb_size = 1UL << d->sb_shift,
		.out = &lb->streams[i],
	};
	unsigned int r;
	int ret;

	c.out->size = c.sb_size * nr;
	ret = ktrace_recover_buf(h, d, ktrace_region + d->commit,
				 ktrace_region + d->sb_events,
				 d->sums ? ktrace_region + d->sums : NULL, ids,
				 ktrace_last_read, ktrace_last_emit, &c, scratch, &st);
	seq_buf_printf(info, "buf %s cpu%u", ktrace_channel_name(d->channel), d->cpu);
	for (r = 0; r < KTRACE_RECOVER_NR_REASONS; r++)
		seq_buf_printf(info, " %s=%llu", ktrace_recover_reason_name(r), st.subbufs[r]);
	seq_buf_printf(info, " events=%llu lost=%llu cut=%d", st.events, st.lost, st.cut);
	/* The counters are the freeze's: none if it did not run. */
	if (h->flags & KTRACE_CRASH_FROZEN)
		seq_buf_printf(info, " written=%llu dropped=%llu overwritten=%llu",
			       d->events, d->dropped, d->overwritten);
	seq_buf_printf(info, "%s\n", ret ? " (out of memory)" : "");
}

/* The event ids a recovered stream of the low channel describes. */
static void ktrace_last_learn_ids(struct ktrace_recover_ids *ids,
				  const struct ktrace_last_boot_stream *s)
{
	struct ktrace_subbuf_header h;
	size_t pos = 0, len;

	while (s->len - pos >= sizeof(h)) {
		memcpy(&h, s->data + pos, sizeof(h));
		len = sizeof(h) + h.data_size;
		if (len > s->len - pos)
			break;
		ktrace_recover_add_meta(ids, s->data + pos, len);
		pos += len;
	}
}

/* What the region says about itself, for the info file. */
static void ktrace_last_info_header(const struct ktrace_crash_header *h,
				    struct seq_buf *info)
{
	seq_buf_printf(info, "release: %.*s\n", (int)sizeof(h->release) - 1, h->release);
	seq_buf_printf(info, "build: %.*s\n", (int)sizeof(h->build) - 1, h->build);
	seq_buf_printf(info, "text_addr: 0x%llx\n", h->text_addr);
	seq_buf_printf(info, "boot_id: 0x%llx\n", h->boot_id);
	seq_buf_printf(info, "frozen: %s\n", h->flags & KTRACE_CRASH_FROZEN ? "yes" : "no");
	seq_buf_printf(info, "freeze_reason: %.*s\n", (int)sizeof(h->freeze_reason) - 1,
		       h->freeze_reason);
	seq_buf_printf(info, "freeze_clock: %llu\n", h->freeze_clock);
}

/*
 * Check the table the region holds and keep what is valid: the low
 * channel first, whose metadata says which event ids the others may hold.
 * Returns why nothing was recovered, or NULL.
 */
static const char *ktrace_last_recover(struct ktrace_last_boot *lb,
				       struct seq_buf *info)
{
	struct ktrace_crash_header h;
	struct ktrace_crash_buf *descs;
	struct ktrace_recover_ids *ids;
	unsigned int i, ch, cpu, sb_shift = KTRACE_SB_SHIFT_MIN;
	const char *why = NULL;
	u64 total = 0;
	void *scratch = NULL;
	size_t table;
	int ret;

	memcpy(&h, ktrace_region, sizeof(h));
	ret = ktrace_crash_check_header(&h);
	if (ret == -ENODATA)
		return "no table: memory cleared, or never traced";
	if (ret)
		return ret == -EPROTO ? "table of another layout" : "table inconsistent";
	if (!(h.flags & KTRACE_CRASH_REGION))
		return "table of another kind";
	table = sizeof(h) + (size_t)h.nr_bufs * sizeof(*descs);
	if (table > ktrace_region_size || h.size != ktrace_region_size)
		return "table of another region size";
	descs = kvmalloc_array(h.nr_bufs, sizeof(*descs), GFP_KERNEL);
	ids = kvzalloc(sizeof(*ids), GFP_KERNEL);
	lb->streams = kvcalloc(h.nr_bufs, sizeof(*lb->streams), GFP_KERNEL);
	if (!descs || !ids || !lb->streams) {
		why = "out of memory";
		goto out;
	}
	memcpy(descs, ktrace_region + sizeof(h), h.nr_bufs * sizeof(*descs));
	if (ktrace_crash_csum(&h, descs) != h.csum) {
		why = "table checksum wrong";
		goto out;
	}
	/*
	 * A slot of the largest subbuffers, which the checks accept up to
	 * 16 MiB; and no more buffers than the region holds, which bounds
	 * the copy whatever the descriptors say.
	 */
	for (i = 0; i < h.nr_bufs; i++) {
		if (ktrace_crash_check_buf(&h, &descs[i], i))
			continue;
		sb_shift = max_t(unsigned int, sb_shift, descs[i].sb_shift);
		total += 1ULL << (descs[i].sb_shift + descs[i].nr_shift);
	}
	if (total > ktrace_region_size) {
		why = "buffers larger than the region";
		goto out;
	}
	scratch = __vmalloc(1UL << sb_shift, GFP_KERNEL | __GFP_NOWARN);
	if (!scratch) {
		why = "out of memory";
		goto out;
	}
	lb->nr_cpus = h.nr_cpus;
	seq_buf_puts(info, "state: recovered\n");
	ktrace_last_info_header(&h, info);
	/* low, medium, then high: the metadata first. */
	static_assert(KTRACE_NR_CHANNELS - 1 == KTRACE_CHANNEL_LOW);
	for (ch = KTRACE_NR_CHANNELS; ch--;) {
		bool low = ch == KTRACE_CHANNEL_LOW;

		for (cpu = 0; cpu < h.nr_cpus; cpu++) {
			i = ch * h.nr_cpus + cpu;
			ret = ktrace_crash_check_buf(&h, &descs[i], i);
			if (ret == -ENOENT)
				continue;
			if (ret) {
				seq_buf_printf(info, "buf %s cpu%u descriptor invalid\n",
					       ktrace_channel_name(ch), cpu);
				continue;
			}
			ktrace_last_recover_buf(&h, &descs[i], i, low ? NULL : ids,
						lb, scratch, info);
			if (low)
				ktrace_last_learn_ids(ids, &lb->streams[i]);
		}
	}
out:
	vfree(scratch);
	kvfree(ids);
	kvfree(descs);
	return why;
}

static void ktrace_last_free_streams(struct ktrace_last_boot *lb)
{
	unsigned int i;

	for (i = 0; lb->streams && i < KTRACE_NR_CHANNELS * lb->nr_cpus; i++)
		vfree(lb->streams[i].data);
	kvfree(lb->streams);
	lb->streams = NULL;
	lb->nr_cpus = 0;
}

/* Room for the info file: its header, then a line per buffer. */
#define KTRACE_LAST_INFO_HEAD	1024
#define KTRACE_LAST_INFO_LINE	256

/* At boot: the previous boot's trace, from the region, into ktrace_last. */
static void __init ktrace_last_boot_init(void)
{
	const struct ktrace_crash_header *h = ktrace_region;
	struct ktrace_last_boot *lb;
	size_t size = KTRACE_LAST_INFO_HEAD;
	struct seq_buf info;
	const char *why;

	/* Enough for any table the checks accept; only what is written is kept. */
	if (h->magic == KTRACE_CRASH_MAGIC && h->nr_bufs <= KTRACE_NR_CHANNELS * 8192)
		size += (size_t)h->nr_bufs * KTRACE_LAST_INFO_LINE;
	lb = kzalloc(sizeof(*lb), GFP_KERNEL);
	if (!lb)
		return;
	lb->info = kvmalloc(size, GFP_KERNEL);
	if (!lb->info) {
		kfree(lb);
		return;
	}
	seq_buf_init(&info, lb->info, size);
	why = ktrace_last_recover(lb, &info);
	if (why) {
		/* Nothing shown but why: no stream of a table not believed. */
		ktrace_last_free_streams(lb);
		seq_buf_clear(&info);
		seq_buf_printf(&info, "state: nothing recovered (%s)\n", why);
	}
	lb->info_len = seq_buf_used(&info);
	pr_info("previous boot's trace in region %s: %s\n", ktrace_persist_label,
		why ? why : "recovered, in last_boot/");
	ktrace_last = lb;
}

/**
 * ktrace_last_boot_info() - the previous boot's info file
 * @len: its length
 *
 * Return: the text, or %NULL if there is no previous boot's trace (no
 * region, or released).  Valid until ktrace_last_boot_release().
 */
const char *ktrace_last_boot_info(size_t *len)
{
	struct ktrace_last_boot *lb = READ_ONCE(ktrace_last);

	if (!lb)
		return NULL;
	*len = lb->info_len;
	return lb->info;
}

/**
 * ktrace_last_boot_stream() - a stream of the previous boot's trace
 * @ch: enum ktrace_channel_id
 * @cpu: the CPU
 * @data: the subbuffers kept, header and records each, oldest first, or
 *	%NULL if none was; valid until ktrace_last_boot_release()
 * @len: their length
 *
 * Return: 0, or -ENOENT if that boot had no such CPU (or there is no
 * previous boot's trace).
 */
int ktrace_last_boot_stream(unsigned int ch, unsigned int cpu, const void **data,
			    size_t *len)
{
	struct ktrace_last_boot *lb = READ_ONCE(ktrace_last);
	struct ktrace_last_boot_stream *s;

	if (!lb || ch >= KTRACE_NR_CHANNELS || cpu >= lb->nr_cpus)
		return -ENOENT;
	s = &lb->streams[ch * lb->nr_cpus + cpu];
	*data = s->data;
	*len = s->len;
	return 0;
}

/**
 * ktrace_last_boot_release() - free the previous boot's trace
 *
 * Once nothing uses what the two functions above returned (the control
 * layer removed its files).
 */
void ktrace_last_boot_release(void)
{
	struct ktrace_last_boot *lb;

	lb = xchg(&ktrace_last, NULL);
	if (!lb)
		return;
	ktrace_last_free_streams(lb);
	kvfree(lb->info);
	kfree(lb);
}

/*
 * A reboot (kexec, or reboot(2)) into a kernel that finds the region: the
 * trace stopped for good, then the state saved, as at a panic.
 */
static int ktrace_persist_reboot(struct notifier_block *nb, unsigned long action,
				 void *data)
{
	ktrace_shutdown("reboot");
	return NOTIFY_DONE;
}

static struct notifier_block ktrace_reboot_nb = {
	.notifier_call = ktrace_persist_reboot,
};

/* Map the region named by ktrace.persist=, if it exists. */
static int __init ktrace_persist_map(void)
{
	phys_addr_t start, size;

	if (!ktrace_persist_label[0])
		return 0;
	if (!reserve_mem_find_by_name(ktrace_persist_label, &start, &size)) {
		pr_warn("ktrace.persist=%s: no such reserve_mem= region\n",
			ktrace_persist_label);
		return -ENOENT;
	}
	if (size < ktrace_crash_table_size() + SZ_1M) {
		pr_warn("ktrace.persist=%s: region of %pa bytes too small\n",
			ktrace_persist_label, &size);
		return -ENOSPC;
	}
	ktrace_region = memremap(start, size, MEMREMAP_WB);
	if (!ktrace_region)
		return -ENOMEM;
	ktrace_region_phys = start;
	ktrace_region_size = size;
	return 0;
}

/*
 * At boot, before anything can start tracing (the control files come at
 * fs_initcall): the crash table, and the previous boot's trace.
 */
static int __init ktrace_persist_init(void)
{
	struct ktrace_crash_header *table;

	ktrace_boot_id = get_random_u64();
	ktrace_crash_nr = KTRACE_NR_CHANNELS * nr_cpu_ids;
	ktrace_crash_bufs = kcalloc(ktrace_crash_nr, sizeof(*ktrace_crash_bufs), GFP_KERNEL);
	ktrace_crash_pages = kcalloc(ktrace_crash_nr, sizeof(*ktrace_crash_pages), GFP_KERNEL);
	if (!ktrace_crash_bufs || !ktrace_crash_pages)
		goto nomem;
	if (!ktrace_persist_map() && ktrace_region) {
		/* The table is written at the first start: ktrace_persist_layout(). */
		ktrace_last_boot_init();
		ktrace_crash_anchor.size = ktrace_region_size;
		register_reboot_notifier(&ktrace_reboot_nb);
		return 0;
	}
	/* Physically contiguous: the anchor's one address finds it all. */
	table = kzalloc(ktrace_crash_table_size(), GFP_KERNEL);
	if (!table)
		goto nomem;
	ktrace_crash_descs = (void *)(table + 1);
	ktrace_crash_table_init(table);
	ktrace_crash_hdr = table;
	ktrace_crash_anchor.size = ktrace_crash_table_size();
	ktrace_crash_anchor.table = virt_to_phys(table);
	return 0;

nomem:
	kfree(ktrace_crash_bufs);
	kfree(ktrace_crash_pages);
	ktrace_crash_bufs = NULL;
	ktrace_crash_pages = NULL;
	pr_warn("no crash table: out of memory\n");
	return -ENOMEM;
}
core_initcall(ktrace_persist_init);

/*
 * The anchor in vmcoreinfo, once it exists (subsys_initcall): before user
 * space can load a kdump kernel, which copies it.
 */
static int __init ktrace_vmcoreinfo_init(void)
{
	if (IS_ENABLED(CONFIG_VMCORE_INFO))
		vmcoreinfo_append_str("KTRACE_CRASH=%llx\n",
				      (u64)__pa_symbol(&ktrace_crash_anchor));
	return 0;
}
fs_initcall(ktrace_vmcoreinfo_init);
