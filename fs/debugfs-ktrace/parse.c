// SPDX-License-Identifier: GPL-2.0
/*
 * The parsing of writes to ktrace's control files, shared by the files of
 * fs/debugfs-ktrace/: strict, and whole or nothing.
 */
#include <linux/err.h>
#include <linux/kstrtox.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "control.h"

/**
 * ktrace_ctl_get_user() - copy a control write into a string
 * @ubuf: the user buffer
 * @cnt: its length
 * @buf: where the string goes
 * @size: bytes at @buf, %KTRACE_CTL_MAX for most files
 *
 * Empty and overlong writes are refused whole, never truncated, so nothing
 * that was not meant gets acted on.  Surrounding white space is removed.
 *
 * Return: the string inside @buf, or an ERR_PTR(): -EINVAL for an empty or
 * overlong write, -EFAULT for a bad buffer.
 */
char *ktrace_ctl_get_user(const char __user *ubuf, size_t cnt, char *buf,
			  size_t size)
{
	if (!cnt || cnt >= size)
		return ERR_PTR(-EINVAL);
	if (copy_from_user(buf, ubuf, cnt))
		return ERR_PTR(-EFAULT);
	buf[cnt] = '\0';
	return strim(buf);
}

/**
 * ktrace_ctl_get_bool() - parse a write of "0" or "1"
 * @ubuf: the user buffer
 * @cnt: its length
 * @on: set to the value
 *
 * A decimal 0 or 1 as kstrtouint() reads it (a trailing newline, a leading
 * '+'), strictly: not kstrtobool(), for which "yes", "on" and "10" are true,
 * since the enable files of ftrace take 0 or 1 only too.
 *
 * Return: 0, -EINVAL for anything else or an overlong write, -EFAULT.
 */
int ktrace_ctl_get_bool(const char __user *ubuf, size_t cnt, bool *on)
{
	unsigned int v;
	int ret;

	/* kstrtouint_from_user() would read the start of an overlong write. */
	if (cnt >= KTRACE_CTL_MAX)
		return -EINVAL;
	ret = kstrtouint_from_user(ubuf, cnt, 10, &v);
	if (ret == -EFAULT)
		return ret;
	if (ret || v > 1)
		return -EINVAL;
	*on = v;
	return 0;
}

/**
 * ktrace_ctl_get_text() - copy a free-text write, its trailing newline removed
 * @ubuf: the user buffer
 * @cnt: its length
 * @max: the longest write accepted, newline included
 * @len: set to the length of the text
 *
 * For the files whose writes are text (mark, trigger): taken whole or
 * refused, never truncated.
 *
 * Return: the text, to be kfree()d, or an ERR_PTR(): -EINVAL for an empty
 * write, a lone newline or a write of more than @max bytes; -EFAULT or
 * -ENOMEM.
 */
char *ktrace_ctl_get_text(const char __user *ubuf, size_t cnt, size_t max,
			  size_t *len)
{
	char *text;

	if (!cnt || cnt > max)
		return ERR_PTR(-EINVAL);
	text = memdup_user(ubuf, cnt);
	if (IS_ERR(text))
		return text;
	*len = cnt - (text[cnt - 1] == '\n');
	if (!*len) {
		kfree(text);
		return ERR_PTR(-EINVAL);
	}
	return text;
}
