// SPDX-License-Identifier: GPL-2.0
/*
 * ktrace control files after a crash:
 *
 *   persist            where the recorder's buffers are: the reserved
 *                      region (ktrace.persist=) and each buffer's place
 *   last_boot/info     what the previous boot left in the region, and what
 *                      of it was kept (kernel/trace/ktrace/persist.c)
 *   last_boot/high/cpuN, medium/cpuN, low/cpuN
 *                      its kept subbuffers, as the live stream files give
 *                      them: tools/ktrace extract --last-boot reads them
 *   last_boot/release  write 1: free the previous boot's trace
 *
 * last_boot/ exists only with a region, until released.  The release
 * removes the directory from a work item: debugfs_remove() waits for the
 * files' users, and the writer of release is one of them.
 */
#include <linux/debugfs.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

#include <uapi/linux/ktrace.h>

#include "ktrace_internal.h"
#include "control.h"

static struct dentry *ktrace_last_dir;
/* The blobs of the files, as debugfs_create_blob() keeps pointers to them. */
static struct debugfs_blob_wrapper *ktrace_last_blobs;

static int persist_show(struct seq_file *m, void *v)
{
	ktrace_persist_show(m);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(persist);

static void ktrace_last_release_work(struct work_struct *work)
{
	debugfs_remove_recursive(ktrace_last_dir);
	ktrace_last_dir = NULL;
	kfree(ktrace_last_blobs);
	ktrace_last_blobs = NULL;
	ktrace_last_boot_release();
}

static DECLARE_WORK(ktrace_last_release, ktrace_last_release_work);

static ssize_t release_write(struct file *filp, const char __user *ubuf,
			     size_t cnt, loff_t *ppos)
{
	bool on;
	int ret;

	ret = ktrace_ctl_get_bool(ubuf, cnt, &on);
	if (ret)
		return ret;
	if (!on)
		return -EINVAL;
	schedule_work(&ktrace_last_release);
	return cnt;
}

static const struct file_operations release_fops = {
	.write = release_write,
	.llseek = noop_llseek,
};

/* A read-only file of a blob, its size shown as a regular file's. */
static void ktrace_last_blob(struct dentry *dir, const char *name,
			     struct debugfs_blob_wrapper *b)
{
	struct dentry *d = debugfs_create_blob(name, 0400, dir, b);

	if (!IS_ERR(d))
		d_inode(d)->i_size = b->size;
}

/**
 * ktrace_fs_persist_init() - the files after a crash
 * @parent: ktrace's directory
 */
void ktrace_fs_persist_init(struct dentry *parent)
{
	unsigned int ch, cpu, n = 1;
	struct debugfs_blob_wrapper *b;
	const void *data;
	char name[16];
	size_t len;

	debugfs_create_file("persist", 0400, parent, NULL, &persist_fops);
	if (!ktrace_last_boot_info(&len))
		return;
	/* One blob for info, one per stream. */
	for (ch = 0; ch < KTRACE_NR_CHANNELS; ch++)
		for (cpu = 0; !ktrace_last_boot_stream(ch, cpu, &data, &len); cpu++)
			n++;
	ktrace_last_blobs = kcalloc(n, sizeof(*ktrace_last_blobs), GFP_KERNEL);
	if (!ktrace_last_blobs)
		return;
	b = ktrace_last_blobs;
	ktrace_last_dir = debugfs_create_dir("last_boot", parent);
	b->data = (void *)ktrace_last_boot_info(&len);
	b->size = len;
	ktrace_last_blob(ktrace_last_dir, "info", b++);
	for (ch = 0; ch < KTRACE_NR_CHANNELS; ch++) {
		struct dentry *dir = debugfs_create_dir(ktrace_channel_name(ch),
							ktrace_last_dir);

		for (cpu = 0; !ktrace_last_boot_stream(ch, cpu, &data, &len); cpu++) {
			snprintf(name, sizeof(name), "cpu%u", cpu);
			b->data = (void *)data;
			b->size = len;
			ktrace_last_blob(dir, name, b++);
		}
	}
	debugfs_create_file("release", 0200, ktrace_last_dir, NULL, &release_fops);
}
