#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# make bench, triggers: "key value" lines.
#   lat_base_ns / lat_events_ns / lat_armed_ns: ns per getppid(2) with
#     tracing on and no event, with syscalls:entry/exit on, and with those
#     and an armed latency:syscall trigger matching every call (medians of
#     3 runs of N calls): events_ns - base_ns is the cost of the pair of
#     events, armed_ns - events_ns that of the matcher on the same pair.
#   freeze_ns / stop_us: from the cause (a write to trigger) to the
#     writers' gate closed and to the trace stopped and readable, as the
#     kernel logs them (medians of 5); stop_begin_us: to the start of the
#     work that stops it.
KT=/sys/kernel/debug/ktrace
LAT=/kselftest/ktrace/ktrace_lat
N=${BENCH_TRIGGER_CALLS:-200000}

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
run3() { for _ in 1 2 3; do taskset -c 1 "$LAT" loop "$N" | awk '{ print $2 }'; done | median; }

echo 0 >$KT/enable
echo overwrite >$KT/mode
echo 0 >$KT/events/enable
echo 1 >$KT/enable
echo "lat_base_ns $(run3)"
echo 1 >$KT/events/syscalls/enable
echo "lat_events_ns $(run3)"
echo 'latency:syscall>1s' >$KT/triggers
echo "lat_armed_ns $(run3)"
grep latency $KT/triggers | sed 's/.*untracked=/lat_untracked /'
echo '!latency:syscall' >$KT/triggers
echo 0 >$KT/enable
echo 0 >$KT/events/enable

echo user >$KT/triggers
start=$(dmesg | wc -l)
for _ in 1 2 3 4 5; do
	echo 1 >$KT/enable
	echo bench >$KT/trigger
	while [ "$(cat $KT/enable)" = 1 ]; do sleep 0.05; done
	sleep 0.2
done
dmesg | tail -n +$((start + 1)) | sed -n 's/.*trace frozen \([0-9]*\) ns and stopped \([0-9]*\) us.* began at \([0-9]*\) us.*/\1 \2 \3/p' >/tmp/freeze
echo "freeze_ns $(awk '{ print $1 }' /tmp/freeze | median)"
echo "stop_us $(awk '{ print $2 }' /tmp/freeze | median)"
echo "stop_begin_us $(awk '{ print $3 }' /tmp/freeze | median)"
echo '!user' >$KT/triggers
