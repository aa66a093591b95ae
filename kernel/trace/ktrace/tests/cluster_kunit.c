// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the cluster's messages, without the network: the
 * grammar of the cluster file (every option, the defaults, every error),
 * the tag against a value computed outside the kernel (so that another
 * implementation of the format interoperates), and the checks of a
 * received datagram: size, magic, source, rate, tag, self, window and
 * replay, each counted.
 */
#include <kunit/test.h>
#include <linux/string.h>
#include <linux/time64.h>

#include "cluster.h"

/* The key 00 01 .. 0f. */
#define KEY_HEX	"000102030405060708090a0b0c0d0e0f"

static int parse(const char *line, struct ktrace_cluster_conf *c)
{
	char buf[KTRACE_CLUSTER_CONF_MAX];

	strscpy(buf, line, sizeof(buf));
	return ktrace_cluster_parse(buf, c);
}

/* Every option, white space doubled: in three writes. */
static const char good_dst[] = "key=" KEY_HEX "  dev=eth1 port=7000 dst=10.0.2.255,192.168.0.1";
static const char good_opts[] = "dev=x key=" KEY_HEX " allow=10.0.2.15 name=node-a beacon=100";
static const char good_rate[] = "dev=x key=" KEY_HEX " window=5000 rate=20";

static void cluster_parse_good(struct kunit *test)
{
	struct ktrace_cluster_conf c;

	KUNIT_ASSERT_EQ(test, parse("dev=eth0 key=" KEY_HEX, &c), 0);
	KUNIT_EXPECT_FALSE(test, c.off);
	KUNIT_EXPECT_STREQ(test, c.dev, "eth0");
	KUNIT_EXPECT_EQ(test, c.key.key[0], 0x0706050403020100ULL);
	KUNIT_EXPECT_EQ(test, c.key.key[1], 0x0f0e0d0c0b0a0908ULL);
	/* The defaults. */
	KUNIT_EXPECT_EQ(test, c.port, KTRACE_CLUSTER_PORT);
	KUNIT_EXPECT_EQ(test, c.nr_dst, 1);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(c.dst[0]), 0xffffffff);
	KUNIT_EXPECT_EQ(test, c.nr_allow, 0);
	KUNIT_EXPECT_EQ(test, c.beacon_ms, 0);
	KUNIT_EXPECT_EQ(test, c.window_ms, 0);
	KUNIT_EXPECT_EQ(test, c.rate, KTRACE_CLUSTER_RATE_DEFAULT);
	KUNIT_EXPECT_NE(test, c.name[0], 0);

	KUNIT_ASSERT_EQ(test, parse(good_dst, &c), 0);
	KUNIT_EXPECT_STREQ(test, c.dev, "eth1");
	KUNIT_EXPECT_EQ(test, c.port, 7000);
	KUNIT_EXPECT_EQ(test, c.nr_dst, 2);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(c.dst[0]), 0x0a0002ff);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(c.dst[1]), 0xc0a80001);
	KUNIT_ASSERT_EQ(test, parse(good_opts, &c), 0);
	KUNIT_EXPECT_EQ(test, c.nr_allow, 1);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(c.allow[0]), 0x0a00020f);
	KUNIT_EXPECT_STREQ(test, c.dev, "x");
	KUNIT_EXPECT_EQ(test, c.nr_dst, 1);
	KUNIT_EXPECT_STREQ(test, c.name, "node-a");
	KUNIT_EXPECT_EQ(test, c.beacon_ms, 100);
	KUNIT_ASSERT_EQ(test, parse(good_rate, &c), 0);
	KUNIT_EXPECT_EQ(test, c.window_ms, 5000);
	KUNIT_EXPECT_EQ(test, c.rate, 20);

	KUNIT_ASSERT_EQ(test, parse("off", &c), 0);
	KUNIT_EXPECT_TRUE(test, c.off);
}

static void cluster_parse_bad(struct kunit *test)
{
	static const struct {
		const char *line;
		int err;
	} bad[] = {
		{ "", -EINVAL },
		{ "dev=eth0", -EINVAL },			/* no key */
		{ "key=" KEY_HEX, -EINVAL },			/* no dev */
		{ "dev=eth0 key=000102", -EINVAL },		/* short key */
		{ "dev=eth0 key=" KEY_HEX "00", -EINVAL },	/* long key */
		{ "dev=eth0 key=000102030405060708090a0b0c0d0e0g", -EINVAL },
		{ "dev=eth0 dev=eth1 key=" KEY_HEX, -EINVAL },	/* repeated */
		{ "dev=eth0 key=" KEY_HEX " colour=red", -EINVAL },
		{ "dev=eth0 key=" KEY_HEX " port", -EINVAL },
		{ "dev=eth0 key=" KEY_HEX " off", -EINVAL },
		{ "dev= key=" KEY_HEX, -EINVAL },
		{ "dev=averyveryverylongname key=" KEY_HEX, -EINVAL },
		{ "dev=eth0 key=" KEY_HEX " port=0", -ERANGE },
		{ "dev=eth0 key=" KEY_HEX " port=65536", -ERANGE },
		{ "dev=eth0 key=" KEY_HEX " port=-1", -EINVAL },
		{ "dev=eth0 key=" KEY_HEX " dst=10.0.2", -EINVAL },
		{ "dev=eth0 key=" KEY_HEX " dst=10.0.2.256", -EINVAL },
		{ "dev=eth0 key=" KEY_HEX " dst=10.0.2.1.1", -EINVAL },
		{ "dev=eth0 key=" KEY_HEX " dst=10.0..1", -EINVAL },
		{ "dev=eth0 key=" KEY_HEX " dst=1.1.1.1,", -EINVAL },
		{ "dev=eth0 key=" KEY_HEX " dst=1.1.1.1,1.1.1.2,1.1.1.3,1.1.1.4,1.1.1.5",
		  -ERANGE },
		{ "dev=eth0 key=" KEY_HEX " name=abcdefghijklmnop", -EINVAL },
		{ "dev=eth0 key=" KEY_HEX " beacon=5", -ERANGE },
		{ "dev=eth0 key=" KEY_HEX " beacon=60001", -ERANGE },
		{ "dev=eth0 key=" KEY_HEX " rate=0", -ERANGE },
		{ "dev=eth0 key=" KEY_HEX " rate=100001", -ERANGE },
		{ "dev=eth0 key=" KEY_HEX " window=3600001", -ERANGE },
		{ "dev=eth0 key=" KEY_HEX " dst=224.0.0.1", -EINVAL },
		{ "dev=eth0 key=" KEY_HEX " dst=0.0.0.0", -EINVAL },
		{ "dev=eth0 key=" KEY_HEX " dst=10.0.2.2,10.0.2.2", -EINVAL },
		{ "dev=eth0 key=" KEY_HEX " allow=239.1.1.1", -EINVAL },
		{ "dev=eth0 key=" KEY_HEX " name=a/b", -EINVAL },
		{ "dev=eth0 key=" KEY_HEX " name=a\x01", -EINVAL },
	};
	struct ktrace_cluster_conf c;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++)
		KUNIT_EXPECT_EQ_MSG(test, parse(bad[i].line, &c), bad[i].err,
				    "line \"%s\"", bad[i].line);
	/* Zero is allowed for beacon= and window=: off. */
	KUNIT_EXPECT_EQ(test, parse("dev=eth0 key=" KEY_HEX " beacon=0 window=0", &c), 0);
}

/* The message the KAT's tag was computed for (tools/ktrace/tests/siphash.py). */
static void fill_msg(struct ktrace_cluster_msg *m, u32 id, u64 seq)
{
	memset(m, 0, sizeof(*m));
	m->magic = cpu_to_be32(KTRACE_CLUSTER_MAGIC);
	m->version = KTRACE_CLUSTER_VERSION;
	m->type = KTRACE_CLUSTER_TRIGGER;
	m->origin_id = cpu_to_be32(id);
	strscpy(m->origin, "a", sizeof(m->origin));
	m->seq = cpu_to_be64(seq);
	m->sent_ns = cpu_to_be64(5);
	strscpy(m->trigger, "user", sizeof(m->trigger));
	strscpy(m->reason, "test", sizeof(m->reason));
}

static void cluster_mac_kat(struct kunit *test)
{
	struct ktrace_cluster_conf c;
	struct ktrace_cluster_msg m;

	KUNIT_EXPECT_EQ(test, sizeof(m), 132);
	KUNIT_ASSERT_EQ(test, parse("dev=eth0 key=" KEY_HEX, &c), 0);
	fill_msg(&m, 0x0a000201, 1000);
	ktrace_cluster_seal(&m, &c.key);
	/* SipHash-2-4 of the 124 bytes before the tag, computed in Python. */
	KUNIT_EXPECT_EQ(test, be64_to_cpu(m.mac), 0xa02c3efe1c4a0275ULL);
}

struct rx_fixture {
	struct ktrace_cluster_conf c;
	struct ktrace_cluster_rx rx;
	u64 now;
};

static struct rx_fixture *new_rx(struct kunit *test, const char *line)
{
	struct rx_fixture *f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, f);
	KUNIT_ASSERT_EQ(test, parse(line, &f->c), 0);
	f->now = 1000 * NSEC_PER_SEC;
	ktrace_cluster_rx_init(&f->rx, f->now);
	return f;
}

/* A sealed message from id, seq, sent at real time 5 ns, from 10.0.2.1. */
static enum ktrace_cluster_verdict send(struct rx_fixture *f, u32 id, u64 seq,
					const siphash_key_t *key, size_t len)
{
	struct ktrace_cluster_msg m[2] = {};

	fill_msg(&m[0], id, seq);
	ktrace_cluster_seal(&m[0], key ?: &f->c.key);
	f->now += NSEC_PER_USEC;
	return ktrace_cluster_accept(&f->rx, &f->c, 0x0a00020f, m, len,
				     cpu_to_be32(0x0a000201), f->now, 5);
}

#define MSG	sizeof(struct ktrace_cluster_msg)

static long count(struct rx_fixture *f, enum ktrace_cluster_verdict v)
{
	return atomic_long_read(&f->rx.count[v]);
}

static void cluster_accept_checks(struct kunit *test)
{
	struct rx_fixture *f = new_rx(test, "dev=eth0 key=" KEY_HEX);
	siphash_key_t wrong = { { 1, 2 } };
	struct ktrace_cluster_msg m;

	KUNIT_EXPECT_EQ(test, send(f, 1, 100, NULL, MSG), KTRACE_CLUSTER_OK);
	/* Truncated, oversized, empty. */
	KUNIT_EXPECT_EQ(test, send(f, 1, 101, NULL, MSG - 1), KTRACE_CLUSTER_SHORT);
	KUNIT_EXPECT_EQ(test, send(f, 1, 101, NULL, MSG + 1), KTRACE_CLUSTER_SHORT);
	KUNIT_EXPECT_EQ(test, send(f, 1, 101, NULL, 0), KTRACE_CLUSTER_SHORT);
	/* The wrong key, then a byte changed after sealing. */
	KUNIT_EXPECT_EQ(test, send(f, 1, 101, &wrong, MSG), KTRACE_CLUSTER_MAC);
	fill_msg(&m, 1, 101);
	ktrace_cluster_seal(&m, &f->c.key);
	m.reason[0] ^= 1;
	KUNIT_EXPECT_EQ(test, ktrace_cluster_accept(&f->rx, &f->c, 0x0a00020f, &m, MSG,
						    cpu_to_be32(0x0a000201), f->now, 5),
			KTRACE_CLUSTER_MAC);
	/* Bad magic, version, type, reserved: before the tag. */
	fill_msg(&m, 1, 101);
	m.version = 2;
	ktrace_cluster_seal(&m, &f->c.key);
	KUNIT_EXPECT_EQ(test, ktrace_cluster_accept(&f->rx, &f->c, 0x0a00020f, &m, MSG,
						    cpu_to_be32(0x0a000201), f->now, 5),
			KTRACE_CLUSTER_BADMAGIC);
	m.version = KTRACE_CLUSTER_VERSION;
	m.type = 3;
	KUNIT_EXPECT_EQ(test, ktrace_cluster_accept(&f->rx, &f->c, 0x0a00020f, &m, MSG,
						    cpu_to_be32(0x0a000201), f->now, 5),
			KTRACE_CLUSTER_BADMAGIC);
	/* This machine's own message. */
	KUNIT_EXPECT_EQ(test, send(f, 0x0a00020f, 200, NULL, MSG), KTRACE_CLUSTER_SELF);
	/* Replayed, older, newer; another origin keeps its own count. */
	KUNIT_EXPECT_EQ(test, send(f, 1, 100, NULL, MSG), KTRACE_CLUSTER_REPLAY);
	KUNIT_EXPECT_EQ(test, send(f, 1, 100 - KTRACE_CLUSTER_REPLAY_WINDOW, NULL, MSG),
			KTRACE_CLUSTER_REPLAY);
	KUNIT_EXPECT_EQ(test, send(f, 1, 101, NULL, MSG), KTRACE_CLUSTER_OK);
	KUNIT_EXPECT_EQ(test, send(f, 2, 5, NULL, MSG), KTRACE_CLUSTER_OK);
	KUNIT_EXPECT_EQ(test, send(f, 1, 101, NULL, MSG), KTRACE_CLUSTER_REPLAY);

	KUNIT_EXPECT_EQ(test, count(f, KTRACE_CLUSTER_OK), 3);
	KUNIT_EXPECT_EQ(test, count(f, KTRACE_CLUSTER_SHORT), 3);
	KUNIT_EXPECT_EQ(test, count(f, KTRACE_CLUSTER_MAC), 2);
	KUNIT_EXPECT_EQ(test, count(f, KTRACE_CLUSTER_BADMAGIC), 2);
	KUNIT_EXPECT_EQ(test, count(f, KTRACE_CLUSTER_SELF), 1);
	KUNIT_EXPECT_EQ(test, count(f, KTRACE_CLUSTER_REPLAY), 3);
	KUNIT_EXPECT_EQ(test, count(f, KTRACE_CLUSTER_RATE), 0);
}

static void cluster_accept_peer_window(struct kunit *test)
{
	struct rx_fixture *f = new_rx(test, "dev=eth0 key=" KEY_HEX
				      " allow=10.0.2.1,10.0.2.2 window=1000");
	struct ktrace_cluster_msg m;

	KUNIT_EXPECT_EQ(test, send(f, 1, 100, NULL, MSG), KTRACE_CLUSTER_OK);
	fill_msg(&m, 1, 101);
	ktrace_cluster_seal(&m, &f->c.key);
	KUNIT_EXPECT_EQ(test, ktrace_cluster_accept(&f->rx, &f->c, 0x0a00020f, &m, MSG,
						    cpu_to_be32(0x0a000203), f->now, 5),
			KTRACE_CLUSTER_PEER);
	/* Sent at 5 ns: 1 s later is in the window, 1 s and 1 ns is not. */
	KUNIT_EXPECT_EQ(test, ktrace_cluster_accept(&f->rx, &f->c, 0x0a00020f, &m, MSG,
						    cpu_to_be32(0x0a000202), f->now,
						    5 + NSEC_PER_SEC + 1),
			KTRACE_CLUSTER_WINDOW);
	KUNIT_EXPECT_EQ(test, ktrace_cluster_accept(&f->rx, &f->c, 0x0a00020f, &m, MSG,
						    cpu_to_be32(0x0a000202), f->now,
						    5 + NSEC_PER_SEC),
			KTRACE_CLUSTER_OK);
	KUNIT_EXPECT_EQ(test, count(f, KTRACE_CLUSTER_PEER), 1);
	KUNIT_EXPECT_EQ(test, count(f, KTRACE_CLUSTER_WINDOW), 1);
}

/* A sealed beacon from id, seq (a forgery with @key set), from 10.0.2.1. */
static enum ktrace_cluster_verdict beacon(struct rx_fixture *f, u32 id, u64 seq,
					  const siphash_key_t *key)
{
	struct ktrace_cluster_msg m;

	fill_msg(&m, id, seq);
	m.type = KTRACE_CLUSTER_BEACON;
	ktrace_cluster_seal(&m, key ?: &f->c.key);
	f->now += NSEC_PER_USEC;
	return ktrace_cluster_accept(&f->rx, &f->c, 0x0a00020f, &m, MSG,
				     cpu_to_be32(0x0a000201), f->now, 5);
}

/*
 * rate=3: three beacons at once pass, the fourth is refused; a second
 * later, again.  Forgeries spend no token, and trigger messages are never
 * refused for the rate.
 */
static void cluster_accept_rate(struct kunit *test)
{
	struct rx_fixture *f = new_rx(test, "dev=eth0 key=" KEY_HEX " rate=3");
	siphash_key_t wrong = { { 1, 2 } };
	u64 seq = 1;
	int i;

	/* A flood of forged beacons and triggers first: the tag refuses them. */
	for (i = 0; i < 1000; i++) {
		KUNIT_EXPECT_EQ(test, beacon(f, 1, seq++, &wrong), KTRACE_CLUSTER_MAC);
		KUNIT_EXPECT_EQ(test, send(f, 1, seq++, &wrong, MSG), KTRACE_CLUSTER_MAC);
	}
	for (i = 0; i < 3; i++)
		KUNIT_EXPECT_EQ(test, beacon(f, 1, seq++, NULL), KTRACE_CLUSTER_OK);
	for (i = 0; i < 1000; i++)
		KUNIT_EXPECT_EQ(test, beacon(f, 2, seq++, NULL), KTRACE_CLUSTER_RATE);
	/* The bucket is empty: a trigger message passes all the same. */
	KUNIT_EXPECT_EQ(test, send(f, 1, seq++, NULL, MSG), KTRACE_CLUSTER_OK);
	/* A replayed beacon is a replay, whatever the bucket. */
	KUNIT_EXPECT_EQ(test, beacon(f, 1, 1, NULL), KTRACE_CLUSTER_REPLAY);
	f->now += NSEC_PER_SEC;
	KUNIT_EXPECT_EQ(test, beacon(f, 1, seq++, NULL), KTRACE_CLUSTER_OK);
	KUNIT_EXPECT_EQ(test, count(f, KTRACE_CLUSTER_OK), 5);
	KUNIT_EXPECT_EQ(test, count(f, KTRACE_CLUSTER_RATE), 1000);
	KUNIT_EXPECT_EQ(test, count(f, KTRACE_CLUSTER_MAC), 2000);
	KUNIT_EXPECT_EQ(test, count(f, KTRACE_CLUSTER_REPLAY), 1);
}

/*
 * The replay window: a trigger message whose first copy was lost passes
 * after a later beacon, each number once; the window's edge, and a jump
 * past it.
 */
static void cluster_accept_window(struct kunit *test)
{
	struct rx_fixture *f = new_rx(test, "dev=eth0 key=" KEY_HEX);
	const u64 w = KTRACE_CLUSTER_REPLAY_WINDOW;

	KUNIT_EXPECT_EQ(test, send(f, 1, 100, NULL, MSG), KTRACE_CLUSTER_OK);
	/* Trigger 101 lost, beacon 102 arrives, then 101's copy. */
	KUNIT_EXPECT_EQ(test, beacon(f, 1, 102, NULL), KTRACE_CLUSTER_OK);
	KUNIT_EXPECT_EQ(test, send(f, 1, 101, NULL, MSG), KTRACE_CLUSTER_OK);
	KUNIT_EXPECT_EQ(test, send(f, 1, 101, NULL, MSG), KTRACE_CLUSTER_REPLAY);
	KUNIT_EXPECT_EQ(test, beacon(f, 1, 102, NULL), KTRACE_CLUSTER_REPLAY);
	KUNIT_EXPECT_EQ(test, send(f, 1, 100, NULL, MSG), KTRACE_CLUSTER_REPLAY);
	/* The oldest number in the window, then one below it. */
	KUNIT_EXPECT_EQ(test, send(f, 1, 102 - (w - 1), NULL, MSG), KTRACE_CLUSTER_OK);
	KUNIT_EXPECT_EQ(test, send(f, 1, 102 - (w - 1), NULL, MSG), KTRACE_CLUSTER_REPLAY);
	KUNIT_EXPECT_EQ(test, send(f, 1, 102 - w, NULL, MSG), KTRACE_CLUSTER_REPLAY);
	/* A jump of more than the window: only the new number is known. */
	KUNIT_EXPECT_EQ(test, send(f, 1, 1000, NULL, MSG), KTRACE_CLUSTER_OK);
	KUNIT_EXPECT_EQ(test, send(f, 1, 999, NULL, MSG), KTRACE_CLUSTER_OK);
	KUNIT_EXPECT_EQ(test, send(f, 1, 1000 - (w - 1), NULL, MSG), KTRACE_CLUSTER_OK);
	KUNIT_EXPECT_EQ(test, send(f, 1, 1000 - w, NULL, MSG), KTRACE_CLUSTER_REPLAY);
	KUNIT_EXPECT_EQ(test, send(f, 1, 102, NULL, MSG), KTRACE_CLUSTER_REPLAY);
	KUNIT_EXPECT_EQ(test, count(f, KTRACE_CLUSTER_OK), 7);
	KUNIT_EXPECT_EQ(test, count(f, KTRACE_CLUSTER_REPLAY), 7);
}

/* More origins than remembered: the one heard from the longest ago goes. */
static void cluster_accept_origins(struct kunit *test)
{
	struct rx_fixture *f = new_rx(test, "dev=eth0 key=" KEY_HEX " rate=100000");
	u32 id;

	for (id = 1; id <= KTRACE_CLUSTER_ORIGINS; id++)
		KUNIT_EXPECT_EQ(test, send(f, id, 10, NULL, MSG), KTRACE_CLUSTER_OK);
	/* Origin 1 heard again: 2 is now the oldest, and is evicted. */
	KUNIT_EXPECT_EQ(test, send(f, 1, 11, NULL, MSG), KTRACE_CLUSTER_OK);
	KUNIT_EXPECT_EQ(test, send(f, 100, 10, NULL, MSG), KTRACE_CLUSTER_OK);
	for (id = 3; id <= KTRACE_CLUSTER_ORIGINS; id++)
		KUNIT_EXPECT_EQ(test, send(f, id, 10, NULL, MSG), KTRACE_CLUSTER_REPLAY);
	KUNIT_EXPECT_EQ(test, send(f, 1, 11, NULL, MSG), KTRACE_CLUSTER_REPLAY);
	KUNIT_EXPECT_EQ(test, send(f, 100, 10, NULL, MSG), KTRACE_CLUSTER_REPLAY);
	/* Forgotten: its old message passes again (documented). */
	KUNIT_EXPECT_EQ(test, send(f, 2, 10, NULL, MSG), KTRACE_CLUSTER_OK);
}

static struct kunit_case ktrace_cluster_cases[] = {
	KUNIT_CASE(cluster_parse_good),
	KUNIT_CASE(cluster_parse_bad),
	KUNIT_CASE(cluster_mac_kat),
	KUNIT_CASE(cluster_accept_checks),
	KUNIT_CASE(cluster_accept_peer_window),
	KUNIT_CASE(cluster_accept_rate),
	KUNIT_CASE(cluster_accept_window),
	KUNIT_CASE(cluster_accept_origins),
	{}
};

static struct kunit_suite ktrace_cluster_suite = {
	.name = "ktrace_cluster",
	.test_cases = ktrace_cluster_cases,
};

kunit_test_suite(ktrace_cluster_suite);

MODULE_DESCRIPTION("KUnit tests for ktrace's cluster messages");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
