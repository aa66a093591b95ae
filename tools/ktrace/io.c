// SPDX-License-Identifier: GPL-2.0
/*
 * tools/ktrace: ktrace io, the analysis of the block events
 * (Documentation/tools/ktrace/ktrace.rst, "io").
 *
 * io: per process, the block requests issued (block:rq_issue) in time
 * windows, each request attributed to the task that queued its bio: the
 * running task of its block:bio_queue or block:bio_split description;
 * a request that only block:rq_describe described (merged bios, flushes)
 * goes to the task running at its insert, else at its issue.  Bytes are
 * the description's nr_sector * 512; a request counts once, at its first
 * issue (a requeued request issued again is the same request); its
 * latency runs from its last issue to its end (rq_complete, rq_status).
 */
#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <linux/kernel.h>		/* tools/include: ARRAY_SIZE() */

#include "analyze.h"
#include "format.h"

struct io_task {
	unsigned int trace;
	int pid;
	unsigned int nr_pids;		/* --comm: the processes of its name */
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
	bool by_comm;			/* --comm */
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
	*n = (struct io_task){ .trace = t - io->b.set.traces, .pid = pid, .max_lat = -1,
			       .nr_pids = 1 };
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

static void io_split(const struct io *io, FILE *out, unsigned long long r, unsigned long long w)
{
	if (io->reads && io->writes)
		fprintf(out, " read_bytes=%llu write_bytes=%llu", r, w);
}

/* A task with requests, for --comm: its trace and name, then its index. */
struct io_named {
	unsigned int trace, idx;
	char name[40];
};

static int io_named_cmp(const void *a, const void *b)
{
	const struct io_named *x = a, *y = b;
	int c;

	if (x->trace != y->trace)
		return x->trace < y->trace ? -1 : 1;
	c = strcmp(x->name, y->name);
	if (c)
		return c;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/*
 * --comm: the processes of one name (in one trace) as one, as perf sched
 * latency groups by comm: their counts added to the first of them (the
 * lowest index), their windows' cells moved to it.  Sorted by (trace,
 * name, index): n log n in the tasks.  -p names one process: nothing to
 * group.
 */
static void io_by_comm(struct io *io)
{
	struct io_named *named = calloc(io->nr_tasks, sizeof(*named));
	unsigned int *rep = calloc(io->nr_tasks, sizeof(*rep));
	unsigned int i, n = 0, first = 0;
	size_t k;

	if (!named || !rep || io->b.pid >= 0)
		goto out;
	for (i = 0; i < io->nr_tasks; i++) {
		struct io_task *task = &io->tasks[i];

		rep[i] = i;
		if (!task->requests)
			continue;
		named[n].trace = task->trace;
		named[n].idx = i;
		kt_comm_word(&io->b.set.traces[task->trace], task->pid, named[n].name,
			     sizeof(named[n].name));
		n++;
	}
	qsort(named, n, sizeof(*named), io_named_cmp);
	for (i = 0; i < n; i++) {
		struct io_task *task = &io->tasks[named[i].idx], *to;

		if (!i || named[first].trace != named[i].trace ||
		    strcmp(named[first].name, named[i].name)) {
			first = i;
			continue;
		}
		rep[named[i].idx] = named[first].idx;
		to = &io->tasks[named[first].idx];
		to->requests += task->requests;
		to->bytes += task->bytes;
		to->rbytes += task->rbytes;
		to->wbytes += task->wbytes;
		to->max_lat = to->max_lat > task->max_lat ? to->max_lat : task->max_lat;
		to->nr_pids++;
		task->requests = 0;
	}
	for (k = 0; k < io->nr_cells; k++)
		io->cells[k].task = rep[io->cells[k].task];
out:
	free(named);
	free(rep);
}

/* "pid=PID comm=COMM", or with --comm "comm=COMM pids=N". */
static const char *io_who(const struct io *io, const struct io_task *task, char *buf,
			  size_t size)
{
	char comm[40];

	kt_comm_word(&io->b.set.traces[task->trace], task->pid, comm, sizeof(comm));
	if (io->by_comm && io->b.pid < 0)
		snprintf(buf, size, "comm=%s pids=%u", comm, task->nr_pids);
	else
		snprintf(buf, size, "pid=%d comm=%s", task->pid, comm);
	return buf;
}

static void io_print(struct io *io)
{
	unsigned long long requests = 0, bytes = 0;
	unsigned int i, n = 0;
	size_t j, k;
	FILE *out = io->b.out;
	char tw[48], host[96], who[64];

	if (io->by_comm)
		io_by_comm(io);
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
	fprintf(out, "# io: %llu requests, %llu bytes, %u %s, windows of %llu.%03llums\n",
		requests, bytes, n,
		io->by_comm && io->b.pid < 0 ? "process names" : "processes",
		(unsigned long long)io->window / 1000000,
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
		fprintf(out, "window %s%s %s requests=%llu bytes=%llu", tw,
			host_tok(&io->b, task->trace, host, sizeof(host)),
			io_who(io, task, who, sizeof(who)), c->requests, c->bytes);
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
		if (task->max_lat >= 0)
			us_word(tw, sizeof(tw), task->max_lat);
		else
			snprintf(tw, sizeof(tw), "none");
		fprintf(out, "total%s %s requests=%llu bytes=%llu",
			host_tok(&io->b, task->trace, host, sizeof(host)),
			io_who(io, task, who, sizeof(who)), task->requests, task->bytes);
		/* The split after the tokens that every total line has. */
		fprintf(out, " max_latency=%s", tw);
		io_split(io, out, task->rbytes, task->wbytes);
		fputc('\n', out);
	}
}

/* Run io on the open traces of @io; 0, or 1 after a message. */
static int io_run(struct io *io, const char *what)
{
	static const char *const needed[] = { "block:rq_issue", NULL };
	int ret;

	if (!find_event(&io->b.set, "block", "rq_issue")) {
		fprintf(stderr, "ktrace io: %s: no block:rq_issue event in the trace's metadata\n",
			what);
		return 1;
	}
	if (kt_need_events(&io->b.set, "io", what, needed, true))
		return 1;
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
	"usage: ktrace io [-r] [--window T] [-p PID | -c] [--offset FILE=NS]... [FILE...]\n"
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
	"  -c, --comm           one line per process name (its processes added up,\n"
	"                       pids=N), as perf sched latency groups by comm\n"
	"      --offset FILE=NS add NS nanoseconds (signed) to the times of FILE\n"
	"  -h, --help           this help\n";

int cmd_io(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "relative", no_argument, NULL, 'r' },
		{ "window", required_argument, NULL, 'w' },
		{ "pid", required_argument, NULL, 'p' },
		{ "comm", no_argument, NULL, 'c' },
		{ "offset", required_argument, NULL, 'O' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct io io = { .b.pid = -1, .b.out = stdout, .window = 100000000 };
	int c, ret = 0;

	while (!ret && (c = getopt_long(argc, argv, "rp:ch", opts, NULL)) != -1) {
		switch (c) {
		case 'r':
			io.relative = true;
			break;
		case 'c':
			io.by_comm = true;
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

/*
 * io on the open traces of @s, to @out (relative if @relative), as the
 * fuzzer runs it.  0, or 1 after a message.
 */
int kt_io(struct kt_set *s, bool relative, FILE *out)
{
	struct io io = { .b.set = *s, .b.pid = -1, .b.out = out, .window = 1000000,
			 .relative = relative };
	int ret;

	io.b.multi = s->nr > 1;
	ret = io_run(&io, "fuzz");
	io_free(&io);
	return ret;
}
