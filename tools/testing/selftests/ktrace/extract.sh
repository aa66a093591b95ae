#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Saving a flight recorder with tools/ktrace: ktrace extract saves a trace
# a trigger froze without restarting it, and ktrace record in overwrite
# mode with --wait writes a file bounded by the buffers, however long the
# workload writes, holding the trigger record and the history before it.

. "$(dirname "$0")"/lib.sh

ktrace_setup
ktrace_tool

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"; echo "!user" >"$KT/triggers" 2>/dev/null' EXIT
state() {
	head -n 1 "$KT/stats"
}

# The workflow of the documentation, end to end: a recorder frozen by
# the user trigger, extracted at once (extract waits for the trigger's
# stop work if the trace is still frozen), then read relative to the
# trigger, in wall-clock time, with symbol names.  With KTRACE_SAVE_DIR
# the trace and this report are kept: the host decodes the file as a
# maintainer would on another machine and must print the same lines.
echo overwrite >"$KT/mode"
echo 1 >"$KT/events/irq/timer_expire/enable"
echo user >"$KT/triggers"
echo 1 >"$KT/enable"
for i in 1 2 3 4 5; do
	echo "before $i" >"$KT/mark"
	sleep 0.1
done
now=$(date +%s)
echo "the bug" >"$KT/trigger"
"$BIN" extract -o "$TMP/e.dat" >"$TMP/out" 2>&1
check "extract of a frozen recorder: exit 0" "$?/$(grep -c 'bytes of trace in' "$TMP/out")" "0/1"
check "extract restarted nothing: enable 0, state stopped" "$(cat "$KT/enable")/$(state)" \
	"0/state stopped"
"$BIN" report -r "$TMP/e.dat" >"$TMP/rel" 2>&1
check "the saved trace holds the trigger record, at +0" \
	"$(grep -c '^+0\.000000000 .* ktrace:trigger trigger="user" .* reason="the bug"$' \
		"$TMP/rel")" 1
check "and the marks before it, in order" \
	"$(sed -n 's/^-[0-9.]* .* text="\(before [0-9]\)"$/\1/p' "$TMP/rel" | tr '\n' ',')" \
	"before 1,before 2,before 3,before 4,before 5,"
# sleep's hrtimer wakes it: hrtimer_wakeup+0x0/0xSIZE, as %pS prints it.
"$BIN" report -r --realtime "$TMP/e.dat" >"$TMP/wall" 2>&1
check "report -r --realtime: the trigger's wall-clock time, within 5 s of date" \
	"$(awk -v now="$now" 'NR == 1 && $1 == "#" && $2 == "trigger" && $3 == "at" {
		d = $4 - now; if (d < 0) d = -d; print (d <= 5) ? "near" : $4 " vs " now }' \
		"$TMP/wall")" near
check "and the timers before the bug by symbol name" \
	"$(grep -c '^-[0-9.]* .* irq:timer_expire function=hrtimer_wakeup+0x0/0x[0-9a-f]* ' \
		"$TMP/wall" | awk '{ print ($1 >= 1) ? "named" : "none" }')" named
if [ -n "${KTRACE_SAVE_DIR:-}" ]; then
	mkdir -p "$KTRACE_SAVE_DIR"
	cp "$TMP/e.dat" "$KTRACE_SAVE_DIR/bug.dat"
	cp "$TMP/wall" "$KTRACE_SAVE_DIR/bug.wall"
fi
echo 0 >"$KT/events/irq/timer_expire/enable"
check "extract left the trigger armed and the mode" \
	"$(grep -c '^user .* fired=1' "$KT/triggers")/$(cat "$KT/mode")" "1/drop [overwrite] hybrid"
echo '!user' >"$KT/triggers"

# A trace a trigger kept is never discarded unasked: until a reader has
# read every stream to the end, stats says "unsaved 1" and record refuses,
# changing nothing; extract saves it and clears it; --force discards it.
unsaved() { sed -n 's/^unsaved //p' "$KT/stats"; }
keep() {	# keep TEXT: a mark, then the user trigger keeps the trace
	echo '!user' >"$KT/triggers" 2>/dev/null
	echo user >"$KT/triggers"
	echo 1 >"$KT/enable"
	echo "$1" >"$KT/mark"
	echo "keep it" >"$KT/trigger"
}
check "before any trigger: unsaved 0" "$(unsaved)" 0
keep "kept 1"
check "the trigger kept the trace: unsaved 1" "$(unsaved)" 1
"$BIN" record -o "$TMP/r.dat" -- true >"$TMP/out" 2>&1
check "record refuses to discard it: exit 1, names ktrace extract, no file" \
	"$?/$(grep -c "save it with 'ktrace extract" "$TMP/out")/$(ls "$TMP" | grep -c '^r\.dat')" \
	"1/1/0"
check "refusing changed nothing: still unsaved, the trigger still armed" \
	"$(unsaved)/$(grep -c '^user .* fired=1' "$KT/triggers")" "1/1"
"$BIN" extract -o "$TMP/k.dat" >"$TMP/out" 2>&1
check "extract saves it, reading it to the end: the mark, then unsaved 0" \
	"$?/$("$BIN" report "$TMP/k.dat" | grep -c 'text="kept 1"')/$(unsaved)" "0/1/0"
keep "kept 2"
"$BIN" record --force -o "$TMP/f.dat" -- true >"$TMP/out" 2>&1
check "record --force discards it: exit 0, the new trace without the old mark" \
	"$?/$("$BIN" report "$TMP/f.dat" | grep -c 'text="kept 2"')/$(unsaved)" "0/0/0"
echo '!user' >"$KT/triggers"

# A trace that is tracing: refused, left tracing; --stop stops it.
echo 1 >"$KT/enable"
echo "while tracing" >"$KT/mark"
"$BIN" extract -o "$TMP/t.dat" >"$TMP/out" 2>&1
check "extract refuses a tracing trace: exit 1, says why, no file" \
	"$?/$(grep -c 'ktrace is tracing' "$TMP/out")/$(ls "$TMP" | grep -c '^t\.dat')" "1/1/0"
check "refusing left it tracing" "$(cat "$KT/enable")/$(state)" "1/state tracing"
"$BIN" extract --stop -o "$TMP/t.dat" >"$TMP/out" 2>&1
check "extract --stop: exit 0, stopped, the mark saved" \
	"$?/$(cat "$KT/enable")/$("$BIN" report "$TMP/t.dat" | grep -c 'text="while tracing"')" \
	"0/0/1"

# The one-liner of the documentation, over a workload writing marks of
# 4000 bytes for four times the bound of the file, from CPU 0, then the bug.
ncpu=$(ls "$KT/high" | grep -c '^cpu')
bound=$(( (64 + 512 + 64) * 1024 * ncpu + 256 * 1024 ))
marks=$((4 * bound / 4000))
cat >"$TMP/w.sh" <<'EOF'
big=$(printf '%03990d' 0)
i=0
while [ $i -lt "$2" ]; do
	echo "m $i $big" >"$1/mark"
	i=$((i + 1))
done
echo "last before the bug" >"$1/mark"
echo "the workload's bug" >"$1/trigger"
EOF
echo hybrid >"$KT/mode"
"$BIN" record -o "$TMP/f.dat" -m overwrite -b 64 -t user --wait -- \
	taskset -c 0 sh "$TMP/w.sh" "$KT" "$marks" >"$TMP/out" 2>&1
rc=$?
size=$(wc -c <"$TMP/f.dat")
check "record -m overwrite -b 64 -t user --wait: exit 0" "$rc" 0
ktap_print_msg "$marks marks of 4000 bytes ($((marks * 4 / 1000)) MB);" \
	"file $size bytes; bound $bound ($ncpu CPUs)"
check "the file is bounded by the buffers" "$([ "$size" -le "$bound" ] && echo yes)" yes
"$BIN" report -r "$TMP/f.dat" >"$TMP/frel" 2>"$TMP/ferr"
check "it holds the trigger record, at +0" \
	"$(grep -c -e '^+0\.000000000 .* ktrace:trigger trigger="user" ' "$TMP/frel")/$(
	   grep -c -e ' reason="the workload.s bug"$' "$TMP/frel")" 1/1
check "and the last of the history before it" \
	"$(grep -c -e '^-.* text="last before the bug"$' -e "^-.* text=\"m $((marks - 1)) 0" \
		"$TMP/frel")" 2
check "the overwritten history is gone: the first mark is not there" \
	"$(grep -c ' text="m 0 0' "$TMP/frel")" 0
check "record put ktrace back: hybrid, 1024 KiB, user disarmed, stopped" \
	"$(cat "$KT/mode")/$(cat "$KT/buffer_size_kb")/$(grep -c '^user ' "$KT/triggers")/$(
	   cat "$KT/enable")" "drop overwrite [hybrid]/1024/0/0"
ktrace_done
