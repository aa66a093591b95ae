// SPDX-License-Identifier: GPL-2.0
/*
 * ktrace: control ktrace and read its traces.
 *
 * Exit status: 0 on success (and for --help), 1 when the command failed,
 * 2 for a usage error.  Help goes to stdout, everything else to stderr.
 */
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/vfs.h>

#include "trace.h"

#define KTRACE_TOOL_VERSION	"0.2"
#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))
#define DEBUGFS_MAGIC		0x64626720	/* linux/magic.h */

struct cmd {
	const char *name;
	int (*func)(int argc, char **argv);
	const char *summary;
};

/*
 * Read a small control file of the ktrace directory into @buf, trailing
 * newline removed.  Returns 0, or -1 after printing why.
 */
static int read_ctl(const char *dir, const char *file, char *buf, size_t size)
{
	char path[4096];
	size_t len;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	f = fopen(path, "r");
	if (!f) {
		fprintf(stderr, "ktrace: %s: %s\n", path, strerror(errno));
		return -1;
	}
	len = fread(buf, 1, size - 1, f);
	if (ferror(f)) {
		fprintf(stderr, "ktrace: %s: read error\n", path);
		fclose(f);
		return -1;
	}
	fclose(f);
	buf[len] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

/* A whole control file, NUL-terminated, or NULL (quietly) if it cannot be read. */
static char *read_file(const char *dir, const char *file)
{
	char path[4096], *buf = NULL;
	size_t len = 0, size = 0, n;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	f = fopen(path, "r");
	if (!f)
		return NULL;
	do {
		char *p;

		if (size - len < 4096) {
			size = size ? 2 * size : 8192;
			p = realloc(buf, size);
			if (!p) {
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = p;
		}
		n = fread(buf + len, 1, size - len - 1, f);
		len += n;
	} while (n);
	if (ferror(f)) {
		free(buf);
		buf = NULL;
	} else {
		buf[len] = '\0';
	}
	fclose(f);
	return buf;
}

/* One event of $KTRACE_DIR/events/GROUP/NAME/. */
struct ev_ent {
	char group[KTRACE_NAME_LEN + 1];
	char name[KTRACE_NAME_LEN + 1];
	bool enabled;
};

static int only_dirs(const struct dirent *d)
{
	return d->d_name[0] != '.' && (d->d_type == DT_DIR || d->d_type == DT_UNKNOWN);
}

/*
 * The events the kernel offers, sorted by group and name, with their
 * enabled state.  Returns how many, or -1 after saying why on stderr.
 */
static int read_events(const char *cmd, const char *dir, struct ev_ent **evs)
{
	struct dirent **groups, **names;
	char path[4096], *en;
	int nr_groups, nr_names, i, j, n = 0;

	*evs = NULL;
	snprintf(path, sizeof(path), "%s/events", dir);
	nr_groups = scandir(path, &groups, only_dirs, alphasort);
	if (nr_groups < 0) {
		fprintf(stderr, "ktrace %s: %s: %s\n", cmd, path, strerror(errno));
		return -1;
	}
	for (i = 0; i < nr_groups; i++) {
		snprintf(path, sizeof(path), "%s/events/%s", dir, groups[i]->d_name);
		nr_names = scandir(path, &names, only_dirs, alphasort);
		for (j = 0; j < nr_names; j++) {
			struct ev_ent *e = realloc(*evs, (n + 1) * sizeof(*e));

			if (e) {
				*evs = e;
				e += n++;
				snprintf(e->group, sizeof(e->group), "%.*s", KTRACE_NAME_LEN,
					 groups[i]->d_name);
				snprintf(e->name, sizeof(e->name), "%.*s", KTRACE_NAME_LEN,
					 names[j]->d_name);
				snprintf(path, sizeof(path), "events/%s/%s/enable", e->group,
					 e->name);
				en = read_file(dir, path);
				e->enabled = en && en[0] == '1';
				free(en);
			}
			free(names[j]);
		}
		if (nr_names >= 0)
			free(names);
		free(groups[i]);
	}
	free(groups);
	return n;
}

/*
 * The fields of an event's format file, "field: NAME offset=O size=S
 * display=D [signed] [kaddr] [values=V:NAME,...]": the name, size with
 * its unit (bits of a compact event's payload, bytes of an expanded one)
 * and display, then every attribute after the display, as the file has it.
 */
static void print_fields(const char *dir, const struct ev_ent *e)
{
	char path[256], *fmt, *line, *save = NULL;
	bool compact;

	snprintf(path, sizeof(path), "events/%s/%s/format", e->group, e->name);
	fmt = read_file(dir, path);
	/* A compact event's fields are bits of its 32-bit payload. */
	compact = fmt && strstr(fmt, "\nkind: compact\n");
	for (line = fmt ? strtok_r(fmt, "\n", &save) : NULL; line;
	     line = strtok_r(NULL, "\n", &save)) {
		char name[KTRACE_NAME_LEN + 1], display[16];
		unsigned int off, size;
		int used = 0;

		if (sscanf(line, "field: %32s offset=%u size=%u display=%15s%n", name, &off,
			   &size, display, &used) != 4 || !used)
			continue;
		printf("    %s size=%u%s display=%s%s\n", name, size, compact ? "bits" : "bytes",
		       display, line + used);
	}
	free(fmt);
}

/*
 * Why the control directory @dir cannot be read, after the error naming
 * it: debugfs not mounted, a kernel without ktrace, not root.
 */
static void why_no_dir(const char *cmd, const char *dir)
{
	char parent[4096], *slash;
	struct statfs sf;
	struct stat st;

	if (access(dir, X_OK) && errno == EACCES) {
		fprintf(stderr, "ktrace %s: %s: debugfs is root's only: run ktrace as root\n",
			cmd, dir);
		return;
	}
	snprintf(parent, sizeof(parent), "%s", dir);
	slash = strrchr(parent, '/');
	if (!stat(dir, &st) || !slash || slash == parent)
		return;
	*slash = '\0';
	if (!statfs(parent, &sf) && sf.f_type == DEBUGFS_MAGIC)
		fprintf(stderr,
			"ktrace %s: debugfs is mounted on %s, without ktrace: this kernel is built without CONFIG_KTRACE (or the ktrace patches)\n",
			cmd, parent);
	else if (!strcmp(dir, KT_DEFAULT_DIR))
		fprintf(stderr,
			"ktrace %s: debugfs is not mounted on %s: mount -t debugfs none %s\n",
			cmd, parent, parent);
	else
		fprintf(stderr, "ktrace %s: no control directory %s (KTRACE_DIR)\n", cmd, dir);
}

static int cmd_list(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *dir = kt_dir();
	bool verbose = false;
	struct ev_ent *evs;
	int c, i, n;

	while ((c = getopt_long(argc, argv, "vh", opts, NULL)) != -1) {
		switch (c) {
		case 'v':
			verbose = true;
			break;
		case 'h':
			printf("usage: ktrace list [-v]\n\n"
			       "List the events the running kernel offers, GROUP:NAME with their\n"
			       "state ([enabled] or [disabled]), from $KTRACE_DIR/events/ (by\n"
			       "default %s/events/).\n\n"
			       "  -v, --verbose        their fields too: name, size (in bits for\n"
			       "                       compact events, in bytes for expanded ones;\n"
			       "                       0 bytes: to the end of the payload), display\n"
			       "                       and the attributes (signed, kaddr, values=...)\n"
			       "  -h, --help           this help\n", KT_DEFAULT_DIR);
			return 0;
		default:
			return EXIT_USAGE;
		}
	}
	if (optind != argc) {
		fprintf(stderr, "ktrace list: unexpected argument '%s'\n", argv[optind]);
		return EXIT_USAGE;
	}
	n = read_events("list", dir, &evs);
	if (n < 0) {
		why_no_dir("list", dir);
		return 1;
	}
	for (i = 0; i < n; i++) {
		printf("%s:%s [%s]\n", evs[i].group, evs[i].name,
		       evs[i].enabled ? "enabled" : "disabled");
		if (verbose)
			print_fields(dir, &evs[i]);
	}
	free(evs);
	return fflush(stdout) ? 1 : 0;
}

/* status -v: per group, how many events are enabled. */
static void status_events(const char *dir)
{
	struct ev_ent *evs;
	int i, j, n, on = 0;

	n = read_events("status", dir, &evs);
	if (n < 0)
		return;
	for (i = 0; i < n; i++)
		on += evs[i].enabled;
	printf("events: %d of %d enabled\n", on, n);
	for (i = 0; i < n; i = j) {
		int group_on = 0;

		for (j = i; j < n && !strcmp(evs[j].group, evs[i].group); j++)
			group_on += evs[j].enabled;
		printf("  %s: %d of %d\n", evs[i].group, group_on, j - i);
	}
	free(evs);
}

/*
 * status -v: the state line of stats, the mode, the buffer size, the
 * events, the armed triggers, and per CPU and channel the events lost.
 * A control file this kernel does not have leaves its line out.
 */
static void status_verbose(const char *dir)
{
	char *stats = read_file(dir, "stats"), *mode = read_file(dir, "mode");
	char *kb = read_file(dir, "buffer_size_kb"), *trig = read_file(dir, "triggers");
	char *line, *save = NULL, *p, *q;
	bool any = false;

	if (stats && !strncmp(stats, "state ", 6))
		printf("state: %.*s\n", (int)strcspn(stats + 6, "\n"), stats + 6);
	p = mode ? strchr(mode, '[') : NULL;
	q = p ? strchr(p, ']') : NULL;
	if (q)
		printf("mode: %.*s\n", (int)(q - p - 1), p + 1);
	if (kb)
		printf("buffer: %.*s KiB per CPU\n", (int)strcspn(kb, "\n"), kb);
	status_events(dir);
	if (trig) {
		printf("triggers:%s\n", *trig ? "" : " none");
		for (line = strtok_r(trig, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
			printf("  %s\n", line);
	}
	for (line = stats ? strtok_r(stats, "\n", &save) : NULL; line;
	     line = strtok_r(NULL, "\n", &save)) {
		unsigned long long dropped, overwritten;
		char ch[16];
		unsigned int cpu;

		if (strncmp(line, "cpu", 3))
			continue;
		p = strstr(line, " dropped=");
		q = strstr(line, " overwritten=");
		if (sscanf(line, "cpu%u %15s", &cpu, ch) != 2 || !p || !q ||
		    sscanf(p, " dropped=%llu", &dropped) != 1 ||
		    sscanf(q, " overwritten=%llu", &overwritten) != 1)
			continue;
		if (!any)
			printf("losses:\n");
		any = true;
		printf("  cpu%u %s: dropped=%llu overwritten=%llu\n", cpu, ch, dropped,
		       overwritten);
	}
	free(stats);
	free(mode);
	free(kb);
	free(trig);
}

static int cmd_status(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *dir = kt_dir();
	bool verbose = false;
	char enable[64];
	int c;

	while ((c = getopt_long(argc, argv, "vh", opts, NULL)) != -1) {
		switch (c) {
		case 'v':
			verbose = true;
			break;
		case 'h':
			printf("usage: ktrace status [-v]\n\n"
			       "Show whether ktrace is tracing.  The control directory is\n"
			       "$KTRACE_DIR, by default %s.\n\n"
			       "  -v, --verbose        the state, mode, buffer size, events enabled\n"
			       "                       per group, armed triggers and their counts,\n"
			       "                       and the events lost per CPU and channel\n"
			       "  -h, --help           this help\n", KT_DEFAULT_DIR);
			return 0;
		default:
			return EXIT_USAGE;
		}
	}
	if (optind != argc) {
		fprintf(stderr, "ktrace status: unexpected argument '%s'\n",
			argv[optind]);
		return EXIT_USAGE;
	}
	if (read_ctl(dir, "enable", enable, sizeof(enable))) {
		why_no_dir("status", dir);
		return 1;
	}
	if (strcmp(enable, "0") && strcmp(enable, "1")) {
		fprintf(stderr, "ktrace: %s/enable: unexpected content '%s'\n",
			dir, enable);
		return 1;
	}
	printf("tracing: %s\n", enable[0] == '1' ? "on" : "off");
	if (verbose)
		status_verbose(dir);
	return fflush(stdout) ? 1 : 0;
}

static const struct cmd cmds[] = {
	{ "extract", cmd_extract, "save what the buffers hold to a file" },
	{ "record", cmd_record, "record a trace to a file" },
	{ "report", cmd_report, "print the events of a trace file" },
	{ "stat", cmd_stat, "summarize a trace file" },
	{ "latency", cmd_latency, "time pairs of events: block, syscall, wakeup, irq, ..." },
	{ "io", cmd_io, "block I/O per process over time windows" },
	{ "profile", cmd_profile, "run, wait, sleep and system call times per task" },
	{ "reclaim", cmd_reclaim, "memory reclaim passes per task, and OOM kills" },
	{ "convert", cmd_convert, "convert trace files to CTF (babeltrace2, Trace Compass)" },
	{ "slice", cmd_slice, "write a time window of a trace as a trace file" },
	{ "status", cmd_status, "show whether ktrace is tracing" },
	{ "list", cmd_list, "list the events of the running kernel" },
	{ "help", NULL, "help on a command: ktrace help COMMAND" },
};

static void print_help(FILE *out)
{
	size_t i;

	fprintf(out, "usage: ktrace [--help] [--version] COMMAND [ARGS]\n\n"
		"Commands:\n");
	for (i = 0; i < ARRAY_SIZE(cmds); i++)
		fprintf(out, "  %-10s %s\n", cmds[i].name, cmds[i].summary);
	fprintf(out, "\nSee 'ktrace COMMAND --help' for the options of a command.\n");
}

static const struct cmd *find_cmd(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cmds); i++)
		if (cmds[i].func && !strcmp(name, cmds[i].name))
			return &cmds[i];
	return NULL;
}

int main(int argc, char **argv)
{
	const struct cmd *cmd;

	if (argc < 2) {
		print_help(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
	    (!strcmp(argv[1], "help") && (argc == 2 || !strcmp(argv[2], "help")))) {
		print_help(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("ktrace %s (trace files of format %u, records of formats %u to %u)\n",
		       KTRACE_TOOL_VERSION, KTF_VERSION, KTRACE_FORMAT_VERSION_MIN,
		       KTRACE_FORMAT_VERSION);
		return 0;
	}
	if (!strcmp(argv[1], "help")) {
		/* ktrace help CMD: ktrace CMD --help */
		char help[] = "--help", *args[] = { argv[2], help, NULL };

		if (argc > 3) {
			fprintf(stderr, "ktrace help: one command only\n");
			return EXIT_USAGE;
		}
		cmd = find_cmd(argv[2]);
		if (cmd)
			return cmd->func(2, args);
		fprintf(stderr, "ktrace help: unknown command '%s'\n", argv[2]);
		return EXIT_USAGE;
	}
	cmd = find_cmd(argv[1]);
	if (cmd)
		return cmd->func(argc - 1, argv + 1);
	fprintf(stderr, "ktrace: unknown command '%s'\n", argv[1]);
	print_help(stderr);
	return EXIT_USAGE;
}
