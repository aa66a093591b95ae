#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The make-bench job: the boot-time benchmark ran (kernel command line
# "ktrace.bench=1"); hand its lines back.
dmesg | sed -n 's/.*ktrace_bench: //p' >"$1/bench.txt"
[ -s "$1/bench.txt" ]
# The workload benchmark; its "key value" lines.  On CPU 1, every task
# it starts too: where the scheduler places them is not measured, and
# varies between rounds.
taskset -c 1 /ci/bench-workload.sh >"$1/workload.txt" 2>"$1/workload.err"
# The triggers: the matcher's cost per pair and the trigger-to-freeze delay.
/ci/bench-trigger.sh >"$1/trigger.txt" 2>"$1/trigger.err"
