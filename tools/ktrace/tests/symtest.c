// SPDX-License-Identifier: GPL-2.0
/*
 * symtest: kt_symbols_save() on a trace file, for the host tests, as
 * record and extract call it at their end.
 *
 *   symtest TRACE [hide]
 *
 * The symbols come from $KTRACE_KALLSYMS.  Exit 0, or 1 if it failed.
 */
#include <string.h>

#include "../trace.h"

int main(int argc, char **argv)
{
	if (argc < 2 || argc > 3 || (argc == 3 && strcmp(argv[2], "hide"))) {
		fprintf(stderr, "usage: symtest TRACE [hide]\n");
		return 2;
	}
	return kt_symbols_save(argv[1], argc == 3) ? 1 : 0;
}
