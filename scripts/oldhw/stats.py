#!/usr/bin/python3
"""Prints a cryptoshim stats file written by a shim of any byte order (the
native `cryptoshim stats` reads only its own): a header line, then
"operation kernel bits calls" rows, tab-separated, like the CLI."""
import struct
import sys

MAGIC = 0x31545343
HEADER, SLOT, NAME = 16, 72, 24


def main(path):
    data = open(path, "rb").read()
    for order in "<>":
        magic, nslots = struct.unpack_from(order + "II", data, 0)
        if magic == MAGIC:
            break
    else:
        sys.exit(f"{path}: not a cryptoshim stats file")
    print("operation\tkernel\tbits\tcalls")
    for i in range(nslots):
        off = HEADER + i * SLOT
        key, calls, bits, ready = struct.unpack_from(order + "QQII", data, off)
        if not key or not ready:
            continue
        op = data[off + 24:off + 24 + NAME].split(b"\0")[0].decode()
        kernel = data[off + 48:off + 48 + NAME].split(b"\0")[0].decode()
        print(f"{op}\t{kernel}\t{bits}\t{calls}")


if __name__ == "__main__":
    main(sys.argv[1])
