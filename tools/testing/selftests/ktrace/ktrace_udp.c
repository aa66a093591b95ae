// SPDX-License-Identifier: GPL-2.0
/*
 * ktrace_udp: UDP for cluster.sh.
 *
 *   ktrace_udp hold PORT		hold UDP port PORT of 0.0.0.0 until
 *					killed; prints "bound" once it is
 *   ktrace_udp send ADDR PORT LEN	send one datagram of LEN zero bytes
 */
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	char buf[512] = { 0 };
	size_t len;
	int fd;

	if (argc == 3 && !strcmp(argv[1], "hold")) {
		a.sin_port = htons(atoi(argv[2]));
		fd = socket(AF_INET, SOCK_DGRAM, 0);
		if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof(a))) {
			perror("ktrace_udp: hold");
			return 1;
		}
		printf("bound\n");
		fflush(stdout);
		pause();
		return 0;
	}
	if (argc == 5 && !strcmp(argv[1], "send")) {
		a.sin_port = htons(atoi(argv[3]));
		len = strtoul(argv[4], NULL, 0);
		if (inet_pton(AF_INET, argv[2], &a.sin_addr) != 1 || len > sizeof(buf)) {
			fprintf(stderr, "ktrace_udp: send: bad address or length\n");
			return 2;
		}
		fd = socket(AF_INET, SOCK_DGRAM, 0);
		if (fd < 0 || sendto(fd, buf, len, 0, (struct sockaddr *)&a, sizeof(a)) < 0) {
			perror("ktrace_udp: send");
			return 1;
		}
		return 0;
	}
	fprintf(stderr, "usage: ktrace_udp hold PORT | send ADDR PORT LEN\n");
	return 2;
}
