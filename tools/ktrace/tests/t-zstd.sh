# SPDX-License-Identifier: GPL-2.0
# Sourced by run.sh, after t-save.sh (its fake control directory): trace
# files compressed with zstd, written by extract -z and read by every
# command as the uncompressed file is, recognized by their magic.

# zmagic FILE: whether FILE starts with the zstd magic number.
zmagic() {
	[ "$(od -An -tx1 -N4 "$1" | tr -d ' ')" = 28b52ffd ]
}

if ! "$bin" slice -z --help 2>&1 | grep -q 'built without libzstd'; then
	fake "$tmp/zfake"
	KTRACE_DIR=$tmp/zfake check "extract -z: says the compressed size" 0 '' \
		"ktrace extract: [0-9]+ bytes of trace in $tmp/z-x.dat \\([0-9]+ streams\\): \
.*; zstd -3: [0-9]+ bytes" \
		-- extract -z -o "$tmp/z-x.dat"
	"$bin" report "$tmp/fk.dat" >"$tmp/z-fk.rep" 2>&1
	"$bin" report "$tmp/z-x.dat" >"$tmp/z-x.rep" 2>&1
	result "extract -z: a zstd file; report of it is report of the trace \
($(wc -l <"$tmp/z-x.rep") lines)" \
		"$(zmagic "$tmp/z-x.dat" && [ -s "$tmp/z-x.rep" ] &&
		   cmp -s "$tmp/z-fk.rep" "$tmp/z-x.rep"; echo $?)"
	fake "$tmp/zfake"
	KTRACE_DIR=$tmp/zfake "$bin" extract --compress=19 -o "$tmp/z-19.dat" 2>/dev/null
	"$bin" report "$tmp/z-19.dat" >"$tmp/z-19.rep" 2>&1
	result "extract --compress=19: smaller than the trace ($(wc -c <"$tmp/z-19.dat") of \
$(wc -c <"$tmp/fk.dat") bytes), same report" \
		"$(zmagic "$tmp/z-19.dat" &&
		   [ "$(wc -c <"$tmp/z-19.dat")" -lt "$(($(wc -c <"$tmp/fk.dat") / 4))" ] &&
		   cmp -s "$tmp/z-fk.rep" "$tmp/z-19.rep"; echo $?)"
	check "extract: a bad compression level" 2 '' "bad compression level '0': 1 to 19" \
		-- extract -z0 -o "$tmp/z-bad.dat"
	check "record: a bad compression level" 2 '' "bad compression level 'x': 1 to 19" \
		-- record --compress=x -o "$tmp/z-bad.dat" -- true
	result "no file for a bad level" "$(ls "$tmp"/z-bad.dat* 2>/dev/null | wc -l)"

	# Every command reads it by its magic, whatever its name: the
	# synthetic traces of each analysis, compressed (as the zstd command
	# would, with the trace's own extract of the slice: no zstd needed).
	zbad=
	for v in "" io reclaim latency blockkeys; do
		"$mk" "$tmp/z-$v.dat" "$tmp/z-$v.exp" $v
		"$bin" slice -z --from 0 -o "$tmp/z-$v.zdat" "$tmp/z-$v.dat" 2>/dev/null
		"$bin" slice --from 0 -o "$tmp/z-$v.pdat" "$tmp/z-$v.dat" 2>/dev/null
		zmagic "$tmp/z-$v.zdat" || zbad="$zbad $v:magic"
		for c in report stat "latency block" "latency syscall" io reclaim convert; do
			case $c in
			convert) a="--ctf $tmp/z-ctf-p" b="--ctf $tmp/z-ctf-z" ;;
			*) a= b= ;;
			esac
			# shellcheck disable=SC2086
			"$bin" $c $a "$tmp/z-$v.pdat" >"$tmp/z-p.out" 2>&1
			sp=$?
			# shellcheck disable=SC2086
			"$bin" $c $b "$tmp/z-$v.zdat" >"$tmp/z-z.out" 2>&1
			sz=$?
			sed -i "s|z-$v.zdat|FILE|g; s|z-ctf-z|CTF|g" "$tmp/z-z.out"
			sed -i "s|z-$v.pdat|FILE|g; s|z-ctf-p|CTF|g" "$tmp/z-p.out"
			[ "$sp" = "$sz" ] && cmp -s "$tmp/z-p.out" "$tmp/z-z.out" ||
				zbad="$zbad ${v:-default}:$c"
			# (a uuid of its own, a hostname from the file name: the rest must match)
			[ "$c" != convert ] || {
				[ "$(ls "$tmp/z-ctf-p")" = "$(ls "$tmp/z-ctf-z")" ] &&
				grep -v -e uuid -e hostname "$tmp/z-ctf-p/metadata" |
				cmp -s - "$(grep -v -e uuid -e hostname "$tmp/z-ctf-z/metadata" \
					>"$tmp/z-ctf.m"; echo "$tmp/z-ctf.m")"; } ||
				zbad="$zbad ${v:-default}:ctf"
			rm -rf "$tmp/z-ctf-p" "$tmp/z-ctf-z"
		done
	done
	result "report, stat, latency, io, reclaim and convert of compressed traces print what \
they print of the uncompressed ones" \
		"$([ -z "$zbad" ]; echo $?)"
	[ -z "$zbad" ] || echo "# differ:$zbad"
	if command -v zstd >/dev/null 2>&1; then
		zstd -q -19 -c "$tmp/s.dat" >"$tmp/z-cli.trace"
		"$bin" report "$tmp/z-cli.trace" >"$tmp/z-cli.rep" 2>&1
		"$bin" report "$tmp/s.dat" >"$tmp/z-s.rep" 2>&1
		result "a file of the zstd command, named .trace: read by its magic" \
			"$(cmp -s "$tmp/z-s.rep" "$tmp/z-cli.rep"; echo $?)"
		# A skippable frame first, as pzstd and the seekable format write.
		{ printf '\120\052\115\030\004\000\000\000ktrc'; cat "$tmp/z-cli.trace"; } \
			>"$tmp/z-skip.trace"
		"$bin" report "$tmp/z-skip.trace" >"$tmp/z-skip.rep" 2>&1
		result "a zstd file that starts with a skippable frame: read" \
			"$(cmp -s "$tmp/z-s.rep" "$tmp/z-skip.rep"; echo $?)" "$tmp/z-skip.rep"
		# A trace cut short, then compressed: the cut is a byte of the trace.
		"$bin" slice --from 0 -o "$tmp/z-sl.dat" "$tmp/s.dat" 2>/dev/null
		hsize=$(($(wc -c <"$tmp/z-sl.dat") * 3 / 4))
		head -c "$hsize" "$tmp/z-sl.dat" | zstd -q -c >"$tmp/z-slcut.zst"
		"$bin" report "$tmp/z-slcut.zst" >/dev/null 2>"$tmp/z-slcut.err"
		grep -q "cut short at byte $hsize of its trace" "$tmp/z-slcut.err"
		result "a cut trace, compressed: where it is cut is said in bytes of the trace" $? \
			"$tmp/z-slcut.err"

		# A trace of 3 blocks of zstd (128 KiB each): the synthetic trace, then
		# a text section of 384 KiB of random text, cut in its second block.
		cp "$tmp/s.dat" "$tmp/z-big.dat"
		printf '\005\000\000\000\000\000\000\000\000\000\006\000\000\000\000\000' \
			>>"$tmp/z-big.dat"
		head -c 294912 /dev/urandom | base64 -w 0 >>"$tmp/z-big.dat"
		zstd -q -c "$tmp/z-big.dat" >"$tmp/z-bigs.dat"
		bsize=$(wc -c <"$tmp/z-bigs.dat")
		head -c $((bsize / 2)) "$tmp/z-bigs.dat" >"$tmp/z-cut.dat"
		"$bin" report "$tmp/z-cut.dat" >"$tmp/z-cut.rep" 2>"$tmp/z-cut.err"
		st=$?
		result "a truncated compressed file: the events it holds \
($(wc -l <"$tmp/z-cut.rep") lines), exit 0" \
			"$([ $st -eq 0 ] && sort -s -k1,1n "$tmp/s.exp" |
			   cmp -s - "$tmp/z-cut.rep"; echo $?)" \
			"$tmp/z-cut.err"
		grep -E -q 'z-cut.dat: warning: the zstd data stops short \(truncated file\): '\
'decoding the (131072|262144) bytes of trace it holds' \
			"$tmp/z-cut.err"
		result "a truncated compressed file: said, with the bytes it holds" $? \
			"$tmp/z-cut.err"
	fi

	# Cut and corrupt: said, never decoded as garbage.
	head -c 20 "$tmp/z-19.dat" >"$tmp/z-cut2.dat"
	check "a compressed file cut in its first block: said" 1 '' \
		'stops short \(truncated file\).*|too short for a trace file' \
		-- report "$tmp/z-cut2.dat"
	zsize=$(wc -c <"$tmp/z-19.dat")
	cp "$tmp/z-19.dat" "$tmp/z-bad.zst"
	printf '\377\377\377\377' |
		dd of="$tmp/z-bad.zst" bs=1 seek=$((zsize / 2)) conv=notrunc 2>/dev/null
	check "a corrupt compressed file is an error that says so" 1 '' \
		'z-bad.zst: corrupt zstd data' -- report "$tmp/z-bad.zst"
	rm -f "$tmp/z-bad.zst"
	printf '\050\265\057\375' >"$tmp/z-magic.dat"
	check "the zstd magic alone: an error, not a trace" 1 '' \
		'stops short|too short for a trace file' -- stat "$tmp/z-magic.dat"
else
	check "without libzstd: -z says so" 2 '' 'built without libzstd' \
		-- extract -z -o "$tmp/z-x.dat"
fi
