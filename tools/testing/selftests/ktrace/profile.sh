#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# ktrace profile beside trace-cmd report --profile, on one run traced by
# both: ftrace's sched_switch and sched_wakeup (trace-cmd start), and
# ktrace's sched events (ktrace record) around a workload of sleeps, a
# pipe and two tasks that preempt each other on one CPU.  For every task
# of the workload born and dead within ktrace's profile window, both
# tools answer the same question: how long it slept, was blocked and
# waited to run.
#
# trace-cmd's profile (tracecmd/trace-profile.c) counts, per task:
#   sched_switch:STATE  from the switch away in STATE to the wakeup (a
#                       sleep: S, I, ...; D is ktrace's "blocked"), or,
#                       for a task preempted (no wakeup), to the switch
#                       back to it: a wait;
#   sched_wakeup        from the wakeup to the switch to it: a wait.
# It ignores sched_wakeup_new, which ktrace counts as the first wait of a
# new task: ktrace's waits are trace-cmd's plus one for each task here,
# and its wait time trace-cmd's plus that first wait, which is taken from
# ktrace report (wakeup_new to the first switch to the task).
#
# The two tracers stamp the same tracepoint calls, each in its own probe,
# both with CLOCK_MONOTONIC (ftrace's mono clock, -C mono): a time may
# differ by the probes' distance, a few microseconds, at each end.  TOL_NS
# per event ended, and 0.5% of the total, bound the difference.
# With KTRACE_SAVE_DIR set, both traces and both profiles are kept there.

. "$(dirname "$0")"/lib.sh

ktrace_setup
ktrace_tool
command -v trace-cmd >/dev/null 2>&1 ||
	{ ktap_skip_all "no trace-cmd installed"; exit "$KSFT_SKIP"; }
# tracefs at /sys/kernel/tracing, where trace-cmd looks first: an earlier
# test may have mounted it only under debugfs (its automount).
[ -d /sys/kernel/tracing/events ] ||
	mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
[ -f /sys/kernel/tracing/events/sched/sched_switch/enable ] ||
	{ ktap_skip_all "no ftrace sched events (tracefs)"; exit "$KSFT_SKIP"; }

TMP=$(mktemp -d)
trap 'trace-cmd reset >/dev/null 2>&1; rm -rf "$TMP"' EXIT
# A debug kernel (lockdep, KASAN: the guest of make check's debug boot)
# delayed one record of one tracer by 1.5 ms against the other's in one
# run: there the times get 2 ms an event, and the counts stay exact.
if [ -e /proc/lockdep ]; then
	TOL_NS=${TOL_NS:-2000000}
	ktap_print_msg "a lockdep kernel: times within ${TOL_NS} ns an event"
fi
TOL_NS=${TOL_NS:-50000}

cat >"$TMP/w.sh" <<'EOF2'
# Every CPU records before and after (a task on each, CPUs $1): the profile
# window is the time every CPU was recorded (ktrace(1)).
each() { c=0; while [ $c -lt "$1" ]; do taskset -c $c true; c=$((c + 1)); done; }
each "$1"
for i in 1 2 3 4 5; do sleep 0.02; done
dd if=/dev/zero bs=4096 count=64 2>/dev/null | dd of=/dev/null bs=512 2>/dev/null
for i in 1 2; do
	taskset -c 1 sh -c 'i=0; while [ $i -lt 4000 ]; do i=$((i + 1)); done' &
done
wait
each "$1"
EOF2

trace-cmd start -C mono -e sched:sched_switch -e sched:sched_wakeup >"$TMP/tc-start.log" 2>&1
rc=$?
"$BIN" record -e sched -o "$TMP/k.dat" -- sh "$TMP/w.sh" "$(grep -c '^processor' /proc/cpuinfo)" \
	>"$TMP/record.out" 2>&1
krc=$?
trace-cmd stop >/dev/null 2>&1
trace-cmd extract -o "$TMP/tc.dat" >"$TMP/tc-extract.log" 2>&1
erc=$?
check "trace-cmd start and extract, ktrace record: exit 0" "$rc/$erc/$krc" "0/0/0"

trace-cmd report --profile -i "$TMP/tc.dat" >"$TMP/tc.prof" 2>"$TMP/tc.err"
rc=$?
"$BIN" profile "$TMP/k.dat" >"$TMP/k.prof" 2>"$TMP/k.err"
krc=$?
"$BIN" report "$TMP/k.dat" >"$TMP/k.rep" 2>>"$TMP/k.err"
check "trace-cmd report --profile, ktrace profile and report: exit 0" "$rc/$krc/$?" "0/0/0"
has "ktrace profile: no record lost" "$TMP/k.prof" '^# profile: .* 0 loss\(es\)$'

if [ -n "${KTRACE_SAVE_DIR:-}" ]; then
	mkdir -p "$KTRACE_SAVE_DIR"
	cp "$TMP/k.dat" "$KTRACE_SAVE_DIR/profile-ktrace.dat"
	cp "$TMP/tc.dat" "$KTRACE_SAVE_DIR/profile-trace-cmd.dat"
	cp "$TMP/k.prof" "$KTRACE_SAVE_DIR/profile-ktrace.txt"
	cp "$TMP/tc.prof" "$KTRACE_SAVE_DIR/profile-trace-cmd.txt"
fi

# The tasks of the workload: forked and exited within the profile window,
# with the first wait of each (wakeup_new to the first switch to it), in
# ns: "PID FIRST_WAIT_NS".  A fraction loses its leading zeros first:
# busybox awk reads "0123" as octal.
awk 'function ns(t,  p) { split(t, p, "."); sub(/^0+/, "", p[2])
		return p[1] * 1000000000 + p[2] }
	FILENAME == ARGV[1] { if ($2 == "profile:") { from = ns($4); to = ns($6) }; next }
	$4 == "sched:fork" { for (i = 5; i <= NF; i++) if ($i ~ /^child_pid=/)
		born[substr($i, 11)] = ns($1) }
	$4 == "sched:wakeup_new" { p = substr($5, 5); if (!(p in woken)) woken[p] = ns($1) }
	$4 == "sched:switch" { p = substr($NF, 10)
		if ((p in woken) && !(p in first)) first[p] = ns($1) - woken[p] }
	$4 == "sched:exit" { died[substr($5, 5)] = ns($1) }
	END { for (p in born) if (born[p] >= from && (p in died) && died[p] <= to &&
		(p in first)) print p, first[p] }' "$TMP/k.prof" "$TMP/k.rep" |
	sort -n >"$TMP/tasks"

# ktrace profile: "PID COMM WAITS WAIT_NS SLEEP_NS BLOCKED_NS".
awk '$1 == "task" { for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
	us = "wait sleep blocked"; split(us, u, " ")
	for (j in u) { x = v[u[j]]; sub(/us$/, "", x); split(x, q, ".")
		sub(/^0+/, "", q[2]); n[u[j]] = q[1] * 1000 + q[2] }
	print v["pid"], v["comm"], v["waits"], n["wait"], n["sleep"], n["blocked"] }' \
	"$TMP/k.prof" >"$TMP/k.tab"

# trace-cmd's profile: "PID WAITS WAIT_NS SLEEP_NS BLOCKED_NS".  On 6.12
# a preempted task's sched_switch state prints as "W" (TASK_REPORT_MAX,
# R+ in ftrace's own output), and R when it switched away runnable.
awk 'function out() { if (pid != "") print pid, w + 0, wt + 0, s + 0, b + 0 }
	/^task: / { out(); i = match($0, /-[0-9]+$/); pid = substr($0, i + 1)
		w = wt = s = b = 0; next }
	/^group: / { out(); pid = ""; next }
	pid != "" && $1 == "Event:" { c = $3; gsub(/[()]/, "", c); t = 0
		for (i = 4; i < NF; i++) if ($i == "Total:") t = $(i + 1)
		if ($2 ~ /^sched_wakeup:/ || $2 == "sched_switch:R" || $2 == "sched_switch:W") {
			w += c; wt += t
		} else if ($2 == "sched_switch:D") {
			b += t
		} else if ($2 ~ /^sched_switch:/) {
			s += t
		} }
	END { out() }' "$TMP/tc.prof" >"$TMP/tc.tab"

# One line per task of the workload: the figures side by side and the
# verdict.  A difference is allowed TOL_NS per event (each wait or sleep
# ended) plus 0.5% of trace-cmd's figure.  The guest's vCPU is a host
# thread: the host can take the CPU away between ftrace's probe and
# ktrace's, irqs off or not, and one event's two stamps are then a host
# time slice apart (310 us in one run of 10 under TCG).  That event ends
# one interval and starts another (a wakeup: a sleep and a wait; a
# switch: prev's sleep and next's wait), so two figures of the run may be
# off by up to SLICE_NS more (outliers); a third, or a count that
# differs, fails.
SLICE_NS=${SLICE_NS:-4000000}
awk -v tol="$TOL_NS" -v slice="$SLICE_NS" 'function off(k, t, n) { d = k - t; if (d < 0) d = -d
		d -= tol * (n + 1) + t / 200; return d <= 0 ? 0 : d <= slice ? 1 : 99 }
	FILENAME == ARGV[1] { first[$1] = $2; next }
	FILENAME == ARGV[2] { if ($1 in first) { comm[$1] = $2; kw[$1] = $3; kwt[$1] = $4
		ks[$1] = $5; kb[$1] = $6 }; next }
	($1 in comm) { p = $1; seen++
		o = off(kwt[p], $3 + first[p], $2) + off(ks[p], $4, kw[p]) + off(kb[p], $5, kw[p])
		v = (kw[p] == $2 + 1) && outliers + o <= 2
		outliers += v * o
		bad += !v
		printf "pid=%s comm=%s waits %d/%d+1 wait %d/%d+%d", p, comm[p], kw[p], $2,
			kwt[p], $3, first[p]
		printf " sleep %d/%d blocked %d/%d ns%s\n", ks[p], $4, kb[p], $5,
			v ? o ? " OUTLIER" : "" : " DIFFERS" }
	END { printf "%d %d\n", seen, bad + 0 > "/dev/stderr" }' \
	"$TMP/tasks" "$TMP/k.tab" "$TMP/tc.tab" >"$TMP/cmp" 2>"$TMP/cmp.sum"
while read -r l; do ktap_print_msg "ktrace/trace-cmd: $l"; done <"$TMP/cmp"
read -r seen bad <"$TMP/cmp.sum"
# 5 sleep, 2 dd, 2 busy shells, the subshells and the tasks on each CPU.
in_range "tasks of the workload in both profiles" "$seen" 9 100
check "every task: ktrace's waits, wait, sleep and blocked times are trace-cmd's" \
	"$bad" 0
[ "$bad" = 0 ] || { head -n 40 "$TMP/tc.prof" | while read -r l; do
	ktap_print_msg "trace-cmd: $l"; done; }

ktrace_done
