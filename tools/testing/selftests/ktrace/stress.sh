#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Every CPU writes marks at full rate from task context while test:tick
# writes from hardirq context into the same buffers, nesting inside the
# mark writers; a reader consumes the relay files and a toggler stops and
# starts tracing and tries to change the mode and size.  Each writer goes
# on past the run until it wrote 1000 marks, for a guest with more CPUs
# than host cores, where a CPU writes fewer in the time.  Afterwards the
# accounting is exact per CPU (events = read + dropped + overwritten),
# every stream read was well formed with its ticks in order, and the
# kernel logged no warning.

. "$(dirname "$0")"/lib.sh

ktrace_setup

SECONDS_RUN=${KTRACE_STRESS_SECONDS:-8}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
ncpu=$(grep -c '^processor' /proc/cpuinfo)
dmesg_before=$(dmesg_mark)

TICK=$(sed -n 's/^id: //p' "$KT/events/test/tick/format")
echo drop >"$KT/mode"
echo 1 >"$KT/events/test/tick/enable"
echo 1 >"$KT/enable"
end=$(($(date +%s) + SECONDS_RUN))
# A writer that cannot write its 1000 marks gives up 60 s after the run.
for c in $(seq 0 $((ncpu - 1))); do
	taskset -c "$c" sh -c "n=0; t=\$(date +%s)
	while [ \$t -lt $end ] || [ \$n -lt 1000 -a \$t -lt $((end + 60)) ]; do
		i=0; while [ \$i -lt 200 ]; do
			echo \"s$c-\$i\" >$KT/mark 2>/dev/null && n=\$((n + 1))
			i=\$((i + 1)); done
		t=\$(date +%s)
	done" &
done
# The reader: everything it reads from each CPU's medium stream.
(while [ "$(date +%s)" -lt "$end" ]; do
	for c in $(seq 0 $((ncpu - 1))); do
		"$DIR"/ktrace_count -t "$TICK" "$KT/medium/cpu$c" >>"$TMP/read$c" 2>&1
	done
done) &
# The toggler: stop and start; mode and size changes are refused meanwhile.
busy=0
toggles=0
while [ "$(date +%s)" -lt "$end" ]; do
	echo 0 >"$KT/enable"
	cat "$KT/stats" >/dev/null
	echo 1 >"$KT/enable"
	[ "$(wr "$KT/mode" overwrite)" = EBUSY ] || busy=$((busy + 1))
	[ "$(wr "$KT/buffer_size_kb" 32)" = EBUSY ] || busy=$((busy + 1))
	toggles=$((toggles + 1))
done
wait
echo 0 >"$KT/enable"
echo 0 >"$KT/events/test/tick/enable"
for c in $(seq 0 $((ncpu - 1))); do
	"$DIR"/ktrace_count -t "$TICK" "$KT/medium/cpu$c" >>"$TMP/read$c" 2>&1
done
ktap_print_msg "$toggles start/stop cycles"

check "mode and size changes were refused while tracing" "$busy" 0
exact=0
wellformed=0
written=0
ticked=0
for c in $(seq 0 $((ncpu - 1))); do
	read=$(sed -n 's/.* events=\([0-9]*\) .*/\1/p' "$TMP/read$c" |
		awk '{ n += $1 } END { print n + 0 }')
	errors=$(grep -v '^ticks=' "$TMP/read$c" | grep -c -v '^subbufs=.* errors=0$')
	ticks=$(sed -n 's/^ticks=\([0-9]*\) .*/\1/p' "$TMP/read$c" |
		awk '{ n += $1 } END { print n + 0 }')
	ev=$(stat_of "$c" medium events)
	dr=$(stat_of "$c" medium dropped)
	ow=$(stat_of "$c" medium overwritten)
	ktap_print_msg "cpu$c: events=$ev read=$read (ticks $ticks) dropped=$dr overwritten=$ow"
	[ "$ticks" -gt 100 ] && ticked=$((ticked + 1))
	[ "$ev" -eq $((read + dr + ow)) ] && exact=$((exact + 1))
	[ "$errors" -eq 0 ] && wellformed=$((wellformed + 1))
	[ "$ev" -gt 1000 ] && written=$((written + 1))
done
check "every CPU wrote more than 1000 events" "$written" "$ncpu"
check "every CPU read more than 100 hardirq ticks" "$ticked" "$ncpu"
check "events = read + dropped + overwritten on every CPU" "$exact" "$ncpu"
check "every stream read was well formed, ticks in order" "$wellformed" "$ncpu"
check "the kernel logged no warning" "$(splats_since "$dmesg_before")" 0
echo 1 >"$KT/enable"
check "tracing still works" "$(wr "$KT/mark" alive)" "ok 5"
echo 0 >"$KT/enable"
echo hybrid >"$KT/mode"
ktrace_done
