/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The saved comms table (comm.c), for comm.c and its KUnit test.
 */
#ifndef _KTRACE_COMM_H
#define _KTRACE_COMM_H

#include <linux/atomic.h>
#include <linux/sched.h>
#include <linux/types.h>

/* A comm as words, so that a slot is copied word by word. */
union ktrace_comm_name {
	char c[TASK_COMM_LEN];
	unsigned long w[TASK_COMM_LEN / sizeof(unsigned long)];
};

/**
 * struct ktrace_comm_slot - the name of one pid
 * @seq: odd while a writer fills the slot
 * @pid: the pid named, 0 if none
 * @stamp: the second (jiffies / HZ) when @pid entered the slot, to evict
 *	the earlier of a pid's two slots (u32 seconds wrap after 136 years)
 * @comm: its name, NUL-padded
 */
struct ktrace_comm_slot {
	atomic_t seq;
	u32 pid;
	u32 stamp;
	union ktrace_comm_name comm;
};

/**
 * struct ktrace_comm_table - pid to name, two ways (see comm.c)
 * @slots: @nr slots
 * @nr: a power of two
 * @bits: log2(@nr)
 * @missed: names not saved because their slot was being written
 */
struct ktrace_comm_table {
	struct ktrace_comm_slot *slots;
	unsigned int nr;
	unsigned int bits;
	atomic_long_t missed;
};

unsigned int ktrace_comm_way(const struct ktrace_comm_table *t, pid_t pid,
			     unsigned int way);

int ktrace_comm_table_init(struct ktrace_comm_table *t, unsigned int nr);
void ktrace_comm_table_free(struct ktrace_comm_table *t);
void ktrace_comm_table_save(struct ktrace_comm_table *t, pid_t pid,
			    const char *comm);
bool ktrace_comm_table_get(struct ktrace_comm_table *t, unsigned int slot,
			   pid_t *pid, char *comm);
bool ktrace_comm_table_lookup(struct ktrace_comm_table *t, pid_t pid,
			      char *comm);
void ktrace_comm_table_reset(struct ktrace_comm_table *t);

#endif /* _KTRACE_COMM_H */
