// SPDX-License-Identifier: GPL-2.0
/*
 * tools/ktrace: the names of the x86-64 system calls, for latency,
 * profile, report's syscalls:entry and syscalls:exit lines (name=) and
 * record's triggers (nr=NAME).
 *
 * The table is generated at build time from the kernel tree's
 * arch/x86/entry/syscalls/syscall_64.tbl (its "common" and "64" ABIs; the
 * x32 numbers are left out): { nr, "name" } lines sorted by number, empty
 * if the build tree has no table.  It names the numbers of a trace whose
 * machine is x86_64, whatever machine decodes it.
 */
#include <string.h>

#include <linux/kernel.h>		/* tools/include: ARRAY_SIZE() */

#include "trace.h"

static const struct {
	unsigned int nr;
	const char *name;
} syscalls_x86_64[] = {
#include "syscalls_64.h"
};

/* The name of x86-64 system call @nr, or NULL. */
static const char *x86_64_name(unsigned long long nr)
{
	size_t lo = 0, hi = ARRAY_SIZE(syscalls_x86_64);

	/* The table is sorted by number. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (syscalls_x86_64[mid].nr == nr)
			return syscalls_x86_64[mid].name;
		if (syscalls_x86_64[mid].nr < nr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/**
 * kt_syscall_name() - the name of a system call of a trace's machine
 * @t: the trace
 * @nr: the number, as the syscalls events give it
 *
 * Return: the name, or NULL if the machine is not x86_64 (the only table
 * the tool has) or the table has no such number.
 */
const char *kt_syscall_name(const struct kt_trace *t, unsigned long long nr)
{
	if (!t->have_trace || strcmp(t->machine.machine, "x86_64"))
		return NULL;
	return x86_64_name(nr);
}

/**
 * kt_syscall_nr() - the x86-64 number of a system call name
 * @name: the name, as the table has it ("clock_nanosleep")
 *
 * Return: the number, or -1 if the table has no such name.
 */
int kt_syscall_nr(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(syscalls_x86_64); i++)
		if (!strcmp(syscalls_x86_64[i].name, name))
			return syscalls_x86_64[i].nr;
	return -1;
}
