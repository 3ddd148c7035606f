#!/usr/bin/python3
"""Prints a Wycheproof DsaVerify file as driver input, one case a line:
tcId, public key DER, message and signature (hex), expected result
(valid / invalid / acceptable)."""
import json
import sys


def main(path):
    with open(path) as f:
        data = json.load(f)
    for group in data["testGroups"]:
        der = group["publicKeyDer"]
        for t in group["tests"]:
            print(t["tcId"], der, t["msg"] or "-", t["sig"] or "-", t["result"])


if __name__ == "__main__":
    main(sys.argv[1])
