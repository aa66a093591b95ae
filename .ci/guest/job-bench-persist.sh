#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# make bench, second boot: the boot-time benchmark of the write path with
# the persistent recorder (reserve_mem= and ktrace.persist= on the kernel
# command line); its lines, and where its buffers were.
dmesg | sed -n 's/.*ktrace_bench: //p' >"$1/bench.txt"
cat /sys/kernel/debug/ktrace/persist >"$1/persist.txt"
[ -s "$1/bench.txt" ] && grep -q '^buf high cpu0 ' "$1/persist.txt"
