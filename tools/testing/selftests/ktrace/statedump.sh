#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The statedump of every start, checked against /proc and /sys: every
# task with its name and parent, the open files and memory maps of a known
# process, IRQ handlers, block devices, network interfaces, modules, one
# event per CPU from that CPU, and statedump:end counting what it wrote.

. "$(dirname "$0")"/lib.sh

ktrace_setup

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"; kill $SLEEPER 2>/dev/null' EXIT
ncpu=$(grep -c '^processor' /proc/cpuinfo)
dmesg_start=$(dmesg_mark)

# A process with known files: fd 3 reads /dev/zero, fd 4 writes a file.
sh -c "exec sleep 60 3</dev/zero 4>$TMP/file" &
SLEEPER=$!
sleep 0.2

# only_in A B: the lines of A that are not in B; in_both A B: those that
# are (busybox has no comm(1)).
only_in() {
	awk 'FILENAME == ARGV[1] { b[$0] = 1; next } !($0 in b)' "$2" "$1"
}
in_both() {
	awk 'FILENAME == ARGV[1] { b[$0] = 1; next } $0 in b' "$2" "$1"
}

# The processes before and after the statedump: those alive throughout.
ls /proc | grep -E '^[0-9]+$' | sort -n >"$TMP/before"
echo 0 >"$KT/events/enable"
echo 1 >"$KT/events/statedump/enable"
echo 1 >"$KT/enable"
echo 0 >"$KT/enable"
timeout 5 cat "$KT/ascii" >"$TMP/out"
ls /proc | grep -E '^[0-9]+$' | sort -n >"$TMP/after"
in_both "$TMP/before" "$TMP/after" >"$TMP/alive"

# field LINE KEY: a key=value of an ascii line, quotes removed.
sd() { grep " statedump:$1 " "$TMP/out"; }
val() { sed -n "s/.* $1=\"\{0,1\}\([^\" ]*\)\"\{0,1\}\( .*\)\{0,1\}$/\1/p"; }

# Tasks: "pid ppid comm" from the trace and from /proc.  /proc shows the
# full name of a kernel thread and a kworker's workqueue after a '-' (idle)
# or a '+' (running its work): the trace has the task's comm, at most 15
# bytes.
sd task | awk '{ for (i = 5; i <= NF; i++) { split($i, a, "="); v[a[1]] = a[2] }
	print v["pid"], v["ppid"], v["comm"] }' | tr -d '"' |
	sed 's/ \(kworker[^+-]*\)[+-].*/ \1/' | sort -n >"$TMP/sd_tasks"
while read -r p; do
	[ -r "/proc/$p/stat" ] || continue
	ppid=$(sed 's/.*) [A-Za-z] \([0-9]*\) .*/\1/' "/proc/$p/stat")
	printf '%s %s %s\n' "$p" "$ppid" "$(cut -c 1-15 "/proc/$p/comm" | tr ' ' '_')"
done <"$TMP/alive" | sed 's/ \(kworker[^+-]*\)[+-].*/ \1/' | sort -n >"$TMP/proc_tasks"
check "every process of /proc is dumped with its parent and name" \
	"$(only_in "$TMP/proc_tasks" "$TMP/sd_tasks" | head -n 3 | tr '\n' ';')" ""
check "init is pid 1, child of 0" "$(grep '^1 ' "$TMP/sd_tasks" | cut -d' ' -f2)" 0
check "kernel threads are marked (kthreadd)" \
	"$(sd task | grep ' pid=2 ' | val kthread)" 1
check "the sleeper is sleeping (S)" "$(sd task | grep " pid=$SLEEPER " | val state)" S

# Files of the sleeper.
for f in /proc/$SLEEPER/fd/*; do
	printf '%s %s\n' "${f##*/}" "$(readlink "$f")"
done | sort -n >"$TMP/proc_fds"
sd fd | grep " pid=$SLEEPER " | awk '{ split($6, a, "="); sub("path=", "", $7);
	print a[2], $7 }' | tr -d '"' | sort -n >"$TMP/sd_fds"
check "the sleeper's open files match /proc/PID/fd" \
	"$(diff "$TMP/proc_fds" "$TMP/sd_fds" | grep -c '^[<>]')" 0
check "fd 3 is /dev/zero, fd 4 the file" \
	"$(awk '$1 == 3 || $1 == 4 { printf "%s ", $2 }' "$TMP/sd_fds")" "/dev/zero $TMP/file "

# Maps of the sleeper: start, end and path, in hex without leading zeros.
# The vsyscall page is no VMA: /proc adds it.
grep -v '\[vsyscall\]' "/proc/$SLEEPER/maps" | awk '{ split($1, r, "-"); print r[1], r[2], $6 }' |
while read -r s e p; do
	printf '%x %x %s\n' "0x$s" "0x$e" "$p"
done | sed 's/ $//' >"$TMP/proc_maps"
sd map | grep " pid=$SLEEPER " | awk '{ s = $6; e = $7; p = $10;
	sub("start=0x", "", s); sub("end=0x", "", e); sub("path=", "", p); gsub("\"", "", p);
	print s, e, p }' | sed 's/ $//' >"$TMP/sd_maps"
check "the sleeper's maps match /proc/PID/maps" \
	"$(diff "$TMP/proc_maps" "$TMP/sd_maps" | grep -c '^[<>]')" 0
check "and name its program" \
	"$(grep -c ' /bin/busybox$' "$TMP/sd_maps" | awk '{ print ($1 > 0) }')" 1

# IRQs: the first handler name of every line of /proc/interrupts.
awk '$1 ~ /^[0-9]+:$/ { sub(":", "", $1); n = split($NF, a, ","); print $1, a[1] }' \
	/proc/interrupts | sort >"$TMP/proc_irqs"
sd irq | awk '{ split($5, a, "="); sub("name=", "", $NF); gsub("\"", "", $NF); print a[2], $NF }' |
	sort >"$TMP/sd_irqs"
check "every IRQ of /proc/interrupts is dumped with its handler's name" \
	"$(only_in "$TMP/proc_irqs" "$TMP/sd_irqs" | tr '\n' ';')" ""

# Block devices and interfaces.
for d in /sys/class/block/*; do
	echo "$(cat "$d/dev") $(($(cat "$d/size") >> 11)) ${d##*/}"
done | sort >"$TMP/sys_bdevs"
sd blockdev | awk '{ print substr($5, 5), substr($6, 10), substr($7, 6) }' | tr -d '"' |
	sort >"$TMP/sd_bdevs"
check "block devices and their sizes match /sys/class/block" \
	"$(diff "$TMP/sys_bdevs" "$TMP/sd_bdevs" | grep -c '^[<>]')" 0
for d in /sys/class/net/*; do
	echo "$(cat "$d/ifindex") ${d##*/}"
done | sort >"$TMP/sys_nets"
sd netdev | awk '{ print substr($5, 9), substr($6, 6) }' | tr -d '"' | sort >"$TMP/sd_nets"
check "interfaces match /sys/class/net" \
	"$(diff "$TMP/sys_nets" "$TMP/sd_nets" | grep -c '^[<>]')" 0
check "modules match /proc/modules" "$(sd module | wc -l)" \
	"$(cat /proc/modules 2>/dev/null | wc -l)"

check "one statedump:cpu per CPU, written on that CPU" \
	"$(sd cpu | awk '{ print $2, substr($5, 5) }' | sort -u | awk '$1 == $2' | wc -l)" "$ncpu"
end=$(sd end)
check "statedump:end counts the tasks, files and maps written" \
	"$(echo "$end" | val tasks) $(echo "$end" | val fds) $(echo "$end" | val maps)" \
	"$(sd task | wc -l) $(sd fd | wc -l) $(sd map | wc -l)"
ktap_print_msg "statedump: $(echo "$end" | sed 's/.*statedump:end //')"
check "no kernel warning" "$(splats_since "$dmesg_start")" 0
ktrace_done
