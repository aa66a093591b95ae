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
MOUNTED=
if [ ! -d $TR/events ] && mount -t tracefs nodev $TR 2>/dev/null; then
	MOUNTED=1
fi
[ -f $TR/events/sched/sched_switch/enable ] ||
	{ [ -z "$MOUNTED" ] || umount $TR; ktap_skip_all "no ftrace events \
(tracefs)"; exit "$KSFT_SKIP"; }

FT_EVENTS="sched/sched_switch sched/sched_wakeup sched/sched_wakeup_new
	irq/irq_handler_entry irq/irq_handler_exit irq/softirq_entry
	irq/softirq_exit irq/softirq_raise raw_syscalls/sys_enter
	raw_syscalls/sys_exit block/block_rq_issue block/block_rq_complete"

# tracefs as it was: on or off, the clock, the buffer size, the events.
TMP=$(mktemp -d)
FT_ON=$(cat $TR/tracing_on)
FT_CLOCK=$(sed 's/.*\[\(.*\)\].*/\1/' $TR/trace_clock)
# "7 (expanded: 1408)" before the buffer's first use: the size it takes then.
FT_KB=$(sed 's/.*expanded: \([0-9]*\).*/\1/; s/ .*//' $TR/buffer_size_kb)
FT_WAS=
for e in $FT_EVENTS; do
	FT_WAS="$FT_WAS $e=$(cat "$TR/events/$e/enable" 2>/dev/null)"
done
ft_restore() {
	echo 0 >$TR/tracing_on
	for w in $FT_WAS; do
		[ -n "${w#*=}" ] && echo "${w#*=}" >"$TR/events/${w%%=*}/enable"
	done
	echo >$TR/trace
	echo "$FT_CLOCK" >$TR/trace_clock
	echo "$FT_KB" >$TR/buffer_size_kb
	echo "$FT_ON" >$TR/tracing_on
	[ -z "$MOUNTED" ] || umount $TR
	[ -z "${FT_SLEEP:-}" ] || kill "$FT_SLEEP" 2>/dev/null
	rm -rf "$TMP"
}
trap ft_restore EXIT
# The runner's timeout sends TERM, after which sh runs no EXIT trap of itself.
trap 'exit 1' INT TERM HUP

KT_EVENTS=sched/switch,sched/wakeup,sched/wakeup_new,sched/fork,sched/exec,sched/comm
KT_EVENTS=$KT_EVENTS,irq/hardirq_*,irq/softirq_*,syscalls,block/bio_*,block/rq_*
KT_EVENTS=$KT_EVENTS,statedump/task,statedump/irq,ktrace/mark

echo 0 >$TR/tracing_on
echo >$TR/trace
echo mono >$TR/trace_clock
echo 8192 >$TR/buffer_size_kb
bad=0
for e in $FT_EVENTS; do
	echo 1 >"$TR/events/$e/enable" || bad=$((bad + 1))
done
check "ftrace: the 12 events enabled" "$bad" 0
# FT_HANG (the test of a timeout, below): hang here, as a stuck run would.
if [ -n "${FT_HANG:-}" ]; then
	sleep 60 &
	FT_SLEEP=$!
	wait "$FT_SLEEP"
	exit 0
fi

# The workload's start and end marked in both tracers (trace_marker, ktrace's
# mark file): ftrace-compare.py compares every event between the marks.
cat >"$TMP/w.sh" <<'EOF'
echo ktrace-ftrace-start >/sys/kernel/tracing/trace_marker
echo ktrace-ftrace-start >/sys/kernel/debug/ktrace/mark
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
echo ktrace-ftrace-end >/sys/kernel/debug/ktrace/mark
echo ktrace-ftrace-end >/sys/kernel/tracing/trace_marker
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

# The workload's two marks in either text (in ktrace's: a mark line).
for f in ftrace ktrace; do
	check "$f: the start and end marks" \
		"$(grep -o 'tracing_mark_write: .*ktrace-ftrace-[a-z]*' "$TMP/$f.txt" |
			sed 's/.*ktrace-ftrace-//' | tr '\n' ' ')" "start end "
done

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

# A runner's timeout: TERM to a run stuck after enabling ftrace (FT_HANG)
# puts tracefs back as it was (here: tracing on, the local clock, 1024 KB,
# the events off).
ft_state() {
	echo "on=$(cat $TR/tracing_on) clock=$(sed 's/.*\[\(.*\)\].*/\1/' $TR/trace_clock)"
	echo "kb=$(sed 's/.*expanded: \([0-9]*\).*/\1/; s/ .*//' $TR/buffer_size_kb)"
	for e in $FT_EVENTS; do
		echo "$e=$(cat "$TR/events/$e/enable")"
	done
}
for e in $FT_EVENTS; do
	echo 0 >"$TR/events/$e/enable"
done
echo local >$TR/trace_clock
echo 1024 >$TR/buffer_size_kb
echo 1 >$TR/tracing_on
before=$(ft_state)
FT_HANG=1 sh "$0" >/dev/null 2>&1 &
child=$!
i=0
while [ $i -lt 200 ] && ! grep -q '\[mono\]' $TR/trace_clock; do
	sleep 0.1
	i=$((i + 1))
done
check "a stuck run: ftrace's clock mono (the run under way)" \
	"$(sed 's/.*\[\(.*\)\].*/\1/' $TR/trace_clock)" mono
kill -TERM "$child"
wait "$child"
check "a stuck run killed (TERM): tracefs as it was" "$(ft_state | tr '\n' ' ')" \
	"$(echo "$before" | tr '\n' ' ')"

if [ -n "${KTRACE_SAVE_DIR:-}" ]; then
	mkdir -p "$KTRACE_SAVE_DIR"
	cp "$TMP/k.dat" "$KTRACE_SAVE_DIR/ftrace-ktrace.dat"
	cp "$TMP/ftrace.txt" "$KTRACE_SAVE_DIR/ftrace-ftrace.txt"
	cp "$TMP/ftrace-stats.txt" "$KTRACE_SAVE_DIR/ftrace-stats.txt"
	cp "$TMP/ktrace.txt" "$KTRACE_SAVE_DIR/ftrace-ktrace.txt"
fi
ktrace_done
