# SPDX-License-Identifier: GPL-2.0
# Sourced by run.sh: ktrace slice, a time window of a trace as a trace
# file; report of the slice must print the lines of the window exactly as
# report of the whole trace prints them (times, tasks, names, keys).

# window WHOLE A B: the lines of report's output WHOLE from A to B seconds.
window() {
	awk -v a="$2" -v b="$3" '$1 + 0 >= a + 0 && $1 + 0 <= b + 0' "$1"
}

# slice_pairs NAME DAT STEP: slice DAT at every pair of its event times (every
# STEP-th time as a start and as an end); report of each slice, within its
# window, must equal the window of the whole.  Sets sl_pairs and sl_bad.
slice_pairs() {
	"$bin" report "$2" >"$tmp/sl-whole" 2>/dev/null
	awk '{ print $1 }' "$tmp/sl-whole" | sort -u -n | awk -v s="$3" 'NR % s == 1 || s == 1' \
		>"$tmp/sl-times"
	sl_pairs=0 sl_bad=0
	for a in $(cat "$tmp/sl-times"); do
		for b in $(cat "$tmp/sl-times"); do
			awk -v a="$a" -v b="$b" 'BEGIN { exit !(a + 0 <= b + 0) }' || continue
			sl_pairs=$((sl_pairs + 1))
			window "$tmp/sl-whole" "$a" "$b" >"$tmp/sl-want"
			if ! "$bin" slice --from "$a" --to "$b" -o "$tmp/sl-cut.dat" "$2" \
				2>"$tmp/sl-err" ||
			   ! "$bin" report "$tmp/sl-cut.dat" >"$tmp/sl-got" 2>>"$tmp/sl-err" ||
			   ! window "$tmp/sl-got" "$a" "$b" | cmp -s - "$tmp/sl-want"; then
				[ "$sl_bad" -gt 0 ] || {
					echo "# $1: --from $a --to $b:"
					window "$tmp/sl-got" "$a" "$b" | diff "$tmp/sl-want" - |
						head -n 10 | sed 's/^/# /'
					sed 's/^/# stderr: /' "$tmp/sl-err"
				}
				sl_bad=$((sl_bad + 1))
			fi
		done
	done
}

"$mk" "$tmp/sl.dat" "$tmp/sl.exp"
slice_pairs "synthetic" "$tmp/sl.dat" 1
result "slice: report of each of $sl_pairs windows of the synthetic trace \
is those lines of the whole" \
	"$([ "$sl_pairs" -gt 100 ] && [ "$sl_bad" -eq 0 ]; echo $?)"

# The whole of a slice's report, nothing before or after the window.
"$bin" report "$tmp/sl.dat" >"$tmp/sl-whole"
"$bin" slice --from 32.487797350 --to 32.487797862 -o "$tmp/sl-n.dat" "$tmp/sl.dat" \
	2>"$tmp/sl-n.err"
st=$?
"$bin" report "$tmp/sl-n.dat" >"$tmp/sl-n.got" 2>&1
printf '%s\n' '32.487797350 1 learned-42 foo:bits h=0x5 s=0 e=1' \
	'32.487797862 1 learned-42 unknown:high id=9 payload=0x2a' >"$tmp/sl-n.want"
diff "$tmp/sl-n.want" "$tmp/sl-n.got" >"$tmp/sl-n.diff"
result "slice: the running task (a switch before the window) and its learned name kept" \
	"$([ $st -eq 0 ] && cmp -s "$tmp/sl-n.want" "$tmp/sl-n.got"; echo $?)" "$tmp/sl-n.diff"
grep -q '^ktrace slice: 2 events in ' "$tmp/sl-n.err"
result "slice: says how many events it kept" $? "$tmp/sl-n.err"
"$bin" stat "$tmp/sl-n.dat" >"$tmp/sl-n.stat" 2>&1
grep -qx 'events: 2' "$tmp/sl-n.stat" && grep -qx '  foo:bits 1' "$tmp/sl-n.stat" &&
	grep -qx '  unknown 1' "$tmp/sl-n.stat"
result "slice: stat of the slice counts its 2 events, 1 foo:bits" $? "$tmp/sl-n.stat"

# Keys: the block events of version 2 name their device by a key that a
# description before the window gave.
"$mk" "$tmp/sl-k.dat" "$tmp/sl-k.exp" blockkeys
slice_pairs "blockkeys" "$tmp/sl-k.dat" 3
result "slice: $sl_pairs windows of a trace with keys: the keys name what they named in the whole" \
	"$([ "$sl_pairs" -gt 50 ] && [ "$sl_bad" -eq 0 ]; echo $?)"

# The headers of a slice: readers count a loss where the sequence skips
# or the drops grow.  CPU 0 of this trace has its descriptions in
# subbuffer 0; in 1 (50 drops while it was the newest) a description at
# 5.000014643, then a record at 5.000014848; the rest in 2: no window may
# show a gap the source did not have; a window from subbuffer 1 counts its
# 50 drops, also from its second record (its description kept from before
# the window, in the same subbuffer), and one from 2 none.
MKTRACE_SPLIT=1 "$mk" "$tmp/sl-s.dat" "$tmp/sl-s.exp" blockkeys
"$bin" report "$tmp/sl-s.dat" 2>/dev/null | awk '{ print $1 }' | sort -u -n >"$tmp/sl-stimes"
sl_pairs=0 sl_bad=0
for a in $(cat "$tmp/sl-stimes"); do
	for b in $(cat "$tmp/sl-stimes"); do
		awk -v a="$a" -v b="$b" 'BEGIN { exit !(a + 0 <= b + 0) }' || continue
		sl_pairs=$((sl_pairs + 1))
		"$bin" slice --from "$a" --to "$b" -o "$tmp/sl-cut.dat" "$tmp/sl-s.dat" \
			2>/dev/null && "$bin" stat "$tmp/sl-cut.dat" >"$tmp/sl-st" 2>&1 &&
			! grep -qE 'gap:|lost_subbufs=[1-9]' "$tmp/sl-st" && continue
		[ "$sl_bad" -gt 0 ] || cp "$tmp/sl-st" "$tmp/sl-stbad"
		sl_bad=$((sl_bad + 1))
	done
done
result "slice: no sequence gap in any of $sl_pairs slices of a trace without one" \
	"$([ "$sl_pairs" -gt 200 ] && [ "$sl_bad" -eq 0 ]; echo $?)" "$tmp/sl-stbad"
for f in 5.000014 5.0000147 5.0000153; do
	"$bin" slice --from "$f" -o "$tmp/sl-s$f.dat" "$tmp/sl-s.dat" 2>/dev/null
	"$bin" stat "$tmp/sl-s$f.dat" 2>&1 | grep '^  cpu0 high: ' >>"$tmp/sl-sd.st"
done
printf '  cpu0 high: subbufs=3 seq=0-2 events=%s overwritten=0 lost_subbufs=0 mode=drop\n' \
	'16 dropped=50' '15 dropped=50' '14 dropped=0' | diff - "$tmp/sl-sd.st" >"$tmp/sl-sd.why"
result "slice: the drops of the window's subbuffers counted (50), not those before it" \
	$? "$tmp/sl-sd.why"
# The source's own losses stay: CPU 1 lost subbuffers 2 and 3.
"$bin" slice --from 0 -o "$tmp/sl-g.dat" "$tmp/sl.dat" 2>/dev/null
"$bin" stat "$tmp/sl-g.dat" >"$tmp/sl-g.st" 2>&1
result "slice: a gap of the source in the window stays (subbuffers 2 to 3 of CPU 1)" \
	"$(grep -q '^  cpu1 high: subbufs=3 seq=0-4 events=12 .* lost_subbufs=2 ' "$tmp/sl-g.st" &&
	   grep -q '^  gap: high CPU 1: subbuffers 2 to 3 missing' "$tmp/sl-g.st"; echo $?)" \
	"$tmp/sl-g.st"

# A name learned before the window with a newline in it: the comms section
# of the slice keeps one line per name, and report prints it as before.
MKTRACE_NAME="$(printf 'lea\nrn')" "$mk" "$tmp/sl-nl.dat" "$tmp/sl-nl.exp"
"$bin" report "$tmp/sl-nl.dat" 2>/dev/null | window - 32.487797350 32.487797862 >"$tmp/sl-nl.want"
"$bin" slice --from 32.487797350 --to 32.487797862 -o "$tmp/sl-nl2.dat" "$tmp/sl-nl.dat" \
	2>/dev/null
"$bin" report "$tmp/sl-nl2.dat" >"$tmp/sl-nl.got" 2>&1
result "slice: a name with a newline, learned before the window, as the whole prints it" \
	"$(grep -q '^32.487797350 1 lea?rn-42 foo:bits' "$tmp/sl-nl.want" &&
	   cmp -s "$tmp/sl-nl.want" "$tmp/sl-nl.got"; echo $?)" "$tmp/sl-nl.got"

# --before/--after the first trigger record (5.000001280 in the synthetic trace).
"$bin" report "$tmp/sl.dat" >"$tmp/sl-whole"
"$bin" slice --before 1us --after 3500ms -o "$tmp/sl-t.dat" "$tmp/sl.dat" 2>/dev/null
"$bin" report "$tmp/sl-t.dat" >"$tmp/sl-t.got" 2>&1
window "$tmp/sl-whole" 5.000000280 8.500001280 >"$tmp/sl-t.want"
diff "$tmp/sl-t.want" "$tmp/sl-t.got" >"$tmp/sl-t.diff"
result "slice --before 1us --after 3500ms: the $(wc -l <"$tmp/sl-t.want") lines \
around the trigger" \
	"$([ "$(wc -l <"$tmp/sl-t.want")" -eq 5 ] &&
	   cmp -s "$tmp/sl-t.want" "$tmp/sl-t.got"; echo $?)" \
	"$tmp/sl-t.diff"
"$bin" report -r "$tmp/sl-t.dat" >"$tmp/sl-t.rel" 2>&1
"$bin" report -r --from -0.000001 --to 3.5 "$tmp/sl.dat" >"$tmp/sl-t.relw" 2>&1
result "slice: report -r of the slice is report -r of the whole in that window" \
	"$(cmp -s "$tmp/sl-t.relw" "$tmp/sl-t.rel"; echo $?)"

# Compressed, both ways.
if "$bin" slice -z19 --from 5 --to 20 -o "$tmp/sl-z.dat" "$tmp/sl.dat" 2>/dev/null &&
   [ "$(od -An -tx1 -N4 "$tmp/sl-z.dat" | tr -d ' ')" = 28b52ffd ]; then
	"$bin" slice --from 5 --to 20 -o "$tmp/sl-p.dat" "$tmp/sl.dat" 2>/dev/null
	"$bin" report "$tmp/sl-z.dat" >"$tmp/sl-z.got" 2>&1
	"$bin" report "$tmp/sl-p.dat" >"$tmp/sl-p.got" 2>&1
	result "slice -z19: a zstd file, report of it that of the uncompressed slice \
($(wc -l <"$tmp/sl-p.got") lines)" \
		"$([ -s "$tmp/sl-p.got" ] && cmp -s "$tmp/sl-z.got" "$tmp/sl-p.got"; echo $?)"
	(umask 022 && "$bin" slice --from 5 -o "$tmp/sl-m.dat" "$tmp/sl.dat" 2>/dev/null &&
		"$bin" slice -z --from 5 -o "$tmp/sl-mz.dat" "$tmp/sl.dat" 2>/dev/null)
	result "slice: the file 0600 as record's, compressed or not (umask 022)" \
		"$([ "$(stat -c %a "$tmp/sl-m.dat" "$tmp/sl-mz.dat" | tr '\n' ' ')" = '600 600 ' ]
		   echo $?)"
	"$bin" slice --from 8 --to 12 -o "$tmp/sl-zz.dat" "$tmp/sl-z.dat" 2>/dev/null
	"$bin" report "$tmp/sl-zz.dat" >"$tmp/sl-zz.got" 2>&1
	result "slice of a compressed trace" \
		"$(window "$tmp/sl-whole" 8 12 | cmp -s - "$tmp/sl-zz.got"; echo $?)"
else
	result "slice -z19 writes a zstd file" 1
fi

# Bad input: a usage error (2) or a failure (1), said, nothing written.
check "slice: no window is a usage error" 2 '' 'no window: give --from and --to' \
	-- slice -o "$tmp/sl-x.dat" "$tmp/sl.dat"
check "slice: --from with --before is a usage error" 2 '' 'one or the other' \
	-- slice --from 1 --before 1s -o "$tmp/sl-x.dat" "$tmp/sl.dat"
check "slice: a bad duration" 2 '' "bad duration '10'" \
	-- slice --before 10 -o "$tmp/sl-x.dat" "$tmp/sl.dat"
check "slice: a bad time" 2 '' "bad time '1x'" \
	-- slice --from 1x -o "$tmp/sl-x.dat" "$tmp/sl.dat"
check "slice: --from after --to" 2 '' 'from is after --to' \
	-- slice --from 9 --to 8 -o "$tmp/sl-x.dat" "$tmp/sl.dat"
check "slice: a bad compression level" 2 '' "bad compression level '20': 1 to 19" \
	-- slice -z20 --from 1 -o "$tmp/sl-x.dat" "$tmp/sl.dat"
check "slice: an empty window" 1 '' 'no event in the window' \
	-- slice --from 6 --to 7 -o "$tmp/sl-x.dat" "$tmp/sl.dat"
check "slice: over its own input is refused" 2 '' 'the slice would replace the trace' \
	-- slice --from 1 -o "$tmp/sl.dat" "$tmp/sl.dat"
"$mk" "$tmp/sl-nt.dat" "$tmp/sl-nt.exp" notrigger
check "slice --before without a trigger record" 1 '' 'no trigger record \(ktrace:trigger\)' \
	-- slice --before 1s -o "$tmp/sl-x.dat" "$tmp/sl-nt.dat"
result "slice: no file left by the failures" "$(ls "$tmp"/sl-x.dat* 2>/dev/null | wc -l)"
