#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""qmp-dump.py SOCKET FILE TIMEOUT: for .ci/boot BOOT_DUMP=FILE.

Waits (at most TIMEOUT seconds) until the guest behind the QMP socket
SOCKET has stopped (QEMU runs with -action reboot=shutdown,shutdown=pause:
a panic's reset or a poweroff pauses it, memory intact), writes its memory
to FILE as an ELF core (dump-guest-memory, without paging: physical
addresses, as a kdump vmcore has them) and quits QEMU.  Prints one line:
the state the guest stopped in, the dump's size and how long it took.
"""
import json
import os
import socket
import sys
import time


class Qmp:
    def __init__(self, path, deadline):
        while True:
            try:
                self.s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                self.s.connect(path)
                break
            except OSError:
                self.s.close()
                if time.time() > deadline:
                    sys.exit("no QMP socket at %s" % path)
                time.sleep(0.2)
        self.f = self.s.makefile("rw")
        self.read()                     # the greeting
        self.cmd("qmp_capabilities")

    def read(self):
        line = self.f.readline()
        if not line:
            sys.exit("QEMU closed the QMP socket")
        return json.loads(line)

    def cmd(self, name, **args):
        self.f.write(json.dumps({"execute": name, "arguments": args}) + "\n")
        self.f.flush()
        while True:
            r = self.read()
            if "event" in r:
                continue
            if "error" in r:
                sys.exit("%s: %s" % (name, r["error"]))
            return r["return"]


def main():
    sock, out, timeout = sys.argv[1], sys.argv[2], float(sys.argv[3])
    deadline = time.time() + timeout
    q = Qmp(sock, deadline)
    while True:
        st = q.cmd("query-status")["status"]
        if st in ("shutdown", "guest-panicked", "paused", "internal-error"):
            break
        if time.time() > deadline:
            sys.exit("the guest did not stop within %ds" % timeout)
        time.sleep(0.5)
    t0 = time.time()
    q.cmd("dump-guest-memory", paging=False, protocol="file:" + out)
    print("guest stopped (%s); %d bytes dumped in %.1f s" %
          (st, os.path.getsize(out), time.time() - t0))
    try:
        q.cmd("quit")
    except SystemExit:
        pass                            # QEMU went before it answered


if __name__ == "__main__":
    main()
