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
 * ktrace_ctl_get_ulong() - parse a write of a decimal number
 * @ubuf: the user buffer
 * @cnt: its length
 * @val: set to the value
 *
 * As kstrtoul() reads it: a trailing newline, a leading '+' and leading
 * zeros are accepted, nothing else.  An overlong write is refused whole:
 * kstrtoul_from_user() copies at most 66 bytes, more than any write
 * accepted here, so it never acts on the start of a longer one.
 *
 * Return: 0, -EINVAL for anything else (out of range included) or a write
 * of %KTRACE_CTL_MAX bytes or more, -EFAULT.
 */
int ktrace_ctl_get_ulong(const char __user *ubuf, size_t cnt,
			 unsigned long *val)
{
	int ret;

	if (cnt >= KTRACE_CTL_MAX)
		return -EINVAL;
	ret = kstrtoul_from_user(ubuf, cnt, 10, val);
	if (ret == -EFAULT)
		return ret;
	return ret ? -EINVAL : 0;
}

/**
 * ktrace_ctl_get_bool() - parse a write of "0" or "1"
 * @ubuf: the user buffer
 * @cnt: its length
 * @on: set to the value
 *
 * A number as ktrace_ctl_get_ulong() reads it, 0 or 1, as the enable files
 * of ftrace take it: not kstrtobool(), for which "yes", "on" and "10" are
 * true.
 *
 * Return: 0, -EINVAL for anything else or an overlong write, -EFAULT.
 */
int ktrace_ctl_get_bool(const char __user *ubuf, size_t cnt, bool *on)
{
	unsigned long v;
	int ret;

	ret = ktrace_ctl_get_ulong(ubuf, cnt, &v);
	if (ret)
		return ret;
	if (v > 1)
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
