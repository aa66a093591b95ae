#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host tests of the series edited as commits (.ci/series edit, refresh,
# verify) on a tiny fake base: the worked example of README.md (a fixup to
# an early patch carried through the later ones), a new patch, a Makefile
# change the rule cannot explain, every commit checked with rebase --exec,
# and the mistakes refused: a hand-edited derived file, work not yet
# refreshed, uncommitted changes.  KTAP.
set -u
. "$(dirname "$0")/lib.sh"
env_() { (cd "$repo" && OUT="$tmp/out-dir" KSRC="$tmp/base" "$@"); }
s() { env_ bash .ci/series "$@"; }
e() { git -C "$edit" -c user.name=Dev -c user.email=dev@example.org "$@"; }
cut() {	# cut N PATH: PATH as patch N of the series cut from the repository
	local c
	c=$(git -C "$work" rev-list --reverse ktrace-base..HEAD | sed -n "$1p")
	[ -n "$c" ] && git -C "$work" show "$c:$2"
}
rev() { git -C "$edit" rev-list -1 --grep "^$1\$" ktrace-edit; }	# rev SUBJECT
builds() {	# every commit of the edit branch compiles its C files
	e rebase -q --exec 'for f in $(git ls-files "kernel/kt/*.c"); do gcc -c -o /dev/null "$f" || exit 1; done' ktrace-base
}

repo=$tmp/repo
fake_base_and_repo "Ann Maintainer <ann@example.org>"
mkdir -p "$repo/patches/split" "$repo/patches/msg" "$repo/patches/cover" \
	"$repo/patches/grow" "$repo/kernel/kt"
cat >"$repo/kernel/kt/Makefile" <<'M'
obj-y += a.o b.o c.o
M
printf 'struct ev {\n\tint pid;\n};\n' >"$repo/kernel/kt/ev.h"
printf '#include "ev.h"\nint a(struct ev *e) { return e->pid; }\n' >"$repo/kernel/kt/a.c"
printf '#include "ev.h"\nint b(struct ev *e) { return e->pid + 1; }\n' >"$repo/kernel/kt/b.c"
printf '#include "ev.h"\nint c(struct ev *e) { return e->pid; }\n' >"$repo/kernel/kt/c.c"
fake_upstream_diff 'obj-y += kt/'
printf 'p1.txt\tkernel/kt/Makefile kernel/kt/ev.h kernel/kt/a.c k.diff\np2.txt\tkernel/kt/b.c\n' \
	>"$repo/patches/split/1-kernel"
printf 'p3.txt\tkernel/kt/c.c\n' >"$repo/patches/split/2-tools"
for p in p1 p2 p3; do printf 'kt: %s\n\nBody of %s.\n' "$p" "$p" >"$repo/patches/msg/$p.txt"; done
printf 'kt: the kernel\n\nThe blurb.\n' >"$repo/patches/cover/kernel.txt"
printf 'kt: the tools\n\nThe tools blurb.\n' >"$repo/patches/cover/tools.txt"
git -C "$repo" add -A && git -C "$repo" commit -q -m repo
env_ bash .ci/prepare >/dev/null 2>&1

echo "KTAP version 1"
ok "hand-written derived files fail verify" not s verify
s verify >"$tmp/err" 2>&1
ok "... naming the file" grep -q '^patches/split/1-kernel: differs from what refresh writes' "$tmp/err"
ok "edit makes the branch" s edit
edit=$(echo "$tmp"/out-dir/src/ksrc-*.edit)
work=$(echo "$tmp"/out-dir/src/ksrc-*.series)
ok "out/edit is the worktree" test "$(readlink "$tmp/out-dir/edit")" = "$edit"
ok "two cover commits and three patches" test "$(e rev-list --count ktrace-base..ktrace-edit)" = 5
ok "a cover commit is empty and names its series" \
	test "$(e log -1 --format=%B "$(rev 'kt: the kernel')" | sed '/^$/d' | tail -n 1)" = 'Ktrace-Series: kernel' -a \
	-z "$(e diff --name-only "$(rev 'kt: the kernel')~1" "$(rev 'kt: the kernel')")"
ok "a patch names its message and diff" \
	test "$(e log -1 --format=%B "$(rev 'kt: p1')" | sed '/^$/d' | tail -n 2 | tr '\n' ' ')" = 'Ktrace-Patch: p1 Ktrace-Diff: k.diff '
ok "the M: line stays @MAINTAINER@ on the branch" grep -qx 'M:	@MAINTAINER@' <(e show "$(rev 'kt: p1'):MAINTAINERS")
ok "refresh writes the derived files" s refresh
ok "verify then passes" s verify
ok "the final files are unchanged" test -z "$(git -C "$repo" status --short -- kernel)"
git -C "$repo" commit -q -m refresh

# The worked example: a field added to struct ev in patch 1, used by the
# patch that decodes it (p3), carried with fixups.
e checkout -q ktrace-edit
printf 'struct ev {\n\tint pid;\n\tint cpu;\n};\n' >"$edit/kernel/kt/ev.h"
e commit -q -a --fixup=':/kt: p1'
printf '#include "ev.h"\nint c(struct ev *e) { return e->pid + e->cpu; }\n' >"$edit/kernel/kt/c.c"
e commit -q -a --fixup=':/kt: p3'
ok "edit refuses to drop commits not refreshed" not s edit
GIT_SEQUENCE_EDITOR="sed -i 1s/^pick/edit/" e rebase -q -i ktrace-base >/dev/null 2>&1
ok "refresh refuses a branch in the middle of a rebase" not s refresh
e rebase --abort
GIT_SEQUENCE_EDITOR=: e rebase -q -i --autosquash ktrace-base
ok "autosquash leaves five commits" test "$(e rev-list --count ktrace-base..HEAD)" = 5
ok "every commit builds (rebase --exec)" builds
ok "refresh" s refresh
ok "the repository has the field" grep -q 'int cpu;' "$repo/kernel/kt/ev.h"
ok "patch 1 of the cut has it" grep -q 'int cpu;' <(cut 2 kernel/kt/ev.h)
ok "patch 3 of the cut uses it" grep -q 'e->cpu' <(cut 5 kernel/kt/c.c)
ok "no grow diff: each change went into the patch that adds the file" \
	test -z "$(ls "$repo/patches/grow")"
git -C "$repo" add -A && git -C "$repo" commit -q -m example

# A change of a later patch to an earlier patch's file becomes a grow diff;
# a Makefile line the rule cannot explain (a composite object) too.
printf '#include "ev.h"\nint a(struct ev *e) { return e->pid; }\nint a2(struct ev *e) { return e->cpu; }\n' \
	>"$edit/kernel/kt/a.c"
printf 'obj-y += a.o b.o c.o\nkt-y := a.o\n' >"$edit/kernel/kt/Makefile"
printf 'int d;\n' >"$edit/kernel/kt/d.c"
e add -A && e commit -q -m 'kt: add d' -m 'A new patch.'
ok "a new patch is refreshed" s refresh
ok "... named after its subject, adding its file" grep -qx 'add-d.txt	kernel/kt/d.c' "$repo/patches/split/2-tools"
ok "... with a grow diff of a.c and of the Makefile" \
	test "$(sed -n 's|^+++ b/||p' "$repo/patches/grow/add-d.diff" | tr '\n' ' ')" = 'kernel/kt/Makefile kernel/kt/a.c '
git -C "$repo" add -A && git -C "$repo" commit -q -m new-patch
ok "verify passes on the result" s verify

sed -i 's/^\(@@ [^@]*@@\).*/\1 by hand/' "$repo/patches/grow/add-d.diff"
ok "a grow diff edited by hand (still applying) fails verify" not s verify
s verify >"$tmp/err" 2>&1
ok "... naming it" grep -q '^patches/grow/add-d.diff: differs from what refresh writes' "$tmp/err"
git -C "$repo" checkout -q -- patches
printf 'x\n' >"$edit/kernel/kt/b.c"
ok "refresh refuses uncommitted changes" not s refresh
e checkout -q -- kernel/kt/b.c
# Work that landed in the repository after the cut: refresh would revert it.
printf 'int e;\n' >>"$repo/kernel/kt/c.c"
git -C "$repo" commit -q -a -m 'newer work'
s refresh >"$tmp/err" 2>&1
ok "refresh refuses a repository that moved since the cut, saying so" \
	grep -q 'the repository changed since .ci/series edit' "$tmp/err"
ok "... and leaves the newer work alone" grep -qx 'int e;' "$repo/kernel/kt/c.c"
printf 'int f;\n' >>"$repo/kernel/kt/c.c"
ok "edit refuses uncommitted changes in the repository" not s edit --force
done_tests
