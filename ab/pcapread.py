#!/usr/bin/python3
"""Reader of capture files (pcap and pcapng, either byte order, micro- or
nanosecond or any pcapng resolution) down to TCP segments. Standard library
only. The input is untrusted: every length is checked before it is used, and
a file that is not a capture, is cut short or contradicts itself raises
CaptureError with one sentence; nothing else may escape (tests/fuzz call
tcp_segments on arbitrary bytes)."""
import mmap
import struct

# Link types (tcpdump.org linktypes).
LINK_NULL, LINK_ETHERNET, LINK_RAW, LINK_LOOP = 0, 1, 101, 108
LINK_LINUX_SLL, LINK_IPV4, LINK_IPV6, LINK_LINUX_SLL2 = 113, 228, 229, 276
# A packet record longer than this is corrupt (tcpdump's largest snaplen is 262144).
MAX_RECORD = 1 << 20

# magic -> (byte order, nanoseconds per fraction unit)
PCAP_MAGICS = {b"\xd4\xc3\xb2\xa1": ("<", 1000), b"\xa1\xb2\xc3\xd4": (">", 1000),
               b"\x4d\x3c\xb2\xa1": ("<", 1), b"\xa1\xb2\x3c\x4d": (">", 1)}
PCAPNG_SHB = 0x0A0D0D0A
PCAPNG_BOM = 0x1A2B3C4D


class CaptureError(ValueError):
    """The capture is not readable; the message is one sentence."""


class Segment:
    """One TCP segment: capture time (integer nanoseconds), addresses (bytes), ports, sequence
    number, flags, payload, and cut (the capture holds less than was sent)."""
    __slots__ = ("ts", "src", "sport", "dst", "dport", "seq", "flags", "payload", "cut")

    def __init__(self, ts, src, sport, dst, dport, seq, flags, payload, cut):
        self.ts, self.src, self.sport, self.dst, self.dport = ts, src, sport, dst, dport
        self.seq, self.flags, self.payload, self.cut = seq, flags, payload, cut


def frames(data):
    """Yields (timestamp in integer nanoseconds, linktype, frame bytes, cut)
    for every packet of a pcap or pcapng capture held in data (integers keep
    differences exact whatever the file's resolution); raises CaptureError."""
    if len(data) < 4:
        raise CaptureError("not a capture file (%d bytes)" % len(data))
    if data[:4] in PCAP_MAGICS:
        return _pcap_frames(data)
    if struct.unpack_from("<I", data, 0)[0] == PCAPNG_SHB:
        return _pcapng_frames(data)
    raise CaptureError("not a pcap or pcapng file (unknown magic %s)" % data[:4].hex())


def _pcap_frames(data):
    """Classic pcap records (see frames)."""
    endian, frac = PCAP_MAGICS[data[:4]]
    if len(data) < 24:
        raise CaptureError("truncated pcap file header (%d of 24 bytes)" % len(data))
    snaplen, link = struct.unpack_from(endian + "II", data, 16)
    link &= 0xFFFF  # the upper bits carry FCS information
    limit = max(snaplen, 65535) if snaplen else MAX_RECORD
    rec = struct.Struct(endian + "IIII")
    off, n, size = 24, 0, len(data)
    while off < size:
        n += 1
        if off + 16 > size:
            raise CaptureError("truncated: packet %d's record header is cut short at byte %d"
                               % (n, off))
        sec, sub, incl, orig = rec.unpack_from(data, off)
        if incl > limit or incl > MAX_RECORD or sub * frac >= 1000000000:
            raise CaptureError("corrupt: packet %d at byte %d has an impossible record header "
                               "(captured length %d, snap length %d)" % (n, off, incl, snaplen))
        off += 16
        if off + incl > size:
            raise CaptureError("truncated: packet %d is cut short at byte %d (%d of %d bytes)"
                               % (n, size, size - off, incl))
        yield sec * 1000000000 + sub * frac, link, data[off:off + incl], orig > incl
        off += incl


def _tsresol(opts, endian):
    """(multiplier, divisor) turning an IDB's timestamp units into nanoseconds,
    from its options (if_tsresol, code 9; microseconds by default)."""
    off = 0
    while off + 4 <= len(opts):
        code, olen = struct.unpack_from(endian + "HH", opts, off)
        if code == 0:
            break
        if code == 9 and olen >= 1 and off + 5 <= len(opts):
            v = opts[off + 4]
            if v & 0x80:  # 2^-v seconds
                return 1000000000, 1 << min(v & 0x7F, 64)
            v = min(v, 30)
            return (10 ** (9 - v), 1) if v <= 9 else (1, 10 ** (v - 9))
        off += 4 + ((olen + 3) & ~3)
    return 1000, 1


def _pcapng_frames(data):
    """pcapng blocks: sections, interfaces, enhanced and obsolete packet blocks
    (simple packet blocks carry no time and are skipped); see frames."""
    off, size, endian, ifaces, n = 0, len(data), "<", [], 0
    while off < size:
        if off + 12 > size:
            raise CaptureError("truncated: block header cut short at byte %d" % off)
        btype = struct.unpack_from(endian + "I", data, off)[0]
        if btype == PCAPNG_SHB:
            bom = data[off + 8:off + 12]
            if bom == b"\x4d\x3c\x2b\x1a":
                endian = "<"
            elif bom == b"\x1a\x2b\x3c\x4d":
                endian = ">"
            else:
                raise CaptureError("corrupt: section header at byte %d has no byte-order magic"
                                   % off)
            ifaces = []
        blen = struct.unpack_from(endian + "I", data, off + 4)[0]
        if blen < 12 or blen % 4 or blen > MAX_RECORD + 64:
            raise CaptureError("corrupt: block at byte %d has length %d" % (off, blen))
        if off + blen > size:
            raise CaptureError("truncated: block at byte %d is cut short (%d of %d bytes)"
                               % (off, size - off, blen))
        if struct.unpack_from(endian + "I", data, off + blen - 4)[0] != blen:
            raise CaptureError("corrupt: block at byte %d has mismatched lengths" % off)
        body = data[off + 8:off + blen - 4]
        off += blen
        if btype == 1:  # interface description
            if len(body) < 8:
                raise CaptureError("corrupt: short interface block before byte %d" % off)
            link = struct.unpack_from(endian + "H", body, 0)[0]
            ifaces.append((link, _tsresol(body[8:], endian)))
        elif btype in (6, 2):  # enhanced / obsolete packet block
            n += 1
            if btype == 6:
                if len(body) < 20:
                    raise CaptureError("corrupt: short packet block %d before byte %d" % (n, off))
                iface, hi, lo, cap, orig = struct.unpack_from(endian + "IIIII", body, 0)
            else:
                if len(body) < 20:
                    raise CaptureError("corrupt: short packet block %d before byte %d" % (n, off))
                iface, _drops, hi, lo, cap, orig = struct.unpack_from(endian + "HHIIII", body, 0)
            if iface >= len(ifaces):
                raise CaptureError("corrupt: packet %d names interface %d, %d described"
                                   % (n, iface, len(ifaces)))
            if cap > len(body) - 20:
                raise CaptureError("corrupt: packet %d claims %d bytes in a %d-byte block"
                                   % (n, cap, blen))
            link, (mul, div) = ifaces[iface]
            yield ((hi << 32) | lo) * mul // div, link, body[20:20 + cap], orig > cap


def ip_of_frame(link, frame):
    """The IP packet inside a link-layer frame (bytes), or None when the
    frame carries something else or is too short."""
    if link == LINK_ETHERNET:
        if len(frame) < 14:
            return None
        etype, off = (frame[12] << 8) | frame[13], 14
        while etype in (0x8100, 0x88A8) and len(frame) >= off + 4:  # VLAN tags
            etype, off = (frame[off + 2] << 8) | frame[off + 3], off + 4
        return frame[off:] if etype in (0x0800, 0x86DD) else None
    if link == LINK_LINUX_SLL:
        if len(frame) < 16:
            return None
        return frame[16:] if ((frame[14] << 8) | frame[15]) in (0x0800, 0x86DD) else None
    if link == LINK_LINUX_SLL2:
        if len(frame) < 20:
            return None
        return frame[20:] if ((frame[0] << 8) | frame[1]) in (0x0800, 0x86DD) else None
    if link in (LINK_NULL, LINK_LOOP):  # 4-byte address family, either byte order
        return frame[4:] if len(frame) > 4 else None
    if link in (LINK_RAW, LINK_IPV4, LINK_IPV6, 12, 14):
        return frame
    return None


def tcp_of_ip(ts, ip, cut):
    """A Segment from an IPv4 or IPv6 packet carrying TCP (not fragmented),
    or None. cut: the capture already lost bytes of this packet."""
    n = len(ip)
    if n < 20:
        return None
    version = ip[0] >> 4
    if version == 4:
        ihl = (ip[0] & 15) * 4
        total = (ip[2] << 8) | ip[3]
        if ip[9] != 6 or ihl < 20 or total < ihl or ((ip[6] & 0x3F) | ip[7]):  # MF or offset
            return None
        if total > n:
            cut, total = True, n
        if ihl > total:
            return None
        src, dst, seg = ip[12:16], ip[16:20], ip[ihl:total]
    elif version == 6:
        if n < 40:
            return None
        total = 40 + ((ip[4] << 8) | ip[5])
        if total > n:
            cut, total = True, n
        nxt, off = ip[6], 40
        while nxt in (0, 43, 60) and off + 8 <= total:  # hop-by-hop, routing, destination
            nxt, off = ip[off], off + (ip[off + 1] + 1) * 8
        if nxt != 6 or off > total:
            return None  # a fragment (44) or not TCP
        src, dst, seg = ip[8:24], ip[24:40], ip[off:total]
    else:
        return None
    if len(seg) < 20:
        return None
    doff = (seg[12] >> 4) * 4
    if doff < 20 or doff > len(seg):
        return None
    sport, dport, seq = struct.unpack_from("!HHI", seg, 0)
    return Segment(ts, src, sport, dst, dport, seq, seg[13], seg[doff:], cut)


def map_file(path):
    """The bytes of a capture file, memory-mapped (read-only) so that a large
    capture is paged in as it is read; raises OSError."""
    with open(path, "rb") as f:
        size = os_size(f)
        if size == 0:
            return b""
        return mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)


def os_size(f):
    """Size in bytes of an open file."""
    f.seek(0, 2)
    size = f.tell()
    f.seek(0)
    return size


def iter_tcp_segments(data):
    """Yields every TCP segment of a capture held in data (bytes, or an mmap),
    in file order; raises CaptureError where the file stops being a capture."""
    for ts, link, frame, cut in frames(data):
        ip = ip_of_frame(link, frame)
        if ip is not None:
            s = tcp_of_ip(ts, ip, cut)
            if s is not None:
                yield s


def tcp_segments(data):
    """Every TCP segment of a capture held in data, in file order (a list);
    raises CaptureError for a file that is not a whole capture."""
    return list(iter_tcp_segments(data))
