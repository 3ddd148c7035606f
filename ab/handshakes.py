#!/usr/bin/python3
"""TLS 1.2/1.3 and SSH handshakes in a capture, with the server's time on the
wire for each. Standard library only; the input is untrusted (every length is
checked, nothing but pcapread.CaptureError escapes from analyse()).

Connections are paired to endpoints (label, addresses or None for any, port)
by the server's address and port. Per handshake:
  TLS: from the capture time of the segment completing the ClientHello to
       that of the segment completing the server's last record before the
       client's next flight (ServerHello .. Finished in 1.3, .. ServerHelloDone
       in 1.2); after a HelloRetryRequest, from the second ClientHello;
  SSH: from the segment completing the client's KEXDH_INIT / KEX_ECDH_INIT /
       KEX_DH_GEX_INIT (the hybrid post-quantum ones use the same number) to
       the one completing the server's reply.
A connection that cannot give that time is counted with its reason.
Entry point for fuzzing: analyse(data, endpoints)."""
import collections
import hashlib
import struct

import pcapread

SYN, FIN, RST, ACK = 0x02, 0x01, 0x04, 0x10
# Bytes kept per direction of a connection: handshakes end well before.
KEEP = 512 * 1024

# Reasons a connection gives no time (the report lists them in this order).
REASONS = ("other port", "truncated", "retransmitted", "resumed", "hello retry failed",
           "older TLS version", "handshake failed", "incomplete", "not TLS or SSH",
           "other protocol")

HRR_RANDOM = hashlib.sha256(b"HelloRetryRequest").digest()
TLS_GROUPS = {0x0017: "secp256r1", 0x0018: "secp384r1", 0x0019: "secp521r1",
              0x001D: "x25519", 0x001E: "x448", 0x0100: "ffdhe2048", 0x0101: "ffdhe3072",
              0x0102: "ffdhe4096", 0x0103: "ffdhe6144", 0x0104: "ffdhe8192",
              0x0200: "MLKEM512", 0x0201: "MLKEM768", 0x0202: "MLKEM1024",
              0x11EB: "SecP256r1MLKEM768", 0x11EC: "X25519MLKEM768",
              0x11ED: "SecP384r1MLKEM1024"}
TLS13_SUITES = {0x1301: "TLS_AES_128_GCM_SHA256", 0x1302: "TLS_AES_256_GCM_SHA384",
                0x1303: "TLS_CHACHA20_POLY1305_SHA256"}


class Stream:
    """One direction of a connection: its bytes in sequence order, for each
    appended segment (end offset, capture time in nanoseconds), and what
    went wrong."""
    __slots__ = ("isn", "data", "ends", "times", "pending", "retrans", "cut", "late", "fin",
                 "rst", "closed")

    def __init__(self):
        self.isn = None
        self.data = bytearray()
        self.ends, self.times = [], []
        self.pending = {}  # offset -> (ts, payload) arrived ahead of a gap
        self.retrans = []  # offsets where a segment was sent again
        self.cut = False  # bytes missing: snap length or a segment never captured
        self.late = False  # the capture began after this direction's SYN
        self.fin = self.rst = False  # a FIN, an RST was captured
        self.closed = False  # either

    def add(self, ts, seq, flags, payload, cut):
        """Appends a captured segment (SYN sets the initial sequence number)."""
        if flags & (FIN | RST):
            self.closed = True
            self.fin = self.fin or bool(flags & FIN)
            self.rst = self.rst or bool(flags & RST)
        if flags & SYN:
            self.isn = seq
            return
        if not payload:
            return
        if self.isn is None:
            self.late = True
            return
        off = (seq - self.isn - 1) & 0xFFFFFFFF
        have = len(self.data)
        if off + len(payload) <= have or off < have:
            self.retrans.append(off)
            if off + len(payload) <= have:
                return
            payload, off = payload[have - off:], have
        if have >= KEEP or self.cut:
            return
        if off > have:
            if len(self.pending) < 64:
                self.pending[off] = (ts, payload, cut)
            return
        self._append(ts, payload, cut)
        while self.pending:
            nxt = self.pending.pop(len(self.data), None)
            if nxt is None:
                break
            self._append(*nxt)

    def _append(self, ts, payload, cut):
        """Appends in-order bytes; after a cut segment nothing more is kept."""
        self.data += payload
        self.ends.append(len(self.data))
        self.times.append(ts)
        if cut:
            self.cut = True  # what follows these bytes is unknown

    def finish(self):
        """After the capture: a segment still waiting beyond a gap means bytes
        were lost."""
        if self.pending:
            self.cut = True

    def time_at(self, offset):
        """Capture time of the segment that completed byte offset-1 (None if
        no segment did)."""
        ends = self.ends
        lo, hi = 0, len(ends)
        while lo < hi:
            mid = (lo + hi) // 2
            if ends[mid] < offset:
                lo = mid + 1
            else:
                hi = mid
        return self.times[lo] if lo < len(ends) else None

    def retransmitted_before(self, offset):
        """True when a segment carrying bytes before offset was sent twice."""
        return any(o < offset for o in self.retrans)


class Conn:
    """One TCP connection to an endpoint: which endpoint, when it began, the
    client's port, both directions."""
    __slots__ = ("label", "start", "client", "server", "cport")

    def __init__(self, label, start, cport):
        self.label, self.start, self.cport = label, start, cport
        self.client, self.server = Stream(), Stream()


class Handshake:
    """One measured handshake: endpoint label, kind (tls, ssh), connection
    start (capture time, integer nanoseconds), the client's port, server time
    in seconds, and what was negotiated (dict)."""
    __slots__ = ("label", "kind", "start", "cport", "seconds", "info")

    def __init__(self, label, kind, start, cport, seconds, info):
        self.label, self.kind, self.start, self.cport = label, kind, start, cport
        self.seconds, self.info = seconds, info


class Analysis:
    """analyse()'s result: handshakes (in connection order), the connections
    not used per (label or None, reason), every connection to an endpoint as
    (label, start in nanoseconds, seconds or None), and the segment count."""

    def __init__(self):
        self.handshakes = []
        self.connections = []
        self.unused = collections.Counter()
        self.segments = 0


def _match(endpoints):
    """port -> [(label, address set or None)] for fast lookups."""
    by_port = collections.defaultdict(list)
    for label, addrs, port in endpoints:
        by_port[port].append((label, addrs))
    return by_port


def _label(by_port, addr, port):
    """The label of the endpoint at (addr, port), or None."""
    for label, addrs in by_port.get(port, ()):
        if addrs is None or addr in addrs:
            return label
    return None


def connections(segments, endpoints, analysis):
    """Groups segments (any iterable) into connections to the endpoints and
    yields each once it has ended (RST, or FIN both ways; its bytes are then
    let go) or, for the rest, at the end of the capture; counts the others
    as "other port" in analysis."""
    by_port = _match(endpoints)
    live, ended, others = {}, set(), set()
    for s in segments:
        label = _label(by_port, s.dst, s.dport) if s.dport in by_port else None
        if label is not None:
            key, to_server = (s.src, s.sport, s.dst, s.dport), True
        else:
            label = _label(by_port, s.src, s.sport) if s.sport in by_port else None
            if label is None:
                if s.flags & SYN and not s.flags & ACK:
                    others.add((s.src, s.sport, s.dst, s.dport, s.seq))
                continue
            key, to_server = (s.dst, s.dport, s.src, s.sport), False
        opening = to_server and s.flags & SYN and not s.flags & ACK
        c = live.get(key)
        if c is None and key in ended and not opening:
            continue  # the last ACKs of a connection already measured
        if c is None or (opening and c.client.isn is not None and c.client.isn != s.seq):
            if c is not None:  # the 4-tuple reused: the old connection is over
                yield _finished(c)
            ended.discard(key)
            c = live[key] = Conn(label, s.ts, key[1])
        (c.client if to_server else c.server).add(s.ts, s.seq, s.flags, s.payload, s.cut)
        if c.client.rst or c.server.rst or (c.client.fin and c.server.fin):
            del live[key]
            ended.add(key)
            yield _finished(c)
    analysis.unused[(None, "other port")] += len(others)
    for c in live.values():
        yield _finished(c)


def _finished(c):
    """c, its streams told that no more segments come."""
    c.client.finish()
    c.server.finish()
    return c


def _tls_records(data, start, ends_before=None):
    """(type, body offset, body length, end) of the whole TLS records of data
    from start (up to ends_before when given)."""
    out, off, n = [], start, len(data) if ends_before is None else min(len(data), ends_before)
    while off + 5 <= n:
        rlen = (data[off + 3] << 8) | data[off + 4]
        if off + 5 + rlen > n:
            break
        out.append((data[off], off + 5, rlen, off + 5 + rlen))
        off += 5 + rlen
    return out


def _handshake_msgs(data, records):
    """Plaintext handshake messages (type, body bytes, end offset of the
    record completing it) across the leading handshake records; stops at the
    first record of another type."""
    buf, ends, msgs = bytearray(), [], []
    for rtype, boff, blen, end in records:
        if rtype != 22:
            break
        buf += data[boff:boff + blen]
        ends.append((len(buf), end))
        while len(buf) >= 4:
            mlen = (buf[1] << 16) | (buf[2] << 8) | buf[3]
            if len(buf) < 4 + mlen:
                break
            msgs.append((buf[0], bytes(buf[4:4 + mlen]), end))
            del buf[:4 + mlen]
    return msgs


def _server_hello(body):
    """(random, suite, extensions {type: bytes}) of a ServerHello body, or None."""
    if len(body) < 38:
        return None
    sid = body[34]
    off = 35 + sid
    if off + 3 > len(body):
        return None
    suite = (body[off] << 8) | body[off + 1]
    off += 3  # suite and compression method
    ext = {}
    if off + 2 <= len(body):
        end = min(len(body), off + 2 + ((body[off] << 8) | body[off + 1]))
        off += 2
        while off + 4 <= end:
            etype, elen = struct.unpack_from("!HH", body, off)
            ext[etype] = body[off + 4:off + 4 + elen]
            off += 4 + elen
    return body[2:34], suite, ext


def _flight_end(server, records, t_from, t_next):
    """Capture time of the server's last whole record completed at or after
    t_from and not after the client's next flight (t_next, None: no bound)."""
    last = None
    for _rtype, _boff, _blen, end in records:
        ts = server.time_at(end)
        if ts is None or ts < t_from:
            continue
        if t_next is not None and ts > t_next:
            break
        last = ts
    return last


def _first_after(stream, offset):
    """Capture time of the first segment carrying bytes at or past offset."""
    for end, ts in zip(stream.ends, stream.times):
        if end > offset:
            return ts
    return None


def tls_handshake(c):
    """(seconds, info) for a TLS connection, or (None, reason)."""
    cl, sv = c.client, c.server
    crec = _tls_records(cl.data, 0)
    cmsgs = _handshake_msgs(cl.data, crec)
    if not cmsgs or cmsgs[0][0] != 1:
        return None, "incomplete" if not crec else "not TLS or SSH"
    ch_end = cmsgs[0][2]
    srec = _tls_records(sv.data, 0)
    smsgs = _handshake_msgs(sv.data, srec)
    if srec and srec[0][0] == 21:
        return None, "handshake failed"
    if not smsgs or smsgs[0][0] != 2:
        return None, "truncated" if sv.cut or cl.cut else "incomplete"
    sh = _server_hello(smsgs[0][1])
    if sh is None:
        return None, "not TLS or SSH"
    random, suite, ext = sh
    hrr = random == HRR_RANDOM
    if hrr:
        # The client's second ClientHello (after an optional CCS) starts the
        # measured flight; the server's ServerHello after it ends the HRR.
        rest = [r for r in crec if r[3] > ch_end and r[0] != 20]
        c2 = _handshake_msgs(cl.data, rest)
        srest = [r for r in srec if r[3] > smsgs[0][2] and r[0] != 20]
        s2 = _handshake_msgs(sv.data, srest)
        sh = _server_hello(s2[0][1]) if s2 and s2[0][0] == 2 else None
        if not c2 or c2[0][0] != 1 or sh is None:
            return None, "hello retry failed"
        ch_end, smsgs = c2[0][2], s2
        random, suite, ext = sh
    version = "1.3" if ext.get(43) == b"\x03\x04" else None
    if version is None:
        legacy = smsgs[0][1][:2] if len(smsgs[0][1]) >= 2 else b""
        if legacy != b"\x03\x03":
            return None, "older TLS version"
        version = "1.2"
    info = {"version": "TLS " + version, "hello retry": "yes" if hrr else "no"}
    if version == "1.3":
        if 41 in ext:
            return None, "resumed"
        ks = ext.get(51, b"")
        if len(ks) >= 2:
            g = (ks[0] << 8) | ks[1]
            info["group"] = TLS_GROUPS.get(g, "0x%04x" % g)
        info["cipher"] = TLS13_SUITES.get(suite, "0x%04x" % suite)
    else:
        types = [m[0] for m in smsgs]
        if 11 not in types and 14 not in types:
            return None, "resumed"
        info["cipher"] = "0x%04x" % suite
        for mtype, body, _end in smsgs:
            if mtype == 12 and len(body) >= 3:
                if body[0] == 3:
                    g = (body[1] << 8) | body[2]
                    info["group"] = TLS_GROUPS.get(g, "0x%04x" % g)
                else:
                    info["group"] = "DHE-%d" % (((body[0] << 8) | body[1]) * 8)
        if 14 not in types:
            return None, "truncated" if sv.cut else "incomplete"
    t0 = cl.time_at(ch_end)
    # The client's next flight: its first record after the ClientHello that is
    # not a lone middlebox-compatibility CCS (some clients send it at once).
    nxt = next((r for r in crec if r[1] - 5 >= ch_end and r[0] != 20), None)
    t_next = _first_after(cl, nxt[1] - 5 if nxt else ch_end)
    if t_next is None:
        return None, "truncated" if cl.cut or sv.cut else "incomplete"
    t1 = _flight_end(sv, srec, t0, t_next)
    if t1 is None:
        return None, "truncated" if sv.cut else "incomplete"
    last_off = max(r[3] for r in srec if sv.time_at(r[3]) == t1)
    if cl.retransmitted_before(ch_end + 1) or sv.retransmitted_before(last_off):
        return None, "retransmitted"
    return (t1 - t0) * 1e-9, info


def _ssh_packets(data):
    """(message type, payload offset, payload end, packet end) of the
    plaintext SSH packets after the identification line, up to NEWKEYS;
    and the identification line (or None when there is none)."""
    off, ident = 0, None
    while ident is None:
        nl = data.find(b"\n", off, off + 8192)
        if nl < 0:
            return [], None
        line, off = bytes(data[off:nl]), nl + 1
        if line.startswith(b"SSH-"):
            ident = line.rstrip(b"\r")
    out = []
    while off + 6 <= len(data):
        plen, pad = struct.unpack_from("!IB", data, off)
        if plen < 5 or plen > 256 * 1024 or pad >= plen:
            break
        end = off + 4 + plen
        if end > len(data):
            break
        out.append((data[off + 5], off + 5, end - pad, end))
        off = end
        if out[-1][0] == 21:  # NEWKEYS: the rest is encrypted
            break
    return out, ident


def _namelists(data, start, end, count):
    """The first count SSH name-lists from data[start:end], each a list of
    names (shorter when the payload ends early)."""
    out, off = [], start
    while len(out) < count and off + 4 <= end:
        n = struct.unpack_from("!I", data, off)[0]
        if off + 4 + n > end:
            break
        out.append(bytes(data[off + 4:off + 4 + n]).decode("ascii", "replace").split(","))
        off += 4 + n
    return out


def _negotiate(client_list, server_list):
    """The first client algorithm the server also lists (RFC 4253 7.1)."""
    for name in client_list:
        if name in server_list:
            return name
    return None


def ssh_handshake(c):
    """(seconds, info) for an SSH connection, or (None, reason)."""
    cl, sv = c.client, c.server
    cpk, cid = _ssh_packets(cl.data)
    spk, sid = _ssh_packets(sv.data)
    if cid is None:
        return None, "truncated" if cl.cut else "incomplete"
    info = {"client": cid.decode("ascii", "replace"),
            "server": sid.decode("ascii", "replace") if sid else "-"}
    ck = [p for p in cpk if p[0] == 20]
    sk = [p for p in spk if p[0] == 20]
    if ck and sk:
        cl_lists = _namelists(cl.data, ck[0][1] + 17, ck[0][2], 2)
        sv_lists = _namelists(sv.data, sk[0][1] + 17, sk[0][2], 2)
        if len(cl_lists) == 2 and len(sv_lists) == 2:
            info["kex"] = _negotiate(cl_lists[0], sv_lists[0]) or "none"
            info["host key"] = _negotiate(cl_lists[1], sv_lists[1]) or "none"
    init = next((p for p in cpk if p[0] in (30, 32)), None)
    if init is None:
        if any(p[0] == 1 for p in spk):
            return None, "handshake failed"
        return None, "truncated" if cl.cut or sv.cut else "incomplete"
    want = 33 if any(p[0] == 34 for p in cpk) or init[0] == 32 else 31
    t0 = cl.time_at(init[3])
    reply = next((p for p in spk if p[0] == want and sv.time_at(p[3]) is not None
                  and sv.time_at(p[3]) >= t0), None)
    if reply is None:
        if any(p[0] == 1 for p in spk):
            return None, "handshake failed"
        return None, "truncated" if cl.cut or sv.cut else "incomplete"
    if cl.retransmitted_before(init[3]) or sv.retransmitted_before(reply[3]):
        return None, "retransmitted"
    return (sv.time_at(reply[3]) - t0) * 1e-9, info


def negotiated(hs, kind):
    """One phrase of what handshakes of a kind negotiated: "version TLS 1.3
    (20); group X25519MLKEM768 (20); ..." (the values of each key, most
    common first)."""
    keys = ("version", "group", "cipher") if kind == "tls" else ("kex", "host key", "server")
    parts = []
    for key in keys:
        c = collections.Counter(h.info.get(key) for h in hs if h.info.get(key))
        parts.append("%s %s" % (key, ", ".join("%s (%d)" % kv for kv in c.most_common(4)) or "-"))
    return "; ".join(parts)


def kind_of(c):
    """'tls', 'ssh' or None from the first bytes of either direction."""
    d = c.client.data
    if len(d) >= 3 and d[0] == 22 and d[1] == 3:
        return "tls"
    if d[:4] == b"SSH-" or c.server.data[:4] == b"SSH-":
        return "ssh"
    return None


def analyse(data, endpoints, kind=None):
    """Every TLS and SSH handshake to the endpoints [(label, set of address
    bytes or None, port), ...] in the capture bytes data; kind ('tls', 'ssh')
    counts connections of the other protocol as "other protocol". Returns an
    Analysis; raises pcapread.CaptureError for an unreadable capture."""
    a = Analysis()

    def counted(segments):
        for seg in segments:
            a.segments += 1
            yield seg
    for c in connections(counted(pcapread.iter_tcp_segments(data)), endpoints, a):
        k, seconds, info = _measure(c, kind)
        a.connections.append((c.start, len(a.connections), c.label, seconds))
        if seconds is None:
            a.unused[(c.label, info)] += 1
        else:
            a.handshakes.append(Handshake(c.label, k, c.start, c.cport, seconds, info))
    # Connections are measured as they end: back to the order they began.
    a.connections = [(lab, start, sec) for start, _n, lab, sec in sorted(a.connections)]
    a.handshakes.sort(key=lambda h: h.start)
    return a


def _measure(c, kind):
    """(kind, seconds, info) of one connection, or (kind, None, reason)."""
    if c.client.late or c.server.late:
        return None, None, "truncated"
    k = kind_of(c)
    if k is None:
        if c.client.cut:
            return None, None, "truncated"
        return None, None, "incomplete" if not c.client.data else "not TLS or SSH"
    if kind and k != kind:
        return k, None, "other protocol"
    seconds, info = (tls_handshake if k == "tls" else ssh_handshake)(c)
    if seconds is None and info in ("incomplete", "hello retry failed") and \
            not (c.client.closed or c.server.closed):
        info = "truncated"  # the capture ended before the connection did
    return k, seconds, info
