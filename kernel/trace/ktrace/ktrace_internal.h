/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ktrace private interface, shared by the core (kernel/trace/ktrace/), the
 * debugfs control layer (fs/debugfs-ktrace/) and the KUnit tests.  Nothing
 * outside ktrace includes it.
 *
 * The declarations come in the order of the layers, each only using those
 * above it here, the clock (clock.h) first.
 */
#ifndef _KTRACE_INTERNAL_H
#define _KTRACE_INTERNAL_H

#include <linux/mutex.h>
#include <linux/types.h>
#include <asm/local.h>

#include "clock.h"

/* Tracing modes: what a full buffer does, per channel. */
enum ktrace_trace_mode {
	KTRACE_TRACE_DROP,	/* every channel drops */
	KTRACE_TRACE_OVERWRITE,	/* every channel overwrites */
	KTRACE_TRACE_HYBRID,	/* high-rate overwrites, the others drop */
	KTRACE_NR_TRACE_MODES,
};

/* channel.c: the lock of the tracing state, and the writers' gate. */
extern struct mutex ktrace_mutex;
extern bool ktrace_tracing;

/* channel.c: the channels, their stream files, their write path. */
struct ktrace_buf_stats;
struct rchan_buf;
int ktrace_channels_init(void);
int ktrace_channels_alloc(size_t high_size);
void ktrace_channels_set_mode(enum ktrace_trace_mode mode);
void ktrace_channels_free(void);
void ktrace_channels_reap(void);
/* KUnit only: see ktrace_channel_close(). */
typedef void (*ktrace_channel_hook_fn)(void);
#if IS_ENABLED(CONFIG_KUNIT)
extern ktrace_channel_hook_fn ktrace_channel_close_hook;
#endif
void ktrace_channels_flush(void);
bool ktrace_channels_drained(void);
int ktrace_write_meta(u8 type, const void *rec, u16 len);
bool ktrace_channel_stats(unsigned int ch, unsigned int cpu,
			  struct ktrace_buf_stats *st);
const char *ktrace_channel_name(unsigned int ch);
int ktrace_channel_take_subbuf(unsigned int ch, unsigned int cpu, void *dst,
			       size_t max);
int ktrace_channel_peek_subbuf(unsigned int ch, unsigned int cpu,
			       unsigned long back, void *dst, size_t max);
void ktrace_channels_flush_live(void);
struct ktrace_stream;
struct ktrace_stream *ktrace_stream_open(struct rchan_buf *rbuf);
void ktrace_stream_release(struct ktrace_stream *s);
struct rchan_buf *ktrace_stream_rbuf(struct ktrace_stream *s);
ssize_t ktrace_stream_read(struct ktrace_stream *s, char __user *ubuf,
			   size_t cnt);
bool ktrace_stream_ready(struct ktrace_stream *s);
void ktrace_channels_clock_changed(void);
struct ktrace_meta_channel;
void ktrace_channel_info(unsigned int ch, struct ktrace_meta_channel *mch);
int ktrace_write_compact(unsigned int ch, unsigned int id, u32 payload);
int ktrace_write_expanded(unsigned int ch, u8 major, u8 minor,
			  const void *data, u16 len);
int ktrace_write_expanded2(unsigned int ch, u8 major, u8 minor,
			   const void *head, u16 hlen, const void *data, u16 len);

struct dentry;
struct ktrace_event;

/**
 * struct ktrace_fs_ops - the files the control layer makes for the core
 * @channel_dir: the directory for a channel's relay files, or %NULL
 * @create_buf_file: relay's create_buf_file callback
 * @remove_buf_file: relay's remove_buf_file callback
 * @event_added: create the files of an event; called with ktrace_mutex
 *	held, for every registered event and then at each registration
 *
 * The control layer (fs/debugfs-ktrace/) registers them at its init, so
 * that the core neither links against it nor needs it: without it the
 * channels are buffers without files.
 */
struct ktrace_fs_ops {
	struct dentry *(*channel_dir)(unsigned int ch);
	struct dentry *(*create_buf_file)(const char *filename,
					  struct dentry *parent, umode_t mode,
					  struct rchan_buf *buf, int *is_global);
	int (*remove_buf_file)(struct dentry *dentry);
	void (*event_added)(struct ktrace_event *ev);
};

/*
 * channel.c: set once at boot, under ktrace_mutex, before any channel
 * exists, by event.c's ktrace_fs_register().
 */
extern const struct ktrace_fs_ops *ktrace_fs;
void ktrace_fs_register(const struct ktrace_fs_ops *ops);

/* Expanded events of ktrace itself. */
#define KTRACE_MAJOR_KTRACE	1
#define KTRACE_MINOR_MARK	0
#define KTRACE_MARK_MAX		4096

/* event.c: the metadata of the last start, for the stats file. */
void ktrace_metadata_stats(unsigned int *records, unsigned int *failed,
			   unsigned long *incomplete);

/*
 * comm.c: the saved comms, pid to name, for the pids whose fork, exec or
 * comm events the medium-rate channel dropped.  At most this many slots.
 */
#define KTRACE_COMMS_MAX	32768
struct task_struct;
void ktrace_comm_save(pid_t pid, const char *comm);
void ktrace_comm_save_task(const struct task_struct *p);
bool ktrace_comm_lookup(pid_t pid, char *comm);
bool ktrace_comm_get(unsigned int slot, pid_t *pid, char *comm);
unsigned int ktrace_comms_slots(void);
unsigned long ktrace_comms_missed(void);
void ktrace_comms_reset(void);

/* What enable reads and the stats file's state line tells. */
enum ktrace_state {
	KTRACE_STATE_STOPPED,	/* enable reads 0 */
	KTRACE_STATE_TRACING,	/* enable reads 1 */
	KTRACE_STATE_FROZEN,	/* enable reads 0: a trigger froze it, its stop is pending */
	KTRACE_NR_STATES,
};

/* core.c: the state, changed under ktrace_mutex. */
bool ktrace_is_enabled(void);
int ktrace_set_enabled(bool on);
int ktrace_set_mode(enum ktrace_trace_mode mode);
enum ktrace_trace_mode ktrace_get_mode(void);
const char *ktrace_mode_name(enum ktrace_trace_mode mode);
int ktrace_mode_of(const char *name);
int ktrace_set_buffer_size_kb(unsigned long kb);
unsigned long ktrace_get_buffer_size_kb(void);
int ktrace_set_clock(const char *name);
int ktrace_clock_show(char *buf, size_t size);
void ktrace_clock_pin(bool pin);
int ktrace_mark_write(const char *text, size_t len);
struct notifier_block;
int ktrace_register_start_notifier(struct notifier_block *nb);
int ktrace_register_starting_notifier(struct notifier_block *nb);
unsigned long ktrace_generation_read(void);
bool ktrace_start_current(unsigned long gen);
bool ktrace_is_running(void);
enum ktrace_state ktrace_get_state(void);
const char *ktrace_state_name(enum ktrace_state state);
void ktrace_freeze(void);
void ktrace_shutdown(const char *reason);
bool ktrace_stop_frozen(unsigned long gen);
bool ktrace_unsaved(void);

/* buffer_size_kb: per-CPU KiB of the high-rate channel, a power of two. */
#define KTRACE_BUFFER_KB_MIN	16
#define KTRACE_BUFFER_KB_MAX	(1024 * 1024)
#define KTRACE_BUFFER_KB_DEFAULT 1024

/* persist.c: the crash table, the persistent recorder, the previous boot. */
struct ktrace_buf;
bool ktrace_persist_enabled(void);
int ktrace_persist_layout(const size_t *size, const size_t *sb_size);
void ktrace_persist_carve(unsigned int ch, unsigned int cpu, size_t size,
			  size_t nr, void **start, local_t **commit,
			  local_t **sb_events);
void ktrace_crash_add(struct ktrace_buf *buf, struct rchan_buf *rbuf);
void ktrace_crash_remove(struct ktrace_buf *buf);
void ktrace_crash_freeze(const char *reason);
void ktrace_crash_stop(void);
void ktrace_crash_thaw(void);
struct seq_file;
void ktrace_persist_show(struct seq_file *m);
int ktrace_persist_poke(u64 off, const void *bytes, size_t len);
const char *ktrace_last_boot_info(size_t *len);
int ktrace_last_boot_stream(unsigned int ch, unsigned int cpu, const void **data,
			    size_t *len);
void ktrace_last_boot_release(void);

/* ascii.c: the text pipe. */
struct ktrace_ascii;
struct ktrace_ascii *ktrace_ascii_open(void);
ssize_t ktrace_ascii_read(struct ktrace_ascii *a, char __user *ubuf,
			  size_t cnt, bool nonblock);
void ktrace_ascii_release(struct ktrace_ascii *a);
void ktrace_ascii_dump(struct ktrace_ascii *a, unsigned int last);
struct seq_buf;
void ktrace_ascii_string(struct seq_buf *s, const char *str, size_t len);

/**
 * struct ktrace_ascii_running - the task running on a CPU, for the ascii pipe
 * @pid: its pid
 * @clock: the time of the event or subbuffer header that said so
 */
struct ktrace_ascii_running {
	int pid;
	u64 clock;
};

#if IS_ENABLED(CONFIG_KUNIT)
struct ktrace_record;
int ktrace_ascii_running(struct ktrace_ascii_running *run,
			 const struct ktrace_ascii_running *start,
			 const struct ktrace_event *ev,
			 const struct ktrace_record *rec, int *prev);
void ktrace_ascii_fields(struct ktrace_ascii *a, const struct ktrace_event *ev,
			 const struct ktrace_record *rec, bool compact);
void ktrace_ascii_take_line(struct ktrace_ascii *a, char *buf, size_t size);
#endif

/* syscall_names.c: the x86-64 system call names (none elsewhere). */
const char *ktrace_syscall_name(u64 nr);
int ktrace_syscall_nr(const char *name);

/* probes/tracepoints.c, for bench.c */
void ktrace_probes_bench(void (*report)(const char *name, u64 ns));

/* probes/statedump.c: records the last statedump could not write. */
unsigned long ktrace_statedump_dropped(void);

/* trigger_fire.c: the limits of a trigger, and the trigger_pipe file. */
#define KTRACE_TRIGGER_SPEC_MAX		128
#define KTRACE_TRIGGER_REASON_MAX	128
struct wait_queue_head;
ssize_t ktrace_trigger_pipe_read(char __user *ubuf, size_t cnt, bool nonblock);
struct wait_queue_head *ktrace_trigger_pipe_waitq(void);
bool ktrace_trigger_pipe_ready(void);

/* trigger.c: the armed triggers. */
struct seq_file;
int ktrace_trigger_write(char *spec);
void ktrace_triggers_show(struct seq_file *m);
int ktrace_trigger_user(const char *text, size_t len);

#endif /* _KTRACE_INTERNAL_H */
