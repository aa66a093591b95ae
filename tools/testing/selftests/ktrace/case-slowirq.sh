#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Case study 4.5, a slow device: an interrupt handler that takes long.
# The simulated interrupt "ktrace_slow" (CONFIG_KTRACE_TEST_EVENTS) is
# raised three times from CPU 0 with handlers of 5, 20 and 10 ms; `ktrace
# latency irq` must name it, with its number and name, as the three
# longest handlers, longest first, each as long as it was made to be.

. "$(dirname "$0")"/lib.sh
. "$(dirname "$0")"/case_lib.sh

ktrace_setup
ktrace_tool
F=$KT/test/slow_irq_us
if [ ! -w "$F" ]; then
	ktap_skip_all "no $F: is CONFIG_KTRACE_TEST_EVENTS=y?"
	exit "$KSFT_SKIP"
fi

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
dmesg_start=$(dmesg_mark)
IRQ=$(awk '/ ktrace_slow$/ { sub(":", "", $1); print $1 }' /proc/interrupts)

# What the file refuses, before the interrupt is raised at all.
got=
for v in 0 100001 4294967296 abc -5 "" "10 20"; do
	got="$got $(wr "$F" "$v")"
done
check "slow_irq_us refuses 0, too long, not a number" "$got" \
	" ERANGE ERANGE ERANGE EINVAL EINVAL EINVAL EINVAL"
before=$(awk '/ ktrace_slow$/ { print $2 }' /proc/interrupts)
check "slow_irq_us: one write, one interrupt on CPU 0" \
	"$(taskset -c 0 "$DIR"/ktrace_write "$F" 1000 2>&1)/$(
	   awk '/ ktrace_slow$/ { print $2 }' /proc/interrupts)" "ok 4/$((before + 1))"

"$BIN" record -o "$TMP/t.dat" -e irq,statedump -- taskset -c 0 sh -c \
	"echo 5000 >$F && echo 20000 >$F && echo 10000 >$F" >"$TMP/rec" 2>&1
check "record of the three slow interrupts exits 0" "$?" 0
"$BIN" report "$TMP/t.dat" >"$TMP/rep" 2>&1
check "the trace has their three entries and the statedump's name for them" \
	"$(grep -c " irq:hardirq_entry irq=$IRQ\$" "$TMP/rep")/$(grep -c -E \
	   " statedump:irq irq=$IRQ handler=ktrace_slow_handler[+0-9a-fx/]* name=\"ktrace_slow\"$" \
	   "$TMP/rep")" "3/1"

"$BIN" latency irq "$TMP/t.dat" >"$TMP/out" 2>&1
rc=$?
show "$TMP/out"
check "ktrace latency irq exits 0" "$rc" 0
top "$TMP/out" | head -n 3 >"$TMP/top3"
check "the three longest handlers are ktrace_slow's, on CPU 0" \
	"$(grep -c " cpu=0 irq=$IRQ name=ktrace_slow\$" "$TMP/top3")" 3
# Each handler spins, whose clock is the one the trace uses;
# the upper bound leaves room for an emulated CPU.
n=0
for want in 20000 10000 5000; do
	n=$((n + 1))
	in_range "handler $n: at least its $want us, at most 3 times as long" \
		"$(us "$(sed -n "${n}p" "$TMP/top3" | cut -d' ' -f1)")" "$want" $((want * 3))
done
check "no kernel warning" "$(splats_since "$dmesg_start")" 0
case_save slowirq "$TMP/t.dat" "$TMP/out"
ktrace_done
