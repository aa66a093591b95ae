// SPDX-License-Identifier: GPL-2.0
/*
 * ktrace cluster: what the machines of a group say to each other, without
 * the network (cluster_net.c sends and receives): the configuration
 * written to the cluster file, the messages, sealed and checked with the
 * group key, the replay and rate checks, and what an accepted message
 * does here: a ktrace:cluster event, and the cluster trigger's firing.
 *
 *   dev=NAME key=HEX32 [port=N] [dst=IP,...] [allow=IP,...] [name=NAME]
 *   [beacon=MS] [window=MS] [rate=N]
 *   off
 */
#include <linux/bitops.h>
#include <linux/build_bug.h>
#include <linux/ctype.h>
#include <linux/in.h>
#include <linux/kernel.h>
#include <linux/kstrtox.h>
#include <linux/math64.h>
#include <linux/rcupdate.h>
#include <linux/siphash.h>
#include <linux/string.h>
#include <linux/time64.h>
#include <linux/unaligned.h>
#include <linux/utsname.h>
#include <kunit/visibility.h>

#include "cluster.h"
#include "event.h"
#include "ktrace_internal.h"
#include "trigger.h"

enum {
	KTRACE_COPT_DEV,
	KTRACE_COPT_KEY,
	KTRACE_COPT_PORT,
	KTRACE_COPT_DST,
	KTRACE_COPT_ALLOW,
	KTRACE_COPT_NAME,
	KTRACE_COPT_BEACON,
	KTRACE_COPT_WINDOW,
	KTRACE_COPT_RATE,
	KTRACE_NR_COPTS,
};

static const char * const ktrace_cluster_opts[KTRACE_NR_COPTS] = {
	[KTRACE_COPT_DEV] = "dev",
	[KTRACE_COPT_KEY] = "key",
	[KTRACE_COPT_PORT] = "port",
	[KTRACE_COPT_DST] = "dst",
	[KTRACE_COPT_ALLOW] = "allow",
	[KTRACE_COPT_NAME] = "name",
	[KTRACE_COPT_BEACON] = "beacon",
	[KTRACE_COPT_WINDOW] = "window",
	[KTRACE_COPT_RATE] = "rate",
};

static const char * const ktrace_cluster_verdicts[KTRACE_CLUSTER_NR_VERDICTS] = {
	[KTRACE_CLUSTER_OK] = "ok",
	[KTRACE_CLUSTER_SHORT] = "short",
	[KTRACE_CLUSTER_BADMAGIC] = "magic",
	[KTRACE_CLUSTER_PEER] = "peer",
	[KTRACE_CLUSTER_MAC] = "mac",
	[KTRACE_CLUSTER_SELF] = "self",
	[KTRACE_CLUSTER_WINDOW] = "window",
	[KTRACE_CLUSTER_REPLAY] = "replay",
	[KTRACE_CLUSTER_RATE] = "rate",
};

/**
 * ktrace_cluster_verdict_name() - the counter name of a verdict
 * @v: enum ktrace_cluster_verdict
 *
 * Return: "ok", "short", ..., as the cluster file lists them.
 */
const char *ktrace_cluster_verdict_name(unsigned int v)
{
	return v < KTRACE_CLUSTER_NR_VERDICTS ? ktrace_cluster_verdicts[v] : "?";
}
EXPORT_SYMBOL_IF_KUNIT(ktrace_cluster_verdict_name);

/* A dotted IPv4 address, exactly four decimal parts of 0 to 255. */
static int ktrace_parse_ipv4(char *s, __be32 *addr)
{
	u32 a = 0;
	int i, ret;
	u8 part;

	for (i = 0; i < 4; i++) {
		char *dot = strchr(s, '.');
		bool last = i == 3;

		if (last == !!dot)
			return -EINVAL;
		if (dot)
			*dot = '\0';
		if (!isdigit(*s))
			return -EINVAL;
		ret = kstrtou8(s, 10, &part);
		if (ret)
			return -EINVAL;
		a = a << 8 | part;
		s = dot + 1;
	}
	*addr = cpu_to_be32(a);
	return 0;
}

/* A comma-separated list of IPv4 addresses, at most max of them. */
static int ktrace_parse_ipv4_list(char *s, __be32 *addrs, unsigned int max,
				  unsigned int *nr)
{
	char *item;
	int ret;

	unsigned int i;

	*nr = 0;
	while ((item = strsep(&s, ","))) {
		if (*nr == max)
			return -ERANGE;
		ret = ktrace_parse_ipv4(item, &addrs[*nr]);
		if (ret)
			return ret;
		/* A host or a broadcast address, each once: no 0.0.0.0/8, no multicast. */
		if (ipv4_is_zeronet(addrs[*nr]) || ipv4_is_multicast(addrs[*nr]))
			return -EINVAL;
		for (i = 0; i < *nr; i++)
			if (addrs[i] == addrs[*nr])
				return -EINVAL;
		(*nr)++;
	}
	return 0;
}

/* A decimal number within limits. */
static int ktrace_parse_u32(const char *s, u32 min, u32 max, u32 *v)
{
	int ret;

	if (!isdigit(*s))
		return -EINVAL;
	ret = kstrtou32(s, 10, v);
	if (ret)
		return ret;
	return *v < min || *v > max ? -ERANGE : 0;
}

/* The group key: exactly 32 hex digits. */
static int ktrace_parse_key(const char *s, siphash_key_t *key)
{
	u8 raw[16];

	if (strlen(s) != 2 * sizeof(raw) || hex2bin(raw, s, sizeof(raw)))
		return -EINVAL;
	key->key[0] = get_unaligned_le64(raw);
	key->key[1] = get_unaligned_le64(raw + 8);
	memzero_explicit(raw, sizeof(raw));
	return 0;
}

/* One KEY=VALUE option into @c. */
static int ktrace_cluster_parse_opt(struct ktrace_cluster_conf *c, int o, char *val)
{
	u32 v;
	int ret;

	switch (o) {
	case KTRACE_COPT_DEV:
		if (!*val || strlen(val) >= sizeof(c->dev))
			return -EINVAL;
		strscpy(c->dev, val, sizeof(c->dev));
		return 0;
	case KTRACE_COPT_KEY:
		return ktrace_parse_key(val, &c->key);
	case KTRACE_COPT_PORT:
		ret = ktrace_parse_u32(val, 1, 65535, &v);
		if (!ret)
			c->port = v;
		return ret;
	case KTRACE_COPT_DST:
		return ktrace_parse_ipv4_list(val, c->dst, KTRACE_CLUSTER_DST_MAX,
					      &c->nr_dst);
	case KTRACE_COPT_ALLOW:
		return ktrace_parse_ipv4_list(val, c->allow, KTRACE_CLUSTER_ALLOW_MAX,
					      &c->nr_allow);
	case KTRACE_COPT_NAME:
		/* It goes into the peers' trigger records: a plain word. */
		if (!*val || strlen(val) >= sizeof(c->name) ||
		    strspn(val, KTRACE_CLUSTER_NAME_CHARS) != strlen(val))
			return -EINVAL;
		strscpy_pad(c->name, val, sizeof(c->name));
		return 0;
	case KTRACE_COPT_BEACON:
		ret = ktrace_parse_u32(val, 0, KTRACE_CLUSTER_BEACON_MAX_MS, &c->beacon_ms);
		if (!ret && c->beacon_ms && c->beacon_ms < KTRACE_CLUSTER_BEACON_MIN_MS)
			ret = -ERANGE;
		return ret;
	case KTRACE_COPT_WINDOW:
		return ktrace_parse_u32(val, 0, KTRACE_CLUSTER_WINDOW_MAX_MS, &c->window_ms);
	case KTRACE_COPT_RATE:
		return ktrace_parse_u32(val, 1, KTRACE_CLUSTER_RATE_MAX, &c->rate);
	}
	return -EINVAL;
}

/**
 * ktrace_cluster_parse() - parse a write to the cluster file
 * @s: the write, without surrounding white space; modified
 * @c: set to the group it describes, with the defaults for what it omits
 *
 * Return: 0; -EINVAL for an unknown, repeated or malformed option, or a
 * missing dev= or key=; -ERANGE for a value out of range.
 */
int ktrace_cluster_parse(char *s, struct ktrace_cluster_conf *c)
{
	unsigned long seen = 0;
	char *opt;
	int o, ret;

	memset(c, 0, sizeof(*c));
	if (!strcmp(s, "off")) {
		c->off = true;
		return 0;
	}
	c->port = KTRACE_CLUSTER_PORT;
	c->rate = KTRACE_CLUSTER_RATE_DEFAULT;
	c->dst[0] = cpu_to_be32(0xffffffff);
	c->nr_dst = 1;
	while ((opt = strsep(&s, " \t"))) {
		char *val = strchr(opt, '=');

		if (!*opt)
			continue;
		if (!val)
			return -EINVAL;
		*val++ = '\0';
		o = match_string(ktrace_cluster_opts, KTRACE_NR_COPTS, opt);
		if (o < 0 || __test_and_set_bit(o, &seen))
			return -EINVAL;
		ret = ktrace_cluster_parse_opt(c, o, val);
		if (ret)
			return ret;
	}
	if (!test_bit(KTRACE_COPT_DEV, &seen) || !test_bit(KTRACE_COPT_KEY, &seen))
		return -EINVAL;
	if (!c->name[0]) {
		size_t i;

		/* The host name, cut, its other characters as '_'. */
		strscpy_pad(c->name, init_utsname()->nodename, sizeof(c->name));
		for (i = 0; i < sizeof(c->name) && c->name[i]; i++)
			if (!strchr(KTRACE_CLUSTER_NAME_CHARS, c->name[i]))
				c->name[i] = '_';
	}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(ktrace_cluster_parse);

/**
 * ktrace_cluster_write() - a write to the cluster file
 * @s: the write, without surrounding white space; modified
 *
 * Return: 0; as ktrace_cluster_parse() (nothing changes), as
 * ktrace_cluster_join(); -EOPNOTSUPP without CONFIG_KTRACE_CLUSTER.
 */
int ktrace_cluster_write(char *s)
{
	struct ktrace_cluster_conf c;
	int ret;

	ret = ktrace_cluster_parse(s, &c);
	if (!ret)
		ret = ktrace_cluster_join(&c);
	memzero_explicit(&c.key, sizeof(c.key));
	return ret;
}

/* The wire format: no padding, whatever the architecture. */
static_assert(sizeof(struct ktrace_cluster_msg) == 132);

/* The tag of a message: every byte before it. */
static u64 ktrace_cluster_mac(const struct ktrace_cluster_msg *m,
			      const siphash_key_t *key)
{
	return siphash(m, offsetof(struct ktrace_cluster_msg, mac), key);
}

/**
 * ktrace_cluster_seal() - set the tag of a message
 * @m: the message, every other field set
 * @key: the group key
 */
void ktrace_cluster_seal(struct ktrace_cluster_msg *m, const siphash_key_t *key)
{
	m->mac = cpu_to_be64(ktrace_cluster_mac(m, key));
}
EXPORT_SYMBOL_IF_KUNIT(ktrace_cluster_seal);

/**
 * ktrace_cluster_rx_init() - empty the receiving side's state
 * @rx: the state
 * @now_ns: the time, CLOCK_MONOTONIC: the rate bucket is full from it
 */
void ktrace_cluster_rx_init(struct ktrace_cluster_rx *rx, u64 now_ns)
{
	unsigned int i;

	memset(rx, 0, sizeof(*rx));
	raw_spin_lock_init(&rx->lock);
	rx->tokens = U64_MAX;
	rx->last_ns = now_ns;
	for (i = 0; i < KTRACE_CLUSTER_NR_VERDICTS; i++)
		atomic_long_set(&rx->count[i], 0);
}
EXPORT_SYMBOL_IF_KUNIT(ktrace_cluster_rx_init);

/* Under rx->lock: one more message within the rate?  A bucket of one second. */
static bool ktrace_cluster_rate_ok(struct ktrace_cluster_rx *rx, u32 rate, u64 now)
{
	u64 full = (u64)rate * NSEC_PER_SEC, dt = now - rx->last_ns;

	if (now < rx->last_ns)
		dt = 0;
	rx->last_ns = now;
	if (rx->tokens > full || dt >= NSEC_PER_SEC)
		rx->tokens = full;
	else
		rx->tokens = min(full, rx->tokens + dt * rate);
	if (rx->tokens < NSEC_PER_SEC)
		return false;
	rx->tokens -= NSEC_PER_SEC;
	return true;
}

/*
 * Under rx->lock: is seq new from origin id?  Remember it if so.  A
 * sliding window of the last KTRACE_CLUSTER_REPLAY_WINDOW numbers, as
 * IPsec's (RFC 4303, 3.4.3): a trigger message's copies are accepted after
 * a later beacon when the first copy was lost, each number once.  An
 * origin not known takes the slot used the longest ago.
 */
static bool ktrace_cluster_fresh(struct ktrace_cluster_rx *rx, u32 id, u64 seq,
				 u64 now)
{
	unsigned int i, old = 0;
	u64 back;

	for (i = 0; i < KTRACE_CLUSTER_ORIGINS; i++) {
		if (rx->origins[i].used_ns && rx->origins[i].id == id)
			break;
		if (rx->origins[i].used_ns < rx->origins[old].used_ns)
			old = i;
	}
	if (i == KTRACE_CLUSTER_ORIGINS) {
		i = old;
		rx->origins[i].id = id;
		rx->origins[i].seq = seq;
		rx->origins[i].seen = 1;
	} else if (seq > rx->origins[i].seq) {
		back = seq - rx->origins[i].seq;
		rx->origins[i].seen = back < KTRACE_CLUSTER_REPLAY_WINDOW ?
				      rx->origins[i].seen << back | 1 : 1;
		rx->origins[i].seq = seq;
	} else {
		back = rx->origins[i].seq - seq;
		if (back >= KTRACE_CLUSTER_REPLAY_WINDOW ||
		    rx->origins[i].seen & BIT_ULL(back))
			return false;
		rx->origins[i].seen |= BIT_ULL(back);
	}
	/* Never 0, which marks a free slot. */
	rx->origins[i].used_ns = now | 1;
	return true;
}

static bool ktrace_cluster_allowed(const struct ktrace_cluster_conf *c, __be32 saddr)
{
	unsigned int i;

	if (!c->nr_allow)
		return true;
	for (i = 0; i < c->nr_allow; i++)
		if (c->allow[i] == saddr)
			return true;
	return false;
}

/* The checks that need no state, the cheap ones first. */
static enum ktrace_cluster_verdict
ktrace_cluster_check(const struct ktrace_cluster_conf *c, const void *buf,
		     size_t len, __be32 saddr)
{
	const struct ktrace_cluster_msg *m = buf;

	if (len != sizeof(*m))
		return KTRACE_CLUSTER_SHORT;
	if (m->magic != cpu_to_be32(KTRACE_CLUSTER_MAGIC) ||
	    m->version != KTRACE_CLUSTER_VERSION || m->reserved ||
	    (m->type != KTRACE_CLUSTER_TRIGGER && m->type != KTRACE_CLUSTER_BEACON))
		return KTRACE_CLUSTER_BADMAGIC;
	if (!ktrace_cluster_allowed(c, saddr))
		return KTRACE_CLUSTER_PEER;
	return KTRACE_CLUSTER_OK;
}

/**
 * ktrace_cluster_accept() - check a received datagram
 * @rx: the receiving side's state: counts the verdict
 * @c: the group
 * @self_id: this machine's id
 * @buf: the datagram's payload, 4-byte aligned
 * @len: its length
 * @saddr: its source address
 * @now_ns: the time, CLOCK_MONOTONIC, for the rate
 * @real_ns: the time, CLOCK_REALTIME, for window=
 *
 * Any context but NMI.  The checks run in the order of the verdicts: the
 * tag before any that changes state, so that a forger changes nothing
 * but the mac= count, whatever it sends and however fast (a SipHash is
 * cheap beside what the stack spent on the datagram already).  Only
 * beacons are held to the rate, after the replay check: a trigger
 * message is never refused for the beacons of a large group, nor for a
 * flood of forgeries.
 *
 * Return: %KTRACE_CLUSTER_OK if @buf is a message to act on; else why not.
 */
enum ktrace_cluster_verdict
ktrace_cluster_accept(struct ktrace_cluster_rx *rx,
		      const struct ktrace_cluster_conf *c, u32 self_id,
		      const void *buf, size_t len, __be32 saddr,
		      u64 now_ns, u64 real_ns)
{
	const struct ktrace_cluster_msg *m = buf;
	enum ktrace_cluster_verdict v;
	unsigned long flags;
	u64 sent;

	v = ktrace_cluster_check(c, buf, len, saddr);
	if (v != KTRACE_CLUSTER_OK)
		goto out;
	if (be64_to_cpu(m->mac) != ktrace_cluster_mac(m, &c->key)) {
		v = KTRACE_CLUSTER_MAC;
		goto out;
	}
	if (be32_to_cpu(m->origin_id) == self_id) {
		v = KTRACE_CLUSTER_SELF;
		goto out;
	}
	sent = be64_to_cpu(m->sent_ns);
	if (c->window_ms &&
	    (sent > real_ns ? sent - real_ns : real_ns - sent) >
	    (u64)c->window_ms * NSEC_PER_MSEC) {
		v = KTRACE_CLUSTER_WINDOW;
		goto out;
	}
	raw_spin_lock_irqsave(&rx->lock, flags);
	if (!ktrace_cluster_fresh(rx, be32_to_cpu(m->origin_id), be64_to_cpu(m->seq),
				  now_ns))
		v = KTRACE_CLUSTER_REPLAY;
	else if (m->type == KTRACE_CLUSTER_BEACON &&
		 !ktrace_cluster_rate_ok(rx, c->rate, now_ns))
		v = KTRACE_CLUSTER_RATE;
	raw_spin_unlock_irqrestore(&rx->lock, flags);
out:
	atomic_long_inc(&rx->count[v]);
	return v;
}
EXPORT_SYMBOL_IF_KUNIT(ktrace_cluster_accept);

/*
 * The ktrace:cluster record: a message sent or accepted here, at the time
 * of the record.  Beacons and trigger messages alike: tools pair a
 * sender's record with its receivers' by origin id and seq.
 */
struct kt_cluster_rec {
	u64 seq;
	u32 id;
	u8 dir;
	u8 type;
	char origin[KTRACE_CLUSTER_NAME_LEN];
} __packed;

static const struct ktrace_enum_value ktrace_cluster_dirs[] = {
	{ 0, "recv" },
	{ 1, "send" },
};

static const struct ktrace_enum_value ktrace_cluster_types[] = {
	{ KTRACE_CLUSTER_TRIGGER, "trigger" },
	{ KTRACE_CLUSTER_BEACON, "beacon" },
};

static const struct ktrace_field ktrace_cluster_fields[] = {
	{ .name = "seq", .offset = offsetof(struct kt_cluster_rec, seq),
	  .size = 8, .display = KTRACE_DISPLAY_DEC },
	{ .name = "id", .offset = offsetof(struct kt_cluster_rec, id),
	  .size = 4, .display = KTRACE_DISPLAY_HEX },
	{ .name = "dir", .offset = offsetof(struct kt_cluster_rec, dir),
	  .size = 1, .display = KTRACE_DISPLAY_ENUM,
	  .values = ktrace_cluster_dirs, .nr_values = ARRAY_SIZE(ktrace_cluster_dirs) },
	{ .name = "type", .offset = offsetof(struct kt_cluster_rec, type),
	  .size = 1, .display = KTRACE_DISPLAY_ENUM,
	  .values = ktrace_cluster_types, .nr_values = ARRAY_SIZE(ktrace_cluster_types) },
	{ .name = "origin", .offset = offsetof(struct kt_cluster_rec, origin),
	  .size = KTRACE_CLUSTER_NAME_LEN, .display = KTRACE_DISPLAY_STRING },
};

static struct ktrace_event ktrace_event_cluster = {
	.group = "ktrace",
	.name = "cluster",
	.channel = KTRACE_CHANNEL_HIGH,
	.kind = KTRACE_EVENT_EXPANDED,
	.fields = ktrace_cluster_fields,
	.nr_fields = ARRAY_SIZE(ktrace_cluster_fields),
	.enabled = true,
};

/**
 * ktrace_cluster_record() - write the ktrace:cluster event of a message
 * @m: the message
 * @sent: sent by this machine, rather than received
 *
 * Any context, NMI included.
 */
void ktrace_cluster_record(const struct ktrace_cluster_msg *m, bool sent)
{
	struct kt_cluster_rec rec = {
		.seq = be64_to_cpu(m->seq),
		.id = be32_to_cpu(m->origin_id),
		.dir = sent,
		.type = m->type,
	};

	if (!READ_ONCE(ktrace_event_cluster.enabled))
		return;
	memcpy(rec.origin, m->origin, sizeof(rec.origin));
	rec.origin[sizeof(rec.origin) - 1] = '\0';
	ktrace_event_write(&ktrace_event_cluster, &rec, sizeof(rec));
}

/**
 * ktrace_cluster_fire() - fire the cluster trigger for a trigger message
 * @m: the message, accepted
 *
 * Any context.  The record names the origin in comm, its sequence number
 * in value, and "ORIGIN/TRIGGER: REASON" in reason.
 *
 * Return: as ktrace_trigger_fire(); -ENOENT if cluster is not armed.
 */
int ktrace_cluster_fire(const struct ktrace_cluster_msg *m)
{
	char origin[KTRACE_CLUSTER_NAME_LEN], reason[KTRACE_TRIGGER_REASON_MAX];
	struct ktrace_trigger *t;
	int ret = -ENOENT;

	strscpy(origin, m->origin, sizeof(origin));
	snprintf(reason, sizeof(reason), "%s/%.*s: %.*s", origin,
		 (int)sizeof(m->trigger), m->trigger,
		 (int)sizeof(m->reason), m->reason);
	rcu_read_lock();
	t = ktrace_trigger_get(KTRACE_TRIG_CLUSTER);
	if (t) {
		struct ktrace_trigger_cause cause = {
			.comm = origin,
			.value = be64_to_cpu(m->seq),
			.reason = reason,
		};

		ret = ktrace_trigger_fire(t, &cause);
	}
	rcu_read_unlock();
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(ktrace_cluster_fire);

static int __init ktrace_cluster_init(void)
{
	int ret;

	if (!IS_ENABLED(CONFIG_KTRACE_CLUSTER))
		return 0;
	ret = ktrace_event_register(&ktrace_event_cluster);
	if (ret)
		pr_warn("ktrace: no ktrace:cluster event: %d\n", ret);
	return 0;
}
core_initcall(ktrace_cluster_init);
