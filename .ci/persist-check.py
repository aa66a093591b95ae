#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""persist-check.py VARIANT DIR KTRACE [VMCORE_TRACE [DUMP]]: .ci/persist's checks.

DIR is a guest directory of .ci/boot (console.log, boots, results/) after
job-persist.sh (VARIANT plain or corrupt: two boots), job-vmcore.sh
(VARIANT vmcore: one boot, then VMCORE_TRACE, what ktrace extract --vmcore
wrote from the dump) or job-kdump.sh (VARIANT kdump: the capture kernel's
VMCORE_TRACE; DUMP, QEMU's dump, is read too).  KTRACE is the host's tools/ktrace.  Prints TAP, and
the recovered and written counts as "# " lines; exit status 1 if a check
failed.
"""
import re
import subprocess
import sys

CHANNELS = {"0": "high", "1": "medium", "2": "low"}
# .ci/lib.sh console_clean's splats.
SPLAT = re.compile(r"BUG:|WARNING:|Oops|KASAN:|possible circular|inconsistent lock|"
                   r"possible recursive|sleeping function called|suspicious RCU|"
                   r"lockdep is turned off|DEBUG_LOCKS_WARN_ON")
INVALID = ("header", "commit", "record", "clock", "uncommitted", "checksum")
bad_descs = set()

n = 0
failed = 0


def tap(ok, name, why=""):
    global n, failed
    n += 1
    print("%s %d %s" % ("ok" if ok else "not ok", n, name))
    if not ok:
        failed += 1
        for line in str(why).splitlines()[:20]:
            print("# " + line)


def read(path, default=None):
    try:
        with open(path, errors="replace") as f:
            return f.read()
    except OSError:
        if default is None:
            raise
        return default


def parse_info(text):
    """The key: value lines and the buf lines of last_boot/info; the
    buffers whose descriptor was refused go to bad_descs."""
    keys, bufs = {}, {}
    bad_descs.clear()
    for line in text.splitlines():
        if line.startswith("buf "):
            w = line.split()
            ch = CHANNELS.get(w[1], w[1])
            if "descriptor invalid" in line:
                bad_descs.add((w[2], ch))
                continue
            d = dict(kv.split("=", 1) for kv in w[3:] if "=" in kv)
            bufs[(w[2], ch)] = {k: int(v) for k, v in d.items() if v.isdigit()}
        elif ": " in line:
            k, v = line.split(": ", 1)
            keys[k.strip()] = v.strip()
    return keys, bufs


def stat_streams(ktrace, trace):
    """ktrace stat's streams: (cpuN, channel) -> events."""
    out = subprocess.run([ktrace, "stat", trace], capture_output=True, text=True)
    s = {}
    for m in re.finditer(r"^\s+(cpu\d+) (\w+): .* events=(\d+) ", out.stdout, re.M):
        s[(m.group(1), m.group(2))] = int(m.group(3))
    return out.returncode, s


def boots_consoles(dir):
    """The console, split at each boot."""
    text = read(dir + "/console.log").replace("\r", "")
    parts = re.split(r"^(?=Linux version )", text, flags=re.M)
    return [p for p in parts if p.startswith("Linux version ")]


def check_report(ktrace, trace, marks, want_trigger, missing_ok=False):
    """The marks, the trigger record, names and symbols in report."""
    r = subprocess.run([ktrace, "report", trace], capture_output=True, text=True)
    tap(r.returncode == 0 and r.stdout, "report reads the recovered trace",
        r.stderr)
    lines = r.stdout.splitlines()
    mark_re = re.compile(r' (\S+)-(\d+) ktrace:mark pid=\d+ text="persist-(\d+)"$')
    found = [(i, m) for i, l in enumerate(lines) for m in [mark_re.search(l)] if m]
    seq = [int(m.group(3)) for _, m in found]
    if not missing_ok:
        tap(marks and seq == list(range(1, marks + 1)),
            "all %d marks written before the panic, in order" % marks,
            "marks found: %d, first %s, last %s" % (len(seq), seq[:3], seq[-3:]))
    else:
        tap(seq == sorted(seq) and seq and seq[-1] == marks,
            "the marks kept are in order, up to the last one",
            "marks found: %d, last %s" % (len(seq), seq[-3:]))
    tap(found and all(m.group(1) == "job-persist.sh" for _, m in found),
        "the marks' task names decode (job-persist.sh)",
        set(m.group(1) for _, m in found))
    if want_trigger:
        trig = [i for i, l in enumerate(lines) if re.search(
            r' ktrace:trigger trigger="panic" pid=\d+ comm="job-persist.sh" value=0 '
            r'fired=1 action=stop reason="dumptest"$', l)]
        tap(len(trig) == 1, "the panic trigger record is there, once", len(trig))
        last_mark = max(i for i, _ in found) if found else -1
        later = [l for l in lines[last_mark + 1:] if " ktrace:mark " in l]
        tap(found and seq[-1] == marks and not later and trig and trig[0] > last_mark,
            "the last mark before the panic is the last mark, then the trigger record",
            "last mark persist-%s, later marks %d" % (seq[-1] if seq else None, len(later)))
    sym = [l for l in lines if re.search(r"=[A-Za-z_][A-Za-z0-9_.]*\+0x[0-9a-f]+/0x[0-9a-f]+", l)]
    tap(sym, "kernel symbols decode (FUNCTION+0xOFF/0xSIZE)",
        "no symbolized field in %d lines" % len(lines))
    unk = [l for l in lines if "unknown" in l.lower()]
    tap(not unk, "no event left undecoded", "\n".join(unk[:5]))
    return lines


def check_raw_marks(res, marks):
    """The marks in boot 2's raw copy of last_boot/medium/cpu0, whatever
    extract --last-boot does: the kernel kept them all, in order.  A
    mark's text has no terminator in its record: the next record's bytes
    may follow as digits, so a mark k is found as digits starting with k."""
    try:
        with open(res + "/boot2/raw/medium-cpu0", "rb") as f:
            raw = f.read()
    except OSError:
        raw = b""
    found = [m.group(1).decode() for m in re.finditer(rb"persist-(\d+)", raw)]
    ok = marks and len(found) == marks and \
        all(d.startswith(str(k)) for k, d in zip(range(1, marks + 1), found))
    tap(ok, "last_boot/medium/cpu0 holds the %d marks in order" % marks,
        "%d found, first %s, last %s" % (len(found), found[:3], found[-3:]))


def check_dump(path):
    """The crash table in QEMU's ELF dump, found as a reader without
    vmcoreinfo finds it: the anchor's magic, then its complement."""
    import mmap
    import struct
    anchor = struct.pack("<Q", 0x726f68636e61544b)
    anchor2 = struct.pack("<Q", 0x726f68636e61544b ^ (2 ** 64 - 1))
    with open(path, "rb") as f:
        m = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
    phoff, phentsize, phnum = struct.unpack_from("<Q", m, 32)[0], \
        struct.unpack_from("<H", m, 54)[0], struct.unpack_from("<H", m, 56)[0]
    loads = []
    for i in range(phnum):
        typ, _, off, _, paddr, filesz = struct.unpack_from("<IIQQQQ", m, phoff + i * phentsize)
        if typ == 1:
            loads.append((paddr, filesz, off))

    def at(phys, n):
        for paddr, size, off in loads:
            if paddr <= phys and phys + n <= paddr + size:
                return m[off + phys - paddr:off + phys - paddr + n]
        return None
    found = []
    i = m.find(anchor)
    while i >= 0:
        if m[i + 8:i + 16] == anchor2:
            found.append(struct.unpack_from("<QQ", m, i + 16))
        i = m.find(anchor, i + 8)
    tap(len(found) == 1 and found[0][0], "the dump holds one anchor, with a table",
        "anchors (table, size): %s" % found)
    h = at(found[0][0], 256) if found and found[0][0] else None
    ok = h is not None and struct.unpack_from("<I", h, 0)[0] == 0x4b544342
    if ok:
        flags, nr_bufs, nr_cpus = struct.unpack_from("<III", h, 12)
        reason = h[64:80].split(b"\0")[0].decode(errors="replace")
        print("# dump: table at 0x%x: flags 0x%x, %d buffers, %d CPUs, freeze_reason %s" %
              (found[0][0], flags, nr_bufs, nr_cpus, reason))
        ok = flags & 2 and reason == "panic" and nr_bufs == 3 * nr_cpus
    tap(ok, "the anchor's table: frozen by the panic, 3 buffers per CPU")
    m.close()


def check_counts(info_bufs, streams, corrupt):
    """written = kept + lost + dropped + overwritten; kept = the file's."""
    bad = []
    for (cpu, ch), b in sorted(info_bufs.items()):
        s = b.get("events", 0) + b.get("lost", 0) + b.get("dropped", 0) + b.get("overwritten", 0)
        if s != b.get("written", -1):
            bad.append("%s %s: written=%s, kept+lost+dropped+overwritten=%d" %
                       (cpu, ch, b.get("written"), s))
    tap(info_bufs and not bad, "per buffer: written = kept + lost + dropped + overwritten",
        "\n".join(bad) or "no buffer in info")
    bad = ["%s %s: info events=%d, the file %s" % (cpu, ch, b["events"], streams.get((cpu, ch)))
           for (cpu, ch), b in sorted(info_bufs.items())
           if b.get("events", 0) != streams.get((cpu, ch), 0)]
    tap(info_bufs and streams and not bad,
        "per buffer: the file holds exactly the events info says were kept",
        "\n".join(bad) or "no buffer in info or in the file")
    if not corrupt:
        bad = ["%s %s: %s" % (cpu, ch, " ".join("%s=%d" % (k, b[k]) for k in INVALID if b.get(k)))
               for (cpu, ch), b in sorted(info_bufs.items()) if any(b.get(k) for k in INVALID)]
        tap(info_bufs and not bad, "no subbuffer found invalid", "\n".join(bad))
        ow = sum(b.get("overwritten", 0) for (_, ch), b in info_bufs.items() if ch == "high")
        tap(ow > 0, "the high-rate channel wrapped (overwritten %d)" % ow)


def check_corrupt(info_bufs, stats1):
    """Exactly the three damaged subbuffers (job-persist.sh), nothing else."""
    want = {("cpu0", "high"): {"header": 1, "record": 1},
            ("cpu1", "high"): {"commit": 1}}
    for (cpu, ch), w in want.items():
        b = info_bufs.get((cpu, ch), {})
        got = {k: b.get(k, 0) for k in INVALID}
        tap(got == dict({k: 0 for k in INVALID}, **w),
            "%s %s: invalid exactly by %s" % (cpu, ch, ", ".join(sorted(w))), got)
        tap(b.get("lost", 0) > 0, "%s %s: the damaged subbuffers' events are lost (%s)" %
            (cpu, ch, b.get("lost")))
    b = info_bufs.get(("cpu0", "high"), {})
    tap(b.get("kept") == 1 and b.get("events", 0) > 0,
        "cpu0 high: the whole subbuffer between the damaged ones is kept",
        "kept=%s events=%s" % (b.get("kept"), b.get("events")))
    bad = ["%s %s: %s" % (cpu, ch, " ".join("%s=%d" % (k, b[k]) for k in INVALID if b.get(k)))
           for (cpu, ch), b in sorted(info_bufs.items())
           if (cpu, ch) not in want and any(b.get(k) for k in INVALID)]
    tap(info_bufs and not bad, "no other subbuffer found invalid", "\n".join(bad))
    # Tracing stopped before the damage: the panic froze boot 1's counters.
    bad = []
    for m in re.finditer(r"^(cpu\d+) (\w+) events=(\d+) ", stats1, re.M):
        b = info_bufs.get((m.group(1), m.group(2)))
        if b is not None and b.get("written") != int(m.group(3)):
            bad.append("%s %s: boot 1 stats events=%s, info written=%s" %
                       (m.group(1), m.group(2), m.group(3), b.get("written")))
    tap(not bad and stats1, "written = boot 1's events when tracing stopped", "\n".join(bad))


def main():
    variant, dir, ktrace = sys.argv[1], sys.argv[2], sys.argv[3]
    res = dir + "/results"
    marks = int(read(res + "/boot1/marks", "0").strip() or 0)
    consoles = boots_consoles(dir)
    if variant in ("vmcore", "kdump"):
        # kdump: the capture kernel boots before the panic notifiers (no
        # crash_kexec_post_notifiers): no trigger record, nothing frozen.
        trace = sys.argv[4]
        if len(sys.argv) > 5:
            check_dump(sys.argv[5])
        want = 1 if variant == "vmcore" else 2
        tap(len(consoles) == want, "%d boot(s)" % want, len(consoles))
        if variant == "kdump":
            est = read(res + "/capture/extract.status", "missing").strip()
            tap(est == "0", "ktrace extract --vmcore /proc/vmcore succeeded in the capture kernel",
                "status %s: %s" % (est, read(res + "/capture/extract.out", "")))
        st, streams = stat_streams(ktrace, trace)
        tap(st == 0 and streams, "ktrace stat reads the trace of the vmcore")
        for (cpu, ch), e in sorted(streams.items()):
            print("# %s: %s %s events=%d" % (variant, cpu, ch, e))
        check_report(ktrace, trace, marks, variant == "vmcore")
        print("1..%d" % n)
        return failed
    tap(len(consoles) == 2, "two boots: the panic, then the boot that powered off",
        "%d boots" % len(consoles))
    splat = [l for c in consoles[1:] for l in c.splitlines() if SPLAT.search(l)]
    tap(len(consoles) == 2 and not splat, "boot 2's console is clean", "\n".join(splat))
    info = read(res + "/boot2/info", "")
    tap(info, "boot 2 found last_boot/info", read(res + "/job.log", ""))
    keys, bufs = parse_info(info)
    for line in info.splitlines():
        print("# info: " + line)
    tap(keys.get("frozen") == "yes" and keys.get("freeze_reason") == "panic",
        "boot 1's crash path froze the table (frozen: yes, freeze_reason: panic)",
        "frozen: %s, freeze_reason: %s" % (keys.get("frozen"), keys.get("freeze_reason")))
    tap(read(res + "/boot2/released", "").strip() == "released",
        "release frees the copy: last_boot/ goes")
    est = read(res + "/boot2/extract.status", "missing").strip()
    tap(est == "0", "ktrace extract --last-boot succeeded in boot 2",
        "status %s: %s" % (est, read(res + "/boot2/extract.out", "")))
    check_raw_marks(res, marks)
    trace = res + "/boot2/last.dat"
    st, streams = stat_streams(ktrace, trace)
    check_counts(bufs, streams, variant == "corrupt")
    if variant == "table":
        tap(bad_descs == {("cpu1", "high")},
            "the damaged descriptor (cpu1 high) is refused, no other", bad_descs)
    else:
        tap(not bad_descs, "no descriptor refused", bad_descs)
    if variant == "corrupt":
        check_corrupt(bufs, read(res + "/boot1/stats", ""))
        check_report(ktrace, trace, marks, False)
    else:
        check_report(ktrace, trace, marks, True)
    tot = {k: sum(b.get(k, 0) for b in bufs.values())
           for k in ("written", "events", "lost", "dropped", "overwritten", "kept")}
    print("# totals: " + " ".join("%s=%d" % kv for kv in tot.items()) +
          " marks=%d" % marks)
    print("1..%d" % n)
    return failed


if __name__ == "__main__":
    sys.exit(1 if main() else 0)
