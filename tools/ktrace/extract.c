// SPDX-License-Identifier: GPL-2.0
/*
 * tools/ktrace: ktrace extract.
 *
 * extract saves what the buffers of /sys/kernel/debug/ktrace (or
 * $KTRACE_DIR) hold now (without --stop, it writes no control file):
 * every channel and CPU stream read until it is empty, then what a
 * decoder elsewhere needs: the tasks alive (pid and name), the kernel's
 * saved comms, uname, the stats, the triggers and the kernel symbols of
 * its addresses (symbols.c), or none of its addresses at all.  It is how
 * a flight recorder a trigger froze is saved: its history is read whole,
 * and tracing is not restarted.  The file is written by the recorder
 * (record.c).
 *
 * --last-boot saves instead the trace of the previous boot that the
 * kernel recovered from its persistent region (last_boot/: the same
 * stream files, and info), and --vmcore FILE the trace left in the
 * memory of a crashed kernel (vmcore.c): neither touches the current
 * trace.  The old kernel's addresses resolve against the running one's
 * kallsyms if it is the same build, moved by the difference of the two
 * _text (KASLR); else against --kallsyms FILE ($KTRACE_KALLSYMS), a
 * System.map of that build, or not at all.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "record.h"

static const char extract_help[] =
	"usage: ktrace extract [-o FILE] [--stop] [--no-kernel-addresses] [-z[LEVEL]]\n"
	"       ktrace extract --last-boot [-o FILE] [--kallsyms FILE] [...]\n"
	"       ktrace extract --vmcore VMCORE [-o FILE] [--kallsyms FILE] [...]\n"
	"\n"
	"Save what the buffers hold now (every channel of every CPU), the tasks,\n"
	"uname, the stats, the comms and the triggers to one file; without\n"
	"--stop, it changes nothing: the way to save a flight recorder a\n"
	"trigger froze.\n"
	"A trace still tracing is refused, unless --stop.\n"
	"\n"
	"  -o, --output FILE        the trace file (default ktrace.dat; - for stdout)\n"
	"  -s, --stop               stop tracing first (echo 0 > enable)\n"
	"      --last-boot          save the previous boot's trace (last_boot/,\n"
	"                           ktrace.persist=), not the current one\n"
	"      --vmcore VMCORE      save the trace in the memory of a crashed\n"
	"                           kernel: /proc/vmcore, or an ELF vmcore file\n"
	"      --kallsyms FILE      the old kernel's symbols (System.map or\n"
	"                           kallsyms of its build) for those two\n"
	"      --no-kernel-addresses\n"
	"                           save no kernel addresses at all (symbols\n"
	"                           instead), for traces posted publicly\n"
	"  -z, --compress[=LEVEL]   compress the file with zstd, LEVEL 1 to 19\n"
	"                           (default 3; 19: smallest, slowest)\n"
	"  -h, --help               this help\n"
	"\n"
	"The control directory is $KTRACE_DIR, by default /sys/kernel/debug/ktrace.\n";

struct extract_args {
	bool stop, hide, last_boot;
	const char *vmcore, *kallsyms;
};

/* The value of the line "KEY: VALUE" of an info text, in @buf; NULL if none. */
static const char *info_value(const char *info, const char *key, char *buf, size_t size)
{
	size_t klen = strlen(key), len;
	const char *p;

	for (p = info; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
		if (strncmp(p, key, klen) || p[klen] != ':' || p[klen + 1] != ' ')
			continue;
		p += klen + 2;
		len = strcspn(p, "\n");
		if (len >= size)
			len = size - 1;
		memcpy(buf, p, len);
		buf[len] = '\0';
		return buf;
	}
	return NULL;
}

void crash_info_totals(const char *info, unsigned long long *kept,
		       unsigned long long *events, unsigned long long *lost)
{
	const char *p;
	unsigned long long v;

	*kept = *events = *lost = 0;
	for (p = info; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
		const char *e = p + strcspn(p, "\n"), *f;

		if (strncmp(p, "buf ", 4))
			continue;
		f = strstr(p, " kept=");
		if (f && f < e && sscanf(f + 6, "%llu", &v) == 1)
			*kept += v;
		f = strstr(p, " events=");
		if (f && f < e && sscanf(f + 8, "%llu", &v) == 1)
			*events += v;
		f = strstr(p, " lost=");
		if (f && f < e && sscanf(f + 6, "%llu", &v) == 1)
			*lost += v;
	}
}

/*
 * The symbols of the old kernel: the running kernel's kallsyms if it is
 * the same build, else only the one given; moved by text_addr - its _text.
 */
static void old_symbols(const char *cmd, const char *release, const char *build,
			uint64_t text_addr, const char *kallsyms)
{
	const char *env = getenv("KTRACE_KALLSYMS");
	const char *path = kallsyms;
	struct utsname u;
	uint64_t file_text = 0;
	bool same;

	same = !uname(&u) && !strcmp(u.release, release) && !strcmp(u.version, build);
	if (!path && env && *env)
		path = env;
	if (!path && same)
		path = kt_kallsyms_default();
	if (!same && path)
		fprintf(stderr,
			"ktrace %s: the traced kernel was %s %s, not the running %s %s: its symbols from %s\n",
			cmd, release, build, u.release, u.version, path);
	else if (!same)
		fprintf(stderr,
			"ktrace %s: the traced kernel was %s %s, not the running %s %s: its addresses are left unresolved (--kallsyms FILE: the System.map of its build)\n",
			cmd, release, build, u.release, u.version);
	if (path) {
		file_text = kt_symbols_text_addr(path);
		if (!file_text || !text_addr) {
			fprintf(stderr, "ktrace %s: %s: %s: its addresses are left unresolved\n",
				cmd, path, file_text ? "the trace gives no _text address" :
				"no _text address in it");
			path = NULL;
		}
	}
	kt_symbols_source(path, path ? text_addr - file_text : 0);
}

int old_kernel(struct recorder *r, const char *release, const char *build,
	       uint64_t text_addr, const char *kallsyms, bool hide)
{
	struct utsname u;

	if (uname(&u))
		memset(&u, 0, sizeof(u));
	free(r->old_uname);
	if (asprintf(&r->old_uname, "Linux %s %s %s %s\n", *u.nodename ? u.nodename : "-",
		     *release ? release : "-", *build ? build : "-",
		     *u.machine ? u.machine : "-") < 0) {
		r->old_uname = NULL;
		return -1;
	}
	old_symbols(r->cmd, release, build, text_addr, kallsyms);
	return hide && kt_symbols_can_hide(r->cmd) ? -1 : 0;
}

/* extract --last-boot: the streams and info of last_boot/. */
static int extract_last_boot(struct recorder *r, const struct extract_args *a)
{
	char path[4096], release[128] = "", build[128] = "", text[256] = "";
	unsigned long long text_addr = 0;
	const char *dir = r->dir;

	r->old_boot = true;
	snprintf(path, sizeof(path), "%s/info", dir);
	r->old_stats = rec_slurp(path, 1 << 20);
	if (!r->old_stats) {
		fprintf(stderr,
			"ktrace extract: %s: %s: no trace of the previous boot (boot with ktrace.persist=, see ktrace(1)), or it was released\n",
			path, strerror(errno));
		return -1;
	}
	info_value(r->old_stats, "release", release, sizeof(release));
	info_value(r->old_stats, "build", build, sizeof(build));
	if (info_value(r->old_stats, "text_addr", text, sizeof(text)))
		text_addr = strtoull(text, NULL, 0);
	if (open_streams(r) <= 0) {
		fprintf(stderr, "ktrace extract: no stream files under %s: %s\n", dir,
			info_value(r->old_stats, "state", text, sizeof(text)) ?
			text : "nothing was recovered");
		return -1;
	}
	if (old_kernel(r, release, build, text_addr, a->kallsyms, a->hide) || out_resolve(r))
		return -1;
	r->cut_by_signal = true;
	catch_signals(false);
	if (out_create(r) || out_begin(r) || out_finish(r, a->hide) || out_deliver(r))
		return -1;
	return 0;
}

/* The live trace: stopped (or --stop), read whole. */
static int extract_live(struct recorder *r, const struct extract_args *a)
{
	enum kt_state st;
	int c;

	if (a->hide && kt_symbols_can_hide("extract"))
		return -1;
	if (out_resolve(r))
		return -1;
	/* A signal ends extract (what it read of the streams kept). */
	r->cut_by_signal = true;
	catch_signals(false);
	st = trace_state(r->dir);
	if (st == KT_UNKNOWN) {
		fprintf(stderr, "ktrace extract: %s/stats: no state: is ktrace there?\n", r->dir);
		return -1;
	}
	if (st == KT_TRACING && !a->stop) {
		fprintf(stderr,
			"ktrace extract: ktrace is tracing: stop it first (echo 0 > %s/enable) or use --stop: read while tracing, its history would be cut short\n",
			r->dir);
		return -1;
	}
	if (st == KT_TRACING && ctl_write(r, "enable", "0"))
		return -1;
	if (st == KT_FROZEN && wait_frozen(r->dir) == KT_FROZEN && !cut(r)) {
		fprintf(stderr,
			"ktrace extract: the trace is still frozen after %u ms: its trigger's stop has not completed\n",
			FROZEN_WAIT_MS);
		return -1;
	}
	r->stats_before = stats_counters(r->dir);
	c = open_streams(r);
	if (c < 0)
		return -1;
	if (!c) {
		fprintf(stderr,
			"ktrace extract: no stream files under %s/high: no buffers allocated?\n",
			r->dir);
		return -1;
	}
	if (out_create(r) || out_begin(r) || out_finish(r, a->hide) || out_deliver(r))
		return -1;
	return 0;
}

/* The options; 0, or EXIT_USAGE / -1 (help printed: ret 0). */
static int extract_parse(struct recorder *r, struct extract_args *a, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "stop", no_argument, NULL, 's' },
		{ "no-kernel-addresses", no_argument, NULL, 'K' },
		{ "compress", optional_argument, NULL, 'z' },
		{ "last-boot", no_argument, NULL, 'L' },
		{ "vmcore", required_argument, NULL, 'V' },
		{ "kallsyms", required_argument, NULL, 'k' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	while ((c = getopt_long(argc, argv, "o:sz::h", opts, NULL)) != -1) {
		switch (c) {
		case 'o':
			r->out = optarg;
			break;
		case 's':
			a->stop = true;
			break;
		case 'K':
			a->hide = true;
			break;
		case 'L':
			a->last_boot = true;
			break;
		case 'V':
			a->vmcore = optarg;
			break;
		case 'k':
			a->kallsyms = optarg;
			break;
		case 'z':
			if (rec_compress_opt(r, optarg))
				return EXIT_USAGE;
			break;
		case 'h':
			fputs(extract_help, stdout);
			return -1;
		default:
			fputs(extract_help, stderr);
			return EXIT_USAGE;
		}
	}
	if (optind != argc) {
		fprintf(stderr, "ktrace extract: unexpected argument '%s'\n", argv[optind]);
		return EXIT_USAGE;
	}
	if ((a->last_boot || a->vmcore) && (a->stop || (a->last_boot && a->vmcore))) {
		fprintf(stderr, "ktrace extract: %s\n", a->stop ?
			"--stop is for the current trace, not with --last-boot or --vmcore" :
			"--last-boot or --vmcore, not both");
		return EXIT_USAGE;
	}
	if (a->kallsyms && !a->last_boot && !a->vmcore) {
		fprintf(stderr, "ktrace extract: --kallsyms is for --last-boot and --vmcore\n");
		return EXIT_USAGE;
	}
	return 0;
}

int cmd_extract(int argc, char **argv)
{
	struct extract_args a = { 0 };
	char *last_boot = NULL;
	struct recorder *r;
	int ret;

	ignore_sigpipe();
	r = recorder_new("extract");
	if (!r)
		return 1;
	r->extract = true;
	ret = extract_parse(r, &a, argc, argv);
	if (ret) {
		recorder_free(r);
		return ret < 0 ? 0 : ret;
	}
	if (a.last_boot && asprintf(&last_boot, "%s/last_boot", r->dir) < 0)
		last_boot = NULL;
	if (a.last_boot) {
		r->dir = last_boot;
		ret = !last_boot || extract_last_boot(r, &a) ? 1 : 0;
	} else if (a.vmcore) {
		ret = extract_vmcore(r, a.vmcore, a.kallsyms, a.hide) ? 1 : 0;
	} else {
		ret = extract_live(r, &a) ? 1 : 0;
	}
	recorder_free(r);
	free(last_boot);
	if (sig_caught())
		ret = 128 + sig_caught();
	return ret;
}
