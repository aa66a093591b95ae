// SPDX-License-Identifier: GPL-2.0
/*
 * ktrace's write path, natively, in user space: kernel/trace/ktrace/buffer.c
 * and decode.c compiled unchanged against tools/include and the few
 * headers of include/ here, the way tools/testing/vma/ tests mm/vma.c.
 *
 *   harness stress [-s SECONDS] [-m drop|overwrite]
 *	One thread writes compact events as fast as it can; two POSIX timers
 *	firing every few microseconds interrupt it with signals whose
 *	handlers write too (compact and expanded events), the second able to
 *	interrupt the first: the nesting of task, hardirq and NMI writers,
 *	including between a reservation and its commit.  The first handler
 *	also runs the pending deliveries, as the kernel's irq_work does.  In
 *	drop mode a reader thread on another CPU consumes completed
 *	subbuffers meanwhile (ktrace_buf_read()); in overwrite mode the
 *	stopped buffer is read whole at the end.  Every subbuffer read must
 *	decode, in sequence, with each writer's events in order and clocks
 *	never going back, and the accounting must be exact: attempts =
 *	events = read + dropped + overwritten.  Exits 0 if so, 1 with the
 *	first failure otherwise.
 *
 *   harness reader-race [-s SECONDS]
 *	Overwrite mode, the same writers, deliveries run late (by up to four
 *	subbuffers of events, as behind a long IRQs-off section), and a
 *	reader on another CPU whose copies are sometimes slow enough for the
 *	writer to lap it mid-copy.  Every subbuffer the reader gets must be
 *	whole and in order (no torn or misdelivered subbuffer: each is
 *	checked as stress checks them, sequence gaps allowed), the writer
 *	must have overwritten subbuffers during their copy, and the
 *	accounting must be exact.
 *
 *   harness bench
 *	ns per compact event and per 32-byte expanded event, one thread, no
 *	signals, overwrite mode, the clock being the TSC on x86-64; the cost
 *	of reading the clock alone; and, measured in the same run, the
 *	physical limit of a per-CPU ring writer (read the TSC, reserve with
 *	a local cmpxchg, store 8 bytes) that the write path is compared
 *	with, and what each count of the write path adds to that loop.  Not
 *	a test: figures for make bench.
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>
#include <linux/relay.h>

#include "../../../kernel/trace/ktrace/buffer.h"
#include "../../../kernel/trace/ktrace/ktrace_internal.h"

#define ID_TASK		1
#define ID_SIGA		2
#define MAJOR_SIGB	3
#define SB_SIZE		4096
#define NR_SUBBUFS	8
#define SIGA		SIGRTMIN
#define SIGB		(SIGRTMIN + 1)

int harness_pid = 1;
struct ktrace_clock_info ktrace_clock = { .name = "harness" };
DEFINE_STATIC_KEY_FALSE(ktrace_clock_tsc);
DEFINE_STATIC_KEY_FALSE(ktrace_clock_emulated);

/* Never called: the emulated clock is not enabled here. */
u64 ktrace_clock_emulate(u64 mono_ns, const struct ktrace_clock_info *c)
{
	abort();
}

void relay_switch_subbuf(struct rchan_buf *buf, size_t length)
{
	abort();
}

static struct irq_work *works[4];

void init_irq_work(struct irq_work *work, void (*func)(struct irq_work *))
{
	unsigned int i;

	work->func = func;
	work->pending = 0;
	for (i = 0; i < 4; i++) {
		if (!works[i]) {
			works[i] = work;
			return;
		}
	}
	abort();
}

/* The "interrupt" that runs queued irq_work; never nested in itself. */
static void harness_irq_work_run(void)
{
	unsigned int i;

	for (i = 0; i < 4; i++) {
		if (works[i] && __atomic_exchange_n(&works[i]->pending, 0, __ATOMIC_RELAXED))
			works[i]->func(works[i]);
	}
}

void irq_work_sync(struct irq_work *work)
{
	if (__atomic_exchange_n(&work->pending, 0, __ATOMIC_RELAXED))
		work->func(work);
}

static struct ktrace_buf *buf;
static void *mem;
static int stopping;
/* Written by the one thread and its handlers; read at the end. */
static unsigned long attempts[3];
static int inside;			/* the task is between reserve and commit */
static unsigned long nested_inside;	/* handlers that ran while it was */
static unsigned long nested_deep;	/* second handler inside the first */
static int in_siga;
static int delay_deliveries;	/* reader-race: the writer runs them, late */

static void __noreturn fail(const char *what, unsigned long long a, unsigned long long b)
{
	fprintf(stderr, "harness: FAIL: %s (%llu, %llu)\n", what, a, b);
	exit(1);
}

static void write_compact(unsigned int id, u32 payload, bool task)
{
	struct ktrace_ctx ctx;
	int spin;

	/*
	 * The handlers, and every other write of the task, take the probes'
	 * path (the reservation inlined, interrupted anywhere in it); the
	 * task's other writes spin between the reservation and the commit
	 * to let the handlers in there.
	 */
	if (!task || (payload & 1)) {
		ktrace_buf_write_compact(buf, id, payload);
		if (!task)
			WRITE_ONCE(inside, 0);
		return;
	}
	if (ktrace_reserve(buf, 8, &ctx))
		return;
	if (task)
		WRITE_ONCE(inside, 1);
	ktrace_put_compact(ctx.data, id, ctx.clock, payload);
	/* Let an interrupt in between the reservation and the commit. */
	if (task)
		for (spin = 0; spin < 8; spin++)
			barrier();
	WRITE_ONCE(inside, 0);
	ktrace_commit(&ctx);
}

static void siga(int sig)
{
	WRITE_ONCE(in_siga, 1);
	if (READ_ONCE(inside))
		nested_inside++;
	write_compact(ID_SIGA, attempts[1]++, false);
	if (!delay_deliveries)
		harness_irq_work_run();
	WRITE_ONCE(in_siga, 0);
}

static void sigb(int sig)
{
	u32 payload[5] = { (u32)attempts[2]++ };
	struct ktrace_ctx ctx;

	if (READ_ONCE(inside))
		nested_inside++;
	if (READ_ONCE(in_siga))
		nested_deep++;
	if (ktrace_reserve(buf, KTRACE_EXPANDED_SIZE(sizeof(payload)), &ctx))
		return;
	ktrace_put_expanded(ctx.data, ctx.clock, MAJOR_SIGB, 0, sizeof(payload));
	memcpy(ctx.data + sizeof(struct ktrace_expanded), payload, sizeof(payload));
	ktrace_commit(&ctx);
}

/* What the reader saw. */
struct seen {
	unsigned long subbufs, events, next_seq;
	long long last[3];
	u64 last_clock;
};

/*
 * Check one subbuffer against what was seen before it: NULL if it holds
 * what the writers wrote, in order, else what is wrong with it.  With gaps,
 * subbuffers may be missing (overwrite mode), never reordered or mixed.
 */
static const char *check_subbuf_gaps(const struct ktrace_subbuf_header *h,
				     size_t len, struct seen *s, bool gaps)
{
	const void *p = h + 1;
	struct ktrace_record rec;
	struct seen next = *s;
	size_t pos = 0;
	u64 clock = 0;
	int ret;

	if (h->magic != KTRACE_MAGIC || h->data_size > SB_SIZE - sizeof(*h) ||
	    len != sizeof(*h) + h->data_size)
		return "bad subbuffer header";
	if (s->subbufs && (gaps ? h->seq < s->next_seq : h->seq != s->next_seq))
		return "subbuffer sequence";
	next.next_seq = h->seq + 1;
	next.subbufs++;
	while ((ret = ktrace_decode_record(p + pos, h->data_size - pos, &clock, &rec)) > 0) {
		long long v;
		int k;

		pos += ret;
		if (rec.clock < next.last_clock)
			return "clock went back";
		next.last_clock = rec.clock;
		if (rec.id == KTRACE_ID_TIMESTAMP)
			continue;
		if (rec.id == ID_TASK || rec.id == ID_SIGA) {
			k = rec.id == ID_TASK ? 0 : 1;
			v = rec.payload;
		} else if (rec.id == KTRACE_ID_EXPANDED && rec.major == MAJOR_SIGB &&
			   rec.length == 20) {
			u32 n;

			memcpy(&n, rec.data, 4);
			k = 2;
			v = n;
		} else {
			return "unknown record";
		}
		if (v <= next.last[k])
			return "a writer's events out of order";
		next.last[k] = v;
		next.events++;
	}
	if (ret != -ENODATA)
		return "undecodable record";
	*s = next;
	return NULL;
}

static void check_subbuf(const struct ktrace_subbuf_header *h, struct seen *s)
{
	const char *bad = check_subbuf_gaps(h, sizeof(*h) + h->data_size, s, false);

	if (bad) {
		fprintf(stderr, "harness: subbuffer %llu\n", (unsigned long long)h->seq);
		fail(bad, s->next_seq, h->seq);
	}
}

static struct seen seen = { .last = { -1, -1, -1 } };

/* Drop mode: consume completed subbuffers while the writers run. */
static void *reader(void *arg)
{
	static char copy[SB_SIZE];

	for (;;) {
		/* Stopping first: what was delivered before the stop is then seen. */
		int done = __atomic_load_n(&stopping, __ATOMIC_ACQUIRE);
		int len = ktrace_buf_read(buf, copy, sizeof(copy));

		if (len == -ENODATA) {
			if (done)
				return NULL;
			sched_yield();
			continue;
		}
		if (len < 0)
			fail("ktrace_buf_read() in drop mode", -len, 0);
		check_subbuf((void *)copy, &seen);
	}
}

static void start_timer(int sig, long ns)
{
	struct sigevent sev = { .sigev_notify = SIGEV_SIGNAL, .sigev_signo = sig };
	struct itimerspec its = { .it_interval = { 0, ns }, .it_value = { 0, ns } };
	timer_t t;

	if (timer_create(CLOCK_MONOTONIC, &sev, &t) || timer_settime(t, 0, &its, NULL)) {
		perror("harness: timer");
		exit(1);
	}
}

/*
 * The buffer, a reader thread running fn (if any) on another CPU, and the
 * two timers whose signals are this thread's nested writers.
 */
static void start_writers(bool overwrite, void *(*fn)(void *), pthread_t *rd)
{
	struct sigaction sa = { .sa_handler = siga, .sa_flags = SA_RESTART };
	sigset_t all, old;

	buf = ktrace_buf_create(mem, NULL, 0, 0, SB_SIZE, NR_SUBBUFS, overwrite);
	if (IS_ERR(buf))
		fail("ktrace_buf_create", -PTR_ERR(buf), 0);
	/* The reader is another CPU: the "interrupts" are this thread's only. */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	if (fn && pthread_create(rd, NULL, fn, NULL))
		fail("pthread_create", 0, 0);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	/* SIGA's handler can be interrupted by SIGB, not the other way. */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGA, &sa, NULL);
	sa.sa_handler = sigb;
	sigaddset(&sa.sa_mask, SIGA);
	sigaction(SIGB, &sa, NULL);
	start_timer(SIGA, 7000);
	start_timer(SIGB, 13000);
}

/* Stop the "interrupts", then flush as ktrace_set_enabled(false) does. */
static void stop_writers(void)
{
	sigset_t all;

	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, NULL);
	ktrace_buf_flush(buf);
	ktrace_buf_sync(buf);
	__atomic_store_n(&stopping, 1, __ATOMIC_RELEASE);
}

static int stress(int seconds, bool overwrite)
{
	struct ktrace_buf_stats st;
	sigset_t all, old;
	pthread_t rd;
	u32 i = 0;
	time_t end;
	unsigned long first;

	start_writers(overwrite, overwrite ? NULL : reader, &rd);
	sigfillset(&all);
	end = time(NULL) + seconds;
	while (time(NULL) < end) {
		unsigned int n;

		for (n = 0; n < 10000; n++) {
			attempts[0]++;
			write_compact(ID_TASK, i++, true);
			if (__atomic_load_n(&buf->deliver_work.pending, __ATOMIC_RELAXED)) {
				pthread_sigmask(SIG_BLOCK, &all, &old);
				harness_irq_work_run();
				pthread_sigmask(SIG_SETMASK, &old, NULL);
			}
		}
	}
	stop_writers();
	if (!overwrite) {
		pthread_join(rd, NULL);
	} else {
		/* What a reader gets of a stopped recorder: every slot. */
		static char copy[SB_SIZE];
		int len;

		for (first = 0; (len = ktrace_buf_read(buf, copy, sizeof(copy))) > 0; first++)
			check_subbuf((void *)copy, &seen);
		if (len != -ENODATA || first != NR_SUBBUFS)
			fail("a stopped overwrite buffer reads whole", first, -len);
	}
	ktrace_buf_stats(buf, &st);
	printf("mode=%s attempts=%lu+%lu+%lu events=%llu read=%lu ",
	       overwrite ? "overwrite" : "drop", attempts[0], attempts[1], attempts[2],
	       (unsigned long long)st.events, seen.events);
	printf("dropped=%llu overwritten=%llu subbufs=%llu read_subbufs=%lu ",
	       (unsigned long long)st.dropped, (unsigned long long)st.overwritten,
	       (unsigned long long)st.subbufs, seen.subbufs);
	printf("timestamps=%llu nested_inside=%lu nested_deep=%lu\n",
	       (unsigned long long)st.timestamps, nested_inside, nested_deep);
	if (st.events != attempts[0] + attempts[1] + attempts[2])
		fail("events != attempts", st.events, attempts[0] + attempts[1] + attempts[2]);
	if (st.events != seen.events + st.dropped + st.overwritten)
		fail("events != read + dropped + overwritten", st.events,
		     seen.events + st.dropped + st.overwritten);
	if (!nested_inside || !nested_deep)
		fail("no nesting happened", nested_inside, nested_deep);
	if (!overwrite && seen.subbufs != st.subbufs)
		fail("subbuffers delivered but not read", st.subbufs, seen.subbufs);
	if (overwrite && !st.overwritten)
		fail("overwrite mode never wrapped", st.subbufs, 0);
	ktrace_buf_destroy(buf);
	return 0;
}

/*
 * reader-race: a reader on another CPU takes subbuffers with
 * ktrace_buf_read(), as the ascii pipe and the stream files do, while the
 * writer laps it and deliveries run late.  The copy is slowed down by a
 * memcpy that yields (see harness_memcpy()), so that the writer overwrites
 * subbuffers during their copy.
 */
static unsigned long race_bad, race_read, race_torn;
static __thread int slow_copy;

/*
 * The memcpy() of buffer.c and this file whose size is not a constant: in
 * the reader-race reader, a copy in 256-byte pieces with pauses, as a
 * reader on a slower or interrupted CPU would make.
 */
void *harness_memcpy(void *dst, const void *src, size_t n)
{
	static __thread unsigned int seed = 1;
	size_t done, piece;
	int spin, pause;

	if (!slow_copy)
		return __builtin_memcpy(dst, src, n);
	/* Mostly quick copies, some long enough for the writer to lap. */
	seed = seed * 1103515245 + 12345;
	pause = (seed >> 16) % 4 ? 100 : 200000;
	for (done = 0; done < n; done += piece) {
		piece = n - done < 256 ? n - done : 256;
		__builtin_memcpy(dst + done, src + done, piece);
		for (spin = 0; spin < pause; spin++)
			barrier();
	}
	return dst;
}

static void *race_reader(void *arg)
{
	static char copy[SB_SIZE];
	const char *bad;
	int len;

	for (;;) {
		int done = __atomic_load_n(&stopping, __ATOMIC_ACQUIRE);

		slow_copy = 1;
		len = ktrace_buf_read(buf, copy, sizeof(copy));
		slow_copy = 0;
		if (len == -ENODATA) {
			if (done)
				return NULL;
			sched_yield();
			continue;
		}
		if (len == -EAGAIN) {
			__atomic_fetch_add(&race_torn, 1, __ATOMIC_RELAXED);
			continue;
		}
		if (len < 0)
			fail("ktrace_buf_read()", -len, 0);
		race_read++;
		bad = check_subbuf_gaps((void *)copy, len, &seen, true);
		if (bad && race_bad++ < 10)
			fprintf(stderr, "harness: torn or misdelivered subbuffer %llu: %s\n",
				(unsigned long long)
				((struct ktrace_subbuf_header *)copy)->seq, bad);
	}
}

static int reader_race(int seconds)
{
	struct ktrace_buf_stats st;
	unsigned long next_delivery = 0;
	sigset_t all, old;
	pthread_t rd;
	u32 i = 0;
	time_t end;

	delay_deliveries = 1;
	start_writers(true, race_reader, &rd);
	sigfillset(&all);
	srandom(1);
	end = time(NULL) + seconds;
	/* On a loaded machine, go on (30 s at most) until a copy was torn. */
	while (time(NULL) < end ||
	       (!__atomic_load_n(&race_torn, __ATOMIC_RELAXED) && time(NULL) < end + 30)) {
		unsigned int n;

		for (n = 0; n < 10000; n++) {
			attempts[0]++;
			write_compact(ID_TASK, i++, true);
			/* Deliveries late by up to four subbuffers of events. */
			if (attempts[0] < next_delivery)
				continue;
			next_delivery = attempts[0] + random() % (4 * SB_SIZE / 8);
			pthread_sigmask(SIG_BLOCK, &all, &old);
			harness_irq_work_run();
			pthread_sigmask(SIG_SETMASK, &old, NULL);
		}
	}
	stop_writers();
	pthread_join(rd, NULL);
	ktrace_buf_stats(buf, &st);
	printf("reader-race: attempts=%lu+%lu+%lu events=%llu read=%lu dropped=%llu ",
	       attempts[0], attempts[1], attempts[2], (unsigned long long)st.events,
	       seen.events, (unsigned long long)st.dropped);
	printf("overwritten=%llu subbufs=%llu read_subbufs=%lu bad_subbufs=%lu discarded=%lu\n",
	       (unsigned long long)st.overwritten, (unsigned long long)st.subbufs,
	       race_read, race_bad, race_torn);
	if (race_bad)
		fail("the reader decoded torn or misdelivered subbuffers", race_bad, race_read);
	if (st.events != attempts[0] + attempts[1] + attempts[2])
		fail("events != attempts", st.events, attempts[0] + attempts[1] + attempts[2]);
	if (st.events != seen.events + st.dropped + st.overwritten)
		fail("events != read + dropped + overwritten", st.events,
		     seen.events + st.dropped + st.overwritten);
	if (!st.overwritten || !race_read || !race_torn)
		fail("the writer never overwrote a subbuffer being copied",
		     st.overwritten, race_torn);
	ktrace_buf_destroy(buf);
	return 0;
}

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/*
 * bench: the loops timed, each BENCH_N iterations per round, the rounds of
 * all loops interleaved so that a busy neighbour on a shared host slows
 * them alike.  Each figure is the best of its rounds, the one least
 * disturbed by preemption and by the other hardware thread of the core;
 * the median follows, to show how noisy the run was.
 */
#define BENCH_N		1000000
#define BENCH_ROUNDS	15

/*
 * What the limit loop does besides the physical minimum of a per-CPU
 * ring writer (read the clock, reserve 8 bytes with a local cmpxchg on the
 * offset, store 8 bytes there): one extra at a time, to price it alone.
 */
enum {
	LIM_COMMIT = 1,		/* the commit count of the subbuffer slot */
	LIM_EVENTS = 2,		/* a buffer-wide event count */
	LIM_BYTES = 4,		/* a buffer-wide byte count */
	LIM_SB_EVENTS = 8,	/* an event count per subbuffer use */
	LIM_NESTING = 16,	/* a recursion guard: inc_return, then dec */
	LIM_NO_CLOCK = 32,	/* no clock read: what the rest costs alone */
};

static struct {
	local_t offset, events, bytes, nesting;
	local_t commit[NR_SUBBUFS];
	local_t sb_events[2 * NR_SUBBUFS];
} lim;

static __always_inline void limit_loop(unsigned long n, unsigned int extra)
{
	unsigned long ring = SB_SIZE * NR_SUBBUFS, old, new, i, sb;
	u64 clock;

	for (i = 0; i < n; i++) {
		if ((extra & LIM_NESTING) && local_add_return(1, &lim.nesting) > 4)
			fail("nesting", 0, 0);
		do {
			old = local_read(&lim.offset);
			clock = extra & LIM_NO_CLOCK ? i : get_cycles();
			new = old + 8;
		} while (local_cmpxchg(&lim.offset, old, new) != old);
		*(u64 *)(mem + (old & (ring - 1))) = clock;
		sb = old / SB_SIZE;
		if (extra & LIM_SB_EVENTS)
			local_inc(&lim.sb_events[(sb % NR_SUBBUFS) << 1 | ((sb / NR_SUBBUFS) & 1)]);
		if (extra & LIM_EVENTS)
			local_inc(&lim.events);
		if (extra & LIM_BYTES)
			local_add(8, &lim.bytes);
		if (extra & LIM_COMMIT) {
			barrier();
			if (!(local_add_return(8, &lim.commit[sb % NR_SUBBUFS]) & (SB_SIZE - 1)))
				barrier();
		}
		if (extra & LIM_NESTING)
			local_add(-1, &lim.nesting);
	}
}

static const u8 bench_payload[32] = { 1, 2, 3 };

static __always_inline void write_loop(unsigned long n, bool expanded)
{
	struct ktrace_ctx ctx;
	unsigned long i;

	for (i = 0; i < n; i++) {
		if (ktrace_reserve(buf, expanded ? KTRACE_EXPANDED_SIZE(32) : 8, &ctx))
			continue;
		if (expanded) {
			ktrace_put_expanded(ctx.data, ctx.clock, 2, 0, 32);
			memcpy(ctx.data + sizeof(struct ktrace_expanded), bench_payload, 32);
		} else {
			ktrace_put_compact(ctx.data, 1, ctx.clock, i);
		}
		ktrace_commit(&ctx);
		if (buf->deliver_work.pending)
			harness_irq_work_run();
	}
}

static u64 bench_sink;

static void clock_loop(unsigned long n)
{
	unsigned long i;

	for (i = 0; i < n; i++) {
		bench_sink += ktrace_clock_read();
		/* Keep the read in the loop. */
		barrier();
	}
}

static void bench_compact(unsigned long n)
{
	write_loop(n, false);
}

static void bench_expanded(unsigned long n)
{
	write_loop(n, true);
}

/* One function per variant of the limit loop, compiled with its extras known. */
#define LIMIT_BENCH(name, extra)	\
static void name(unsigned long n)	\
{					\
	limit_loop(n, extra);		\
}

LIMIT_BENCH(bench_limit, 0)
LIMIT_BENCH(bench_commit, LIM_COMMIT)
LIMIT_BENCH(bench_events, LIM_EVENTS)
LIMIT_BENCH(bench_bytes, LIM_BYTES)
LIMIT_BENCH(bench_sb_events, LIM_SB_EVENTS)
LIMIT_BENCH(bench_nesting, LIM_NESTING)
LIMIT_BENCH(bench_nc, LIM_NO_CLOCK)
LIMIT_BENCH(bench_nc_commit, LIM_NO_CLOCK | LIM_COMMIT)
LIMIT_BENCH(bench_nc_events, LIM_NO_CLOCK | LIM_EVENTS)
LIMIT_BENCH(bench_nc_bytes, LIM_NO_CLOCK | LIM_BYTES)
LIMIT_BENCH(bench_nc_sb_events, LIM_NO_CLOCK | LIM_SB_EVENTS)
LIMIT_BENCH(bench_nc_nesting, LIM_NO_CLOCK | LIM_NESTING)

/* The loops, by index: B_EXTRAS on are those of extras[], then without the clock. */
enum { B_COMPACT, B_EXPANDED, B_CLOCK, B_LIMIT, B_EXTRAS, B_NO_CLOCK = B_EXTRAS + 5 };

static void (* const benches[])(unsigned long n) = {
	[B_COMPACT] = bench_compact,
	[B_EXPANDED] = bench_expanded,
	[B_CLOCK] = clock_loop,
	[B_LIMIT] = bench_limit,
	bench_commit, bench_events, bench_bytes, bench_sb_events, bench_nesting,
	[B_NO_CLOCK] = bench_nc,
	bench_nc_commit, bench_nc_events, bench_nc_bytes, bench_nc_sb_events, bench_nc_nesting,
};

static const char * const extras[] = {
	"commit count", "events count", "bytes count", "per-subbuffer events count",
	"recursion guard",
};

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static int bench(void)
{
	double t[ARRAY_SIZE(benches)][BENCH_ROUNDS], best[ARRAY_SIZE(benches)];
	static const char * const names[] = {
		[B_COMPACT] = "ktrace compact", [B_EXPANDED] = "ktrace expanded32",
		[B_CLOCK] = "clock read alone", [B_LIMIT] = "physical limit",
	};
	unsigned int k, r;

	buf = ktrace_buf_create(mem, NULL, 0, 0, SB_SIZE, NR_SUBBUFS, true);
	if (IS_ERR(buf))
		fail("ktrace_buf_create", -PTR_ERR(buf), 0);
	for (r = 0; r < BENCH_ROUNDS; r++) {
		for (k = 0; k < ARRAY_SIZE(benches); k++) {
			double start = now_ns();

			benches[k](BENCH_N);
			t[k][r] = (now_ns() - start) / BENCH_N;
		}
	}
	for (k = 0; k < ARRAY_SIZE(benches); k++) {
		qsort(t[k], BENCH_ROUNDS, sizeof(double), cmp_double);
		best[k] = t[k][0];
	}
	for (k = 0; k < B_EXTRAS; k++)
		printf("native %s: %.1f ns/%s (median %.1f)\n", names[k], best[k],
		       k == B_CLOCK ? "read" : "event", t[k][BENCH_ROUNDS / 2]);
	/*
	 * The write path here is buffer.c's: reserve, store, commit.  What
	 * channel.c adds in the kernel (preemption off, the per-CPU buffer,
	 * the recursion guard) is not compiled here; the guard is priced
	 * below, and the guest's figures against ftrace cover all of it.
	 */
	printf("write path / physical limit: %.2fx (reserve, store, commit)\n",
	       best[B_COMPACT] / best[B_LIMIT]);
	/*
	 * Beside the clock read, what else the loop does mostly hides in its
	 * latency; without it, what each extra costs by itself.
	 */
	printf("physical limit without the clock read: %.1f ns/event\n", best[B_NO_CLOCK]);
	for (k = 0; k < ARRAY_SIZE(extras); k++)
		printf("  + %s: %+.1f ns/event, %+.1f without the clock read\n", extras[k],
		       best[B_EXTRAS + k] - best[B_LIMIT],
		       best[B_NO_CLOCK + 1 + k] - best[B_NO_CLOCK]);
	ktrace_buf_destroy(buf);
	return 0;
}

int main(int argc, char **argv)
{
	bool overwrite = false;
	int seconds = 3, opt;

	mem = aligned_alloc(SB_SIZE, SB_SIZE * NR_SUBBUFS);
	if (!mem)
		return 1;
#ifdef __x86_64__
	ktrace_clock.name = "tsc";
	ktrace_clock_tsc.enabled = 1;
	ktrace_clock.shift = 7;
#else
	ktrace_clock.name = "mono";
	ktrace_clock.shift = 6;
#endif
	harness_pid = getpid();
	if (argc < 2)
		goto usage;
	if (!strcmp(argv[1], "bench"))
		return bench();
	if (!strcmp(argv[1], "reader-race")) {
		if (argc > 3 && !strcmp(argv[2], "-s") && atoi(argv[3]) > 0)
			seconds = atoi(argv[3]);
		return reader_race(seconds);
	}
	if (strcmp(argv[1], "stress"))
		goto usage;
	optind = 2;
	while ((opt = getopt(argc, argv, "s:m:")) != -1) {
		if (opt == 's' && atoi(optarg) > 0)
			seconds = atoi(optarg);
		else if (opt == 'm' && !strcmp(optarg, "drop"))
			overwrite = false;
		else if (opt == 'm' && !strcmp(optarg, "overwrite"))
			overwrite = true;
		else
			goto usage;
	}
	if (optind != argc)
		goto usage;
	return stress(seconds, overwrite);
usage:
	fprintf(stderr, "usage: harness stress [-s SECONDS] [-m drop|overwrite]\n"
		"       harness reader-race [-s SECONDS]\n"
		"       harness bench\n");
	return 2;
}
