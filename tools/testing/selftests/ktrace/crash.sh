#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The triggers whose causes leave the kernel unfit for other tests, in a
# guest of their own (.ci/guest/job-crash.sh), through LKDTM: a task hung
# in D state (the hung-task detector), a WARN() and an oops (BUG()).  Each trigger
# must fire on its real cause and freeze the trace with the events before
# it.  Not run by run_kselftest.sh: it taints the kernel on purpose.

. "$(dirname "$0")"/lib.sh

ktrace_setup
LKDTM=/sys/kernel/debug/provoke-crash/DIRECT
[ -w $LKDTM ] || { ktap_skip_all "no $LKDTM: is CONFIG_LKDTM=y?"; exit "$KSFT_SKIP"; }

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

wait_stopped() {
	for _ in $(seq "$1"); do
		[ "$(cat "$KT/enable")" = 0 ] && return 0
		sleep 0.1
	done
	return 1
}

has() {
	if grep -qE -e "$2" "$TMP/out"; then
		ktap_test_pass "$1"
	else
		ktap_print_msg "no line matches: $2"
		tail -n 5 "$TMP/out" | while read -r l; do ktap_print_msg "  $l"; done
		ktap_test_fail "$1"
	fi
}

ascii() {
	timeout 5 cat "$KT/ascii" >"$TMP/out"
	[ -z "${KTRACE_SAVE_DIR:-}" ] || { mkdir -p "$KTRACE_SAVE_DIR" &&
		cp "$TMP/out" "$KTRACE_SAVE_DIR/crash-$1.txt"; }
}

start() {
	echo 0 >"$KT/enable"
	echo overwrite >"$KT/mode"
	echo 0 >"$KT/events/enable"
	echo 1 >"$KT/events/ktrace/enable"
	echo 1 >"$KT/events/sched/enable"
	echo 1 >"$KT/enable"
}

# --- hung_task: a task in D state for more than 2 s --------------------------
echo 2 >/proc/sys/kernel/hung_task_timeout_secs
echo hung_task >"$KT/triggers"
start
echo "before the hang" >"$KT/mark"
# Its own stdout: a task stuck forever must not hold the runner's pipe.
sh -c 'echo $$ >'"$TMP"'/hung; exec 2>/dev/null; echo HUNG_TASK >'"$LKDTM" >/dev/null 2>&1 &
wait_stopped 300
HUNG=$(cat "$TMP/hung")
check "hung_task: the detector's report stopped tracing" "$(cat "$KT/enable")" 0
ascii hung
has "hung_task: the trigger record names the hung task" \
	" ktrace:trigger trigger=\"hung_task\" pid=$HUNG comm=\"sh\" value=[0-9]+ \
fired=1 action=stop reason=\"hung task\"$"
blocked=$(sed -n 's/.* trigger="hung_task" .* value=\([0-9]*\) .*/\1/p' "$TMP/out")
# Reported after hung_task_timeout_secs (2 s), within two check periods.
if [ -n "$blocked" ] && [ "$blocked" -ge 2000000000 ] && [ "$blocked" -le 10000000000 ]; then
	ktap_test_pass "hung_task: the value is the time blocked ($blocked ns)"
else
	ktap_print_msg "got '$blocked', want 2 s to 10 s"
	ktap_test_fail "hung_task: the value is the time blocked"
fi
# The COMM-PID column of a switch is the next task's: the task switched
# out is the one the CPU's previous line ran.
order=$(awk -v p="$HUNG" '/text="before the hang"/ && !m { m = NR }
	$4 == "sched:switch" && run[$2] == p && $7 == "prev_state=D" && !d { d = NR }
	{ n = split($3, a, "-"); run[$2] = a[n] }
	$0 ~ " sched:hang pid=" p "$" && !h { h = NR }
	/ ktrace:trigger trigger="hung_task"/ && !t { t = NR }
	END { print (m && d > m && h > d && t > h) ? "ok" : m " " d " " h " " t }' "$TMP/out")
check "hung_task: the mark, the task going to sleep in D, sched:hang, then the trigger" "$order" ok
echo '!hung_task' >"$KT/triggers"

# --- warn: WARN_ON() in a write to LKDTM ---------------------------------------
echo warn >"$KT/triggers"
start
echo "before the warning" >"$KT/mark"
sh -c 'echo $$ >'"$TMP"'/warn; exec 2>/dev/null; echo WARNING >'"$LKDTM"
WARN=$(cat "$TMP/warn")
wait_stopped 100
check "warn: the WARN() stopped tracing" "$(cat "$KT/enable")" 0
ascii warn
has "warn: the trigger record names the warning task and where the WARN() is" \
	" ktrace:trigger trigger=\"warn\" pid=$WARN comm=\"sh\" value=0 fired=1 action=stop reason=\"WARNING at lkdtm_WARNING\\+0x[0-9a-f]+/0x[0-9a-f]+\"$"
order=$(awk '/text="before the warning"/ && !m { m = NR }
	/ ktrace:trigger trigger="warn"/ && !t { t = NR }
	END { print (m && t > m) ? "ok" : m " " t }' "$TMP/out")
check "warn: the mark before the trigger record" "$order" ok
echo '!warn' >"$KT/triggers"

# --- oops: BUG() in a write to LKDTM ------------------------------------------
echo oops >"$KT/triggers"
start
echo "before the oops" >"$KT/mark"
sh -c 'echo $$ >'"$TMP"'/oops; exec 2>/dev/null; echo BUG >'"$LKDTM"
OOPS=$(cat "$TMP/oops")
wait_stopped 100
check "oops: the oops stopped tracing" "$(cat "$KT/enable")" 0
check "oops: the writer was killed, the kernel goes on" "$(kill -0 "$OOPS" 2>&1 && echo alive)" \
	"sh: can't kill pid $OOPS: No such process"
ascii oops
has "oops: the trigger record names the oopsing task and the trap" \
	" ktrace:trigger trigger=\"oops\" pid=$OOPS comm=\"sh\" value=0 fired=1 action=stop reason=\"invalid opcode\"$"
order=$(awk '/text="before the oops"/ && !m { m = NR }
	/ ktrace:trigger trigger="oops"/ && !t { t = NR }
	END { print (m && t > m) ? "ok" : m " " t }' "$TMP/out")
check "oops: the mark before the trigger record" "$order" ok
echo '!oops' >"$KT/triggers"
ktrace_done
