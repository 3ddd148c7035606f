#!/usr/bin/python3
"""Prints the signature-generation cases of a Wycheproof RSASSA-PKCS1-v1_5
JSON file as lines for rsa_sign_driver: "tcId SHA PKCS8-HEX MSG-HEX SIG-HEX"."""
import json
import sys


def main(path):
    with open(path) as f:
        data = json.load(f)
    for group in data["testGroups"]:
        key = group["privateKeyPkcs8"]
        for t in group["tests"]:
            if t["result"] == "invalid" or not t.get("sig"):
                continue
            print(t["tcId"], group["sha"], key, t["msg"] or "-", t["sig"])


if __name__ == "__main__":
    main(sys.argv[1])
