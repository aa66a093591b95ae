#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The ktrace control directory, /sys/kernel/debug/ktrace: what exists, who
# may use it, and that every bad write is refused with an error and changes
# nothing.

. "$(dirname "$0")"/lib.sh

ENABLE=$KT/enable
ktrace_setup

check "enable is root-only rw (0600)" "$(ls -ld "$ENABLE" | cut -c1-10)" "-rw-------"
check "enable reads 0 when stopped" "$(cat "$ENABLE")" 0

check "write 1 is accepted whole" "$(wr "$ENABLE" 1)" "ok 1"
check "1 starts tracing" "$(cat "$ENABLE")" 1

echo 1 >"$ENABLE"
check "echo 1 twice keeps it on" "$(cat "$ENABLE")" 1

# Bad writes while on: each refused with EINVAL, and still on.
bad_results=
for bad in yes 2 -1 "1 1" 10 0x1 " " on 1x " 0" "0 " 99999999999; do
	bad_results="$bad_results[$bad]=$(wr "$ENABLE" "$bad") "
done
want=
for bad in yes 2 -1 "1 1" 10 0x1 " " on 1x " 0" "0 " 99999999999; do
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
check "63-byte write of zeros is accepted" \
	"$(wr "$ENABLE" "$(printf '%063d' 0)")" "ok 63"
check "0 stops tracing" "$(cat "$ENABLE")" 0

# As kstrtouint() reads numbers, as ftrace's enable files do.
check "+1 is accepted" "$(wr "$ENABLE" +1)" "ok 2"
check "+1 starts tracing" "$(cat "$ENABLE")" 1
check "00 is accepted and stops tracing" "$(wr "$ENABLE" 00)/$(cat "$ENABLE")" "ok 2/0"
check "63 bytes of 62 zeros and a 1 start tracing, read whole" \
	"$(wr "$ENABLE" "$(printf '%063d' 1)")/$(cat "$ENABLE")" "ok 63/1"

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

ktrace_done
