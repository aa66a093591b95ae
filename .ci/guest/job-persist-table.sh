#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# job-persist.sh with a descriptor of the crash table damaged before the panic.
KTRACE_PERSIST=table exec /ci/job-persist.sh "$@"
