// SPDX-License-Identifier: GPL-2.0
/*
 * ktrace: control ktrace and read its traces.
 *
 * Exit status: 0 on success (and for --help), 1 when the command failed,
 * 2 for a usage error.  Help goes to stdout, everything else to stderr.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace.h"

#define KTRACE_DEFAULT_DIR	"/sys/kernel/debug/ktrace"
#define EXIT_USAGE		2
#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))

struct cmd {
	const char *name;
	int (*func)(int argc, char **argv);
	const char *summary;
};

static const char *ktrace_dir(void)
{
	const char *dir = getenv("KTRACE_DIR");

	return dir && *dir ? dir : KTRACE_DEFAULT_DIR;
}

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

static int cmd_status(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *dir = ktrace_dir();
	char enable[64];
	int c;

	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'h':
			printf("usage: ktrace status\n\n"
			       "Show whether ktrace is tracing.  The control directory is\n"
			       "$KTRACE_DIR, by default %s.\n", KTRACE_DEFAULT_DIR);
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
	if (read_ctl(dir, "enable", enable, sizeof(enable)))
		return 1;
	if (strcmp(enable, "0") && strcmp(enable, "1")) {
		fprintf(stderr, "ktrace: %s/enable: unexpected content '%s'\n",
			dir, enable);
		return 1;
	}
	printf("tracing: %s\n", enable[0] == '1' ? "on" : "off");
	return 0;
}

static const struct cmd cmds[] = {
	{ "record", kt_record, "record a trace to a file" },
	{ "report", cmd_report, "print the events of a trace file" },
	{ "stat", cmd_stat, "summarize a trace file" },
	{ "status", cmd_status, "show whether ktrace is tracing" },
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

int main(int argc, char **argv)
{
	size_t i;

	if (argc < 2) {
		print_help(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
	    !strcmp(argv[1], "help")) {
		print_help(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("ktrace 0.1\n");
		return 0;
	}
	for (i = 0; i < ARRAY_SIZE(cmds); i++) {
		if (!strcmp(argv[1], cmds[i].name))
			return cmds[i].func(argc - 1, argv + 1);
	}
	fprintf(stderr, "ktrace: unknown command '%s'\n", argv[1]);
	print_help(stderr);
	return EXIT_USAGE;
}
