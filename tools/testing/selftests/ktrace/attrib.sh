#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The task of every line.  With the scheduler, the system calls and the
# medium-rate channel's events (fork, exec, comm, marks) on, every line of
# the ascii pipe and of ktrace report names, as its COMM-PID, the task
# running on its CPU: the next task of the last sched:switch on that CPU,
# whatever the channel of the line.  The exit of rt_sigreturn, whose
# number the kernel reports as -1 (ftrace: NR -1), shows nr=-1.  A task
# alive before the trace, renamed before it and exiting during it, is
# named: the saved comms learn names at context switches.  A name is one
# word of its line, whatever it holds.

. "$(dirname "$0")"/lib.sh

ktrace_setup
ktrace_tool

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
dmesg_start=$(dmesg_mark)

# running FILE: "CHECKED WRONG" for the lines of FILE after a sched:switch
# on their CPU: the lines whose pid is not the last next_pid of that CPU
# are WRONG, and so are the sched:switch lines whose prev_pid is not the
# next_pid of the switch before on their CPU (the first few go to FILE.bad).
running() {
	awk -v bad="$1.bad" '{
		i = match($3, /-[0-9]+$/); if (!i) next
		pid = substr($3, i + 1); cpu = $2; prev = ""; next_pid = ""
		if ($4 == "sched:switch")
			for (f = 5; f <= NF; f++)
				if (index($f, "next_pid=") == 1)
					next_pid = substr($f, 10)
				else if (index($f, "prev_pid=") == 1)
					prev = substr($f, 10)
		if ((cpu in run) && $4 == "sched:switch" && prev != run[cpu]) {
			n++; wrong++; if (wrong <= 5) print >bad
		}
		if (next_pid != "") run[cpu] = next_pid
		if (!(cpu in run)) next
		n++
		if (pid != run[cpu]) { wrong++; if (wrong <= 5) print >bad }
	} END { print n + 0, wrong + 0 }' "$1"
}

# named FILE PID: "LINES BAD" for the lines of FILE whose task is PID:
# BAD of them not named oldtimer.  The first lines that name PID anywhere
# are printed.
named() {
	grep -E -e "-$2 |=$2( |\$)" "$1" | head -n 4 | while read -r l; do
		ktap_print_msg "  $l" >&2
	done
	awk -v pid="$2" '{
		i = match($3, /-[0-9]+$/); if (!i || substr($3, i + 1) != pid) next
		n++; if (substr($3, 1, i - 1) != "oldtimer") bad++
	} END { print n + 0, bad + 0 }' "$1"
}

# The workload: a signal handler (rt_sigreturn), forks and execs (their
# sched:comm on the medium channel), marks, on both CPUs; a shell that
# names itself with a newline, which must not cut its lines.
cat >"$TMP/w.sh" <<'EOF'
trap 'x=1' USR1
sh -c 'printf "nl\nname" >/proc/self/comm; ls / >/dev/null; exit 0'
for c in 0 1 0 1; do
	taskset -c $c sh -c 'trap "x=1" USR1; kill -USR1 $$; ls / >/dev/null
		echo "cpu$0" >"$1/mark"; cat /proc/self/comm >/dev/null' $c "$1"
done
kill -USR1 $$
sleep 3
EOF

# oldtimer: alive before the trace, named before it, exits during it.
# A shell that renames itself, then forks sleep and waits for it (exit
# last, so that the shell does not exec sleep in its place).
oldtimer() {
	sh -c 'printf oldtimer >/proc/self/comm; sleep 2; exit 0' &
	OLD=$!
	i=0
	while [ "$(cat "/proc/$OLD/comm")" != oldtimer ] && [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	ktap_print_msg "oldtimer: pid $OLD, named $(cat "/proc/$OLD/comm") after $i waits"
}

# The ascii pipe.
echo 1 >"$KT/events/sched/enable"
echo 1 >"$KT/events/syscalls/enable"
oldtimer
echo 1 >"$KT/enable"
sh "$TMP/w.sh" "$KT"
echo 0 >"$KT/enable"
wait
timeout 10 cat "$KT/ascii" >"$TMP/ascii" 2>/dev/null
read -r n wrong <<EOF
$(running "$TMP/ascii")
EOF
ktap_print_msg "ascii pipe: $n lines after a switch, \
$(grep -c ' sched:comm ' "$TMP/ascii") sched:comm"
[ -f "$TMP/ascii.bad" ] && while read -r l; do ktap_print_msg "  $l"; done <"$TMP/ascii.bad"
check "ascii pipe: every line names the running task" \
	"$(echo "$n" | awk '{ print ($1 > 1000) }') $wrong" "1 0"
LINE='^[0-9]+\.[0-9]{9} [0-9]+ [^ ]+-[0-9]+ [a-z_]+:[a-z_]+( |$)'
check "ascii pipe: every line is one event, a name with a newline one word" \
	"$(grep -c -v -E "$LINE" "$TMP/ascii") $(grep -c ' nl?name-[0-9]* ' "$TMP/ascii" |
	   awk '{ print ($1 > 0) }')" "0 1"
check "ascii pipe: lines of the medium channel after a switch" \
	"$(awk '$4 == "sched:comm" || $4 == "sched:exec" || $4 == "ktrace:mark"' "$TMP/ascii" |
	   wc -l | awk '{ print ($1 >= 8) }')" 1
check "ascii pipe: rt_sigreturn's exit is nr=-1" \
	"$(grep -c ' syscalls:exit nr=-1 ' "$TMP/ascii" | awk '{ print ($1 >= 5) }') $(
	   grep -c ' syscalls:[a-z]* nr=>=' "$TMP/ascii")" "1 0"
read -r n bad <<EOF
$(named "$TMP/ascii" "$OLD")
EOF
check "ascii pipe: a task from before the trace that exited is named" \
	"$(echo "$n" | awk '{ print ($1 > 0) }') $bad" "1 0"

# ktrace report, of a trace recorded by ktrace record.
oldtimer
"$BIN" record -o "$TMP/t.dat" -m drop -e sched,syscalls,ktrace -- sh "$TMP/w.sh" "$KT" \
	>"$TMP/record.out" 2>&1
check "record exits 0" "$?" 0
wait
"$BIN" report "$TMP/t.dat" >"$TMP/rep" 2>"$TMP/rep.err"
check "report exits 0, without a warning" "$?/$(wc -c <"$TMP/rep.err")" "0/0"
read -r n wrong <<EOF
$(running "$TMP/rep")
EOF
ktap_print_msg "report: $n lines after a switch, $(grep -c ' sched:comm ' "$TMP/rep") sched:comm"
[ -f "$TMP/rep.bad" ] && while read -r l; do ktap_print_msg "  $l"; done <"$TMP/rep.bad"
check "report: every line names the running task" \
	"$(echo "$n" | awk '{ print ($1 > 1000) }') $wrong" "1 0"
check "report: every line is one event, a name with a newline one word" \
	"$(grep -c -v -E "$LINE" "$TMP/rep") $(grep -c ' nl?name-[0-9]* ' "$TMP/rep" |
	   awk '{ print ($1 > 0) }')" "0 1"
check "report: rt_sigreturn's exit is nr=-1" \
	"$(grep -c ' syscalls:exit nr=-1 ' "$TMP/rep" | awk '{ print ($1 >= 5) }') $(
	   grep -c ' syscalls:[a-z]* nr=>=' "$TMP/rep")" "1 0"
"$BIN" report --json "$TMP/t.dat" 2>/dev/null | grep '"event":"syscalls:exit"' |
	grep -c '"nr":-1' >"$TMP/json"
check "report --json: rt_sigreturn's exit is \"nr\":-1" \
	"$(awk '{ print ($1 >= 5) }' "$TMP/json")" 1
read -r n bad <<EOF
$(named "$TMP/rep" "$OLD")
EOF
check "report: a task from before the trace that exited is named" \
	"$(echo "$n" | awk '{ print ($1 > 0) }') $bad" "1 0"
check "no kernel warning" "$(splats_since "$dmesg_start")" 0
ktrace_done
