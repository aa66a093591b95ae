# SPDX-License-Identifier: GPL-2.0
# Sourced by run.sh: missing data is said.  An analysis of a trace without
# the events it reads says which have no record and why (off when the
# trace was recorded, from the file's events section), and exits 1;
# record with no event enabled but ktrace's own records sched, irq and
# syscalls, says so, and its last line gives the events saved and lost.

"$mk" "$tmp/nd.dat" "$tmp/nd.exp" nodata
on='on, but no record: none happened, or all were lost \(ktrace stat\)'
check "io without block records: exit 1, rq_issue was on" 1 '' \
	"^ktrace io: $tmp/nd.dat: nothing to analyse: no record of block:rq_issue \($on\)$" \
	-- io "$tmp/nd.dat"
check "latency block: rq_issue on, rq_complete off: exit 1, both said" 1 '' \
	"^ktrace latency: $tmp/nd.dat: nothing to analyse: no record of block:rq_issue \($on\); \
block:rq_complete \(off when the trace was recorded: record it with -e block\)$" \
	-- latency block "$tmp/nd.dat"
check "latency syscall: syscalls off: exit 1, said" 1 '' \
	'no record of syscalls:entry \(off when the trace was recorded: '\
'record it with -e syscalls\); syscalls:exit \(off' \
	-- latency syscall "$tmp/nd.dat"
check "latency wakeup: sched on, no record: exit 1, said" 1 '' \
	"no record of sched:wakeup \($on\); sched:switch \($on\)$" -- latency wakeup "$tmp/nd.dat"
check "latency timer: irq off: exit 1, said" 1 '' \
	'no record of irq:timer_expire \(off when the trace was recorded: '\
'record it with -e irq\)$' \
	-- latency timer "$tmp/nd.dat"
check "the same trace's report: its statedump record, exit 0" 0 \
	'statedump:irq irq=24 handler=0x0 name="eth0-rx"$' '' -- report "$tmp/nd.dat"
# A file without the events section (earlier tools) does not say.
MKTRACE_OLD=1 "$mk" "$tmp/nodata-old.dat" "$tmp/nd.exp" nodata
check "latency on a file that does not say what was on: exit 1, said" 1 '' \
	'no record of irq:timer_expire \(no record; the file does not say whether it was on\)$' \
	-- latency timer "$tmp/nodata-old.dat"

# record with nothing but ktrace's own events on (a fresh boot).
rd=$tmp/rdfake
"$mk" "$tmp/rd.dat" "$tmp/rd.exp" dir "$rd"
echo 0 >"$rd/enable"
echo 'drop overwrite [hybrid]' >"$rd/mode"
printf '%s\n' 'state stopped' 'cpu0 medium events=50 bytes=1 dropped=2 overwritten=3' \
	'cpu1 high events=100 dropped=1 overwritten=0' \
	'names slots=8 saved=1 missed=0 statedump_dropped=7' \
	>"$rd/stats"
: >"$rd/comms"
: >"$rd/triggers"
for e in ktrace/mark sched/switch irq/hardirq_entry syscalls/entry block/rq_issue; do
	mkdir -p "$rd/events/$e"
	echo 0 >"$rd/events/$e/enable"
	echo 0 >"$rd/events/${e%/*}/enable"
done
echo 1 >"$rd/events/ktrace/mark/enable"
echo X >"$rd/events/enable"
KTRACE_DIR=$rd "$bin" record -o "$tmp/rd-r.dat" -m drop -- \
	sh -c 'cd "$1/events" && cat sched/enable irq/enable syscalls/enable block/enable enable \
	       ktrace/mark/enable' sh "$rd" >"$tmp/rd.on" 2>"$tmp/rd.err"
st=$?
result "record with only ktrace's events on: sched, irq, syscalls enabled too, said; exit 0" \
	"$([ $st -eq 0 ] && [ "$(tr -d '\n' <"$tmp/rd.on")" = 1110X1 ] &&
	   grep -q "^ktrace record: no event enabled but ktrace's own: \
recording sched,irq,syscalls too (choose with -e)$" \
		"$tmp/rd.err"; echo $?)" "$tmp/rd.err"
result "record: the last line gives the events saved and lost" \
	"$(tail -n 1 "$tmp/rd.err" |
	   grep -q "^ktrace record: [0-9]* bytes of trace in $tmp/rd-r.dat (3 streams): \
150 events, 144 saved, 6 lost (3 dropped, 3 overwritten)$"; echo $?)" \
	"$tmp/rd.err"
# Another event on: the selection is left as it is.
echo 1 >"$rd/events/block/rq_issue/enable"
for g in sched irq syscalls block; do echo 0 >"$rd/events/$g/enable"; done
KTRACE_DIR=$rd "$bin" record -o "$tmp/rd-r.dat" -m drop -- \
	sh -c 'cd "$1/events" && cat sched/enable irq/enable' sh "$rd" >"$tmp/rd.on" 2>"$tmp/rd.err"
result "record with another event on: the selection left, nothing said" \
	"$([ $? -eq 0 ] && [ "$(tr -d '\n' <"$tmp/rd.on")" = 00 ] &&
	   ! grep -q 'recording sched' "$tmp/rd.err"; echo $?)" "$tmp/rd.err"
# The events section of the file: what was on.
result "record: the file says which events were on" \
	"$(grep -a -c 'block:rq_issue' "$tmp/rd-r.dat" | grep -qx 1; echo $?)"
