#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# For development: run only the kselftests named on the kernel command
# line, e.g. make boot JOB=one BOOT_APPEND="KTRACE_TESTS=triggers.sh";
# several separated by commas.
out=$1
export KTRACE_SAVE_DIR="$out/traces"
cd /kselftest/ktrace || exit 1
for t in $(echo "${KTRACE_TESTS:-triggers.sh}" | tr , ' '); do
	./"$t" 2>&1 | tee -a "$out/kselftest.ktap"
done
exit 0
