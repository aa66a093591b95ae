// SPDX-License-Identifier: GPL-2.0
/*
 * The control files of ktrace in /sys/kernel/debug/ktrace/.
 *
 * This layer only parses what is written and formats what is read; the
 * state and everything that acts on it live in kernel/trace/ktrace/.  All
 * files are for root only.
 *
 *   # cat /sys/kernel/debug/ktrace/enable
 *   0
 *   # echo 1 > /sys/kernel/debug/ktrace/enable
 *   # cat /sys/kernel/debug/ktrace/enable
 *   1
 *   # echo yes > /sys/kernel/debug/ktrace/enable
 *   sh: write error: Invalid argument
 *   # cat /sys/kernel/debug/ktrace/mode
 *   drop overwrite [hybrid]
 *   # echo drop > /sys/kernel/debug/ktrace/mode
 *   # cat /sys/kernel/debug/ktrace/clock
 *   [tsc] mono
 *   # echo mono > /sys/kernel/debug/ktrace/clock
 *   # echo 4096 > /sys/kernel/debug/ktrace/buffer_size_kb
 *   # echo "before the upgrade" > /sys/kernel/debug/ktrace/mark
 *   # echo "oom delay=100" > /sys/kernel/debug/ktrace/triggers
 *   # cat /sys/kernel/debug/ktrace/stats
 *   state tracing
 *   unsaved 0
 *   cpu0 high events=1200 bytes=9612 dropped=0 overwritten=0 timestamps=3 subbufs=0
 *   ...
 *   metadata records=412 failed=0 incomplete=0
 *   names slots=32768 saved=97 missed=0 statedump_dropped=0
 *   # cat /sys/kernel/debug/ktrace/comms
 *   1 init
 *   2 kthreadd
 *   ...
 *
 *   # cat /sys/kernel/debug/ktrace/ascii
 *   51.734017472 1 sh-87 ktrace:mark pid=87 text="before the upgrade"
 *
 * The binary streams are relay files: high/cpuN, medium/cpuN, low/cpuN.
 */
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/relay.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "buffer.h"
#include "ktrace_internal.h"
#include "control.h"

static struct dentry *ktrace_dir;
static struct dentry *ktrace_channel_dirs[KTRACE_NR_CHANNELS];

static ssize_t enable_read(struct file *file, char __user *ubuf, size_t cnt,
			   loff_t *ppos)
{
	char buf[3];
	int len;

	/* 0 while frozen: nothing is being recorded, and writes act as stopped. */
	len = scnprintf(buf, sizeof(buf), "%d\n",
			ktrace_get_state() == KTRACE_STATE_TRACING);
	return simple_read_from_buffer(ubuf, cnt, ppos, buf, len);
}

/*
 * "1" starts tracing, "0" stops it; anything else is -EINVAL.  A trace a
 * trigger froze is stopped first, so "1" starts a new one.
 */
static ssize_t enable_write(struct file *file, const char __user *ubuf,
			    size_t cnt, loff_t *ppos)
{
	bool on;
	int ret;

	ret = ktrace_ctl_get_bool(ubuf, cnt, &on);
	if (!ret)
		ret = ktrace_set_enabled(on);
	return ret ? ret : cnt;
}

static const struct file_operations enable_fops = {
	.open = simple_open,
	.read = enable_read,
	.write = enable_write,
	.llseek = default_llseek,
};

static ssize_t mode_read(struct file *file, char __user *ubuf, size_t cnt,
			 loff_t *ppos)
{
	enum ktrace_trace_mode cur = ktrace_get_mode(), m;
	char buf[64];
	int len = 0;

	for (m = 0; m < KTRACE_NR_TRACE_MODES; m++)
		len += scnprintf(buf + len, sizeof(buf) - len,
				 m == cur ? "%s[%s]" : "%s%s", m ? " " : "",
				 ktrace_mode_name(m));
	len += scnprintf(buf + len, sizeof(buf) - len, "\n");
	return simple_read_from_buffer(ubuf, cnt, ppos, buf, len);
}

/* One of the mode names; -EINVAL otherwise, -EBUSY while tracing. */
static ssize_t mode_write(struct file *file, const char __user *ubuf,
			  size_t cnt, loff_t *ppos)
{
	char buf[KTRACE_CTL_MAX];
	char *s;
	int ret;

	s = ktrace_ctl_get_user(ubuf, cnt, buf, sizeof(buf));
	if (IS_ERR(s))
		return PTR_ERR(s);
	ret = ktrace_mode_of(s);
	if (ret >= 0)
		ret = ktrace_set_mode(ret);
	return ret ? ret : cnt;
}

static const struct file_operations mode_fops = {
	.open = simple_open,
	.read = mode_read,
	.write = mode_write,
	.llseek = default_llseek,
};

static ssize_t clock_read(struct file *file, char __user *ubuf, size_t cnt,
			  loff_t *ppos)
{
	char buf[64];
	int len = ktrace_clock_show(buf, sizeof(buf));

	return simple_read_from_buffer(ubuf, cnt, ppos, buf, len);
}

/*
 * One of the clock names; -EINVAL otherwise, -EBUSY while tracing or with
 * a latency trigger armed, -ENODEV or -EOPNOTSUPP for a TSC absent or not
 * trusted.
 */
static ssize_t clock_write(struct file *file, const char __user *ubuf,
			   size_t cnt, loff_t *ppos)
{
	char buf[KTRACE_CTL_MAX];
	char *s;
	int ret;

	s = ktrace_ctl_get_user(ubuf, cnt, buf, sizeof(buf));
	if (IS_ERR(s))
		return PTR_ERR(s);
	ret = ktrace_set_clock(s);
	return ret ? ret : cnt;
}

static const struct file_operations clock_fops = {
	.open = simple_open,
	.read = clock_read,
	.write = clock_write,
	.llseek = default_llseek,
};

static ssize_t buffer_size_kb_read(struct file *file, char __user *ubuf,
				   size_t cnt, loff_t *ppos)
{
	char buf[24];
	int len;

	len = scnprintf(buf, sizeof(buf), "%lu\n", ktrace_get_buffer_size_kb());
	return simple_read_from_buffer(ubuf, cnt, ppos, buf, len);
}

/*
 * A decimal number of KiB per CPU, rounded up to a power of two; -EINVAL
 * for anything else or out of range, -EBUSY while tracing.
 */
static ssize_t buffer_size_kb_write(struct file *file, const char __user *ubuf,
				    size_t cnt, loff_t *ppos)
{
	unsigned long kb;
	int ret;

	ret = ktrace_ctl_get_ulong(ubuf, cnt, &kb);
	if (ret)
		return ret;
	ret = ktrace_set_buffer_size_kb(kb);
	return ret ? ret : cnt;
}

static const struct file_operations buffer_size_kb_fops = {
	.open = simple_open,
	.read = buffer_size_kb_read,
	.write = buffer_size_kb_write,
	.llseek = default_llseek,
};

/*
 * The state and whether a trace a trigger kept is unread ("unsaved 1":
 * ktrace_unsaved()), then one line per CPU and allocated channel, then the
 * metadata of the last start: its records, those not written, and how
 * many starts missed some; then the names: the saved comms' slots, those in use and the saves
 * missed, and the records the last statedump lost.
 */
static int stats_show(struct seq_file *m, void *v)
{
	unsigned int cpu, ch, records, failed, slot, saved = 0;
	char comm[TASK_COMM_LEN];
	struct ktrace_buf_stats st;
	unsigned long incomplete;
	pid_t pid;

	seq_printf(m, "state %s\n", ktrace_state_name(ktrace_get_state()));
	seq_printf(m, "unsaved %d\n", ktrace_unsaved());
	for_each_possible_cpu(cpu) {
		for (ch = 0; ch < KTRACE_NR_CHANNELS; ch++) {
			if (!ktrace_channel_stats(ch, cpu, &st))
				continue;
			seq_printf(m, "cpu%u %s events=%llu bytes=%llu dropped=%llu overwritten=%llu timestamps=%llu subbufs=%llu used=%llu torn_reads=%llu\n",
				   cpu, ktrace_channel_name(ch), st.events,
				   st.bytes, st.dropped, st.overwritten,
				   st.timestamps, st.subbufs, st.used,
				   st.torn_reads);
		}
	}
	ktrace_metadata_stats(&records, &failed, &incomplete);
	seq_printf(m, "metadata records=%u failed=%u incomplete=%lu\n",
		   records, failed, incomplete);
	for (slot = 0; slot < ktrace_comms_slots(); slot++)
		saved += ktrace_comm_get(slot, &pid, comm);
	seq_printf(m, "names slots=%u saved=%u missed=%lu statedump_dropped=%lu\n",
		   ktrace_comms_slots(), saved, ktrace_comms_missed(),
		   ktrace_statedump_dropped());
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(stats);

/*
 * comms: "PID COMM" for every pid of the saved comms, in slot order, as
 * ftrace's saved_cmdlines: the names of the trace's pids even when the
 * medium-rate channel had no room for their fork, exec or comm events.
 * The position is the slot shown.
 */
static void *comms_find(struct seq_file *m, loff_t *pos)
{
	unsigned int *slot = m->private;
	char comm[TASK_COMM_LEN];
	pid_t pid;

	for (; *pos < ktrace_comms_slots(); ++*pos)
		if (ktrace_comm_get(*pos, &pid, comm)) {
			*slot = *pos;
			return slot;
		}
	return NULL;
}

static void *comms_start(struct seq_file *m, loff_t *pos)
{
	return comms_find(m, pos);
}

static void *comms_next(struct seq_file *m, void *v, loff_t *pos)
{
	++*pos;
	return comms_find(m, pos);
}

static void comms_stop(struct seq_file *m, void *v)
{
}

/* The slot is read again: a name changed since comms_next() is still whole. */
static int comms_show(struct seq_file *m, void *v)
{
	char comm[TASK_COMM_LEN];
	pid_t pid;
	char *c;

	if (!ktrace_comm_get(*(unsigned int *)v, &pid, comm))
		return 0;
	/* One line per pid, whatever a task named itself. */
	for (c = comm; *c; c++)
		if ((unsigned char)*c < ' ' || *c == 0x7f)
			*c = '?';
	seq_printf(m, "%d %s\n", pid, comm);
	return 0;
}

static const struct seq_operations comms_seq_ops = {
	.start = comms_start,
	.next = comms_next,
	.stop = comms_stop,
	.show = comms_show,
};

static int comms_open(struct inode *inode, struct file *file)
{
	return seq_open_private(file, &comms_seq_ops, sizeof(unsigned int));
}

static const struct file_operations comms_fops = {
	.open = comms_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = seq_release_private,
};

/*
 * Each write is one annotation, 1 to KTRACE_MARK_MAX bytes, a trailing
 * newline removed; -EINVAL otherwise, -EAGAIN when not tracing, -ENOBUFS
 * if the buffer is full.
 */
static ssize_t mark_write(struct file *file, const char __user *ubuf,
			  size_t cnt, loff_t *ppos)
{
	size_t len;
	char *text;
	int ret;

	text = ktrace_ctl_get_text(ubuf, cnt, KTRACE_MARK_MAX, &len);
	if (IS_ERR(text))
		return PTR_ERR(text);
	ret = ktrace_mark_write(text, len);
	kfree(text);
	return ret ? ret : cnt;
}

static const struct file_operations mark_fops = {
	.open = simple_open,
	.write = mark_write,
	.llseek = noop_llseek,
};

static int ascii_open(struct inode *inode, struct file *file)
{
	struct ktrace_ascii *a = ktrace_ascii_open();

	if (IS_ERR(a))
		return PTR_ERR(a);
	file->private_data = a;
	return nonseekable_open(inode, file);
}

static ssize_t ascii_read(struct file *file, char __user *ubuf, size_t cnt,
			  loff_t *ppos)
{
	return ktrace_ascii_read(file->private_data, ubuf, cnt,
				 file->f_flags & O_NONBLOCK);
}

static int ascii_release(struct inode *inode, struct file *file)
{
	ktrace_ascii_release(file->private_data);
	return 0;
}

static const struct file_operations ascii_fops = {
	.open = ascii_open,
	.read = ascii_read,
	.release = ascii_release,
};

/*
 * The stream files: relay's buffers and references, but read() copies
 * each subbuffer out whole and checks it before handing it over (see
 * ktrace_stream_read()), where relay's read() copies in place from memory
 * an overwriting writer may be reusing.  No mmap() nor splice(): a reader
 * of the mapping could not check what it copied.
 */
static int stream_file_open(struct inode *inode, struct file *file)
{
	struct ktrace_stream *s;
	int ret;

	/* Takes relay's reference on the buffer, dropped by stream_file_release(). */
	ret = relay_file_operations.open(inode, file);
	if (ret)
		return ret;
	s = ktrace_stream_open(file->private_data);
	if (IS_ERR(s)) {
		relay_file_operations.release(inode, file);
		return PTR_ERR(s);
	}
	file->private_data = s;
	return 0;
}

static ssize_t stream_file_read(struct file *file, char __user *ubuf,
				size_t cnt, loff_t *ppos)
{
	return ktrace_stream_read(file->private_data, ubuf, cnt);
}

static __poll_t stream_file_poll(struct file *file, poll_table *wait)
{
	struct ktrace_stream *s = file->private_data;

	poll_wait(file, &ktrace_stream_rbuf(s)->read_wait, wait);
	return ktrace_stream_ready(s) ? EPOLLIN | EPOLLRDNORM : 0;
}

static int stream_file_release(struct inode *inode, struct file *file)
{
	struct ktrace_stream *s = file->private_data;

	file->private_data = ktrace_stream_rbuf(s);
	ktrace_stream_release(s);
	return relay_file_operations.release(inode, file);
}

static const struct file_operations stream_fops = {
	.open = stream_file_open,
	.read = stream_file_read,
	.poll = stream_file_poll,
	.release = stream_file_release,
};

/* The directory of a channel's relay files, %NULL if debugfs failed. */
static struct dentry *ktrace_fs_channel_dir(unsigned int ch)
{
	return IS_ERR_OR_NULL(ktrace_channel_dirs[ch]) ? NULL : ktrace_channel_dirs[ch];
}

/* relay callback: a CPU's file "cpuN" in the channel's directory. */
static struct dentry *ktrace_fs_create_buf_file(const char *filename,
						struct dentry *parent,
						umode_t mode,
						struct rchan_buf *buf,
						int *is_global)
{
	return debugfs_create_file(filename, mode, parent, buf, &stream_fops);
}

static int ktrace_fs_remove_buf_file(struct dentry *dentry)
{
	debugfs_remove(dentry);
	return 0;
}

static const struct ktrace_fs_ops ktrace_fs_ops = {
	.channel_dir = ktrace_fs_channel_dir,
	.create_buf_file = ktrace_fs_create_buf_file,
	.remove_buf_file = ktrace_fs_remove_buf_file,
	.event_added = ktrace_fs_event_added,
};

static int __init ktrace_debugfs_init(void)
{
	unsigned int ch;

	/*
	 * As everywhere in debugfs, failures are not checked: a missing
	 * control file costs the user the file, not the tracer.
	 */
	ktrace_dir = debugfs_create_dir("ktrace", NULL);
	debugfs_create_file("enable", 0600, ktrace_dir, NULL, &enable_fops);
	debugfs_create_file("mode", 0600, ktrace_dir, NULL, &mode_fops);
	debugfs_create_file("clock", 0600, ktrace_dir, NULL, &clock_fops);
	debugfs_create_file("buffer_size_kb", 0600, ktrace_dir, NULL,
			    &buffer_size_kb_fops);
	debugfs_create_file("stats", 0400, ktrace_dir, NULL, &stats_fops);
	debugfs_create_file("comms", 0400, ktrace_dir, NULL, &comms_fops);
	debugfs_create_file("mark", 0200, ktrace_dir, NULL, &mark_fops);
	debugfs_create_file("ascii", 0400, ktrace_dir, NULL, &ascii_fops);
	for (ch = 0; ch < KTRACE_NR_CHANNELS; ch++)
		ktrace_channel_dirs[ch] = debugfs_create_dir(ktrace_channel_name(ch),
							     ktrace_dir);
	ktrace_fs_events_init(ktrace_dir);
	ktrace_fs_triggers_init(ktrace_dir);
	ktrace_fs_persist_init(ktrace_dir);
	ktrace_fs_cluster_init(ktrace_dir);
	ktrace_fs_register(&ktrace_fs_ops);
	return 0;
}
fs_initcall(ktrace_debugfs_init);
