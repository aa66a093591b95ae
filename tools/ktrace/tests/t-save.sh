# SPDX-License-Identifier: GPL-2.0
# Sourced by run.sh: ktrace extract and the save workflow of ktrace record,
# against a fake control directory: regular files for the control files,
# and the streams of mktrace's synthetic trace as high/cpu1, medium/cpu0
# and low/cpu0 (read until read() returns 0, as the stream files are).

# ok NAME CONDITION_STATUS [DETAIL]: one test from a status computed here.
ok() {
	n=$((n + 1))
	if [ "$2" -eq 0 ]; then
		echo "ok $n $1"
	else
		echo "not ok $n $1"
		[ -z "$3" ] || echo "# $3"
		fails=$((fails + 1))
	fi
}

# fake DIR: a control directory in a stopped state, with a trace.
fake() {
	rm -rf "$1"
	"$mk" "$tmp/fk.dat" "$tmp/fk.exp" dir "$1"
	echo 0 >"$1/enable"
	echo 'drop overwrite [hybrid]' >"$1/mode"
	echo 1024 >"$1/buffer_size_kb"
	printf 'state stopped\ncpu0 medium events=5 dropped=0 overwritten=0\n' >"$1/stats"
	# The names report takes from the saved comms: those of the .dat's
	# tasks and comms sections, so that both decode alike whatever /proc holds.
	printf '7 init\n42 stale\n99 saved\n' >"$1/comms"
	: >"$1/triggers"
	: >"$1/trigger_pipe"
	mkdir -p "$1/events/foo/bits" "$1/events/foo/switch" "$1/events/bar/io"
	echo 0 >"$1/events/foo/bits/enable"
	echo 1 >"$1/events/foo/switch/enable"
	echo 1 >"$1/events/bar/io/enable"
	echo X >"$1/events/foo/enable"
	echo 1 >"$1/events/bar/enable"
	echo X >"$1/events/enable"
}

# stop_job PID SIG TENTHS: send SIG to the background job PID, wait up to
# TENTHS tenths of a second for its end, then SIGKILL it.  Sets st to its
# exit status and i to the tenths waited.
stop_job() {
	kill -"$2" "$1"
	i=0
	while kill -0 "$1" 2>/dev/null && [ $i -lt "$3" ]; do sleep 0.1; i=$((i + 1)); done
	kill -0 "$1" 2>/dev/null && kill -KILL "$1"
	wait "$1"
	st=$?
}

# tree DIR: every file's path, mode, mtime and sha256, for "changed nothing".
tree() {
	(cd "$1" && find . -printf '%p %m %T@\n' | LC_ALL=C sort &&
	 find . -type f -exec sha256sum {} + | LC_ALL=C sort)
}

fd=$tmp/fake
cat >"$tmp/vals.sh" <<'EOF'
# vals.sh DIR: the first line of the files record changes, in one line.
cd "$1" || exit 1
for f in mode buffer_size_kb enable events/foo/bits/enable events/foo/switch/enable \
	events/bar/io/enable triggers; do
	printf '%s ' "$(head -n 1 $f)"
done
EOF
# SIGINT as in a foreground job: a background job of sh starts with it ignored.
sigint=
env --default-signal=INT true 2>/dev/null && sigint='env --default-signal=INT'
fake "$fd"
"$bin" report "$tmp/fk.dat" >"$tmp/fk.rep" 2>&1
# Read-only control files: a write would fail (as non-root); as root the
# sums and mtimes (and strace, where there is one) show that none happened.
find "$fd" -type f ! -path '*/cpu*' -exec chmod 0444 {} +
tree "$fd" >"$tmp/tree.before"
KTRACE_DIR=$fd check "extract: exit 0, says where the trace is" 0 '' \
	"ktrace extract: [0-9]+ bytes of trace in $tmp/sv-x.dat" -- extract -o "$tmp/sv-x.dat"
"$bin" report "$tmp/sv-x.dat" >"$tmp/x.rep" 2>&1
ok "extract: report of it is report of the synthetic trace ($(wc -l <"$tmp/x.rep") lines)" \
	"$([ -s "$tmp/x.rep" ] && cmp -s "$tmp/fk.rep" "$tmp/x.rep"; echo $?)" \
	"$(diff "$tmp/fk.rep" "$tmp/x.rep" | head -n 5 | tr '\n' '|')"
grep -a -q 'cpu0 medium events=5' "$tmp/sv-x.dat" && grep -a -q '^42 stale$' "$tmp/sv-x.dat" &&
	grep -a -q "^$$ " "$tmp/sv-x.dat"
ok "extract: the stats, comms and tasks sections" $?
tree "$fd" >"$tmp/tree.after"
ok "extract: every file of the control directory unchanged (sums, modes, mtimes)" \
	"$(cmp -s "$tmp/tree.before" "$tmp/tree.after"; echo $?)"
ok "extract: no temporary file left" "$(ls "$tmp"/sv-x.dat.* 2>/dev/null | wc -l)"
if command -v strace >/dev/null 2>&1; then
	KTRACE_DIR=$fd strace -f -o "$tmp/strace" \
		-e trace=%file \
		"$bin" extract -o "$tmp/sv-x2.dat" >/dev/null 2>&1
	opens=$(grep -c "\"$fd" "$tmp/strace")
	writes=$(grep "\"$fd" "$tmp/strace" |
		grep -c -E 'O_WRONLY|O_RDWR|O_CREAT|O_TRUNC|creat|truncate|unlink|rename')
	ok "extract: strace: $opens opens under the control directory, none for writing" \
		"$([ "$opens" -gt 5 ] && [ "$writes" -eq 0 ]; echo $?)" "writes=$writes"
else
	n=$((n + 1))
	echo "ok $n extract: no write open under strace # SKIP no strace"
fi

# A trace still tracing: refused, nothing written, unless --stop.
chmod 0644 "$fd/stats" "$fd/enable"
printf 'state tracing\n' >"$fd/stats"
echo 1 >"$fd/enable"
tree "$fd" >"$tmp/tree.before"
echo old >"$tmp/sv-y.dat"
KTRACE_DIR=$fd check "extract refuses a trace that is tracing, exit 1" 1 '' \
	'ktrace extract: ktrace is tracing: stop it first .* or use --stop' \
	-- extract -o "$tmp/sv-y.dat"
tree "$fd" >"$tmp/tree.after"
ok "extract: refusing changed nothing, the old file kept" \
	"$(cmp -s "$tmp/tree.before" "$tmp/tree.after" && [ "$(cat "$tmp/sv-y.dat")" = old ] &&
	   [ "$(ls "$tmp"/sv-y.dat.* 2>/dev/null | wc -l)" -eq 0 ]; echo $?)"
KTRACE_DIR=$fd check "extract --stop: stops it and saves" 0 '' 'bytes of trace in' \
	-- extract --stop -o "$tmp/sv-y.dat"
ok "extract --stop: enable 0 written, the trace saved" \
	"$([ "$(cat "$fd/enable")" = 0 ] &&
	   "$bin" report "$tmp/sv-y.dat" 2>&1 | cmp -s - "$tmp/fk.rep"
	   echo $?)"

# Frozen: extract waits for the trigger's stop work (state stopped).
printf 'state frozen\n' >"$fd/stats"
echo 0 >"$fd/enable"
# (renamed into place: a reader never sees the file truncated or half written,
# which the kernel's stats file never is either)
(sleep 0.4; printf 'state stopped\nafter the stop work\n' >"$fd/stats.new" &&
	mv "$fd/stats.new" "$fd/stats") &
KTRACE_DIR=$fd check "extract waits while the trace is frozen" 0 '' 'bytes of trace in' \
	-- extract -o "$tmp/sv-z.dat"
wait
ok "extract: the stats saved are those after the stop work" \
	"$(grep -a -q '^after the stop work$' "$tmp/sv-z.dat"; echo $?)"

# A failure while writing (a stream that cannot be read) keeps the old
# file; what was read of the other streams (gone from the kernel) is kept
# in the temporary file, named: the low and medium channels, read first
# (trace.h), and high/cpu1.
mkdir "$fd/high/cpu2"
KTRACE_DIR=$fd check "extract: a stream read error is exit 1, with the file" 1 '' \
	"high/cpu2: Is a directory" -- extract -o "$tmp/sv-y.dat"
part=$(sed -n 's/.*a partial trace is kept in \([^:]*\): the \([0-9]*\) bytes .*/\1 \2/p' \
	"$tmp/err")
ok "extract: after a failure the old file is intact, the ${part#* } bytes read kept" \
	"$("$bin" report "$tmp/sv-y.dat" 2>&1 | cmp -s - "$tmp/fk.rep" &&
	   [ "$(ls "$tmp"/sv-y.dat.* 2>/dev/null)" = "${part% *}" ] &&
	   [ "${part#* }" = "$(cat "$fd/low/cpu0" "$fd/medium/cpu0" "$fd/high/cpu1" | wc -c)" ] &&
	   [ "$(stat -c %a "${part% *}")" = 600 ]; echo $?)" "$part $(cat "$tmp/err")"
rm -f "$tmp"/sv-y.dat.*
rmdir "$fd/high/cpu2"
# A stream file that exists but cannot be opened (ELOOP): fatal, named.
ln -s cpu3 "$fd/high/cpu3"
KTRACE_DIR=$fd check "extract: a stream file that cannot be opened: exit 1, named" 1 '' \
	"high/cpu3: Too many levels of symbolic links" -- extract -o "$tmp/sv-y.dat"
KTRACE_DIR=$fd check "record: a stream file that cannot be opened: exit 1, named" 1 '' \
	"high/cpu3: Too many levels of symbolic links" -- record -o "$tmp/sv-y.dat" -- true
ok "extract, record: the old file kept" \
	"$("$bin" report "$tmp/sv-y.dat" 2>&1 | cmp -s - "$tmp/fk.rep"; echo $?)"
rm "$fd/high/cpu3"
KTRACE_DIR=$tmp/nowhere check "extract without a control directory: exit 1" 1 '' \
	'nowhere/stats: no state' -- extract -o "$tmp/sv-w.dat"
check "extract: a stray argument is a usage error" 2 '' "unexpected argument 'x'" -- extract x

# record checks everything before changing anything.
fake "$fd"
echo 'oom count=1 delay=0 action=stop hits=0 fired=0' >"$fd/triggers"
tree "$fd" >"$tmp/tree.before"
unchanged() {
	tree "$fd" >"$tmp/tree.after"
	ok "$1: every file of the control directory byte-identical" \
		"$(cmp -s "$tmp/tree.before" "$tmp/tree.after" &&
		   [ "$(ls "$tmp"/sv-r.dat* 2>/dev/null | wc -l)" -eq 0 ]; echo $?)" \
		"$(diff "$tmp/tree.before" "$tmp/tree.after" | head -n 4 | tr '\n' '|')"
}
KTRACE_DIR=$fd check "record -e nosuch:event: a usage error (2), as a bad -m, names it" 2 '' \
	"no event 'nosuch:event'" -- record -o "$tmp/sv-r.dat" -e foo/bits,nosuch:event -- true
unchanged "record -e nosuch:event"
KTRACE_DIR=$fd check "record -o /nonexistent/x.dat: exit 1" 1 '' \
	'/nonexistent/x.dat: cannot create: No such file or directory' \
	-- record -o /nonexistent/x.dat -e foo -- true
unchanged "record -o /nonexistent/x.dat"
KTRACE_DIR=$fd check "record -m bogus: usage error" 2 '' "bad mode 'bogus'" \
	-- record -o "$tmp/sv-r.dat" -m bogus -- true
unchanged "record -m bogus"
KTRACE_DIR=$fd check "record -b 7: usage error" 2 '' "bad size '7': KiB, 16 to 1048576" \
	-- record -o "$tmp/sv-r.dat" -b 7 -- true
unchanged "record -b 7"
KTRACE_DIR=$fd check "record -t oom with oom armed: exit 1" 1 '' \
	"a trigger oom is armed already: disarm it first" \
	-- record -o "$tmp/sv-r.dat" -m drop -t user -t 'oom count=2' -- true
unchanged "record -t oom with oom armed"
KTRACE_DIR=$fd check "record -- nosuchcmd: exit 127" 127 '' 'nosuchcmd: command not found' \
	-- record -o "$tmp/sv-r.dat" -m drop -e foo -- nosuchcmd
unchanged "record -- nosuchcmd"

# A -t spec is the kernel's to judge (Documentation/trace/ktrace.rst):
# record only refuses what it cannot disarm by kind (an empty spec, a
# "!KIND", two of one kind), as usage errors before anything changed.
for spec in '' ' ' '!oom'; do
	KTRACE_DIR=$fd check "record -t '$spec': usage error" 2 '' "bad trigger '" \
		-- record -o "$tmp/sv-r.dat" -m drop -t user -t "$spec" -- true
	unchanged "record -t '$spec'"
done
KTRACE_DIR=$fd check "record -t with two latency:block: usage error" 2 '' \
	'a second trigger of that kind' -- record -o "$tmp/sv-r.dat" -m drop \
	-t 'latency:block>5ms' -t ' latency:block>9ms' -- true
unchanged "record -t latency:block twice"
# Specs the kernel accepts that a copy of its grammar in record refused
# (13 digits, a number with leading zeros past 19 digits, white space
# around it; the kernel strips it): written as given, disarmed by kind.
for spec in 'latency:block>0000000000050ms' 'oom count=00000000000000000002' \
	' hung_task	delay=5 ' 'latency:syscall>1ms nr=0 count=3 delay=600000 action=mark'; do
	: >"$fd/triggers"
	want=$(printf '%s' "$spec" | sed 's/^[ \t]*//; s/[ \t]*$//')
	kind=${want%%[> 	]*}
	KTRACE_DIR=$fd "$bin" record -o "$tmp/sv-ok.dat" -t "$spec" -- \
		sh -c 'cat "$1/triggers" >"$2"' sh "$fd" "$tmp/armed" >/dev/null 2>"$tmp/err"
	ok "record -t '$spec': passed to the kernel as '$want', disarmed as '!$kind'" \
		"$([ $? -eq 0 ] && [ "$(cat "$tmp/armed")" = "$want" ] &&
		   [ "$(cat "$fd/triggers")" = "!$kind" ]; echo $?)" \
		"$(cat "$tmp/armed" "$fd/triggers" "$tmp/err")"
done
# nr=NAME: record writes the number, from the x86-64 table (the kernel's
# parser takes numbers); a name not in the table is a usage error.
if [ "$(uname -m)" = x86_64 ]; then
	: >"$fd/triggers"
	KTRACE_DIR=$fd "$bin" record -o "$tmp/sv-ok.dat" \
		-t 'latency:syscall>1ms nr=clock_nanosleep count=3' -- \
		sh -c 'cat "$1/triggers" >"$2"' sh "$fd" "$tmp/armed" >/dev/null 2>"$tmp/err"
	ok "record -t 'latency:syscall>1ms nr=clock_nanosleep count=3': written with nr=230" \
		"$([ $? -eq 0 ] && [ "$(cat "$tmp/armed")" = 'latency:syscall>1ms nr=230 count=3' ]
		   echo $?)" "$(cat "$tmp/armed" "$tmp/err")"
fi
: >"$fd/triggers"
tree "$fd" >"$tmp/tree.before"
KTRACE_DIR=$fd check "record -t 'latency:syscall nr=nosuchcall': usage error" 2 '' \
	"nr=nosuchcall: no such x86-64 system call" \
	-- record -o "$tmp/sv-r.dat" -m drop -t 'latency:syscall nr=nosuchcall' -- true
unchanged "record -t 'latency:syscall nr=nosuchcall'"
# The kernel refuses a spec (here every write fails, as /dev/full does):
# record says so, and puts back what it changed before.
: >"$fd/triggers"
echo hybrid >"$fd/mode"
sh "$tmp/vals.sh" "$fd" >"$tmp/rb.before"
mv "$fd/triggers" "$tmp/trig"
ln -s /dev/full "$fd/triggers"
KTRACE_DIR=$fd check "record -t SPEC the kernel refuses: exit 1, said" 1 '' \
	"the kernel refused the trigger 'oom colour=red' .*: putting everything back" \
	-- record -o "$tmp/sv-r.dat" -m drop -b 64 -e foo/bits -t 'oom colour=red' -- true
rm "$fd/triggers"
mv "$tmp/trig" "$fd/triggers"
sh "$tmp/vals.sh" "$fd" >"$tmp/rb.after"
ok "record: after a refused trigger: mode, size, enable, events put back, no file" \
	"$(cmp -s "$tmp/rb.before" "$tmp/rb.after" && [ "$(ls "$tmp"/sv-r.dat* 2>/dev/null |
	   wc -l)" -eq 0 ]; echo $?)" "$(cat "$tmp/rb.before"; echo; cat "$tmp/rb.after")"
: >"$fd/triggers"
tree "$fd" >"$tmp/tree.before"

# A failure after mode, size, events (and triggers) were changed: all put back.
echo 'oom count=1 delay=0 action=stop hits=0 fired=0' >"$fd/triggers"
echo hybrid >"$fd/mode"
sh "$tmp/vals.sh" "$fd" >"$tmp/rb.before"
mv "$fd/events/enable" "$tmp/ev.enable"
mkdir "$fd/events/enable"
KTRACE_DIR=$fd check "record: events/enable not writable: exit 1" 1 '' 'events/enable: Is a dir' \
	-- record -o "$tmp/sv-r.dat" -m drop -b 64 -e foo/bits -- true
sh "$tmp/vals.sh" "$fd" >"$tmp/rb.after"
ok "record: after a failed events write: mode, size, enable, events put back" \
	"$(cmp -s "$tmp/rb.before" "$tmp/rb.after"; echo $?)" \
	"$(cat "$tmp/rb.before"; echo; cat "$tmp/rb.after")"
rmdir "$fd/events/enable"
mv "$tmp/ev.enable" "$fd/events/enable"
mv "$fd/triggers" "$tmp/trig"
mkdir "$fd/triggers"
KTRACE_DIR=$fd check "record: triggers not writable: exit 1" 1 '' 'triggers: Is a dir' \
	-- record -o "$tmp/sv-r.dat" -m drop -b 64 -e foo/bits -t user -- true
rmdir "$fd/triggers"
mv "$tmp/trig" "$fd/triggers"
sh "$tmp/vals.sh" "$fd" >"$tmp/rb.after"
ok "record: after a refused trigger: mode, size, enable, events put back" \
	"$(cmp -s "$tmp/rb.before" "$tmp/rb.after" && [ ! -e "$tmp/sv-r.dat" ]; echo $?)" \
	"$(cat "$tmp/rb.before"; echo; cat "$tmp/rb.after")"
rm -f "$tmp/sv-r.dat"

# COMMAND's exit status is record's.
: >"$fd/triggers"
KTRACE_DIR=$fd check "record -- false: exit 1" 1 '' 'bytes of trace in' \
	-- record -o "$tmp/sv-r.dat" -- false
KTRACE_DIR=$fd check "record -- sh -c 'exit 3': exit 3" 3 '' 'bytes of trace in' \
	-- record -o "$tmp/sv-r.dat" -- sh -c 'exit 3'
KTRACE_DIR=$fd check "record: a COMMAND killed by SIGKILL: exit 137" 137 '' 'bytes of trace in' \
	-- record -o "$tmp/sv-r.dat" -- sh -c 'kill -9 $$'
KTRACE_DIR=$fd check "record -- true: exit 0" 0 '' 'bytes of trace in' \
	-- record -o "$tmp/sv-r.dat" -- true
ok "record: the trace decodes as the synthetic one" \
	"$("$bin" report "$tmp/sv-r.dat" 2>&1 | cmp -s - "$tmp/fk.rep"; echo $?)"

# record puts the settings back: tracing, hybrid, 1024 KiB, its events.
echo 1 >"$fd/enable"
printf 'state tracing\n' >"$fd/stats"
KTRACE_DIR=$fd "$bin" record -o "$tmp/sv-r.dat" -m drop -b 64 -e foo/bits -t user -- \
	sh -c 'sh "$1" "$2" >"$3"' sh "$tmp/vals.sh" "$fd" "$tmp/during" >/dev/null 2>"$tmp/err"
ok "record: exit 0 with a changed configuration" $? "$(cat "$tmp/err")"
ok "record: while COMMAND runs: drop, 64 KiB, tracing, foo/bits on, user armed" \
	"$([ "$(cat "$tmp/during")" = "drop 64 1 1 1 1 user " ]; echo $?)" "$(cat "$tmp/during")"
sh "$tmp/vals.sh" "$fd" >"$tmp/after"
ok "record: afterwards: hybrid, 1024 KiB, tracing again, foo/bits off again, user disarmed" \
	"$([ "$(cat "$tmp/after")" = "hybrid 1024 1 0 1 1 !user " ]; echo $?)" "$(cat "$tmp/after")"

KTRACE_DIR=$fd "$bin" record -o "$tmp/sv-r.dat" -t 'latency:block>50ms delay=10' -- true \
	>/dev/null 2>&1
ok "record disarms a latency trigger by its kind, without the threshold" \
	"$([ "$(cat "$fd/triggers")" = '!latency:block' ]; echo $?)" "$(cat "$fd/triggers")"

# A flight recorder is read once at the end; drop mode streams.
fake "$fd"
cp "$fd/high/cpu1" "$tmp/cpu1"
KTRACE_DIR=$fd "$bin" record -o "$tmp/sv-d.dat" -m drop -- sh -c 'sleep 0.3; rm "$1"' sh \
	"$fd/high/cpu1" >/dev/null 2>&1
cp "$tmp/cpu1" "$fd/high/cpu1"
KTRACE_DIR=$fd "$bin" record -o "$tmp/sv-h.dat" -- sh -c 'rm "$1"' sh "$fd/high/cpu1" \
	>/dev/null 2>&1
ok "record: drop mode reads the streams while tracing, hybrid only at the end" \
	"$([ "$("$bin" report -c 1 "$tmp/sv-d.dat" | wc -l)" -gt 5 ] &&
	   [ "$("$bin" report -c 1 "$tmp/sv-h.dat" 2>/dev/null | wc -l)" -eq 0 ] &&
	   [ "$("$bin" report -c 0 "$tmp/sv-h.dat" | wc -l)" -gt 3 ]; echo $?)"
cp "$tmp/cpu1" "$fd/high/cpu1"
if command -v strace >/dev/null 2>&1; then
	KTRACE_DIR=$fd strace -f -o "$tmp/strace" -e trace=poll,ppoll,nanosleep,clock_nanosleep \
		"$bin" record -o "$tmp/sv-h.dat" -- sleep 2 >/dev/null 2>&1
	polls=$(grep -c -E '^[0-9]+ +(poll|ppoll)\(' "$tmp/strace")
	ok "record: a flight recorder sleeps while COMMAND runs ($polls polls in 2 s)" \
		"$([ "$polls" -ge 1 ] && [ "$polls" -le 5 ]; echo $?)"
else
	n=$((n + 1))
	echo "ok $n record: a flight recorder sleeps # SKIP no strace"
fi

# --wait without COMMAND: until tracing stops (checked once a second);
# without either: until SIGINT.
printf 'state tracing\n' >"$fd/stats"
KTRACE_DIR=$fd "$bin" record -o "$tmp/sv-w.dat" --wait >/dev/null 2>"$tmp/err" &
pid=$!
sleep 1.5
kill -0 $pid 2>/dev/null
ok "record --wait: still running while tracing" $?
printf 'state stopped\n' >"$fd/stats"
i=0
while kill -0 $pid 2>/dev/null && [ $i -lt 40 ]; do sleep 0.1; i=$((i + 1)); done
wait $pid
ok "record --wait ends when tracing stops (in $((i / 10)).$((i % 10)) s)" \
	"$([ $? -eq 0 ] && [ $i -lt 25 ] && "$bin" report "$tmp/sv-w.dat" | cmp -s - "$tmp/fk.rep"
	   echo $?)" "$(cat "$tmp/err")"
ok "record --wait without a stop trigger says it waits for a stop by hand" \
	"$(grep -q 'no action=stop trigger armed: waiting until tracing is stopped by hand' \
	   "$tmp/err"; echo $?)"
# (A background job starts with SIGINT ignored, and record leaves it so.)
KTRACE_DIR=$fd $sigint "$bin" record -o "$tmp/sv-i.dat" >/dev/null 2>"$tmp/err" &
pid=$!
sleep 0.5
kill -INT $pid
wait $pid
ok "record without COMMAND ends on SIGINT, exit 0, the trace saved" \
	"$([ $? -eq 0 ] && "$bin" report "$tmp/sv-i.dat" | cmp -s - "$tmp/fk.rep"; echo $?)" \
	"$(cat "$tmp/err")"

# No stream files (no buffers): record fails, writes no file, puts enable back.
fake "$fd"
for c in high medium low; do mv "$fd/$c" "$fd/$c.away"; done
KTRACE_DIR=$fd check "record without stream files: exit 1" 1 '' 'no stream files under' \
	-- record -o "$tmp/sv-nr.dat" -- true
ok "record without stream files: no file, enable back to 0" \
	"$([ "$(ls "$tmp"/sv-nr.dat* 2>/dev/null | wc -l)" -eq 0 ] && [ "$(cat "$fd/enable")" = 0 ]
	   echo $?)" "$(ls "$tmp"/sv-nr.dat* 2>&1; cat "$fd/enable")"
for c in high medium low; do mv "$fd/$c.away" "$fd/$c"; done

# What an earlier trace left unread in the buffers is read to nowhere
# before the start, and said (the fake's streams are read again later).
fake "$fd"
left=$(cat "$fd"/*/cpu* | wc -c)
KTRACE_DIR=$fd check "record discards the $left bytes the buffers held before the start" 0 '' \
	"discarded $left bytes an earlier trace left unread \(save a frozen trace with ktrace" \
	-- record -o "$tmp/sv-r.dat" -- true

# A second extract reads nothing (the stream files are consuming: emptied
# here): it fails and keeps the first file.
fake "$fd"
KTRACE_DIR=$fd check "extract: a first extract" 0 '' 'bytes of trace in' \
	-- extract -o "$tmp/sv-2.dat"
for f in "$fd"/*/cpu*; do : >"$f"; done
KTRACE_DIR=$fd check "extract: a second one finds the buffers empty: exit 1" 1 '' \
	'the buffers are empty: already read\? \(the stream files are consuming\)' \
	-- extract -o "$tmp/sv-2.dat"
ok "extract: the first file kept" \
	"$("$bin" report "$tmp/sv-2.dat" 2>&1 | cmp -s - "$tmp/fk.rep" &&
	   [ "$(ls "$tmp"/sv-2.dat.* 2>/dev/null | wc -l)" -eq 0 ]; echo $?)"

# The trace restarted while extract read it (the counters changed while it
# waited for comms, a fifo): not saved, the old file kept.
fake "$fd"
rm "$fd/comms"
mkfifo "$fd/comms"
(sleep 0.3; printf 'state stopped\ncpu0 medium events=9 dropped=0\n' >"$fd/stats"
 printf '7 init\n' >"$fd/comms") &
KTRACE_DIR=$fd check "extract: counters changed while reading: exit 1" 1 '' \
	'the trace restarted while it was read' -- extract -o "$tmp/sv-2.dat"
wait
ok "extract: after a restart the old file kept, what was read kept apart and named" \
	"$("$bin" report "$tmp/sv-2.dat" 2>&1 | cmp -s - "$tmp/fk.rep" &&
	   grep -q "a partial trace is kept in $tmp/sv-2.dat\.[A-Za-z0-9]\{6\}: the $left bytes" \
	   "$tmp/err"; echo $?)" "$(cat "$tmp/err")"
rm -f "$tmp"/sv-2.dat.*

# A signal while COMMAND runs: record ends COMMAND (SIGTERM), saves, restores.
# sigtest SIG NAME: record -m drop -b 64 -e foo/bits -- a long COMMAND.
sigtest() {
	fake "$fd"
	echo 'hybrid 1024 0 0 1 1  ' >"$tmp/sig.before"
	rm -f "$tmp/cmd.pid" "$tmp"/sv-s.dat*
	KTRACE_DIR=$fd "$bin" record -o "$tmp/sv-s.dat" -m drop -b 64 -e foo/bits -- \
		sh -c 'echo $$ >"$1"; exec sleep 8' sh "$tmp/cmd.pid" >/dev/null 2>"$tmp/err" &
	pid=$!
	i=0
	while [ ! -s "$tmp/cmd.pid" ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
	stop_job $pid "$1" 60
	{ sh "$tmp/vals.sh" "$fd"; echo; } >"$tmp/sig.after"
	ok "record: SIG$1 with COMMAND: ends in $((i / 10)).$((i % 10)) s, COMMAND gone, exit $st" \
		"$([ $i -lt 30 ] && [ $st -eq 143 ] && ! kill -0 "$(cat "$tmp/cmd.pid")" 2>/dev/null
		   echo $?)" "$(cat "$tmp/err")"
	ok "record: SIG$1: settings restored, the trace saved, no temporary file" \
		"$(cmp -s "$tmp/sig.before" "$tmp/sig.after" && [ -s "$tmp/sv-s.dat" ] &&
		   [ "$(ls "$tmp"/sv-s.dat.* 2>/dev/null | wc -l)" -eq 0 ]; echo $?)" \
		"$(cat "$tmp/sig.before" "$tmp/sig.after")"
}
sigtest TERM
sigtest HUP

# stderr a closed pipe: SIGPIPE would kill record before it puts things back.
fake "$fd"
rm -f "$tmp"/sv-p.dat*
KTRACE_DIR=$fd "$bin" record -o "$tmp/sv-p.dat" -m drop -b 64 -e foo/bits -- sleep 0.5 2>&1 |
	true
{ sh "$tmp/vals.sh" "$fd"; echo; } >"$tmp/sig.after"
ok "record with stderr a closed pipe: settings restored, no temporary file" \
	"$(cmp -s "$tmp/sig.before" "$tmp/sig.after" &&
	   [ "$(ls "$tmp"/sv-p.dat.* 2>/dev/null | wc -l)" -eq 0 ]; echo $?)" \
	"$(cat "$tmp/sig.before" "$tmp/sig.after")"

# A signal during extract (blocked opening comms, a fifo): no file left.
# The comms are read before the streams (trace.h): nothing was read out
# of the kernel yet, so that nothing is kept either.
fake "$fd"
rm "$fd/comms"
mkfifo "$fd/comms"
KTRACE_DIR=$fd $sigint "$bin" extract -o "$tmp/sv-e.dat" >/dev/null 2>"$tmp/err" &
pid=$!
sleep 0.5
stop_job $pid INT 30
ok "extract: SIGINT before the streams: exit $st (130), no file, no temporary one" \
	"$([ $st -eq 130 ] && [ ! -e "$tmp/sv-e.dat" ] &&
	   grep -q "ktrace extract: Interrupt: nothing saved" "$tmp/err" &&
	   [ "$(ls "$tmp"/sv-e.dat.* 2>/dev/null | wc -l)" -eq 0 ]; echo $?)" \
	"$(cat "$tmp/err"; ls "$tmp"/sv-e.dat* 2>&1)"
rm -f "$tmp"/sv-e.dat*

# -o of something other than a regular file.
fake "$fd"
mkdir "$tmp/odir"
KTRACE_DIR=$fd check "record -o DIR: exit 1 before anything changed" 1 '' 'odir: is a directory' \
	-- record -o "$tmp/odir" -e foo -- true
ok "record -o DIR: the directory empty, enable untouched" \
	"$([ -z "$(ls -A "$tmp/odir")" ] && [ "$(cat "$fd/enable")" = 0 ]; echo $?)"
echo old >"$tmp/target.dat"
ln -s target.dat "$tmp/link.dat"
KTRACE_DIR=$fd check "record -o SYMLINK: exit 0" 0 '' 'bytes of trace in .*target.dat' \
	-- record -o "$tmp/link.dat" -- true
ok "record -o SYMLINK: the link kept, its target is the trace" \
	"$([ -L "$tmp/link.dat" ] && "$bin" report "$tmp/link.dat" 2>&1 | cmp -s - "$tmp/fk.rep"
	   echo $?)"
mkfifo "$tmp/fifo"
timeout 10 cat "$tmp/fifo" >"$tmp/fifo.dat" &
KTRACE_DIR=$fd check "record -o FIFO: exit 0" 0 '' 'bytes of trace in' \
	-- record -o "$tmp/fifo" -- true
wait
ok "record -o FIFO: still a fifo, the trace written through it" \
	"$([ -p "$tmp/fifo" ] && "$bin" report "$tmp/fifo.dat" 2>&1 | cmp -s - "$tmp/fk.rep"
	   echo $?)"
# A device node of its own (never /dev/null: a regression would replace it).
if mknod "$tmp/null" c 1 3 2>/dev/null; then
	KTRACE_DIR=$fd check "record -o a device (null) as root: exit 0" 0 '' 'bytes of trace in' \
		-- record -o "$tmp/null" -- true
	ok "record -o a device: still a character device" "$([ -c "$tmp/null" ]; echo $?)"
fi
KTRACE_DIR=$fd check "record: a rename that fails keeps the trace, says where" 1 '' \
	"the whole trace is kept in $tmp/late.dat\\.[A-Za-z0-9]{6}" \
	-- record -o "$tmp/late.dat" -- mkdir "$tmp/late.dat"
ok "record: the kept trace is whole" \
	"$("$bin" report "$tmp"/late.dat.* 2>&1 | cmp -s - "$tmp/fk.rep"; echo $?)"
rm -f "$tmp"/late.dat.*

fake "$fd"
rm -f "$tmp"/sv-r.dat*
tree "$fd" >"$tmp/tree.before"
KTRACE_DIR=$fd check "record -e '': usage error" 2 '' '-e: no event given' \
	-- record -o "$tmp/sv-r.dat" -e '' -- true
unchanged "record -e ''"
KTRACE_DIR=$fd "$bin" record -o "$tmp/sv-m.dat" -- true >/dev/null 2>&1
ok "record: the trace file is 0600" "$([ "$(stat -c %a "$tmp/sv-m.dat")" = 600 ]; echo $?)" \
	"$(stat -c %a "$tmp/sv-m.dat")"
long=$tmp/$(printf 'long-control-directory-%.0s' 1 2 3 4 5 6)
ln -s "$fd" "$long"
KTRACE_DIR=$long "$bin" record -o "$tmp/sv-m.dat" -t user -- true >/dev/null 2>"$tmp/err"
ok "record with a ${#long}-byte KTRACE_DIR: the trigger armed and disarmed" \
	"$([ "$(cat "$fd/triggers")" = '!user' ]; echo $?)" "$(cat "$tmp/err")"

# The help and the completion know extract.
check "extract --help" 0 '^usage: ktrace extract \[-o FILE\] \[--stop\]' '' -- extract --help
check "the command list names extract" 0 '^  extract +save what the buffers hold' '' -- help
comp=$(cd "$(dirname "$0")/.." && pwd)/ktrace-completion.bash
got=$(bash -c 'source "$1"; COMP_WORDS=(ktrace ex); COMP_CWORD=1; _ktrace
	a=${COMPREPLY[*]}; COMP_WORDS=(ktrace extract --); COMP_CWORD=2; _ktrace
	echo "$a/${COMPREPLY[*]}"' - "$comp")
ok "completion: ktrace ex -> extract, and its options" \
	"$(want='--output --stop --last-boot --vmcore --kallsyms --no-kernel-addresses'
	   [ "$got" = "extract/$want --compress --help" ]
	   echo $?)" \
	"$got"

# record and COMMAND (issue 25, item 13).
# SIGCHLD ignored by record's caller: record still sees COMMAND end (the
# kernel would otherwise reap it), and COMMAND still starts with it ignored.
fake "$fd"
start=$(date +%s)
# (grep itself: sh would reset SIGCHLD)
KTRACE_DIR=$fd timeout -k 5 20 env --ignore-signal=CHLD "$bin" record -o "$tmp/sv-c.dat" -- \
	grep SigIgn /proc/self/status >"$tmp/chld" 2>"$tmp/err"
st=$?
ign=$(sed -n 's/^SigIgn:[[:space:]]*//p' "$tmp/chld")
ok "record with SIGCHLD ignored: ends with COMMAND (exit $st in $(($(date +%s) - start)) s)" \
	"$([ $st -eq 0 ] && [ -s "$tmp/sv-c.dat" ]; echo $?)" "$(cat "$tmp/err")"
ok "record with SIGCHLD ignored: COMMAND starts with it ignored (SigIgn $ign)" \
	"$([ -n "$ign" ] && [ $(((0x$ign >> 16) & 1)) -eq 1 ]; echo $?)"

# What record raises or blocks for itself does not reach COMMAND: the
# RLIMIT_NOFILE soft limit, the signal mask, the dispositions.
fake "$fd"
sh -c 'grep -E "^Sig(Blk|Cgt)" /proc/self/status' >"$tmp/mask.want"
KTRACE_DIR=$fd sh -c 'ulimit -Sn 64 && exec "$@"' sh "$bin" record -o "$tmp/sv-c.dat" -- \
	sh -c 'ulimit -Sn >"$1"; grep -E "^Sig(Blk|Cgt)" /proc/self/status >"$2"' sh \
	"$tmp/nofile" "$tmp/mask" >/dev/null 2>"$tmp/err"
ok "record: COMMAND gets the caller's RLIMIT_NOFILE ($(cat "$tmp/nofile"), want 64)" \
	"$([ "$(cat "$tmp/nofile")" = 64 ]; echo $?)" "$(cat "$tmp/err")"
ok "record: COMMAND gets the caller's signal mask and no handler" \
	"$(cmp -s "$tmp/mask.want" "$tmp/mask"; echo $?)" "$(cat "$tmp/mask.want" "$tmp/mask")"

# A failure while recording (a stream file that cannot be opened appears)
# does not wait for COMMAND without limit: SIGTERM, settings put back, and
# the streams read so far kept (drop mode reads as it goes).
fake "$fd"
echo hybrid >"$fd/mode"
sh "$tmp/vals.sh" "$fd" >"$tmp/rb.before"
rm -f "$tmp/cmd.pid" "$tmp"/sv-f.dat*
start=$(date +%s)
KTRACE_DIR=$fd timeout -k 5 40 "$bin" record -o "$tmp/sv-f.dat" -m drop -b 64 -e foo/bits -- \
	sh -c 'echo $$ >"$2"; sleep 0.3; ln -s cpu3 "$1/high/cpu3"; exec sleep 30' sh "$fd" \
	"$tmp/cmd.pid" >/dev/null 2>"$tmp/err"
st=$?
took=$(($(date +%s) - start))
rm -f "$fd/high/cpu3"
sh "$tmp/vals.sh" "$fd" >"$tmp/rb.after"
ok "record: a failure while recording ends COMMAND (exit $st in $took s)" \
	"$([ $st -eq 1 ] && [ $took -lt 10 ] && ! kill -0 "$(cat "$tmp/cmd.pid")" 2>/dev/null &&
	   grep -q 'high/cpu3: Too many levels of symbolic links' "$tmp/err" &&
	   grep -q 'ending sh (SIGTERM) as recording failed' "$tmp/err"; echo $?)" \
	"$(cat "$tmp/err")"
ok "record: after that failure the settings are back, the streams read kept, no FILE" \
	"$(cmp -s "$tmp/rb.before" "$tmp/rb.after" && [ ! -e "$tmp/sv-f.dat" ] &&
	   grep -q "a partial trace is kept in $tmp/sv-f.dat\.[A-Za-z0-9]\{6\}: the $left bytes" \
	   "$tmp/err"; echo $?)" "$(cat "$tmp/rb.before" "$tmp/rb.after" "$tmp/err")"
rm -f "$tmp"/sv-f.dat*

# A fifo's copy comes after the settings are put back: a reader that waits
# holds up nothing (the trace is larger than a pipe's 64 KiB).
fake "$fd"
echo hybrid >"$fd/mode"
rm -f "$tmp/fifo" && mkfifo "$tmp/fifo"
{ sleep 2; sh "$tmp/vals.sh" "$fd" >"$tmp/at-copy"; cat >"$tmp/fifo.dat"; } <"$tmp/fifo" &
KTRACE_DIR=$fd check "record -o FIFO, a slow reader: exit 0" 0 '' 'bytes of trace in' \
	-- record -o "$tmp/fifo" -m drop -b 64 -e foo/bits -- true
wait
ok "record -o FIFO: the settings were back before the reader read ($(cat "$tmp/at-copy"))" \
	"$(cmp -s "$tmp/rb.before" "$tmp/at-copy" &&
	   "$bin" report "$tmp/fifo.dat" 2>&1 | cmp -s - "$tmp/fk.rep"; echo $?)"
# A reader that never reads: Ctrl-C ends the copy, the whole trace kept.
KTRACE_DIR=$fd $sigint "$bin" record -o "$tmp/fifo" -- true >/dev/null 2>"$tmp/err" &
pid=$!
exec 3<"$tmp/fifo"
sleep 1.5
stop_job $pid INT 50
exec 3<&-
kept=$(sed -n 's/.*the whole trace is kept in //p' "$tmp/err")
ok "record -o FIFO nobody reads: SIGINT ends the copy (exit $st), the trace kept in $kept" \
	"$([ $st -eq 1 ] && [ -n "$kept" ] &&
	   "$bin" report "$kept" 2>&1 | cmp -s - "$tmp/fk.rep"; echo $?)" "$(cat "$tmp/err")"
rm -f "$kept"
# A recording a signal ended still reaches the fifo: only a signal caught
# during the copy ends it.
rm -f "$tmp/cmd.pid" "$tmp/fifo.dat"
cat "$tmp/fifo" >"$tmp/fifo.dat" &
rpid=$!
KTRACE_DIR=$fd "$bin" record -o "$tmp/fifo" -- \
	sh -c 'echo $$ >"$1"; exec sleep 8' sh "$tmp/cmd.pid" >/dev/null 2>"$tmp/err" &
pid=$!
i=0
while [ ! -s "$tmp/cmd.pid" ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
stop_job $pid TERM 60
wait $rpid
ok "record -o FIFO ended by SIGTERM: exit $st (143), the trace through the fifo" \
	"$([ $st -eq 143 ] && "$bin" report "$tmp/fifo.dat" 2>&1 | cmp -s - "$tmp/fk.rep"
	   echo $?)" "$(cat "$tmp/err")"

# -o /dev/stdout and -o - to a pipe or a file: the trace on stdout;
# COMMAND's own output goes to stderr, not into the trace.
fake "$fd"
KTRACE_DIR=$fd "$bin" record -o /dev/stdout -- echo COMMAND-OUTPUT >"$tmp/file.dat" 2>"$tmp/err"
ok "record -o /dev/stdout to a file: the trace, COMMAND's output on stderr" \
	"$("$bin" report "$tmp/file.dat" 2>&1 | cmp -s - "$tmp/fk.rep" &&
	   grep -q '^COMMAND-OUTPUT$' "$tmp/err"; echo $?)" "$(cat "$tmp/err")"
for o in /dev/stdout -; do
	KTRACE_DIR=$fd "$bin" record -o "$o" -- echo COMMAND-OUTPUT 2>"$tmp/err" |
		cat >"$tmp/pipe.dat"
	ok "record -o $o to a pipe: the trace, COMMAND's output on stderr" \
		"$("$bin" report "$tmp/pipe.dat" 2>&1 | cmp -s - "$tmp/fk.rep" &&
		   grep -q '^COMMAND-OUTPUT$' "$tmp/err"; echo $?)" "$(cat "$tmp/err")"
done

# An empty element of PATH is the current directory, as execvp() has it.
mkdir -p "$tmp/pathdir"
printf '#!/bin/sh\nexit 7\n' >"$tmp/pathdir/ktcmd"
chmod +x "$tmp/pathdir/ktcmd"
st=$(cd "$tmp/pathdir" && KTRACE_DIR=$fd PATH=/usr/bin:/bin: "$bin" record -o "$tmp/sv-c.dat" \
	-- ktcmd >/dev/null 2>"$tmp/err"; echo $?)
ok "record: COMMAND found through an empty PATH element (exit $st, want 7)" \
	"$([ "$st" = 7 ]; echo $?)" "$(cat "$tmp/err")"
rm -f "$tmp/sv-c.dat"

# -e globs, as trace-cmd's -e 'sched*': GROUP-GLOB or GROUP-GLOB:NAME-GLOB.
fake "$fd"
for e in foo/bits foo/switch bar/io foo bar; do echo 0 >"$fd/events/$e/enable"; done
KTRACE_DIR=$fd "$bin" record -o "$tmp/sv-g.dat" -m drop -e 'foo:sw*,b?r' -- \
	sh -c 'cd "$1" && cat events/foo/bits/enable events/foo/switch/enable \
		events/bar/io/enable events/foo/enable events/bar/enable | tr -d "\n" >"$2"' \
	sh "$fd" "$tmp/g.during" >/dev/null 2>"$tmp/g.err"
ok "record -e 'foo:sw*,b?r': foo/switch and the group bar on, foo/bits off \
($(cat "$tmp/g.during"))" \
	"$([ "$(cat "$tmp/g.during")" = 01001 ]; echo $?)" "$(cat "$tmp/g.err")"
for e in foo/bits foo/switch bar/io foo bar; do echo 0 >"$fd/events/$e/enable"; done
KTRACE_DIR=$fd "$bin" record -o "$tmp/sv-g.dat" -m drop -e 'f*:*' -- \
	sh -c 'cd "$1" && cat events/foo/enable events/bar/enable | tr -d "\n" >"$2"' \
	sh "$fd" "$tmp/g.during" >/dev/null 2>"$tmp/g.err"
ok "record -e 'f*:*': the whole group foo ($(cat "$tmp/g.during"))" \
	"$([ "$(cat "$tmp/g.during")" = 10 ]; echo $?)" "$(cat "$tmp/g.err")"
KTRACE_DIR=$fd check "record -e 'sched:*' where there is no sched: a usage error, said" 2 '' \
	"no event matches 'sched:\*'" -- record -o "$tmp/sv-r.dat" -e 'sched:*' -- true
KTRACE_DIR=$fd check "record: a bad -m is a usage error too, the same status" 2 '' \
	"bad mode 'fast'" -- record -o "$tmp/sv-r.dat" -m fast -- true
