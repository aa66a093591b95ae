#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# ctf-compare.py BABELTRACE_OUT REPORT_OUT [--multi]
#
# Whether what babeltrace2 --clock-seconds --no-delta prints of a trace
# that ktrace convert --ctf wrote is what ktrace report printed of it,
# line for line: event name, time to the nanosecond, CPU, task and every
# field value.  One normalisation maps babeltrace2's line
#
#   [TIME] HOST NAME: { cpu_id = C }, { procname = "P", tid = T }, { F = V, ... }
#
# to report's "TIME[ HOST] C P-T NAME F=V ...": the host only with --multi
# (report prints it for several files), strings unescaped (report's own
# rendering, quotes included, is their content), an enumeration's label or,
# without one, its number, hexadecimal digits in lower case, the line cut
# where report cuts it (KT_LINE_MAX).  Events of the same time may come in
# another order from two streams: both sides are sorted within a time.
# What report derives beside an event's fields, which the CTF trace does
# not hold, is taken out of report's lines: the previous task of a
# sched:switch (prev_comm=, prev_pid=, "==> next_comm="; the fields back
# in their order) and the name= of a system call.
# Exit 0 if equal; else the first differences on stderr, exit 1.
import re
import sys

KT_LINE_MAX = 32 * 1024
ESC = {ord('n'): b'\n', ord('t'): b'\t', ord('r'): b'\r', ord('a'): b'\a',
       ord('b'): b'\b', ord('f'): b'\f', ord('v'): b'\v', ord('\\'): b'\\',
       ord('"'): b'"', ord("'"): b"'", ord('?'): b'?', ord('0'): b'\0'}


class Bad(Exception):
    pass


def string(s, i):
    """The bytes of the string literal at s[i] == '"', and where it ends."""
    out = bytearray()
    i += 1
    while i < len(s):
        c = s[i]
        if c == ord('"'):
            return bytes(out), i + 1
        if c == ord('\\'):
            e = s[i + 1]
            if e == ord('x'):
                out.append(int(s[i + 2:i + 4], 16))
                i += 4
                continue
            if e not in ESC:
                raise Bad('escape \\%c' % e)
            out += ESC[e]
            i += 2
            continue
        out.append(c)
        i += 1
    raise Bad('unterminated string')


def value(s, i):
    if s[i] == ord('"'):
        return string(s, i)
    if s[i] == ord('('):
        # ( "LABEL" : container = N ) or ( <unknown> : container = N );
        # the first label if there are several (ctf.c writes one a value).
        i += 2
        if s[i] == ord('"'):
            label, i = string(s, i)
        else:
            label = None
            i = s.index(b' ', i)
        j = s.index(b'= ', i) + 2
        k = s.index(b' )', j)
        return (label if label is not None else s[j:k]), k + 2
    j = i
    while j < len(s) and s[j] not in b', }':
        j += 1
    v = s[i:j]
    if v.startswith(b'0x'):
        v = v.lower()
    return v, j


def block(s, i):
    """The NAME = VALUE pairs of the block at s[i] == '{', and its end."""
    if s[i:i + 2] != b'{ ':
        raise Bad('no block at %d' % i)
    i += 2
    pairs = []
    if s[i:i + 1] == b'}':
        return pairs, i + 1
    while True:
        j = s.index(b' = ', i)
        name = s[i:j]
        v, i = value(s, j + 3)
        pairs.append((name, v))
        if s[i:i + 2] == b', ':
            i += 2
            continue
        if s[i:i + 2] == b' }':
            return pairs, i + 2
        raise Bad('bad block end at %d' % i)


def normalise(line, multi):
    if not line.startswith(b'['):
        raise Bad('no time')
    j = line.index(b'] ')
    time = line[1:j]
    rest = line[j + 2:]
    host, rest = rest.split(b' ', 1)
    k = rest.index(b': { cpu_id = ')
    name = rest[:k]
    i = k + 2
    blocks = []
    while i < len(rest):
        pairs, i = block(rest, i)
        blocks.append(pairs)
        if rest[i:i + 2] == b', ':
            i += 2
        elif i != len(rest):
            raise Bad('trailing bytes')
    if len(blocks) < 2:
        raise Bad('no context')
    ctx = dict(blocks[1])
    out = time + (b' ' + host if multi else b'') + b' ' + dict(blocks[0])[b'cpu_id']
    out += b' ' + ctx[b'procname'] + b'-' + ctx[b'tid'] + b' ' + name
    for n, v in (blocks[2] if len(blocks) > 2 else []):
        out += b' ' + n + b'=' + v
    out += b'\n'
    if len(out) > KT_LINE_MAX:
        out = out[:KT_LINE_MAX - 1] + b'\n'
    return out


SWITCH = re.compile(rb'^(.*? sched:switch) prev_comm=\S* prev_pid=-?[0-9]+(.*)'
                    rb' ==> next_comm=\S* next_pid=([0-9]+)\n$', re.S)
SYSCALL = re.compile(rb'^(.*? syscalls:\S+ nr=[0-9]+) name=\S+(.*)$', re.S)


def underived(line):
    """Report's line without what it derives (see the top)."""
    m = SWITCH.match(line)
    if m:
        return m.group(1) + b' next_pid=' + m.group(3) + m.group(2) + b'\n'
    m = SYSCALL.match(line)
    if m:
        return m.group(1) + m.group(2)
    return line


def by_time(lines):
    """Sorted within each run of the same time."""
    out, run, key = [], [], None
    for line in lines:
        k = line.split(b' ', 1)[0]
        if k != key:
            out += sorted(run)
            run, key = [], k
        run.append(line)
    return out + sorted(run)


def main():
    args = [a for a in sys.argv[1:] if a != '--multi']
    multi = len(args) != len(sys.argv) - 1
    if len(args) != 2:
        sys.stderr.write('usage: ctf-compare.py BABELTRACE_OUT REPORT_OUT [--multi]\n')
        return 2
    with open(args[0], 'rb') as f:
        bt = f.read().split(b'\n')
    with open(args[1], 'rb') as f:
        rep = [underived(l + b'\n') for l in f.read().split(b'\n')]
    if bt and bt[-1] == b'':
        bt.pop()
    rep.pop()
    got = []
    for n, line in enumerate(bt, 1):
        try:
            got.append(normalise(line, multi))
        except (Bad, ValueError, IndexError, KeyError) as e:
            sys.stderr.write('babeltrace2 line %d: cannot read it (%s): %r\n' %
                             (n, e, line[:200]))
            return 1
    got, rep = by_time(got), by_time(rep)
    bad = 0
    for n in range(max(len(got), len(rep))):
        g = got[n] if n < len(got) else b'(none)\n'
        r = rep[n] if n < len(rep) else b'(none)\n'
        if g != r:
            bad += 1
            if bad <= 5:
                sys.stderr.write('line %d:\n  ctf:    %r\n  report: %r\n' %
                                 (n + 1, g[:300], r[:300]))
    if bad:
        sys.stderr.write('%d of %d lines differ\n' % (bad, len(rep)))
        return 1
    print('%d lines equal' % len(rep))
    return 0


sys.exit(main())
