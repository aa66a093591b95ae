#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# lttng-compare.py KTRACE TRACE CTFDIR
#
# Whether Debian's lttng-analyses (python3-lttnganalyses), run on CTFDIR,
# the CTF that "KTRACE convert --ctf CTFDIR TRACE" wrote in LTTng's kernel
# layout, finds what ktrace's own analyses find in TRACE:
#
#   syscalls  lttng-syscallstats' count per system call name (summed over
#             its tasks) = the entry -> exit pairs of "ktrace latency
#             syscall" per number, named as lttng-modules 2.13 names it on
#             x86-64 (LTTNG_213 below, from its instrumentation/syscalls
#             headers: not ctf.c's table)
#   block     lttng-iolatencystats' disk latency per device: its requests
#             and the longest = the pairs of "ktrace latency block" per dev
#   irq       lttng-irqstats' hard IRQs: name, count and longest handler
#             per IRQ = "ktrace latency irq"'s per IRQ (the name its
#             statedump gave)
#   sched     lttng-schedstats' scheduling latency per TID: its wakeups and
#             the longest = the pairs of "ktrace latency wakeup" per pid
#
# A kind the trace has (its records in "ktrace report": system call exits,
# completions, IRQ exits, wakeups) that lttng-analyses finds none of
# differs, whatever ktrace's analysis says; a kind neither has is "none".
#
# lttng-analyses runs with --no-intersection: by default it reads only the
# time all streams cover, and a CPU's medium-rate stream may hold a few
# events of the statedump only.  Durations print in microseconds with
# three decimals, as both tools print them.
#
# One line per comparison, "KIND: lttng-analyses X, ktrace Y: same|DIFFERENT";
# exit 0 if all are the same, 1 if one differs, 2 if a tool failed.
import collections
import re
import subprocess
import sys

LTTNG_ARGS = ['--no-progress', '--no-intersection']

# x86-64 calls lttng-modules 2.13 names otherwise than syscall_64.tbl, by
# number; the numbers it has no event for (syscall_entry_unknown).
LTTNG_213 = {4: 'newstat', 5: 'newfstat', 6: 'newlstat', 40: 'sendfile64',
             63: 'newuname', 166: 'umount'}
LTTNG_213_UNKNOWN = set([125, 126, 134, 156, 174, 177, 178, 180, 181, 182, 183,
                         184, 185, 205, 211, 212, 214, 215, 236, 335, 444, 445,
                         446] + list(range(451, 463)))

# The records of each kind in ktrace report (the trace has the kind).
REPORT_KINDS = {'syscalls': ('syscalls:exit',),
                'block': ('block:rq_complete', 'block:rq_status'),
                'irq': ('irq:hardirq_exit',),
                'sched': ('sched:wakeup', 'sched:wakeup_new')}


def run(cmd, none=()):
    """The output of @cmd; None if it failed saying one of @none."""
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       universal_newlines=True, timeout=600)
    if p.returncode != 0 and any(n in p.stdout for n in none):
        return None
    if p.returncode != 0 or 'Error' in p.stdout or 'Traceback' in p.stdout:
        sys.stderr.write('%s failed (%d):\n%s\n' % (' '.join(cmd), p.returncode,
                                                   p.stdout[-2000:]))
        sys.exit(2)
    return p.stdout


def lttng(tool, ctf):
    return run(['lttng-' + tool] + LTTNG_ARGS + [ctf])


def ktrace_pairs(kt, kind, trace):
    """The "top" lines of ktrace latency KIND: (us, their words)."""
    # No such event in the trace: no pair.
    out = run([kt, 'latency', kind, '--top', '1000000', trace],
              ('nothing to analyse', "event in the trace's metadata"))
    if out is None:
        return []
    pairs = []
    for line in out.splitlines():
        m = re.match(r'\s+([0-9.]+)us at \S+ (.*)', line)
        if m and not line.lstrip().startswith('>='):
            pairs.append((m.group(1), dict(w.split('=', 1) for w in m.group(2).split()
                                           if '=' in w)))
    head = re.search(r': (\d+) pairs', out)
    if not head or int(head.group(1)) != len(pairs):
        sys.stderr.write('ktrace latency %s: %s pairs, %d listed\n' %
                         (kind, head.group(1) if head else '?', len(pairs)))
        sys.exit(2)
    return pairs


def longest(values):
    return max(values, key=float) if values else 'none'


def lttng_name(w):
    """lttng-modules 2.13's name of the call of a pair's words."""
    nr = int(w.get('nr', -1))
    if nr in LTTNG_213_UNKNOWN or 'name' not in w:
        return 'unknown'
    return LTTNG_213.get(nr, w['name'])


def syscalls(kt, trace, ctf):
    lt = collections.Counter()
    for line in lttng('syscallstats', ctf).splitlines():
        m = re.match(r' - (\S+)\s+(\d+)\s', line)
        if m:
            lt[m.group(1)] += int(m.group(2))
    k = collections.Counter(lttng_name(w) for _, w in ktrace_pairs(kt, 'syscall', trace))
    show = lambda c: '%d calls of %d names' % (sum(c.values()), len(c))
    diff = sorted(n for n in set(lt) | set(k) if lt[n] != k[n])
    note = '' if not diff else ' (%s)' % ', '.join('%s %d/%d' % (n, lt[n], k[n])
                                                   for n in diff[:8])
    return show(lt), show(k) + note, not diff


def per_key(pairs, key):
    """{key's value: (pairs, longest)} of ktrace pairs."""
    d = collections.defaultdict(list)
    for us, w in pairs:
        d[w.get(key, '?')].append(us)
    return {n: (len(v), longest(v)) for n, v in d.items()}


def show_keys(d, what):
    """{key: (count, longest)}: each key if few, else totals."""
    if len(d) > 3:
        return '%d %ss: %d, longest %s us' % (len(d), what, sum(c for c, _ in d.values()),
                                             longest([m for _, m in d.values()]))
    return ', '.join('%s: %d, longest %s us' % (n, c, m)
                     for n, (c, m) in sorted(d.items())) or 'none'


def compare_keys(lt, k, what):
    """
    The lines of two {key: (count, longest)} and whether they are the same;
    the keys that differ as "KEY LTTNG/KTRACE", each COUNT@LONGEST or -.
    """
    diff = sorted(n for n in set(lt) | set(k) if lt.get(n) != k.get(n))
    fmt = lambda v: '-' if v is None else '%d@%s' % v
    note = '' if not diff else ' (%s)' % ', '.join(
        '%s %s/%s' % (n, fmt(lt.get(n)), fmt(k.get(n))) for n in diff[:4])
    return show_keys(lt, what), show_keys(k, what) + note, not diff


def block(kt, trace, ctf):
    """
    Per device: lttng-analyses names a disk by its statedump's name (the
    statedump:blockdev lines of ktrace report), else "(M,m)".
    """
    out = lttng('iolatencystats', ctf)
    part = out.split('Disk latency statistics', 1)
    rows = re.findall(r'^(\S+)\s+(\d+)\s+[0-9.]+\s+[0-9.]+\s+([0-9.]+)\s',
                      part[1], re.M) if len(part) > 1 else []
    devs = dict(re.findall(r' statedump:blockdev dev=(\S+) .*name="([^"]*)"',
                           report(kt, trace)))
    names = {n: d for d, n in devs.items()}
    lt = {}
    for name, count, most in rows:
        m = re.match(r'\((\d+),(\d+)\)$', name)
        lt[names.get(name, '%s:%s' % m.groups() if m else name)] = (int(count), most)
    k = per_key(ktrace_pairs(kt, 'block', trace), 'dev')
    return compare_keys(lt, k, 'dev')


def irq(kt, trace, ctf):
    """Per IRQ "N <name>": ktrace's name is its statedump's (latency.c)."""
    out = lttng('irqstats', ctf).split('Soft IRQ', 1)[0]
    lt = {}
    for m in re.finditer(r'^(\d+): <([^>]*)>\s+(\d+)\s+[0-9.]+\s+[0-9.]+\s+([0-9.]+)',
                         out, re.M):
        lt['%s <%s>' % (m.group(1), m.group(2))] = (int(m.group(3)), m.group(4))
    pairs = ktrace_pairs(kt, 'irq', trace)
    for _, w in pairs:
        w['irq'] = '%s <%s>' % (w.get('irq', '?'), w.get('name', ''))
    k = per_key(pairs, 'irq')
    return compare_keys(lt, k, 'irq')


def sched(kt, trace, ctf):
    """Per TID: lttng-schedstats' "comm (tid)" rows."""
    rows = re.findall(r'^.+\((\d+)\)\s+(\d+)\s+[0-9.]+\s+[0-9.]+\s+([0-9.]+)\s',
                      lttng('schedstats', ctf), re.M)
    lt = {'tid %s' % r[0]: (int(r[1]), r[2]) for r in rows}
    pairs = ktrace_pairs(kt, 'wakeup', trace)
    for _, w in pairs:
        w['pid'] = 'tid %s' % w.get('pid', '?')
    k = per_key(pairs, 'pid')
    return compare_keys(lt, k, 'tid')


REPORT = {}


def report(kt, trace):
    """ktrace report's lines of @trace (once)."""
    if trace not in REPORT:
        REPORT[trace] = run([kt, 'report', trace])
    return REPORT[trace]


def report_kinds(kt, trace):
    """The records of each kind of REPORT_KINDS in ktrace report."""
    n = collections.Counter()
    for line in report(kt, trace).splitlines():
        f = line.split(None, 4)
        for kind, names in REPORT_KINDS.items():
            if len(f) > 3 and f[3] in names:
                n[kind] += 1
    return n


def main():
    if len(sys.argv) != 4:
        sys.stderr.write('usage: lttng-compare.py KTRACE TRACE CTFDIR\n')
        return 2
    kt, trace, ctf = sys.argv[1:]
    bad = 0
    has = report_kinds(kt, trace)
    for name, fn in (('syscalls', syscalls), ('block', block), ('irq', irq),
                     ('sched', sched)):
        lt, k, same = fn(kt, trace, ctf)
        empty = lt in ('none', '0 calls of 0 names')
        if has[name] and empty:
            verdict = 'DIFFERENT (the trace has %d %s)' % (has[name],
                                                          '|'.join(REPORT_KINDS[name]))
            same = False
        else:
            verdict = 'none' if same and empty else 'same' if same else 'DIFFERENT'
        print('%s: lttng-analyses %s; ktrace %s: %s' % (name, lt, k, verdict))
        bad |= not same
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
