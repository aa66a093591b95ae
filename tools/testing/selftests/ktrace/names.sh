#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Names in a long flight-recorder run.  In hybrid mode the medium-rate
# channel, which carries the fork, exec and comm events, is never
# overwritten but drops what no longer fits.  Once it is full, the saved
# comms must still name every pid of the high-rate channel's surviving
# history: in the ascii pipe and in the comms file.  A statedump into a
# full medium-rate channel counts what it loses, and still saves the names.

. "$(dirname "$0")"/lib.sh

ktrace_setup

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
dmesg_start=$(dmesg_mark)
N=300

# sum CHANNEL KEY: a counter of the stats file, summed over the CPUs.
sum() {
	awk -v ch="$1" -v key="$2" '$2 == ch { for (i = 3; i <= NF; i++)
		if (index($i, key "=") == 1) n += substr($i, length(key) + 2) }
		END { print n + 0 }' "$KT/stats"
}
# names KEY: a counter of the names line of the stats file.
names() {
	awk -v key="$1" '$1 == "names" { for (i = 2; i <= NF; i++)
		if (index($i, key "=") == 1) print substr($i, length(key) + 2) }' "$KT/stats"
}

# A small high-rate channel that overwrites, a full medium-rate channel,
# then N tasks, each with a name of its own.
echo 16 >"$KT/buffer_size_kb"
echo 1 >"$KT/events/sched/enable"
echo 1 >"$KT/events/statedump/enable"
echo 1 >"$KT/enable"
"$DIR"/ktrace_names "$KT/mark" "$N" >"$TMP/kids" 2>"$TMP/err"
status=$?
echo 0 >"$KT/enable"
ktap_print_msg "$(cat "$TMP/err")"
check "the helper ran $N named tasks" "$status $(wc -l <"$TMP/kids")" "0 $N"
check "the medium channel was full: names were dropped" \
	"$(sum medium dropped | awk '{ print ($1 > 0) }')" 1
check "the high channel overwrote its oldest events" \
	"$(sum high overwritten | awk '{ print ($1 > 0) }')" 1

cat "$KT/comms" >"$TMP/comms"
timeout 10 cat "$KT/ascii" >"$TMP/out" 2>/dev/null

# Every line's COMM-PID (the running task) against the name each child
# gave itself: "SEEN BAD" for the children, then the unnamed pids.
awk 'FILENAME == ARGV[1] { name[$1] = $2; next }
	{ i = match($3, /-[0-9]+$/); if (!i) next
	  comm = substr($3, 1, i - 1); pid = substr($3, i + 1)
	  if (pid in name) { seen[pid] = 1; if (comm != name[pid]) bad++ }
	  if (comm == "<...>") unnamed++ }
	END { n = 0; for (p in seen) n++; print n, bad + 0, unnamed + 0 }' \
	"$TMP/kids" "$TMP/out" >"$TMP/result"
read -r seen bad unnamed <"$TMP/result"
ktap_print_msg "$seen of $N children in the surviving history"
check "children are in the high channel's surviving history" \
	"$(echo "$seen" | awk '{ print ($1 >= 10) }')" 1
check "every one is named as it named itself" "$bad" 0
check "no pid of the surviving history is unnamed" "$unnamed" 0
check "the comms file names every child" \
	"$(awk 'FILENAME == ARGV[1] { c[$0] = 1; next } !($0 in c) { n++ } END { print n + 0 }' \
		"$TMP/comms" "$TMP/kids")" 0
check "the stats count the names saved" \
	"$(names saved | awk -v n="$N" '{ print ($1 >= n) }')" 1

# A start whose medium channel is already full: its statedump is dropped,
# and counted, but the names of the tasks it walks are saved all the same.
echo 1 >"$KT/enable"
"$DIR"/ktrace_names "$KT/mark" 0 2>/dev/null
echo 0 >"$KT/enable"
echo 1 >"$KT/enable"
echo 0 >"$KT/enable"
nproc=$(ls /proc | grep -c -E '^[0-9]+$')
check "a statedump into a full channel counts its losses" \
	"$(names statedump_dropped | awk -v n="$nproc" '{ print ($1 >= n / 2) }')" 1
check "and saves every task's name" \
	"$(grep -c -x -e "1 $(cat /proc/1/comm)" -e "$$ $(cat /proc/$$/comm)" "$KT/comms")" 2
check "no kernel warning" "$(splats_since "$dmesg_start")" 0
ktrace_done
