#!/usr/bin/python3
"""Mutation fuzzing of the capture reader and handshake analysis
(handshakes.analyse, the entry point for a fuzz target): each round takes a
seed capture, damages it (flipped bytes, a cut, a 16- or 32-bit field set to
an extreme, a repeated or dropped span) and analyses it against endpoints on
every port of the seeds; anything but a result or pcapread.CaptureError is a
finding, written to OUT/crash-N.bin with its traceback on stderr.
Usage: pcap_fuzz.py [-n ROUNDS] [-s SEED] [-o OUT] FILE...
Exit status: 0 without findings, 1 with."""
import argparse
import os
import random
import sys
import traceback

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import handshakes  # noqa: E402
import pcapread  # noqa: E402


def mutate(data, rng):
    """One damaged copy of data (bytes)."""
    d = bytearray(data)
    for _ in range(rng.randrange(1, 6)):
        if not d:
            break
        op, i = rng.randrange(5), rng.randrange(len(d))
        if op == 0:
            d[i] = rng.randrange(256)
        elif op == 1:
            del d[rng.randrange(len(d)):]
        elif op == 2 and i + 4 <= len(d):
            d[i:i + 4] = rng.choice([b"\xff\xff\xff\xff", b"\x00\x00\x00\x00", b"\x7f\xff\xff\xff"])
        elif op == 3 and i + 2 <= len(d):
            d[i:i + 2] = rng.choice([b"\xff\xff", b"\x00\x00", b"\x40\x00"])
        else:
            j = min(len(d), i + rng.randrange(1, 200))
            d[i:i] = d[i:j] if rng.random() < 0.5 else b""
            if rng.random() < 0.5:
                del d[i:j]
    return bytes(d)


def ports_of(seeds):
    """Endpoints (label, None, port) for every TCP port in the seeds."""
    ports = set()
    for data in seeds:
        for s in pcapread.tcp_segments(data):
            ports.update((s.sport, s.dport))
    return [(str(p), None, p) for p in sorted(ports)][:64]


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("files", nargs="+")
    p.add_argument("-n", type=int, default=1000)
    p.add_argument("-s", type=int, default=1)
    p.add_argument("-o", default=".")
    a = p.parse_args(argv)
    seeds = []
    for f in a.files:
        with open(f, "rb") as fh:
            seeds.append(fh.read())
    eps, rng, found = ports_of(seeds), random.Random(a.s), 0
    for i in range(a.n):
        data = mutate(rng.choice(seeds), rng)
        try:
            handshakes.analyse(data, eps)
        except pcapread.CaptureError:
            pass
        except Exception:  # a finding: anything else is a bug
            path = os.path.join(a.o, "crash-%d.bin" % i)
            with open(path, "wb") as fh:
                fh.write(data)
            print("finding %s:" % path, file=sys.stderr)
            traceback.print_exc()
            found += 1
    print("%d rounds, %d findings" % (a.n, found))
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
