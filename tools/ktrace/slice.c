// SPDX-License-Identifier: GPL-2.0
/*
 * tools/ktrace: ktrace slice, a time window of a trace as a trace file.
 *
 * The window is --from/--to (CLOCK_MONOTONIC seconds, report's TIME
 * column), or --before/--after the first trigger record (ktrace:trigger).
 * The slice is a trace file as record writes it: every low-rate stream
 * whole (the metadata), the text sections (uname, triggers, tasks, stats,
 * symbols), and of the high and medium channels the records of the
 * window, in their subbuffers.  So that every line of the window reads as
 * in the whole trace:
 *
 *  - a subbuffer cut at its front starts with a timestamp record and with
 *    the pid of the task running at its first record kept; where records
 *    left out changed the running task, a new subbuffer (the same header)
 *    starts again with the right one;
 *  - the names learned from records before the window (fork, exec, comm,
 *    statedump) are saved in the comms section, which the reader uses
 *    after the names it learns itself;
 *  - records before the window that describe an identity or end one
 *    (KTRACE_FIELD_IDENT, KTRACE_FIELD_KEY_END fields: block devices,
 *    ...) are kept, so that the key fields of the window name what they
 *    named: report prints them, before the window.
 *
 * The slice is read by kt_open() and the records by kt_iter_next(), as
 * every command reads them: the layout of the file is theirs, not this
 * file's; it writes with kt_put_header() and kt_put_section().
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "trace.h"
#include "format.h"
#include "../../kernel/trace/ktrace/format.h"

/* One stream of the slice, being written. */
struct sl_stream {
	const struct kt_stream *s;
	unsigned char *buf;
	size_t len, cap;
	size_t header;			/* of the open subbuffer in buf */
	const unsigned char *from;	/* its subbuffer in s, NULL: none open */
	uint64_t clock;			/* of the last record put */
	int pid;			/* the running task there */
	/* The headers' numbering (renumber()). */
	const unsigned char *seen, *seen_before;	/* the source's last two read */
	const unsigned char *last;	/* the source of the last one opened */
	bool last_in;			/* opened for a record of the window */
	uint64_t seq, dropped, overwritten;	/* its numbers in the slice */
	uint64_t prev_dropped, prev_overwritten;	/* those of the one before */
};

struct slice {
	uint64_t from, to;		/* the window, CLOCK_MONOTONIC ns */
	struct sl_stream *out;
	unsigned int nr;
	char *comms;			/* the comms section of the slice */
	size_t comms_len, comms_cap;
	unsigned long long kept, described;
	bool in_window;
};

static bool put(unsigned char **buf, size_t *len, size_t *cap, const void *p, size_t n)
{
	if (*cap - *len < n) {
		size_t c = *cap ? *cap : 65536;
		unsigned char *b;

		while (c - *len < n)
			c *= 2;
		b = realloc(*buf, c);
		if (!b)
			return false;
		*buf = b;
		*cap = c;
	}
	memcpy(*buf + *len, p, n);
	*len += n;
	return true;
}

/* Close the open subbuffer of @o: its data_size. */
static void sb_close(struct sl_stream *o)
{
	struct ktrace_subbuf_header h;

	if (!o->from)
		return;
	memcpy(&h, o->buf + o->header, sizeof(h));
	h.data_size = o->len - o->header - sizeof(h);
	memcpy(o->buf + o->header, &h, sizeof(h));
	o->from = NULL;
}

/*
 * Does @r's event describe an identity, or end one?  Those before the
 * window are kept, for the keys of the window.
 */
static bool describes(const struct kt_record *r)
{
	unsigned int i;

	for (i = 0; r->event && i < r->event->nr_fields; i++)
		if (r->event->fields[i].flags & (KTRACE_FIELD_IDENT | KTRACE_FIELD_KEY_END))
			return true;
	return false;
}

/* @a - @b of a count that only grows; @a itself where it went back (a restart). */
static uint64_t grown(uint64_t a, uint64_t b)
{
	return a >= b ? a - b : a;
}

/*
 * What source subbuffer @h (at @sb) lost while it was the newest, over the
 * subbuffer read before it; all it counts for a stream's first (seq 0).
 */
static void own_losses(const struct sl_stream *o, const struct ktrace_subbuf_header *h,
		       const unsigned char *sb, uint64_t *drop, uint64_t *over)
{
	struct ktrace_subbuf_header pred;

	*drop = *over = 0;
	if (o->seen == sb && o->seen_before) {
		memcpy(&pred, o->seen_before, sizeof(pred));
		*drop = grown(h->dropped, pred.dropped);
		*over = grown(h->overwritten, pred.overwritten);
	} else if (!h->seq) {
		*drop = h->dropped;
		*over = h->overwritten;
	}
}

/*
 * The numbers of header @h, a copy of source subbuffer @sb's, for a
 * subbuffer of the slice opened for a record in the window (@in) or
 * before it.  Readers count a loss where the sequence skips, and where a
 * header's drops grew over the header before it (records dropped while
 * that subbuffer was the newest: kt_iter_next()).  So the slice numbers
 * its subbuffers on, and each one's drops grow by what the source
 * dropped while it was the newest, if that was in the window:
 *
 *  - from a source subbuffer of the window to the next, the sequence and
 *    the drops go on as in the source: a gap there is records the source
 *    lost (a sequence that went back is a gap too);
 *  - a subbuffer before the window counts no drop, and the sequence steps
 *    by one from it (the slice left out what lies between);
 *  - the first subbuffer of the window counts the drops of its own time
 *    (own_losses()), whether it is opened for the window or was opened
 *    for records before it (window_starts());
 *  - a subbuffer split again (the running task changed among records left
 *    out) steps by one; its drops belong after its last piece, so the
 *    piece before gets the drops of the subbuffer before it.
 *
 * The first subbuffer of the stream keeps the source's sequence number.
 */
static void renumber(struct sl_stream *o, struct ktrace_subbuf_header *h,
		     const unsigned char *sb, bool in)
{
	struct ktrace_subbuf_header last, piece;
	uint64_t step = 1, drop = 0, over = 0;

	if (o->last == sb) {
		memcpy(&piece, o->buf + o->header, sizeof(piece));
		piece.dropped = o->prev_dropped;
		piece.overwritten = o->prev_overwritten;
		memcpy(o->buf + o->header, &piece, sizeof(piece));
		if (in && !o->last_in) {
			own_losses(o, h, sb, &drop, &over);
			o->dropped += drop;
			o->overwritten += over;
		}
		o->seq++;
		goto out;
	}
	if (in && o->last && o->last_in) {
		memcpy(&last, o->last, sizeof(last));
		step = h->seq > last.seq ? h->seq - last.seq : 2;
		drop = grown(h->dropped, last.dropped);
		over = grown(h->overwritten, last.overwritten);
	} else if (in) {
		own_losses(o, h, sb, &drop, &over);
	}
	o->seq = o->last ? o->seq + step : h->seq;
	o->prev_dropped = o->dropped;
	o->prev_overwritten = o->overwritten;
	o->dropped += drop;
	o->overwritten += over;
out:
	h->seq = o->seq;
	h->dropped = o->dropped;
	h->overwritten = o->overwritten;
}

/*
 * The window's first record goes into the subbuffer the slice opened for
 * records before it, from the same source subbuffer @sb: that subbuffer
 * now counts the drops of @sb's own time, as renumber() would have.
 */
static void window_starts(struct sl_stream *o, const unsigned char *sb)
{
	struct ktrace_subbuf_header h, src;
	uint64_t drop, over;

	memcpy(&src, sb, sizeof(src));
	own_losses(o, &src, sb, &drop, &over);
	o->dropped += drop;
	o->overwritten += over;
	memcpy(&h, o->buf + o->header, sizeof(h));
	h.dropped = o->dropped;
	h.overwritten = o->overwritten;
	memcpy(o->buf + o->header, &h, sizeof(h));
	o->last_in = true;
}

/* Append @r to its stream of the slice; false when out of memory. */
static bool keep(struct sl_stream *o, const struct kt_record *r, bool in)
{
	unsigned char ts[sizeof(struct ktrace_timestamp)];
	const unsigned char *sb = o->s->data + r->subbuf;
	bool sets_pid = r->event && (r->event->flags & KTRACE_EVENT_PID_IS_CURRENT);
	size_t size = r->id == KTRACE_ID_EXPANDED ? KTRACE_EXPANDED_SIZE(r->length) :
			sizeof(struct ktrace_compact);

	if (in && o->from == sb && !o->last_in && (sets_pid || o->pid == r->pid))
		window_starts(o, sb);
	/* Its own subbuffer, or a new one where the running task is not its own. */
	if (o->from != sb || (!sets_pid && o->pid != r->pid)) {
		struct ktrace_subbuf_header h;

		sb_close(o);
		memcpy(&h, sb, sizeof(h));
		renumber(o, &h, sb, in);
		/* The task running when it began: a switch's previous task. */
		h.pid = sets_pid ? r->prev_pid : r->pid;
		o->header = o->len;
		o->last = sb;
		o->last_in = in;
		if (!put(&o->buf, &o->len, &o->cap, &h, sizeof(h)))
			return false;
		o->from = sb;
		o->clock = r->clock;
		ktrace_put_timestamp(ts, r->clock);
		if (!put(&o->buf, &o->len, &o->cap, ts, sizeof(ts)))
			return false;
	} else if (ktrace_clock_needs_timestamp(o->clock, r->clock) || r->clock < o->clock) {
		ktrace_put_timestamp(ts, r->clock);
		if (!put(&o->buf, &o->len, &o->cap, ts, sizeof(ts)))
			return false;
	}
	o->clock = r->clock;
	o->pid = r->pid;
	return put(&o->buf, &o->len, &o->cap, r->raw, size);
}

/*
 * One "PID COMM" line of the comms section, a control character of the
 * name as '?' (as report prints it): a newline would end the line early.
 */
static bool put_name(struct slice *sl, int pid, const char *comm)
{
	char line[40];
	int n, i;

	n = snprintf(line, sizeof(line), "%d %.16s\n", pid, comm);
	for (i = strcspn(line, " "); i < n - 1; i++)
		if ((unsigned char)line[i] < ' ' || line[i] == 0x7f)
			line[i] = '?';
	return put((unsigned char **)&sl->comms, &sl->comms_len, &sl->comms_cap, line, n);
}

/* "PID COMM" of every name the trace taught before the window, then the saved comms. */
static bool save_names(struct slice *sl, const struct kt_trace *t)
{
	unsigned int i;

	for (i = 0; t->names && i < KT_NAMES; i++)
		if (t->names[i].comm[0] && !put_name(sl, t->names[i].pid, t->names[i].comm))
			return false;
	for (i = 0; i < t->nr_comms; i++) {
		const struct kt_task *c = &t->comms[i];

		if (t->names && t->names[c->pid & (KT_NAMES - 1)].pid == c->pid &&
		    t->names[c->pid & (KT_NAMES - 1)].comm[0])
			continue;
		if (!put_name(sl, c->pid, c->comm))
			return false;
	}
	return true;
}

/* kt_merge(): each record; 1 past the window (the end), -1 out of memory. */
static int slice_one(struct kt_trace *t, const struct kt_record *r, void *arg)
{
	struct slice *sl = arg;
	struct sl_stream *o = NULL;
	unsigned int i;

	if (r->ns > sl->to)
		return 1;
	for (i = 0; i < sl->nr && !o; i++)
		if (sl->out[i].s->channel == r->channel && sl->out[i].s->cpu == r->cpu)
			o = &sl->out[i];
	/* The source's subbuffers as read: renumber() needs the one before. */
	if (o && o->s->data + r->subbuf != o->seen) {
		o->seen_before = o->seen;
		o->seen = o->s->data + r->subbuf;
	}
	if (r->ns < sl->from && !describes(r))
		return 0;
	if (r->ns >= sl->from && !sl->in_window) {
		sl->in_window = true;
		if (!save_names(sl, t))
			return -1;
	}
	if (!o)
		return 0;
	if (!keep(o, r, r->ns >= sl->from))
		return -1;
	if (r->ns >= sl->from)
		sl->kept++;
	else
		sl->described++;
	return 0;
}

/* Write the slice to @f: 0, or -1 with errno set. */
static int slice_write(FILE *f, const struct kt_trace *t, const struct slice *sl)
{
	unsigned int i;

	if (kt_put_header(f))
		return -1;
	/*
	 * The layout of trace.h: the text, the metadata (the low channel), the
	 * window's streams and the end section, which says the file is whole.
	 */
	for (i = KTF_UNAME; i <= KTF_TEXT_LAST; i++) {
		const char *text = i == KTF_COMMS ? sl->comms : t->text[i];
		size_t len = i == KTF_COMMS ? sl->comms_len : text ? strlen(text) : 0;

		if (len && kt_put_section(f, i, 0, 0, text, len))
			return -1;
	}
	for (i = 0; i < t->nr_streams; i++)
		if (t->streams[i].channel == KTRACE_CHANNEL_LOW &&
		    kt_put_section(f, KTF_STREAM, t->streams[i].channel, t->streams[i].cpu,
				   t->streams[i].data, t->streams[i].size))
			return -1;
	for (i = 0; i < sl->nr; i++)
		if (sl->out[i].len &&
		    kt_put_section(f, KTF_STREAM, sl->out[i].s->channel, sl->out[i].s->cpu,
				   sl->out[i].buf, sl->out[i].len))
			return -1;
	if (kt_put_section(f, KTF_END, 0, 0, NULL, 0))
		return -1;
	return fflush(f) || fsync(fileno(f)) ? -1 : 0;
}

/* kt_merge(): the time of the first trigger record, in *arg; 1 to stop. */
static int find_trigger(struct kt_trace *t, const struct kt_record *r, void *arg)
{
	(void)t;
	if (!kt_is_trigger(r))
		return 0;
	*(uint64_t *)arg = r->ns;
	return 1;
}

/* SECONDS[.FRACTION], as report's --from and --to; false if malformed. */
static bool parse_seconds(const char *s, uint64_t *ns)
{
	unsigned long long sec, frac = 0, scale = 1000000000;
	char *end;

	if (*s < '0' || *s > '9')
		return false;
	errno = 0;
	sec = strtoull(s, &end, 10);
	if (errno || sec > 18000000000ULL)
		return false;
	if (*end == '.') {
		for (end++; *end >= '0' && *end <= '9'; end++) {
			if (scale > 1) {
				scale /= 10;
				frac += (*end - '0') * scale;
			}
		}
	}
	*ns = sec * 1000000000 + frac;
	return !*end;
}

struct slice_args {
	const char *in, *out;
	const char *from, *to;
	int64_t before, after;		/* -1: not given */
	int level;
};

static const char slice_help[] =
	"usage: ktrace slice [--from SEC] [--to SEC] | [--before DUR] [--after DUR]\n"
	"                    [-o OUT] [-z[LEVEL]] [FILE]\n"
	"\n"
	"Write the events of a time window of a trace file (by default " DEFAULT_FILE ")\n"
	"to a trace file of their own, with the metadata, the names and the symbols:\n"
	"every command reads it as it reads the whole, and report prints the lines of\n"
	"the window as it prints them from the whole.\n"
	"\n"
	"      --from SEC       the window starts at this time (CLOCK_MONOTONIC seconds,\n"
	"                       report's TIME column; default: the first event)\n"
	"      --to SEC         the window ends at this time (default: the last event)\n"
	"      --before DUR     the window starts DUR before the first trigger record\n"
	"                       (ktrace:trigger): 10s, 500ms, ... (default 10s)\n"
	"      --after DUR      and ends DUR after it (default 1s)\n"
	"  -o, --output OUT     the slice (default ktrace-slice.dat)\n"
	"  -z, --compress[=LEVEL]\n"
	"                       compress it with zstd, LEVEL 1 to 19 (default 3)\n"
	"  -h, --help           this help\n"
	"\n"
	"Records before the window that describe what later key fields name (block\n"
	"devices, ...) are kept too: report prints them before the window.\n";

/* The options, in @a: -1 to go on, or slice's exit status. */
static int slice_parse(struct slice_args *a, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "from", required_argument, NULL, 'F' },
		{ "to", required_argument, NULL, 'T' },
		{ "before", required_argument, NULL, 'B' },
		{ "after", required_argument, NULL, 'A' },
		{ "output", required_argument, NULL, 'o' },
		{ "compress", optional_argument, NULL, 'z' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	while ((c = getopt_long(argc, argv, "o:z::h", opts, NULL)) != -1) {
		switch (c) {
		case 'F':
			a->from = optarg;
			break;
		case 'T':
			a->to = optarg;
			break;
		case 'B':
		case 'A':
			*(c == 'B' ? &a->before : &a->after) = kt_parse_duration(optarg);
			if (c == 'B' ? a->before < 0 : a->after < 0) {
				fprintf(stderr,
					"ktrace slice: bad duration '%s': want a number and ns, us, ms or s\n",
					optarg);
				return EXIT_USAGE;
			}
			break;
		case 'o':
			a->out = optarg;
			break;
		case 'z':
			if (kt_parse_level("slice", optarg, &a->level))
				return EXIT_USAGE;
			break;
		case 'h':
			fputs(slice_help, stdout);
			return 0;
		default:
			fputs(slice_help, stderr);
			return EXIT_USAGE;
		}
	}
	if (argc - optind > 1) {
		fprintf(stderr, "ktrace slice: one trace file only\n");
		return EXIT_USAGE;
	}
	a->in = optind < argc ? argv[optind] : DEFAULT_FILE;
	if ((a->from || a->to) && (a->before >= 0 || a->after >= 0)) {
		fprintf(stderr,
			"ktrace slice: --from/--to or --before/--after: a window is one or the other\n");
		return EXIT_USAGE;
	}
	if (!a->from && !a->to && a->before < 0 && a->after < 0) {
		fprintf(stderr,
			"ktrace slice: no window: give --from and --to, or --before and --after\n");
		return EXIT_USAGE;
	}
	return -1;
}

/* The window of @a in @sl, on @t: 0, or the exit status after saying why. */
static int slice_window(struct slice *sl, struct kt_trace *t, const struct slice_args *a)
{
	uint64_t trig = UINT64_MAX;

	sl->from = 0;
	sl->to = UINT64_MAX;
	if ((a->from && !parse_seconds(a->from, &sl->from)) ||
	    (a->to && !parse_seconds(a->to, &sl->to))) {
		fprintf(stderr, "ktrace slice: bad time '%s': want SECONDS[.FRACTION]\n",
			a->from && !parse_seconds(a->from, &sl->from) ? a->from : a->to);
		return EXIT_USAGE;
	}
	if (a->before >= 0 || a->after >= 0) {
		t->no_keys = true;
		if (kt_merge(t, find_trigger, &trig) < 0) {
			fprintf(stderr, "ktrace slice: %s: out of memory\n", a->in);
			return 1;
		}
		t->no_keys = false;
		if (trig == UINT64_MAX) {
			fprintf(stderr,
				"ktrace slice: %s: no trigger record (ktrace:trigger) for --before/--after: use --from/--to\n",
				a->in);
			return 1;
		}
		sl->from = trig - (a->before < 0 ? 10000000000LL : a->before);
		if (sl->from > trig)
			sl->from = 0;
		sl->to = trig + (a->after < 0 ? 1000000000LL : a->after);
		if (sl->to < trig)
			sl->to = UINT64_MAX;
	}
	if (sl->from > sl->to) {
		fprintf(stderr, "ktrace slice: --from is after --to\n");
		return EXIT_USAGE;
	}
	return 0;
}

/* Cut @t into @sl and write it to @a->out: 0 or 1 after saying why. */
static int slice_cut(struct slice *sl, struct kt_trace *t, const struct slice_args *a)
{
	char *tmp = NULL;
	unsigned int i;
	FILE *f = NULL;
	int fd;

	sl->out = calloc(t->nr_streams + 1, sizeof(*sl->out));
	if (!sl->out)
		goto oom;
	for (i = 0; i < t->nr_streams; i++)
		if (t->streams[i].channel != KTRACE_CHANNEL_LOW)
			sl->out[sl->nr++].s = &t->streams[i];
	if (kt_merge(t, slice_one, sl) < 0)
		goto oom;
	for (i = 0; i < sl->nr; i++)
		sb_close(&sl->out[i]);
	if (!sl->kept) {
		fprintf(stderr, "ktrace slice: %s: no event in the window\n", a->in);
		return 1;
	}
	if (asprintf(&tmp, "%s.XXXXXX", a->out) < 0)
		goto oom;
	fd = mkstemp(tmp);
	f = fd < 0 ? NULL : fdopen(fd, "wb");
	if (!f) {
		if (fd >= 0)
			close(fd);
		goto fail;
	}
	if (slice_write(f, t, sl) || fclose(f)) {
		f = NULL;
		goto fail_tmp;
	}
	f = NULL;
	/* mkstemp()'s 0600, as record's: a slice holds what the trace holds. */
	if ((a->level && kt_compress_file("slice", tmp, a->level) < 0) ||
	    rename(tmp, a->out))
		goto fail_tmp;
	free(tmp);
	return 0;
oom:
	fprintf(stderr, "ktrace slice: %s: out of memory\n", a->in);
	free(tmp);
	return 1;
fail_tmp:
	if (f)
		fclose(f);
	unlink(tmp);
fail:
	fprintf(stderr, "ktrace slice: %s: %s\n", tmp ? tmp : a->out, strerror(errno));
	free(tmp);
	return 1;
}

int cmd_slice(int argc, char **argv)
{
	struct slice_args a = { .out = "ktrace-slice.dat", .before = -1, .after = -1 };
	struct slice sl = { 0 };
	struct stat in, out;
	struct kt_trace t;
	unsigned int i;
	int ret;

	ret = slice_parse(&a, argc, argv);
	if (ret >= 0)
		return ret;
	if (!stat(a.in, &in) && !stat(a.out, &out) && in.st_dev == out.st_dev &&
	    in.st_ino == out.st_ino) {
		fprintf(stderr, "ktrace slice: %s: the slice would replace the trace\n", a.out);
		return EXIT_USAGE;
	}
	if (kt_open(&t, a.in))
		return 1;
	ret = slice_window(&sl, &t, &a);
	if (!ret)
		ret = slice_cut(&sl, &t, &a);
	if (!ret)
		fprintf(stderr, "ktrace slice: %llu events in %s%s",
			sl.kept, a.out, a.level ? " (zstd)" : "");
	if (!ret && sl.described)
		fprintf(stderr, ", and %llu descriptions from before the window",
			sl.described);
	if (!ret)
		fputc('\n', stderr);
	for (i = 0; i < sl.nr; i++)
		free(sl.out[i].buf);
	free(sl.out);
	free(sl.comms);
	kt_close(&t);
	return ret;
}
