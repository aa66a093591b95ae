# SPDX-License-Identifier: GPL-2.0
# Several traces at once (sourced by run.sh): merged on CLOCK_REALTIME from
# each trace's clock reference, plus --offset, with a HOST column.

# Two machines whose clocks read the same CLOCK_MONOTONIC times, B's
# CLOCK_REALTIME reference 1 s after A's: B's events are A's, 1 s later.
MKTRACE_HOST=hostA "$mk" "$tmp/ma.dat" "$tmp/ma.exp" clock 5000000000 1700000000123456789
MKTRACE_HOST=hostB "$mk" "$tmp/mb.dat" "$tmp/mb.exp" clock 5000000000 1700000001123456789
"$bin" report "$tmp/ma.dat" >"$tmp/ma.rep"
"$bin" report "$tmp/ma.dat" "$tmp/mb.dat" >"$tmp/m.rep" 2>"$tmp/m.err"
st=$?
na=$(wc -l <"$tmp/ma.rep")
# Every line: time, host, then what report prints of it alone.
python3 - "$tmp/ma.rep" "$tmp/m.rep" >"$tmp/m.why" 2>&1 <<'PY'
import sys
one = open(sys.argv[1]).read().splitlines()
got = open(sys.argv[2]).read().splitlines()
assert len(one) > 10 and len(got) == 2 * len(one), (len(one), len(got))
def ns(w):
    s, f = w.split(".")
    return int(s) * 10**9 + int(f)
real = [ns(l.split(" ")[0]) for l in got]
assert real == sorted(real), "times go back"
rest = {"hostA": [], "hostB": []}
for l in got:
    w = l.split(" ", 2)
    rest[w[1]].append((ns(w[0]), w[2]))
# A alone prints CLOCK_MONOTONIC times; merged, CLOCK_REALTIME = mono - 5 s
# + 1700000000.123456789 (A), + 1 s more (B).
for host, off in (("hostA", 1700000000123456789), ("hostB", 1700000001123456789)):
    want = []
    for l in one:
        t, r = l.split(" ", 1)
        want.append((ns(t) - 5 * 10**9 + off, r))
    assert rest[host] == want, (host, rest[host][:2], want[:2])
print("ok")
PY
[ "$st" = 0 ] && [ ! -s "$tmp/m.err" ] && grep -qx ok "$tmp/m.why"
result "report A B: one time order, a HOST column, CLOCK_REALTIME times of each \
($((2 * na)) lines)" $?
[ "$st" = 0 ] || sed 's/^/# /' "$tmp/m.err"
grep -qx ok "$tmp/m.why" || sed 's/^/# /' "$tmp/m.why"

cut -d' ' -f1 "$tmp/m.rep" | sort -c -n
result "report A B: the time column is sorted (sort -c)" $?

# --offset B=-1s: B's events fall on A's, each after A's (ties go to the
# earlier file): the hosts alternate.
"$bin" report --offset "$tmp/mb.dat=-1000000000" "$tmp/ma.dat" "$tmp/mb.dat" >"$tmp/mo.rep"
[ "$(cut -d' ' -f2 "$tmp/mo.rep" | uniq -c | awk '$1 != 1' | wc -l)" = 0 ] &&
	[ "$(cut -d' ' -f1,3- "$tmp/mo.rep" | uniq -d | wc -l)" = "$na" ] &&
	[ "$(sed -n 1p "$tmp/mo.rep" | cut -d' ' -f2)" = hostA ]
result "report --offset B=-1s: B's events on A's times, alternating A then B" $?

"$bin" report --json "$tmp/ma.dat" "$tmp/mb.dat" | python3 -c '
import json, sys
hosts = [json.loads(l)["host"] for l in sys.stdin]
sys.exit(not (hosts.count("hostA") == hosts.count("hostB") == int(sys.argv[1])))' "$na"
result "report --json A B: a host member in every object" $?

check "report --offset without '=': a usage error" 2 '' \
	"bad --offset 'x': want FILE=NANOSECONDS" -- report --offset x "$tmp/ma.dat" "$tmp/mb.dat"
check "report --offset F=1s: a usage error" 2 '' \
	"bad --offset '$tmp/ma.dat=1s'" \
	-- report --offset "$tmp/ma.dat=1s" "$tmp/ma.dat" "$tmp/mb.dat"
check "report --offset of a file not given: a usage error" 2 '' \
	"report: --offset $tmp/nosuch.dat: not a file of the command" \
	-- report --offset "$tmp/nosuch.dat=5" "$tmp/ma.dat" "$tmp/mb.dat"
"$mk" "$tmp/mn.dat" "$tmp/mn.exp" norealtime
check "report: a trace without CLOCK_REALTIME cannot be merged" 1 '' \
	"mn.dat: no CLOCK_REALTIME reference in the trace's clock record: cannot merge" \
	-- report "$tmp/ma.dat" "$tmp/mn.dat"
check "report A nosuch: the missing file named" 1 '' "nosuch.dat: No such file" \
	-- report "$tmp/ma.dat" "$tmp/nosuch.dat"
# One file with --offset: its times move by the offset, the rest stays.
"$bin" report --offset "$tmp/ma.dat=1000" "$tmp/ma.dat" >"$tmp/m1"
python3 -c '
import sys
a = open(sys.argv[1]).read().splitlines()
b = open(sys.argv[2]).read().splitlines()
def ns(w):
    s, f = w.split(".")
    return int(s) * 10**9 + int(f)
assert len(a) == len(b) > 10, (len(a), len(b))
for x, y in zip(a, b):
    tx, rx = x.split(" ", 1)
    ty, ry = y.split(" ", 1)
    assert rx == ry and ns(ty) == ns(tx) + 1000, (x, y)
' "$tmp/ma.rep" "$tmp/m1" >"$tmp/m1.why" 2>&1
result "report --offset F=1000 with one file: every time 1000 ns later, the rest the same" $? \
	"$tmp/m1.why"
"$bin" report --realtime --offset "$tmp/ma.dat=-1000000000" "$tmp/ma.dat" | head -n 1 |
	cut -d' ' -f1 >"$tmp/m2"
[ "$(cat "$tmp/m2")" = "$(head -n 1 "$tmp/m.rep" | cut -d' ' -f1 |
	awk -F. '{ printf "%d.%s", $1 - 1, $2 }')" ]
result "report --realtime --offset F=-1s with one file: one second earlier" $?
check "report --offset of one file twice: a usage error" 2 '' \
	"report: --offset $tmp/ma.dat: given twice" \
	-- report --offset "$tmp/ma.dat=1" --offset "$tmp/ma.dat=2" "$tmp/ma.dat" "$tmp/mb.dat"
