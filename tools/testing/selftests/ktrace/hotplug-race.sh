#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# CPU hotplug against everything else at once, for lockdep, KASAN and hung
# tasks to see: CPU 1 goes offline and online in a loop while the mode and
# the buffer size change (each frees the buffers), tracing starts and
# stops, marks are written and a reader reads the streams and the ascii
# pipe.  Every loop must make progress and end, CPU 1 come back, the kernel
# log no warning, and tracing work afterwards.

. "$(dirname "$0")"/lib.sh

ktrace_setup
need_cpu1_hotplug

TMP=$(mktemp -d)
trap 'rm -f "$TMP/run"; wait; echo 1 >"$ON"; rm -rf "$TMP"' EXIT
dmesg_before=$(dmesg_mark)
SECS=${KTRACE_RACE_SECONDS:-20}
touch "$TMP/run"

# loop NAME CMD: run CMD until $TMP/run goes, counting rounds in $TMP/NAME.
loop() {
	(n=0; while [ -e "$TMP/run" ]; do eval "$2"; n=$((n + 1)); done; echo "$n" >"$TMP/$1") \
		>/dev/null 2>&1 &
}
loop hotplug 'echo 0 >"$ON"; echo 1 >"$ON"'
loop control 'echo drop >"$KT/mode"; echo 1 >"$KT/enable"; echo 128 >"$KT/buffer_size_kb";
	echo 1 >"$KT/enable"; echo overwrite >"$KT/mode"; echo 1 >"$KT/enable";
	echo 0 >"$KT/enable"; echo 64 >"$KT/buffer_size_kb"'
loop marks 'echo race >"$KT/mark"'
loop reader 'for f in "$KT"/*/cpu*; do cat "$f"; done; timeout 1 cat "$KT/ascii"'
sleep "$SECS"
rm -f "$TMP/run"
# Every loop ends: a hang in hotplug or a control file shows here.
i=0
ended() { ls "$TMP" | grep -c -e hotplug -e control -e marks -e reader; }
while [ "$i" -lt 60 ] && [ "$(ended)" -lt 4 ]; do
	sleep 1
	i=$((i + 1))
done
for l in hotplug control marks reader; do
	in_range "the $l loop ended, after rounds" "$(cat "$TMP/$l" 2>/dev/null)" 1 100000000
done
echo 1 >"$ON"
check "CPU 1 is online again" "$(cat "$ON")" 1
echo 0 >"$KT/enable"
echo drop >"$KT/mode"
echo 1 >"$KT/enable"
echo after-the-race >"$KT/mark"
echo 0 >"$KT/enable"
check "tracing works afterwards: the mark reads back" \
	"$(timeout 5 cat "$KT/ascii" | grep -c 'text="after-the-race"')" 1
check "the kernel logged no warning" "$(splats_since "$dmesg_before")" 0
echo hybrid >"$KT/mode"
ktrace_done
