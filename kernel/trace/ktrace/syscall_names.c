// SPDX-License-Identifier: GPL-2.0
/*
 * ktrace's system call names: the ascii pipe's name= of the syscalls
 * events, and the nr=NAME of latency:syscall triggers.
 *
 * The table ("[nr] = \"name\"," lines) is generated at build time from
 * arch/x86/entry/syscalls/syscall_64.tbl, its common and 64 ABIs, by the
 * rule tools/ktrace generates its own with: ktrace report and the ascii
 * pipe print the same names.  It is empty on other architectures, which
 * print and take numbers only.  (The kernel's own table of names, the
 * syscall metadata, exists only with CONFIG_FTRACE_SYSCALLS.)
 */
#include <linux/kernel.h>
#include <linux/string.h>

#include "ktrace_internal.h"

static const char *const ktrace_syscalls[] = {
#include "syscall_names_64.h"
};

/**
 * ktrace_syscall_name() - the name of an x86-64 system call
 * @nr: its number
 *
 * Return: the name, or NULL if the table has none for @nr.
 */
const char *ktrace_syscall_name(u64 nr)
{
	return nr < ARRAY_SIZE(ktrace_syscalls) ? ktrace_syscalls[nr] : NULL;
}

/**
 * ktrace_syscall_nr() - the number of an x86-64 system call
 * @name: its name, as syscall_64.tbl gives it ("clock_nanosleep")
 *
 * Return: the number, or -ENOENT if the table has no such name.
 */
int ktrace_syscall_nr(const char *name)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(ktrace_syscalls); i++)
		if (ktrace_syscalls[i] && !strcmp(ktrace_syscalls[i], name))
			return i;
	return -ENOENT;
}
