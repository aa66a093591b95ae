# SPDX-License-Identifier: GPL-2.0
# Host tests of the command line: report --realtime and --json, the report
# filters, stat --json, list, status -v, help, --version, the man page and
# the completion.  Sourced by run.sh: uses check, filtered, $bin, $mk,
# $tmp (with s.dat and s.exp), and counts in n and fails.

# The clock record of s.dat: CLOCK_REALTIME 1700000000.123456789 at
# CLOCK_MONOTONIC 5 s, so realtime = monotonic + 1699999995.123456789.
to_real='{ split($1, a, "."); s = a[1] + 1699999995; ns = a[2] + 123456789
	if (ns >= 1000000000) { s++; ns -= 1000000000 }
	r = $0; sub(/^[^ ]* /, "", r); printf "%d.%09d %s\n", s, ns, r }'
sort -s -k1,1n "$tmp/s.exp" | awk "$to_real" >"$tmp/rt.want"
"$bin" report --realtime "$tmp/s.dat" >"$tmp/rt.got" 2>&1
st=$?
cmp -s "$tmp/rt.want" "$tmp/rt.got"
r=$?
diff "$tmp/rt.want" "$tmp/rt.got" >"$tmp/rt.diff"
result "report --realtime: every time is monotonic + (ref_real_ns - ref_mono_ns)" \
	$((st + r)) "$tmp/rt.diff"

"$bin" report --realtime=iso "$tmp/s.dat" >"$tmp/iso.got" 2>&1
python3 - "$tmp/rt.want" "$tmp/iso.got" >"$tmp/iso.diff" 2>&1 <<'EOF'
import sys, datetime
want = open(sys.argv[1]).read().splitlines()
got = open(sys.argv[2]).read().splitlines()
assert len(want) == len(got) > 10, (len(want), len(got))
for w, g in zip(want, got):
    t, rest = w.split(' ', 1)
    s, ns = t.split('.')
    d = datetime.datetime.fromtimestamp(int(s), datetime.timezone.utc)
    iso = d.strftime('%Y-%m-%dT%H:%M:%S') + '.' + ns + 'Z'
    assert g == iso + ' ' + rest, (g, iso)
assert got[0].startswith('2023-11-14T22:13:20.123457045Z 0 '), got[0]
EOF
result "report --realtime=iso: the same instants in ISO 8601 UTC, one word" $? "$tmp/iso.diff"

# --from and --to in the time base of the time column: 8.376543211 to
# 24.876543211 monotonic, five foo:bits events.
"$bin" report --realtime --from 1700000003.5 --to 1700000020 "$tmp/s.dat" |
	cut -d' ' -f2- >"$tmp/rw.got"
"$bin" report --from 8.376543211 --to 24.876543211 "$tmp/s.dat" |
	cut -d' ' -f2- >"$tmp/rw.want"
cmp -s "$tmp/rw.want" "$tmp/rw.got" && [ "$(wc -l <"$tmp/rw.got")" -eq 5 ]
result "report --realtime --from --to: a window in CLOCK_REALTIME seconds" $?

# -r --realtime: relative times, and the trigger's wall-clock time once.
"$bin" report -r "$tmp/s.dat" >"$tmp/rr.rel"
{ echo "# trigger at 1700000000.123458069"; cat "$tmp/rr.rel"; } >"$tmp/rr.want"
"$bin" report -r --realtime "$tmp/s.dat" >"$tmp/rr.got" 2>&1
cmp -s "$tmp/rr.want" "$tmp/rr.got"
r=$?
diff "$tmp/rr.want" "$tmp/rr.got" >"$tmp/rr.diff"
result "report -r --realtime: relative times after '# trigger at REALTIME'" $r "$tmp/rr.diff"
"$bin" report -r --realtime=iso "$tmp/s.dat" | head -n 1 >"$tmp/rr.iso"
[ "$(cat "$tmp/rr.iso")" = "# trigger at 2023-11-14T22:13:20.123458069Z" ]
result "report -r --realtime=iso: the trigger's time in ISO 8601" $? "$tmp/rr.iso"

"$mk" "$tmp/nr.dat" "$tmp/nr.exp" norealtime
check "report --realtime without a CLOCK_REALTIME reference: exit 1" 1 '' \
	"nr.dat: no CLOCK_REALTIME reference" -- report --realtime "$tmp/nr.dat"
check "report --realtime=bogus is a usage error" 2 '' "bad --realtime 'bogus'" \
	-- report --realtime=bogus "$tmp/s.dat"

# report --json: one object per line of report, the same time, CPU, task,
# event and fields, the values typed.
jcheck='
import json, re, sys

def text_str(s):
    """A quoted string of the text report, as the JSON string of the same bytes."""
    b = bytearray()
    i = 0
    while i < len(s):
        c = s[i]
        if c == "\\":
            n = s[i + 1]
            if n == "x":
                b.append(int(s[i + 2:i + 4], 16))
                i += 4
                continue
            b += {"n": b"\n", "t": b"\t"}.get(n, n.encode())
            i += 2
            continue
        b += c.encode()
        i += 1
    d = bytes(b).decode("utf-8", errors="surrogateescape")
    return "".join(chr(ord(ch) - 0xdc00) if 0xdc80 <= ord(ch) <= 0xdcff else ch for ch in d)

text = open(sys.argv[1], encoding="latin-1").read().splitlines()
objs = [json.loads(l) for l in open(sys.argv[2], encoding="utf-8")]
assert len(text) == len(objs) > 10, (len(text), len(objs))
for t, o in zip(text, objs):
    time, cpu, task, event, *_ = t.split(" ")
    rest = t.split(" ", 4)[4] if t.count(" ") >= 4 else ""
    assert o["time"] == time and o["cpu"] == int(cpu), (t, o)
    assert "%s-%d" % (o["comm"].replace(" ", "_"), o["pid"]) == task, (t, o)
    assert o["event"] == event, (t, o)
    fields = re.findall(r"(\w+)=(\"(?:[^\"\\\\]|\\\\.)*\"|\S+)", rest)
    assert list(o["fields"]) == [k for k, _ in fields], (t, o)
    for k, v in fields:
        j = o["fields"][k]
        if v.startswith("\""):
            assert j == text_str(v[1:-1]), (k, v, j)
        elif isinstance(j, int):
            assert not isinstance(j, bool) and str(j) == v, (k, v, j)
        elif j is None:
            assert v == "?", (k, v)
        else:
            assert isinstance(j, str) and j == v, (k, v, j)
'
"$bin" report "$tmp/s.dat" >"$tmp/j.txt"
"$bin" report --json "$tmp/s.dat" >"$tmp/j.json" 2>"$tmp/j.err"
st=$?
python3 -c "$jcheck" "$tmp/j.txt" "$tmp/j.json" >"$tmp/j.diff" 2>&1
r=$?
[ -s "$tmp/j.err" ] && cat "$tmp/j.err" >>"$tmp/j.diff"
[ ! -s "$tmp/j.err" ]
result "report --json: one object per line of report, same time, CPU, task, event, fields" \
	$((st + r + $?)) "$tmp/j.diff"

python3 - "$tmp/j.json" >"$tmp/jt.diff" 2>&1 <<'EOF'
import json, sys
objs = [json.loads(l) for l in open(sys.argv[1], encoding="utf-8")]
io = [o for o in objs if o["event"] == "bar:io"][0]
assert io["fields"] == {"dev": "8:3", "ret": -5, "sector": 123456789012,
                        "name": 'a"b\n\x01\xff\\\u00e9'}, io
assert io["time"] == "5.000000256" and io["pid"] == 0 and io["comm"] == "<idle>", io
bits = [o for o in objs if o["event"] == "foo:bits"]
assert bits[0]["fields"] == {"h": "0x123", "s": -1, "e": "two"}, bits[0]
assert {"h": "0x5", "s": 0, "e": 1} in [b["fields"] for b in bits], bits
u = [o for o in objs if o["event"] == "unknown:high"][0]
assert u["fields"] == {"id": 9, "payload": "0x2a"}, u
u = [o for o in objs if o["event"] == "unknown:medium"][0]
assert u["fields"] == {"major": 9, "minor": 1, "length": 4}, u
EOF
result "report --json: typed values; quotes, control bytes, non-UTF-8 round-trip" $? "$tmp/jt.diff"
grep -c 'u0001\\u00ff\\\\é"' "$tmp/j.json" >"$tmp/jesc" 2>&1
[ "$(cat "$tmp/jesc")" = 1 ]
result "report --json: control and non-UTF-8 bytes as \\u00XX, UTF-8 kept" $? "$tmp/j.json"

"$bin" report -r --realtime --json "$tmp/s.dat" >"$tmp/jr.json"
python3 - "$tmp/rr.rel" "$tmp/rt.want" "$tmp/jr.json" >"$tmp/jr.diff" 2>&1 <<'EOF'
import json, sys
rel = [l.split(" ")[0] for l in open(sys.argv[1])]
real = [l.split(" ")[0] for l in open(sys.argv[2])]
objs = [json.loads(l) for l in open(sys.argv[3])]
assert len(objs) == len(rel) == len(real), (len(objs), len(rel))
for o, r, w in zip(objs, rel, real):
    assert o["time"] == r and o["realtime"] == w, (o, r, w)
EOF
result "report -r --realtime --json: relative time and realtime in every object" $? "$tmp/jr.diff"
"$bin" report --realtime --json -e bar:io "$tmp/s.dat" >"$tmp/jrt.json"
grep -q '^{"time":"1700000000.123457045","cpu":0,' "$tmp/jrt.json"
result "report --realtime --json: the time in CLOCK_REALTIME" $? "$tmp/jrt.json"

# The report filters: lists, repeated options, task names, one event
# syntax, unknown names an error, the default file.
"$bin" report -c 0 "$tmp/s.dat" >"$tmp/c.want"
"$bin" report -c 1 "$tmp/s.dat" >>"$tmp/c.want"
sort -s -k1,1n "$tmp/c.want" >"$tmp/c.sorted"
"$bin" report -c 0,1 "$tmp/s.dat" >"$tmp/c.list"
"$bin" report -c 1 -c 0 "$tmp/s.dat" >"$tmp/c.rep"
cmp -s "$tmp/c.sorted" "$tmp/c.list" && cmp -s "$tmp/c.sorted" "$tmp/c.rep" &&
	[ "$(wc -l <"$tmp/c.list")" -eq "$(wc -l <"$tmp/s.exp")" ]
result "report -c 0,1 and -c 1 -c 0: the lines of -c 0 and of -c 1" $?
filtered "report -p 42,99" '$3 ~ /-(42|99)$/' -- -p 42,99
filtered "report -p 7 -p 99" '$3 ~ /-(7|99)$/' -- -p 7 -p 99
filtered "report -p learned (a task name)" '$3 == "learned-42"' -- -p learned
filtered "report -p saved,0 (a name and a pid)" '$3 == "saved-99" || $3 ~ /-0$/' -- -p saved,0
filtered "report -e foo/switch" '$4 == "foo:switch"' -- -e foo/switch
filtered "report -e bar/io -e foo:switch" '$4 == "bar:io" || $4 == "foo:switch"' \
	-- -e bar/io -e foo:switch
filtered "report -e unknown" '$4 ~ /^unknown:/' -- -e unknown
filtered "report -e unknown:high,ktrace" '$4 == "unknown:high" || $4 ~ /^ktrace:/' \
	-- -e unknown:high,ktrace
"$bin" report -e foo:switch "$tmp/s.dat" >"$tmp/e1"
"$bin" report -e foo/switch "$tmp/s.dat" >"$tmp/e2"
cmp -s "$tmp/e1" "$tmp/e2" && [ "$(wc -l <"$tmp/e1")" -eq 1 ]
result "report -e GROUP/NAME equals -e GROUP:NAME" $?
check "report -e nosuch: exit 2, naming it" 2 '' \
	"s.dat: no event or group 'nosuch' in the trace's metadata" -- report -e nosuch "$tmp/s.dat"
check "report -e foo:nosuch: exit 2, naming it" 2 '' "no event or group 'foo:nosuch'" \
	-- report -e foo,foo:nosuch "$tmp/s.dat"
check "report -e foo/: a usage error" 2 '' "bad event 'foo:'" -- report -e foo/ "$tmp/s.dat"
check "report -c 0,x: a usage error" 2 '' "bad CPU 'x'" -- report -c 0,x "$tmp/s.dat"
# --realtime with clock references anywhere in 64 bits: the offset as a
# sign and a magnitude, the times saturated at 0 and 2^64 - 1 ns, never a
# wrap (REAL - MONO = 2^63 and over 2^63 included).
rtclock() {
	name=$1 mono=$2 real=$3
	"$mk" "$tmp/rc.dat" "$tmp/rc.exp" clock "$mono" "$real"
	"$bin" report --realtime "$tmp/rc.dat" >"$tmp/rc.got" 2>&1
	st=$?
	python3 - "$tmp/s.exp" "$tmp/rc.got" "$mono" "$real" >"$tmp/rc.diff" 2>&1 <<'PY'
import sys
exp = sorted(open(sys.argv[1]).read().splitlines(), key=lambda l: float(l.split(" ")[0]))
got = open(sys.argv[2]).read().splitlines()
mono, real = int(sys.argv[3], 0), int(sys.argv[4], 0)
assert len(exp) == len(got) > 10, (len(exp), len(got))
for e, g in zip(exp, got):
    s, ns = e.split(" ")[0].split(".")
    t = int(s) * 10**9 + int(ns) - 5 * 10**9 + mono
    r = min(max(t + real - mono, 0), 2**64 - 1)
    want = "%d.%09d %s" % (r // 10**9, r % 10**9, e.split(" ", 1)[1])
    assert g == want, (g, want)
PY
	result "$name" $((st + $?)) "$tmp/rc.diff"
}
rtclock "report --realtime: REAL - MONO = 2^63, no INT64_MIN negated" \
	5000000000 9223372041854775808
rtclock "report --realtime: REAL - MONO over 2^63 is positive, saturated at 2^64-1" \
	5000000000 0xffffffffffffffff
rtclock "report --realtime: REAL far below MONO" 0x4000000000000000 1
"$mk" "$tmp/rc.dat" "$tmp/rc.exp" clock 5000000000 0
check "report --realtime: a REAL reference of 0 is no reference" 1 '' \
	"rc.dat: no CLOCK_REALTIME reference" -- report --realtime "$tmp/rc.dat"

# Lines of any length: an event whose two strings are 65535 bytes each.
# Text as the kernel's ascii pipe cuts it: its first 32767 bytes and the
# newline; JSON whole and valid.
"$mk" "$tmp/l.dat" "$tmp/l.exp" longstr
"$bin" report -e bar:long -p my_task "$tmp/l.dat" >"$tmp/l.txt" 2>"$tmp/l.err"
st=$?
python3 - "$tmp/l.txt" >"$tmp/l.diff" 2>&1 <<'PY'
import sys
got = open(sys.argv[1], "rb").read()
s = "".join("\\x%02x" % (0xff if i % 2 == 0 else 1) for i in range(65535))
full = ('5.000000512 0 my_task-456 bar:long a="%s" b="%s" n=255\n' % (s, s)).encode()
want = full[:32767] + b"\n"
assert len(got) == 32768 and got == want, (len(got), got[-40:], want[-40:])
PY
result "report: a line longer than 32 KiB cut as the ascii pipe cuts it" \
	$((st + $?)) "$tmp/l.diff"
"$bin" report --json "$tmp/l.dat" >"$tmp/l.json" 2>"$tmp/l.err"
st=$?
python3 - "$tmp/l.json" >"$tmp/lj.diff" 2>&1 <<'PY'
import json, sys
lines = open(sys.argv[1], encoding="utf-8").read().split("\n")
assert lines[-1] == "" and len(lines) == 3, len(lines)
o = json.loads(lines[0])
s = "".join("\xff" if i % 2 == 0 else "\x01" for i in range(65535))
assert o["fields"] == {"a": s, "b": s, "n": 255}, o.get("truncated")
assert o["pid"] == 456 and o["comm"] == "my task", o
assert json.loads(lines[1])["fields"] == {"x": 7}
PY
result "report --json: a line of 768 KiB whole and valid, not truncated" \
	$((st + $?)) "$tmp/lj.diff"

# Empty lists are errors, not "no filter".
for a in "-e=" "-c=" "-p=" "-p=," "-c=,," "--event=,"; do
	check "report ${a%%=*} '${a#*=}': an empty list, exit 2" 2 '' "an empty list" \
		-- report "${a%%=*}" "${a#*=}" "$tmp/s.dat"
done
# -p: digits only are a pid; names as report prints them or as they are.
check "report -p 7z: a task name starting with a digit" 0 '^5.000001024 0 7z-123 bar:long x=7$' \
	'' -- report -p 7z "$tmp/l.dat"
check "report -p 'my task': the name as it is" 0 '^5.000000512 0 my_task-456 bar:long a=' \
	'' -- report -p 'my task' "$tmp/l.dat"
check "report -p my_task: the name as report prints it" 0 '^5.000000512 0 my_task-456 ' \
	'' -- report -p my_task "$tmp/l.dat"
check "report -p 12x3: still a name, not a bad pid" 0 '' \
	"warning: -p 12x3: no event of a task of this name" -- report -p 12x3 "$tmp/l.dat"
check "report -p nosuch,123 -c 0,5: a warning for each item with no event" 0 '7z-123' \
	'warning: -p nosuch: no event of a task of this name' \
	-- report -p nosuch,123 -c 0,5 "$tmp/l.dat"
"$bin" report -p nosuch,123,77 -c 0,5 "$tmp/l.dat" 2>&1 >/dev/null |
	sed 's/^ktrace report: [^ ]*: //' >"$tmp/w.got"
printf '%s\n' 'warning: -c 5: no event on this CPU' 'warning: -p 77: no event of this pid' \
	'warning: -p nosuch: no event of a task of this name' >"$tmp/w.want"
diff "$tmp/w.want" "$tmp/w.got" >"$tmp/w.diff"
result "report: the warnings name exactly the -c and -p items with no event" $? "$tmp/w.diff"
check "report -p 99999999999: a bad pid" 2 '' "bad pid '99999999999'" \
	-- report -p 99999999999 "$tmp/s.dat"

# stat --json: nothing dropped (a trigger line of 5 KB, a file name of
# 1.5 KB), one entry per event type even when two share a GROUP:NAME.
long=$tmp/$(printf 'd%.0s' $(seq 1 200))/$(printf 'e%.0s' $(seq 1 200))
long=$long/$(printf 'f%.0s' $(seq 1 200))/$(printf 'g%.0s' $(seq 1 200))
long=$long/$(printf 'h%.0s' $(seq 1 200))/$(printf 'i%.0s' $(seq 1 200))
mkdir -p "$long"
cp "$tmp/l.dat" "$long/l.dat"
"$bin" stat --json "$long/l.dat" >"$tmp/sl.json" 2>/dev/null
st=$?
python3 - "$tmp/sl.json" "$long/l.dat" >"$tmp/sl.diff" 2>&1 <<'PY'
import json, sys
def no_dup(pairs):
    keys = [k for k, _ in pairs]
    assert len(keys) == len(set(keys)), keys
    return dict(pairs)
d = json.load(open(sys.argv[1]), object_pairs_hook=no_dup)
assert d["file"] == sys.argv[2], d["file"][:40]
assert d["triggers"] == ["oom action=stop hits=1 fired=0 note=" + "x" * 5000], d["triggers"]
assert d["events_per_type"] == [
    {"event": "bar:long", "channel": "medium", "kind": "expanded", "count": 1},
    {"event": "bar:long", "channel": "high", "kind": "compact", "count": 1}], d["events_per_type"]
PY
result "stat --json: long strings whole, two types of one GROUP:NAME apart" \
	$((st + $?)) "$tmp/sl.diff"
mkdir "$tmp/cwd" "$tmp/nocwd"
cp "$tmp/s.dat" "$tmp/cwd/ktrace.dat"
(cd "$tmp/cwd" && "$bin" report >"$tmp/d.got" 2>&1)
"$bin" report "$tmp/s.dat" >"$tmp/d.want"
cmp -s "$tmp/d.want" "$tmp/d.got"
result "report with no file reads ktrace.dat" $?
(cd "$tmp/cwd" && "$bin" stat >"$tmp/ds.got" 2>&1)
grep -q '^events: 17$' "$tmp/ds.got"
result "stat with no file reads ktrace.dat" $? "$tmp/ds.got"
(cd "$tmp/nocwd" && "$bin" report >"$tmp/dn.out" 2>"$tmp/dn.err")
[ $? -eq 1 ] && grep -q '^ktrace: ktrace.dat: No such file or directory$' "$tmp/dn.err"
result "report with no file and no ktrace.dat: exit 1, naming it" $? "$tmp/dn.err"

# stat --json: one document, the same numbers as stat.
"$bin" stat "$tmp/s.dat" >"$tmp/st.txt"
"$bin" stat --json "$tmp/s.dat" >"$tmp/st.json"
python3 - "$tmp/st.txt" "$tmp/st.json" >"$tmp/st.diff" 2>&1 <<'EOF2'
import json, re, sys
text = open(sys.argv[1]).read()
d = json.load(open(sys.argv[2]))
assert d["events"] == int(re.search(r"^events: (\d+)$", text, re.M).group(1)) == 17
for k in ("first", "last", "span"):
    assert d[k] == re.search(r"^%s: (\S+)$" % k, text, re.M).group(1), k
types = [(k, int(v)) for k, v in re.findall(r"^  ([a-z]+:[a-z]+|unknown) (\d+)$", text, re.M)]
assert [(e["event"], e["count"]) for e in d["events_per_type"]] == types, d["events_per_type"]
kinds = {e["event"]: (e.get("channel"), e.get("kind")) for e in d["events_per_type"]}
assert kinds["foo:bits"] == ("high", "compact") and kinds["bar:io"] == ("medium", "expanded")
assert kinds["unknown"] == (None, None), kinds
assert d["events_per_cpu"] == {"0": 5, "1": 12}, d["events_per_cpu"]
streams = re.findall(r"^  cpu(\d+) (\w+): subbufs=(\d+) seq=(\d+)-(\d+) events=(\d+) "
                     r"dropped=(\d+) overwritten=(\d+) lost_subbufs=(\d+) mode=(\w+)$", text, re.M)
assert len(streams) == len(d["streams"]) == 3, streams
for s, j in zip(streams, d["streams"]):
    assert (int(s[0]), s[1], int(s[2]), int(s[3]), int(s[4]), int(s[5]), int(s[6]),
            int(s[7]), int(s[8]), s[9]) == (j["cpu"], j["channel"], j["subbufs"],
            j["first_seq"], j["last_seq"], j["events"], j["dropped"], j["overwritten"],
            j["lost_subbufs"], j["mode"]), (s, j)
gap = re.search(r"subbuffers 2 to 3 missing \(offset (\d+)\)", text)
assert d["streams"][0]["gaps"] == [{"first": 2, "last": 3, "offset": int(gap.group(1))}]
assert d["clock"]["ref_real_ns"] == 1700000000123456789 and d["clock"]["name"] == "tsc"
assert d["machine"]["release"] == "6.99.0-synthetic" and d["machine"]["nr_cpus"] == 2
assert [r["fields"] for r in d["trigger_records"]] == [{"trigger": "user", "reason": "slow"}]
EOF2
result "stat --json: one document with the numbers stat prints" $? "$tmp/st.diff"

# list and status -v against a fake control directory.
kd=$tmp/kdir
mkdir -p "$kd/events/sched/switch" "$kd/events/sched/wakeup" "$kd/events/irq/entry"
echo 1 >"$kd/enable"
echo X >"$kd/events/sched/enable"
echo 1 >"$kd/events/sched/switch/enable"
echo 0 >"$kd/events/sched/wakeup/enable"
echo 0 >"$kd/events/irq/entry/enable"
printf '%s\n' 'name: switch' 'group: sched' 'channel: high' 'kind: compact' 'id: 3' \
	'field: prev offset=0 size=16 display=pid' \
	'field: state offset=16 size=4 display=enum values=0:R,1:S' \
	>"$kd/events/sched/switch/format"
printf '%s\n' 'name: wakeup' 'group: sched' 'channel: high' 'kind: compact' 'id: 4' \
	'field: pid offset=0 size=22 display=pid' >"$kd/events/sched/wakeup/format"
printf '%s\n' 'name: entry' 'group: irq' 'channel: medium' 'kind: expanded' 'major: 3' \
	'minor: 1' 'field: irq offset=0 size=4 display=dec signed' \
	'field: handler offset=8 size=8 display=symbol kaddr' \
	'field: level offset=16 size=4 display=enum signed kaddr values=-1:low,0:mid,1:high' \
	'field: name offset=20 size=0 display=string' >"$kd/events/irq/entry/format"
echo 'drop [overwrite] hybrid' >"$kd/mode"
echo 1024 >"$kd/buffer_size_kb"
printf '%s\n' 'oom action=stop hits=3 fired=1' \
	'latency:irq:entry,irq:exit>500us hits=10 fired=0 untracked=0' >"$kd/triggers"
cat >"$kd/stats" <<'END'
state frozen
cpu0 high events=10 bytes=160 dropped=2 overwritten=0 timestamps=1 subbufs=4 used=1 torn_reads=0
cpu0 medium events=5 bytes=100 dropped=0 overwritten=7 timestamps=1 subbufs=4 used=1 torn_reads=0
cpu1 high events=1 bytes=16 dropped=0 overwritten=0 timestamps=1 subbufs=4 used=1 torn_reads=0
metadata records=40 failed=0 incomplete=0
names slots=64 saved=3 missed=0 statedump_dropped=0
END
# exact NAME FILE ARGS...: the output of ktrace ARGS is exactly FILE, exit 0.
exact() {
	name=$1 want=$2
	shift 2
	"$bin" "$@" >"$tmp/x.got" 2>&1
	st=$?
	diff "$want" "$tmp/x.got" >"$tmp/x.diff"
	result "$name" $((st + $?)) "$tmp/x.diff"
}
printf '%s\n' 'irq:entry [disabled]' 'sched:switch [enabled]' 'sched:wakeup [disabled]' \
	>"$tmp/list.want"
KTRACE_DIR=$kd exact "list: GROUP:NAME [state], sorted" "$tmp/list.want" list
printf '%s\n' 'irq:entry [disabled]' '    irq size=4bytes display=dec signed' \
	'    handler size=8bytes display=symbol kaddr' \
	'    level size=4bytes display=enum signed kaddr values=-1:low,0:mid,1:high' \
	'    name size=0bytes display=string' 'sched:switch [enabled]' \
	'    prev size=16bits display=pid' \
	'    state size=4bits display=enum values=0:R,1:S' 'sched:wakeup [disabled]' \
	'    pid size=22bits display=pid' >"$tmp/listv.want"
KTRACE_DIR=$kd exact "list -v: the fields of each event, size in bits (compact) or bytes, \
every attribute" \
	"$tmp/listv.want" list -v
printf '%s\n' 'tracing: on' 'state: frozen' 'mode: overwrite' 'buffer: 1024 KiB per CPU' \
	'events: 1 of 3 enabled' '  irq: 0 of 1' '  sched: 1 of 2' 'triggers:' \
	'  oom action=stop hits=3 fired=1' \
	'  latency:irq:entry,irq:exit>500us hits=10 fired=0 untracked=0' 'losses:' \
	'  cpu0 high: dropped=2 overwritten=0' '  cpu0 medium: dropped=0 overwritten=7' \
	'  cpu1 high: dropped=0 overwritten=0' >"$tmp/statusv.want"
KTRACE_DIR=$kd exact "status -v: state, mode, buffer, events, triggers, losses" \
	"$tmp/statusv.want" status -v
: >"$kd/triggers"
KTRACE_DIR=$kd "$bin" status -v | grep -x 'triggers: none' >/dev/null
result "status -v: no trigger armed" $?
printf 'tracing: on\n' >"$tmp/status.want"
KTRACE_DIR=$kd exact "status without -v: one line" "$tmp/status.want" status
KTRACE_DIR=$tmp/none check "list: no events directory, exit 1" 1 '' \
	'ktrace list: .*none/events: No such file or directory' -- list
check "list --help" 0 '^usage: ktrace list \[-v\]' '' -- list --help
check "status --help names -v" 0 ' -v, --verbose' '' -- status --help

# help CMD is CMD --help; --version names the formats it reads.
for c in extract record report stat status list; do
	"$bin" "$c" --help >"$tmp/h.want" 2>&1
	exact "help $c: the same as $c --help" "$tmp/h.want" help "$c"
done
check "help help: the general help" 0 "^usage: ktrace" "" -- help 'help'
check "help bogus: a usage error" 2 '' "ktrace help: unknown command 'bogus'" \
	-- help bogus
check "help lists list" 0 '^  list +list the events' '' -- help
vre='^ktrace [0-9]+\.[0-9]+ \(trace files of format 1, records of formats 1 to 2\)$'
check "--version: the tool and the trace file format" 0 "$vre" '' -- --version

# make install: the tool, the man page from the documentation (rst2man),
# the bash completion.
src=$(cd "$(dirname "$0")/.." && pwd)
comp=$src/ktrace-completion.bash
if command -v rst2man >/dev/null 2>&1 || command -v rst2man.py >/dev/null 2>&1; then
	make -s -C "$src" O="$(dirname "$bin")" DESTDIR="$tmp/inst" prefix=/usr install \
		>"$tmp/inst.log" 2>&1 &&
		[ -x "$tmp/inst/usr/bin/ktrace" ] &&
		cmp -s "$comp" "$tmp/inst/usr/share/bash-completion/completions/ktrace"
	result "make install: the tool, ktrace.1 and the completion" $? "$tmp/inst.log"
	man1=$tmp/inst/usr/share/man/man1/ktrace.1
	groff -man -Tutf8 -P-cbou -ww "$man1" >"$tmp/man.txt" 2>"$tmp/man.err"
	st=$?
	{ cat "$tmp/man.err"; head -n 30 "$tmp/man.txt"; } >"$tmp/man.diff"
	[ "$st" -eq 0 ] && [ ! -s "$tmp/man.err" ] &&
		head -n 1 "$tmp/man.txt" | grep -q '^KTRACE(1)' &&
		grep -A1 -x 'NAME' "$tmp/man.txt" |
		grep -q '^ *ktrace - record and decode ktrace traces$' &&
		grep -q -x 'SYNOPSIS' "$tmp/man.txt" &&
		grep -q 'ktrace report \[-c CPU,...\]' "$tmp/man.txt" &&
		grep -q -x 'KTRACE LIST' "$tmp/man.txt" &&
		grep -q -- '--realtime=iso' "$tmp/man.txt"
	result "ktrace.1 renders: KTRACE(1), NAME, SYNOPSIS, the report options, list" $? \
		"$tmp/man.diff"
	grep -E '^[A-Z][A-Z ]*$' "$tmp/man.txt" | head -n 3 | tr '\n' ' ' >"$tmp/man.top"
	[ "$(cat "$tmp/man.top")" = "NAME SYNOPSIS DESCRIPTION " ]
	result "ktrace.1 opens with NAME, SYNOPSIS, DESCRIPTION ($(cat "$tmp/man.top"))" $?
	# Nothing docutils could not parse, no merge conflict left in it.
	! grep -n -E 'System Message|^ *(<<<<<<<|=======|>>>>>>>)' "$tmp/man.txt" >"$tmp/man.bad"
	result "ktrace.1: no docutils System Message, no conflict marker" $? "$tmp/man.bad"
	# A docutils warning fails the build: a title underline too short.
	sed 's/^ktrace list$/ktrace list, too long/' \
		"$src/../../Documentation/tools/ktrace/ktrace.rst" >"$tmp/bad.rst"
	grep -q '^ktrace list, too long$' "$tmp/bad.rst" &&
		! make -s -C "$src" O="$tmp/badman" KTRACE_RST="$tmp/bad.rst" man \
		>"$tmp/badman.log" 2>&1 && grep -q 'Title underline too short' "$tmp/badman.log" &&
		[ ! -e "$tmp/badman/ktrace.1" ]
	result "make man: a docutils warning fails it, no page left" $? "$tmp/badman.log"
else
	n=$((n + 1))
	echo "ok $n # SKIP no rst2man (python3-docutils): no man page"
fi
# make install without rst2man (or with NO_MAN=1): the tool and the
# completion, no man page; a warning only without rst2man.
nomanwarn='warning: rst2man not found (python3-docutils): man page not installed'
for how in RST2MAN= NO_MAN=1; do
	rm -rf "$tmp/inst2"
	make -s -C "$src" O="$(dirname "$bin")" DESTDIR="$tmp/inst2" prefix=/usr "$how" install \
		>"$tmp/inst2.log" 2>&1 &&
		[ -x "$tmp/inst2/usr/bin/ktrace" ] &&
		[ -f "$tmp/inst2/usr/share/bash-completion/completions/ktrace" ] &&
		[ ! -e "$tmp/inst2/usr/share/man" ] &&
		if [ "$how" = RST2MAN= ]; then
			grep -qx "$nomanwarn" "$tmp/inst2.log"
		else
			[ ! -s "$tmp/inst2.log" ]
		fi
	result "make install $how: the tool and the completion, no man page" $? "$tmp/inst2.log"
done
# Completion: commands, options, events from ktrace list (KTRACE_DIR),
# GROUP:NAME whatever COMP_WORDBREAKS, the last item of a list.
complete_as() {
	PATH="$(dirname "$bin"):$PATH" KTRACE_DIR=$kd bash -c \
		'source "$1"; eval "$2"; _ktrace; echo "${COMPREPLY[*]}"' - "$comp" "$1"
}
[ "$(complete_as 'COMP_WORDS=(ktrace re); COMP_CWORD=1')" = "record report reclaim" ]
result "completion: ktrace re -> record report reclaim" $?
[ "$(complete_as 'COMP_WORDS=(ktrace pro); COMP_CWORD=1')" = "profile" ] &&
	[ "$(complete_as 'COMP_WORDS=(ktrace profile --j); COMP_CWORD=2')" = "--json" ]
result "completion: ktrace pro -> profile, profile --j -> --json" $?
[ "$(complete_as 'COMP_WORDS=(ktrace report --re); COMP_CWORD=2')" = \
	"--relative --realtime --realtime=iso" ]
result "completion: report --re -> its options" $?
[ "$(complete_as 'COMP_WORDS=(ktrace help sta); COMP_CWORD=2')" = "stat status" ]
result "completion: help sta -> stat status" $?
[ "$(complete_as 'COMP_WORDS=(ktrace report -e s); COMP_CWORD=3')" = \
	"sched sched:switch sched:wakeup" ]
result "completion: report -e s -> the groups and events of ktrace list" $?
[ "$(complete_as 'COMP_LINE="ktrace record -e irq:entry,sched:w"; COMP_POINT=${#COMP_LINE}')" = \
	"wakeup" ]
result "completion: record -e irq:entry,sched:w -> wakeup (after the colon)" $?
[ "$(complete_as 'COMP_LINE="ktrace record -m o"; COMP_POINT=${#COMP_LINE}')" = "overwrite" ]
result "completion: record -m o -> overwrite" $?
[ "$(complete_as 'COMP_WORDS=(ktrace latency ""); COMP_CWORD=2')" = \
	"block syscall wakeup irq irqsoff timer" ] &&
	[ "$(complete_as 'COMP_WORDS=(ktrace latency i); COMP_CWORD=2')" = "irq irqsoff" ] &&
	[ "$(complete_as 'COMP_WORDS=(ktrace latency block --t); COMP_CWORD=3')" = "--top" ]
result "completion: latency -> its kinds, then its options" $?
: >"$tmp/comp-vmcore.core"
[ "$(complete_as 'COMP_WORDS=(ktrace extract --l); COMP_CWORD=2')" = "--last-boot" ] &&
	[ "$(complete_as 'COMP_WORDS=(ktrace extract --v); COMP_CWORD=2')" = "--vmcore" ] &&
	[ "$(complete_as 'COMP_WORDS=(ktrace extract --k); COMP_CWORD=2')" = "--kallsyms" ] &&
	[ "$(complete_as "COMP_WORDS=(ktrace extract --vmcore $tmp/comp-vm); COMP_CWORD=3")" = \
	  "$tmp/comp-vmcore.core" ]
result "completion: extract --last-boot, --vmcore FILE, --kallsyms" $?
# An analysis host (no ktrace there): -e of report from the trace file given.
export ZT=$tmp/s.dat
[ "$(KTRACE_DIR=$tmp/none PATH="$(dirname "$bin"):$PATH" bash -c \
	'source "$1"; COMP_WORDS=(ktrace report "$ZT" -e b); COMP_CWORD=4; _ktrace;
	 echo "${COMPREPLY[*]}"' - "$comp")" = "bar bar:big bar:io bar:name" ]
result "completion: report FILE -e b, without ktrace -> the events of FILE" $?
[ "$(complete_as 'COMP_WORDS=(ktrace report "$ZT" -e f); COMP_CWORD=4')" = \
	"foo foo:bits foo:switch" ]
result "completion: report FILE -e f, with ktrace -> the events of FILE, not of the kernel" $?
[ "$(complete_as 'COMP_WORDS=(ktrace sl); COMP_CWORD=1')" = "slice" ] &&
	[ "$(complete_as 'COMP_WORDS=(ktrace slice --b); COMP_CWORD=2')" = "--before" ]
result "completion: slice and its options" $?
# '=' in COMP_WORDBREAKS as ':' (bash's default has both): bash replaces
# only what follows the last of them; --OPTION=VALUE completes the value.
wb_all=$(printf ' \t\n"'"'"'><=;|&(:')
wb_colon=$(printf ' \t\n"'"'"'><;|&(:')
wb_none=$(printf ' \t\n"'"'"'><;|&(')
# cl WORDBREAKS LINE: the completion of LINE with these word breaks.
cl() {
	WB=$1 LINE=$2
	export WB LINE
	complete_as 'COMP_WORDBREAKS=$WB; COMP_LINE=$LINE; COMP_POINT=${#COMP_LINE}'
}
r=0
[ "$(cl "$wb_all" 'ktrace report --realtime=')" = "iso" ] || r=1
[ "$(cl "$wb_all" 'ktrace report --realtime=i')" = "iso" ] || r=$((r + 2))
[ "$(cl "$wb_colon" 'ktrace report --realtime=')" = "--realtime=iso" ] || r=$((r + 4))
result "completion: report --realtime=<TAB> -> iso (with '=' a word break), not doubled" $r
r=0
[ "$(cl "$wb_all" 'ktrace record --event=sched:w')" = "wakeup" ] || r=1
[ "$(cl "$wb_colon" 'ktrace record --event=sched:w')" = "wakeup" ] || r=$((r + 2))
[ "$(cl "${wb_all%:}" 'ktrace record --event=sched:w')" = "sched:wakeup" ] || r=$((r + 4))
[ "$(cl "$wb_none" 'ktrace record --event=irq:entry,s')" = \
	"--event=irq:entry,sched --event=irq:entry,sched:switch --event=irq:entry,sched:wakeup" ] ||
	r=$((r + 8))
[ "$(cl "$wb_all" 'ktrace record --mode=h')" = "hybrid" ] || r=$((r + 16))
[ "$(cl "$wb_all" 'ktrace report --cpu=')" = "" ] || r=$((r + 32))
result "completion: --event=GROUP:NAME and --mode=MODE, whatever the word breaks ($r)" $r
# Every long option of each command's --help is completed.
r=
for c in record extract report stat status list slice profile; do
	got=" $(cl "$wb_all" "ktrace $c --") "
	for o in $("$bin" "$c" --help | grep -oE -- '(^|[ [,])--[a-z][a-z-]*' | tr -d ' [,' |
		sort -u); do
		case $got in *" $o "*) ;; *) r="$r $c:$o" ;; esac
	done
done
[ -z "$r" ] && case " $(cl "$wb_all" 'ktrace record --no')" in *" --no-kernel-addresses"*) ;;
	*) false ;; esac
result "completion: every option of each command's --help (record --no-kernel-addresses,\
 extract's)${r:+: missing$r}" $?

# status and list on a machine without ktrace say why.
mkdir -p "$tmp/nokt"
KTRACE_DIR=$tmp/nokt/ktrace check "status: no control directory: said, exit 1" 1 '' \
	"ktrace status: no control directory $tmp/nokt/ktrace \(KTRACE_DIR\)" -- status
KTRACE_DIR=$tmp/nokt/ktrace check "list: no control directory: said, exit 1" 1 '' \
	"ktrace list: no control directory $tmp/nokt/ktrace \(KTRACE_DIR\)" -- list
if [ "$(stat -f -c %t /sys/kernel/debug 2>/dev/null)" = 64626720 ]; then
	[ -d /sys/kernel/debug/ktrace ] ||
		KTRACE_DIR= check "status: debugfs without ktrace: CONFIG_KTRACE off, said" 1 '' \
		'debugfs is mounted on /sys/kernel/debug, without ktrace: '\
'this kernel is built without CONFIG_KTRACE' \
		-- status
else
	KTRACE_DIR= check "status: no debugfs: said, with the mount command" 1 '' \
		'debugfs is not mounted on /sys/kernel/debug: '\
'mount -t debugfs none /sys/kernel/debug' \
		-- status
fi

# Without kernel headers, make says what to give it.
src=$(cd "$(dirname "$0")/.." && pwd)
! make -s -C "$src" O="$tmp/nohdr" srctree="$tmp/nokt" >"$tmp/nohdr.log" 2>&1 &&
	grep -q "no kernel headers (include/linux/kconfig.h) in $tmp/nokt: \
.* give srctree=/path/to/linux-6.12" \
	"$tmp/nohdr.log" && [ ! -e "$tmp/nohdr/ktrace" ]
result "make without kernel headers: says where to get them, builds nothing" $? "$tmp/nohdr.log"

# report -e globs as record -e does ('sched*', 'sched:*', '*:sw*').
filtered "report -e 'foo:*': the group foo" '$4 ~ /^foo:/' -- -e 'foo:*'
filtered "report -e 'b?r*': the group bar" '$4 ~ /^bar:/' -- -e 'b?r*'
filtered "report -e '*:sw*,bar:i*': foo:switch and bar:io" '$4 == "foo:switch" || $4 == "bar:io"' \
	-- -e '*:sw*,bar:i*'
check "report -e 'nosuch*': a usage error, said" 2 '' "no event or group 'nosuch\\*'" \
	-- report -e 'nosuch*' "$tmp/s.dat"
