# SPDX-License-Identifier: GPL-2.0
# Sourced by run.sh: the trace format's versions.  Version 1 traces print
# their golden outputs; a trace of a later version is refused; version 2's
# displays (flag tables, keys, saturated values) print as the kernel's
# ascii pipe prints them, in text and JSON.

# fmt_verdict NAME WANT STATUS [NOTE]: ok if ktrace exited 0, wrote nothing
# on stderr and $tmp/fmt.out is WANT (not empty); else how it differs.
fmt_verdict() {
	if [ "$3" -eq 0 ] && [ ! -s "$tmp/fmt.err" ] && [ -s "$2" ] &&
	   cmp -s "$2" "$tmp/fmt.out"; then
		echo "ok $n $1${4:+ ($4)}"
	else
		echo "not ok $n $1"
		echo "# exit status $3"
		diff "$2" "$tmp/fmt.out" | sed 's/^/# /'
		sed 's/^/# stderr: /' "$tmp/fmt.err"
		fails=$((fails + 1))
	fi
}

# fmt_report NAME WANT KEEP -- ARGS: ktrace ARGS exits 0 with nothing on
# stderr, and the lines of its output that are lines of KEEP (all, if
# KEEP is "all") are exactly WANT's.
fmt_report() {
	name=$1 want=$2 keep=$3
	shift 4
	n=$((n + 1))
	"$bin" "$@" >"$tmp/fmt.out" 2>"$tmp/fmt.err"
	st=$?
	if [ "$keep" != all ]; then
		grep -Fx -f "$keep" "$tmp/fmt.out" >"$tmp/fmt.kept"
		mv "$tmp/fmt.kept" "$tmp/fmt.out"
	fi
	fmt_verdict "$name" "$want" "$st" "$(wc -l <"$want") lines"
}

# Version 1: the corpus (version 1 traces) prints its golden outputs (their
# sha256 below), byte for byte: report, report --json, stat.
corpus=$(dirname "$0")/corpus
while read -r sum file args; do
	n=$((n + 1))
	# shellcheck disable=SC2086 # the command and its options, split
	got=$("$bin" $args "$corpus/$file" 2>"$tmp/fmt.err" | sha256sum | cut -d' ' -f1)
	if [ "$got" = "$sum" ] && [ ! -s "$tmp/fmt.err" ]; then
		echo "ok $n version 1: $args $file, the golden output"
	else
		echo "not ok $n version 1: $args $file, the golden output"
		echo "# sha256 $got, want $sum"
		sed 's/^/# stderr: /' "$tmp/fmt.err"
		fails=$((fails + 1))
	fi
done <<'EOF'
d303f4f1986a47bbf5e503fd5f0e72b5059315859aeadf31e0c9a79a5062eef1 guest-marks.dat report
045b39e0016a6793277246a016cbc59db71e11cef9bedd8dc0c6a8f32c185cae guest-marks.dat report --json
b58121098e1c918a5ac01454fc8aa06d8590b147dc3892dc2f12d1775954ae43 guest-marks.dat stat
ba5ac4603a214a2fa255be9b4c090ad3ad7f3c03d5831e9516b7db2164750fe2 longstr.dat report
efc113f31912b3db04422ebc35619ce837ab68ecf09cb8d746fb9cb3d8ea5643 longstr.dat report --json
9b86554c4b6eae201d33d9a076aa6a3c8d481c7337b8bb583b2dfb3a2f7eb1c8 longstr.dat stat
EOF
check "version 1: the corpus's first line" 0 \
	'^34\.538182144 0 <\.\.\.>-4008 ktrace:mark pid=4008 text="r1 cpu0 i=0"$' '' \
	-- report "$corpus/guest-marks.dat"
# The synthetic trace of run.sh, written in version 1: the same lines.
"$mk" "$tmp/v1.dat" "$tmp/v1.exp" v1
sort -s -k1,1n "$tmp/v1.exp" >"$tmp/v1.want"
fmt_report "version 1: the synthetic trace written in version 1" "$tmp/v1.want" all \
	-- report "$tmp/v1.dat"

# A later version: refused, naming both, rather than its subbuffers
# skipped as bad; also when only its trace record says so.
"$mk" "$tmp/v3.dat" "$tmp/v3.exp" futurever
"$mk" "$tmp/v3m.dat" "$tmp/v3m.exp" futuremeta
check "version 3: report refuses it" 1 '' \
	'^ktrace: .*/v3\.dat: trace format version 3; this ktrace reads versions 1 to 2$' \
	-- report "$tmp/v3.dat"
check "version 3: stat refuses it" 1 '' \
	'^ktrace: .*/v3\.dat: trace format version 3; this ktrace reads versions 1 to 2$' \
	-- stat "$tmp/v3.dat"
check "version 3 in the trace record only: refused" 1 '' \
	'^ktrace: .*/v3m\.dat: trace format version 3; this ktrace reads versions 1 to 2$' \
	-- report "$tmp/v3m.dat"

# Version 2: block requests described once and named by key, on two CPUs.
"$mk" "$tmp/bk.dat" "$tmp/bk.exp" blockkeys
cp "$(dirname "$0")/blockkeys.want" "$tmp/bk.want"
fmt_report "version 2: keys, flags and saturated values, as the ascii pipe prints them" \
	"$tmp/bk.want" all -- report "$tmp/bk.dat"
sort -s -k1,1n "$tmp/bk.exp" >"$tmp/bk.exp.sorted"
fmt_report "version 2: the lines mktrace expects" "$tmp/bk.exp.sorted" all \
	-- report "$tmp/bk.dat"

# A filter leaves out the describing records, not what they describe.
grep ' block:rq_issue ' "$tmp/bk.want" >"$tmp/bk.issue"
fmt_report "version 2: report -e block:rq_issue still names the requests" \
	"$tmp/bk.issue" all -- report -e block:rq_issue "$tmp/bk.dat"
awk '$2 == 1' "$tmp/bk.want" >"$tmp/bk.cpu1"
fmt_report "version 2: report -c 1 names requests described on CPU 0" \
	"$tmp/bk.cpu1" all -- report -c 1 "$tmp/bk.dat"

# report -r merges twice (to find the trigger, then to print): keys kept
# from the first pass would name requests by records after them, and keep
# a key ambiguous before its second identity.
cp "$(dirname "$0")/blockkeys-r.want" "$tmp/bkr.want"
fmt_report "version 2: report -r names what each record had before it" "$tmp/bkr.want" \
	"$tmp/bkr.want" -- report -r -e block:rq_issue "$tmp/bk.dat"

# JSON: the describing record's fields as the event's own, the rest as strings.
cp "$(dirname "$0")/blockkeys-json.want" "$tmp/bkj.want"
fmt_report "version 2: report --json" "$tmp/bkj.want" "$tmp/bkj.want" \
	-- report --json "$tmp/bk.dat"
check "version 2: stat counts the request events" 0 '^  block:rq_issue 5$' '' \
	-- stat "$tmp/bk.dat"

# last_line NAME WANT KB SECONDS -- ARGS: ktrace ARGS, under ulimit -v KB
# and within SECONDS, exits 0 with nothing on stderr, its last line WANT's.
last_line() {
	name=$1 want=$2 kb=$3 secs=$4
	shift 5
	n=$((n + 1))
	# shellcheck disable=SC3045 # dash and bash have ulimit -v
	{ (ulimit -v "$kb" && timeout "$secs" "$bin" "$@"; echo $? >"$tmp/fmt.st") |
		tail -n 1 >"$tmp/fmt.out"; } 2>"$tmp/fmt.err"
	st=$(cat "$tmp/fmt.st")
	fmt_verdict "$name" "$want" "$st"
}

# 400000 requests described then ended: ended keys leave the table, whose
# memory is that of the requests in flight, not of all the requests.
"$mk" "$tmp/ke.dat" "$tmp/ke.exp" manykeys 400000 ended
last_line "keys: ended requests are deleted, report runs in 3 x the file + 50 MB" \
	"$tmp/ke.exp" $(($(wc -c <"$tmp/ke.dat") * 3 / 1024 + 51200)) 10 -- report "$tmp/ke.dat"
# 100000 keys that would share a few slots of a fixed multiplicative hash:
# the slot hash, seeded per run, spreads them and report stays linear.
"$mk" "$tmp/kc.dat" "$tmp/kc.exp" manykeys 100000 collide
last_line "keys: keys forged to collide do not make report quadratic" \
	"$tmp/kc.exp" 1048576 3 -- report "$tmp/kc.dat"
# A KEY_END field forgets what it named before the next field is printed,
# in text and JSON alike.
"$mk" "$tmp/k1.dat" "$tmp/k1.exp" manykeys 1 ended
last_line "keys: a KEY field after a KEY_END field of its key names nothing" \
	"$tmp/k1.exp" 1048576 10 -- report "$tmp/k1.dat"
check "keys: the same in JSON" 0 \
	'"event":"test:end2","fields":\{"id":"0x0","again":"unknown:0x[0-9a-f]{8}"\}' '' \
	-- report --json "$tmp/k1.dat"
# report -r's first pass (looking for the trigger) out of memory: said so,
# not taken for a trace without a trigger record.  400000 keys in flight
# need 48 MB of slots; the file's streams, twice its size.
"$mk" "$tmp/kr.dat" "$tmp/kr.exp" manykeys 400000 collide
n=$((n + 1))
# shellcheck disable=SC3045 # dash and bash have ulimit -v
(ulimit -v $(($(wc -c <"$tmp/kr.dat") * 2 / 1024 + 12288)) &&
	"$bin" report -r "$tmp/kr.dat" >"$tmp/fmt.out" 2>"$tmp/fmt.err"; echo $? >"$tmp/fmt.st")
want="ktrace report: $tmp/kr.dat: out of memory looking for the trigger"
if [ "$(cat "$tmp/fmt.st")" -eq 1 ] && [ ! -s "$tmp/fmt.out" ] &&
   [ "$(cat "$tmp/fmt.err")" = "$want" ]; then
	echo "ok $n report -r: the first pass out of memory is an error"
else
	echo "not ok $n report -r: the first pass out of memory is an error"
	echo "# exit status $(cat "$tmp/fmt.st")"
	sed 's/^/# stderr: /' "$tmp/fmt.err"
	fails=$((fails + 1))
fi

# Metadata the uapi does not allow: the event ignored, said once each; an
# enum table cut short names only the values read; tables announcing more
# values than they hold allocate for those read only (under 100 MB); a
# subbuffer of a later version named so.
"$mk" "$tmp/bm.dat" "$tmp/bm.exp" badmeta
# shellcheck disable=SC3045 # dash and bash have ulimit -v
(ulimit -v 102400 && "$bin" report "$tmp/bm.dat" >"$tmp/bm.out" 2>"$tmp/bm.err"
	echo $? >"$tmp/fmt.st")
# bm_check NAME WANT GOT: the lines of file WANT are exactly those of GOT.
bm_check() {
	n=$((n + 1))
	if [ "$(cat "$tmp/fmt.st")" -eq 0 ] && cmp -s "$2" "$3"; then
		echo "ok $n metadata: $1"
	else
		echo "not ok $n metadata: $1"
		echo "# exit status $(cat "$tmp/fmt.st")"
		diff "$2" "$3" | cut -c 1-200 | sed 's/^/# /'
		fails=$((fails + 1))
	fi
}
cat >"$tmp/bm.want" <<EOT
ktrace: $tmp/bm.dat: offset 460: warning: event test:zero ignored: field z of offset 0, size 0
ktrace: $tmp/bm.dat: offset 684: warning: event test:past ignored: field w of offset 8, size 30
ktrace: $tmp/bm.dat: offset 812: warning: event test:three ignored: field a of offset 0, size 3
EOT
grep ' ignored: field ' "$tmp/bm.err" >"$tmp/bm.got"
bm_check "fields of 0 bits, past bit 31, of 3 bytes: the event ignored" \
	"$tmp/bm.want" "$tmp/bm.got"
grep ' unknown:' "$tmp/bm.exp" >"$tmp/bm.want"
grep ' unknown:' "$tmp/bm.out" >"$tmp/bm.got"
bm_check "... and its records unknown" "$tmp/bm.want" "$tmp/bm.got"
grep ' test:cut ' "$tmp/bm.exp" >"$tmp/bm.want"
grep ' test:cut ' "$tmp/bm.out" >"$tmp/bm.got"
bm_check "an enum table cut short: 0 has no name" "$tmp/bm.want" "$tmp/bm.got"
grep ' test:wide ' "$tmp/bm.exp" >"$tmp/bm.want"
grep ' test:wide ' "$tmp/bm.out" >"$tmp/bm.got"
bm_check "100 tables announcing 65535 values each fit in 100 MB" "$tmp/bm.want" "$tmp/bm.got"
printf 'ktrace: %s: offset 975444: warning: high CPU 0: %s\n' "$tmp/bm.dat" \
	"subbuffer of format version 3, looking for the next" >"$tmp/bm.want"
grep -v ' ignored: field ' "$tmp/bm.err" >"$tmp/bm.got"
bm_check "a subbuffer of a later version named so" "$tmp/bm.want" "$tmp/bm.got"
