// SPDX-License-Identifier: GPL-2.0
/*
 * The trigger files of ktrace: triggers, trigger and trigger_pipe.
 *
 *   # echo oom > /sys/kernel/debug/ktrace/triggers
 *   # echo 'latency:block>50ms count=2 delay=200' > /sys/kernel/debug/ktrace/triggers
 *   # echo user > /sys/kernel/debug/ktrace/triggers
 *   # cat /sys/kernel/debug/ktrace/triggers
 *   oom count=1 delay=0 action=stop hits=0 fired=0
 *   user count=1 delay=0 action=stop hits=0 fired=0
 *   latency:block>50ms count=2 delay=200 action=stop hits=0 fired=0 untracked=0
 *   # echo oom > /sys/kernel/debug/ktrace/triggers
 *   sh: write error: Device or resource busy
 *   # echo '!oom' > /sys/kernel/debug/ktrace/triggers
 *   # echo "request 1234 took 3 s" > /sys/kernel/debug/ktrace/trigger
 *   # cat /sys/kernel/debug/ktrace/trigger_pipe
 *   812.113520467 user action=stop fired=1 pid=301 comm="sh" value=0 reason="request 1234 took 3 s"
 *
 * The parsing of specs lives in kernel/trace/ktrace/trigger_parse.c, the
 * armed triggers in trigger.c, the firing and trigger_pipe in
 * trigger_fire.c.
 */
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/poll.h>
#include <linux/seq_file.h>
#include <linux/slab.h>

#include "ktrace_internal.h"
#include "control.h"

static int triggers_show(struct seq_file *m, void *v)
{
	ktrace_triggers_show(m);
	return 0;
}

static int triggers_open(struct inode *inode, struct file *file)
{
	return single_open(file, triggers_show, NULL);
}

/* One spec per write: "KIND [OPTION=VALUE]..." arms, "!KIND" disarms. */
static ssize_t triggers_write(struct file *file, const char __user *ubuf,
			      size_t cnt, loff_t *ppos)
{
	char buf[KTRACE_TRIGGER_SPEC_MAX];
	char *s;
	int ret;

	s = ktrace_ctl_get_user(ubuf, cnt, buf, sizeof(buf));
	if (IS_ERR(s))
		return PTR_ERR(s);
	ret = ktrace_trigger_write(s);
	return ret ? ret : cnt;
}

static const struct file_operations triggers_fops = {
	.open = triggers_open,
	.read = seq_read,
	.write = triggers_write,
	.llseek = seq_lseek,
	.release = single_release,
};

/*
 * Each write fires the user trigger, its text (a trailing newline
 * removed) the reason: -ENOENT if it is not armed, -EAGAIN when not
 * tracing, -EINVAL for an empty or overlong text.
 */
static ssize_t trigger_write(struct file *file, const char __user *ubuf,
			     size_t cnt, loff_t *ppos)
{
	size_t len;
	char *text;
	int ret;

	text = ktrace_ctl_get_text(ubuf, cnt, KTRACE_TRIGGER_REASON_MAX, &len);
	if (IS_ERR(text))
		return PTR_ERR(text);
	ret = ktrace_trigger_user(text, len);
	kfree(text);
	return ret ? ret : cnt;
}

static const struct file_operations trigger_fops = {
	.open = simple_open,
	.write = trigger_write,
	.llseek = noop_llseek,
};

static ssize_t trigger_pipe_read(struct file *file, char __user *ubuf,
				 size_t cnt, loff_t *ppos)
{
	return ktrace_trigger_pipe_read(ubuf, cnt, file->f_flags & O_NONBLOCK);
}

static __poll_t trigger_pipe_poll(struct file *file, struct poll_table_struct *pt)
{
	poll_wait(file, ktrace_trigger_pipe_waitq(), pt);
	return ktrace_trigger_pipe_ready() ? EPOLLIN | EPOLLRDNORM : 0;
}

static const struct file_operations trigger_pipe_fops = {
	.open = nonseekable_open,
	.read = trigger_pipe_read,
	.poll = trigger_pipe_poll,
};

/**
 * ktrace_fs_triggers_init() - make the trigger files
 * @parent: /sys/kernel/debug/ktrace
 */
void ktrace_fs_triggers_init(struct dentry *parent)
{
	debugfs_create_file("triggers", 0600, parent, NULL, &triggers_fops);
	debugfs_create_file("trigger", 0200, parent, NULL, &trigger_fops);
	debugfs_create_file("trigger_pipe", 0400, parent, NULL, &trigger_pipe_fops);
}
