#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host tests of .ci/series (and .ci/series.py) on a tiny fake base: a
# Makefile and a Kconfig cut per patch by rule, a file grown by a grow diff,
# two series on top of each other, the M: line from git config, the last
# patch equal to the repository, and the mistakes of a split refused.  KTAP.
set -u
. "$(dirname "$0")/lib.sh"
env_() { (cd "$repo" && OUT="$tmp/out-dir" KSRC="$tmp/base" "$@"); }
series() { env_ bash .ci/prepare >/dev/null 2>&1 && env_ bash .ci/series; }
refused() { ! series >"$tmp/err" 2>&1; }	# the messages in $tmp/err
at() {	# at N PATH: PATH as patch N of all the series made it
	local c
	c=$(git -C "$work" rev-list --reverse ktrace-base..HEAD | sed -n "$1p")
	[ -n "$c" ] && git -C "$work" show "$c:$2"
}
lacks() {	# lacks N PATH REGEX: PATH exists at patch N, without REGEX
	local t
	t=$(at "$1" "$2") && ! grep -q "$3" <<<"$t"
}

repo=$tmp/repo
fake_base_and_repo "Ann Maintainer <ann@example.org>"
mkdir -p "$repo/patches/split" "$repo/patches/msg" "$repo/patches/cover" \
	"$repo/patches/grow" "$repo/kernel/kt" "$repo/tools/kt"
cat >"$repo/kernel/kt/Makefile" <<'M'
# SPDX-License-Identifier: GPL-2.0
ccflags-y += -I$(src)/..
obj-$(CONFIG_KT) += a.o \
		    c.o b.o
obj-$(CONFIG_KT_TEST) += tests/
M
cat >"$repo/kernel/kt/Kconfig" <<'K'
config KT
	bool "kt"

config KT_TEST
	bool "kt tests"
	depends on KT
K
printf 'int a;\nint a_from_c;\n' >"$repo/kernel/kt/a.c"
printf 'int b;\n' >"$repo/kernel/kt/b.c"
printf 'int c;\n' >"$repo/kernel/kt/c.c"
mkdir -p "$repo/kernel/kt/tests"
printf 'int t;\n' >"$repo/kernel/kt/tests/t.c"
printf 'int tool;\n' >"$repo/tools/kt/tool.c"
fake_upstream_diff 'obj-$(CONFIG_KT) += kt/'
cat >"$repo/patches/grow/p3.diff" <<'G'
--- a/kernel/kt/a.c
+++ b/kernel/kt/a.c
@@ -1 +1,2 @@
 int a;
+int a_from_c;
G
printf 'p1.txt\tkernel/kt/Makefile kernel/kt/Kconfig kernel/kt/a.c k.diff\np2.txt\tkernel/kt/b.c\np3.txt\tkernel/kt/c.c kernel/kt/tests/\n' \
	>"$repo/patches/split/1-kernel"
printf 'p4.txt\ttools/kt/\n' >"$repo/patches/split/2-tools"
for p in p1 p2 p3 p4; do printf 'kt: %s\n\nBody of %s.\n' "$p" "$p" >"$repo/patches/msg/$p.txt"; done
printf 'kt: the kernel\n\nThe blurb.\n' >"$repo/patches/cover/kernel.txt"
printf 'kt: the tools\n\nThe tools blurb.\n' >"$repo/patches/cover/tools.txt"

git -C "$repo" add -A && git -C "$repo" commit -q -m repo

echo "KTAP version 1"
ok "the series are cut" series
work=$(echo "$tmp"/out-dir/src/ksrc-*.series)
ok "four commits" test "$(git -C "$work" rev-list --count ktrace-base..HEAD)" = 4
ok "two series directories, each with a cover letter" \
	test -f "$tmp/out-dir/series/kernel/0000-cover-letter.patch" -a \
	-f "$tmp/out-dir/series/tools/0001-kt-p4.patch"
ok "patch 1: the Makefile names only a.c" \
	test "$(at 1 kernel/kt/Makefile | grep -c 'obj-')" = 1 -a \
	"$(at 1 kernel/kt/Makefile | grep 'obj-')" = 'obj-$(CONFIG_KT) += a.o'
ok "patch 1: the Makefile keeps what names no file" grep -qx 'ccflags-y += -I$(src)/..' <(at 1 kernel/kt/Makefile)
ok "patch 2: a.o, then b.o on its continuation line, indented" \
	test "$(at 2 kernel/kt/Makefile | grep -A1 'obj-$(CONFIG_KT) +=')" = "$(printf 'obj-$(CONFIG_KT) += a.o \\\n\t\t    b.o')"
ok "patch 1: no KT_TEST entry before a Makefile uses it" lacks 1 kernel/kt/Kconfig KT_TEST
ok "patch 1: the KT entry" grep -qx 'config KT' <(at 1 kernel/kt/Kconfig)
ok "patch 3: the KT_TEST entry with tests/" grep -qx 'config KT_TEST' <(at 3 kernel/kt/Kconfig)
ok "patch 1: a.c without what patch 3 grows" test "$(at 1 kernel/kt/a.c)" = 'int a;'
ok "patch 3: a.c grown" grep -qx 'int a_from_c;' <(at 3 kernel/kt/a.c)
ok "the last patch is the repository" cmp <(at 3 kernel/kt/Makefile) "$repo/kernel/kt/Makefile"
ok "the M: line is git config's" grep -qx 'M:	Ann Maintainer <ann@example.org>' <(at 1 MAINTAINERS)
ok "author from git config" test "$(git -C "$work" log -1 --format='%an <%ae>')" = 'Ann Maintainer <ann@example.org>'
ok "the cover letter is filled" grep -q '^The blurb\.$' "$tmp/out-dir/series/kernel/0000-cover-letter.patch"
ok "the tools cover names the series under it" \
	grep -q 'after the series "kt: the kernel"' "$tmp/out-dir/series/tools/0000-cover-letter.patch"

sed -i 's| kernel/kt/tests/||' "$repo/patches/split/1-kernel"
ok "a file in no patch is refused" refused
ok "... by name" grep -q 'kernel/kt/tests/t.c is in no patch' "$tmp/err"
sed -i 's|kernel/kt/c.c|kernel/kt/c.c kernel/kt/tests/|' "$repo/patches/split/1-kernel"
printf 'int a_changed;\nint a_from_c;\n' >"$repo/kernel/kt/a.c"
ok "a grow diff that no longer applies is refused" refused
ok "... by name" grep -q 'patches/grow/p3.diff does not apply in reverse' "$tmp/err"
sed -i 's/a_changed/a/' "$repo/kernel/kt/a.c"
printf 'junk\n' >"$repo/kernel/kt/core.1234"
ok "an untracked file is refused" refused
ok "... by name" grep -q 'untracked files would be mailed: kernel/kt/core.1234' "$tmp/err"
rm "$repo/kernel/kt/core.1234"
printf 'menu "kt"\n' >>"$repo/kernel/kt/Kconfig"
ok "a Kconfig with a menu is refused" refused
done_tests
