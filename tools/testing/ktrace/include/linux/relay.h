/* SPDX-License-Identifier: GPL-2.0 */
/* ktrace harness: no relay channel here (ktrace_buf's rbuf is NULL). */
#ifndef _KTRACE_HARNESS_RELAY_H
#define _KTRACE_HARNESS_RELAY_H

#include <stddef.h>

/* For the relay callbacks' prototypes. */
#define umode_t unsigned short

struct rchan_buf {
	void *start;
	size_t offset;
	size_t subbufs_produced;
	size_t subbufs_consumed;
	size_t bytes_consumed;
};

void relay_switch_subbuf(struct rchan_buf *buf, size_t length);
#endif /* _KTRACE_HARNESS_RELAY_H */
