// SPDX-License-Identifier: GPL-2.0
/*
 * tools/ktrace: ktrace record, and the recorder it shares with ktrace
 * extract (extract.c): the control files of /sys/kernel/debug/ktrace (or
 * $KTRACE_DIR), the signals, and the trace file: the stream files read
 * into it, then the tasks, the comms, uname, the stats, the triggers and
 * the kernel symbols.
 *
 * record checks all its arguments (a bad one changes nothing), saves the
 * settings it is going to change, stops tracing, configures ktrace (mode,
 * size, events, then the triggers), discards what an earlier trace left
 * in the buffers, starts a new trace, writes the trace file and puts the
 * settings back (not the buffers' contents).  In drop mode it copies the
 * streams as they fill (a full buffer drops the new events, so the file
 * must keep up); in overwrite and hybrid modes it reads nothing while
 * tracing, so that the buffers keep the last of the history, and extracts
 * once at the end: the file is then no larger than the buffers.
 *
 * Both write FILE.XXXXXX (0600) next to FILE and rename it over FILE at
 * the end, so that a failure never leaves a partial FILE nor a clobbered
 * one; a device, fifo or pipe FILE is written to instead, last.  Stream
 * data read out of the kernel is never destroyed: after a failure or a
 * signal, the temporary file holding it is kept and named.
 */
#include <dirent.h>
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <getopt.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "record.h"

#define EXIT_NOCMD	127
#define CHUNK		1048576		/* bytes per read of a stream file */
#define FROZEN_POLL_MS	20

/* The last of SIGINT, SIGTERM, SIGHUP, SIGQUIT caught, read by the loops. */
static int interrupted;
/* How many of them were caught: a second one hurries COMMAND's end. */
static int nr_signals;
/* Written to by the signal handlers, so that the loop's poll() wakes up. */
static int wake_pipe[2] = { -1, -1 };

static void on_signal(int sig)
{
	int saved = errno;
	ssize_t n;

	if (sig != SIGCHLD) {
		__atomic_store_n(&interrupted, sig, __ATOMIC_RELAXED);
		__atomic_add_fetch(&nr_signals, 1, __ATOMIC_RELAXED);
	}
	if (wake_pipe[1] >= 0) {
		n = write(wake_pipe[1], "", 1);	/* if full, the loop wakes up anyway */
		(void)n;
	}
	errno = saved;
}

int sig_caught(void)
{
	return __atomic_load_n(&interrupted, __ATOMIC_RELAXED);
}

static const int handled_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGCHLD };
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define NR_HANDLED	ARRAY_SIZE(handled_signals)
static struct sigaction old_actions[NR_HANDLED];
static bool handler_set[NR_HANDLED];

/*
 * Catch SIGINT, SIGTERM, SIGHUP, SIGQUIT (and with @chld SIGCHLD), except
 * a signal ignored on entry (nohup, a background job): it stays ignored.
 * SIGCHLD is caught even then: ignored, it would have the kernel reap
 * COMMAND itself, and waitpid() would never see it end.  COMMAND gets the
 * disposition back (uncatch_signals()), so it still starts with SIGCHLD
 * ignored as its caller asked.
 */
void catch_signals(bool chld)
{
	struct sigaction sa = { .sa_handler = on_signal };
	unsigned int i;

	sigemptyset(&sa.sa_mask);
	for (i = 0; i < NR_HANDLED; i++) {
		bool is_chld = handled_signals[i] == SIGCHLD;

		if (is_chld && !chld)
			continue;
		if (sigaction(handled_signals[i], NULL, &old_actions[i]) ||
		    (old_actions[i].sa_handler == SIG_IGN && !is_chld))
			continue;
		handler_set[i] = !sigaction(handled_signals[i], &sa, NULL);
	}
}

static struct sigaction old_sigpipe;
static bool sigpipe_set;

/*
 * Ignore SIGPIPE: a write to a closed pipe (stderr, a fifo output whose
 * reader went away) is an EPIPE error, not record's death between a change
 * of the settings and their restoration.
 */
void ignore_sigpipe(void)
{
	struct sigaction sa = { .sa_handler = SIG_IGN };

	sigemptyset(&sa.sa_mask);
	sigpipe_set = !sigaction(SIGPIPE, &sa, &old_sigpipe);
}

/* RLIMIT_NOFILE as record found it, before recorder_new() raised it. */
static struct rlimit old_nofile;
static bool nofile_raised;

/*
 * In COMMAND, before exec: put back what record changed for itself, so
 * that COMMAND runs as it would without record: the dispositions
 * catch_signals() and ignore_sigpipe() found, the RLIMIT_NOFILE
 * recorder_new() raised, and the signal mask @mask (the one record had;
 * the caller blocked the handled signals around fork()).
 */
static void child_restore(const sigset_t *mask)
{
	unsigned int i;

	if (sigpipe_set)
		sigaction(SIGPIPE, &old_sigpipe, NULL);
	for (i = 0; i < NR_HANDLED; i++)
		if (handler_set[i])
			sigaction(handled_signals[i], &old_actions[i], NULL);
	if (nofile_raised)
		setrlimit(RLIMIT_NOFILE, &old_nofile);
	sigprocmask(SIG_SETMASK, mask, NULL);
}

char *rec_slurp(const char *path, size_t max)
{
	char *buf = malloc(max + 1);
	size_t len = 0;
	ssize_t n;
	int fd;

	if (!buf)
		return NULL;
	fd = open(path, O_RDONLY);
	if (fd < 0) {
		free(buf);
		return NULL;
	}
	while (len < max && (n = read(fd, buf + len, max - len)) > 0)
		len += n;
	close(fd);
	buf[len] = '\0';
	return buf;
}

/*
 * The value of a control file: its first line, or for ``mode`` the mode
 * in brackets.  NULL if it cannot be read.
 */
static char *ctl_value(const char *dir, const char *file)
{
	char path[4096], *v, *b, *e;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	v = rec_slurp(path, 4096);
	if (!v)
		return NULL;
	v[strcspn(v, "\n")] = '\0';
	b = strcmp(file, "mode") ? NULL : strchr(v, '[');
	e = b ? strchr(b, ']') : NULL;
	if (e) {
		*e = '\0';
		memmove(v, b + 1, e - b);
	}
	return v;
}

/*
 * Write a string to a control file, as echo VAL > FILE does (O_TRUNC:
 * nothing to debugfs, a whole new value to a regular file of a test's
 * fake directory); 0, or -1 after saying why.
 */
int ctl_write(const struct recorder *r, const char *file, const char *val)
{
	char path[4096];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", r->dir, file);
	fd = open(path, O_WRONLY | O_TRUNC);
	if (fd < 0) {
		fprintf(stderr, "ktrace %s: %s: %s\n", r->cmd, path, strerror(errno));
		return -1;
	}
	n = write(fd, val, strlen(val));
	if (n != (ssize_t)strlen(val))
		fprintf(stderr, "ktrace %s: %s: writing '%s': %s\n", r->cmd, path, val,
			n < 0 ? strerror(errno) : "short write");
	close(fd);
	return n != (ssize_t)strlen(val) ? -1 : 0;
}

/*
 * The state of the trace: the first line of ``stats`` ("state stopped",
 * "state tracing" or "state frozen"), else ``enable``.
 */
enum kt_state trace_state(const char *dir)
{
	enum kt_state st = KT_UNKNOWN;
	char *v = ctl_value(dir, "stats");

	if (v && !strcmp(v, "state stopped"))
		st = KT_STOPPED;
	else if (v && !strcmp(v, "state tracing"))
		st = KT_TRACING;
	else if (v && !strcmp(v, "state frozen"))
		st = KT_FROZEN;
	free(v);
	if (st != KT_UNKNOWN)
		return st;
	v = ctl_value(dir, "enable");
	if (v && !strcmp(v, "1"))
		st = KT_TRACING;
	else if (v && !strcmp(v, "0"))
		st = KT_STOPPED;
	free(v);
	return st;
}

static void sleep_ms(unsigned int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static unsigned long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000ULL + ts.tv_nsec / 1000000;
}

/*
 * A trigger froze the trace: its stop work completes the last subbuffers.
 * Wait for it (reading ``stats`` only), at most FROZEN_WAIT_MS.
 * Returns the state then.
 */
enum kt_state wait_frozen(const char *dir)
{
	unsigned long long end = now_ms() + FROZEN_WAIT_MS;
	enum kt_state st;

	while ((st = trace_state(dir)) == KT_FROZEN && now_ms() < end && !sig_caught())
		sleep_ms(FROZEN_POLL_MS);
	return st;
}

/*
 * Has a signal ended extract?  Said once; the caller fails, and
 * out_discard() keeps what was read of the streams.
 */
bool cut(const struct recorder *r)
{
	if (!r->cut_by_signal || !sig_caught())
		return false;
	fprintf(stderr, "ktrace %s: %s: %s\n", r->cmd, strsignal(sig_caught()),
		r->stream_bytes ? "stopped" : "nothing saved");
	return true;
}

static int section(struct recorder *r, unsigned int type, unsigned int ch,
		   unsigned int cpu, const void *data, size_t len)
{
	errno = 0;
	if (kt_put_section(r->f, type, ch, cpu, data, len)) {
		/* A short fwrite() need not set errno. */
		fprintf(stderr, "ktrace %s: %s: %s\n", r->cmd, r->tmp,
			errno ? strerror(errno) : "write error");
		return -1;
	}
	r->bytes += len;
	return 0;
}

/*
 * Resolve the output, before anything is changed: a directory is refused;
 * a symlink stands for its target, the file replaced; a device, fifo or
 * pipe is written to (opened now, O_TRUNC), not replaced; "-" is standard
 * output.  0, or -1 after saying why.
 */
int out_resolve(struct recorder *r)
{
	struct stat st, so;
	char *real;

	/*
	 * "-", or a name of record's own standard output (/dev/stdout,
	 * /proc/self/fd/1, whatever it is: a pipe, a file, a socket): written
	 * to through it, not replaced.
	 */
	if (!strcmp(r->out, "-") ||
	    (!stat(r->out, &st) && !fstat(STDOUT_FILENO, &so) && st.st_dev == so.st_dev &&
	     st.st_ino == so.st_ino && !S_ISCHR(st.st_mode))) {
		if (!strcmp(r->out, "-"))
			r->out = "standard output";
		r->direct = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
		if (r->direct < 0) {
			fprintf(stderr, "ktrace %s: standard output: %s\n", r->cmd,
				strerror(errno));
			return -1;
		}
		r->to_stdout = !fstat(r->direct, &st) && !S_ISCHR(st.st_mode);
		return 0;
	}
	if (lstat(r->out, &st)) {
		if (errno == ENOENT)
			return 0;
		fprintf(stderr, "ktrace %s: %s: %s\n", r->cmd, r->out, strerror(errno));
		return -1;
	}
	/*
	 * A link to a file is resolved, to rename over its target.  A link
	 * to a pipe or socket (/dev/stdout, /proc/self/fd/N) has no path to
	 * resolve: what it leads to is opened and written to.
	 */
	if (S_ISLNK(st.st_mode)) {
		if (stat(r->out, &st)) {
			fprintf(stderr, "ktrace %s: %s: %s\n", r->cmd, r->out, strerror(errno));
			return -1;
		}
		real = S_ISREG(st.st_mode) ? realpath(r->out, NULL) : NULL;
		if (S_ISREG(st.st_mode) && !real) {
			fprintf(stderr, "ktrace %s: %s: cannot resolve the link: %s\n", r->cmd,
				r->out, strerror(errno));
			return -1;
		}
		if (real) {
			r->out_real = real;
			r->out = real;
		}
	}
	if (S_ISDIR(st.st_mode)) {
		fprintf(stderr, "ktrace %s: %s: is a directory\n", r->cmd, r->out);
		return -1;
	}
	if (S_ISREG(st.st_mode))
		return 0;
	r->direct = open(r->out, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (r->direct < 0) {
		fprintf(stderr, "ktrace %s: %s: %s\n", r->cmd, r->out, strerror(errno));
		return -1;
	}
	/*
	 * The trace on record's own output (a pipe, a file): COMMAND must not
	 * write there too.  A device such as a terminal is left to it.
	 */
	r->to_stdout = !fstat(r->direct, &st) && !fstat(STDOUT_FILENO, &so) &&
		       !S_ISCHR(st.st_mode) && st.st_dev == so.st_dev &&
		       st.st_ino == so.st_ino;
	return 0;
}

/*
 * Create the temporary file next to the output (for a device or fifo, in
 * $TMPDIR: the symbols are added to a file read again, then it is copied),
 * mode 0600, and write the file header.  0, or -1 after saying why.
 */
int out_create(struct recorder *r)
{
	const char *dir = getenv("TMPDIR");
	int fd;

	if (!dir || !*dir)
		dir = "/tmp";
	r->tmp = malloc(strlen(r->direct >= 0 ? dir : r->out) + 32);
	if (!r->tmp)
		return -1;
	if (r->direct >= 0)
		sprintf(r->tmp, "%s/ktrace-%s.XXXXXX", dir, r->cmd);
	else
		sprintf(r->tmp, "%s.XXXXXX", r->out);
	fd = mkostemp(r->tmp, O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "ktrace %s: %s: cannot create: %s\n", r->cmd,
			r->direct >= 0 ? r->tmp : r->out, strerror(errno));
		free(r->tmp);
		r->tmp = NULL;
		return -1;
	}
	/* A trace holds what root-only debugfs shows: comms, syscalls, maps. */
	if (fchmod(fd, 0600)) {
		fprintf(stderr, "ktrace %s: %s: %s\n", r->cmd, r->tmp, strerror(errno));
		close(fd);
		return -1;
	}
	r->f = fdopen(fd, "w");
	if (!r->f)
		close(fd);
	if (r->f && !kt_put_header(r->f))
		return 0;
	fprintf(stderr, "ktrace %s: %s: %s\n", r->cmd, r->tmp, errno ? strerror(errno) :
		"write error");
	return -1;
}

/*
 * The temporary file of a failed run.  It is removed if it holds nothing
 * the kernel does not still have.  But the stream files consume: what was
 * read of them is in this file only, and a failure or a signal after it
 * (a full disk, a fifo reader gone, Ctrl-C) must not destroy it.  That
 * file is kept, FILE left as it was, and its name printed.
 */
static void out_discard(struct recorder *r)
{
	if (r->f)
		fclose(r->f);
	r->f = NULL;
	if (r->tmp && r->complete)
		fprintf(stderr, "ktrace %s: the whole trace is kept in %s\n", r->cmd, r->tmp);
	/* An old boot's trace can be read again: nothing to keep. */
	else if (r->tmp && r->stream_bytes && !r->old_boot)
		fprintf(stderr,
			"ktrace %s: a partial trace is kept in %s: the %llu bytes of streams it holds were read out of the kernel\n",
			r->cmd, r->tmp, r->stream_bytes);
	else if (r->tmp)
		unlink(r->tmp);
	free(r->tmp);
	r->tmp = NULL;
}

/* The finished temporary file on disk before it replaces FILE; 0 or -1. */
static int out_sync(struct recorder *r)
{
	int fd = open(r->tmp, O_RDONLY | O_CLOEXEC);

	if (fd < 0 || fsync(fd)) {
		fprintf(stderr, "ktrace %s: %s: %s\n", r->cmd, r->tmp, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

/* Copy the finished temporary file to the device or fifo; 0 or -1. */
static int out_copy(struct recorder *r)
{
	int fd = open(r->tmp, O_RDONLY | O_CLOEXEC);
	ssize_t n, w, done;

	if (fd < 0)
		goto fail;
	while ((n = read(fd, r->chunk, CHUNK)) > 0) {
		for (done = 0; done < n; done += w) {
			/*
			 * A signal ends a copy a reader blocks (or slows): one
			 * caught since out_deliver() began, not the one that
			 * may have ended the recording.
			 */
			if (__atomic_load_n(&nr_signals, __ATOMIC_RELAXED) != r->signals_seen) {
				fprintf(stderr, "ktrace %s: %s: %s\n", r->cmd, r->out,
					strsignal(sig_caught()));
				close(fd);
				return -1;
			}
			w = write(r->direct, r->chunk + done, n - done);
			if (w <= 0) {
				if (w < 0 && errno == EINTR) {
					w = 0;
					continue;
				}
				fprintf(stderr, "ktrace %s: %s: %s\n", r->cmd, r->out,
					w ? strerror(errno) : "write error");
				close(fd);
				return -1;
			}
		}
	}
	if (n < 0)
		goto fail;
	close(fd);
	return 0;
fail:
	fprintf(stderr, "ktrace %s: %s: %s\n", r->cmd, r->tmp, strerror(errno));
	if (fd >= 0)
		close(fd);
	return -1;
}

int out_stream(struct recorder *r, unsigned int ch, unsigned int cpu, const void *data,
	       size_t len)
{
	if (section(r, KTF_STREAM, ch, cpu, data, len))
		return -1;
	r->stream_bytes += len;
	r->nr_streams += !r->had_data[ch][cpu];
	r->had_data[ch][cpu] = true;
	return 0;
}

/*
 * Copy what the stream files hold now, until read() returns 0; -1 on an
 * error.  The low channel first: its stream starts with the metadata, which
 * a file cut short needs to decode what it holds (trace.h).
 */
static int drain(struct recorder *r)
{
	unsigned int ch, cpu;

	for (ch = KTRACE_NR_CHANNELS; ch-- > 0;) {
		for (cpu = 0; cpu < r->nr_cpus; cpu++) {
			ssize_t n;

			if (r->fds[ch][cpu] < 0)
				continue;
			if (cut(r))
				return -1;
			while ((n = read(r->fds[ch][cpu], r->chunk, CHUNK)) > 0)
				if (out_stream(r, ch, cpu, r->chunk, n))
					return -1;
			if (n < 0 && errno != EAGAIN && errno != EINTR) {
				fprintf(stderr, "ktrace %s: %s/%s/cpu%u: %s\n", r->cmd, r->dir,
					kt_channel_name(ch), cpu, strerror(errno));
				return -1;
			}
		}
	}
	return 0;
}

/*
 * Read the open stream files to nowhere, until read() returns 0.  0, or
 * -1 after saying why.
 */
static int discard_streams(struct recorder *r)
{
	unsigned long long bytes = 0;
	unsigned int ch, cpu;
	ssize_t n;

	for (ch = 0; ch < KTRACE_NR_CHANNELS; ch++) {
		for (cpu = 0; cpu < r->nr_cpus; cpu++) {
			if (r->fds[ch][cpu] < 0)
				continue;
			while ((n = read(r->fds[ch][cpu], r->chunk, CHUNK)) > 0)
				bytes += n;
			if (n < 0 && errno != EAGAIN && errno != EINTR) {
				fprintf(stderr, "ktrace %s: %s/%s/cpu%u: %s\n", r->cmd, r->dir,
					kt_channel_name(ch), cpu, strerror(errno));
				return -1;
			}
		}
	}
	if (bytes)
		fprintf(stderr,
			"ktrace %s: discarded %llu bytes an earlier trace left unread (save a frozen trace with ktrace extract first)\n",
			r->cmd, bytes);
	return 0;
}

/*
 * Open the stream files not open yet: all of them at the start, and those
 * of CPUs brought online while recording (ktrace gives a CPU its buffers
 * when it comes online), as the loop calls it again once a second.
 * Returns the number of files open, or -1 after saying why a file exists
 * but could not be opened.
 */
int open_streams(struct recorder *r)
{
	unsigned int ch, cpu;
	char path[4096];
	struct dirent *d;
	int open_now = 0;
	DIR *dir;

	for (ch = 0; ch < KTRACE_NR_CHANNELS; ch++) {
		snprintf(path, sizeof(path), "%s/%s", r->dir, kt_channel_name(ch));
		dir = opendir(path);
		while (dir && (d = readdir(dir))) {
			char *end;

			if (strncmp(d->d_name, "cpu", 3) || d->d_name[3] < '0' ||
			    d->d_name[3] > '9')
				continue;
			cpu = strtoul(d->d_name + 3, &end, 10);
			if (*end || cpu >= KTF_MAX_CPUS || r->fds[ch][cpu] >= 0)
				continue;
			snprintf(path, sizeof(path), "%s/%s/%s", r->dir, kt_channel_name(ch),
				 d->d_name);
			r->fds[ch][cpu] = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
			/* ENOENT: its CPU went offline since readdir(). */
			if (r->fds[ch][cpu] < 0 && errno != ENOENT) {
				fprintf(stderr, "ktrace %s: %s: %s\n", r->cmd, path,
					strerror(errno));
				closedir(dir);
				return -1;
			}
			if (r->fds[ch][cpu] >= 0 && cpu + 1 > r->nr_cpus)
				r->nr_cpus = cpu + 1;
		}
		if (dir)
			closedir(dir);
		for (cpu = 0; cpu < r->nr_cpus; cpu++)
			open_now += r->fds[ch][cpu] >= 0;
	}
	return open_now;
}

static void close_streams(struct recorder *r)
{
	unsigned int ch, cpu;

	for (ch = 0; ch < KTRACE_NR_CHANNELS; ch++)
		for (cpu = 0; cpu < r->nr_cpus; cpu++)
			if (r->fds[ch][cpu] >= 0) {
				close(r->fds[ch][cpu]);
				r->fds[ch][cpu] = -1;
			}
}

/* "PID COMM" of every task in /proc. */
static int add_tasks(struct recorder *r)
{
	size_t len = 0, max = 1 << 16;
	char *buf = malloc(max), path[300];
	struct dirent *d;
	DIR *proc;
	int ret;

	proc = opendir("/proc");
	if (!buf || !proc) {
		free(buf);
		if (proc)
			closedir(proc);
		return 0;
	}
	while ((d = readdir(proc))) {
		char *comm;

		if (d->d_name[0] < '0' || d->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/comm", d->d_name);
		comm = rec_slurp(path, 64);
		if (!comm)
			continue;
		comm[strcspn(comm, "\n")] = '\0';
		if (len + 100 > max) {
			char *nb = realloc(buf, max * 2);

			if (!nb) {
				free(comm);
				break;
			}
			buf = nb;
			max *= 2;
		}
		len += snprintf(buf + len, max - len, "%s %.16s\n", d->d_name, comm);
		free(comm);
	}
	closedir(proc);
	ret = section(r, KTF_TASKS, 0, 0, buf, len);
	free(buf);
	return ret;
}

static int add_text(struct recorder *r, unsigned int type, const char *file)
{
	char path[4096], *text;
	int ret;

	snprintf(path, sizeof(path), "%s/%s", r->dir, file);
	text = rec_slurp(path, 1 << 20);
	if (!text)
		return 0;
	ret = section(r, type, 0, 0, text, strlen(text));
	free(text);
	return ret;
}

/* The line after @line in a text, or NULL. */
static const char *next_line(const char *line)
{
	line = strchr(line, '\n');
	return line && line[1] ? line + 1 : NULL;
}

/* The sums of " KEY=N" over the lines of a stats text. */
static unsigned long long stats_sum(const char *stats, const char *key)
{
	unsigned long long sum = 0, v;
	size_t len = strlen(key);
	const char *p;

	for (p = stats; p && (p = strstr(p, key)); p += len)
		if (p > stats && p[-1] == ' ' && p[len] == '=' &&
		    sscanf(p + len + 1, "%llu", &v) == 1)
			sum += v;
	return sum;
}

/*
 * The events enabled now: "GROUP:NAME" lines of every events/GROUP/NAME
 * whose enable file reads 1 (the events section, trace.h); NULL if the
 * events directory cannot be read or memory is short.
 */
static char *enabled_events(const char *dir)
{
	char path[4096], file[KTRACE_NAME_LEN * 2 + 32], *text = NULL, *v;
	size_t len = 0, max = 0;
	struct dirent *g, *e;
	DIR *groups, *events;

	snprintf(path, sizeof(path), "%s/events", dir);
	groups = opendir(path);
	if (!groups)
		return NULL;
	text = calloc(1, 1);
	while (text && (g = readdir(groups))) {
		if (g->d_name[0] == '.' || strlen(g->d_name) > KTRACE_NAME_LEN)
			continue;
		snprintf(path, sizeof(path), "%s/events/%s", dir, g->d_name);
		events = opendir(path);
		while (text && events && (e = readdir(events))) {
			if (e->d_name[0] == '.' || strlen(e->d_name) > KTRACE_NAME_LEN)
				continue;
			snprintf(file, sizeof(file), "events/%s/%s/enable", g->d_name, e->d_name);
			v = ctl_value(dir, file);
			if (v && !strcmp(v, "1")) {
				if (len + 2 * KTRACE_NAME_LEN + 3 > max) {
					char *nt = realloc(text, max = 2 * max + 4096);

					if (!nt)
						free(text);
					text = nt;
				}
				if (text)
					len += sprintf(text + len, "%s:%s\n", g->d_name, e->d_name);
			}
			free(v);
		}
		if (events)
			closedir(events);
	}
	closedir(groups);
	return text;
}

/**
 * out_begin() - the sections a trace file has before its streams
 * @r: the recorder, its file created
 *
 * What decoding a file cut short needs, first (trace.h): uname, the events
 * enabled now, the tasks alive; for extract also the comms and the
 * triggers, which cannot change while a stopped trace is read (record
 * writes them at the end, with the tasks again).
 *
 * Return: 0, or -1 after saying why.
 */
int out_begin(struct recorder *r)
{
	struct utsname u;
	char text[1024], *ev;
	int ret = 0;

	/* A kernel that is gone: its uname, none of the running kernel's state. */
	if (r->old_boot)
		return r->old_uname ? section(r, KTF_UNAME, 0, 0, r->old_uname,
					      strlen(r->old_uname)) : 0;
	if (!uname(&u)) {
		snprintf(text, sizeof(text), "%s %s %s %s %s\n", u.sysname, u.nodename,
			 u.release, u.version, u.machine);
		if (section(r, KTF_UNAME, 0, 0, text, strlen(text)))
			return -1;
	}
	ev = enabled_events(r->dir);
	if (ev)
		ret = section(r, KTF_EVENTS, 0, 0, ev, strlen(ev));
	free(ev);
	if (ret || add_tasks(r))
		return -1;
	if (r->extract &&
	    (add_text(r, KTF_COMMS, "comms") || add_text(r, KTF_TRIGGERS, "triggers")))
		return -1;
	return 0;
}

/*
 * The last line of record and extract: the bytes; the events of the
 * stats file (those that reached the buffers), saved (read) and lost;
 * the size compressed.
 */
static void out_said(struct recorder *r)
{
	unsigned long long events, dropped, over;
	char path[4096], *stats;

	if (r->old_boot) {
		/* info's sums: subbuffers kept, events kept, events lost. */
		crash_info_totals(r->old_stats, &events, &dropped, &over);
		fprintf(stderr,
			"ktrace %s: %llu bytes of trace in %s (%u streams): %llu subbuffers kept, %llu events, %llu lost",
			r->cmd, r->stream_bytes, r->out, r->nr_streams, events, dropped, over);
	} else {
		snprintf(path, sizeof(path), "%s/stats", r->dir);
		stats = rec_slurp(path, 1 << 20);
		events = stats_sum(stats, "events");
		dropped = stats_sum(stats, "dropped");
		over = stats_sum(stats, "overwritten");
		free(stats);
		fprintf(stderr,
			"ktrace %s: %llu bytes of trace in %s (%u streams): %llu events, %llu saved, %llu lost (%llu dropped, %llu overwritten)",
			r->cmd, r->stream_bytes, r->out, r->nr_streams, events,
			events >= dropped + over ? events - dropped - over : 0, dropped + over,
			dropped, over);
	}
	if (r->compress)
		fprintf(stderr, "; zstd -%d: %lld bytes", r->compress, r->compressed);
	fputc('\n', stderr);
}

/*
 * What must not change while extract reads: the state line of ``stats``
 * and, for each line "cpuN CHANNEL events=E ...", its first three words.
 * NULL if unreadable.
 */
char *stats_counters(const char *dir)
{
	char path[4096], *stats, *out, *o;
	const char *line, *e;

	snprintf(path, sizeof(path), "%s/stats", dir);
	stats = rec_slurp(path, 1 << 20);
	out = stats ? malloc(strlen(stats) + 1) : NULL;
	if (!out) {
		free(stats);
		return NULL;
	}
	o = out;
	for (line = *stats ? stats : NULL; line; line = next_line(line)) {
		if (!strncmp(line, "state ", 6)) {
			memcpy(o, line, strcspn(line, "\n"));
			o += strcspn(line, "\n");
			*o++ = '\n';
		}
		if (strncmp(line, "cpu", 3))
			continue;
		e = strstr(line, " events=");
		if (!e || e > line + strcspn(line, "\n"))
			continue;
		e += strcspn(e + 1, "\n ") + 1;
		memcpy(o, line, e - line);
		o += e - line;
		*o++ = '\n';
	}
	*o = '\0';
	free(stats);
	return out;
}

/*
 * extract: did the trace restart while it was read (stopped no more, or
 * other counters)?  Says so.
 */
static bool changed_while_read(struct recorder *r)
{
	char *now;
	bool same;

	if (!r->extract || r->old_boot)
		return false;
	now = stats_counters(r->dir);
	same = now && r->stats_before && !strcmp(now, r->stats_before);
	free(now);
	if (!same)
		fprintf(stderr, "ktrace %s: the trace restarted while it was read: not saved\n",
			r->cmd);
	return !same;
}

int rec_compress_opt(struct recorder *r, const char *arg)
{
	return kt_parse_level(r->cmd, arg, &r->compress);
}

/*
 * The end of a trace file: the streams left (all of them when nothing was
 * read while tracing), the tasks, stats, comms, triggers and uname; then
 * the symbols, and the rename over the output.  0, or -1 after saying why,
 * the temporary file removed.
 */
int out_finish(struct recorder *r, bool hide)
{
	if (r->dir && (open_streams(r) < 0 || drain(r)))
		goto fail;
	if (r->extract && !r->stream_bytes) {
		if (r->old_boot)
			fprintf(stderr,
				"ktrace %s: no subbuffer of the old kernel's trace was kept: nothing saved\n",
				r->cmd);
		else
			fprintf(stderr,
				"ktrace %s: the buffers are empty: already read? (the stream files are consuming)\n",
				r->cmd);
		goto fail;
	}
	/* record: the names and triggers of the end (extract wrote them first). */
	if ((!r->extract && (add_tasks(r) || add_text(r, KTF_COMMS, "comms") ||
			     add_text(r, KTF_TRIGGERS, "triggers"))) ||
	    (r->old_boot && r->old_stats &&
	     section(r, KTF_STATS, 0, 0, r->old_stats, strlen(r->old_stats))) ||
	    (!r->old_boot && add_text(r, KTF_STATS, "stats")) || cut(r) ||
	    changed_while_read(r))
		goto fail;
	/* The end (trace.h); the symbols are added before it. */
	if (section(r, KTF_END, 0, 0, NULL, 0))
		goto fail;
	if (fclose(r->f)) {
		r->f = NULL;
		fprintf(stderr, "ktrace %s: %s: %s\n", r->cmd, r->tmp, strerror(errno));
		goto fail;
	}
	r->f = NULL;
	if (cut(r) || kt_symbols_save(r->tmp, hide) || cut(r))
		goto fail;
	if (r->compress) {
		r->compressed = kt_compress_file(r->cmd, r->tmp, r->compress);
		if (r->compressed < 0 || cut(r))
			goto fail;
	}
	if (out_sync(r))
		goto fail;
	r->complete = true;
	/* A device or fifo: out_deliver() copies it, once the settings are back. */
	if (r->direct >= 0)
		return 0;
	if (rename(r->tmp, r->out)) {
		fprintf(stderr, "ktrace %s: renaming %s to %s: %s\n", r->cmd, r->tmp, r->out,
			strerror(errno));
		goto fail;
	}
	free(r->tmp);
	r->tmp = NULL;
	out_said(r);
	return 0;
fail:
	out_discard(r);
	return -1;
}

/*
 * A device or fifo output: copy the finished trace to it.  This is last,
 * after record put the settings back: a reader that does not read blocks
 * the copy, never ktrace's configuration; a signal ends it.  0, or -1
 * with the whole trace kept in its temporary file, said.
 */
int out_deliver(struct recorder *r)
{
	if (r->direct < 0 || !r->tmp)
		return 0;
	r->signals_seen = __atomic_load_n(&nr_signals, __ATOMIC_RELAXED);
	if (out_copy(r)) {
		out_discard(r);
		return -1;
	}
	unlink(r->tmp);
	free(r->tmp);
	r->tmp = NULL;
	out_said(r);
	return 0;
}

struct recorder *recorder_new(const char *cmd)
{
	struct recorder *r = calloc(1, sizeof(*r));
	unsigned int ch, cpu;
	struct rlimit rl;

	/* Three stream files per CPU: as many files as allowed (not COMMAND). */
	if (!getrlimit(RLIMIT_NOFILE, &rl) && rl.rlim_cur < rl.rlim_max) {
		old_nofile = rl;
		rl.rlim_cur = rl.rlim_max;
		nofile_raised = !setrlimit(RLIMIT_NOFILE, &rl);
	}

	if (!r)
		return NULL;
	r->chunk = malloc(CHUNK);
	if (!r->chunk) {
		free(r);
		return NULL;
	}
	for (ch = 0; ch < KTRACE_NR_CHANNELS; ch++)
		for (cpu = 0; cpu < KTF_MAX_CPUS; cpu++)
			r->fds[ch][cpu] = -1;
	r->cmd = cmd;
	r->direct = -1;
	r->out = DEFAULT_FILE;
	r->dir = kt_dir();
	return r;
}

void recorder_free(struct recorder *r)
{
	close_streams(r);
	out_discard(r);
	if (r->direct >= 0)
		close(r->direct);
	free(r->out_real);
	free(r->old_uname);
	free(r->old_stats);
	free(r->stats_before);
	free(r->chunk);
	free(r);
}

/*
 * What record changed, to be put back: control files with their previous
 * value, written back in reverse order, and the triggers it armed.
 */
struct undo {
	char file[KTRACE_NAME_LEN * 2 + 32];
	char *val;
};

struct saved {
	struct undo *undo;
	unsigned int nr_undo;
	char **disarm;			/* "!KIND" of the triggers armed */
	unsigned int nr_disarm;
};

static int save_push(struct saved *s, const char *file, const char *val)
{
	struct undo *u = realloc(s->undo, (s->nr_undo + 1) * sizeof(*u));

	if (!u)
		return -1;
	s->undo = u;
	u += s->nr_undo;
	snprintf(u->file, sizeof(u->file), "%s", file);
	u->val = strdup(val);
	if (!u->val)
		return -1;
	s->nr_undo++;
	return 0;
}

/* Save @file's value, then write @val to it; 0, or -1 after saying why. */
static int change(struct recorder *r, struct saved *s, const char *file, const char *val)
{
	char *old = ctl_value(r->dir, file);
	int ret;

	if (!old) {
		fprintf(stderr, "ktrace record: %s/%s: cannot read it\n", r->dir, file);
		return -1;
	}
	ret = save_push(s, file, old);
	free(old);
	if (ret)
		return -1;
	if (ctl_write(r, file, val)) {
		free(s->undo[--s->nr_undo].val);
		return -1;
	}
	return 0;
}

/*
 * Put back everything record changed: first disarm the triggers it armed
 * (so that none fires in a trace restarted below), then the control files
 * in reverse order, each only if it differs now (the events, the size,
 * the mode, and last ``enable``, restarting tracing if it was on).
 * 0, or -1 if something could not be put back (said on stderr).
 */
static int restore(struct recorder *r, struct saved *s)
{
	int ret = 0;
	char *now;

	while (s->nr_disarm) {
		char *d = s->disarm[--s->nr_disarm];

		if (ctl_write(r, "triggers", d))
			ret = -1;
		free(d);
	}
	while (s->nr_undo) {
		struct undo *u = &s->undo[--s->nr_undo];

		now = ctl_value(r->dir, u->file);
		if ((!now || strcmp(now, u->val)) && ctl_write(r, u->file, u->val))
			ret = -1;
		free(now);
		free(u->val);
	}
	if (ret)
		fprintf(stderr, "ktrace record: could not put every setting back\n");
	return ret;
}

/* The kind of a trigger spec or of a line of ``triggers``: "oom", "latency:block". */
static size_t trigger_kind_len(const char *spec)
{
	size_t len = strcspn(spec, " \t\n");
	const char *gt = memchr(spec, '>', len);

	return gt ? (size_t)(gt - spec) : len;
}

/* Is a trigger of @spec's kind armed, according to @armed (``triggers``)? */
static bool trigger_armed(const char *armed, const char *spec)
{
	size_t len = trigger_kind_len(spec);
	const char *line;

	for (line = *armed ? armed : NULL; line; line = next_line(line))
		if (trigger_kind_len(line) == len && !strncmp(line, spec, len))
			return true;
	return false;
}

/* The delay= of the armed trigger of @kind's kind, in ms; 0 if none. */
static unsigned int trigger_delay(const char *dir, const char *kind)
{
	size_t len = trigger_kind_len(kind);
	char path[4096], *armed;
	const char *line, *d;
	unsigned int ms = 0;

	snprintf(path, sizeof(path), "%s/triggers", dir);
	armed = rec_slurp(path, 1 << 16);
	for (line = armed && *armed ? armed : NULL; line; line = next_line(line)) {
		if (trigger_kind_len(line) == len && !strncmp(line, kind, len)) {
			d = strstr(line, " delay=");
			if (d && d < line + strcspn(line, "\n"))
				ms = strtoul(d + 7, NULL, 10);
			break;
		}
	}
	free(armed);
	return ms;
}

/* COMMAND resolved as the shell's command -v would: true if it can be run. */
static bool command_found(const char *cmd)
{
	const char *path = getenv("PATH"), *p, *end;
	char full[4096];
	struct stat st;

	if (strchr(cmd, '/'))
		return !stat(cmd, &st) && S_ISREG(st.st_mode) && !access(cmd, X_OK);
	if (!path)
		path = "/usr/local/bin:/usr/bin:/bin";
	for (p = path; ; p = end + 1) {
		end = strchrnul(p, ':');
		/* An empty element is the current directory, as for execvp(). */
		if (end == p)
			snprintf(full, sizeof(full), "./%s", cmd);
		else
			snprintf(full, sizeof(full), "%.*s/%s", (int)(end - p), p, cmd);
		if (!stat(full, &st) && S_ISREG(st.st_mode) && !access(full, X_OK))
			return true;
		if (!*end)
			return false;
	}
}

/* events/GROUP/enable or events/GROUP/NAME/enable of one -e item; NULL if bad. */
static bool event_file(const char *dir, const char *tok, char *file, size_t size)
{
	char path[4096];
	unsigned int i;

	if (!*tok || *tok == '/' || *tok == ':' || strstr(tok, "..") ||
	    strlen(tok) > 2 * KTRACE_NAME_LEN + 1)
		return false;
	snprintf(file, size, "events/%s/enable", tok);
	/* GROUP:NAME as report prints it, or GROUP/NAME. */
	for (i = 0; file[i]; i++)
		if (file[i] == ':')
			file[i] = '/';
	snprintf(path, sizeof(path), "%s/%s", dir, file);
	return !access(path, F_OK);
}

/* Append GROUP or GROUP/NAME to @list; @n + 1, or -1 when out of memory. */
static int event_add(char **list, const char *group, const char *name, int n)
{
	char *l;

	if (asprintf(&l, "%s%s%s%s%s", *list ? *list : "", *list ? "," : "", group,
		     name ? "/" : "", name ? name : "") < 0)
		return -1;
	free(*list);
	*list = l;
	return n + 1;
}

/*
 * Append to @list (comma-separated, allocated) the events of @dir that the
 * glob @pat names, as trace-cmd's -e 'sched*': GROUP-GLOB (whole groups),
 * or GROUP-GLOB:NAME-GLOB (or with '/').  The number appended, -1 when out
 * of memory.
 */
static int event_glob(const char *dir, const char *pat, char **list)
{
	char gpat[KTRACE_NAME_LEN * 2 + 8], path[4096], *npat;
	struct dirent *g, *e;
	DIR *groups, *events;
	int n = 0;

	snprintf(gpat, sizeof(gpat), "%s", pat);
	npat = gpat + strcspn(gpat, ":/");
	if (*npat)
		*npat++ = '\0';
	else
		npat = NULL;
	snprintf(path, sizeof(path), "%s/events", dir);
	groups = opendir(path);
	while (n >= 0 && groups && (g = readdir(groups))) {
		if (g->d_name[0] == '.' || strlen(g->d_name) > KTRACE_NAME_LEN ||
		    fnmatch(gpat, g->d_name, 0))
			continue;
		/* A whole group ("sched", "sched:*"): its own enable file. */
		if (!npat || !strcmp(npat, "*")) {
			n = event_add(list, g->d_name, NULL, n);
			continue;
		}
		snprintf(path, sizeof(path), "%s/events/%s", dir, g->d_name);
		events = opendir(path);
		while (n >= 0 && events && (e = readdir(events))) {
			char en[4096];

			/* Events are directories with an enable file. */
			if (e->d_name[0] == '.' || strlen(e->d_name) > KTRACE_NAME_LEN ||
			    fnmatch(npat, e->d_name, 0) ||
			    snprintf(en, sizeof(en), "%s/%s/enable", path, e->d_name) >=
			    (int)sizeof(en) || access(en, F_OK))
				continue;
			n = event_add(list, g->d_name, e->d_name, n);
		}
		if (events)
			closedir(events);
	}
	if (groups)
		closedir(groups);
	return n;
}

/* Save the enable file of every event, to be put back. */
static int save_events(struct recorder *r, struct saved *s)
{
	char path[4096], file[KTRACE_NAME_LEN * 2 + 32];
	struct dirent *g, *e;
	DIR *groups, *events;
	int ret = 0;

	snprintf(path, sizeof(path), "%s/events", r->dir);
	groups = opendir(path);
	if (!groups) {
		fprintf(stderr, "ktrace record: %s: %s\n", path, strerror(errno));
		return -1;
	}
	while (!ret && (g = readdir(groups))) {
		if (g->d_name[0] == '.' || strlen(g->d_name) > KTRACE_NAME_LEN)
			continue;
		snprintf(path, sizeof(path), "%s/events/%s", r->dir, g->d_name);
		events = opendir(path);
		while (!ret && events && (e = readdir(events))) {
			char *v;

			if (e->d_name[0] == '.' || strlen(e->d_name) > KTRACE_NAME_LEN)
				continue;
			snprintf(file, sizeof(file), "events/%s/%s/enable", g->d_name, e->d_name);
			v = ctl_value(r->dir, file);
			if (v && (!strcmp(v, "0") || !strcmp(v, "1")))
				ret = save_push(s, file, v);
			free(v);
		}
		if (events)
			closedir(events);
	}
	closedir(groups);
	return ret;
}

static const char record_help[] =
	"usage: ktrace record [-o FILE] [-e EVENT,...] [-m drop|overwrite|hybrid] [-b KB]\n"
	"                     [-t TRIGGER]... [--wait] [--no-kernel-addresses] [--force]\n"
	"                     [-z[LEVEL]] [-- COMMAND [ARGS]]\n"
	"\n"
	"Trace until COMMAND ends, until Ctrl-C, or with --wait until tracing\n"
	"stops by itself (a trigger fired), and write every channel of every CPU,\n"
	"the metadata, the tasks, uname, the stats and the triggers to one file.\n"
	"In drop mode the streams are copied as they fill; in overwrite and hybrid\n"
	"modes the buffers keep the last of the history and are saved at the end.\n"
	"record starts a new trace (what the buffers held is discarded) and puts\n"
	"the settings back; the trace is in the file.  It refuses to discard a\n"
	"trace a trigger kept that nobody read yet: save it with ktrace extract.\n"
	"\n"
	"  -o, --output FILE    the trace file (default ktrace.dat; - for stdout)\n"
	"  -e, --event LIST     enable only these events: GROUP or GROUP/NAME,\n"
	"                       comma-separated, globs too ('sched*', 'sched:sw*')\n"
	"                       (default: leave the selection)\n"
	"  -m, --mode MODE      drop, overwrite or hybrid (default: the current one)\n"
	"  -b, --buffer-kb KB   per-CPU size of the high-rate channel, 16 to 1048576\n"
	"  -t, --trigger SPEC   arm a trigger (as written to the triggers file; nr=NAME\n"
	"                       is made nr=N from the x86-64 system call table)\n"
	"  -w, --wait           stop when tracing stops, not on COMMAND's end\n"
	"      --no-kernel-addresses\n"
	"                       save no kernel addresses at all (symbols instead),\n"
	"                       for traces posted publicly\n"
	"      --force          discard a trace a trigger kept, unread\n"
	"  -z, --compress[=LEVEL]\n"
	"                       compress the file with zstd, LEVEL 1 to 19 (default\n"
	"                       3; 19: smallest, slowest); every command reads it\n"
	"  -h, --help           this help\n"
	"\n"
	"Exit status: COMMAND's, 128+N if a signal N killed it, 127 if it could\n"
	"not be run; 1 if record failed, 2 for a usage error.\n"
	"The control directory is $KTRACE_DIR, by default /sys/kernel/debug/ktrace.\n";

/* Sums of the stats file: events, and events lost (dropped, overwritten). */
static void progress(const struct recorder *r)
{
	char path[4096], *stats;
	unsigned long long events, lost;

	snprintf(path, sizeof(path), "%s/stats", r->dir);
	stats = rec_slurp(path, 1 << 20);
	events = stats_sum(stats, "events");
	lost = stats_sum(stats, "dropped") + stats_sum(stats, "overwritten");
	free(stats);
	fprintf(stderr, "\rktrace record: %llu bytes, %llu events, %llu lost", r->bytes,
		events, lost);
}

/*
 * Consume the lines of trigger_pipe.  Returns the delay of the freeze a
 * stop trigger announced (0: now), -1 if none, -2 when the file gives no
 * more (end of file: not the kernel's pipe).
 */
static long read_trigger_pipe(struct recorder *r, int fd)
{
	char buf[4096], kind[48], action[6];
	const char *line;
	long delay = -1;
	ssize_t n;

	while ((n = read(fd, buf, sizeof(buf) - 1)) > 0) {
		buf[n] = '\0';
		/* TIME KIND action=stop|mark fired=N ... */
		for (line = n ? buf : NULL; line; line = next_line(line))
			if (sscanf(line, "%*s %47s action=%5s", kind, action) == 2 &&
			    !strcmp(action, "stop"))
				delay = trigger_delay(r->dir, kind);
	}
	return n == 0 && delay < 0 ? -2 : delay;
}

/*
 * End COMMAND after a signal ended the recording: SIGTERM, then SIGKILL
 * after 2 s or at once on another signal; @status set to how it ended.
 */
static void end_child(pid_t child, int *status)
{
	unsigned long long end = now_ms() + 2000;
	int seen = __atomic_load_n(&nr_signals, __ATOMIC_RELAXED);
	bool killed = false;
	char drop[64];

	kill(child, SIGTERM);
	while (waitpid(child, status, WNOHANG) != child) {
		struct pollfd p = { .fd = wake_pipe[0], .events = POLLIN };

		if (!killed && (now_ms() >= end ||
				__atomic_load_n(&nr_signals, __ATOMIC_RELAXED) != seen)) {
			kill(child, SIGKILL);
			killed = true;
		}
		poll(&p, 1, 50);
		while (read(wake_pipe[0], drop, sizeof(drop)) > 0)
			;
	}
}

/* Record's exit status for how COMMAND ended. */
static int child_status(int status)
{
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return 1;
}

/* What record was asked, and what it holds while it runs. */
struct rec_args {
	struct recorder *r;
	bool wait_stop, hide, tty, flight, force;
	const char *mode, *kb;
	char *events, **triggers, *cur_mode, *old_enable;
	char *globbed;			/* -e, its globs expanded (rec_check()) */
	unsigned int nr_triggers;
	struct saved s;
	pid_t child;
	int status, tpipe;
};

/*
 * The spec with "nr=NAME" made "nr=N" (x86-64 names, kt_syscall_nr()):
 * the kernel's parser takes numbers only, as it has no table of names
 * without CONFIG_FTRACE_SYSCALLS.  *@spec replaced (malloc'ed) if it
 * changed.  0, -1 out of memory, or EXIT_USAGE after saying why.
 */
static int trigger_names(char **spec)
{
	char *p = *spec, *v, *out;
	struct utsname u;
	size_t len;
	int nr;

	for (v = NULL; p && *p; p += strcspn(p, " \t")) {
		p += strspn(p, " \t");
		if (!strncmp(p, "nr=", 3) && p[3] && !strchr("-0123456789", p[3])) {
			v = p + 3;
			break;
		}
	}
	if (!v)
		return 0;
	len = strcspn(v, " \t");
	out = strndup(v, len);
	if (!out)
		return -1;
	nr = kt_syscall_nr(out);
	if (nr < 0 || uname(&u) || strcmp(u.machine, "x86_64")) {
		fprintf(stderr, "ktrace record: bad trigger '%s': nr=%s: %s\n", *spec, out,
			nr < 0 ? "no such x86-64 system call" :
			"system call names are known on x86_64 only: give the number");
		free(out);
		return EXIT_USAGE;
	}
	free(out);
	if (asprintf(&out, "%.*s%d%s", (int)(v - *spec), *spec, nr, v + len) < 0)
		return -1;
	*spec = out;
	return 0;
}

/*
 * -t SPEC: 0, -1 out of memory, or EXIT_USAGE after saying why.  The spec
 * is the kernel's to judge (rec_change() writes it, and puts everything
 * back if it is refused): record only needs its kind, to disarm it at the
 * end and to refuse a second of one kind, which would replace the first.
 */
static int rec_add_trigger(struct rec_args *a, char *spec)
{
	char **nt = realloc(a->triggers, (a->nr_triggers + 1) * sizeof(*nt));
	const char *why = NULL;
	size_t len;
	int i;

	if (!nt)
		return -1;
	a->triggers = nt;
	/* White space around it, as the kernel strips it. */
	spec += strspn(spec, " \t\n");
	for (len = strlen(spec); len && strchr(" \t\n", spec[len - 1]); len--)
		spec[len - 1] = '\0';
	i = trigger_names(&spec);
	if (i)
		return i;
	if (*spec == '!')
		why = "record arms triggers; it disarms them itself";
	else if (!trigger_kind_len(spec))
		why = "KIND [OPTION=VALUE]...";
	for (i = 0; !why && i < (int)a->nr_triggers; i++)
		if (trigger_kind_len(a->triggers[i]) == trigger_kind_len(spec) &&
		    !strncmp(a->triggers[i], spec, trigger_kind_len(spec)))
			why = "a second trigger of that kind";
	if (why) {
		fprintf(stderr, "ktrace record: bad trigger '%s': %s\n", spec, why);
		return EXIT_USAGE;
	}
	a->triggers[a->nr_triggers++] = spec;
	return 0;
}

/* The options: -1 to go on, or record's exit status. */
static int rec_parse(struct rec_args *a, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "event", required_argument, NULL, 'e' },
		{ "mode", required_argument, NULL, 'm' },
		{ "buffer-kb", required_argument, NULL, 'b' },
		{ "trigger", required_argument, NULL, 't' },
		{ "wait", no_argument, NULL, 'w' },
		{ "no-kernel-addresses", no_argument, NULL, 'K' },
		{ "force", no_argument, NULL, 'F' },
		{ "compress", optional_argument, NULL, 'z' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	while ((c = getopt_long(argc, argv, "+o:e:m:b:t:wz::h", opts, NULL)) != -1) {
		switch (c) {
		case 'o':
			a->r->out = optarg;
			break;
		case 'e':
			if (!*optarg || strspn(optarg, ",") == strlen(optarg)) {
				fprintf(stderr, "ktrace record: -e: no event given\n");
				return EXIT_USAGE;
			}
			a->events = optarg;
			break;
		case 'm':
			if (strcmp(optarg, "drop") && strcmp(optarg, "overwrite") &&
			    strcmp(optarg, "hybrid")) {
				fprintf(stderr,
					"ktrace record: bad mode '%s': drop, overwrite or hybrid\n",
					optarg);
				return EXIT_USAGE;
			}
			a->mode = optarg;
			break;
		case 'b':
			if (strspn(optarg, "0123456789") != strlen(optarg) || !*optarg ||
			    strlen(optarg) > 8 || atol(optarg) < 16 || atol(optarg) > 1048576) {
				fprintf(stderr,
					"ktrace record: bad size '%s': KiB, 16 to 1048576\n",
					optarg);
				return EXIT_USAGE;
			}
			a->kb = optarg;
			break;
		case 't':
			c = rec_add_trigger(a, optarg);
			if (c)
				return c < 0 ? 1 : c;
			break;
		case 'w':
			a->wait_stop = true;
			break;
		case 'K':
			a->hide = true;
			break;
		case 'F':
			a->force = true;
			break;
		case 'z':
			if (rec_compress_opt(a->r, optarg))
				return EXIT_USAGE;
			break;
		case 'h':
			fputs(record_help, stdout);
			return 0;
		default:
			fputs(record_help, stderr);
			return EXIT_USAGE;
		}
	}
	return -1;
}

/* Is any trigger of -t armed already?  0 if not, or 1 after saying so. */
static int rec_check_triggers(struct rec_args *a)
{
	char path[PATH_MAX], *armed;
	unsigned int i;
	int ret = 0;

	if (snprintf(path, sizeof(path), "%s/triggers", a->r->dir) >= (int)sizeof(path)) {
		fprintf(stderr, "ktrace record: %s: path too long\n", a->r->dir);
		return 1;
	}
	armed = rec_slurp(path, 1 << 16);
	if (!armed) {
		fprintf(stderr, "ktrace record: %s: %s\n", path, strerror(errno));
		return 1;
	}
	for (i = 0; i < a->nr_triggers && !ret; i++) {
		if (trigger_armed(armed, a->triggers[i])) {
			fprintf(stderr,
				"ktrace record: a trigger %.*s is armed already: disarm it first (echo '!%.*s' > %s/triggers)\n",
				(int)trigger_kind_len(a->triggers[i]), a->triggers[i],
				(int)trigger_kind_len(a->triggers[i]), a->triggers[i], a->r->dir);
			ret = 1;
		}
	}
	free(armed);
	return ret;
}

/*
 * Whether the kernel keeps a trace a trigger froze that nobody read to the
 * end ("unsaved 1" in stats): starting a new one would destroy it.
 */
static bool trace_unsaved(const char *dir)
{
	char path[PATH_MAX], *stats = NULL;
	const char *line;
	bool unsaved = false;

	if (snprintf(path, sizeof(path), "%s/stats", dir) < (int)sizeof(path))
		stats = rec_slurp(path, 1 << 20);
	for (line = stats; line && *line && !unsaved; line = next_line(line))
		unsaved = !strncmp(line, "unsaved 1\n", 10);
	free(stats);
	return unsaved;
}

static void unsaved_refused(struct recorder *r)
{
	fprintf(stderr,
		"ktrace record: a trigger kept a trace nobody has read yet (\"unsaved 1\" in %s/stats): save it with 'ktrace extract -o FILE' first, or discard it with --force\n",
		r->dir);
}

/*
 * Check everything before changing anything, then create the file and
 * catch the signals: -1 to go on, or record's exit status.
 */
static int rec_check(struct rec_args *a, int argc, char **argv)
{
	char file[KTRACE_NAME_LEN * 2 + 32], *tok;
	struct recorder *r = a->r;

	a->old_enable = ctl_value(r->dir, "enable");
	a->cur_mode = ctl_value(r->dir, "mode");
	if (!a->old_enable || !a->cur_mode) {
		fprintf(stderr, "ktrace record: %s/%s: %s\n", r->dir,
			a->old_enable ? "mode" : "enable", strerror(errno));
		return 1;
	}
	/*
	 * The history of a bug is never discarded unasked: nothing changed.
	 * (rec_change() asks again once tracing is stopped.)
	 */
	if (!a->force && trace_unsaved(r->dir)) {
		unsaved_refused(r);
		return 1;
	}
	/* A bad -e is a usage error, as a bad -m is; globs expanded here. */
	for (tok = a->events; tok && *tok;
	     tok += strcspn(tok, ",") + !!tok[strcspn(tok, ",")]) {
		char one[2 * KTRACE_NAME_LEN + 8];
		size_t len = strcspn(tok, ",");
		int n = 0;

		snprintf(one, sizeof(one), "%.*s", (int)len, tok);
		if (len < sizeof(one) - 1 && strpbrk(one, "*?[")) {
			n = event_glob(r->dir, one, &a->globbed);
			if (n < 0)
				return 1;
			if (!n) {
				fprintf(stderr,
					"ktrace record: no event matches '%s' (under %s/events)\n",
					one, r->dir);
				return EXIT_USAGE;
			}
		} else if (len >= sizeof(one) - 1 ||
			   !event_file(r->dir, one, file, sizeof(file))) {
			fprintf(stderr, "ktrace record: no event '%.*s' (no %s/events/%s)\n",
				(int)len, tok, r->dir, one);
			return EXIT_USAGE;
		} else if (event_add(&a->globbed, one, NULL, 0) < 0) {
			return 1;
		}
	}
	if (a->events)
		a->events = a->globbed;
	if (a->nr_triggers && rec_check_triggers(a))
		return 1;
	if (optind < argc && !command_found(argv[optind])) {
		fprintf(stderr, "ktrace record: %s: command not found\n", argv[optind]);
		return EXIT_NOCMD;
	}
	if (a->hide && kt_symbols_can_hide("record"))
		return 1;
	if (out_resolve(r) || out_create(r))
		return 1;
	a->flight = strcmp(a->mode ? a->mode : a->cur_mode, "drop") != 0;
	/* From the first change on, a signal ends the recording, not record. */
	if (pipe2(wake_pipe, O_CLOEXEC | O_NONBLOCK)) {
		fprintf(stderr, "ktrace record: pipe: %s\n", strerror(errno));
		return 1;
	}
	catch_signals(true);
	return -1;
}

/* --wait without an action=stop trigger armed: said, as it waits for a hand. */
static void rec_check_wait(struct recorder *r)
{
	char path[PATH_MAX], *now = NULL;
	bool stops = false;
	const char *line;

	if (snprintf(path, sizeof(path), "%s/triggers", r->dir) < (int)sizeof(path))
		now = rec_slurp(path, 1 << 16);
	for (line = now && *now ? now : NULL; line && !stops; line = next_line(line))
		stops = strstr(line, "action=stop") &&
			strstr(line, "action=stop") < line + strcspn(line, "\n");
	if (!stops)
		fprintf(stderr,
			"ktrace record: --wait: no action=stop trigger armed: waiting until tracing is stopped by hand\n");
	free(now);
}

/*
 * With no -e: the events enabled, unless nothing but ktrace's own (the
 * marks, as at boot), which would record nothing: then sched, irq and
 * syscalls too (those the kernel has), said, as perf trace traces the
 * system calls and trace-cmd asks for events.  NULL: leave the selection.
 */
static char *default_events(struct recorder *r)
{
	static const char *const groups[] = { "sched", "irq", "syscalls" };
	static char list[64];
	char *on = enabled_events(r->dir), *p, path[4096];
	bool own = on;
	unsigned int i;

	for (p = on; p && *p; p += strcspn(p, "\n") + !!p[strcspn(p, "\n")])
		own = own && !strncmp(p, "ktrace:", 7);
	free(on);
	if (!own)
		return NULL;
	*list = '\0';
	for (i = 0; i < ARRAY_SIZE(groups); i++) {
		snprintf(path, sizeof(path), "%s/events/%s/enable", r->dir, groups[i]);
		if (!access(path, F_OK))
			snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s",
				 *list ? "," : "", groups[i]);
	}
	if (!*list)
		return NULL;
	fprintf(stderr,
		"ktrace record: no event enabled but ktrace's own: recording %s too (choose with -e)\n",
		list);
	return list;
}

/*
 * Change, saving what is changed: stop first, so that nothing fires or is
 * recorded meanwhile; then the mode, the size, the events, the triggers
 * (the kernel is the only judge of a spec: if it refuses one, everything
 * is put back).  0, or -1.
 */
static int rec_change(struct rec_args *a)
{
	char file[KTRACE_NAME_LEN * 2 + 32], *tok;
	struct recorder *r = a->r;
	struct saved *s = &a->s;
	unsigned int i;
	bool added;

	if ((trace_state(r->dir) != KT_STOPPED || strcmp(a->old_enable, "0")) &&
	    change(r, s, "enable", "0"))
		return -1;
	/* A trigger that fired since rec_check(): stopped now, it stays unread. */
	if (!a->force && trace_unsaved(r->dir)) {
		unsaved_refused(r);
		return -1;
	}
	if (a->mode && strcmp(a->mode, a->cur_mode) && change(r, s, "mode", a->mode))
		return -1;
	/* The mode now, stopped: the flight-recorder or streaming decision. */
	free(a->cur_mode);
	a->cur_mode = ctl_value(r->dir, "mode");
	if (!a->cur_mode) {
		fprintf(stderr, "ktrace record: %s/mode: cannot read it\n", r->dir);
		return -1;
	}
	a->flight = strcmp(a->cur_mode, "drop") != 0;
	if (a->kb) {
		char *cur = ctl_value(r->dir, "buffer_size_kb");
		bool same = cur && !strcmp(cur, a->kb);

		free(cur);
		if (!same && change(r, s, "buffer_size_kb", a->kb))
			return -1;
	}
	/* The default adds to ktrace's own events (marks, trigger records). */
	added = !a->events;
	if (added)
		a->events = default_events(r);
	if (a->events) {
		if (save_events(r, s) || (!added && ctl_write(r, "events/enable", "0")))
			return -1;
		for (tok = strtok(a->events, ","); tok; tok = strtok(NULL, ",")) {
			event_file(r->dir, tok, file, sizeof(file));
			if (ctl_write(r, file, "1"))
				return -1;
		}
	}

	for (i = 0; i < a->nr_triggers; i++) {
		char **nd = realloc(s->disarm, (s->nr_disarm + 1) * sizeof(*nd));
		size_t len = trigger_kind_len(a->triggers[i]);	/* "!latency:block" */

		if (!nd)
			return -1;
		s->disarm = nd;
		if (ctl_write(r, "triggers", a->triggers[i])) {
			fprintf(stderr,
				"ktrace record: the kernel refused the trigger '%s' (its grammar: Documentation/trace/ktrace.rst, \"Triggers\"): putting everything back\n",
				a->triggers[i]);
			return -1;
		}
		s->disarm[s->nr_disarm] = malloc(len + 2);
		if (!s->disarm[s->nr_disarm])
			return -1;
		sprintf(s->disarm[s->nr_disarm++], "!%.*s", (int)len, a->triggers[i]);
	}
	if (a->wait_stop)
		rec_check_wait(r);
	return 0;
}

/*
 * Start tracing, then COMMAND: 0; -1 if tracing could not start (put
 * back as it was), 1 if tracing started but failed (stop it).
 */
static int rec_start(struct rec_args *a, int argc, char **argv)
{
	char path[PATH_MAX];
	struct recorder *r = a->r;
	int c;

	if (snprintf(path, sizeof(path), "%s/trigger_pipe", r->dir) >= (int)sizeof(path)) {
		fprintf(stderr, "ktrace record: %s: path too long\n", r->dir);
		return -1;
	}
	a->tpipe = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	/* Firings of an earlier trace are not this one's. */
	if (a->tpipe >= 0 && read_trigger_pipe(r, a->tpipe) == -2) {
		close(a->tpipe);
		a->tpipe = -1;
	}
	/*
	 * A start keeps the buffers of the last trace, and what it left
	 * unread would be read first: read it to nowhere, so that the file
	 * holds this trace only (and a full channel does not drop its
	 * metadata).
	 */
	c = open_streams(r);
	if (c < 0 || (c > 0 && discard_streams(r)))
		return -1;
	close_streams(r);
	/* What a file cut short needs, before its streams (trace.h). */
	if (out_begin(r))
		return -1;
	/* A signal during the setup: COMMAND is not started. */
	if (sig_caught() || change(r, &a->s, "enable", "1"))
		return -1;
	/* The stream files exist once the buffers are allocated, at the start. */
	c = open_streams(r);
	if (c <= 0) {
		if (!c)
			fprintf(stderr, "ktrace record: no stream files under %s/high\n", r->dir);
		return 1;
	}
	if (a->flight)
		close_streams(r);	/* read once, at the end */
	if (sig_caught())
		return -1;
	if (optind < argc) {
		sigset_t block, mask;
		unsigned int i;

		/*
		 * The handled signals are blocked across fork(): one arriving
		 * in the child before it put the dispositions back would run
		 * record's handler there and be lost to COMMAND (a Ctrl-C at
		 * that moment would not end it).  Pending, it is delivered
		 * once COMMAND's mask is set, with COMMAND's disposition.
		 */
		sigemptyset(&block);
		for (i = 0; i < NR_HANDLED; i++)
			sigaddset(&block, handled_signals[i]);
		sigprocmask(SIG_BLOCK, &block, &mask);
		a->child = fork();
		if (a->child == 0) {
			child_restore(&mask);
			if (r->to_stdout)	/* the trace's own: COMMAND's output to stderr */
				dup2(STDERR_FILENO, STDOUT_FILENO);
			execvp(argv[optind], argv + optind);
			fprintf(stderr, "ktrace record: %s: %s\n", argv[optind], strerror(errno));
			_exit(EXIT_NOCMD);
		}
		sigprocmask(SIG_SETMASK, &mask, NULL);
		if (a->child < 0) {
			fprintf(stderr, "ktrace record: fork: %s\n", strerror(errno));
			return 1;
		}
	}
	return 0;
}

/*
 * Wait for COMMAND's end, a signal, or with --wait the end of tracing.
 * Drop mode copies the streams every 100 ms meanwhile; a flight recorder
 * is left alone: poll() sleeps on the signals (through wake_pipe) and
 * trigger_pipe, and the state is checked once a second, or from when a
 * stop trigger's freeze is due.  0, or 1 on a failure.
 */
static int rec_loop(struct rec_args *a)
{
	unsigned long long pending_at = 0, last_check = 0;
	struct recorder *r = a->r;

	for (;;) {
		struct pollfd p[2] = {
			{ .fd = wake_pipe[0], .events = POLLIN },
			{ .fd = a->tpipe, .events = POLLIN },
		};
		unsigned long long now = now_ms();
		int timeout = a->flight ? 1000 : 100;
		char drop[64];

		if (pending_at)
			timeout = pending_at > now ? (int)(pending_at - now < 1000 ?
				  pending_at - now : 1000) : FROZEN_POLL_MS;
		poll(p, a->tpipe >= 0 ? 2 : 1, timeout);
		while (read(wake_pipe[0], drop, sizeof(drop)) > 0)
			;
		if (a->child > 0 && waitpid(a->child, &a->status, WNOHANG) == a->child)
			a->child = 0;
		if (__atomic_load_n(&interrupted, __ATOMIC_RELAXED))
			break;
		if (a->tpipe >= 0 && (p[1].revents & (POLLIN | POLLHUP | POLLERR))) {
			long delay = read_trigger_pipe(r, a->tpipe);

			if (delay == -2) {
				close(a->tpipe);
				a->tpipe = -1;
			} else if (delay >= 0 && a->wait_stop && !pending_at) {
				pending_at = now_ms() + delay;
			}
		}
		if (!a->flight && drain(r))
			return 1;
		if (!a->child && !a->wait_stop)
			break;
		now = now_ms();
		/* A freeze that does not come (the trace was restarted): once a second. */
		if (pending_at && now >= pending_at + FROZEN_WAIT_MS)
			pending_at = 0;
		if (now - last_check >= 1000 || (pending_at && now >= pending_at)) {
			last_check = now;
			if (a->wait_stop && trace_state(r->dir) != KT_TRACING)
				break;
			if (!a->flight && open_streams(r) < 0)
				return 1;
			if (a->tty)
				progress(r);
		}
	}
	return 0;
}

int cmd_record(int argc, char **argv)
{
	struct rec_args a = { .child = -1, .tpipe = -1, .tty = isatty(STDERR_FILENO) };
	bool changed = false;
	enum kt_state st;
	unsigned int i;
	int ret;

	ignore_sigpipe();
	a.r = recorder_new("record");
	if (!a.r)
		return 1;
	ret = rec_parse(&a, argc, argv);
	if (ret < 0)
		ret = rec_check(&a, argc, argv);
	if (ret >= 0)
		goto out;

	changed = true;
	ret = rec_change(&a);
	if (!ret)
		ret = rec_start(&a, argc, argv);
	if (ret < 0)
		goto fail;
	if (!ret)
		ret = rec_loop(&a);
	/* Ended by a signal: COMMAND is ended too, then the trace saved. */
	if (!ret && a.child > 0 && sig_caught()) {
		end_child(a.child, &a.status);
		a.child = 0;
	}
	if (a.tty)
		fprintf(stderr, "\r\033[K");
	/* Stopped, its last subbuffers completed, before reading it whole. */
	st = trace_state(a.r->dir);
	if (st == KT_FROZEN)
		st = wait_frozen(a.r->dir);
	if (st != KT_STOPPED && ctl_write(a.r, "enable", "0"))
		ret = 1;
	/* After a failure, no file: the temporary one is removed. */
	if (!ret && out_finish(a.r, a.hide))
		ret = 1;
	goto restore;
fail:
	ret = 1;
	if (sig_caught() && a.child < 0)
		ret = 128 + sig_caught();	/* during the setup */
restore:
	/* A failed recording does not wait for COMMAND without limit. */
	if (ret && a.child > 0) {
		fprintf(stderr, "ktrace record: ending %s (SIGTERM) as recording failed\n",
			argv[optind]);
		end_child(a.child, &a.status);
		a.child = 0;
	}
	if (changed && restore(a.r, &a.s))
		ret = 1;
	/* The settings are back: a fifo's reader may now take its time. */
	if (!ret && out_deliver(a.r))
		ret = 1;
	while (a.child > 0 && waitpid(a.child, &a.status, 0) < 0 && errno == EINTR)
		;
	if (!ret && optind < argc)
		ret = child_status(a.status);
out:
	if (a.tpipe >= 0)
		close(a.tpipe);
	for (i = 0; i < 2; i++)
		if (wake_pipe[i] >= 0)
			close(wake_pipe[i]);
	free(a.s.undo);
	free(a.s.disarm);
	free(a.cur_mode);
	free(a.old_enable);
	free(a.globbed);
	free(a.triggers);
	recorder_free(a.r);
	return ret;
}
