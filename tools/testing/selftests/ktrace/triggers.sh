#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Triggers: the triggers file refuses bad specs with their errno and
# changes nothing; the user trigger, count=, delay= and action=mark are
# checked by counting the events around the trigger record; the tracer
# restarts after a trigger stopped it; the ktrace_trigger tracepoint
# reaches ftrace; and the OOM, block, syscall and wakeup latency triggers
# fire on their real causes with the history before them kept.  (oops,
# hung_task and panic need a guest of their own: crash.sh.)

. "$(dirname "$0")"/lib.sh

ktrace_setup

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
dmesg_start=$(dmesg_mark)
P=/sys/module/ktrace/parameters
old_tick=$(cat $P/tick_us)

# disarm_all: no trigger armed.
disarm_all() {
	while read -r name _; do
		echo "!${name%%>*}" >"$KT/triggers"
	done <"$KT/triggers"
}

# wait_stopped: until tracing stopped (the stop work of a trigger), 10 s at most.
wait_stopped() {
	for _ in $(seq 100); do
		[ "$(cat "$KT/enable")" = 0 ] && return 0
		sleep 0.1
	done
	return 1
}

# ascii: the whole trace, once stopped, in $TMP/out.
ascii() {
	timeout 5 cat "$KT/ascii" >"$TMP/out"
	[ -z "${KTRACE_SAVE_DIR:-}" ] || { mkdir -p "$KTRACE_SAVE_DIR" &&
		cp "$TMP/out" "$KTRACE_SAVE_DIR/triggers-$1.txt"; }
}

# pipe: the trigger_pipe lines waiting, in $TMP/pipe.
pipe() {
	: >"$TMP/pipe"
	while wr -R "$KT/trigger_pipe" >"$TMP/line" 2>&1; do
		sed 1d "$TMP/line" >>"$TMP/pipe"
	done
}

# after_trigger ERE: lines matching ERE after the first ktrace:trigger line.
after_trigger() {
	awk -v re="$1" '/ ktrace:trigger / { t = 1; next } t && $0 ~ re { n++ }
		END { print n + 0 }' "$TMP/out"
}

# start MODE: a new trace in MODE with the ktrace events on.
start() {
	echo 0 >"$KT/enable"
	echo "$1" >"$KT/mode"
	echo 0 >"$KT/events/enable"
	echo 1 >"$KT/events/ktrace/enable"
	echo 1 >"$KT/enable"
}

disarm_all
pipe

# --- the triggers file: good and bad specs ---------------------------------
echo oom >"$KT/triggers"
check "arming oom lists it with every option" "$(cat "$KT/triggers")" \
	"oom count=1 delay=0 action=stop hits=0 fired=0"
echo 'latency:syscall>1500us nr=35 count=2 delay=10 action=mark' >"$KT/triggers"
check "a latency spec is listed in its largest exact unit" \
	"$(grep latency "$KT/triggers")" \
	"latency:syscall>1500us count=2 delay=10 action=mark nr=35 hits=0 fired=0 untracked=0"
echo '!latency:syscall' >"$KT/triggers"
if [ "$(uname -m)" = x86_64 ]; then
	echo 'latency:syscall>2ms nr=clock_nanosleep' >"$KT/triggers"
	check "nr=NAME: a system call name, listed as its number" \
		"$(grep latency "$KT/triggers")" \
		"latency:syscall>2ms count=1 delay=0 action=stop nr=230 hits=0 fired=0 untracked=0"
	echo '!latency:syscall' >"$KT/triggers"
fi
echo 'panic' >"$KT/triggers"
check "panic lists its dump length" "$(grep panic "$KT/triggers")" \
	"panic count=1 delay=0 action=stop last=100 hits=0 fired=0"
echo '!panic' >"$KT/triggers"
cp "$KT/triggers" "$TMP/before"
while IFS='|' read -r spec want; do
	check "'$spec' is refused with $want" "$(wr "$KT/triggers" "$spec")" "$want"
done <<'EOF'
bogus|EINVAL
latency|EINVAL
latency:block|EINVAL
latency:block>10|EINVAL
latency:block>10m|EINVAL
latency:block>-5ms|EINVAL
latency:bogus>1ms|EINVAL
latency:block>0ms|ERANGE
latency:block>999ns|ERANGE
latency:block>3601s|ERANGE
latency:block>99999999999999999999999s|ERANGE
user count=0|ERANGE
user count=-1|EINVAL
user count=abc|EINVAL
user count=1000001|ERANGE
user delay=600001|ERANGE
user action=explode|EINVAL
user count=1 count=2|EINVAL
user nr=3|EINVAL
user last=3|EINVAL
user bogus=1|EINVAL
user count|EINVAL
oom|EBUSY
!oops|ENOENT
!oom count=1|EINVAL
!latency:block>1ms|EINVAL
|EINVAL
EOF
check "an overlong spec is refused" \
	"$(wr -n 200 "$KT/triggers" "user count=1 ")" "EINVAL"
check "the refused specs changed nothing" "$(cat "$KT/triggers")" "$(cat "$TMP/before")"
echo '!oom' >"$KT/triggers"
check "disarming leaves nothing armed" "$(cat "$KT/triggers")" ""

# --- the user trigger ------------------------------------------------------
check "the trigger file without a user trigger: ENOENT" "$(wr "$KT/trigger" why)" "ENOENT"
echo user >"$KT/triggers"
echo 0 >"$KT/enable"
check "the user trigger when not tracing: EAGAIN" "$(wr "$KT/trigger" why)" "EAGAIN"
check "an empty reason: EINVAL" "$(wr "$KT/trigger" "")" "EINVAL"
check "an overlong reason: EINVAL" "$(wr -n 129 "$KT/trigger" x)" "EINVAL"

start overwrite
for i in 1 2 3; do echo "before-$i" >"$KT/mark"; done
echo "slow response 42" >"$KT/trigger"
# delay=0: the gate is closed before the write returns.
check "the user trigger froze the trace at once" "$(cat "$KT/enable")" 0
echo "after" >"$KT/mark" 2>/dev/null
wait_stopped
ascii user
has "the trigger record names the writer and its reason" "$TMP/out" \
	"-$$ ktrace:trigger trigger=\"user\" pid=$$ comm=\"[^\"]+\" value=0 fired=1 \
action=stop reason=\"slow response 42\"$"
check "the three marks are before it" \
	"$(awk '/ ktrace:trigger /{exit} /text="before-/{n++} END{print n+0}' "$TMP/out")" 3
check "nothing after it" "$(after_trigger .)" 0
pipe
has "trigger_pipe has one line for the firing" "$TMP/pipe" \
	"^[0-9]+\.[0-9]{9} user action=stop fired=1 pid=$$ comm=\"[^\"]+\""\
	" value=0 reason=\"slow response 42\"$"
check "trigger_pipe is consumed" "$(wr -R "$KT/trigger_pipe")" "EAGAIN"
check "the triggers file counts the firing" "$(cat "$KT/triggers")" \
	"user count=1 delay=0 action=stop hits=1 fired=1"

# A new start after the stop: traces again, and the trigger fires again.
echo 1 >"$KT/enable"
echo "second" >"$KT/mark"
echo "again" >"$KT/trigger"
wait_stopped
ascii restart
check "after a new start the trace has the new mark and the second firing" \
	"$(grep -cE -e 'text="second"$' \
		-e 'ktrace:trigger .* fired=2 action=stop reason="again"$' "$TMP/out")" 2

# --- count= ----------------------------------------------------------------
echo '!user' >"$KT/triggers"
echo 'user count=3' >"$KT/triggers"
start overwrite
echo one >"$KT/trigger"
echo two >"$KT/trigger"
check "count=3: tracing goes on after two occurrences" "$(cat "$KT/enable")" 1
echo "between" >"$KT/mark"
echo three >"$KT/trigger"
wait_stopped
ascii count
check "count=3: one trigger record, for the third" \
	"$(grep -c 'ktrace:trigger ' "$TMP/out"):$(grep -c 'reason="three"$' "$TMP/out")" \
	"1:1"
check "count=3: the mark between is before it" \
	"$(awk '/ ktrace:trigger /{exit} /text="between"/{n++} END{print n+0}' "$TMP/out")" 1
pipe

# --- delay= ----------------------------------------------------------------
# test:tick every 5 ms on both CPUs: events keep coming after the cause.
echo 5000 >$P/tick_us
echo '!user' >"$KT/triggers"
echo 'user delay=500' >"$KT/triggers"
start overwrite
echo 1 >"$KT/events/test/tick/enable"
sleep 0.3
echo "with delay" >"$KT/trigger"
check "delay=500: still tracing right after the cause" "$(cat "$KT/enable")" 1
wait_stopped
echo 0 >"$KT/events/test/tick/enable"
ascii delay
ticks=$(after_trigger 'test:tick')
span=$(awk '/ ktrace:trigger /{t = $1} t && / test:tick /{l = $1}
	END { printf "%d", (l - t) * 1000 }' "$TMP/out")
ktap_print_msg "delay=500: $ticks ticks in the $span ms after the trigger record"
if [ "$ticks" -gt 20 ] && [ "$span" -ge 400 ] && [ "$span" -lt 3000 ]; then
	ktap_test_pass "delay=500: events go on for about 500 ms after the trigger"
else
	ktap_test_fail "delay=500: events go on for about 500 ms after the trigger"
fi

echo '!user' >"$KT/triggers"
echo 'user' >"$KT/triggers"
start overwrite
echo 1 >"$KT/events/test/tick/enable"
sleep 0.3
echo "no delay" >"$KT/trigger"
wait_stopped
echo 0 >"$KT/events/test/tick/enable"
ascii nodelay
# A writer already past the gate on the other CPU may finish its event.
late=$(awk '/ ktrace:trigger /{t = $1; next} t && / test:tick / && $1 > t + 0.002 {n++}
	END { print n + 0 }' "$TMP/out")
check "delay=0: no event more than 2 ms after the trigger record" "$late" 0
has "delay=0: ticks before it" "$TMP/out" " test:tick "
echo "$old_tick" >$P/tick_us
pipe

# --- a stop across traces --------------------------------------------------
# A delay= stop still pending when its trace is stopped and another
# started must not hold back the stop of the trigger of the new trace.
stops() { dmesg | grep -c 'ktrace: trigger user: trace frozen .* and stopped'; }
state() { awk '$1 == "state" { print $2 }' "$KT/stats"; }
# wait_state STATE: until the stats file tells STATE, 5 s at most.
wait_state() {
	for _ in $(seq 50); do
		[ "$(state)" = "$1" ] && return 0
		sleep 0.1
	done
	return 1
}
echo '!user' >"$KT/triggers"
echo 'user delay=600000' >"$KT/triggers"
start overwrite
echo "long delay" >"$KT/trigger"
check "delay=600000: tracing goes on after the cause" "$(cat "$KT/enable"):$(state)" \
	"1:tracing"
echo 0 >"$KT/enable"
echo '!user' >"$KT/triggers"
echo user >"$KT/triggers"
nstops=$(stops)
echo 1 >"$KT/enable"
echo "no delay" >"$KT/trigger"
wait_state stopped
check "a stop pending from the previous trace: the new delay=0 trigger stops the trace" \
	"$(cat "$KT/enable"):$(state)" "0:stopped"
check "its stop work ran and logged the stop" "$(stops)" $((nstops + 1))
check "the stopped trace takes a mode" "$(wr "$KT/mode" drop)" "ok 4"
echo overwrite >"$KT/mode"
# Writing 1 right after a delay=0 firing, whether its stop work ran yet
# or not (a frozen trace reads 0 and is stopped first): a new trace.
echo 1 >"$KT/enable"
echo "again" >"$KT/trigger"
echo 1 >"$KT/enable"
check "writing 1 just after a firing starts a new trace" "$(cat "$KT/enable"):$(state)" \
	"1:tracing"
echo "after the restart" >"$KT/mark"
echo "third" >"$KT/trigger"
wait_state stopped
check "the new trace records and fires again" \
	"$(grep -c '^user count=1 delay=0 action=stop hits=3 fired=3$' "$KT/triggers")" 1
ascii restart-frozen
check "the mark after the restart is in the trace, before the third firing" \
	"$(awk '/ ktrace:trigger .*reason="third"$/ { print m + 0; exit }
		/text="after the restart"$/ { m++ }' "$TMP/out")" 1
echo '!user' >"$KT/triggers"
pipe

# --- action=mark -----------------------------------------------------------
echo '!user' >"$KT/triggers"
echo 'user action=mark' >"$KT/triggers"
start overwrite
echo first >"$KT/trigger"
echo second >"$KT/trigger"
check "action=mark: tracing goes on" "$(cat "$KT/enable")" 1
echo "still tracing" >"$KT/mark"
echo 0 >"$KT/enable"
ascii mark
check "action=mark: both firings recorded, the trace goes on after them" \
	"$(grep -cE -e 'fired=1 action=mark reason="first"$' \
		-e 'fired=2 action=mark reason="second"$' \
		-e 'text="still tracing"$' "$TMP/out")" 3
pipe
check "action=mark: two trigger_pipe lines" "$(grep -c ' user action=mark ' "$TMP/pipe")" 2

# --- the ktrace_trigger tracepoint --------------------------------------------
T=/sys/kernel/debug/tracing
echo 0 >$T/tracing_on
echo >$T/trace
echo 1 >$T/events/ktrace/ktrace_trigger/enable
echo 1 >$T/tracing_on
echo 1 >"$KT/enable"
echo "for ftrace" >"$KT/trigger"
echo 0 >"$KT/enable"
echo 0 >$T/events/ktrace/ktrace_trigger/enable
has "ftrace sees the ktrace_trigger tracepoint" $T/trace \
	"ktrace_trigger: trigger=user pid=$$ comm=[^ ]+ value=0 reason=for ftrace$"
echo '!user' >"$KT/triggers"
pipe

# --- oom -------------------------------------------------------------------
echo oom >"$KT/triggers"
start overwrite
echo 1 >"$KT/events/vm/enable"
echo "before the hog" >"$KT/mark"
# More than the memory of the guest, whatever its size; there is no swap.
mib=$(($(awk '$1 == "MemTotal:" { print $2 }' /proc/meminfo) / 1024 + 256))
sh -c 'echo $$ >'"$TMP"'/hog; echo 1000 >/proc/self/oom_score_adj;
       exec '"$DIR"'/ktrace_hog '"$mib" >/dev/null 2>&1
HOG=$(cat "$TMP/hog")
wait_stopped
check "oom: the OOM kill stopped tracing" "$(cat "$KT/enable")" 0
ascii oom
has "oom: the trigger record names the victim and its memory" "$TMP/out" \
	" ktrace:trigger trigger=\"oom\" pid=$HOG comm=\"ktrace_hog\""\
	" value=[1-9][0-9]{5,} fired=1 action=stop reason=\"oom-kill\"$"
order=$(awk -v p="pid=$HOG" '/text="before the hog"/ && !m { m = NR }
	/ vm:(direct_reclaim_begin|shrink_inactive|kswapd_wake) / && !r { r = NR }
	$0 ~ " vm:oom_kill " p " " && !k { k = NR }
	/ ktrace:trigger trigger="oom" / && !t { t = NR }
	END { print (m && r > m && k > r && t > k) ? "ok" : m " " r " " k " " t }' "$TMP/out")
check "oom: the mark, reclaim, the kill, then the trigger record" "$order" ok
echo '!oom' >"$KT/triggers"
pipe

# --- latency:block ---------------------------------------------------------
# A null_blk device whose requests complete after 1 s (timer mode).
CFG=/sys/kernel/config
grep -q " $CFG configfs " /proc/mounts || mount -t configfs none $CFG
NB=$CFG/nullb/ktlat
mkdir -p $NB
echo 2 >$NB/irqmode
echo 1000000000 >$NB/completion_nsec
echo 64 >$NB/size
echo 1 >$NB/power
# Named after its configfs directory where null_blk supports it (6.11+).
LDEV=ktlat
[ -e /sys/block/$LDEV ] || LDEV=nullb$(cat $NB/index)
LDEVT=$(cat /sys/block/$LDEV/dev)
echo 'latency:block>100ms' >"$KT/triggers"
start overwrite
echo 1 >"$KT/events/block/enable"
# A fast request on nullb0 does not fire it.
dd if=/dev/zero of=/dev/nullb0 bs=4096 count=1 seek=10 oflag=direct 2>/dev/null
check "latency:block: a fast request does not fire" "$(cat "$KT/enable")" 1
dd if=/dev/zero of=/dev/$LDEV bs=4096 count=1 seek=100 oflag=direct 2>/dev/null &
wait_stopped
wait
ascii block
has "latency:block: fired on the slow request before it completed" "$TMP/out" \
	" ktrace:trigger trigger=\"latency:block\" pid=0 comm=\"\""\
	" value=[0-9]{9} fired=1 action=stop reason=\"block $LDEVT sector 800, no end yet\"$"
in_range "latency:block: the value is the time waited so far" \
	"$(sed -n 's/.* trigger="latency:block" .* value=\([0-9]*\) .*/\1/p' "$TMP/out")" \
	100000000 999999999
# The request, named with its size by the description its key names.
order=$(awk -v d="dev=$LDEVT sector=800 nr_sector=8 op=write " '
	$0 ~ " block:rq_issue " d && !i { i = NR }
	/ ktrace:trigger / && !t { t = NR } END { print (i && t > i) ? "ok" : i " " t }' "$TMP/out")
check "latency:block: the issue of the request is before the trigger record" "$order" ok
echo '!latency:block' >"$KT/triggers"
echo 0 >$NB/power
rmdir $NB
pipe

# --- latency:syscall -------------------------------------------------------
echo 'latency:syscall>50ms nr=35' >"$KT/triggers"
start overwrite
"$DIR"/ktrace_lat sleep 10 >"$TMP/fast"
check "latency:syscall: a 10 ms nanosleep does not fire" "$(cat "$KT/enable")" 1
"$DIR"/ktrace_lat sleep 300 >"$TMP/slow"
wait_stopped
SL=$(awk '{ print $4 }' "$TMP/slow")
pipe
has "latency:syscall: fired for the 300 ms nanosleep" "$TMP/pipe" \
	" latency:syscall action=stop fired=1 pid=$SL comm=\"ktrace_lat\" value=[0-9]+ \
reason=\"syscall 35(, no end yet)?\"$"
in_range "latency:syscall: the value is over the threshold, at most the sleep" \
	"$(sed -n 's/.* latency:syscall .* value=\([0-9]*\) .*/\1/p' "$TMP/pipe")" \
	50000000 400000000
echo '!latency:syscall' >"$KT/triggers"

# A thread other than the leader that execs takes the pid of the leader: its
# execve() ends under another pid than it began with, in well under T.
# number of execve(), from a run with nothing armed.
NR_EXECVE=$("$DIR"/ktrace_lat texec | awk 'NR == 1 { print $2 }')
echo "latency:syscall>100ms nr=$NR_EXECVE" >"$KT/triggers"
start overwrite
"$DIR"/ktrace_lat texec >"$TMP/texec"
sleep 0.5
ktap_print_msg "texec: $(tr '\n' ' ' <"$TMP/texec")"
check "texec: the execve()ing thread took the pid of the leader" \
	"$(awk 'NR == 1 { p = $4 } NR == 2 { print ($4 == p) ? "ok" : $0 }' "$TMP/texec")" ok
fired=$(sed -n 's/^latency:syscall.* fired=\([0-9]*\) .*/\1/p' "$KT/triggers")
check "latency:syscall: execve() in a thread does not fire after T" \
	"$(cat "$KT/enable"):$fired" "1:0"
echo '!latency:syscall' >"$KT/triggers"
pipe

# Armed while tracing: its scan timer starts at once, and fires on a
# system call that has not ended after T.
start overwrite
echo 'latency:syscall>50ms nr=35' >"$KT/triggers"
"$DIR"/ktrace_lat sleep 1000 >"$TMP/slow"
wait_stopped
pipe
has "latency:syscall armed while tracing: the scan fires before the end" "$TMP/pipe" \
	" latency:syscall action=stop fired=1 pid=[0-9]+ comm=\"ktrace_lat\" value=[0-9]+ \
reason=\"syscall 35, no end yet\"$"
in_range "latency:syscall: it fired between T and 2T after the call began" \
	"$(sed -n 's/.* latency:syscall .* value=\([0-9]*\) .*/\1/p' "$TMP/pipe")" \
	50000000 300000000
echo '!latency:syscall' >"$KT/triggers"

# --- latency:wakeup --------------------------------------------------------
# action=mark: other tasks woken on the starved CPU fire too.
last=$(($(grep -c '^processor' /proc/cpuinfo) - 1))
echo 'latency:wakeup>50ms action=mark' >"$KT/triggers"
start overwrite
"$DIR"/ktrace_lat starve $last 300 >"$TMP/starve"
echo 0 >"$KT/enable"
SV=$(awk '{ print $2 }' "$TMP/starve")
pipe
has "latency:wakeup: fired for the thread kept from running" "$TMP/pipe" \
	" latency:wakeup action=mark fired=[0-9]+ pid=$SV comm=\"ktrace_lat\""\
	" value=[0-9]+ reason=\"wakeup to running(, no end yet)?\"$"
in_range "latency:wakeup: it waited over the threshold, at most the spin" \
	"$(sed -n "s/.* latency:wakeup .* pid=$SV .* value=\\([0-9]*\\) .*/\\1/p" "$TMP/pipe" |
	   sort -n | tail -n 1)" \
	50000000 400000000
echo '!latency:wakeup' >"$KT/triggers"

# --- disarming and arming again while tracing --------------------------------
echo 'latency:irq>1s' >"$KT/triggers"
start overwrite
echo '!latency:irq' >"$KT/triggers"
echo 'latency:irq>1s' >"$KT/triggers"
echo "after re-arming" >"$KT/mark"
echo '!latency:irq' >"$KT/triggers"
echo 0 >"$KT/enable"
ascii rearm
has "tracing goes on across disarming and arming" "$TMP/out" \
	'ktrace:mark .* text="after re-arming"$'
check "nothing is left armed" "$(cat "$KT/triggers")" ""

check "no kernel warning" "$(splats_since "$dmesg_start")" 0
ktrace_done
