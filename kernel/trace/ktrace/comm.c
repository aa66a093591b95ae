// SPDX-License-Identifier: GPL-2.0
/*
 * ktrace saved comms: the last name the trace saw for every recent pid,
 * kept outside the trace, as ftrace's saved_cmdlines.
 *
 * The names of a trace are its fork, exec and comm events and the
 * statedump, on the medium-rate channel, and the task sched:switch
 * switches in (ktrace_comm_save_task(); ftrace's saved_cmdlines records
 * both tasks of every switch): a task that was alive before the trace and
 * exits during it, without a fork, exec or rename in between, is named
 * without the statedump once it has run.  Hybrid mode never overwrites
 * that channel, but drops what no longer fits: a flight recorder running
 * for weeks fills it, and from then on every new task of the high-rate
 * history, which keeps being overwritten, would have no name.  So the
 * probes that write those events, and the statedump, also save the name
 * here, and the readers fall back on this table: the ascii pipe, and the
 * comms file that tools/ktrace record saves beside the streams.
 *
 * The table is sized at boot from pid_max (capped at %KTRACE_COMMS_MAX
 * slots) and two-way: a pid goes in its first slot, indexed by its low
 * bits, unless that slot names another pid; then in its second, indexed
 * by a hash of the pid; and when both name other pids, it evicts the one
 * whose pid came first (as saved_cmdlines replaces its entries in turn).
 * With as many slots as pids, every pid has its own first slot and the
 * second is never used.  With fewer (pid_max raised above
 * %KTRACE_COMMS_MAX), pids sharing a first slot keep their names until
 * both ways of a pid are taken: an exited task's name that the trace
 * still shows is not evicted by the first live task whose pid has the
 * same low bits.  Every slot stores the full pid and a lookup compares
 * it: a pid whose name was evicted has none (the reader prints <...>),
 * never another pid's.  The table is emptied at every start, so a name
 * belongs to one trace.
 *
 * Saving runs in any context, NMI included, and takes no lock: each slot
 * has a sequence count, odd while a writer fills the slot.  A writer
 * claims the slot by moving the count from even to odd with a cmpxchg;
 * one that finds it odd (another CPU, or the context it interrupted, is
 * filling it) gives up and counts a miss, since it can neither wait nor
 * retry from an NMI.  Readers copy the slot and retry if the count was
 * odd or changed, as with a seqcount.
 */
#include <linux/atomic.h>
#include <linux/hardirq.h>
#include <linux/hash.h>
#include <linux/jiffies.h>
#include <linux/init.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/pid.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <kunit/visibility.h>

#include "comm.h"
#include "ktrace_internal.h"

/* The saved comms of the trace: allocated at boot, never freed. */
static struct ktrace_comm_table ktrace_comms;

/**
 * ktrace_comm_table_init() - allocate an empty table
 * @t: the table
 * @nr: its slots, a power of two
 *
 * Return: 0, or -ENOMEM.
 */
int ktrace_comm_table_init(struct ktrace_comm_table *t, unsigned int nr)
{
	t->slots = kvcalloc(nr, sizeof(*t->slots), GFP_KERNEL);
	if (!t->slots)
		return -ENOMEM;
	t->nr = nr;
	t->bits = ilog2(nr);
	atomic_long_set(&t->missed, 0);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(ktrace_comm_table_init);

/**
 * ktrace_comm_table_free() - free a table
 * @t: the table, allocated by ktrace_comm_table_init()
 */
void ktrace_comm_table_free(struct ktrace_comm_table *t)
{
	kvfree(t->slots);
	t->slots = NULL;
	t->nr = 0;
}
EXPORT_SYMBOL_IF_KUNIT(ktrace_comm_table_free);

/* The first way of a pid: its low bits. */
static __always_inline unsigned int ktrace_comm_first(const struct ktrace_comm_table *t,
						      pid_t pid)
{
	return pid & (t->nr - 1);
}

/**
 * ktrace_comm_way() - one of the two slots of a pid
 * @t: the table
 * @pid: the pid
 * @way: 0 for its first slot (its low bits), 1 for its second (a hash)
 *
 * Return: the slot's index.
 */
unsigned int ktrace_comm_way(const struct ktrace_comm_table *t, pid_t pid,
			     unsigned int way)
{
	if (!way)
		return ktrace_comm_first(t, pid);
	return t->bits ? hash_32(pid, t->bits) : 0;
}
EXPORT_SYMBOL_IF_KUNIT(ktrace_comm_way);

/*
 * The slot to save @pid in: the one of its two that names it, else an
 * empty one, else the one whose pid came first (the first on a tie, so
 * that with one way the most recent pid wins), as saved_cmdlines replaces
 * its entries in turn.  Racy reads: a slot being written is caught by the
 * save's cmpxchg; two saves of one pid at once (a statedump and a switch)
 * may leave it in both slots, each with its name: a lookup finds the
 * first, never another pid's name.
 */
static struct ktrace_comm_slot *ktrace_comm_slot_for(struct ktrace_comm_table *t,
						     pid_t pid)
{
	struct ktrace_comm_slot *a = &t->slots[ktrace_comm_way(t, pid, 0)];
	struct ktrace_comm_slot *b = &t->slots[ktrace_comm_way(t, pid, 1)];
	u32 pa = READ_ONCE(a->pid), pb = READ_ONCE(b->pid);

	if (pa == (u32)pid || a == b)
		return a;
	if (pb == (u32)pid)
		return b;
	if (!pa)
		return a;
	if (!pb)
		return b;
	return (s32)(READ_ONCE(b->stamp) - READ_ONCE(a->stamp)) < 0 ? b : a;
}

/**
 * ktrace_comm_table_save() - save the name of a pid in a table
 * @t: the table
 * @pid: the pid, above 0
 * @comm: its name, truncated to %TASK_COMM_LEN - 1 bytes
 *
 * Any context, NMI included; no lock, no wait.  Called with preemption
 * disabled, so that a slot stays odd only briefly.  A slot being written
 * (by another CPU, or by the context this one interrupted) is left alone
 * and the name counted in @t->missed.  The slot is the pid's own, or an
 * empty one, or the one of its two whose pid came first.
 */
void ktrace_comm_table_save(struct ktrace_comm_table *t, pid_t pid,
			    const char *comm)
{
	struct ktrace_comm_slot *s = ktrace_comm_slot_for(t, pid);
	union ktrace_comm_name n;
	unsigned int i;
	int seq;

	strscpy_pad(n.c, comm);
	seq = atomic_read(&s->seq);
	/*
	 * On success the cmpxchg is fully ordered: the odd count is visible
	 * before the stores below.  Pairs with the smp_rmb() in
	 * ktrace_comm_read().
	 */
	if ((seq & 1) || !atomic_try_cmpxchg(&s->seq, &seq, seq + 1)) {
		atomic_long_inc(&t->missed);
		return;
	}
	if (READ_ONCE(s->pid) != pid) {
		WRITE_ONCE(s->stamp, (u32)(jiffies / HZ));
		WRITE_ONCE(s->pid, pid);
	}
	for (i = 0; i < ARRAY_SIZE(n.w); i++)
		WRITE_ONCE(s->comm.w[i], n.w[i]);
	/*
	 * The slot is complete before its count is even again.  Pairs with
	 * the atomic_read_acquire() in ktrace_comm_read().
	 */
	atomic_set_release(&s->seq, seq + 2);
}
EXPORT_SYMBOL_IF_KUNIT(ktrace_comm_table_save);

/*
 * Copy a slot: false if a writer kept it busy.  Readers are in process
 * context (a debugfs read, the ascii pipe): they may retry.
 */
static bool ktrace_comm_read(struct ktrace_comm_slot *s, pid_t *pid,
			     union ktrace_comm_name *n)
{
	unsigned int i, tries;
	int seq;

	for (tries = 0; tries < 4; tries++) {
		/* Pairs with the atomic_set_release() in ktrace_comm_table_save(). */
		seq = atomic_read_acquire(&s->seq);
		if (seq & 1) {
			cpu_relax();
			continue;
		}
		*pid = READ_ONCE(s->pid);
		for (i = 0; i < ARRAY_SIZE(n->w); i++)
			n->w[i] = READ_ONCE(s->comm.w[i]);
		/*
		 * The copy is done before the count is read again.  Pairs with
		 * the fully ordered cmpxchg in ktrace_comm_table_save().
		 */
		smp_rmb();
		if (atomic_read(&s->seq) == seq) {
			n->c[TASK_COMM_LEN - 1] = '\0';
			return true;
		}
	}
	return false;
}

/**
 * ktrace_comm_table_get() - the name in one slot of a table
 * @t: the table
 * @slot: the slot, below @t->nr
 * @pid: set to the pid it names
 * @comm: %TASK_COMM_LEN bytes, set to its name
 *
 * Process context.
 *
 * Return: true if the slot names a pid.
 */
bool ktrace_comm_table_get(struct ktrace_comm_table *t, unsigned int slot,
			   pid_t *pid, char *comm)
{
	union ktrace_comm_name n;

	if (slot >= t->nr || !ktrace_comm_read(&t->slots[slot], pid, &n) ||
	    *pid <= 0)
		return false;
	memcpy(comm, n.c, TASK_COMM_LEN);
	return true;
}
EXPORT_SYMBOL_IF_KUNIT(ktrace_comm_table_get);

/**
 * ktrace_comm_table_lookup() - the saved name of a pid
 * @t: the table
 * @pid: the pid
 * @comm: %TASK_COMM_LEN bytes, set to its name
 *
 * Process context.
 *
 * Return: true if @t names @pid.
 */
bool ktrace_comm_table_lookup(struct ktrace_comm_table *t, pid_t pid,
			      char *comm)
{
	unsigned int way;
	pid_t p;

	if (!t->nr || pid <= 0)
		return false;
	/* The slot's own pid is compared: never another pid's name. */
	for (way = 0; way < 2; way++)
		if (ktrace_comm_table_get(t, ktrace_comm_way(t, pid, way), &p, comm) &&
		    p == pid)
			return true;
	return false;
}
EXPORT_SYMBOL_IF_KUNIT(ktrace_comm_table_lookup);

/**
 * ktrace_comm_table_reset() - forget every name
 * @t: the table, with no save under way
 */
void ktrace_comm_table_reset(struct ktrace_comm_table *t)
{
	unsigned int i;

	for (i = 0; i < t->nr; i++)
		WRITE_ONCE(t->slots[i].pid, 0);
}
EXPORT_SYMBOL_IF_KUNIT(ktrace_comm_table_reset);

/**
 * ktrace_comm_save() - save the name of a pid in the trace's saved comms
 * @pid: the pid
 * @comm: its name, up to %TASK_COMM_LEN bytes with the NUL
 *
 * Any context, NMI included where the architecture has an NMI-safe
 * cmpxchg (elsewhere a save from NMI is refused, as the channels refuse NMI
 * writers); no lock.  Only while tracing, so that a trace frozen by a
 * trigger keeps the names of its own history.
 */
void ktrace_comm_save(pid_t pid, const char *comm)
{
	if (!ktrace_comms.nr || pid <= 0)
		return;
	if (!IS_ENABLED(CONFIG_ARCH_HAVE_NMI_SAFE_CMPXCHG) && in_nmi())
		return;
	/*
	 * As the writers of the channels: the gate is read with preemption
	 * disabled, so that once a stop has closed it and waited for an RCU
	 * grace period, no save is under way (ktrace_comms_reset() relies on
	 * it).
	 */
	preempt_disable_notrace();
	if (READ_ONCE(ktrace_tracing))
		ktrace_comm_table_save(&ktrace_comms, pid, comm);
	preempt_enable_notrace();
}

/*
 * ktrace_comm_save_task() when the pid's first slot does not hold its
 * name: both ways, then a save.
 */
static noinline void ktrace_comm_save_task_slow(const struct task_struct *p)
{
	struct ktrace_comm_slot *s;
	union ktrace_comm_name n;
	unsigned int i, way;

	/*
	 * Racy against a rename, as the tracepoints' copies of comm are;
	 * __set_task_comm() pads with NULs, so a name compares whole.
	 */
	memcpy(n.c, p->comm, sizeof(n.c));
	n.c[TASK_COMM_LEN - 1] = '\0';
	for (way = 0; way < 2; way++) {
		s = &ktrace_comms.slots[ktrace_comm_way(&ktrace_comms, p->pid, way)];
		if ((atomic_read(&s->seq) & 1) || READ_ONCE(s->pid) != p->pid)
			continue;
		for (i = 0; i < ARRAY_SIZE(n.w); i++)
			if (READ_ONCE(s->comm.w[i]) != n.w[i])
				break;
		if (i == ARRAY_SIZE(n.w))
			return;
		break;
	}
	ktrace_comm_save(p->pid, n.c);
}

/**
 * ktrace_comm_save_task() - save a task's name unless its slot holds it
 * @p: the task, current or about to be
 *
 * For sched:switch's probe, on the hottest write path: the common case, a
 * task switched in again that was named before in its first slot, costs
 * a read of its comm and of that slot (32 bytes) and a compare of the pid
 * and the name's words (two on 64-bit), inline, and writes nothing.  Otherwise both slots are
 * looked up, out of line, and one is written only when neither names the
 * pid (the task's first switch of the trace, or its name evicted since)
 * or the name changed (a rename, an exec).  A slot being written is not
 * waited for: the task is saved, or counted as missed, as
 * ktrace_comm_save() does.  Preemption disabled, as in the probe.
 */
void ktrace_comm_save_task(const struct task_struct *p)
{
	const struct ktrace_comm_slot *s;
	unsigned long w[ARRAY_SIZE(s->comm.w)];
	pid_t pid = p->pid;
	unsigned int i;

	if (!ktrace_comms.nr || pid <= 0)
		return;
	/*
	 * The common case inline: the pid's first slot names it, with the
	 * task's name, compared word by word from the task (its last byte
	 * is always the NUL, as in the slot).  Anything else, a busy slot
	 * included, takes the whole lookup of both ways, out of line.
	 *
	 * The count is read once and not checked again, unlike a reader's
	 * copy (ktrace_comm_read()): this only decides whether to save.  If
	 * a writer fills the slot meanwhile, for this pid or evicting it, a
	 * match read from the old contents, or from a mix of the old and
	 * the new, means the slot named the task as the writer started, so
	 * returning is returning before that writer ran; a mismatch saves.
	 * Either way the slot ends as the last writer left it, as if this
	 * check had come first.
	 */
	s = &ktrace_comms.slots[ktrace_comm_first(&ktrace_comms, pid)];
	memcpy(w, p->comm, sizeof(w));
	if ((atomic_read(&s->seq) & 1) || READ_ONCE(s->pid) != pid)
		goto slow;
	for (i = 0; i < ARRAY_SIZE(w); i++)
		if (READ_ONCE(s->comm.w[i]) != w[i])
			goto slow;
	return;
slow:
	ktrace_comm_save_task_slow(p);
}

/**
 * ktrace_comm_lookup() - the saved name of a pid
 * @pid: the pid
 * @comm: %TASK_COMM_LEN bytes, set to its name
 *
 * Process context.
 *
 * Return: true if the saved comms name @pid.
 */
bool ktrace_comm_lookup(pid_t pid, char *comm)
{
	return ktrace_comm_table_lookup(&ktrace_comms, pid, comm);
}

/**
 * ktrace_comm_get() - the name in one slot of the saved comms
 * @slot: the slot, 0 to ktrace_comms_slots() - 1
 * @pid: set to the pid it names
 * @comm: %TASK_COMM_LEN bytes, set to its name
 *
 * For the comms file, which lists the slots in order.  Process context.
 *
 * Return: true if the slot names a pid.
 */
bool ktrace_comm_get(unsigned int slot, pid_t *pid, char *comm)
{
	return ktrace_comm_table_get(&ktrace_comms, slot, pid, comm);
}

/**
 * ktrace_comms_slots() - the size of the saved comms
 *
 * Return: its number of slots, 0 if it could not be allocated.
 */
unsigned int ktrace_comms_slots(void)
{
	return ktrace_comms.nr;
}

/**
 * ktrace_comms_missed() - names not saved
 *
 * Return: how many saves found their slot being written, since boot.
 */
unsigned long ktrace_comms_missed(void)
{
	return atomic_long_read(&ktrace_comms.missed);
}

/**
 * ktrace_comms_reset() - forget every saved name
 *
 * At a start, with ktrace_mutex held and the writers stopped: those that
 * saw the gate open finished within the RCU grace period of the last stop,
 * and the others do not save.
 */
void ktrace_comms_reset(void)
{
	lockdep_assert_held(&ktrace_mutex);
	ktrace_comm_table_reset(&ktrace_comms);
}

static int __init ktrace_comms_init(void)
{
	/* Without it, the names are those the channels could hold. */
	return ktrace_comm_table_init(&ktrace_comms,
				      roundup_pow_of_two(clamp(pid_max, 1, KTRACE_COMMS_MAX)));
}

/* Before the probes and the statedump (device_initcall) can save. */
fs_initcall(ktrace_comms_init);
