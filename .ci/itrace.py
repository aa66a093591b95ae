# SPDX-License-Identifier: GPL-2.0
# For .ci/itrace: in gdb (gdb -x), record the program counters of five
# iterations from one call of ITRACE_FN to the next; as a script
# ("report PCS SYSTEM.MAP VMLINUX [FN,...]"), count them per function.
import bisect
import collections
import os
import re
import subprocess
import sys


def record():
    import gdb  # only inside gdb
    fn, out = os.environ['ITRACE_FN'], os.environ['ITRACE_OUT']
    gdb.execute('set pagination off')
    gdb.execute('target remote 127.0.0.1:%s' % os.environ['ITRACE_PORT'])
    gdb.execute('hbreak %s' % fn)
    gdb.execute('ignore 1 %s' % os.environ.get('ITRACE_SKIP', '1000'))
    gdb.execute('continue')
    gdb.execute('delete')
    start = int(gdb.parse_and_eval('$pc'))
    pcs, calls = [], 0
    while len(pcs) < 100000:
        pc = int(gdb.parse_and_eval('$pc'))
        if pcs and pc == start:
            calls += 1
            if calls == 5:
                break
        pcs.append(pc)
        gdb.execute('stepi', to_string=True)
    with open(out, 'w') as f:
        f.writelines('%x\n' % pc for pc in pcs)
    gdb.execute('kill')


def iterations(pcs):
    its, cur = [], []
    for pc in pcs:
        if pc == pcs[0] and cur:
            its.append(cur)
            cur = []
        cur.append(pc)
    return its + [cur]


def report(pcs_file, system_map, vmlinux, annotate):
    syms = []
    for line in open(system_map):
        addr, kind, name = line.split()[:3]
        if kind in 'tTwW':
            syms.append((int(addr, 16), name))
    syms.sort()
    addrs = [a for a, _ in syms]

    def name(pc):
        return syms[bisect.bisect_right(addrs, pc) - 1][1]

    its = iterations([int(line, 16) for line in open(pcs_file)])
    print('instructions per iteration: %s' % ' '.join(str(len(i)) for i in its))
    one = its[1] if len(its) > 1 else its[0]
    for fn, n in collections.Counter(name(pc) for pc in one).most_common():
        print('%6d  %s' % (n, fn))
    count = collections.Counter(one)
    for fn in filter(None, annotate.split(',')):
        start = [a for a, n in syms if n == fn][0]
        end = addrs[addrs.index(start) + 1]
        dis = subprocess.run(['objdump', '-d', '--no-show-raw-insn',
                              '--start-address=0x%x' % start,
                              '--stop-address=0x%x' % end, vmlinux],
                             capture_output=True, text=True, check=True).stdout
        print('\n%s (each instruction with its count in one iteration):' % fn)
        for line in dis.splitlines():
            m = re.match(r'\s*([0-9a-f]+):\s*(.*)', line)
            if m and int(m.group(1), 16) in count:
                print('%4d  %s' % (count[int(m.group(1), 16)], m.group(2)))


if __name__ == '__main__' and len(sys.argv) > 1 and sys.argv[1] == 'report':
    report(*sys.argv[2:5], sys.argv[5] if len(sys.argv) > 5 else '')
else:
    record()
