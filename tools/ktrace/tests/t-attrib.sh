# SPDX-License-Identifier: GPL-2.0
# The running task across channels (sourced by run.sh): every line names
# the task running on its CPU, from the switches of the high-rate channel
# and the subbuffer headers of both, whichever is newest, also after a
# channel lost subbuffers, its name one word (control characters as ?);
# and syscalls:exit's signed nr: -1 is exact.

"$mk" "$tmp/at.dat" "$tmp/at.exp" attrib
sort -s -k1,1n "$tmp/at.exp" >"$tmp/at.want"
# The previous task of a switch is t-profile.sh's: compared without it.
"$bin" report "$tmp/at.dat" 2>"$tmp/at.err" |
	sed 's/sched:switch prev_comm=.* ==> next_comm=[^ ]* /sched:switch /' >"$tmp/at.got"
diff "$tmp/at.want" "$tmp/at.got" >"$tmp/at.why" 2>&1
result "report: each line names the task running on its CPU, across channels and lost \
subbuffers ($(wc -l <"$tmp/at.want") lines)" $? "$tmp/at.why"

# The same tasks in JSON, and the nr of rt_sigreturn's exit as a number.
"$bin" report --json "$tmp/at.dat" 2>/dev/null |
	sed -n 's/.*"cpu":\([0-9]*\),"pid":\([0-9]*\),"comm":"\([^"]*\)".*/\1 \2 \3/p' \
		>"$tmp/atj.got"
# The name as any JSON string, control characters escaped.
awk '{ n = split($3, w, "-")
	print $2, w[n],
		$3 ~ /^tab/ ? "tab\\tnl\\n" : substr($3, 1, length($3) - length(w[n]) - 1) }' \
	"$tmp/at.want" | diff - "$tmp/atj.got" >"$tmp/atj.why" 2>&1
result "report --json: the same running tasks" $? "$tmp/atj.why"
"$bin" report --json "$tmp/at.dat" 2>/dev/null | grep -o '"nr":[^,}]*' | tr '\n' ' ' >"$tmp/atn.got"
echo >>"$tmp/atn.got"
echo '"nr":0 "nr":-1 "nr":">=511" "nr":"<=-512" "nr":462 "nr":1 "nr":3 "nr":4 "nr":5 ' |
	diff - "$tmp/atn.got" >"$tmp/atn.why" 2>&1
result "report --json: nr -1 is a number, not a saturation; the bounds saturate" $? "$tmp/atn.why"

# report -p PID selects by the running task: the lines of both channels
# that pid 20 ran, and only those.
"$bin" report -p 20 "$tmp/at.dat" 2>&1 |
	sed 's/sched:switch prev_comm=.* ==> next_comm=[^ ]* /sched:switch /' >"$tmp/atp.got"
grep ' twenty-20 ' "$tmp/at.want" | diff - "$tmp/atp.got" >"$tmp/atp.why" 2>&1
result "report -p 20: the lines that task ran, of both channels" $? "$tmp/atp.why"
