# SPDX-License-Identifier: GPL-2.0
# Sourced by run.sh: kernel symbols saved with a trace, and kernel
# addresses hidden (symbols.c, through tests/symtest.c).  A synthetic
# trace of kernel addresses (mktrace ... symbols) and a fake kallsyms.

# pass NAME / fail NAME WHY: one test.
sym_result() {
	n=$((n + 1))
	if [ -z "$2" ]; then
		echo "ok $n $1"
	else
		echo "not ok $n $1"
		echo "$2" | sed 's/^/# /'
		fails=$((fails + 1))
	fi
}

# sym_report NAME TRACE WANT: report prints exactly the lines of WANT.
sym_report() {
	if "$bin" report "$2" >"$tmp/sym.got" 2>"$tmp/sym.err" && [ ! -s "$tmp/sym.err" ] &&
	   cmp -s "$3" "$tmp/sym.got"; then
		sym_result "$1"
	else
		sym_result "$1" "$(diff "$3" "$tmp/sym.got"; cat "$tmp/sym.err")"
	fi
}

# sym_left TRACE ADDR...: the 8-byte values (little-endian) still in TRACE.
sym_left() {
	_f=$1
	shift
	od -An -v -tx1 "$_f" | tr -s ' \n' '  ' >"$tmp/sym.hex"
	for _a in "$@"; do
		# ffffffff81001000 -> " 00 10 00 81 ff ff ff ff"
		_le=$(echo "$_a" | sed 's/../& /g' |
			awk '{ for (i = NF; i > 0; i--) printf " %s", $i }')
		grep -q -e "$_le" "$tmp/sym.hex" && echo "$_a"
	done
}

symtest=${SYMTEST_BIN:-}
if [ -z "$symtest" ] || [ ! -x "$symtest" ]; then
	n=$((n + 1))
	echo "ok $n # SKIP symbols: no symtest built (SYMTEST_BIN)"
else
	addrs="ffffffff81001000 ffffffff81001058 ffffffffc0002010 ffffffff80000010
	       ffffffffc0003008 ffffffffc0002000"
	"$mk" "$tmp/k.dat" "$tmp/k.exp" symbols
	sort -s -k1,1n "$tmp/k.exp" >"$tmp/k.want"
	printf '%s\n' \
		'0000000000000000 A fixed_percpu_data' \
		'ffffffff81000000 T _stext' \
		'ffffffff81001000 T alpha' \
		'ffffffff81001000 t alpha_alias' \
		'ffffffff81001040 t beta' \
		'ffffffff81001070 T gamma' \
		'ffffffff81002000 T _etext' \
		'ffffffffc0002000 t modfn	[mymod]' \
		'ffffffffc0002020 t modnext	[mymod]' \
		'ffffffffc0003000 t modlast	[mymod]' >"$tmp/kallsyms"
	sed 's/^[0-9a-f]*/0000000000000000/' "$tmp/kallsyms" >"$tmp/kallsyms0"

	# Before: every address in hexadecimal, every one in the file.
	sed -E 's/function=[^ ]+( \[[^]]*\])?/function=ADDR/' "$tmp/k.want" >"$tmp/k.raw.want"
	"$bin" report "$tmp/k.dat" 2>&1 | sed -E 's/function=[^ ]+/function=ADDR/' >"$tmp/k.raw"
	left=$(sym_left "$tmp/k.dat" $addrs | wc -l)
	if cmp -s "$tmp/k.raw.want" "$tmp/k.raw" && [ "$left" -eq 6 ] &&
	   "$bin" report "$tmp/k.dat" | grep -q ' function=0xffffffff81001058 '; then
		sym_result "symbols: without a symbols section, addresses print in hexadecimal"
	else
		sym_result "symbols: without a symbols section, addresses print in hexadecimal" \
			"$(diff "$tmp/k.raw.want" "$tmp/k.raw"; echo "addresses found: $left of 6")"
	fi

	# Saved: report prints what %pS prints, from the symbols section.
	cp "$tmp/k.dat" "$tmp/k1.dat"
	KTRACE_KALLSYMS=$tmp/kallsyms "$symtest" "$tmp/k1.dat" >"$tmp/sym.out" 2>&1
	sym_result "symbols: saved with exit 0 and no message" \
		"$([ $? -eq 0 ] || echo "exit $?"; cat "$tmp/sym.out")"
	sym_report "symbols: report prints name+0xoff/0xsize [module], hex where none" \
		"$tmp/k1.dat" "$tmp/k.want"
	check "symbols: a symbol of a module" 0 \
		' irq:timer_expire function=modfn\+0x10/0x20 \[mymod\] late_ns=-2$' '' \
		-- report "$tmp/k1.dat"
	check "symbols: the first of two aliases, at offset 0" 0 \
		' irq:timer_expire function=alpha\+0x0/0x40 late_ns=-4$' '' -- report "$tmp/k1.dat"
	check "symbols: an address before the first symbol stays hexadecimal" 0 \
		' function=0xffffffff80000010 late_ns=-3$' '' -- report "$tmp/k1.dat"
	# The section: one line per resolved distinct value, after the trace.
	head -c "$(wc -c <"$tmp/k.dat")" "$tmp/k1.dat" | cmp -s - "$tmp/k.dat"
	same=$?
	lines=$(tail -c +$(($(wc -c <"$tmp/k.dat") + 17)) "$tmp/k1.dat" | tr -d '\0')
	# In the order report meets them: the module (medium) comes first.
	want_lines="ffffffffc0002000 modfn+0x0/0x20 [mymod]
ffffffff81001000 alpha+0x0/0x40
ffffffff81001058 beta+0x18/0x30
ffffffffc0002010 modfn+0x10/0x20 [mymod]"
	sym_result "symbols: the trace kept, the section appended with exactly its lines" \
		"$([ "$same" -eq 0 ] || echo "the trace changed")$([ "$lines" = "$want_lines" ] ||
			echo "section: $lines")"

	# Hidden: the same names, tokens in the records, no address in the file.
	cp "$tmp/k.dat" "$tmp/k2.dat"
	KTRACE_KALLSYMS=$tmp/kallsyms "$symtest" "$tmp/k2.dat" hide >"$tmp/sym.out" 2>&1
	sym_result "symbols hidden: exit 0 and no message" \
		"$([ $? -eq 0 ] || echo "exit $?"; cat "$tmp/sym.out")"
	sed -E 's/function=0x[0-9a-f]*[1-9a-f][0-9a-f]* /function=? /
		s/base=0x[0-9a-f]+/base=0x0/' "$tmp/k.want" >"$tmp/k.hide.want"
	sym_report "symbols hidden: report prints the same names, ? where none, base 0" \
		"$tmp/k2.dat" "$tmp/k.hide.want"
	left=$(sym_left "$tmp/k2.dat" $addrs | tr '\n' ' ')
	left_control=$(sym_left "$tmp/k1.dat" $addrs | wc -l)
	sym_result "symbols hidden: none of the 6 addresses left in the file (od)" \
		"$([ -z "$left" ] || echo "left: $left")$([ "$left_control" -eq 6 ] ||
			echo "the search finds $left_control of 6 in the unhidden trace")"
	tr -d '\0' <"$tmp/k2.dat" | grep -a -c -E '(# hidden|^1 alpha\+0x0/0x40|'\
'^2 beta\+0x18/0x30|^3 modfn\+0x10/0x20 \[mymod\]|^4 \?|^5 \?)$' >"$tmp/sym.n"
	sym_result "symbols hidden: '# hidden', then tokens 1-5 in order of first appearance" \
		"$([ "$(cat "$tmp/sym.n")" -eq 6 ] || echo "$(cat "$tmp/sym.n") of the 6 lines")"
	check "symbols hidden: the file decodes without a warning" 0 \
		'statedump:module base=0x0 ' '' \
		-- report "$tmp/k2.dat"

	# Hidden, what the decoder does not deliver with metadata: a record
	# without metadata, the rest of a subbuffer after a corrupt record,
	# bytes that are no subbuffer header, bytes after the last subbuffer
	# (at an odd offset), a record of the low channel.  Each holds an
	# address in the range of kallsyms, zeroed; the rest still decodes.
	# And an oops trigger's reason, in its record and the triggers text.
	"$mk" "$tmp/u.dat" "$tmp/u.exp" undecoded
	sort -s -k1,1n "$tmp/u.exp" >"$tmp/u.want"
	uaddrs="ffffffff81001111 ffffffff81001222 ffffffff81001333 ffffffffc0002222
		ffffffffc0003333"
	left_control=$(sym_left "$tmp/u.dat" $uaddrs | wc -l)
	cp "$tmp/u.dat" "$tmp/u1.dat"
	KTRACE_KALLSYMS=$tmp/kallsyms "$symtest" "$tmp/u1.dat" hide >"$tmp/sym.out" 2>&1
	rc=$?
	left=$(sym_left "$tmp/u1.dat" $uaddrs ffffffff81001000 ffffffff81001058 ffffffffc0002010 |
		tr '\n' ' ')
	sym_result "symbols hidden: addresses in undecoded data zeroed, 5 of them, said once" \
		"$([ "$rc" -eq 0 ] || echo "exit $rc")$([ -z "$left" ] || echo "left: $left")$(
		   [ "$left_control" -eq 5 ] || echo "the search finds $left_control of 5 before")$(
		   [ "$(grep -c -x 'ktrace: 5 further kernel addresses in undecoded data zeroed' \
			"$tmp/sym.out")" = 1 ] || echo "stderr: $(cat "$tmp/sym.out")")"
	"$bin" report "$tmp/u1.dat" >"$tmp/u.got" 2>/dev/null
	sym_result "symbols hidden: the rest decodes, the trigger's reason scrubbed" \
		"$(diff "$tmp/u.want" "$tmp/u.got")"
	tr -d '\0' <"$tmp/u1.dat" >"$tmp/u1.txt"
	x16=0xxxxxxxxxxxxxxxxx
	oops="oops fired: .* RIP: $x16 at $x16 short 0x12345 long 0x12345678901234567 upper 0X"
	raw='ffffffff81001058|ffff888003c41000|ffffffffc0002010|ffffffff81001000'
	sym_result "symbols hidden: the triggers text scrubbed, other hex numbers kept" \
		"$(grep -a -i -E "$raw" "$tmp/u1.txt")$(
		   grep -a -q -x "user armed at $x16" "$tmp/u1.txt" || echo 'no armed line')$(
		   grep -a -q "$oops" "$tmp/u1.txt" || echo ' no oops line')$(
		   grep -a -c 'address 0xdead000000000122 ' "$tmp/u1.txt" | grep -vx 2)"
	# %pS's bounds: beyond _end no core symbol; a module's symbol sized
	# by the next one of that module, its last by the next whatever it
	# is; BPF and ftrace's pseudo-modules unnamed.
	printf '%s\n' \
		'ffffffff81000000 T _stext' \
		'ffffffff81001000 T alpha' \
		'ffffffff81002000 T _etext' \
		'ffffffff81003000 B _end' \
		'ffffffffc0001000 t a1	[moda]' \
		'ffffffffc0001100 t b1	[modb]' \
		'ffffffffc0001200 t a2	[moda]' \
		'ffffffffc0001300 t b2	[modb]' \
		'ffffffffc0002000 t bpf_prog_x	[bpf]' \
		'ffffffffc0002100 t ftrace_trampoline	[__builtin__ftrace]' \
		'ffffffffc0002200 t c1	[modc]' >"$tmp/kallsyms2"
	"$mk" "$tmp/b.dat" "$tmp/b.exp" timers ffffffff81003100 ffffffff81002800 \
		ffffffffc0001010 ffffffffc0001210 ffffffffc0001310 ffffffffc0002010 \
		ffffffffc0002110 ffffffffc0002210
	KTRACE_KALLSYMS=$tmp/kallsyms2 "$symtest" "$tmp/b.dat" >"$tmp/sym.out" 2>&1
	"$bin" report "$tmp/b.dat" 2>&1 | sed 's/.* function=//' >"$tmp/b.got"
	printf '%s\n' '0xffffffff81003100 late_ns=0' '_etext+0x800/0x1000 late_ns=-1' \
		'a1+0x10/0x200 [moda] late_ns=-2' 'a2+0x10/0x100 [moda] late_ns=-3' \
		'b2+0x10/0xd00 [modb] late_ns=-4' 'bpf_prog_x+0x10/0x100 late_ns=-5' \
		'ftrace_trampoline+0x10/0x100 late_ns=-6' '0xffffffffc0002210 late_ns=-7' \
		>"$tmp/b.want"
	sym_result "symbols: %pS bounds: _end, a module's own next symbol, bpf and ftrace" \
		"$(cat "$tmp/sym.out"; diff "$tmp/b.want" "$tmp/b.got")"

	# While recording, the temporary file holds raw addresses, and the
	# trace what root-only debugfs shows: 0600 while written and after,
	# whatever the umask (here 022).
	fake "$tmp/fake-sym"
	for h in "" --no-kernel-addresses; do
		rm -f "$tmp/m.dat"
		modes=$( (umask 022; KTRACE_DIR=$tmp/fake-sym KTRACE_KALLSYMS=$tmp/kallsyms \
			"$bin" record $h -o "$tmp/m.dat" -- \
			sh -c 'stat -c %a "$0".??????' "$tmp/m.dat" 2>/dev/null) 2>"$tmp/sym.out")
		modes="$modes $(stat -c %a "$tmp/m.dat" 2>&1)"
		sym_result "record${h:+ $h}: the file 0600 while written and after (umask 022)" \
			"$([ "$modes" = "600 600" ] || echo "modes: $modes"; cat "$tmp/sym.out")"
	done

	# A crafted symbols section: ESC and CR bytes, a symbol of no form.
	# report prints none of them, and says where in one warning.
	"$mk" "$tmp/c.dat" "$tmp/c.exp" badsymbols
	"$bin" report "$tmp/c.dat" >"$tmp/c.got" 2>"$tmp/c.err"
	rc=$?
	ctl=$(od -An -c "$tmp/c.got" | grep -c -E '033|\\r')
	sym_result "symbols: a crafted section: no control byte printed, one warning" \
		"$([ "$rc" -eq 0 ] || echo "exit $rc")$([ "$ctl" -eq 0 ] || echo "control bytes")$(
		   grep -q ' function=0xffffffff81001000 late_ns=0$' "$tmp/c.got" ||
			echo 'alpha not in hexadecimal')$(
		   grep -q ' function=0xffffffffc0003008 late_ns=-6$' "$tmp/c.got" ||
			echo 'rm -rf printed')$(
		   grep -q ' function=modfn+0x10/0x20 \[mymod\] late_ns=-2$' "$tmp/c.got" ||
			echo 'the good line not used')$(
		   [ "$(wc -l <"$tmp/c.err")" -eq 1 ] &&
		   grep -q -E 'offset [0-9]+: warning: symbols section: 3 bad lines skipped' \
			"$tmp/c.err" || echo "stderr: $(cat "$tmp/c.err")")"
	# The offset is the first bad line's: "ffffffff81001000 alpha<ESC>".
	off=$(sed -n 's/.*offset \([0-9]*\): warning: symbols.*/\1/p' "$tmp/c.err")
	got=$(tail -c +$((off + 1)) "$tmp/c.dat" 2>/dev/null | head -c 23 | od -An -c |
		tr -d "\n" | tr -s " ")
	sym_result "symbols: the warning's offset is the first bad line's" \
		"$([ "$got" = " f f f f f f f f 8 1 0 0 1 0 0 0 a l p h a 033" ] ||
			echo "at offset $off: $got")"

	# Without the kernel's range, record and extract refuse to start.
	fake "$tmp/fake-sym"
	tree "$tmp/fake-sym" >"$tmp/fs.tree"
	for c in "record -o $tmp/m0.dat -- true" "extract -o $tmp/m0.dat"; do
		cmd=${c%% *}
		why="hides addresses \(kptr_restrict\): ktrace $cmd --no-kernel-addresses needs"
		KTRACE_DIR=$tmp/fake-sym KTRACE_KALLSYMS=$tmp/kallsyms0 check \
			"$cmd --no-kernel-addresses without kallsyms: exit 1 first" 1 '' "$why" \
			-- $cmd --no-kernel-addresses ${c#* }
		tree "$tmp/fake-sym" >"$tmp/fs.tree2"
		sym_result "$cmd --no-kernel-addresses without kallsyms: no file, no change" \
			"$(ls "$tmp"/m0.dat* 2>/dev/null; cmp -s "$tmp/fs.tree" "$tmp/fs.tree2" ||
				echo "the control directory changed")"
	done
	# kptr_restrict: kallsyms shows zeros; a warning, the trace unchanged.
	cp "$tmp/k.dat" "$tmp/k3.dat"
	KTRACE_KALLSYMS=$tmp/kallsyms0 "$symtest" "$tmp/k3.dat" >"$tmp/sym.out" 2>&1
	rc=$?
	sym_result "symbols: a kallsyms of zeros warns once and leaves the trace as it was" \
		"$([ "$rc" -eq 0 ] || echo "exit $rc")$(
		   [ "$(grep -c 'hides addresses (kptr_restrict): symbols not saved' \
			"$tmp/sym.out")/$(wc -l <"$tmp/sym.out")" = 1/1 ] ||
			echo "not the one warning: $(cat "$tmp/sym.out")")$(
		   cmp "$tmp/k.dat" "$tmp/k3.dat")"
	# ... but not hidden: without the kernel's range, undecoded data
	# could hold addresses.  A failure, the trace as it was.
	cp "$tmp/k.dat" "$tmp/k4.dat"
	KTRACE_KALLSYMS=$tmp/kallsyms0 "$symtest" "$tmp/k4.dat" hide >"$tmp/sym.out" 2>&1
	rc=$?
	sym_result "symbols hidden without kallsyms: exit 1, the trace as it was, says why" \
		"$([ "$rc" -eq 1 ] || echo "exit $rc")$(cmp "$tmp/k.dat" "$tmp/k4.dat")$(
		   grep -q 'kernel addresses cannot be hidden without kallsyms' "$tmp/sym.out" ||
			echo "no reason: $(cat "$tmp/sym.out")")"
	KTRACE_KALLSYMS=$tmp/nonexistent "$symtest" "$tmp/k4.dat" hide >"$tmp/sym.out" 2>&1
	rc=$?
	sym_result "symbols hidden without a kallsyms file: exit 1, the trace as it was" \
		"$([ "$rc" -eq 1 ] || echo "exit $rc")$(cmp "$tmp/k.dat" "$tmp/k4.dat")"
	# A trace without kernel addresses is left alone.
	cp "$tmp/s.dat" "$tmp/k5.dat"
	KTRACE_KALLSYMS=$tmp/kallsyms "$symtest" "$tmp/k5.dat" hide >/dev/null 2>&1
	sym_result "symbols: a trace without kernel addresses is left as it was" \
		"$(cmp "$tmp/s.dat" "$tmp/k5.dat")"
fi
