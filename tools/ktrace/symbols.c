// SPDX-License-Identifier: GPL-2.0
/*
 * tools/ktrace: the kernel symbols a trace needs.
 *
 * Placeholder: the symbol table is added by the next change.
 */
#include "trace.h"

int kt_symbols_save(const char *path, bool hide)
{
	(void)path;
	(void)hide;
	return 0;
}
