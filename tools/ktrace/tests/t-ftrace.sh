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
cp "$(dirname "$0")/ftrace-ft.want" "$tmp/ft.want" ||
	echo "no ftrace-ft.want" >"$tmp/ft.want"
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
		grep -qx '          <idle>-0       \[001\] .....     5.000015: sched_wakeup: '\
'comm=worker pid=200 prio=120 target_cpu=001'; echo $?)"

# Block requests from their descriptions, IRQ names from the statedump,
# the other events as marks (systrace's instant, '|' made '/').
"$bin" convert --ftrace "$(dirname "$0")/corpus/latency.dat" >"$tmp/ftb.txt" 2>&1
cp "$(dirname "$0")/ftrace-ftb.want" "$tmp/ftb.want" ||
	echo "no ftrace-ftb.want" >"$tmp/ftb.want"
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

# -o the trace itself: refused, the trace left; a failed conversion
# leaves OUT as it was (written to a temporary file, renamed once whole).
cp "$tmp/ft.dat" "$tmp/fts.dat"
check "convert --ftrace -o: the input itself is a usage error, the trace kept" 2 '' \
	'^ktrace convert: -o .*/fts.dat: the text would replace the trace$' \
	-- convert --ftrace -o "$tmp/fts.dat" "$tmp/fts.dat"
result "convert --ftrace -o: the input itself: the trace unchanged" \
	"$(cmp -s "$tmp/ft.dat" "$tmp/fts.dat"; echo $?)"
echo "what was there" >"$tmp/fto.txt"
# The text is 4.6 KB; a file size limit of 1 KB fails its writes.
sh -c 'trap "" XFSZ; ulimit -f 2; "$1" convert --ftrace -o "$2" "$3"' sh "$bin" "$tmp/fto.txt" \
	"$tmp/ft.dat" >/dev/null 2>"$tmp/fto.err"
result "convert --ftrace -o: a failed write leaves OUT as it was, exit 1, no temporary file" \
	"$([ $? -eq 1 ] && [ "$(cat "$tmp/fto.txt")" = "what was there" ] &&
		grep -qx 'ktrace convert: cannot write: File too large' "$tmp/fto.err" &&
		[ -z "$(ls "$tmp" | grep '^fto.txt.')" ]; echo $?)" "$tmp/fto.err"
"$bin" convert --ftrace -o "$tmp/fto.txt" "$tmp/ft.dat"
result "convert --ftrace -o: OUT replaced by the text, as standard output's" \
	"$(cmp -s "$tmp/fto.txt" "$tmp/ft.txt"; echo $?)"

# To standard output (a pipe), no file is written: under a file size
# limit of 1 KB the whole text (4.6 KB) still comes out.
sh -c 'trap "" XFSZ; ulimit -f 2; "$1" convert --ftrace "$2"' sh "$bin" "$tmp/ft.dat" 2>&1 |
	cat >"$tmp/ftp.txt"
result "convert --ftrace: no temporary file, the whole text under a file size limit" \
	"$(cmp -s "$tmp/ftp.txt" "$tmp/ft.txt"; echo $?)"

# Control characters of names, as report prints a comm (one word of one
# line, '?'): a task named "lea\nrn", an IRQ "eth0\nrx".
MKTRACE_NAME="$(printf 'lea\nrn')" "$mk" "$tmp/ftn.dat" "$tmp/ftn.exp"
"$bin" convert --ftrace "$tmp/ftn.dat" >"$tmp/ftn.txt" 2>&1
result "convert --ftrace: a comm's newline is '?', every line an event's or the header's" \
	"$(grep -q '^ *lea?rn-42 ' "$tmp/ftn.txt" &&
		! grep -v '^#\|^CPU:1 \[LOST EVENTS\]$' "$tmp/ftn.txt" |
		grep -Evq '^ *[^ ].*-[0-9]+ +\[[0-9]{3}\] '; echo $?)" \
	"$tmp/ftn.txt"
MKTRACE_IRQNAME="$(printf 'eth0\nrx')" "$mk" "$tmp/fti.dat" "$tmp/fti.exp" latency
"$bin" convert --ftrace "$tmp/fti.dat" >"$tmp/fti.txt" 2>&1
result "convert --ftrace: an IRQ name's newline is '?'" \
	"$(grep -q ': irq_handler_entry: irq=24 name=eth0?rx$' "$tmp/fti.txt" &&
		! grep -q '^rx' "$tmp/fti.txt"; echo $?)" "$tmp/fti.txt"
# A softirq vector ftrace has no name for: its value, as __print_symbolic().
MKTRACE_SOFTIRQ=1 "$mk" "$tmp/ftq.dat" "$tmp/ftq.exp" latency
"$bin" convert --ftrace "$tmp/ftq.dat" | grep ': softirq_raise: ' >"$tmp/ftq.txt"
cat >"$tmp/ftq.want" <<'EOT'
          <idle>-0       [001] .....     5.010010: softirq_raise: vec=3 [action=NET_RX]
          <idle>-0       [001] .....     5.010020: softirq_raise: vec=12 [action=0xc]
          <idle>-0       [001] .....     5.011010: softirq_raise: vec=1 [action=TIMER]
EOT
diff "$tmp/ftq.want" "$tmp/ftq.txt" >"$tmp/ftq.why"
result "convert --ftrace: softirq vectors, 12 as its \
value" "$([ -s "$tmp/ftq.why" ]; echo $((1 - $?)))" \
	"$tmp/ftq.why"

# ftrace-compare.py, the oracle's comparison (make check), on texts whose
# differences are known: the text against itself; a pid changed; a line
# dropped in the middle; an event on either side of an interrupt.  The
# workload's marks around them (4 s and 6 s); --min 10 (35 events).
fc=$(dirname "$0")/ftrace-compare.py
fp=$(dirname "$0")/ftrace-pair.py
if ! command -v python3 >/dev/null 2>&1; then
	n=$((n + 1))
	echo "ok $n # SKIP ftrace-compare.py: no python3"
else
	mark='              sh-1       [000] .....     %d.000000: tracing_mark_write: '\
'ktrace-ftrace-%s\n'
	{ head -n 12 "$tmp/ft.txt"; printf "$mark" 4 start; tail -n +13 "$tmp/ft.txt"
		printf "$mark" 6 end; } >"$tmp/ftm.txt"
	python3 "$fc" --min 10 "$tmp/ftm.txt" "$tmp/ftm.txt" >"$tmp/fc.out" 2>&1
	result "ftrace-compare.py: a text against itself, every event equal" \
		"$([ $? -eq 0 ] && grep -qx "all: 35 events compared, 35 equal, 0 reordered, 0 \
reaped, 0 different, 0 lost, 0 at the window's edges, 0 comm differences" \
			"$tmp/fc.out"; echo $?)" "$tmp/fc.out"
	sed 's/sys_exit: NR 0 = -11/sys_exit: NR 0 = -12/' "$tmp/ftm.txt" >"$tmp/fc1.txt"
	python3 "$fc" --min 10 "$tmp/fc1.txt" "$tmp/ftm.txt" >"$tmp/fc.out" 2>&1
	result "ftrace-compare.py: a return value changed is a difference, exit 1" \
		"$([ $? -eq 1 ] && grep -q '^  cpu0 only in ftrace: .*sys_exit: NR 0 = '\
'-12$' "$tmp/fc.out" &&
			grep -q '^all: .* 2 different' "$tmp/fc.out"; echo $?)" "$tmp/fc.out"
	grep -v 'sys_enter: NR 230 (2a)' "$tmp/ftm.txt" >"$tmp/fc2.txt"
	python3 "$fc" --min 10 "$tmp/fc2.txt" "$tmp/ftm.txt" >"$tmp/fc.out" 2>&1
	result "ftrace-compare.py: an event ftrace lacks is a difference, exit 1" \
		"$([ $? -eq 1 ] && grep -q '^  cpu0 only in ktrace: .*sys_enter: NR 230 '\
'(2a)$' "$tmp/fc.out"; echo $?)" \
		"$tmp/fc.out"
	# An interrupt between the two tracers' probes of one sys_enter: its
	# softirq_raise after ftrace's copy, before ktrace's: reordered.
	irq='          worker-300     [000] .....     5.000003: softirq_raise: vec=1 [action=TIMER]'
	awk -v irq="$irq" '{ print } /sys_enter: NR 230 \(2a\)/ { print irq }' "$tmp/ftm.txt" \
		>"$tmp/fc3f.txt"
	awk -v irq="$irq" '/sys_enter: NR 230 \(2a\)/ { print irq } { print }' "$tmp/ftm.txt" \
		>"$tmp/fc3k.txt"
	python3 "$fc" --min 10 "$tmp/fc3f.txt" "$tmp/fc3k.txt" >"$tmp/fc.out" 2>&1
	result "ftrace-compare.py: an interrupt between the two probes is a reorder, exit 0" \
		"$([ $? -eq 0 ] && grep -q '^all: 36 events compared, 35 equal, 1 reordered, 0 '\
'reaped, 0 different' \
			"$tmp/fc.out"; echo $?)" "$tmp/fc.out"
	# The sys_enter after the wakeup of the same microsecond: no interrupt
	# between them, a difference.
	awk '/sys_enter: NR 230 \(2a\)/ { held = $0; next } { print }
		held && /sched_wakeup: comm=sleeper/ { print held; held = "" }' \
		"$tmp/ftm.txt" >"$tmp/fc3.txt"
	python3 "$fc" --min 10 "$tmp/fc3.txt" "$tmp/ftm.txt" >"$tmp/fc.out" 2>&1
	result "ftrace-compare.py: two events swapped across another is a difference, exit 1" \
		"$([ $? -eq 1 ] && grep -q '^all: .* 0 reordered, 0 reaped, 2 '\
'different' "$tmp/fc.out"; echo $?)" \
		"$tmp/fc.out"
	# An exiting task ftrace saw a zombie (Z), ktrace dead (X): reaped
	# between the probes; any other state is a difference.
	sed 's/prev_state=X ==>/prev_state=Z ==>/' "$tmp/ftm.txt" >"$tmp/fc5.txt"
	python3 "$fc" --min 10 "$tmp/fc5.txt" "$tmp/ftm.txt" >"$tmp/fc.out" 2>&1
	result "ftrace-compare.py: Z against X of an exiting task is reaped, exit 0" \
		"$([ $? -eq 0 ] && grep -q '^all: 35 events compared, 34 equal, 0 reordered, 1 '\
'reaped, 0 different' \
			"$tmp/fc.out"; echo $?)" "$tmp/fc.out"
	sed 's/prev_state=X ==>/prev_state=D ==>/' "$tmp/ftm.txt" >"$tmp/fc6.txt"
	python3 "$fc" --min 10 "$tmp/fc6.txt" "$tmp/ftm.txt" >"$tmp/fc.out" 2>&1
	result "ftrace-compare.py: D against X is a difference, exit 1" \
		"$([ $? -eq 1 ] && grep -q '^all: .* 0 reaped, 2 '\
'different' "$tmp/fc.out"; echo $?)" \
		"$tmp/fc.out"
	# A line of ktrace's text that Perfetto would not parse fails.
	{ cat "$tmp/ftm.txt"; echo '          x-1 [000] not an event'; } >"$tmp/fc7.txt"
	python3 "$fc" --min 10 "$tmp/ftm.txt" "$tmp/fc7.txt" >"$tmp/fc.out" 2>&1
	result "ftrace-compare.py: a line Perfetto's regex does not match fails, exit 1" \
		"$([ $? -eq 1 ] && grep -qx "ktrace: 1 lines Perfetto's line regex does not match" \
			"$tmp/fc.out"; echo $?)" "$tmp/fc.out"
	# A passthrough request's command has spaces: compared, no crash.
	sed "s/() 2048 + 8/(12 34 56) 2048 + 8/" "$tmp/ftb.txt" >"$tmp/fc8.txt"
	{ head -n 12 "$tmp/fc8.txt"; printf "$mark" 4 start; tail -n +13 "$tmp/fc8.txt"
		printf "$mark" 6 end; } >"$tmp/fc8m.txt"
	python3 "$fc" --min 1 "$tmp/fc8m.txt" "$tmp/fc8m.txt" >"$tmp/fc.out" 2>&1
	result "ftrace-compare.py: a block request's (CMD) with spaces is compared, exit 0" \
		"$([ $? -eq 0 ] && grep -q '^all: [1-9][0-9]* events compared, .* 0 '\
'different' "$tmp/fc.out"; echo $?)" \
		"$tmp/fc.out"

	# A synthetic run of ftrace.sh (ftrace-pair.py, 1522 events between
	# the marks, more than the default --min, 500), whole, then with what would
	# hide a broken ktrace (the reviewer's mutations of a real pair).
	python3 "$fp" ftrace >"$tmp/fpf.txt"
	python3 "$fp" ktrace >"$tmp/fpk.txt"
	python3 "$fc" "$tmp/fpf.txt" "$tmp/fpk.txt" >"$tmp/fc.out" 2>&1
	result "ftrace-compare.py: ftrace.sh's pair, all 1522 events equal, exit 0" \
		"$([ $? -eq 0 ] && grep -qx "all: 1522 events compared, 1522 equal, 0 \
reordered, 0 reaped, 0 different, 0 lost, 0 at the window's edges, 0 comm differences" \
			"$tmp/fc.out"; echo $?)" "$tmp/fc.out"
	python3 "$fc" --min 1523 "$tmp/fpf.txt" "$tmp/fpk.txt" >"$tmp/fc.out" 2>&1
	result "ftrace-compare.py: fewer events compared than --min, exit 1" \
		"$([ $? -eq 1 ] && grep -qx 'fewer than 1523 events '\
'compared' "$tmp/fc.out"; echo $?)" \
		"$tmp/fc.out"
	# One LOST line before CPU 1's first event excuses nothing after it.
	awk '!done && /\[001\]/ { print "CPU:1 [LOST EVENTS]"; done = 1 }
		/\[001\].*sys_exit/ { sub(/= [0-9]+$/, "= 7") } { print }' "$tmp/fpk.txt" '\
'>"$tmp/fc9.txt"
	python3 "$fc" "$tmp/fpf.txt" "$tmp/fc9.txt" >"$tmp/fc.out" 2>&1
	result "ftrace-compare.py: a LOST line excuses no later difference, exit 1" \
		"$([ $? -eq 1 ] && grep -q '^cpu1: .* 374 different, 24 '\
'lost' "$tmp/fc.out"; echo $?)" "$tmp/fc.out"
	# Events ktrace lost between two of CPU 1's events, a LOST line
	# between them: excused, the rest equal.
	awk '/\[001\]/ && ++c >= 300 && c < 350 { next } c == 350 && !done { print "CPU:1 '\
'[LOST EVENTS]"; done = 1 }
		{ print }' "$tmp/fpk.txt" >"$tmp/fc10.txt"
	python3 "$fc" "$tmp/fpf.txt" "$tmp/fc10.txt" >"$tmp/fc.out" 2>&1
	result "ftrace-compare.py: events ktrace lost where its LOST line says are excused, \
exit 0" \
		"$([ $? -eq 0 ] && grep -q '^cpu1: .* 0 different, 50 '\
'lost' "$tmp/fc.out"; echo $?)" "$tmp/fc.out"
	head -n 457 "$tmp/fpk.txt" >"$tmp/fc11.txt"
	python3 "$fc" "$tmp/fpf.txt" "$tmp/fc11.txt" >"$tmp/fc.out" 2>&1
	result "ftrace-compare.py: ktrace's tail cut (no end mark), exit 1" \
		"$([ $? -eq 1 ] && grep -qx 'no window to compare: ktrace: 0 '\
'"ktrace-ftrace-end" marks, not 1' \
			"$tmp/fc.out"; echo $?)" "$tmp/fc.out"
	awk '/\[001\]/ { if (++c > 380) next } { print }' "$tmp/fpk.txt" >"$tmp/fc12.txt"
	python3 "$fc" "$tmp/fpf.txt" "$tmp/fc12.txt" >"$tmp/fc.out" 2>&1
	result "ftrace-compare.py: CPU 1's tail cut in ktrace, exit 1" \
		"$([ $? -eq 1 ] && grep -q '^cpu1: 380 events compared, 380 equal, .* 381 '\
'different' "$tmp/fc.out"; echo $?)" \
		"$tmp/fc.out"
	: >"$tmp/fc13.txt"
	python3 "$fc" "$tmp/fc13.txt" "$tmp/fc13.txt" >"$tmp/fc.out" 2>&1
	result "ftrace-compare.py: both texts empty, exit 1" \
		"$([ $? -eq 1 ] && grep -qx 'no window to compare: ftrace: 0 '\
'"ktrace-ftrace-start" marks, not 1' \
			"$tmp/fc.out"; echo $?)" "$tmp/fc.out"
	awk '/\[001\].*softirq_exit/ { held = $0; next } { print } /\[001\]/ && held { print '\
'held; held = "" }' \
		"$tmp/fpk.txt" >"$tmp/fc14.txt"
	python3 "$fc" "$tmp/fpf.txt" "$tmp/fc14.txt" >"$tmp/fc.out" 2>&1
	result "ftrace-compare.py: each softirq_exit of CPU 1 one event later, exit 1" \
		"$([ $? -eq 1 ] && grep -q '^cpu1: .* 0 reordered, 0 reaped, 134 '\
'different' "$tmp/fc.out"; echo $?)" \
		"$tmp/fc.out"
	# ftrace's losses from its stats: an overrun lost the oldest events
	# (excused before its first), a commit overrun lost events anywhere.
	awk '/\[001\]/ && !/tracing_mark/ && ++c <= 40 { next } { print '\
'}' "$tmp/fpf.txt" >"$tmp/fc15.txt"
	printf '# cpu0\noverrun: 0\ncommit overrun: 0\n# cpu1\noverrun: 5\ncommit overrun: 0\n' \
		>"$tmp/fc.stats"
	python3 "$fc" "$tmp/fc15.txt" "$tmp/fpk.txt" "$tmp/fc.stats" >"$tmp/fc.out" 2>&1
	result "ftrace-compare.py: ktrace's events before ftrace's first on a CPU that overran \
are lost, exit 0" \
		"$([ $? -eq 0 ] && grep -q '^cpu1: .* 0 different, 40 '\
'lost' "$tmp/fc.out"; echo $?)" "$tmp/fc.out"
	printf '# cpu0\noverrun: 0\ncommit overrun: 0\n# cpu1\noverrun: 0\ncommit overrun: 2\n' \
		>"$tmp/fc.stats"
	python3 "$fc" "$tmp/fpf.txt" "$tmp/fpk.txt" "$tmp/fc.stats" >"$tmp/fc.out" 2>&1
	result "ftrace-compare.py: a commit overrun of ftrace fails, exit 1" \
		"$([ $? -eq 1 ] && grep -qx '  cpu1: ftrace counts 2 commit overruns: where it '\
'lost them is not known' \
			"$tmp/fc.out"; echo $?)" "$tmp/fc.out"
fi
