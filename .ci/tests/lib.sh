# SPDX-License-Identifier: GPL-2.0
# Shared by the host tests of the driver (sourced): a scratch directory and
# KTAP results.  The caller prints "KTAP version 1" and ends with
# done_tests, which prints the plan: the number of results, counted.
ci=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
n=0
fails=0

ok() {	# ok NAME COMMAND...: one result, the command's output on failure
	n=$((n + 1))
	if "${@:2}" >"$tmp/out" 2>&1; then
		echo "ok $n $1"
	else
		echo "not ok $n $1"
		sed 's/^/# /' "$tmp/out"
		fails=$((fails + 1))
	fi
}
not() { ! "$@"; }
done_tests() { echo "1..$n"; [ "$fails" -eq 0 ]; }
