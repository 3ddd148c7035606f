#!/usr/bin/python3
"""Endpoints given as HOST:PORT (`--a`, `--b`): parsing, name resolution,
the check that A and B differ, the interface that routes to them, and the
capture filter on both. Standard library only (plus `ip route get`)."""
import socket
import subprocess


class BadEndpoint(RuntimeError):
    """An endpoint that cannot be used; the message is one sentence."""


class Endpoint:
    """One side's server: label (A, B), the text given, host, port, and the
    resolved addresses (textual and packed; None for "*": any address,
    which only `ab pcap` accepts)."""

    def __init__(self, label, text, host, port, addrs):
        self.label, self.text, self.host, self.port = label, text, host, port
        self.addrs = addrs  # [(family, "addr")] or None
        self.packed = None if addrs is None else {socket.inet_pton(f, a) for f, a in addrs}

    def connect_addr(self):
        """The address the clients connect to (the first resolved)."""
        return self.addrs[0][1]


def split_hostport(text):
    """(host, port) from HOST:PORT, [IPv6]:PORT or :PORT (host ""); raises
    BadEndpoint."""
    if text.startswith("["):
        host, sep, rest = text[1:].partition("]")
        if not sep or not rest.startswith(":"):
            raise BadEndpoint("%r is not HOST:PORT ([ADDRESS]:PORT for IPv6)" % text)
        port = rest[1:]
    else:
        host, sep, port = text.rpartition(":")
        if not sep:
            raise BadEndpoint("%r is not HOST:PORT" % text)
    if not port.isdigit() or not 0 < int(port) < 65536:
        raise BadEndpoint("%r: the port must be a number from 1 to 65535" % text)
    return host, int(port)


def resolve(label, text, allow_any=False):
    """An Endpoint for `--a`/`--b` TEXT; with allow_any, "*:PORT" or ":PORT"
    matches any address. Raises BadEndpoint for a name that does not resolve."""
    host, port = split_hostport(text)
    if host in ("", "*"):
        if not allow_any:
            raise BadEndpoint("%s %r: name the host (any address, *:PORT, is only for ab pcap)"
                              % (label, text))
        return Endpoint(label, text, host, port, None)
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror as e:
        raise BadEndpoint("%s %s: the host name does not resolve (%s)" % (label, text, e.strerror))
    addrs = []
    for family, _t, _p, _c, sa in infos:
        if family in (socket.AF_INET, socket.AF_INET6) and (family, sa[0]) not in addrs:
            addrs.append((family, sa[0]))
    if not addrs:
        raise BadEndpoint("%s %s: no IPv4 or IPv6 address" % (label, text))
    return Endpoint(label, text, host, port, addrs)


def check_distinct(a, b):
    """Raises BadEndpoint when A and B are the same endpoint (same port and a
    shared address, or either given as any address)."""
    if a.port != b.port:
        return
    if a.packed is None or b.packed is None or a.packed & b.packed:
        raise BadEndpoint("--a %s and --b %s are the same endpoint: give two instances of the "
                          "service on two ports (for an A/A check, two stock instances)"
                          % (a.text, b.text))


def reachable(ep, timeout=5.0):
    """Makes the first of ep's addresses that accepts a TCP connection the one
    the clients use; raises BadEndpoint when none does in time."""
    why = "timed out"
    for i, (family, addr) in enumerate(ep.addrs):
        try:
            with socket.socket(family, socket.SOCK_STREAM) as s:
                s.settimeout(timeout)
                s.connect((addr, ep.port))
        except OSError as e:
            why = e.strerror or str(e) or "timed out"
            continue
        ep.addrs.insert(0, ep.addrs.pop(i))
        return
    raise BadEndpoint("%s (%s) is unreachable: %s" % (ep.label, ep.text, why.lower()))


def interface_to(addr):
    """The interface the kernel routes addr through (`ip route get`), or None."""
    try:
        r = subprocess.run(["ip", "route", "get", addr], stdout=subprocess.PIPE,
                           stderr=subprocess.DEVNULL, text=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired):
        return None
    words = r.stdout.split()
    return words[words.index("dev") + 1] if "dev" in words[:-1] else None


def capture_interface(eps):
    """(interface for tcpdump, why): the one routing to every endpoint, or
    "any" when they differ or the route is unknown."""
    ifs = {interface_to(ep.connect_addr()) for ep in eps}
    if len(ifs) == 1 and None not in ifs:
        return ifs.pop(), "the interface routing to both targets"
    return "any", "all interfaces (the targets route through %s)" % (
        " and ".join(sorted(i or "an unknown interface" for i in ifs)))


def bpf_filter(eps):
    """tcpdump filter: TCP to or from each endpoint's address and port."""
    terms = []
    for ep in eps:
        hosts = " or ".join("host %s" % a for _f, a in ep.addrs)
        terms.append("((%s) and port %d)" % (hosts, ep.port))
    return "tcp and (%s)" % " or ".join(terms)
