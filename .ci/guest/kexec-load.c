// SPDX-License-Identifier: GPL-2.0
/*
 * kexec-load KERNEL INITRD CMDLINE: load KERNEL (a bzImage) and INITRD as
 * the crash kernel that a panic boots (kexec_file_load() with
 * KEXEC_FILE_ON_CRASH), for the kdump guest of .ci/persist, which has no
 * kexec-tools.
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/kexec.h>

int main(int argc, char **argv)
{
	int kfd, ifd;

	if (argc != 4) {
		fprintf(stderr, "usage: kexec-load KERNEL INITRD CMDLINE\n");
		return 2;
	}
	kfd = open(argv[1], O_RDONLY);
	if (kfd < 0) {
		perror(argv[1]);
		return 1;
	}
	ifd = open(argv[2], O_RDONLY);
	if (ifd < 0) {
		perror(argv[2]);
		return 1;
	}
	/* The length counts the terminating NUL. */
	if (syscall(SYS_kexec_file_load, kfd, ifd, strlen(argv[3]) + 1,
		    argv[3], KEXEC_FILE_ON_CRASH)) {
		perror("kexec_file_load");
		return 1;
	}
	return 0;
}
