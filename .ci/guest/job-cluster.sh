#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# One machine of the cluster test (.ci/cluster): two guests, a and b, on
# one network that only the host's loopback carries.  From the kernel
# command line: KTRACE_NODE (a or b), KTRACE_PEER (the other's address),
# KTRACE_CLSHIFT (seconds added to CLOCK_REALTIME, so that the clocks are
# apart on purpose), KTRACE_CLKEY (the group key), KTRACE_CLCRASH=panic or
# oops (a panics, or oopses, instead of firing the user trigger).
#
# Both join the group with beacons and arm the cluster trigger, then wait
# until each has the other's beacons.  a sends b bad messages (cut, too
# long, a wrong tag, a beacon twice and an older one, a flood of wrong
# tags): b must stay tracing and count each.  Then, in the middle of a
# flood of good beacons far over b's rate, a fires its user trigger (or
# panics, or oopses): b must refuse the beacons over the rate and still
# freeze on a cluster trigger naming a.  Each writes what it saw and its
# trace to the results.
out=$1
KT=/sys/kernel/debug/ktrace
node=${KTRACE_NODE:?}
peer=${KTRACE_PEER:?}
key=${KTRACE_CLKEY:?}
port=6363
fail=0

say() { echo "cluster-$node: $*"; }
bad() { say "FAIL: $*"; fail=1; }
# counter NAME: a number of the cluster file.
# UDP datagrams delivered to sockets (/proc/net/snmp InDatagrams).
udp_in() { awk '/^Udp:/ && n++ { print $2; exit }' /proc/net/snmp; }
counter() { sed 1d "$KT/cluster" | tr ' ' '\n' | sed -n "s/^$1=//p"; }

date -s "@$(($(date +%s) + ${KTRACE_CLSHIFT:-0}))" >/dev/null
say "CLOCK_REALTIME $(date +%s), shifted by ${KTRACE_CLSHIFT:-0} s"
ip link set eth0 up
# Bad writes: refused, with the errno documented, and nothing changes.
for w in "dev=eth0:Invalid argument" "dev=eth0 key=0011:Invalid argument" \
	 "dev=eth0 key=$key port=0:Numerical result out of range" \
	 "dev=nosuch key=$key:No such device" "colour=red:Invalid argument"; do
	# shellcheck disable=SC2116
	err=$(echo "${w%:*}" 2>&1 >"$KT/cluster")
	case $err in *"${w##*:}"*) ;; *) bad "'${w%:*}': '$err', want ${w##*:}" ;; esac
done
[ "$(cat "$KT/cluster")" = off ] || bad "a bad write changed the cluster file"
udp0=$(udp_in)
echo "dev=eth0 key=$key port=$port beacon=100" >"$KT/cluster" || bad "joining"
echo cluster >"$KT/triggers" || bad "arming cluster"
[ "$node" = a ] && { echo user >"$KT/triggers" || bad "arming user"; }
echo 1 >"$KT/enable"
cat "$KT/cluster"
# For the host's beacons (.ci/cluster), which start once both joined.
echo "ktrace-cluster: $node joined" >/dev/kmsg

# Both ready: the other's beacons arrive (30 s at most).
i=0
while [ "$(counter beacons)" -lt 5 ] && [ $i -lt 300 ]; do
	sleep 0.1
	i=$((i + 1))
done
[ "$(counter beacons)" -ge 5 ] || bad "no beacons from $peer"
say "peer's beacons: $(counter beacons)"

if [ "$node" = a ]; then
	sleep 1		# b reads its counters first
	c="ktrace-clmsg $peer $port"
	$c "$key" 0a0002fe 100 1 100 1		# cut
	$c "$key" 0a0002fe 100 1 200 1		# too long
	$c bad 0a0002fe 100 1 132 1		# wrong tag, a trigger
	$c "$key" 0a0002fe 100 2 132 1		# a good beacon ...
	$c "$key" 0a0002fe 100 2 132 1		# ... replayed
	$c "$key" 0a0002fe 30 2 132 1		# older than the replay window
	sleep 1.2
	$c bad 0a0002fe 101 1 132 5000		# a flood of forged triggers
	say "bad messages sent"
	sleep 6		# b checks
	# Good beacons, 2000 a second, 20 times b's rate=100, for 2.5 s: the
	# trigger message goes in the middle of them.  (Not as fast as a can:
	# b's QEMU would drop most frames, and the trigger message with them.
	# A lockdep kernel sends a hundred or two a second whatever the gap.)
	if [ -e /proc/lockdep ]; then
		$c "$key" 0a0002fe 1000 2 132 1000 0 &
	else
		$c "$key" 0a0002fe 1000 2 132 5000 500 &
	fi
	flood=$!
	sleep 0.5
	case ${KTRACE_CLCRASH:-user} in
	panic)
		echo panic >"$KT/triggers"
		say "panicking"
		echo PANIC >/sys/kernel/debug/provoke-crash/DIRECT
		;;
	oops)
		echo oops >"$KT/triggers"
		# BUG() kills the writer, a subshell; this shell goes on.
		(echo BUG >/sys/kernel/debug/provoke-crash/DIRECT) 2>/dev/null
		say "oops done"
		;;
	*)
		echo "from a: the cluster test" >"$KT/trigger" || bad "firing user"
		say "user trigger fired"
		;;
	esac
	wait "$flood"
	sleep 3
else
	# The bad messages: until the forged flood is over (25 s at most).
	# The flood loses some on the way (socket buffers), but its thousands
	# are counted, as forgeries: checked before the rate.
	i=0
	while [ "$(counter mac)" -lt 1000 ] && [ $i -lt 250 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	sleep 2
	cat "$KT/cluster"
	[ "$(cat "$KT/enable")" = 1 ] || bad "bad messages froze the trace"
	[ "$(counter short)" = 2 ] || bad "short=$(counter short), want 2 (cut, too long)"
	[ "$(counter replay)" = 2 ] || bad "replay=$(counter replay), want 2"
	[ "$(counter mac)" -ge 1000 ] || bad "mac=$(counter mac), want 1000 or more"
	[ "$(counter rate)" = 0 ] || bad "rate=$(counter rate): forgeries spent the beacons' rate"
	[ "$(counter triggers)" = 0 ] || bad "triggers=$(counter triggers) before a's"
	say "bad messages refused: $(sed -n 3p "$KT/cluster")"
	# a's trigger, amid its beacons over the rate: b freezes (30 s at most).
	i=0
	while [ "$(cat "$KT/enable")" = 1 ] && [ $i -lt 300 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	[ "$(cat "$KT/enable")" = 0 ] || bad "a's trigger did not freeze b"
	# The rest of the beacons' flood (20 s at most).
	i=0 r0=-1
	while [ "$(counter rate)" != "$r0" ] && [ $i -lt 40 ]; do
		r0=$(counter rate)
		sleep 0.5
		i=$((i + 1))
	done
	cat "$KT/cluster"
	# Thousands; but a's panic ends the flood 0.5 s into it, maybe
	# before it spent the bucket's 100 tokens, and a lockdep kernel's
	# flood is slow (refused: the part over 100 a second).
	if [ "${KTRACE_CLCRASH:-user}" != panic ] && [ ! -e /proc/lockdep ] &&
	   [ "$(counter rate)" -lt 1000 ]; then
		bad "rate=$(counter rate), want 1000 or more"
	fi
	[ "$(counter triggers)" = 1 ] || bad "triggers=$(counter triggers), want 1"
	# The host's beacons keep coming: between two readings of the UDP count.
	u1=$(($(udp_in) - udp0))
	r=$(counter received)
	u2=$(($(udp_in) - udp0))
	if [ "$r" -lt "$u1" ] || [ "$r" -gt "$u2" ]; then
		bad "received=$r, but UDP delivered $u1 to $u2"
	fi
	say "refused, with a's beacons' flood: $(sed -n 3p "$KT/cluster")"
	timeout 2 cat "$KT/trigger_pipe" >"$out/trigger_pipe.txt"
	cat "$out/trigger_pipe.txt"
	grep -q ' cluster action=stop fired=1 pid=0 comm="a" .* reason="a/' "$out/trigger_pipe.txt" ||
		bad "b's trigger record does not name a"
fi
cat "$KT/cluster" >"$out/cluster.txt"
ktrace extract -o "$out/$node.dat" || bad "extract"
say "status $fail"
exit $fail
