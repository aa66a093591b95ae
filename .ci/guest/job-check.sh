#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The make-check job: KUnit results of the boot and the kselftests.
out=$1
mkdir -p "$out/kunit"
# KUnit ran at boot; debugfs keeps each suite's KTAP.
for d in /sys/kernel/debug/kunit/*/; do
	[ -f "$d/results" ] && cp "$d/results" "$out/kunit/$(basename "$d").ktap"
done
ls /sys/kernel/debug/kunit >"$out/kunit/suites.txt" 2>&1
# Through a pipe: the runner appends the tests' output through a second
# descriptor of its stdout, which a regular file would let it overwrite.
export KTRACE_SAVE_DIR="$out/traces"
cd /kselftest && ./run_kselftest.sh 2>&1 | cat >"$out/kselftest.ktap"
exit 0
