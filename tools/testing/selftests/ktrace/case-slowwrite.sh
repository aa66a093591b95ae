#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Case study 4.1, occasional slow writes: a small writer writes 4 KiB and
# fsync()s it, five times, at KiB 400 of a device whose requests take
# 100 ms (null_blk, timer mode), while another process floods the same
# device with 1 MiB direct writes.  `ktrace latency block -p WRITER` must
# name the writer's five requests (the device, their sectors, write)
# with 100 ms or somewhat more each; `ktrace io` must name the flooder as
# the process that moved the most bytes, in the windows of the writer's
# requests too.

. "$(dirname "$0")"/lib.sh
. "$(dirname "$0")"/case_lib.sh

ktrace_setup
ktrace_tool

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"; null_blk_del ktslow 2>/dev/null' EXIT
# The runner's timeout sends TERM, after which sh runs no EXIT trap of itself.
trap 'exit 1' INT TERM HUP
dmesg_start=$(dmesg_mark)
null_blk_del ktslow 2>/dev/null
DEV=$(null_blk ktslow 100000000)
if [ -z "$DEV" ] || [ ! -b "/dev/$DEV" ]; then
	ktap_exit_fail_msg "no null_blk device: is CONFIG_BLK_DEV_NULL_BLK=y with configfs?"
fi
DEVT=$(cat "/sys/block/$DEV/dev")

# The flood starts first and goes on until the writer is done.
cat >"$TMP/w.sh" <<EOF
dd if=/dev/zero of=/dev/$DEV bs=1M seek=16 count=200 oflag=direct 2>/dev/null &
echo \$! >$TMP/flooder
sleep 0.5
"$DIR"/ktrace_case fsync /dev/$DEV 400 5 >$TMP/writer
kill \$(cat $TMP/flooder)
wait
EOF
"$BIN" record -o "$TMP/t.dat" -e block,sched,statedump -- sh "$TMP/w.sh" >"$TMP/rec" 2>&1
check "record of the writer and the flood exits 0" "$?" 0
FL=$(cat "$TMP/flooder")
W=$(awk '{ print $2 }' "$TMP/writer")
"$BIN" report "$TMP/t.dat" >"$TMP/rep" 2>&1
check "the trace has the writer's five requests issued" \
	"$(grep -c -E \
	   " block:rq_issue dev=$DEVT sector=(800|808|816|824|832) nr_sector=8 op=write" \
	   "$TMP/rep")" 5

"$BIN" latency block -p "$W" "$TMP/t.dat" >"$TMP/out" 2>&1
rc=$?
show "$TMP/out"
check "ktrace latency block -p WRITER exits 0" "$rc" 0
has "five requests of the writer, none left open" "$TMP/out" \
	"^# latency block: .*: 5 pairs, 0 open\$"
top "$TMP/out" >"$TMP/top"
RQ="pid=$W comm=ktrace_case dev=$DEVT sector=\([0-9]*\) nr_sector=8 op=write"
check "the requests: pid $W (ktrace_case), on $DEVT, its five sectors, writes" \
	"$(sed -n "s/.* $RQ\$/\1/p" "$TMP/top" | sort -n | tr '\n' ,)" "800,808,816,824,832,"
in_range "the shortest of them: the device's 100 ms or more" \
	"$(us "$(tail -n 1 "$TMP/top" | cut -d' ' -f1)")" 100000 1000000
in_range "the longest of them: 100 ms, at most 10 times as long" \
	"$(us "$(head -n 1 "$TMP/top" | cut -d' ' -f1)")" 100000 1000000

"$BIN" io --window 500ms "$TMP/t.dat" >"$TMP/io" 2>&1
rc=$?
show "$TMP/io"
check "ktrace io exits 0" "$rc" 0
T=$(grep '^total ' "$TMP/io" | head -n 1)
check "the process that moved the most bytes: the flooder, pid $FL (dd)" \
	"$(tok pid "$T")/$(tok comm "$T")" "$FL/dd"
in_range "the flooder's bytes: at least 4 MiB (100 ms per request)" \
	"$(tok bytes "$T")" 4194304 209715200
check "the writer's total: its five 4 KiB requests" \
	"$(grep "^total pid=$W " "$TMP/io" |
	   sed 's/.* requests=\([0-9]*\) bytes=\([0-9]*\) .*/\1 \2/')" "5 20480"
# Every window with a request of the writer has the flooder's too (each
# of its 1 MiB writes takes 100 ms and more: windows of 500 ms).
check "the flood is there in every window of the writer's requests" \
	"$(awk -v w="pid=$W" -v f="pid=$FL" '/^window / { if ($3 == w) ws[$2] = 1
		if ($3 == f) fs[$2] = 1 }
		END { for (t in ws) { n++; if (t in fs) both++ } print n + 0 "/" both + 0 }' \
		"$TMP/io" | awk -F/ '{ print ($1 > 0 && $1 == $2) ? "yes" : $0 }')" yes
check "no kernel warning" "$(splats_since "$dmesg_start")" 0
case_save slowwrite "$TMP/t.dat" "$TMP/out" "$TMP/io"
ktrace_done
