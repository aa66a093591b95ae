#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host tests of .ci/boot with the built guest: a hung guest fails within its
# timeout and leaves no QEMU behind, a panicking guest fails with the tail of
# its console, one that panics again after each reset (BOOT_REBOOT) is
# stopped at its first extra boot, an unknown job fails with its status.
# KTAP.
set -u
ci=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
fails=0

# expect NAME WANT_STATUS PATTERN -- ENV...: boot, check status and output.
expect() {
	local name=$1 want=$2 re=$3 rc=0
	shift 4
	n=$((n + 1))
	env "$@" "$ci/boot" "selftest$n" >"$tmp/log" 2>&1 || rc=$?
	if [ "$rc" -eq "$want" ] && grep -Eq "$re" "$tmp/log" &&
	   ! pgrep -f "guest/selftest$n/" >/dev/null; then
		echo "ok $n $name"
	else
		echo "not ok $n $name"
		echo "# status $rc (want $want), pattern /$re/"
		tail -n 15 "$tmp/log" | sed 's/^/# /'
		fails=$((fails + 1))
	fi
}

echo "KTAP version 1"
expect "a hung guest fails within its timeout" 1 \
	'did not finish within 8s' -- BOOT_TIMEOUT=8 \
	BOOT_APPEND="rdinit=/bin/busybox -- sleep 1000"
expect "a panicking guest fails and shows its console" 1 \
	'Kernel panic' -- BOOT_TIMEOUT=60 BOOT_APPEND="rdinit=/nonexistent"
expect "a guest that panics at every boot is stopped at boot 3" 1 \
	'rebooted in a loop: more than 2 boots' -- BOOT_TIMEOUT=120 BOOT_REBOOT=1 \
	BOOT_APPEND="rdinit=/nonexistent"
expect "an unknown job fails with status 127" 127 \
	'status 127' -- BOOT_TIMEOUT=60
echo "1..$n"
[ "$fails" -eq 0 ]
