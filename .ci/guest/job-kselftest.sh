#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The kselftests alone, as the make-check job runs them: make check boots
# this job on another guest size (GUEST_CPUS, GUEST_MEM), with KUnit off
# (kunit.enable=0), to catch assumptions of the default size.
out=$1
echo "$(grep -c '^processor' /proc/cpuinfo) CPUs, $(sed -n 's/^MemTotal: *//p' /proc/meminfo)" \
	>"$out/size"
export KTRACE_SAVE_DIR="$out/traces"
# Through a pipe, as job-check.sh does.
cd /kselftest && ./run_kselftest.sh 2>&1 | cat >"$out/kselftest.ktap"
exit 0
