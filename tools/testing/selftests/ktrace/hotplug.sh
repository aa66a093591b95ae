#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# CPU hotplug: a CPU that was offline when the buffers were allocated gets
# its buffers and relay files when it comes online, and what it writes is
# read back; a CPU taken offline while tracing delivers its current
# subbuffer at once, so its events are readable while it is away; the
# accounting stays exact across both.

. "$(dirname "$0")"/lib.sh

ktrace_setup
need_cpu1_hotplug

TMP=$(mktemp -d)
trap 'echo 1 >"$ON"; rm -rf "$TMP"' EXIT
dmesg_before=$(dmesg_mark)

# marks N PREFIX: N marks "PREFIX-i" written from CPU 1.
marks() {
	taskset -c 1 sh -c "i=0; while [ \$i -lt $1 ]; do
		echo \"$2-\$i\" >$KT/mark; i=\$((i + 1)); done"
}
# read1 NAME: the marks and the counts of CPU 1's medium stream.
read1() {
	"$DIR"/ktrace_count -m "$KT/medium/cpu1" >"$TMP/$1" 2>&1
}
count() { tail -n 1 "$TMP/$1" | tr ' ' '\n' | sed -n "s/^$2=//p"; }

# A mode change frees the buffers: they are allocated at the next start,
# with CPU 1 offline.
echo drop >"$KT/mode"
echo 0 >"$ON"
echo 1 >"$KT/enable"
check "no buffer for a CPU offline at the start" \
	"$(ls "$KT/medium" | grep -c cpu1)/$(grep -c '^cpu1 ' "$KT/stats")" "0/0"

echo 1 >"$ON"
check "the CPU brought online has its relay files" \
	"$(ls "$KT/high" "$KT/medium" "$KT/low" | grep -c '^cpu1$')" 3
marks 100 on
check "the CPU brought online counted its 100 marks" "$(stat_of 1 medium events)" 100

echo 0 >"$ON"
read1 first
check "marks of the CPU taken offline are readable while tracing" \
	"$(grep -c '^on-' "$TMP/first")" 100
order=$(grep '^on-' "$TMP/first" |
	awk '$0 != "on-" (NR - 1) { bad = 1 } END { print bad ? "unordered" : "ordered" }')
check "they are in order, the stream well formed" \
	"$order/$(count first errors)/$(count first gaps)" "ordered/0/0"
check "tracing goes on with CPU 1 offline" "$(wr "$KT/mark" cpu0)" "ok 4"

echo 1 >"$ON"
marks 50 again
echo 0 >"$KT/enable"
read1 second
next_seq=$(($(count first last_seq) + 1))
check "the buffers kept across the offline period hold the new marks" \
	"$(grep -c '^again-' "$TMP/second")/$(count second first_seq)" "50/$next_seq"
ev=$(stat_of 1 medium events)
read=$(($(count first events) + $(count second events)))
check "CPU 1: events = read + dropped + overwritten" \
	"$ev" $((read + $(stat_of 1 medium dropped) + $(stat_of 1 medium overwritten)))
check "CPU 1 wrote 150 events" "$ev" 150
check "the kernel logged no warning" "$(splats_since "$dmesg_before")" 0
echo hybrid >"$KT/mode"
ktrace_done
