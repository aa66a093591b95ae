/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ktrace harness: no KUnit.  EXPORT_SYMBOL_IF_KUNIT() is defined empty on
 * the compiler's command line (see the Makefile).
 */
