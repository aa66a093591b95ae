# SPDX-License-Identifier: GPL-2.0
# Shared settings and helpers of the ktrace driver scripts (sourced, not run).

set -euo pipefail

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
OUT=${OUT:-$TOP/out}
# shellcheck source=base.conf
. "$TOP/.ci/base.conf"

JOBS=${JOBS:-$(nproc)}
# ccache lives outside the repository so that CI runs on this machine reuse it.
export CCACHE_DIR=${CCACHE_DIR:-$HOME/.cache/ktrace-ccache}
export CCACHE_BASEDIR=$TOP
export CCACHE_NOHASHDIR=true
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-8G}
# Reproducible version strings keep init/version.o and the ccache hits stable.
export KBUILD_BUILD_TIMESTAMP='2024-11-17 00:00:00 UTC'
export KBUILD_BUILD_USER=ktrace KBUILD_BUILD_HOST=ktrace

log() { printf '==> %s\n' "$*" >&2; }
die() { printf 'ERROR: %s\n' "$*" >&2; exit 1; }

# The kernel source the series applies to: a KSRC tree or the Debian package.
if [ -n "${KSRC:-}" ]; then
	[ -d "$KSRC" ] || die "KSRC=$KSRC is not a directory"
	KSRC=$(cd "$KSRC" && pwd)
	BASE_ID="ksrc-$(printf '%s' "$KSRC" | md5sum | cut -c1-8)"
else
	BASE_ID="debian-$BASE_DEB_VERSION"
fi
BASE_ID=${BASE_ID//[^A-Za-z0-9._-]/_}
TREE=$OUT/src/$BASE_ID		# prepared tree: base + the series, a git repository
BASE_TAG=ktrace-base		# the pristine base commit in $TREE
# Build directories, one per configuration; a KSRC tree gets its own set.
BUILD=$OUT/build${KSRC:+-$BASE_ID}

kmake() {	# kmake BUILDNAME ARGS...: make in the prepared tree with O=
	local o=$BUILD/$1
	shift
	mkdir -p "$o"
	make -s -C "$TREE" O="$o" -j"$JOBS" CC="ccache gcc" HOSTCC="ccache gcc" "$@"
}

# Files of the repository that belong in the kernel tree: everything below a
# top-level directory, except the driver (.ci/) and the upstream diffs (patches/).
overlay_files() {
	git -C "$TOP" ls-files -co --exclude-standard -- '*/*' |
		awk '!/^(\.ci|patches|out)\//' | sort -u |
		while read -r f; do [ -f "$TOP/$f" ] && echo "$f"; done
}

# The maintainer the series names (author, Signed-off-by, the "M:" line of
# MAINTAINERS): git config's user.name and user.email.  Building and testing
# need no identity: where git config has none, the prepared tree and the
# series cut for the tests use the placeholder below; make series (what is
# mailed, KTRACE_MAIL=1) refuses to run without one.
PLACEHOLDER_NAME="ktrace developer"
PLACEHOLDER_EMAIL="ktrace@example.invalid"
maintainer_name() {
	git -C "$TOP" config user.name && return
	[ -z "${KTRACE_MAIL:-}" ] || die "git config user.name is not set: it is the mailed series' author and MAINTAINERS M: line"
	echo "$PLACEHOLDER_NAME"
}
maintainer_email() {
	git -C "$TOP" config user.email && return
	[ -z "${KTRACE_MAIL:-}" ] || die "git config user.email is not set: it is the mailed series' author and MAINTAINERS M: line"
	echo "$PLACEHOLDER_EMAIL"
}

# An upstream diff as it applies: its @MAINTAINER@ is the maintainer
# (replaced as text, as .ci/series.py does).
diff_text() {
	local name email
	name=$(maintainer_name) || exit 1
	email=$(maintainer_email) || exit 1
	python3 -c 'import sys; sys.stdout.write(open(sys.argv[1]).read().replace("@MAINTAINER@", sys.argv[2]))' \
		"$TOP/patches/$1" "$name <$email>"
}

# console_clean DIR: the guest's console (DIR/console.log) holds no splat.
console_clean() {
	! grep -E 'BUG:|WARNING:|Oops|KASAN:|possible circular|inconsistent lock|possible recursive|sleeping function called|suspicious RCU|lockdep is turned off|DEBUG_LOCKS_WARN_ON' \
		"$1/console.log"
}

# The upstream diffs, in quilt order.
series_diffs() {
	sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$TOP/patches/series"
}
