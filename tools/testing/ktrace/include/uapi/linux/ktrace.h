/* SPDX-License-Identifier: GPL-2.0 */
/* ktrace harness: the kernel's uapi header, without the rest of include/. */
#include "../../../../../../include/uapi/linux/ktrace.h"
