#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The cluster file on one machine, on a dummy interface: bad writes fail
# with their errno and change nothing (the group before them stays); a
# group joined reads back; a write on the same port replaces the group
# (the socket is handed over), one whose port is taken fails with
# EADDRINUSE and keeps the old group; a trigger's message is sent once per
# trace; and the interface's removal leaves the group instead of hanging
# in unregister_netdevice.  Two machines: .ci/cluster.

. "$(dirname "$0")"/lib.sh

ktrace_setup
C=$KT/cluster
[ -e "$C" ] || { ktap_skip_all "no $C: is CONFIG_KTRACE_CLUSTER=y?"; exit "$KSFT_SKIP"; }
ip link add kt0 type dummy 2>/dev/null ||
	{ ktap_skip_all "no dummy interface (CONFIG_DUMMY)"; exit "$KSFT_SKIP"; }
KEY=000102030405060708090a0b0c0d0e0f
NCPID=
TMP=$(mktemp -d)
cleanup() {
	echo off >"$C" 2>/dev/null
	echo '!user' >"$KT/triggers" 2>/dev/null
	[ -z "$NCPID" ] || kill "$NCPID" 2>/dev/null
	ip link del kt0 2>/dev/null
	rm -rf "$TMP"
}
trap cleanup EXIT
dmesg_start=$(dmesg_mark)
counter() { sed 1d "$C" | tr ' ' '\n' | sed -n "s/^$1=//p"; }

check "cluster is 0600" "$(ls -l "$C" | cut -c1-10)" "-rw-------"
echo off >"$C"
check "off reads off" "$(cat "$C")" off
check "down interface: ENETDOWN" "$(wr "$C" "dev=kt0 key=$KEY")" ENETDOWN
ip addr add 10.9.9.1/24 dev kt0
ip link set kt0 up
res=
for bad in "dev=kt0" "key=$KEY" "dev=kt0 key=0011" "dev=kt0 key=$KEY dst=224.0.0.9" \
	   "dev=kt0 key=$KEY dst=10.9.9.2,10.9.9.2" "dev=kt0 key=$KEY name=a/b" \
	   "dev=kt0 key=$KEY port=0" "dev=kt0 key=$KEY rate=0" "dev=nosuch key=$KEY" \
	   "dev=kt0 key=$KEY dev=kt0" "colour=red"; do
	res="$res$(wr "$C" "$bad") "
done
check "bad writes fail with their errno" "$res" \
	"EINVAL EINVAL EINVAL EINVAL EINVAL EINVAL ERANGE ERANGE ENODEV EINVAL EINVAL "
check "bad writes change nothing" "$(cat "$C")" off

w="dev=kt0 key=$KEY name=one beacon=0 rate=50"
check "join on kt0" "$(wr "$C" "$w")" "ok ${#w}"
check "the group reads back" "$(sed -n 1p "$C")" \
	"dev=kt0 port=6363 id=0a090901 name=one dst=255.255.255.255 allow=any beacon=0 window=0 rate=50 key=set"
check "no counter yet" "$(sed 1d "$C" | tr '\n' ' ')" \
	"sent=0 received=0 triggers=0 beacons=0 unarmed=0 refused: short=0 magic=0 peer=0 mac=0 self=0 window=0 replay=0 rate=0 "
res=
for bad in "dev=kt0 key=$KEY allow=239.1.1.1" "dev=nosuch key=$KEY name=two"; do
	res="$res$(wr "$C" "$bad") "
done
check "bad writes keep the group" "$res/$(sed -n 1p "$C" | cut -d' ' -f4)" "EINVAL ENODEV /name=one"
wr "$C" "dev=kt0 key=$KEY name=two dst=10.9.9.255" >/dev/null
check "the same port again: the new group" "$(sed -n 1p "$C" | cut -d' ' -f4-5)" \
	"name=two dst=10.9.9.255"
# The old group's socket, handed over: its datagrams are the new group's.
ip link set lo up
"$DIR"/ktrace_udp send 10.9.9.1 6363 10
i=0
while [ "$(counter short)" != 1 ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
check "the same port again: the new group receives" "$(counter received)/$(counter short)" 1/1

# A port taken by a socket of user space: EADDRINUSE, the group stays.
"$DIR"/ktrace_udp hold 6364 >"$TMP/hold" &
NCPID=$!
i=0
while [ "$(cat "$TMP/hold")" != bound ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
check "a port taken: EADDRINUSE" "$(wr "$C" "dev=kt0 key=$KEY name=three port=6364")" EADDRINUSE
check "a port taken: the group stays" "$(sed -n 1p "$C" | cut -d' ' -f1-4)" \
	"dev=kt0 port=6363 id=0a090901 name=two"
kill "$NCPID"
wait "$NCPID" 2>/dev/null
NCPID=
w="dev=kt0 key=$KEY name=four port=6365 dst=10.9.9.2,10.9.9.3"
check "another port" "$(wr "$C" "$w")" "ok ${#w}"

# A trigger: one message per trace, three times (at once, 10 ms and 100
# ms later), to each destination.  A user trigger stops the trace; a
# second trace's firing sends one more.
echo user >"$KT/triggers"
for n in 1 2; do
	echo 1 >"$KT/enable"
	echo "firing $n" >"$KT/trigger"
	i=0
	while [ "$(counter sent)" -lt $((6 * n)) ] && [ $i -lt 50 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	sleep 0.3
	check "trace $n: its trigger message, 3 times to both destinations" \
		"$(counter sent)" $((6 * n))
done

# The interface goes: the group is left, and the removal ends (a removal
# that waits for the device's references cannot be killed: polled).
ip link del kt0 &
DELPID=$!
i=0
while kill -0 "$DELPID" 2>/dev/null && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
if kill -0 "$DELPID" 2>/dev/null; then
	ktap_test_fail "ip link del kt0 ends (still waiting after 30 s)"
else
	wait "$DELPID"
	check "ip link del kt0 ends" "$?" 0
fi
i=0
while [ "$(cat "$C")" != off ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
check "kt0 gone: no group" "$(cat "$C")" off
check "kt0 gone: said in the log" \
	"$(dmesg_since "$dmesg_start" | grep -c 'cluster: kt0 is going away: left the group')" 1
check "no kernel warning" "$(splats_since "$dmesg_start")" 0
ktrace_done
