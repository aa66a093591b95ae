#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The ktrace control files besides enable: mode, buffer_size_kb, stats,
# mark and the relay files.  Good input works, bad input fails with a
# clear errno and changes nothing, mode and size cannot change while
# tracing.

. "$(dirname "$0")"/lib.sh

ktrace_setup

mode_of() { ls -ld "$1" | cut -c1-10; }

check "mode is 0600" "$(mode_of "$KT/mode")" "-rw-------"
check "buffer_size_kb is 0600" "$(mode_of "$KT/buffer_size_kb")" "-rw-------"
check "stats is 0400" "$(mode_of "$KT/stats")" "-r--------"
check "mark is 0200" "$(mode_of "$KT/mark")" "--w-------"

# mode
check "mode lists all, hybrid current" "$(cat "$KT/mode")" "drop overwrite [hybrid]"
check "mode drop" "$(wr "$KT/mode" drop)" "ok 4"
check "mode reads drop" "$(cat "$KT/mode")" "[drop] overwrite hybrid"
check "mode overwrite with newline" "$(wr "$KT/mode" "overwrite
")" "ok 10"
check "mode reads overwrite" "$(cat "$KT/mode")" "drop [overwrite] hybrid"
res=
for bad in Drop "drop overwrite" hybrid2 1 "[drop]" ""; do
	res="$res[$bad]=$(wr "$KT/mode" "$bad") "
done
check "bad modes fail with EINVAL" "$res" \
	"[Drop]=EINVAL [drop overwrite]=EINVAL [hybrid2]=EINVAL [1]=EINVAL [[drop]]=EINVAL []=EINVAL "
check "bad modes change nothing" "$(cat "$KT/mode")" "drop [overwrite] hybrid"
check "1 MiB mode write fails with EINVAL" "$(wr -n 1048576 "$KT/mode" drop)" EINVAL

# buffer_size_kb
check "buffer_size_kb default 1024" "$(cat "$KT/buffer_size_kb")" 1024
check "buffer_size_kb 64" "$(wr "$KT/buffer_size_kb" 64)" "ok 2"
check "buffer_size_kb reads 64" "$(cat "$KT/buffer_size_kb")" 64
check "buffer_size_kb 100 accepted" "$(wr "$KT/buffer_size_kb" 100)" "ok 3"
check "buffer_size_kb rounds 100 up to 128" "$(cat "$KT/buffer_size_kb")" 128
res=
for bad in 0 15 1048577 -64 abc 64k 0x40 "" " " 99999999999999999999999; do
	res="$res[$bad]=$(wr "$KT/buffer_size_kb" "$bad") "
done
check "bad sizes fail with EINVAL" "$res" \
	"[0]=EINVAL [15]=EINVAL [1048577]=EINVAL [-64]=EINVAL [abc]=EINVAL [64k]=EINVAL [0x40]=EINVAL []=EINVAL [ ]=EINVAL [99999999999999999999999]=EINVAL "
check "bad sizes change nothing" "$(cat "$KT/buffer_size_kb")" 128

# While tracing: mode and size are busy; nothing changes.
echo 1 >"$KT/enable"
check "mode while tracing fails with EBUSY" "$(wr "$KT/mode" drop)" EBUSY
check "size while tracing fails with EBUSY" "$(wr "$KT/buffer_size_kb" 256)" EBUSY
check "bad mode while tracing is still EINVAL" "$(wr "$KT/mode" bogus)" EINVAL
check "mode unchanged" "$(cat "$KT/mode")" "drop [overwrite] hybrid"
check "size unchanged" "$(cat "$KT/buffer_size_kb")" 128

# The relay files: one per CPU and channel, root-only, read-only.
ncpu=$(grep -c '^processor' /proc/cpuinfo)
files=0
for ch in high medium low; do
	for f in "$KT/$ch"/cpu*; do
		[ "$(mode_of "$f")" = "-r--------" ] && files=$((files + 1))
	done
done
check "3 relay files per CPU, all 0400" "$files" $((3 * ncpu))

# mark
check "mark is written" "$(wr "$KT/mark" "hello world")" "ok 11"
check "empty mark fails with EINVAL" "$(wr "$KT/mark")" EINVAL
check "newline-only mark fails with EINVAL" "$(wr "$KT/mark" "
")" EINVAL
check "4097-byte mark fails with EINVAL" "$(wr -n 4097 "$KT/mark" x)" EINVAL
check "4096-byte mark is written" "$(wr -n 4096 "$KT/mark" x)" "ok 4096"
total=0
for c in $(seq 0 $((ncpu - 1))); do
	total=$((total + $(stat_of "$c" medium events)))
done
check "stats count the two marks on the medium channel" "$total" 2

echo 0 >"$KT/enable"
check "mark while stopped fails with EAGAIN" "$(wr "$KT/mark" late)" EAGAIN
ktrace_done
