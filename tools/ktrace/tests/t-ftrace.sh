# SPDX-License-Identifier: GPL-2.0
# ktrace convert --ftrace (ftrace.c), sourced by run.sh: tracefs "trace"
# text, line for line, of synthetic traces (mktrace.c: profile_trace() for
# the scheduler and system calls, a lost subbuffer; the latency corpus for
# block requests, IRQ names from the statedump and the mark lines).  The
# same lines against the kernel's own ftrace: the kselftest ftrace.sh and
# ftrace-compare.py (make check's host-ftrace-oracle).

MKTRACE_PROFILE=nr "$mk" "$tmp/ft.dat" "$tmp/ft.exp" profile
"$bin" convert --ftrace "$tmp/ft.dat" >"$tmp/ft.txt" 2>"$tmp/ft.err"
result "convert --ftrace: exit 0, nothing on stderr" \
	"$([ $? -eq 0 ] && [ ! -s "$tmp/ft.err" ]; echo $?)" "$tmp/ft.err"

# The header of tracefs "trace" (nop tracer, irq-info), 6.12's legend.
cat >"$tmp/ft.hwant" <<'EOT'
# tracer: nop
#
# entries-in-buffer/entries-written: 36/36   #P:2
#
#                                _-----=> irqs-off/BH-disabled
#                               / _----=> need-resched
#                              | / _---=> hardirq/softirq
#                              || / _--=> preempt-depth
#                              ||| / _-=> migrate-disable
#                              |||| /     delay
#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION
#              | |         |   |||||     |         |
EOT
head -n 12 "$tmp/ft.txt" | diff "$tmp/ft.hwant" - >"$tmp/ft.why"
result "convert --ftrace: the header, ftrace's" "$([ -s "$tmp/ft.why" ]; echo $((1 - $?)))" \
	"$tmp/ft.why"

# TP_printk() of sched_switch (the previous task on the line; R+ for a
# preemption; swapper/N for pid 0), sched_wakeup(_new), sys_enter (arg0)
# and sys_exit (NR -1, a saturated 511, negative returns); prio 120.
cat >"$tmp/ft.want" <<'EOT'
         starter-77      [000] .....     5.000000: sched_switch: prev_comm=starter prev_pid=77 prev_prio=120 prev_state=R ==> next_comm=sleeper next_pid=100 next_prio=120
          <idle>-0       [001] .....     5.000001: sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=worker next_pid=200 next_prio=120
          worker-200     [001] .....     5.000002: sched_wakeup_new: comm=child pid=201 prio=120 target_cpu=001
         sleeper-100     [000] .....     5.000002: sched_switch: prev_comm=sleeper prev_pid=100 prev_prio=120 prev_state=S ==> next_comm=worker next_pid=300 next_prio=120
          worker-300     [000] .....     5.000003: sys_enter: NR 230 (2a)
          worker-300     [000] .....     5.000003: sched_wakeup: comm=sleeper pid=100 prio=120 target_cpu=000
          worker-300     [000] .....     5.000004: sys_exit: NR 230 = 0
          worker-200     [001] .....     5.000004: sched_switch: prev_comm=worker prev_pid=200 prev_prio=120 prev_state=R+ ==> next_comm=child next_pid=201 next_prio=120
          worker-300     [000] .....     5.000004: sys_exit: NR 0 = -11
         sleeper-100     [000] .....     5.000007: sched_switch: prev_comm=sleeper prev_pid=100 prev_prio=120 prev_state=D ==> next_comm=worker next_pid=300 next_prio=120
          worker-300     [000] .....     5.000007: sys_enter: NR -1 (2a)
          worker-300     [000] .....     5.000008: sys_exit: NR -1 = -38
          worker-300     [000] .....     5.000008: sys_exit: NR 511 = 0
          worker-300     [000] .....     5.000009: sched_switch: prev_comm=worker prev_pid=300 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120
         sleeper-100     [000] .....     5.000011: tracing_mark_write: I|100|sched:exit pid=100
         sleeper-100     [000] .....     5.000011: sched_switch: prev_comm=sleeper prev_pid=100 prev_prio=120 prev_state=X ==> next_comm=swapper/0 next_pid=0 next_prio=120
EOT
grep -Fxf "$tmp/ft.want" "$tmp/ft.txt" | diff "$tmp/ft.want" - >"$tmp/ft.why"
result "convert --ftrace: sched_switch, sched_wakeup(_new), sys_enter/exit as ftrace prints them" \
	"$([ -s "$tmp/ft.why" ]; echo $((1 - $?)))" "$tmp/ft.why"

# Perfetto's line regex (systrace_line_tokenizer.cc) matches every line
# but the header: 36 of 36.
re='-([0-9]+)[[:space:]]+\[([0-9]+)\][[:space:]]*[a-zA-Z.]{3}[0-9a-f.]{1,2}[[:space:]]*'
re=$re'[0-9]+\.[0-9]+:[[:space:]]+[^[:space:]]+:'
echo "$(grep -v '^#' "$tmp/ft.txt" | grep -Ec -e "$re") of $(grep -vc '^#' "$tmp/ft.txt")" \
	>"$tmp/ft.n"
result "convert --ftrace: every event line matches Perfetto's regex" \
	"$([ "$(cat "$tmp/ft.n")" = "36 of 36" ]; echo $?)" "$tmp/ft.n"

# A lost subbuffer: ftrace's own line for lost events, before the next one.
"$mk" "$tmp/ftl.dat" "$tmp/ftl.exp" profile
"$bin" convert --ftrace -o "$tmp/ftl.txt" "$tmp/ftl.dat"
result "convert --ftrace -o: CPU:1 [LOST EVENTS] before CPU 1's next event" \
	"$(grep -A1 -x 'CPU:1 \[LOST EVENTS\]' "$tmp/ftl.txt" | tail -n 1 |
		grep -qx '          <idle>-0       \[001\] .....     5.000015: sched_wakeup: comm=worker pid=200 prio=120 target_cpu=001'; echo $?)"

# Block requests from their descriptions, IRQ names from the statedump,
# the other events as marks (systrace's instant, '|' made '/').
"$bin" convert --ftrace "$(dirname "$0")/corpus/latency.dat" >"$tmp/ftb.txt" 2>&1
cat >"$tmp/ftb.want" <<'EOT'
              dd-321     [000] .....     5.001011: block_rq_issue: 8,0 R 4096 () 2048 + 8 none,0,0 [dd]
              dd-321     [000] .....     5.002011: block_rq_complete: 8,0 R () 2048 + 8 none,0,0 [0]
          <idle>-0       [001] .....     5.010000: irq_handler_entry: irq=24 name=eth0-rx
          <idle>-0       [001] .....     5.011000: irq_handler_entry: irq=25 name=?
          <idle>-0       [001] .....     5.044250: tracing_mark_write: I|0|irq:irqsoff caller=slow_path+0x20/0x100 duration_ns=250000
EOT
grep -Fxf "$tmp/ftb.want" "$tmp/ftb.txt" | diff "$tmp/ftb.want" - >"$tmp/ftb.why"
result "convert --ftrace: block_rq_issue/complete, irq_handler_entry names, marks" \
	"$([ -s "$tmp/ftb.why" ]; echo $((1 - $?)))" "$tmp/ftb.why"

# Usage errors: one trace only; -o and --ftrace go together.
check "convert --ftrace: two traces is a usage error" 2 '' \
	'^ktrace convert: --ftrace converts one trace file, not 2$' \
	-- convert --ftrace "$tmp/ft.dat" "$tmp/ftl.dat"
check "convert --ftrace: with --ctf is a usage error" 2 '' \
	'^ktrace convert: --ftrace takes -o OUT, not --ctf, --layout or --offset$' \
	-- convert --ftrace --ctf "$tmp/ftc" "$tmp/ft.dat"
check "convert --ftrace: with --layout is a usage error" 2 '' \
	'^ktrace convert: --ftrace takes -o OUT, not --ctf, --layout or --offset$' \
	-- convert --ftrace --layout ktrace "$tmp/ft.dat"
check "convert -o without --ftrace is a usage error" 2 '' '^ktrace convert: -o is for --ftrace' \
	-- convert -o "$tmp/fto.txt" "$tmp/ft.dat"
check "convert --ftrace -o: a directory that does not exist" 1 '' \
	'^ktrace convert: -o .*/nodir/x.txt: No such file or directory$' \
	-- convert --ftrace -o "$tmp/nodir/x.txt" "$tmp/ft.dat"

# ftrace-compare.py, the oracle's comparison (make check), on texts whose
# differences are known: the text against itself; a pid changed; a line
# dropped in the middle; an event on either side of an interrupt.
fc=$(dirname "$0")/ftrace-compare.py
if ! command -v python3 >/dev/null 2>&1; then
	n=$((n + 1))
	echo "ok $n # SKIP ftrace-compare.py: no python3"
else
	python3 "$fc" "$tmp/ft.txt" "$tmp/ft.txt" >"$tmp/fc.out" 2>&1
	result "ftrace-compare.py: a text against itself, every event equal" \
		"$([ $? -eq 0 ] && grep -qx 'all: 35 events compared, 35 equal, 0 reordered, 0 reaped, 0 different, 0 comm differences' \
			"$tmp/fc.out"; echo $?)" "$tmp/fc.out"
	sed 's/sys_exit: NR 0 = -11/sys_exit: NR 0 = -12/' "$tmp/ft.txt" >"$tmp/fc1.txt"
	python3 "$fc" "$tmp/fc1.txt" "$tmp/ft.txt" >"$tmp/fc.out" 2>&1
	result "ftrace-compare.py: a return value changed is a difference, exit 1" \
		"$([ $? -eq 1 ] && grep -q '^  cpu0 only in ftrace: .*sys_exit: NR 0 = -12$' "$tmp/fc.out" &&
			grep -q '^all: .* 2 different' "$tmp/fc.out"; echo $?)" "$tmp/fc.out"
	grep -v 'sys_enter: NR 230 (2a)' "$tmp/ft.txt" >"$tmp/fc2.txt"
	python3 "$fc" "$tmp/fc2.txt" "$tmp/ft.txt" >"$tmp/fc.out" 2>&1
	result "ftrace-compare.py: an event ftrace lacks is a difference, exit 1" \
		"$([ $? -eq 1 ] && grep -q '^  cpu0 only in ktrace: .*sys_enter: NR 230 (2a)$' "$tmp/fc.out"; echo $?)" \
		"$tmp/fc.out"
	# An interrupt between the two tracers' probes of one sys_enter: its
	# softirq_raise after ftrace's copy, before ktrace's: reordered.
	irq='          worker-300     [000] .....     5.000003: softirq_raise: vec=1 [action=TIMER]'
	awk -v irq="$irq" '{ print } /sys_enter: NR 230 \(2a\)/ { print irq }' "$tmp/ft.txt" \
		>"$tmp/fc3f.txt"
	awk -v irq="$irq" '/sys_enter: NR 230 \(2a\)/ { print irq } { print }' "$tmp/ft.txt" \
		>"$tmp/fc3k.txt"
	python3 "$fc" "$tmp/fc3f.txt" "$tmp/fc3k.txt" >"$tmp/fc.out" 2>&1
	result "ftrace-compare.py: an interrupt between the two probes is a reorder, exit 0" \
		"$([ $? -eq 0 ] && grep -q '^all: 36 events compared, 35 equal, 1 reordered, 0 reaped, 0 different' \
			"$tmp/fc.out"; echo $?)" "$tmp/fc.out"
	# The sys_enter after the wakeup of the same microsecond: no interrupt
	# between them, a difference.
	awk '/sys_enter: NR 230 \(2a\)/ { held = $0; next } { print }
		held && /sched_wakeup: comm=sleeper/ { print held; held = "" }' \
		"$tmp/ft.txt" >"$tmp/fc3.txt"
	python3 "$fc" "$tmp/fc3.txt" "$tmp/ft.txt" >"$tmp/fc.out" 2>&1
	result "ftrace-compare.py: two events swapped across another is a difference, exit 1" \
		"$([ $? -eq 1 ] && grep -q '^all: .* 0 reordered, 0 reaped, 2 different' "$tmp/fc.out"; echo $?)" \
		"$tmp/fc.out"
	# An exiting task ftrace saw a zombie (Z), ktrace dead (X): reaped
	# between the probes; any other state is a difference.
	sed 's/prev_state=X ==>/prev_state=Z ==>/' "$tmp/ft.txt" >"$tmp/fc5.txt"
	python3 "$fc" "$tmp/fc5.txt" "$tmp/ft.txt" >"$tmp/fc.out" 2>&1
	result "ftrace-compare.py: Z against X of an exiting task is reaped, exit 0" \
		"$([ $? -eq 0 ] && grep -q '^all: 35 events compared, 34 equal, 0 reordered, 1 reaped, 0 different' \
			"$tmp/fc.out"; echo $?)" "$tmp/fc.out"
	sed 's/prev_state=X ==>/prev_state=D ==>/' "$tmp/ft.txt" >"$tmp/fc6.txt"
	python3 "$fc" "$tmp/fc6.txt" "$tmp/ft.txt" >"$tmp/fc.out" 2>&1
	result "ftrace-compare.py: D against X is a difference, exit 1" \
		"$([ $? -eq 1 ] && grep -q '^all: .* 0 reaped, 2 different' "$tmp/fc.out"; echo $?)" \
		"$tmp/fc.out"
	# A line of ktrace's text that Perfetto would not parse fails.
	{ cat "$tmp/ft.txt"; echo '          x-1 [000] not an event'; } >"$tmp/fc7.txt"
	python3 "$fc" "$tmp/ft.txt" "$tmp/fc7.txt" >"$tmp/fc.out" 2>&1
	result "ftrace-compare.py: a line Perfetto's regex does not match fails, exit 1" \
		"$([ $? -eq 1 ] && grep -qx "ktrace: 1 lines Perfetto's line regex does not match" \
			"$tmp/fc.out"; echo $?)" "$tmp/fc.out"
	printf '# cpu0\noverrun: 0\n# cpu1\noverrun: 5\n' >"$tmp/fc.stats"
	sed '/\[001\].*sched_wakeup_new/d' "$tmp/ft.txt" >"$tmp/fc4.txt"
	python3 "$fc" "$tmp/fc4.txt" "$tmp/ft.txt" "$tmp/fc.stats" >"$tmp/fc.out" 2>&1
	result "ftrace-compare.py: a difference on a CPU whose ftrace overran is reported, not failed" \
		"$([ $? -eq 0 ] && grep -q '^cpu1: .* 1 different.*(lost events: not failed)$' "$tmp/fc.out"; echo $?)" \
		"$tmp/fc.out"
fi
