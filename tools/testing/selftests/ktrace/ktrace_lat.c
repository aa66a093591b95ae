// SPDX-License-Identifier: GPL-2.0
/*
 * ktrace_lat: cause a known latency, for the tests of the latency triggers.
 *
 *   ktrace_lat sleep MS        one nanosleep(2) of MS milliseconds
 *   ktrace_lat starve CPU MS   on CPU, a SCHED_FIFO thread spins MS ms while
 *                              a normal thread that sleeps 1 ms at a time
 *                              waits to run
 *   ktrace_lat loop N          N getppid(2) calls, for make bench: prints
 *                              "ns_per_call T", the mean time of one
 *   ktrace_lat texec           a thread other than the leader execve()s
 *                              this program again with "sleep 0": prints
 *                              "nr N pid P tid T" (execve's number, the
 *                              leader, the thread) before, and the sleep's
 *                              line after, whose pid is P: the thread took
 *                              the leader's pid
 *
 * Prints "nr N pid P" (sleep: the system call number and the caller's
 * tid) or "pid P" (starve: the tid of the thread kept waiting), before
 * the latency happens; loop prints after its calls.  Exit status 2 for a usage error, 1 if a system
 * call fails.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static int cpu;
static long ms;
static int done;		/* set by the spinner when it is done */

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int pin(void)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

/* The normal thread: sleeps 1 ms at a time until the spinner is done. */
static void *sleeper(void *arg)
{
	struct timespec ts = { 0, 1000000 };

	if (pin())
		perror("sched_setaffinity");
	printf("pid %ld\n", (long)syscall(SYS_gettid));
	fflush(stdout);
	__atomic_store_n((int *)arg, 1, __ATOMIC_RELEASE);
	while (!__atomic_load_n(&done, __ATOMIC_ACQUIRE))
		nanosleep(&ts, NULL);
	return NULL;
}

static int starve(void)
{
	struct sched_param sp = { .sched_priority = 50 };
	int started = 0;
	pthread_t t;
	double end;

	if (pin()) {
		perror("sched_setaffinity");
		return 1;
	}
	if (pthread_create(&t, NULL, sleeper, &started)) {
		fprintf(stderr, "pthread_create failed\n");
		return 1;
	}
	while (!__atomic_load_n(&started, __ATOMIC_ACQUIRE))
		usleep(1000);
	usleep(20000);
	if (sched_setscheduler(0, SCHED_FIFO, &sp)) {
		perror("sched_setscheduler");
		return 1;
	}
	end = now_ms() + ms;
	while (now_ms() < end)
		;
	sp.sched_priority = 0;
	sched_setscheduler(0, SCHED_OTHER, &sp);
	__atomic_store_n(&done, 1, __ATOMIC_RELEASE);
	pthread_join(t, NULL);
	return 0;
}

/* The thread that execs: the leader waits in pthread_join() meanwhile. */
static void *execer(void *arg)
{
	char *const args[] = { "ktrace_lat", "sleep", "0", NULL };

	printf("nr %d pid %ld tid %ld\n", SYS_execve, (long)getpid(),
	       (long)syscall(SYS_gettid));
	fflush(stdout);
	execv("/proc/self/exe", args);
	perror("execv");
	exit(1);
}

static int texec(void)
{
	pthread_t t;

	if (pthread_create(&t, NULL, execer, NULL)) {
		fprintf(stderr, "pthread_create failed\n");
		return 1;
	}
	pthread_join(t, NULL);
	return 1;
}

int main(int argc, char **argv)
{
	struct timespec ts;

	if (argc == 3 && !strcmp(argv[1], "sleep")) {
		ms = atol(argv[2]);
		ts.tv_sec = ms / 1000;
		ts.tv_nsec = ms % 1000 * 1000000;
		printf("nr %d pid %ld\n", SYS_nanosleep, (long)syscall(SYS_gettid));
		fflush(stdout);
		if (syscall(SYS_nanosleep, &ts, NULL)) {
			perror("nanosleep");
			return 1;
		}
		return 0;
	}
	if (argc == 4 && !strcmp(argv[1], "starve")) {
		cpu = atoi(argv[2]);
		ms = atol(argv[3]);
		return starve();
	}
	if (argc == 3 && !strcmp(argv[1], "loop")) {
		long i, n = atol(argv[2]);
		double t0 = now_ms();

		for (i = 0; i < n; i++)
			syscall(SYS_getppid);
		printf("ns_per_call %.1f\n", n > 0 ? (now_ms() - t0) * 1e6 / n : 0.0);
		return 0;
	}
	if (argc == 2 && !strcmp(argv[1], "texec"))
		return texec();
	fprintf(stderr, "usage: %s sleep MS | starve CPU MS | loop N | texec\n", argv[0]);
	return 2;
}
