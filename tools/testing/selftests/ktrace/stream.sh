#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# What the relay files hold: marks written from each CPU decode in order,
# and the accounting is exact per CPU, events = read + dropped +
# overwritten, in drop mode past full and in overwrite mode past a wrap.
# A mode change starts a new trace, counters at zero.

. "$(dirname "$0")"/lib.sh

ktrace_setup

PAD=xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# marks CPU COUNT PREFIX: COUNT marks "PREFIX-i-PAD" written from CPU.
marks() {
	taskset -c "$1" sh -c "i=0; while [ \$i -lt $2 ]; do
		echo \"$3-\$i-$PAD\" >$KT/mark 2>/dev/null; i=\$((i + 1)); done"
}

# drain CPU: read what the medium relay file of CPU holds; its marks go to
# $TMP/marksCPU, the counts to $TMP/countCPU.
drain() {
	"$DIR"/ktrace_count -m "$KT/medium/cpu$1" >"$TMP/out$1" 2>&1
	tail -n 1 "$TMP/out$1" >"$TMP/count$1"
	sed '$d' "$TMP/out$1" | sed "s/-$PAD\$//" >"$TMP/marks$1"
}
count() { tr ' ' '\n' <"$TMP/count$1" | sed -n "s/^$2=//p"; }

# increasing FILE PREFIX: the lines are PREFIX-N with N increasing (gaps allowed).
increasing() {
	awk -v p="$2" '{ n = substr($0, length(p) + 2) + 0 }
		index($0, p "-") != 1 || (NR > 1 && n <= last) { bad = 1 }
		{ last = n } END { exit bad }' "$1"
}

# in_order FILE PREFIX FIRST: the lines are PREFIX-FIRST, PREFIX-FIRST+1, ...
in_order() {
	awk -v p="$2" -v f="$3" '$0 != p "-" (f + NR - 1) { bad = 1 } END { exit bad }' "$1"
}

echo drop >"$KT/mode"
echo 1 >"$KT/enable"
marks 0 10000 a &
marks 1 300 b
wait
echo 0 >"$KT/enable"
drain 0
drain 1
read0=$(count 0 events)
read1=$(count 1 events)
dropped0=$(stat_of 0 medium dropped)

check "drop: the stream of CPU 0 is well formed" "$(count 0 errors)/$(count 0 gaps)" "0/0"
check "drop: CPU 0 filled up and dropped" "$([ "$dropped0" -gt 0 ] && echo yes)" yes
check "drop: CPU 0 events = read + dropped" "$(stat_of 0 medium events)" \
	$((read0 + dropped0 + $(stat_of 0 medium overwritten)))
check "drop: the last header carries the dropped count and drop mode" \
	"$(count 0 dropped)/$(count 0 overwrite_mode)" "$dropped0/0"
check "drop: CPU 0 kept the first marks, in order" \
	"$(head -n 1 "$TMP/marks0"):$(in_order "$TMP/marks0" a 0 && echo ordered)" "a-0:ordered"
check "drop: every event read from CPU 0 is a mark" "$(wc -l <"$TMP/marks0")" "$read0"
check "drop: CPU 1 kept all 300 marks, in order" \
	"$(wc -l <"$TMP/marks1"):$(in_order "$TMP/marks1" b 0 && echo ordered)" "300:ordered"
check "drop: CPU 1 events = read" "$(stat_of 1 medium events)/$(stat_of 1 medium dropped)" \
	"$read1/0"

echo overwrite >"$KT/mode"
echo 1 >"$KT/enable"
marks 0 10000 c
echo 0 >"$KT/enable"
drain 0
read0=$(count 0 events)
over0=$(stat_of 0 medium overwritten)
kept=$(wc -l <"$TMP/marks0")

check "overwrite: the stream of CPU 0 is well formed" "$(count 0 errors)/$(count 0 gaps)" "0/0"
check "overwrite: CPU 0 wrapped and overwrote" "$([ "$over0" -gt 0 ] && echo yes)" yes
check "overwrite: CPU 0 events = read + dropped + overwritten" \
	"$(stat_of 0 medium events)" $((read0 + $(stat_of 0 medium dropped) + over0))
check "overwrite: CPU 0 kept the newest marks, in order, up to the last" \
	"$(tail -n 1 "$TMP/marks0"):$(in_order "$TMP/marks0" c $((10000 - kept)) && echo ordered)" \
	"c-9999:ordered"
check "overwrite: what is left starts after the overwritten subbuffers" \
	"$([ "$(count 0 first_seq)" -gt 1 ] && echo yes)" yes
check "overwrite: the last header says overwrite mode, with a count" \
	"$(count 0 overwrite_mode)/$([ "$(count 0 overwritten)" -gt 0 ] && echo counted)" \
	"1/counted"

# A second start appends to the same streams.
echo 1 >"$KT/enable"
marks 1 5 d
echo 0 >"$KT/enable"
drain 1
check "restart: CPU 1 reads exactly the new marks" "$(cat "$TMP/marks1" | tr '\n' ' ')" \
	"d-0 d-1 d-2 d-3 d-4 "
check "restart: CPU 1 counts exactly those" \
	"$(stat_of 1 medium events)/$(count 1 events)/$(stat_of 1 medium dropped)" "5/5/0"

# A reader racing the overwriting writer: CPU 1 reads CPU 0's stream over
# and over while CPU 0 laps its buffer.  Whatever it gets is whole
# subbuffers, in order, and every event is read or counted, once.
lost_before=$(($(stat_of 0 medium dropped) + $(stat_of 0 medium overwritten)))
read_before=$(($(stat_of 0 medium events) - lost_before))
echo 1 >"$KT/enable"
marks 0 20000 e &
writer=$!
while kill -0 $writer 2>/dev/null; do
	taskset -c 1 cat "$KT/medium/cpu0"
done >"$TMP/race"
wait
echo 0 >"$KT/enable"
cat "$KT/medium/cpu0" >>"$TMP/race"
"$DIR"/ktrace_count -m "$TMP/race" >"$TMP/out0" 2>&1
tail -n 1 "$TMP/out0" >"$TMP/count0"
sed '$d' "$TMP/out0" | sed "s/-$PAD\$//" >"$TMP/marks0"
ktap_print_msg "race: $(cat "$TMP/count0") $(grep "^cpu0 medium" "$KT/stats")"
check "race: what the racing reader got is well formed" "$(count 0 errors)" 0
check "race: its marks are the writer's, in order, up to the last" \
	"$(increasing "$TMP/marks0" e && echo ordered):$(tail -n 1 "$TMP/marks0")" "ordered:e-19999"
lost=$(($(stat_of 0 medium dropped) + $(stat_of 0 medium overwritten)))
check "race: CPU 0 events = read + dropped + overwritten" "$(stat_of 0 medium events)" \
	$((read_before + $(count 0 events) + lost))

echo hybrid >"$KT/mode"
ktrace_done
