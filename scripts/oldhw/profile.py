#!/usr/bin/python3
"""Names the functions a QEMU plugin profile's instructions went to.

Usage: profile.py [--top K | --summary] PROFILE [BASE N]

PROFILE (and BASE) are written by insn_count.so's profile= option: lines
"OBJECT<TAB>FILE-OFFSET<TAB>INSNS", one per translated block that ran. With
BASE and N, prints (PROFILE - BASE) / N per function: the instructions of one
operation when BASE is the same program doing the set-up only. Prints
"insns share object function" rows, largest first, then the Keccak share;
with --summary only "TOTAL KECCAK" (instructions per operation).

Function names come from the object's symbol table (.symtab, else the
dynamic one) through the cross binutils (s390x-linux-gnu-nm, -readelf);
blocks outside every symbol are attributed to the call-frame (FDE) range
holding them, named "object+0xSTART" (a static function of a stripped
library, such as Debian's libcrypto). OpenSSL's s390x Keccak assembly has
neither symbols nor call-frame entries in that library: the range without
FDEs that holds its round-constant table (the 24 iotas, big-endian) is named
"[Keccak-f1600 asm: KeccakF1600, SHA3_absorb, SHA3_squeeze]". Unnamed
functions that load the address of ML-DSA's NTT twiddle table (its zetas,
big-endian 32-bit, found by their values; `larl` in the disassembly) are
marked "[uses the ML-DSA zetas]" in the printed rows. The Keccak
share counts that range and, in objects with symbols, functions whose names
contain keccak, shake or sha3 (and the shim's pair_in4, the two-lane
vector Keccak rounds of kernels/keccak/x2.c, a static function).
"""
import bisect
import collections
import os
import re
import struct
import subprocess
import sys

TOOLS = os.environ.get("CROSS_PREFIX", "s390x-linux-gnu-")
KECCAK_RC = [0x0000000000000001, 0x0000000000008082, 0x800000000000808A, 0x8000000080008000,
             0x000000000000808B, 0x0000000080000001]
# zetas[1..5] (zetas[0] is not used and differs between implementations).
MLDSA_ZETAS = [25847, 8380417 - 2608894, 8380417 - 518909, 237124, 8380417 - 777960]
KECCAK_NAME = "[Keccak-f1600 asm: KeccakF1600, SHA3_absorb, SHA3_squeeze]"
KECCAK_RE = re.compile(r"keccak|shake|sha3|^pair_in4$", re.I)


def run(*args):
    return subprocess.run(args, capture_output=True, text=True, check=False).stdout


class Obj:
    """An ELF object's file-offset -> function-name map."""

    def __init__(self, path):
        self.path = path
        self.short = os.path.basename(path)
        self.loads = []  # (offset, vaddr, filesz)
        for m in re.finditer(r"^\s*LOAD\s+0x([0-9a-f]+)\s+0x([0-9a-f]+)\s+0x[0-9a-f]+\s+0x([0-9a-f]+)",
                             run(TOOLS + "readelf", "-lW", path), re.M):
            self.loads.append(tuple(int(x, 16) for x in m.groups()))
        ranges = []  # (start, end, name)
        syms = run(TOOLS + "nm", "-S", "--defined-only", path)
        if "no symbols" in syms or not syms.strip():
            syms = run(TOOLS + "nm", "-D", "-S", "--defined-only", path)
        for line in syms.splitlines():
            f = line.split()
            if len(f) == 4 and f[2] in "tTwWiI":
                start, size = int(f[0], 16), int(f[1], 16)
                if size:
                    ranges.append((start, start + size, re.sub(r"@.*", "", f[3])))
        named = sorted(ranges)
        fdes = [(int(a, 16), int(b, 16)) for a, b in
                re.findall(r"pc=([0-9a-f]+)\.\.([0-9a-f]+)",
                           run(TOOLS + "readelf", "--debug-dump=frames", path))]
        fdes.sort()
        starts = [r[0] for r in named]
        for a, b in fdes:
            i = bisect.bisect_right(starts, a) - 1
            if i >= 0 and named[i][0] <= a < named[i][1]:
                continue
            ranges.append((a, b, "%s+0x%x" % (self.short, a)))
        # The Keccak assembly: the gap between call-frame ranges holding the
        # round constants.
        self.keccak = None
        data = open(path, "rb").read()
        at = data.find(b"".join(struct.pack(">Q", x) for x in KECCAK_RC))
        if at >= 0 and fdes:
            va = self.vaddr(at)
            lo = max([b for a, b in fdes if b <= va] or [0])
            hi = min([a for a, b in fdes if a > va] or [va + 0x1000])
            self.keccak = (lo, hi)
        self.ranges = sorted(ranges)
        self.starts = [r[0] for r in self.ranges]
        self.zetas = None
        at = data.find(b"".join(struct.pack(">I", x) for x in MLDSA_ZETAS))
        if at >= 0:
            self.zetas = (self.vaddr(at) - 4, self.vaddr(at) + 255 * 4)

    def describe(self, name):
        """name, marked if the unnamed function it names loads the zetas."""
        m = re.match(r".*\+0x([0-9a-f]+)$", name)
        if not m or not self.zetas:
            return name
        start = int(m.group(1), 16)
        i = bisect.bisect_right(self.starts, start) - 1
        end = self.ranges[i][1] if i >= 0 and self.ranges[i][0] == start else start + 0x400
        dis = run(TOOLS + "objdump", "-d", "--start-address=%#x" % start,
                  "--stop-address=%#x" % end, self.path)
        for t in re.findall(r"larl\s+%r\d+,([0-9a-f]+)", dis):
            if self.zetas[0] <= int(t, 16) < self.zetas[1]:
                return name + " [uses the ML-DSA zetas]"
        return name

    def vaddr(self, off):
        for o, v, n in self.loads:
            if o <= off < o + n:
                return off - o + v
        return off

    def name(self, off):
        va = self.vaddr(off)
        if self.keccak and self.keccak[0] <= va < self.keccak[1]:
            return KECCAK_NAME
        i = bisect.bisect_right(self.starts, va) - 1
        # Nested or overlapping ranges: the innermost one holding va.
        best = None
        while i >= 0 and i >= bisect.bisect_right(self.starts, va) - 64:
            s, e, n = self.ranges[i]
            if s <= va < e and (best is None or e - s < best[1] - best[0]):
                best = (s, e, n)
            i -= 1
        return best[2] if best else "%s(no symbol)" % self.short


def load(path, objs):
    out = collections.Counter()
    for line in open(path):
        p, off, n = line.rstrip("\n").split("\t")
        if p == "?":
            out[("(anonymous)", "?")] += int(n)
            continue
        if p not in objs:
            objs[p] = Obj(p)
        o = objs[p]
        out[(o.short, o.name(int(off, 16)))] += int(n)
    return out


def main(argv):
    top, summary = 20, False
    if len(argv) > 2 and argv[1] == "--top":
        top = int(argv[2])
        argv = argv[:1] + argv[3:]
    elif len(argv) > 1 and argv[1] == "--summary":
        summary = True
        argv = argv[:1] + argv[2:]
    objs = {}
    prof = load(argv[1], objs)
    by_short = {o.short: o for o in objs.values()}
    n = 1
    if len(argv) > 3:
        base = load(argv[2], objs)
        n = int(argv[3])
        prof.subtract(base)
    total = sum(prof.values())
    keccak = sum(v for (obj, fn), v in prof.items() if fn == KECCAK_NAME or KECCAK_RE.search(fn))
    if summary:
        print("%.0f %.0f" % (total / n, keccak / n))
        return
    rows = sorted(prof.items(), key=lambda kv: -kv[1])
    for (obj, fn), v in rows[:top]:
        if obj in by_short:
            fn = by_short[obj].describe(fn)
        print("%12.0f %5.1f%%  %-22s %s" % (v / n, 100.0 * v / total, obj, fn))
    print("%12.0f %5.1f%%  total per operation; Keccak %.0f (%.1f%%)" %
          (total / n, 100.0, keccak / n, 100.0 * keccak / total if total else 0))


if __name__ == "__main__":
    main(sys.argv)
