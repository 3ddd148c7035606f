#!/usr/bin/env python3
"""Writes the small seed corpus of each fuzz target into tests/fuzz/corpus/NAME
(deterministic: a fixed random seed), replacing the seed-* files only (the rest
are inputs campaigns merged in). Re-run after changing an input format."""
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


def inverse(n, fn):
    """The 2 bytes whose value v (0..65535, smallest first) gives fn(v) == n."""
    for v in range(65536):
        if fn(v) == n:
            return u16(v)
    raise ValueError(n)


def mlen(n, top):
    """The 2 bytes fuzz_len (fuzz_bn.h) reads as length n, for maximum top."""
    def fuzz_len(v):
        c = v >> 13
        lim = min(top, 80) if c < 4 else top // 8 if c < 6 else top // 4 if c < 7 else top
        return v % (lim + 1)
    return inverse(n, fuzz_len)


def elen(n, m, cap):
    """The 2 bytes fuzz_exp_len (fuzz_bn.h) reads as length n for a modulus of
    m bytes and the target's cap."""
    def fuzz_exp_len(v):
        c = cap
        if v >> 13 != 7:
            budget = 64 * 64 * 96 // (max(m, 1) ** 2)
            c = 2 if budget < 2 else min(budget, cap)
        return v % (c + 1)
    return inverse(n, fuzz_exp_len)


def write(name, seeds):
    d = os.path.join(ROOT, name)
    os.makedirs(d, exist_ok=True)
    # only the seeds: the inputs campaigns merged in stay
    for f in os.listdir(d):
        if f.startswith("seed-"):
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
            cap = 16 if len(m) > 512 else 64 if len(m) > 256 else len(m) + 16
            out.append(bytes([k, flags, 0]) + mlen(len(m), 1040) + elen(len(p), len(m), cap) +
                       m + p + a)
    # Long exponents at small moduli: the largest windows, cheaply.
    for k, bits in enumerate([264, 576, 640]):
        m = odd(bits)
        p = rnd(len(m) + 16)
        out.append(bytes([k + 1, 0x20 if k else 0, 0]) + mlen(len(m), 1040) +
                   elen(len(p), len(m), len(m) + 16) + m + p + rnd(len(m) - 1))
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
                cap = 16 if len(m) > 256 else 64 if len(m) > 128 else len(m) + 16
                h = mlen(len(m), 520) + elen(len(p), len(m), cap) + m + p
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
            cap = 32 if len(m) > 256 else len(m) + 16
            out.append(bytes([k, flags, 0]) + mlen(len(m), 528) + elen(len(p1), len(m), cap) +
                       elen(len(p2), len(m), cap) + u16(len(a1)) + m + p1 + p2 + a1 + a2)
    return out


def mldsa():
    out = []
    # First byte: parameter set (0/1: ML-DSA-44, 2: 65, 3: 87) in bits 0-1, the
    # implementation compared with portable in bits 2-7 (both used here).
    for ps in (0, 2, 3):
        ctx = b"\x03abc"
        for impl in (0, 1):
            sel = ps | impl << 2
            out.append(bytes([sel, 0]) + rnd(32) + b"\x01" + ctx + b"message")
            out.append(bytes([sel, 1]) + rnd(64))
            out.append(bytes([sel, 2]) + rnd(200))
            out.append(bytes([sel, 3, 2]) + rnd(6) + ctx + b"tampered")
            out.append(bytes([sel, 3, 0]) + b"\x00untouched")
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


def ed25519():
    """fuzz_ed25519 (tests/fuzz/fuzz_ed25519.c): keys and signatures (mode 0,
    plain and with a context), arbitrary verification (mode 1), edited valid
    signatures (mode 2: xor, set, S + L, y >= p, small-order edits)."""
    seeds = []
    for impl in range(2):
        seeds.append(bytes([0, impl]) + rnd(32) + bytes([0]) + rnd(R.randrange(0, 200)))
        seeds.append(bytes([0, impl]) + rnd(32) + bytes([7]) + rnd(3) + rnd(40))
        seeds.append(bytes([1, impl]) + rnd(96) + rnd(R.randrange(0, 64)))
        for kind in range(5):
            edits = bytes([R.randrange(96), R.getrandbits(8), kind])
            seeds.append(bytes([2, impl]) + rnd(32) + bytes([1]) + edits + rnd(20))
        seeds.append(bytes([2, impl]) + rnd(32) + bytes([0]) + rnd(R.randrange(0, 300)))
    return seeds


def x25519():
    """fuzz_x25519 (tests/fuzz/fuzz_x25519.c): mode byte (peer as given,
    u >= p, low order, word edges; bit 6 x25519_base, bits 4-5 clear for
    libcrypto), scalar, peer."""
    seeds = []
    for mode in (0x00, 0x01, 0x81, 0x02, 0x82, 0x03, 0x40, 0x10):
        seeds.append(bytes([mode]) + rnd(32) + rnd(32))
    seeds.append(bytes([0x02]) + rnd(32) + bytes([3]) + rnd(31))
    seeds.append(bytes([0x03]) + rnd(32) + bytes([0xa5]) + rnd(31))
    return seeds


def main():
    for name, fn in [("fuzz_modexp", modexp), ("fuzz_modexp_x2", modexp_x2),
                     ("fuzz_modexp2", modexp2), ("fuzz_mldsa", mldsa), ("fuzz_policy", policy),
                     ("fuzz_ed25519", ed25519), ("fuzz_x25519", x25519)]:
        write(name, fn())
    return 0


if __name__ == "__main__":
    sys.exit(main())
