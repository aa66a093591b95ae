// SPDX-License-Identifier: GPL-2.0
/*
 * ktrace_udphold PORT: hold UDP port PORT of 0.0.0.0 until killed, for
 * cluster.sh's "port taken" check; prints "bound" once it is.
 */
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	int fd;

	if (argc != 2) {
		fprintf(stderr, "usage: ktrace_udphold PORT\n");
		return 2;
	}
	a.sin_port = htons(atoi(argv[1]));
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof(a))) {
		perror("ktrace_udphold");
		return 1;
	}
	printf("bound\n");
	fflush(stdout);
	pause();
	return 0;
}
