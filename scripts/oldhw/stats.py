#!/usr/bin/python3
"""Prints a cryptoshim stats file written by a shim of any byte order: a
header line, then "operation kernel bits calls" rows, tab-separated. The
counters live in a System V shared memory segment named by the file (see
runtime/stats.h); the native `cryptoshim stats` reads segments of either byte
order, so this only runs it ($CS_BUILD/cryptoshim, else build/cryptoshim)."""
import os
import sys


def main(path):
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    cli = os.path.join(os.environ.get("CS_BUILD", os.path.join(root, "build")), "cryptoshim")
    os.execv(cli, [cli, "stats", path])


if __name__ == "__main__":
    main(sys.argv[1])
