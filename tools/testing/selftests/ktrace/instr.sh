#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The instrumentation: each event is caused in the guest and its decoded
# fields are checked against what caused it: a forked, exec'd, renamed,
# migrated and exiting child (sched), an interrupt of the virtio disk and
# the null_blk softirq (irq), a sleep (timers), one write(2) (syscalls),
# one direct write to null_blk (block), reclaim forced by a raised
# min_free_kbytes, an OOM kill, and a ping on loopback (net).

. "$(dirname "$0")"/lib.sh

ktrace_setup

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
ncpu=$(grep -c '^processor' /proc/cpuinfo)
dmesg_start=$(dmesg_mark)

# traced GROUPS CMD...: run CMD with the events of GROUPS on, then the
# ascii lines of the trace in $TMP/out.
traced() {
	_groups=$1
	shift
	echo 0 >"$KT/events/enable"
	for g in $_groups; do
		echo 1 >"$KT/events/$g/enable"
	done
	echo 1 >"$KT/enable"
	"$@"
	echo 0 >"$KT/enable"
	timeout 5 cat "$KT/ascii" >"$TMP/out"
	echo 0 >"$KT/events/enable"
	# For a failure's post-mortem, when the runner keeps traces.
	[ -z "${KTRACE_SAVE_DIR:-}" ] || { mkdir -p "$KTRACE_SAVE_DIR" &&
		cp "$TMP/out" "$KTRACE_SAVE_DIR/instr-${_groups%% *}-$1.txt"; }
}

# has NAME ERE: a test passing if a line of the trace matches ERE.
has() {
	if grep -qE -e "$2" "$TMP/out"; then
		ktap_test_pass "$1"
	else
		ktap_print_msg "no line matches: $2"
		grep -F -e " ${2#* }" "$TMP/out" | head -n 3 | while read -r l; do
			ktap_print_msg "  $l"
		done
		ktap_test_fail "$1"
	fi
}

# sched: a child that renames itself, execs a program that sleeps 1 s,
# and exits; then a shell that moves itself to the last CPU.
sched_work() {
	sh -c 'echo $$ >'"$TMP"'/sh;
	       sh -c "printf renamed >/proc/self/comm; exec '"$DIR"'/ktrace_hog 1 1" >/dev/null &
	       echo $! >'"$TMP"'/child; wait'
	sh -c 'echo $$ >'"$TMP"'/mover; taskset -pc 0 $$ >/dev/null; sleep 0.1;
	       taskset -pc '"$((ncpu - 1))"' $$ >/dev/null; sleep 0.1'
}
traced sched sched_work
SH=$(cat "$TMP/sh")
CHILD=$(cat "$TMP/child")
MOVER=$(cat "$TMP/mover")
has "sched:fork names the parent, the child and its comm" \
	"-$SH sched:fork parent_pid=$SH child_pid=$CHILD child_tgid=$CHILD comm=\"sh\"$"
has "sched:wakeup_new wakes the child on a CPU" \
	" sched:wakeup_new pid=$CHILD cpu=[0-$((ncpu - 1))]$"
has "sched:exec runs ktrace_hog in the child" \
	"-$CHILD sched:exec pid=$CHILD old_pid=$CHILD comm=\"ktrace_hog\" \
filename=\"[^\"]*/ktrace_hog\"$"
has "sched:comm renames it" " sched:comm pid=$CHILD comm=\"renamed\"$"
has "sched:switch runs the child (prev task, state ==> next, as ftrace)" \
	" sched:switch prev_comm=[^ ]+ prev_pid=[0-9]+ prev_state=[^ ]+ ==> \
next_comm=[^ ]+ next_pid=$CHILD$"
has "sched:wakeup wakes the sleeping child" " sched:wakeup pid=$CHILD cpu=[0-9]+$"
has "sched:exit ends it" " sched:exit pid=$CHILD$"
has "the exited child keeps the name its exec gave it" " ktrace_hog-$CHILD sched:exit pid=$CHILD$"
has "sched:migrate moves the task to the last CPU" \
	" sched:migrate pid=$MOVER cpu=$((ncpu - 1))$"
# After the child ran on a CPU, that CPU's next switch gives its state
# (prev_pid: the task the CPU's switch before switched in).
st=$(awk -v p="$CHILD" '$4 == "sched:switch" {
		split($6, a, "="); if (a[2] == p) s[substr($7, 12)] = 1 }
	END { for (k in s) printf "%s ", k }' "$TMP/out" | tr ' ' '\n' | sort | tr '\n' ' ')
case " $st" in
*" S "*) ktap_test_pass "the child switches out sleeping (S): $st" ;;
*) ktap_print_msg "states of the child when switched out: '$st'"
   ktap_test_fail "the child switches out sleeping (S)" ;;
esac
check "every prev_state is a known state" \
	"$(grep ' sched:switch ' "$TMP/out" |
	   grep -cvE ' prev_state=(R|S|D|T|t|X|Z|P|I|R\+) ==> ')" 0
check "the running task of a switch line is its next_pid" \
	"$(awk '$4 == "sched:switch" { n = split($3, a, "-"); split($NF, b, "=");
		if (a[n] != b[2]) bad++ } END { print bad + 0 }' "$TMP/out")" 0

# irq: a direct read of the virtio disk interrupts; null_blk completes in
# the BLOCK softirq; a sleep expires an hrtimer.
# virtio_counts: "IRQ TOTAL" of each virtio IRQ line of /proc/interrupts.
virtio_counts() {
	awk '/virtio/ { t = 0; for (i = 2; i <= NF && $i ~ /^[0-9]+$/; i++) t += $i;
		sub(":", "", $1); print $1, t }' /proc/interrupts
}
irq_work() {
	virtio_counts >"$TMP/irq_before"
	dd if=/dev/vda of=/dev/null bs=4096 count=4 iflag=direct 2>/dev/null
	virtio_counts >"$TMP/irq_after"
	dd if=/dev/nullb0 of=/dev/null bs=4096 count=4 iflag=direct 2>/dev/null
	sleep 0.1
}
traced irq irq_work
# The virtio IRQ that counted the reads (a queue per CPU: either).
IRQ=$(awk 'NR == FNR { b[$1] = $2; next } $2 > b[$1] { print $1; exit }' \
	"$TMP/irq_before" "$TMP/irq_after")
has "irq:hardirq_entry of the virtio disk's IRQ $IRQ" " irq:hardirq_entry irq=$IRQ$"
has "irq:hardirq_exit: handled" " irq:hardirq_exit irq=$IRQ ret=handled$"
has "irq:softirq_raise TIMER" " irq:softirq_raise vec=TIMER$"
# A CPU's first softirq event can be the exit of a softirq that began
# before tracing did (seen on 8 CPUs): only exits after an entry pair up.
check "softirq_entry and softirq_exit pair up on each CPU" \
	"$(awk '$4 == "irq:softirq_entry" { if ($2 in open) bad++; open[$2] = $5; seen[$2]; n++ }
		$4 == "irq:softirq_exit" { if (($2 in seen) && open[$2] != $5) bad++
			delete open[$2] }
		END { print (n > 0) " " bad + 0 }' "$TMP/out")" "1 0"
has "irq:timer_expire of the sleep's hrtimer" \
	" irq:timer_expire function=hrtimer_wakeup\\+0x0/0x[0-9a-f]+ late_ns=-?[0-9]+ kind=hrtimer$"
check "timer_list lateness is whole milliseconds of jiffies" \
	"$(grep ' kind=timer$' "$TMP/out" | sed 's/.* late_ns=\([-0-9]*\) .*/\1/' |
	   awk '{ n++; if ($1 % 1000000 || $1 < 0) bad++ }
		END { print (n > 0) " " bad + 0 }')" "1 0"

# irq:irqsoff exists where the kernel tracks the IRQ state (the debug
# guest: lockdep), as ftrace's preemptirq events do; there, every period
# of at least 20 us, with the function that began it.
pi=$( [ -d /sys/kernel/debug/tracing/events/preemptirq ] && echo yes || echo no)
check "irq:irqsoff exists exactly when the preemptirq tracepoints do" \
	"$( [ -d "$KT/events/irq/irqsoff" ] && echo yes || echo no)" "$pi"
if [ "$pi" = yes ]; then
	P=/sys/module/ktrace/parameters/irqsoff_min_ns
	old_min=$(cat $P)
	echo 20000 >$P
	traced irq irq_work
	echo "$old_min" >$P
	check "irq:irqsoff periods last at least the minimum, their caller named" \
		"$(awk '$4 == "irq:irqsoff" { n++; split($6, d, "=");
			if (d[2] < 20000 || $5 ~ /caller=0x/) bad++ }
			END { print (n > 0) " " bad + 0 }' "$TMP/out")" "1 0"
fi

# syscalls: one write(2) of 777 bytes to fd 3 of a known pid.
sys_work() {
	sh -c 'echo $$ >'"$TMP"'/w; exec 3>/dev/null;
	       exec '"$DIR"'/ktrace_write -n 777 /dev/null x' \
		>/dev/null
	ls /nonexistent 2>/dev/null
}
# With sched: the switches tell which task runs, for the COMM-PID column.
traced "syscalls sched" sys_work
W=$(cat "$TMP/w")
has "syscalls:exit of write(2) returns 777" "-$W syscalls:exit nr=1 name=write ret=777$"
# The file descriptor openat(2) returned is the one write(2) is given.
fd=$(awk -v p="-$W" 'index($3, p) && $4 == "syscalls:exit" && $5 == "nr=257" {
	sub("ret=", "", $NF); f = $NF } END { print f }' "$TMP/out")
has "syscalls:entry of write(2) on the fd openat(2) returned ($fd)" \
	"-$W syscalls:entry nr=1 name=write arg0=$(printf '0x%x' "${fd:-999}")$"
has "a failing syscall returns -ENOENT" "syscalls:exit nr=[0-9]+ name=[a-z_0-9]+ ret=-2$"

# block: one 4 KiB direct write at sector 800 of nullb0.
DEV=$(cat /sys/block/nullb0/dev)
# Requests are inserted only through an I/O scheduler.
echo mq-deadline >/sys/block/nullb0/queue/scheduler
blk_work() {
	dd if=/dev/zero of=/dev/nullb0 bs=4096 count=1 seek=100 oflag=direct 2>/dev/null
}
traced block blk_work
# The bio is described once (24 bytes); the request events are 8 bytes,
# and print the description their key names.
WANT="dev=$DEV sector=800 nr_sector=8 op=write flags=sync"
for ev in bio_queue rq_insert rq_issue rq_complete; do
	has "block:$ev of the write" " block:$ev $WANT$"
done
check "block:rq_issue is an 8-byte event carrying a key" \
	"$(sed -n 's/^kind: //p; s/^field: //p' "$KT/events/block/rq_issue/format" | tr '\n' '|')" \
	"compact|rq offset=0 size=32 display=key|"
check "block:rq_complete ends the request" \
	"$(sed -n 's/^field: //p' "$KT/events/block/rq_complete/format")" \
	"rq offset=0 size=32 display=key key_end"
check "a request that is its bio needs no block:rq_describe" \
	"$(grep -c ' block:rq_describe ' "$TMP/out")" 0
# Without bio_queue, the request is described before each of its events.
blk_nobio() {
	echo 0 >"$KT/events/block/bio_queue/enable"
	blk_work
}
traced block blk_nobio
check "without bio_queue: no bio_queue" "$(grep -c ' block:bio_queue ' "$TMP/out")" 0
has "without bio_queue: block:rq_describe describes the request" " block:rq_describe $WANT$"
check "without bio_queue: the request is described once, not at each step" \
	"$(grep -c ' block:rq_describe ' "$TMP/out")" 1
for ev in rq_insert rq_issue rq_complete; do
	has "without bio_queue: block:$ev of the write" " block:$ev $WANT$"
done
# Without rq_describe either, nothing describes it: unknown, never wrong.
blk_nodesc() {
	echo 0 >"$KT/events/block/bio_queue/enable"
	echo 0 >"$KT/events/block/rq_describe/enable"
	blk_work
}
traced block blk_nodesc
has "without descriptions: block:rq_issue is an unknown request" \
	" block:rq_issue rq=unknown:0x[0-9a-f]{8}$"
check "without descriptions: no request is named" \
	"$(grep -c ' block:rq_[a-z]* dev=' "$TMP/out")" 0

# vm: page cache from null_blk, as much as leaves 256 MiB free whatever
# the guest's memory, then min_free_kbytes just high enough that every
# zone's free pages are below its min watermark, so that allocations
# reclaim directly and kswapd reclaims up to the high watermarks (1.5
# times min), all within the page cache.
meminfo() { awk -v k="$1:" '$1 == k { print $2 }' /proc/meminfo; }
# min_free_kbytes is split between the zones by their managed pages: the
# kB that gives each zone a min 8 MiB (in all) above its free pages.
# Past 4 GiB there is a Normal zone beside DMA32, and most of what is
# free can be in the smaller one.  The DMA zone is left aside: its lowmem
# reserve keeps most allocations out of it.
zones_min_kb() {
	awk '$3 == "zone" { z = $4 }
	     $1 == "pages" && $2 == "free" { f[z] = $3 }
	     $1 == "managed" && $2 > 0 { m[z] = $2; t += $2 }
	     END { for (z in m) if (z != "DMA" && f[z] * t / m[z] > p) p = f[z] * t / m[z]
		   printf "%d\n", p * 4 + 8192 }' /proc/zoneinfo
}
vm_work() {
	# The last close of a block device drops its page cache: keep it open.
	exec 5</dev/nullb0
	fill=$(($(meminfo MemFree) / 1024 - 256))
	[ "$fill" -ge 256 ] || fill=256
	dd if=/dev/nullb0 of=/dev/null bs=1M count="$fill" 2>&1 | tail -n 1 |
		while read -r l; do ktap_print_msg "dd: $l"; done
	old=$(cat /proc/sys/vm/min_free_kbytes)
	free=$(meminfo MemFree)
	cached=$(( $(meminfo 'Inactive(file)') + $(meminfo 'Active(file)') ))
	min=$(zones_min_kb)
	ktap_print_msg "free $free kB, cached $cached kB, min_free_kbytes $min"
	# kswapd may reach the high watermark before the hog runs: the hog
	# allocates 128 MiB, faster than kswapd reclaims.
	if [ $((min * 3 / 2 - free + 131072)) -lt $((cached * 3 / 4)) ]; then
		echo "$min" >/proc/sys/vm/min_free_kbytes
		"$DIR"/ktrace_hog 128 >/dev/null
		echo "$old" >/proc/sys/vm/min_free_kbytes
	else
		ktap_print_msg "not enough page cache to reclaim"
	fi
	exec 5<&-
	sleep 0.5
}
traced vm vm_work
has "vm:kswapd_wake" " vm:kswapd_wake nid=0 zid=[0-9] order=[0-9]+$"
# (Not necessarily the hog's: a fork can be first to reclaim, order 2 or 3.)
has "vm:direct_reclaim_begin of an allocation, with its gfp flags" \
	" vm:direct_reclaim_begin order=[0-9] gfp_flags=(GFP|__GFP)[A-Z0-9_|]*[A-Z0-9]$"
check "vm:direct_reclaim_end reclaimed pages" \
	"$(awk '$4 == "vm:direct_reclaim_end" { split($5, a, "="); if (a[2] > 0) n++ }
		END { print (n > 0) }' "$TMP/out")" 1
check "vm:shrink_inactive passes on the file LRU reclaim at most what they scan" \
	"$(awk '$4 == "vm:shrink_inactive" && $7 == "lru=file" {
		for (i = 5; i <= NF; i++) { split($i, a, "="); v[a[1]] = a[2] }
		n++; if (v["reclaimed"] > v["scanned"] || v["priority"] > 12) bad++
		if (v["reclaimed"] > 0) got++ }
		END { print (n > 0) " " (got > 0) " " bad + 0 }' "$TMP/out")" "1 1 0"

# vm:oom_kill: more than the guest's memory, no swap.
oom_work() {
	sh -c 'echo $$ >'"$TMP"'/hog; echo 1000 >/proc/self/oom_score_adj;
	       exec '"$DIR"'/ktrace_hog '"$(($(meminfo MemTotal) / 1024 + 256))" >/dev/null 2>&1
}
traced vm oom_work
HOG=$(cat "$TMP/hog")
has "vm:oom_kill names the hog" " vm:oom_kill pid=$HOG comm=\"ktrace_hog\" "
check "and its anonymous memory (MiB, above 100)" \
	"$(sed -n "s/.* vm:oom_kill pid=$HOG .* anon_rss_kb=\([0-9]*\) .*/\1/p" "$TMP/out" |
	   awk '{ print ($1 > 102400) }')" 1

# net: one ping on loopback, 84 bytes of IP, 98 with the Ethernet header.
ip link set lo up 2>/dev/null || ifconfig lo up
traced net ping -c 1 -W 1 127.0.0.1 >/dev/null
has "net:xmit on lo" " net:xmit ifindex=1 len=98$"
has "net:receive on lo" " net:receive ifindex=1 len=84$"

check "no kernel warning" "$(splats_since "$dmesg_start")" 0
ktrace_done
