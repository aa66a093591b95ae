#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The host's side of the cluster test (.ci/cluster).

relay KEY LOG PORTS CONSOLE_A CONSOLE_B
    The guests' only link: their dgram netdevs' remote ends.  Binds two
    UDP sockets on 127.0.0.1 (a's and b's remote: no free-port guess, the
    ports are written to PORTS), learns each guest's own port from its
    first frame, and forwards every frame from one to the other unchanged.
    Once both guests joined (their consoles say so), it is also the third
    member: every 50 ms one beacon to both at once, on the same sockets.
    LOG gets one line per forwarded ktrace cluster message,
    "fwd FROM TO ID SEQ HOST_NS", and per beacon "beacon ID SEQ SENT_NS",
    the host's time.time_ns() when the frame was received (before it is
    sent on) or the beacon's sent_ns (before it is sent): the host's clock
    is the ground truth of the alignment (truth).

truth LOG RAW_A RAW_B MERGED ALIGN
    The true offset of b's clock against a's from the relay's times,
    against the alignment of ktrace report.  A message g's trace says it
    sent at S (g's clock) was forwarded at host time H after it was sent:
    off_g >= S - H, with off_g g's clock minus the host's.  A message
    forwarded to g at H that g's trace says it received at R: off_g <=
    R - H.  Per window of WINDOW s, at its middle t, each bound moved by
    DRIFT_MAX times its distance to t (no clock drifts more against the
    host's), the tightest: an interval of off_a and of off_b at t, hence
    of off_b - off_a.  The alignment's correction of b at t (a's clock
    minus b's, as report applies it: b's aligned time minus its
    CLOCK_REALTIME, read from the two reports) negated, plus or minus its
    error said, must overlap that interval at every window.
    KTRACE_TRUTH_BIAS_NS (a test of the test) adds that much to the
    estimate.
"""
import os
import re
import select
import socket
import struct
import sys
import time

PORT = 6363
MAGIC = 0x4b54434c
HOST_ID = 0x0a0002fd
WINDOW = 2.0            # s
DRIFT_MAX = 500e-6      # of a guest's clock against the host's


def rotl(x, b):
    return ((x << b) | (x >> (64 - b))) & (2**64 - 1)


def siphash(key, m):
    k0, k1 = int.from_bytes(key[:8], "little"), int.from_bytes(key[8:], "little")
    v = [k0 ^ 0x736f6d6570736575, k1 ^ 0x646f72616e646f6d,
         k0 ^ 0x6c7967656e657261, k1 ^ 0x7465646279746573]
    M = 2**64 - 1

    def rnd():
        v[0] = (v[0] + v[1]) & M; v[1] = rotl(v[1], 13) ^ v[0]; v[0] = rotl(v[0], 32)
        v[2] = (v[2] + v[3]) & M; v[3] = rotl(v[3], 16) ^ v[2]
        v[0] = (v[0] + v[3]) & M; v[3] = rotl(v[3], 21) ^ v[0]
        v[2] = (v[2] + v[1]) & M; v[1] = rotl(v[1], 17) ^ v[2]; v[2] = rotl(v[2], 32)
    n = len(m) // 8 * 8
    for i in range(0, n, 8):
        mi = int.from_bytes(m[i:i + 8], "little")
        v[3] ^= mi; rnd(); rnd(); v[0] ^= mi
    b = len(m) << 56 | int.from_bytes(m[n:], "little")
    v[3] ^= b; rnd(); rnd(); v[0] ^= b
    v[2] ^= 0xff
    for _ in range(4):
        rnd()
    return v[0] ^ v[1] ^ v[2] ^ v[3]


def csum(b):
    s = sum(struct.unpack("!%dH" % (len(b) // 2), b))
    s = (s & 0xffff) + (s >> 16)
    return ~((s & 0xffff) + (s >> 16)) & 0xffff


def joined(path, node):
    try:
        return ("ktrace-cluster: %s joined" % node) in open(path, errors="replace").read()
    except OSError:
        return False


def beacon(key, seq, sent):
    """An Ethernet frame: the host's beacon, broadcast on 10.0.2.0/24."""
    body = struct.pack(">IBBHI16sQQ16s64s", MAGIC, 1, 2, 0, HOST_ID, b"host",
                       seq, sent, b"", b"")
    msg = body + struct.pack(">Q", siphash(key, body))
    udp = struct.pack("!HHHH", PORT, PORT, 8 + len(msg), 0) + msg
    ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(udp), seq & 0xffff, 0, 64, 17, 0,
                     bytes([10, 0, 2, 253]), b"\xff\xff\xff\xff")
    ip = ip[:10] + struct.pack("!H", csum(ip)) + ip[12:]
    return b"\xff" * 6 + bytes([0x52, 0x54, 0, 0x4b, 0x54, 0xfd]) + b"\x08\x00" + ip + udp


def cluster_msg(frame):
    """(origin_id, seq) of a frame holding a ktrace cluster message, or None."""
    if len(frame) < 34 or frame[12:14] != b"\x08\x00" or frame[23] != 17:
        return None
    p = 14 + (frame[14] & 15) * 4
    if len(frame) < p + 8 + 36:
        return None
    sport, dport = struct.unpack("!HH", frame[p:p + 4])
    m = frame[p + 8:]
    if PORT not in (sport, dport) or struct.unpack(">I", m[:4])[0] != MAGIC:
        return None
    return struct.unpack(">I", m[8:12])[0], struct.unpack(">Q", m[28:36])[0]


def relay(key, logname, portsname, cons):
    key = bytes.fromhex(key)
    socks = []
    for _ in range(2):
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        # The guests' floods of bad messages: a socket buffer of thousands
        # of frames (root: above rmem_max), drained whole at each wakeup.
        try:
            s.setsockopt(socket.SOL_SOCKET, 33, 32 << 20)  # SO_RCVBUFFORCE
        except OSError:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 32 << 20)
        s.setblocking(False)
        s.bind(("127.0.0.1", 0))
        socks.append(s)
    peer = [None, None]
    logf = open(logname, "w", buffering=1)
    with open(portsname + ".tmp", "w") as f:
        print(*(s.getsockname()[1] for s in socks), file=f)
    os.rename(portsname + ".tmp", portsname)
    # The guests have 300 s; beacons for 120 s from both joined.
    end = time.time() + 330
    beacon_end = None
    nxt = time.time()
    seq = time.time_ns()
    while time.time() < end:
        now = time.time()
        if beacon_end is None and now >= nxt:
            if joined(cons[0], "a") and joined(cons[1], "b"):
                beacon_end = now + 120
            else:
                nxt = now + 0.1
        elif beacon_end is not None and now >= nxt and now < beacon_end:
            seq += 1
            sent = time.time_ns()
            frame = beacon(key, seq, sent)
            for i in range(2):
                if peer[i]:
                    try:
                        socks[i].sendto(frame, peer[i])
                    except OSError:
                        pass
            logf.write("beacon %x %d %d\n" % (HOST_ID, seq, sent))
            nxt += 0.05
            if nxt < now:
                nxt = now + 0.05
        r, _, _ = select.select(socks, [], [], max(0.0, min(nxt - time.time(), 0.1)))
        for s in r:
            i = socks.index(s)
            o = 1 - i
            while True:
                try:
                    frame, addr = s.recvfrom(65536)
                except OSError:
                    break
                h = time.time_ns()
                peer[i] = addr
                if not peer[o]:
                    continue
                try:
                    socks[o].sendto(frame, peer[o])
                except OSError:
                    continue
                m = cluster_msg(frame)
                if m:
                    logf.write("fwd %s %s %x %d %d\n" % ("ab"[i], "ab"[o], m[0], m[1], h))


def ns(w):
    s, f = w.split(".")
    return int(s) * 10**9 + int(f) * (-1 if s.startswith("-") else 1)


def cluster_records(path, host_col):
    """{(id, seq, dir): time} of a report's ktrace:cluster lines (first of each)."""
    out = {}
    for line in open(path):
        w = line.split(" ")
        i = 4 if host_col else 3
        if len(w) <= i or w[i] != "ktrace:cluster":
            continue
        f = dict(re.findall(r'(\w+)="?([^" ]*)', line))
        k = (int(f["id"], 16), int(f["seq"]), f["dir"])
        if host_col:
            k = (w[1],) + k
        out.setdefault(k, ns(w[0]))
    return out


def bounds(log, raw):
    """Per guest, the lower and upper bounds [(host_ns, bound_ns)] of its offset."""
    fwd_from, fwd_to = {}, {}
    for line in open(log):
        w = line.split()
        if w[0] == "fwd":
            k = (int(w[3], 16), int(w[4]))
            fwd_from.setdefault((w[1],) + k, int(w[5]))
            fwd_to.setdefault((w[2],) + k, int(w[5]))
        elif w[0] == "beacon":
            for g in "ab":
                fwd_to.setdefault((g, int(w[1], 16), int(w[2])), int(w[3]))
    lo, hi = {"a": [], "b": []}, {"a": [], "b": []}
    for g in "ab":
        for (i, s, d), t in raw[g].items():
            if d == "send" and (g, i, s) in fwd_from:
                h = fwd_from[(g, i, s)]
                lo[g].append((h, t - h))
            elif d == "recv" and (g, i, s) in fwd_to:
                h = fwd_to[(g, i, s)]
                hi[g].append((h, t - h))
    return lo, hi


def interval(lo, hi, t):
    """The tightest [low, high] of an offset at host time t from bounds within the window."""
    low = max((b - DRIFT_MAX * abs(h - t) for h, b in lo if abs(h - t) <= WINDOW * 5e8),
              default=None)
    high = min((b + DRIFT_MAX * abs(h - t) for h, b in hi if abs(h - t) <= WINDOW * 5e8),
               default=None)
    return low, high


def truth(log, raw_a, raw_b, merged, align):
    raw = {"a": cluster_records(raw_a, False), "b": cluster_records(raw_b, False)}
    mrg = cluster_records(merged, True)
    lo, hi = bounds(log, raw)
    al = open(align).read()
    m = re.search(r"offset ([-+][0-9.]+) s, drift ([-+][0-9.]+) ppm, error ([0-9.]+) us", al)
    if not m:
        print("FAIL: truth: no alignment said")
        return False
    err = float(m.group(3)) * 1e3
    bias = int(os.environ.get("KTRACE_TRUTH_BIAS_NS", "0"))
    # The correction report applied to b, a line of b's CLOCK_REALTIME.
    corr = [(t, mrg[("b",) + k] - t) for k, t in raw["b"].items() if ("b",) + k in mrg]
    if len(corr) < 2 or min(len(lo[g]) + len(hi[g]) for g in "ab") < 10:
        print(f"FAIL: truth: too few samples ({len(corr)} corrections, "
              f"{[(len(lo[g]), len(hi[g])) for g in 'ab']} bounds)")
        return False
    corr.sort()
    (x1, c1), (x2, c2) = corr[0], corr[-1]
    slope = (c2 - c1) / (x2 - x1) if x2 != x1 else 0.0
    # b's offset to the host, about, to put host times on b's clock.
    offb = sorted(b for _, b in lo["b"] + hi["b"])[len(lo["b"] + hi["b"]) // 2]
    hs = [h for g in "ab" for h, _ in lo[g] + hi[g]]
    t0, t1 = min(hs), max(hs)
    n = max(1, int((t1 - t0) / (WINDOW * 1e9)))
    ok, checked, worst, mids = True, 0, 0.0, []
    print(f"  truth: the host's clock as reference, windows of {WINDOW:.0f} s, "
          f"drift at most {DRIFT_MAX * 1e6:.0f} ppm against it; "
          f"{len(lo['a'])}+{len(hi['a'])} bounds of a, {len(lo['b'])}+{len(hi['b'])} of b")
    for k in range(n):
        t = t0 + (k + 0.5) * (t1 - t0) / n
        la, ha = interval(lo["a"], hi["a"], t)
        lb, hb = interval(lo["b"], hi["b"], t)
        if None in (la, ha, lb, hb):
            continue
        tlo, thi = lb - ha, hb - la
        mids.append((t, (la + ha) / 2, (lb + hb) / 2))
        est = -(c1 + slope * (t + offb - x1)) + bias
        dist = max(tlo - (est + err), (est - err) - thi, 0.0)
        checked += 1
        worst = max(worst, dist)
        bad = thi < tlo or dist > 0
        print(f"  truth: at +{(t - t0) / 1e9:5.1f} s: b - a in [{tlo / 1e9:+.6f}, {thi / 1e9:+.6f}] s "
              f"({(thi - tlo) / 1e3:.1f} us wide), estimate {est / 1e9:+.6f} s "
              f"+- {err / 1e3:.1f} us, {dist / 1e3:.1f} us outside" + (" FAIL" if bad else ""))
        if thi < tlo:
            print("FAIL: truth: the host's bounds cross (a clock not linear, or a bad log)")
            ok = False
        elif dist > 0:
            print("FAIL: truth: the alignment and its error miss the true offset")
            ok = False
    if checked < 2:
        print(f"FAIL: truth: {checked} windows with bounds of both, want 2 or more")
        return False
    # The windows' assumption: no guest drifts more against the host.
    (u0, a0, b0), (u1, a1, b1) = mids[0], mids[-1]
    da, db = (a1 - a0) / (u1 - u0), (b1 - b0) / (u1 - u0)
    print(f"  truth: a drifts {da * 1e6:+.1f} ppm, b {db * 1e6:+.1f} ppm against the host")
    if max(abs(da), abs(db)) > DRIFT_MAX:
        print(f"FAIL: truth: a guest drifts more than {DRIFT_MAX * 1e6:.0f} ppm: no bound")
        ok = False
    print(f"  truth: {checked} windows, the alignment within its error at "
          f"{'every one' if ok else 'not all'} (worst {worst / 1e3:.1f} us outside)")
    return ok


if __name__ == "__main__":
    if len(sys.argv) == 7 and sys.argv[1] == "relay":
        relay(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5:7])
    elif len(sys.argv) == 7 and sys.argv[1] == "truth":
        sys.exit(0 if truth(*sys.argv[2:7]) else 1)
    else:
        sys.exit("usage: cluster.py relay KEY LOG PORTS CONSOLE_A CONSOLE_B | "
                 "truth LOG RAW_A RAW_B MERGED ALIGN")
