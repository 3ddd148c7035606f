#!/usr/bin/python3
"""A minimal SSH client that runs one key exchange up to the server's reply
and stops (no login, no keys needed): identification, KEXINIT, the client's
key-exchange init, the server's KEXDH_REPLY / KEX_ECDH_REPLY /
KEX_DH_GEX_REPLY. Standard library only.

The client's public value is a fixed valid one (it computes no shared
secret): for finite-field groups a number of the group's size that passes
the server's range check, for X25519 the base point, for the NIST curves
their generator, for the hybrid post-quantum methods zero keys beside the
X25519 base point. The server's work (its ephemeral key, the shared secret,
the host key signature) is the same as with any client."""
import os
import socket
import struct
import subprocess
import time

IDENT = b"SSH-2.0-cryptoshim_ab\r\n"
# Bits of the fixed finite-field groups (RFC 3526, RFC 8268).
DH_BITS = {"diffie-hellman-group1-sha1": 1024, "diffie-hellman-group14-sha1": 2048,
           "diffie-hellman-group14-sha256": 2048, "diffie-hellman-group16-sha512": 4096,
           "diffie-hellman-group18-sha512": 8192}
GEX = ("diffie-hellman-group-exchange-sha256", "diffie-hellman-group-exchange-sha1")
X25519_BASE = bytes([9]) + bytes(31)
# Client key sizes of the hybrid methods before their X25519 part.
HYBRID = {"sntrup761x25519-sha512@openssh.com": 1158, "sntrup761x25519-sha512": 1158,
          "mlkem768x25519-sha256": 1184}
NIST = {"ecdh-sha2-nistp256": "prime256v1", "ecdh-sha2-nistp384": "secp384r1",
        "ecdh-sha2-nistp521": "secp521r1"}
_GENERATORS = {}


class KexError(Exception):
    """The server did not complete the key exchange; one sentence."""


def _string(b):
    """SSH string: uint32 length, bytes."""
    return struct.pack("!I", len(b)) + b


def _mpint(n):
    """SSH mpint of a non-negative integer (a leading zero byte when the top
    bit is set)."""
    b = n.to_bytes((n.bit_length() + 8) // 8, "big")
    return _string(b)


def _packet(payload):
    """An unencrypted SSH binary packet (RFC 4253 6) with random padding."""
    pad = 8 - (len(payload) + 5) % 8
    pad += 8 if pad < 4 else 0
    return struct.pack("!IB", len(payload) + pad + 1, pad) + payload + os.urandom(pad)


def kexinit(kex, hostkey):
    """The client's KEXINIT offering exactly kex and hostkey."""
    ciphers = "aes128-ctr,aes256-gcm@openssh.com,chacha20-poly1305@openssh.com"
    lists = [kex, hostkey] + [ciphers] * 2 + ["hmac-sha2-256,hmac-sha2-512"] * 2 + \
        ["none"] * 2 + [""] * 2
    body = b"\x14" + os.urandom(16) + b"".join(_string(x.encode()) for x in lists)
    return _packet(body + b"\x00" + bytes(4))


def _nist_generator(kex, openssl="openssl"):
    """The uncompressed generator point of a NIST curve (from openssl
    ecparam, once per curve)."""
    if kex not in _GENERATORS:
        r = subprocess.run([openssl, "ecparam", "-name", NIST[kex], "-param_enc", "explicit",
                            "-text", "-noout"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                           text=True, timeout=30)
        hexd, on = "", False
        for line in r.stdout.splitlines():
            if line.startswith("Generator"):
                on = True
                continue
            if on:
                if not line.startswith(" "):
                    break
                hexd += line.strip().replace(":", "")
        if not hexd:
            raise KexError("cannot get the %s generator from openssl ecparam" % NIST[kex])
        _GENERATORS[kex] = bytes.fromhex(hexd)
    return _GENERATORS[kex]


def _ff_value(bits):
    """A public value for a finite-field group of this many bits: 1 < e < p-1
    for any such p, with many bits set (OpenSSH's dh_pub_is_valid)."""
    return (1 << (bits - 2)) | int.from_bytes(os.urandom(bits // 8 - 1), "big")


def init_message(kex):
    """The key-exchange init payload for kex, or None for group exchange
    (which asks the server for its group first)."""
    if kex in DH_BITS:
        return b"\x1e" + _mpint(_ff_value(DH_BITS[kex]))
    if kex in ("curve25519-sha256", "curve25519-sha256@libssh.org"):
        return b"\x1e" + _string(X25519_BASE)
    if kex in HYBRID:
        return b"\x1e" + _string(bytes(HYBRID[kex]) + X25519_BASE)
    if kex in NIST:
        return b"\x1e" + _string(_nist_generator(kex))
    if kex in GEX:
        return None
    raise KexError("key exchange %s is not supported by the A/B client (supported: %s)"
                   % (kex, ", ".join(sorted(set(DH_BITS) | set(HYBRID) | set(NIST) | set(GEX) |
                                            {"curve25519-sha256"}))))


class Conn:
    """A socket with a receive buffer and SSH framing."""

    def __init__(self, sock):
        self.sock, self.buf = sock, bytearray()

    def _fill(self):
        """Reads more bytes; KexError when the server closed the connection."""
        d = self.sock.recv(65536)
        if not d:
            raise KexError("the server closed the connection")
        self.buf += d

    def line(self):
        """One identification-phase line (without CR LF)."""
        while b"\n" not in self.buf:
            if len(self.buf) > 8192:
                raise KexError("no SSH identification line (not an SSH server)")
            try:
                self._fill()
            except KexError:
                raise KexError("the server closed the connection without an SSH identification "
                               "line (not an SSH server)") from None
        i = self.buf.index(b"\n")
        out = bytes(self.buf[:i]).rstrip(b"\r")
        del self.buf[:i + 1]
        return out

    def packet(self):
        """(message type, payload) of the next plaintext packet."""
        while len(self.buf) < 5:
            self._fill()
        plen, pad = struct.unpack_from("!IB", self.buf, 0)
        if plen < 5 or plen > 256 * 1024 or pad >= plen:
            raise KexError("malformed SSH packet from the server")
        while len(self.buf) < 4 + plen:
            self._fill()
        payload = bytes(self.buf[5:4 + plen - pad])
        del self.buf[:4 + plen]
        return payload[0], payload


def _server_lists(payload):
    """The server's kex and host key algorithm name-lists from its KEXINIT."""
    out, off = [], 17
    for _ in range(2):
        if off + 4 > len(payload):
            raise KexError("malformed KEXINIT from the server")
        n = struct.unpack_from("!I", payload, off)[0]
        out.append(payload[off + 4:off + 4 + n].decode("ascii", "replace").split(","))
        off += 4 + n
    return out


def _expect(conn, want, what):
    """The next packet's payload, which must be of type want (after any
    IGNORE/DEBUG); DISCONNECT or another type raises KexError."""
    while True:
        mtype, payload = conn.packet()
        if mtype in (2, 4):  # IGNORE, DEBUG
            continue
        if mtype == want:
            return payload
        if mtype == 1:
            reason = ""
            if len(payload) >= 9:
                n = struct.unpack_from("!I", payload, 5)[0]
                reason = payload[9:9 + n].decode("utf-8", "replace")
            raise KexError("the server disconnected during the key exchange%s"
                           % (": " + reason if reason else ""))
        raise KexError("expected %s from the server, got message %d" % (what, mtype))


def one_exchange(host, port, kex, hostkey, timeout=20.0, gex_bits=3072):
    """One key exchange against host:port: returns (microseconds from
    connect() to the whole server reply, local port, server identification).
    Raises KexError or OSError."""
    t0 = time.perf_counter()
    sock = socket.create_connection((host, port), timeout=timeout)
    try:
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        lport = sock.getsockname()[1]
        conn = Conn(sock)
        sock.sendall(IDENT)
        while True:
            line = conn.line()
            if line.startswith(b"SSH-"):
                break
        if not line.startswith(b"SSH-2.0-") and not line.startswith(b"SSH-1.99-"):
            raise KexError("the server speaks %s, not SSH 2" % line[:20].decode("ascii", "replace"))
        sock.sendall(kexinit(kex, hostkey))
        kexs, hostkeys = _server_lists(_expect(conn, 20, "KEXINIT"))
        if kex not in kexs:
            raise KexError("the server does not offer key exchange %s (it offers %s)"
                           % (kex, ",".join(kexs)))
        if hostkey not in hostkeys:
            raise KexError("the server has no %s host key (it offers %s)"
                           % (hostkey, ",".join(hostkeys)))
        init = init_message(kex)
        want = 31
        if init is None:  # group exchange: request a group, answer it
            sock.sendall(_packet(b"\x22" + struct.pack("!III", 2048, gex_bits, 8192)))
            grp = _expect(conn, 31, "KEX_DH_GEX_GROUP")
            n = struct.unpack_from("!I", grp, 1)[0] if len(grp) >= 5 else 0
            pbits = int.from_bytes(grp[5:5 + n], "big").bit_length()
            if pbits < 1024:
                raise KexError("malformed KEX_DH_GEX_GROUP from the server")
            init, want = b"\x20" + _mpint(_ff_value(pbits)), 33
        sock.sendall(_packet(init))
        _expect(conn, want, "the key exchange reply")
        t1 = time.perf_counter()
        try:  # polite end: DISCONNECT (by application), then close
            sock.sendall(_packet(b"\x01" + struct.pack("!I", 11) + _string(b"done") + _string(b"")))
        except OSError:
            pass
        return (t1 - t0) * 1e6, lport, line.decode("ascii", "replace")
    except socket.timeout:
        raise KexError("no answer from the server within %.0f s" % timeout) from None
    finally:
        sock.close()


def main(argv):
    """sshkex.py HOST PORT KEX HOSTKEY [COUNT]: prints "us localport" lines."""
    for _ in range(int(argv[5]) if len(argv) > 5 else 1):
        us, lport, ident = one_exchange(argv[1], int(argv[2]), argv[3], argv[4])
        print("%.1f %d %s" % (us, lport, ident))
    return 0


if __name__ == "__main__":
    import sys
    sys.exit(main(sys.argv))
