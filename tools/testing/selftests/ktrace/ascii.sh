#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The ascii pipe: one line per event, "TIME CPU COMM-PID GROUP:NAME
# KEY=VALUE...", merged across CPUs in time order, consuming, escaping
# strings, blocking when empty (EAGAIN when non-blocking), showing new
# events while tracing; and it decodes the same events the relay files
# hold.

. "$(dirname "$0")"/lib.sh

ktrace_setup

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
ncpu=$(grep -c '^processor' /proc/cpuinfo)
LINE='^[0-9]+\.[0-9]{9} [0-9]+ [^ ]+-[0-9]+ [a-z_]+:[a-z_]+( [a-z_]+=("([^"\\]|\\.)*"|[^ "]+))*'

# marks ROUND: on every CPU, 20 marks "ROUND cpuC i=I pid=PID".
marks() {
	for c in $(seq 0 $((ncpu - 1))); do
		taskset -c "$c" sh -c "i=0; while [ \$i -lt 20 ]; do
			echo \"$1 cpu$c i=\$i pid=\$\$\" >$KT/mark; i=\$((i + 1)); done"
	done
}

check "ascii is 0400" "$(ls -l "$KT/ascii" | cut -c1-10)" "-r--------"

# Round 1 through the relay files, round 2 through the ascii pipe.
echo 1 >"$KT/enable"
marks r1
echo 0 >"$KT/enable"
for c in $(seq 0 $((ncpu - 1))); do
	"$DIR"/ktrace_count -m "$KT/medium/cpu$c" | sed '$d' >>"$TMP/relay"
done
echo 1 >"$KT/enable"
marks r2
echo 0 >"$KT/enable"
timeout 5 cat "$KT/ascii" >"$TMP/ascii"

check "every line has the documented shape" \
	"$(grep -c -v -E "$LINE\$" "$TMP/ascii")/$(wc -l <"$TMP/ascii")" "0/$((20 * ncpu))"
check "times never go backwards" \
	"$(awk '{ if ($1 < last) bad++; last = $1 } END { print bad + 0 }' "$TMP/ascii")" 0
check "every CPU's marks are on that CPU" \
	"$(grep -c -v -E '^[^ ]+ ([0-9]+) .* text="r2 cpu\1 ' "$TMP/ascii")" 0
check "the pid field is the writer" \
	"$(sed -n 's/.* pid=\([0-9]*\) text=".* pid=\([0-9]*\)"$/\1 \2/p' "$TMP/ascii" |
		awk '$1 != $2 { bad++ } END { print bad + 0 }')" 0
check "COMM-PID names the writer" \
	"$(awk '{ n = split($3, a, "-"); if (a[n] != substr($5, 5)) bad++ }
		END { print bad + 0 }' "$TMP/ascii")" 0
check "the pipe and the relay files decode the same marks" \
	"$(sed 's/.* text="r2 \(cpu[0-9]* i=[0-9]*\) .*/\1/' "$TMP/ascii" | sort | md5sum)" \
	"$(sed 's/^r1 \(cpu[0-9]* i=[0-9]*\) .*/\1/' "$TMP/relay" | sort | md5sum)"
check "the pipe is consumed: a non-blocking read finds nothing" \
	"$(wr -R "$KT/ascii")" EAGAIN

echo 1 >"$KT/enable"
printf 'q"uote\\back\ttab\001' >"$KT/mark"
echo 0 >"$KT/enable"
check "strings are escaped" "$(timeout 5 cat "$KT/ascii" | sed 's/.* text=//')" \
	'"q\"uote\\back\ttab\x01"'

# Live: a blocked reader sees a mark written while tracing.
echo 1 >"$KT/enable"
timeout 6 cat "$KT/ascii" >"$TMP/live" &
sleep 1
echo "live mark" >"$KT/mark"
wait
echo 0 >"$KT/enable"
check "a blocked reader gets a mark written while tracing" \
	"$(grep -c 'ktrace:mark pid=[0-9]* text="live mark"' "$TMP/live")" 1

# Ticks from hardirq context decode with their field.
echo 1 >"$KT/events/test/tick/enable"
echo 1 >"$KT/enable"
sleep 1
echo 0 >"$KT/enable"
echo 0 >"$KT/events/test/tick/enable"
timeout 5 cat "$KT/ascii" >"$TMP/ticks"
check "ticks are decoded, seq from 0 on every CPU" \
	"$(awk '$4 == "test:tick" && $5 == "seq=0" { n++ } END { print n + 0 }' \
		"$TMP/ticks")" "$ncpu"
check "every CPU's ticks are in sequence" \
	"$(awk '$4 == "test:tick" { split($5, a, "="); if (a[2] != next_seq[$2] + 0) bad++;
		next_seq[$2] = a[2] + 1 } END { print bad + 0 }' "$TMP/ticks")" 0
# sched:switch as ftrace prints it, the previous task being the one the
# CPU's last switch switched in (or its subbuffer's header pid); the
# system calls with their names (x86_64), from the same table as report's.
echo 1 >"$KT/events/sched/switch/enable"
echo 1 >"$KT/events/syscalls/enable"
echo 1 >"$KT/enable"
for i in 1 2 3; do
	sh -c 'echo x >/dev/null; sleep 0.1' 2>/dev/null || sleep 1
done
echo 0 >"$KT/enable"
echo 0 >"$KT/events/syscalls/enable"
echo 0 >"$KT/events/sched/switch/enable"
timeout 5 cat "$KT/ascii" >"$TMP/sw"
SW=' sched:switch prev_comm=[^ ]+ prev_pid=[0-9]+ prev_state=[A-Za-z+]+ ==> '\
'next_comm=[^ ]+ next_pid=[0-9]+$'
check "sched:switch lines: prev_comm= prev_pid= prev_state= ==> next_comm= next_pid=" \
	"$(grep -c ' sched:switch ' "$TMP/sw" | awk '{ print ($1 > 0) }')/$(
	   grep ' sched:switch ' "$TMP/sw" | grep -cvE "$SW")" "1/0"
check "each switch's prev_pid is the next_pid of its CPU's switch before, its task the next" \
	"$(awk '$4 == "sched:switch" { split($6, p, "="); split($NF, x, "=");
		if (($2 in last) && p[2] != last[$2]) bad++
		if ($3 !~ "-" x[2] "$") bad++
		last[$2] = x[2] } END { print bad + 0 }' "$TMP/sw")" 0
if [ "$(uname -m)" = x86_64 ]; then
	check "syscalls lines name the call: nr=1 name=write, every nr=N with a name=" \
		"$(grep -c ' syscalls:[a-z]* nr=1 name=write ' "$TMP/sw" |
		   awk '{ print ($1 > 0) }')/$(grep ' syscalls:' "$TMP/sw" |
		   grep -cvE ' nr=([0-9]+ name=[a-z_0-9]+|>=511|-1) ')" "1/0"
fi
check "no unknown events" "$(cat "$TMP/ticks" "$TMP/ascii" "$TMP/sw" | grep -c ' unknown:')" 0
ktrace_done
