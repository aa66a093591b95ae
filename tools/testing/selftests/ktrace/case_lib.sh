#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Shared by the case-*.sh kselftests (sourced after lib.sh): reading the
# output of the analysis commands, and checking what they name.

# top FILE: the lines under "top K:" of a ktrace latency output, unindented.
top() {
	awk '/^top [0-9]+:$/ { t = 1; next } /^[^ ]/ { t = 0 }
		t { sub(/^ +/, ""); print }' "$1"
}

# tok KEY LINE: the value of the token KEY=VALUE of LINE (the first one).
tok() {
	printf '%s\n' "$2" | tr ' ' '\n' | sed -n "s/^$1=//p" | head -n 1
}

# us VALUE: a duration as the analyses print it ("1234.567us") in whole
# microseconds, or nothing if it is not one.
us() {
	printf '%s\n' "$1" | sed -n 's/^>\{0,1\}=\{0,1\}\([0-9]*\)\.[0-9]\{3\}us$/\1/p'
}

# show FILE: FILE in the test's output, as KTAP comments, as it is
# (ktap_print_msg would expand globs and squeeze blanks).
show() {
	while IFS= read -r l; do printf '#   %s\n' "$l"; done <"$1"
}

# case_save NAME TRACE OUTPUT...: keep the trace and the analyses' output
# in KTRACE_SAVE_DIR, when set, as case-NAME.dat and case-NAME.txt.
case_save() {
	_n=$1 _t=$2
	shift 2
	[ -n "${KTRACE_SAVE_DIR:-}" ] || return 0
	mkdir -p "$KTRACE_SAVE_DIR"
	cp "$_t" "$KTRACE_SAVE_DIR/case-$_n.dat"
	cat "$@" >"$KTRACE_SAVE_DIR/case-$_n.txt"
}

# null_blk NAME NSEC: a null_blk device, configured through configfs, whose
# requests complete NSEC ns after they are issued (timer mode); prints its
# name in /dev.  null_blk_del NAME removes it.
null_blk() {
	_cfg=/sys/kernel/config
	grep -q " $_cfg configfs " /proc/mounts || mount -t configfs none $_cfg
	_nb=$_cfg/nullb/$1
	mkdir -p "$_nb" || return 1
	echo 2 >"$_nb/irqmode"
	echo "$2" >"$_nb/completion_nsec"
	echo 256 >"$_nb/size"
	echo 1 >"$_nb/power" || return 1
	# Named after its configfs directory where null_blk supports it (6.11+).
	if [ -e "/sys/block/$1" ]; then
		echo "$1"
	else
		echo "nullb$(cat "$_nb/index")"
	fi
}

null_blk_del() {
	echo 0 >"/sys/kernel/config/nullb/$1/power"
	rmdir "/sys/kernel/config/nullb/$1"
}
