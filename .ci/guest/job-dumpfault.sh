#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The panic dump faults (boot with ktrace.dump_fault_at=N oops=panic):
# the crash job's panic, whose dump takes a NULL-pointer fault after N
# lines.  The oops panics again on the same CPU and panic() runs the
# notifiers again: the host (.ci/check) checks that there is exactly one
# dump and that the panic completes (the guest reboots, QEMU exits).
KTRACE_CRASH=dumpfault exec /ci/job-crash.sh "$@"
