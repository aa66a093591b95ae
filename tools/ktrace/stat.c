// SPDX-License-Identifier: GPL-2.0
/*
 * tools/ktrace: ktrace stat, a summary of a trace file: the machine and
 * clock, the events per type and per CPU, per stream what its subbuffer
 * headers say (losses, sequence gaps), the triggers and their records; as
 * text or as one JSON document.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"

#define STAT_TRIGGERS	16

struct stat_acc {
	unsigned long long events, unknown;
	uint64_t first, last;
	unsigned long long *per_cpu;
	unsigned int nr_cpus;
	char *triggers[STAT_TRIGGERS];
	unsigned int nr_triggers;
	bool json;
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
	if (kt_is_trigger(r) && a->nr_triggers < STAT_TRIGGERS) {
		struct kt_buf line = { .grow = true };
		char time[32];

		kt_time_str(time, sizeof(time), r->ns);
		if (a->json ? kt_format_json(t, r, time, NULL, &line) : kt_format(t, r, &line)) {
			free(line.p);
			return -1;
		}
		a->triggers[a->nr_triggers++] = line.p;
	}
	return 0;
}

static void print_time(const char *what, uint64_t ns)
{
	printf("%s%llu.%09u\n", what, (unsigned long long)(ns / 1000000000),
	       (unsigned int)(ns % 1000000000));
}

/* A JSON string, whole (escaped in a buffer grown to fit); false if out of memory. */
static bool json_bytes(const char *s, size_t len)
{
	struct kt_buf b = { .grow = true };
	bool ok;

	kt_json_string(&b, (const unsigned char *)s, len);
	ok = !b.overflow;
	fputs(ok ? b.p : "\"\"", stdout);
	free(b.p);
	return ok;
}

static bool json_str(const char *s, size_t max)
{
	return json_bytes(s, strnlen(s, max));
}

static void json_time(const char *key, uint64_t ns)
{
	printf(",\n \"%s\": \"%llu.%09u\"", key, (unsigned long long)(ns / 1000000000),
	       (unsigned int)(ns % 1000000000));
}

/*
 * One entry of "events_per_type": an object, as two types may share a
 * GROUP:NAME (on different channels, compact and expanded).
 */
static void json_type(const struct kt_event *ev, bool *first)
{
	char name[2 * KTRACE_NAME_LEN + 2];

	if (!ev || !ev->count)
		return;
	snprintf(name, sizeof(name), "%s:%s", ev->group, ev->name);
	printf("%s\n  {\"event\": ", *first ? "" : ",");
	json_str(name, sizeof(name));
	printf(", \"channel\": \"%s\", \"kind\": \"%s\", \"count\": %llu}",
	       kt_channel_name(ev->channel),
	       ev->kind == KTRACE_EVENT_EXPANDED ? "expanded" : "compact", ev->count);
	*first = false;
}

/* The text lines of @text as a JSON array of strings, each whole; false if out of memory. */
static bool json_lines(const char *text)
{
	bool first = true, ok = true;

	printf("[");
	while (text && *text) {
		size_t len = strcspn(text, "\n");

		if (len) {
			printf("%s\n  ", first ? "" : ",");
			ok = json_bytes(text, len) && ok;
			first = false;
		}
		text += len + !!text[len];
	}
	printf("%s]", first ? "" : "\n ");
	return ok;
}

/* What stat prints, as one JSON document. */
static bool stat_json(struct kt_trace *t, struct stat_acc *a)
{
	bool first = true, ok;
	unsigned int i, j;

	printf("{\"file\": ");
	json_str(t->path, 4096);
	printf(",\n \"machine\": ");
	if (t->have_trace) {
		printf("{\"nodename\": ");
		json_str(t->machine.nodename, sizeof(t->machine.nodename));
		printf(", \"release\": ");
		json_str(t->machine.release, sizeof(t->machine.release));
		printf(", \"machine\": ");
		json_str(t->machine.machine, sizeof(t->machine.machine));
		printf(", \"nr_cpus\": %u}", t->machine.nr_cpus);
	} else {
		printf("null");
	}
	printf(",\n \"clock\": ");
	if (t->have_clock) {
		printf("{\"name\": ");
		json_str(t->clock.name, sizeof(t->clock.name));
		printf(", \"freq_hz\": %llu, \"shift\": %u, \"ref_clock\": %llu, ",
		       (unsigned long long)t->clock.freq_hz, t->clock.shift,
		       (unsigned long long)t->clock.ref_clock);
		printf("\"ref_mono_ns\": %llu, \"ref_real_ns\": %llu}",
		       (unsigned long long)t->clock.ref_mono_ns,
		       (unsigned long long)t->clock.ref_real_ns);
	} else {
		printf("null");
	}
	printf(",\n \"events\": %llu", a->events);
	if (a->events) {
		json_time("first", a->first);
		json_time("last", a->last);
		json_time("span", a->last - a->first);
	}
	printf(",\n \"events_per_type\": [");
	for (i = 0; i < 256; i++)
		for (j = 0; j < 256; j++)
			json_type(t->expanded[i][j], &first);
	for (i = 0; i < KTRACE_NR_CHANNELS; i++)
		for (j = 0; j <= KTRACE_ID_COMPACT_MAX; j++)
			json_type(t->compact[i][j], &first);
	if (a->unknown)
		printf("%s\n  {\"event\": \"unknown\", \"count\": %llu}", first ? "" : ",",
		       a->unknown);
	printf("%s],\n \"events_per_cpu\": {", first && !a->unknown ? "" : "\n ");
	for (i = 0, first = true; i < a->nr_cpus; i++) {
		if (a->per_cpu[i]) {
			printf("%s\"%u\": %llu", first ? "" : ", ", i, a->per_cpu[i]);
			first = false;
		}
	}
	printf("},\n \"streams\": [");
	for (i = 0; i < t->nr_streams; i++) {
		unsigned long long gfirst, glast, goff;
		struct kt_stream_stats st;
		char *gaps = NULL, *p;
		size_t len = 0;
		FILE *g = open_memstream(&gaps, &len);

		kt_stream_stats(t, &t->streams[i], &st, g);
		if (g)
			fclose(g);
		printf("%s\n  {\"cpu\": %u, \"channel\": \"%s\", \"subbufs\": %llu, ", i ? "," : "",
		       t->streams[i].cpu, kt_channel_name(t->streams[i].channel), st.subbufs);
		printf("\"first_seq\": %llu, \"last_seq\": %llu, \"events\": %llu, ",
		       st.first_seq, st.last_seq, st.events);
		printf("\"dropped\": %llu, \"overwritten\": %llu, \"lost_subbufs\": %llu, ",
		       st.dropped, st.overwritten, st.lost_subbufs);
		printf("\"mode\": \"%s\", \"gaps\": [", st.overwrite ? "overwrite" : "drop");
		/* Its lines: "  gap: CH CPU N: subbuffers A to B missing (offset O)" */
		for (p = gaps, first = true; p && (p = strstr(p, "subbuffers ")); p++) {
			if (sscanf(p, "subbuffers %llu to %llu missing (offset %llu)", &gfirst,
				   &glast, &goff) != 3)
				continue;
			printf("%s{\"first\": %llu, \"last\": %llu, \"offset\": %llu}",
			       first ? "" : ", ", gfirst, glast, goff);
			first = false;
		}
		printf("]}");
		free(gaps);
	}
	printf("%s],\n \"triggers\": ", t->nr_streams ? "\n " : "");
	ok = json_lines(t->text[KTF_TRIGGERS]);
	printf(",\n \"trigger_records\": [");
	for (i = 0; i < a->nr_triggers; i++)
		printf("%s\n  %s", i ? "," : "", a->triggers[i]);
	printf("%s]}\n", a->nr_triggers ? "\n " : "");
	return ok;
}

static const char stat_help[] =
	"usage: ktrace stat [--json] [FILE]\n"
	"\n"
	"Summarize a trace file (by default " DEFAULT_FILE "): the machine and clock,\n"
	"the time span, events per type and per CPU, and per stream the subbuffers,\n"
	"the events lost (dropped, overwritten) and where sequence numbers show gaps;\n"
	"the armed triggers and the trigger records (the first 16).\n"
	"\n"
	"      --json           the same as one JSON document (see ktrace(1))\n"
	"  -h, --help           this help\n";

/* The options: -1 to go on, or stat's exit status. */
static int stat_parse(struct stat_acc *a, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		if (c == 'j') {
			a->json = true;
			continue;
		}
		if (c == 'h') {
			fputs(stat_help, stdout);
			return 0;
		}
		fputs(stat_help, stderr);
		return EXIT_USAGE;
	}
	if (optind < argc - 1) {
		fprintf(stderr, "ktrace stat: one trace file only\n");
		return EXIT_USAGE;
	}
	return -1;
}

/* What the subbuffer headers of each stream said. */
static void stat_streams(struct kt_trace *t)
{
	unsigned int i;

	printf("streams:\n");
	for (i = 0; i < t->nr_streams; i++) {
		struct kt_stream_stats st;

		char *gaps = NULL;
		size_t len = 0;
		FILE *g = open_memstream(&gaps, &len);

		kt_stream_stats(t, &t->streams[i], &st, g);
		if (g)
			fclose(g);
		printf("  cpu%u %s: subbufs=%llu seq=%llu-%llu events=%llu dropped=%llu ",
		       t->streams[i].cpu, kt_channel_name(t->streams[i].channel), st.subbufs,
		       st.first_seq, st.last_seq, st.events, st.dropped);
		printf("overwritten=%llu lost_subbufs=%llu mode=%s\n", st.overwritten,
		       st.lost_subbufs, st.overwrite ? "overwrite" : "drop");
		if (gaps)
			fputs(gaps, stdout);
		free(gaps);
	}
}

/* The summary as text. */
static void stat_print(struct kt_trace *t, const struct stat_acc *a)
{
	unsigned int i, j;

	if (t->have_trace)
		printf("machine: %.65s %.65s %.65s, %u CPUs\n", t->machine.nodename,
		       t->machine.release, t->machine.machine, t->machine.nr_cpus);
	if (t->have_clock)
		printf("clock: %.16s, %llu Hz, shift %u\n", t->clock.name,
		       (unsigned long long)t->clock.freq_hz, t->clock.shift);
	printf("events: %llu\n", a->events);
	if (a->events) {
		print_time("first: ", a->first);
		print_time("last: ", a->last);
		print_time("span: ", a->last - a->first);
	}
	printf("events per type:\n");
	for (i = 0; i < 256; i++)
		for (j = 0; j < 256; j++)
			if (t->expanded[i][j] && t->expanded[i][j]->count)
				printf("  %s:%s %llu\n", t->expanded[i][j]->group,
				       t->expanded[i][j]->name, t->expanded[i][j]->count);
	for (i = 0; i < KTRACE_NR_CHANNELS; i++)
		for (j = 0; j <= KTRACE_ID_COMPACT_MAX; j++)
			if (t->compact[i][j] && t->compact[i][j]->count)
				printf("  %s:%s %llu\n", t->compact[i][j]->group,
				       t->compact[i][j]->name, t->compact[i][j]->count);
	if (a->unknown)
		printf("  unknown %llu\n", a->unknown);
	printf("events per CPU:\n");
	for (i = 0; i < a->nr_cpus; i++)
		if (a->per_cpu[i])
			printf("  cpu%u %llu\n", i, a->per_cpu[i]);
	stat_streams(t);
	if (t->text[KTF_TRIGGERS] && *t->text[KTF_TRIGGERS])
		printf("triggers:\n%s", t->text[KTF_TRIGGERS]);
	if (a->nr_triggers)
		printf("trigger records:\n");
	for (i = 0; i < a->nr_triggers; i++)
		printf("  %s", a->triggers[i]);
}

int cmd_stat(int argc, char **argv)
{
	struct stat_acc a = { 0 };
	struct kt_trace t;
	unsigned int i;
	int ret;

	ret = stat_parse(&a, argc, argv);
	if (ret >= 0)
		return ret;
	if (kt_open(&t, optind == argc ? DEFAULT_FILE : argv[optind]))
		return 1;
	for (i = 0; i < t.nr_streams; i++)
		if (t.streams[i].cpu + 1 > a.nr_cpus)
			a.nr_cpus = t.streams[i].cpu + 1;
	a.per_cpu = calloc(a.nr_cpus + 1, sizeof(*a.per_cpu));
	if (!a.per_cpu) {
		ret = 1;
		goto out;
	}
	/* stat prints no field: no key to follow. */
	t.no_keys = true;
	ret = kt_merge(&t, stat_one, &a);
	if (ret)
		fprintf(stderr, "ktrace stat: %s: out of memory\n", t.path);
	else if (a.json && !stat_json(&t, &a))
		ret = 1;
	else if (!a.json)
		stat_print(&t, &a);
	if (ret || fflush(stdout))
		ret = 1;
out:
	for (i = 0; i < a.nr_triggers; i++)
		free(a.triggers[i]);
	free(a.per_cpu);
	kt_close(&t);
	return ret;
}
