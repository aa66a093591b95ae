#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The crash job: crash.sh (hung_task and oops triggers through LKDTM), then
# the results are written, and the kernel panics through LKDTM with the
# panic trigger armed: the host (.ci/check) looks for the ascii dump of the
# events before the panic in the console log.
out=$1
KT=/sys/kernel/debug/ktrace
export KTRACE_SAVE_DIR="$out/traces"
# On the console too: a hang here leaves only the console to read.
(cd /kselftest/ktrace && ./crash.sh) 2>&1 | tee /dev/console >"$out/crash.ktap"
# The panic never returns: the results go to the host now.
echo 0 >"$out/status"
dmesg >"$out/dmesg.txt"
(cd "$out" && tar -cf /dev/vda .) && sync
# 30 marks from CPU 0, of which the dump shows the last 20.
taskset -p 1 $$ >/dev/null
echo 0 >$KT/enable
echo overwrite >$KT/mode
echo 0 >$KT/events/enable
echo 1 >$KT/events/ktrace/enable
echo 'panic last=20' >$KT/triggers
echo 1 >$KT/enable
for i in $(seq 30); do
	echo "before-panic-$i" >$KT/mark
done
echo "ktrace-guest: panicking now (pid $$)" >/dev/console
echo PANIC >/sys/kernel/debug/provoke-crash/DIRECT
