// SPDX-License-Identifier: GPL-2.0
/*
 * ktrace_case: the workloads of the case studies' selftests that a shell
 * cannot run as one process with a known pid.
 *
 *   ktrace_case fsync FILE KIB COUNT
 *	COUNT times: write 4 KiB at KIB KiB into FILE (then the next 4 KiB)
 *	and fsync(2) it, as a small writer that wants its data on disk: the
 *	writeback of each page is queued by this process.
 *   ktrace_case jitter PERIOD_US TICKS AT US FILE
 *	on the CPU it starts on, wait for TICKS expiries of a periodic
 *	ITIMER_REAL of PERIOD_US; right after expiry AT, write US to FILE
 *	(ktrace's test/irqsoff_us: interrupts off for US microseconds),
 *	which delays the next expiry.
 *   ktrace_case read
 *	read(2) standard input 4 KiB at a time until its end, as a client
 *	waiting for its server's answers; prints "reads N bytes B" at the
 *	end (N counts the last read, of 0 bytes).
 *
 * Prints "pid P" (jitter: "pid P cpu C") before the work.  Exit status 2
 * for a usage error, 1 if a system call fails.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

#define BLOCK 4096

static const char *prog;

static unsigned long num(const char *s, unsigned long min, unsigned long max)
{
	unsigned long v;
	char *end;

	v = strtoul(s, &end, 10);
	if (!*s || *end || v < min || v > max) {
		fprintf(stderr, "%s: bad number '%s' (%lu to %lu)\n", prog, s, min, max);
		exit(2);
	}
	return v;
}

static int fail(const char *what)
{
	fprintf(stderr, "%s: %s: %s\n", prog, what, strerror(errno));
	return 1;
}

static int do_fsync(char **argv)
{
	unsigned long kib = num(argv[1], 0, 1UL << 30), count = num(argv[2], 1, 1000), i;
	static char buf[BLOCK];
	int fd;

	memset(buf, 0x5a, sizeof(buf));
	fd = open(argv[0], O_WRONLY);
	if (fd < 0)
		return fail(argv[0]);
	printf("pid %d\n", getpid());
	fflush(stdout);
	for (i = 0; i < count; i++) {
		if (pwrite(fd, buf, BLOCK, kib * 1024 + i * BLOCK) != BLOCK)
			return fail("pwrite");
		if (fsync(fd))
			return fail("fsync");
	}
	close(fd);
	return 0;
}

static int do_jitter(char **argv)
{
	unsigned long period = num(argv[0], 1000, 1000000), ticks = num(argv[1], 2, 10000);
	unsigned long at = num(argv[2], 1, ticks - 1), i;
	struct itimerval it = { { 0, period }, { 0, period } };
	const char *us = argv[3];
	cpu_set_t set;
	sigset_t alrm;
	int cpu, fd, sig;

	num(us, 1, 100000);
	/* Opened first: the write is all that happens after expiry AT. */
	fd = open(argv[4], O_WRONLY);
	if (fd < 0)
		return fail(argv[4]);
	/*
	 * The itimer's hrtimer is armed on the CPU that arms it again (at
	 * each SIGALRM taken): on this one, where the interrupts go off.
	 */
	cpu = sched_getcpu();
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (cpu < 0 || sched_setaffinity(0, sizeof(set), &set))
		return fail("sched_setaffinity");
	sigemptyset(&alrm);
	sigaddset(&alrm, SIGALRM);
	sigprocmask(SIG_BLOCK, &alrm, NULL);
	printf("pid %d cpu %d\n", getpid(), cpu);
	fflush(stdout);
	if (setitimer(ITIMER_REAL, &it, NULL))
		return fail("setitimer");
	for (i = 1; i <= ticks; i++) {
		if (sigwait(&alrm, &sig))
			return fail("sigwait");
		if (i == at && write(fd, us, strlen(us)) < 0)
			return fail(argv[4]);
	}
	close(fd);
	return 0;
}

static int do_read(void)
{
	unsigned long reads = 0, bytes = 0;
	static char buf[BLOCK];
	ssize_t n;

	printf("pid %d\n", getpid());
	fflush(stdout);
	do {
		n = read(0, buf, sizeof(buf));
		if (n < 0)
			return fail("read");
		reads++;
		bytes += n;
	} while (n);
	printf("reads %lu bytes %lu\n", reads, bytes);
	return 0;
}

int main(int argc, char **argv)
{
	prog = argv[0];
	if (argc == 5 && !strcmp(argv[1], "fsync"))
		return do_fsync(argv + 2);
	if (argc == 7 && !strcmp(argv[1], "jitter"))
		return do_jitter(argv + 2);
	if (argc == 2 && !strcmp(argv[1], "read"))
		return do_read();
	fprintf(stderr, "usage: %s fsync FILE KIB COUNT\n"
		"       %s jitter PERIOD_US TICKS AT US FILE\n"
		"       %s read\n", prog, prog, prog);
	return 2;
}
