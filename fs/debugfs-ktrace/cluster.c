// SPDX-License-Identifier: GPL-2.0
/*
 * The cluster file of ktrace: join a group, leave it, read its counters.
 *
 *   # echo 'dev=eth0 key=000102030405060708090a0b0c0d0e0f beacon=100' \
 *	> /sys/kernel/debug/ktrace/cluster
 *   # cat /sys/kernel/debug/ktrace/cluster
 *   dev=eth0 port=6363 id=0a00020f name=a dst=255.255.255.255 allow=any
 *	beacon=100 window=0 rate=100 key=set		(one line)
 *   sent=3 received=12 triggers=1 beacons=11 unarmed=0
 *   refused: short=0 magic=0 peer=0 mac=0 self=0 window=0 replay=0 rate=0
 *   # echo off > /sys/kernel/debug/ktrace/cluster
 *
 * The grammar and the checks live in kernel/trace/ktrace/cluster.c, the
 * transport in cluster_net.c.
 */
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/seq_file.h>

#include "cluster.h"
#include "control.h"

static int cluster_show(struct seq_file *m, void *v)
{
	if (IS_ENABLED(CONFIG_KTRACE_CLUSTER))
		ktrace_cluster_show(m);
	else
		seq_puts(m, "unsupported\n");
	return 0;
}

static int cluster_open(struct inode *inode, struct file *file)
{
	return single_open(file, cluster_show, NULL);
}

static ssize_t cluster_write(struct file *file, const char __user *ubuf,
			     size_t cnt, loff_t *ppos)
{
	char buf[KTRACE_CLUSTER_CONF_MAX];
	char *s;
	int ret;

	s = ktrace_ctl_get_user(ubuf, cnt, buf, sizeof(buf));
	if (IS_ERR(s))
		return PTR_ERR(s);
	ret = ktrace_cluster_write(s);
	memzero_explicit(buf, sizeof(buf));
	return ret ? ret : cnt;
}

static const struct file_operations cluster_fops = {
	.open = cluster_open,
	.read = seq_read,
	.write = cluster_write,
	.llseek = seq_lseek,
	.release = single_release,
};

/**
 * ktrace_fs_cluster_init() - make the cluster file
 * @parent: /sys/kernel/debug/ktrace
 */
void ktrace_fs_cluster_init(struct dentry *parent)
{
	debugfs_create_file("cluster", 0600, parent, NULL, &cluster_fops);
}
