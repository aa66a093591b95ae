# SPDX-License-Identifier: GPL-2.0
# Sourced by run.sh: the trace of a kernel that is gone.  extract
# --last-boot from a fake last_boot/ directory (mktrace's streams and an
# info file), its symbols moved by the KASLR difference; extract --vmcore
# from synthetic ELF64 vmcores (tests/mkcrash.c): the table in kernel
# memory (page lists, pages out of order) or in the persistent region
# (frozen with its slots' checksums, or not),
# found through VMCOREINFO or by a scan, and corrupted ones; an open
# subbuffer cut at its commit count, subbuffers read before the crash.

# cr_ok NAME STATUS [DETAIL]: one test from a status computed here.
cr_ok() {
	n=$((n + 1))
	if [ "$2" -eq 0 ]; then
		echo "ok $n $1"
	else
		echo "not ok $n $1"
		[ -z "$3" ] || printf '%s\n' "$3" | sed 's/^/# /'
		fails=$((fails + 1))
	fi
}

# cr_events FILE: report's lines without the task column (the old boot's
# names are not in a last-boot file: its tasks are not the running ones).
cr_events() {
	"$bin" report "$1" 2>&1 | cut -d' ' -f1,2,4-
}

# cr_info DIR RELEASE BUILD: a last_boot/info, as the kernel writes it.
cr_info() {
	local r0='commit=0 record=0 clock=0 uncommitted=0' d0='dropped=0'

	cat >"$1/info" <<EOF
state: recovered
release: $2
build: $3
text_addr: 0xffffffff81000000
boot_id: 0x5eed
frozen: yes
freeze_reason: panic
freeze_clock: 1234
buf high cpu1 kept=3 empty=0 stale=0 header=0 $r0 events=12 lost=0 cut=0 written=312 $d0 \
overwritten=300
buf medium cpu0 kept=1 empty=2 stale=0 header=1 $r0 events=5 lost=2 cut=1 written=7 $d0 \
overwritten=0
buf low cpu0 kept=1 empty=3 stale=0 header=0 $r0 events=21 lost=0 cut=0 written=21 $d0 overwritten=0
EOF
}

# --last-boot: a live trace that is tracing (never read nor stopped), and
# the previous boot's in last_boot/.
lb=$tmp/lbdir
mkdir -p "$lb/high"
printf 'state tracing\ncpu0 high events=9 dropped=0 overwritten=0\n' >"$lb/stats"
echo 1 >"$lb/enable"
echo live >"$lb/high/cpu0"
"$mk" "$tmp/lb.dat" "$tmp/lb.exp" dir "$lb/last_boot"
cr_info "$lb/last_boot" "$(uname -r)" "$(uname -v)"
(cd "$lb" && find . -type f -exec sha256sum {} + | LC_ALL=C sort) >"$tmp/lb.before"
KTRACE_DIR=$lb check "extract --last-boot: exit 0, the summary of info" 0 '' \
	"ktrace extract: [0-9]+ bytes of trace in $tmp/lb-x.dat \(3 streams\): "\
"5 subbuffers kept, 38 events, 2 lost" \
	-- extract --last-boot -o "$tmp/lb-x.dat"
cr_events "$tmp/lb.dat" >"$tmp/lb.want"
cr_events "$tmp/lb-x.dat" >"$tmp/lb.got"
cr_ok "extract --last-boot: report prints the old boot's events ($(wc -l <"$tmp/lb.got") lines)" \
	"$([ -s "$tmp/lb.got" ] && cmp -s "$tmp/lb.want" "$tmp/lb.got"; echo $?)" \
	"$(diff "$tmp/lb.want" "$tmp/lb.got" | head -n 5)"
(cd "$lb" && find . -type f -exec sha256sum {} + | LC_ALL=C sort) >"$tmp/lb.after"
grep -a -q '^buf medium cpu0 kept=1 .* lost=2 ' "$tmp/lb-x.dat" &&
	grep -a -q -F " $(uname -r) $(uname -v) " "$tmp/lb-x.dat" &&
		! grep -a -q "^$$ " "$tmp/lb-x.dat"
cr_ok "extract --last-boot: info as the stats, the old release, no task of this boot" $?
cr_ok "extract --last-boot: the live trace untouched, still tracing" \
	"$(cmp -s "$tmp/lb.before" "$tmp/lb.after" && [ "$(cat "$lb/enable")" = 1 ]; echo $?)"
KTRACE_DIR=$lb "$bin" extract --last-boot -o - >"$tmp/lb-o.dat" 2>"$tmp/lb-o.err"
cr_events "$tmp/lb-o.dat" >"$tmp/lb.got"
cr_ok "extract --last-boot -o -: the trace on stdout, the summary on stderr" \
	"$(cmp -s "$tmp/lb.want" "$tmp/lb.got" && grep -q 'in standard output' "$tmp/lb-o.err" &&
	   ! grep -q -a KTRACEF "$tmp/lb-o.err"; echo $?)"
KTRACE_DIR=$tmp/none check "extract --last-boot without last_boot/: exit 1, says why" 1 '' \
	'last_boot/info: No such file or directory: no trace of the previous boot' \
	-- extract --last-boot -o "$tmp/lb-none.dat"
cr_ok "extract --last-boot without last_boot/: no file" "$([ ! -e "$tmp/lb-none.dat" ]; echo $?)"
# A region the next boot found no table in: info alone, which says why.
mkdir -p "$tmp/lbn/last_boot"
nothing='nothing recovered (no table: memory cleared, or never traced)'
echo "state: $nothing" >"$tmp/lbn/last_boot/info"
KTRACE_DIR=$tmp/lbn check "extract --last-boot, nothing recovered: exit 1, info's state said" 1 '' \
	"no stream files under .*/last_boot: $(echo "$nothing" | sed 's/[()]/\\&/g')\$" \
	-- extract --last-boot -o "$tmp/lb-none.dat"
cr_ok "extract --last-boot, nothing recovered: no file" "$([ ! -e "$tmp/lb-none.dat" ]; echo $?)"
check "extract --last-boot --stop is a usage error" 2 '' \
	'extract: --stop is for the current trace' \
	-- extract --last-boot --stop
check "extract --last-boot --vmcore is a usage error" 2 '' 'not both' \
	-- extract --last-boot --vmcore /dev/null
check "extract --kallsyms alone is a usage error" 2 '' 'extract: --kallsyms is for --last-boot' \
	-- extract --kallsyms /dev/null

# Symbols: the old boot's _text 0xffffffff81000000 (info), the running
# kernel's 4 MiB lower (KASLR): its kallsyms moved up by the difference
# names the old addresses; its modules' symbols are not used (their old
# bases are unknown).
ls=$tmp/lsdir
mkdir -p "$ls"
MKTRACE_DIR=$ls/last_boot "$mk" "$tmp/ls.dat" "$tmp/ls.exp" symbols
cr_info "$ls/last_boot" "$(uname -r)" "$(uname -v)"
printf '%s\n' \
	'0000000000000000 A fixed_percpu_data' \
	'ffffffff80c00000 T _text' \
	'ffffffff80c01000 T alpha' \
	'ffffffff80c01040 t beta' \
	'ffffffff80c01070 T gamma' \
	'ffffffff80c02000 T _etext' \
	'ffffffffc0002000 t modfn	[mymod]' >"$tmp/ls.kallsyms"
sort -s -k1,1n "$tmp/ls.exp" | sed 's/modfn+0x10\/0x20 \[mymod\]/0xffffffffc0002010/' |
	cut -d' ' -f1,2,4- >"$tmp/ls.want"
KTRACE_DIR=$ls KTRACE_KALLSYMS=$tmp/ls.kallsyms "$bin" extract --last-boot -o "$tmp/ls-x.dat" \
	>/dev/null 2>"$tmp/ls.err"
cr_events "$tmp/ls-x.dat" >"$tmp/ls.got"
cr_ok "extract --last-boot, same build: symbols of kallsyms moved by the KASLR difference" \
	"$(cmp -s "$tmp/ls.want" "$tmp/ls.got" && grep -q 'alpha+0x0/0x40' "$tmp/ls.got"
	   echo $?)" \
	"$(diff "$tmp/ls.want" "$tmp/ls.got"; cat "$tmp/ls.err")"
# Another build: said, unresolved; then its System.map (the old layout).
cr_info "$ls/last_boot" 6.99.0-other '#7 SMP other'
KTRACE_DIR=$ls check "extract --last-boot of another build: its addresses stay unresolved" 0 '' \
	'the traced kernel was 6.99.0-other #7 SMP other, not the running .*: '\
'its addresses are left unresolved' \
	-- extract --last-boot -o "$tmp/ls-y.dat"
cr_ok "extract --last-boot of another build: report prints the addresses" \
	"$(cr_events "$tmp/ls-y.dat" | grep -q 'function=0xffffffff81001058 '; echo $?)"
sed -e 's/^ffffffff80c/ffffffff810/' "$tmp/ls.kallsyms" >"$tmp/ls.map"
KTRACE_DIR=$ls check "extract --last-boot --kallsyms System.map: says where its symbols are" 0 '' \
	"not the running .*: its symbols from $tmp/ls.map" \
	-- extract --last-boot --kallsyms "$tmp/ls.map" -o "$tmp/ls-z.dat"
cr_events "$tmp/ls-z.dat" >"$tmp/ls.got"
cr_ok "extract --last-boot --kallsyms: the old build's symbols" \
	"$(cmp -s "$tmp/ls.want" "$tmp/ls.got"; echo $?)" "$(diff "$tmp/ls.want" "$tmp/ls.got")"

# --vmcore: each kind of synthetic vmcore, its expected counts.
crash=${MKCRASH_BIN:-}
if [ -z "$crash" ] || [ ! -x "$crash" ]; then
	n=$((n + 1))
	echo "ok $n # SKIP vmcore: no mkcrash built (MKCRASH_BIN)"
	return 0 2>/dev/null || exit 0
fi
for kind in pages region regionfrozen regionsum noinfo garbled truncated cut stale; do
	"$crash" "$tmp/vm-$kind.core" "$tmp/vm-$kind.exp" "$kind"
	"$bin" extract --vmcore "$tmp/vm-$kind.core" -o "$tmp/vm-$kind.dat" 2>"$tmp/vm.err"
	st=$?
	"$bin" report "$tmp/vm-$kind.dat" >"$tmp/vm.rep" 2>&1
	got="marks=$(grep -c ' ktrace:mark ' "$tmp/vm.rep")"
	got="$got last=$(grep ' ktrace:mark ' "$tmp/vm.rep" | tail -n 1 |
		sed 's/.*text="\(.*\)"$/\1/')"
	got="$got ticks=$(grep -c ' foo:tick ' "$tmp/vm.rep")"
	got="$got cpu1ticks=$(grep -c ' 1 [^ ]* foo:tick ' "$tmp/vm.rep")"
	want=$(head -n 1 "$tmp/vm-$kind.exp")
	cr_ok "extract --vmcore ($kind): exit 0, report: $got" \
		"$([ "$st" -eq 0 ] && [ "$got" = "$want" ]; echo $?)" \
		"exit $st; want $want; $(cat "$tmp/vm.err")"
	bad=
	while read -r _ ch cpu kept events lost; do
		if [ "$kept" = nothing ]; then
			grep -q "^ktrace extract: buf $ch $cpu nothing recovered "\
"(its memory is not in the vmcore)$" \
				"$tmp/vm.err" || bad="$bad $ch $cpu nothing;"
			continue
		fi
		grep -q -E "^ktrace extract: buf $ch $cpu $kept .* $events $lost " "$tmp/vm.err" ||
			bad="$bad $ch $cpu $kept $events $lost;"
	done <<EOF
$(tail -n +2 "$tmp/vm-$kind.exp")
EOF
	cr_ok "extract --vmcore ($kind): each buffer's kept, events and lost said" \
		"$([ -z "$bad" ]; echo $?)" "missing:$bad
$(cat "$tmp/vm.err")"
	cp "$tmp/vm.rep" "$tmp/vm-$kind.rep"
done
"$bin" extract --vmcore "$tmp/vm-garbled.core" -o "$tmp/vm-g.dat" 2>"$tmp/vm.err"
grep -q '^ktrace extract: buf medium cpu0 kept=3 .* record=1 ' "$tmp/vm.err" &&
	grep -a -q '^buf medium cpu0 kept=3 .* record=1 ' "$tmp/vm-g.dat"
cr_ok "extract --vmcore (garbled): the bad subbuffer counted as a bad record, in the stats" $?
"$bin" extract --vmcore "$tmp/vm-stale.core" -o "$tmp/vm-s.dat" 2>&1 |
	grep -q '^ktrace extract: buf high cpu0 kept=2 empty=0 stale=2 header=0 .* lost=0 '
cr_ok "extract --vmcore (stale): the subbuffers a reader had taken counted stale, not lost" $?
"$bin" extract --vmcore "$tmp/vm-regionsum.core" -o "$tmp/vm-s.dat" 2>&1 |
	grep -q '^ktrace extract: buf high cpu0 kept=3 .* checksum=1 events=[0-9]* lost=504 '
cr_ok "extract --vmcore (regionsum): a slot changed after the freeze dropped by its checksum" $?
"$bin" extract --vmcore "$tmp/vm-pages.core" -o - 2>"$tmp/vm-o.err" >"$tmp/vm-o.dat"
"$bin" report "$tmp/vm-o.dat" >"$tmp/vm-o.rep" 2>&1
cr_ok "extract --vmcore -o -: the trace on stdout, the stats on stderr" \
	"$(cmp -s "$tmp/vm-pages.rep" "$tmp/vm-o.rep" &&
	   grep -q 'buf high cpu0 kept=' "$tmp/vm-o.err" &&
	   ! grep -q -a KTRACEF "$tmp/vm-o.err"; echo $?)"
if ! "$bin" slice -z --help 2>&1 | grep -q 'built without libzstd'; then
	"$bin" extract --vmcore "$tmp/vm-pages.core" -z -o "$tmp/vm-z.dat" 2>"$tmp/vm-z.err"
	"$bin" report "$tmp/vm-z.dat" >"$tmp/vm-z.rep" 2>&1
	cr_ok "extract --vmcore -z: compressed, said on the last line, reported as the plain one" \
		"$(cmp -s "$tmp/vm-pages.rep" "$tmp/vm-z.rep" &&
		   tail -n 1 "$tmp/vm-z.err" |
		   grep -q -E '11 subbuffers kept, 3206 events, 0 lost; zstd -3: [0-9]+ bytes$'
		   echo $?)" "$(tail -n 1 "$tmp/vm-z.err")"
fi
check "extract --vmcore --no-kernel-addresses of another build without its symbols: exit 1" 1 '' \
	'needs the kernel.s address range: no kallsyms of the traced kernel' \
	-- extract --vmcore "$tmp/vm-pages.core" --no-kernel-addresses -o "$tmp/vm-h.dat"
cr_ok "extract --vmcore --no-kernel-addresses refused: no file" \
	"$([ ! -e "$tmp/vm-h.dat" ]; echo $?)"
"$crash" "$tmp/vm-b.core" "$tmp/vm-b.exp" badcsum
check "extract --vmcore, a corrupt table (checksum): exit 1, says so" 1 '' \
	"vm-b.core: the crash table's checksum is wrong: it is corrupt: nothing recovered" \
	-- extract --vmcore "$tmp/vm-b.core" -o "$tmp/vm-b.dat"
cr_ok "extract --vmcore, a corrupt table: no file" "$([ ! -e "$tmp/vm-b.dat" ]; echo $?)"
"$crash" "$tmp/vm-n.core" "$tmp/vm-n.exp" noanchor
check "extract --vmcore without ktrace's anchor (a decoy): exit 1, says so" 1 '' \
	"vm-n.core: no KTRACE_CRASH= in VMCOREINFO, memory scanned: the last ktrace anchor found, "\
"at 0x100800: the crash table's header is invalid: nothing recovered" \
	-- extract --vmcore "$tmp/vm-n.core" -o "$tmp/vm-n.dat"
check "extract --vmcore of a file that is no vmcore: exit 1, says so" 1 '' \
	'not an ELF64 core file' -- extract --vmcore "$tmp/vm-n.exp" -o "$tmp/vm-n.dat"
# Cut before the first buffer's data (the table and counts kept): nothing.
head -c $((0x11000)) "$tmp/vm-pages.core" >"$tmp/vm-d.core"
check "extract --vmcore of a vmcore without the buffers' memory: exit 1, says so" 1 '' \
	"buf medium cpu0 nothing recovered \(its memory is not in the vmcore\)" \
	-- extract --vmcore "$tmp/vm-d.core" -o "$tmp/vm-d.dat"
grep -q "no subbuffer of the old kernel's trace was kept: nothing saved" "$tmp/err" &&
	[ ! -e "$tmp/vm-d.dat" ]
cr_ok "extract --vmcore without the buffers' memory: nothing kept, said, no file" $?
head -c 100 "$tmp/vm-n.core" >"$tmp/vm-t.core"
check "extract --vmcore of a vmcore cut in its headers: exit 1, says so" 1 '' \
	'its program headers cannot be read' -- extract --vmcore "$tmp/vm-t.core" -o "$tmp/vm-n.dat"

# The checker under libFuzzer: random tables, counts and slots.
if [ -n "${FUZZ_CRASH_BIN:-}" ] && [ -x "$FUZZ_CRASH_BIN" ]; then
	mkdir -p "$tmp/crash-corpus"
	if "$FUZZ_CRASH_BIN" -max_total_time="${FUZZ_SECONDS:-15}" -close_fd_mask=2 \
		-max_len=65536 -timeout=10 -rss_limit_mb=2048 -artifact_prefix="$tmp/" \
		"$tmp/crash-corpus" >"$tmp/fuzz-crash.log" 2>&1; then
		cr_ok "fuzzing the crash table's checker: $(grep -o 'Done [0-9]* runs' \
			"$tmp/fuzz-crash.log")" 0
	else
		cr_ok "fuzzing the crash table's checker found a crash" 1 \
			"$(tail -n 30 "$tmp/fuzz-crash.log")"
	fi
else
	n=$((n + 1))
	echo "ok $n # SKIP no fuzzer of the crash table's checker built (FUZZ_CRASH_BIN)"
fi
