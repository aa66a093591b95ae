/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ktrace cluster: the group's configuration, its messages and their
 * checks (cluster.c, no network, tested by KUnit), and the transport
 * (cluster_net.c, CONFIG_KTRACE_CLUSTER).
 */
#ifndef _KTRACE_CLUSTER_H
#define _KTRACE_CLUSTER_H

#include <linux/atomic.h>
#include <linux/if.h>
#include <linux/siphash.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <uapi/linux/ktrace.h>

#define KTRACE_CLUSTER_DST_MAX		4
#define KTRACE_CLUSTER_ALLOW_MAX	8
#define KTRACE_CLUSTER_ORIGINS		32
/* Sequence numbers accepted out of order, below an origin's highest. */
#define KTRACE_CLUSTER_REPLAY_WINDOW	64
#define KTRACE_CLUSTER_RATE_DEFAULT	100U
#define KTRACE_CLUSTER_RATE_MAX		100000U
#define KTRACE_CLUSTER_BEACON_MIN_MS	10U
#define KTRACE_CLUSTER_BEACON_MAX_MS	60000U
#define KTRACE_CLUSTER_WINDOW_MAX_MS	3600000U
/* What name= may hold: it is printed in the peers' trigger records. */
#define KTRACE_CLUSTER_NAME_CHARS \
	"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-"
/* Longest write to the cluster file, a trailing newline included. */
#define KTRACE_CLUSTER_CONF_MAX		384

/**
 * struct ktrace_cluster_conf - a group, as written to the cluster file
 * @off: "off": leave the group (nothing else is set)
 * @dev: the interface
 * @key: the group key
 * @port: the UDP port, sent to and listened on
 * @name: the name this machine sends
 * @dst: where messages go
 * @nr_dst: how many of @dst
 * @allow: the sources accepted; none: any
 * @nr_allow: how many of @allow
 * @beacon_ms: the beacon period; 0: no beacons
 * @window_ms: the largest difference between the sender's and this
 *	machine's CLOCK_REALTIME accepted; 0: any
 * @rate: beacons accepted per second, from the whole group
 */
struct ktrace_cluster_conf {
	bool off;
	char dev[IFNAMSIZ];
	siphash_key_t key;
	u16 port;
	char name[KTRACE_CLUSTER_NAME_LEN];
	__be32 dst[KTRACE_CLUSTER_DST_MAX];
	unsigned int nr_dst;
	__be32 allow[KTRACE_CLUSTER_ALLOW_MAX];
	unsigned int nr_allow;
	u32 beacon_ms;
	u32 window_ms;
	u32 rate;
};

/* What became of a received datagram: accepted, or why it was refused. */
enum ktrace_cluster_verdict {
	KTRACE_CLUSTER_OK,
	KTRACE_CLUSTER_SHORT,	/* not the size of a message */
	KTRACE_CLUSTER_BADMAGIC,	/* magic, version, type, reserved */
	KTRACE_CLUSTER_PEER,	/* source not allowed */
	KTRACE_CLUSTER_MAC,	/* wrong tag */
	KTRACE_CLUSTER_SELF,	/* sent by this machine */
	KTRACE_CLUSTER_WINDOW,	/* sent too far from now */
	KTRACE_CLUSTER_REPLAY,	/* sequence number not new */
	KTRACE_CLUSTER_RATE,	/* a beacon over the rate */
	KTRACE_CLUSTER_NR_VERDICTS,
};

/**
 * struct ktrace_cluster_rx - the receiving side's state
 * @lock: serializes the receivers (softirq, on any CPU)
 * @tokens: the beacons' rate bucket, in messages * NSEC_PER_SEC
 * @last_ns: when @tokens was last filled
 * @origins: per origin, the highest sequence number accepted, and which
 *	of the KTRACE_CLUSTER_REPLAY_WINDOW before it were (bit n: seq - n)
 * @count: datagrams by verdict
 */
struct ktrace_cluster_rx {
	raw_spinlock_t lock;
	u64 tokens;
	u64 last_ns;
	struct {
		u32 id;
		u64 seq;
		u64 seen;
		u64 used_ns;
	} origins[KTRACE_CLUSTER_ORIGINS];
	atomic_long_t count[KTRACE_CLUSTER_NR_VERDICTS];
};

/* cluster.c */
int ktrace_cluster_parse(char *s, struct ktrace_cluster_conf *c);
int ktrace_cluster_write(char *s);
const char *ktrace_cluster_verdict_name(unsigned int v);
void ktrace_cluster_seal(struct ktrace_cluster_msg *m, const siphash_key_t *key);
void ktrace_cluster_rx_init(struct ktrace_cluster_rx *rx, u64 now_ns);
enum ktrace_cluster_verdict
ktrace_cluster_accept(struct ktrace_cluster_rx *rx,
		      const struct ktrace_cluster_conf *c, u32 self_id,
		      const void *buf, size_t len, __be32 saddr,
		      u64 now_ns, u64 real_ns);
void ktrace_cluster_record(const struct ktrace_cluster_msg *m, bool sent);
int ktrace_cluster_fire(const struct ktrace_cluster_msg *m);

/* cluster_net.c */
#ifdef CONFIG_KTRACE_CLUSTER
int ktrace_cluster_join(const struct ktrace_cluster_conf *c);
void ktrace_cluster_send_trigger(const char *trigger, const char *reason, bool oops);
void ktrace_cluster_crash(const char *trigger, const char *reason);
struct seq_file;
void ktrace_cluster_show(struct seq_file *m);
#else
static inline int ktrace_cluster_join(const struct ktrace_cluster_conf *c)
{
	return -EOPNOTSUPP;
}

static inline void ktrace_cluster_send_trigger(const char *trigger,
					       const char *reason, bool oops) { }
static inline void ktrace_cluster_crash(const char *trigger,
					const char *reason) { }
struct seq_file;
static inline void ktrace_cluster_show(struct seq_file *m) { }
#endif

#endif /* _KTRACE_CLUSTER_H */
