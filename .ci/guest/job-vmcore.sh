#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# job-persist.sh's boot 1 alone, its results written before the panic: the
# host dumps the stopped guest's memory (.ci/boot BOOT_DUMP=FILE).
KTRACE_PERSIST=vmcore exec /ci/job-persist.sh "$@"
