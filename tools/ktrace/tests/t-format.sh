# SPDX-License-Identifier: GPL-2.0
# Sourced by run.sh: the trace format's versions.  Version 1 traces decode
# as before; a trace of a later version is refused; version 2's displays
# (flag tables, keys, saturated values) print as the kernel's ascii pipe
# prints them, in text and JSON.

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
	if [ "$st" -eq 0 ] && [ ! -s "$tmp/fmt.err" ] && [ -s "$want" ] &&
	   cmp -s "$want" "$tmp/fmt.out"; then
		echo "ok $n $name ($(wc -l <"$want") lines)"
	else
		echo "not ok $n $name"
		echo "# exit status $st"
		diff "$want" "$tmp/fmt.out" | sed 's/^/# /'
		sed 's/^/# stderr: /' "$tmp/fmt.err"
		fails=$((fails + 1))
	fi
}

# Version 1: the corpus (recorded by a version 1 kernel) prints what it
# printed before version 2, byte for byte: report, report --json, stat.
corpus=$(dirname "$0")/corpus
while read -r sum file args; do
	n=$((n + 1))
	# shellcheck disable=SC2086 # the command and its options, split
	got=$("$bin" $args "$corpus/$file" 2>"$tmp/fmt.err" | sha256sum | cut -d' ' -f1)
	if [ "$got" = "$sum" ] && [ ! -s "$tmp/fmt.err" ]; then
		echo "ok $n version 1: $args $file as before"
	else
		echo "not ok $n version 1: $args $file as before"
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
