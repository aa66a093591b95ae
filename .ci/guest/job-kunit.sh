#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# make bisect's job: only the KUnit results of the boot, for a kernel of a
# patch inside the series (no kselftests exist there yet).
out=$1
mkdir -p "$out/kunit"
for d in /sys/kernel/debug/kunit/*/; do
	[ -f "$d/results" ] && cp "$d/results" "$out/kunit/$(basename "$d").ktap"
done
exit 0
