#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# events/: enable files at every level and format files; and the metadata
# that every start writes to the low-rate channel, which must describe the
# machine, the clock, the channels and the events as the kernel does.

. "$(dirname "$0")"/lib.sh

ktrace_setup

E=$KT/events
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
mode_of() { ls -ld "$1" | cut -c1-10; }

check "events/enable is 0600" "$(mode_of "$E/enable")" "-rw-------"
check "format is 0400" "$(mode_of "$E/ktrace/mark/format")" "-r--------"
fmt_head="name: mark|group: ktrace|channel: medium|kind: expanded|major: 1|minor: 0|"
fmt_fields="field: pid offset=0 size=4 display=pid|field: text offset=4 size=0 display=string|"
check "the mark format" "$(cat "$E/ktrace/mark/format" | tr '\n' '|')" \
	"$fmt_head$fmt_fields"
check "mark enabled, test events not: the group 1, all X" \
	"$(cat "$E/enable" "$E/ktrace/enable" "$E/ktrace/mark/enable" | tr '\n' ' ')" "X 1 1 "

echo 1 >"$KT/enable"
# The group's other events off first (ktrace:trigger, and ktrace:cluster
# with CONFIG_KTRACE_CLUSTER): mark is then its only enabled event.
for f in "$E"/ktrace/*/enable; do
	[ "$f" = "$E/ktrace/mark/enable" ] || echo 0 >"$f"
done
check "event off" "$(wr "$E/ktrace/mark/enable" 0)" "ok 1"
check "a disabled mark is refused with EAGAIN" "$(wr "$KT/mark" hidden)" EAGAIN
check "the group and all read 0" "$(cat "$E/enable" "$E/ktrace/enable" | tr '\n' ' ')" "0 0 "
check "all on" "$(wr "$E/enable" 1)" "ok 1"
check "the event reads 1" "$(cat "$E/ktrace/mark/enable")" 1
check "an enabled mark is written" "$(wr "$KT/mark" shown)" "ok 5"
check "group off" "$(wr "$E/ktrace/enable" "0
")" "ok 2"
check "the event reads 0" "$(cat "$E/ktrace/mark/enable")" 0
res=
for f in "$E/enable" "$E/ktrace/enable" "$E/ktrace/mark/enable"; do
	for bad in 2 on X "" "0 1"; do
		res="$res$(wr "$f" "$bad") "
	done
done
check "bad enable values fail with EINVAL" "$res" \
	"$(for i in $(seq 15); do printf 'EINVAL '; done)"
check "and change nothing" "$(cat "$E/ktrace/mark/enable")" 0
check "1 MiB enable write fails with EINVAL" "$(wr -n 1048576 "$E/enable" 1)" EINVAL
echo 0 >"$E/enable"
echo 1 >"$E/ktrace/enable"
echo 0 >"$KT/enable"

# The metadata of that start, from whichever CPU started it.
for f in "$KT"/low/cpu*; do
	"$DIR"/ktrace_count -M "$f" >>"$TMP/meta" 2>&1
done
ncpu=$(grep -c '^processor' /proc/cpuinfo)
check "one trace record, matching uname" \
	"$(grep '^trace ' "$TMP/meta" | sed 's/ byte_order=.*//')" \
	"trace release=$(uname -r) machine=$(uname -m) nr_cpus=$ncpu"
re='s/^clock name=\([a-z]*\) freq_hz=\([0-9]*\) shift=\([0-9]*\)$/'
clock=$(sed -n "$re\\1, \\2 Hz, shift \\3/p" "$TMP/meta")
check "the clock record matches the boot log" "$clock" \
	"$(dmesg | sed -n 's/.*ktrace: clock \(.*\) (.*/\1/p' | tail -n 1)"
ch_high="channel name=high mode=overwrite subbuf_size=131072 n_subbufs=8|"
ch_medium="channel name=medium mode=drop subbuf_size=131072 n_subbufs=4|"
ch_low="channel name=low mode=drop subbuf_size=16384 n_subbufs=4|"
check "three channels, hybrid, the high one at buffer_size_kb" \
	"$(grep '^channel ' "$TMP/meta" | tr '\n' '|')" \
	"$ch_high$ch_medium$ch_low"
ev_mark="event ktrace:mark channel=1 kind=expanded id=30 major=1 minor=0 fields=2 flags=1|"
ev_pid="field pid offset=0 size=4 display=2|"
ev_text="field text offset=4 size=0 display=4|"
check "the mark event as its format file says" \
	"$(grep -A2 '^event ktrace:mark ' "$TMP/meta" | tr '\n' '|')" \
	"$ev_mark$ev_pid$ev_text"
check "one event record per registered event" \
	"$(grep -c '^event ' "$TMP/meta")" "$(ls -d "$E"/*/*/ | wc -l)"
check "the metadata is counted on the low channel" \
	"$(awk '$2 == "low" { split($3, a, "="); n += a[2] } END { print n }' "$KT/stats")" \
	"$(grep -c -v '^subbufs=' "$TMP/meta")"
records=$(grep -c -v -e '^subbufs=' -e '^trace ' "$TMP/meta")
check "the trace record announces the records after it" \
	"$(sed -n 's/^trace .* nr_records=\([0-9]*\)$/\1/p' "$TMP/meta")" "$records"
# stats counts the trace record too; incomplete: the starts since boot
# whose metadata did not fit.
incomplete() { sed -n 's/^metadata .* incomplete=\([0-9]*\)$/\1/p' "$KT/stats"; }
inc=$(incomplete)
check "stats: the metadata of the start, complete" "$(grep '^metadata ' "$KT/stats")" \
	"metadata records=$((records + 1)) failed=0 incomplete=$inc"

# Starts that do not read the low channel fill it (drop mode): a metadata
# that does not fit is counted, and warned about.
line=$(dmesg_mark)
i=0
while [ $i -lt 60 ] && [ "$(incomplete)" = "$inc" ]; do
	echo 1 >"$KT/enable"
	echo 0 >"$KT/enable"
	i=$((i + 1))
done
check "stats: a start whose metadata did not fit" \
	"$(sed -n 's/^metadata records=\([0-9]*\) failed=[1-9][0-9]* incomplete=.*/\1/p' \
		"$KT/stats") $(incomplete)" "$((records + 1)) $((inc + 1))"
check "and the kernel log says so" \
	"$(dmesg_since "$line" |
		grep -c 'ktrace: metadata incomplete: [0-9]* of [0-9]* records not written')" 1
# A mode change frees the buffers.
echo drop >"$KT/mode"
echo hybrid >"$KT/mode"
ktrace_done
