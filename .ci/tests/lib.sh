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

# The fake kernel the tests prepare, series and edit: a base ($tmp/base,
# given as KSRC) with kernel/Makefile and MAINTAINERS, and a repository
# ($repo) with a copy of the driver, git-initialised, with IDENTITY
# ("Name <email>") as its git identity unless empty.
fake_base_and_repo() {
	mkdir -p "$tmp/base/kernel" "$repo/patches"
	printf 'obj-y += a.o\n' >"$tmp/base/kernel/Makefile"
	printf 'KT\nM:\tsomeone\n' >"$tmp/base/MAINTAINERS"
	cp -r "$ci" "$repo/.ci"
	git -C "$repo" init -q
	if [ -n "$1" ]; then
		git -C "$repo" config user.name "${1% <*}"
		git -C "$repo" config user.email "$(echo "$1" | sed 's/.*<\(.*\)>/\1/')"
	fi
}

# fake_upstream_diff LINE: patches/k.diff, the only diff of patches/series:
# LINE added to the base's kernel/Makefile, and "M: @MAINTAINER@" to its
# MAINTAINERS.
fake_upstream_diff() {
	printf -- '--- a/kernel/Makefile\n+++ b/kernel/Makefile\n@@ -1 +1,2 @@\n obj-y += a.o\n+%s\n--- a/MAINTAINERS\n+++ b/MAINTAINERS\n@@ -1,2 +1,3 @@\n KT\n M:\tsomeone\n+M:\t@MAINTAINER@\n' \
		"$1" >"$repo/patches/k.diff"
	printf 'k.diff\n' >"$repo/patches/series"
}
