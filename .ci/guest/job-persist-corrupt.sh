#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# job-persist.sh with three subbuffers damaged before the panic.
KTRACE_PERSIST=corrupt exec /ci/job-persist.sh "$@"
