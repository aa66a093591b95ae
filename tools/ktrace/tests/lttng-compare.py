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
#             syscall" per name
#   block     lttng-iolatencystats' disk latency: its requests and the
#             longest = the pairs of "ktrace latency block" and the longest
#   irq       lttng-irqstats' hard IRQs: count and longest handler per IRQ
#             = "ktrace latency irq"'s pairs per IRQ and their longest
#   sched     lttng-schedstats' scheduling latency: its wakeups and the
#             longest = the pairs of "ktrace latency wakeup" and the longest
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


def syscalls(kt, trace, ctf):
    lt = collections.Counter()
    for line in lttng('syscallstats', ctf).splitlines():
        m = re.match(r' - (\S+)\s+(\d+)\s', line)
        if m:
            lt[m.group(1)] += int(m.group(2))
    k = collections.Counter(w.get('name', 'nr' + w.get('nr', '?'))
                            for _, w in ktrace_pairs(kt, 'syscall', trace))
    show = lambda c: '%d calls of %d names' % (sum(c.values()), len(c))
    diff = sorted(n for n in set(lt) | set(k) if lt[n] != k[n])
    note = '' if not diff else ' (%s)' % ', '.join('%s %d/%d' % (n, lt[n], k[n])
                                                   for n in diff[:8])
    return show(lt), show(k) + note, not diff


def block(kt, trace, ctf):
    out = lttng('iolatencystats', ctf)
    part = out.split('Disk latency statistics', 1)
    rows = re.findall(r'^\S+\s+(\d+)\s+[0-9.]+\s+[0-9.]+\s+([0-9.]+)\s', part[1], re.M) \
        if len(part) > 1 else []
    pairs = ktrace_pairs(kt, 'block', trace)
    lmax = longest([r[1] for r in rows])
    kmax = longest([us for us, _ in pairs])
    return ('longest %s us (%d requests)' % (lmax, sum(int(r[0]) for r in rows)),
            'longest %s us (%d requests)' % (kmax, len(pairs)),
            lmax == kmax and sum(int(r[0]) for r in rows) == len(pairs))


def irq(kt, trace, ctf):
    out = lttng('irqstats', ctf).split('Soft IRQ', 1)[0]
    lt = {}
    for m in re.finditer(r'^(\d+): <[^>]*>\s+(\d+)\s+[0-9.]+\s+[0-9.]+\s+([0-9.]+)', out,
                         re.M):
        lt[m.group(1)] = (int(m.group(2)), m.group(3))
    k = collections.defaultdict(list)
    for us, w in ktrace_pairs(kt, 'irq', trace):
        k[w.get('irq', '?')].append(us)
    k = {n: (len(v), longest(v)) for n, v in k.items()}
    show = lambda d: ', '.join('irq %s: %d, longest %s us' % (n, c, m)
                               for n, (c, m) in sorted(d.items())) or 'none'
    return show(lt), show(k), lt == k


def sched(kt, trace, ctf):
    rows = re.findall(r'^.+\(\d+\)\s+(\d+)\s+[0-9.]+\s+[0-9.]+\s+([0-9.]+)\s',
                      lttng('schedstats', ctf), re.M)
    pairs = ktrace_pairs(kt, 'wakeup', trace)
    lmax = longest([r[1] for r in rows])
    kmax = longest([us for us, _ in pairs])
    return ('longest %s us (%d wakeups)' % (lmax, sum(int(r[0]) for r in rows)),
            'longest %s us (%d wakeups)' % (kmax, len(pairs)),
            lmax == kmax and sum(int(r[0]) for r in rows) == len(pairs))


def main():
    if len(sys.argv) != 4:
        sys.stderr.write('usage: lttng-compare.py KTRACE TRACE CTFDIR\n')
        return 2
    kt, trace, ctf = sys.argv[1:]
    bad = 0
    for name, fn in (('syscalls', syscalls), ('block', block), ('irq', irq),
                     ('sched', sched)):
        lt, k, same = fn(kt, trace, ctf)
        print('%s: lttng-analyses %s; ktrace %s: %s' % (name, lt, k,
                                                       'same' if same else 'DIFFERENT'))
        bad |= not same
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
