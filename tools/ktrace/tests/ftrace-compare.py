#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""ktrace against the kernel's own ftrace, event by event.

ftrace-compare.py FTRACE_TXT KTRACE_TXT [FTRACE_STATS]

FTRACE_STATS: tracefs per_cpu/cpuN/stats, each after a line "# cpuN"; a
CPU whose overrun or dropped events are not 0 lost events in ftrace.

FTRACE_TXT is tracefs "trace" of a run where ftrace and ktrace traced the
same tracepoints at once (tools/testing/selftests/ktrace/ftrace.sh);
KTRACE_TXT is ktrace convert --ftrace of ktrace's trace of that run.  Per
CPU, the events of the kinds both record are compared in order: the
task that ran (pid), and the fields ktrace records (pids, comms, states,
CPUs, IRQ numbers, softirq vectors, system call numbers, the first
argument's low 22 bits, return values, block requests).  Priorities,
IRQ names, the flags column and block I/O priorities are not recorded
by ktrace and not compared (ktrace.rst).

The sequences are aligned (difflib): what lies before the first and
after the last common event of a CPU is outside the common window (one
tracer started first); an event one tracer has after interrupt events
(IRQ, softirq) that the other has before them is "reordered" (the
interrupt came between the two tracers' probes of one tracepoint call);
a switch away from an exiting task whose state ftrace read Z (zombie)
and ktrace X (dead), or the reverse, is "reaped" (its parent reaped it
on another CPU between the two probes, which read its exit_state); the
events of a CPU either tracer marked lost are "lost".  Anything else is a
difference, printed, and the exit status is 1; so is a line of
KTRACE_TXT that Perfetto's line regex does not match.
"""
import difflib
import re
import sys

LINE = re.compile(r'^\s*(.*)-(\d+)\s+\[(\d+)\]\s+\S+\s+(\d+)\.(\d+): (\S+): (.*)$')
LOST = re.compile(r'^CPU:(\d+) \[LOST')
# Perfetto's line regex (src/trace_processor/importers/systrace/
# systrace_line_tokenizer.cc), searched in each line but the header's.
PERFETTO = re.compile(r'-(\d+)\s+\(?\s*(\d+|-+)?\)?\s?\[(\d+)\]\s*'
                      r'([a-zA-Z.]{3}[0-9a-f.]{1,2}\s*)?(\d+\.\d+):\s+(\S+):')
KINDS = {'sched_switch', 'sched_wakeup', 'sched_wakeup_new', 'irq_handler_entry',
         'irq_handler_exit', 'softirq_entry', 'softirq_exit', 'softirq_raise',
         'sys_enter', 'sys_exit', 'block_rq_issue', 'block_rq_complete'}
# ktrace's system call return value: 22 bits, signed, saturated.
RET_MAX = (1 << 21) - 1
# How far apart in time (us) the two tracers' copies of a reordered event
# may be: a vCPU of a TCG guest may stall for milliseconds.
REORDER_US = 50000
# What may come between the two probes of one tracepoint call.
IRQ_KINDS = {'irq_handler_entry', 'irq_handler_exit', 'softirq_entry', 'softirq_exit',
             'softirq_raise'}


def fields(s):
    return dict(kv.split('=', 1) for kv in s.split() if '=' in kv)


def comm(c):
    return None if c in ('<...>', '') else c


def key(name, pid, args):
    """The comparable part of an event: (kind, pid, values...), comms apart."""
    f = fields(args)
    if name == 'sched_switch':
        return (name, pid, f['prev_pid'], f['prev_state'], f['next_pid']), \
            (f['prev_comm'], f['next_comm'])
    if name in ('sched_wakeup', 'sched_wakeup_new'):
        return (name, pid, f['pid'], int(f['target_cpu'])), (f['comm'],)
    if name == 'irq_handler_entry':
        return (name, pid, f['irq']), ()
    if name == 'irq_handler_exit':
        return (name, pid, f['irq'], f['ret']), ()
    if name.startswith('softirq_'):
        return (name, pid, f['vec']), ()
    if name == 'sys_enter':
        m = re.match(r'NR (-?\d+) \(([0-9a-f]+)', args)
        return (name, pid, int(m.group(1)), int(m.group(2), 16) & 0x3fffff), ()
    if name == 'sys_exit':
        m = re.match(r'NR (-?\d+) = (-?\d+)', args)
        ret = max(-RET_MAX - 1, min(RET_MAX, int(m.group(2))))
        return (name, pid, int(m.group(1)), ret), ()
    if name.startswith('block_rq_'):
        # DEV RWBS [BYTES] (CMD) SECTOR + NR IOPRIO [COMM|ERROR]
        w = args.split()
        if name == 'block_rq_issue':
            return (name, pid, w[0], w[1], w[2], w[4], min(int(w[6]), 65535)), ()
        return (name, pid, w[0], w[1], w[3], min(int(w[5]), 65535), w[-1]), ()
    return None, None


def load(path, bad=None):
    """Per CPU: [(time_us, key, comms, line)], and the CPUs with losses;
    the lines Perfetto's regex does not match added to bad."""
    cpus, lost = {}, set()
    with open(path, errors='replace') as fh:
        for line in fh:
            line = line.rstrip('\n')
            m = LOST.match(line)
            if m:
                lost.add(int(m.group(1)))
                continue
            if bad is not None and not line.startswith('#') and not PERFETTO.search(line):
                bad.append(line)
            m = LINE.match(line)
            if not m or m.group(6) not in KINDS:
                continue
            k, c = key(m.group(6), int(m.group(2)), m.group(7))
            t = int(m.group(4)) * 1000000 + int(m.group(5))
            cpus.setdefault(int(m.group(3)), []).append((t, k, c, line))
    return cpus, lost


def jumped_irqs(fe, a, fpos):
    """Whether ftrace's event a and the place of ktrace's copy, fpos, are an
    interrupt apart: a moved event past interrupts' events only, or an
    interrupt's event past one other event (whose two probes it split)."""
    lo, hi = (a + 1, fpos) if fpos > a else (fpos, a)
    others = sum(1 for e in fe[lo:hi] if e[1][0] not in IRQ_KINDS)
    if fe[a][1][0] in IRQ_KINDS:
        return hi > lo and others <= 1
    return hi > lo and others == 0


def fplace(kmap, b, nf):
    """Where ktrace's event b falls in ftrace's sequence: after the ftrace
    event its nearest earlier equal event is (kmap: ktrace's index to
    ftrace's), or at the start."""
    for j in range(b - 1, -1, -1):
        if j in kmap:
            return min(kmap[j] + 1, nf)
    return 0


def unreaped(k):
    """A sched_switch key with prev_state X (EXIT_DEAD) as Z (EXIT_ZOMBIE)."""
    if k[0] == 'sched_switch' and k[3] == 'X':
        return k[:3] + ('Z',) + k[4:]
    return k


def compare_cpu(cpu, fe, ke, out):
    """Counts of one CPU: compared, equal, reordered, outside, differences."""
    fk = [e[1] for e in fe]
    kk = [e[1] for e in ke]
    sm = difflib.SequenceMatcher(None, fk, kk, autojunk=False)
    ops = sm.get_opcodes()
    eq = [i for i, o in enumerate(ops) if o[0] == 'equal']
    n = {'compared': 0, 'equal': 0, 'comm': 0, 'reordered': 0, 'reaped': 0, 'outside': 0,
         'diff': 0, 'dt': []}
    if not eq:
        n['diff'] = len(fe) + len(ke)
        return n
    only_f, only_k, kmap = [], [], {}
    for i, (op, i1, i2, j1, j2) in enumerate(ops):
        if i < eq[0] or i > eq[-1]:
            # ftrace ran before and after ktrace: ktrace's events are all in it.
            n['outside'] += i2 - i1
            only_k += list(range(j1, j2))
            continue
        if op == 'equal':
            for a, b in zip(range(i1, i2), range(j1, j2)):
                n['compared'] += 1
                n['equal'] += 1
                n['dt'].append(ke[b][0] - fe[a][0])
                kmap[b] = a
                # A comm either side does not know is no difference.
                if any(comm(x) and comm(y) and x != y for x, y in zip(fe[a][2], ke[b][2])):
                    n['comm'] += 1
                    if n['comm'] <= 3:
                        out.append('cpu%d comm differs:\n  ftrace: %s\n  ktrace: %s'
                                   % (cpu, fe[a][3], ke[b][3]))
            continue
        only_f += list(range(i1, i2))
        only_k += list(range(j1, j2))
    # An event both have, a few events apart: reordered.  A switch away
    # from a zombie that ftrace saw Z and ktrace X (or the reverse): its
    # parent reaped it between the two probes, which read exit_state.
    left = list(only_k)
    for a in only_f:
        n['compared'] += 1
        match = None
        for b in left:
            if abs(ke[b][0] - fe[a][0]) > REORDER_US:
                continue
            if ke[b][1] == fe[a][1] and jumped_irqs(fe, a, fplace(kmap, b, len(fe))):
                match, why = b, 'reordered'
                break
            if ke[b][1] != fe[a][1] and unreaped(fe[a][1]) == unreaped(ke[b][1]):
                match, why = b, 'reaped'
                break
        if match is not None:
            left.remove(match)
            n[why] += 1
            if why == 'reaped' and n[why] <= 3:
                out.append('cpu%d reaped between the probes:\n  ftrace: %s\n  ktrace: %s'
                           % (cpu, fe[a][3], ke[match][3]))
            continue
        n['diff'] += 1
        if n['diff'] <= 5:
            out.append('cpu%d only in ftrace: %s' % (cpu, fe[a][3]))
    for b in left:
        n['compared'] += 1
        n['diff'] += 1
        if n['diff'] <= 5:
            out.append('cpu%d only in ktrace: %s' % (cpu, ke[b][3]))
    return n


def ftrace_lost(path):
    """CPUs whose ftrace stats (per_cpu/cpuN/stats, each after "# cpuN") count losses."""
    lost, cpu = set(), None
    with open(path) as fh:
        for line in fh:
            m = re.match(r'# cpu(\d+)$', line.strip())
            if m:
                cpu = int(m.group(1))
                continue
            m = re.match(r'(overrun|dropped events): (\d+)$', line.strip())
            if m and int(m.group(2)) and cpu is not None:
                lost.add(cpu)
    return lost


def main():
    if len(sys.argv) < 3:
        print(__doc__.split('\n\n')[1], file=sys.stderr)
        return 2
    fcpus, flost = load(sys.argv[1])
    unparsed = []
    kcpus, klost = load(sys.argv[2], unparsed)
    if len(sys.argv) > 3:
        flost |= ftrace_lost(sys.argv[3])
    bad = 0
    total = {}
    print('ktrace: %d lines Perfetto\'s line regex does not match' % len(unparsed))
    for line in unparsed[:3]:
        print('  ' + line)
    if unparsed:
        bad = 1
    for cpu in sorted(set(fcpus) | set(kcpus)):
        out = []
        n = compare_cpu(cpu, fcpus.get(cpu, []), kcpus.get(cpu, []), out)
        lost = cpu in flost or cpu in klost
        print('cpu%d: %d events compared, %d equal, %d reordered, %d reaped, %d different, '
              '%d outside the common window, %d comm differences%s'
              % (cpu, n['compared'], n['equal'], n['reordered'], n['reaped'], n['diff'],
                 n['outside'], n['comm'], ' (lost events: not failed)' if lost else ''))
        dt = sorted(n.pop('dt'))
        if dt:
            print('  ktrace - ftrace times (us): min %d median %d max %d'
                  % (dt[0], dt[len(dt) // 2], dt[-1]))
        for line in out:
            print('  ' + line)
        for k, v in n.items():
            total[k] = total.get(k, 0) + v
        if (n['diff'] or n['comm']) and not lost:
            bad = 1
        if not n['equal']:
            bad = 1
    print('all: %d events compared, %d equal, %d reordered, %d reaped, %d different, '
          '%d comm differences' % (total.get('compared', 0), total.get('equal', 0),
                                   total.get('reordered', 0), total.get('reaped', 0),
                                   total.get('diff', 0), total.get('comm', 0)))
    return bad


if __name__ == '__main__':
    sys.exit(main())
