#!/usr/bin/python3
"""Server-side handshake latency from a loopback capture (standard library only).

Reads a classic pcap file (micro- or nanosecond timestamps; Ethernet, Linux
cooked or raw IPv4/IPv6 link types), reassembles each TCP connection in both
directions, and for every connection to one of the given server ports returns
the time between the client's key-exchange message and the server's answer:
  tls: ClientHello (end of its records) to the end of the server's first
       flight (last server segment before the client's next flight);
  ssh: KEXDH_INIT / KEX_ECDH_INIT / KEX_DH_GEX_INIT to the end of the
       server's KEXDH_REPLY / KEX_DH_GEX_REPLY.
Usage: pcap_latency.py tls|ssh FILE PORT...  (prints "port start_s latency_us")
"""
import struct
import sys

LINK_ETHERNET, LINK_RAW, LINK_LINUX_SLL, LINK_IPV4, LINK_IPV6 = 1, 101, 113, 228, 229
TCP_SYN, TCP_FIN, TCP_RST = 0x02, 0x01, 0x04
# SSH message numbers (RFC 4253, RFC 4419, RFC 5656).
SSH_KEXDH_INIT, SSH_KEXDH_REPLY = 30, 31
SSH_KEX_DH_GEX_INIT, SSH_KEX_DH_GEX_REPLY = 32, 33


def read_packets(path):
    """Yields (timestamp_seconds, ip_bytes) for each packet of a pcap file."""
    with open(path, "rb") as f:
        data = f.read()
    if len(data) < 24:
        return
    magic = data[:4]
    for endian in ("<", ">"):
        (m,) = struct.unpack(endian + "I", magic)
        if m in (0xA1B2C3D4, 0xA1B23C4D):
            break
    else:
        raise ValueError("%s: not a classic pcap file" % path)
    frac = 1e-9 if m == 0xA1B23C4D else 1e-6
    (linktype,) = struct.unpack(endian + "I", data[20:24])
    off = 24
    while off + 16 <= len(data):
        sec, sub, incl, _orig = struct.unpack(endian + "IIII", data[off:off + 16])
        off += 16
        frame = data[off:off + incl]
        off += incl
        ip = strip_link(linktype, frame)
        if ip is not None:
            yield sec + sub * frac, ip


def strip_link(linktype, frame):
    """Returns the IP packet inside a link-layer frame, or None."""
    if linktype == LINK_ETHERNET:
        etype, off = struct.unpack("!H", frame[12:14])[0], 14
        while etype == 0x8100 and len(frame) >= off + 4:  # VLAN tags
            etype, off = struct.unpack("!H", frame[off + 2:off + 4])[0], off + 4
        return frame[off:] if etype in (0x0800, 0x86DD) else None
    if linktype == LINK_LINUX_SLL:
        etype = struct.unpack("!H", frame[14:16])[0]
        return frame[16:] if etype in (0x0800, 0x86DD) else None
    if linktype in (LINK_RAW, LINK_IPV4, LINK_IPV6):
        return frame
    return None


def parse_tcp(ip):
    """Returns (src, sport, dst, dport, seq, flags, payload) or None."""
    if not ip:
        return None
    version = ip[0] >> 4
    if version == 4:
        ihl = (ip[0] & 15) * 4
        total = struct.unpack("!H", ip[2:4])[0]
        if ip[9] != 6:
            return None
        src, dst, seg = ip[12:16], ip[16:20], ip[ihl:total]
    elif version == 6:
        if ip[6] != 6:  # no extension headers on loopback traffic we make
            return None
        plen = struct.unpack("!H", ip[4:6])[0]
        src, dst, seg = ip[8:24], ip[24:40], ip[40:40 + plen]
    else:
        return None
    if len(seg) < 20:
        return None
    sport, dport, seq = struct.unpack("!HHI", seg[:8])
    doff = (seg[12] >> 4) * 4
    return src, sport, dst, dport, seq, seg[13], seg[doff:]


class Stream:
    """One direction of a TCP connection: bytes in order plus, for each
    segment appended, (end offset, timestamp)."""

    def __init__(self):
        self.isn = None
        self.data = bytearray()
        self.segments = []  # (end_offset, ts)
        self.gap = False

    def add(self, ts, seq, flags, payload):
        if flags & TCP_SYN:
            self.isn = seq
            return
        if not payload or self.isn is None:
            return
        off = (seq - self.isn - 1) & 0xFFFFFFFF
        end = off + len(payload)
        if end <= len(self.data):
            return  # retransmission
        if off > len(self.data):
            self.gap = True  # a segment missing from the capture
            return
        self.data += payload[len(self.data) - off:]
        self.segments.append((len(self.data), ts))

    def time_at(self, offset):
        """Timestamp of the segment that carried byte offset-1 (the end of a
        message ending at offset), or None."""
        for end, ts in self.segments:
            if end >= offset:
                return ts
        return None

    def first_time_after(self, offset):
        """Timestamp of the first segment carrying bytes at or past offset."""
        start = 0
        for end, ts in self.segments:
            if end > offset and end > start:
                return ts
            start = end
        return None


def connections(path, ports):
    """Groups the capture by connection to a server port: returns a list of
    (server_port, syn_time, client_stream, server_stream) in SYN order."""
    conns = {}
    for ts, ip in read_packets(path):
        t = parse_tcp(ip)
        if t is None:
            continue
        src, sport, dst, dport, seq, flags, payload = t
        if dport in ports:
            key, to_server = (src, sport, dst, dport), True
        elif sport in ports:
            key, to_server = (dst, dport, src, sport), False
        else:
            continue
        if key not in conns or (to_server and flags & TCP_SYN and not flags & 0x10
                                and conns[key][2].data):
            # a new connection (or a reused 4-tuple after an old one finished)
            if key in conns:
                conns[(key, ts)] = conns.pop(key)
            conns[key] = [key[3], ts, Stream(), Stream()]
        c = conns[key]
        (c[2] if to_server else c[3]).add(ts, seq, flags, payload)
    out = sorted((v for v in conns.values()), key=lambda v: v[1])
    return [tuple(v) for v in out]


def tls_records_end(data, start=0):
    """Offset just past the handshake message that starts at `start`
    (following it across records), or None if the bytes are incomplete."""
    off, need, have = start, None, 0
    while off + 5 <= len(data):
        rtype, rlen = data[off], struct.unpack("!H", data[off + 3:off + 5])[0]
        if rtype != 22:
            return None
        body = data[off + 5:off + 5 + rlen]
        if len(body) < rlen:
            return None
        if need is None:
            if len(body) < 4:
                return None
            need = 4 + int.from_bytes(body[1:4], "big")
        have += rlen
        off += 5 + rlen
        if have >= need:
            return off
    return None


def tls_latency(client, server):
    """Seconds from the end of the ClientHello to the end of the server's
    first flight, or None when the capture lacks them."""
    hello_end = tls_records_end(client.data)
    if hello_end is None or not server.segments:
        return None
    t0 = client.time_at(hello_end)
    t_next = client.first_time_after(hello_end)
    last = None
    for _end, ts in server.segments:
        if ts < t0:
            continue
        if t_next is not None and ts > t_next:
            break
        last = ts
    return None if last is None else last - t0


def ssh_packets(data):
    """Yields (message type, end offset) of the plaintext SSH packets after
    the identification lines (valid until the first NEWKEYS)."""
    off = 0
    while True:  # identification line(s): "SSH-2.0-...\r\n"
        nl = data.find(b"\n", off)
        if nl < 0:
            return
        line, off = data[off:nl], nl + 1
        if line.startswith(b"SSH-"):
            break
    while off + 6 <= len(data):
        plen = struct.unpack("!I", data[off:off + 4])[0]
        if plen > 256 * 1024:
            return
        msg = data[off + 5]
        off += 4 + plen
        if off > len(data):
            return
        yield msg, off
        if msg == 21:  # NEWKEYS: the rest is encrypted
            return


def ssh_latency(client, server):
    """Seconds from the client's DH/ECDH/GEX init to the end of the server's
    reply, or None when the capture lacks them."""
    for msg, end in ssh_packets(client.data):
        if msg in (SSH_KEXDH_INIT, SSH_KEX_DH_GEX_INIT):
            want, t0 = msg + 1, client.time_at(end)
            break
    else:
        return None
    for msg, end in ssh_packets(server.data):
        if msg == want:
            t1 = server.time_at(end)
            if t1 is not None and t1 >= t0:
                return t1 - t0
    return None


def latencies(kind, path, ports):
    """List of (server_port, syn_time, latency_seconds or None) per
    connection, in connection order."""
    fn = tls_latency if kind == "tls" else ssh_latency
    out = []
    for port, t, client, server in connections(path, set(ports)):
        lat = None if client.gap or server.gap else fn(client, server)
        out.append((port, t, lat))
    return out


def main(argv):
    if len(argv) < 4 or argv[1] not in ("tls", "ssh"):
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    for port, t, lat in latencies(argv[1], argv[2], [int(p) for p in argv[3:]]):
        print(port, "%.6f" % t, "-" if lat is None else "%.1f" % (lat * 1e6))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
