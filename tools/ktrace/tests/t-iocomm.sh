# SPDX-License-Identifier: GPL-2.0
# Sourced by run.sh: ktrace io --comm, one line per process name, as perf
# sched latency groups by comm.  The io trace of t-analyze.sh and a second
# "my writer" (pid 4000): 5 writes of 4 KiB from 5.3 s (mktrace, MKTRACE_IO=dd).

MKTRACE_IO=dd "$mk" "$tmp/dd.dat" "$tmp/dd.exp" io
"$bin" io --comm "$tmp/dd.dat" >"$tmp/dd.got" 2>&1
echo "status $?" >>"$tmp/dd.got"
cat >"$tmp/dd.want" <<W
# io: 136 requests, 13283328 bytes, 3 process names, windows of 100.000ms
window 5.000000000 comm=my_writer pids=2 requests=10 bytes=40960 read_bytes=0 write_bytes=40960
window 5.100000000 comm=flooder pids=1 requests=100 bytes=13107200 read_bytes=0 write_bytes=13107200
window 5.100000000 comm=my_writer pids=2 requests=10 bytes=40960 read_bytes=0 write_bytes=40960
window 5.200000000 comm=my_writer pids=2 requests=10 bytes=40960 read_bytes=0 write_bytes=40960
window 5.200000000 comm=kworker/2:1 pids=1 requests=1 bytes=32768 read_bytes=32768 write_bytes=0
window 5.300000000 comm=my_writer pids=2 requests=5 bytes=20480 read_bytes=0 write_bytes=20480
total comm=flooder pids=1 requests=100 bytes=13107200 max_latency=20990.000us \
read_bytes=0 write_bytes=13107200
total comm=my_writer pids=2 requests=35 bytes=143360 max_latency=8000.000us \
read_bytes=0 write_bytes=143360
total comm=kworker/2:1 pids=1 requests=1 bytes=32768 max_latency=3000.000us \
read_bytes=32768 write_bytes=0
status 0
W
awk 'NR == 1 || !/^#/' "$tmp/dd.got" | diff "$tmp/dd.want" - >"$tmp/dd.diff"
result "io --comm: the two my_writer processes as one line per window, and one total" \
	$? "$tmp/dd.diff"
"$bin" io "$tmp/dd.dat" | grep -c '^total pid=[0-9]* comm=my_writer ' >"$tmp/dd.n"
result "io without --comm: one total line per process (two my_writer)" \
	"$(grep -qx 2 "$tmp/dd.n"; echo $?)"
check "io -c -p 4000: the one process, by pid" 0 \
	'^total pid=4000 comm=my_writer requests=5 bytes=20480 max_latency=1000.000us' '' \
	-- io -c -p 4000 "$tmp/dd.dat"
