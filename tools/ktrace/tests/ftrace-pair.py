#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""A synthetic ftrace.sh pair for ftrace-compare.py's tests (t-ftrace.sh).

ftrace-pair.py ftrace|ktrace: on standard output, the text of the side
named: two CPUs, each a task's 200 rounds of a system call, timer
softirqs, a network IRQ and a switch to another task and back, 50 us
apart (1522 events), between the workload's marks (trace_marker's for
ftrace, ktrace:mark's for ktrace), each 10 ms away.
"""
import sys


def line(t, cpu, pid, text):
    return (t, '%16s-%-7d [%03d] .....%6d.%06d: %s'
            % ('w%d' % pid if pid > 1 else 'sh', pid, cpu, t // 1000000, t % 1000000, text))


def cpu_events(cpu):
    pid, other, t, out = 100 + cpu, 110 + cpu, 1010000 + cpu * 5, []
    switch = 'sched_switch: prev_comm=w%d prev_pid=%d prev_prio=120 prev_state=%s ==> ' \
        'next_comm=w%d next_pid=%d next_prio=120'
    for i in range(200):
        texts = ['sys_enter: NR 0 (%x)' % i]
        if i % 5 == 0:
            texts.append('softirq_raise: vec=1 [action=TIMER]')
        texts.append('sys_exit: NR 0 = %d' % i)
        if i % 3 == 0:
            texts += ['softirq_entry: vec=1 [action=TIMER]', 'softirq_exit: vec=1 [action=TIMER]']
        if i % 4 == 0:
            texts += ['irq_handler_entry: irq=24 name=eth0', 'irq_handler_exit: irq=24 ret=handled']
        for text in texts:
            out.append(line(t, cpu, pid, text))
            t += 50
        if i % 7 == 0:
            out.append(line(t, cpu, pid, 'sched_wakeup: comm=w%d pid=%d prio=120 target_cpu=%03d'
                            % (other, other, cpu)))
            out.append(line(t + 50, cpu, pid, switch % (pid, pid, 'S', other, other)))
            out.append(line(t + 100, cpu, other, switch % (other, other, 'R+', pid, pid)))
            t += 150
    return out


def main():
    events = sorted(cpu_events(0) + cpu_events(1), key=lambda e: e[0])
    text = 'I|1|ktrace:mark pid=1 text="ktrace-ftrace-%s"' if sys.argv[1:] == ['ktrace'] \
        else 'ktrace-ftrace-%s'
    print('# tracer: nop')
    print(line(1000000, 0, 1, 'tracing_mark_write: ' + text % 'start')[1])
    for e in events:
        print(e[1])
    print(line(events[-1][0] + 10000, 0, 1, 'tracing_mark_write: ' + text % 'end')[1])


if __name__ == '__main__':
    main()
