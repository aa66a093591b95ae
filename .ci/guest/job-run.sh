#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The make-run demo: what ktrace does today, as a user would see it.
K=/sys/kernel/debug/ktrace
run() {
	echo "# $*"
	sh -c "$*" 2>&1
	echo
}
echo "ktrace demo on $(uname -r), $(nproc) CPUs"
echo
run 'dmesg | grep ktrace:'
run "ls -l $K $K/medium"
run "cat $K/mode $K/buffer_size_kb $K/enable"
run "echo yes > $K/enable; echo 64k > $K/buffer_size_kb"
run "echo drop > $K/mode; echo 1 > $K/enable; ktrace status"
run "echo overwrite > $K/mode"
run "taskset -c 0 sh -c 'echo hello from cpu0 > $K/mark'; taskset -c 1 sh -c 'echo hello from cpu1 > $K/mark'"
run "taskset -c 0 sh -c 'i=0; while [ \$i -lt 20000 ]; do echo \"mark \$i\" > $K/mark 2>/dev/null; i=\$((i+1)); done'; echo wrote 20000 marks on cpu0"
run "echo 0 > $K/enable; cat $K/stats"
run "cat $K/medium/cpu1 > /tmp/cpu1.bin; ls -l /tmp/cpu1.bin; od -A d -t x4 -N 64 /tmp/cpu1.bin"
run "/kselftest/ktrace/ktrace_count -m /tmp/cpu1.bin"
run "/kselftest/ktrace/ktrace_count -m $K/medium/cpu0 | tail -n 3"
run "echo hybrid > $K/mode; echo 1 > $K/events/test/tick/enable; echo 1 > $K/enable"
run "taskset -c 1 sh -c 'echo the ascii pipe, live > $K/mark'; sleep 0.01; echo 0 > $K/enable"
run "timeout 3 cat $K/ascii | grep -B2 -A2 ktrace:mark | head -n 6"
run "echo 'too late' > $K/mark"
# The flight recorder: overwrite mode with the vm events, an OOM trigger,
# a memory hog; the trigger freezes the trace at the kill.
run "echo 0 > $K/events/enable; echo 1 > $K/events/vm/enable; echo 1 > $K/events/ktrace/enable; echo overwrite > $K/mode; echo 'oom delay=100' > $K/triggers; cat $K/triggers"
run "echo 1 > $K/enable; sh -c 'echo 1000 > /proc/self/oom_score_adj; exec /kselftest/ktrace/ktrace_hog 4096' >/dev/null 2>&1; sleep 1; cat $K/enable $K/triggers"
run "timeout 1 cat $K/trigger_pipe"
run "timeout 3 cat $K/ascii | grep -E 'vm:|ktrace:trigger' | tail -n 6"
run "dmesg | grep 'ktrace: trigger'"
