// SPDX-License-Identifier: GPL-2.0
/*
 * ktrace_write: do exactly one write(2) to a file and print the outcome, so
 * shell tests can check the errno of a bad write, including zero-length and
 * huge writes that echo and dd cannot produce.
 *
 *   ktrace_write [-n SIZE] FILE [DATA]
 *   ktrace_write -R FILE
 *
 * DATA (default empty) is written as is; with -n it is repeated or cut to
 * exactly SIZE bytes.  Prints "ok N" for N bytes written, or the errno name
 * (for example "EINVAL").  With -R, do one non-blocking read(2) of up to
 * 4096 bytes instead, and print the same way, followed by what was read.
 * Exit status: 0 on success,
 * 1 if the call failed, 2 for a usage or setup error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	const char *data = "";
	size_t size = 0, len, i;
	int sized = 0, readmode = 0, fd, opt;
	char *buf;
	ssize_t ret;

	while ((opt = getopt(argc, argv, "+n:R")) != -1) {
		if (opt == 'R') {
			readmode = 1;
			continue;
		}
		if (opt != 'n')
			goto usage;
		size = strtoul(optarg, NULL, 0);
		sized = 1;
	}
	if (readmode) {
		char rbuf[4096];

		if (optind != argc - 1)
			goto usage;
		fd = open(argv[optind], O_RDONLY | O_NONBLOCK);
		if (fd < 0) {
			fprintf(stderr, "ktrace_write: %s: %s\n", argv[optind], strerror(errno));
			return 2;
		}
		ret = read(fd, rbuf, sizeof(rbuf));
		if (ret < 0) {
			printf("%s\n", strerrorname_np(errno));
			return 1;
		}
		printf("ok %zd\n", ret);
		fwrite(rbuf, 1, ret, stdout);
		return 0;
	}
	if (optind >= argc || argc - optind > 2)
		goto usage;
	if (optind + 1 < argc)
		data = argv[optind + 1];
	len = strlen(data);
	if (!sized)
		size = len;
	if (sized && !len && size) {
		fprintf(stderr, "ktrace_write: -n needs DATA to repeat\n");
		return 2;
	}
	buf = malloc(size + 1);
	if (!buf) {
		perror("malloc");
		return 2;
	}
	for (i = 0; i < size; i++)
		buf[i] = data[i % len];

	fd = open(argv[optind], O_WRONLY);
	if (fd < 0) {
		fprintf(stderr, "ktrace_write: %s: %s\n", argv[optind], strerror(errno));
		return 2;
	}
	ret = write(fd, buf, size);
	if (ret < 0) {
		printf("%s\n", strerrorname_np(errno));
		return 1;
	}
	printf("ok %zd\n", ret);
	return 0;

usage:
	fprintf(stderr, "usage: ktrace_write [-n SIZE] FILE [DATA] | -R FILE\n");
	return 2;
}
