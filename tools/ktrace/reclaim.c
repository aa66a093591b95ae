// SPDX-License-Identifier: GPL-2.0
/*
 * tools/ktrace: ktrace reclaim, the analysis of the VM events
 * (Documentation/tools/ktrace/ktrace.rst, "reclaim").
 *
 * reclaim: the reclaim passes per task, a pass being one
 * vm:direct_reclaim_begin..end of a task with the vm:shrink_inactive
 * records of that task in between; shrink_inactive records of a task not
 * in direct reclaim are its background passes (kswapd's, memory cgroup
 * reclaim), each ended by the task's vm:kswapd_sleep or by its priority
 * going back up (a reclaim starts at DEF_PRIORITY and only lowers it).
 * Then the OOM kills (vm:oom_kill): the victim, and the task that
 * triggered the kill, which is the running task of the record (the OOM
 * killer runs in the allocating task).
 */
#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <linux/kernel.h>		/* tools/include: ARRAY_SIZE() */

#include "analyze.h"
#include "format.h"

/* The fields of vm:shrink_inactive that are not reasons pages were kept. */
static const char *const shrink_counts[] = { "nid", "priority", "lru", "scanned", "reclaimed" };

#define MAX_REASONS	16
#define NO_PRIORITY	INT32_MAX
#define SHOWN_PASSES	20

struct pass {
	int64_t start, end;
	bool direct, ended;
	int priority;			/* the lowest (the most pressure); NO_PRIORITY */
	int last_priority;		/* of its last shrink_inactive record */
	unsigned int lists;		/* shrink_inactive records */
	unsigned long long scanned, reclaimed, kept[MAX_REASONS];
};

struct rc_task {
	unsigned int trace;
	int pid;
	bool open;			/* its last pass has not ended */
	struct pass *passes;
	unsigned int nr_passes, passes_size;
};

struct oom {
	unsigned int trace;
	int64_t at;
	int trigger;
	int victim;
	char comm[40];
	char *rest;			/* the other fields, " NAME=VALUE"... */
};

struct reclaim {
	struct base b;
	struct rc_task *tasks;
	unsigned int nr_tasks;
	char reasons[MAX_REASONS][KTRACE_NAME_LEN + 1];
	unsigned int nr_reasons;
	struct oom *ooms;
	unsigned int nr_ooms;
	unsigned long long wakes, sleeps;
};

static struct rc_task *rc_task(struct reclaim *rc, const struct kt_trace *t, int pid)
{
	struct slot *s = map_find(&rc->b.tasks, task_key(&rc->b, t, pid), true);
	struct rc_task *n;

	if (!s)
		return NULL;
	if (s->pid >= 0)
		return &rc->tasks[s->idx];
	n = realloc(rc->tasks, (rc->nr_tasks + 1) * sizeof(*n));
	if (!n) {
		map_del(&rc->b.tasks, s);
		return NULL;
	}
	rc->tasks = n;
	s->pid = pid;
	s->idx = rc->nr_tasks++;
	n += s->idx;
	*n = (struct rc_task){ .trace = t - rc->b.set.traces, .pid = pid };
	return n;
}

static struct pass *pass_open(struct rc_task *task, int64_t at, bool direct)
{
	struct pass *p;

	if (task->nr_passes == task->passes_size) {
		if (task->passes_size > UINT_MAX / 2 - 8)
			return NULL;
		p = realloc(task->passes, (task->passes_size * 2 + 8) * sizeof(*p));
		if (!p)
			return NULL;
		task->passes = p;
		task->passes_size = task->passes_size * 2 + 8;
	}
	p = &task->passes[task->nr_passes++];
	*p = (struct pass){ .start = at, .end = at, .direct = direct, .priority = NO_PRIORITY,
			    .last_priority = NO_PRIORITY };
	task->open = true;
	return p;
}

/* Add a shrink_inactive record to @p: the reasons by their names. */
static void pass_shrink(struct reclaim *rc, struct pass *p, const struct kt_record *r)
{
	const struct kt_event *ev = r->event;
	unsigned int i, j, k;
	uint64_t v;

	/* 0 to 12 (DEF_PRIORITY) in the kernel; whatever a damaged trace says, an int. */
	v = field_num(r, "priority", NO_PRIORITY);
	if (v < (uint64_t)p->priority)
		p->priority = (int)v;
	p->last_priority = v < NO_PRIORITY ? (int)v : NO_PRIORITY;
	p->scanned += field_num(r, "scanned", 0);
	p->reclaimed += field_num(r, "reclaimed", 0);
	p->lists++;
	for (i = 0; i < ev->nr_fields; i++) {
		const struct kt_field *f = &ev->fields[i];

		for (k = 0; k < ARRAY_SIZE(shrink_counts); k++)
			if (!strcmp(f->name, shrink_counts[k]))
				break;
		if (k < ARRAY_SIZE(shrink_counts) ||
		    f->display != KTRACE_DISPLAY_DEC || !kt_field_raw(f, r, &v))
			continue;
		for (j = 0; j < rc->nr_reasons; j++)
			if (!strcmp(rc->reasons[j], f->name))
				break;
		if (j == rc->nr_reasons) {
			if (j == MAX_REASONS)
				continue;
			snprintf(rc->reasons[j], sizeof(rc->reasons[j]), "%s", f->name);
			rc->nr_reasons++;
		}
		p->kept[j] += v;
	}
}

/* The victim of an oom_kill: its pid and comm, the rest of its fields. */
static int rc_oom(struct reclaim *rc, struct kt_trace *t, const struct kt_record *r, int64_t at)
{
	const struct kt_field *cf = field_of(r->event, "comm");
	struct kt_buf rest = { .grow = true };
	struct oom *o;
	unsigned int i;
	uint64_t v;

	o = realloc(rc->ooms, (rc->nr_ooms + 1) * sizeof(*o));
	if (!o)
		return -1;
	rc->ooms = o;
	o += rc->nr_ooms;
	*o = (struct oom){ .trace = t - rc->b.set.traces, .at = at, .trigger = r->pid,
			   .victim = (int)field_num(r, "pid", (uint64_t)-1) };
	if (cf && cf->display == KTRACE_DISPLAY_STRING && r->id == KTRACE_ID_EXPANDED &&
	    cf->offset < r->length) {
		size_t max = cf->size ? cf->size : r->length - cf->offset;

		if (cf->offset + max <= r->length) {
			const char *s = (const char *)r->data + cf->offset;
			size_t len = strnlen(s, max), j;

			len = len < sizeof(o->comm) - 1 ? len : sizeof(o->comm) - 1;
			/* One printable word, as a comm column. */
			for (j = 0; j < len; j++)
				o->comm[j] = s[j] > ' ' && s[j] < 0x7f ? s[j] : '_';
		}
	}
	if (!o->comm[0])
		kt_comm_word(&rc->b.set.traces[o->trace], o->victim, o->comm, sizeof(o->comm));
	for (i = 0; i < r->event->nr_fields; i++) {
		const struct kt_field *f = &r->event->fields[i];

		if (!strcmp(f->name, "pid") || f->display == KTRACE_DISPLAY_STRING ||
		    !kt_field_raw(f, r, &v))
			continue;
		if (f->flags & KTRACE_FIELD_SIGNED && f->size < 8 && r->id == KTRACE_ID_EXPANDED &&
		    v >> (f->size * 8 - 1) & 1)
			v |= ~0ULL << (f->size * 8);
		if (f->flags & KTRACE_FIELD_SIGNED)
			kt_bufprintf(&rest, " %s=%lld", f->name, (long long)v);
		else
			kt_bufprintf(&rest, " %s=%llu", f->name, (unsigned long long)v);
	}
	if (rest.overflow) {
		free(rest.p);
		return -1;
	}
	o->rest = rest.p;
	rc->nr_ooms++;
	return 0;
}

static int rc_one(struct kt_trace *t, const struct kt_record *r, void *arg)
{
	struct reclaim *rc = arg;
	struct rc_task *task;
	struct pass *p;
	const char *name;
	int64_t at;

	if (!r->event || strcmp(r->event->group, "vm"))
		return 0;
	name = r->event->name;
	at = rec_time(&rc->b, t, r);
	if (!strcmp(name, "oom_kill"))
		return rc_oom(rc, t, r, at);
	if (!strcmp(name, "kswapd_wake")) {
		rc->wakes++;
		return 0;
	}
	if (strcmp(name, "direct_reclaim_begin") && strcmp(name, "direct_reclaim_end") &&
	    strcmp(name, "shrink_inactive") && strcmp(name, "kswapd_sleep"))
		return 0;
	task = rc_task(rc, t, r->pid);
	if (!task)
		return -1;
	p = task->open ? &task->passes[task->nr_passes - 1] : NULL;
	if (!strcmp(name, "direct_reclaim_begin")) {
		/*
		 * A pass left open (a direct one whose end was lost) ends where
		 * the next begins; a background pass of the task (memory cgroup
		 * reclaim) was over before it entered direct reclaim.
		 */
		if (p && !p->direct)
			p->ended = true;
		return pass_open(task, at, true) ? 0 : -1;
	}
	if (!strcmp(name, "shrink_inactive")) {
		/*
		 * Outside direct reclaim (kswapd, memcg reclaim), a pass starts
		 * over at DEF_PRIORITY and only lowers it: a priority going back
		 * up is the next pass.
		 */
		if (p && !p->direct && field_num(r, "priority", 0) > (uint64_t)p->last_priority) {
			p->ended = true;
			task->open = false;
			p = NULL;
		}
		if (!p) {
			p = pass_open(task, at, false);
			if (!p)
				return -1;
		}
		pass_shrink(rc, p, r);
		p->end = at;
		return 0;
	}
	rc->sleeps += !strcmp(name, "kswapd_sleep");
	/*
	 * The end of a direct pass, or kswapd's sleep after its pass; a
	 * direct_reclaim_end ends an open pass whose begin was lost (before
	 * the trace) too, which it shows to be direct.
	 */
	if (p && !strcmp(name, "direct_reclaim_end"))
		p->direct = true;
	if (p && p->direct == !strcmp(name, "direct_reclaim_end")) {
		p->end = at;
		p->ended = true;
		task->open = false;
	}
	return 0;
}

static unsigned long long passes_of(const struct reclaim *rc, const struct rc_task *task)
{
	return rc->b.pid < 0 || task->pid == rc->b.pid ? task->nr_passes : 0;
}

static int rc_task_cmp(const void *a, const void *b)
{
	const struct rc_task *x = a, *y = b;

	if (x->nr_passes != y->nr_passes)
		return x->nr_passes > y->nr_passes ? -1 : 1;
	if (x->trace != y->trace)
		return x->trace < y->trace ? -1 : 1;
	return (x->pid > y->pid) - (x->pid < y->pid);
}

static void rc_print(struct reclaim *rc)
{
	unsigned long long passes = 0, tasks = 0, scanned, reclaimed;
	char tw[48], tw2[48], host[96], comm[40];
	FILE *out = rc->b.out;
	unsigned int i, j, k, first;
	int minp;

	if (rc->nr_tasks)
		qsort(rc->tasks, rc->nr_tasks, sizeof(*rc->tasks), rc_task_cmp);
	for (i = 0; i < rc->nr_tasks; i++) {
		passes += passes_of(rc, &rc->tasks[i]);
		tasks += !!passes_of(rc, &rc->tasks[i]);
	}
	fprintf(out, "# reclaim: %llu passes by %llu tasks", passes, tasks);
	if (rc->nr_ooms)
		fprintf(out, ", then oom kill of pid=%d comm=%s", rc->ooms[0].victim,
			rc->ooms[0].comm);
	fprintf(out, "\n"
		"# a pass: a task's vm:direct_reclaim_begin..end, or its vm:shrink_inactive\n"
		"# records outside direct reclaim (kswapd, background) until its\n"
		"# vm:kswapd_sleep or until the priority goes back up; the\n"
		"# sums of its shrink_inactive records: pages scanned, reclaimed, and kept\n"
		"# for each reason; priority: the lowest, the most pressure (12 the least)\n"
		"# vm:kswapd_wake: %llu, vm:kswapd_sleep: %llu\n", rc->wakes, rc->sleeps);
	for (i = 0; i < rc->nr_tasks; i++) {
		struct rc_task *task = &rc->tasks[i];

		if (!passes_of(rc, task))
			continue;
		scanned = 0;
		reclaimed = 0;
		minp = NO_PRIORITY;
		for (j = 0; j < task->nr_passes; j++) {
			scanned += task->passes[j].scanned;
			reclaimed += task->passes[j].reclaimed;
			if (task->passes[j].priority < minp)
				minp = task->passes[j].priority;
		}
		kt_comm_word(&rc->b.set.traces[task->trace], task->pid, comm, sizeof(comm));
		time_word(tw, sizeof(tw), task->passes[0].start, false);
		time_word(tw2, sizeof(tw2), task->passes[task->nr_passes - 1].end, false);
		fprintf(out, "task%s pid=%d comm=%s passes=%u reclaimed=%llu scanned=%llu ",
			host_tok(&rc->b, task->trace, host, sizeof(host)), task->pid, comm,
			task->nr_passes, reclaimed, scanned);
		if (minp == NO_PRIORITY)
			fprintf(out, "min_priority=none");
		else
			fprintf(out, "min_priority=%d", minp);
		fprintf(out, " first=%s last=%s\n", tw, tw2);
		first = 0;
		if (rc->b.pid < 0 && task->nr_passes > SHOWN_PASSES) {
			first = task->nr_passes - SHOWN_PASSES;
			fprintf(out, "  %u earlier passes not shown\n", first);
		}
		for (j = first; j < task->nr_passes; j++) {
			struct pass *p = &task->passes[j];

			time_word(tw, sizeof(tw), p->start, false);
			fprintf(out, "  pass at %s%s ", tw,
				host_tok(&rc->b, task->trace, host, sizeof(host)));
			if (p->priority == NO_PRIORITY)
				fprintf(out, "priority=none");
			else
				fprintf(out, "priority=%d", p->priority);
			fprintf(out, " scanned=%llu reclaimed=%llu kept:", p->scanned,
				p->reclaimed);
			for (k = 0; k < rc->nr_reasons; k++)
				fprintf(out, " %s=%llu", rc->reasons[k], p->kept[k]);
			us_word(tw, sizeof(tw), p->end > p->start ?
				(uint64_t)p->end - (uint64_t)p->start : 0);
			fprintf(out, " lists=%u %s%s%s\n", p->lists,
				p->ended ? "duration=" : "open", p->ended ? tw : "",
				p->direct ? "" : strncmp(comm, "kswapd", 6) ? " background" :
				" kswapd");
		}
	}
	for (i = 0; i < rc->nr_ooms; i++) {
		struct oom *o = &rc->ooms[i];

		time_word(tw, sizeof(tw), o->at, false);
		kt_comm_word(&rc->b.set.traces[o->trace], o->trigger, comm, sizeof(comm));
		fprintf(out, "oom_kill at %s%s victim pid=%d comm=%s%s trigger pid=%d comm=%s\n",
			tw, host_tok(&rc->b, o->trace, host, sizeof(host)), o->victim, o->comm,
			o->rest ? o->rest : "", o->trigger, comm);
	}
}

static int rc_run(struct reclaim *rc, const char *what)
{
	static const char *const evs[] = {
		"direct_reclaim_begin", "shrink_inactive", "oom_kill", "kswapd_sleep",
	};
	static const char *const needed[] = { "priority", "scanned", "reclaimed" };
	static const char *const names[] = {
		"vm:direct_reclaim_begin", "vm:shrink_inactive", "vm:oom_kill", "vm:kswapd_sleep",
		NULL,
	};
	const struct kt_event *ev;
	unsigned int i;
	bool any = false;

	for (i = 0; i < ARRAY_SIZE(evs); i++)
		any = any || find_event(&rc->b.set, "vm", evs[i]);
	if (!any) {
		fprintf(stderr,
			"ktrace reclaim: %s: no reclaim event (vm:direct_reclaim_begin, vm:shrink_inactive, vm:oom_kill) in the trace's metadata\n",
			what);
		return 1;
	}
	ev = find_event(&rc->b.set, "vm", "shrink_inactive");
	for (i = 0; ev && i < ARRAY_SIZE(needed); i++) {
		if (!field_of(ev, needed[i])) {
			fprintf(stderr,
				"ktrace reclaim: %s: vm:shrink_inactive has no field '%s' in the trace's metadata\n",
				what, needed[i]);
			return 1;
		}
	}
	if (kt_need_events(&rc->b.set, "reclaim", what, names, false))
		return 1;
	if (kt_set_merge(&rc->b.set, rc_one, rc)) {
		fprintf(stderr, "ktrace reclaim: %s: out of memory\n", what);
		return 1;
	}
	rc_print(rc);
	return 0;
}

static void rc_free(struct reclaim *rc)
{
	unsigned int i;

	for (i = 0; i < rc->nr_tasks; i++)
		free(rc->tasks[i].passes);
	for (i = 0; i < rc->nr_ooms; i++)
		free(rc->ooms[i].rest);
	free(rc->tasks);
	free(rc->ooms);
	free(rc->b.tasks.s);
}

static const char reclaim_help[] =
	"usage: ktrace reclaim [-p PID] [--offset FILE=NS]... [FILE...]\n"
	"\n"
	"The memory reclaim passes of each task in the trace files (by default\n"
	"ktrace.dat), with the pressure (priority) and why pages were kept, then\n"
	"the OOM kills: their victim and the task that triggered them.  A pass is a\n"
	"task's vm:direct_reclaim_begin..end with its vm:shrink_inactive records, or\n"
	"its shrink_inactive records outside direct reclaim (kswapd's, memory cgroup\n"
	"reclaim) until its vm:kswapd_sleep or until the priority goes back up.\n"
	"Tasks with the most passes first, their last 20 passes.\n"
	"\n"
	"  -p, --pid PID        only this task, all its passes\n"
	"      --offset FILE=NS add NS nanoseconds (signed) to the times of FILE\n"
	"  -h, --help           this help\n";

int cmd_reclaim(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "pid", required_argument, NULL, 'p' },
		{ "offset", required_argument, NULL, 'O' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct reclaim rc = { .b.pid = -1, .b.out = stdout };
	int c, ret = 0;

	while (!ret && (c = getopt_long(argc, argv, "p:h", opts, NULL)) != -1) {
		switch (c) {
		case 'p':
			rc.b.pid = parse_pid(optarg);
			if (rc.b.pid < 0) {
				fprintf(stderr, "ktrace reclaim: bad pid '%s'\n", optarg);
				ret = EXIT_USAGE;
			}
			break;
		case 'O':
			ret = kt_set_offset(&rc.b.set, "reclaim", optarg);
			break;
		case 'h':
			fputs(reclaim_help, stdout);
			kt_set_close(&rc.b.set);
			return 0;
		default:
			fputs(reclaim_help, stderr);
			ret = EXIT_USAGE;
		}
	}
	if (!ret)
		ret = kt_set_open(&rc.b.set, "reclaim", argc - optind, argv + optind);
	if (!ret) {
		rc.b.multi = rc.b.set.nr > 1;
		ret = rc_run(&rc, rc.b.multi ? "the traces" : rc.b.set.traces[0].path);
	}
	if (!ret && fflush(stdout)) {
		fprintf(stderr, "ktrace reclaim: write error\n");
		ret = 1;
	}
	kt_set_close(&rc.b.set);
	rc_free(&rc);
	return ret;
}

/* reclaim on the open traces of @s, to @out, as the fuzzer runs it; 0 or 1. */
int kt_reclaim(struct kt_set *s, FILE *out)
{
	struct reclaim rc = { .b.set = *s, .b.pid = -1, .b.out = out };
	int ret;

	rc.b.multi = s->nr > 1;
	ret = rc_run(&rc, "fuzz");
	rc_free(&rc);
	return ret;
}
