/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared by the files of fs/debugfs-ktrace/.
 */
#ifndef _KTRACE_DEBUGFS_CONTROL_H
#define _KTRACE_DEBUGFS_CONTROL_H

#include <linux/types.h>

/* Longest write any control file accepts, including a trailing newline. */
#define KTRACE_CTL_MAX	64

struct dentry;

/* parse.c */
char *ktrace_ctl_get_user(const char __user *ubuf, size_t cnt, char *buf,
			  size_t size);
int ktrace_ctl_get_ulong(const char __user *ubuf, size_t cnt,
			 unsigned long *val);
int ktrace_ctl_get_bool(const char __user *ubuf, size_t cnt, bool *on);
char *ktrace_ctl_get_text(const char __user *ubuf, size_t cnt, size_t max,
			  size_t *len);

/* cluster.c */
void ktrace_fs_cluster_init(struct dentry *parent);

/* events.c */
struct ktrace_event;
void ktrace_fs_events_init(struct dentry *parent);
void ktrace_fs_event_added(struct ktrace_event *ev);

/* persist.c */
void ktrace_fs_persist_init(struct dentry *parent);

/* triggers.c */
void ktrace_fs_triggers_init(struct dentry *parent);

#endif /* _KTRACE_DEBUGFS_CONTROL_H */
