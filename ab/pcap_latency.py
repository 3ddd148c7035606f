#!/usr/bin/python3
"""Server-side handshake latency per connection from a capture file (pcap or
pcapng), for the harness-started servers on 127.0.0.1: the measurement of
handshakes.py (the one implementation), keyed by server port.
Usage: pcap_latency.py tls|ssh FILE PORT...  (prints "port start_s latency_us",
"-" for a connection that gave no time)
"""
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import handshakes  # noqa: E402
import pcapread  # noqa: E402


def latencies(kind, path, ports):
    """List of (server_port, start time in nanoseconds, latency_seconds or
    None) per connection to one of ports, in connection order."""
    a = handshakes.analyse(pcapread.map_file(path), [(p, None, p) for p in ports], kind)
    return list(a.connections)


def main(argv):
    """The command line of the module docstring; returns the exit status."""
    if len(argv) < 4 or argv[1] not in ("tls", "ssh"):
        print(__doc__.strip().splitlines()[-2], file=sys.stderr)
        return 2
    for port, t, lat in latencies(argv[1], argv[2], [int(p) for p in argv[3:]]):
        print(port, "%d.%06d" % (t // 10**9, t % 10**9 // 1000),
              "-" if lat is None else "%.1f" % (lat * 1e6))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
