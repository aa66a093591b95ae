/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tools/ktrace: trace files and their decoding.
 *
 * A trace file ("ktrace.dat") is a file header and a list of sections,
 * all little-endian:
 *
 *   header   char magic[8] = "KTRACEF\n", u32 version = 1, u32 flags
 *   section  u32 type, u16 channel, u16 cpu, u64 length, then length bytes
 *            and zero padding to a multiple of 8
 *
 * flags: KTF_FLAG_END says that the file's last section is a KTF_END
 * section (empty); a file that has the flag and not that section was cut
 * short (a size limit, a full disk), and is decoded as far as it goes.
 * Files of earlier tools have flags 0 and are read as before.  The writers
 * put what decoding needs first (kt_put_trace() is the layout): the text
 * sections known at the start (uname, the enabled events, the tasks, and
 * for extract the comms and triggers), then the streams, in passes, each
 * pass the low channel first (its stream starts with the metadata), then
 * medium, then high; then the text sections of the end (record: tasks,
 * comms, triggers again; the stats), the symbols, and KTF_END.  A text
 * section of one type may come several times: its texts are concatenated,
 * and for tasks a later line of a pid wins.
 *
 * Sections: KTF_STREAM holds bytes of the relay file of one channel and
 * CPU, as read (a stream may come in several sections, in order); the
 * others are text: uname -a, the armed triggers and their firings, the
 * tasks alive when recording ("PID COMM" lines), the stats file and the
 * kernel's saved comms (the comms file: "PID COMM" lines, the last name
 * the trace gave each pid, even when the medium-rate channel was full),
 * and the kernel symbols (symbols.c: "VALUE SYMBOL" lines, VALUE in
 * hexadecimal, for the values of the kernel-address fields; after a first
 * line "# hidden", the values are tokens that replaced the addresses).
 */
#ifndef KTRACE_TRACE_H
#define KTRACE_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <linux/compiler.h>		/* tools/include: __printf() */
/* The format, straight from the kernel tree: no installed headers needed. */
#include "../../include/uapi/linux/ktrace.h"

/* The exit status of a usage error (help: 0; a failure: 1). */
#define EXIT_USAGE		2

#define KTF_MAGIC		"KTRACEF\n"
#define KTF_VERSION		1
#define KTF_MAX_CPUS		4096
/* struct ktf_header.flags: the file ends with a KTF_END section. */
#define KTF_FLAG_END		0x1U

enum ktf_section_type {
	KTF_STREAM	= 1,
	KTF_UNAME	= 2,
	KTF_TRIGGERS	= 3,
	KTF_TASKS	= 4,
	KTF_STATS	= 5,
	KTF_COMMS	= 6,
	KTF_SYMBOLS	= 7,
	KTF_EVENTS	= 8,
	KTF_END		= 9,
};

/* The last text section type. */
#define KTF_TEXT_LAST	KTF_EVENTS

struct ktf_header {
	char magic[8];
	uint32_t version;
	uint32_t flags;
};

struct ktf_section {
	uint32_t type;
	uint16_t channel;
	uint16_t cpu;
	uint64_t length;
};

struct kt_enum {
	uint64_t value;
	char name[KTRACE_NAME_LEN + 1];
};

struct kt_field {
	char name[KTRACE_NAME_LEN + 1];
	unsigned int offset, size, display, flags;
	/*
	 * The values read, of the max_values announced; room for
	 * values_size, grown as they are read.
	 */
	unsigned int nr_values, max_values, values_size;
	struct kt_enum *values;
};

struct kt_event {
	unsigned int channel, kind, id, major, minor, flags, nr_fields;
	char group[KTRACE_NAME_LEN + 1];
	char name[KTRACE_NAME_LEN + 1];
	struct kt_field *fields;
	unsigned long long count;	/* ktrace stat */
};

/* One channel's stream of one CPU: its bytes, gathered from the file. */
struct kt_stream {
	unsigned int channel, cpu;
	unsigned char *data;
	size_t size;
	uint64_t file_offset;		/* of its first section, for messages */
};

struct kt_task {
	int pid;
	char comm[17];
};

/* One line of the symbols section: a field's value and what it names. */
struct kt_symbol {
	uint64_t value;
	const char *name;
};

/* One decoded event, for report and stat. */
struct kt_record {
	unsigned int channel, cpu;
	uint64_t clock;
	uint64_t ns;			/* CLOCK_MONOTONIC */
	int pid;			/* the running task */
	/*
	 * The task that ran before, for a pid-is-current event (sched:switch):
	 * the last such event of the stream, or its subbuffer's header pid.
	 */
	int prev_pid;
	/* Records of this stream were lost just before this one (kt_iter_next()). */
	bool lost;
	unsigned int id;
	uint32_t payload;
	unsigned int major, minor, length;
	const unsigned char *data;
	struct kt_event *event;		/* NULL: unknown; stat counts in it */
	/* Its bytes in its stream, and where its subbuffer starts (slice.c). */
	const unsigned char *raw;
	size_t subbuf;
};

/*
 * The descriptions seen so far (KTRACE_FIELD_IDENT), by key: the newest
 * record of the key's identity (its event and bytes, in the trace's
 * streams); or that two identities had the key (ambiguous).  A
 * KTRACE_FIELD_KEY_END field that ends what it named deletes its entry.
 * Built in time order by kt_merge().
 */
struct kt_key {
	uint32_t key;
	uint32_t length;
	bool used, ambiguous;
	const struct kt_event *event;
	const unsigned char *data;
};

struct kt_keys {
	struct kt_key *slots;
	size_t nr_slots, used;
	uint64_t seed;			/* of the slot hash, per merge */
	bool off;			/* no KEY field in the trace, or no_keys */
};

/* Names learned from the trace: a cache by pid, collisions replace. */
#define KT_NAMES		4096

struct kt_trace {
	const char *path;
	struct kt_stream *streams;
	unsigned int nr_streams;
	char *text[KTF_TEXT_LAST + 1];	/* text sections, NUL-terminated */
	uint64_t text_offset[KTF_TEXT_LAST + 1];	/* of the first one's text */
	bool have_clock;
	struct ktrace_meta_clock clock;
	bool have_trace;
	struct ktrace_meta_trace machine;
	struct ktrace_meta_channel channels[KTRACE_NR_CHANNELS];
	struct kt_event *compact[KTRACE_NR_CHANNELS][KTRACE_ID_COMPACT_MAX + 1];
	struct kt_event *expanded[256][256];
	struct kt_task *tasks;
	unsigned int nr_tasks;
	struct kt_task *comms;		/* the kernel's saved comms, by pid */
	unsigned int nr_comms;
	struct kt_task *names;		/* learned from the trace: KT_NAMES, by pid */
	struct kt_symbol *symbols;	/* the symbols section, by value */
	unsigned int nr_symbols;
	char *symbol_names;		/* what their names point into */
	bool symbols_hidden;		/* the values are tokens ("# hidden") */
	uint32_t flags;			/* of the file header */
	bool cut;			/* KTF_FLAG_END without KTF_END: cut short */
	bool zstd;			/* decompressed: offsets are the trace's, not the file's */
	uint64_t size;			/* of the file */
	unsigned int warnings;
	struct kt_keys keys;		/* of the merge under way */
	bool no_keys;			/* kt_merge() callers that print no field */
	/* What the KEY fields of the record handed out name (kt_key_named()). */
	struct kt_key *named;
	unsigned int nr_named;
	const struct kt_record *named_rec;
	/* With other traces (struct kt_set): --offset, and the machine's name. */
	int64_t offset_ns;
	char host[72];			/* nodename (65) or file name */
	/*
	 * Aligned on the first trace of the set (kt_set_align()): CLOCK_REALTIME
	 * x (--offset included) becomes x + align_ns + drift * (x - drift_x0).
	 */
	int64_t align_ns;
	double drift;
	int64_t drift_x0;
};

/* What one stream's subbuffer headers said. */
struct kt_stream_stats {
	unsigned long long subbufs, events, gaps, lost_subbufs;
	unsigned long long dropped, overwritten, first_seq, last_seq;
	bool overwrite;
};

int kt_open(struct kt_trace *t, const char *path);
int kt_open_mem(struct kt_trace *t, const char *name, const void *data, size_t size);
void kt_close(struct kt_trace *t);
__printf(3, 4)
void kt_warn(struct kt_trace *t, uint64_t offset, const char *fmt, ...);
uint64_t kt_clock_ns(const struct kt_trace *t, uint64_t clock);

/* Calls fn for every event of the high and medium channels, in time order. */
typedef int (*kt_record_fn)(struct kt_trace *t, const struct kt_record *r, void *arg);
int kt_merge(struct kt_trace *t, kt_record_fn fn, void *arg);

/* The task running on a CPU, and the time of the record that said so. */
struct kt_running {
	int pid;
	uint64_t clock;
};

int kt_running(struct kt_running *run, const struct kt_running *start,
	       const struct kt_record *r, int *prev);

/* A reading of one trace in time order, for callers that pull (kt_set_merge()). */
struct cursor;
struct kt_iter {
	struct cursor *cur;
	unsigned int n;
	struct kt_running *running;	/* by CPU, KTF_MAX_CPUS */
};

int kt_iter_begin(struct kt_trace *t, struct kt_iter *it);
int kt_iter_next(struct kt_trace *t, struct kt_iter *it, const struct kt_record **rec);
void kt_iter_end(struct kt_trace *t, struct kt_iter *it);

/*
 * The trace files of one command, from one machine or several: read
 * together, merged on CLOCK_REALTIME plus a per-file offset
 * (--offset FILE=NS), each record handed out with the trace it is from
 * (t->host names the machine).
 */
struct kt_offset {
	const char *file;
	size_t len;
	int64_t ns;
};

struct kt_set {
	struct kt_trace *traces;
	unsigned int nr;
	struct kt_offset *offsets;
	unsigned int nr_offsets;
};

int kt_set_offset(struct kt_set *s, const char *cmd, const char *arg);
/* The trace file when none is named. */
#define DEFAULT_FILE		"ktrace.dat"
int kt_set_open(struct kt_set *s, const char *cmd, int nr, char **paths);
void kt_set_close(struct kt_set *s);
int kt_set_merge(struct kt_set *s, kt_record_fn fn, void *arg);
/* align.c: put the traces on the first's time base from their cluster messages. */
int kt_set_align(struct kt_set *s, const char *cmd);
/* "2.5ms": ns, us, ms or s after a number; nanoseconds, or -1. */
int64_t kt_parse_duration(const char *s);
/* A CLOCK_MONOTONIC time of @t, its offset added (one file), saturated. */
uint64_t kt_mono_ns(const struct kt_trace *t, uint64_t ns);
/* CLOCK_REALTIME of a CLOCK_MONOTONIC time of @t, its offset added. */
int64_t kt_real_ns(const struct kt_trace *t, uint64_t ns);

void kt_stream_stats(struct kt_trace *t, const struct kt_stream *s,
		     struct kt_stream_stats *st, FILE *gaps);
/*
 * The raw bits of field @f of @r as a number, zero-extended, in *@raw;
 * false if @r is too short for it or @f is no number.
 */
bool kt_field_raw(const struct kt_field *f, const struct kt_record *r, uint64_t *raw);
/*
 * The description that KEY field @i of @r, the record kt_merge() hands
 * out, names (KTRACE_DISPLAY_KEY), in *@d: the newest description of that
 * key in @r's group before @r, unless a KEY_END field before field @i
 * ended it.  False if there is none, or if two identities had that key.
 */
bool kt_key_named(const struct kt_trace *t, const struct kt_record *r, unsigned int i,
		  struct kt_record *d);

const char *kt_comm(const struct kt_trace *t, int pid);
/* Forget the names learned from the trace, to read it again from its start. */
void kt_forget_names(struct kt_trace *t);
/* What the symbols section says a kernel-address value is; NULL: nothing. */
const char *kt_symbol(const struct kt_trace *t, uint64_t value);
const char *kt_channel_name(unsigned int ch);
int kt_put_section(FILE *f, uint32_t type, unsigned int ch, unsigned int cpu,
		   const void *data, size_t len);
/* The file header of the layout above (flags KTF_FLAG_END); 0, or -1 (errno). */
int kt_put_header(FILE *f);
/* The whole trace @t in the layout above, @symbols as its symbols section. */
int kt_put_trace(FILE *f, const struct kt_trace *t, const char *symbols, size_t len);
/*
 * Whether @group:@name was enabled when @t was recorded: 1 yes, 0 no, -1
 * the file does not say (no events section).
 */
int kt_event_enabled(const struct kt_trace *t, const char *group, const char *name);
/* Whether @t holds a record of @ev, an event of its metadata. */
bool kt_event_seen(const struct kt_trace *t, const struct kt_event *ev);

/* The control directory of the kernel, unless $KTRACE_DIR names another. */
#define KT_DEFAULT_DIR		"/sys/kernel/debug/ktrace"
const char *kt_dir(void);

/*
 * Add to the closed trace file at @path the kernel symbols its SYMBOL
 * fields need, from /proc/kallsyms ($KTRACE_KALLSYMS); with @hide, first
 * replace every kernel address in it, so that the file holds none.  0, or
 * -1 after saying why on stderr.
 */
int kt_symbols_save(const char *path, bool hide);
/* Whether kt_symbols_save() can hide (kallsyms gives the kernel's range). */
int kt_symbols_can_hide(const char *cmd);
/*
 * The symbols of a kernel that is gone (extract --last-boot, --vmcore):
 * from then on kt_symbols_save() reads @path (NULL: no symbols at all,
 * without a warning), its core kernel's addresses moved by @delta, and
 * leaves out its modules' symbols (the old kernel's modules were elsewhere).
 */
void kt_symbols_source(const char *path, uint64_t delta);
/* The kallsyms file kt_symbols_save() reads unless told: $KTRACE_KALLSYMS. */
const char *kt_kallsyms_default(void);
/* The address of _text in the kallsyms or System.map at @path; 0 if none. */
uint64_t kt_symbols_text_addr(const char *path);

/*
 * Trace files compressed with zstd (compress.c), recognized by their magic:
 * kt_open() reads them as the others.  -z/--compress[=LEVEL] of record,
 * extract and slice: KT_ZSTD_LEVEL without a level (zstd's own default).
 */
#define KT_ZSTD_LEVEL		3
/* A compressed trace that decompresses to more than this many times its size is refused. */
#define KT_ZSTD_MAX_RATIO	1024
bool kt_is_compressed(const void *data, size_t size);
int kt_decompress(const char *path, const void *data, size_t size, void **out,
		  size_t *out_size);
int kt_parse_level(const char *cmd, const char *arg, int *level);
long long kt_compress_file(const char *cmd, const char *path, int level);

/* The x86-64 system calls (syscalls.c): the name of @nr in @t's machine, or NULL. */
const char *kt_syscall_name(const struct kt_trace *t, unsigned long long nr);
/* The x86-64 number of system call @name, or -1. */
int kt_syscall_nr(const char *name);

/* The commands. */
int cmd_extract(int argc, char **argv);
int cmd_record(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_stat(int argc, char **argv);
/* ktrace latency (latency.c); kt_latency(): one KIND on open traces, to @out. */
int cmd_latency(int argc, char **argv);
int kt_latency(struct kt_set *s, const char *kind, FILE *out);
/*
 * 0 if the traces hold a record of each of @names ("GROUP:NAME", NULL
 * ended; with !@all, of one of them), else 1 after saying on stderr which
 * have none and why (off when recorded, ...): nothing to analyse.
 */
int kt_need_events(const struct kt_set *s, const char *cmd, const char *what,
		   const char *const *names, bool all);
/* ktrace io (io.c) and ktrace reclaim (reclaim.c); kt_analyze(): both, for the fuzzer. */
int cmd_io(int argc, char **argv);
int cmd_reclaim(int argc, char **argv);
int kt_analyze(struct kt_set *s, bool relative, FILE *out);
/* ktrace profile (profile.c): run, wait and system call times per task. */
int cmd_profile(int argc, char **argv);
int kt_profile(struct kt_set *s, bool json, FILE *out);

/*
 * ktrace convert (ctf.c): the traces of @s as CTF 1.8 traces, the files
 * opened with @open (a name relative to the output directory: "metadata",
 * "high_0", or "HOST-N/..." for several traces), in LTTng's kernel layout
 * if @lttng, else in ktrace's (report's fields); 0, or -1 after saying
 * why on stderr.
 */
typedef FILE *(*kt_ctf_open_fn)(void *arg, const char *name);
int kt_ctf_write(struct kt_set *s, const char *cmd, bool lttng, kt_ctf_open_fn open, void *arg);
int cmd_convert(int argc, char **argv);
/* ktrace convert --ftrace (ftrace.c): @t as tracefs "trace" text; 0 or -1. */
int kt_ftrace_write(struct kt_trace *t, const char *cmd, FILE *out);
/* ktrace slice (slice.c): a time window of a trace as a trace file. */
int cmd_slice(int argc, char **argv);

#endif /* KTRACE_TRACE_H */
