/* SPDX-License-Identifier: GPL-2.0 */
/* ktrace harness: one CPU per thread. */
#ifndef _KTRACE_HARNESS_SMP_H
#define _KTRACE_HARNESS_SMP_H

#endif /* _KTRACE_HARNESS_SMP_H */
