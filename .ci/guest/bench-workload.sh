#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Workload benchmark of the bench job (issue: instrumentation): a fork,
# exec, pipe and block I/O mix timed with ktrace compiled in but off, with
# every ktrace event on (overwrite mode), and with the matching ftrace
# events on, ROUNDS rounds of the three; the bytes each tracer wrote for it;
# and the statedump's duration with about 200 tasks and with 2,000.
# Prints "key value" lines.  Times are CLOCK_MONOTONIC ns (ktrace-now):
# under QEMU's instruction counting, counts of guest instructions.
KT=/sys/kernel/debug/ktrace
TR=/sys/kernel/tracing
ITER=${ITER:-200}
ROUNDS=${ROUNDS:-5}
ncpu=$(grep -c '^processor' /proc/cpuinfo)
mountpoint -q $TR 2>/dev/null || mount -t tracefs nodev $TR

# CLOCK_MONOTONIC, ns
now() { ktrace-now; }

work() {
	i=0
	while [ $i -lt "$ITER" ]; do
		echo "$i" | cat >/dev/null
		dd if=/dev/zero of=/dev/nullb0 bs=4k count=16 oflag=direct 2>/dev/null
		i=$((i + 1))
	done
}

# ns the workload took (awk: the shell's arithmetic may be 32-bit)
timed() { t0=$(now); work; echo "$t0 $(now)" | awk '{ print $2 - $1 }'; }

# The ftrace events matching ktrace's.
FT_EVENTS="sched/sched_switch sched/sched_wakeup sched/sched_wakeup_new
sched/sched_migrate_task sched/sched_process_exit sched/sched_process_hang
sched/sched_process_fork sched/sched_process_exec task/task_rename
irq/irq_handler_entry irq/irq_handler_exit irq/softirq_entry irq/softirq_exit
irq/softirq_raise timer/timer_expire_entry timer/hrtimer_expire_entry
raw_syscalls/sys_enter raw_syscalls/sys_exit block/block_bio_queue
block/block_rq_insert block/block_rq_issue block/block_rq_requeue
block/block_rq_complete vmscan/mm_vmscan_direct_reclaim_begin
vmscan/mm_vmscan_direct_reclaim_end vmscan/mm_vmscan_kswapd_wake
vmscan/mm_vmscan_kswapd_sleep vmscan/mm_vmscan_lru_shrink_inactive
oom/mark_victim net/net_dev_xmit net/netif_receive_skb"

ft_events() {
	n=0
	for e in $FT_EVENTS; do
		[ -w "$TR/events/$e/enable" ] && echo "$1" >"$TR/events/$e/enable" && n=$((n + 1))
	done
	echo "$n"
}

kt_on() {
	echo 0 >$KT/enable
	# A mode change frees the buffers: every run starts with zero counts.
	echo drop >$KT/mode
	echo overwrite >$KT/mode
	echo 16384 >$KT/buffer_size_kb
	echo 1 >$KT/events/enable
	[ -d $KT/events/test ] && echo 0 >$KT/events/test/enable
	echo 0 >$KT/events/statedump/enable
	echo 1 >$KT/enable
}
kt_off() { echo 0 >$KT/enable; echo 0 >$KT/events/enable; }
# bytes or events ($1) written, every CPU, the channels matching $2
kt_sum() { awk -v k="$1=" -v ch="$2" '$2 ~ ch { for (i = 3; i <= NF; i++) if (index($i, k) == 1) {
	sub(k, "", $i); b += $i } } END { print b + 0 }' $KT/stats; }
kt_bytes() { kt_sum bytes "^(high|medium|low)$"; }
kt_events() { kt_sum events "^(high|medium|low)$"; }

ft_on() {
	echo 0 >$TR/tracing_on
	echo 16384 >$TR/buffer_size_kb
	echo >$TR/trace
	ft_events 1 >/dev/null
	echo 1 >$TR/tracing_on
}
ft_off() { echo 0 >$TR/tracing_on; ft_events 0 >/dev/null; }
ft_sum() { cat $TR/per_cpu/cpu*/stats | awk -v k="$1:" '$1 == k { s += $2 } END { print s + 0 }'; }

echo "ftrace_events $(ft_events 0)"
work >/dev/null	# warm up
# BENCH_OFF_ONLY: the rounds with no tracer on alone (job-workload.sh).
if [ -n "${BENCH_OFF_ONLY:-}" ]; then
	off="" r=0
	while [ $r -lt "$ROUNDS" ]; do
		r=$((r + 1))
		off="$off $(timed)"
	done
	echo "workload_ns_off$off"
	exit 0
fi
off="" kt="" ft=""
r=0
while [ $r -lt "$ROUNDS" ]; do
	r=$((r + 1))
	off="$off $(timed)"
	kt_on
	kt="$kt $(timed)"
	kb=$(kt_bytes) ke=$(kt_events)
	# The history: the high and medium channels; the low one holds the
	# metadata, written once per start, kept whatever the mode.
	hb=$(kt_sum bytes "^(high|medium)$") he=$(kt_sum events "^(high|medium)$")
	kt_off
	ft_on
	ft="$ft $(timed)"
	fb=$(ft_sum bytes) fe=$(ft_sum entries) fo=$(ft_sum overrun)
	ft_off
done
echo "workload_iterations $ITER"
# ns of each round, in order
echo "workload_ns_off$off"
echo "workload_ns_ktrace$kt"
echo "workload_ns_ftrace$ft"
echo "ktrace_bytes $kb"
echo "ktrace_events $ke"
echo "ktrace_history_bytes $hb"
echo "ktrace_history_events $he"
echo "ftrace_bytes $fb"
echo "ftrace_events_written $fe"
echo "ftrace_overrun $fo"

# The statedump with about 200 tasks.
i=0
while [ $i -lt 190 ]; do
	sleep 1000 &
	i=$((i + 1))
done
echo "tasks $(ls /proc | grep -c '^[0-9]')"
echo 0 >$KT/events/enable
echo 1 >$KT/events/statedump/enable
echo drop >$KT/mode
# statedump KEY SECONDS: one statedump, its statedump:end as "KEY fields";
# SECONDS of guest time to decode the trace.
statedump() {
	echo 1 >$KT/enable
	echo 0 >$KT/enable
	timeout "$2" cat $KT/ascii | sed -n "s/.* statedump:end /$1 /p"
}
statedump statedump 5
# Again with 2,000 tasks: a lock held per task, not for all (goal: no
# hold over 100 us).  In overwrite mode: their records overflow the
# medium channel, which in drop mode would drop statedump:end.
n=$(ls /proc | grep -c '^[0-9]')
while [ "$n" -lt 2000 ]; do
	sleep 1000 &
	n=$((n + 1))
done
echo "tasks_2000 $(ls /proc | grep -c '^[0-9]')"
echo overwrite >$KT/mode
statedump statedump_2000 120
kill $(jobs -p) 2>/dev/null
exit 0
