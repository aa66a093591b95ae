# SPDX-License-Identifier: GPL-2.0
# ktrace io and ktrace reclaim (sourced by run.sh), on the synthetic traces
# of mktrace io and mktrace reclaim, whose answers are known (see
# analyze_trace() in mktrace.c).

# an_same NAME WANT GOT: GOT has exactly the lines of WANT.
an_same() {
	n=$((n + 1))
	if cmp -s "$2" "$3"; then
		echo "ok $n $1"
	else
		echo "not ok $n $1"
		diff "$2" "$3" | sed 's/^/# /'
		fails=$((fails + 1))
	fi
}

"$mk" "$tmp/io.dat" "$tmp/io.exp" io
"$mk" "$tmp/rc.dat" "$tmp/rc.exp" reclaim

# io: 30 writes of 4 KiB by "my writer" (pid 100), 10 ms apart from 5 s,
# queued (bio_queue) on CPU 0; 100 of 128 KiB by flooder (pid 200) inserted
# on CPU 1 from 5.105 s, described by rq_describe only; all issued by
# kworker/2:1 (pid 300), which reads 32 KiB itself at 5.25 s.
"$bin" io "$tmp/io.dat" >"$tmp/io.got" 2>"$tmp/io.err"
echo "status $?" >>"$tmp/io.got"
# Each process's lines: what follows "pid=P comm=C".
w10="pid=100 comm=my_writer requests=10 bytes=40960 read_bytes=0 write_bytes=40960"
f100="pid=200 comm=flooder requests=100 bytes=13107200 read_bytes=0 write_bytes=13107200"
k1="pid=300 comm=kworker/2:1 requests=1 bytes=32768 read_bytes=32768 write_bytes=0"
w30="pid=100 comm=my_writer requests=30 bytes=122880 read_bytes=0 write_bytes=122880"
# total lines: max_latency before the split.
totals="total ${f100% read_*} max_latency=20990.000us read_bytes=0 write_bytes=13107200
total ${w30% read_*} max_latency=8000.000us read_bytes=0 write_bytes=122880
total ${k1% read_*} max_latency=3000.000us read_bytes=32768 write_bytes=0"
cat >"$tmp/io.want" <<W
# io: 131 requests, 13262848 bytes, 3 processes, windows of 100.000ms
window 5.000000000 $w10
window 5.100000000 $f100
window 5.100000000 $w10
window 5.200000000 $w10
window 5.200000000 $k1
$totals
status 0
W
awk 'NR == 1 || !/^#/' "$tmp/io.got" >"$tmp/io.cut"
[ -s "$tmp/io.err" ] && sed 's/^/stderr: /' "$tmp/io.err" >>"$tmp/io.cut"
an_same "io: per window and per process, requests and bytes by who queued them, flooder first" \
	"$tmp/io.want" "$tmp/io.cut"
check "io: the header says what is counted, and the request without description" 0 \
	'^# not counted: 1 issue\(s\) of requests without description in the trace$' '' \
	-- io "$tmp/io.dat"

# -r: windows of 100 ms centred on the trigger record at 5.13 s.
"$bin" io -r "$tmp/io.dat" | awk 'NR == 1 || !/^#/' >"$tmp/ior.got"
cat >"$tmp/ior.want" <<W
# io: 131 requests, 13262848 bytes, 3 processes, windows of 100.000ms
window -0.150000000 pid=100 comm=my_writer requests=8 bytes=32768 read_bytes=0 write_bytes=32768
window -0.050000000 $f100
window -0.050000000 $w10
window +0.050000000 $w10
window +0.050000000 $k1
window +0.150000000 pid=100 comm=my_writer requests=2 bytes=8192 read_bytes=0 write_bytes=8192
$totals
W
an_same "io -r: windows relative to the trigger record, one centred on it" \
	"$tmp/ior.want" "$tmp/ior.got"
check "io -r: the trigger's time in the header" 0 \
	'^# times relative to the trigger record at 5\.130000000, its window centred on it$' '' \
	-- io -r "$tmp/io.dat"

# --window 1s -p 100: one window, one process.
"$bin" io --window 1s -p 100 "$tmp/io.dat" | awk 'NR == 1 || !/^#/' >"$tmp/iop.got"
cat >"$tmp/iop.want" <<W
# io: 30 requests, 122880 bytes, 1 processes, windows of 1000.000ms
window 5.000000000 $w30
total ${w30% read_*} max_latency=8000.000us read_bytes=0 write_bytes=122880
W
an_same "io --window 1s -p 100: one window, only that process" "$tmp/iop.want" "$tmp/iop.got"
check "io --window 2.5ms: fractional windows" 0 \
	'^window 5\.105000000 pid=200 comm=flooder requests=5 bytes=655360 ' '' \
	-- io --window 2.5ms "$tmp/io.dat"
check "io --window 250us: microseconds" 0 '^# io: .* windows of 0\.250ms$' '' \
	-- io --window 250us "$tmp/io.dat"
check "io --window 0: a usage error" 2 '' "^ktrace io: bad --window '0': want a number and a unit" \
	-- io --window 0 "$tmp/io.dat"
check "io --window 10: a unit is needed" 2 '' "^ktrace io: bad --window '10'" \
	-- io --window 10 "$tmp/io.dat"
check "io --window 5m: a usage error" 2 '' "^ktrace io: bad --window '5m'" \
	-- io --window 5m "$tmp/io.dat"
check "io --window 2d: a usage error" 2 '' "^ktrace io: bad --window '2d'" \
	-- io --window 2d "$tmp/io.dat"
check "io -p x: a usage error" 2 '' "^ktrace io: bad pid 'x'$" -- io -p x "$tmp/io.dat"
check "io --bogus: a usage error with the usage" 2 '' '^usage: ktrace io ' \
	-- io --bogus "$tmp/io.dat"
check "io --help" 0 '^usage: ktrace io \[-r\]' '' -- io --help
check "io on a trace without block events: exit 1, said why" 1 '' \
	's\.dat: no block:rq_issue event in the trace.s metadata$' -- io "$tmp/s.dat"
MKTRACE_NOTRIGGER=1 "$mk" "$tmp/ion.dat" "$tmp/ion.exp" io
check "io -r without a trigger record: exit 1" 1 '' \
	'ion\.dat: no trigger record \(ktrace:trigger\)$' -- io -r "$tmp/ion.dat"
check "io: a missing file named" 1 '' 'nosuch\.dat: No such file' -- io "$tmp/nosuch.dat"
# A request is the one at its dev, sector and op until it completes: a
# requeued request described again is counted once, to the task that
# queued it; a request that a bio was merged into (described anew at its
# issue by a kworker) is the inserting task's.
MKTRACE_IO=requeue "$mk" "$tmp/iorq.dat" "$tmp/iorq.exp" io
check "io: a requeued request described again counts once, to its queuer" 0 \
	'^total pid=200 comm=flooder requests=101 bytes=13238272 ' '' -- io "$tmp/iorq.dat"
"$bin" io "$tmp/iorq.dat" >"$tmp/iorq.out"
[ "$(grep -c '^total' "$tmp/iorq.out")" = 3 ] &&
	grep -q '^# io: 132 requests, 13393920 bytes, 3 processes' "$tmp/iorq.out" &&
	grep -q '^total pid=300 comm=kworker/2:1 requests=1 bytes=32768 ' "$tmp/iorq.out"
result "io: the requeue adds no request and nothing to the kworker" $? "$tmp/iorq.out"
MKTRACE_IO=sat "$mk" "$tmp/iosat.dat" "$tmp/iosat.exp" io
check "io: a request at nr_sector's bound: its bytes said to be a lower bound" 0 \
	'^# 1 request\(s\) at the bound of nr_sector: their bytes are lower bounds$' '' \
	-- io "$tmp/iosat.dat"
MKTRACE_IO=merge "$mk" "$tmp/iomg.dat" "$tmp/iomg.exp" io
check "io: a request merged and described anew at its issue stays the inserter's" 0 \
	'^total pid=100 comm=my_writer requests=31 bytes=131072 ' '' -- io "$tmp/iomg.dat"

# Two machines: CLOCK_REALTIME times, host= in every line.
MKTRACE_HOST=hostA "$mk" "$tmp/ioa.dat" "$tmp/ioa.exp" io
MKTRACE_HOST=hostB "$mk" "$tmp/iob.dat" "$tmp/iob.exp" io
"$bin" io --offset "$tmp/iob.dat=1000000000" "$tmp/ioa.dat" "$tmp/iob.dat" >"$tmp/io2.got"
n=$((n + 1))
if grep -q '^# io: 262 requests, 26525696 bytes, 6 processes,' "$tmp/io2.got" &&
   grep -qx "window 1700000000.200000000 host=hostA $f100" "$tmp/io2.got" &&
   grep -qx "window 1700000001.200000000 host=hostB $f100" "$tmp/io2.got" &&
   [ "$(grep -c '^total host=host[AB] pid=' "$tmp/io2.got")" = 6 ] &&
   [ "$(grep -c '^window [0-9.]* host=host[AB] pid=' "$tmp/io2.got")" = 12 ]; then
	echo "ok $n io A B --offset B=1s: merged on CLOCK_REALTIME, host= in every line"
else
	echo "not ok $n io A B --offset B=1s: merged on CLOCK_REALTIME, host= in every line"
	sed 's/^/# /' "$tmp/io2.got"
	fails=$((fails + 1))
fi

# reclaim: "my job" (pid 2000) 25 passes at priorities 12 to 4, memhog
# (pid 1000) 11 passes at 12 to 2, kswapd0 (pid 50) 2, cgtask (pid 4000)
# 2 outside direct reclaim; then memhog
# triggers the OOM kill of chrome (pid 3000).
"$bin" reclaim "$tmp/rc.dat" >"$tmp/rc.got" 2>"$tmp/rc.err"
echo "status $?" >>"$tmp/rc.got"
# The reasons pages were kept: dirty, writeback, congested, immediate,
# activated, referenced, then the rest (unmap_fail, locked, lazyfree_fail).
kept() {
	echo "kept: dirty=$1 writeback=$2 congested=0 immediate=$3 activated=$4" \
		"referenced=$5 unmap_fail=0 locked=$6 lazyfree_fail=0"
}
cat >"$tmp/rc.want" <<W
# reclaim: 40 passes by 4 tasks, then oom kill of pid=3000 comm=chrome
task pid=2000 comm=my_job passes=25 reclaimed=800 scanned=1600 min_priority=4 \
first=5.001000000 last=5.099000000
  5 earlier passes not shown
  pass at 5.021000000 priority=11 scanned=64 reclaimed=32 $(kept 0 0 1 0 0 0) \
lists=1 duration=2000.000us
task pid=1000 comm=memhog passes=11 reclaimed=165 scanned=1705 min_priority=2 \
first=5.000000000 last=5.103000000
  pass at 5.000000000 priority=12 scanned=150 reclaimed=15 $(kept 2 1 0 4 6 1) \
lists=2 duration=3000.000us
  pass at 5.100000000 priority=2 scanned=160 reclaimed=15 $(kept 12 1 0 4 6 1) \
lists=2 duration=3000.000us
task pid=50 comm=kswapd0 passes=2 reclaimed=260 scanned=510 min_priority=10 \
first=5.002000000 last=5.050000000
  pass at 5.002000000 priority=11 scanned=500 reclaimed=250 $(kept 0 10 0 0 0 0) \
lists=2 duration=4000.000us kswapd
  pass at 5.050000000 priority=10 scanned=10 reclaimed=10 $(kept 0 0 0 0 0 0) \
lists=1 open kswapd
task pid=4000 comm=cgtask passes=2 reclaimed=40 scanned=40 min_priority=10 \
first=5.030000000 last=5.041000000
  pass at 5.030000000 priority=11 scanned=20 reclaimed=20 $(kept 0 0 0 0 0 0) \
lists=2 duration=1000.000us background
  pass at 5.040000000 priority=10 scanned=20 reclaimed=20 $(kept 0 0 0 0 0 0) \
lists=2 open background
oom_kill at 5.120000000 victim pid=3000 comm=chrome total_vm_kb=1048576 \
anon_rss_kb=524288 file_rss_kb=1024 shmem_rss_kb=0 pgtables_kb=2048 uid=1000 \
oom_score_adj=-17 trigger pid=1000 comm=memhog
status 0
W
# The task lines, the first pass shown of each and memhog's last, the rest.
awk '/^  pass/ && seen[t]++ && t != 50 && t != 4000 && !(t == 1000 && /priority=2 /) { next }
	/^task/ { t = $2; sub(/pid=/, "", t) } NR == 1 || !/^#/' "$tmp/rc.got" >"$tmp/rc.cut"
[ -s "$tmp/rc.err" ] && sed 's/^/stderr: /' "$tmp/rc.err" >>"$tmp/rc.cut"
an_same "reclaim: per task the passes, totals, min priority; the victim and the trigger" \
	"$tmp/rc.want" "$tmp/rc.cut"
n=$((n + 1))
if [ "$(grep -c '^  pass at ' "$tmp/rc.got")" = 35 ] &&
   [ "$(sed -n '/pid=2000/,/^task pid=1000/p' "$tmp/rc.got" | grep -c '^  pass at ')" = 20 ] &&
   sed -n '/pid=2000/,/^task/p' "$tmp/rc.got" | grep '^  pass at' | tail -n 1 |
	grep -q '^  pass at 5\.097000000 priority=4 '; then
	echo "ok $n reclaim: at most the last 20 passes of a task, in time order"
else
	echo "not ok $n reclaim: at most the last 20 passes of a task, in time order"
	fails=$((fails + 1))
fi
"$bin" reclaim -p 2000 "$tmp/rc.dat" >"$tmp/rcp.got"
n=$((n + 1))
if grep -qx '# reclaim: 25 passes by 1 tasks, then oom kill of pid=3000 comm=chrome' \
	"$tmp/rcp.got" &&
   [ "$(grep -c '^task ' "$tmp/rcp.got")" = 1 ] &&
   grep -q '^task pid=2000 comm=my_job passes=25 ' "$tmp/rcp.got" &&
   [ "$(grep -c '^  pass at ' "$tmp/rcp.got")" = 25 ] &&
   ! grep -q 'not shown' "$tmp/rcp.got" &&
   grep -q '^oom_kill at 5\.120000000 victim pid=3000 .* trigger pid=1000 comm=memhog$' \
	"$tmp/rcp.got"; then
	echo "ok $n reclaim -p 2000: only that task, all its 25 passes, the OOM kill"
else
	echo "not ok $n reclaim -p 2000: only that task, all its 25 passes, the OOM kill"
	sed 's/^/# /' "$tmp/rcp.got"
	fails=$((fails + 1))
fi
check "reclaim -p of a task without passes: none" 0 '^# reclaim: 0 passes by 0 tasks, then' '' \
	-- reclaim -p 4242 "$tmp/rc.dat"
check "reclaim on a trace without vm events: exit 1, said why" 1 '' \
	'io\.dat: no reclaim event \(vm:direct_reclaim_begin, vm:shrink_inactive, vm:oom_kill\)' \
	-- reclaim "$tmp/io.dat"
check "reclaim -p -1: a usage error" 2 '' "^ktrace reclaim: bad pid '-1'$" \
	-- reclaim -p -1 "$tmp/rc.dat"
check "reclaim -r: a usage error with the usage" 2 '' '^usage: ktrace reclaim ' \
	-- reclaim -r "$tmp/rc.dat"
check "reclaim --help" 0 '^usage: ktrace reclaim \[-p PID\]' '' -- reclaim --help
check "reclaim --offset of a file not given: a usage error" 2 '' \
	"reclaim: --offset x.dat: not a file of the command" \
	-- reclaim --offset x.dat=5 "$tmp/rc.dat"
MKTRACE_HOST=hostA "$mk" "$tmp/rca.dat" "$tmp/rca.exp" reclaim
MKTRACE_HOST=hostB "$mk" "$tmp/rcb.dat" "$tmp/rcb.exp" reclaim
check "reclaim A B: host= in the task and OOM lines, CLOCK_REALTIME times" 0 \
	'^oom_kill at 1700000001\.243456789 host=hostB victim pid=3000 comm=chrome ' '' \
	-- reclaim --offset "$tmp/rcb.dat=1000000000" "$tmp/rca.dat" "$tmp/rcb.dat"

# Cut copies of both traces: a clean exit, never a crash.
bad=0
for f in "$tmp/io.dat" "$tmp/rc.dat"; do
	size=$(wc -c <"$f")
	for cut in 16 64 300 700 1500 2600 4000 6000 9000 12000; do
		[ "$cut" -lt "$size" ] || continue
		head -c "$cut" "$f" >"$tmp/ancut"
		for c in io reclaim; do
			timeout 10 "$bin" "$c" "$tmp/ancut" >/dev/null 2>&1
			[ $? -le 1 ] || { bad=$((bad + 1)); echo "# $c: cut at $cut of $f"; }
		done
	done
done
n=$((n + 1))
if [ "$bad" -eq 0 ]; then
	echo "ok $n io and reclaim end cleanly on cut traces"
else
	echo "not ok $n io and reclaim: $bad cut traces crashed"
	fails=$((fails + 1))
fi
# A background pass ends when its task enters direct reclaim; an end whose
# begin was before the trace closes the open pass, which it shows direct.
MKTRACE_RECLAIM=bgdirect "$mk" "$tmp/rbg.dat" "$tmp/rbg.exp" reclaim
check "reclaim: direct reclaim begins after a background pass, which ended" 0 \
	'^  pass at 5\.040000000 priority=10 .* lists=2 duration=1000\.000us background$' '' \
	-- reclaim -p 4000 "$tmp/rbg.dat"
MKTRACE_RECLAIM=nobegin "$mk" "$tmp/rnb.dat" "$tmp/rnb.exp" reclaim
check "reclaim: an end without its begin closes the open pass as direct" 0 \
	'^  pass at 5\.040000000 priority=10 .* lists=2 duration=5000\.000us$' '' \
	-- reclaim -p 4000 "$tmp/rnb.dat"
