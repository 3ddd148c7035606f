#!/usr/bin/python3
"""Where `openssl speed ML-DSA-NN` spends its time with the shim preloaded:
per phase (keygen, sign, verify), the share of cpu-clock samples in the
shim's kernels, in its provider (provider/ and runtime/ code, and the libc
calls they make), in libcrypto on the provider's behalf (its upcalls: the
DRBG, the secure heap), and in libcrypto's own EVP machinery (which stock
OpenSSL runs too).

Usage:
    perf record -e cpu-clock -F 2000 --call-graph dwarf,16384 -o P.data -- \\
        env LD_PRELOAD=build/libcryptoshim.so build/openssl35/bin/openssl speed -seconds 3 ML-DSA-44
    perf script -i P.data -F comm,tid,time,ip,sym,dso > P.txt
    tools/bench/perf_split.py P.txt [BUILD] [--top N]

A sample's phase is the EVP call in its chain (EVP_PKEY_generate, _sign,
_verify), else that of the nearest such sample within 50 ms. Its owner is
the innermost frame outside libc, ld.so and the OS kernel (their time is
their caller's); provider functions are those defined in BUILD/obj/provider
and BUILD/obj/runtime (nm), plus cs_wipe, the provider's wipe."""
import bisect
import collections
import glob
import os
import subprocess
import sys

PHASES = {"EVP_PKEY_generate": "keygen", "EVP_PKEY_keygen": "keygen", "EVP_PKEY_sign": "sign",
          "EVP_PKEY_verify": "verify"}
SYSTEM = ("libc.so", "kallsyms", "ld-linux", "vdso")


def provider_symbols(build):
    """Function names defined by the provider and runtime objects."""
    names = {"cs_wipe"}
    for obj in glob.glob(os.path.join(build, "obj", "provider", "*.o")) + \
            glob.glob(os.path.join(build, "obj", "runtime", "*.o")):
        out = subprocess.run(["nm", obj], stdout=subprocess.PIPE, text=True).stdout
        names.update(f[2] for f in (l.split() for l in out.splitlines())
                     if len(f) == 3 and f[1] in "tTW")
    return names


def read_samples(path):
    """[(time, [(symbol, dso), ...] leaf first)] from perf script output."""
    samples = []
    for block in open(path, errors="replace").read().split("\n\n"):
        lines = [l for l in block.strip().split("\n") if l.strip()]
        if not lines:
            continue
        try:
            t = float(lines[0].split()[-1].rstrip(":"))
        except ValueError:
            continue
        frames = []
        for l in lines[1:]:
            parts = l.strip().split(None, 1)
            if len(parts) == 2:
                sym, _, dso = parts[1].rpartition(" (")
                frames.append((sym, dso.rstrip(")")))
        samples.append((t, frames))
    return samples


def where(dso):
    """Short name of a DSO."""
    for k in ("libcryptoshim", "libcrypto.so") + SYSTEM:
        if k in dso:
            return k
    return "openssl" if dso.endswith("/openssl") else os.path.basename(dso)


def owner(frames, ours):
    """(category, function) of a sample."""
    real = [(s, d) for s, d in frames if d != "inlined"]
    for i, (sym, dso) in enumerate(real):
        w = where(dso)
        if w in SYSTEM:
            continue
        if w == "libcryptoshim":
            return ("provider" if sym in ours else "kernel"), sym
        if w == "libcrypto.so":
            # libcrypto called from the shim (an upcall) before any EVP entry
            for sym2, dso2 in real[i:]:
                if where(dso2) == "libcryptoshim":
                    return "libcrypto for the provider (%s)" % sym2, sym
                if sym2 in PHASES:
                    break
            return "libcrypto (EVP, stock runs it too)", sym
        return w, sym
    return "system only", real[0][0] if real else "?"


def main(argv):
    top = 0
    if "--top" in argv:
        i = argv.index("--top")
        top = int(argv[i + 1])
        argv = argv[:i] + argv[i + 2:]
    if len(argv) < 2:
        sys.exit(__doc__)
    ours = provider_symbols(argv[2] if len(argv) > 2 else "build")
    samples = read_samples(argv[1])
    tags = []
    for _, frames in samples:
        tags.append(next((PHASES[s] for s, _ in frames if s in PHASES), None))
    tagged = sorted((t, p) for (t, _), p in zip(samples, tags) if p)
    times = [t for t, _ in tagged]
    shares = collections.defaultdict(collections.Counter)
    funcs = collections.defaultdict(collections.Counter)
    for (t, frames), p in zip(samples, tags):
        if not p:
            i = bisect.bisect_left(times, t)
            near = [j for j in (i - 1, i) if 0 <= j < len(times) and abs(times[j] - t) < 0.05]
            p = tagged[min(near, key=lambda j: abs(times[j] - t))][1] if near else "other"
        cat, fn = owner(frames, ours)
        shares[p][cat] += 1
        funcs[p]["%s: %s" % (cat, fn)] += 1
    for p in ("keygen", "sign", "verify", "other"):
        n = sum(shares[p].values())
        if not n:
            continue
        print("## %s: %d samples" % (p, n))
        print("| where | samples | share |")
        print("|---|---:|---:|")
        for cat, k in shares[p].most_common():
            print("| %s | %d | %.1f%% |" % (cat, k, 100.0 * k / n))
        for fn, k in funcs[p].most_common(top):
            print("    %5.1f%% %s" % (100.0 * k / n, fn))
        print()


if __name__ == "__main__":
    main(sys.argv)
