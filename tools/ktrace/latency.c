// SPDX-License-Identifier: GPL-2.0
/*
 * tools/ktrace: ktrace latency, the pairs of events of a trace timed as the
 * kernel's latency triggers time them (kernel/trace/ktrace/latency.c):
 *
 *   kind     begins                       ends                      key
 *   block    block:rq_issue               block:rq_complete or      the request
 *                                         block:rq_status
 *   syscall  syscalls:entry               syscalls:exit             pid
 *   wakeup   sched:wakeup, wakeup_new     sched:switch to it        pid
 *   irq      irq:hardirq_entry            irq:hardirq_exit          CPU
 *   irqsoff  each irq:irqsoff is one period (its duration_ns)
 *   timer    the interval between two irq:timer_expire of one timer
 *
 * As the kernel: a request issued again (requeued) keeps its first issue;
 * a system call entered again restarts (the exit of the first was not
 * seen); sched:exit forgets the system call of its pid (exit() never
 * returns); an execve() by a thread other than the leader returns under
 * the leader's pid (sched:exec pid != old_pid), and its pair follows it;
 * the first wakeup counts, and a wakeup of a task running on its CPU
 * begins nothing; hardirq handlers do not nest, so an entry restarts its
 * CPU's pair.  Pairs never span two traces: every key has its trace.
 *
 * The trace records a timer by its function only (irq:timer_expire has no
 * timer address): a timer is a function, its kind (timer_list, hrtimer)
 * and the CPU it expired on, so that the per-CPU timers (the tick) are
 * told apart.  Its jitter is each interval less the median interval of
 * that timer (the lower median), found by a first pass over the trace.
 * Only periodic timers have a jitter: a timer is judged periodic when it
 * has at least TIMER_MIN_IV intervals and at least 3/4 of them are within
 * 1/8 of its median (a function that arms timers of many periods, such as
 * delayed_work_timer_fn, is not).  Every interval of a periodic timer is
 * judged, however long: a timer held back for several periods (interrupts
 * off) is what the analysis is for.
 *
 * Pairs in flight are kept in a hash table, seeded per run (the keys come
 * from the file); finished pairs keep only their duration (8 bytes) and,
 * for the longest N, their context, in a heap.
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include <linux/kernel.h>		/* tools/include: ARRAY_SIZE() */

#include "format.h"

#define TOP_MAX		1000000
#define HIST_WIDTH	40

enum lat_kind { LAT_BLOCK, LAT_SYSCALL, LAT_WAKEUP, LAT_IRQ, LAT_IRQSOFF, LAT_TIMER, LAT_NR };

/* What each kind needs a record of, to have anything to measure. */
static const char *const needs[LAT_NR][3] = {
	[LAT_BLOCK] = { "block:rq_issue", "block:rq_complete", NULL },
	[LAT_SYSCALL] = { "syscalls:entry", "syscalls:exit", NULL },
	[LAT_WAKEUP] = { "sched:wakeup", "sched:switch", NULL },
	[LAT_IRQ] = { "irq:hardirq_entry", "irq:hardirq_exit", NULL },
	[LAT_IRQSOFF] = { "irq:irqsoff", NULL },
	[LAT_TIMER] = { "irq:timer_expire", NULL },
};

static const struct {
	const char *name, *what, *need;
	bool has_pid;
} kinds[LAT_NR] = {
	[LAT_BLOCK] = { "block", "block:rq_issue -> rq_complete|rq_status by request",
			"block:rq_issue", true },
	[LAT_SYSCALL] = { "syscall", "syscalls:entry -> syscalls:exit by pid",
			  "syscalls:entry", true },
	[LAT_WAKEUP] = { "wakeup", "sched:wakeup|wakeup_new -> sched:switch by pid",
			 "sched:wakeup", true },
	[LAT_IRQ] = { "irq", "irq:hardirq_entry -> irq:hardirq_exit by cpu",
		      "irq:hardirq_entry", false },
	[LAT_IRQSOFF] = { "irqsoff", "irq:irqsoff periods", "irq:irqsoff", false },
	[LAT_TIMER] = { "timer",
			"irq:timer_expire intervals of periodic timers, jitter from each one's median",
			"irq:timer_expire", false },
};

/* What an event of the metadata is to the analysis. */
enum role {
	R_BIO, R_ISSUE, R_COMPLETE, R_STATUS, R_ENTRY, R_EXIT, R_PEXIT, R_EXEC,
	R_WAKEUP, R_SWITCH, R_HENTRY, R_HEXIT, R_SDIRQ, R_IRQSOFF, R_TIMER, R_SYS_SWITCH,
};

static const struct role_desc {
	enum role role;
	enum lat_kind kind;
	const char *group, *name, *f1, *f2;
	bool f2_opt;
} role_descs[] = {
	{ R_BIO, LAT_BLOCK, "block", "bio_queue", NULL, NULL, false },
	{ R_BIO, LAT_BLOCK, "block", "bio_split", NULL, NULL, false },
	{ R_ISSUE, LAT_BLOCK, "block", "rq_issue", "rq", NULL, false },
	{ R_COMPLETE, LAT_BLOCK, "block", "rq_complete", "rq", NULL, false },
	{ R_STATUS, LAT_BLOCK, "block", "rq_status", "rq", NULL, false },
	{ R_ENTRY, LAT_SYSCALL, "syscalls", "entry", "nr", NULL, false },
	{ R_EXIT, LAT_SYSCALL, "syscalls", "exit", NULL, NULL, false },
	{ R_PEXIT, LAT_SYSCALL, "sched", "exit", "pid", NULL, false },
	{ R_EXEC, LAT_SYSCALL, "sched", "exec", "pid", "old_pid", false },
	{ R_SYS_SWITCH, LAT_SYSCALL, "sched", "switch", NULL, NULL, false },
	{ R_WAKEUP, LAT_WAKEUP, "sched", "wakeup", "pid", "cpu", true },
	{ R_WAKEUP, LAT_WAKEUP, "sched", "wakeup_new", "pid", "cpu", true },
	{ R_SWITCH, LAT_WAKEUP, "sched", "switch", "next_pid", NULL, false },
	{ R_HENTRY, LAT_IRQ, "irq", "hardirq_entry", "irq", NULL, false },
	{ R_HEXIT, LAT_IRQ, "irq", "hardirq_exit", NULL, NULL, false },
	{ R_SDIRQ, LAT_IRQ, "statedump", "irq", "irq", "name", false },
	{ R_IRQSOFF, LAT_IRQSOFF, "irq", "irqsoff", "caller", "duration_ns", false },
	{ R_IRQSOFF, LAT_TIMER, "irq", "irqsoff", "caller", NULL, false },
	{ R_TIMER, LAT_TIMER, "irq", "timer_expire", "function", "kind", true },
};

/* An event of one trace with a role, its fields found once. */
struct lat_ev {
	const struct kt_event *ev;
	enum role role;
	int f1, f2;			/* field indexes, -1: none */
};

/* A pair: its time, where it began, and what it is about. */
struct lat_ctx {
	int64_t value;			/* ns: the duration (timer: the jitter) */
	uint64_t start;			/* CLOCK_MONOTONIC ns of the trace */
	int64_t real;			/* CLOCK_REALTIME of start, to order traces */
	unsigned int tr, cpu;
	int pid, waker;
	uint32_t nr;			/* syscall, IRQ; block: the key */
	bool sat;			/* syscall: nr saturated (kt_field_sysnr()) */
	bool known;			/* block: described; timer: irqsoff caller */
	uint64_t a, b, c, d;		/* per kind, see put_ctx() */
	const struct kt_field *op;	/* block: the op field, for its names */
	char comm[17];
};

/* A pair in flight (or a timer), by key: the trace, then two numbers. */
struct lat_slot {
	bool used;
	unsigned int tr;
	uint64_t k1, k2;
	struct lat_ctx c;
	size_t series;			/* timer: its intervals */
};

struct lat_map {
	struct lat_slot *slots;
	size_t nr_slots, used;
};

/* The task that queued a bio, by the address of its description. */
struct pid_slot {
	uint64_t k;
	int pid;
	bool used;
};

struct pid_map {
	struct pid_slot *slots;
	size_t nr_slots, used;
};

struct irq_name {
	uint32_t irq;
	uint32_t seq;			/* the order read: the first names the IRQ */
	char name[48];
};

/* What the analysis keeps per trace. */
struct lat_trace {
	struct lat_ev *evs;
	unsigned int nr_evs;
	uint64_t last_ns;
	bool any;
	int *curr;			/* wakeup: the task running per CPU, -1: unknown */
	uint64_t *off_ns, *off_caller;	/* timer: the last irqsoff per CPU */
	struct irq_name *irqs;
	unsigned int nr_irqs, irqs_size;
	/*
	 * syscall: after a thread's execve() (sched:exec, on the medium
	 * channel), the high channel's records on that CPU carry the old pid
	 * until the next sched:switch; the pair moved to the new one.
	 */
	int *alias_from, *alias_to;
};

/* The intervals of one timer, their median, and whether it is periodic. */
struct series {
	int64_t *iv;
	size_t n, size;
	int64_t median;
	bool periodic;
};

/* The fewest intervals of a timer judged periodic (see the top). */
#define TIMER_MIN_IV	3

struct lat {
	enum lat_kind kind;
	struct kt_set *set;
	struct lat_trace *trs;
	struct lat_map open;
	struct pid_map bios;
	uint64_t seed;
	/* Options. */
	unsigned long top;
	int pid;
	bool hist, have_pid;
	int64_t min;
	/* Results. */
	int64_t *values;
	size_t nr_values, values_size;
	struct lat_ctx *heap;		/* the longest @top, a min-heap */
	size_t nr_heap;
	struct series *series;
	size_t nr_series, series_size;
	bool pass2;			/* timer: intervals known */
	size_t periodic, skipped;	/* timer: periodic timers, intervals not judged */
	bool nomem;
	FILE *out;
};

/* ---- tables ---------------------------------------------------------- */

static uint64_t mix(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	return x ^ (x >> 33);
}

static size_t lat_home(const struct lat *l, unsigned int tr, uint64_t k1, uint64_t k2)
{
	return mix(mix(k1 ^ l->seed) ^ k2 ^ (uint64_t)tr << 48) & (l->open.nr_slots - 1);
}

static struct lat_slot *lat_find(struct lat *l, unsigned int tr, uint64_t k1, uint64_t k2)
{
	struct lat_map *m = &l->open;
	size_t i;

	if (!m->nr_slots)
		return NULL;
	for (i = lat_home(l, tr, k1, k2); m->slots[i].used; i = (i + 1) & (m->nr_slots - 1))
		if (m->slots[i].tr == tr && m->slots[i].k1 == k1 && m->slots[i].k2 == k2)
			return &m->slots[i];
	return NULL;
}

static bool lat_grow(struct lat *l)
{
	struct lat_map *m = &l->open, old = *m;
	size_t i, j;

	m->nr_slots = old.nr_slots ? old.nr_slots * 2 : 1024;
	m->slots = calloc(m->nr_slots, sizeof(*m->slots));
	if (!m->slots) {
		*m = old;
		return false;
	}
	for (i = 0; i < old.nr_slots; i++) {
		if (!old.slots[i].used)
			continue;
		j = lat_home(l, old.slots[i].tr, old.slots[i].k1, old.slots[i].k2);
		while (m->slots[j].used)
			j = (j + 1) & (m->nr_slots - 1);
		m->slots[j] = old.slots[i];
	}
	free(old.slots);
	return true;
}

/* A new entry of the key (not in the table), zeroed; NULL: out of memory. */
static struct lat_slot *lat_add(struct lat *l, unsigned int tr, uint64_t k1, uint64_t k2)
{
	struct lat_map *m = &l->open;
	size_t i;

	if ((m->used + 1) * 2 > m->nr_slots && !lat_grow(l)) {
		l->nomem = true;
		return NULL;
	}
	for (i = lat_home(l, tr, k1, k2); m->slots[i].used; i = (i + 1) & (m->nr_slots - 1))
		;
	memset(&m->slots[i], 0, sizeof(m->slots[i]));
	m->slots[i].used = true;
	m->slots[i].tr = tr;
	m->slots[i].k1 = k1;
	m->slots[i].k2 = k2;
	m->used++;
	return &m->slots[i];
}

/* Delete @s, moving back the entries after it that its place would hide. */
static void lat_del(struct lat *l, struct lat_slot *s)
{
	struct lat_map *m = &l->open;
	size_t i = s - m->slots, j = i, h, mask = m->nr_slots - 1;

	for (;;) {
		j = (j + 1) & mask;
		if (!m->slots[j].used)
			break;
		h = lat_home(l, m->slots[j].tr, m->slots[j].k1, m->slots[j].k2);
		/* Stays if its home is cyclically in (i, j]. */
		if ((j > i && h > i && h <= j) || (j < i && (h > i || h <= j)))
			continue;
		m->slots[i] = m->slots[j];
		i = j;
	}
	m->slots[i].used = false;
	m->used--;
}

static size_t pid_home(const struct lat *l, uint64_t k)
{
	return mix(k ^ l->seed) & (l->bios.nr_slots - 1);
}

static void pid_put(struct lat *l, uint64_t k, int pid)
{
	struct pid_map *m = &l->bios, old = *m;
	size_t i, j;

	if ((m->used + 1) * 2 > m->nr_slots) {
		m->nr_slots = old.nr_slots ? old.nr_slots * 2 : 1024;
		m->slots = calloc(m->nr_slots, sizeof(*m->slots));
		if (!m->slots) {
			*m = old;
			l->nomem = true;
			return;
		}
		for (i = 0; i < old.nr_slots; i++) {
			if (!old.slots[i].used)
				continue;
			for (j = pid_home(l, old.slots[i].k); m->slots[j].used;
			     j = (j + 1) & (m->nr_slots - 1))
				;
			m->slots[j] = old.slots[i];
		}
		free(old.slots);
	}
	for (i = pid_home(l, k); m->slots[i].used; i = (i + 1) & (m->nr_slots - 1)) {
		if (m->slots[i].k == k) {
			m->slots[i].pid = pid;
			return;
		}
	}
	m->slots[i] = (struct pid_slot){ .k = k, .pid = pid, .used = true };
	m->used++;
}

/* The pid kept for @k, taken out of the table; -1 if none. */
static int pid_take(struct lat *l, uint64_t k)
{
	struct pid_map *m = &l->bios;
	size_t i, j, h, mask = m->nr_slots - 1;
	int pid;

	if (!m->nr_slots)
		return -1;
	for (i = pid_home(l, k); m->slots[i].used && m->slots[i].k != k; i = (i + 1) & mask)
		;
	if (!m->slots[i].used)
		return -1;
	pid = m->slots[i].pid;
	for (j = i;;) {
		j = (j + 1) & mask;
		if (!m->slots[j].used)
			break;
		h = pid_home(l, m->slots[j].k);
		if ((j > i && h > i && h <= j) || (j < i && (h > i || h <= j)))
			continue;
		m->slots[i] = m->slots[j];
		i = j;
	}
	m->slots[i].used = false;
	m->used--;
	return pid;
}

/* ---- results ---------------------------------------------------------- */

/* Whether @a is shorter than @b in the order of the top: longest, then first. */
static bool ctx_less(const struct lat_ctx *a, const struct lat_ctx *b)
{
	if (a->value != b->value)
		return a->value < b->value;
	if (a->real != b->real)
		return a->real > b->real;
	if (a->start != b->start)
		return a->start > b->start;
	return a->tr > b->tr;
}

static void heap_down(struct lat_ctx *h, size_t n, size_t i)
{
	struct lat_ctx tmp;
	size_t c;

	for (; (c = 2 * i + 1) < n; i = c) {
		if (c + 1 < n && ctx_less(&h[c + 1], &h[c]))
			c++;
		if (!ctx_less(&h[c], &h[i]))
			break;
		tmp = h[i];
		h[i] = h[c];
		h[c] = tmp;
	}
}

static void heap_up(struct lat_ctx *h, size_t i)
{
	struct lat_ctx tmp;

	while (i && ctx_less(&h[i], &h[(i - 1) / 2])) {
		tmp = h[i];
		h[i] = h[(i - 1) / 2];
		h[(i - 1) / 2] = tmp;
		i = (i - 1) / 2;
	}
}

/* A name as one word of printable ASCII: '_' for a blank or any other byte. */
static void word(char *s)
{
	for (; *s; s++)
		if (*s <= ' ' || *s > '~')
			*s = '_';
}

static void comm_word(const struct kt_trace *t, int pid, char *comm, size_t size)
{
	snprintf(comm, size, "%s", kt_comm(t, pid));
	word(comm);
}

/* Append @v to the array *@a of *@n, room for *@size, grown by doubling; false: no memory. */
static bool push_i64(int64_t **a, size_t *n, size_t *size, size_t first, int64_t v)
{
	if (*n == *size) {
		size_t sz = *size ? *size * 2 : first;
		int64_t *p = sz > SIZE_MAX / sizeof(*p) ? NULL : realloc(*a, sz * sizeof(*p));

		if (!p)
			return false;
		*a = p;
		*size = sz;
	}
	(*a)[(*n)++] = v;
	return true;
}

/* A pair ended: count it, and keep its context if it is among the longest. */
static void lat_pair(struct lat *l, struct kt_trace *t, struct lat_ctx *c)
{
	if (l->have_pid && c->pid != l->pid)
		return;
	if (c->value < l->min)
		return;
	if (!push_i64(&l->values, &l->nr_values, &l->values_size, 4096, c->value)) {
		l->nomem = true;
		return;
	}
	c->real = kt_real_ns(t, c->start);
	if (!l->top || (l->nr_heap == l->top && !ctx_less(&l->heap[0], c)))
		return;
	if (kinds[l->kind].has_pid)
		comm_word(t, c->pid, c->comm, sizeof(c->comm));
	if (l->nr_heap < l->top) {
		l->heap[l->nr_heap] = *c;
		heap_up(l->heap, l->nr_heap++);
	} else {
		l->heap[0] = *c;
		heap_down(l->heap, l->nr_heap, 0);
	}
}

/* ---- events ----------------------------------------------------------- */

static int field_index(const struct kt_event *ev, const char *name)
{
	unsigned int i;

	for (i = 0; name && i < ev->nr_fields; i++)
		if (!strcmp(ev->fields[i].name, name))
			return i;
	return -1;
}

static const struct kt_field *field_named(const struct kt_event *ev, const char *name)
{
	int i = field_index(ev, name);

	return i < 0 ? NULL : &ev->fields[i];
}

static void add_ev(struct lat *l, struct lat_trace *lt, const struct kt_event *ev)
{
	const struct role_desc *d;
	struct lat_ev *e;
	unsigned int i;
	int f1, f2;

	for (i = 0; i < ARRAY_SIZE(role_descs); i++) {
		d = &role_descs[i];
		if (d->kind != l->kind || strcmp(ev->group, d->group) || strcmp(ev->name, d->name))
			continue;
		f1 = field_index(ev, d->f1);
		f2 = field_index(ev, d->f2);
		/* A metadata without the fields the role reads: not that event. */
		if ((d->f1 && f1 < 0) || (d->f2 && !d->f2_opt && f2 < 0))
			continue;
		e = realloc(lt->evs, (lt->nr_evs + 1) * sizeof(*e));
		if (!e) {
			l->nomem = true;
			return;
		}
		lt->evs = e;
		lt->evs[lt->nr_evs++] = (struct lat_ev){ ev, d->role, f1, f2 };
		return;
	}
}

/* The events of the kind in @t's metadata; whether the beginning is there. */
static bool find_evs(struct lat *l, struct kt_trace *t, struct lat_trace *lt)
{
	const unsigned int nc = KTRACE_NR_CHANNELS * (KTRACE_ID_COMPACT_MAX + 1);
	static const enum role begins[LAT_NR] = {
		R_ISSUE, R_ENTRY, R_WAKEUP, R_HENTRY, R_IRQSOFF, R_TIMER,
	};
	const struct kt_event *ev;
	unsigned int i;

	for (i = 0; i < nc + 256 * 256; i++) {
		ev = i < nc ? t->compact[i / (KTRACE_ID_COMPACT_MAX + 1)]
					[i % (KTRACE_ID_COMPACT_MAX + 1)] :
			      t->expanded[(i - nc) / 256][(i - nc) % 256];
		if (ev)
			add_ev(l, lt, ev);
	}
	for (i = 0; i < lt->nr_evs; i++)
		if (lt->evs[i].role == begins[l->kind])
			return true;
	return false;
}

static bool get(const struct kt_record *r, const struct lat_ev *e, int f, uint64_t *v)
{
	*v = 0;
	return f >= 0 && kt_field_raw(&e->ev->fields[f], r, v);
}

/* A block request's description, and who queued its bio. */
static void block_desc(struct lat *l, struct kt_trace *t, const struct kt_record *r,
		       const struct lat_ev *e, struct lat_ctx *c)
{
	const struct kt_field *f;
	struct kt_record d;
	int pid;

	if (!kt_key_named(t, r, e->f1, &d))
		return;
	c->known = true;
	f = field_named(d.event, "dev");
	if (f)
		kt_field_raw(f, &d, &c->a);
	f = field_named(d.event, "sector");
	if (f)
		kt_field_raw(f, &d, &c->b);
	f = field_named(d.event, "nr_sector");
	if (f)
		kt_field_raw(f, &d, &c->c);
	c->op = field_named(d.event, "op");
	if (c->op)
		kt_field_raw(c->op, &d, &c->d);
	pid = pid_take(l, (uintptr_t)d.data);
	if (pid >= 0)
		c->pid = pid;
}

static void irq_name(struct lat_trace *lt, const struct kt_record *r, const struct lat_ev *e)
{
	const struct kt_field *nf = &e->ev->fields[e->f2];
	struct irq_name *n;
	uint64_t irq;
	size_t len;

	if (r->id != KTRACE_ID_EXPANDED || !get(r, e, e->f1, &irq) || nf->offset > r->length ||
	    lt->nr_irqs >= 65536)
		return;
	/* Kept in the order read, sorted once to be looked up (irq_lookup()). */
	if (lt->nr_irqs == lt->irqs_size) {
		n = realloc(lt->irqs, (lt->irqs_size * 2 + 16) * sizeof(*n));
		if (!n)
			return;
		lt->irqs = n;
		lt->irqs_size = lt->irqs_size * 2 + 16;
	}
	n = &lt->irqs[lt->nr_irqs];
	n->irq = irq;
	n->seq = lt->nr_irqs++;
	len = r->length - nf->offset;
	if (nf->size && nf->size < len)
		len = nf->size;
	len = strnlen((const char *)r->data + nf->offset, len);
	if (len >= sizeof(n->name))
		len = sizeof(n->name) - 1;
	memcpy(n->name, r->data + nf->offset, len);
	n->name[len] = '\0';
	word(n->name);
}

static int irq_cmp(const void *a, const void *b)
{
	const struct irq_name *x = a, *y = b;

	if (x->irq != y->irq)
		return x->irq < y->irq ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Sort the names read, once, before irq_lookup(). */
static void irqs_sort(struct lat_trace *lt)
{
	if (lt->nr_irqs)
		qsort(lt->irqs, lt->nr_irqs, sizeof(*lt->irqs), irq_cmp);
}

/*
 * The name of @irq: the first statedump:irq of it (a shared IRQ's first
 * action), in the names irqs_sort() sorted.
 */
static const char *irq_lookup(const struct lat_trace *lt, uint32_t irq)
{
	size_t lo = 0, hi = lt->nr_irqs;

	/* The first entry of @irq: the lowest seq. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (lt->irqs[mid].irq < irq)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < lt->nr_irqs && lt->irqs[lo].irq == irq ? lt->irqs[lo].name : NULL;
}

/* The ns from @start to @now, 0 if before, at most INT64_MAX (no overflow after). */
static int64_t since(uint64_t now, uint64_t start)
{
	if (now <= start)
		return 0;
	return now - start > INT64_MAX ? INT64_MAX : (int64_t)(now - start);
}

/* A pair of @key began; @restart: again from now if it was in flight. */
static struct lat_slot *begin(struct lat *l, unsigned int tr, uint64_t key,
			      const struct kt_record *r, bool restart)
{
	struct lat_slot *s = lat_find(l, tr, key, 0);

	if (s && !restart)
		return NULL;
	if (!s)
		s = lat_add(l, tr, key, 0);
	if (!s)
		return NULL;
	memset(&s->c, 0, sizeof(s->c));
	s->c.start = r->ns;
	s->c.tr = tr;
	s->c.cpu = r->cpu;
	s->c.pid = r->pid;
	return s;
}

static void end(struct lat *l, struct kt_trace *t, unsigned int tr, uint64_t key,
		const struct kt_record *r)
{
	struct lat_slot *s = lat_find(l, tr, key, 0);
	struct lat_ctx c;

	if (!s)
		return;
	c = s->c;
	lat_del(l, s);
	c.value = since(r->ns, c.start);
	lat_pair(l, t, &c);
}

static void timer_expire(struct lat *l, struct kt_trace *t, unsigned int tr,
			 struct lat_trace *lt, const struct kt_record *r, const struct lat_ev *e)
{
	uint64_t fn, kind, k2;
	struct lat_slot *s;
	struct series *se;
	struct lat_ctx c;
	int64_t iv;

	get(r, e, e->f1, &fn);
	get(r, e, e->f2, &kind);
	k2 = kind << 32 | r->cpu;
	s = lat_find(l, tr, fn, k2);
	if (!s) {
		if (l->pass2)
			return;		/* no room for it in the first pass */
		s = lat_add(l, tr, fn, k2);
		if (!s)
			return;
		s->series = SIZE_MAX;
		s->c.start = r->ns;
		s->c.known = true;
		return;
	}
	if (!s->c.known) {		/* the second pass's first expiry */
		s->c.known = true;
		s->c.start = r->ns;
		return;
	}
	iv = since(r->ns, s->c.start);
	if (!l->pass2) {
		if (s->series == SIZE_MAX) {
			if (l->nr_series == l->series_size) {
				size_t n = l->series_size ? l->series_size * 2 : 64;

				se = realloc(l->series, n * sizeof(*se));
				if (!se) {
					l->nomem = true;
					return;
				}
				l->series = se;
				l->series_size = n;
			}
			s->series = l->nr_series;
			l->series[l->nr_series++] = (struct series){ 0 };
		}
		se = &l->series[s->series];
		if (!push_i64(&se->iv, &se->n, &se->size, 16, iv)) {
			l->nomem = true;
			return;
		}
		s->c.start = r->ns;
		return;
	}
	se = s->series < l->nr_series ? &l->series[s->series] : NULL;
	if (!se || !se->periodic) {
		/* Not periodic: no jitter. */
		l->skipped++;
		s->c.start = r->ns;
		return;
	}
	memset(&c, 0, sizeof(c));
	c.start = s->c.start;
	c.tr = tr;
	c.cpu = r->cpu;
	c.a = fn;
	c.c = iv;
	c.b = se->median;
	c.value = iv - (int64_t)c.b;
	/* The last irqs-off period of this CPU, if it ended within the interval. */
	if (r->cpu < KTF_MAX_CPUS && lt->off_ns && lt->off_ns[r->cpu] > s->c.start &&
	    lt->off_ns[r->cpu] <= r->ns) {
		c.known = true;
		c.d = lt->off_caller[r->cpu];
	}
	s->c.start = r->ns;
	lat_pair(l, t, &c);
}

/* An irqs-off period, which ended at @r, of caller @caller. */
static void irqsoff(struct lat *l, struct kt_trace *t, unsigned int tr,
		    const struct kt_record *r, const struct lat_ev *e, uint64_t caller)
{
	struct lat_ctx c = { .tr = tr, .cpu = r->cpu, .pid = r->pid, .a = caller };
	uint64_t d;

	get(r, e, e->f2, &d);
	c.value = d;
	c.start = r->ns > d ? r->ns - d : 0;
	lat_pair(l, t, &c);
}

/* The task of a system call record: the running one, after an exec its new pid. */
static int sys_pid(const struct lat_trace *lt, const struct kt_record *r)
{
	if (r->cpu < KTF_MAX_CPUS && lt->alias_from[r->cpu] >= 0 &&
	    lt->alias_from[r->cpu] == r->pid)
		return lt->alias_to[r->cpu];
	return r->pid;
}

/* exec changed the pid of a task: what it had begun is the new pid's. */
static void lat_exec(struct lat *l, unsigned int tr, struct lat_trace *lt,
		     const struct kt_record *r, uint64_t v, uint64_t w)
{
	struct lat_slot *from = lat_find(l, tr, w, 0), *to;
	struct lat_ctx c;

	/* Until the next switch, the old pid on this CPU is the new one. */
	if (r->cpu < KTF_MAX_CPUS) {
		lt->alias_from[r->cpu] = w;
		lt->alias_to[r->cpu] = v;
	}
	if (!from)
		return;
	c = from->c;
	lat_del(l, from);
	to = lat_find(l, tr, v, 0);
	if (!to)
		to = lat_add(l, tr, v, 0);
	if (to) {
		to->c = c;
		to->c.pid = v;
	}
}

/* The records of wakeups, interrupts, irqs-off and timers (lat_one()). */
static void lat_sched(struct lat *l, struct kt_trace *t, unsigned int tr,
		      struct lat_trace *lt, const struct kt_record *r, const struct lat_ev *e)
{
	struct lat_slot *s;
	uint64_t v, w;

	switch (e->role) {
	case R_WAKEUP:
		if (!get(r, e, e->f1, &v) || !v)
			break;
		/* A wakeup of the task running on its CPU begins nothing. */
		if (get(r, e, e->f2, &w) && w < KTF_MAX_CPUS && lt->curr[w] == (int)v)
			break;
		s = begin(l, tr, v, r, false);
		if (s) {
			s->c.waker = r->pid;
			s->c.pid = v;
		}
		break;
	case R_SWITCH:
		if (get(r, e, e->f1, &v) && r->cpu < KTF_MAX_CPUS)
			lt->curr[r->cpu] = v;
		if (v)
			end(l, t, tr, v, r);
		break;
	case R_HENTRY:
		s = begin(l, tr, r->cpu, r, true);
		if (s && get(r, e, e->f1, &v))
			s->c.nr = v;
		break;
	case R_HEXIT:
		end(l, t, tr, r->cpu, r);
		break;
	case R_SDIRQ:
		irq_name(lt, r, e);
		break;
	case R_IRQSOFF:
		get(r, e, e->f1, &v);
		if (l->kind == LAT_TIMER) {
			if (r->cpu < KTF_MAX_CPUS) {
				lt->off_ns[r->cpu] = r->ns;
				lt->off_caller[r->cpu] = v;
			}
			break;
		}
		irqsoff(l, t, tr, r, e, v);
		break;
	case R_TIMER:
		timer_expire(l, t, tr, lt, r, e);
		break;
	default:
		break;
	}
}

static int lat_one(struct kt_trace *t, const struct kt_record *r, void *arg)
{
	struct lat *l = arg;
	unsigned int tr = t - l->set->traces, i;
	struct lat_trace *lt = &l->trs[tr];
	const struct lat_ev *e = NULL;
	struct lat_slot *s;
	uint64_t v, w;

	if (!lt->any || r->ns > lt->last_ns)
		lt->last_ns = r->ns;
	lt->any = true;
	/*
	 * The running task: the high channel's; a medium-channel record
	 * carries its stream's own, older, pid.
	 */
	if (lt->curr && r->cpu < KTF_MAX_CPUS && r->channel == KTRACE_CHANNEL_HIGH)
		lt->curr[r->cpu] = r->pid;
	for (i = 0; i < lt->nr_evs && r->event; i++) {
		if (lt->evs[i].ev == r->event) {
			e = &lt->evs[i];
			break;
		}
	}
	if (!e)
		return l->nomem ? -1 : 0;
	switch (e->role) {
	case R_BIO:
		pid_put(l, (uintptr_t)r->data, r->pid);
		break;
	case R_ISSUE:
		if (get(r, e, e->f1, &v)) {
			s = begin(l, tr, v, r, false);
			if (s) {
				s->c.nr = v;
				block_desc(l, t, r, e, &s->c);
			}
		}
		break;
	case R_COMPLETE:
	case R_STATUS:
		if (get(r, e, e->f1, &v))
			end(l, t, tr, v, r);
		break;
	case R_ENTRY:
		s = begin(l, tr, sys_pid(lt, r), r, true);
		if (s)
			s->c.nr = kt_field_sysnr(r, &s->c.sat);
		break;
	case R_EXIT:
		end(l, t, tr, sys_pid(lt, r), r);
		break;
	case R_SYS_SWITCH:
		if (r->cpu < KTF_MAX_CPUS)
			lt->alias_from[r->cpu] = -1;
		break;
	case R_PEXIT:
		if (get(r, e, e->f1, &v)) {
			s = lat_find(l, tr, v, 0);
			if (s)
				lat_del(l, s);
		}
		break;
	case R_EXEC:
		if (get(r, e, e->f1, &v) && get(r, e, e->f2, &w) && v != w)
			lat_exec(l, tr, lt, r, v, w);
		break;
	default:
		lat_sched(l, t, tr, lt, r, e);
	}
	return l->nomem ? -1 : 0;
}

/* ---- output ----------------------------------------------------------- */

/* Nanoseconds as microseconds: 1234.567us. */
static const char *us(char *buf, size_t size, int64_t ns)
{
	uint64_t m = ns < 0 ? -(uint64_t)ns : (uint64_t)ns;

	snprintf(buf, size, "%s%llu.%03uus", ns < 0 ? "-" : "", (unsigned long long)(m / 1000),
		 (unsigned int)(m % 1000));
	return buf;
}

static void time_word(const struct lat *l, char *buf, size_t size, const struct lat_ctx *c)
{
	const struct kt_trace *t = &l->set->traces[c->tr];
	int64_t real;
	uint64_t m;

	if (l->set->nr == 1) {
		kt_time_str(buf, size, kt_mono_ns(t, c->start));
		return;
	}
	/* Several traces: CLOCK_REALTIME, their offsets added. */
	real = kt_real_ns(t, c->start);
	m = real < 0 ? -(uint64_t)real : (uint64_t)real;
	snprintf(buf, size, "%s%llu.%09u", real < 0 ? "-" : "",
		 (unsigned long long)(m / 1000000000), (unsigned int)(m % 1000000000));
}

static void put_sym(const struct lat *l, const struct kt_trace *t, const char *name, uint64_t v)
{
	const char *sym = kt_symbol(t, v);
	const char *p;

	fprintf(l->out, " %s=", name);
	if (!sym) {
		fprintf(l->out, "0x%llx", (unsigned long long)v);
		return;
	}
	/* "fn+0x0/0x40 [mod]" as one word. */
	for (p = sym; *p; p++)
		fputc(*p == ' ' ? '_' : *p, l->out);
}

static void put_ctx(const struct lat *l, const struct lat_ctx *c)
{
	const struct kt_trace *t = &l->set->traces[c->tr];
	const struct lat_trace *lt = &l->trs[c->tr];
	char buf[64], nrw[16];
	unsigned int i;

	time_word(l, buf, sizeof(buf), c);
	fprintf(l->out, " at %s cpu=%u", buf, c->cpu);
	if (l->set->nr > 1)
		fprintf(l->out, " host=%s", t->host);
	switch (l->kind) {
	case LAT_BLOCK:
		fprintf(l->out, " pid=%d comm=%s", c->pid, c->comm);
		if (!c->known) {
			fprintf(l->out, " rq=unknown:0x%08x", c->nr);
			break;
		}
		fprintf(l->out, " dev=%llu:%llu sector=%llu nr_sector=%llu op=",
			(unsigned long long)(c->a >> 20), (unsigned long long)(c->a & 0xfffff),
			(unsigned long long)c->b, (unsigned long long)c->c);
		for (i = 0; c->op && i < c->op->nr_values; i++)
			if (c->op->values[i].value == c->d)
				break;
		if (c->op && i < c->op->nr_values) {
			char op[sizeof(c->op->values[i].name)];

			snprintf(op, sizeof(op), "%s", c->op->values[i].name);
			word(op);
			fprintf(l->out, "%s", op);
		} else {
			fprintf(l->out, "%llu", (unsigned long long)c->d);
		}
		break;
	case LAT_SYSCALL:
		fprintf(l->out, " pid=%d comm=%s nr=%s", c->pid, c->comm,
			kt_sysnr_word(nrw, sizeof(nrw), (int32_t)c->nr, c->sat));
		if (!c->sat && (int32_t)c->nr >= 0 && kt_syscall_name(t, c->nr))
			fprintf(l->out, " name=%s", kt_syscall_name(t, c->nr));
		break;
	case LAT_WAKEUP:
		fprintf(l->out, " pid=%d comm=%s waker=%d", c->pid, c->comm, c->waker);
		break;
	case LAT_IRQ:
		fprintf(l->out, " irq=%u", c->nr);
		if (irq_lookup(lt, c->nr))
			fprintf(l->out, " name=%s", irq_lookup(lt, c->nr));
		break;
	case LAT_IRQSOFF:
		put_sym(l, t, "caller", c->a);
		break;
	case LAT_TIMER:
		put_sym(l, t, "function", c->a);
		fprintf(l->out, " interval=%s", us(buf, sizeof(buf), c->c));
		fprintf(l->out, " expected=%s", us(buf, sizeof(buf), c->b));
		if (c->known)
			put_sym(l, t, "irqsoff_caller", c->d);
		break;
	case LAT_NR:
		break;
	}
	fputc('\n', l->out);
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

static int cmp_ctx(const void *a, const void *b)
{
	const struct lat_ctx *x = a, *y = b;

	return ctx_less(x, y) ? 1 : ctx_less(y, x) ? -1 : 0;
}

/* The value of nearest rank @p percent. */
static int64_t pct(const struct lat *l, unsigned int p)
{
	size_t rank = (p * (uint64_t)l->nr_values + 99) / 100;

	return l->values[rank ? rank - 1 : 0];
}

static void put_hist(const struct lat *l)
{
	unsigned long long count[64] = { 0 }, max = 0;
	unsigned int i, lo = 64, hi = 0, k, stars;
	char bar[HIST_WIDTH + 1];
	size_t n;

	for (n = 0; n < l->nr_values; n++) {
		uint64_t u = l->values[n] > 0 ? l->values[n] / 1000 : 0;

		/* 0 -> 1, 2 -> 3, 4 -> 7, ...: early timers in the first. */
		for (k = 0; u > 1; k++)
			u >>= 1;
		count[k]++;
	}
	for (i = 0; i < 64; i++) {
		if (!count[i])
			continue;
		lo = lo < i ? lo : i;
		hi = i;
		max = max > count[i] ? max : count[i];
	}
	fprintf(l->out, "%20s : count\n", "usecs");
	for (i = lo; i <= hi && i < 64; i++) {
		stars = max ? count[i] * HIST_WIDTH / max : 0;
		memset(bar, '*', stars);
		memset(bar + stars, ' ', HIST_WIDTH - stars);
		bar[HIST_WIDTH] = '\0';
		fprintf(l->out, "%9llu -> %-9llu : %-8llu |%s|\n", i ? 1ULL << i : 0ULL,
			i ? (2ULL << i) - 1 : 1ULL, count[i], bar);
	}
}

/* The pairs still open at the end of their trace, longest waited first. */
static size_t collect_open(struct lat *l, struct lat_ctx **out)
{
	struct lat_ctx *o;
	size_t i, n = 0;

	*out = NULL;
	if (l->kind == LAT_TIMER || !l->open.used)
		return 0;
	o = calloc(l->open.used, sizeof(*o));
	if (!o) {
		l->nomem = true;
		return 0;
	}
	for (i = 0; i < l->open.nr_slots; i++) {
		struct lat_slot *s = &l->open.slots[i];
		struct kt_trace *t = &l->set->traces[s->tr];
		uint64_t last = l->trs[s->tr].last_ns;

		if (!s->used)
			continue;
		if (l->have_pid && s->c.pid != l->pid)
			continue;
		o[n] = s->c;
		o[n].real = kt_real_ns(t, s->c.start);
		o[n].value = since(last, s->c.start);
		if (o[n].value < l->min)
			continue;
		if (kinds[l->kind].has_pid)
			comm_word(t, o[n].pid, o[n].comm, sizeof(o[n].comm));
		n++;
	}
	qsort(o, n, sizeof(*o), cmp_ctx);
	*out = o;
	return n;
}

static void report(struct lat *l)
{
	struct lat_ctx *open;
	size_t nr_open, i;
	__int128 sum = 0;
	char b[6][48];

	for (i = 0; i < l->set->nr; i++)
		irqs_sort(&l->trs[i]);
	nr_open = collect_open(l, &open);
	fprintf(l->out, "# latency %s: %s: %zu pairs, %zu open\n", kinds[l->kind].name,
		kinds[l->kind].what, l->nr_values, nr_open);
	if (l->kind == LAT_TIMER)
		fprintf(l->out,
			"# periodic timers: %zu of %zu (%u intervals or more, 3/4 of them within 1/8 of their median); intervals of the others, not judged: %zu\n",
			l->periodic, l->nr_series, TIMER_MIN_IV, l->skipped);
	if (!l->nr_values) {
		fprintf(l->out, "count 0\n");
	} else {
		qsort(l->values, l->nr_values, sizeof(*l->values), cmp_i64);
		for (i = 0; i < l->nr_values; i++)
			sum += l->values[i];
		fprintf(l->out, "count %zu min %s avg %s p50 %s p90 %s p99 %s max %s\n",
			l->nr_values, us(b[0], sizeof(b[0]), l->values[0]),
			us(b[1], sizeof(b[1]), (int64_t)(sum / (__int128)l->nr_values)),
			us(b[2], sizeof(b[2]), pct(l, 50)), us(b[3], sizeof(b[3]), pct(l, 90)),
			us(b[4], sizeof(b[4]), pct(l, 99)),
			us(b[5], sizeof(b[5]), l->values[l->nr_values - 1]));
		if (l->hist)
			put_hist(l);
	}
	if (l->nr_heap) {
		qsort(l->heap, l->nr_heap, sizeof(*l->heap), cmp_ctx);
		fprintf(l->out, "top %zu:\n", l->nr_heap);
		for (i = 0; i < l->nr_heap; i++) {
			fprintf(l->out, "  %s", us(b[0], sizeof(b[0]), l->heap[i].value));
			put_ctx(l, &l->heap[i]);
		}
	}
	if (nr_open && l->top) {
		fprintf(l->out, "open %zu:\n", nr_open);
		for (i = 0; i < nr_open && i < l->top; i++) {
			fprintf(l->out, "  >=%s", us(b[0], sizeof(b[0]), open[i].value));
			put_ctx(l, &open[i]);
		}
	}
	free(open);
}

/* ---- the command ------------------------------------------------------ */

static void lat_free(struct lat *l)
{
	size_t i;

	for (i = 0; l->trs && i < l->set->nr; i++) {
		free(l->trs[i].evs);
		free(l->trs[i].curr);
		free(l->trs[i].alias_from);
		free(l->trs[i].alias_to);
		free(l->trs[i].off_ns);
		free(l->trs[i].off_caller);
		free(l->trs[i].irqs);
	}
	for (i = 0; i < l->nr_series; i++)
		free(l->series[i].iv);
	free(l->series);
	free(l->trs);
	free(l->open.slots);
	free(l->bios.slots);
	free(l->values);
	free(l->heap);
}

/* The median of every timer's intervals, then the second pass. */
static int timer_medians(struct lat *l)
{
	struct series *se;
	size_t i;

	for (i = 0; i < l->nr_series; i++) {
		size_t j, near = 0;

		se = &l->series[i];
		qsort(se->iv, se->n, sizeof(*se->iv), cmp_i64);
		se->median = se->n ? se->iv[(se->n - 1) / 2] : 0;
		for (j = 0; j < se->n; j++)
			near += llabs(se->iv[j] - se->median) <= se->median / 8;
		se->periodic = se->n >= TIMER_MIN_IV && se->median > 0 && 4 * near >= 3 * se->n;
		l->periodic += se->periodic;
		free(se->iv);
		se->iv = NULL;
	}
	for (i = 0; i < l->open.nr_slots; i++)
		l->open.slots[i].c.known = false;
	for (i = 0; i < l->set->nr; i++) {
		if (l->trs[i].off_ns)
			memset(l->trs[i].off_ns, 0, KTF_MAX_CPUS * sizeof(uint64_t));
	}
	l->pass2 = true;
	return kt_set_merge(l->set, lat_one, l);
}

/* The analysis on open traces; 0, or 1 after saying why on stderr. */
static int lat_run(struct lat *l, const char *path)
{
	struct lat_trace *lt;
	unsigned int i, have = 0;
	int ret;

	if (getrandom(&l->seed, sizeof(l->seed), GRND_NONBLOCK) != sizeof(l->seed))
		l->seed = (uint64_t)time(NULL) ^ (uint64_t)getpid() << 32;
	l->trs = calloc(l->set->nr, sizeof(*l->trs));
	l->heap = calloc(l->top ? l->top : 1, sizeof(*l->heap));
	if (!l->trs || !l->heap) {
		fprintf(stderr, "ktrace latency: out of memory\n");
		return 1;
	}
	for (i = 0; i < l->set->nr; i++) {
		lt = &l->trs[i];
		have += find_evs(l, &l->set->traces[i], lt);
		if (l->kind == LAT_WAKEUP) {
			lt->curr = malloc(KTF_MAX_CPUS * sizeof(*lt->curr));
			if (lt->curr)
				memset(lt->curr, 0xff, KTF_MAX_CPUS * sizeof(*lt->curr));
			else
				l->nomem = true;
		}
		if (l->kind == LAT_SYSCALL) {
			lt->alias_from = malloc(KTF_MAX_CPUS * sizeof(*lt->alias_from));
			lt->alias_to = calloc(KTF_MAX_CPUS, sizeof(*lt->alias_to));
			if (lt->alias_from)
				memset(lt->alias_from, 0xff,
				       KTF_MAX_CPUS * sizeof(*lt->alias_from));
			l->nomem |= !lt->alias_from || !lt->alias_to;
		}
		if (l->kind == LAT_TIMER) {
			lt->off_ns = calloc(KTF_MAX_CPUS, sizeof(*lt->off_ns));
			lt->off_caller = calloc(KTF_MAX_CPUS, sizeof(*lt->off_caller));
			l->nomem |= !lt->off_ns || !lt->off_caller;
		}
	}
	if (l->nomem) {
		fprintf(stderr, "ktrace latency: out of memory\n");
		return 1;
	}
	if (!have) {
		fprintf(stderr, "ktrace latency: %s: no %s event in the %s metadata\n", path,
			kinds[l->kind].need, l->set->nr > 1 ? "traces'" : "trace's");
		return 1;
	}
	if (kt_need_events(l->set, "latency", path, needs[l->kind], true))
		return 1;
	ret = kt_set_merge(l->set, lat_one, l);
	if (!ret && l->kind == LAT_TIMER)
		ret = timer_medians(l);
	if (ret || l->nomem) {
		fprintf(stderr, "ktrace latency: %s: out of memory\n", path);
		return 1;
	}
	report(l);
	if (l->nomem || fflush(l->out)) {
		fprintf(stderr, "ktrace latency: %s\n", l->nomem ? "out of memory" : "write error");
		return 1;
	}
	return 0;
}

int kt_latency(struct kt_set *s, const char *kind, FILE *out)
{
	struct lat l = { .set = s, .top = 10, .out = out, .min = INT64_MIN };
	int ret;

	for (l.kind = 0; l.kind < LAT_NR; l.kind++)
		if (!strcmp(kind, kinds[l.kind].name))
			break;
	if (l.kind == LAT_NR)
		return EXIT_USAGE;
	ret = lat_run(&l, s->traces[0].path);
	lat_free(&l);
	return ret;
}

static const char latency_help[] =
	"usage: ktrace latency KIND [--top N] [--hist] [-p PID] [--min T]\n"
	"                      [--offset FILE=NS]... FILE...\n"
	"\n"
	"Time the pairs of events of the traces as the kernel's latency triggers\n"
	"match them, and print their count, min, avg, percentiles and max, then\n"
	"the N longest (default 10) with their context, then the pairs that never\n"
	"ended, with the time waited up to the trace's last event.\n"
	"\n"
	"KIND: block (rq_issue -> rq_complete|rq_status, by request), syscall\n"
	"(entry -> exit, by pid), wakeup (wakeup -> switch-in, by pid), irq\n"
	"(hardirq_entry -> hardirq_exit, by CPU), irqsoff (each irq:irqsoff),\n"
	"timer (intervals between the expiries of one timer, and their jitter).\n"
	"\n"
	"  --top N         the N longest (0 to 1000000)\n"
	"  --hist          a log2 histogram of the durations, in microseconds\n"
	"  -p, --pid PID   only the pairs of task PID (block, syscall, wakeup)\n"
	"  --min T         only the pairs of T or longer (T: a number and ns, us,\n"
	"                  ms or s)\n"
	"  --offset F=NS   add NS (signed) to the times of trace file F\n";

__printf(2, 3)
static int usage_err(struct kt_set *set, const char *fmt, ...)
{
	va_list ap;

	fputs("ktrace latency: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	kt_set_close(set);
	return EXIT_USAGE;
}

int cmd_latency(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "top", required_argument, NULL, 't' },
		{ "hist", no_argument, NULL, 'H' },
		{ "pid", required_argument, NULL, 'p' },
		{ "min", required_argument, NULL, 'm' },
		{ "offset", required_argument, NULL, 'O' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct kt_set set = { 0 };
	struct lat l = { .set = &set, .top = 10, .out = stdout, .min = INT64_MIN };
	unsigned long long v;
	char *end;
	int c, ret;

	while ((c = getopt_long(argc, argv, "p:h", opts, NULL)) != -1) {
		switch (c) {
		case 't':
			errno = 0;
			v = strtoull(optarg, &end, 10);
			if (*optarg < '0' || *optarg > '9' || *end || errno || v > TOP_MAX)
				return usage_err(&set,
						 "bad --top '%s': want a number from 0 to 1000000",
						 optarg);
			l.top = v;
			break;
		case 'H':
			l.hist = true;
			break;
		case 'p':
			errno = 0;
			v = strtoull(optarg, &end, 10);
			if (*optarg < '0' || *optarg > '9' || *end || errno || v > INT32_MAX)
				return usage_err(&set, "bad pid '%s': want a number", optarg);
			l.pid = v;
			l.have_pid = true;
			break;
		case 'm':
			l.min = kt_parse_duration(optarg);
			if (l.min < 0)
				return usage_err(&set,
						 "bad --min '%s': want a number and a unit: ns, us, ms or s",
						 optarg);
			break;
		case 'O':
			ret = kt_set_offset(&set, "latency", optarg);
			if (ret) {
				kt_set_close(&set);
				return ret;
			}
			break;
		case 'h':
			fputs(latency_help, stdout);
			kt_set_close(&set);
			return 0;
		default:
			fputs(latency_help, stderr);
			kt_set_close(&set);
			return EXIT_USAGE;
		}
	}
	if (optind >= argc)
		return usage_err(&set,
				 "no KIND: want block, syscall, wakeup, irq, irqsoff or timer");
	for (l.kind = 0; l.kind < LAT_NR; l.kind++)
		if (!strcmp(argv[optind], kinds[l.kind].name))
			break;
	if (l.kind == LAT_NR)
		return usage_err(&set,
				 "unknown kind '%s': want block, syscall, wakeup, irq, irqsoff or timer",
				 argv[optind]);
	if (l.have_pid && !kinds[l.kind].has_pid)
		return usage_err(&set, "-p: the pairs of %s have no task", kinds[l.kind].name);
	optind++;
	if (optind >= argc)
		return usage_err(&set, "no trace file");
	ret = kt_set_open(&set, "latency", argc - optind, argv + optind);
	if (!ret)
		ret = lat_run(&l, set.nr > 1 ? "the traces" : set.traces[0].path);
	lat_free(&l);
	kt_set_close(&set);
	return ret;
}
