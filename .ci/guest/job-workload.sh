#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The workload of make bench alone, with no tracer on: its "off" rounds,
# on CPU 1.  Booted on the guest kernel and on one built without ktrace
# (.ci/noktrace.config), under instruction counting, it gives the cost of
# CONFIG_KTRACE=y with tracing off.
BENCH_OFF_ONLY=1 taskset -c 1 /ci/bench-workload.sh >"$1/workload.txt" 2>"$1/workload.err"
