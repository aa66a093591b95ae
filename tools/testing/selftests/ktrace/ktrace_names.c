// SPDX-License-Identifier: GPL-2.0
/*
 * ktrace_names: fill the medium-rate channel, then run many named tasks.
 *
 *   ktrace_names MARK_FILE NR_TASKS
 *
 * First, on every CPU in turn, marks are written to MARK_FILE (the mark
 * control file, which writes to the medium-rate channel of the writer's
 * CPU) until the channel refuses even the smallest: in drop and hybrid
 * modes that channel is then full, and every later fork, exec and comm
 * event is dropped.  The number of marks is printed to stderr.
 *
 * Then NR_TASKS children, one after the other, each name themselves
 * "ktn<i>" (PR_SET_NAME), sleep a little so that the scheduler events
 * show them running, and exit.  One "PID NAME" line per child goes to
 * stdout.  Exit status: 0, 1 on failure, 2 for a usage error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/wait.h>

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* Until the mark is refused for lack of room: the marks written. */
static long fill(int fd, size_t len)
{
	static char buf[4000];
	long n = 0;

	memset(buf, 'x', sizeof(buf));
	/* A channel that overwrites is never full: give up. */
	while (n < 1000000 && write(fd, buf, len) == (ssize_t)len)
		n++;
	if (n == 1000000)
		errno = ENOSPC;
	if (errno != ENOBUFS) {
		fprintf(stderr, "ktrace_names: mark: %s\n", strerror(errno));
		return -1;
	}
	return n;
}

static void child(int i)
{
	struct timespec ts = { 0, 200000 };
	char name[16];
	int j;

	snprintf(name, sizeof(name), "ktn%d", i);
	if (prctl(PR_SET_NAME, name))
		_exit(1);
	for (j = 0; j < 3; j++)
		nanosleep(&ts, NULL);
	_exit(0);
}

int main(int argc, char **argv)
{
	static const size_t sizes[] = { 4000, 256, 16, 1 };
	cpu_set_t all, one;
	long n, marks = 0;
	int fd, cpu, nr, i, status;
	unsigned int s;
	pid_t pid;

	nr = argc == 3 ? atoi(argv[2]) : -1;
	if (nr < 0) {
		fprintf(stderr, "usage: ktrace_names MARK_FILE NR_TASKS\n");
		return 2;
	}
	fd = open(argv[1], O_WRONLY);
	if (fd < 0 || sched_getaffinity(0, sizeof(all), &all)) {
		perror("ktrace_names");
		return 1;
	}
	for (cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		if (!CPU_ISSET(cpu, &all))
			continue;
		CPU_ZERO(&one);
		CPU_SET(cpu, &one);
		if (sched_setaffinity(0, sizeof(one), &one))
			continue;
		for (s = 0; s < ARRAY_SIZE(sizes); s++) {
			n = fill(fd, sizes[s]);
			if (n < 0)
				return 1;
			marks += n;
		}
	}
	close(fd);
	/*
	 * The children on one CPU: its small high-rate channel then surely
	 * wraps, however many CPUs the guest has.
	 */
	for (cpu = 0; cpu < CPU_SETSIZE && !CPU_ISSET(cpu, &all); cpu++)
		;
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	sched_setaffinity(0, sizeof(one), &one);
	fprintf(stderr, "ktrace_names: %ld marks\n", marks);

	for (i = 0; i < nr; i++) {
		pid = fork();
		if (pid < 0) {
			perror("ktrace_names: fork");
			return 1;
		}
		if (!pid)
			child(i);
		printf("%d ktn%d\n", pid, i);
		if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
		    WEXITSTATUS(status)) {
			fprintf(stderr, "ktrace_names: child %d failed\n", i);
			return 1;
		}
	}
	return fflush(stdout) ? 1 : 0;
}
