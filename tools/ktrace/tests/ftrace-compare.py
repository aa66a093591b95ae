#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""ktrace against the kernel's own ftrace, event by event.

ftrace-compare.py [--min N] FTRACE_TXT KTRACE_TXT [FTRACE_STATS]

FTRACE_STATS: tracefs per_cpu/cpuN/stats, each after a line "# cpuN".

FTRACE_TXT is tracefs "trace" of a run where ftrace and ktrace traced the
same tracepoints at once (tools/testing/selftests/ktrace/ftrace.sh);
KTRACE_TXT is ktrace convert --ftrace of ktrace's trace of that run.  The
workload wrote the marks "ktrace-ftrace-start" and "ktrace-ftrace-end" to
both tracers (trace_marker, ktrace's mark file); both texts must have
both, and every event between the later start and the earlier end is
compared.  Per CPU, the events of the kinds both record are compared in
order: the task that ran (pid), and the fields ktrace records (pids,
comms, states, CPUs, IRQ numbers, softirq vectors, system call numbers,
the first argument's low 22 bits, return values, block requests).
Priorities, IRQ names, the flags column and block I/O priorities are not
recorded by ktrace and not compared (ktrace.rst).

The sequences are aligned (difflib).  Excused, and counted: an event one
tracer has within EDGE_US of the window's ends (the two probes of one
call read the clock apart); an event one tracer has before interrupt
events (whole interrupts, or a lone softirq_raise) that the other has
after them, "reordered" (the interrupt came between the two tracers'
probes of one tracepoint call), at most one in REORDER_PER compared and
REORDER_MIN per CPU; a switch away from an exiting task whose state
ftrace read Z (zombie) and ktrace X (dead), or the reverse, "reaped" (its
parent reaped it on another CPU between the two probes, which read its
exit_state); an event ftrace has between the two events of a CPU that a
"CPU:N [LOST EVENTS]" line of ktrace's separates, or ktrace has where
ftrace lost events: before ftrace's first event of a CPU whose stats
count an overrun (the oldest overwritten), after its last of one that
counts dropped events, or between the events one of its own LOST lines
separates, "lost".  Anything else is a difference, printed, and the exit
status is 1; so is a commit overrun (events lost where, is not known),
fewer than --min (MIN_COMPARED) events compared in all, a missing mark,
or a line of KTRACE_TXT that Perfetto's line regex does not match.
"""
import difflib
import re
import sys

LINE = re.compile(r'^\s*(.*)-(\d+)\s+\[(\d+)\]\s+\S+\s+(\d+)\.(\d+): (\S+): (.*)$')
LOST = re.compile(r'^CPU:(\d+) \[LOST')
MARK = re.compile(r'tracing_mark_write: .*\bktrace-ftrace-(start|end)\b')
# Perfetto's line regex (src/trace_processor/importers/systrace/
# systrace_line_tokenizer.cc), searched in each line but the header's.
PERFETTO = re.compile(r'-(\d+)\s+\(?\s*(\d+|-+)?\)?\s?\[(\d+)\]\s*'
                      r'([a-zA-Z.]{3}[0-9a-f.]{1,2}\s*)?(\d+\.\d+):\s+(\S+):')
KINDS = {'sched_switch', 'sched_wakeup', 'sched_wakeup_new', 'irq_handler_entry',
         'irq_handler_exit', 'softirq_entry', 'softirq_exit', 'softirq_raise',
         'sys_enter', 'sys_exit', 'block_rq_issue', 'block_rq_complete'}
# ktrace's system call return value: 22 bits, signed, saturated.
RET_MAX = (1 << 21) - 1
# How far apart (us) the two tracers' times of one event may be, at the
# window's ends (a TCG guest's vCPU may stall between the two probes).
EDGE_US = 5000
# Fewer events compared in all is no comparison (a 2-CPU guest run: 1700-2000).
MIN_COMPARED = 500
# Reordered events: at most one in REORDER_PER compared, REORDER_MIN per CPU.
REORDER_PER = 200
REORDER_MIN = 3
# How far apart in time (us) the two tracers' copies of a reordered event
# may be: a vCPU of a TCG guest may stall for milliseconds.
REORDER_US = 50000
# What may come between the two probes of one tracepoint call.
IRQ_KINDS = {'irq_handler_entry', 'irq_handler_exit', 'softirq_entry', 'softirq_exit',
             'softirq_raise'}


def fields(s):
    return dict(kv.split('=', 1) for kv in s.split() if '=' in kv)


def comm(c):
    """A comm as both print it: ktrace writes a space as '_' and a control
    character as '?' (as report does); ftrace writes them raw."""
    if c in ('<...>', ''):
        return None
    return re.sub(r'[\x00-\x1f\x7f]', '?', c.replace(' ', '_'))


# DEV RWBS [BYTES] (CMD) SECTOR + NR IOPRIO [COMM|ERROR]; a passthrough
# request's CMD has spaces.
BLOCK = re.compile(r'^(\S+) (\S+) (?:(\d+) )?\((.*)\) (\d+) \+ (\d+) (\S+) \[(.*)\]$')


def key(name, pid, args):
    """The comparable part of an event: (kind, pid, values...), comms apart;
    a line whose fields do not parse, as its text."""
    try:
        return key_fields(name, pid, args)
    except (KeyError, ValueError, AttributeError):
        return (name, pid, 'unparsed', args), ()


def key_fields(name, pid, args):
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
        m = BLOCK.match(args)
        dev, rwbs, nbytes, _, sector, nr, _, last = m.groups()
        if name == 'block_rq_issue':
            return (name, pid, dev, rwbs, nbytes, sector, min(int(nr), 65535)), ()
        return (name, pid, dev, rwbs, sector, min(int(nr), 65535), last), ()
    return None, None


def load(path, bad=None):
    """Per CPU: [(time_us, key, comms, line)]; per CPU, the spans (us) that
    its "CPU:N [LOST" lines say lost events; the marks' times, by name; the
    lines Perfetto's regex does not match added to bad."""
    cpus, gaps, marks, pending = {}, {}, {}, set()
    with open(path, errors='replace') as fh:
        for line in fh:
            line = line.rstrip('\n')
            m = LOST.match(line)
            if m:
                pending.add(int(m.group(1)))
                continue
            if bad is not None and not line.startswith('#') and not PERFETTO.search(line):
                bad.append(line)
            m = LINE.match(line)
            if not m:
                continue
            t = int(m.group(4)) * 1000000 + int(m.group(5))
            cpu = int(m.group(3))
            if cpu in pending:
                pending.discard(cpu)
                prev = cpus[cpu][-1][0] if cpus.get(cpu) else float('-inf')
                gaps.setdefault(cpu, []).append((prev, t))
            mk = MARK.search(line)
            if mk:
                marks.setdefault(mk.group(1), []).append(t)
            if m.group(6) not in KINDS:
                continue
            k, c = key(m.group(6), int(m.group(2)), m.group(7))
            cpus.setdefault(cpu, []).append((t, k, c, line))
    for cpu in pending:
        prev = cpus[cpu][-1][0] if cpus.get(cpu) else float('-inf')
        gaps.setdefault(cpu, []).append((prev, float('inf')))
    return cpus, gaps, marks


def whole_irqs(kinds):
    """Whether the event kinds are whole interrupts: each handler's and
    softirq's entry with its exit, softirq_raise as it comes."""
    depth = {'irq_handler': 0, 'softirq': 0}
    for k in kinds:
        if k not in IRQ_KINDS:
            return False
        if k == 'softirq_raise':
            continue
        base, end = k.rsplit('_', 1)
        depth[base] += 1 if end == 'entry' else -1
        if depth[base] < 0:
            return False
    return not any(depth.values())


def jumped_irqs(fe, a, fpos):
    """Whether ftrace's event a and the place of ktrace's copy, fpos, are an
    interrupt apart: the event moved past whole interrupts' events, which
    came between its two probes, or a lone softirq_raise (an interrupt
    with no handler traced) past one other event whose probes it split."""
    lo, hi = (a + 1, fpos) if fpos > a else (fpos, a)
    if hi <= lo:
        return False
    kinds = [e[1][0] for e in fe[lo:hi]]
    moved = fe[a][1][0]
    # A hardirq handler runs with interrupts off; softirqs do not nest.
    if moved.startswith('irq_handler_'):
        return False
    if moved in ('softirq_entry', 'softirq_exit') and \
            any(k in ('softirq_entry', 'softirq_exit') for k in kinds):
        return False
    if whole_irqs(kinds):
        return True
    return fe[a][1][0] == 'softirq_raise' and hi - lo == 1


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


def near(t, spans):
    """Whether time t lies in one of the spans (lo, hi), EDGE_US either side."""
    return any(lo - EDGE_US <= t <= hi + EDGE_US for lo, hi in spans)


def compare_cpu(cpu, fe, ke, window, loss, out):
    """Counts of one CPU's events in the window (lo, hi): compared, equal,
    reordered, reaped, lost, edge, differences; loss: (the spans where
    ktrace lost events, those where ftrace did)."""
    fk = [e[1] for e in fe]
    kk = [e[1] for e in ke]
    ops = difflib.SequenceMatcher(None, fk, kk, autojunk=False).get_opcodes()
    n = {'compared': 0, 'equal': 0, 'comm': 0, 'reordered': 0, 'reaped': 0, 'lost': 0,
         'edge': 0, 'diff': 0, 'dt': []}
    only_f, only_k, kmap = [], [], {}
    for op, i1, i2, j1, j2 in ops:
        if op != 'equal':
            only_f += list(range(i1, i2))
            only_k += list(range(j1, j2))
            continue
        for a, b in zip(range(i1, i2), range(j1, j2)):
            n['compared'] += 1
            n['equal'] += 1
            n['dt'].append(ke[b][0] - fe[a][0])
            kmap[b] = a
            # A comm either side does not know is no difference.
            if any(comm(x) and comm(y) and comm(x) != comm(y)
                   for x, y in zip(fe[a][2], ke[b][2])):
                n['comm'] += 1
                if n['comm'] <= 3:
                    out.append('cpu%d comm differs:\n  ftrace: %s\n  ktrace: %s'
                               % (cpu, fe[a][3], ke[b][3]))
    # An event both have, a few events apart: reordered.  A switch away
    # from a zombie that ftrace saw Z and ktrace X (or the reverse): its
    # parent reaped it between the two probes, which read exit_state.
    left = list(only_k)
    edges = [(window[0], window[0]), (window[1], window[1])]
    for a in only_f:
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
            n['compared'] += 1
            n[why] += 1
            if n[why] <= 3:
                out.append('cpu%d %s:\n  ftrace: %s\n  ktrace: %s'
                           % (cpu, why if why == 'reordered' else 'reaped between the probes',
                              fe[a][3], ke[match][3]))
            continue
        excuse(n, fe[a], near(fe[a][0], edges), near(fe[a][0], loss[0]),
               'cpu%d only in ftrace: ' % cpu, out)
    for b in left:
        excuse(n, ke[b], near(ke[b][0], edges), near(ke[b][0], loss[1]),
               'cpu%d only in ktrace: ' % cpu, out)
    return n


def excuse(n, e, edge, lost, what, out):
    """Count an event one tracer lacks: at the window's edge, lost, or a difference."""
    why = 'edge' if edge else 'lost' if lost else 'diff'
    n[why] += 1
    if why == 'diff' and n['diff'] <= 5:
        out.append(what + e[3])


def ftrace_stats(path):
    """Per CPU, ftrace's loss counts (per_cpu/cpuN/stats, each after "# cpuN")."""
    stats, cpu = {}, None
    with open(path) as fh:
        for line in fh:
            m = re.match(r'# cpu(\d+)$', line.strip())
            if m:
                cpu = int(m.group(1))
                continue
            m = re.match(r'(overrun|commit overrun|dropped events): (\d+)$', line.strip())
            if m and cpu is not None:
                stats.setdefault(cpu, {})[m.group(1)] = int(m.group(2))
    return stats


def window_of(fmarks, kmarks):
    """The window (us) between the workload's marks in both texts, or a
    reason why there is none."""
    for who, marks in (('ftrace', fmarks), ('ktrace', kmarks)):
        for name in ('start', 'end'):
            if len(marks.get(name, [])) != 1:
                return None, '%s: %d "ktrace-ftrace-%s" marks, not 1' \
                    % (who, len(marks.get(name, [])), name)
    lo = max(fmarks['start'][0], kmarks['start'][0])
    hi = min(fmarks['end'][0], kmarks['end'][0])
    if hi <= lo:
        return None, 'the marks leave no window'
    return (lo, hi), None


def ftrace_losses(cpu, fe_all, fgaps, stats, out):
    """The spans where ftrace lost events of a CPU: its LOST lines', the
    head its overrun overwrote, the tail it dropped; None if not known
    (a commit overrun)."""
    spans = list(fgaps.get(cpu, []))
    st = stats.get(cpu, {})
    if st.get('commit overrun'):
        out.append('cpu%d: ftrace counts %d commit overruns: where it lost them is not known'
                   % (cpu, st['commit overrun']))
        return None
    if st.get('overrun'):
        spans.append((float('-inf'), fe_all[0][0] if fe_all else float('inf')))
    if st.get('dropped events'):
        spans.append((fe_all[-1][0] if fe_all else float('-inf'), float('inf')))
    return spans


def main():
    args = sys.argv[1:]
    least = MIN_COMPARED
    if len(args) > 1 and args[0] == '--min':
        least = int(args[1])
        args = args[2:]
    if len(args) < 2:
        print(__doc__.split('\n\n')[1], file=sys.stderr)
        return 2
    fcpus, fgaps, fmarks = load(args[0])
    unparsed = []
    kcpus, kgaps, kmarks = load(args[1], unparsed)
    stats = ftrace_stats(args[2]) if len(args) > 2 else {}
    bad = 0
    total = {}
    print('ktrace: %d lines Perfetto\'s line regex does not match' % len(unparsed))
    for line in unparsed[:3]:
        print('  ' + line)
    if unparsed:
        bad = 1
    window, why = window_of(fmarks, kmarks)
    if not window:
        print('no window to compare: %s' % why)
        return 1
    print('window: %d.%06d to %d.%06d' % (window[0] // 1000000, window[0] % 1000000,
                                          window[1] // 1000000, window[1] % 1000000))
    for cpu in sorted(set(fcpus) | set(kcpus)):
        out = []
        fall, kall = fcpus.get(cpu, []), kcpus.get(cpu, [])
        fe = [e for e in fall if window[0] <= e[0] <= window[1]]
        ke = [e for e in kall if window[0] <= e[0] <= window[1]]
        flost = ftrace_losses(cpu, fall, fgaps, stats, out)
        if flost is None:
            bad = 1
            flost = []
        n = compare_cpu(cpu, fe, ke, window, (kgaps.get(cpu, []), flost), out)
        print('cpu%d: %d events compared, %d equal, %d reordered, %d reaped, %d different, '
              '%d lost, %d at the window\'s edges, %d outside it, %d comm differences'
              % (cpu, n['compared'], n['equal'], n['reordered'], n['reaped'], n['diff'],
                 n['lost'], n['edge'], len(fall) + len(kall) - len(fe) - len(ke), n['comm']))
        dt = sorted(n.pop('dt'))
        if dt:
            print('  ktrace - ftrace times (us): min %d median %d max %d'
                  % (dt[0], dt[len(dt) // 2], dt[-1]))
        cap = max(REORDER_MIN, n['compared'] // REORDER_PER)
        if n['reordered'] > cap:
            out.append('cpu%d: %d reordered, more than %d' % (cpu, n['reordered'], cap))
            bad = 1
        for line in out:
            print('  ' + line)
        for k, v in n.items():
            total[k] = total.get(k, 0) + v
        if n['diff'] or n['comm']:
            bad = 1
    print('all: %d events compared, %d equal, %d reordered, %d reaped, %d different, '
          '%d lost, %d at the window\'s edges, %d comm differences'
          % (total.get('compared', 0), total.get('equal', 0), total.get('reordered', 0),
             total.get('reaped', 0), total.get('diff', 0), total.get('lost', 0),
             total.get('edge', 0), total.get('comm', 0)))
    if total.get('compared', 0) < least:
        print('fewer than %d events compared' % least)
        bad = 1
    return bad


if __name__ == '__main__':
    sys.exit(main())
