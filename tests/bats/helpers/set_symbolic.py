#!/usr/bin/env python3
"""set_symbolic.py LIB: sets DF_SYMBOLIC in LIB's DT_FLAGS (64-bit little-endian
ELF, in place), so the dynamic loader binds the library's own references to
its own definitions first, as a library linked -Bsymbolic does (Debian's
OpenSSL 3.6). Lets the tests take the method route on the system OpenSSL 3.0
for real: no preloaded definition reaches the patched library's own calls."""
import struct
import sys

DT_NULL, DT_FLAGS, DF_SYMBOLIC, PT_DYNAMIC = 0, 30, 0x2, 2

def main(path):
    with open(path, "r+b") as f:
        data = bytearray(f.read())
        if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
            sys.exit("not a 64-bit little-endian ELF file")
        phoff, = struct.unpack_from("<Q", data, 0x20)
        phentsize, phnum = struct.unpack_from("<HH", data, 0x36)
        for i in range(phnum):
            off = phoff + i * phentsize
            ptype, = struct.unpack_from("<I", data, off)
            if ptype != PT_DYNAMIC:
                continue
            dynoff, = struct.unpack_from("<Q", data, off + 8)
            pos = dynoff
            while True:
                tag, val = struct.unpack_from("<qQ", data, pos)
                if tag == DT_NULL:
                    sys.exit("no DT_FLAGS entry")
                if tag == DT_FLAGS:
                    struct.pack_into("<qQ", data, pos, tag, val | DF_SYMBOLIC)
                    f.seek(0)
                    f.write(data)
                    return
                pos += 16
        sys.exit("no PT_DYNAMIC")

if __name__ == "__main__":
    main(sys.argv[1])
