// SPDX-License-Identifier: GPL-2.0
/*
 * now: print CLOCK_MONOTONIC in nanoseconds, for make bench's workload
 * timing in the guest (finer than /proc/uptime's centiseconds).  Under
 * QEMU's instruction counting, guest time is a count of guest
 * instructions.  Built static into the initramfs as /bin/ktrace-now.
 */
#include <stdio.h>
#include <time.h>

int main(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_MONOTONIC, &ts))
		return 1;
	printf("%lld\n", (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec);
	return 0;
}
