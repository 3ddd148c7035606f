#!/usr/bin/env python3
"""Writes the small seed corpus of each fuzz target into tests/fuzz/corpus/NAME
(deterministic: a fixed random seed). Re-run after changing an input format."""
import os
import random
import sys

R = random.Random(20261201)
ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus")


def odd(bits):
    """A random odd number of exactly `bits` bits, as big-endian bytes."""
    x = R.getrandbits(bits) | (1 << (bits - 1)) | 1
    return x.to_bytes((bits + 7) // 8, "big")


def rnd(nbytes):
    return bytes(R.getrandbits(8) for _ in range(nbytes))


def u16(n):
    return n.to_bytes(2, "big")


def mlen(n, top):
    """The 2 bytes fuzz_len (fuzz_bn.h) reads as length n, for maximum top."""
    if n <= top // 4:
        return u16(n)
    return u16(0xE000 + (n - 0xE000) % (top + 1))


def write(name, seeds):
    d = os.path.join(ROOT, name)
    os.makedirs(d, exist_ok=True)
    for f in os.listdir(d):
        os.unlink(os.path.join(d, f))
    for i, s in enumerate(seeds):
        with open(os.path.join(d, "seed-%03d" % i), "wb") as f:
            f.write(s)


def modexp():
    out = []
    for k, bits in enumerate([256, 512, 1024, 1536, 2048, 3072, 4096, 8192]):
        m = odd(bits)
        for p, flags in [(b"\x01\x00\x01", 0), (rnd(16), 0x22), (rnd(12), 0x17), (b"", 0x08)]:
            a = rnd(len(m) - 1)
            out.append(bytes([k, flags, 0]) + mlen(len(m), 1040) + u16(len(p)) + m + p + a)
    return out


def modexp_x2():
    out = []
    for k, bits in enumerate([256, 512, 1024, 1536, 2048, 4096]):
        for flags in (0x10, 0x03, 0x0c):
            half = []
            for last in (0, 1):
                m = odd(bits)
                p = rnd(min(len(m), 16))
                a = rnd(len(m) - 1)
                h = mlen(len(m), 520) + u16(len(p)) + m + p
                h += a if last else bytes([len(a) % 256]) + a[: len(a) % 256]
                half.append(h)
            out.append(bytes([k, flags]) + half[0] + half[1])
    return out


def modexp2():
    out = []
    for k, bits in enumerate([512, 1024, 2048, 3072]):
        for flags in (0x00, 0x80, 0x20, 0x40):
            m = odd(bits)
            p1, p2 = rnd(20), rnd(32)
            a1, a2 = rnd(len(m) - 1), rnd(len(m) - 1)
            out.append(bytes([k, flags, 0]) + mlen(len(m), 528) + u16(len(p1)) + u16(len(p2)) +
                       u16(len(a1)) + m + p1 + p2 + a1 + a2)
    return out


def mldsa():
    out = []
    for ps in range(3):
        ctx = b"\x03abc"
        out.append(bytes([ps, 0]) + rnd(32) + b"\x01" + ctx + b"message")
        out.append(bytes([ps, 1]) + rnd(64))
        out.append(bytes([ps, 2]) + rnd(200))
        out.append(bytes([ps, 3, 2]) + rnd(6) + ctx + b"tampered")
        out.append(bytes([ps, 3, 0]) + b"\x00untouched")
    return out


def policy():
    # First byte: the rule limit (1 + byte % 64) and part of the text.
    return [
        b"@mod_exp 256 2048 portable\n",
        b"\x05# calibrated\nmod_exp 256 4096 x86_64-adx !avx512ifma\n"
        b"mod_exp_consttime 1024 4096 portable !adx,!bmi2\nmod_exp2 768 4096 libcrypto\n",
        b"?mod_exp_consttime_x2 1024 2048 libcrypto\n\n  # comment only\n",
        b"?cpu AuthenticAMD-25-1-avx2,adx\nmeasured 2026-12-01T05:40Z\n"
        b"mod_exp 512 8192 x86_64-mulx\nend\n",
        b"?mod_exp 1 0 portable\n",
        b"?mod_exp 256 2048 portable extra words here\n",
        b"?mod_exp -1 99999999999 portable\n",
        b"?cpu x\nmod_exp 256 512 portable\n",
    ]


def main():
    for name, fn in [("fuzz_modexp", modexp), ("fuzz_modexp_x2", modexp_x2),
                     ("fuzz_modexp2", modexp2), ("fuzz_mldsa", mldsa), ("fuzz_policy", policy)]:
        write(name, fn())
    return 0


if __name__ == "__main__":
    sys.exit(main())
