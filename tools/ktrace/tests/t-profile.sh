# SPDX-License-Identifier: GPL-2.0
# ktrace profile, and the sched:switch and syscalls lines of report (sourced
# by run.sh): a synthetic trace whose figures are known to the nanosecond
# (tests/mktrace.c, profile_trace(), which says what happens when).

"$mk" "$tmp/pf.dat" "$tmp/pf.exp" profile

# report: the previous task of a switch (the subbuffer's header pid, then
# the last switch of the CPU), its state, and the system call names.
"$bin" report "$tmp/pf.dat" >"$tmp/pf.rep" 2>&1
cat >"$tmp/pf.rwant" <<EOT
5.000000000 0 sleeper-100 sched:switch prev_comm=starter prev_pid=77 prev_state=R \
==> next_comm=sleeper next_pid=100
5.000002000 0 worker-300 sched:switch prev_comm=sleeper prev_pid=100 prev_state=S \
==> next_comm=worker next_pid=300
5.000002500 0 worker-300 syscalls:entry nr=230 name=clock_nanosleep arg0=0x2a
5.000004000 0 worker-300 syscalls:exit nr=230 name=clock_nanosleep ret=0
5.000004300 0 worker-300 syscalls:exit nr=0 name=read ret=-11
5.000005000 0 sleeper-100 sched:switch prev_comm=worker prev_pid=300 prev_state=R+ \
==> next_comm=sleeper next_pid=100
5.000011200 0 <idle>-0 sched:switch prev_comm=sleeper prev_pid=100 prev_state=X \
==> next_comm=<idle> next_pid=0
5.000016000 1 worker-200 sched:switch prev_comm=<idle> prev_pid=0 prev_state=R \
==> next_comm=worker next_pid=200
EOT
grep -Fxf "$tmp/pf.rwant" "$tmp/pf.rep" | diff "$tmp/pf.rwant" - >"$tmp/pf.why"
result "report: sched:switch as ftrace prints it (prev task, state ==> next), syscall names" \
	"$([ -s "$tmp/pf.why" ]; echo $((1 - $?)))" "$tmp/pf.why"

"$bin" report --json -e sched:switch,syscalls:exit "$tmp/pf.dat" >"$tmp/pf.rj" 2>&1
python3 - "$tmp/pf.rj" >"$tmp/pf.why" 2>&1 <<'EOT'
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
sw = [l for l in lines if l["time"] == "5.000002000"][0]
f = sw["fields"]
assert sw["event"] == "sched:switch" and sw["pid"] == 300, sw
assert f == {"prev_comm": "sleeper", "prev_pid": 100, "prev_state": "S",
             "next_comm": "worker", "next_pid": 300}, f
assert list(f) == ["prev_comm", "prev_pid", "prev_state", "next_comm", "next_pid"], f
ex = [l["fields"] for l in lines if l["event"] == "syscalls:exit"]
assert ex[0] == {"nr": 230, "name": "clock_nanosleep", "ret": 0}, ex[0]
assert ex[1] == {"nr": 0, "name": "read", "ret": -11}, ex[1]
EOT
result "report --json: switch fields prev_comm, prev_pid, prev_state, next_comm, next_pid; \
syscall name" \
	$? "$tmp/pf.why"

# The figures, each one worked out in profile_trace()'s comment.
cat >"$tmp/pf.want" <<EOT
# profile: from 5.000001000 to 5.000019500 (0.000018500 s), 2 CPUs, 1 loss(es)
# run: sched:switch to the task -> the next switch on its CPU; wait: wakeup
# or preemption -> switch to it; sleep (S, I, ...) and blocked (D): switched
# away -> wakeup; syscalls: entry -> exit, errors: -4095..-1 (ktrace(1))
task pid=201 comm=child run=8.500us runs=2 wait=2.500us waits=1 max_wait=2.500us \
sleep=1.500us blocked=0.000us
task pid=200 comm=worker run=6.500us runs=3 wait=1.500us waits=2 max_wait=1.000us \
sleep=0.000us blocked=0.000us
task pid=300 comm=worker run=5.000us runs=2 wait=2.000us waits=1 max_wait=2.000us \
sleep=0.000us blocked=0.000us
syscall pid=300 comm=worker nr=230 name=clock_nanosleep count=1 errors=0 \
total=1.500us min=1.500us avg=1.500us max=1.500us
syscall pid=300 comm=worker nr=0 name=read count=2 errors=2 \
total=0.300us min=0.100us avg=0.150us max=0.200us
task pid=100 comm=sleeper run=2.700us runs=2 wait=2.500us waits=2 max_wait=2.000us \
sleep=1.000us blocked=3.000us
syscall pid=100 comm=sleeper nr=0 name=read count=1 errors=0 \
total=0.500us min=0.500us avg=0.500us max=0.500us
comm comm=worker tasks=2 run=11.500us runs=5 wait=3.500us waits=3 max_wait=2.000us \
sleep=0.000us blocked=0.000us
comm comm=child tasks=1 run=8.500us runs=2 wait=2.500us waits=1 max_wait=2.500us \
sleep=1.500us blocked=0.000us
comm comm=sleeper tasks=1 run=2.700us runs=2 wait=2.500us waits=2 max_wait=2.000us \
sleep=1.000us blocked=3.000us
syscall pid=all nr=230 name=clock_nanosleep count=1 errors=0 \
total=1.500us min=1.500us avg=1.500us max=1.500us
syscall pid=all nr=0 name=read count=3 errors=2 total=0.800us min=0.100us avg=0.266us max=0.500us
EOT
"$bin" profile "$tmp/pf.dat" >"$tmp/pf.out" 2>&1
st=$?
diff "$tmp/pf.want" "$tmp/pf.out" >"$tmp/pf.why"
result "profile: run, wait, sleep, blocked per task and per name; system calls per task \
and in all, to the ns" \
	"$([ "$st" = 0 ] && [ ! -s "$tmp/pf.why" ]; echo $?)" "$tmp/pf.why"

"$bin" profile --json "$tmp/pf.dat" >"$tmp/pf.json" 2>&1
python3 - "$tmp/pf.json" >"$tmp/pf.why" 2>&1 <<'EOT'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["traces"] == [{"from": "5.000001000", "to": "5.000019500", "cpus": 2,
                        "losses": 1}], d["traces"]
t = {k["pid"]: k for k in d["tasks"]}
assert [k["pid"] for k in d["tasks"]] == [201, 200, 300, 100], d["tasks"]
assert t[100] == {"pid": 100, "comm": "sleeper", "run_ns": 2700, "runs": 2,
                  "wait_ns": 2500, "waits": 2, "max_wait_ns": 2000, "sleep_ns": 1000,
                  "blocked_ns": 3000,
                  "syscalls": [{"nr": 0, "name": "read", "count": 1, "errors": 0,
                                "total_ns": 500, "min_ns": 500, "avg_ns": 500,
                                "max_ns": 500}]}, t[100]
assert t[201]["sleep_ns"] == 1500 and t[201]["run_ns"] == 8500, t[201]
assert t[200]["wait_ns"] == 1500 and t[200]["max_wait_ns"] == 1000, t[200]
s = t[300]["syscalls"]
assert [(c["nr"], c["count"], c["errors"], c["total_ns"], c["min_ns"], c["avg_ns"],
         c["max_ns"]) for c in s] == [(230, 1, 0, 1500, 1500, 1500, 1500),
                                      (0, 2, 2, 300, 100, 150, 200)], s
c = {k["comm"]: k for k in d["comms"]}
assert [k["comm"] for k in d["comms"]] == ["worker", "child", "sleeper"], d["comms"]
assert c["worker"]["tasks"] == 2 and c["worker"]["run_ns"] == 11500 and \
    c["worker"]["waits"] == 3, c["worker"]
assert "pid" not in c["worker"], c["worker"]
assert d["syscalls"] == [
    {"nr": 230, "name": "clock_nanosleep", "count": 1, "errors": 0, "total_ns": 1500,
     "min_ns": 1500, "avg_ns": 1500, "max_ns": 1500},
    {"nr": 0, "name": "read", "count": 3, "errors": 2, "total_ns": 800, "min_ns": 100,
     "avg_ns": 266, "max_ns": 500}], d["syscalls"]
EOT
result "profile --json: the same figures, in nanoseconds" $? "$tmp/pf.why"

# Lost records without a sequence gap: drops that a subbuffer's header
# counts beyond the previous header's; none: no loss.
MKTRACE_PROFILE=dropped "$mk" "$tmp/pf-d.dat" "$tmp/pf-d.exp" profile
MKTRACE_PROFILE=whole "$mk" "$tmp/pf-w.dat" "$tmp/pf-w.exp" profile
"$bin" profile "$tmp/pf-d.dat" >"$tmp/pf-d.out" 2>&1
"$bin" profile "$tmp/pf-w.dat" >"$tmp/pf-w.out" 2>&1
diff "$tmp/pf.want" "$tmp/pf-d.out" >"$tmp/pf.why"
result "profile: events dropped between two subbuffers are a loss (the same figures)" \
	"$([ ! -s "$tmp/pf.why" ]; echo $?)" "$tmp/pf.why"
result "profile: no gap and no drop, no loss: 200 sleeps 6-15us, 300 9-19us (no wakeup)" \
	"$(grep -q '^# profile: .*, 0 loss(es)$' "$tmp/pf-w.out" &&
	   grep -q '^task pid=200 comm=worker run=6.500us runs=3 wait=1.500us waits=2 '\
'max_wait=1.000us sleep=9.000us blocked=0.000us$' \
		"$tmp/pf-w.out" &&
	   grep -q '^task pid=300 comm=worker run=5.000us runs=2 wait=2.000us waits=1 '\
'max_wait=2.000us sleep=10.000us blocked=0.000us$' \
		"$tmp/pf-w.out"; echo $?)" "$tmp/pf-w.out"

# Two traces: merged on CLOCK_REALTIME, a window and a loss count each,
# host= on every line, the sums per machine.
"$bin" profile "$tmp/pf.dat" "$tmp/pf-w.dat" >"$tmp/pf-m.out" 2>&1
"$bin" profile --json "$tmp/pf.dat" "$tmp/pf-w.dat" >"$tmp/pf-m.json" 2>&1
result "profile of two traces: a header each, host= on every line, valid JSON" \
	"$([ "$(grep -c \
		'^# profile host=synthetic: from 1700000000.000001000 to 1700000000.000019500 ' \
		"$tmp/pf-m.out")" = 2 ] &&
	   grep -q ', 1 loss(es)$' "$tmp/pf-m.out" && grep -q ', 0 loss(es)$' "$tmp/pf-m.out" &&
	   [ "$(grep -v '^#' "$tmp/pf-m.out" | grep -cv '^[a-z]* host=synthetic ')" = 0 ] &&
	   [ "$(grep -c '^syscall host=synthetic pid=all nr=0 name=read count=3 errors=2 ' \
		"$tmp/pf-m.out")" = 2 ] &&
	   python3 -c 'import json, sys; d = json.load(open(sys.argv[1]))
assert [t["losses"] for t in d["traces"]] == [1, 0] and len(d["tasks"]) == 8
assert all(t["host"] == "synthetic" for t in d["tasks"] + d["comms"] + d["syscalls"])' \
		"$tmp/pf-m.json"; echo $?)" "$tmp/pf-m.out"

# System call numbers as report prints them: -1 signed, 511 and up a
# lower bound (worker 300 calls -1 at 7400 ns, >=511 at 7600 ns).
MKTRACE_PROFILE=nr "$mk" "$tmp/pf-n.dat" "$tmp/pf-n.exp" profile
"$bin" profile -p 300 "$tmp/pf-n.dat" >"$tmp/pf-n.out" 2>&1
"$bin" profile --json -p 300 "$tmp/pf-n.dat" >"$tmp/pf-n.json" 2>&1
"$bin" latency syscall -p 300 "$tmp/pf-n.dat" >"$tmp/pf-n.lat" 2>&1
result "profile and latency syscall: system call -1 and >=511 as report prints them" \
	"$(grep -q '^syscall pid=300 comm=worker nr=-1 count=1 errors=1 total=0.100us ' \
		"$tmp/pf-n.out" &&
	   grep -q '^syscall pid=300 comm=worker nr=>=511 count=1 errors=0 total=0.200us ' \
		"$tmp/pf-n.out" &&
	   grep -q '^syscall pid=all nr=-1 count=1 ' "$tmp/pf-n.out" &&
	   python3 -c 'import json, sys; d = json.load(open(sys.argv[1]))
s = [(c["nr"], c.get("name")) for c in d["tasks"][0]["syscalls"]]
assert s == [(230, "clock_nanosleep"), (0, "read"), (">=511", None), (-1, None)], s' \
		"$tmp/pf-n.json" &&
	   grep -q '^  0.100us at 5.000007400 cpu=0 pid=300 comm=worker nr=-1$' "$tmp/pf-n.lat" &&
	   grep -q '^  0.200us at 5.000007600 cpu=0 pid=300 comm=worker nr=>=511$' \
		"$tmp/pf-n.lat"; echo $?)" "$tmp/pf-n.out"

"$bin" profile -p 100 "$tmp/pf.dat" >"$tmp/pf.p" 2>&1
result "profile -p 100: its lines only, its name's and its calls' sums" \
	"$([ "$(grep -vc '^#' "$tmp/pf.p")" = 4 ] &&
	   grep -q '^comm comm=sleeper tasks=1 run=2.700us ' "$tmp/pf.p" &&
	   grep -q '^syscall pid=all nr=0 name=read count=1 errors=0 ' "$tmp/pf.p" &&
	   ! grep -q 'pid=[23]0' "$tmp/pf.p"; echo $?)" "$tmp/pf.p"
check "profile -p x: usage error" 2 '' "bad pid 'x'" -- profile -p x "$tmp/pf.dat"
check "profile --bogus: usage error" 2 '' 'usage: ktrace profile' -- profile --bogus
check "profile --help" 0 '^usage: ktrace profile' '' -- profile --help
"$mk" "$tmp/pf-io.dat" "$tmp/pf-io.exp" io
check "profile of a trace without sched:switch or syscalls: exit 1, says so" 1 '' \
	'no sched:switch or syscalls:entry event in the trace' -- profile "$tmp/pf-io.dat"
