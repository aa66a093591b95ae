#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host tests of .ci/prepare on a tiny fake base (KSRC): the overlay and the
# diffs land in the tree, an unchanged file keeps its mtime, a renamed or
# removed file leaves no stale copy, a dropped diff restores the upstream
# file, and copies of upstream files or broken diffs are refused.  All of it
# on a machine without a git identity (HOME empty): the @MAINTAINER@ of the
# diffs is the documented placeholder, and only the mailed series needs
# one.  KTAP.
set -u
. "$(dirname "$0")/lib.sh"
same() { cmp -s "$1" "$2"; }
# No git identity anywhere: an empty HOME, no system config.
mkdir -p "$tmp/home"
noid() { (cd "$repo" && HOME="$tmp/home" GIT_CONFIG_NOSYSTEM=1 OUT="$tmp/out-dir" KSRC="$tmp/base" "$@"); }
prep() { noid bash .ci/prepare; }

# The fake base and a fake repository using the real driver.
repo=$tmp/repo
fake_base_and_repo ""
mkdir -p "$tmp/base/fs"
printf 'int a;\n' >"$tmp/base/kernel/a.c"
printf 'obj-y += b/\n' >"$tmp/base/fs/Makefile"
mkdir -p "$repo/patches" "$repo/kernel/ktrace"
printf 'int k;\n' >"$repo/kernel/ktrace/core.c"
printf 'int o;\n' >"$repo/kernel/ktrace/old.c"
fake_upstream_diff 'obj-y += ktrace/'

echo "KTAP version 1"
ok "first prepare succeeds" prep
tree=$(echo "$tmp"/out-dir/src/ksrc-*)
ok "new files are overlaid" same "$repo/kernel/ktrace/core.c" "$tree/kernel/ktrace/core.c"
ok "diffs are applied" grep -qx 'obj-y += ktrace/' "$tree/kernel/Makefile"
ok "the base is tagged" git -C "$tree" rev-parse -q --verify refs/tags/ktrace-base
ok "without a git identity, the M: line is the placeholder" \
	grep -qx 'M:	ktrace developer <ktrace@example.invalid>' "$tree/MAINTAINERS"
noid env KTRACE_MAIL=1 bash .ci/series >"$tmp/log" 2>&1
ok "the mailed series (make series) is refused without one, saying why" \
	grep -q 'git config user.name is not set' "$tmp/log"

touch -d '2000-01-01' "$tree/kernel/ktrace/core.c" "$tree/kernel/Makefile"
git -C "$repo" mv -f kernel/ktrace/old.c kernel/ktrace/new.c 2>/dev/null ||
	mv "$repo/kernel/ktrace/old.c" "$repo/kernel/ktrace/new.c"
prep >/dev/null 2>&1
ok "unchanged files keep their mtime" \
	test "$(stat -c %Y "$tree/kernel/ktrace/core.c" "$tree/kernel/Makefile" | sort -u)" = \
	"$(date -d '2000-01-01' +%s)"
ok "a renamed file is there under its new name" test -f "$tree/kernel/ktrace/new.c"
ok "and gone under its old name" not test -e "$tree/kernel/ktrace/old.c"

: >"$repo/patches/series"
prep >/dev/null 2>&1
ok "a dropped diff restores the upstream file" same "$tmp/base/kernel/Makefile" "$tree/kernel/Makefile"

rm -rf "$repo/kernel/ktrace"
prep >/dev/null 2>&1
ok "a removed directory leaves nothing behind" not test -e "$tree/kernel/ktrace"

cp "$tmp/base/fs/Makefile" "$repo/fs-copy" 2>/dev/null
mkdir -p "$repo/fs" && printf 'obj-y += b/ c/\n' >"$repo/fs/Makefile"
prep >"$tmp/log" 2>&1
ok "a copy of an upstream file is refused" grep -q 'fs/Makefile is an upstream file' "$tmp/log"
ok "and not copied" same "$tmp/base/fs/Makefile" "$tree/fs/Makefile"
rm -rf "$repo/fs"

printf 'k.diff\n' >"$repo/patches/series"
sed -i 's/obj-y += a.o/obj-y += zz.o/' "$repo/patches/k.diff"
prep >"$tmp/log" 2>&1
ok "a diff that does not apply is named" grep -q 'patches/k.diff does not apply' "$tmp/log"

done_tests
