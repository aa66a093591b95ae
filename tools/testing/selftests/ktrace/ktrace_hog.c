// SPDX-License-Identifier: GPL-2.0
/*
 * ktrace_hog: allocate memory and touch every page of it, for the tests of
 * the reclaim and OOM events.
 *
 *   ktrace_hog MIB [SECONDS]
 *
 * Allocates MIB MiB, 1 MiB at a time, writing every page, prints
 * "ok MIB", then sleeps SECONDS (default 0) holding it all.  An OOM kill
 * ends it with SIGKILL.  Exit status 2 for a usage error, 1 if an
 * allocation fails.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MIB (1024UL * 1024)

int main(int argc, char **argv)
{
	unsigned long mib, i, j, page = sysconf(_SC_PAGESIZE);
	unsigned int secs = 0;
	char *end, *p;

	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: %s MIB [SECONDS]\n", argv[0]);
		return 2;
	}
	mib = strtoul(argv[1], &end, 10);
	if (*end || !mib) {
		fprintf(stderr, "%s: bad size '%s'\n", argv[0], argv[1]);
		return 2;
	}
	if (argc == 3)
		secs = strtoul(argv[2], NULL, 10);
	for (i = 0; i < mib; i++) {
		p = malloc(MIB);
		if (!p) {
			fprintf(stderr, "%s: out of memory after %lu MiB\n", argv[0], i);
			return 1;
		}
		for (j = 0; j < MIB; j += page)
			p[j] = 1;
	}
	printf("ok %lu\n", mib);
	fflush(stdout);
	if (secs)
		sleep(secs);
	return 0;
}
