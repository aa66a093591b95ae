// SPDX-License-Identifier: GPL-2.0
/*
 * clmsg: send ktrace cluster messages (struct ktrace_cluster_msg) from
 * user space, good or bad, for the cluster test's bad messages
 * (.ci/guest/job-cluster.sh).  Built static into the initramfs as
 * /bin/ktrace-clmsg.
 *
 *   ktrace-clmsg HOST PORT KEYHEX ID SEQ TYPE LEN COUNT [GAP_US]
 *
 * sends COUNT datagrams to HOST:PORT, each the message of origin ID
 * (hexadecimal), sequence numbers SEQ, SEQ + 1, ..., type TYPE (1 trigger, 2 beacon),
 * sealed with the 32-hex-digit KEYHEX ("bad": a wrong tag), cut or
 * padded with zeros to LEN bytes (132: whole), GAP_US microseconds apart
 * (0, as fast as it can, by default).  SipHash-2-4 is written
 * here from its paper, independently of the kernel's.
 */
#include <arpa/inet.h>
#include <endian.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define ROTL(x, b)	(((x) << (b)) | ((x) >> (64 - (b))))

static void sipround(uint64_t v[4])
{
	v[0] += v[1]; v[1] = ROTL(v[1], 13); v[1] ^= v[0]; v[0] = ROTL(v[0], 32);
	v[2] += v[3]; v[3] = ROTL(v[3], 16); v[3] ^= v[2];
	v[0] += v[3]; v[3] = ROTL(v[3], 21); v[3] ^= v[0];
	v[2] += v[1]; v[1] = ROTL(v[1], 17); v[1] ^= v[2]; v[2] = ROTL(v[2], 32);
}

static uint64_t le64(const unsigned char *p)
{
	uint64_t v = 0;
	int i;

	for (i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static uint64_t siphash24(const unsigned char *m, size_t len, const unsigned char key[16])
{
	uint64_t k0 = le64(key), k1 = le64(key + 8), b = (uint64_t)len << 56, mi;
	uint64_t v[4] = { k0 ^ 0x736f6d6570736575ULL, k1 ^ 0x646f72616e646f6dULL,
			  k0 ^ 0x6c7967656e657261ULL, k1 ^ 0x7465646279746573ULL };
	size_t i;

	for (i = 0; i + 8 <= len; i += 8) {
		mi = le64(m + i);
		v[3] ^= mi;
		sipround(v);
		sipround(v);
		v[0] ^= mi;
	}
	for (; i < len; i++)
		b |= (uint64_t)m[i] << (8 * (i % 8));
	v[3] ^= b;
	sipround(v);
	sipround(v);
	v[0] ^= b;
	v[2] ^= 0xff;
	for (i = 0; i < 4; i++)
		sipround(v);
	return v[0] ^ v[1] ^ v[2] ^ v[3];
}

int main(int argc, char **argv)
{
	unsigned char msg[512] = { 0 }, key[16];
	struct sockaddr_in to = { .sin_family = AF_INET };
	uint64_t seq, mac, sent;
	unsigned long count, i;
	struct timespec ts;
	uint32_t v32;
	size_t len;
	int fd;

	if (argc != 9 && argc != 10) {
		fprintf(stderr, "usage: ktrace-clmsg HOST PORT KEYHEX ID SEQ TYPE LEN COUNT [GAP_US]\n");
		return 2;
	}
	to.sin_port = htons(atoi(argv[2]));
	if (inet_pton(AF_INET, argv[1], &to.sin_addr) != 1)
		return 2;
	len = strtoul(argv[7], NULL, 0);
	count = strtoul(argv[8], NULL, 0);
	if (len > sizeof(msg) || (strlen(argv[3]) != 32 && strcmp(argv[3], "bad")))
		return 2;
	for (i = 0; i < 16; i++) {
		char hex[3] = { argv[3][2 * i], argv[3][2 * i + 1], 0 };

		key[i] = strcmp(argv[3], "bad") ? (unsigned char)strtoul(hex, NULL, 16) : i ^ 0x5a;
	}
	v32 = htonl(0x4b54434c);
	memcpy(msg, &v32, 4);
	msg[4] = 1;
	msg[5] = atoi(argv[6]);
	v32 = htonl(strtoul(argv[4], NULL, 16));
	memcpy(msg + 8, &v32, 4);
	memcpy(msg + 12, "forger", 6);
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (fd < 0)
		return 1;
	for (i = 0; i < count; i++) {
		seq = htobe64(strtoull(argv[5], NULL, 0) + i);
		memcpy(msg + 28, &seq, 8);
		clock_gettime(CLOCK_REALTIME, &ts);
		sent = htobe64((uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec);
		memcpy(msg + 36, &sent, 8);
		memcpy(msg + 44, "clmsg", 5);
		memcpy(msg + 60, "sent by ktrace-clmsg", 20);
		mac = htobe64(siphash24(msg, 124, key));
		memcpy(msg + 124, &mac, 8);
		if (sendto(fd, msg, len, 0, (struct sockaddr *)&to, sizeof(to)) < 0)
			usleep(1000);	/* ENOBUFS under the flood: a moment */
		else if (argc == 10)
			usleep(strtoul(argv[9], NULL, 0));
	}
	close(fd);
	return 0;
}
