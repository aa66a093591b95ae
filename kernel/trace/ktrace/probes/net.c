// SPDX-License-Identifier: GPL-2.0
/*
 * ktrace's network events, transmit and receive, compact: built with
 * CONFIG_NET.
 *
 * 12 bits of interface index, 20 bits of length (1 MiB, beyond GSO); both
 * saturate: an index from 4095 on shows as ">=4095".
 */
#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <trace/events/net.h>

#include "tracepoints.h"

#define KT_IFINDEX_BITS	12

static const struct ktrace_field kt_net_fields[] = {
	{ .name = "ifindex", .offset = 0, .size = KT_IFINDEX_BITS,
	  .display = KTRACE_DISPLAY_DEC, .flags = KTRACE_FIELD_SATURATES },
	{ .name = "len", .offset = KT_IFINDEX_BITS, .size = 32 - KT_IFINDEX_BITS,
	  .display = KTRACE_DISPLAY_DEC, .flags = KTRACE_FIELD_SATURATES },
};

KT_EVENT(kt_ev_xmit, "net", "xmit", KTRACE_CHANNEL_HIGH, KTRACE_EVENT_COMPACT, kt_net);
KT_EVENT(kt_ev_receive, "net", "receive", KTRACE_CHANNEL_HIGH, KTRACE_EVENT_COMPACT, kt_net);

static inline u32 kt_net_pack(int ifindex, unsigned int len)
{
	return min_t(u32, ifindex, BIT(KT_IFINDEX_BITS) - 1) |
	       (min(len, (unsigned int)BIT(32 - KT_IFINDEX_BITS) - 1) << KT_IFINDEX_BITS);
}

static void kt_probe_net_dev_xmit(void *data, struct sk_buff *skb, int rc,
				  struct net_device *dev, unsigned int skb_len)
{
	ktrace_event_write_compact(&kt_ev_xmit, kt_net_pack(dev->ifindex, skb_len));
}

static void kt_probe_netif_receive_skb(void *data, struct sk_buff *skb)
{
	ktrace_event_write_compact(&kt_ev_receive,
				   kt_net_pack(skb->dev ? skb->dev->ifindex : 0, skb->len));
}

KT_TP_PROBE(register_trace_net_dev_xmit, kt_probe_net_dev_xmit);
KT_TP_PROBE(register_trace_netif_receive_skb, kt_probe_netif_receive_skb);

/* The events of the network, in registration order, and their tracepoints. */
static const struct kt_tp kt_net_tps[] = {
	KT_TP(kt_ev_xmit, register_trace_net_dev_xmit),
	KT_TP(kt_ev_receive, register_trace_netif_receive_skb),
};

KT_TP_TABLE(net);
