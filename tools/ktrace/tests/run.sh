#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Host tests of the ktrace tool, reported in KTAP.  KTRACE_BIN names the
# binary under test.
bin=${KTRACE_BIN:?set KTRACE_BIN to the ktrace binary}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
fails=0

# check NAME EXPECTED_STATUS STDOUT_PATTERN STDERR_PATTERN -- ARGS...
# An empty pattern means that stream must be empty.
check() {
	name=$1 want=$2 out_re=$3 err_re=$4
	shift 5
	n=$((n + 1))
	"$bin" "$@" >"$tmp/out" 2>"$tmp/err"
	got=$?
	why=
	[ "$got" -eq "$want" ] || why="exit status $got, want $want"
	if [ -z "$out_re" ]; then
		[ -s "$tmp/out" ] && why="$why; unexpected stdout"
	else
		grep -Eq "$out_re" "$tmp/out" || why="$why; stdout lacks /$out_re/"
	fi
	if [ -z "$err_re" ]; then
		[ -s "$tmp/err" ] && why="$why; unexpected stderr"
	else
		grep -Eq "$err_re" "$tmp/err" || why="$why; stderr lacks /$err_re/"
	fi
	if [ -z "$why" ]; then
		echo "ok $n $name"
	else
		echo "not ok $n $name"
		echo "# $why"
		sed 's/^/# stdout: /' "$tmp/out"
		sed 's/^/# stderr: /' "$tmp/err"
		fails=$((fails + 1))
	fi
}

echo "KTAP version 1"
echo "1..11"
check "help on stdout, exit 0" 0 '^usage: ktrace' '' -- --help
check "help command" 0 'status +show whether' '' -- help
check "no command is a usage error" 2 '' '^usage: ktrace' --
check "unknown command is a usage error" 2 '' "unknown command 'bogus'" -- bogus
check "version" 0 '^ktrace [0-9]' '' -- --version
check "status --help" 0 '^usage: ktrace status' '' -- status --help
check "status with a stray argument" 2 '' "unexpected argument 'x'" -- status x

mkdir "$tmp/on" "$tmp/off" "$tmp/bad"
echo 1 >"$tmp/on/enable"
echo 0 >"$tmp/off/enable"
echo 7 >"$tmp/bad/enable"
KTRACE_DIR=$tmp/on check "status reads 1 as on" 0 '^tracing: on$' '' -- status
KTRACE_DIR=$tmp/off check "status reads 0 as off" 0 '^tracing: off$' '' -- status
KTRACE_DIR=$tmp/bad check "status rejects unexpected content" 1 '' \
	"bad/enable: unexpected content '7'" -- status
KTRACE_DIR=$tmp/none check "status names the missing file" 1 '' \
	"none/enable: No such file or directory" -- status

[ "$fails" -eq 0 ]
