#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Flatten KTAP/TAP output (KUnit, kselftest runner, host tests) into one
line per leaf test: "PASS|FAIL|SKIP <name>".

A test that ran subtests is judged by them, but a parent that says "not ok"
while its children passed is a failure too (a script that died after its
last subtest), and so is a plan that does not match the number of results
(tests that never ran), a test script's results with no plan at all (the
kselftests print theirs at the end: a script that died before has none), a
"Bail out!" and a file with no result at all.

usage: ktap.py PREFIX FILE...   (PREFIX names the results, e.g. kunit)
Exit status: 0 if nothing failed or was skipped, 1 otherwise.
"""
import re
import sys

RESULT = re.compile(r'^(not ok|ok)\s+(\d+)\s*(?:-\s*)?([^#]*?)\s*(?:#\s*(.*))?$')
PLAN = re.compile(r'^1\.\.(\d+)')


def depth_and_body(line):
    """Nesting depth from indentation and from the '# ' prefixes the
    kselftest runner puts before the output of each test it runs."""
    raw = line.rstrip('\n')
    body = raw.lstrip(' \t')
    depth = (len(raw) - len(body)) // 2
    while body.startswith('# ') or body == '#':
        rest = body[2:].lstrip(' ')
        if RESULT.match(rest) or PLAN.match(rest) or rest.startswith('# ') \
                or re.match(r'(K?TAP version|Bail out!)', rest):
            depth += 1
            body = rest
        else:
            break
    return depth, body


class Block:
    """The results seen at one depth below a parent not yet closed."""
    def __init__(self, depth):
        self.depth = depth
        self.plan = None
        self.results = []    # (status, name, leaves)


def parse(prefix, text):
    out = []
    stack = [Block(0)]
    bailed = False

    def close_to(depth):
        """Close every block deeper than depth; return the leaves of the
        innermost one closed."""
        leaves = None
        while stack[-1].depth > depth:
            blk = stack.pop()
            leaves = finish(blk) + (leaves or [])
        return leaves

    def finish(blk):
        leaves = []
        for status, name, sub in blk.results:
            leaves += sub if sub else [(status, name)]
        if blk.plan is not None and blk.plan != len(blk.results):
            leaves.append(('FAIL', '(plan: %d tests, %d results)'
                           % (blk.plan, len(blk.results))))
        # A test's own results (a KUnit suite, a kselftest script, a host
        # test's file) have a plan, first or last; none means it ended
        # before its last line.  (KUnit's parameterised cases, deeper,
        # may have none.)
        if blk.depth <= 1 and blk.plan is None and blk.results:
            leaves.append(('FAIL', '(no plan: ended early?)'))
        return leaves

    for line in text.splitlines():
        depth, body = depth_and_body(line)
        if body.startswith('Bail out!'):
            bailed = True
            out.append(('FAIL', 'Bail out: ' + body[9:].strip()))
            continue
        m = PLAN.match(body)
        if m:
            while stack[-1].depth > depth:
                close_to(stack[-2].depth)
            if stack[-1].depth < depth:
                stack.append(Block(depth))
            stack[-1].plan = int(m.group(1))
            continue
        m = RESULT.match(body)
        if not m:
            continue
        ok, _, name, directive = m.groups()
        status = 'PASS' if ok == 'ok' else 'FAIL'
        if directive and directive.upper().startswith('SKIP'):
            status = 'SKIP'
        if directive and directive.upper().startswith('TODO'):
            status = 'PASS'
        children = close_to(depth)
        if stack[-1].depth < depth:
            stack.append(Block(depth))
        sub = None
        if children:
            sub = [(s, name + '.' + n) for s, n in children]
            if status == 'FAIL' and all(s != 'FAIL' for s, _ in children):
                sub.append(('FAIL', name + ' (exit status)'))
            if status == 'SKIP':
                sub.append(('SKIP', name))
        stack[-1].results.append((status, name, sub))
    while len(stack) > 1:
        top = stack.pop()
        leaves = finish(top)
        # Results left open: the parent line never came (crash mid-test).
        stack[-1].results.append(('FAIL', '(unterminated)',
                                  leaves + [('FAIL', '(no final result)')]))
    leaves = finish(stack[0])
    if not leaves and not bailed:
        leaves = [('FAIL', '(no results)')]
    return out + [(s, prefix + ': ' + n) for s, n in leaves]


def main():
    if len(sys.argv) < 3:
        sys.stderr.write(__doc__)
        return 2
    prefix, files = sys.argv[1], sys.argv[2:]
    bad = 0
    for f in files:
        try:
            with open(f, errors='replace') as fh:
                text = fh.read()
        except OSError as e:
            print('FAIL %s: %s (%s)' % (prefix, f, e.strerror))
            bad += 1
            continue
        for status, name in parse(prefix, text):
            print(status, ' '.join(name.split()))
            bad += status != 'PASS'
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
