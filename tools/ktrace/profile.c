// SPDX-License-Identifier: GPL-2.0
/*
 * tools/ktrace: ktrace profile, per task and per system call, what
 * "trace-cmd report --profile", "perf sched latency" and "perf trace -s"
 * give (Documentation/tools/ktrace/ktrace.rst, "profile").
 *
 * Each task is in one state at a time, changed by the high channel's
 * scheduler events:
 *
 *   running   from a sched:switch to it, until the next sched:switch on
 *             that CPU (whatever its prev_state): one run
 *   wait      runnable, not running: from its wakeup (sched:wakeup,
 *             wakeup_new), or from a switch away from it in state R or R+
 *             (preempted), until a sched:switch to it
 *   sleep     from a switch away from it in state S, I, T, t or P, until
 *             its wakeup (or, the wakeup not in the trace, the switch to it)
 *   blocked   the same, switched away in state D (uninterruptible)
 *   dead      switched away in state X or Z: nothing more is counted
 *
 * A wakeup of a task running or already waiting changes nothing (the
 * first wakeup counts).  The idle task (pid 0) is left out.
 *
 * System calls: from syscalls:entry to the syscalls:exit of the same task
 * (the running task of both), counted under the entry's number; an error
 * is a return value from -4095 to -1; an entry again before an exit
 * restarts the call; sched:exit forgets the call in flight (exit() never
 * returns).
 *
 * Only what the trace saw whole counts: the profile covers, per trace,
 * the time every CPU's high channel was recorded (from the latest of
 * their first records to the earliest of their last ones), and at its
 * start every task's state is unknown: a run, wait, sleep or system call
 * under way at either edge is not counted.  Records lost on a CPU (a
 * subbuffer sequence gap, dropped events: kt_record.lost) make every
 * task's state unknown again, as at the start.
 */
#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "analyze.h"
#include "format.h"

enum pf_state { PF_UNKNOWN, PF_RUNNING, PF_WAIT, PF_SLEEP, PF_BLOCKED, PF_DEAD };

/* The figures of a task, or of the tasks of one name. */
struct pf_sum {
	uint64_t run, wait, sleep, blocked, max_wait;
	unsigned long long runs, waits, tasks;
};

struct pf_task {
	unsigned int trace;
	int pid;
	enum pf_state state;
	int64_t since;			/* the state's start */
	bool in_call;
	int call_nr;			/* kt_field_sysnr() */
	bool call_sat;
	int64_t call_start;
	struct pf_sum sum;
};

/* The system calls of one task (or of all, task UINT_MAX) of one number. */
struct pf_sys {
	unsigned int task;
	unsigned int trace;
	int nr;
	bool sat;			/* nr saturated: a lower bound */
	unsigned long long count, errors;
	uint64_t total, min, max;
};

/* What the profile covers of one trace: its CPUs' high streams. */
struct pf_win {
	int64_t *first, *last;		/* per CPU; first INT64_MAX: no record */
	int64_t from, to;
	unsigned int cpus;
	unsigned long long losses;
};

struct profile {
	struct base b;
	bool json;
	struct pf_win *wins;
	struct pf_task *tasks;
	unsigned int nr_tasks;
	struct map sysmap;		/* (task, nr) -> index in sys */
	struct pf_sys *sys;
	unsigned int nr_sys;
};

/* ---- the window of each trace: a first pass ------------------------- */

static int pf_edges(struct kt_trace *t, const struct kt_record *r, void *arg)
{
	struct profile *p = arg;
	struct pf_win *w = &p->wins[t - p->b.set.traces];
	int64_t at = rec_time(&p->b, t, r);

	if (r->channel != KTRACE_CHANNEL_HIGH || r->cpu >= KTF_MAX_CPUS)
		return 0;
	if (w->first[r->cpu] == INT64_MAX)
		w->first[r->cpu] = at;
	w->last[r->cpu] = at;
	return 0;
}

/* The windows: from the latest first record to the earliest last one. */
static int pf_windows(struct profile *p)
{
	unsigned int i, c;

	p->wins = calloc(p->b.set.nr, sizeof(*p->wins));
	if (!p->wins)
		return -1;
	for (i = 0; i < p->b.set.nr; i++) {
		struct pf_win *w = &p->wins[i];

		w->first = malloc(KTF_MAX_CPUS * sizeof(*w->first));
		w->last = malloc(KTF_MAX_CPUS * sizeof(*w->last));
		if (!w->first || !w->last)
			return -1;
		for (c = 0; c < KTF_MAX_CPUS; c++)
			w->first[c] = INT64_MAX;
	}
	if (kt_set_merge(&p->b.set, pf_edges, p))
		return -1;
	for (i = 0; i < p->b.set.nr; i++) {
		struct pf_win *w = &p->wins[i];

		w->from = INT64_MIN;
		w->to = INT64_MAX;
		for (c = 0; c < KTF_MAX_CPUS; c++) {
			if (w->first[c] == INT64_MAX)
				continue;
			w->cpus++;
			if (w->first[c] > w->from)
				w->from = w->first[c];
			if (w->last[c] < w->to)
				w->to = w->last[c];
		}
		if (!w->cpus || w->from > w->to) {
			w->from = 0;
			w->to = 0;
		}
	}
	return 0;
}

/* ---- the tasks and their states ------------------------------------- */

/* From @since to @at, 0 if @at is before (times of a damaged trace). */
static uint64_t dur(int64_t at, int64_t since)
{
	return at > since ? (uint64_t)at - (uint64_t)since : 0;
}

static struct pf_task *pf_task(struct profile *p, const struct kt_trace *t, int pid)
{
	struct slot *s = map_find(&p->b.tasks, task_key(&p->b, t, pid), true);
	struct pf_task *n;

	if (!s)
		return NULL;
	if (s->pid >= 0)
		return &p->tasks[s->idx];
	n = realloc(p->tasks, (p->nr_tasks + 1) * sizeof(*n));
	if (!n) {
		map_del(&p->b.tasks, s);
		return NULL;
	}
	p->tasks = n;
	s->pid = pid;
	s->idx = p->nr_tasks++;
	n += s->idx;
	*n = (struct pf_task){ .trace = t - p->b.set.traces, .pid = pid };
	return n;
}

/* Close the sleep or blocked interval of @k at @at. */
static void pf_wake_end(struct pf_task *k, int64_t at)
{
	if (k->state == PF_SLEEP)
		k->sum.sleep += dur(at, k->since);
	else if (k->state == PF_BLOCKED)
		k->sum.blocked += dur(at, k->since);
}

/* The state a task switched away in goes to, from prev_state's name. */
static enum pf_state pf_after(const struct kt_record *r)
{
	const struct kt_field *f = field_of(r->event, "prev_state");
	uint64_t v;
	unsigned int i;

	if (!f || !kt_field_raw(f, r, &v))
		return PF_UNKNOWN;
	for (i = 0; i < f->nr_values; i++) {
		const char *n = f->values[i].name;

		if (f->values[i].value != v)
			continue;
		if (n[0] == 'R')
			return PF_WAIT;
		if (!strcmp(n, "D"))
			return PF_BLOCKED;
		if (!strcmp(n, "X") || !strcmp(n, "Z"))
			return PF_DEAD;
		return PF_SLEEP;
	}
	return PF_UNKNOWN;
}

static int pf_switch(struct profile *p, struct kt_trace *t, const struct kt_record *r,
		     int64_t at)
{
	struct pf_task *k;

	if (r->prev_pid > 0) {
		k = pf_task(p, t, r->prev_pid);
		if (!k)
			return -1;
		if (k->state == PF_RUNNING) {
			k->sum.run += dur(at, k->since);
			k->sum.runs++;
		}
		k->state = pf_after(r);
		k->since = at;
	}
	if (r->pid <= 0)
		return 0;
	k = pf_task(p, t, r->pid);
	if (!k)
		return -1;
	if (k->state == PF_WAIT) {
		k->sum.wait += dur(at, k->since);
		k->sum.waits++;
		if (dur(at, k->since) > k->sum.max_wait)
			k->sum.max_wait = dur(at, k->since);
	}
	pf_wake_end(k, at);
	k->state = PF_RUNNING;
	k->since = at;
	return 0;
}

static int pf_wakeup(struct profile *p, struct kt_trace *t, const struct kt_record *r,
		     int64_t at)
{
	uint64_t pid = field_num(r, "pid", 0);
	struct pf_task *k;

	if (!pid || pid > INT32_MAX)
		return 0;
	k = pf_task(p, t, pid);
	if (!k)
		return -1;
	if (k->state == PF_RUNNING || k->state == PF_WAIT || k->state == PF_DEAD)
		return 0;
	pf_wake_end(k, at);
	k->state = PF_WAIT;
	k->since = at;
	return 0;
}

/*
 * The sys entry of (@task, @nr), created if new; NULL when out of memory.
 * A saturated @nr (@sat) is the field's largest value, which no exact
 * number has: the same key.
 */
static struct pf_sys *pf_sys(struct profile *p, unsigned int task, unsigned int trace,
			     int nr, bool sat)
{
	struct slot *s = map_find(&p->sysmap, (uint64_t)task << 32 | (uint32_t)nr, true);
	struct pf_sys *n;

	if (!s)
		return NULL;
	if (s->pid >= 0)
		return &p->sys[s->idx];
	n = realloc(p->sys, (p->nr_sys + 1) * sizeof(*n));
	if (!n) {
		map_del(&p->sysmap, s);
		return NULL;
	}
	p->sys = n;
	s->pid = 0;
	s->idx = p->nr_sys++;
	n += s->idx;
	*n = (struct pf_sys){ .task = task, .trace = trace, .nr = nr, .sat = sat,
			      .min = UINT64_MAX };
	return n;
}

static void pf_sys_add(struct pf_sys *s, uint64_t ns, bool error)
{
	s->count++;
	s->errors += error;
	s->total += ns;
	if (ns < s->min)
		s->min = ns;
	if (ns > s->max)
		s->max = ns;
}

/* Whether the exit's return value is an errno (-4095 to -1). */
static bool pf_error(const struct kt_record *r)
{
	const struct kt_field *f = field_of(r->event, "ret");
	unsigned int bits;
	uint64_t v;
	int64_t ret;

	if (!f || !kt_field_raw(f, r, &v) || !(f->flags & KTRACE_FIELD_SIGNED))
		return false;
	bits = r->id != KTRACE_ID_EXPANDED ? f->size : 8 * f->size;
	if (bits < 64 && (v >> (bits - 1) & 1))
		v |= ~0ULL << bits;
	ret = (int64_t)v;
	return ret >= -4095 && ret <= -1;
}

static int pf_syscall(struct profile *p, struct kt_trace *t, const struct kt_record *r,
		      int64_t at, bool entry)
{
	struct pf_task *k;
	struct pf_sys *s;

	if (r->pid <= 0)
		return 0;
	k = pf_task(p, t, r->pid);
	if (!k)
		return -1;
	if (entry) {
		k->in_call = true;
		k->call_nr = kt_field_sysnr(r, &k->call_sat);
		k->call_start = at;
		return 0;
	}
	if (!k->in_call)
		return 0;
	k->in_call = false;
	s = pf_sys(p, k - p->tasks, k->trace, k->call_nr, k->call_sat);
	if (!s)
		return -1;
	pf_sys_add(s, dur(at, k->call_start), pf_error(r));
	return 0;
}

static bool is(const struct kt_record *r, const char *group, const char *name)
{
	return !strcmp(r->event->group, group) && !strcmp(r->event->name, name);
}

static int pf_one(struct kt_trace *t, const struct kt_record *r, void *arg)
{
	struct profile *p = arg;
	unsigned int ti = t - p->b.set.traces, i;
	struct pf_win *w = &p->wins[ti];
	int64_t at = rec_time(&p->b, t, r);
	struct pf_task *k;

	if (r->channel != KTRACE_CHANNEL_HIGH || at < w->from || at > w->to)
		return 0;
	if (r->lost) {
		/* Every task's state unknown again, as at the start. */
		w->losses++;
		for (i = 0; i < p->nr_tasks; i++) {
			if (p->tasks[i].trace != ti)
				continue;
			p->tasks[i].state = PF_UNKNOWN;
			p->tasks[i].in_call = false;
		}
	}
	if (!r->event)
		return 0;
	if (is(r, "sched", "switch"))
		return pf_switch(p, t, r, at);
	if (is(r, "sched", "wakeup") || is(r, "sched", "wakeup_new"))
		return pf_wakeup(p, t, r, at);
	if (is(r, "syscalls", "entry") || is(r, "syscalls", "exit"))
		return pf_syscall(p, t, r, at, r->event->name[0] == 'e' &&
				  r->event->name[1] == 'n');
	if (is(r, "sched", "exit") && field_num(r, "pid", 0) > 0) {
		k = pf_task(p, t, field_num(r, "pid", 0));
		if (!k)
			return -1;
		k->in_call = false;
	}
	return 0;
}

/* ---- printing --------------------------------------------------------- */

/* Whether task @k is printed: -p, and something counted. */
static bool pf_shown(const struct profile *p, const struct pf_task *k, unsigned int i)
{
	unsigned int j;

	if (p->b.pid >= 0 && k->pid != p->b.pid)
		return false;
	if (k->sum.runs || k->sum.waits || k->sum.sleep || k->sum.blocked)
		return true;
	for (j = 0; j < p->nr_sys; j++)
		if (p->sys[j].task == i)
			return true;
	return false;
}

static struct profile *sort_p;

static int task_cmp(const void *a, const void *b)
{
	const struct pf_task *x = &sort_p->tasks[*(const unsigned int *)a];
	const struct pf_task *y = &sort_p->tasks[*(const unsigned int *)b];

	if (x->sum.run != y->sum.run)
		return x->sum.run < y->sum.run ? 1 : -1;
	if (x->trace != y->trace)
		return x->trace < y->trace ? -1 : 1;
	return x->pid < y->pid ? -1 : x->pid > y->pid;
}

static int sys_cmp(const void *a, const void *b)
{
	const struct pf_sys *x = a, *y = b;

	if (x->task != y->task)
		return x->task < y->task ? -1 : 1;
	if (x->total != y->total)
		return x->total < y->total ? 1 : -1;
	return x->nr < y->nr ? -1 : x->nr > y->nr;
}

/* A time: "12.345us", or with JSON a number of nanoseconds. */
static void pf_time(const struct profile *p, const char *key, uint64_t ns)
{
	char w[48];

	if (p->json) {
		fprintf(p->b.out, ",\"%s_ns\":%llu", key, (unsigned long long)ns);
		return;
	}
	us_word(w, sizeof(w), ns);
	fprintf(p->b.out, " %s=%s", key, w);
}

static void pf_print_sum(const struct profile *p, const struct pf_sum *s)
{
	FILE *out = p->b.out;

	pf_time(p, "run", s->run);
	fprintf(out, p->json ? ",\"runs\":%llu" : " runs=%llu", s->runs);
	pf_time(p, "wait", s->wait);
	fprintf(out, p->json ? ",\"waits\":%llu" : " waits=%llu", s->waits);
	pf_time(p, "max_wait", s->max_wait);
	pf_time(p, "sleep", s->sleep);
	pf_time(p, "blocked", s->blocked);
}

/* The figures of system call entry @s (its task's, or all tasks'). */
static void pf_print_sys(const struct profile *p, const struct pf_sys *s)
{
	const char *name = s->sat || s->nr < 0 ? NULL :
			   kt_syscall_name(&p->b.set.traces[s->trace], s->nr);
	FILE *out = p->b.out;
	char w[16];

	kt_sysnr_word(w, sizeof(w), s->nr, s->sat);
	if (p->json && !s->sat)
		fprintf(out, "\"nr\":%s", w);
	else
		fprintf(out, p->json ? "\"nr\":\"%s\"" : " nr=%s", w);
	if (name)
		fprintf(out, p->json ? ",\"name\":\"%s\"" : " name=%s", name);
	fprintf(out, p->json ? ",\"count\":%llu,\"errors\":%llu" : " count=%llu errors=%llu",
		s->count, s->errors);
	pf_time(p, "total", s->total);
	pf_time(p, "min", s->min);
	pf_time(p, "avg", s->total / s->count);
	pf_time(p, "max", s->max);
}

/* A task's pid, name and host: text tokens, or the first JSON members. */
static void pf_print_who(const struct profile *p, unsigned int trace, int pid, bool with_pid)
{
	const struct kt_trace *t = &p->b.set.traces[trace];
	struct kt_buf b = { .grow = true };
	char comm[40], host[96];

	if (!p->json) {
		kt_comm_word(t, pid, comm, sizeof(comm));
		fprintf(p->b.out, "%s", host_tok(&p->b, trace, host, sizeof(host)));
		if (with_pid)
			fprintf(p->b.out, " pid=%d", pid);
		fprintf(p->b.out, " comm=%s", comm);
		return;
	}
	if (p->b.multi)
		fprintf(p->b.out, "\"host\":\"%s\",", t->host);
	if (with_pid)
		fprintf(p->b.out, "\"pid\":%d,", pid);
	kt_json_string(&b, (const unsigned char *)kt_comm(t, pid), strlen(kt_comm(t, pid)));
	fprintf(p->b.out, "\"comm\":%s", b.p ? b.p : "\"\"");
	free(b.p);
}

/* The header: what each trace's profile covers. */
static void pf_print_head(const struct profile *p)
{
	unsigned int i;
	char from[48], to[48], len[48], host[96];

	for (i = 0; i < p->b.set.nr; i++) {
		const struct pf_win *w = &p->wins[i];

		time_word(from, sizeof(from), w->from, false);
		time_word(to, sizeof(to), w->to, false);
		time_word(len, sizeof(len), (int64_t)dur(w->to, w->from), false);
		if (p->json) {
			fprintf(p->b.out, "%s{", i ? "," : "");
			if (p->b.multi)
				fprintf(p->b.out, "\"host\":\"%s\",", p->b.set.traces[i].host);
			fprintf(p->b.out,
				"\"from\":\"%s\",\"to\":\"%s\",\"cpus\":%u,\"losses\":%llu}",
				from, to, w->cpus, w->losses);
			continue;
		}
		fprintf(p->b.out, "# profile%s: from %s to %s (%s s), %u CPUs, %llu loss(es)\n",
			host_tok(&p->b, i, host, sizeof(host)), from, to, len, w->cpus,
			w->losses);
	}
	if (!p->json)
		fprintf(p->b.out,
			"# run: sched:switch to the task -> the next switch on its CPU; wait: wakeup\n"
			"# or preemption -> switch to it; sleep (S, I, ...) and blocked (D): switched\n"
			"# away -> wakeup; syscalls: entry -> exit, errors: -4095..-1 (ktrace(1))\n");
}

/* The tasks in @order (@n of them), and each one's system calls. */
static void pf_print_tasks(struct profile *p, const unsigned int *order, unsigned int n)
{
	unsigned int i, j;
	bool first;

	for (i = 0; i < n; i++) {
		const struct pf_task *t = &p->tasks[order[i]];

		fprintf(p->b.out, p->json ? "%s{" : "task", i ? "," : "");
		pf_print_who(p, t->trace, t->pid, true);
		pf_print_sum(p, &t->sum);
		if (p->json)
			fprintf(p->b.out, ",\"syscalls\":[");
		else
			fputc('\n', p->b.out);
		for (j = 0, first = true; j < p->nr_sys; j++) {
			if (p->sys[j].task != order[i])
				continue;
			if (p->json) {
				fprintf(p->b.out, "%s{", first ? "" : ",");
			} else {
				fprintf(p->b.out, "syscall");
				pf_print_who(p, t->trace, t->pid, true);
			}
			pf_print_sys(p, &p->sys[j]);
			fputs(p->json ? "}" : "\n", p->b.out);
			first = false;
		}
		if (p->json)
			fputs("]}", p->b.out);
	}
}

/* A group of tasks of one name: its first task (in @order) and its sums. */
struct pf_group {
	unsigned int head;
	struct pf_sum sum;
};

static int group_cmp(const void *a, const void *b)
{
	const struct pf_group *x = a, *y = b;

	if (x->sum.run != y->sum.run)
		return x->sum.run < y->sum.run ? 1 : -1;
	return x->head < y->head ? -1 : x->head > y->head;
}

/* The tasks grouped by name (and machine), by run time. */
static int pf_print_comms(struct profile *p, const unsigned int *order, unsigned int n)
{
	struct pf_group *gr = calloc(n + 1, sizeof(*gr));
	unsigned int i, j, g = 0;

	if (!gr)
		return -1;
	for (i = 0; i < n; i++) {
		const struct pf_task *t = &p->tasks[order[i]];
		struct pf_sum *s;

		for (j = 0; j < g; j++) {
			const struct pf_task *h = &p->tasks[gr[j].head];

			if (h->trace == t->trace &&
			    !strcmp(kt_comm(&p->b.set.traces[h->trace], h->pid),
				    kt_comm(&p->b.set.traces[t->trace], t->pid)))
				break;
		}
		if (j == g)
			gr[g++].head = order[i];
		s = &gr[j].sum;
		s->run += t->sum.run;
		s->runs += t->sum.runs;
		s->wait += t->sum.wait;
		s->waits += t->sum.waits;
		s->sleep += t->sum.sleep;
		s->blocked += t->sum.blocked;
		s->tasks++;
		if (t->sum.max_wait > s->max_wait)
			s->max_wait = t->sum.max_wait;
	}
	if (g)
		qsort(gr, g, sizeof(*gr), group_cmp);
	for (j = 0; j < g; j++) {
		const struct pf_task *h = &p->tasks[gr[j].head];

		fprintf(p->b.out, p->json ? "%s{" : "comm", j ? "," : "");
		pf_print_who(p, h->trace, h->pid, false);
		fprintf(p->b.out, p->json ? ",\"tasks\":%llu" : " tasks=%llu", gr[j].sum.tasks);
		pf_print_sum(p, &gr[j].sum);
		fputs(p->json ? "}" : "\n", p->b.out);
	}
	free(gr);
	return 0;
}

/* The system calls of the tasks shown, summed per number (and machine). */
static int pf_print_all_sys(struct profile *p, const bool *shown)
{
	struct pf_sys *all = NULL;
	unsigned int i, j, n = 0;

	for (i = 0; i < p->nr_sys; i++) {
		const struct pf_sys *s = &p->sys[i];
		struct pf_sys *a;

		if (!shown[s->task])
			continue;
		for (j = 0; j < n; j++)
			if (all[j].nr == s->nr && all[j].trace == s->trace)
				break;
		if (j == n) {
			a = realloc(all, (n + 1) * sizeof(*a));
			if (!a) {
				free(all);
				return -1;
			}
			all = a;
			all[n++] = (struct pf_sys){ .task = UINT_MAX, .trace = s->trace,
						    .nr = s->nr, .sat = s->sat,
						    .min = UINT64_MAX };
		}
		a = &all[j];
		a->count += s->count;
		a->errors += s->errors;
		a->total += s->total;
		if (s->min < a->min)
			a->min = s->min;
		if (s->max > a->max)
			a->max = s->max;
	}
	if (n)
		qsort(all, n, sizeof(*all), sys_cmp);
	for (j = 0; j < n; j++) {
		char host[96];

		if (p->json)
			fprintf(p->b.out, "%s{", j ? "," : "");
		else
			fprintf(p->b.out, "syscall%s pid=all",
				host_tok(&p->b, all[j].trace, host, sizeof(host)));
		if (p->json && p->b.multi)
			fprintf(p->b.out, "\"host\":\"%s\",", p->b.set.traces[all[j].trace].host);
		pf_print_sys(p, &all[j]);
		fputs(p->json ? "}" : "\n", p->b.out);
	}
	free(all);
	return 0;
}

static int pf_print(struct profile *p)
{
	unsigned int *order = calloc(p->nr_tasks + 1, sizeof(*order));
	bool *shown = calloc(p->nr_tasks + 1, sizeof(*shown));
	unsigned int i, n = 0;
	int ret = -1;

	if (!order || !shown)
		goto out;
	for (i = 0; i < p->nr_tasks; i++) {
		shown[i] = pf_shown(p, &p->tasks[i], i);
		if (shown[i])
			order[n++] = i;
	}
	sort_p = p;
	if (n)
		qsort(order, n, sizeof(*order), task_cmp);
	if (p->nr_sys)
		qsort(p->sys, p->nr_sys, sizeof(*p->sys), sys_cmp);
	if (p->json)
		fputs("{\"traces\":[", p->b.out);
	pf_print_head(p);
	if (p->json)
		fputs("],\"tasks\":[", p->b.out);
	pf_print_tasks(p, order, n);
	if (p->json)
		fputs("],\"comms\":[", p->b.out);
	if (pf_print_comms(p, order, n))
		goto out;
	if (p->json)
		fputs("],\"syscalls\":[", p->b.out);
	if (pf_print_all_sys(p, shown))
		goto out;
	if (p->json)
		fputs("]}\n", p->b.out);
	ret = 0;
out:
	free(order);
	free(shown);
	return ret;
}

/* Run profile on the open traces of @p; 0, or 1 after a message. */
static int pf_run(struct profile *p, const char *what)
{
	if (!find_event(&p->b.set, "sched", "switch") &&
	    !find_event(&p->b.set, "syscalls", "entry")) {
		fprintf(stderr,
			"ktrace profile: %s: no sched:switch or syscalls:entry event in the trace's metadata\n",
			what);
		return 1;
	}
	if (pf_windows(p) || kt_set_merge(&p->b.set, pf_one, p) || pf_print(p)) {
		fprintf(stderr, "ktrace profile: %s: out of memory\n", what);
		return 1;
	}
	return 0;
}

static void pf_free(struct profile *p)
{
	unsigned int i;

	for (i = 0; p->wins && i < p->b.set.nr; i++) {
		free(p->wins[i].first);
		free(p->wins[i].last);
	}
	free(p->wins);
	free(p->b.tasks.s);
	free(p->sysmap.s);
	free(p->tasks);
	free(p->sys);
}

/*
 * profile on the open traces of @s, to @out (JSON if @json), as the fuzzer
 * runs it.  0, or 1 after a message.
 */
int kt_profile(struct kt_set *s, bool json, FILE *out)
{
	struct profile p = { .b.set = *s, .b.pid = -1, .b.out = out, .json = json };
	int ret;

	p.b.multi = s->nr > 1;
	ret = pf_run(&p, "fuzz");
	pf_free(&p);
	return ret;
}

static const char profile_help[] =
	"usage: ktrace profile [--json] [-p PID] [--offset FILE=NS]... [FILE...]\n"
	"\n"
	"Per task (pid and name, then grouped by name): the time it ran, waited to\n"
	"run (woken or preempted -> switched in), slept (S) and was blocked (D); and\n"
	"per task and system call, the calls' count, errors, total, min, avg and max;\n"
	"from the sched and syscalls events of the trace files (by default ktrace.dat).\n"
	"Only what the trace saw whole counts: see ktrace(1), \"profile\".\n"
	"\n"
	"      --json           one JSON object (see ktrace(1))\n"
	"  -p, --pid PID        only this task\n"
	"      --offset FILE=NS add NS nanoseconds (signed) to the times of FILE\n"
	"  -h, --help           this help\n";

int cmd_profile(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "pid", required_argument, NULL, 'p' },
		{ "offset", required_argument, NULL, 'O' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct profile p = { .b.pid = -1, .b.out = stdout };
	int c, ret = 0;

	while (!ret && (c = getopt_long(argc, argv, "p:h", opts, NULL)) != -1) {
		switch (c) {
		case 'j':
			p.json = true;
			break;
		case 'p':
			p.b.pid = parse_pid(optarg);
			if (p.b.pid < 0) {
				fprintf(stderr, "ktrace profile: bad pid '%s'\n", optarg);
				ret = EXIT_USAGE;
			}
			break;
		case 'O':
			ret = kt_set_offset(&p.b.set, "profile", optarg);
			break;
		case 'h':
			fputs(profile_help, stdout);
			kt_set_close(&p.b.set);
			return 0;
		default:
			fputs(profile_help, stderr);
			ret = EXIT_USAGE;
		}
	}
	if (!ret)
		ret = kt_set_open(&p.b.set, "profile", argc - optind, argv + optind);
	if (!ret) {
		p.b.multi = p.b.set.nr > 1;
		ret = pf_run(&p, p.b.multi ? "the traces" : p.b.set.traces[0].path);
	}
	if (!ret && fflush(stdout)) {
		fprintf(stderr, "ktrace profile: write error\n");
		ret = 1;
	}
	pf_free(&p);
	kt_set_close(&p.b.set);
	return ret;
}
