#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Case study 4.4, timer jitter from a long IRQs-off section: a periodic
# 20 ms itimer (it_real_fn) of a process that, right after its 15th
# expiry, writes 80000 to ktrace's test/irqsoff_us, which disables
# interrupts on its CPU for 80 ms.  `ktrace latency timer` must name
# it_real_fn with one out-of-range interval of 80 ms or a little more,
# its expected interval 20 ms; where the kernel has the irq:irqsoff event
# (CONFIG_TRACE_IRQFLAGS, the debug guest), the last IRQ-disable before
# it, ktrace_irqsoff_write, and `ktrace latency irqsoff` the same caller
# for 80 ms.

. "$(dirname "$0")"/lib.sh
. "$(dirname "$0")"/case_lib.sh

ktrace_setup
ktrace_tool
F=$KT/test/irqsoff_us
if [ ! -w "$F" ]; then
	ktap_skip_all "no $F: is CONFIG_KTRACE_TEST_EVENTS=y?"
	exit "$KSFT_SKIP"
fi
# irq:irqsoff exists where the kernel tracks the IRQ state
# (CONFIG_TRACE_IRQFLAGS: the debug guest); without it, two checks of
# what is there instead of three of the caller.
IRQSOFF=
[ -d "$KT/events/irq/irqsoff" ] && IRQSOFF=1

TMP=$(mktemp -d)
P=/sys/module/ktrace/parameters
old_min=$(cat $P/irqsoff_min_ns 2>/dev/null)
cleanup() {
	[ -z "$old_min" ] || echo "$old_min" >$P/irqsoff_min_ns
	rm -rf "$TMP"
}
trap cleanup EXIT
# The runner's timeout sends TERM, after which sh runs no EXIT trap of itself.
trap 'exit 1' INT TERM HUP
dmesg_start=$(dmesg_mark)
PERIOD_US=20000
OFF_US=80000

got=
for v in 0 100001 4294967296 abc -5 "" "10 20"; do
	got="$got $(wr "$F" "$v")"
done
check "irqsoff_us refuses 0, too long, not a number" "$got" \
	" ERANGE ERANGE ERANGE EINVAL EINVAL EINVAL EINVAL"

# Only the long periods: the debug kernels have many short ones.
[ -z "$IRQSOFF" ] || echo 1000000 >$P/irqsoff_min_ns

"$BIN" record -o "$TMP/t.dat" -e irq,statedump -- \
	"$DIR"/ktrace_case jitter $PERIOD_US 30 15 $OFF_US "$F" >"$TMP/rec" 2>&1
check "record of the periodic timer exits 0" "$?" 0
"$BIN" report "$TMP/t.dat" >"$TMP/rep" 2>&1
# 30 expiries, and one more if the process took longer than a period to exit.
in_range "the trace has the 30 expiries of it_real_fn" \
	"$(grep -c -E ' irq:timer_expire function=it_real_fn(\+0x0/0x[0-9a-f]+)? ' "$TMP/rep")" \
	30 31

"$BIN" latency timer --min 40ms --top 100 "$TMP/t.dat" >"$TMP/out" 2>&1
rc=$?
show "$TMP/out"
check "ktrace latency timer exits 0" "$rc" 0
top "$TMP/out" | grep -E ' function=it_real_fn(\+0x0/0x[0-9a-f]+)? ' >"$TMP/late"
L=$(head -n 1 "$TMP/late")
check "one interval of it_real_fn is out of range, on the CPU of its process" \
	"$(wc -l <"$TMP/late")/$(tok cpu "$L")" "1/$(awk '$1 == "pid" { print $4 }' "$TMP/rec")"
in_range "its interval: the $OFF_US us with interrupts off, at most 3 times as long" \
	"$(us "$(tok interval "$L")")" $OFF_US $((OFF_US * 3))
# The median of the intervals, which an emulated CPU on a busy host makes
# a few milliseconds longer or shorter.
in_range "its expected interval: the period of $PERIOD_US us" \
	"$(us "$(tok expected "$L")")" $((PERIOD_US * 8 / 10)) $((PERIOD_US * 12 / 10))
if [ -n "$IRQSOFF" ]; then
	check "the last IRQ-disable before it: ktrace_irqsoff_write" \
		"$(tok irqsoff_caller "$L" | sed 's/+.*//')" ktrace_irqsoff_write
	"$BIN" latency irqsoff "$TMP/t.dat" >"$TMP/out2" 2>&1
	show "$TMP/out2"
	L=$(top "$TMP/out2" | head -n 1)
	check "latency irqsoff: the longest period is ktrace_irqsoff_write's" \
		"$(tok caller "$L" | sed 's/+.*//')" ktrace_irqsoff_write
	in_range "latency irqsoff: it lasted the $OFF_US us, at most 3 times as long" \
		"$(us "$(echo "$L" | cut -d' ' -f1)")" $OFF_US $((OFF_US * 3))
else
	check "no irq:irqsoff: the kernel has no preemptirq tracepoints either" \
		"$([ -d /sys/kernel/debug/tracing/events/preemptirq ] && echo yes || echo no)" no
	"$BIN" latency irqsoff "$TMP/t.dat" >"$TMP/out2" 2>&1
	check "latency irqsoff on a trace without the event: exit 1, saying so" \
		"$?/$(grep -c "no irq:irqsoff event in the trace's metadata" "$TMP/out2")" "1/1"
fi
check "no kernel warning" "$(splats_since "$dmesg_start")" 0
case_save jitter "$TMP/t.dat" "$TMP/out" "$TMP/out2"
ktrace_done
