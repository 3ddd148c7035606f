#!/usr/bin/env python3
"""Wycheproof x25519_test.json and ed25519_test.json (tests/vectors/wycheproof)
as lines for tests/bats/helpers/c25519_driver (group "vectors"):
"x ID PRIVATE PUBLIC" and "e ID PK MSG SIG" ("-" for an empty message, "00"
for an empty signature). Usage: wycheproof_c25519_lines.py VECTORS_DIR"""
import json
import sys

base = sys.argv[1] + "/wycheproof/"
with open(base + "x25519_test.json") as f:
    for group in json.load(f)["testGroups"]:
        for t in group["tests"]:
            print("x", t["tcId"], t["private"], t["public"])
with open(base + "ed25519_test.json") as f:
    for group in json.load(f)["testGroups"]:
        pk = group["publicKey"]["pk"]
        for t in group["tests"]:
            print("e", t["tcId"], pk, t["msg"] or "-", t["sig"] or "00")
