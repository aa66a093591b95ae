#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Case study 4.3, a timeout from slow reads: a reader (ktrace_case) of a pipe
# whose writer sleeps 400 ms before each of its three lines.  `ktrace
# latency syscall -p READER` must name the reader's three read(2) calls as
# its longest system calls, each between 400 ms and what an emulated CPU
# adds to it, and no other system call of the reader as long.

. "$(dirname "$0")"/lib.sh
. "$(dirname "$0")"/case_lib.sh

ktrace_setup
ktrace_tool

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
dmesg_start=$(dmesg_mark)
SLEEP_MS=400

# The writer's $i is the inner shell's.
# shellcheck disable=SC2016
"$BIN" record -o "$TMP/t.dat" -e syscalls,sched,statedump -- sh -c '
	(for i in 1 2 3; do sleep 0.'"$SLEEP_MS"'; echo "line $i"; done) |
		"'"$DIR"'"/ktrace_case read >"'"$TMP"'/reader"' >"$TMP/rec" 2>&1
check "record of the slow reader exits 0, the reader read the three lines" \
	"$?/$(sed 1d "$TMP/reader")" "0/reads 4 bytes 21"
R=$(awk '$1 == "pid" { print $2 }' "$TMP/reader")
"$BIN" report "$TMP/t.dat" >"$TMP/rep" 2>&1
check "the trace has the reader's four read(2) calls of standard input" \
	"$(grep -c -E " ktrace_case-$R syscalls:entry nr=0 name=read arg0=0x0\$" "$TMP/rep")" 4

"$BIN" latency syscall -p "$R" "$TMP/t.dat" >"$TMP/out" 2>&1
rc=$?
show "$TMP/out"
check "ktrace latency syscall -p READER exits 0" "$rc" 0
top "$TMP/out" >"$TMP/top"
check "the reader's three longest calls are its reads, of pid $R (ktrace_case)" \
	"$(head -n 3 "$TMP/top" | grep -c -E " pid=$R comm=ktrace_case nr=0 name=read\$")" 3
n=0
for _ in 1 2 3; do
	n=$((n + 1))
	# The first read starts after the exec of the reader: 350 ms.
	in_range "read $n: the writer's $SLEEP_MS ms sleep, at most 3 times as long" \
		"$(us "$(sed -n "${n}p" "$TMP/top" | cut -d' ' -f1)")" 350000 \
		$((SLEEP_MS * 3000))
done
check "no kernel warning" "$(splats_since "$dmesg_start")" 0
case_save slowread "$TMP/t.dat" "$TMP/out"
ktrace_done
