#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Kernel symbols in tools/ktrace traces: record saves the symbols of the
# kernel addresses (irq:timer_expire's function, statedump:irq's handler),
# and report prints them as the ascii pipe's %pS does; with
# --no-kernel-addresses the file holds none of the addresses, and report
# prints the same names.

. "$(dirname "$0")"/lib.sh

ktrace_setup
ktrace_tool
if ! awk '$1 !~ /^0+$/ { found = 1; exit } END { exit !found }' /proc/kallsyms 2>/dev/null; then
	ktap_skip_all "/proc/kallsyms shows no address (kptr_restrict or no CONFIG_KALLSYMS)"
	exit "$KSFT_SKIP"
fi

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
SYM='^[A-Za-z_][A-Za-z0-9_.]*\+0x[0-9a-f]+/0x[0-9a-f]+( \[[^]]+\])?$'

# syms REPORT: the values of the symbol fields, one a line.
syms() {
	sed -n 's/.* irq:timer_expire function=\(.*\) late_ns=.*/\1/p
		s/.* statedump:irq irq=[0-9]* handler=\(.*\) name=.*/\1/p' "$1"
}

check "the format files flag the kernel addresses" \
	"$(grep -c '^field: function offset=0 size=8 display=symbol kaddr$' \
		"$KT/events/irq/timer_expire/format")/$(
	   grep -c '^field: base offset=0 size=8 display=hex kaddr$' \
		"$KT/events/statedump/module/format")/$(
	   grep -c 'kaddr' "$KT/events/statedump/map/format")" "1/1/0"

# The size %pS gives hrtimer_wakeup: up to the next higher address.
A=$(awk '$3 == "hrtimer_wakeup" { print $1; exit }' /proc/kallsyms)
N=$(sort /proc/kallsyms | awk -v a="x$A" '("x" $1) > a { print $1; exit }')
HW="hrtimer_wakeup+0x0/0x$(printf '%x' $((0x${N#????????} - 0x${A#????????})))"

"$BIN" record -o "$TMP/t.dat" -e irq/timer_expire,statedump -- sleep 1 >"$TMP/rec" 2>&1
check "record exits 0, without a warning" \
	"$?/$(grep -v -c 'bytes of trace in' "$TMP/rec")" "0/0"
"$BIN" report "$TMP/t.dat" >"$TMP/rep" 2>&1
syms "$TMP/rep" | grep -v -x '0x0' >"$TMP/syms"
check "report names every timer function and IRQ handler as %pS does" \
	"$(grep -c ' irq:timer_expire ' "$TMP/rep" | awk '{ print ($1 > 0) }')/$(
	   grep -c ' statedump:irq ' "$TMP/rep" | awk '{ print ($1 > 0) }')/$(
	   grep -c -v -E "$SYM" "$TMP/syms")" "1/1/0"
check "the sleep's hrtimer is hrtimer_wakeup, sized as kallsyms gives it" \
	"$(grep -c " function=$HW late_ns=" "$TMP/rep" | awk '{ print ($1 > 0) }')" 1

# The ascii pipe prints the same string for it: the kernel's %pS (record
# put the event selection back: turn timer_expire on here).
echo 1 >"$KT/events/irq/timer_expire/enable"
echo 1 >"$KT/enable"
sleep 0.2
echo 0 >"$KT/enable"
timeout 5 cat "$KT/ascii" >"$TMP/ascii"
check "the ascii pipe prints hrtimer_wakeup as report does" \
	"$(sed -n 's/.* irq:timer_expire function=\(hrtimer_wakeup[^ ]*\) .*/\1/p' "$TMP/ascii" |
	   sort -u)" "$HW"

# addrs NAMES: the little-endian bytes of NAME+0xOFF, one a line, for
# every symbol of that name (static functions can share one).
addrs() {
	sed -n 's/^\([A-Za-z0-9_.]*\)+\(0x[0-9a-f]*\)\/.*/\1 \2/p' "$1" | sort -u |
	while read -r name off; do
		awk -v n="$name" '$3 == n { print $1 }' /proc/kallsyms | while read -r a; do
			hi=${a%????????}
			lo=$((0x${a#????????} + off))
			[ $lo -gt $((0xffffffff)) ] && hi=$(printf '%08x' $((0x$hi + 1)))
			printf '%s%08x\n' "$hi" $((lo & 0xffffffff)) | sed 's/../& /g' |
				awk '{ for (i = NF; i > 0; i--) printf " %s", $i; print "" }'
		done
	done
}
# found TRACE BYTES: how many of the byte strings are in the file.
found() {
	od -A n -v -t x1 "$1" | tr -s ' \n' '  ' >"$TMP/hex"
	c=0
	while read -r b; do
		grep -q -e " $b" "$TMP/hex" && c=$((c + 1))
	done <"$2"
	echo $c
}
addrs "$TMP/syms" >"$TMP/bytes"
nb=$(wc -l <"$TMP/bytes")
check "the trace holds the addresses of its symbols (the search works)" \
	"$([ "$nb" -gt 0 ] && echo yes)/$([ "$(found "$TMP/t.dat" "$TMP/bytes")" -gt 0 ] &&
	   echo found)" "yes/found"

"$BIN" record --no-kernel-addresses -o "$TMP/h.dat" -e irq/timer_expire,statedump -- \
	sleep 1 >"$TMP/rec" 2>&1
rc=$?
# What the ascii pipe above left unread is discarded first, and said so.
grep -v -e 'bytes of trace in' -e 'an earlier trace left unread' "$TMP/rec" >"$TMP/warn"
while read -r l; do ktap_print_msg "$l"; done <"$TMP/warn"
check "record --no-kernel-addresses exits 0, without a warning" "$rc/$(wc -l <"$TMP/warn")" "0/0"
"$BIN" report "$TMP/h.dat" >"$TMP/hrep" 2>&1
syms "$TMP/hrep" | grep -v -x '0x0' >"$TMP/hsyms"
check "hidden: report names every timer function and IRQ handler, hrtimer_wakeup too" \
	"$(grep -c -v -E "$SYM" "$TMP/hsyms")/$(grep -c -x "$HW" "$TMP/hsyms" |
	   awk '{ print ($1 > 0) }')/$(grep -c ' statedump:irq ' "$TMP/hrep" |
	   awk '{ print ($1 > 0) }')" "0/1/1"
addrs "$TMP/hsyms" >"$TMP/hbytes"
check "hidden: none of those addresses is in the file" \
	"$([ "$(wc -l <"$TMP/hbytes")" -gt 0 ] && echo some)/$(found "$TMP/h.dat" "$TMP/hbytes")" \
	"some/0"
check "hidden: the modules' bases are 0" \
	"$(grep ' statedump:module ' "$TMP/hrep" | grep -c -v ' base=0x0 ')" 0
if [ -n "${KTRACE_SAVE_DIR:-}" ]; then
	mkdir -p "$KTRACE_SAVE_DIR"
	# Not t.dat: that is record.sh's, which .ci/check decodes on the host.
	cp "$TMP/t.dat" "$KTRACE_SAVE_DIR/symbols-t.dat" 2>/dev/null
	cp "$TMP/h.dat" "$KTRACE_SAVE_DIR/symbols-h.dat" 2>/dev/null
fi
ktrace_done
