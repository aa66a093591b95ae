#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# tools/ktrace in the guest: record writes one self-contained trace file,
# which report and stat decode from its own metadata; report prints what
# the ascii pipe prints for the same writes (apart from times and pids,
# which differ from one run to the other).  With KTRACE_SAVE_DIR set, the
# trace and its report are kept there, for the host to decode as well.

. "$(dirname "$0")"/lib.sh

ktrace_setup
ktrace_tool

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
ncpu=$(grep -c '^processor' /proc/cpuinfo)
n=$((20 * ncpu + 1))

# w.sh KT NCPU TAG: 20 marks "TAG cpuC i=I" from each CPU in turn, then
# one with characters to escape (run pinned to CPU 0, so that this last
# mark has the same CPU in both runs).
cat >"$TMP/w.sh" <<'EOF2'
c=0
while [ $c -lt "$2" ]; do
	taskset -c $c sh -c 'i=0; while [ $i -lt 20 ]; do
		echo "$2 cpu$1 i=$i" >"$0/mark"; i=$((i + 1)); done' "$1" $c "$3"
	c=$((c + 1))
done
printf 'tab\there "q" back\\slash' >"$1/mark"
EOF2

"$BIN" record -o "$TMP/t.dat" -m drop -e ktrace -- \
	taskset -c 0 sh "$TMP/w.sh" "$KT" "$ncpu" r1 \
	>"$TMP/record.out" 2>&1
check "record exits 0 and says where the trace is" \
	"$?/$(grep -c "bytes of trace in $TMP/t.dat" "$TMP/record.out")" "0/1"
"$BIN" report "$TMP/t.dat" >"$TMP/rep" 2>"$TMP/rep.err"
rc=$?
check "report decodes every mark, without a warning" \
	"$rc/$(grep -c ' ktrace:mark pid=' "$TMP/rep")/$(wc -l <"$TMP/rep")" "0/$n/$n"
check "report warned of nothing" "$(wc -c <"$TMP/rep.err")" 0
LINE='^[0-9]+\.[0-9]{9} [0-9]+ [^ ]+-[0-9]+ ktrace:mark pid=[0-9]+ text=".*"$'
check "every line has the ascii pipe's format" "$(grep -c -v -E "$LINE" "$TMP/rep")" 0
check "times never go back" \
	"$(awk '{ if ($1 < last) bad++; last = $1 } END { print bad + 0 }' "$TMP/rep")" 0
check "each mark on the CPU that wrote it, in order" \
	"$(sed -n 's/^[^ ]* \([0-9]*\) .* text="r1 cpu\([0-9]*\) i=[0-9]*"$/\1 \2/p' "$TMP/rep" |
	   awk '$1 != $2 { bad++ } END { print bad + 0 }')/$(
	   sed -n 's/.* text="r1 cpu0 i=\([0-9]*\)"$/\1/p' "$TMP/rep" | tr '\n' ' ')" \
	"0/$(seq 0 19 | tr '\n' ' ')"
check "the running task is the writer" \
	"$(sed -n 's/^[^ ]* [0-9]* .*-\([0-9]*\) ktrace:mark pid=\([0-9]*\) .*/\1 \2/p' "$TMP/rep" |
	   awk '$1 != $2 { bad++ } END { print bad + 0 }')" 0
check "strings are escaped as the ascii pipe does" \
	"$(tail -n 1 "$TMP/rep" | sed 's/.* text=//')" '"tab\there \"q\" back\\slash"'

"$BIN" report -c 1 -e ktrace:mark "$TMP/t.dat" >"$TMP/cpu1"
"$BIN" report -e nosuch "$TMP/t.dat" >"$TMP/none" 2>"$TMP/none.err"
none=$?
from=$(sed -n '5p' "$TMP/rep" | cut -d' ' -f1)
"$BIN" report --from "$from" "$TMP/t.dat" >"$TMP/from"
nosuch=$(grep -c "'nosuch'" "$TMP/none.err")/$(wc -l <"$TMP/from")
check "filters: CPU 1, an unknown event is a usage error, a start time" \
	"$(awk '$2 != 1' "$TMP/cpu1" | wc -l)/$none/$(wc -l <"$TMP/none")/$nosuch" \
	"0/2/0/1/$((n - 4))"

"$BIN" stat "$TMP/t.dat" >"$TMP/stat"
check "stat counts the marks" "$(sed -n 's/^  ktrace:mark //p' "$TMP/stat")" "$n"
got=$(sed -n 's/^  cpu\([0-9]*\) medium: .* events=\([0-9]*\) .*/\1 \2/p' "$TMP/stat" |
	tr '\n' ' ')
# The kernel's counts, from its stats file saved in the trace: record put
# the mode back, which freed the buffers and their counters.
want=$(grep -a -E '^cpu[0-9]+ medium events=' "$TMP/t.dat" |
	sed -n 's/^cpu\([0-9]*\) medium events=\([0-9]*\) .*/\1 \2/p' | tr '\n' ' ')
check "stat's streams count what the kernel counted" "$got" "$want"
check "no subbuffer lost" \
	"$(grep -c '  gap:' "$TMP/stat")/$(grep -c 'lost_subbufs=[1-9]' "$TMP/stat")" "0/0"

# The same writes through the ascii pipe.
echo 1 >"$KT/enable"
taskset -c 0 sh "$TMP/w.sh" "$KT" "$ncpu" r1
echo 0 >"$KT/enable"
timeout 5 cat "$KT/ascii" >"$TMP/ascii"
norm() {
	sed -E 's/^[0-9]+\.[0-9]{9} //
		s/-[0-9]+ ktrace:mark pid=[0-9]+/-PID ktrace:mark pid=PID/' "$1"
}
norm "$TMP/rep" >"$TMP/rep.norm"
norm "$TMP/ascii" >"$TMP/ascii.norm"
if ! cmp -s "$TMP/rep.norm" "$TMP/ascii.norm"; then
	diff "$TMP/rep.norm" "$TMP/ascii.norm" | grep '^[-+<>][^-+]' | head -n 6 |
		while read -r l; do ktap_print_msg "$l"; done
	[ -z "${KTRACE_SAVE_DIR:-}" ] || cp "$TMP/rep.norm" "$TMP/ascii.norm" "$KTRACE_SAVE_DIR/"
fi
check "report prints the ascii pipe's lines, times and pids aside" \
	"$(cmp -s "$TMP/rep.norm" "$TMP/ascii.norm" && echo same)/$(wc -l <"$TMP/ascii")" "same/$n"

# A flight recording stopped by a trigger, read relative to it.
echo '!user' >"$KT/triggers" 2>/dev/null
"$BIN" record -o "$TMP/f.dat" -m overwrite -e ktrace -t 'user delay=0' --wait -- \
	sh -c 'for i in 1 2 3; do echo "before $i" >'"$KT"'/mark; done
	       echo "the bug" >'"$KT"'/trigger; sleep 2' >"$TMP/frec.out" 2>&1
"$BIN" report -r "$TMP/f.dat" >"$TMP/frel" 2>&1
check "record --wait stops at the trigger; report -r puts it at +0" \
	"$(grep -c -e '^+0\.000000000 .* ktrace:trigger trigger="user" .* reason="the bug"$' \
		"$TMP/frel")" 1
check "report -r: the marks before it are negative, in order" \
	"$(sed -n 's/^-[0-9.]* .* text="\(before [0-9]\)"$/\1/p' "$TMP/frel" | tr '\n' ',')" \
	"before 1,before 2,before 3,"
"$BIN" stat "$TMP/f.dat" >"$TMP/fstat"
check "stat: the armed trigger and its record" \
	"$(grep -c '^user count=1 delay=0 action=stop hits=1 fired=1$' "$TMP/fstat")/$(
	   grep -c '^  .* ktrace:trigger trigger="user" ' "$TMP/fstat")" "1/1"
check "record put ktrace back: the trigger it armed disarmed, hybrid mode, stopped" \
	"$(grep -c '^user ' "$KT/triggers")/$(cat "$KT/mode")/$(cat "$KT/enable")" \
	"0/drop overwrite [hybrid]/0"
"$BIN" record -o "$TMP/x.dat" -t 'latency:block>50ms' -- sh -c 'exit 3' >/dev/null 2>&1
check "record exits with COMMAND's status, its latency trigger disarmed" \
	"$?/$(grep -c '^latency:block' "$KT/triggers")" 3/0
# The kernel judges a -t spec, not a copy of its grammar in the tool:
# thirteen digits, which that copy refused, are armed as the kernel reads
# them; a spec the kernel refuses is named, and everything is put back.
"$BIN" record -o "$TMP/x.dat" -t 'latency:block>0000000000050ms' -- \
	sh -c 'grep "^latency:block" "$1/triggers" >"$2"' sh "$KT" "$TMP/armed" >/dev/null 2>&1
check "record -t 'latency:block>0000000000050ms': exit 0, armed as the kernel reads it" \
	"$?/$(cut -d' ' -f1 "$TMP/armed")/$(grep -c '^latency:block' "$KT/triggers")" \
	"0/latency:block>50ms/0"
before="$(cat "$KT/mode" "$KT/buffer_size_kb" "$KT/enable" "$KT/triggers")"
"$BIN" record -o "$TMP/r.dat" -m drop -b 32 -t 'oom colour=red' -- true >"$TMP/rout" 2>&1
check "record -t 'oom colour=red': the kernel refuses it: exit 1, named, nothing changed" \
	"$?/$(grep -c "the kernel refused the trigger 'oom colour=red'" "$TMP/rout")/$(
	   [ "$(cat "$KT/mode" "$KT/buffer_size_kb" "$KT/enable" "$KT/triggers")" = "$before" ] &&
	   [ ! -e "$TMP/r.dat" ] && echo same)" "1/1/same"

# Block requests: one 4 KiB direct write at sector 800 of nullb0, decoded
# from the file as the ascii pipe decodes it: the 8-byte request events
# name the request their bio_queue described.
DEV=$(cat /sys/block/nullb0/dev)
"$BIN" record -o "$TMP/b.dat" -e block -- \
	dd if=/dev/zero of=/dev/nullb0 bs=4096 count=1 seek=100 oflag=direct >/dev/null 2>&1
"$BIN" report "$TMP/b.dat" >"$TMP/brep" 2>&1
check "report: the write's bio_queue, rq_issue and rq_complete, with dev, sector and size" \
	"$(grep -E " block:[a-z_]+ dev=$DEV sector=800 nr_sector=8 op=write flags=sync$" \
		"$TMP/brep" | awk '{ print $4 }' | tr '\n' ,)" \
	"block:bio_queue,block:rq_issue,block:rq_complete,"
check "report: no request is unknown" "$(grep -c 'rq=unknown' "$TMP/brep")" 0
"$BIN" report --json "$TMP/b.dat" >"$TMP/bjson" 2>&1
check "report --json: the request events carry the description's fields" \
	"$(grep -c '"event":"block:rq_complete".*"sector":800,' "$TMP/bjson")" 1

# A CPU brought online while recording: its stream files appear then, and
# record reads them (hybrid mode: all of them, once, at the end).  New
# buffers (a mode change frees them) while CPU 1 is offline, so that CPU 1
# gets its buffers only when it comes back.
ON=/sys/devices/system/cpu/cpu1/online
if [ -w $ON ]; then
	echo 0 >$ON
	echo drop >"$KT/mode"
	echo hybrid >"$KT/mode"
	"$BIN" record -o "$TMP/h.dat" -e ktrace -- sh -c 'sleep 1; echo 1 >'$ON'; sleep 2
		taskset -c 1 sh -c "echo on the new cpu >'"$KT"'/mark"' >/dev/null 2>&1
	echo 1 >$ON
	check "record follows a CPU brought online while it records" \
		"$("$BIN" report "$TMP/h.dat" | grep -c '^[0-9.]* 1 .* text="on the new cpu"$')" 1
else
	ktap_test_skip "record follows a CPU brought online while it records (no CPU hotplug)"
fi

# record with no -e when only ktrace's own events are on (as after boot,
# and as ktrace_setup() leaves it): sched, irq and syscalls, said; the
# last line counts the events saved and lost; the selection put back.
"$BIN" record -o "$TMP/d.dat" -m drop -- ls / >/dev/null 2>"$TMP/d.err"
check "record with no -e: exit 0, says it records sched, irq and syscalls" \
	"$?/$(grep -c "no event enabled but ktrace's own: recording sched,irq,syscalls too" \
		"$TMP/d.err")" \
	"0/1"
"$BIN" report "$TMP/d.dat" >"$TMP/drep" 2>&1
check "record with no -e: the trace has switches, interrupts and system calls" \
	"$(grep -c ' sched:switch ' "$TMP/drep" | sed 's/^[1-9][0-9]*$/some/')/$(
	   grep -c ' syscalls:entry ' "$TMP/drep" | sed 's/^[1-9][0-9]*$/some/')" "some/some"
check "record with no -e: the last line gives the events saved and lost" \
	"$(tail -n 1 "$TMP/d.err" |
	   sed -n 's/.*(\([0-9]*\) streams): \([1-9][0-9]*\) events, '\
'\([0-9]*\) saved, \([0-9]*\) lost .*/ok/p')" ok
check "record with no -e: the selection put back" \
	"$(cat "$KT/events/sched/switch/enable" "$KT/events/ktrace/mark/enable" |
	   tr '\n' ' ')" "0 1 "
# The same trace cut at 10% to 90% of its size: each cut file decodes
# what it holds (exit 0, the cut said, no unknown event, each line one of
# the whole file's, the task's name and the symbols aside: those saved at
# the end are cut off), or says that nothing can be decoded (a cut before the end of
# the metadata or the first event: the low-rate channel comes first).
size=$(wc -c <"$TMP/d.dat")
# norm: the tasks' names (of the line and of a switch) and the kernel
# addresses' symbols aside (both saved at the end of the file, cut off).
norm() {
	sed -E 's/^([^ ]+ [0-9]+ )[^ ]*-([0-9]+) /\1\2 /
		s/ (prev|next)_comm=[^ ]* / \1_comm= /g
		s/=([A-Za-z_][A-Za-z0-9_.]*\+0x[0-9a-f]+\/0x[0-9a-f]+'\
'( \[[^]]*\])?|0xffff[0-9a-f]+)/=ADDR/g' "$1"
}
norm "$TMP/drep" >"$TMP/drep.p"
bad=0 decoded=0 nothing=0
for p in 1 2 3 4 5 6 7 8 9; do
	head -c $((size * p / 10)) "$TMP/d.dat" >"$TMP/dcut.dat"
	"$BIN" report "$TMP/dcut.dat" >"$TMP/dcut" 2>"$TMP/dcut.err"
	rc=$?
	norm "$TMP/dcut" >"$TMP/dcut.p"
	if [ $rc -eq 1 ] &&
	   grep -q 'cut short at byte .*: nothing can be decoded$' "$TMP/dcut.err"; then
		nothing=$((nothing + 1))
	elif [ $rc -eq 0 ] && grep -q 'cut short at byte' "$TMP/dcut.err" &&
	     ! grep -q ' unknown:' "$TMP/dcut" &&
	     [ "$(grep -v -x -F -f "$TMP/drep.p" "$TMP/dcut.p" | wc -l)" -eq 0 ]; then
		[ -s "$TMP/dcut" ] && decoded=$((decoded + 1))
	else
		bad=$((bad + 1))
		ktap_print_msg "cut at $((size * p / 10)) of $size: exit $rc: \
$(head -n 1 "$TMP/dcut.err")"
		grep -v -x -F -f "$TMP/drep.p" "$TMP/dcut.p" | head -n 3 |
			while read -r l; do ktap_print_msg "  not in the whole: $l"; done
		grep -c ' unknown:' "$TMP/dcut" |
			while read -r l; do ktap_print_msg "  unknown: $l"; done
	fi
done
ktap_print_msg "cut files: $decoded decoded, $nothing with nothing to decode, of $size bytes"
check "a file cut at 10% to 90%: what it holds decoded, or nothing to decode said" \
	"$bad/$([ $decoded -gt 0 ] && echo some)" "0/some"
"$BIN" latency block "$TMP/d.dat" >/dev/null 2>"$TMP/dlat.err"
check "latency block on it: exit 1, block was off when it was recorded" \
	"$?/$(grep -c 'no record of block:rq_issue (off when the trace was recorded' \
		"$TMP/dlat.err")" \
	"1/1"

"$BIN" report "$TMP/t.dat.missing" >/dev/null 2>"$TMP/err"
check "a missing file: exit 1 and its name" "$?/$(grep -c "t.dat.missing" "$TMP/err")" "1/1"
if [ -n "$KTRACE_SAVE_DIR" ]; then
	mkdir -p "$KTRACE_SAVE_DIR"
	cp "$TMP/t.dat" "$TMP/rep" "$TMP/stat" "$KTRACE_SAVE_DIR/"
fi
ktrace_done
