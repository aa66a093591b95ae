// SPDX-License-Identifier: GPL-2.0
/*
 * tools/ktrace: ktrace io and ktrace reclaim, the analyses of the block
 * and VM events (Documentation/tools/ktrace/ktrace.rst, "io", "reclaim").
 *
 * io: per process, the block requests issued (block:rq_issue) in time
 * windows, each request attributed to the task that queued its bio: the
 * running task of its block:bio_queue or block:bio_split description;
 * a request that only block:rq_describe described (merged bios, flushes)
 * goes to the task running at its insert, else at its issue.  Bytes are
 * the description's nr_sector * 512; a request counts once, at its first
 * issue (a requeued request issued again is the same request); its
 * latency runs from its last issue to its end (rq_complete, rq_status).
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
 *
 * Fields are found by name in each trace's metadata, never at fixed
 * offsets: a trace whose metadata lacks one gets a message.
 */
#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <linux/kernel.h>		/* tools/include: ARRAY_SIZE() */

#include "trace.h"

/* ---- a map of 64-bit keys, open addressing -------------------------- */

struct slot {
	uint64_t key;
	int64_t ns;		/* io: the request's last issue */
	int pid;		/* io: the task it is attributed to, -1: none yet */
	unsigned int idx;	/* the task's index in its array */
	bool used, counted, issued;
};

struct map {
	struct slot *s;
	size_t nr, used;
};

static size_t map_hash(const struct map *m, uint64_t k)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdULL;
	k ^= k >> 33;
	return k & (m->nr - 1);
}

static bool map_grow(struct map *m)
{
	struct map n = { .nr = m->nr ? 2 * m->nr : 64 };
	size_t i, j;

	n.s = calloc(n.nr, sizeof(*n.s));
	if (!n.s)
		return false;
	for (i = 0; i < m->nr; i++) {
		if (!m->s[i].used)
			continue;
		for (j = map_hash(&n, m->s[i].key); n.s[j].used; j = (j + 1) & (n.nr - 1))
			;
		n.s[j] = m->s[i];
	}
	n.used = m->used;
	free(m->s);
	*m = n;
	return true;
}

/* The slot of @key; with @add, a new one (pid -1) if none: NULL if out of memory. */
static struct slot *map_find(struct map *m, uint64_t key, bool add)
{
	size_t i;

	if (add && 2 * (m->used + 1) > m->nr && !map_grow(m))
		return NULL;
	if (!m->nr)
		return NULL;
	for (i = map_hash(m, key); m->s[i].used; i = (i + 1) & (m->nr - 1))
		if (m->s[i].key == key)
			return &m->s[i];
	if (!add)
		return NULL;
	m->s[i] = (struct slot){ .key = key, .used = true, .pid = -1 };
	m->used++;
	return &m->s[i];
}

/* Delete @s, moving back the slots after it that it made probe further. */
static void map_del(struct map *m, struct slot *s)
{
	size_t mask = m->nr - 1, i = s - m->s, j = i, k;

	for (;;) {
		j = (j + 1) & mask;
		if (!m->s[j].used)
			break;
		k = map_hash(m, m->s[j].key);
		if (i <= j ? i < k && k <= j : i < k || k <= j)
			continue;
		m->s[i] = m->s[j];
		i = j;
	}
	m->s[i].used = false;
	m->used--;
}

/* ---- common ----------------------------------------------------------- */

/* What both analyses share: the traces, the time base, the -p filter. */
struct base {
	struct kt_set set;
	bool multi;
	long pid;			/* -p, or -1 */
	FILE *out;
	struct map tasks;		/* (trace, pid) -> index */
};

/* The time of @r: CLOCK_MONOTONIC (plus --offset), or merged CLOCK_REALTIME. */
static int64_t rec_time(const struct base *b, const struct kt_trace *t, const struct kt_record *r)
{
	__int128 v = (__int128)r->ns + t->offset_ns;

	if (b->multi)
		return kt_real_ns(t, r->ns);
	return v > INT64_MAX ? INT64_MAX : v < 0 ? 0 : (int64_t)v;
}

static const struct kt_field *field_of(const struct kt_event *ev, const char *name)
{
	unsigned int i;

	for (i = 0; ev && i < ev->nr_fields; i++)
		if (!strcmp(ev->fields[i].name, name))
			return &ev->fields[i];
	return NULL;
}

/* The number in field @name of @r; @dflt if it has none. */
static uint64_t field_num(const struct kt_record *r, const char *name, uint64_t dflt)
{
	const struct kt_field *f = field_of(r->event, name);
	uint64_t v;

	return f && kt_field_raw(f, r, &v) ? v : dflt;
}

/* Whether some trace's metadata has @group:@name. */
static const struct kt_event *find_event(const struct kt_set *s, const char *group,
					 const char *name)
{
	const struct kt_event *ev;
	unsigned int i, j, k;

	for (i = 0; i < s->nr; i++) {
		const struct kt_trace *t = &s->traces[i];

		for (j = 0; j < 256 * 256 + KTRACE_NR_CHANNELS * (KTRACE_ID_COMPACT_MAX + 1); j++) {
			k = j - 256 * 256;
			ev = j < 256 * 256 ? t->expanded[j / 256][j % 256] :
			     t->compact[k / (KTRACE_ID_COMPACT_MAX + 1)]
				       [k % (KTRACE_ID_COMPACT_MAX + 1)];
			if (ev && !strcmp(ev->group, group) && !strcmp(ev->name, name))
				return ev;
		}
	}
	return NULL;
}

/* SECONDS.NANOSECONDS; with @rel, signed: -S.N before the trigger, +S.N from it. */
static void time_word(char *buf, size_t size, int64_t ns, bool rel)
{
	uint64_t mag = ns < 0 ? -(uint64_t)ns : (uint64_t)ns;

	snprintf(buf, size, "%s%llu.%09u", rel ? ns < 0 ? "-" : "+" : ns < 0 ? "-" : "",
		 (unsigned long long)(mag / 1000000000), (unsigned int)(mag % 1000000000));
}

/* " host=NAME" with several traces, else nothing. */
static const char *host_tok(const struct base *b, unsigned int ti, char *buf, size_t size)
{
	if (!b->multi)
		return "";
	snprintf(buf, size, " host=%s", b->set.traces[ti].host);
	return buf;
}

static uint64_t task_key(const struct base *b, const struct kt_trace *t, int pid)
{
	return (uint64_t)(t - b->set.traces) << 32 | (uint32_t)pid;
}

/* A pid: digits, at most INT32_MAX; -1 if not. */
static long parse_pid(const char *s)
{
	char *end;
	long v;

	if (*s < '0' || *s > '9')
		return -1;
	v = strtol(s, &end, 10);
	return *end || v > INT32_MAX ? -1 : v;
}

/* ---- io ----------------------------------------------------------------- */

struct io_task {
	unsigned int trace;
	int pid;
	unsigned long long requests, bytes, rbytes, wbytes;
	int64_t max_lat;		/* -1: no request ended */
	unsigned long long gen;		/* of the window its cell is in */
	size_t cell;
};

/* One task's requests in one window. */
struct io_cell {
	int64_t win, start;
	unsigned int task;
	unsigned long long requests, bytes, rbytes, wbytes;
};

struct io {
	struct base b;
	int64_t window;			/* ns */
	bool relative, have_origin;
	int64_t origin;
	struct map descs;		/* description record -> the task that queued it */
	struct map reqs;		/* request in flight (inflight_key()) -> its state */
	struct io_task *tasks;
	unsigned int nr_tasks;
	struct io_cell *cells;
	size_t nr_cells, max_cells;
	int64_t cur_win;
	unsigned long long gen;		/* of the current window, from 1 */
	unsigned long long unknown;	/* issues of requests without description */
	unsigned long long at_bound;	/* requests whose nr_sector saturated */
	bool reads, writes;
};

static int io_find_trigger(struct kt_trace *t, const struct kt_record *r, void *arg)
{
	struct io *io = arg;

	if (!kt_is_trigger(r))
		return 0;
	io->origin = rec_time(&io->b, t, r);
	io->have_origin = true;
	return 1;
}

/* The window of @at: a multiple of the window, or centred on the trigger. */
static int64_t io_win(const struct io *io, int64_t at, int64_t *start)
{
	__int128 v = at, w = io->window, q;

	if (io->relative)
		v = v - io->origin + w / 2;
	q = v >= 0 ? v / w : -((-v + w - 1) / w);
	*start = (int64_t)(q * w - (io->relative ? w / 2 : 0));
	return (int64_t)q;
}

static struct io_task *io_task(struct io *io, const struct kt_trace *t, int pid)
{
	struct slot *s = map_find(&io->b.tasks, task_key(&io->b, t, pid), true);
	struct io_task *n;

	if (!s)
		return NULL;
	if (s->pid >= 0)
		return &io->tasks[s->idx];
	n = realloc(io->tasks, (io->nr_tasks + 1) * sizeof(*n));
	if (!n) {
		map_del(&io->b.tasks, s);
		return NULL;
	}
	io->tasks = n;
	s->pid = pid;
	s->idx = io->nr_tasks++;
	n += s->idx;
	*n = (struct io_task){ .trace = t - io->b.set.traces, .pid = pid, .max_lat = -1 };
	return n;
}

/* Count an issued request of @bytes and operation @op for @task at @at. */
static int io_count(struct io *io, struct io_task *task, int64_t at, uint64_t bytes, uint64_t op)
{
	int64_t start, win = io_win(io, at, &start);
	struct io_cell *c;

	if (!io->gen || win != io->cur_win) {
		io->gen++;
		io->cur_win = win;
	}
	if (task->gen != io->gen) {
		if (io->nr_cells == io->max_cells) {
			size_t n = io->max_cells ? 2 * io->max_cells : 256;

			c = realloc(io->cells, n * sizeof(*c));
			if (!c)
				return -1;
			io->cells = c;
			io->max_cells = n;
		}
		task->gen = io->gen;
		task->cell = io->nr_cells++;
		io->cells[task->cell] = (struct io_cell){
			.win = win, .start = start, .task = task - io->tasks,
		};
	}
	c = &io->cells[task->cell];
	c->requests++;
	task->requests++;
	c->bytes += bytes;
	task->bytes += bytes;
	if (op == KTRACE_BLK_OP_READ) {
		c->rbytes += bytes;
		task->rbytes += bytes;
		io->reads = io->reads || bytes;
	} else if (op == KTRACE_BLK_OP_WRITE) {
		c->wbytes += bytes;
		task->wbytes += bytes;
		io->writes = io->writes || bytes;
	}
	return 0;
}

/* The description that @r's first KEY field names: false if none. */
static bool io_desc(const struct kt_trace *t, const struct kt_record *r, struct kt_record *d)
{
	unsigned int i;

	for (i = 0; i < r->event->nr_fields; i++)
		if (r->event->fields[i].display == KTRACE_DISPLAY_KEY)
			return kt_key_named(t, r, i, d);
	return false;
}

/*
 * A request in flight, by what stays the same while it is: trace, dev,
 * first sector and op.  Its key and description change when a bio is
 * merged into it (a back merge grows nr_sector) and it is described
 * again after a requeue, a merge or when the kernel's table of described
 * keys lost it; as blktrace and lttng-analyses do, the request is the
 * one at that sector until it completes.
 */
static uint64_t inflight_key(unsigned int tr, const struct kt_record *d)
{
	uint64_t h = 0x9e3779b97f4a7c15ULL * (tr + 1);

	h ^= field_num(d, "sector", 0) + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
	h ^= field_num(d, "dev", 0) + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
	h ^= field_num(d, "op", KTRACE_BLK_OP_OTHER) + 0x9e3779b97f4a7c15ULL + (h << 6) +
	     (h >> 2);
	return h;
}

static int io_one(struct kt_trace *t, const struct kt_record *r, void *arg)
{
	struct io *io = arg;
	const char *name;
	struct kt_record d;
	struct io_task *task;
	const struct kt_field *f;
	uint64_t lat, sectors;
	unsigned int bits;
	struct slot *s, *q;
	int64_t at;

	if (!r->event || strcmp(r->event->group, "block"))
		return 0;
	name = r->event->name;
	at = rec_time(&io->b, t, r);
	if (r->id == KTRACE_ID_EXPANDED && (!strcmp(name, "bio_queue") ||
					    !strcmp(name, "bio_split") ||
					    !strcmp(name, "rq_describe"))) {
		/* A bio's description: the task that queued it (a request's: none). */
		s = map_find(&io->descs, (uintptr_t)r->data, true);
		if (!s)
			return -1;
		*s = (struct slot){ .key = s->key, .used = true, .pid = -1 };
		if (strcmp(name, "rq_describe"))
			s->pid = r->pid;
		return 0;
	}
	if (strcmp(name, "rq_insert") && strcmp(name, "rq_issue") &&
	    strcmp(name, "rq_complete") && strcmp(name, "rq_status"))
		return 0;
	if (!io_desc(t, r, &d)) {
		io->unknown += !strcmp(name, "rq_issue");
		return 0;
	}
	q = map_find(&io->descs, (uintptr_t)d.data, false);
	if (!strcmp(name, "rq_complete") || !strcmp(name, "rq_status")) {
		if (q)
			map_del(&io->descs, q);
		s = map_find(&io->reqs, inflight_key(t - io->b.set.traces, &d), false);
		if (!s)
			return 0;
		if (s->issued && s->pid >= 0) {
			task = io_task(io, t, s->pid);
			if (!task)
				return -1;
			lat = at > s->ns ? (uint64_t)at - (uint64_t)s->ns : 0;
			lat = lat > INT64_MAX ? INT64_MAX : lat;
			if ((int64_t)lat > task->max_lat)
				task->max_lat = lat;
		}
		map_del(&io->reqs, s);
		return 0;
	}
	s = map_find(&io->reqs, inflight_key(t - io->b.set.traces, &d), true);
	if (!s)
		return -1;
	/* The first task known: its bio's queuer, else the one inserting or issuing it. */
	if (s->pid < 0)
		s->pid = q && q->pid >= 0 ? q->pid : r->pid;
	if (!strcmp(name, "rq_insert"))
		return 0;
	s->ns = at;
	s->issued = true;
	if (s->counted)
		return 0;
	s->counted = true;
	task = io_task(io, t, s->pid);
	if (!task)
		return -1;
	sectors = field_num(&d, "nr_sector", 0);
	/* A size at the field's bound (KTRACE_FIELD_SATURATES) is a lower bound. */
	f = field_of(d.event, "nr_sector");
	bits = !f ? 0 : d.id == KTRACE_ID_EXPANDED ? f->size * 8 : f->size;
	if (f && (f->flags & KTRACE_FIELD_SATURATES) && bits && bits < 64 &&
	    sectors == (1ULL << bits) - 1)
		io->at_bound++;
	return io_count(io, task, at, sectors * 512, field_num(&d, "op", KTRACE_BLK_OP_OTHER));
}

static int cell_cmp(const void *a, const void *b)
{
	const struct io_cell *x = a, *y = b;

	if (x->win != y->win)
		return x->win < y->win ? -1 : 1;
	return (x->task > y->task) - (x->task < y->task);
}

/* Largest first, then by trace and pid. */
static int bytes_cmp(unsigned long long a, unsigned long long b, const struct io_task *x,
		     const struct io_task *y)
{
	if (a != b)
		return a > b ? -1 : 1;
	if (x->trace != y->trace)
		return x->trace < y->trace ? -1 : 1;
	return (x->pid > y->pid) - (x->pid < y->pid);
}

static struct io_task *sort_tasks;

static int cell_bytes_cmp(const void *a, const void *b)
{
	const struct io_cell *x = a, *y = b;

	if (x->win != y->win)
		return x->win < y->win ? -1 : 1;
	return bytes_cmp(x->bytes, y->bytes, &sort_tasks[x->task], &sort_tasks[y->task]);
}

static int task_bytes_cmp(const void *a, const void *b)
{
	const struct io_task *x = a, *y = b;

	return bytes_cmp(x->bytes, y->bytes, x, y);
}

static void us_word(char *buf, size_t size, uint64_t ns)
{
	snprintf(buf, size, "%llu.%03uus", (unsigned long long)(ns / 1000),
		 (unsigned int)(ns % 1000));
}

static void io_split(const struct io *io, FILE *out, unsigned long long r, unsigned long long w)
{
	if (io->reads && io->writes)
		fprintf(out, " read_bytes=%llu write_bytes=%llu", r, w);
}

static void io_print(struct io *io)
{
	unsigned long long requests = 0, bytes = 0;
	unsigned int i, n = 0;
	size_t j, k;
	FILE *out = io->b.out;
	char tw[48], host[96], comm[40];

	/* A window seen twice (times going back in a damaged trace): one cell. */
	if (io->nr_cells)
		qsort(io->cells, io->nr_cells, sizeof(*io->cells), cell_cmp);
	for (j = 0, k = 0; j < io->nr_cells; j++) {
		struct io_cell *c = &io->cells[j];

		if (io->b.pid >= 0 && io->tasks[c->task].pid != io->b.pid)
			continue;
		if (k && io->cells[k - 1].win == c->win && io->cells[k - 1].task == c->task) {
			io->cells[k - 1].requests += c->requests;
			io->cells[k - 1].bytes += c->bytes;
			io->cells[k - 1].rbytes += c->rbytes;
			io->cells[k - 1].wbytes += c->wbytes;
		} else {
			io->cells[k++] = *c;
		}
	}
	sort_tasks = io->tasks;
	if (k)
		qsort(io->cells, k, sizeof(*io->cells), cell_bytes_cmp);
	for (i = 0; i < io->nr_tasks; i++) {
		if (io->b.pid >= 0 && io->tasks[i].pid != io->b.pid)
			continue;
		if (!io->tasks[i].requests)
			continue;
		requests += io->tasks[i].requests;
		bytes += io->tasks[i].bytes;
		n++;
	}
	fprintf(out, "# io: %llu requests, %llu bytes, %u processes, windows of %llu.%03llums\n",
		requests, bytes, n, (unsigned long long)io->window / 1000000,
		(unsigned long long)io->window / 1000 % 1000);
	fprintf(out, "# requests counted at their first issue (block:rq_issue), bytes from the\n"
		"# request's description (nr_sector * 512), each request attributed to the\n"
		"# task that queued its bio (block:bio_queue, bio_split), else to the task\n"
		"# running at its insert or issue (block:rq_describe); max_latency: the\n"
		"# longest issue -> end (rq_complete, rq_status) of the task's requests\n");
	if (io->relative) {
		time_word(tw, sizeof(tw), io->origin, false);
		fprintf(out,
			"# times relative to the trigger record at %s, its window centred on it\n",
			tw);
	}
	if (io->unknown)
		fprintf(out,
			"# not counted: %llu issue(s) of requests without description in the trace\n",
			io->unknown);
	if (io->at_bound)
		fprintf(out,
			"# %llu request(s) at the bound of nr_sector: their bytes are lower bounds\n",
			io->at_bound);
	for (j = 0; j < k; j++) {
		struct io_cell *c = &io->cells[j];
		struct io_task *task = &io->tasks[c->task];

		time_word(tw, sizeof(tw), c->start, io->relative);
		kt_comm_word(&io->b.set.traces[task->trace], task->pid, comm, sizeof(comm));
		fprintf(out, "window %s%s pid=%d comm=%s requests=%llu bytes=%llu", tw,
			host_tok(&io->b, task->trace, host, sizeof(host)), task->pid, comm,
			c->requests, c->bytes);
		io_split(io, out, c->rbytes, c->wbytes);
		fputc('\n', out);
	}
	/* The names printed before the sort moves the tasks. */
	if (io->nr_tasks)
		qsort(io->tasks, io->nr_tasks, sizeof(*io->tasks), task_bytes_cmp);
	for (i = 0; i < io->nr_tasks; i++) {
		struct io_task *task = &io->tasks[i];

		if ((io->b.pid >= 0 && task->pid != io->b.pid) || !task->requests)
			continue;
		kt_comm_word(&io->b.set.traces[task->trace], task->pid, comm, sizeof(comm));
		if (task->max_lat >= 0)
			us_word(tw, sizeof(tw), task->max_lat);
		else
			snprintf(tw, sizeof(tw), "none");
		fprintf(out, "total%s pid=%d comm=%s requests=%llu bytes=%llu",
			host_tok(&io->b, task->trace, host, sizeof(host)), task->pid, comm,
			task->requests, task->bytes);
		/* The split after the tokens that every total line has. */
		fprintf(out, " max_latency=%s", tw);
		io_split(io, out, task->rbytes, task->wbytes);
		fputc('\n', out);
	}
}

/* Run io on the open traces of @io; 0, or 1 after a message. */
static int io_run(struct io *io, const char *what)
{
	int ret;

	if (!find_event(&io->b.set, "block", "rq_issue")) {
		fprintf(stderr, "ktrace io: %s: no block:rq_issue event in the trace's metadata\n",
			what);
		return 1;
	}
	if (io->relative) {
		if (kt_set_merge(&io->b.set, io_find_trigger, io) < 0) {
			fprintf(stderr, "ktrace io: %s: out of memory\n", what);
			return 1;
		}
		if (!io->have_origin) {
			fprintf(stderr, "ktrace io: %s: no trigger record (ktrace:trigger)\n",
				what);
			return 1;
		}
	}
	ret = kt_set_merge(&io->b.set, io_one, io);
	if (ret) {
		fprintf(stderr, "ktrace io: %s: out of memory\n", what);
		return 1;
	}
	io_print(io);
	return 0;
}

static void io_free(struct io *io)
{
	free(io->reqs.s);
	free(io->descs.s);
	free(io->b.tasks.s);
	free(io->tasks);
	free(io->cells);
}

static const char io_help[] =
	"usage: ktrace io [-r] [--window T] [-p PID] [--offset FILE=NS]... [FILE...]\n"
	"\n"
	"Per process, the block I/O issued (requests, bytes) in windows of time, of the\n"
	"trace files (by default ktrace.dat): who flooded the disk, and when.\n"
	"A request is counted at its first issue (block:rq_issue), its bytes from\n"
	"its description (nr_sector * 512), for the task that queued its bio\n"
	"(block:bio_queue, the running task), else for the task running at its\n"
	"insert or issue; the total lines give each task's longest issue -> end.\n"
	"\n"
	"  -r, --relative       windows relative to the first trigger record\n"
	"                       (ktrace:trigger), one of them centred on it\n"
	"      --window T       the windows' length: a number and ns, us, ms or s\n"
	"                       (default 100ms)\n"
	"  -p, --pid PID        only this process\n"
	"      --offset FILE=NS add NS nanoseconds (signed) to the times of FILE\n"
	"  -h, --help           this help\n";

int cmd_io(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "relative", no_argument, NULL, 'r' },
		{ "window", required_argument, NULL, 'w' },
		{ "pid", required_argument, NULL, 'p' },
		{ "offset", required_argument, NULL, 'O' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct io io = { .b.pid = -1, .b.out = stdout, .window = 100000000 };
	int c, ret = 0;

	while (!ret && (c = getopt_long(argc, argv, "rp:h", opts, NULL)) != -1) {
		switch (c) {
		case 'r':
			io.relative = true;
			break;
		case 'w':
			io.window = kt_parse_duration(optarg);
			/* At most a day: windows longer than a trace say nothing. */
			if (io.window <= 0 || io.window > 86400LL * 1000000000)
				io.window = -1;
			if (io.window < 0) {
				fprintf(stderr,
					"ktrace io: bad --window '%s': want a number and a unit, ns, us, ms or s, above 0 and at most a day\n",
					optarg);
				ret = EXIT_USAGE;
			}
			break;
		case 'p':
			io.b.pid = parse_pid(optarg);
			if (io.b.pid < 0) {
				fprintf(stderr, "ktrace io: bad pid '%s'\n", optarg);
				ret = EXIT_USAGE;
			}
			break;
		case 'O':
			ret = kt_set_offset(&io.b.set, "io", optarg);
			break;
		case 'h':
			fputs(io_help, stdout);
			kt_set_close(&io.b.set);
			return 0;
		default:
			fputs(io_help, stderr);
			ret = EXIT_USAGE;
		}
	}
	if (!ret)
		ret = kt_set_open(&io.b.set, "io", argc - optind, argv + optind);
	if (!ret) {
		io.b.multi = io.b.set.nr > 1;
		ret = io_run(&io, io.b.multi ? "the traces" : io.b.set.traces[0].path);
	}
	if (!ret && fflush(stdout)) {
		fprintf(stderr, "ktrace io: write error\n");
		ret = 1;
	}
	kt_set_close(&io.b.set);
	io_free(&io);
	return ret;
}

/* ---- reclaim ------------------------------------------------------------ */

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

/*
 * Both analyses on the open traces of @s, to @out: io (relative if @relative)
 * and reclaim, as the fuzzer runs them.  0, or 1 after a message.
 */
int kt_analyze(struct kt_set *s, bool relative, FILE *out)
{
	struct io io = { .b.set = *s, .b.pid = -1, .b.out = out, .window = 1000000,
			 .relative = relative };
	struct reclaim rc = { .b.set = *s, .b.pid = -1, .b.out = out };
	int ret;

	io.b.multi = s->nr > 1;
	rc.b.multi = io.b.multi;
	ret = io_run(&io, "fuzz");
	io_free(&io);
	ret |= rc_run(&rc, "fuzz");
	rc_free(&rc);
	return ret;
}
