# SPDX-License-Identifier: GPL-2.0
# ktrace latency (sourced by run.sh): the pairs of a synthetic trace whose
# answers are known (tests/mktrace.c, latency_trace()): a clock of 1 GHz,
# CLOCK_MONOTONIC 5 s at the start.

# lat_result NAME FILE-OF-DIFFERENCES: ok if the file is empty.
lat_result() {
	n=$((n + 1))
	if [ ! -s "$2" ]; then
		echo "ok $n $1"
	else
		echo "not ok $n $1"
		sed 's/^/# /' "$2"
		fails=$((fails + 1))
	fi
}

# lat_lines NAME WANT-FILE -- ARGS...: ktrace latency ARGS prints WANT's
# lines (each one exactly, in order, among the others) and exits 0.  A
# line of WANT that ends in a backslash continues on the next one.
lat_lines() {
	lname=$1 lwant=$tmp/lat.joined
	sed -e :a -e '/\\$/N; s/\\\n//; ta' "$2" >"$lwant"
	shift 3
	"$bin" latency "$@" >"$tmp/lat.out" 2>"$tmp/lat.err"
	lst=$?
	: >"$tmp/lat.why"
	[ "$lst" = 0 ] || echo "exit status $lst, want 0" >>"$tmp/lat.why"
	[ -s "$tmp/lat.err" ] && sed 's/^/stderr: /' "$tmp/lat.err" >>"$tmp/lat.why"
	grep -Fxf "$lwant" "$tmp/lat.out" | diff "$lwant" - >>"$tmp/lat.why" ||
		sed 's/^/got: /' "$tmp/lat.out" >>"$tmp/lat.why"
	lat_result "$lname" "$tmp/lat.why"
}

"$mk" "$tmp/lat.dat" "$tmp/lat.exp" latency

cat >"$tmp/lat.want" <<'EOF'
# latency block: block:rq_issue -> rq_complete|rq_status by request: 101 pairs, 1 open
count 101 min 1000.000us avg 2178.217us p50 1000.000us p90 1000.000us p99 1000.000us max\
 120000.000us
top 1:
  120000.000us at 5.201100000 cpu=0 pid=555 comm=bigio dev=8:16 sector=123456 nr_sector=256 op=write
open 1:
  >=369980.000us at 5.330020000 cpu=0 pid=321 comm=dd dev=8:0 sector=999999 nr_sector=8 op=read
EOF
lat_lines "latency block: 101 pairs, their stats, the 120 ms request (its bio's task), one open" \
	"$tmp/lat.want" -- block --top 1 "$tmp/lat.dat"
lwc=$(wc -l <"$tmp/lat.out")
{ [ "$lwc" = 6 ] || echo "$lwc lines, want 6"; } >"$tmp/lat.why"
lat_result "latency block --top 1: those 6 lines only" "$tmp/lat.why"

"$bin" latency block --hist "$tmp/lat.dat" >"$tmp/lat.hist" 2>&1
awk -F'[:|]' '/ -> / { sum += $2; if ($2 + 0) nz = nz " " $1 "=" $2 + 0 }
	END { print sum; print nz }' "$tmp/lat.hist" | tr -s ' ' >"$tmp/lat.hsum"
printf '101\n 512 -> 1023 =100 65536 -> 131071 =1\n' | diff - "$tmp/lat.hsum" >"$tmp/lat.why"
lat_result "latency block --hist: 100 in 512 -> 1023 us, 1 in 65536 -> 131071, sum 101" \
	"$tmp/lat.why"

cat >"$tmp/lat.want" <<'EOF'
# latency syscall: syscalls:entry -> syscalls:exit by pid: 5 pairs, 1 open
count 5 min 10.000us avg 506.000us p50 10.000us p90 2000.000us p99 2000.000us max\
 2000.000us
  2000.000us at 5.536369912 cpu=0 pid=600 comm=sleeper nr=35 name=nanosleep
  500.000us at 5.546010000 cpu=0 pid=600 comm=sleeper nr=59 name=execve
  10.000us at 5.400100000 cpu=0 pid=600 comm=sleeper nr=0 name=read
open 1:
  >=159990.000us at 5.540010000 cpu=0 pid=601 comm=reader nr=7 name=poll
EOF
lat_lines "latency syscall: 2 ms across a 27-bit rollover, exit and execve rules, an open one" \
	"$tmp/lat.want" -- syscall "$tmp/lat.dat"

cat >"$tmp/lat.want" <<'EOF'
# latency syscall: syscalls:entry -> syscalls:exit by pid: 0 pairs, 1 open
count 0
open 1:
  >=159990.000us at 5.540010000 cpu=0 pid=601 comm=reader nr=7 name=poll
EOF
lat_lines "latency syscall -p 601: only its open pair" "$tmp/lat.want" -- \
	syscall -p 601 "$tmp/lat.dat"

cat >"$tmp/lat.want" <<'EOF'
# latency block: block:rq_issue -> rq_complete|rq_status by request: 1 pairs, 1 open
count 1 min 120000.000us avg 120000.000us p50 120000.000us p90 120000.000us p99\
 120000.000us max 120000.000us
EOF
lat_lines "latency block --min 2ms: the 120 ms request and the open one" "$tmp/lat.want" -- \
	block --min 2ms "$tmp/lat.dat"

cat >"$tmp/lat.want" <<'EOF'
# latency block: block:rq_issue -> rq_complete|rq_status by request: 100 pairs, 1 open
count 100 min 1000.000us avg 1000.000us p50 1000.000us p90 1000.000us p99 1000.000us max 1000.000us
EOF
lat_lines "latency block -p 321: dd's 100 requests, not bigio's" "$tmp/lat.want" -- \
	block -p 321 "$tmp/lat.dat"

cat >"$tmp/lat.want" <<'EOF'
# latency wakeup: sched:wakeup|wakeup_new -> sched:switch by pid: 1 pairs, 1 open
  50.000us at 5.600010000 cpu=0 pid=700 comm=worker waker=321
  >=99900.000us at 5.600100000 cpu=0 pid=701 comm=idler waker=700
EOF
lat_lines "latency wakeup: 50 us; a wakeup of the running task begins nothing; one never run" \
	"$tmp/lat.want" -- wakeup "$tmp/lat.dat"

cat >"$tmp/lat.want" <<'EOF'
# latency irq: irq:hardirq_entry -> irq:hardirq_exit by cpu: 2 pairs, 0 open
  30.000us at 5.010000000 cpu=1 irq=24 name=eth0-rx
  5.000us at 5.011000000 cpu=1 irq=25
EOF
lat_lines "latency irq: IRQ 24 named by the statedump" "$tmp/lat.want" -- irq "$tmp/lat.dat"

cat >"$tmp/lat.want" <<'EOF'
# latency irqsoff: irq:irqsoff periods: 1 pairs, 0 open
  250.000us at 5.044000000 cpu=1 caller=slow_path+0x20/0x100
EOF
lat_lines "latency irqsoff: one period, its caller's symbol" "$tmp/lat.want" -- \
	irqsoff "$tmp/lat.dat"

cat >"$tmp/lat.want" <<'EOF'
# latency timer: irq:timer_expire intervals of periodic timers, jitter from each one's median:\
 20 pairs, 0 open
# periodic timers: 3 of 4 (3 intervals or more, 3/4 of them within 1/8 of their median);\
 intervals of the others, not judged: 4
count 20 min -300.000us avg 2250.000us p50 0.000us p90 0.000us p99 45000.000us max 45000.000us
top 2:
  45000.000us at 5.081200000 cpu=1 function=poll_fn+0x0/0x40 interval=50000.000us\
 expected=5000.000us
  300.000us at 5.040000000 cpu=1 function=tick_sched_timer+0x0/0x80 interval=4300.000us\
 expected=4000.000us irqsoff_caller=slow_path+0x20/0x100
EOF
lat_lines "latency timer: periodic timers only (not delayed_work_timer_fn), the held-back poll, \
the late tick" \
	"$tmp/lat.want" -- timer --top 2 "$tmp/lat.dat"

"$mk" "$tmp/lata.dat" "$tmp/lata.exp" latency alpha
"$mk" "$tmp/latb.dat" "$tmp/latb.exp" latency beta
cat >"$tmp/lat.want" <<'EOF'
# latency block: block:rq_issue -> rq_complete|rq_status by request: 202 pairs, 2 open
count 202 min 1000.000us avg 2178.217us p50 1000.000us p90 1000.000us p99 1000.000us max\
 120000.000us
top 2:
  120000.000us at 1700000000.201100000 cpu=0 host=alpha pid=555 comm=bigio dev=8:16\
 sector=123456 nr_sector=256 op=write
  120000.000us at 1700000000.201101000 cpu=0 host=beta pid=555 comm=bigio dev=8:16\
 sector=123456 nr_sector=256 op=write
open 2:
  >=369980.000us at 1700000000.330020000 cpu=0 host=alpha pid=321 comm=dd dev=8:0\
 sector=999999 nr_sector=8 op=read
  >=369980.000us at 1700000000.330021000 cpu=0 host=beta pid=321 comm=dd dev=8:0\
 sector=999999 nr_sector=8 op=read
EOF
lat_lines "latency block A B --offset B=1us: pairs per trace, host=, CLOCK_REALTIME times" \
	"$tmp/lat.want" -- block --top 2 --offset "$tmp/latb.dat=1000" "$tmp/lata.dat" \
	"$tmp/latb.dat"

check "latency: an unknown kind is a usage error" 2 '' "^ktrace latency: unknown kind 'bogus'" \
	-- latency bogus "$tmp/lat.dat"
check "latency: a bad --top is a usage error" 2 '' "^ktrace latency: bad --top 'x'" \
	-- latency block --top x "$tmp/lat.dat"
check "latency: --min without a unit is a usage error" 2 '' "^ktrace latency: bad --min '5'" \
	-- latency block --min 5 "$tmp/lat.dat"
check "latency: -p on a kind without tasks is a usage error" 2 '' \
	'^ktrace latency: -p: the pairs of irq have no task' -- latency irq -p 1 "$tmp/lat.dat"
check "latency: no trace file is a usage error" 2 '' '^ktrace latency: no trace file' \
	-- latency block
check "latency: a trace without block:rq_issue in its metadata" 1 '' \
	"^ktrace latency: .*s.dat: no block:rq_issue event in the trace's metadata$" \
	-- latency block "$tmp/s.dat"
