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
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "record.h"

static const char extract_help[] =
	"usage: ktrace extract [-o FILE] [--stop] [--no-kernel-addresses] [-z[LEVEL]]\n"
	"\n"
	"Save what the buffers hold now (every channel of every CPU), the tasks,\n"
	"uname, the stats, the comms and the triggers to one file; without\n"
	"--stop, it changes nothing: the way to save a flight recorder a\n"
	"trigger froze.\n"
	"A trace still tracing is refused, unless --stop.\n"
	"\n"
	"  -o, --output FILE        the trace file (default ktrace.dat; - for stdout)\n"
	"  -s, --stop               stop tracing first (echo 0 > enable)\n"
	"      --no-kernel-addresses\n"
	"                           save no kernel addresses at all (symbols\n"
	"                           instead), for traces posted publicly\n"
	"  -z, --compress[=LEVEL]   compress the file with zstd, LEVEL 1 to 19\n"
	"                           (default 3; 19: smallest, slowest)\n"
	"  -h, --help               this help\n"
	"\n"
	"The control directory is $KTRACE_DIR, by default /sys/kernel/debug/ktrace.\n";

int cmd_extract(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "stop", no_argument, NULL, 's' },
		{ "no-kernel-addresses", no_argument, NULL, 'K' },
		{ "compress", optional_argument, NULL, 'z' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	bool stop = false, hide = false;
	struct recorder *r;
	enum kt_state st;
	int c, ret = 1;

	ignore_sigpipe();
	r = recorder_new("extract");
	if (!r)
		return 1;
	r->extract = true;
	while ((c = getopt_long(argc, argv, "o:sz::h", opts, NULL)) != -1) {
		switch (c) {
		case 'o':
			r->out = optarg;
			break;
		case 's':
			stop = true;
			break;
		case 'K':
			hide = true;
			break;
		case 'z':
			if (rec_compress_opt(r, optarg)) {
				ret = EXIT_USAGE;
				goto out;
			}
			break;
		case 'h':
			fputs(extract_help, stdout);
			ret = 0;
			goto out;
		default:
			fputs(extract_help, stderr);
			ret = EXIT_USAGE;
			goto out;
		}
	}
	if (optind != argc) {
		fprintf(stderr, "ktrace extract: unexpected argument '%s'\n", argv[optind]);
		ret = EXIT_USAGE;
		goto out;
	}
	if (hide && kt_symbols_can_hide("extract"))
		goto out;
	if (out_resolve(r))
		goto out;
	/* A signal ends extract (what it read of the streams kept). */
	r->cut_by_signal = true;
	catch_signals(false);
	st = trace_state(r->dir);
	if (st == KT_UNKNOWN) {
		fprintf(stderr, "ktrace extract: %s/stats: no state: is ktrace there?\n", r->dir);
		goto out;
	}
	if (st == KT_TRACING && !stop) {
		fprintf(stderr,
			"ktrace extract: ktrace is tracing: stop it first (echo 0 > %s/enable) or use --stop: read while tracing, its history would be cut short\n",
			r->dir);
		goto out;
	}
	if (st == KT_TRACING && ctl_write(r, "enable", "0"))
		goto out;
	if (st == KT_FROZEN && wait_frozen(r->dir) == KT_FROZEN && !cut(r)) {
		fprintf(stderr,
			"ktrace extract: the trace is still frozen after %u ms: its trigger's stop has not completed\n",
			FROZEN_WAIT_MS);
		goto out;
	}
	r->stats_before = stats_counters(r->dir);
	c = open_streams(r);
	if (c < 0)
		goto out;
	if (!c) {
		fprintf(stderr,
			"ktrace extract: no stream files under %s/high: no buffers allocated?\n",
			r->dir);
		goto out;
	}
	if (out_create(r) || out_begin(r) || out_finish(r, hide) || out_deliver(r))
		goto out;
	ret = 0;
out:
	recorder_free(r);
	if (sig_caught())
		ret = 128 + sig_caught();
	return ret;
}
