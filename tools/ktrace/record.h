/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tools/ktrace: the recorder (record.c), what ktrace extract and ktrace
 * record share: the control files, the signals and the trace file being
 * written.
 */
#ifndef KTRACE_RECORD_H
#define KTRACE_RECORD_H

#include "trace.h"

#define FROZEN_WAIT_MS	10000		/* for the stop work of a trigger */

enum kt_state { KT_UNKNOWN, KT_STOPPED, KT_TRACING, KT_FROZEN };

struct recorder {
	const char *cmd;		/* "record" or "extract", for messages */
	const char *dir;
	const char *out;
	char *out_real;			/* the target of a symlink -o, allocated */
	bool cut_by_signal;		/* extract: a signal ends it, no file */
	int direct;			/* -o of a device or fifo: written, not replaced */
	bool to_stdout;			/* direct is record's stdout: not COMMAND's */
	char *tmp;			/* being written; renamed to out at the end */
	bool complete;			/* tmp holds the whole trace */
	int signals_seen;		/* signals caught when out_deliver() began */
	FILE *f;
	int fds[KTRACE_NR_CHANNELS][KTF_MAX_CPUS];
	unsigned int nr_cpus;
	unsigned char *chunk;
	unsigned long long bytes;	/* all sections */
	unsigned long long stream_bytes;	/* of the stream sections */
	unsigned int nr_streams;	/* streams that had data */
	bool had_data[KTRACE_NR_CHANNELS][KTF_MAX_CPUS];
	bool extract;
	char *stats_before;		/* extract: the counters before reading */
	int compress;			/* -z: the zstd level, or 0 */
	long long compressed;		/* -z: the file's size */
	/*
	 * extract --last-boot and --vmcore: a trace of a kernel that is gone.
	 * Its uname and stats texts are given (the stats: last_boot/info,
	 * or the same lines made from a vmcore); no task, comm, trigger or
	 * event list of the running kernel goes in; streams are read from
	 * dir, if set (last_boot/), else given with out_stream().
	 */
	bool old_boot;
	char *old_uname;		/* allocated */
	char *old_stats;		/* allocated */
};

/* A whole small file, NUL-terminated; NULL if it cannot be read. */
char *rec_slurp(const char *path, size_t max);

/* -z, --compress[=LEVEL] of record and extract, in @r; 0 or EXIT_USAGE. */
int rec_compress_opt(struct recorder *r, const char *arg);

/* The last signal caught (SIGINT, SIGTERM, SIGHUP, SIGQUIT), or 0. */
int sig_caught(void);
void catch_signals(bool chld);
void ignore_sigpipe(void);

/* Write @val to the control file @file; 0, or -1 after saying why. */
int ctl_write(const struct recorder *r, const char *file, const char *val);
/* The state of tracing, from the stats file. */
enum kt_state trace_state(const char *dir);
/* Wait, a while, until a frozen trace is stopped; the state then. */
enum kt_state wait_frozen(const char *dir);
/* Has a signal ended extract?  Said once; the caller removes its file. */
bool cut(const struct recorder *r);
/* The trace file: its name resolved, then created (temporary); 0 or -1. */
int out_resolve(struct recorder *r);
int out_create(struct recorder *r);
/* Open the stream files: how many, or -1. */
int open_streams(struct recorder *r);
/* The counters of the stats file, to compare after reading. */
char *stats_counters(const char *dir);
/* The sections before the streams (trace.h); 0, or -1 after saying why. */
int out_begin(struct recorder *r);
/*
 * Read the streams, add the text sections and put the file in place (a
 * device or fifo: out_deliver() then copies it).
 */
int out_finish(struct recorder *r, bool hide);
/* One stream section of channel @ch, CPU @cpu (extract --vmcore); 0 or -1. */
int out_stream(struct recorder *r, unsigned int ch, unsigned int cpu, const void *data,
	       size_t len);
/* The totals of "buf ... kept=K events=N lost=M" lines of an info text. */
void crash_info_totals(const char *info, unsigned long long *kept,
		       unsigned long long *events, unsigned long long *lost);
int out_deliver(struct recorder *r);
struct recorder *recorder_new(const char *cmd);
void recorder_free(struct recorder *r);

/*
 * extract of a kernel that is gone (extract.c): its uname in @r, and the
 * symbols its addresses resolve to (kt_symbols_source()).  0, or -1 after
 * saying why (@hide without the means to hide).
 */
int old_kernel(struct recorder *r, const char *release, const char *build,
	       uint64_t text_addr, const char *kallsyms, bool hide);
/* extract --vmcore (vmcore.c): the trace of the kernel of a vmcore. */
int extract_vmcore(struct recorder *r, const char *path, const char *kallsyms, bool hide);

#endif /* KTRACE_RECORD_H */
