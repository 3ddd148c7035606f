#!/usr/bin/python3
"""Generated captures for testing and timing `cryptoshim ab pcap`: TLS 1.3
and SSH handshakes with known server times, as pcap or pcapng; and
conversion of a pcap file to pcapng (same packets and times).
Usage: pcap_synth.py gen OUT {pcap|pcapng} {tls|ssh}:PORT:N...
       pcap_synth.py topcapng IN OUT
       pcap_synth.py damage IN OUT  (the middle packet record's length made impossible)
The server time of handshake i is 800 + i % 97 us."""
import os
import struct
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pcapread  # noqa: E402

CLIENT, SERVER = bytes([10, 0, 0, 2]), bytes([10, 0, 0, 1])


def _ip_tcp(src, dst, sport, dport, seq, ack, flags, payload):
    """An IPv4 packet carrying one TCP segment (checksums left zero)."""
    tcp = struct.pack("!HHIIBBHHH", sport, dport, seq & 0xFFFFFFFF, ack & 0xFFFFFFFF,
                      5 << 4, flags, 65535, 0, 0) + payload
    ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(tcp), 0, 0x4000, 64, 6, 0, src, dst)
    return ip + tcp


class Conn:
    """Packets of one generated connection: (time, ip bytes) pairs."""

    def __init__(self, cport, sport, t):
        self.cport, self.sport, self.t = cport, sport, t
        self.cseq, self.sseq, self.out = 1000, 5000, []
        self.send(True, b"", 0x02)
        self.send(False, b"", 0x12)
        self.send(True, b"", 0x10)

    def send(self, from_client, payload, flags=0x18, dt=10e-6):
        """One segment; SYN and FIN count one sequence number."""
        self.t += dt
        if from_client:
            pkt = _ip_tcp(CLIENT, SERVER, self.cport, self.sport, self.cseq, self.sseq, flags,
                          payload)
            self.cseq += len(payload) + (1 if flags & 0x03 else 0)
        else:
            pkt = _ip_tcp(SERVER, CLIENT, self.sport, self.cport, self.sseq, self.cseq, flags,
                          payload)
            self.sseq += len(payload) + (1 if flags & 0x03 else 0)
        self.out.append((self.t, pkt))

    def close(self):
        """FIN from each side and the last ACK."""
        self.send(True, b"", 0x11)
        self.send(False, b"", 0x11)
        self.send(True, b"", 0x10)


def _record(rtype, body):
    """A TLS record of a type around body."""
    return struct.pack("!BHH", rtype, 0x0303, len(body)) + body


def _hs(mtype, body):
    """A TLS handshake message of a type around body."""
    return struct.pack("!B", mtype) + len(body).to_bytes(3, "big") + body


def tls_conn(cport, sport, t, server_s):
    """A full TLS 1.3 handshake (x25519) whose server flight ends server_s
    after the ClientHello's last segment."""
    c = Conn(cport, sport, t)
    c.send(True, _record(22, _hs(1, b"\x03\x03" + bytes(32) + b"\x00" + bytes(180))))
    t0 = c.t
    ext = struct.pack("!HHH", 43, 2, 0x0304) + struct.pack("!HHHH", 51, 36, 0x001D, 32) + bytes(32)
    sh = _hs(2, b"\x03\x03" + b"\x11" * 32 + b"\x20" + bytes(32) + b"\x13\x02\x00" +
             struct.pack("!H", len(ext)) + ext)
    c.send(False, _record(22, sh) + _record(20, b"\x01"), dt=server_s / 2)
    enc = _record(23, bytes(1400))
    c.send(False, enc[:900], dt=server_s / 4)
    c.t = t0 + server_s - 10e-6
    c.send(False, enc[900:] + _record(23, bytes(60)))
    c.send(True, _record(20, b"\x01") + _record(23, bytes(53)), dt=100e-6)
    c.send(True, _record(23, bytes(24)))
    c.close()
    return c.out


def _ssh_packet(payload):
    """An unencrypted SSH binary packet with zero padding."""
    pad = 8 - (len(payload) + 5) % 8
    pad += 8 if pad < 4 else 0
    return struct.pack("!IB", len(payload) + pad + 1, pad) + payload + bytes(pad)


def _kexinit(kex, hostkey):
    """An SSH KEXINIT packet offering kex and hostkey."""
    lists = [kex, hostkey] + ["aes128-ctr"] * 2 + ["hmac-sha2-256"] * 2 + ["none"] * 2 + [""] * 2
    body = b"\x14" + bytes(16) + b"".join(struct.pack("!I", len(x)) + x.encode() for x in lists)
    return _ssh_packet(body + b"\x00" + bytes(4))


def ssh_conn(cport, sport, t, server_s):
    """An SSH key exchange (diffie-hellman-group16-sha512, rsa-sha2-512)
    whose KEXDH_REPLY ends server_s after the KEXDH_INIT's last segment."""
    c = Conn(cport, sport, t)
    c.send(False, b"SSH-2.0-OpenSSH_9.2p1 Debian-2\r\n")
    c.send(True, b"SSH-2.0-OpenSSH_9.2p1 Debian-2\r\n")
    c.send(True, _kexinit("diffie-hellman-group16-sha512,ext-info-c", "rsa-sha2-512"))
    c.send(False, _kexinit("diffie-hellman-group16-sha512", "rsa-sha2-512,rsa-sha2-256"))
    c.send(True, _ssh_packet(b"\x1e" + struct.pack("!I", 513) + b"\x01" * 513))
    t0 = c.t
    reply = _ssh_packet(b"\x1f" + bytes(1800)) + _ssh_packet(b"\x15")
    c.send(False, reply[:1000], dt=server_s / 2)
    c.t = t0 + server_s - 10e-6
    c.send(False, reply[1000:])
    c.send(True, _ssh_packet(b"\x15"), dt=50e-6)
    c.send(True, bytes(64))
    c.close()
    return c.out


def generate(specs, server_us=800):
    """Packets (time, ip) of the connections in specs [(kind, port, count)],
    interleaved by start time, and the list of server times per connection."""
    # Times start near zero (January 1970) so that float sums stay exact to
    # well under a nanosecond.
    pkts, times, t, i = [], [], 1000.0, 0
    for kind, port, count in specs:
        for _ in range(count):
            s = (server_us + i % 97) * 1e-6
            fn = tls_conn if kind == "tls" else ssh_conn
            pkts += fn(20000 + i % 40000, port, t, s)
            times.append((kind, port, s))
            t += 0.004
            i += 1
    pkts.sort(key=lambda p: p[0])
    return pkts, times


def write_pcap(path, pkts):
    """Classic pcap, nanosecond timestamps, raw IPv4 link type (times in
    seconds, or integer nanoseconds)."""
    with open(path, "wb") as f:
        f.write(struct.pack("<IHHiIII", 0xA1B23C4D, 2, 4, 0, 0, 262144, pcapread.LINK_RAW))
        for t, ip in pkts:
            ns = t if isinstance(t, int) else round(t * 1e9)
            f.write(struct.pack("<IIII", ns // 10**9, ns % 10**9, len(ip), len(ip)) + ip)


def write_pcapng(path, pkts, link=pcapread.LINK_RAW):
    """pcapng: one section, one interface with nanosecond resolution, one
    enhanced packet block per packet (times in seconds, or integer
    nanoseconds)."""
    def block(btype, body):
        """A pcapng block of a type around body (padded to 4 bytes)."""
        body += bytes(-len(body) % 4)
        return struct.pack("<II", btype, len(body) + 12) + body + struct.pack("<I", len(body) + 12)
    with open(path, "wb") as f:
        f.write(block(pcapread.PCAPNG_SHB, struct.pack("<IHHq", pcapread.PCAPNG_BOM, 1, 0, -1)))
        opts = struct.pack("<HHB3x", 9, 1, 9) + struct.pack("<HH", 0, 0)
        f.write(block(1, struct.pack("<HHI", link, 0, 262144) + opts))
        for t, frame in pkts:
            ns = t if isinstance(t, int) else round(t * 1e9)
            f.write(block(6, struct.pack("<IIIII", 0, ns >> 32, ns & 0xFFFFFFFF, len(frame),
                                         len(frame)) + frame))


def to_pcapng(src, dst):
    """The packets of a pcap file (first link type) written as pcapng."""
    with open(src, "rb") as f:
        data = f.read()
    pkts, link = [], None
    for ns, lt, frame, _cut in pcapread.frames(data):
        link = lt if link is None else link
        pkts.append((ns, frame))
    write_pcapng(dst, pkts, link if link is not None else pcapread.LINK_RAW)


def damage(src, dst):
    """A corrupt copy of a pcap or pcapng file: the length field of its middle
    packet record (or block) overwritten with an impossible value."""
    with open(src, "rb") as f:
        data = bytearray(f.read())
    offs = []  # offsets of each record's length field
    if bytes(data[:4]) in pcapread.PCAP_MAGICS:
        off, endian = 24, pcapread.PCAP_MAGICS[bytes(data[:4])][0]
        while off + 16 <= len(data):
            offs.append(off + 8)
            off += 16 + struct.unpack_from(endian + "I", data, off + 8)[0]
    else:
        off = 0
        while off + 12 <= len(data):
            offs.append(off + 4)
            off += struct.unpack_from("<I", data, off + 4)[0]
    if len(offs) < 3:
        raise SystemExit("damage: too few records in %s" % src)
    struct.pack_into("<I", data, offs[len(offs) // 2], 0x7FFFFFF3)
    with open(dst, "wb") as f:
        f.write(data)


def main(argv):
    """The command line of the module docstring; returns the exit status."""
    if len(argv) >= 5 and argv[1] == "gen":
        specs = []
        for spec in argv[4:]:
            kind, port, n = spec.split(":")
            specs.append((kind, int(port), int(n)))
        pkts, _ = generate(specs)
        (write_pcap if argv[3] == "pcap" else write_pcapng)(argv[2], pkts)
        return 0
    if len(argv) == 4 and argv[1] in ("topcapng", "damage"):
        (to_pcapng if argv[1] == "topcapng" else damage)(argv[2], argv[3])
        return 0
    print(__doc__.strip(), file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
