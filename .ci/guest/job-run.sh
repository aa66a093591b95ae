#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The make-run demo: what ktrace does today, as a user would see it.
run() {
	echo "# $*"
	sh -c "$*" 2>&1
	echo
}
echo "ktrace demo on $(uname -r), $(nproc) CPUs"
echo
run 'dmesg | grep ktrace:'
run 'ls -l /sys/kernel/debug/ktrace/'
run 'cat /sys/kernel/debug/ktrace/enable'
run 'echo 1 > /sys/kernel/debug/ktrace/enable; cat /sys/kernel/debug/ktrace/enable'
run 'echo yes > /sys/kernel/debug/ktrace/enable; cat /sys/kernel/debug/ktrace/enable'
run 'ktrace status'
run 'echo 0 > /sys/kernel/debug/ktrace/enable; ktrace status'
