#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Case study 4.2, an OOM kill: a hog (ktrace_hog, oom_score_adj 1000)
# allocates more than the memory of the guest, which has no swap, after
# 64 MiB of clean page cache was read from nullb0 and 16 MiB of dirty
# page cache written to a slow device (null_blk, 100 ms a request) for
# reclaim to take.  `ktrace reclaim` of the flight recording the oom
# trigger stopped must name the hog as the OOM victim and as the task that
# triggered the kill, with its reclaim passes; over all tasks, reclaim must
# take back that page cache, and have kept dirty pages on the way.  The
# test shell (and record) have oom_score_adj -1000.

. "$(dirname "$0")"/lib.sh
. "$(dirname "$0")"/case_lib.sh

ktrace_setup
ktrace_tool

TMP=$(mktemp -d)
VM=/proc/sys/vm
# The writeback thresholds, as set: in bytes, or else as a ratio.
dirty_bg=$(cat $VM/dirty_background_bytes)
[ "$dirty_bg" != 0 ] || dirty_bg=r$(cat $VM/dirty_background_ratio)
dirty=$(cat $VM/dirty_bytes)
[ "$dirty" != 0 ] || dirty=r$(cat $VM/dirty_ratio)
expire=$(cat $VM/dirty_expire_centisecs)
cleanup() {
	exec 3<&- 4<&-
	null_blk_del ktdirty 2>/dev/null
	case $dirty_bg in
	r*) echo "${dirty_bg#r}" >$VM/dirty_background_ratio ;;
	*) echo "$dirty_bg" >$VM/dirty_background_bytes ;;
	esac
	case $dirty in
	r*) echo "${dirty#r}" >$VM/dirty_ratio ;;
	*) echo "$dirty" >$VM/dirty_bytes ;;
	esac
	echo "$expire" >$VM/dirty_expire_centisecs
	echo '!oom' >"$KT/triggers" 2>/dev/null
	rm -rf "$TMP"
}
trap cleanup EXIT
# The runner's timeout sends TERM, after which sh runs no EXIT trap of itself.
trap 'exit 1' INT TERM HUP
dmesg_start=$(dmesg_mark)
echo -1000 >/proc/self/oom_score_adj
echo '!oom' >"$KT/triggers" 2>/dev/null

# 80 MiB of page cache: the only pages reclaim can take back (the rest
# is the hog's anonymous memory and the initramfs, without swap).  A
# block device's cache goes with its last close, written back first:
# fds 3 and 4 keep the devices open, so that the 16 MiB stay dirty.  No
# writeback must start for them but reclaim's: not when the free memory
# the thresholds are shares of goes to the hog (thresholds in bytes), nor
# at the first wakeup of the flusher, 5 s after, because a new device has
# no share of the threshold yet (min_ratio gives it one), nor 30 s after
# (the expiry of dirty data).
echo 17179869184 >$VM/dirty_background_bytes
echo 17179869184 >$VM/dirty_bytes
echo 360000 >$VM/dirty_expire_centisecs
null_blk_del ktdirty 2>/dev/null
DEV=$(null_blk ktdirty 100000000)
echo 50 >"/sys/class/bdi/$(cat "/sys/block/$DEV/dev")/min_ratio"
echo 1 >/proc/sys/vm/drop_caches
exec 3</dev/nullb0 4<"/dev/$DEV"
dd if=/dev/nullb0 of=/dev/null bs=1M count=64 2>/dev/null
dd if=/dev/zero of="/dev/$DEV" bs=1M count=16 2>/dev/null
# More than the memory of the guest, whatever its size.
mib=$(($(awk '$1 == "MemTotal:" { print $2 }' /proc/meminfo) / 1024 + 256))

"$BIN" record -o "$TMP/t.dat" -m overwrite -b 4096 -e ktrace,vm,sched,statedump -t oom --wait -- \
	sh -c 'echo $$ >'"$TMP"'/hog; echo 1000 >/proc/self/oom_score_adj
	       exec '"$DIR"'/ktrace_hog '"$mib" >"$TMP/rec" 2>&1 3<&- 4<&-
rc=$?
HOG=$(cat "$TMP/hog")
check "record stops at the OOM kill of the hog (SIGKILL)" \
	"$rc/$(dmesg_since "$dmesg_start" | grep -c -E "Killed process [0-9]+")/$(
	   dmesg_since "$dmesg_start" | grep -c -E "Killed process $HOG ")" \
	"137/1/1"

"$BIN" reclaim "$TMP/t.dat" >"$TMP/out" 2>&1
rc=$?
show "$TMP/out"
check "ktrace reclaim exits 0" "$rc" 0
HOGID="pid=$HOG comm=ktrace_hog"
has "the summary ends with the OOM kill of the hog" "$TMP/out" \
	"^# reclaim: [1-9][0-9]* passes by [1-9][0-9]* tasks, then oom kill of $HOGID\$"
has "the kill: the hog is the victim and the trigger" "$TMP/out" \
	"^oom_kill at [0-9]+\.[0-9]{9} victim $HOGID .*trigger $HOGID( |\$)"
T=$(grep "^task pid=$HOG comm=ktrace_hog " "$TMP/out")
in_range "the hog's reclaim passes" "$(tok passes "$T")" 1 1000000
in_range "the hog's lowest priority: one of reclaim's, 12 to 0" "$(tok min_priority "$T")" 0 12
check "the hog's passes: those listed under it and the earlier ones not shown" \
	"$(awk -v t="task pid=$HOG " 'index($0, t) == 1 { s = 1; next } /^[^ ]/ { s = 0 }
		s && /^  pass at / { n++ } s && / earlier passes not shown$/ { n += $1 }
		END { print n + 0 }' "$TMP/out")" "$(tok passes "$T")"
# 80 MiB is 20480 pages of 4 KiB: all of it, give or take a tenth, and
# the little other page cache there was.
in_range "reclaim took back the 80 MiB of page cache (pages)" \
	"$(grep '^task ' "$TMP/out" | while read -r l; do tok reclaimed "$l"; done |
	   awk '{ n += $1 } END { print n + 0 }')" 18432 30720
# Every pass of every task (-p: all its passes; without it, a task's
# earliest passes are summed up and not shown, and the dirty pages may be
# met there only: a debug kernel's hog made 48 passes before its last 20).
in_range "reclaim kept pages for being dirty (the 16 MiB written), pass after pass" \
	"$(grep '^task ' "$TMP/out" | while read -r l; do
		"$BIN" reclaim -p "$(tok pid "$l")" "$TMP/t.dat" | grep '^  pass at '
	   done | while read -r l; do tok dirty "$l"; done |
	   awk '{ n += $1 } END { print n + 0 }')" 1 1000000
check "no kernel warning" "$(splats_since "$dmesg_start")" 0
case_save oom "$TMP/t.dat" "$TMP/out"
ktrace_done
