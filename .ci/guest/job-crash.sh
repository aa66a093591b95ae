#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The crash job: crash.sh (hung_task and oops triggers through LKDTM), then
# the results are written, and the kernel panics through LKDTM with the
# panic trigger armed: the host (.ci/check) looks for the ascii dump of the
# events before the panic in the console log.
#
# KTRACE_CRASH=panic (on the kernel command line) skips crash.sh, whose oops
# would turn lockdep off, for the debug kernel: there, while CPU 0 panics,
# CPU 1 keeps writing marks, a reader of the ascii pipe keeps formatting
# them and a loop keeps toggling events, so that the panic stops CPU 1 in
# ktrace_mutex (almost always) or in the reader's line.  The dump must
# still complete, without a splat, and the guest reboot.
out=$1
KT=/sys/kernel/debug/ktrace
export KTRACE_SAVE_DIR="$out/traces"
# KTRACE_CRASH=dumpfault (job-dumpfault.sh) skips it too.
if [ -z "${KTRACE_CRASH:-}" ]; then
	# On the console too: a hang here leaves only the console to read.
	(cd /kselftest/ktrace && ./crash.sh) 2>&1 | tee /dev/console >"$out/crash.ktap"
fi
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
if [ "${KTRACE_CRASH:-}" = panic ]; then
	# Never ending: the panic stops them where they are.
	taskset 2 sh -c 'i=0; while :; do echo "load-$i" >'$KT'/mark; i=$((i + 1)); done' &
	taskset 2 cat $KT/ascii >/tmp/ascii &
	# A control file too: each toggle holds ktrace_mutex while it
	# registers the block tracepoints, which nothing here fires.
	taskset 2 sh -c 'while :; do
		echo 1 >'$KT'/events/block/enable
		echo 0 >'$KT'/events/block/enable
	done' &
	# The reader is at work: it read a whole subbuffer of marks.
	for _ in $(seq 300); do
		grep -q ' ktrace:mark .* text="load-' /tmp/ascii && break
		sleep 0.1
	done
	echo "ktrace-guest: the reader read $(wc -l </tmp/ascii) lines" >/dev/console
fi
for i in $(seq 30); do
	echo "before-panic-$i" >$KT/mark
done
echo "ktrace-guest: panicking now (pid $$)" >/dev/console
echo PANIC >/sys/kernel/debug/provoke-crash/DIRECT
