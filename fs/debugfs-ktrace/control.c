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
 */
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/ktrace.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "ktrace_internal.h"

/* Longest write any control file accepts, including a trailing newline. */
#define KTRACE_CTL_MAX	64

static struct dentry *ktrace_dir;

/**
 * ktrace_ctl_get_user() - copy a control write into a string
 * @ubuf: the user buffer
 * @cnt: its length
 * @buf: where the string goes, %KTRACE_CTL_MAX bytes
 *
 * Empty and overlong writes are refused whole, never truncated, so nothing
 * that was not meant gets acted on.  Surrounding white space is removed.
 *
 * Return: the string inside @buf, or an ERR_PTR(): -EINVAL for an empty or
 * overlong write, -EFAULT for a bad buffer.
 */
static char *ktrace_ctl_get_user(const char __user *ubuf, size_t cnt, char *buf)
{
	if (!cnt || cnt >= KTRACE_CTL_MAX)
		return ERR_PTR(-EINVAL);
	if (copy_from_user(buf, ubuf, cnt))
		return ERR_PTR(-EFAULT);
	buf[cnt] = '\0';
	return strim(buf);
}

static ssize_t enable_read(struct file *file, char __user *ubuf, size_t cnt,
			   loff_t *ppos)
{
	char buf[3];
	int len;

	len = scnprintf(buf, sizeof(buf), "%d\n", ktrace_is_enabled());
	return simple_read_from_buffer(ubuf, cnt, ppos, buf, len);
}

/* "1" starts tracing, "0" stops it; anything else is -EINVAL. */
static ssize_t enable_write(struct file *file, const char __user *ubuf,
			    size_t cnt, loff_t *ppos)
{
	char buf[KTRACE_CTL_MAX];
	char *s;
	int ret;

	s = ktrace_ctl_get_user(ubuf, cnt, buf);
	if (IS_ERR(s))
		return PTR_ERR(s);
	if (strcmp(s, "0") && strcmp(s, "1"))
		return -EINVAL;
	ret = ktrace_set_enabled(s[0] == '1');
	return ret ? ret : cnt;
}

static const struct file_operations enable_fops = {
	.open = simple_open,
	.read = enable_read,
	.write = enable_write,
	.llseek = default_llseek,
};

static int __init ktrace_debugfs_init(void)
{
	/*
	 * As everywhere in debugfs, failures are not checked: a missing
	 * control file costs the user the file, not the tracer.
	 */
	ktrace_dir = debugfs_create_dir("ktrace", NULL);
	debugfs_create_file("enable", 0600, ktrace_dir, NULL, &enable_fops);
	return 0;
}
fs_initcall(ktrace_debugfs_init);
