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

# Synthetic traces from the uapi header (tests/mktrace.c): every display
# kind, 27-bit rollovers, a sequence gap, an expanded event of maximum
# length, unknown events, a pid-is-current event.
mk=${MKTRACE_BIN:?set MKTRACE_BIN to the mktrace binary}
"$mk" "$tmp/s.dat" "$tmp/s.exp"
"$bin" report "$tmp/s.dat" >"$tmp/s.got" 2>"$tmp/s.err"
st=$?
n=$((n + 1))
if [ "$st" -eq 0 ] && [ ! -s "$tmp/s.err" ] &&
   sort -s -k1,1n "$tmp/s.exp" | cmp -s - "$tmp/s.got"; then
	echo "ok $n report prints the expected lines of a synthetic trace, in time order"
else
	echo "not ok $n report prints the expected lines of a synthetic trace, in time order"
	sort -s -k1,1n "$tmp/s.exp" | diff - "$tmp/s.got" | sed 's/^/# /'
	fails=$((fails + 1))
fi
check "stat: the gap, the losses, the unknown events" 0 \
	'cpu1 high: subbufs=3 seq=0-4 events=12 dropped=0 overwritten=300 lost_subbufs=2 ' '' \
	-- stat "$tmp/s.dat"
check "stat: where the gap is" 0 'gap: high CPU 1: subbuffers 2 to 3 missing \(offset [0-9]+\)' '' \
	-- stat "$tmp/s.dat"
check "stat: events per type" 0 '^  unknown 2$' '' -- stat "$tmp/s.dat"
# filtered NAME AWK -- ARGS: report ARGS prints exactly the expected lines
# AWK selects, in time order.
# result NAME STATUS [DIFF-FILE]: one KTAP line for a test done in a t-*.sh.
result() {
	n=$((n + 1))
	if [ "$2" -eq 0 ]; then
		echo "ok $n $1"
	else
		echo "not ok $n $1"
		[ -n "$3" ] && [ -f "$3" ] && sed 's/^/# /' "$3"
		fails=$((fails + 1))
	fi
}

filtered() {
	name=$1 sel=$2
	shift 3
	n=$((n + 1))
	sort -s -k1,1n "$tmp/s.exp" | awk "$sel" >"$tmp/f.want"
	if "$bin" report "$@" "$tmp/s.dat" >"$tmp/f.got" 2>&1 && [ -s "$tmp/f.want" ] &&
	   cmp -s "$tmp/f.want" "$tmp/f.got"; then
		echo "ok $n $name ($(wc -l <"$tmp/f.want") lines)"
	else
		echo "not ok $n $name"
		diff "$tmp/f.want" "$tmp/f.got" | sed 's/^/# /'
		fails=$((fails + 1))
	fi
}
filtered "report -c 0" '$2 == 0' -- -c 0
filtered "report -e foo:switch" '$4 == "foo:switch"' -- -e foo:switch
filtered "report -e foo (a group)" '$4 ~ /^foo:/' -- -e foo
filtered "report -p 42 --from 32.4 --to 32.5" '$3 ~ /-42$/ && $1 >= 32.4 && $1 <= 32.5' \
	-- -p 42 --from 32.4 --to 32.5
# report -r: every line, its time relative to the trigger record's.
rel='function ns(t, a) { split(t, a, "."); return a[1] * 1000000000 + a[2] }
	/ ktrace:trigger / { T = ns($1) } { l[NR] = $0; t[NR] = ns($1) }
	END { for (i = 1; i <= NR; i++) { d = t[i] - T; s = d < 0 ? "-" : "+"; d = d < 0 ? -d : d
		r = l[i]; sub(/^[^ ]* /, "", r)
		printf "%s%d.%09d %s\n", s, int(d / 1000000000), d % 1000000000, r } }'
n=$((n + 1))
sort -s -k1,1n "$tmp/s.exp" | awk "$rel" >"$tmp/r.want"
if "$bin" report -r "$tmp/s.dat" >"$tmp/r.got" 2>&1 &&
   grep -q '^+0.000000000 .* ktrace:trigger ' "$tmp/r.got" &&
   grep -q '^-' "$tmp/r.got" && cmp -s "$tmp/r.want" "$tmp/r.got"; then
	echo "ok $n report -r: times relative to the trigger record"
else
	echo "not ok $n report -r: times relative to the trigger record"
	diff "$tmp/r.want" "$tmp/r.got" | sed 's/^/# /'
	fails=$((fails + 1))
fi
n=$((n + 1))
awk '{ t = $1; sub(/^[+-]/, "", t)
	if (($1 ~ /^-/ && t + 0 <= 0.000001) || ($1 ~ /^[+]/ && t + 0 == 0)) print }' \
	"$tmp/r.want" >"$tmp/w.want"
if "$bin" report -r --from -0.000001 --to 0 "$tmp/s.dat" >"$tmp/w.got" 2>&1 &&
   [ "$(wc -l <"$tmp/w.want")" -ge 2 ] && cmp -s "$tmp/w.want" "$tmp/w.got"; then
	echo "ok $n report -r --from -0.000001 --to 0: a window around the trigger" \
		"($(wc -l <"$tmp/w.want") lines)"
else
	echo "not ok $n report -r --from -0.000001 --to 0: a window around the trigger"
	diff "$tmp/w.want" "$tmp/w.got" | sed 's/^/# /'
	fails=$((fails + 1))
fi
"$mk" "$tmp/n.dat" "$tmp/n.exp" notrigger
check "report -r without a trigger record: exit 1 with the file" 1 '' \
	'n.dat: no trigger record' -- report -r "$tmp/n.dat"
"$mk" "$tmp/i.dat" "$tmp/i.exp" incomplete
check "stat warns of a metadata with fewer records than announced" 0 'cpu1 high' \
	'offset [0-9]+: warning: metadata incomplete: 18 of the 21 records announced' \
	-- stat "$tmp/i.dat"
check "report -r: a bad relative time is a usage error" 2 '' "bad time '--1': want \\[\\+-\\]" \
	-- report -r --from --1 "$tmp/s.dat"
check "stat lists the trigger records" 0 \
	'^  [0-9.]+ 0 <idle>-0 ktrace:trigger trigger="user" reason="slow"$' '' -- stat "$tmp/s.dat"
check "report: a bad time is a usage error" 2 '' "bad time '1.2.3'" \
	-- report --to 1.2.3 "$tmp/s.dat"
check "report: a bad CPU is a usage error" 2 '' "bad CPU 'x'" -- report -c x "$tmp/s.dat"
check "report --help" 0 '^usage: ktrace report' '' -- report --help
check "stat --help" 0 '^usage: ktrace stat' '' -- stat --help
: >"$tmp/empty"
check "an empty file: exit 1, file and offset" 1 '' 'empty: offset 0: empty file' \
	-- report "$tmp/empty"
check "not a trace file: exit 1, file and offset" 1 '' 'offset 0: not a ktrace trace file' \
	-- stat "$0"
check "a directory: exit 1" 1 '' 'not a regular file' -- report "$tmp"
head -c 5000 "$tmp/s.dat" >"$tmp/trunc"
check "a truncated file: warned with the offset, the rest decoded" 0 'foo:bits' \
	'offset [0-9]+: warning: section of [0-9]+ bytes, only [0-9]+ left' -- report "$tmp/trunc"

# Cut and bit-flipped copies of the traces: a clean exit (0 or 1), never a
# crash or a hang.
bad=0
tries=0
for f in "$tmp/s.dat" "$(dirname "$0")/corpus/guest-marks.dat" \
	 "$(dirname "$0")/corpus/blockkeys.dat"; do
	size=$(wc -c <"$f")
	for cut in 0 7 16 40 64 100 500 1000 1500 3000 9000 20000 70000; do
		[ "$cut" -lt "$size" ] || continue
		head -c "$cut" "$f" >"$tmp/cut"
		tries=$((tries + 1))
		timeout 10 "$bin" report "$tmp/cut" >/dev/null 2>&1
		[ $? -le 1 ] || { bad=$((bad + 1)); echo "# cut at $cut of $f"; }
	done
	i=0
	while [ $i -lt 60 ]; do
		off=$(( (i * 7919 + 13) % size ))
		cp "$f" "$tmp/flip"
		printf "\\$(printf %o $(( (i * 37 + 1) % 256 )))" |
			dd of="$tmp/flip" bs=1 seek="$off" conv=notrunc 2>/dev/null
		tries=$((tries + 1))
		timeout 10 "$bin" stat "$tmp/flip" >/dev/null 2>&1
		[ $? -le 1 ] || { bad=$((bad + 1)); echo "# byte $off of $f"; }
		i=$((i + 1))
	done
done
n=$((n + 1))
if [ "$bad" -eq 0 ] && [ "$tries" -gt 100 ]; then
	echo "ok $n $tries cut and bit-flipped traces end cleanly"
else
	echo "not ok $n $bad of $tries cut and bit-flipped traces crashed or hung"
	fails=$((fails + 1))
fi

# The tests of each command, in their own files (t-*.sh), sourced here:
# they use check, filtered, $bin, $mk and $tmp, and count in n and fails.
for t in "$(dirname "$0")"/t-*.sh; do
	[ -f "$t" ] || continue
	# shellcheck disable=SC1090
	. "$t"
done

# A short fuzz run, if the fuzzer could be built (clang).
n=$((n + 1))
if [ -n "${FUZZ_BIN:-}" ] && [ -x "$FUZZ_BIN" ]; then
	mkdir -p "$tmp/corpus"
	cp "$(dirname "$0")"/corpus/* "$tmp/corpus/"
	if "$FUZZ_BIN" -max_total_time="${FUZZ_SECONDS:-20}" -close_fd_mask=2 \
		-max_len=262144 -timeout=10 -rss_limit_mb=2048 -artifact_prefix="$tmp/" \
		"$tmp/corpus" \
		>"$tmp/fuzz.log" 2>&1; then
		echo "ok $n fuzzing the decoder: $(grep -o 'Done [0-9]* runs' "$tmp/fuzz.log")"
	else
		echo "not ok $n fuzzing the decoder found a crash"
		tail -n 30 "$tmp/fuzz.log" | sed 's/^/# /'
		fails=$((fails + 1))
	fi
else
	echo "ok $n # SKIP no fuzzer built (FUZZ_BIN)"
fi

echo "1..$n"
[ "$fails" -eq 0 ]
