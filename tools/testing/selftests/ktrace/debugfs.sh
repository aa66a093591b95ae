#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The ktrace control directory, /sys/kernel/debug/ktrace: what exists, who
# may use it, and that every bad write is refused with an error and changes
# nothing.

DIR=$(dirname "$0")
. "$DIR"/../kselftest/ktap_helpers.sh

KT=/sys/kernel/debug/ktrace
ENABLE=$KT/enable

ktap_print_header

[ "$(id -u)" -eq 0 ] || { ktap_skip_all "must be run as root"; exit "$KSFT_SKIP"; }
grep -q ' /sys/kernel/debug debugfs ' /proc/mounts ||
	mount -t debugfs none /sys/kernel/debug 2>/dev/null
[ -d "$KT" ] || { ktap_skip_all "$KT missing: is CONFIG_KTRACE=y?"; exit "$KSFT_SKIP"; }

ktap_set_plan 17

# check NAME GOT WANT: one test, passing when GOT is WANT.
check() {
	if [ "$2" = "$3" ]; then
		ktap_test_pass "$1"
	else
		ktap_print_msg "got '$2', want '$3'"
		ktap_test_fail "$1"
	fi
}

# wr [-n SIZE] FILE [DATA]: one write(2); prints "ok N" or the errno name.
wr() {
	"$DIR"/ktrace_write "$@" 2>&1
}

check "enable is root-only rw (0600)" "$(ls -ld "$ENABLE" | cut -c1-10)" "-rw-------"
check "enable reads 0 at boot" "$(cat "$ENABLE")" 0

check "write 1 is accepted whole" "$(wr "$ENABLE" 1)" "ok 1"
check "1 starts tracing" "$(cat "$ENABLE")" 1

echo 1 >"$ENABLE"
check "echo 1 twice keeps it on" "$(cat "$ENABLE")" 1

# Bad writes while on: each refused with EINVAL, and still on.
bad_results=
for bad in yes 2 -1 "1 1" 10 0x1 " " on 1x; do
	bad_results="$bad_results[$bad]=$(wr "$ENABLE" "$bad") "
done
want=
for bad in yes 2 -1 "1 1" 10 0x1 " " on 1x; do
	want="$want[$bad]=EINVAL "
done
check "garbage writes fail with EINVAL" "$bad_results" "$want"
check "garbage writes change nothing" "$(cat "$ENABLE")" 1

check "zero-length write fails with EINVAL" "$(wr "$ENABLE")" EINVAL

# One 1 MiB write of "000...": valid if it were truncated, so it must be
# refused whole.
check "1 MiB write fails with EINVAL" "$(wr -n 1048576 "$ENABLE" 0)" EINVAL
check "1 MiB write changes nothing" "$(cat "$ENABLE")" 1
check "64-byte write fails with EINVAL" "$(wr -n 64 "$ENABLE" 0)" EINVAL
check "63-byte write of spaces and 0 is accepted" \
	"$(wr "$ENABLE" "$(printf '%62s0' '')")" "ok 63"
check "0 stops tracing" "$(cat "$ENABLE")" 0

check "write 1 with newline is accepted" "$(wr "$ENABLE" "1
")" "ok 2"
check "1 with newline starts tracing" "$(cat "$ENABLE")" 1
echo 0 >"$ENABLE"

# The shell user sees the errno as a message.
err=$(sh -c "echo bogus >$ENABLE" 2>&1)
case $err in
*"Invalid argument"*) err="Invalid argument" ;;
esac
check "echo of garbage reports Invalid argument" "$err" "Invalid argument"
check "still off after it" "$(cat "$ENABLE")" 0

ktap_finished
