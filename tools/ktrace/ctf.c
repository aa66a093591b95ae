// SPDX-License-Identifier: GPL-2.0
/*
 * ktrace convert --ctf DIR: trace files as CTF 1.8 traces, for Trace
 * Compass, lttng-analyses and babeltrace2.
 *
 * Two layouts.  --layout lttng, the default, is lttng-modules 2.13's
 * kernel layout (lt_*() below, Documentation/tools/ktrace/ktrace.rst):
 * its event and field names for the events it shares with ktrace, its
 * env, packet context and compact event header, DIR/kernel/, numbers as
 * integers (a saturated one at its bound), strings as their bytes; the
 * consumers of kernel traces read it.  --layout ktrace, described below,
 * is report's events and fields, for babeltrace2 and the tests that
 * compare it with report line for line.
 *
 * One CTF trace per input file: DIR/ itself for one file, DIR/HOST-N/ (N
 * from 1, in the order of the command line) for several.  Each has a TSDL
 * "metadata" file and one stream file per channel and CPU ("high_1",
 * "medium_0"), each stream file packets of about 256 KiB: a header (magic,
 * uuid, stream_id = the channel), a context (timestamp_begin/end, sizes,
 * events_discarded, cpu_id), then the events: a header (uint32 id, uint64
 * timestamp in ns), the stream's event context (procname, tid: the running
 * task as report names it) and the fields.
 *
 * The fields are those report prints, in its order, with its values: an
 * event class is one shape of the fields, so that an event whose KEY field
 * names a description (block requests) gets the description's fields, typed
 * from its metadata, and one whose key names none gets a string field
 * "unknown:0x...".  Numbers (DEC, PID) are integers of the field's
 * signedness, HEX integers in base 16, ENUM fields enumerations of the
 * metadata's names; a field that saturates is an enumeration too, whose
 * labels are report's ">=MAX" and "<=MIN".  What no CTF type expresses is
 * a string holding report's rendering: FLAGS ("sync|fua"), DEV ("8:3"),
 * SYMBOL (the symbol or 0x...), STRING fields (quoted and escaped, so
 * ASCII), a field the record is too short for ("?").  Events without
 * metadata are "unknown:high" (id, payload) and "unknown:medium" (major,
 * minor, length), as report prints them.
 *
 * The clock: one file, "monotonic", CLOCK_MONOTONIC ns since boot (offset
 * 0: babeltrace2 --clock-seconds prints report's times); the CLOCK_REALTIME
 * reference is in the environment (ktrace_realtime_offset_ns, realtime =
 * monotonic + it, --offset included; "none" if the trace has none).
 * Several files: "realtime", the same timestamps with that offset as the
 * clock's, absolute, so that babeltrace2 merges them on CLOCK_REALTIME and
 * prints report's times of several files.
 */
#include <errno.h>
#include <limits.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <dirent.h>
#include <unistd.h>

#include "format.h"
#include "../../kernel/trace/ktrace/format.h"	/* the ascii pipe's words */

#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))
#define CTF_MAGIC		0xc1fc1fc1U
/* Packet header (24 bytes) and context (44 bytes); all byte-aligned. */
#define CTF_PACKET_HEADER	68
/*
 * A packet ends after the event that takes it to this size: readers seek
 * by packet (Trace Compass reads a packet from its start to find a time).
 */
#define CTF_PACKET_MAX		(256 * 1024)

/* LTTng layout: packet header (32 bytes) and context (52 bytes). */
#define LT_PACKET_HEADER	84

enum item_kind { ITEM_INT, ITEM_ENUM, ITEM_STRING };

/* One field of an event as written: its type and value. */
struct item {
	char name[KTRACE_NAME_LEN + 16];
	enum item_kind kind;
	unsigned int bytes, base, bits;	/* ints: container size; the field's width */
	bool sign;
	uint64_t v;
	const struct kt_field *f;	/* enums: the labels */
	bool sat_labels;		/* and report's ">=MAX" ones (ktrace layout) */
	size_t text, len;		/* strings: in conv->text */
};

struct ctf_class {
	unsigned int id, channel;
	char *name, *body;
	uint64_t hash;
	uint64_t count;			/* its events, counted by a first pass */
};

struct ctf_stream {
	FILE *f;
	unsigned int channel, cpu;
	uint64_t seq;			/* packets written (LTTng: packet_seq_num) */
	bool fresh;			/* no event in the packet yet */
	uint64_t start;			/* of the packet being written, in the file */
	uint64_t first, last, bytes;	/* of the packet: times, size */
	uint64_t discarded;		/* dropped + overwritten, stat's counts */
};

/* An IRQ's name: its first handler's in the statedump (lttng: action->name). */
struct lt_irq {
	unsigned int irq;
	char *name;
};

struct ctf_trace {
	struct kt_trace *t;
	bool lttng;			/* LTTng's kernel layout (else ktrace's) */
	char sub[96];			/* "" or "HOST-N/" */
	unsigned char uuid[16];
	struct ctf_stream **idx[KTRACE_NR_CHANNELS];	/* by CPU */
	struct ctf_stream *streams;
	unsigned int nr_streams;
	struct ctf_class *classes;
	unsigned int nr_classes;
	unsigned int *slots;		/* class index + 1, by hash */
	unsigned int nr_slots;
	/* LTTng: the id written of class i, the most frequent first (or i). */
	unsigned int *rank;
	/* LTTng: this file's statedump:irq names, for irq_handler_entry. */
	struct lt_irq *irqs;
	unsigned int nr_irqs;
	/* LTTng: the thread groups of tasks (statedump, forks), for forks. */
	struct lt_tgid { uint32_t pid, tgid; } *tgids;
	unsigned int nr_tgids;
};

struct conv {
	const char *cmd;
	struct ctf_trace *tr;
	unsigned int nr;
	bool multi;
	bool warned_back;		/* a stream's time went back (said once) */
	bool lttng;			/* --layout lttng (the default) */
	bool counting;			/* the first pass: classes and their events */
	unsigned int *warnings;		/* the traces' warnings after the first pass */
	struct ctf_trace *cur;		/* the trace of the event being written */
	kt_ctf_open_fn open;
	void *arg;
	struct item *items;
	unsigned int nr_items, max_items;
	struct kt_buf text, body, word;
};

static uint64_t fnv(uint64_t h, const void *p, size_t len)
{
	const unsigned char *c = p;

	while (len--)
		h = (h ^ *c++) * 0x100000001b3ULL;
	return h;
}

/* A TSDL string literal's content: printable ASCII, '"' and '\' escaped. */
static void put_tsdl(struct kt_buf *b, const char *s)
{
	for (; *s; s++) {
		unsigned char ch = *s;

		if (ch == '"' || ch == '\\')
			kt_bufprintf(b, "\\%c", ch);
		else
			kt_bufprintf(b, "%c", ch < 0x20 || ch > 0x7e ? '?' : ch);
	}
}

static struct item *new_item(struct conv *c, const char *name)
{
	char base[KTRACE_NAME_LEN + 1], *p;
	unsigned int i, n = 1;
	struct item *it;

	if (c->nr_items == c->max_items) {
		unsigned int max = c->max_items ? 2 * c->max_items : 16;

		it = realloc(c->items, max * sizeof(*it));
		if (!it)
			return NULL;
		c->items = it;
		c->max_items = max;
	}
	it = &c->items[c->nr_items];
	memset(it, 0, sizeof(*it));
	/* A TSDL identifier; a name seen before in the event gets a suffix. */
	snprintf(base, sizeof(base), "%.*s", KTRACE_NAME_LEN, name);
	for (p = base; *p; p++)
		if (!(*p == '_' || (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9')))
			*p = '_';
	/* Written as "_NAME": three of those are C99 keywords that TSDL keeps. */
	if (!strcmp(base, "Bool") || !strcmp(base, "Complex") || !strcmp(base, "Imaginary"))
		strcat(base, "_");
	snprintf(it->name, sizeof(it->name), "%s", base);
	for (i = 0; i < c->nr_items; i++) {
		if (!strcmp(c->items[i].name, it->name)) {
			snprintf(it->name, sizeof(it->name), "%s_%u", base, ++n);
			i = -1U;	/* and look again from the first */
		}
	}
	c->nr_items++;
	return it;
}

static int add_string(struct conv *c, const char *name, const char *s, size_t len)
{
	struct item *it = new_item(c, name);

	if (!it)
		return -1;
	it->kind = ITEM_STRING;
	it->text = c->text.len;
	it->len = len;
	kt_bufprintf(&c->text, "%.*s", (int)len, s);
	return c->text.overflow ? -1 : 0;
}

static int add_int(struct conv *c, const char *name, unsigned int bits, bool sign,
		   unsigned int base, uint64_t v)
{
	struct item *it = new_item(c, name);

	if (!it)
		return -1;
	it->kind = ITEM_INT;
	it->bits = bits;
	it->bytes = bits <= 8 ? 1 : bits <= 16 ? 2 : bits <= 32 ? 4 : 8;
	it->sign = sign;
	it->base = base;
	it->v = v;
	return 0;
}

static int lt_field(struct conv *c, const struct kt_trace *t, const struct kt_field *f,
		    const struct kt_record *r);

/* The item of field @f of @r: typed by its display, valued as report prints it. */
static int add_field(struct conv *c, const struct kt_trace *t, const struct kt_field *f,
		     const struct kt_record *r)
{
	bool compact = r->id != KTRACE_ID_EXPANDED;
	unsigned int bits = compact ? f->size : f->size * 8;
	bool sign = f->flags & KTRACE_FIELD_SIGNED;
	enum kt_value k;
	uint64_t v = 0;
	int ret;

	if (c->lttng)
		return lt_field(c, t, f, r);
	c->word.len = 0;
	c->word.overflow = false;
	k = kt_field_text(&c->word, t, f, r, &v);
	if (c->word.overflow)
		return -1;
	if (k == KT_VALUE_NONE)
		return add_string(c, f->name, "?", 1);
	if (k == KT_VALUE_STRING)
		return add_string(c, f->name, c->word.p, c->word.len);
	switch (f->display) {
	case KTRACE_DISPLAY_HEX:
		/* report prints the sign-extended value: all 64 bits of it. */
		return add_int(c, f->name, sign ? 64 : bits, false, 16, v);
	case KTRACE_DISPLAY_FLAGS:
	case KTRACE_DISPLAY_DEV:
	case KTRACE_DISPLAY_SYMBOL:
		return add_string(c, f->name, c->word.p, c->word.len);
	}
	ret = add_int(c, f->name, bits, sign, 10, v);
	if (!ret && (f->display == KTRACE_DISPLAY_ENUM || (f->flags & KTRACE_FIELD_SATURATES))) {
		c->items[c->nr_items - 1].kind = ITEM_ENUM;
		c->items[c->nr_items - 1].f = f;
		c->items[c->nr_items - 1].sat_labels = true;
	}
	return ret;
}

/* The items of @r: report's fields (put_fields() of format.c). */
static int add_fields(struct conv *c, struct kt_trace *t, const struct kt_record *r)
{
	const struct kt_event *ev = r->event;
	unsigned int i, j;
	char word[32];
	uint64_t key;

	if (!ev && r->id != KTRACE_ID_EXPANDED)
		return add_int(c, "id", 32, false, 10, r->id) ||
			add_int(c, "payload", 32, false, 16, r->payload);
	if (!ev)
		return add_int(c, "major", 32, false, 10, r->major) ||
			add_int(c, "minor", 32, false, 10, r->minor) ||
			add_int(c, "length", 32, false, 10, r->length);
	for (i = 0; i < ev->nr_fields; i++) {
		const struct kt_field *f = &ev->fields[i];
		struct kt_record d;
		int ret = 0;

		if (f->display != KTRACE_DISPLAY_KEY || !kt_field_raw(f, r, &key)) {
			ret = add_field(c, t, f, r);
		} else if (kt_key_named(t, r, i, &d)) {
			for (j = 0; j < d.event->nr_fields && !ret; j++)
				ret = add_field(c, t, &d.event->fields[j], &d);
		} else {
			snprintf(word, sizeof(word), KTRACE_UNKNOWN_KEY, (uint32_t)key);
			ret = add_string(c, f->name, word, strlen(word));
		}
		if (ret)
			return -1;
	}
	return 0;
}

/*
 * LTTng's kernel layout (--layout lttng): the events ktrace shares with
 * lttng-modules 2.13 under its names, with its fields, from ktrace's
 * record; the others with ktrace's names and fields.  Numbers are
 * integers, a saturated one at its bound; strings are their bytes.
 */
enum lt_src {
	LT_NUM,		/* field @from: of the record, or of the description its key names */
	LT_COMM,	/* the name of the task whose pid is @from ("@cur", "@prev", a field) */
	LT_STR,		/* the bytes of STRING field @from ("" if NULL: not recorded) */
	LT_ZERO,	/* not in ktrace's record: 0 (lttng-analyses reads the field) */
	LT_NONE,	/* not in ktrace's record: -1 (a priority) */
	LT_MODE,	/* a statedump's mode: LTTNG_MODE_UNKNOWN (5), as lttng-modules */
	LT_STATE,	/* prev_state as the kernel's TASK_ bit (TASK_REPORT_MAX: preempted) */
	LT_STATUS,	/* a statedump state as LTTng's process status */
	LT_RWBS,	/* op and flags as lttng-modules' RWBS_FLAG_ bits */
	LT_BYTES,	/* nr_sector * 512 */
	LT_IRQNAME,	/* the statedump's name of irq @from */
	LT_TGID,	/* the thread group of task @from (statedump, forks), else @from */
};

struct lt_field {
	const char *name, *from;
	enum lt_src src;
	unsigned char bits;
	bool sign;
};

struct lt_event {
	const char *group, *name, *lttng;
	const struct lt_field *fields;	/* NULL: ktrace's fields */
};

#define LT_END		{ NULL, NULL, 0, 0, false }
#define LT_PRIO(n)	{ n, NULL, LT_NONE, 32, true }
#define LTF_INT(n, f)	{ n, f, LT_NUM, 32, true }	/* int32 */
#define LTF_UINT(n, f, b) { n, f, LT_NUM, b, false }
#define LTF_COMM(n, f)	{ n, f, LT_COMM, 0, false }
#define LTF_STR(n, f)	{ n, f, LT_STR, 0, false }

static const struct lt_field lt_switch[] = {
	LTF_COMM("prev_comm", "@prev"), LTF_INT("prev_tid", "@prev"),
	LT_PRIO("prev_prio"), { "prev_state", "prev_state", LT_STATE, 64, true },
	LTF_COMM("next_comm", "next_pid"), LTF_INT("next_tid", "next_pid"),
	LT_PRIO("next_prio"), LT_END,
};

static const struct lt_field lt_wakeup[] = {
	LTF_COMM("comm", "pid"), LTF_INT("tid", "pid"), LT_PRIO("prio"),
	LTF_INT("target_cpu", "cpu"), LT_END,
};

static const struct lt_field lt_migrate[] = {
	LTF_COMM("comm", "pid"), LTF_INT("tid", "pid"), LT_PRIO("prio"),
	LTF_INT("dest_cpu", "cpu"), LT_END,
};

static const struct lt_field lt_exit[] = {
	LTF_COMM("comm", "pid"), LTF_INT("tid", "pid"), LT_PRIO("prio"), LT_END,
};

static const struct lt_field lt_fork[] = {
	LTF_COMM("parent_comm", "parent_pid"), LTF_INT("parent_tid", "parent_pid"),
	{ "parent_pid", "parent_pid", LT_TGID, 32, true }, LTF_STR("child_comm", "comm"),
	LTF_INT("child_tid", "child_pid"),
	LTF_INT("child_pid", "child_tgid"), LT_END,
};

static const struct lt_field lt_exec[] = {
	LTF_STR("filename", "filename"), LTF_INT("tid", "pid"),
	LTF_INT("old_tid", "old_pid"), LT_END,
};

static const struct lt_field lt_irq_entry[] = {
	LTF_INT("irq", "irq"), { "name", "irq", LT_IRQNAME, 0, false }, LT_END,
};

static const struct lt_field lt_irq_exit[] = {
	LTF_INT("irq", "irq"), LTF_INT("ret", "ret"), LT_END,
};

static const struct lt_field lt_softirq[] = { LTF_UINT("vec", "vec", 32), LT_END };

static const struct lt_field lt_rq_issue[] = {
	LTF_UINT("dev", "dev", 32), LTF_UINT("sector", "sector", 64),
	LTF_UINT("nr_sector", "nr_sector", 32), { "bytes", "nr_sector", LT_BYTES, 32, false },
	LTF_INT("tid", "@cur"), { "rwbs", NULL, LT_RWBS, 32, false },
	LTF_COMM("comm", "@cur"), LT_END,
};

static const struct lt_field lt_rq_complete[] = {
	LTF_UINT("dev", "dev", 32), LTF_UINT("sector", "sector", 64),
	LTF_UINT("nr_sector", "nr_sector", 32), { "rwbs", NULL, LT_RWBS, 32, false }, LT_END,
};

static const struct lt_field lt_bio[] = {
	LTF_UINT("dev", "dev", 32), LTF_UINT("sector", "sector", 64),
	LTF_UINT("nr_sector", "nr_sector", 32), { "rwbs", NULL, LT_RWBS, 32, false },
	LTF_INT("tid", "@cur"), LTF_COMM("comm", "@cur"), LT_END,
};

static const struct lt_field lt_sd_task[] = {
	LTF_INT("tid", "pid"), LTF_INT("pid", "tgid"),
	LTF_INT("ppid", "ppid"), LTF_STR("name", "comm"),
	LTF_INT("type", "kthread"), { "mode", NULL, LT_MODE, 32, true },
	{ "submode", NULL, LT_ZERO, 32, true }, { "status", "state", LT_STATUS, 32, true },
	LT_END,
};

static const struct lt_field lt_sd_fd[] = {
	LTF_INT("pid", "pid"), LTF_INT("fd", "fd"),
	{ "flags", NULL, LT_ZERO, 32, false }, { "fmode", NULL, LT_ZERO, 32, false },
	LTF_STR("filename", "path"), LT_END,
};

static const struct lt_field lt_sd_irq[] = {
	LTF_UINT("irq", "irq", 32), LTF_STR("name", NULL), LTF_STR("action", "name"), LT_END,
};

static const struct lt_field lt_sd_blockdev[] = {
	LTF_UINT("dev", "dev", 32), LTF_STR("diskname", "name"), LT_END,
};

static const struct lt_field lt_sd_netdev[] = {
	LTF_STR("name", "name"), LTF_INT("ifindex", "ifindex"), LT_END,
};

static const struct lt_event lt_events[] = {
	{ "sched", "switch", "sched_switch", lt_switch },
	{ "sched", "wakeup", "sched_wakeup", lt_wakeup },
	{ "sched", "wakeup_new", "sched_wakeup_new", lt_wakeup },
	{ "sched", "migrate", "sched_migrate_task", lt_migrate },
	{ "sched", "exit", "sched_process_exit", lt_exit },
	{ "sched", "fork", "sched_process_fork", lt_fork },
	{ "sched", "exec", "sched_process_exec", lt_exec },
	{ "irq", "hardirq_entry", "irq_handler_entry", lt_irq_entry },
	{ "irq", "hardirq_exit", "irq_handler_exit", lt_irq_exit },
	{ "irq", "softirq_entry", "irq_softirq_entry", lt_softirq },
	{ "irq", "softirq_exit", "irq_softirq_exit", lt_softirq },
	{ "irq", "softirq_raise", "irq_softirq_raise", lt_softirq },
	{ "irq", "timer_expire", "timer_expire_entry", NULL },
	{ "block", "rq_insert", "block_rq_insert", lt_rq_complete },
	{ "block", "rq_issue", "block_rq_issue", lt_rq_issue },
	{ "block", "rq_requeue", "block_rq_requeue", lt_rq_complete },
	{ "block", "rq_complete", "block_rq_complete", lt_rq_complete },
	{ "block", "bio_queue", "block_bio_queue", lt_bio },
	{ "statedump", "task", "lttng_statedump_process_state", lt_sd_task },
	{ "statedump", "fd", "lttng_statedump_file_descriptor", lt_sd_fd },
	{ "statedump", "irq", "lttng_statedump_interrupt", lt_sd_irq },
	{ "statedump", "blockdev", "lttng_statedump_block_device", lt_sd_blockdev },
	{ "statedump", "netdev", "lttng_statedump_network_interface", lt_sd_netdev },
	{ "statedump", "end", "lttng_statedump_end", NULL },
	{ "vm", "direct_reclaim_begin", "mm_vmscan_direct_reclaim_begin", NULL },
	{ "vm", "direct_reclaim_end", "mm_vmscan_direct_reclaim_end", NULL },
	{ "vm", "kswapd_wake", "mm_vmscan_kswapd_wake", NULL },
	{ "vm", "kswapd_sleep", "mm_vmscan_kswapd_sleep", NULL },
	{ "vm", "shrink_inactive", "mm_vmscan_lru_shrink_inactive", NULL },
};

/*
 * System calls: the first argument, all ktrace records of them (its low
 * 22 bits, sign-extended), under lttng-modules' name; then the arguments
 * lttng-analyses reads at the entry of its I/O calls, which ktrace does
 * not record, as -1 ("" for a file name): no fd, no F_DUPFD, so that
 * lttng-analyses closes no file descriptor on a made-up value.
 */
static const struct lt_sys {
	const char *name, *args[4];
} lt_sys[] = {
	{ "read", { "fd", "count" } }, { "write", { "fd", "count" } },
	{ "pread64", { "fd", "count" } }, { "pwrite64", { "fd", "count" } },
	{ "readv", { "fd", "vlen" } }, { "writev", { "fd", "vlen" } },
	{ "preadv", { "fd", "vlen" } }, { "pwritev", { "fd", "vlen" } },
	{ "recvfrom", { "fd", "size" } }, { "sendto", { "fd", "len" } },
	{ "recvmsg", { "fd" } }, { "sendmsg", { "fd" } }, { "close", { "fd" } },
	{ "fsync", { "fd" } }, { "fdatasync", { "fd" } },
	{ "sync_file_range", { "fd", "nbytes" } }, { "dup", { "fildes" } },
	{ "dup2", { "oldfd", "newfd" } }, { "dup3", { "oldfd", "newfd", "flags" } },
	{ "fcntl", { "fd", "cmd" } }, { "open", { "filename", "flags" } },
	{ "openat", { "dfd", "filename", "flags" } }, { "socket", { "family" } },
	{ "accept", { "fd" } }, { "accept4", { "fd" } },
	{ "splice", { "fd_in", "fd_out", "len" } },
	{ "sendfile64", { "out_fd", "in_fd", "count" } },
};

/*
 * lttng-modules 2.13's x86-64 names (include/instrumentation/syscalls/
 * headers/x86-64-syscalls_*.h) where syscall_64.tbl's differ: its event
 * is named after the kernel's sys_ function.
 */
static const char *const lt_sys_renames[][2] = {
	{ "stat", "newstat" }, { "fstat", "newfstat" }, { "lstat", "newlstat" },
	{ "sendfile", "sendfile64" }, { "uname", "newuname" }, { "umount2", "umount" },
};

/*
 * The x86-64 calls lttng-modules 2.13 has no event for: it writes them as
 * syscall_entry_unknown and syscall_exit_unknown with their number (id).
 */
static const char *const lt_sys_unknown[] = {
	"capget", "capset", "uselib", "_sysctl", "create_module", "get_kernel_syms",
	"query_module", "nfsservctl", "getpmsg", "putpmsg", "afs_syscall", "tuxcall",
	"security", "set_thread_area", "get_thread_area", "lookup_dcookie",
	"epoll_ctl_old", "epoll_wait_old", "vserver", "uretprobe",
	"landlock_create_ruleset", "landlock_add_rule", "landlock_restrict_self",
	"cachestat", "fchmodat2", "map_shadow_stack", "futex_wake", "futex_wait",
	"futex_requeue", "statmount", "listmount", "lsm_get_self_attr",
	"lsm_set_self_attr", "lsm_list_modules", "mseal",
};

/* lttng-modules 2.13's name of x86-64 call @name (syscall_64.tbl's), or NULL. */
static const char *lt_sys_name(const char *name)
{
	unsigned int i;

	for (i = 0; name && i < ARRAY_SIZE(lt_sys_renames); i++)
		if (!strcmp(lt_sys_renames[i][0], name))
			return lt_sys_renames[i][1];
	for (i = 0; name && i < ARRAY_SIZE(lt_sys_unknown); i++)
		if (!strcmp(lt_sys_unknown[i], name))
			return NULL;
	return name;
}

/*
 * Field @name of @r, or of the description a KEY field of @r names; the
 * record that has it in *@at.  NULL if neither has it.
 */
static const struct kt_field *lt_find(const struct kt_trace *t, const struct kt_record *r,
				      const char *name, struct kt_record *at)
{
	const struct kt_event *ev = r->event;
	unsigned int i, j;

	for (i = 0; ev && i < ev->nr_fields; i++) {
		if (ev->fields[i].display != KTRACE_DISPLAY_KEY &&
		    !strcmp(ev->fields[i].name, name)) {
			*at = *r;
			return &ev->fields[i];
		}
	}
	for (i = 0; ev && i < ev->nr_fields; i++) {
		if (ev->fields[i].display != KTRACE_DISPLAY_KEY || !kt_key_named(t, r, i, at))
			continue;
		for (j = 0; j < at->event->nr_fields; j++)
			if (!strcmp(at->event->fields[j].name, name))
				return &at->event->fields[j];
	}
	return NULL;
}

/* The number of field @f of @at, sign-extended as its metadata says. */
static bool lt_value(const struct kt_field *f, const struct kt_record *at, uint64_t *v)
{
	uint64_t raw;

	if (!f || !kt_field_raw(f, at, &raw))
		return false;
	*v = ktrace_field_extend(f->flags,
				 ktrace_field_bits(f->size, at->id != KTRACE_ID_EXPANDED), raw);
	return true;
}

/* @name's number: a field (lt_find()), or "@cur"/"@prev", the running/previous task. */
static bool lt_num(const struct kt_trace *t, const struct kt_record *r, const char *name,
		   uint64_t *v)
{
	struct kt_record at;

	if (!strcmp(name, "@cur") || !strcmp(name, "@prev")) {
		*v = (int64_t)(name[1] == 'c' ? r->pid : r->prev_pid);
		return true;
	}
	return lt_value(lt_find(t, r, name, &at), &at, v);
}

/* The bytes of STRING field @name of @r, up to a NUL; "" if it has none. */
static int lt_str(struct conv *c, const struct kt_trace *t, const struct kt_record *r,
		  const char *out, const char *name)
{
	struct kt_record at;
	const struct kt_field *f = lt_find(t, r, name, &at);
	struct ktrace_record data = { .data = at.data, .length = at.length };
	const char *s = "";
	size_t len = 0;

	if (!f || f->display != KTRACE_DISPLAY_STRING || at.id != KTRACE_ID_EXPANDED ||
	    !ktrace_field_string(&data, f->offset, f->size, &s, &len)) {
		s = "";
		len = 0;
	}
	return add_string(c, out, s, strnlen(s, len));
}

/* Field @name as report prints it ("write", "sync|fua"), between '|'s, in @buf. */
static void lt_text(struct conv *c, const struct kt_trace *t, const struct kt_record *r,
		    const char *name, char *buf, size_t size)
{
	struct kt_record at;
	const struct kt_field *f = lt_find(t, r, name, &at);
	uint64_t v;

	c->word.len = 0;
	c->word.overflow = false;
	kt_bufprintf(&c->word, "%s", "");
	if (f)
		kt_field_text(&c->word, t, f, &at, &v);
	snprintf(buf, size, "|%s|", c->word.p ? c->word.p : "");
}

/* lttng-modules' rwbs of a block record: RWBS_FLAG_ bits of its op and flags. */
static uint64_t lt_rwbs(struct conv *c, const struct kt_trace *t, const struct kt_record *r)
{
	static const struct { const char *word; unsigned int bit; } op[] = {
		{ "write", 1 << 0 }, { "discard", 1 << 1 }, { "read", 1 << 2 },
		{ "flush", 1 << 8 }, { "secure_erase", 1 << 1 | 1 << 7 },
	}, flag[] = {
		{ "rahead", 1 << 3 }, { "sync", 1 << 5 }, { "meta", 1 << 6 },
		{ "fua", 1 << 9 }, { "preflush", 1 << 10 },
	};
	char ops[64], flags[128], key[40];
	uint64_t rwbs = 0;
	unsigned int i;

	lt_text(c, t, r, "op", ops, sizeof(ops));
	lt_text(c, t, r, "flags", flags, sizeof(flags));
	for (i = 0; i < ARRAY_SIZE(op); i++) {
		snprintf(key, sizeof(key), "|%s|", op[i].word);
		if (!strcmp(ops, key))
			rwbs |= op[i].bit;
	}
	for (i = 0; i < ARRAY_SIZE(flag); i++) {
		snprintf(key, sizeof(key), "|%s|", flag[i].word);
		if (strstr(flags, key))
			rwbs |= flag[i].bit;
	}
	return rwbs;
}

/* prev_state: ktrace's state index (kt_state_values) as the kernel's TASK_ bits. */
static uint64_t lt_state(uint64_t v)
{
	static const unsigned int bits[] = { 0, 1, 2, 4, 8, 16, 32, 64, 128, 256 };

	return v < ARRAY_SIZE(bits) ? bits[v] : 0;
}

/*
 * A statedump state as LTTng's status (lttng_process_status), as
 * lttng-modules' statedump sets it: a runnable task WAIT_CPU (2; the
 * viewer finds which one ran; WAIT_FORK, a child not run yet, ktrace
 * cannot tell), S D I WAIT (5), Z ZOMBIE (4), X DEAD (7), else UNNAMED.
 */
static uint64_t lt_status(uint64_t v)
{
	/* R S D T t X Z P I R+ */
	static const unsigned int status[] = { 2, 5, 5, 0, 0, 7, 4, 0, 5, 2 };

	return v < ARRAY_SIZE(status) ? status[v] : 0;
}

/* The name the statedump gave IRQ @irq in @tr's file, or "". */
static const char *lt_irq_name(const struct ctf_trace *tr, uint64_t irq)
{
	unsigned int i;

	for (i = 0; tr && i < tr->nr_irqs; i++)
		if (tr->irqs[i].irq == irq)
			return tr->irqs[i].name;
	return "";
}

/*
 * Learn the name of a statedump:irq record @r of @tr's file: its first
 * handler's (a shared IRQ's entry event is one, not one per handler).
 * Return: 0, or -1 (no memory).
 */
static int lt_learn_irq(struct ctf_trace *tr, const struct kt_trace *t,
			const struct kt_record *r)
{
	struct kt_record at;
	const struct kt_field *f = lt_find(t, r, "name", &at);
	struct ktrace_record data = { .data = at.data, .length = at.length };
	struct lt_irq *irqs;
	const char *s;
	size_t len;
	uint64_t v;

	if (!lt_num(t, r, "irq", &v) || v > UINT_MAX || *lt_irq_name(tr, v) || !f ||
	    f->display != KTRACE_DISPLAY_STRING || at.id != KTRACE_ID_EXPANDED ||
	    !ktrace_field_string(&data, f->offset, f->size, &s, &len))
		return 0;
	irqs = realloc(tr->irqs, (tr->nr_irqs + 1) * sizeof(*irqs));
	if (!irqs)
		return -1;
	tr->irqs = irqs;
	irqs[tr->nr_irqs].irq = v;
	irqs[tr->nr_irqs].name = strndup(s, strnlen(s, len));
	if (!irqs[tr->nr_irqs].name)
		return -1;
	tr->nr_irqs++;
	return 0;
}

/* The thread group of task @pid in @tr's file as last learned, or @pid. */
static uint64_t lt_tgid(const struct ctf_trace *tr, uint64_t pid)
{
	unsigned int i;

	for (i = tr ? tr->nr_tgids : 0; i--; )
		if (tr->tgids[i].pid == pid)
			return tr->tgids[i].tgid;
	return pid;
}

/*
 * Learn the thread group of a statedump:task (pid, tgid) or sched:fork
 * (child_pid, child_tgid) record @r of @tr's file.
 * Return: 0, or -1 (no memory).
 */
static int lt_learn_tgid(struct ctf_trace *tr, const struct kt_trace *t,
			 const struct kt_record *r, bool fork)
{
	struct lt_tgid *tg;
	uint64_t pid, tgid;

	if (!lt_num(t, r, fork ? "child_pid" : "pid", &pid) ||
	    !lt_num(t, r, fork ? "child_tgid" : "tgid", &tgid) || lt_tgid(tr, pid) == tgid)
		return 0;
	tg = realloc(tr->tgids, (tr->nr_tgids + 1) * sizeof(*tg));
	if (!tg)
		return -1;
	tr->tgids = tg;
	tg[tr->nr_tgids].pid = pid;
	tg[tr->nr_tgids++].tgid = tgid;
	return 0;
}

/* Forget what @tr's file taught (between the passes: learned again in time order). */
static void lt_forget_irqs(struct ctf_trace *tr)
{
	while (tr->nr_irqs)
		free(tr->irqs[--tr->nr_irqs].name);
	free(tr->irqs);
	tr->irqs = NULL;
	free(tr->tgids);
	tr->tgids = NULL;
	tr->nr_tgids = 0;
}

/* The item of lttng field @lf of @r. */
static int lt_item(struct conv *c, const struct kt_trace *t, const struct kt_record *r,
		   const struct lt_field *lf)
{
	char idle[24];
	const char *name;
	uint64_t v = 0;

	switch (lf->src) {
	case LT_COMM:
		if (!lt_num(t, r, lf->from, &v))
			return add_string(c, lf->name, "", 0);
		/* The idle task: swapper/CPU, as the kernel names it. */
		snprintf(idle, sizeof(idle), "swapper/%u", r->cpu);
		name = v ? kt_comm(t, (int)v) : idle;
		return add_string(c, lf->name, name, strlen(name));
	case LT_STR:
		if (!lf->from)
			return add_string(c, lf->name, "", 0);
		return lt_str(c, t, r, lf->name, lf->from);
	case LT_TGID:
		if (!lt_num(t, r, lf->from, &v))
			v = 0;
		v = lt_tgid(c->cur, v);
		break;
	case LT_IRQNAME:
		name = lt_num(t, r, lf->from, &v) ? lt_irq_name(c->cur, v) : "";
		return add_string(c, lf->name, name, strlen(name));
	case LT_NONE:
		v = -1;
		break;
	case LT_RWBS:
		v = lt_rwbs(c, t, r);
		break;
	case LT_ZERO:
		break;
	case LT_MODE:
		v = 5;
		break;
	default:
		lt_num(t, r, lf->from, &v);
		if (lf->src == LT_STATE)
			v = lt_state(v);
		else if (lf->src == LT_STATUS)
			v = lt_status(v);
		else if (lf->src == LT_BYTES)
			v *= 512;
		break;
	}
	return add_int(c, lf->name, lf->bits, lf->sign, 10, v);
}

/* syscall_entry_NAME, syscall_exit_NAME: what lttng-modules names them, their items. */
static int lt_syscall(struct conv *c, const struct kt_trace *t, const struct kt_record *r,
		      bool entry, char *out, size_t size)
{
	const char *name = NULL;
	unsigned int i, j;
	bool sat;
	int nr = kt_field_sysnr(r, &sat);
	uint64_t v = 0;

	if (!sat)
		name = lt_sys_name(kt_syscall_name(t, nr));
	snprintf(out, size, "syscall_%s_%s", entry ? "entry" : "exit", name ? name : "unknown");
	if (!name && add_int(c, "id", 32, true, 10, (uint64_t)(int64_t)nr))
		return -1;
	if (!entry) {
		lt_num(t, r, "ret", &v);
		return add_int(c, "ret", 64, true, 10, v);
	}
	lt_num(t, r, "arg0", &v);
	for (i = 0; name && i < ARRAY_SIZE(lt_sys) && strcmp(lt_sys[i].name, name); i++)
		;
	if (!name || i == ARRAY_SIZE(lt_sys))
		return add_int(c, "arg0", 32, false, 16, v);
	/* The low 22 bits of the first argument, sign-extended: AT_FDCWD is -100. */
	v = ktrace_field_extend(KTRACE_FIELD_SIGNED, 22, v);
	for (j = 0; j < ARRAY_SIZE(lt_sys[i].args) && lt_sys[i].args[j]; j++) {
		const char *a = lt_sys[i].args[j];
		int ret;

		if (!strcmp(a, "filename"))
			ret = add_string(c, a, "", 0);
		else
			ret = add_int(c, a, j ? 64 : 32, true, 10, j ? (uint64_t)-1 : v);
		if (ret)
			return -1;
	}
	return 0;
}

/* A field of ktrace's in the LTTng layout: a number, an enumeration if named, bytes. */
static int lt_field(struct conv *c, const struct kt_trace *t, const struct kt_field *f,
		    const struct kt_record *r)
{
	bool compact = r->id != KTRACE_ID_EXPANDED;
	unsigned int i, bits = compact ? f->size : f->size * 8;
	bool sign = f->flags & KTRACE_FIELD_SIGNED, hex;
	uint64_t v;

	if (f->display == KTRACE_DISPLAY_STRING)
		return lt_str(c, t, r, f->name, f->name);
	if (f->display == KTRACE_DISPLAY_SYMBOL) {
		c->word.len = 0;
		c->word.overflow = false;
		kt_bufprintf(&c->word, "%s", "");
		if (kt_field_text(&c->word, t, f, r, &v) == KT_VALUE_NONE || c->word.overflow)
			return add_string(c, f->name, "", 0);
		return add_string(c, f->name, c->word.p, c->word.len);
	}
	if (!lt_value(f, r, &v))
		v = 0;
	hex = f->display == KTRACE_DISPLAY_HEX || f->display == KTRACE_DISPLAY_FLAGS;
	if (add_int(c, f->name, sign ? 64 : bits, sign, hex ? 16 : 10, v))
		return -1;
	/* An enumeration when the value has a name: never "<unknown>". */
	for (i = 0; f->display == KTRACE_DISPLAY_ENUM && i < f->nr_values; i++) {
		if (f->values[i].value == v) {
			c->items[c->nr_items - 1].kind = ITEM_ENUM;
			c->items[c->nr_items - 1].f = f;
			break;
		}
	}
	return 0;
}

/* The LTTng name of @r in @out and its items: lt_events, system calls, or ktrace's own. */
static int lt_fields(struct conv *c, struct kt_trace *t, const struct kt_record *r,
		     char *out, size_t size)
{
	const struct kt_event *ev = r->event;
	const struct lt_field *lf;
	unsigned int i;
	uint64_t v;

	if (ev && !strcmp(ev->group, "syscalls") &&
	    (!strcmp(ev->name, "entry") || !strcmp(ev->name, "exit")))
		return lt_syscall(c, t, r, ev->name[1] == 'n', out, size);
	for (i = 0; ev && i < ARRAY_SIZE(lt_events); i++)
		if (!strcmp(lt_events[i].group, ev->group) && !strcmp(lt_events[i].name, ev->name))
			break;
	if (!ev || i == ARRAY_SIZE(lt_events)) {
		if (ev)
			snprintf(out, size, "%s:%s", ev->group, ev->name);
		else
			snprintf(out, size, KTRACE_UNKNOWN_EVENT, kt_channel_name(r->channel));
		return add_fields(c, t, r);
	}
	snprintf(out, size, "%s", lt_events[i].lttng);
	/* An hrtimer's callback: what lttng-modules 2.13 names it. */
	if (!strcmp(ev->name, "timer_expire") && lt_num(t, r, "kind", &v) && v == 1)
		snprintf(out, size, "timer_hrtimer_expire_entry");
	/* The names of the statedump's interrupts, for irq_handler_entry. */
	if (!strcmp(ev->group, "statedump") && !strcmp(ev->name, "irq") &&
	    lt_learn_irq(c->cur, t, r))
		return -1;
	/* Thread groups, for a fork's parent_pid: a fork teaches its child's. */
	if (((!strcmp(ev->group, "statedump") && !strcmp(ev->name, "task")) ||
	     (!strcmp(ev->group, "sched") && !strcmp(ev->name, "fork"))) &&
	    lt_learn_tgid(c->cur, t, r, ev->name[0] == 'f'))
		return -1;
	if (!lt_events[i].fields)
		return add_fields(c, t, r);
	for (lf = lt_events[i].fields; lf->name; lf++)
		if (lt_item(c, t, r, lf))
			return -1;
	return 0;
}

/* Whether @v, sign-extended from @bits, fits an integer of @bytes. */
static bool fits(uint64_t v, unsigned int bytes, bool sign)
{
	unsigned int b = bytes * 8;

	if (b == 64)
		return true;
	if (!sign)
		return v < 1ULL << b;
	return (int64_t)v >= -(1LL << (b - 1)) && (int64_t)v < 1LL << (b - 1);
}

static void put_label(struct kt_buf *b, bool *first, const char *label, uint64_t v, bool sign)
{
	kt_bufprintf(b, "%s\"", *first ? "" : ", ");
	put_tsdl(b, label);
	if (sign)
		kt_bufprintf(b, "\" = %lld", (long long)v);
	else
		kt_bufprintf(b, "\" = %llu", (unsigned long long)v);
	*first = false;
}

/*
 * An enumeration's labels: the metadata's names (the first of a value, as
 * report takes it), then the saturated values report prints as words.
 */
static void put_labels(struct kt_buf *b, const struct item *it)
{
	const struct kt_field *f = it->f;
	bool first = true, named;
	unsigned int i, j;
	uint64_t ext[2];
	char word[32];

	for (i = 0; f->display == KTRACE_DISPLAY_ENUM && i < f->nr_values; i++) {
		uint64_t v = f->values[i].value;

		for (j = 0; j < i && f->values[j].value != v; j++)
			;
		if (j == i && fits(v, it->bytes, it->sign))
			put_label(b, &first, f->values[i].name, v, it->sign);
	}
	if (!it->sat_labels || !(f->flags & KTRACE_FIELD_SATURATES) || !it->bits ||
	    it->bits > 64)
		return;
	if (it->sign) {
		ext[0] = it->bits > 1 ? ~0ULL >> (65 - it->bits) : 0;
		ext[1] = -ext[0] - 1;
	} else {
		ext[0] = ~0ULL >> (64 - it->bits);
	}
	for (i = 0; i < (it->sign ? 2U : 1U); i++) {
		named = false;
		for (j = 0; f->display == KTRACE_DISPLAY_ENUM && j < f->nr_values; j++)
			named |= f->values[j].value == ext[i];
		if (named)
			continue;
		if (it->sign)
			snprintf(word, sizeof(word), "%s%lld", i ? "<=" : ">=", (long long)ext[i]);
		else
			snprintf(word, sizeof(word), ">=%llu", (unsigned long long)ext[i]);
		put_label(b, &first, word, ext[i], it->sign);
	}
}

/* The LTTng layout's typealias of an integer: [u]intBITS[_hex]_t. */
static const char *lt_int_name(bool sign, unsigned int bits, bool hex)
{
	static char name[24];

	snprintf(name, sizeof(name), "%sint%u%s_t", sign ? "" : "u", bits, hex ? "_hex" : "");
	return name;
}

/* An integer's TSDL type; with @alias, one of the LTTng layout's typealiases. */
static void put_int_type(struct kt_buf *b, const struct item *it, bool alias)
{
	if (alias)
		kt_bufprintf(b, "%s", lt_int_name(it->sign, it->bytes * 8, it->base == 16));
	else
		kt_bufprintf(b, "integer { size = %u; align = 8; signed = %s;%s }",
			     it->bytes * 8, it->sign ? "true" : "false",
			     it->base == 16 ? " base = 16;" : "");
}

/* The TSDL of the items, the body of their event class. */
static void items_tsdl(struct conv *c)
{
	struct kt_buf *b = &c->body;
	unsigned int i;
	size_t at, n;

	b->len = 0;
	b->overflow = false;
	kt_bufprintf(b, "%s", "");
	for (i = 0; i < c->nr_items; i++) {
		const struct item *it = &c->items[i];

		kt_bufprintf(b, "\t\t");
		if (it->kind == ITEM_STRING) {
			kt_bufprintf(b, "string { encoding = UTF8; }");
		} else if (it->kind == ITEM_INT) {
			put_int_type(b, it, c->lttng);
		} else {
			at = b->len;
			kt_bufprintf(b, "enum : ");
			put_int_type(b, it, c->lttng);
			kt_bufprintf(b, " { ");
			n = b->len;
			put_labels(b, it);
			if (b->len == n && !b->overflow) {
				/* No label (no name fits): a plain integer. */
				b->len = at;
				b->p[at] = '\0';
				put_int_type(b, it, c->lttng);
			} else {
				kt_bufprintf(b, " }");
			}
		}
		kt_bufprintf(b, " _%s;\n", it->name);
	}
}

/* The class of the event just described (name, c->body), made if new. */
static int class_of(struct conv *c, struct ctf_trace *tr, unsigned int channel,
		    const char *name, unsigned int *id)
{
	uint64_t h = fnv(fnv(0xcbf29ce484222325ULL ^ channel, name, strlen(name)),
			 c->body.p, c->body.len);
	struct ctf_class *cl;
	unsigned int i, s;

	for (s = h % (tr->nr_slots ? tr->nr_slots : 1); tr->nr_slots && tr->slots[s];
	     s = (s + 1) % tr->nr_slots) {
		cl = &tr->classes[tr->slots[s] - 1];
		if (cl->hash == h && cl->channel == channel && !strcmp(cl->name, name) &&
		    !strcmp(cl->body, c->body.p)) {
			*id = cl->id;
			return 0;
		}
	}
	if (2 * (tr->nr_classes + 1) > tr->nr_slots) {
		unsigned int n = tr->nr_slots ? 2 * tr->nr_slots : 64;
		unsigned int *slots = calloc(n, sizeof(*slots));

		if (!slots)
			return -1;
		for (i = 0; i < tr->nr_classes; i++) {
			for (s = tr->classes[i].hash % n; slots[s]; s = (s + 1) % n)
				;
			slots[s] = i + 1;
		}
		free(tr->slots);
		tr->slots = slots;
		tr->nr_slots = n;
		cl = realloc(tr->classes, n / 2 * sizeof(*cl));
		if (!cl)
			return -1;
		tr->classes = cl;
	}
	cl = &tr->classes[tr->nr_classes];
	cl->id = tr->nr_classes;
	cl->channel = channel;
	cl->hash = h;
	cl->name = strdup(name);
	cl->body = strdup(c->body.p);
	if (!cl->name || !cl->body) {
		free(cl->name);
		free(cl->body);
		return -1;
	}
	for (s = h % tr->nr_slots; tr->slots[s]; s = (s + 1) % tr->nr_slots)
		;
	tr->slots[s] = ++tr->nr_classes;
	*id = cl->id;
	return 0;
}

static FILE *open_file(struct conv *c, struct ctf_trace *tr, const char *name)
{
	char path[160];

	/* LTTng's session layout: the kernel's trace in kernel/. */
	snprintf(path, sizeof(path), "%s%s%s", tr->sub, tr->lttng ? "kernel/" : "", name);
	return c->open(c->arg, path);
}

/* Little-endian bytes. */
static void put_le(unsigned char *p, uint64_t v, unsigned int bytes)
{
	unsigned int i;

	for (i = 0; i < bytes; i++)
		p[i] = v >> 8 * i;
}

static unsigned int header_size(const struct ctf_trace *tr)
{
	return tr->lttng ? LT_PACKET_HEADER : CTF_PACKET_HEADER;
}

static void packet_header(const struct ctf_trace *tr, const struct ctf_stream *st,
			  unsigned char *h)
{
	put_le(h, CTF_MAGIC, 4);
	memcpy(h + 4, tr->uuid, 16);
	if (tr->lttng) {
		/* One stream class; the instance: channel and CPU. */
		put_le(h + 20, 0, 4);
		put_le(h + 24, st->channel * KTF_MAX_CPUS + st->cpu, 8);
		put_le(h + 32, st->first, 8);
		put_le(h + 40, st->last, 8);
		put_le(h + 48, st->bytes * 8, 8);
		put_le(h + 56, st->bytes * 8, 8);
		put_le(h + 64, st->seq, 8);
		put_le(h + 72, st->discarded, 8);
		put_le(h + 80, st->cpu, 4);
		return;
	}
	put_le(h + 20, st->channel, 4);
	put_le(h + 24, st->first, 8);
	put_le(h + 32, st->last, 8);
	put_le(h + 40, st->bytes * 8, 8);
	put_le(h + 48, st->bytes * 8, 8);
	put_le(h + 56, st->discarded, 8);
	put_le(h + 64, st->cpu, 4);
}

/* A packet's header in place of its placeholder, then on at the end. */
static int end_packet(const struct ctf_trace *tr, const struct ctf_stream *st)
{
	unsigned char h[LT_PACKET_HEADER];
	size_t n = header_size(tr);

	packet_header(tr, st, h);
	if (fflush(st->f) || fseek(st->f, st->start, SEEK_SET) ||
	    fwrite(h, 1, n, st->f) != n || fseek(st->f, 0, SEEK_END))
		return -1;
	return 0;
}

/* A new packet of @st, from @ns (its first event's time): a header end_packet() rewrites. */
static int begin_packet(const struct ctf_trace *tr, struct ctf_stream *st, uint64_t ns)
{
	unsigned char h[LT_PACKET_HEADER];
	size_t n = header_size(tr);

	st->first = ns;
	st->last = ns;
	st->bytes = n;
	st->fresh = true;
	packet_header(tr, st, h);
	return fwrite(h, 1, n, st->f) != n ? -1 : 0;
}

static struct ctf_stream *stream_of(struct conv *c, struct ctf_trace *tr,
				    const struct kt_record *r)
{
	const struct kt_trace *t = tr->t;
	struct ctf_stream *st, *all;
	struct kt_stream_stats ss;
	char name[32];
	unsigned int i;

	if (r->channel >= KTRACE_NR_CHANNELS || r->cpu >= KTF_MAX_CPUS)
		return NULL;
	if (!tr->idx[r->channel]) {
		tr->idx[r->channel] = calloc(KTF_MAX_CPUS, sizeof(*tr->idx[0]));
		if (!tr->idx[r->channel])
			return NULL;
	}
	if (tr->idx[r->channel][r->cpu])
		return tr->idx[r->channel][r->cpu];
	all = realloc(tr->streams, (tr->nr_streams + 1) * sizeof(*all));
	if (!all)
		return NULL;
	if (all != tr->streams) {
		/* Moved: the index points into the new array. */
		for (i = 0; i < tr->nr_streams; i++)
			tr->idx[all[i].channel][all[i].cpu] = &all[i];
		tr->streams = all;
	}
	st = &all[tr->nr_streams];
	memset(st, 0, sizeof(*st));
	st->channel = r->channel;
	st->cpu = r->cpu;
	/*
	 * Every packet says how many events the stream lost in all: when is
	 * not known, and the readers put the losses in its first packet.
	 */
	for (i = 0; i < t->nr_streams; i++) {
		if (t->streams[i].channel == r->channel && t->streams[i].cpu == r->cpu) {
			kt_stream_stats(tr->t, &t->streams[i], &ss, NULL);
			st->discarded = ss.dropped + ss.overwritten;
		}
	}
	snprintf(name, sizeof(name), "%s_%u", kt_channel_name(r->channel), r->cpu);
	st->f = open_file(c, tr, name);
	if (!st->f)
		return NULL;
	tr->nr_streams++;
	tr->idx[r->channel][r->cpu] = st;
	return begin_packet(tr, st, r->ns) ? NULL : st;
}

/*
 * ktrace's event header (uint32 id, uint64 time) and context (procname,
 * tid: the task as report names it, no spaces, at most 16 bytes).
 * Return: the bytes written.
 */
static size_t ktrace_header(const struct kt_trace *t, const struct kt_record *r,
			    struct ctf_stream *st, unsigned int id, uint64_t ns)
{
	unsigned char num[12];
	char comm[17];
	size_t n;

	put_le(num, id, 4);
	put_le(num + 4, ns, 8);
	fwrite(num, 1, 12, st->f);
	kt_comm_word(t, r->pid, comm, sizeof(comm));
	n = strlen(comm) + 1;
	fwrite(comm, 1, n, st->f);
	put_le(num, (uint32_t)r->pid, 4);
	fwrite(num, 1, 4, st->f);
	return 12 + n + 4;
}

/*
 * LTTng's compact event header: 5 bits of id, 27 of time (a reader takes
 * the bits above from the stream's last time, plus one if they wrapped),
 * when the id is below 31 and the time within 2^27 ns of the last one in
 * the packet; else the extended header: 31, uint32 id, uint64 time.
 * Return: the bytes written.
 */
static size_t lt_header(struct ctf_stream *st, unsigned int id, uint64_t ns)
{
	unsigned char h[13];
	bool compact = id < 31 && !st->fresh && ns - st->last < (1ULL << 27);

	st->fresh = false;
	if (compact) {
		put_le(h, id | (ns & ((1ULL << 27) - 1)) << 5, 4);
		fwrite(h, 1, 4, st->f);
		return 4;
	}
	h[0] = 31;
	put_le(h + 1, id, 4);
	put_le(h + 5, ns, 8);
	fwrite(h, 1, 13, st->f);
	return 13;
}

/* The first pass of the LTTng layout: @r's class, made, and counted. */
static int count_event(struct conv *c, struct kt_trace *t, const struct kt_record *r,
		       struct ctf_trace *tr)
{
	char name[2 * KTRACE_NAME_LEN + 16];
	unsigned int id;

	c->nr_items = 0;
	c->text.len = 0;
	c->text.overflow = false;
	if (lt_fields(c, t, r, name, sizeof(name)))
		return -1;
	items_tsdl(c);
	if (c->body.overflow || class_of(c, tr, 0, name, &id))
		return -1;
	tr->classes[id].count++;
	return 0;
}

static const struct ctf_class *rank_classes;

static int by_count(const void *a, const void *b)
{
	const struct ctf_class *x = &rank_classes[*(const unsigned int *)a];
	const struct ctf_class *y = &rank_classes[*(const unsigned int *)b];

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

/*
 * The ids of the classes the first pass made, the most frequent first:
 * those below 31 take LTTng's 4-byte compact header, the others 13 bytes.
 * Return: 0, or -1 out of memory.
 */
static int rank_ids(struct ctf_trace *tr)
{
	unsigned int i, *order = calloc(tr->nr_classes + 1, sizeof(*order));

	tr->rank = calloc(tr->nr_classes + 1, sizeof(*tr->rank));
	if (!order || !tr->rank) {
		free(order);
		return -1;
	}
	for (i = 0; i < tr->nr_classes; i++)
		order[i] = i;
	rank_classes = tr->classes;
	qsort(order, tr->nr_classes, sizeof(*order), by_count);
	for (i = 0; i < tr->nr_classes; i++)
		tr->rank[order[i]] = i;
	free(order);
	return 0;
}

static int write_event(struct conv *c, struct kt_trace *t, const struct kt_record *r,
		       struct ctf_trace *tr)
{
	const struct kt_event *ev = r->event;
	struct ctf_stream *st;
	char name[2 * KTRACE_NAME_LEN + 16];
	unsigned int i, id;
	unsigned char num[8];
	uint64_t ns;
	size_t n;

	/*
	 * A stream's times never go back in CTF (nor in a kernel trace: the
	 * decoder takes a clock that goes back inside a subbuffer for a
	 * rollover); a damaged file's subbuffer that starts earlier than the
	 * one before it is written at the stream's last time, said once.
	 */
	c->cur = tr;
	if (c->counting)
		return count_event(c, t, r, tr);
	ns = r->ns;
	st = stream_of(c, tr, r);
	if (!st)
		return -1;
	if (st->bytes && ns < st->last) {
		if (!c->warned_back)
			fprintf(stderr,
				"ktrace %s: %s: warning: CPU %u %s: time goes back at %llu ns; written at %llu ns in CTF\n",
				c->cmd, t->path, r->cpu, kt_channel_name(r->channel),
				(unsigned long long)ns, (unsigned long long)st->last);
		c->warned_back = true;
		ns = st->last;
	}
	/* Several traces: the clock's offset plus the time must be an int64 of ns. */
	if (c->multi && (__int128)kt_real_ns(t, 0) + ns > INT64_MAX) {
		fprintf(stderr, "ktrace %s: %s: the CLOCK_REALTIME of %llu ns is beyond 2^63 ns\n",
			c->cmd, t->path, (unsigned long long)ns);
		return -1;
	}

	c->nr_items = 0;
	c->text.len = 0;
	c->text.overflow = false;
	if (c->lttng ? lt_fields(c, t, r, name, sizeof(name)) : add_fields(c, t, r))
		return -1;
	items_tsdl(c);
	if (c->body.overflow)
		return -1;
	if (!c->lttng && ev)
		snprintf(name, sizeof(name), "%s:%s", ev->group, ev->name);
	else if (!c->lttng)
		snprintf(name, sizeof(name), KTRACE_UNKNOWN_EVENT, kt_channel_name(r->channel));
	if (class_of(c, tr, c->lttng ? 0 : r->channel, name, &id))
		return -1;
	if (st->bytes >= CTF_PACKET_MAX) {
		if (end_packet(tr, st))
			return -1;
		st->start += st->bytes;
		st->seq++;
		if (begin_packet(tr, st, ns))
			return -1;
	}
	n = c->lttng ? lt_header(st, tr->rank ? tr->rank[id] : id, ns) :
		ktrace_header(t, r, st, id, ns);
	for (i = 0; i < c->nr_items; i++) {
		const struct item *it = &c->items[i];

		if (it->kind == ITEM_STRING) {
			if (it->len)
				fwrite(c->text.p + it->text, 1, it->len, st->f);
			fputc('\0', st->f);
			n += it->len + 1;
		} else {
			put_le(num, it->v, it->bytes);
			fwrite(num, 1, it->bytes, st->f);
			n += it->bytes;
		}
	}
	st->bytes += n;
	st->last = ns;
	return ferror(st->f) ? -1 : 0;
}

static int convert_one(struct kt_trace *t, const struct kt_record *r, void *arg)
{
	struct conv *c = arg;
	unsigned int i;

	for (i = 0; i < c->nr && c->tr[i].t != t; i++)
		;
	errno = 0;
	if (i == c->nr || write_event(c, t, r, &c->tr[i])) {
		fprintf(stderr, "ktrace %s: %s: cannot write the event at %llu ns%s%s\n", c->cmd,
			t->path, (unsigned long long)r->ns, errno ? ": " : "",
			errno ? strerror(errno) : "");
		return -1;
	}
	return 0;
}

static void put_uuid(FILE *f, const unsigned char *u)
{
	unsigned int i;

	for (i = 0; i < 16; i++)
		fprintf(f, "%02x%s", u[i], i == 3 || i == 5 || i == 7 || i == 9 ? "-" : "");
}

/* The clock's offset_s and offset of an offset in ns, offset in [0, 1 s). */
static void split_ns(int64_t off, long long *sec, long long *ns)
{
	*sec = off / 1000000000;
	*ns = off % 1000000000;
	if (*ns < 0) {
		(*sec)--;
		*ns += 1000000000;
	}
}

/* A TSDL string literal's content of @s, in @q (reset). */
static const char *tsdl(struct kt_buf *q, const char *s)
{
	q->len = 0;
	kt_bufprintf(q, "%s", "");
	put_tsdl(q, s);
	return q->p ? q->p : "";
}

/*
 * The metadata of the LTTng layout, as lttng-modules 2.13 writes it: its
 * packet header and context, compact event header, env (what Trace
 * Compass and lttng-analyses read: domain, tracer, kernel), a monotonic
 * clock whose offset is CLOCK_REALTIME at boot when the trace has it.
 */
static int lt_metadata(struct conv *c, struct ctf_trace *tr, FILE *f)
{
	const struct kt_trace *t = tr->t;
	bool real = c->multi || (t->have_clock && t->clock.ref_real_ns);
	struct kt_buf q = { .grow = true };
	long long sec, ns;
	unsigned int i;

	split_ns(real ? kt_real_ns(t, 0) : t->offset_ns, &sec, &ns);
	fprintf(f, "/* CTF 1.8 */\n\n/* Converted by ktrace convert: %s. */\n\n",
		"LTTng's kernel layout");
	/* The fields' integers (put_int_type()): [u]intN[_hex]_t. */
	for (i = 0; i < 16; i++)
		fprintf(f, "typealias integer { size = %u; align = 8; signed = %s;%s } := %s;\n",
			8 << (i & 3), i & 4 ? "true" : "false", i & 8 ? " base = 16;" : "",
			lt_int_name(i & 4, 8 << (i & 3), i & 8));
	fprintf(f, "typealias integer { size = 64; align = 8; signed = false; } := unsigned long;\n"
		"typealias integer { size = 5; align = 1; signed = false; } := uint5_t;\n"
		"typealias integer { size = 27; align = 1; signed = false; } := uint27_t;\n\n"
		"trace {\n\tmajor = 1;\n\tminor = 8;\n\tuuid = \"");
	put_uuid(f, tr->uuid);
	fprintf(f, "\";\n\tbyte_order = le;\n\tpacket.header := struct {\n"
		"\t\tuint32_t magic;\n\t\tuint8_t  uuid[16];\n\t\tuint32_t stream_id;\n"
		"\t\tuint64_t stream_instance_id;\n\t} align(8);\n};\n\n");
	fprintf(f, "env {\n\thostname = \"%s\";\n\tdomain = \"kernel\";\n"
		"\tsysname = \"Linux\";\n", tsdl(&q, t->host));
	fprintf(f, "\tkernel_release = \"%s\";\n\tkernel_version = \"\";\n"
		"\ttracer_name = \"lttng-modules\";\n\ttracer_major = 2;\n\ttracer_minor = 13;\n"
		"\ttracer_patchlevel = 0;\n\ttrace_buffering_scheme = \"global\";\n"
		"\ttrace_name = \"ktrace\";\n\ttrace_creation_datetime = \"\";\n"
		"\tproduct_uuid = \"\";\n\tktrace_layout = \"lttng\";\n",
		tsdl(&q, t->have_trace ? t->machine.release : ""));
	fprintf(f, "\tktrace_machine = \"%s\";\n",
		tsdl(&q, t->have_trace ? t->machine.machine : ""));
	/* CLOCK_REALTIME - CLOCK_MONOTONIC (+ --offset): the clock's offset. */
	if (real)
		fprintf(f, "\tktrace_realtime_offset_ns = \"%lld\";\n};\n\n",
			(long long)kt_real_ns(t, 0));
	else
		fprintf(f, "\tktrace_realtime_offset_ns = \"none\";\n};\n\n");
	fprintf(f, "clock {\n\tname = \"monotonic\";\n\tuuid = \"");
	put_uuid(f, tr->uuid);
	fprintf(f, "\";\n\tdescription = \"Monotonic Clock\";\n\tfreq = 1000000000;\n"
		"\tprecision = 1;\n\toffset_s = %lld;\n\toffset = %lld;\n\tabsolute = %s;\n};\n\n"
		"typealias integer {\n\tsize = 27; align = 1; signed = false;\n"
		"\tmap = clock.monotonic.value;\n} := uint27_clock_monotonic_t;\n\n"
		"typealias integer {\n\tsize = 64; align = 8; signed = false;\n"
		"\tmap = clock.monotonic.value;\n} := uint64_clock_monotonic_t;\n\n",
		sec, ns, c->multi ? "true" : "false");
	fprintf(f, "struct packet_context {\n\tuint64_clock_monotonic_t timestamp_begin;\n"
		"\tuint64_clock_monotonic_t timestamp_end;\n\tuint64_t content_size;\n"
		"\tuint64_t packet_size;\n\tuint64_t packet_seq_num;\n"
		"\tunsigned long events_discarded;\n\tuint32_t cpu_id;\n} align(8);\n\n"
		"struct event_header_compact {\n"
		"\tenum : uint5_t { compact = 0 ... 30, extended = 31 } id;\n\tvariant <id> {\n"
		"\t\tstruct {\n\t\t\tuint27_clock_monotonic_t timestamp;\n\t\t} compact;\n"
		"\t\tstruct {\n\t\t\tuint32_t id;\n\t\t\tuint64_clock_monotonic_t timestamp;\n"
		"\t\t} extended;\n\t} v;\n} align(8);\n\n"
		"stream {\n\tid = 0;\n\tevent.header := struct event_header_compact;\n"
		"\tpacket.context := struct packet_context;\n};\n\n");
	for (i = 0; i < tr->nr_classes; i++) {
		const struct ctf_class *cl = &tr->classes[i];

		fprintf(f, "event {\n\tname = \"%s\";\n\tid = %u;\n\tstream_id = 0;\n",
			tsdl(&q, cl->name), tr->rank ? tr->rank[cl->id] : cl->id);
		if (cl->body[0])
			fprintf(f, "\tfields := struct {\n%s\t};\n", cl->body);
		fprintf(f, "};\n\n");
	}
	free(q.p);
	return q.overflow ? -1 : 0;
}

static int write_metadata(struct conv *c, struct ctf_trace *tr)
{
	const struct kt_trace *t = tr->t;
	int64_t off = kt_real_ns(t, 0), sec, ns;
	bool used[KTRACE_NR_CHANNELS] = { false };
	struct kt_buf q = { .grow = true };
	unsigned int i, ch;
	FILE *f;
	int ret;

	/*
	 * The clock's offset: CLOCK_REALTIME - CLOCK_MONOTONIC with several
	 * traces; with one, its --offset only (report's monotonic times).
	 */
	sec = (c->multi ? off : t->offset_ns) / 1000000000;
	ns = (c->multi ? off : t->offset_ns) % 1000000000;
	if (ns < 0) {
		sec--;
		ns += 1000000000;
	}
	if (c->multi && (off == INT64_MAX || off == INT64_MIN)) {
		fprintf(stderr,
			"ktrace %s: %s: its CLOCK_REALTIME reference is out of range for a merge\n",
			c->cmd, t->path);
		return -1;
	}
	f = open_file(c, tr, "metadata");
	if (!f)
		return -1;
	if (tr->lttng) {
		ret = lt_metadata(c, tr, f) || ferror(f) ? -1 : 0;
		if (fclose(f))
			ret = -1;
		return ret;
	}
	fprintf(f, "/* CTF 1.8 */\n\n"
		"/* Converted by ktrace convert from %s. */\n\n"
		"typealias integer { size = 8; align = 8; signed = false; } := uint8_t;\n"
		"typealias integer { size = 32; align = 8; signed = false; } := uint32_t;\n"
		"typealias integer { size = 32; align = 8; signed = true; } := int32_t;\n"
		"typealias integer { size = 64; align = 8; signed = false; } := uint64_t;\n\n"
		"trace {\n\tmajor = 1;\n\tminor = 8;\n\tuuid = \"", "a ktrace trace");
	put_uuid(f, tr->uuid);
	fprintf(f, "\";\n\tbyte_order = le;\n"
		"\tpacket.header := struct {\n\t\tuint32_t magic;\n\t\tuint8_t uuid[16];\n"
		"\t\tuint32_t stream_id;\n\t};\n};\n\n");
	kt_bufprintf(&q, "%s", "");
	put_tsdl(&q, t->host);
	fprintf(f, "env {\n\thostname = \"%s\";\n\tdomain = \"kernel\";\n"
		"\ttracer_name = \"ktrace\";\n\tktrace_clock = \"%s\";\n",
		q.p ? q.p : "", c->multi ? "realtime" : "monotonic");
	/* CLOCK_REALTIME - CLOCK_MONOTONIC (+ --offset), if the trace has it. */
	if (t->have_clock && t->clock.ref_real_ns)
		fprintf(f, "\tktrace_realtime_offset_ns = \"%lld\";\n};\n\n", (long long)off);
	else
		fprintf(f, "\tktrace_realtime_offset_ns = \"none\";\n};\n\n");
	if (c->multi)
		fprintf(f, "clock {\n\tname = \"realtime\";\n\tuuid = \"");
	else
		fprintf(f, "clock {\n\tname = \"monotonic\";\n\tuuid = \"");
	put_uuid(f, tr->uuid);
	fprintf(f, "\";\n\tdescription = \"%s\";\n\tfreq = 1000000000;\n"
		"\tprecision = 1;\n\toffset_s = %lld;\n\toffset = %lld;\n\tabsolute = %s;\n"
		"};\n\n",
		c->multi ? "CLOCK_MONOTONIC, offset to CLOCK_REALTIME" : "CLOCK_MONOTONIC",
		(long long)sec, (long long)ns, c->multi ? "true" : "false");
	fprintf(f, "typealias integer { size = 64; align = 8; signed = false; "
		"map = clock.%s.value; } := ktrace_clock_t;\n\n",
		c->multi ? "realtime" : "monotonic");
	for (i = 0; i < tr->nr_streams; i++)
		used[tr->streams[i].channel] = true;
	for (ch = 0; ch < KTRACE_NR_CHANNELS; ch++) {
		if (!used[ch])
			continue;
		fprintf(f, "stream {\n\tid = %u;\n\tpacket.context := struct {\n"
			"\t\tktrace_clock_t timestamp_begin;\n\t\tktrace_clock_t timestamp_end;\n"
			"\t\tuint64_t content_size;\n\t\tuint64_t packet_size;\n"
			"\t\tuint64_t events_discarded;\n\t\tuint32_t cpu_id;\n\t};\n"
			"\tevent.header := struct {\n\t\tuint32_t id;\n"
			"\t\tktrace_clock_t timestamp;\n\t};\n"
			"\tevent.context := struct {\n\t\tstring { encoding = UTF8; } _procname;\n"
			"\t\tint32_t _tid;\n\t};\n};\n\n", ch);
	}
	for (i = 0; i < tr->nr_classes; i++) {
		const struct ctf_class *cl = &tr->classes[i];

		q.len = 0;
		kt_bufprintf(&q, "%s", "");
		put_tsdl(&q, cl->name);
		fprintf(f, "event {\n\tname = \"%s\";\n\tid = %u;\n\tstream_id = %u;\n",
			q.p ? q.p : "", cl->id, cl->channel);
		if (cl->body[0])
			fprintf(f, "\tfields := struct {\n%s\t};\n", cl->body);
		fprintf(f, "};\n\n");
	}
	free(q.p);
	ret = ferror(f) || q.overflow ? -1 : 0;
	if (fclose(f))
		ret = -1;
	return ret;
}

static int finish_streams(struct ctf_trace *tr)
{
	unsigned int i;
	int ret = 0;

	for (i = 0; i < tr->nr_streams; i++) {
		struct ctf_stream *st = &tr->streams[i];

		if (!st->f)
			continue;
		if (end_packet(tr, st))
			ret = -1;
		if (fclose(st->f))
			ret = -1;
		st->f = NULL;
	}
	return ret;
}

static void free_trace(struct ctf_trace *tr)
{
	unsigned int i;

	finish_streams(tr);
	for (i = 0; i < tr->nr_classes; i++) {
		free(tr->classes[i].name);
		free(tr->classes[i].body);
	}
	for (i = 0; i < KTRACE_NR_CHANNELS; i++)
		free(tr->idx[i]);
	free(tr->classes);
	free(tr->slots);
	free(tr->streams);
	free(tr->rank);
	lt_forget_irqs(tr);
}

/*
 * The first pass of the LTTng layout (count_event()), then rank_ids().
 * The second reads the traces again as if for the first time: the
 * decoder's warnings, said by the first, are not said twice; the names
 * the first learned are forgotten, to be learned again in time order.
 * Return: 0, or -1.
 */
static int count_classes(struct kt_set *s, struct conv *c)
{
	unsigned int i, *warnings = calloc(s->nr, sizeof(*warnings));
	int ret = 0;

	if (!warnings)
		return -1;
	c->counting = true;
	if (kt_set_merge(s, convert_one, c))
		ret = -1;
	c->counting = false;
	for (i = 0; i < s->nr; i++) {
		warnings[i] = s->traces[i].warnings;
		s->traces[i].warnings = UINT_MAX / 2;
		kt_forget_names(&s->traces[i]);
		lt_forget_irqs(&c->tr[i]);
		if (!ret && rank_ids(&c->tr[i]))
			ret = -1;
	}
	c->warnings = warnings;
	return ret;
}

int kt_ctf_write(struct kt_set *s, const char *cmd, bool lttng, kt_ctf_open_fn open, void *arg)
{
	struct conv c = {
		.cmd = cmd, .nr = s->nr, .multi = s->nr > 1, .open = open, .arg = arg,
		.lttng = lttng,
		.text.grow = true, .body.grow = true, .word.grow = true,
	};
	unsigned int i;
	uint64_t h;
	int ret = 0;

	c.tr = calloc(s->nr, sizeof(*c.tr));
	if (!c.tr) {
		fprintf(stderr, "ktrace %s: out of memory\n", cmd);
		return -1;
	}
	for (i = 0; i < s->nr; i++) {
		struct ctf_trace *tr = &c.tr[i];
		struct kt_trace *t = &s->traces[i];

		tr->t = t;
		tr->lttng = lttng;
		if (c.multi) {
			char *p;

			snprintf(tr->sub, sizeof(tr->sub), "%.64s-%u", t->host, i + 1);
			/* One directory, whatever the host's name (a file's) has. */
			for (p = tr->sub; *p; p++)
				if (*p == '/')
					*p = '_';
			strcat(tr->sub, "/");
		}
		/* A uuid of the trace's identity: the same file, the same uuid. */
		h = fnv(0xcbf29ce484222325ULL, t->host, strlen(t->host));
		if (t->have_clock)
			h = fnv(h, &t->clock, sizeof(t->clock));
		h = fnv(h, &i, sizeof(i));
		put_le(tr->uuid, h, 8);
		put_le(tr->uuid + 8, fnv(h, t->path, strlen(t->path)), 8);
		tr->uuid[6] = (tr->uuid[6] & 0x0f) | 0x40;
		tr->uuid[8] = (tr->uuid[8] & 0x3f) | 0x80;
	}
	/*
	 * LTTng: a first pass counts the events of each class, so that the
	 * most frequent take the compact header.
	 */
	if (lttng && count_classes(s, &c))
		ret = -1;
	if (!ret && kt_set_merge(s, convert_one, &c))
		ret = -1;
	for (i = 0; c.warnings && i < s->nr; i++)
		s->traces[i].warnings = c.warnings[i];
	free(c.warnings);
	for (i = 0; i < s->nr; i++) {
		if (finish_streams(&c.tr[i]) && !ret) {
			fprintf(stderr, "ktrace %s: %s: cannot write its streams\n", cmd,
				c.tr[i].t->path);
			ret = -1;
		}
		if (!ret && write_metadata(&c, &c.tr[i])) {
			fprintf(stderr, "ktrace %s: %s: cannot write its metadata\n", cmd,
				c.tr[i].t->path);
			ret = -1;
		}
		free_trace(&c.tr[i]);
	}
	free(c.tr);
	free(c.items);
	free(c.text.p);
	free(c.body.p);
	free(c.word.p);
	return ret;
}

/* Files of the output directory, made as they are opened. */
struct out_dir {
	const char *dir, *cmd;
};

static FILE *open_in_dir(void *arg, const char *name)
{
	struct out_dir *o = arg;
	char path[4096];
	const char *slash;
	FILE *f;

	/* Its directories first: HOST-N/, kernel/. */
	for (slash = strchr(name, '/'); slash; slash = strchr(slash + 1, '/')) {
		snprintf(path, sizeof(path), "%s/%.*s", o->dir, (int)(slash - name), name);
		if (mkdir(path, 0755) && errno != EEXIST) {
			fprintf(stderr, "ktrace %s: %s: %s\n", o->cmd, path, strerror(errno));
			return NULL;
		}
	}
	snprintf(path, sizeof(path), "%s/%s", o->dir, name);
	f = fopen(path, "w");
	if (!f)
		fprintf(stderr, "ktrace %s: %s: %s\n", o->cmd, path, strerror(errno));
	return f;
}

/* DIR: made if missing; refused unless an empty directory. */
static int out_dir_ready(const char *cmd, const char *dir)
{
	char path[4096];
	struct dirent *d;
	DIR *dp;
	FILE *f;

	if (mkdir(dir, 0755) && errno != EEXIST) {
		fprintf(stderr, "ktrace %s: --ctf %s: %s\n", cmd, dir, strerror(errno));
		return -1;
	}
	dp = opendir(dir);
	if (!dp) {
		fprintf(stderr, "ktrace %s: --ctf %s: %s\n", cmd, dir, strerror(errno));
		return -1;
	}
	while ((d = readdir(dp))) {
		if (strcmp(d->d_name, ".") && strcmp(d->d_name, "..")) {
			closedir(dp);
			fprintf(stderr,
				"ktrace %s: --ctf %s: not empty: want a new or empty directory\n",
				cmd, dir);
			return -1;
		}
	}
	closedir(dp);
	/* Writable: a file made and removed, before any is written. */
	snprintf(path, sizeof(path), "%s/metadata", dir);
	f = fopen(path, "w");
	if (!f) {
		fprintf(stderr, "ktrace %s: --ctf %s: %s\n", cmd, dir, strerror(errno));
		return -1;
	}
	fclose(f);
	unlink(path);
	return 0;
}

static const char convert_help[] =
	"usage: ktrace convert --ctf DIR [--layout lttng|ktrace] [--offset FILE=NS] [FILE...]\n"
	"       ktrace convert --ftrace [-o OUT] [FILE]\n\n"
	"Convert trace files (default ktrace.dat) to CTF 1.8, for Trace Compass,\n"
	"lttng-analyses and babeltrace2: DIR (new or empty) holds the trace of one\n"
	"file, or one trace per file, DIR/HOST-N/, for several.  Or convert one\n"
	"trace file to the text of ftrace's tracefs \"trace\" file, for Perfetto\n"
	"and scripts.\n\n"
	"      --ctf DIR        the output directory\n"
	"      --layout L       lttng (default): LTTng's kernel layout, its event and\n"
	"                       field names; ktrace: report's events and fields\n"
	"      --offset FILE=NS add NS nanoseconds to FILE's times (several files)\n"
	"      --ftrace         ftrace's text, to standard output or OUT\n"
	"  -o, --output OUT     with --ftrace: the file to write (made or replaced)\n"
	"  -h, --help           this help\n";

/*
 * ftrace's text of @t in @path: a temporary file beside it, renamed over
 * it once whole, so that a failed conversion leaves what was there.
 */
static int convert_ftrace_to(struct kt_trace *t, const char *path)
{
	struct stat in, out;
	char *tmp = NULL;
	FILE *f = NULL;
	int fd, ret;

	if (!stat(t->path, &in) && !stat(path, &out) && in.st_dev == out.st_dev &&
	    in.st_ino == out.st_ino) {
		fprintf(stderr, "ktrace convert: -o %s: the text would replace the trace\n", path);
		return EXIT_USAGE;
	}
	if (asprintf(&tmp, "%s.XXXXXX", path) < 0) {
		fprintf(stderr, "ktrace convert: out of memory\n");
		return 1;
	}
	/* mkstemp()'s 0600, as slice's: the text holds what the trace holds. */
	fd = mkstemp(tmp);
	f = fd < 0 ? NULL : fdopen(fd, "w");
	if (!f) {
		fprintf(stderr, "ktrace convert: -o %s: %s\n", path, strerror(errno));
		if (fd >= 0) {
			close(fd);
			unlink(tmp);
		}
		free(tmp);
		return 1;
	}
	ret = kt_ftrace_write(t, "convert", f) ? 1 : 0;
	if (fclose(f) && !ret) {
		fprintf(stderr, "ktrace convert: -o %s: %s\n", path, strerror(errno));
		ret = 1;
	}
	if (!ret && rename(tmp, path)) {
		fprintf(stderr, "ktrace convert: -o %s: %s\n", path, strerror(errno));
		ret = 1;
	}
	if (ret)
		unlink(tmp);
	free(tmp);
	return ret;
}

/* ktrace convert --ftrace [-o OUT] [FILE]: one trace, ftrace's text. */
static int convert_ftrace(struct kt_set *set, int argc, char **argv, const char *path)
{
	int ret;

	if (argc > 1) {
		fprintf(stderr, "ktrace convert: --ftrace converts one trace file, not %d\n",
			argc);
		return EXIT_USAGE;
	}
	ret = kt_set_open(set, "convert", argc, argv);
	if (ret)
		return ret;
	if (path)
		return convert_ftrace_to(&set->traces[0], path);
	return kt_ftrace_write(&set->traces[0], "convert", stdout) ? 1 : 0;
}

int cmd_convert(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "ctf", required_argument, NULL, 'c' },
		{ "offset", required_argument, NULL, 'O' },
		{ "layout", required_argument, NULL, 'l' },
		{ "ftrace", no_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct kt_set set = { 0 };
	struct out_dir o = { .cmd = "convert" };
	const char *output = NULL;
	bool ftrace = false, lttng = true, layout = false;
	int c, ret;

	while ((c = getopt_long(argc, argv, "ho:", opts, NULL)) != -1) {
		switch (c) {
		case 'c':
			o.dir = optarg;
			break;
		case 'f':
			ftrace = true;
			break;
		case 'l':
			if (strcmp(optarg, "lttng") && strcmp(optarg, "ktrace")) {
				fprintf(stderr, "ktrace convert: --layout %s: %s\n", optarg,
					"want lttng or ktrace");
				kt_set_close(&set);
				return 2;
			}
			lttng = !strcmp(optarg, "lttng");
			layout = true;
			break;
		case 'o':
			output = optarg;
			break;
		case 'O':
			ret = kt_set_offset(&set, "convert", optarg);
			if (ret) {
				kt_set_close(&set);
				return ret;
			}
			break;
		case 'h':
			fputs(convert_help, stdout);
			kt_set_close(&set);
			return 0;
		default:
			fputs(convert_help, stderr);
			kt_set_close(&set);
			return 2;
		}
	}
	if (ftrace && (o.dir || set.nr_offsets || layout || (output && !output[0]))) {
		fprintf(stderr,
			"ktrace convert: --ftrace takes -o OUT, not --ctf, --layout or --offset\n");
		kt_set_close(&set);
		return 2;
	}
	if (ftrace) {
		ret = convert_ftrace(&set, argc - optind, argv + optind, output);
		kt_set_close(&set);
		return ret;
	}
	if (output) {
		fprintf(stderr,
			"ktrace convert: -o is for --ftrace (--ctf DIR names the output)\n");
		kt_set_close(&set);
		return 2;
	}
	if (!o.dir || !o.dir[0]) {
		fprintf(stderr, "ktrace convert: --ctf DIR is required (or --ftrace)\n");
		kt_set_close(&set);
		return 2;
	}
	ret = kt_set_open(&set, "convert", argc - optind, argv + optind);
	if (!ret && out_dir_ready("convert", o.dir))
		ret = 1;
	if (!ret && kt_ctf_write(&set, "convert", lttng, open_in_dir, &o))
		ret = 1;
	kt_set_close(&set);
	return ret;
}
