#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The clock control file: it lists the clocks that can be chosen, the
# current one in brackets; a write switches; bad input fails with EINVAL
# and changes nothing; a TSC that cannot be chosen says why (ENODEV,
# EOPNOTSUPP); a switch while tracing or with a latency trigger armed is
# EBUSY; and traces taken on each side of switches read in time order,
# in CLOCK_MONOTONIC, with times that go forward across the switches.
# Boot with ktrace.clock=tsc to have two clocks under QEMU TCG.

. "$(dirname "$0")"/lib.sh

ktrace_setup

TMP=$(mktemp -d)
C=$KT/clock
cur() { sed -n 's/.*\[\(.*\)\].*/\1/p' "$C"; }
found=$(cur)
trap 'echo "$found" >"$C" 2>/dev/null; rm -rf "$TMP"' EXIT
# The names listed, the current one without its brackets.
choices=$(tr -d '[]' <"$C")

check "clock is 0600" "$(ls -l "$C" | cut -c1-10)" "-rw-------"
check "one clock in brackets" "$(grep -o '\[[a-z-]*\]' "$C" | wc -l)" 1
check "mono is listed" "$(echo " $choices " | grep -c ' mono ')" 1

check "clock mono" "$(wr "$C" mono)" "ok 4"
check "clock reads mono" "$(cur)" mono
check "clock mono with a newline" "$(wr "$C" "mono
")" "ok 5"
res=
for bad in Mono "mono tsc" tsc-mono local "[mono]" mono2 ""; do
	res="$res[$bad]=$(wr "$C" "$bad") "
done
check "bad clocks fail with EINVAL" "$res" \
	"[Mono]=EINVAL [mono tsc]=EINVAL [tsc-mono]=EINVAL [local]=EINVAL \
[[mono]]=EINVAL [mono2]=EINVAL []=EINVAL "
check "bad clocks change nothing" "$(cur)" mono
check "1 MiB clock write fails with EINVAL" "$(wr -n 1048576 "$C" mono)" EINVAL

case " $choices " in
*" tsc "*)
	check "clock tsc" "$(wr "$C" tsc)" "ok 3"
	check "clock reads tsc" "$(cur)" tsc
	;;
*)
	got=$(wr "$C" tsc)
	case $got in
	ENODEV | EOPNOTSUPP) ktap_test_pass "tsc not listed: $got" ;;
	*) ktap_print_msg "got $got"; ktap_test_fail "tsc not listed: ENODEV or EOPNOTSUPP" ;;
	esac
	check "a refused tsc changes nothing" "$(cur)" mono
	;;
esac
was=$(cur)

echo 1 >"$KT/enable"
check "clock while tracing fails with EBUSY" "$(wr "$C" mono)" EBUSY
check "bad clock while tracing is still EINVAL" "$(wr "$C" bogus)" EINVAL
echo 0 >"$KT/enable"
echo 'latency:irq>1s action=mark' >"$KT/triggers"
check "clock with a latency trigger armed fails with EBUSY" "$(wr "$C" mono)" EBUSY
echo '!latency:irq' >"$KT/triggers"
check "nothing changed while busy" "$(cur)" "$was"

# A trace on each clock, then on the first again: 20 marks each, read
# through the ascii pipe before the next switch (a switch frees the
# buffers, as a mode change does).
uptime_ns() { awk '{ printf "%.0f\n", $1 * 1e9 }' /proc/uptime; }
n=0
for clk in $choices $(echo "$choices" | cut -d' ' -f1); do
	check "switch to $clk" "$(wr "$C" "$clk")" "ok ${#clk}"
	u0=$(uptime_ns)
	echo 1 >"$KT/enable"
	i=0
	while [ $i -lt 20 ]; do
		echo "on $clk i=$i" >"$KT/mark"
		i=$((i + 1))
	done
	echo 0 >"$KT/enable"
	u1=$(uptime_ns)
	# The pipe blocks once read to the end.
	timeout 3 cat "$KT/ascii" >"$TMP/raw"
	grep ' ktrace:mark ' "$TMP/raw" >"$TMP/one"
	# /proc/uptime is in centiseconds: the window is widened by one.
	check "the marks on $clk are within CLOCK_MONOTONIC around them" \
		"$(awk -v lo="$u0" -v hi="$u1" '{ t = $1 * 1e9
			if (t < lo - 1e7 || t > hi + 1e7) bad++ }
			END { print NR "/" bad + 0 }' "$TMP/one")" "20/0"
	cat "$TMP/one" >>"$TMP/all"
	n=$((n + 1))
done
check "times go forward across $((n - 1)) switches" \
	"$(awk '{ if ($1 < last) bad++; last = $1 } END { print NR "/" bad + 0 }' "$TMP/all")" \
	"$((20 * n))/0"

ktrace_done
