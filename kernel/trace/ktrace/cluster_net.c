// SPDX-License-Identifier: GPL-2.0
/*
 * ktrace cluster: the transport.  Messages leave through netpoll, as
 * netconsole's do, so that a panicking machine can still tell its group;
 * they arrive at a UDP socket's encap_rcv hook, in softirq context, which
 * checks them (cluster.c) and fires the cluster trigger directly: no
 * user-space agent has to be alive or trusted.
 *
 * The group is published under RCU: the senders (the send work, the crash
 * notifiers) and the receiver read it locklessly; joining and leaving are
 * serialized by ktrace_cluster_mutex.
 */
#define pr_fmt(fmt) "ktrace: " fmt

#include <linux/delay.h>
#include <linux/etherdevice.h>
#include <linux/ip.h>
#include <linux/irq_work.h>
#include <linux/mutex.h>
#include <linux/netdevice.h>
#include <linux/netpoll.h>
#include <linux/printk.h>
#include <linux/rtnetlink.h>
#include <linux/rcupdate.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/skbuff.h>
#include <linux/timekeeping.h>
#include <linux/udp.h>
#include <linux/workqueue.h>
#include <net/net_namespace.h>
#include <net/sock.h>
#include <net/udp_tunnel.h>

#include "cluster.h"
#include "ktrace_internal.h"

/* The state of an outgoing message slot. */
enum {
	KTRACE_OUT_IDLE,
	KTRACE_OUT_FILLING,
	KTRACE_OUT_READY,
	KTRACE_OUT_SENDING,
};

/* One slot per type: a beacon never holds up a trigger message. */
struct ktrace_cluster_out {
	atomic_t state;
	struct ktrace_cluster_msg msg;
};

/**
 * struct ktrace_cluster_group - the group this machine is in
 * @conf: as written to the cluster file
 * @id: this machine's id: the IPv4 address of @conf.dev
 * @np: one netpoll per destination
 * @nr_np: how many of @np are set up
 * @sock: the receiving socket
 * @seq: the last sequence number sent
 * @out: the trigger message and the beacon to send
 * @beacon: sends a beacon every @conf.beacon_ms
 * @again: the last trigger message, sent again by @resend
 * @again_left: how many more times; -1 while @again is being filled
 * @resend: sends @again, 10 ms then 100 ms after the first time
 * @rx: the receiving side's checks and counters
 * @sent: datagrams handed to netpoll, one per destination (netpoll says
 *	nothing of those it drops, out of skbs)
 * @triggers: trigger messages accepted
 * @beacons: beacons accepted
 * @unarmed: trigger messages accepted while cluster was not armed
 */
struct ktrace_cluster_group {
	struct ktrace_cluster_conf conf;
	u32 id;
	struct netpoll np[KTRACE_CLUSTER_DST_MAX];
	unsigned int nr_np;
	struct socket *sock;
	atomic64_t seq;
	struct ktrace_cluster_out out[2];
	struct delayed_work beacon;
	struct ktrace_cluster_msg again;
	atomic_t again_left;
	struct delayed_work resend;
	struct ktrace_cluster_rx rx;
	atomic_long_t sent;
	atomic_long_t triggers;
	atomic_long_t beacons;
	atomic_long_t unarmed;
};

static struct ktrace_cluster_group __rcu *ktrace_cluster;
static DEFINE_MUTEX(ktrace_cluster_mutex);
/* The generation of the trace a trigger message was sent for, plus one. */
static unsigned long ktrace_cluster_sent_gen;

/* Take a slot and fill what does not depend on the time of sending. */
static bool ktrace_cluster_queue(struct ktrace_cluster_group *g, u8 type,
				 const char *trigger, const char *reason)
{
	struct ktrace_cluster_out *o = &g->out[type == KTRACE_CLUSTER_BEACON];
	struct ktrace_cluster_msg *m = &o->msg;

	if (atomic_cmpxchg(&o->state, KTRACE_OUT_IDLE, KTRACE_OUT_FILLING) !=
	    KTRACE_OUT_IDLE)
		return false;
	memset(m, 0, sizeof(*m));
	m->magic = cpu_to_be32(KTRACE_CLUSTER_MAGIC);
	m->version = KTRACE_CLUSTER_VERSION;
	m->type = type;
	m->origin_id = cpu_to_be32(g->id);
	memcpy(m->origin, g->conf.name, sizeof(m->origin));
	strscpy_pad(m->trigger, trigger, sizeof(m->trigger));
	strscpy_pad(m->reason, reason ?: "", sizeof(m->reason));
	atomic_set_release(&o->state, KTRACE_OUT_READY);
	return true;
}

/*
 * A trigger message goes out KTRACE_CLUSTER_COPIES times, the same bytes:
 * one datagram is easily lost (a receiver's full ring, a busy switch),
 * and a receiver refuses the copies after the first as replays.
 */
#define KTRACE_CLUSTER_COPIES	3

static void ktrace_cluster_send(struct ktrace_cluster_group *g,
				const struct ktrace_cluster_msg *m)
{
	unsigned int n;

	for (n = 0; n < g->nr_np; n++)
		netpoll_send_udp(&g->np[n], (const char *)m, sizeof(*m));
	atomic_long_add(g->nr_np, &g->sent);
}

/*
 * Send the ready slots, interrupts off (netpoll's rule): from the send
 * work, or from a crash notifier (@crash).  The sequence number, the time
 * and the tag are set here, so that the time is that of the sending.  A
 * trigger message's copies: from @resend, or at once from a crash, 2 ms
 * apart (no timer to count on; panic() waits far longer itself).
 */
static void ktrace_cluster_flush(struct ktrace_cluster_group *g, bool crash)
{
	unsigned int i, n;

	lockdep_assert_irqs_disabled();
	for (i = 0; i < ARRAY_SIZE(g->out); i++) {
		struct ktrace_cluster_out *o = &g->out[i];
		struct ktrace_cluster_msg *m = &o->msg;

		if (atomic_cmpxchg_acquire(&o->state, KTRACE_OUT_READY,
					   KTRACE_OUT_SENDING) != KTRACE_OUT_READY)
			continue;
		m->seq = cpu_to_be64(atomic64_inc_return(&g->seq));
		m->sent_ns = cpu_to_be64(ktime_get_real_fast_ns());
		ktrace_cluster_seal(m, &g->conf.key);
		ktrace_cluster_record(m, true);
		ktrace_cluster_send(g, m);
		if (m->type == KTRACE_CLUSTER_TRIGGER) {
			if (crash) {
				for (n = 1; n < KTRACE_CLUSTER_COPIES; n++) {
					mdelay(2);
					ktrace_cluster_send(g, m);
				}
			} else if (atomic_cmpxchg(&g->again_left, 0, -1) == 0) {
				/*
				 * None pending.  A newer trace's message
				 * within the 100 ms of the last one's copies
				 * goes out once.
				 */
				g->again = *m;
				atomic_set_release(&g->again_left, KTRACE_CLUSTER_COPIES - 1);
				queue_delayed_work(system_highpri_wq, &g->resend,
						   msecs_to_jiffies(10));
			}
		}
		atomic_set_release(&o->state, KTRACE_OUT_IDLE);
	}
}

/* The copies of the last trigger message: 10 ms, then 100 ms after it. */
static void ktrace_cluster_resend_fn(struct work_struct *work)
{
	struct ktrace_cluster_group *g =
		container_of(to_delayed_work(work), struct ktrace_cluster_group, resend);
	unsigned long flags;

	if (atomic_read_acquire(&g->again_left) <= 0)
		return;
	local_irq_save(flags);
	ktrace_cluster_send(g, &g->again);
	local_irq_restore(flags);
	if (atomic_dec_return(&g->again_left))
		queue_delayed_work(system_highpri_wq, &g->resend, msecs_to_jiffies(90));
}

/*
 * Send what is ready, from process context with interrupts off, as
 * netconsole sends from printk: netpoll polls the device's transmit
 * completions, whose lock (virtio-net's queue lock, for one) is not
 * taken in hardirq context; from an irq_work it could be taken by the
 * interrupted holder on the same CPU (lockdep's "inconsistent lock
 * state" on the debug kernel).
 */
static void ktrace_cluster_send_fn(struct work_struct *work)
{
	struct ktrace_cluster_group *g;
	unsigned long flags;

	rcu_read_lock();
	g = rcu_dereference(ktrace_cluster);
	if (g) {
		local_irq_save(flags);
		ktrace_cluster_flush(g, false);
		local_irq_restore(flags);
	}
	rcu_read_unlock();
}

static DECLARE_WORK(ktrace_cluster_send_work, ktrace_cluster_send_fn);

/* From any context: queue the send, which a firing cannot do itself. */
static void ktrace_cluster_irq_work_fn(struct irq_work *work)
{
	queue_work(system_highpri_wq, &ktrace_cluster_send_work);
}

static DEFINE_IRQ_WORK(ktrace_cluster_work, ktrace_cluster_irq_work_fn);

/*
 * Kick the send work, from any context.  Not from a CPU going offline,
 * past its last irq_work_run(): the irq_work would stay pending there and
 * every later queue fail (as for the trigger's, trigger_fire.c); the slot
 * stays ready for the next kick.
 */
static void ktrace_cluster_kick(void)
{
	if (likely(cpu_online(raw_smp_processor_id())))
		irq_work_queue(&ktrace_cluster_work);
}

/**
 * ktrace_cluster_send_trigger() - tell the group a trigger fired here
 * @trigger: the trigger's name
 * @reason: its reason
 * @oops: fired by an oops, from the die notifier of the dying CPU
 *
 * Any context, NMI included: called by the first action=stop firing of a
 * trace.  The message goes out from a work kicked by an irq_work (the
 * firing may hold the runqueue lock, where neither a driver's transmit
 * nor a wakeup may run).  An oops sends it at once, as netconsole prints
 * the oops, for the task may never run again: but not from hardirq or
 * NMI, which may have interrupted the holder of the device's transmit
 * lock on this CPU; an oops there is a panic, whose notifier sends it
 * (ktrace_cluster_crash()), in that same context, as netconsole prints.
 */
void ktrace_cluster_send_trigger(const char *trigger, const char *reason, bool oops)
{
	struct ktrace_cluster_group *g;
	unsigned long flags;

	rcu_read_lock();
	g = rcu_dereference(ktrace_cluster);
	if (!g)
		goto unlock;
	if (ktrace_cluster_queue(g, KTRACE_CLUSTER_TRIGGER, trigger, reason))
		WRITE_ONCE(ktrace_cluster_sent_gen, ktrace_generation_read() + 1);
	if (oops && !in_hardirq() && !in_nmi()) {
		local_irq_save(flags);
		ktrace_cluster_flush(g, true);
		local_irq_restore(flags);
	} else {
		/* Also for a message left ready by an earlier kick that failed. */
		ktrace_cluster_kick();
	}
unlock:
	rcu_read_unlock();
}

/**
 * ktrace_cluster_crash() - tell the group this machine is crashing
 * @trigger: what crashes it ("panic")
 * @reason: the panic message
 *
 * From the panic notifier, interrupts off, the other CPUs stopped: sends a
 * trigger message still waiting for its irq_work, or a new one if none
 * was sent for this trace.
 */
void ktrace_cluster_crash(const char *trigger, const char *reason)
{
	struct ktrace_cluster_group *g;
	unsigned long flags;

	rcu_read_lock();
	g = rcu_dereference(ktrace_cluster);
	if (g) {
		if (READ_ONCE(ktrace_cluster_sent_gen) != ktrace_generation_read() + 1 &&
		    ktrace_cluster_queue(g, KTRACE_CLUSTER_TRIGGER, trigger, reason))
			WRITE_ONCE(ktrace_cluster_sent_gen, ktrace_generation_read() + 1);
		local_irq_save(flags);
		ktrace_cluster_flush(g, true);
		local_irq_restore(flags);
	}
	rcu_read_unlock();
}

static void ktrace_cluster_beacon_fn(struct work_struct *work)
{
	struct ktrace_cluster_group *g =
		container_of(to_delayed_work(work), struct ktrace_cluster_group, beacon);

	if (ktrace_cluster_queue(g, KTRACE_CLUSTER_BEACON, "", ""))
		queue_work(system_highpri_wq, &ktrace_cluster_send_work);
	queue_delayed_work(system_wq, &g->beacon,
			   msecs_to_jiffies(g->conf.beacon_ms));
}

/*
 * The socket's encap_rcv: every datagram to the port, in softirq context,
 * skb->data at the UDP header.  Consumes the skb (returns 0).
 */
static int ktrace_cluster_rcv(struct sock *sk, struct sk_buff *skb)
{
	struct ktrace_cluster_msg m;
	struct ktrace_cluster_group *g;
	enum ktrace_cluster_verdict v;
	size_t len = 0;

	if (skb->len > sizeof(struct udphdr))
		len = skb->len - sizeof(struct udphdr);
	if (len == sizeof(m) && skb_copy_bits(skb, sizeof(struct udphdr), &m, len))
		len = 0;
	rcu_read_lock();
	g = rcu_dereference_sk_user_data(sk);
	if (!g)
		goto out;
	v = ktrace_cluster_accept(&g->rx, &g->conf, g->id, &m, len,
				  ip_hdr(skb)->saddr, ktime_get_mono_fast_ns(),
				  ktime_get_real_ns());
	if (v != KTRACE_CLUSTER_OK)
		goto out;
	ktrace_cluster_record(&m, false);
	if (m.type == KTRACE_CLUSTER_BEACON) {
		atomic_long_inc(&g->beacons);
	} else {
		atomic_long_inc(&g->triggers);
		if (ktrace_cluster_fire(&m) == -ENOENT)
			atomic_long_inc(&g->unarmed);
	}
out:
	rcu_read_unlock();
	consume_skb(skb);
	return 0;
}

/* Unpublished already: wait for its readers, then free it. */
static void ktrace_cluster_free(struct ktrace_cluster_group *g)
{
	unsigned int i;

	cancel_delayed_work_sync(&g->beacon);
	if (g->sock)
		udp_tunnel_sock_release(g->sock);
	synchronize_rcu();
	irq_work_sync(&ktrace_cluster_work);
	flush_work(&ktrace_cluster_send_work);
	/* After the send work, which may queue it. */
	cancel_delayed_work_sync(&g->resend);
	for (i = 0; i < g->nr_np; i++)
		netpoll_cleanup(&g->np[i]);
	kfree_sensitive(g);
}

/* Under ktrace_cluster_mutex: the senders, one netpoll per destination. */
static int ktrace_cluster_setup_np(struct ktrace_cluster_group *g)
{
	const struct ktrace_cluster_conf *c = &g->conf;
	struct net_device *dev;
	unsigned int i;
	int ret;

	/*
	 * netpoll_setup() looks in the writer's namespace, brings a down
	 * interface up, waiting for its carrier, and fails with a kernel-only
	 * errno for one without netpoll: an interface of the initial
	 * namespace (the receiving socket's), up already, with netpoll.
	 */
	if (!net_eq(current->nsproxy->net_ns, &init_net))
		return -EINVAL;
	rtnl_lock();
	dev = __dev_get_by_name(&init_net, c->dev);
	if (!dev)
		ret = -ENODEV;
	else if (!(dev->flags & IFF_UP))
		ret = -ENETDOWN;
	else if (dev->priv_flags & IFF_DISABLE_NETPOLL)
		ret = -EOPNOTSUPP;
	else
		ret = 0;
	rtnl_unlock();
	if (ret)
		return ret;
	for (i = 0; i < c->nr_dst; i++) {
		struct netpoll *np = &g->np[i];

		np->name = "ktrace";
		strscpy(np->dev_name, c->dev, sizeof(np->dev_name));
		np->local_port = c->port;
		np->remote_port = c->port;
		np->remote_ip.ip = c->dst[i];
		/* No ARP from a panic: every frame to the broadcast address. */
		eth_broadcast_addr(np->remote_mac);
		ret = netpoll_setup(np);
		/* No IPv4 address. */
		if (ret == -EDESTADDRREQ)
			return -ENODEV;
		/* Kernel-only: netpoll disabled since the check above. */
		if (ret <= -ERESTARTSYS)
			return -EOPNOTSUPP;
		if (ret)
			return ret;
		g->nr_np++;
	}
	g->id = be32_to_cpu(g->np[0].local_ip.ip);
	return 0;
}

/* Under ktrace_cluster_mutex: the receiver. */
static int ktrace_cluster_setup_sock(struct ktrace_cluster_group *g)
{
	struct udp_port_cfg ucfg = {
		.family = AF_INET,
		.local_ip.s_addr = htonl(INADDR_ANY),
		.local_udp_port = htons(g->conf.port),
	};
	struct udp_tunnel_sock_cfg tcfg = {
		.sk_user_data = g,
		.encap_type = 1,
		.encap_rcv = ktrace_cluster_rcv,
	};
	int ret;

	ret = udp_sock_create(&init_net, &ucfg, &g->sock);
	if (ret) {
		g->sock = NULL;
		return ret;
	}
	setup_udp_tunnel_sock(&init_net, g->sock, &tcfg);
	return 0;
}

/**
 * ktrace_cluster_join() - join a group, or leave it
 * @c: the group, as parsed from the cluster file; @c->off to leave
 *
 * Replaces the group this machine is in.  The new group's senders and
 * receiver are set up before the old group is left: on the same port, the
 * new group takes the old one's socket.  An error changes nothing.
 *
 * Return: 0; -ENODEV for an unknown interface or one without an IPv4
 * address, -ENETDOWN for one down, -EOPNOTSUPP for one without netpoll,
 * -EBUSY for a bond's or a bridge's port, -EINVAL from another network
 * namespace than the initial one, -EADDRINUSE if the port is taken,
 * -ENOMEM.
 */
int ktrace_cluster_join(const struct ktrace_cluster_conf *c)
{
	struct ktrace_cluster_group *g = NULL, *old;
	bool moved = false;
	int ret = 0;

	mutex_lock(&ktrace_cluster_mutex);
	old = rcu_dereference_protected(ktrace_cluster,
					lockdep_is_held(&ktrace_cluster_mutex));
	if (!c->off) {
		g = kzalloc(sizeof(*g), GFP_KERNEL);
		if (!g) {
			ret = -ENOMEM;
			goto unlock;
		}
		g->conf = *c;
		INIT_DELAYED_WORK(&g->beacon, ktrace_cluster_beacon_fn);
		INIT_DELAYED_WORK(&g->resend, ktrace_cluster_resend_fn);
		ktrace_cluster_rx_init(&g->rx, ktime_get_mono_fast_ns());
		atomic64_set(&g->seq, ktime_get_real_ns());
		ret = ktrace_cluster_setup_np(g);
		if (ret)
			goto fail;
		if (old && old->conf.port == c->port) {
			g->sock = old->sock;
			old->sock = NULL;
			moved = true;
		} else {
			ret = ktrace_cluster_setup_sock(g);
			if (ret)
				goto fail;
		}
	}
	rcu_assign_pointer(ktrace_cluster, g);
	/* Its datagrams to the new group, the old one's readers waited for below. */
	if (moved)
		rcu_assign_sk_user_data(g->sock->sk, g);
	if (old)
		ktrace_cluster_free(old);
	if (g && c->beacon_ms)
		queue_delayed_work(system_wq, &g->beacon, msecs_to_jiffies(c->beacon_ms));
	goto unlock;
fail:
	ktrace_cluster_free(g);
unlock:
	mutex_unlock(&ktrace_cluster_mutex);
	return ret;
}

/*
 * The group's interface is being unregistered, or moved to another network
 * namespace (NETDEV_UNREGISTER too, the device still registered): leave
 * the group, so that
 * netpoll's references to the device go and its unregistering, which
 * waits for them (without RTNL), ends.  From a work: the notifier holds
 * RTNL, which joining and leaving take under ktrace_cluster_mutex.  The
 * work checks under the mutex, so a group joined on the device just before
 * it went is left too.
 */
static void ktrace_cluster_gone_fn(struct work_struct *work)
{
	struct ktrace_cluster_group *g;

	mutex_lock(&ktrace_cluster_mutex);
	g = rcu_dereference_protected(ktrace_cluster,
				      lockdep_is_held(&ktrace_cluster_mutex));
	if (g && (READ_ONCE(g->np[0].dev->reg_state) != NETREG_REGISTERED ||
		  !net_eq(dev_net(g->np[0].dev), &init_net))) {
		pr_warn("cluster: %s is going away: left the group\n", g->conf.dev);
		rcu_assign_pointer(ktrace_cluster, NULL);
		ktrace_cluster_free(g);
	}
	mutex_unlock(&ktrace_cluster_mutex);
}

static DECLARE_WORK(ktrace_cluster_gone_work, ktrace_cluster_gone_fn);

static int ktrace_cluster_netdev_event(struct notifier_block *nb,
				       unsigned long event, void *ptr)
{
	/* Whichever device: rare, and the work checks. */
	if (event == NETDEV_UNREGISTER)
		schedule_work(&ktrace_cluster_gone_work);
	return NOTIFY_DONE;
}

static struct notifier_block ktrace_cluster_netdev_nb = {
	.notifier_call = ktrace_cluster_netdev_event,
};

static int __init ktrace_cluster_net_init(void)
{
	return register_netdevice_notifier(&ktrace_cluster_netdev_nb);
}
device_initcall(ktrace_cluster_net_init);

/* A list of addresses, or "any" for none. */
static void ktrace_cluster_show_addrs(struct seq_file *m, const char *name,
				      const __be32 *addrs, unsigned int nr)
{
	unsigned int i;

	seq_printf(m, " %s=", name);
	if (!nr)
		seq_puts(m, "any");
	for (i = 0; i < nr; i++)
		seq_printf(m, "%s%pI4", i ? "," : "", &addrs[i]);
}

/**
 * ktrace_cluster_show() - the cluster file: the group and its counters
 * @m: the file
 */
void ktrace_cluster_show(struct seq_file *m)
{
	struct ktrace_cluster_group *g;
	const struct ktrace_cluster_conf *c;
	unsigned int v;
	long received = 0;

	mutex_lock(&ktrace_cluster_mutex);
	g = rcu_dereference_protected(ktrace_cluster,
				      lockdep_is_held(&ktrace_cluster_mutex));
	if (!g) {
		seq_puts(m, "off\n");
		goto unlock;
	}
	c = &g->conf;
	seq_printf(m, "dev=%s port=%u id=%08x name=%.*s", c->dev, c->port, g->id,
		   (int)sizeof(c->name), c->name);
	ktrace_cluster_show_addrs(m, "dst", c->dst, c->nr_dst);
	ktrace_cluster_show_addrs(m, "allow", c->allow, c->nr_allow);
	seq_printf(m, " beacon=%u window=%u rate=%u key=set\n", c->beacon_ms,
		   c->window_ms, c->rate);
	for (v = 0; v < KTRACE_CLUSTER_NR_VERDICTS; v++)
		received += atomic_long_read(&g->rx.count[v]);
	seq_printf(m, "sent=%ld received=%ld triggers=%ld beacons=%ld unarmed=%ld\n",
		   atomic_long_read(&g->sent), received,
		   atomic_long_read(&g->triggers), atomic_long_read(&g->beacons),
		   atomic_long_read(&g->unarmed));
	seq_puts(m, "refused:");
	for (v = KTRACE_CLUSTER_OK + 1; v < KTRACE_CLUSTER_NR_VERDICTS; v++)
		seq_printf(m, " %s=%ld", ktrace_cluster_verdict_name(v),
			   atomic_long_read(&g->rx.count[v]));
	seq_putc(m, '\n');
unlock:
	mutex_unlock(&ktrace_cluster_mutex);
}
