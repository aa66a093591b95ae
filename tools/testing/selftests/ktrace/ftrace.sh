#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The kernel's own ftrace as ktrace's oracle: the same tracepoints enabled
# in both tracers at the same time (sched_switch, sched_wakeup,
# sched_wakeup_new, irq_handler_entry/exit, softirq_entry/exit/raise,
# raw_syscalls sys_enter/sys_exit, block_rq_issue/complete), both on
# CLOCK_MONOTONIC (ftrace's mono clock), around a workload of sleeps,
# pipes, forks, system calls and direct I/O on null_blk.  ktrace convert
# --ftrace writes ktrace's trace as ftrace's text; here both texts are
# checked for the basics, and saved (KTRACE_SAVE_DIR) with ftrace's
# per-CPU stats, for the comparison event by event on the host, which has
# python (.ci/check: tools/ktrace/tests/ftrace-compare.py).

. "$(dirname "$0")"/lib.sh

ktrace_setup
ktrace_tool
TR=/sys/kernel/tracing
[ -d $TR/events ] || mount -t tracefs nodev $TR 2>/dev/null
[ -f $TR/events/sched/sched_switch/enable ] ||
	{ ktap_skip_all "no ftrace events (tracefs)"; exit "$KSFT_SKIP"; }

TMP=$(mktemp -d)
ft_reset() {
	echo 0 >$TR/tracing_on
	echo 0 >$TR/events/enable
	echo local >$TR/trace_clock
	echo 1408 >$TR/buffer_size_kb
	echo >$TR/trace
}
# Back to the defaults: tracing on, nothing enabled, the local clock.
trap 'ft_reset; echo 1 >$TR/tracing_on; rm -rf "$TMP"' EXIT

FT_EVENTS="sched/sched_switch sched/sched_wakeup sched/sched_wakeup_new
	irq/irq_handler_entry irq/irq_handler_exit irq/softirq_entry
	irq/softirq_exit irq/softirq_raise raw_syscalls/sys_enter
	raw_syscalls/sys_exit block/block_rq_issue block/block_rq_complete"
KT_EVENTS=sched/switch,sched/wakeup,sched/wakeup_new,sched/fork,sched/exec,sched/comm
KT_EVENTS=$KT_EVENTS,irq/hardirq_*,irq/softirq_*,syscalls,block/bio_*,block/rq_*,statedump/task,statedump/irq

ft_reset
echo 0 >$TR/tracing_on
echo mono >$TR/trace_clock
echo 8192 >$TR/buffer_size_kb
bad=0
for e in $FT_EVENTS; do
	echo 1 >"$TR/events/$e/enable" || bad=$((bad + 1))
done
check "ftrace: the 12 events enabled" "$bad" 0

cat >"$TMP/w.sh" <<'EOF'
for i in 1 2 3; do sleep 0.01; done
dd if=/dev/zero bs=4096 count=16 2>/dev/null | cat >/dev/null
ls / >/dev/null
if [ -b /dev/nullb0 ]; then
	dd if=/dev/zero of=/dev/nullb0 bs=4096 count=8 oflag=direct 2>/dev/null
	dd if=/dev/nullb0 of=/dev/null bs=4096 count=8 iflag=direct 2>/dev/null
fi
# Reads of the virtio disk (the results disk: read only): its interrupts
# are irq_handler_entry/exit, which the guest's timer is not.
[ -b /dev/vda ] && dd if=/dev/vda of=/dev/null bs=4096 count=4 iflag=direct 2>/dev/null
for c in 0 1; do
	taskset -c $c sh -c 'i=0; while [ $i -lt 300 ]; do i=$((i + 1)); done' &
done
wait
sleep 0.01
EOF

# ftrace on first, off last: ktrace's trace lies within ftrace's.
echo 1 >$TR/tracing_on
"$BIN" record -m drop -b 8192 -e "$KT_EVENTS" -o "$TMP/k.dat" -- sh "$TMP/w.sh" \
	>"$TMP/record.out" 2>&1
krc=$?
echo 0 >$TR/tracing_on
check "ktrace record: exit 0" "$krc" 0
cat $TR/trace >"$TMP/ftrace.txt"
for s in $TR/per_cpu/cpu*/stats; do
	echo "# $(basename "$(dirname "$s")")"
	cat "$s"
done >"$TMP/ftrace-stats.txt"
"$BIN" convert --ftrace -o "$TMP/ktrace.txt" "$TMP/k.dat" 2>"$TMP/convert.err"
check "ktrace convert --ftrace: exit 0" "$?" 0

# Both texts: ftrace's header, and lines of each event kind.
check "the header: ftrace's, line for line (but the counts)" \
	"$(head -n 12 "$TMP/ktrace.txt" | grep -v '^# entries-in-buffer')" \
	"$(head -n 12 "$TMP/ftrace.txt" | grep -v '^# entries-in-buffer')"
for e in sched_switch sched_wakeup softirq_entry sys_enter sys_exit; do
	n=$(grep -c ": $e: " "$TMP/ktrace.txt")
	f=$(grep -c ": $e: " "$TMP/ftrace.txt")
	ktap_print_msg "$e: ktrace $n, ftrace $f"
	[ "$n" -gt 0 ] && [ "$f" -ge "$n" ]
	check "$e: in both, ftrace's (the longer window) at least ktrace's" "$?" 0
done
if [ -b /dev/vda ]; then
	n=$(grep -c ': irq_handler_entry: ' "$TMP/ktrace.txt")
	in_range "irq_handler_entry lines of ktrace (virtio disk reads)" "$n" 1 100000
	has "irq_handler_entry: the IRQ's name from the statedump" "$TMP/ktrace.txt" \
		': irq_handler_entry: irq=[0-9]+ name=[^?]'
fi
if [ -b /dev/nullb0 ]; then
	n=$(grep -c ': block_rq_issue: ' "$TMP/ktrace.txt")
	in_range "block_rq_issue lines of ktrace (null_blk)" "$n" 16 100000
fi

if [ -n "${KTRACE_SAVE_DIR:-}" ]; then
	mkdir -p "$KTRACE_SAVE_DIR"
	cp "$TMP/k.dat" "$KTRACE_SAVE_DIR/ftrace-ktrace.dat"
	cp "$TMP/ftrace.txt" "$KTRACE_SAVE_DIR/ftrace-ftrace.txt"
	cp "$TMP/ftrace-stats.txt" "$KTRACE_SAVE_DIR/ftrace-stats.txt"
	cp "$TMP/ktrace.txt" "$KTRACE_SAVE_DIR/ftrace-ktrace.txt"
fi
ktrace_done
