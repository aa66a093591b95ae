// SPDX-License-Identifier: GPL-2.0
/*
 * tools/ktrace: what the analyses of the block and VM events share (io.c,
 * reclaim.c; Documentation/tools/ktrace/ktrace.rst): a map of 64-bit
 * keys, the traces and their time base, the fields of a record by name.
 *
 * Fields are found by name in each trace's metadata, never at fixed
 * offsets: a trace whose metadata lacks one gets a message.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <linux/kernel.h>		/* tools/include: ARRAY_SIZE() */

#include "analyze.h"

/* ---- a map of 64-bit keys, open addressing -------------------------- */

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
struct slot *map_find(struct map *m, uint64_t key, bool add)
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
void map_del(struct map *m, struct slot *s)
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

/* The time of @r: CLOCK_MONOTONIC (plus --offset), or merged CLOCK_REALTIME. */
int64_t rec_time(const struct base *b, const struct kt_trace *t, const struct kt_record *r)
{
	__int128 v = (__int128)r->ns + t->offset_ns;

	if (b->multi)
		return kt_real_ns(t, r->ns);
	return v > INT64_MAX ? INT64_MAX : v < 0 ? 0 : (int64_t)v;
}

const struct kt_field *field_of(const struct kt_event *ev, const char *name)
{
	unsigned int i;

	for (i = 0; ev && i < ev->nr_fields; i++)
		if (!strcmp(ev->fields[i].name, name))
			return &ev->fields[i];
	return NULL;
}

/* The number in field @name of @r; @dflt if it has none. */
uint64_t field_num(const struct kt_record *r, const char *name, uint64_t dflt)
{
	const struct kt_field *f = field_of(r->event, name);
	uint64_t v;

	return f && kt_field_raw(f, r, &v) ? v : dflt;
}

/* Whether some trace's metadata has @group:@name. */
const struct kt_event *find_event(const struct kt_set *s, const char *group,
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

/* @group:@name of @t's metadata, or NULL. */
static const struct kt_event *event_in(const struct kt_trace *t, const char *group,
				       const char *name)
{
	struct kt_set one = { .traces = (struct kt_trace *)t, .nr = 1 };

	return find_event(&one, group, name);
}

/*
 * Why the traces of @s hold no record of @gn ("GROUP:NAME"), appended to
 * @buf: off when recorded, not an event of the kernel, on without a
 * record, or not said by the file.
 */
static void why_none(const struct kt_set *s, const char *gn, char *buf, size_t size)
{
	char group[KTRACE_NAME_LEN + 1];
	const char *name = strchr(gn, ':') + 1, *why;
	bool in_meta = false, off = true, known = false;
	unsigned int i;

	snprintf(group, sizeof(group), "%.*s", (int)(name - gn - 1), gn);
	for (i = 0; i < s->nr; i++) {
		int on = kt_event_enabled(&s->traces[i], group, name);

		in_meta |= !!event_in(&s->traces[i], group, name);
		known |= on >= 0;
		off &= on == 0;
	}
	if (!in_meta)
		why = "not an event of the traced kernel";
	else if (known && off)
		why = "off when the trace was recorded: record it with -e";
	else if (known)
		why = "on, but no record: none happened, or all were lost (ktrace stat)";
	else
		why = "no record; the file does not say whether it was on";
	snprintf(buf + strlen(buf), size - strlen(buf), "%s%s (%s%s%s)", *buf ? "; " : "", gn,
		 why, known && off ? " " : "", known && off ? group : "");
}

/**
 * kt_kt_need_events() - whether an analysis has something to work on
 * @s: the open traces
 * @cmd: the command, "io" or "latency", for the message
 * @what: the trace file, or "the traces"
 * @names: the events it reads, "GROUP:NAME", NULL-terminated
 * @all: it needs a record of each (else of one of them)
 *
 * An analysis of a trace without the events it reads would print zero
 * counts: this says which events have no record and why (off when the
 * trace was recorded, from the file's events section; on without a
 * record; not an event of the kernel).
 *
 * Return: 0 if the traces hold what it needs, else 1 after saying why.
 */
int kt_need_events(const struct kt_set *s, const char *cmd, const char *what,
		   const char *const *names, bool all)
{
	char why[1024] = "";
	unsigned int i, j, seen = 0, nr = 0;

	for (i = 0; names[i]; i++, nr++) {
		const char *name = strchr(names[i], ':') + 1;
		char group[KTRACE_NAME_LEN + 1];
		bool any = false;

		snprintf(group, sizeof(group), "%.*s", (int)(name - names[i] - 1), names[i]);
		for (j = 0; j < s->nr && !any; j++) {
			const struct kt_event *ev = event_in(&s->traces[j], group, name);

			any = ev && kt_event_seen(&s->traces[j], ev);
		}
		seen += any;
		if (!any)
			why_none(s, names[i], why, sizeof(why));
	}
	if (all ? seen == nr : seen > 0)
		return 0;
	fprintf(stderr, "ktrace %s: %s: nothing to analyse: no record of %s\n", cmd, what, why);
	return 1;
}

/* SECONDS.NANOSECONDS; with @rel, signed: -S.N before the trigger, +S.N from it. */
void time_word(char *buf, size_t size, int64_t ns, bool rel)
{
	uint64_t mag = ns < 0 ? -(uint64_t)ns : (uint64_t)ns;

	snprintf(buf, size, "%s%llu.%09u", rel ? ns < 0 ? "-" : "+" : ns < 0 ? "-" : "",
		 (unsigned long long)(mag / 1000000000), (unsigned int)(mag % 1000000000));
}

/* A time in microseconds, "12.345us". */
void us_word(char *buf, size_t size, uint64_t ns)
{
	snprintf(buf, size, "%llu.%03uus", (unsigned long long)(ns / 1000),
		 (unsigned int)(ns % 1000));
}

/* " host=NAME" with several traces, else nothing. */
const char *host_tok(const struct base *b, unsigned int ti, char *buf, size_t size)
{
	if (!b->multi)
		return "";
	snprintf(buf, size, " host=%s", b->set.traces[ti].host);
	return buf;
}

uint64_t task_key(const struct base *b, const struct kt_trace *t, int pid)
{
	return (uint64_t)(t - b->set.traces) << 32 | (uint32_t)pid;
}

/* A pid: digits, at most INT32_MAX; -1 if not. */
long parse_pid(const char *s)
{
	char *end;
	long v;

	if (*s < '0' || *s > '9')
		return -1;
	v = strtol(s, &end, 10);
	return *end || v > INT32_MAX ? -1 : v;
}

/*
 * Both analyses on the open traces of @s, to @out: io (relative if @relative)
 * and reclaim, as the fuzzer runs them.  0, or 1 after a message.
 */
int kt_analyze(struct kt_set *s, bool relative, FILE *out)
{
	int ret;

	ret = kt_io(s, relative, out);
	ret |= kt_reclaim(s, out);
	return ret;
}
