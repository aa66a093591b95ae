// SPDX-License-Identifier: GPL-2.0
/*
 * tools/ktrace: ktrace record.
 *
 * Configures /sys/kernel/debug/ktrace (or $KTRACE_DIR), starts tracing,
 * copies every relay file (every channel of every CPU, CPUs brought online
 * meanwhile included) into the trace file as it fills, and stops on the
 * end of COMMAND, on Ctrl-C, or with --wait when tracing stops by itself
 * (a trigger fired).  Then it adds what a
 * decoder elsewhere needs: the tasks alive (pid and name), the kernel's
 * saved comms, uname, the stats, the triggers and the kernel symbols of
 * its addresses (symbols.c), or none of its addresses at all.
 */
#include <dirent.h>
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "trace.h"

#define EXIT_USAGE	2
#define CHUNK		1048576		/* bytes per read of a relay file */

/* Set by the SIGINT/SIGTERM handler, read by the loop. */
static int interrupted;

static void on_signal(int sig)
{
	__atomic_store_n(&interrupted, sig, __ATOMIC_RELAXED);
}

struct recorder {
	const char *dir;
	const char *out;
	FILE *f;
	int fds[KTRACE_NR_CHANNELS][KTF_MAX_CPUS];
	unsigned int nr_cpus;
	unsigned char *chunk;
	unsigned long long bytes;
};

/* Write a string to a control file; 0, or -1 after saying why. */
static int ctl_write(const char *dir, const char *file, const char *val)
{
	char path[4096];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	fd = open(path, O_WRONLY);
	if (fd < 0) {
		fprintf(stderr, "ktrace record: %s: %s\n", path, strerror(errno));
		return -1;
	}
	n = write(fd, val, strlen(val));
	if (n < 0)
		fprintf(stderr, "ktrace record: %s: writing '%s': %s\n", path, val,
			strerror(errno));
	close(fd);
	return n < 0 ? -1 : 0;
}

/* A whole small file, NUL-terminated; NULL if it cannot be read. */
static char *slurp(const char *path, size_t max)
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

static int section(struct recorder *r, unsigned int type, unsigned int ch,
		   unsigned int cpu, const void *data, size_t len)
{
	static const char zero[8];
	struct ktf_section s = {
		.type = htole32(type),
		.channel = htole16(ch),
		.cpu = htole16(cpu),
		.length = htole64(len),
	};

	if (fwrite(&s, sizeof(s), 1, r->f) != 1 || fwrite(data, 1, len, r->f) != len ||
	    fwrite(zero, 1, (8 - len % 8) % 8, r->f) != (8 - len % 8) % 8) {
		fprintf(stderr, "ktrace record: %s: %s\n", r->out, strerror(errno));
		return -1;
	}
	r->bytes += len;
	return 0;
}

/* Copy what the relay files hold now; -1 on a write error. */
static int drain(struct recorder *r)
{
	unsigned int ch, cpu;

	for (ch = 0; ch < KTRACE_NR_CHANNELS; ch++) {
		for (cpu = 0; cpu < r->nr_cpus; cpu++) {
			ssize_t n;

			if (r->fds[ch][cpu] < 0)
				continue;
			while ((n = read(r->fds[ch][cpu], r->chunk, CHUNK)) > 0)
				if (section(r, KTF_STREAM, ch, cpu, r->chunk, n))
					return -1;
		}
	}
	return 0;
}

/*
 * Open the relay files not open yet: all of them at the start, and those
 * of CPUs brought online while recording (ktrace gives a CPU its buffers
 * when it comes online), as the loop calls it again once a second.
 * Returns the number of files open.
 */
static unsigned int open_streams(struct recorder *r)
{
	unsigned int ch, cpu, open_now = 0;
	char path[4096];
	struct dirent *d;
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
			r->fds[ch][cpu] = open(path, O_RDONLY | O_NONBLOCK);
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
		comm = slurp(path, 64);
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
	text = slurp(path, 1 << 20);
	if (!text)
		return 0;
	ret = section(r, type, 0, 0, text, strlen(text));
	free(text);
	return ret;
}

static const char record_help[] =
	"usage: ktrace record [-o FILE] [-e EVENT,...] [-m drop|overwrite|hybrid] [-b KB]\n"
	"                     [-t TRIGGER]... [--wait] [--no-kernel-addresses]\n"
	"                     [-- COMMAND [ARGS]]\n"
	"\n"
	"Trace until COMMAND ends, until Ctrl-C, or with --wait until tracing\n"
	"stops by itself (a trigger fired), and write every channel of every CPU,\n"
	"the metadata, the tasks, uname, the stats and the triggers to one file.\n"
	"\n"
	"  -o, --output FILE    the trace file (default ktrace.dat)\n"
	"  -e, --event LIST     enable only these events: GROUP or GROUP/NAME,\n"
	"                       comma-separated (default: leave the selection)\n"
	"  -m, --mode MODE      drop, overwrite or hybrid\n"
	"  -b, --buffer-kb KB   per-CPU size of the high-rate channel\n"
	"  -t, --trigger SPEC   arm a trigger (as written to the triggers file)\n"
	"  -w, --wait           stop when tracing stops, not on COMMAND's end\n"
	"      --no-kernel-addresses\n"
	"                       save no kernel addresses at all (symbols instead),\n"
	"                       for traces posted publicly\n"
	"  -h, --help           this help\n"
	"\n"
	"The control directory is $KTRACE_DIR, by default /sys/kernel/debug/ktrace.\n";

static int configure(const char *dir, char *events, const char *mode, const char *kb,
		     char **triggers, unsigned int nr_triggers)
{
	char path[512], *tok;
	unsigned int i;

	if (ctl_write(dir, "enable", "0"))
		return -1;
	if (mode && ctl_write(dir, "mode", mode))
		return -1;
	if (kb && ctl_write(dir, "buffer_size_kb", kb))
		return -1;
	if (events) {
		if (ctl_write(dir, "events/enable", "0"))
			return -1;
		for (tok = strtok(events, ","); tok; tok = strtok(NULL, ",")) {
			if (strstr(tok, "..") || strlen(tok) > 2 * KTRACE_NAME_LEN + 1) {
				fprintf(stderr, "ktrace record: bad event '%s'\n", tok);
				return -1;
			}
			snprintf(path, sizeof(path), "events/%s/enable", tok);
			/* GROUP:NAME as report prints it, or GROUP/NAME. */
			for (i = 0; path[i]; i++)
				if (path[i] == ':')
					path[i] = '/';
			if (ctl_write(dir, path, "1"))
				return -1;
		}
	}
	for (i = 0; i < nr_triggers; i++)
		if (ctl_write(dir, "triggers", triggers[i]))
			return -1;
	return 0;
}

/* Sums of the stats file: events, and events lost (dropped, overwritten). */
static void progress(const struct recorder *r)
{
	unsigned long long events = 0, lost = 0, v;
	char path[4096], *stats, *p;

	snprintf(path, sizeof(path), "%s/stats", r->dir);
	stats = slurp(path, 1 << 20);
	for (p = stats; p && (p = strstr(p, " events=")); p++) {
		if (sscanf(p, " events=%llu", &v) == 1)
			events += v;
	}
	for (p = stats; p && (p = strstr(p, " dropped=")); p++) {
		if (sscanf(p, " dropped=%llu", &v) == 1)
			lost += v;
	}
	for (p = stats; p && (p = strstr(p, " overwritten=")); p++) {
		if (sscanf(p, " overwritten=%llu", &v) == 1)
			lost += v;
	}
	free(stats);
	fprintf(stderr, "\rktrace record: %llu bytes, %llu events, %llu lost", r->bytes,
		events, lost);
}

static bool tracing(const char *dir)
{
	char path[4096], *v;
	bool on;

	snprintf(path, sizeof(path), "%s/enable", dir);
	v = slurp(path, 16);
	on = v && v[0] == '1';
	free(v);
	return on;
}

int kt_record(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "event", required_argument, NULL, 'e' },
		{ "mode", required_argument, NULL, 'm' },
		{ "buffer-kb", required_argument, NULL, 'b' },
		{ "trigger", required_argument, NULL, 't' },
		{ "wait", no_argument, NULL, 'w' },
		{ "no-kernel-addresses", no_argument, NULL, 'K' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct recorder *r;
	const char *mode = NULL, *kb = NULL;
	char *events = NULL, **triggers = NULL;
	unsigned int nr_triggers = 0, ch, cpu;
	struct ktf_header h = { .magic = KTF_MAGIC, .version = htole32(KTF_VERSION) };
	struct sigaction sa = { .sa_handler = on_signal };
	bool wait_stop = false, hide = false, tty = isatty(STDERR_FILENO);
	pid_t child = -1;
	struct utsname u;
	char text[1024];
	time_t last = 0;
	int c, status = 0, ret = 1;

	r = calloc(1, sizeof(*r));
	if (!r)
		return 1;
	for (ch = 0; ch < KTRACE_NR_CHANNELS; ch++)
		for (cpu = 0; cpu < KTF_MAX_CPUS; cpu++)
			r->fds[ch][cpu] = -1;
	r->out = "ktrace.dat";
	r->dir = getenv("KTRACE_DIR") && *getenv("KTRACE_DIR") ? getenv("KTRACE_DIR") :
		 "/sys/kernel/debug/ktrace";
	while ((c = getopt_long(argc, argv, "+o:e:m:b:t:wh", opts, NULL)) != -1) {
		switch (c) {
		case 'o':
			r->out = optarg;
			break;
		case 'e':
			events = optarg;
			break;
		case 'm':
			if (strcmp(optarg, "drop") && strcmp(optarg, "overwrite") &&
			    strcmp(optarg, "hybrid")) {
				fprintf(stderr,
					"ktrace record: bad mode '%s': drop, overwrite or hybrid\n",
					optarg);
				goto usage;
			}
			mode = optarg;
			break;
		case 'b':
			if (strspn(optarg, "0123456789") != strlen(optarg) || !*optarg ||
			    strlen(optarg) > 8) {
				fprintf(stderr, "ktrace record: bad size '%s': KiB, a number\n",
					optarg);
				goto usage;
			}
			kb = optarg;
			break;
		case 't': {
			char **nt = realloc(triggers, (nr_triggers + 1) * sizeof(*nt));

			if (!nt)
				goto out;
			triggers = nt;
			triggers[nr_triggers++] = optarg;
			break;
		}
		case 'w':
			wait_stop = true;
			break;
		case 'K':
			hide = true;
			break;
		case 'h':
			fputs(record_help, stdout);
			ret = 0;
			goto out;
		default:
			fputs(record_help, stderr);
			goto usage;
		}
	}
	r->chunk = malloc(CHUNK);
	if (!r->chunk)
		goto out;
	if (configure(r->dir, events, mode, kb, triggers, nr_triggers))
		goto out;
	r->f = fopen(r->out, "w");
	if (!r->f) {
		fprintf(stderr, "ktrace record: %s: %s\n", r->out, strerror(errno));
		goto out;
	}
	if (fwrite(&h, sizeof(h), 1, r->f) != 1)
		goto out;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	if (ctl_write(r->dir, "enable", "1"))
		goto out;
	/* The relay files exist once the buffers are allocated, at the start. */
	if (!open_streams(r)) {
		fprintf(stderr, "ktrace record: no relay files under %s/high\n", r->dir);
		goto stop;
	}
	if (optind < argc) {
		child = fork();
		if (child == 0) {
			execvp(argv[optind], argv + optind);
			fprintf(stderr, "ktrace record: %s: %s\n", argv[optind], strerror(errno));
			_exit(127);
		}
		if (child < 0) {
			fprintf(stderr, "ktrace record: fork: %s\n", strerror(errno));
			goto stop;
		}
	}
	while (!__atomic_load_n(&interrupted, __ATOMIC_RELAXED)) {
		if (drain(r))
			goto stop;
		if (child > 0 && waitpid(child, &status, WNOHANG) == child) {
			child = -1;
			if (!wait_stop)
				break;
		}
		if (wait_stop && !tracing(r->dir))
			break;
		if (!wait_stop && child < 0 && optind < argc)
			break;
		if (time(NULL) != last) {
			last = time(NULL);
			open_streams(r);
			if (tty)
				progress(r);
		}
		poll(NULL, 0, 100);
	}
	ret = 0;
stop:
	if (ctl_write(r->dir, "enable", "0"))
		ret = 1;
	if (tty)
		fprintf(stderr, "\r\033[K");
	if (drain(r) || add_tasks(r) || add_text(r, KTF_STATS, "stats") ||
	    add_text(r, KTF_COMMS, "comms") || add_text(r, KTF_TRIGGERS, "triggers"))
		ret = 1;
	if (!uname(&u)) {
		snprintf(text, sizeof(text), "%s %s %s %s %s\n", u.sysname, u.nodename,
			 u.release, u.version, u.machine);
		if (section(r, KTF_UNAME, 0, 0, text, strlen(text)))
			ret = 1;
	}
	if (fclose(r->f)) {
		fprintf(stderr, "ktrace record: %s: %s\n", r->out, strerror(errno));
		ret = 1;
	}
	r->f = NULL;
	/* The symbols of its kernel addresses, or none of them with hide. */
	if (!ret && kt_symbols_save(r->out, hide)) {
		ret = 1;
		if (hide)
			unlink(r->out);
	}
	if (!ret)
		fprintf(stderr, "ktrace record: %llu bytes of trace in %s\n", r->bytes, r->out);
	if (child > 0)
		waitpid(child, &status, 0);
	for (ch = 0; ch < KTRACE_NR_CHANNELS; ch++)
		for (cpu = 0; cpu < r->nr_cpus; cpu++)
			if (r->fds[ch][cpu] >= 0)
				close(r->fds[ch][cpu]);
	goto out;
usage:
	ret = EXIT_USAGE;
out:
	if (r->f)
		fclose(r->f);
	free(r->chunk);
	free(triggers);
	free(r);
	return ret;
}
