// SPDX-License-Identifier: GPL-2.0
/*
 * ktrace: the traces of several machines of a cluster group on one time
 * base, from the ktrace:cluster records of their messages
 * (Documentation/trace/ktrace.rst, "Cluster"), better than CLOCK_REALTIME
 * alone, which is only as good as NTP.
 *
 * Every trace after the first is aligned on the first.  With y the first
 * trace's CLOCK_REALTIME of a message minus the other's, for the same
 * message (same origin id and sequence number):
 *
 *   - both received it (a third machine's beacon): y is the offset, up
 *     to the difference of the two receptions (reference-broadcast
 *     synchronisation, Elson et al. 2002);
 *   - one sent it, the other received it: y is the offset minus or plus
 *     the one-way delay, a lower bound if the first sent, an upper bound
 *     if the other did (the two-way exchange NTP makes).
 *
 * The offset is fitted as a line of the other trace's CLOCK_REALTIME, a +
 * b (x - x0), by two-way bounds when there are both kinds (they bound the
 * offset whatever the delays), else by reference broadcasts (whose error
 * is a spread, not a bound: a receiver always later than the other
 * biases them unseen).  Two-way: the lines that pass above every lower
 * bound and below every upper one with a drift of at most CL_DRIFT_MAX
 * (crystal clocks are within about 100 ppm) are the convex hull's; at
 * each end of the other trace the highest and the lowest of them give an
 * interval, and the line kept goes through the middles of the two, the
 * error the larger half width: a bound over the whole trace, if the
 * clocks are linear against each other and drift no more than that.
 * Bounds no such line passes (a clock stepped, or not linear) are
 * "crossed": a least-squares line through the middle of the tightest
 * lower and upper bound of each of CL_WINDOWS windows of time, moved to
 * the middle of the band the bounds allow along it, the error what the
 * worst message is off by.  Reference broadcasts (three or more): least
 * squares, the error the largest residual, scaled by how far the trace's
 * ends are from the samples' middle; samples spanning less than
 * CL_MIN_SPAN give no drift, an offset only, and the error grows by
 * CL_DRIFT_MAX from them to the trace's ends (so do the crossed bounds'
 * windows).  A trace with no shared
 * message stays on CLOCK_REALTIME.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace.h"

/* A ktrace:cluster record. */
struct cl_rec {
	int64_t real;		/* CLOCK_REALTIME, --offset included, not aligned */
	uint64_t seq;
	uint32_t id;
	uint8_t dir;		/* 0 received, 1 sent */
};

struct cl_list {
	struct cl_rec *v;
	size_t n, cap;
	/* The CLOCK_REALTIME of the trace's first and last record. */
	int64_t first, last;
	bool any, oom;
};

/* Two-way: a bound, at x. */
struct cl_pt {
	double x, y;
};

/* The samples of one pair of traces, by kind. */
enum { CL_RBS, CL_LOWER, CL_UPPER, CL_NR_KINDS };

#define CL_WINDOWS	8
/* The largest drift of one clock against another (500 ppm): crystals are within 100. */
#define CL_DRIFT_MAX	0.0005
/* The least span of samples (ns) for a drift; below it, an offset only. */
#define CL_MIN_SPAN	2e9

/*
 * A fit: y = y0 + a + b (x - x0), y the reference's CLOCK_REALTIME minus
 * the other's, x the other's; y0 and x0 integers, so that the doubles
 * hold only differences (CLOCK_REALTIME is 1.7e18 ns: 256 ns apart in a
 * double).
 */
struct cl_fit {
	double a, b, err;
	/* Two-way: the highest lower bound and the lowest upper one, from the line. */
	double lo_max, hi_min;
	/* The samples' span of x, and per window of it the tightest bounds (two-way). */
	double xmin, xmax;
	/* The other trace's span of x. */
	double tmin, tmax;
	double lo[CL_WINDOWS], hi[CL_WINDOWS];
	int64_t x0, y0;
	size_t n[CL_NR_KINDS];
	/* Two-way: the lower and the upper bounds (within cl_fit_by() only). */
	struct cl_pt *lv, *hv;
	size_t nl, nh;
	const char *how;
};

static bool is_cluster(const struct kt_record *r)
{
	return r->event && !strcmp(r->event->group, "ktrace") &&
	       !strcmp(r->event->name, "cluster");
}

/* The number in field @name of @r, or 0 (align.c goes with trace.c alone). */
static uint64_t cl_field(const struct kt_record *r, const char *name)
{
	unsigned int i;
	uint64_t v;

	for (i = 0; i < r->event->nr_fields; i++)
		if (!strcmp(r->event->fields[i].name, name))
			return kt_field_raw(&r->event->fields[i], r, &v) ? v : 0;
	return 0;
}

/* Whether @t's metadata has ktrace:cluster. */
static bool cl_has_event(const struct kt_trace *t)
{
	unsigned int i, j;

	for (i = 0; i < 256; i++)
		for (j = 0; j < 256; j++)
			if (t->expanded[i][j] && !strcmp(t->expanded[i][j]->group, "ktrace") &&
			    !strcmp(t->expanded[i][j]->name, "cluster"))
				return true;
	return false;
}

/* kt_merge(): gather the ktrace:cluster records. */
static int cl_collect(struct kt_trace *t, const struct kt_record *r, void *arg)
{
	struct cl_list *l = arg;
	int64_t real = kt_real_ns(t, r->ns);
	struct cl_rec *c;

	if (!l->any || real < l->first)
		l->first = real;
	if (!l->any || real > l->last)
		l->last = real;
	l->any = true;
	if (!is_cluster(r))
		return 0;
	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 256;

		c = realloc(l->v, cap * sizeof(*c));
		if (!c) {
			l->oom = true;
			return -1;
		}
		l->v = c;
		l->cap = cap;
	}
	c = &l->v[l->n++];
	c->real = real;
	c->seq = cl_field(r, "seq");
	c->id = cl_field(r, "id");
	c->dir = cl_field(r, "dir");
	return 0;
}

static int cl_cmp(const void *pa, const void *pb)
{
	const struct cl_rec *a = pa, *b = pb;

	if (a->id != b->id)
		return a->id < b->id ? -1 : 1;
	if (a->seq != b->seq)
		return a->seq < b->seq ? -1 : 1;
	return (int)a->dir - (int)b->dir;
}

/* Below this spread of x (ns^2), all samples are at one time: no slope. */
#define CL_MIN_VARX	0.001

/* Sums for least squares of y = a + b x, x centred. */
struct cl_sums {
	double n, x, y, xx, xy;
};

static void cl_add(struct cl_sums *s, double x, double y)
{
	s->n++;
	s->x += x;
	s->y += y;
	s->xx += x * x;
	s->xy += x * y;
}

/*
 * Least squares of y = a + b x; with too few points, all at one x, or
 * @slope false, b = 0; b within CL_DRIFT_MAX.
 */
static void cl_solve(const struct cl_sums *s, struct cl_fit *f, bool slope)
{
	double varx = s->xx - s->x * s->x / s->n;

	f->b = 0;
	if (slope && s->n >= 3 && varx > CL_MIN_VARX)
		f->b = (s->xy - s->x * s->y / s->n) / varx;
	if (f->b > CL_DRIFT_MAX)
		f->b = CL_DRIFT_MAX;
	if (f->b < -CL_DRIFT_MAX)
		f->b = -CL_DRIFT_MAX;
	f->a = (s->y - f->b * s->x) / s->n;
}

/* What a pass over the samples does. */
enum { CL_FIRST, CL_SUM, CL_POINTS, CL_WINDOW, CL_RESIDUAL };

/* One sample, as the pass wants it. */
static void cl_sample(struct cl_fit *f, struct cl_sums *s, int mode, int kind,
		      double x, double y)
{
	double res;
	int w;

	switch (mode) {
	case CL_SUM:
		f->n[kind]++;
		cl_add(s, x, y);
		if (x < f->xmin)
			f->xmin = x;
		if (x > f->xmax)
			f->xmax = x;
		return;
	case CL_POINTS:
		if (kind == CL_LOWER)
			f->lv[f->nl++] = (struct cl_pt){ x, y };
		if (kind == CL_UPPER)
			f->hv[f->nh++] = (struct cl_pt){ x, y };
		return;
	case CL_WINDOW:
		w = (int)((x - f->xmin) * CL_WINDOWS / (f->xmax - f->xmin + 1));
		if (w < 0 || w >= CL_WINDOWS)
			return;
		if (kind == CL_LOWER && y > f->lo[w])
			f->lo[w] = y;
		if (kind == CL_UPPER && y < f->hi[w])
			f->hi[w] = y;
		return;
	}
	res = y - (f->a + f->b * x);
	if (kind == CL_LOWER && res > f->lo_max)
		f->lo_max = res;
	if (kind == CL_UPPER && res < f->hi_min)
		f->hi_min = res;
	if (res < 0)
		res = -res;
	if (res > f->err)
		f->err = res;
}

/* A pass over the samples of trace j against the reference r. */
static void cl_samples(const struct cl_list *r, const struct cl_list *j, bool rbs,
		       struct cl_sums *s, struct cl_fit *f, int mode)
{
	size_t i;

	for (i = 0; i < j->n; i++) {
		const struct cl_rec *b = &j->v[i], *a;
		struct cl_rec key = *b;
		bool is_rbs;
		int kind;

		/* The reference's record of the same message: received, then sent. */
		for (key.dir = 0; key.dir < 2; key.dir++) {
			a = bsearch(&key, r->v, r->n, sizeof(*r->v), cl_cmp);
			if (!a || (a->dir && b->dir))
				continue;
			kind = !a->dir && !b->dir ? CL_RBS : a->dir ? CL_LOWER : CL_UPPER;
			is_rbs = kind == CL_RBS;
			if (rbs != is_rbs)
				continue;
			if (mode == CL_FIRST) {
				f->y0 = a->real - b->real;
				return;
			}
			cl_sample(f, s, mode, kind, (double)(b->real - f->x0),
				  (double)(a->real - b->real - f->y0));
		}
	}
}

/*
 * Two-way: a line through the middles of the tightest bounds of each
 * window of time (the messages of the smallest delays, as a convex hull
 * keeps), by least squares: the slow messages, whose delays are tens of
 * milliseconds, do not tilt it.
 */
static void cl_fit_windows(const struct cl_list *r, const struct cl_list *j, struct cl_fit *f)
{
	struct cl_sums s = { 0 };
	unsigned int w;

	for (w = 0; w < CL_WINDOWS; w++) {
		f->lo[w] = -1e30;
		f->hi[w] = 1e30;
	}
	cl_samples(r, j, false, NULL, f, CL_WINDOW);
	for (w = 0; w < CL_WINDOWS; w++)
		if (f->lo[w] > -1e30 && f->hi[w] < 1e30)
			cl_add(&s, f->xmin + (w + 0.5) * (f->xmax - f->xmin) / CL_WINDOWS,
			       (f->lo[w] + f->hi[w]) / 2);
	if (s.n) {
		cl_solve(&s, f, f->xmax - f->xmin >= CL_MIN_SPAN);
	} else {
		f->a = 0;
		f->b = 0;
	}
}

/* The lowest of the upper bounds for a line of slope @b, at @x. */
static double cl_top(const struct cl_fit *f, double b, double x)
{
	double v = 1e300;
	size_t i;

	for (i = 0; i < f->nh; i++)
		if (f->hv[i].y - b * (f->hv[i].x - x) < v)
			v = f->hv[i].y - b * (f->hv[i].x - x);
	return v;
}

/* The highest of the lower bounds for a line of slope @b, at @x. */
static double cl_bottom(const struct cl_fit *f, double b, double x)
{
	double v = -1e300;
	size_t i;

	for (i = 0; i < f->nl; i++)
		if (f->lv[i].y - b * (f->lv[i].x - x) > v)
			v = f->lv[i].y - b * (f->lv[i].x - x);
	return v;
}

/* The room between the bounds for a line of slope @b: concave in @b. */
static double cl_gap(const struct cl_fit *f, double b, double x)
{
	return cl_top(f, b, x) - cl_bottom(f, b, x);
}

static double cl_neg_bottom(const struct cl_fit *f, double b, double x)
{
	return -cl_bottom(f, b, x);
}

typedef double (*cl_fn)(const struct cl_fit *f, double b, double x);

/* The slope of [@lo, @hi] where the concave @fn is largest (golden section). */
static double cl_argmax(cl_fn fn, const struct cl_fit *f, double x, double lo, double hi)
{
	const double r = 0.6180339887498949;
	double m1 = hi - r * (hi - lo), m2 = lo + r * (hi - lo);
	double v1 = fn(f, m1, x), v2 = fn(f, m2, x);
	int i;

	for (i = 0; i < 100; i++) {
		if (v1 < v2) {
			lo = m1;
			m1 = m2;
			v1 = v2;
			m2 = lo + r * (hi - lo);
			v2 = fn(f, m2, x);
		} else {
			hi = m2;
			m2 = m1;
			v2 = v1;
			m1 = hi - r * (hi - lo);
			v1 = fn(f, m1, x);
		}
	}
	return (lo + hi) / 2;
}

/* Bisection: the slope between @in (room) and @out (none) where the room ends. */
static double cl_edge(const struct cl_fit *f, double in, double out)
{
	int i;

	if (cl_gap(f, out, 0) >= 0)
		return out;
	for (i = 0; i < 100; i++) {
		double m = (in + out) / 2;

		if (cl_gap(f, m, 0) >= 0)
			in = m;
		else
			out = m;
	}
	return in;
}

/*
 * Two-way, the convex hull: every line of slope within CL_DRIFT_MAX above
 * every lower bound and below every upper one.  At each end of the
 * trace, the highest and the lowest such line; the line kept goes
 * through the middles, the error the largest distance to those
 * lines there, hence anywhere between.  However short the samples' span,
 * the slopes are those the bounds allow, CL_DRIFT_MAX at most: the error
 * says what they do at the ends.  False if no line passes.
 */
static bool cl_hull(struct cl_fit *f)
{
	double b = cl_argmax(cl_gap, f, 0, -CL_DRIFT_MAX, CL_DRIFT_MAX);
	double blo, bhi, top[2], bot[2], x[2] = { f->tmin, f->tmax };
	int e;

	if (cl_gap(f, b, 0) < 0)
		return false;
	blo = cl_edge(f, b, -CL_DRIFT_MAX);
	bhi = cl_edge(f, b, CL_DRIFT_MAX);
	for (e = 0; e < 2; e++) {
		top[e] = cl_top(f, cl_argmax(cl_top, f, x[e], blo, bhi), x[e]);
		bot[e] = cl_bottom(f, cl_argmax(cl_neg_bottom, f, x[e], blo, bhi), x[e]);
	}
	if (x[1] - x[0] < 1) {
		double hi = top[0] > top[1] ? top[0] : top[1];
		double lo = bot[0] < bot[1] ? bot[0] : bot[1];

		f->b = 0;
		f->a = (hi + lo) / 2;
		f->err = (hi - lo) / 2;
		return true;
	}
	f->b = ((top[1] + bot[1]) - (top[0] + bot[0])) / 2 / (x[1] - x[0]);
	f->a = (top[0] + bot[0]) / 2 - f->b * x[0];
	f->err = (top[0] - bot[0] > top[1] - bot[1] ? top[0] - bot[0] : top[1] - bot[1]) / 2;
	return true;
}

/*
 * Least squares (reference broadcasts, crossed bounds): the error, the
 * largest residual at the samples, out to the trace's ends as far as a
 * slope off by twice it over the samples' span would go; an offset only,
 * by CL_DRIFT_MAX.
 */
static void cl_far_err(struct cl_fit *f)
{
	double d = f->tmax > -f->tmin ? f->tmax : -f->tmin;
	double span = f->xmax - f->xmin;

	if (f->xmax - f->xmin < CL_MIN_SPAN)
		f->err += CL_DRIFT_MAX * d;
	else if (2 * d > span)
		f->err *= 2 * d / span;
}

/* Fit by one method: reference broadcasts, or two-way; false if too few. */
static bool cl_fit_by(const struct cl_list *r, const struct cl_list *j, bool rbs,
		      struct cl_fit *f)
{
	struct cl_sums s = { 0 };
	bool crossed = true;

	memset(f, 0, sizeof(*f));
	f->x0 = j->v[0].real;
	cl_samples(r, j, rbs, NULL, f, CL_FIRST);
	f->xmin = 1e30;
	f->xmax = -1e30;
	cl_samples(r, j, rbs, &s, f, CL_SUM);
	if (rbs ? f->n[CL_RBS] < 3 : !f->n[CL_LOWER] || !f->n[CL_UPPER])
		return false;
	/* Centre x on the samples' mean, where the line's a is, and sum again. */
	f->x0 += (int64_t)(s.x / s.n);
	memset(&s, 0, sizeof(s));
	memset(f->n, 0, sizeof(f->n));
	f->xmin = 1e30;
	f->xmax = -1e30;
	cl_samples(r, j, rbs, &s, f, CL_SUM);
	f->tmin = (double)(j->first - f->x0);
	f->tmax = (double)(j->last - f->x0);
	if (f->tmin > f->xmin)
		f->tmin = f->xmin;
	if (f->tmax < f->xmax)
		f->tmax = f->xmax;
	if (rbs) {
		cl_solve(&s, f, f->xmax - f->xmin >= CL_MIN_SPAN);
		cl_samples(r, j, rbs, NULL, f, CL_RESIDUAL);
		cl_far_err(f);
		f->how = "reference broadcasts";
		return true;
	}
	f->how = "two-way bounds";
	f->lv = malloc(f->n[CL_LOWER] * sizeof(*f->lv));
	f->hv = malloc(f->n[CL_UPPER] * sizeof(*f->hv));
	if (f->lv && f->hv) {
		cl_samples(r, j, false, NULL, f, CL_POINTS);
		crossed = !cl_hull(f);
	}
	free(f->lv);
	free(f->hv);
	f->lv = NULL;
	f->hv = NULL;
	if (!crossed)
		return true;
	/*
	 * No line within the bounds (or no memory for the hull): a line
	 * through the windows' tightest bounds, moved to the middle of the
	 * band every bound allows along it; the error what the worst message
	 * is off by.
	 */
	cl_fit_windows(r, j, f);
	f->lo_max = -1e30;
	f->hi_min = 1e30;
	cl_samples(r, j, false, NULL, f, CL_RESIDUAL);
	f->a += (f->lo_max + f->hi_min) / 2;
	f->err = (f->hi_min - f->lo_max) / 2;
	if (f->err < 0) {
		f->err = -f->err;
		f->how = "two-way bounds, crossed";
	}
	cl_far_err(f);
	return true;
}

/*
 * Fit trace j's offset to the reference r: by two-way bounds if there are
 * both kinds, as they bound the offset whatever the delays, by reference
 * broadcasts only otherwise (their error is a spread, which a receiver
 * always slower than the other does not show); the other method's fit in
 * *alt, if it had enough samples.
 */
static bool cl_fit(const struct cl_list *r, const struct cl_list *j, struct cl_fit *f,
		   struct cl_fit *alt, bool *have_alt)
{
	struct cl_fit two;
	bool ok, ok2;

	*have_alt = false;
	if (!j->n || !r->n)
		return false;
	ok = cl_fit_by(r, j, true, f);
	ok2 = cl_fit_by(r, j, false, &two);
	if (ok && ok2) {
		*have_alt = true;
		*alt = *f;
	}
	if (ok2) {
		*f = two;
		ok = true;
	}
	return ok;
}

/* @f's offset at x0, in ns: y0 + a, rounded. */
static int64_t cl_offset(const struct cl_fit *f)
{
	return f->y0 + (int64_t)(f->a + (f->a < 0 ? -0.5 : 0.5));
}

/* "+S.NNNNNNNNN" of @ns in @buf. */
static const char *cl_secs(char *buf, size_t size, int64_t ns)
{
	uint64_t u = ns < 0 ? -(uint64_t)ns : (uint64_t)ns;

	snprintf(buf, size, "%c%llu.%09llu", ns < 0 ? '-' : '+',
		 (unsigned long long)(u / 1000000000), (unsigned long long)(u % 1000000000));
	return buf;
}

static void cl_print(const char *cmd, const struct kt_trace *r, const struct kt_trace *t,
		     const struct cl_fit *f, bool ok)
{
	char off[32];

	if (!ok) {
		fprintf(stderr,
			"ktrace %s: %s (%s) and %s (%s): no cluster message in both: CLOCK_REALTIME as it is\n",
			cmd, t->host, t->path, r->host, r->path);
		return;
	}
	fprintf(stderr,
		"ktrace %s: %s (%s) on %s (%s): offset %s s, drift %+.3f ppm, error %.3f us (%s: %zu",
		cmd, t->host, t->path, r->host, r->path,
		cl_secs(off, sizeof(off), cl_offset(f)), f->b * 1e6 + 0.0,
		f->err / 1e3, f->how, f->n[CL_RBS] ? f->n[CL_RBS] : f->n[CL_LOWER]);
	if (!f->n[CL_RBS])
		fprintf(stderr, "+%zu", f->n[CL_UPPER]);
	fputs(")\n", stderr);
}

/**
 * kt_set_align() - align the traces of @s on the first from their cluster
 *	messages
 * @s: the traces, open, more than one
 * @cmd: the command, for messages
 *
 * Says on stderr, for each trace after the first, the offset and drift
 * applied and the error estimated, or that it has nothing to align on;
 * says nothing when no trace has ktrace:cluster records.
 *
 * Return: 0, or 1 after saying why (out of memory).
 */
int kt_set_align(struct kt_set *s, const char *cmd)
{
	struct cl_list *l = calloc(s->nr, sizeof(*l));
	bool any = false;
	unsigned int i;
	int ret = 0;

	if (!l) {
		fprintf(stderr, "ktrace %s: out of memory\n", cmd);
		return 1;
	}
	for (i = 0; i < s->nr && !ret; i++) {
		if (!cl_has_event(&s->traces[i]))
			continue;
		if (kt_merge(&s->traces[i], cl_collect, &l[i]) || l[i].oom) {
			fprintf(stderr, "ktrace %s: out of memory\n", cmd);
			ret = 1;
		}
		if (l[i].n)
			qsort(l[i].v, l[i].n, sizeof(*l[i].v), cl_cmp);
		any |= l[i].n > 0;
	}
	for (i = 1; i < s->nr && any && !ret; i++) {
		struct kt_trace *t = &s->traces[i];
		struct cl_fit f, alt;
		bool have_alt;
		char off[32];
		bool ok = cl_fit(&l[0], &l[i], &f, &alt, &have_alt);

		if (ok) {
			t->align_ns = cl_offset(&f);
			t->drift = f.b;
			t->drift_x0 = f.x0;
		}
		cl_print(cmd, &s->traces[0], t, &f, ok);
		if (have_alt)
			fprintf(stderr,
				"ktrace %s: %s by %s instead: offset %s s, drift %+.3f ppm, error %.3f us\n",
				cmd, t->host, alt.how, cl_secs(off, sizeof(off), cl_offset(&alt)),
				alt.b * 1e6 + 0.0, alt.err / 1e3);
	}
	for (i = 0; i < s->nr; i++)
		free(l[i].v);
	free(l);
	return ret;
}
