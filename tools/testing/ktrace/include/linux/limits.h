/* SPDX-License-Identifier: GPL-2.0 */
/* ktrace harness: the limits the kernel's linux/limits.h adds. */
#ifndef _KTRACE_HARNESS_LIMITS_H
#define _KTRACE_HARNESS_LIMITS_H

#include <limits.h>
#include <stdint.h>

#define U32_MAX		UINT32_MAX
#define U64_MAX		UINT64_MAX

#endif /* _KTRACE_HARNESS_LIMITS_H */
