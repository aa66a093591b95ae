#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# A trace with system calls, block requests, IRQs and scheduling all on:
# direct reads of the virtio disk (its requests, its IRQ, the reader's
# read()s) between short sleeps (wakeups, switches).  The guest has no
# python: with KTRACE_SAVE_DIR set it is kept as mixed.dat, which the
# host's make check converts to CTF in LTTng's layout and reads with
# babeltrace2 and lttng-analyses (.ci/check, host-ctf-lttng-guest-traces).

. "$(dirname "$0")"/lib.sh

ktrace_setup
ktrace_tool

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
trap 'exit 1' INT TERM HUP
dmesg_start=$(dmesg_mark)

cat >"$TMP/w.sh" <<EOF2
for i in 1 2 3 4 5 6 7 8; do
	dd if=/dev/vda of=/dev/null bs=16k count=4 skip=\$((i * 4)) iflag=direct 2>/dev/null
	sleep 0.02
done
EOF2
"$BIN" record -o "$TMP/t.dat" -e syscalls,block,irq,sched,statedump -- sh "$TMP/w.sh" \
	>"$TMP/rec" 2>&1
check "record of the reads exits 0" "$?" 0
"$BIN" report "$TMP/t.dat" >"$TMP/rep" 2>&1
count() {
	awk -v e="$1" '$4 == e { n++ } END { print n + 0 }' "$TMP/rep"
}
for e in syscalls:entry block:rq_issue irq:hardirq_entry sched:switch statedump:task; do
	n=$(count "$e")
	in_range "the trace has $e events" "$n" 1 100000000
done
check "every block:rq_issue of the reads completes" \
	"$(count block:rq_issue) $(count block:rq_complete)" \
	"$(count block:rq_issue) $(count block:rq_issue)"
check "no kernel warning" "$(splats_since "$dmesg_start")" 0
if [ -n "${KTRACE_SAVE_DIR:-}" ]; then
	mkdir -p "$KTRACE_SAVE_DIR"
	cp "$TMP/t.dat" "$KTRACE_SAVE_DIR/mixed.dat"
fi
ktrace_done
