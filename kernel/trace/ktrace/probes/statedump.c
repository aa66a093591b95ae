// SPDX-License-Identifier: GPL-2.0
/*
 * ktrace statedump: the state of the system at every start, on the
 * medium-rate channel, so that a trace names what its events refer to
 * even when they started long before it: every task (pid, tgid, parent,
 * comm, state), its open files and memory maps, the IRQ handlers, block
 * devices, network interfaces and loaded modules; then one event from a
 * work item on every CPU (that CPU's buffer has seen the statedump), and
 * statedump:end with its duration, the longest time it held a lock and
 * the records the channel refused.  The name of every task also goes to
 * the saved comms (comm.c), which outlive a full medium-rate channel.
 *
 * It runs after ktrace_mutex is released, one statedump at a time (a
 * second start's waits for the first), so that a stop, the stats or a
 * trigger never wait behind it; it stops between two steps (a thread
 * group, a file, a batch of maps, an IRQ) once its trace is stopped,
 * frozen or replaced.
 *
 * It must never stall the system it describes.  The task list is walked
 * by pid under RCU, one thread group at a time, with a reference on the
 * group leader while its files and maps are read, never under
 * tasklist_lock.  Each lock is held for a bounded piece of work: an IRQ
 * descriptor's lock for its actions, a mm's mmap_lock (tried, never
 * waited for) for at most KT_MAPS_PER_LOCK maps, then dropped with a
 * chance to reschedule.  No
 * allocation happens inside a lock; the one path buffer is allocated
 * first.  Nothing sleeps under a spinlock or in an RCU read section.
 */
#define pr_fmt(fmt) "ktrace: " fmt

#include <linux/blkdev.h>
#include <linux/device.h>
#include <linux/fdtable.h>
#include <linux/file.h>
#include <linux/init.h>
#include <linux/interrupt.h>
#include <linux/irq.h>
#include <linux/irqnr.h>
#include <linux/mm.h>
#include <linux/delay.h>
#include <linux/module.h>
#include <linux/netdevice.h>
#include <linux/notifier.h>
#include <linux/pid_namespace.h>
#include <linux/sched/clock.h>
#include <linux/sched/mm.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

#include "records.h"

/* Maps read per hold of a mm's mmap_lock. */
#define KT_MAPS_PER_LOCK	64
/* Tries, about 1 ms apart, to take an mm's lock before its maps are skipped. */
#define KT_MMAP_TRIES		100

/* A statedump event whose fields are the array FLDS_fields. */
#define KT_SD_EVENT(var, nm, flds)					\
static struct ktrace_event var = {					\
	.group = "statedump",						\
	.name = nm,							\
	.channel = KTRACE_CHANNEL_MEDIUM,				\
	.kind = KTRACE_EVENT_EXPANDED,					\
	.fields = flds##_fields,					\
	.nr_fields = ARRAY_SIZE(flds##_fields),				\
}

static const struct ktrace_field kt_cpu_fields[] = {
	KT_FIELD("cpu", 0, 32, KTRACE_DISPLAY_DEC),
};

KT_SD_EVENT(kt_sd_ev_task, "task", kt_sd_task);
KT_SD_EVENT(kt_sd_ev_fd, "fd", kt_sd_fd);
KT_SD_EVENT(kt_sd_ev_map, "map", kt_sd_map);
KT_SD_EVENT(kt_sd_ev_irq, "irq", kt_sd_irq);
KT_SD_EVENT(kt_sd_ev_blockdev, "blockdev", kt_sd_blockdev);
KT_SD_EVENT(kt_sd_ev_netdev, "netdev", kt_sd_netdev);
KT_SD_EVENT(kt_sd_ev_module, "module", kt_sd_module);
KT_SD_EVENT(kt_sd_ev_end, "end", kt_sd_end);

static struct ktrace_event kt_sd_ev_cpu = {
	.group = "statedump",
	.name = "cpu",
	.channel = KTRACE_CHANNEL_MEDIUM,
	.kind = KTRACE_EVENT_COMPACT,
	.fields = kt_cpu_fields,
	.nr_fields = ARRAY_SIZE(kt_cpu_fields),
};

/* One statedump's state: its trace, its path buffer and what it measured. */
struct kt_sd {
	unsigned long gen;
	char *buf;
	u64 longest_hold;
	u32 tasks;
	u32 fds;
	u32 maps;
	u32 dropped;
};

/* One statedump at a time; taken without ktrace_mutex. */
static DEFINE_MUTEX(kt_sd_mutex);
/* Records the last statedump could not write; for the stats file. */
static unsigned long kt_sd_last_dropped;

/**
 * ktrace_statedump_dropped() - what the last statedump lost
 *
 * Return: the records of the last (or the running) statedump that the
 * medium-rate channel refused, full.
 */
unsigned long ktrace_statedump_dropped(void)
{
	return READ_ONCE(kt_sd_last_dropped);
}

/* Its trace was stopped, frozen or started again: stop here. */
static bool kt_sd_stopped(const struct kt_sd *sd)
{
	return !ktrace_start_current(sd->gen);
}

static bool kt_on(const struct ktrace_event *ev)
{
	return READ_ONCE(ev->enabled);
}

/* A section of the statedump runs if its event is on and its trace goes on. */
static bool kt_sd_on(const struct kt_sd *sd, const struct ktrace_event *ev)
{
	return kt_on(ev) && !kt_sd_stopped(sd);
}

/* A lock taken at @t0 is released now. */
static void kt_held(struct kt_sd *sd, u64 t0)
{
	sd->longest_hold = max(sd->longest_hold, local_clock() - t0);
}

/*
 * Write a record, counting it if the channel refuses it (full); a closed
 * gate (the trace stopped or frozen) is no loss.
 */
static void kt_write2(struct kt_sd *sd, const struct ktrace_event *ev,
		      const void *head, u16 hlen, const void *data, u16 len)
{
	int ret = ktrace_write_expanded2(ev->channel, ev->major, ev->minor,
					 head, hlen, data, len);

	if (ret && ret != -EAGAIN) {
		sd->dropped++;
		WRITE_ONCE(kt_sd_last_dropped, sd->dropped);
	}
}

static void kt_write_str(struct kt_sd *sd, const struct ktrace_event *ev,
			 const void *head, u16 hlen, const char *str)
{
	kt_write2(sd, ev, head, hlen, str, strnlen(str, PATH_MAX));
}

static void kt_write_path(struct kt_sd *sd, const struct ktrace_event *ev,
			  const void *head, u16 hlen, const struct path *path)
{
	char *p = d_path(path, sd->buf, PATH_MAX);

	kt_write_str(sd, ev, head, hlen, IS_ERR(p) ? "?" : p);
}

/* Under RCU: one thread. */
static void kt_dump_task(struct kt_sd *sd, struct task_struct *t)
{
	struct kt_sd_task e;

	kt_sd_task_fill(&e, t->pid, t->tgid,
			task_tgid_nr(rcu_dereference(t->real_parent)),
			task_state_index(t), t->flags & PF_KTHREAD, t->comm);
	ktrace_comm_save(e.pid, e.comm);
	kt_write2(sd, &kt_sd_ev_task, &e, sizeof(e), NULL, 0);
	sd->tasks++;
}

/* The open files of a thread group, each with a reference while named. */
static void kt_dump_fds(struct kt_sd *sd, struct task_struct *p)
{
	struct kt_sd_fd e;
	struct file *f;
	unsigned int fd;

	for (fd = 0; !kt_sd_stopped(sd); fd++) {
		rcu_read_lock();
		f = task_lookup_next_fdget_rcu(p, &fd);
		rcu_read_unlock();
		if (!f)
			break;
		kt_sd_fd_fill(&e, p->tgid, fd);
		kt_write_path(sd, &kt_sd_ev_fd, &e, sizeof(e), &f->f_path);
		fput(f);
		sd->fds++;
		cond_resched();
	}
}

/* What /proc/PID/maps shows for a map without a file. */
static const char *kt_map_name(struct vm_area_struct *vma)
{
	const char *name = NULL;

	if (vma->vm_ops && vma->vm_ops->name)
		name = vma->vm_ops->name(vma);
	if (!name)
		name = arch_vma_name(vma);
	if (name)
		return name;
	if (vma_is_initial_heap(vma))
		return "[heap]";
	if (vma_is_initial_stack(vma))
		return "[stack]";
	return "";
}

/*
 * The memory maps of a thread group, KT_MAPS_PER_LOCK at a time: the
 * mmap_lock is dropped between batches and the walk resumes at the end
 * of the last map written, so that a huge process neither holds it long
 * nor keeps this CPU.
 */
static void kt_dump_maps(struct kt_sd *sd, struct task_struct *p)
{
	struct mm_struct *mm = get_task_mm(p);
	struct kt_sd_map e;
	struct vm_area_struct *vma;
	unsigned long addr = 0;
	unsigned int tries;

	if (!mm)
		return;
	do {
		struct vma_iterator vmi;
		unsigned int n = 0;
		u64 t0;

		/*
		 * Not mmap_read_lock(): a page fault stalled by user space (a
		 * FUSE daemon) can hold it indefinitely, and a statedump
		 * blocked there could not be stopped.  An mm that stays
		 * locked is skipped.
		 */
		for (tries = 0; !mmap_read_trylock(mm); tries++) {
			if (tries == KT_MMAP_TRIES || kt_sd_stopped(sd))
				goto out;
			usleep_range(1000, 2000);
		}
		t0 = local_clock();
		vma_iter_init(&vmi, mm, addr);
		for_each_vma(vmi, vma) {
			kt_sd_map_fill(&e, p->tgid, vma->vm_start, vma->vm_end,
				       (u64)vma->vm_pgoff << PAGE_SHIFT,
				       vma->vm_flags);
			if (vma->vm_file)
				kt_write_path(sd, &kt_sd_ev_map, &e, sizeof(e),
					      file_user_path(vma->vm_file));
			else
				kt_write_str(sd, &kt_sd_ev_map, &e, sizeof(e),
					     kt_map_name(vma));
			sd->maps++;
			addr = vma->vm_end;
			if (++n == KT_MAPS_PER_LOCK)
				break;
		}
		kt_held(sd, t0);
		mmap_read_unlock(mm);
		cond_resched();
	} while (vma && !kt_sd_stopped(sd));
out:
	mmput(mm);
}

/*
 * Every task, by thread group in pid order as /proc lists them: the
 * group's threads under RCU, then with a reference on its leader, its
 * files and maps, which may sleep.
 */
static void kt_dump_tasks(struct kt_sd *sd)
{
	struct task_struct *p, *t;
	struct pid *pid;
	int nr = 1;
	u64 t0;

	while (!kt_sd_stopped(sd)) {
		rcu_read_lock();
		t0 = local_clock();
		pid = find_ge_pid(nr, &init_pid_ns);
		p = pid ? pid_task(pid, PIDTYPE_TGID) : NULL;
		if (pid)
			nr = pid_nr(pid) + 1;
		if (p) {
			get_task_struct(p);
			if (kt_on(&kt_sd_ev_task))
				for_each_thread(p, t)
					kt_dump_task(sd, t);
		}
		kt_held(sd, t0);
		rcu_read_unlock();
		if (!pid)
			break;
		if (!p)
			continue;
		if (kt_on(&kt_sd_ev_fd))
			kt_dump_fds(sd, p);
		if (kt_on(&kt_sd_ev_map))
			kt_dump_maps(sd, p);
		put_task_struct(p);
		cond_resched();
	}
}

/* Every action of every IRQ, under its descriptor's lock. */
static void kt_dump_irqs(struct kt_sd *sd)
{
	struct kt_sd_irq e;
	struct irqaction *action;
	struct irq_desc *desc;
	unsigned long flags;
	unsigned int irq;
	u64 t0;

	for (irq = 0; irq < nr_irqs && !kt_sd_stopped(sd); irq++) {
		rcu_read_lock();
		desc = irq_to_desc(irq);
		if (desc) {
			raw_spin_lock_irqsave(&desc->lock, flags);
			t0 = local_clock();
			for (action = desc->action; action; action = action->next) {
				kt_sd_irq_fill(&e, irq, action->handler);
				kt_write_str(sd, &kt_sd_ev_irq, &e, sizeof(e),
					     action->name ? action->name : "");
			}
			kt_held(sd, t0);
			raw_spin_unlock_irqrestore(&desc->lock, flags);
		}
		rcu_read_unlock();
	}
}

#ifdef CONFIG_BLOCK
/* Disks and partitions: dev_t to name, as /sys/class/block. */
static int kt_dump_bdev(struct device *dev, void *data)
{
	struct kt_sd_blockdev e = {
		.dev = dev->devt,
		.size_mib = min_t(u64, bdev_nr_sectors(dev_to_bdev(dev)) >> 11, U32_MAX),
	};
	struct kt_sd *sd = data;

	if (kt_sd_stopped(sd))
		return 1;
	kt_write_str(sd, &kt_sd_ev_blockdev, &e, sizeof(e), dev_name(dev));
	return 0;
}
#endif

#ifdef CONFIG_NET
/* The interfaces of the initial network namespace. */
static void kt_dump_netdevs(struct kt_sd *sd)
{
	struct net_device *dev;
	struct kt_sd_netdev e;

	rcu_read_lock();
	for_each_netdev_rcu(&init_net, dev) {
		e.ifindex = dev->ifindex;
		kt_write_str(sd, &kt_sd_ev_netdev, &e, sizeof(e), dev->name);
	}
	rcu_read_unlock();
}
#endif

#ifdef CONFIG_MODULES
/*
 * Modules: the module list is private to kernel/module/, so ktrace keeps
 * its own from a module notifier registered at boot, before any module
 * can load.
 */
struct kt_module {
	struct list_head list;
	u64 base;
	u32 size;
	char name[MODULE_NAME_LEN];
};

/* Protects kt_modules. */
static DEFINE_MUTEX(kt_modules_lock);
static LIST_HEAD(kt_modules);

static int kt_module_notify(struct notifier_block *nb, unsigned long state,
			    void *data)
{
	struct module *mod = data;
	struct kt_module *m, *tmp;

	if (state == MODULE_STATE_COMING) {
		m = kzalloc(sizeof(*m), GFP_KERNEL);
		if (!m)
			return NOTIFY_DONE;
		m->base = (unsigned long)mod->mem[MOD_TEXT].base;
		m->size = mod->mem[MOD_TEXT].size;
		strscpy(m->name, mod->name);
		mutex_lock(&kt_modules_lock);
		list_add_tail(&m->list, &kt_modules);
		mutex_unlock(&kt_modules_lock);
	} else if (state == MODULE_STATE_GOING) {
		mutex_lock(&kt_modules_lock);
		list_for_each_entry_safe(m, tmp, &kt_modules, list) {
			if (!strcmp(m->name, mod->name)) {
				list_del(&m->list);
				kfree(m);
			}
		}
		mutex_unlock(&kt_modules_lock);
	}
	return NOTIFY_DONE;
}

static struct notifier_block kt_module_nb = {
	.notifier_call = kt_module_notify,
};

static void kt_dump_modules(struct kt_sd *sd)
{
	struct kt_sd_module e;
	struct kt_module *m;

	mutex_lock(&kt_modules_lock);
	list_for_each_entry(m, &kt_modules, list) {
		kt_sd_module_fill(&e, m->base, m->size);
		kt_write_str(sd, &kt_sd_ev_module, &e, sizeof(e), m->name);
	}
	mutex_unlock(&kt_modules_lock);
}
#endif /* CONFIG_MODULES */

static void kt_sd_cpu(struct work_struct *work)
{
	ktrace_event_write_compact(&kt_sd_ev_cpu, raw_smp_processor_id());
}

/*
 * After every start, without ktrace_mutex: the statedump of the trace of
 * generation @gen, unless that trace already stopped.
 */
static int kt_statedump(struct notifier_block *nb, unsigned long gen,
			void *data)
{
	struct kt_sd sd = { .gen = gen };
	struct kt_sd_end end;
	u32 cpus = 0;
	u64 start;

	sd.buf = kmalloc(PATH_MAX, GFP_KERNEL);
	if (!sd.buf)
		return NOTIFY_DONE;
	mutex_lock(&kt_sd_mutex);
	start = local_clock();
	WRITE_ONCE(kt_sd_last_dropped, 0);
	if (kt_on(&kt_sd_ev_task) || kt_on(&kt_sd_ev_fd) || kt_on(&kt_sd_ev_map))
		kt_dump_tasks(&sd);
	/* Every section, and the end, only while its trace goes on. */
	if (kt_sd_on(&sd, &kt_sd_ev_irq))
		kt_dump_irqs(&sd);
#ifdef CONFIG_BLOCK
	if (kt_sd_on(&sd, &kt_sd_ev_blockdev))
		class_for_each_device(&block_class, NULL, &sd, kt_dump_bdev);
#endif
#ifdef CONFIG_NET
	if (kt_sd_on(&sd, &kt_sd_ev_netdev))
		kt_dump_netdevs(&sd);
#endif
#ifdef CONFIG_MODULES
	if (kt_sd_on(&sd, &kt_sd_ev_module))
		kt_dump_modules(&sd);
#endif
	if (kt_sd_on(&sd, &kt_sd_ev_cpu) && !schedule_on_each_cpu(kt_sd_cpu))
		cpus = num_online_cpus();
	if (kt_sd_on(&sd, &kt_sd_ev_end)) {
		kt_sd_end_fill(&end, local_clock() - start, sd.longest_hold,
			       sd.tasks, sd.fds, sd.maps, cpus, sd.dropped);
		kt_write2(&sd, &kt_sd_ev_end, &end, sizeof(end), NULL, 0);
	}
	mutex_unlock(&kt_sd_mutex);
	kfree(sd.buf);
	return NOTIFY_DONE;
}

static struct notifier_block kt_statedump_nb = {
	.notifier_call = kt_statedump,
};

static struct ktrace_event *const kt_sd_events[] __initconst = {
	&kt_sd_ev_task, &kt_sd_ev_fd, &kt_sd_ev_map, &kt_sd_ev_irq,
	&kt_sd_ev_blockdev, &kt_sd_ev_netdev, &kt_sd_ev_module,
	&kt_sd_ev_cpu, &kt_sd_ev_end,
};

static int __init ktrace_statedump_init(void)
{
	unsigned int i;
	int ret;

	for (i = 0; i < ARRAY_SIZE(kt_sd_events); i++) {
		ret = ktrace_event_register(kt_sd_events[i]);
		if (ret)
			return ret;
	}
#ifdef CONFIG_MODULES
	ret = register_module_notifier(&kt_module_nb);
	if (ret)
		return ret;
#endif
	return ktrace_register_start_notifier(&kt_statedump_nb);
}
device_initcall(ktrace_statedump_init);
