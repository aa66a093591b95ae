#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The persistent recorder across a panic and a warm reboot (issue 26), two
# boots of one QEMU (.ci/boot with BOOT_REBOOT=1, the kernel command line
# with reserve_mem=12M:4096:ktrace ktrace.persist=ktrace).  .ci/persist
# checks the results on the host.
#
# Boot 1 traces marks "persist-1".."persist-N" from CPU 0 (and the
# scheduler, IRQs, system calls and the statedump, which names the tasks,
# with a 16 KiB high-rate channel that wraps), writes a marker to the
# results disk, and panics through LKDTM with the panic trigger armed.
# KTRACE_PERSIST=corrupt (job-persist-corrupt.sh) traces in drop mode,
# stops tracing once the high-rate channel's first subbuffers are
# complete and, before the panic, damages three through
# test/persist_poke: CPU 0's slot 0's header zeroed, a record in its slot
# 2 garbled (its length beyond the subbuffer), CPU 1's slot 0's commit
# count changed; CPU 0's slot 1 stays whole.  KTRACE_PERSIST=table
# (job-persist-table.sh) makes one descriptor of the crash table point out
# of the region.
# KTRACE_PERSIST=vmcore (job-vmcore.sh, one boot, .ci/boot BOOT_DUMP=FILE)
# writes its results before the panic: the host dumps the guest's memory
# and reads the trace with ktrace extract --vmcore.
#
# KTRACE_PERSIST=kdump (job-kdump.sh, the kdump build, crashkernel= on the
# command line) first loads the capture kernel, the same bzImage and
# initramfs from the second disk (.ci/boot BOOT_DISK2), with kexec-load;
# the panic boots it, and there (/proc/vmcore exists) ktrace extract
# --vmcore /proc/vmcore saves the trace.
#
# Boot 2 finds the marker, saves
# last_boot/info, the stream files raw and ktrace extract --last-boot's
# file, releases the copy and powers off.  A boot 2 that panicked would
# come back as boot 1 again: the marker makes it boot 2, and .ci/boot
# stops a third boot.
out=$1
KT=/sys/kernel/debug/ktrace
LKDTM=/sys/kernel/debug/provoke-crash/DIRECT
variant=${KTRACE_PERSIST:-plain}
N=2000

# The results disk holds an archive only after boot 1 wrote one.
mkdir -p /tmp/prev
tar -xf /dev/vda -C /tmp/prev 2>/dev/null
if [ -e /proc/vmcore ]; then
	echo "ktrace-guest: kdump: the capture kernel" >/dev/console
	cp -a /tmp/prev/boot1 "$out/"
	cp /tmp/prev/job.log "$out/boot1/job.log" 2>/dev/null
	mkdir -p "$out/capture"
	ls -l /proc/vmcore >"$out/capture/ls"
	rc=0
	ktrace extract --vmcore /proc/vmcore -o "$out/capture/vmcore.dat" \
		>"$out/capture/extract.out" 2>&1 || rc=$?
	echo "$rc" >"$out/capture/extract.status"
	exit 0
fi
# Not last_boot/: boot 1 has one too (nothing recovered).
if [ -f /tmp/prev/boot1/marker ]; then
	echo "ktrace-guest: persist: boot 2" >/dev/console
	cp -a /tmp/prev/boot1 "$out/"
	cp /tmp/prev/job.log "$out/boot1/job.log" 2>/dev/null
	mkdir -p "$out/boot2"
	cat /proc/cmdline >"$out/boot2/cmdline"
	[ -r $KT/persist ] && cat $KT/persist >"$out/boot2/persist"
	[ -d $KT/last_boot ] || { echo "no $KT/last_boot"; exit 1; }
	ls -lR $KT/last_boot >"$out/boot2/ls"
	cat $KT/last_boot/info >"$out/boot2/info" || exit 1
	mkdir -p "$out/boot2/raw"
	for f in "$KT"/last_boot/*/cpu*; do
		c=${f#"$KT"/last_boot/}
		cat "$f" >"$out/boot2/raw/${c%%/*}-${c##*/}"
	done
	rc=0
	ktrace extract --last-boot -o "$out/boot2/last.dat" \
		>"$out/boot2/extract.out" 2>&1 || rc=$?
	echo "$rc" >"$out/boot2/extract.status"
	# Saved: the copy goes, asynchronously.
	echo 1 >$KT/last_boot/release || exit 1
	for _ in $(seq 100); do
		[ -d $KT/last_boot ] || break
		sleep 0.1
	done
	[ ! -d $KT/last_boot ] || { echo "last_boot/ still there 10 s after release"; exit 1; }
	echo released >"$out/boot2/released"
	exit 0
fi

echo "ktrace-guest: persist: boot 1 ($variant)" >/dev/console
mkdir -p "$out/boot1"
cat /proc/cmdline >"$out/boot1/cmdline"
if [ "$variant" = kdump ]; then
	mkdir -p /tmp/kdump
	tar -xf /dev/vdb -C /tmp/kdump || { echo "no capture kernel on /dev/vdb"; exit 1; }
	cat /sys/kernel/kexec_crash_size >"$out/boot1/kexec_crash_size"
	t0=$(date +%s)
	kexec-load /tmp/kdump/bzImage /tmp/kdump/initramfs.cpio \
		"console=ttyS0 panic=-1 KTRACE_JOB=kdump kunit.enable=0 nr_cpus=1 irqpoll reset_devices" ||
		exit 1
	echo "loaded in $(($(date +%s) - t0)) s" >"$out/boot1/kexec-load"
	[ "$(cat /sys/kernel/kexec_crash_loaded)" = 1 ] || { echo "no crash kernel loaded"; exit 1; }
fi
taskset -p 1 $$ >/dev/null
echo 0 >$KT/enable
[ "$variant" != corrupt ] || echo drop >$KT/mode
echo 16 >$KT/buffer_size_kb
echo 0 >$KT/events/enable
for e in ktrace sched irq syscalls statedump; do
	echo 1 >$KT/events/$e/enable || exit 1
done
[ "$variant" = corrupt ] || echo 'panic last=5' >$KT/triggers || exit 1
echo 1 >$KT/enable || exit 1
cat $KT/persist >"$out/boot1/persist" 2>"$out/boot1/persist.err"
# The marker, before the marks: no disk I/O among them.
echo "$variant" >"$out/boot1/marker"
case $variant in vmcore | kdump) echo 0 >"$out/status" ;; esac
(cd "$out" && tar -cf /dev/vda .) && sync

# buf_at CPU: "DATA COMMIT SB_SHIFT" of CPU's high-rate buffer in the region.
buf_at() {
	sed -n "s/^buf high cpu$1 data=\([0-9]*\) commit=\([0-9]*\) sb_events=[0-9]* sb_shift=\([0-9]*\) .*/\1 \2 \3/p" \
		$KT/persist
}
# subbufs CH [CPU]: the subbuffers CPU's (0's) channel CH completed.
subbufs() {
	sed -n "s/^cpu${2:-0} $1 .* subbufs=\([0-9]*\) .*/\1/p" $KT/stats
}
if [ "$variant" = corrupt ]; then
	# Drop mode: the 16 KiB high-rate channel (4 subbuffers of 4 KiB,
	# of which drop mode fills 3) of CPU 0 fills with the marks' system
	# calls; CPU 1's with what runs there (timers, mostly).  Until CPU 0
	# completed 2 and writes its third, and CPU 1 completed one.
	i=0
	while { [ "$(subbufs high)" -lt 2 ] || [ "$(subbufs high 1)" -lt 1 ]; } &&
		[ $i -lt 20000 ]; do
		for _ in $(seq 50); do
			i=$((i + 1))
			echo "persist-$i" >$KT/mark
		done
	done
	for _ in $(seq 20); do
		i=$((i + 1))
		echo "persist-$i" >$KT/mark
	done
	N=$i
	echo 0 >$KT/enable
	cat $KT/stats >"$out/boot1/stats"
	b0=$(buf_at 0) b1=$(buf_at 1)
	if [ -z "$b0" ] || [ -z "$b1" ]; then
		echo "no high-rate buffers in $KT/persist"
		exit 1
	fi
	# shellcheck disable=SC2086
	set -- $b0
	data0=$1 shift0=$3
	# shellcheck disable=SC2086
	set -- $b1
	commit1=$2
	{
		# CPU 0's slot 0: its header zeroed.
		echo "$data0 $(printf '%096d' 0)"
		# CPU 0's slot 2: the record after the timestamp record
		# garbled, an expanded record (id 30, the highest clock)
		# 65535 bytes long.
		echo "$((data0 + (2 << shift0) + 48 + 12)) fffffff7ffffffff"
		# CPU 1's slot 0: its commit count (4096, complete) 1: open,
		# with less than a timestamp record committed.
		echo "$commit1 0100000000000000"
	} >"$out/boot1/pokes"
	while read -r off bytes; do
		echo "$off $bytes" >$KT/test/persist_poke || { echo "poke $off failed"; exit 1; }
	done <"$out/boot1/pokes"
else
	for i in $(seq $N); do
		echo "persist-$i" >$KT/mark
	done
	cat $KT/stats >"$out/boot1/stats"
	if [ "$variant" = table ]; then
		# The descriptor of CPU 1's high-rate channel (index 1,
		# after the 256-byte header; 80 bytes each): its data
		# offset far out of the region.  The freeze checksums the
		# table again: the next boot must refuse that descriptor
		# alone.
		echo "$((256 + 80 + 16)) ffffffffffffff7f" >"$out/boot1/pokes"
		cat "$out/boot1/pokes" >$KT/test/persist_poke ||
			{ echo "poke failed"; exit 1; }
	fi
fi
echo "$N" >"$out/boot1/marks"
# The stats before the panic, for the record: only the marker must be
# there when this write fails.
(cd "$out" && tar -cf /dev/vda .) && sync
echo "ktrace-guest: persist: panicking after $N marks" >/dev/console
echo PANIC >$LKDTM
sleep 5
echo "ktrace-guest: LKDTM did not panic" >/dev/console
exit 1
