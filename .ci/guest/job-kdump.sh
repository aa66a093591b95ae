#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# job-persist.sh's boot 1 with a capture kernel loaded; the panic boots it,
# and it extracts the trace from /proc/vmcore.
KTRACE_PERSIST=kdump exec /ci/job-persist.sh "$@"
