# SPDX-License-Identifier: GPL-2.0
# Several machines of a cluster group (sourced by run.sh): report aligns
# their traces from the ktrace:cluster records of shared messages, not on
# CLOCK_REALTIME alone, and says per machine the offset, the drift and the
# error.  mktrace sets B's CLOCK_REALTIME 5 s ahead of A's and its clock
# 50 ppm fast; both have a test:sync record at the same true instant.

# cl_sync REPORT [N]: |A's test:sync n=N (1) time - B's| in ns.
cl_sync() {
	# Seconds and nanoseconds apart: 1.7e18 ns is beyond awk's doubles.
	awk -v n="n=${2:-1}" '$5 == "test:sync" && $6 == n {
		split($1, p, "."); s[$2] = p[1]; ns[$2] = p[2] + 0 }
	     END { d = (s["hostA"] - s["hostB"]) * 1000000000 + ns["hostA"] - ns["hostB"]
		   printf "%.0f\n", (d < 0 ? -d : d) }' "$1"
}

# cl_err STDERR: the error said, in ns.
cl_err() {
	sed -n 's/.* error \([0-9.]*\) us .*/\1/p' "$1" | awk '{ printf "%d\n", $1 * 1000 }'
}

want='offset -5\.000[0-9]* s, drift -(49|50|51)\.[0-9]* ppm, error'
for mode in rbs twoway tail; do
	"$mk" "$tmp/ca-$mode.dat" /dev/null cluster hostA 1 0 0 $mode
	"$mk" "$tmp/cb-$mode.dat" /dev/null cluster hostB 2 5000000000 50000 $mode
	"$bin" report "$tmp/ca-$mode.dat" "$tmp/cb-$mode.dat" >"$tmp/c-$mode.rep" \
		2>"$tmp/c-$mode.err"
	st=$?
	d=$(cl_sync "$tmp/c-$mode.rep")
	e=$(cl_err "$tmp/c-$mode.err" | head -1)
	[ "$st" = 0 ] && [ -n "$e" ] && [ "$d" -le "$e" ] && [ "$e" -le 100000 ] &&
		grep -Eq "^ktrace report: hostB \(.*cb-$mode.dat\) on hostA \(.*ca-$mode.dat\): \
$want" "$tmp/c-$mode.err" && [ "$(wc -l <"$tmp/c-$mode.err")" = 1 ]
	result "report A B, $mode: B 5 s, 50 ppm ahead aligned, one instant ${d} ns apart, \
within the error said (${e} ns)" $? "$tmp/c-$mode.err"
	# The lines in time order all the same.
	cut -d' ' -f1 "$tmp/c-$mode.rep" | sort -c -n
	result "report A B, $mode: the aligned time column is sorted" $?
done

# cl_far MODE: report A B of mktrace's MODE, 5 s and 50 ppm apart; the
# test:sync records 5 s from the messages (n=2, n=3) must be within the
# error said, over the whole trace, whatever the fit did with the samples.
cl_far() {
	"$mk" "$tmp/ca-$1.dat" /dev/null cluster hostA 1 0 0 "$1"
	"$mk" "$tmp/cb-$1.dat" /dev/null cluster hostB 2 5000000000 50000 "$1"
	"$bin" report "$tmp/ca-$1.dat" "$tmp/cb-$1.dat" >"$tmp/c-$1.rep" 2>"$tmp/c-$1.err" ||
		return 1
	e=$(cl_err "$tmp/c-$1.err" | head -1)
	d1=$(cl_sync "$tmp/c-$1.rep" 1)
	d2=$(cl_sync "$tmp/c-$1.rep" 2)
	d3=$(cl_sync "$tmp/c-$1.rep" 3)
	[ -n "$e" ] && [ "$d1" -le "$e" ] && [ "$d2" -le "$e" ] && [ "$d3" -le "$e" ]
}

# Two-way bounds at 4 to 6 s only, their middles tilted by asymmetric
# delays: the band along the fitted slope bounds nothing 4 s away; the
# error said must cover the whole trace (every line the bounds allow).
cl_far skew
result "report A B, two-way 4 to 6 s, tilted: the ends of the trace within the error \
(${d1}, ${d2}, ${d3} ns apart, error ${e} ns)" $? "$tmp/c-skew.err"
# Three messages each way over 0.2 s: no drift of thousands of ppm
# extrapolated over 5 s: 500 ppm at most, and the error says what the
# slopes the bounds allow do at the trace's ends.
cl_far short && grep -Eq " drift [-+]([0-4]?[0-9]?[0-9]|500)\.[0-9]+ ppm, " "$tmp/c-short.err"
result "report A B, two-way over 0.2 s: 500 ppm at most, the ends within the error \
(${d1}, ${d2}, ${d3} ns apart, error ${e} ns)" $? "$tmp/c-short.err"
# Three beacons over 0.2 s: an offset only.
cl_far rbs-short && grep -q " drift +0\.000 ppm, " "$tmp/c-rbs-short.err"
result "report A B, 3 beacons over 0.2 s: offset only, the ends within the error \
(${d1}, ${d2}, ${d3} ns apart, error ${e} ns)" $? "$tmp/c-rbs-short.err"

# Beacons B always receives 300 us after A, with a jitter of ns: the
# reference broadcasts' residuals are tiny but their bias is not bounded;
# the two-way bounds are, and are preferred.
"$mk" "$tmp/ca-biased.dat" /dev/null cluster hostA 1 0 0 biased
"$mk" "$tmp/cb-biased.dat" /dev/null cluster hostB 2 5000000000 50000 biased
"$bin" report "$tmp/ca-biased.dat" "$tmp/cb-biased.dat" >"$tmp/c-biased.rep" 2>"$tmp/c-biased.err"
d=$(cl_sync "$tmp/c-biased.rep")
e=$(cl_err "$tmp/c-biased.err" | head -1)
[ -n "$e" ] && [ "$d" -le "$e" ] && grep -q "(two-way bounds: 100+100)$" "$tmp/c-biased.err"
result "report A B, biased beacons: two-way bounds preferred (${d} ns apart, error ${e} ns)" \
	$? "$tmp/c-biased.err"

# B's CLOCK_REALTIME 1.7e18 ns behind A's, every beacon 50 us late to
# both: exact in integers, where doubles of 1.7e18 ns are 256 ns apart.
"$mk" "$tmp/ca-exact.dat" /dev/null cluster hostA 1 0 0 exact
"$mk" "$tmp/cb-exact.dat" /dev/null cluster hostB 2 -1699999995000000000 0 exact
"$bin" report "$tmp/ca-exact.dat" "$tmp/cb-exact.dat" >"$tmp/c-exact.rep" 2>"$tmp/c-exact.err"
d=$(cl_sync "$tmp/c-exact.rep")
[ "$d" = 0 ] &&
	grep -q "offset +1699999995\.000000000 s, drift +0\.000 ppm, error 0\.000 us \
(reference broadcasts: 100)$" "$tmp/c-exact.err"
result "report A B 1.7e18 ns apart: aligned to the ns (${d} ns apart)" $? "$tmp/c-exact.err"

# B's clock stepped 1 ms at 5 s: no line passes every bound; said, the
# error what the worst message is off by (about half the step: no bound,
# a line cannot follow a step), the instant at the step within the step.
"$mk" "$tmp/ca-stepped.dat" /dev/null cluster hostA 1 0 0 stepped
"$mk" "$tmp/cb-stepped.dat" /dev/null cluster hostB 2 5000000000 50000 stepped
"$bin" report "$tmp/ca-stepped.dat" "$tmp/cb-stepped.dat" >"$tmp/c-stepped.rep" \
	2>"$tmp/c-stepped.err"
d=$(cl_sync "$tmp/c-stepped.rep")
e=$(cl_err "$tmp/c-stepped.err" | head -1)
[ -n "$e" ] && [ "$d" -le 1000000 ] && [ "$e" -ge 400000 ] && [ "$e" -le 2000000 ] &&
	grep -q "(two-way bounds, crossed: 100+100)$" "$tmp/c-stepped.err"
result "report A B, B's clock stepped 1 ms: crossed, said (${d} ns apart, error ${e} ns)" \
	$? "$tmp/c-stepped.err"

# Both kinds of messages: two-way, a bound, preferred.
"$mk" "$tmp/ca-both.dat" /dev/null cluster hostA 1 0 0 both
"$mk" "$tmp/cb-both.dat" /dev/null cluster hostB 2 5000000000 50000 both
"$bin" report "$tmp/ca-both.dat" "$tmp/cb-both.dat" >"$tmp/c-both.rep" 2>"$tmp/c-both.err"
d=$(cl_sync "$tmp/c-both.rep")
e=$(cl_err "$tmp/c-both.err" | head -1)
[ -n "$e" ] && [ "$d" -le "$e" ] && [ "$e" -lt 30000 ] &&
	grep -q "(two-way bounds: 100+100)$" "$tmp/c-both.err" &&
	grep -q "^ktrace report: hostB by reference broadcasts instead: \
offset -5\.000[0-9]* s, .* error 62\.4[0-9]* us$" "$tmp/c-both.err"
result "report A B, both kinds: two-way preferred (${d} ns apart, error ${e} ns)" \
	$? "$tmp/c-both.err"

# B first: A is aligned on B, 5 s back.
"$bin" report "$tmp/cb-rbs.dat" "$tmp/ca-rbs.dat" >"$tmp/c-ba.rep" 2>"$tmp/c-ba.err"
d=$(cl_sync "$tmp/c-ba.rep")
e=$(cl_err "$tmp/c-ba.err")
[ -n "$e" ] && [ "$d" -le "$e" ] &&
	grep -q "hostA (.*) on hostB (.*): offset +5\.000" "$tmp/c-ba.err"
result "report B A: A aligned on B, offset +5 s (${d} ns apart, error ${e} ns)" $? "$tmp/c-ba.err"

# No cluster record in either: CLOCK_REALTIME as before, nothing said.
"$mk" "$tmp/ca-none.dat" /dev/null cluster hostA 1 0 0 none
"$mk" "$tmp/cb-none.dat" /dev/null cluster hostB 2 5000000000 50000 none
"$bin" report "$tmp/ca-none.dat" "$tmp/cb-none.dat" >"$tmp/c-none.rep" 2>"$tmp/c-none.err"
d=$(cl_sync "$tmp/c-none.rep")
[ ! -s "$tmp/c-none.err" ] && [ "$d" = 5000250025 ]
result "report A B without cluster records: CLOCK_REALTIME, 5.000250025 s apart, \
nothing said" $? "$tmp/c-none.err"

# Records in one only: said, and CLOCK_REALTIME kept.
"$bin" report "$tmp/ca-rbs.dat" "$tmp/cb-none.dat" >"$tmp/c-half.rep" 2>"$tmp/c-half.err"
d=$(cl_sync "$tmp/c-half.rep")
grep -q "^ktrace report: hostB (.*) and hostA (.*): no cluster message in both: \
CLOCK_REALTIME as it is$" "$tmp/c-half.err" && [ "$d" = 5000250025 ]
result "report A B, cluster records in A only: says so, CLOCK_REALTIME kept" $? "$tmp/c-half.err"
