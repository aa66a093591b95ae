#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Shared by the ktrace kselftests: KTAP helpers, and ktrace in a known state.

DIR=$(dirname "$0")
. "$DIR"/../kselftest/ktap_helpers.sh

KT=/sys/kernel/debug/ktrace

# check NAME GOT WANT: one test, passing when GOT is WANT.
check() {
	if [ "$2" = "$3" ]; then
		ktap_test_pass "$1"
	else
		ktap_print_msg "got '$2', want '$3'"
		ktap_test_fail "$1"
	fi
}

# has NAME FILE ERE: a test passing if a line of FILE matches ERE.
has() {
	if grep -qE -e "$3" "$2"; then
		ktap_test_pass "$1"
	else
		ktap_print_msg "no line of $(basename "$2") matches: $3"
		tail -n 5 "$2" | while read -r l; do ktap_print_msg "  $l"; done
		ktap_test_fail "$1"
	fi
}

# in_range NAME VALUE MIN MAX: a test passing if MIN <= VALUE <= MAX
# (integers); the value is printed either way.
in_range() {
	if [ -n "$2" ] && [ "$2" -ge "$3" ] 2>/dev/null && [ "$2" -le "$4" ]; then
		ktap_print_msg "$1: $2"
		ktap_test_pass "$1"
	else
		ktap_print_msg "got '$2', want $3 to $4"
		ktap_test_fail "$1"
	fi
}

# ktrace_done: the end of a test script.  The plan is counted, not written
# by hand: one line "1..N" for the N results printed (a trailing plan, as
# TAP allows), then the exit status of ktap_finished.  A script that dies
# before it never prints a plan, which the runner's parser (.ci/ktap.py)
# counts as a failure.
ktrace_done() {
	ktap_set_plan $((KTAP_CNT_PASS + KTAP_CNT_FAIL + KTAP_CNT_SKIP))
	ktap_finished
}

# wr [-n SIZE] FILE [DATA]: one write(2); prints "ok N" or the errno name.
wr() {
	"$DIR"/ktrace_write "$@" 2>&1
}

# Skip unless root with ktrace; then stop it and start a new trace with
# the defaults (a mode change frees the buffers and their counters).
ktrace_setup() {
	ktap_print_header
	[ "$(id -u)" -eq 0 ] || { ktap_skip_all "must be run as root"; exit "$KSFT_SKIP"; }
	grep -q ' /sys/kernel/debug debugfs ' /proc/mounts ||
		mount -t debugfs none /sys/kernel/debug 2>/dev/null
	[ -d "$KT" ] || { ktap_skip_all "$KT missing: is CONFIG_KTRACE=y?"; exit "$KSFT_SKIP"; }
	echo 0 >"$KT/enable"
	echo drop >"$KT/mode"
	echo hybrid >"$KT/mode"
	echo 1024 >"$KT/buffer_size_kb"
	echo 0 >"$KT/events/enable"
	echo 1 >"$KT/events/ktrace/enable"
}

# need_cpu1_hotplug: ON is CPU 1's online file; skip the whole test
# unless it can go offline.
need_cpu1_hotplug() {
	ON=/sys/devices/system/cpu/cpu1/online
	if [ ! -w "$ON" ]; then
		ktap_skip_all "no CPU 1 that can go offline"
		exit "$KSFT_SKIP"
	fi
}

# ktrace_tool: BIN is the ktrace tool (KTRACE_BIN, else the installed
# one); skip the whole test without it.
ktrace_tool() {
	BIN=${KTRACE_BIN:-$(command -v ktrace)}
	if [ ! -x "$BIN" ]; then
		ktap_skip_all "no ktrace tool (tools/ktrace) installed"
		exit "$KSFT_SKIP"
	fi
}

# stat_of CPU CHANNEL KEY: one counter of the stats file.
stat_of() {
	awk -v cpu="cpu$1" -v ch="$2" -v key="$3" '$1 == cpu && $2 == ch {
		for (i = 3; i <= NF; i++)
			if (index($i, key "=") == 1)
				print substr($i, length(key) + 2)
	}' "$KT/stats"
}

# dmesg_mark: write a line of its own to the kernel log and print it, for
# dmesg_since.  A count of lines would not do: once the log buffer is full,
# each new line pushes out an old one and the count stops growing.
dmesg_mark() {
	_mark="ktrace-selftest: $(basename "$0") $$ $(date +%s)"
	echo "$_mark" >/dev/kmsg
	echo "$_mark"
}

# dmesg_since MARK: the kernel log after MARK (dmesg_mark).
dmesg_since() {
	dmesg | awk -v m="$1" 'f { print } index($0, m) { f = 1 }'
}

# splats_since LINE: kernel warnings, lockdep and KASAN reports logged
# after line LINE of dmesg.
splats_since() {
	_splat='BUG:|WARNING:|Oops|KASAN:|possible circular|inconsistent lock'
	_splat="$_splat|possible recursive|sleeping function called|suspicious RCU"
	_splat="$_splat|lockdep is turned off"
	dmesg_since "$1" | grep -c -E "$_splat"
}
