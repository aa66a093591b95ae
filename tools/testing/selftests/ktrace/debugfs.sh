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

ktap_set_plan 14

# The mode as ls shows it, for example -rw-------.
mode_of() {
	ls -ld "$1" | cut -c1-10
}

# wr [-n SIZE] DATA: one write(2) of DATA to enable; prints "ok N" or the
# errno name.
wr() {
	"$DIR"/ktrace_write "$@" 2>&1
}
wr_n() {
	"$DIR"/ktrace_write -n "$1" "$ENABLE" "$2" 2>&1
}

ktap_test_result "enable is root-only rw (0600)" \
	test "$(mode_of "$ENABLE")" = "-rw-------"

ktap_test_result "enable reads 0 at boot" test "$(cat "$ENABLE")" = 0

ktap_test_result "write 1 is accepted whole" test "$(wr "$ENABLE" "1")" = "ok 1"
ktap_test_result "1 starts tracing" test "$(cat "$ENABLE")" = 1

echo 1 >"$ENABLE"
ktap_test_result "echo 1 twice keeps it on" test "$(cat "$ENABLE")" = 1

# Bad writes while on: each refused with EINVAL, and still on.
ok=1
for bad in yes 2 -1 "1 1" 10 0x1 " " on "1x"; do
	got=$(wr "$ENABLE" "$bad")
	if [ "$got" != EINVAL ]; then
		ktap_print_msg "write of '$bad' gave '$got', want EINVAL"
		ok=0
	fi
done
ktap_test_result "garbage writes fail with EINVAL" test $ok -eq 1
ktap_test_result "garbage writes change nothing" test "$(cat "$ENABLE")" = 1

ktap_test_result "zero-length write fails with EINVAL" \
	test "$(wr "$ENABLE")" = EINVAL

# One 1 MiB write of "0000...": valid if it were truncated, so it must be
# refused whole.
ktap_test_result "1 MiB write fails with EINVAL" \
	test "$(wr_n 1048576 0)" = EINVAL
ktap_test_result "1 MiB write changes nothing" test "$(cat "$ENABLE")" = 1

ktap_test_result "write 0 with newline is accepted" \
	test "$(wr "$ENABLE" "0
")" = "ok 2"
ktap_test_result "0 stops tracing" test "$(cat "$ENABLE")" = 0

# The shell user sees the errno as a message.
err=$(sh -c "echo bogus >$ENABLE" 2>&1)
case $err in
*"Invalid argument"*) res=0 ;;
*) ktap_print_msg "error was: $err"; res=1 ;;
esac
ktap_test_result "echo of garbage reports Invalid argument" test $res -eq 0
ktap_test_result "still off after it" test "$(cat "$ENABLE")" = 0

ktap_finished
