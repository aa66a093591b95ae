// SPDX-License-Identifier: GPL-2.0
/*
 * tools/ktrace: ktrace report, the events of traces as lines of text (the
 * kernel's ascii pipe's, kt_format()) or JSON objects (kt_format_json()),
 * filtered by CPU, task, event and time.
 *
 * With --realtime, CLOCK_REALTIME times from the clock record's
 * reference; several traces merge on CLOCK_REALTIME (struct kt_set).
 */
#include <fnmatch.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "format.h"

/* The time bases of report's time column, --from and --to. */
enum time_base { TB_MONO, TB_REAL, TB_REAL_ISO };

struct filter {
	long *cpus, *pids;
	unsigned int nr_cpus, nr_pids;
	char **comms;
	unsigned int nr_comms;
	/* Which -c, -p items some event of the trace has: warned of if not. */
	bool *cpu_hit, *pid_hit, *comm_hit;
	char **events;
	unsigned int nr_events;
	uint64_t from, to;
	struct kt_buf line;		/* grown as lines need */
	bool relative, json;
	enum time_base base;
	/* CLOCK_REALTIME - CLOCK_MONOTONIC, as a sign and a magnitude: all of u64 */
	uint64_t real_mag;
	bool real_neg;
	int64_t rel_from, rel_to;
	uint64_t origin;
	bool have_origin;
	/*
	 * Several traces: times are CLOCK_REALTIME plus each file's
	 * offset (kt_real_ns()), and a HOST column follows the time.
	 */
	bool multi;
};

/* The time of @r that report compares and prints (monotonic or merged). */
static uint64_t rec_ns(const struct filter *f, const struct kt_trace *t,
		       const struct kt_record *r)
{
	int64_t v;

	if (!f->multi)
		return kt_mono_ns(t, r->ns);
	v = kt_real_ns(t, r->ns);
	return v < 0 ? 0 : v;
}

static int find_trigger(struct kt_trace *t, const struct kt_record *r, void *arg)
{
	struct filter *f = arg;

	if (!kt_is_trigger(r))
		return 0;
	f->origin = rec_ns(f, t, r);
	f->have_origin = true;
	return 1;
}

static int parse_time(const char *s, uint64_t *ns);

/* @e, GROUP or GROUP:NAME, names the event @group:@name. */
static bool event_is(const char *e, const char *group, const char *name)
{
	size_t glen = strlen(group);

	/* A glob, as trace-cmd's -e 'sched*': GROUP-GLOB[:NAME-GLOB]. */
	if (strpbrk(e, "*?[")) {
		char g[2 * KTRACE_NAME_LEN + 8], *n;

		snprintf(g, sizeof(g), "%s", e);
		n = g + strcspn(g, ":/");
		if (*n)
			*n++ = '\0';
		return !fnmatch(g, group, 0) && (!*n || !fnmatch(n, name, 0));
	}
	return !strcmp(e, group) ||
	       (!strncmp(e, group, glen) && e[glen] == ':' && !strcmp(e + glen + 1, name));
}

static bool event_matches(const struct filter *f, const struct kt_record *r)
{
	unsigned int i;

	if (!f->nr_events)
		return true;
	for (i = 0; i < f->nr_events; i++) {
		if (r->event ? event_is(f->events[i], r->event->group, r->event->name) :
		    event_is(f->events[i], "unknown", kt_channel_name(r->channel)))
			return true;
	}
	return false;
}

/* @name, a -p item, names the task @pid: as report prints it or as it is. */
static bool comm_is(struct kt_trace *t, int pid, const char *name)
{
	char comm[17];

	if (!strcmp(kt_comm(t, pid), name))
		return true;
	kt_comm_word(t, pid, comm, sizeof(comm));
	return !strcmp(comm, name);
}

static bool task_matches(const struct filter *f, struct kt_trace *t, const struct kt_record *r)
{
	unsigned int i;

	if (!f->nr_pids && !f->nr_comms)
		return true;
	for (i = 0; i < f->nr_pids; i++)
		if (r->pid == f->pids[i])
			return true;
	for (i = 0; i < f->nr_comms; i++)
		if (comm_is(t, r->pid, f->comms[i]))
			return true;
	return false;
}

static bool cpu_matches(const struct filter *f, const struct kt_record *r)
{
	unsigned int i;

	for (i = 0; i < f->nr_cpus; i++)
		if (r->cpu == f->cpus[i])
			return true;
	return !f->nr_cpus;
}

/* Note the -c and -p items that @r has, whatever the other filters say. */
static void note_hits(struct filter *f, struct kt_trace *t, const struct kt_record *r)
{
	unsigned int i;

	for (i = 0; i < f->nr_cpus; i++)
		f->cpu_hit[i] = f->cpu_hit[i] || r->cpu == f->cpus[i];
	for (i = 0; i < f->nr_pids; i++)
		f->pid_hit[i] = f->pid_hit[i] || r->pid == f->pids[i];
	for (i = 0; i < f->nr_comms; i++)
		f->comm_hit[i] = f->comm_hit[i] || comm_is(t, r->pid, f->comms[i]);
}

/* A warning for each -c or -p item that no event of the trace has. */
static void warn_misses(const struct filter *f, const char *path)
{
	unsigned int i;

	for (i = 0; i < f->nr_cpus; i++)
		if (!f->cpu_hit[i])
			fprintf(stderr,
				"ktrace report: %s: warning: -c %ld: no event on this CPU\n",
				path, f->cpus[i]);
	for (i = 0; i < f->nr_pids; i++)
		if (!f->pid_hit[i])
			fprintf(stderr,
				"ktrace report: %s: warning: -p %ld: no event of this pid\n",
				path, f->pids[i]);
	for (i = 0; i < f->nr_comms; i++)
		if (!f->comm_hit[i])
			fprintf(stderr,
				"ktrace report: %s: warning: -p %s: no event of a task of this name\n",
				path, f->comms[i]);
}

/*
 * CLOCK_REALTIME of a CLOCK_MONOTONIC time of the trace, saturated at 0
 * and UINT64_MAX: the references can be anything a file holds.
 */
static uint64_t real_ns(const struct filter *f, uint64_t ns)
{
	if (f->real_neg)
		return ns > f->real_mag ? ns - f->real_mag : 0;
	return ns > UINT64_MAX - f->real_mag ? UINT64_MAX : ns + f->real_mag;
}

/* A CLOCK_REALTIME time as SECONDS.NANOSECONDS, or in ISO 8601 UTC. */
static void real_str(const struct filter *f, char *buf, size_t size, uint64_t ns)
{
	time_t sec = ns / 1000000000;
	struct tm tm;

	if (f->base != TB_REAL_ISO || !gmtime_r(&sec, &tm)) {
		kt_time_str(buf, size, ns);
		return;
	}
	snprintf(buf, size, "%04d-%02d-%02dT%02d:%02d:%02d.%09uZ", tm.tm_year + 1900,
		 tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec,
		 (unsigned int)(ns % 1000000000));
}

static int report_one(struct kt_trace *t, const struct kt_record *r, void *arg)
{
	struct filter *f = arg;
	uint64_t ns = rec_ns(f, t, r);
	int64_t rel = (int64_t)(ns - f->origin);
	uint64_t mag = rel < 0 ? -(uint64_t)rel : (uint64_t)rel;
	uint64_t at = f->base == TB_MONO || f->multi ? ns : real_ns(f, ns);
	char time[160], extra[256] = "";
	size_t len;

	note_hits(f, t, r);
	if (!cpu_matches(f, r) || at < f->from || at > f->to || !event_matches(f, r) ||
	    !task_matches(f, t, r))
		return 0;
	if (f->relative && (rel < f->rel_from || rel > f->rel_to))
		return 0;
	if (f->relative) {
		/* JSON: the wall-clock time too, if asked for. */
		if (f->base != TB_MONO) {
			real_str(f, time, sizeof(time), f->multi ? ns : real_ns(f, ns));
			snprintf(extra, sizeof(extra), "\"realtime\":\"%s\",", time);
		}
		/* The time relative to the first trigger record: -S.N before, +S.N from it. */
		snprintf(time, sizeof(time), "%c%llu.%09u", rel < 0 ? '-' : '+',
			 (unsigned long long)(mag / 1000000000), (unsigned int)(mag % 1000000000));
	} else if (f->base != TB_MONO) {
		real_str(f, time, sizeof(time), at);
	} else {
		kt_time_str(time, sizeof(time), ns);
	}
	if (f->multi) {
		/* The host is a word (kt_set_open()), JSON-safe but for quotes. */
		len = strlen(extra);
		if (f->json)
			snprintf(extra + len, sizeof(extra) - len, "\"host\":\"%s\",", t->host);
		else
			snprintf(time + strlen(time), sizeof(time) - strlen(time), " %s", t->host);
	}
	if (f->json) {
		if (kt_format_json(t, r, time, extra, &f->line))
			return -1;
		kt_bufprintf(&f->line, "\n");
	} else if (kt_format_time(t, r, time, &f->line)) {
		return -1;
	}
	return fwrite(f->line.p, 1, f->line.len, stdout) != f->line.len ? -1 : 0;
}

/* [+-]SECONDS[.FRACTION] to signed nanoseconds; -1 if malformed. */
static int parse_rel_time(const char *s, int64_t *ns)
{
	bool neg = *s == '-';
	uint64_t v;

	if (*s == '-' || *s == '+')
		s++;
	if (parse_time(s, &v) || v > INT64_MAX)
		return -1;
	*ns = neg ? -(int64_t)v : (int64_t)v;
	return 0;
}

/* SECONDS[.FRACTION] to nanoseconds; -1 if malformed. */
static int parse_time(const char *s, uint64_t *ns)
{
	unsigned long long sec = 0, frac = 0, scale = 1000000000;
	char *end;

	if (*s < '0' || *s > '9')
		return -1;
	sec = strtoull(s, &end, 10);
	if (sec > 18000000000ULL)
		return -1;
	if (*end == '.') {
		for (end++; *end >= '0' && *end <= '9'; end++) {
			if (scale > 1) {
				scale /= 10;
				frac += (*end - '0') * scale;
			}
		}
	}
	if (*end)
		return -1;
	*ns = sec * 1000000000 + frac;
	return 0;
}

static long parse_num(const char *s, long max)
{
	char *end;
	long v;

	if (*s < '0' || *s > '9')
		return -1;
	v = strtol(s, &end, 10);
	return *end || v > max ? -1 : v;
}

/* Parse --from or --to, absolute or (-r) relative; true after a message if bad. */
static bool bad_time(const struct filter *f, const char *s, uint64_t *abs, int64_t *rel)
{
	if (!s || !(f->relative ? parse_rel_time(s, rel) : parse_time(s, abs)))
		return false;
	fprintf(stderr, "ktrace report: bad time '%s': want %sSECONDS[.FRACTION]\n", s,
		f->relative ? "[+-]" : "");
	return true;
}

/* Append to a list; false when out of memory. */
static bool add_long(long **list, unsigned int *nr, long v)
{
	long *l = realloc(*list, (*nr + 1) * sizeof(*l));

	if (!l)
		return false;
	l[(*nr)++] = v;
	*list = l;
	return true;
}

static bool add_str(char ***list, unsigned int *nr, char *v)
{
	char **l = realloc(*list, (*nr + 1) * sizeof(*l));

	if (!l)
		return false;
	l[(*nr)++] = v;
	*list = l;
	return true;
}

/* All digits: a pid, a CPU. */
static bool all_digits(const char *s)
{
	return *s && strspn(s, "0123456789") == strlen(s);
}

/*
 * -c, -p and -e: comma-separated lists, the option repeatable; a list of
 * no item (-p '', -p ,) is an error, not "no filter".  A -p item of
 * digits only is a pid, any other a task name (7z, 2to3).  Events as
 * GROUP, GROUP:NAME or GROUP/NAME, kept as GROUP or GROUP:NAME.  Returns
 * 0, 1 when out of memory, or EXIT_USAGE after a message.
 */
static int parse_list(struct filter *f, int opt, char *arg)
{
	char *tok, *save = NULL, *p;
	unsigned int items = 0;
	long v;

	for (tok = strtok_r(arg, ",", &save); tok; tok = strtok_r(NULL, ",", &save), items++) {
		switch (opt) {
		case 'c':
			v = all_digits(tok) ? parse_num(tok, KTF_MAX_CPUS - 1) : -1;
			if (v < 0) {
				fprintf(stderr, "ktrace report: bad CPU '%s'\n", tok);
				return EXIT_USAGE;
			}
			if (!add_long(&f->cpus, &f->nr_cpus, v))
				return 1;
			break;
		case 'p':
			if (all_digits(tok)) {
				v = parse_num(tok, INT32_MAX);
				if (v < 0) {
					fprintf(stderr, "ktrace report: bad pid '%s'\n", tok);
					return EXIT_USAGE;
				}
				if (!add_long(&f->pids, &f->nr_pids, v))
					return 1;
			} else if (!add_str(&f->comms, &f->nr_comms, tok)) {
				return 1;
			}
			break;
		default:
			p = strchr(tok, '/');
			if (p)
				*p = ':';
			if (!*tok || *tok == ':' || tok[strlen(tok) - 1] == ':') {
				fprintf(stderr,
					"ktrace report: bad event '%s': want GROUP, GROUP:NAME or GROUP/NAME\n",
					tok);
				return EXIT_USAGE;
			}
			if (!add_str(&f->events, &f->nr_events, tok))
				return 1;
		}
	}
	if (!items) {
		fprintf(stderr, "ktrace report: -%c '%s': an empty list: want %s\n", opt, arg,
			opt == 'c' ? "CPU,..." : opt == 'p' ? "PID|COMM,..." : "EVENT,...");
		return EXIT_USAGE;
	}
	return 0;
}

/* Every -e names an event or a group of the trace's metadata (or unknown). */
static int check_events(const struct filter *f, const struct kt_trace *t, bool quiet)
{
	unsigned int i, j, k;
	const struct kt_event *ev;

	for (i = 0; i < f->nr_events; i++) {
		const char *e = f->events[i];
		bool found = false;

		for (j = 0; j < KTRACE_NR_CHANNELS && !found; j++)
			found = event_is(e, "unknown", kt_channel_name(j));
		for (j = 0; j < 256 && !found; j++) {
			for (k = 0; k < 256 && !found; k++) {
				ev = t->expanded[j][k];
				found = ev && event_is(e, ev->group, ev->name);
				ev = j < KTRACE_NR_CHANNELS && k <= KTRACE_ID_COMPACT_MAX ?
				     t->compact[j][k] : NULL;
				found = found || (ev && event_is(e, ev->group, ev->name));
			}
		}
		if (!found) {
			if (!quiet)
				fprintf(stderr,
					"ktrace report: %s: no event or group '%s' in the trace's metadata\n",
					t->path, e);
			return EXIT_USAGE;
		}
	}
	return 0;
}

static const char report_help[] =
	"usage: ktrace report [-c CPU,...] [-p PID|COMM,...] [-e EVENT,...] [--from SEC]\n"
	"                     [--to SEC] [-r] [--realtime[=iso]] [--json]\n"
	"                     [--offset FILE=NS]... [FILE...]\n"
	"\n"
	"Print the events of a trace file (by default " DEFAULT_FILE "), one per line,\n"
	"merged across CPUs in time order, as /sys/kernel/debug/ktrace/ascii prints them:\n"
	"  TIME CPU COMM-PID GROUP:NAME KEY=VALUE...\n"
	"\n"
	"  -c, --cpu LIST       only events of these CPUs\n"
	"  -p, --pid LIST       only events while these tasks ran: pids (digits only),\n"
	"                       or names, as report prints them or as they are\n"
	"  -e, --event LIST     only these events: GROUP, GROUP:NAME or GROUP/NAME,\n"
	"                       or globs ('sched*', '*:sw*')\n"
	"                       (unknown, unknown:CHANNEL for events without metadata)\n"
	"      --from SEC       only events at or after this time (in the time base of\n"
	"                       the TIME column: CLOCK_MONOTONIC seconds by default)\n"
	"      --to SEC         only events at or before this time\n"
	"  -r, --relative       times relative to the first trigger record (ktrace:trigger),\n"
	"                       -S.N before it and +S.N from it; --from and --to are then\n"
	"                       relative too and may be negative\n"
	"      --realtime[=iso] CLOCK_REALTIME times, seconds since the epoch or ISO 8601\n"
	"                       UTC; with -r, times stay relative and a first line\n"
	"                       '# trigger at TIME' gives the trigger's wall-clock time\n"
	"      --json           one JSON object per event (see ktrace(1))\n"
	"      --offset FILE=NS add NS nanoseconds (signed) to the times of FILE\n"
	"  -h, --help           this help\n"
	"\n"
	"Several files (of several machines, or several recordings of one) are merged\n"
	"on CLOCK_REALTIME from each trace's clock reference, plus its offset; a HOST\n"
	"column (the machine's nodename) follows the time, and times are CLOCK_REALTIME.\n"
	"\n"
	"Lists are comma-separated, not empty; -c, -p and -e may be repeated.  A -c\n"
	"or -p item that no event of the trace has is warned of on stderr.\n";

static void filter_free(struct filter *f)
{
	free(f->line.p);
	free(f->cpus);
	free(f->pids);
	free(f->comms);
	free(f->events);
	free(f->cpu_hit);
	free(f->pid_hit);
	free(f->comm_hit);
}

/* The options, in @f and @set: -1 to go on, or report's exit status. */
static int report_parse(struct filter *f, struct kt_set *set, const char **from,
			const char **to, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "cpu", required_argument, NULL, 'c' },
		{ "pid", required_argument, NULL, 'p' },
		{ "event", required_argument, NULL, 'e' },
		{ "from", required_argument, NULL, 'F' },
		{ "to", required_argument, NULL, 'T' },
		{ "relative", no_argument, NULL, 'r' },
		{ "realtime", optional_argument, NULL, 'R' },
		{ "json", no_argument, NULL, 'j' },
		{ "offset", required_argument, NULL, 'O' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c, ret;

	while ((c = getopt_long(argc, argv, "c:p:e:rh", opts, NULL)) != -1) {
		switch (c) {
		case 'c':
		case 'p':
		case 'e':
			ret = parse_list(f, c, optarg);
			if (ret)
				return ret;
			break;
		case 'F':
			*from = optarg;
			break;
		case 'T':
			*to = optarg;
			break;
		case 'r':
			f->relative = true;
			break;
		case 'R':
			if (optarg && strcmp(optarg, "iso")) {
				fprintf(stderr,
					"ktrace report: bad --realtime '%s': want --realtime or --realtime=iso\n",
					optarg);
				return EXIT_USAGE;
			}
			f->base = optarg ? TB_REAL_ISO : TB_REAL;
			break;
		case 'j':
			f->json = true;
			break;
		case 'O':
			ret = kt_set_offset(set, "report", optarg);
			if (ret)
				return ret;
			break;
		case 'h':
			fputs(report_help, stdout);
			return 0;
		default:
			fputs(report_help, stderr);
			return EXIT_USAGE;
		}
	}
	return -1;
}

/*
 * Before the report: the events of -e in the metadata, the clock's
 * CLOCK_REALTIME reference and the trigger of -r.  0, or 1 after saying
 * what is missing.
 */
static int report_prepare(struct filter *f, struct kt_set *set, const char *path)
{
	struct kt_trace *t = &set->traces[0];
	unsigned int i, bad;
	char real[64];
	int ret = 0;

	/* An event must be in the metadata of one of the traces at least. */
	for (i = 0, bad = 0; i < set->nr && !ret; i++) {
		ret = check_events(f, &set->traces[i], f->multi);
		bad += !!ret;
		if (f->multi && ret && bad < set->nr)
			ret = 0;
	}
	if (ret && f->multi)
		fprintf(stderr,
			"ktrace report: an event of -e is in none of the traces' metadata\n");
	if (!ret && f->base != TB_MONO && !f->multi) {
		if (!t->have_clock || !t->clock.ref_real_ns) {
			fprintf(stderr,
				"ktrace report: %s: no CLOCK_REALTIME reference in the trace's clock record\n",
				path);
			ret = 1;
		}
		f->real_neg = t->clock.ref_real_ns < t->clock.ref_mono_ns;
		f->real_mag = f->real_neg ? t->clock.ref_mono_ns - t->clock.ref_real_ns :
			      t->clock.ref_real_ns - t->clock.ref_mono_ns;
	}
	if (!ret && f->relative && kt_set_merge(set, find_trigger, f) < 0) {
		/* find_trigger() stops the merge with 1: only -1 is an error. */
		fprintf(stderr, "ktrace report: %s: out of memory looking for the trigger\n",
			path);
		ret = 1;
	}
	if (!ret && f->relative) {
		if (!f->have_origin) {
			fprintf(stderr, "ktrace report: %s: no trigger record (ktrace:trigger)\n",
				path);
			ret = 1;
		}
		/* Relative times, the trigger's wall-clock time once. */
		if (!ret && f->base != TB_MONO && !f->json) {
			real_str(f, real, sizeof(real), real_ns(f, f->origin));
			printf("# trigger at %s\n", real);
		}
	}
	return ret;
}

int cmd_report(int argc, char **argv)
{
	struct filter f = { .to = UINT64_MAX, .rel_from = INT64_MIN, .rel_to = INT64_MAX };
	const char *from = NULL, *to = NULL, *path;
	struct kt_set set = { 0 };
	int ret;

	ret = report_parse(&f, &set, &from, &to, argc, argv);
	if (ret >= 0)
		goto out;
	/* Several files: CLOCK_REALTIME times, unless ISO 8601 was asked for. */
	f.multi = argc - optind > 1;
	if (f.multi && f.base == TB_MONO)
		f.base = TB_REAL;
	if (bad_time(&f, from, &f.from, &f.rel_from) || bad_time(&f, to, &f.to, &f.rel_to)) {
		ret = EXIT_USAGE;
		goto out;
	}
	f.line.grow = true;
	f.cpu_hit = calloc(f.nr_cpus + 1, sizeof(bool));
	f.pid_hit = calloc(f.nr_pids + 1, sizeof(bool));
	f.comm_hit = calloc(f.nr_comms + 1, sizeof(bool));
	ret = !f.cpu_hit || !f.pid_hit || !f.comm_hit;
	if (ret)
		fprintf(stderr, "ktrace report: out of memory\n");
	else
		ret = kt_set_open(&set, "report", argc - optind, argv + optind);
	if (ret)
		goto out;
	path = f.multi ? "the traces" : set.traces[0].path;
	ret = report_prepare(&f, &set, path);
	if (ret)
		goto out;
	ret = kt_set_merge(&set, report_one, &f);
	if (ret || fflush(stdout)) {
		fprintf(stderr, "ktrace report: %s\n",
			ferror(stdout) ? "write error" : "out of memory");
		ret = 1;
	} else {
		warn_misses(&f, path);
	}
out:
	kt_set_close(&set);
	filter_free(&f);
	return ret;
}
