# SPDX-License-Identifier: GPL-2.0
# Sourced by run.sh: a trace file cut short (an attachment that hit a size
# limit, a full disk) decodes what it holds and says what is missing.
# The file is written by ktrace extract from a fake control directory
# (as t-save.sh's: the streams of mktrace's synthetic trace), then cut
# at many points: each cut file either says that nothing can be decoded
# (a cut before the end of the metadata, which extract writes first, or
# before the first event), or decodes what it holds: on each CPU, its lines
# are the first lines of the whole file's report on that CPU.

cf=$tmp/cutfake
"$mk" "$tmp/cf.dat" "$tmp/cf.exp" dir "$cf"
echo 0 >"$cf/enable"
printf 'state stopped\ncpu0 medium events=5 dropped=0 overwritten=0\n' >"$cf/stats"
printf '7 init\n42 stale\n99 saved\n' >"$cf/comms"
: >"$cf/triggers"
KTRACE_DIR=$tmp/cutfake "$bin" extract -o "$tmp/whole.dat" 2>/dev/null
"$bin" report "$tmp/whole.dat" >"$tmp/whole.rep" 2>"$tmp/whole.err"
result "cut: the whole file decodes without a word ($(wc -l <"$tmp/whole.rep") lines)" \
	"$([ -s "$tmp/whole.rep" ] && [ ! -s "$tmp/whole.err" ]; echo $?)" "$tmp/whole.err"

# cpu_prefix CUT WHOLE: every CPU's lines of CUT are the first of WHOLE's.
cpu_prefix() {
	for c in $(awk '{ print $2 }' "$2" | sort -u); do
		awk -v c="$c" '$2 == c' "$1" >"$tmp/cp.cut"
		awk -v c="$c" '$2 == c' "$2" | head -n "$(wc -l <"$tmp/cp.cut")" >"$tmp/cp.whole"
		cmp -s "$tmp/cp.cut" "$tmp/cp.whole" || return 1
	done
	awk '{ print $2 }' "$1" | sort -u | while read -r c; do
		grep -q "^[^ ]* $c " "$2" || exit 1
	done
}

size=$(wc -c <"$tmp/whole.dat")
cuts=0 bad=0 decoded=0 nothing=0 last_nothing=0 first_decoded=0
cut=16
while [ "$cut" -lt "$size" ]; do
	head -c "$cut" "$tmp/whole.dat" >"$tmp/cut.dat"
	"$bin" report "$tmp/cut.dat" >"$tmp/cut.rep" 2>"$tmp/cut.err"
	st=$?
	cuts=$((cuts + 1))
	if [ $st -eq 1 ] && [ ! -s "$tmp/cut.rep" ] &&
	   grep -Eq "cut short at byte $cut, before \
(the end of the trace's metadata|its first event): nothing can be decoded" \
		"$tmp/cut.err"; then
		nothing=$((nothing + 1))
		last_nothing=$cut
	elif [ $st -eq 0 ] &&
		grep -q "cut short at byte $cut (no end section): decoding what it holds" \
		"$tmp/cut.err" && ! grep -q '^unknown\|warning: .*section' "$tmp/cut.err" &&
		cpu_prefix "$tmp/cut.rep" "$tmp/whole.rep"; then
		[ -s "$tmp/cut.rep" ] && decoded=$((decoded + 1))
		[ $first_decoded -gt 0 ] || first_decoded=$cut
	else
		bad=$((bad + 1))
		[ $bad -le 3 ] && {
			echo "# cut at $cut: exit $st"; sed 's/^/# stderr: /' "$tmp/cut.err"
			diff "$tmp/cut.rep" "$tmp/whole.rep" | head -n 5 | sed 's/^/# /'; }
	fi
	# Every 24 bytes near the start (the metadata), then every 797 bytes.
	if [ "$cut" -lt 2400 ]; then cut=$((cut + 24)); else cut=$((cut + 797)); fi
done
result "cut: $cuts cut points: $decoded decode a prefix of each CPU's lines, $nothing (to byte \
$last_nothing: before the metadata or the first event) say nothing can be decoded, $bad wrong" \
	"$([ $bad -eq 0 ] && [ $decoded -gt 60 ] && [ $last_nothing -lt $first_decoded ]; echo $?)"
# The last bytes: everything but the symbols and the end.
for back in 1 16; do
	head -c $((size - back)) "$tmp/whole.dat" >"$tmp/cut.dat"
	"$bin" report "$tmp/cut.dat" >"$tmp/cut.rep" 2>"$tmp/cut.err"
	result "cut: $back bytes short: every line, and the end section said missing" \
		"$([ $? -eq 0 ] && cmp -s "$tmp/cut.rep" "$tmp/whole.rep" &&
		   grep -q "cut short at byte $((size - back)) (no end section)" \
			"$tmp/cut.err"; echo $?)" \
		"$tmp/cut.err"
done
# What is missing is named: a cut in the streams lacks the stats.
head -c $((size / 2)) "$tmp/whole.dat" >"$tmp/cut.dat"
check "cut: the sections missing are named" 0 '^5.000000256 0 ' \
	'the events after the cut are missing; not in it: the enabled events, '\
'the stats, the symbols$' \
	-- report "$tmp/cut.dat"
# An analysis of a file cut before its metadata says why, not "no event".
head -c 100 "$tmp/whole.dat" >"$tmp/cut.dat"
check "cut: latency on a file cut before its metadata: exit 1, says so" 1 '' \
	'cut short at byte 100, before the end of the trace.s metadata' \
	-- latency block "$tmp/cut.dat"
# A file of an earlier tool (no end flag) is read as before, whole.
"$bin" report "$tmp/cf.dat" >"$tmp/old.rep" 2>"$tmp/old.err"
result "cut: a file without the end flag (earlier tools) reads as before" \
	"$(cmp -s "$tmp/old.rep" "$tmp/whole.rep" && [ ! -s "$tmp/old.err" ]; echo $?)" \
	"$tmp/old.err"
