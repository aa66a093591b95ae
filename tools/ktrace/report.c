// SPDX-License-Identifier: GPL-2.0
/*
 * tools/ktrace: ktrace report and ktrace stat.
 *
 * report prints what the kernel's ascii pipe prints for the same events
 * (see kernel/trace/ktrace/ascii.c and Documentation/trace/ktrace.rst):
 *
 *   TIME CPU COMM-PID GROUP:NAME KEY=VALUE...
 *
 * Task names come from the trace, then the saved comms and the tasks
 * recorded with it (the kernel names tasks alive when the line is read).
 * SYMBOL fields print as the symbols section recorded with the trace says
 * (symbols.c: name+0xoff/0xsize [module], as the kernel's %pS), also when
 * it hid the addresses behind tokens; a value it does not name prints as
 * a hexadecimal address.
 */
#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "trace.h"

#define EXIT_USAGE	2
#define LINE_MAX_LEN	(32 * 1024)

void kt_bufprintf(struct kt_buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (b->len >= b->size)
		return;
	va_start(ap, fmt);
	n = vsnprintf(b->p + b->len, b->size - b->len, fmt, ap);
	va_end(ap);
	if (n > 0)
		b->len += n;
}

static void put_string(struct kt_buf *b, const unsigned char *s, size_t len)
{
	size_t i;

	kt_bufprintf(b, "\"");
	for (i = 0; i < len; i++) {
		unsigned char ch = s[i];

		if (ch == '"' || ch == '\\')
			kt_bufprintf(b, "\\%c", ch);
		else if (ch == '\n')
			kt_bufprintf(b, "\\n");
		else if (ch == '\t')
			kt_bufprintf(b, "\\t");
		else if (ch < 0x20 || ch > 0x7e)
			kt_bufprintf(b, "\\x%02x", ch);
		else
			kt_bufprintf(b, "%c", ch);
	}
	kt_bufprintf(b, "\"");
}

static void put_field(struct kt_buf *b, const struct kt_trace *t, const struct kt_field *f,
		      const struct kt_record *r)
{
	const char *sym;
	bool compact = r->id != KTRACE_ID_EXPANDED;
	uint64_t v = 0;
	unsigned int i;

	if (f->display == KTRACE_DISPLAY_STRING && !compact) {
		size_t off = f->offset < r->length ? f->offset : r->length;
		size_t len = f->size ? f->size : r->length - off;

		if (f->offset + len > r->length) {
			kt_bufprintf(b, "?");
			return;
		}
		put_string(b, r->data + f->offset, strnlen((const char *)r->data + f->offset, len));
		return;
	}
	if (compact) {
		if (f->offset >= 32 || !f->size) {
			kt_bufprintf(b, "?");
			return;
		}
		v = r->payload >> f->offset;
		if (f->size < 32)
			v &= (1ULL << f->size) - 1;
		if ((f->flags & KTRACE_FIELD_SIGNED) && f->size < 64 && (v >> (f->size - 1)) & 1)
			v |= ~0ULL << f->size;
	} else {
		if (f->size > sizeof(v) || f->offset + f->size > r->length) {
			kt_bufprintf(b, "?");
			return;
		}
		memcpy(&v, r->data + f->offset, f->size);
		if ((f->flags & KTRACE_FIELD_SIGNED) && f->size && f->size < 8 &&
		    (v >> (f->size * 8 - 1)) & 1)
			v |= ~0ULL << (f->size * 8);
	}
	switch (f->display) {
	case KTRACE_DISPLAY_SYMBOL:
		/* The symbol saved with the trace, as the kernel's %pS. */
		sym = kt_symbol(t, v);
		if (sym)
			kt_bufprintf(b, "%s", sym);
		else
			kt_bufprintf(b, "0x%llx", (unsigned long long)v);
		return;
	case KTRACE_DISPLAY_HEX:
		kt_bufprintf(b, "0x%llx", (unsigned long long)v);
		return;
	case KTRACE_DISPLAY_DEV:
		/* The kernel's dev_t: MINORBITS is 20. */
		kt_bufprintf(b, "%u:%u", (unsigned int)(v >> 20) & 0xfff,
			     (unsigned int)v & 0xfffff);
		return;
	case KTRACE_DISPLAY_ENUM:
		for (i = 0; i < f->nr_values; i++) {
			if (f->values[i].value == v) {
				kt_bufprintf(b, "%s", f->values[i].name);
				return;
			}
		}
		break;
	}
	if (f->flags & KTRACE_FIELD_SIGNED)
		kt_bufprintf(b, "%lld", (long long)v);
	else
		kt_bufprintf(b, "%llu", (unsigned long long)v);
}

void kt_format(struct kt_trace *t, const struct kt_record *r, char *line, size_t size)
{
	struct kt_buf b = { line, size - 1, 0 };
	const struct kt_event *ev = r->event;
	char comm[17];
	unsigned int i;
	char *p;

	snprintf(comm, sizeof(comm), "%s", kt_comm(t, r->pid));
	for (p = comm; *p; p++)
		if (*p == ' ')
			*p = '_';
	kt_bufprintf(&b, "%llu.%09u %u %s-%d ", (unsigned long long)(r->ns / 1000000000),
		     (unsigned int)(r->ns % 1000000000), r->cpu, comm, r->pid);
	if (!ev && r->id != KTRACE_ID_EXPANDED)
		kt_bufprintf(&b, "unknown:%s id=%u payload=0x%x", kt_channel_name(r->channel),
			     r->id, r->payload);
	else if (!ev)
		kt_bufprintf(&b, "unknown:%s major=%u minor=%u length=%u",
			     kt_channel_name(r->channel), r->major, r->minor, r->length);
	else
		kt_bufprintf(&b, "%s:%s", ev->group, ev->name);
	for (i = 0; ev && i < ev->nr_fields; i++) {
		kt_bufprintf(&b, " %s=", ev->fields[i].name);
		put_field(&b, t, &ev->fields[i], r);
	}
	if (b.len > size - 2)
		b.len = size - 2;
	line[b.len++] = '\n';
	line[b.len] = '\0';
}

struct filter {
	long cpu;
	long pid;
	char **events;
	unsigned int nr_events;
	uint64_t from, to;
	char *line;
	bool relative;
	int64_t rel_from, rel_to;
	uint64_t origin;
	bool have_origin;
};

/* The trigger record: ktrace:trigger, written when a trigger fires. */
static bool is_trigger(const struct kt_record *r)
{
	return r->event && !strcmp(r->event->group, "ktrace") &&
	       !strcmp(r->event->name, "trigger");
}

static int find_trigger(struct kt_trace *t, const struct kt_record *r, void *arg)
{
	struct filter *f = arg;

	(void)t;
	if (!is_trigger(r))
		return 0;
	f->origin = r->ns;
	f->have_origin = true;
	return 1;
}

static int parse_time(const char *s, uint64_t *ns);

static bool event_matches(const struct filter *f, const struct kt_record *r)
{
	unsigned int i;
	size_t glen;

	if (!f->nr_events)
		return true;
	if (!r->event)
		return false;
	glen = strlen(r->event->group);
	for (i = 0; i < f->nr_events; i++) {
		const char *e = f->events[i];

		if (!strcmp(e, r->event->group) ||
		    (!strncmp(e, r->event->group, glen) && e[glen] == ':' &&
		     !strcmp(e + glen + 1, r->event->name)))
			return true;
	}
	return false;
}

static int report_one(struct kt_trace *t, const struct kt_record *r, void *arg)
{
	struct filter *f = arg;

	int64_t rel = (int64_t)(r->ns - f->origin);
	uint64_t mag = rel < 0 ? -(uint64_t)rel : (uint64_t)rel;

	if ((f->cpu >= 0 && r->cpu != f->cpu) || (f->pid >= 0 && r->pid != f->pid) ||
	    r->ns < f->from || r->ns > f->to || !event_matches(f, r))
		return 0;
	if (f->relative && (rel < f->rel_from || rel > f->rel_to))
		return 0;
	kt_format(t, r, f->line, LINE_MAX_LEN);
	if (!f->relative)
		return fputs(f->line, stdout) == EOF ? -1 : 0;
	/* The time relative to the first trigger record: -S.N before, +S.N from it. */
	return printf("%c%llu.%09u%s", rel < 0 ? '-' : '+', (unsigned long long)(mag / 1000000000),
		      (unsigned int)(mag % 1000000000), strchr(f->line, ' ')) < 0 ? -1 : 0;
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

static const char report_help[] =
	"usage: ktrace report [-c CPU] [-p PID] [-e EVENT,...] [--from SEC] [--to SEC] [-r] FILE\n"
	"\n"
	"Print the events of a trace file, one per line, merged across CPUs in\n"
	"time order, as /sys/kernel/debug/ktrace/ascii prints them:\n"
	"  TIME CPU COMM-PID GROUP:NAME KEY=VALUE...\n"
	"\n"
	"  -c, --cpu CPU        only events of this CPU\n"
	"  -p, --pid PID        only events while this task ran\n"
	"  -e, --event LIST     only these events: GROUP or GROUP:NAME, comma-separated\n"
	"      --from SEC       only events at or after this time (CLOCK_MONOTONIC seconds)\n"
	"      --to SEC         only events at or before this time\n"
	"  -r, --relative       times relative to the first trigger record (ktrace:trigger),\n"
	"                       -S.N before it and +S.N from it; --from and --to are then\n"
	"                       relative too and may be negative\n"
	"  -h, --help           this help\n";

int cmd_report(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "cpu", required_argument, NULL, 'c' },
		{ "pid", required_argument, NULL, 'p' },
		{ "event", required_argument, NULL, 'e' },
		{ "from", required_argument, NULL, 'F' },
		{ "to", required_argument, NULL, 'T' },
		{ "relative", no_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct filter f = { .cpu = -1, .pid = -1, .to = UINT64_MAX,
			    .rel_from = INT64_MIN, .rel_to = INT64_MAX };
	const char *from = NULL, *to = NULL;
	char *events = NULL, *tok;
	struct kt_trace t;
	int c, ret;

	while ((c = getopt_long(argc, argv, "c:p:e:rh", opts, NULL)) != -1) {
		switch (c) {
		case 'c':
			f.cpu = parse_num(optarg, KTF_MAX_CPUS - 1);
			if (f.cpu < 0) {
				fprintf(stderr, "ktrace report: bad CPU '%s'\n", optarg);
				return EXIT_USAGE;
			}
			break;
		case 'p':
			f.pid = parse_num(optarg, INT32_MAX);
			if (f.pid < 0) {
				fprintf(stderr, "ktrace report: bad pid '%s'\n", optarg);
				return EXIT_USAGE;
			}
			break;
		case 'e':
			events = optarg;
			break;
		case 'F':
			from = optarg;
			break;
		case 'T':
			to = optarg;
			break;
		case 'r':
			f.relative = true;
			break;
		case 'h':
			fputs(report_help, stdout);
			return 0;
		default:
			fputs(report_help, stderr);
			return EXIT_USAGE;
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr, "ktrace report: %s\n", optind == argc ? "no trace file given" :
			"one trace file only");
		return EXIT_USAGE;
	}
	if (bad_time(&f, from, &f.from, &f.rel_from) || bad_time(&f, to, &f.to, &f.rel_to))
		return EXIT_USAGE;
	if (events) {
		for (tok = strtok(events, ","); tok; tok = strtok(NULL, ",")) {
			char **e = realloc(f.events, (f.nr_events + 1) * sizeof(*e));

			if (!e)
				return 1;
			f.events = e;
			f.events[f.nr_events++] = tok;
		}
	}
	f.line = malloc(LINE_MAX_LEN);
	if (!f.line || kt_open(&t, argv[optind])) {
		free(f.line);
		free(f.events);
		return 1;
	}
	if (f.relative) {
		kt_merge(&t, find_trigger, &f);
		if (!f.have_origin) {
			fprintf(stderr, "ktrace report: %s: no trigger record (ktrace:trigger)\n",
				argv[optind]);
			kt_close(&t);
			free(f.line);
			free(f.events);
			return 1;
		}
	}
	ret = kt_merge(&t, report_one, &f);
	if (ret)
		fprintf(stderr, "ktrace report: write error\n");
	kt_close(&t);
	free(f.line);
	free(f.events);
	return ret ? 1 : 0;
}

#define STAT_TRIGGERS	16

struct stat_acc {
	unsigned long long events, unknown;
	uint64_t first, last;
	unsigned long long *per_cpu;
	unsigned int nr_cpus;
	char *triggers[STAT_TRIGGERS];
	unsigned int nr_triggers;
};

static int stat_one(struct kt_trace *t, const struct kt_record *r, void *arg)
{
	struct stat_acc *a = arg;

	if (!a->events)
		a->first = r->ns;
	a->last = r->ns;
	a->events++;
	if (r->event)
		r->event->count++;
	else
		a->unknown++;
	if (r->cpu < a->nr_cpus)
		a->per_cpu[r->cpu]++;
	if (is_trigger(r) && a->nr_triggers < STAT_TRIGGERS) {
		char *line = malloc(LINE_MAX_LEN);

		if (line) {
			kt_format(t, r, line, LINE_MAX_LEN);
			a->triggers[a->nr_triggers++] = line;
		}
	}
	return 0;
}

static void print_time(const char *what, uint64_t ns)
{
	printf("%s%llu.%09u\n", what, (unsigned long long)(ns / 1000000000),
	       (unsigned int)(ns % 1000000000));
}

static const char stat_help[] =
	"usage: ktrace stat FILE\n"
	"\n"
	"Summarize a trace file: the machine and clock, the time span, events per\n"
	"type and per CPU, and per stream the subbuffers, the events lost\n"
	"(dropped, overwritten) and where sequence numbers show gaps; the armed\n"
	"triggers and the trigger records (the first 16).\n";

int cmd_stat(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct stat_acc a = { 0 };
	struct kt_trace t;
	unsigned int i, j;
	int c;

	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		if (c == 'h') {
			fputs(stat_help, stdout);
			return 0;
		}
		fputs(stat_help, stderr);
		return EXIT_USAGE;
	}
	if (optind != argc - 1) {
		fprintf(stderr, "ktrace stat: %s\n", optind == argc ? "no trace file given" :
			"one trace file only");
		return EXIT_USAGE;
	}
	if (kt_open(&t, argv[optind]))
		return 1;
	for (i = 0; i < t.nr_streams; i++)
		if (t.streams[i].cpu + 1 > a.nr_cpus)
			a.nr_cpus = t.streams[i].cpu + 1;
	a.per_cpu = calloc(a.nr_cpus + 1, sizeof(*a.per_cpu));
	if (!a.per_cpu) {
		kt_close(&t);
		return 1;
	}
	kt_merge(&t, stat_one, &a);
	if (t.have_trace)
		printf("machine: %.65s %.65s %.65s, %u CPUs\n", t.machine.nodename,
		       t.machine.release, t.machine.machine, t.machine.nr_cpus);
	if (t.have_clock)
		printf("clock: %.16s, %llu Hz, shift %u\n", t.clock.name,
		       (unsigned long long)t.clock.freq_hz, t.clock.shift);
	printf("events: %llu\n", a.events);
	if (a.events) {
		print_time("first: ", a.first);
		print_time("last: ", a.last);
		print_time("span: ", a.last - a.first);
	}
	printf("events per type:\n");
	for (i = 0; i < 256; i++)
		for (j = 0; j < 256; j++)
			if (t.expanded[i][j] && t.expanded[i][j]->count)
				printf("  %s:%s %llu\n", t.expanded[i][j]->group,
				       t.expanded[i][j]->name, t.expanded[i][j]->count);
	for (i = 0; i < KTRACE_NR_CHANNELS; i++)
		for (j = 0; j <= KTRACE_ID_COMPACT_MAX; j++)
			if (t.compact[i][j] && t.compact[i][j]->count)
				printf("  %s:%s %llu\n", t.compact[i][j]->group,
				       t.compact[i][j]->name, t.compact[i][j]->count);
	if (a.unknown)
		printf("  unknown %llu\n", a.unknown);
	printf("events per CPU:\n");
	for (i = 0; i < a.nr_cpus; i++)
		if (a.per_cpu[i])
			printf("  cpu%u %llu\n", i, a.per_cpu[i]);
	printf("streams:\n");
	for (i = 0; i < t.nr_streams; i++) {
		struct kt_stream_stats st;

		char *gaps = NULL;
		size_t len = 0;
		FILE *g = open_memstream(&gaps, &len);

		kt_stream_stats(&t, &t.streams[i], &st, g);
		if (g)
			fclose(g);
		printf("  cpu%u %s: subbufs=%llu seq=%llu-%llu events=%llu dropped=%llu ",
		       t.streams[i].cpu, kt_channel_name(t.streams[i].channel), st.subbufs,
		       st.first_seq, st.last_seq, st.events, st.dropped);
		printf("overwritten=%llu lost_subbufs=%llu mode=%s\n", st.overwritten,
		       st.lost_subbufs, st.overwrite ? "overwrite" : "drop");
		if (gaps)
			fputs(gaps, stdout);
		free(gaps);
	}
	if (t.text[KTF_TRIGGERS] && *t.text[KTF_TRIGGERS])
		printf("triggers:\n%s", t.text[KTF_TRIGGERS]);
	if (a.nr_triggers)
		printf("trigger records:\n");
	for (i = 0; i < a.nr_triggers; i++) {
		printf("  %s", a.triggers[i]);
		free(a.triggers[i]);
	}
	free(a.per_cpu);
	kt_close(&t);
	return 0;
}
