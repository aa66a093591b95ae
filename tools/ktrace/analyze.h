/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tools/ktrace: what the analyses io (io.c) and reclaim share (analyze.c).
 */
#ifndef KTRACE_ANALYZE_H
#define KTRACE_ANALYZE_H

#include "trace.h"

/* A map of 64-bit keys, open addressing. */
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

/* What both analyses share: the traces, the time base, the -p filter. */
struct base {
	struct kt_set set;
	bool multi;
	long pid;			/* -p, or -1 */
	FILE *out;
	struct map tasks;		/* (trace, pid) -> index */
};

/* The slot of @key; with @add, a new one (pid -1) if none: NULL if out of memory. */
struct slot *map_find(struct map *m, uint64_t key, bool add);
void map_del(struct map *m, struct slot *s);

/* The time of @r: CLOCK_MONOTONIC (plus --offset), or merged CLOCK_REALTIME. */
int64_t rec_time(const struct base *b, const struct kt_trace *t, const struct kt_record *r);
const struct kt_field *field_of(const struct kt_event *ev, const char *name);
/* The number in field @name of @r; @dflt if it has none. */
uint64_t field_num(const struct kt_record *r, const char *name, uint64_t dflt);
/* Whether some trace's metadata has @group:@name. */
const struct kt_event *find_event(const struct kt_set *s, const char *group,
				  const char *name);
/* SECONDS.NANOSECONDS; with @rel, signed: -S.N before the trigger, +S.N from it. */
void time_word(char *buf, size_t size, int64_t ns, bool rel);
/* A time in microseconds, "12.345us". */
void us_word(char *buf, size_t size, uint64_t ns);
/* " host=NAME" with several traces, else nothing. */
const char *host_tok(const struct base *b, unsigned int ti, char *buf, size_t size);
uint64_t task_key(const struct base *b, const struct kt_trace *t, int pid);
/* A pid: digits, at most INT32_MAX; -1 if not. */
long parse_pid(const char *s);

/* io on the open traces of @s, to @out (relative if @relative); 0 or 1. */
int kt_io(struct kt_set *s, bool relative, FILE *out);
/* reclaim on the open traces of @s, to @out; 0 or 1. */
int kt_reclaim(struct kt_set *s, FILE *out);

#endif /* KTRACE_ANALYZE_H */
