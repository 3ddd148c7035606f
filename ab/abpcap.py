#!/usr/bin/python3
"""`cryptoshim ab pcap FILE... --a HOST:PORT --b HOST:PORT`: the A/B report
from captures the operator took (tcpdump -w on the server, pcap or pcapng):
every TLS 1.2/1.3 and SSH handshake with either endpoint, the server's time
on the wire for each (handshakes.py), and the connections not used with
their reason. The same report as a live run, server latency only."""
import collections
import os

import abstats
import endpoint
import handshakes
import pcapread


class NoHandshakes(RuntimeError):
    """An endpoint has no usable handshake in the captures; one sentence."""


def _unused_text(unused, label):
    """"reason N, ..." for one label's unused connections (label None: the
    connections to neither endpoint)."""
    items = [(why, n) for (lab, why), n in unused.items() if lab == label and n]
    order = {r: i for i, r in enumerate(handshakes.REASONS)}
    items.sort(key=lambda x: order.get(x[0], 99))
    return ", ".join("%s %d" % (why, n) for why, n in items) or "none"


def analyse_files(files, eps, kind):
    """(handshakes, unused Counter, segments) over every file; raises
    pcapread.CaptureError with the file named."""
    hs, unused, segs = [], collections.Counter(), 0
    for path in files:
        try:
            data = pcapread.map_file(path)
        except OSError as e:
            raise pcapread.CaptureError("%s: %s" % (path, (e.strerror or str(e)).lower()))
        try:
            a = handshakes.analyse(data, [(ep.label, ep.packed, ep.port) for ep in eps], kind)
        except pcapread.CaptureError as e:
            raise pcapread.CaptureError("%s: %s" % (path, e)) from None
        hs += a.handshakes
        unused.update(a.unused)
        segs += a.segments
    return hs, unused, segs


def run(args, outdir):
    """The pcap report; returns the exit status or raises with one sentence."""
    if not args.files:
        raise RuntimeError("ab pcap needs at least one capture file")
    a = endpoint.resolve("A", args.a, allow_any=True)
    b = endpoint.resolve("B", args.b, allow_any=True)
    endpoint.check_distinct(a, b)
    hs, unused, segs = analyse_files(args.files, (a, b), args.kind)
    kinds = {}
    for ep in (a, b):
        mine = [h for h in hs if h.label == ep.label]
        if not mine:
            raise NoHandshakes("no complete TLS or SSH handshake with %s (%s) in %s (connections "
                               "not used: %s)" % (ep.label, ep.text, ", ".join(args.files),
                                                  _unused_text(unused, ep.label)))
        kinds[ep.label] = collections.Counter(h.kind for h in mine).most_common(1)[0][0]
    if kinds["A"] != kinds["B"]:
        raise RuntimeError("A speaks %s and B %s in the captures: compare the same service"
                           % (kinds["A"].upper(), kinds["B"].upper()))
    kind = kinds["A"]
    per = {s: [h for h in hs if h.label == s and h.kind == kind] for s in "AB"}
    for s in "AB":
        if len(per[s]) < 2:
            raise NoHandshakes("only %d %s handshake with %s in the captures: at least 2 per side "
                               "are needed" % (len(per[s]), kind.upper(), s))
        per[s].sort(key=lambda h: h.start)
    rows = [(s, None, i, "server", h.seconds * 1e6) for s in "AB" for i, h in enumerate(per[s])]
    metrics = {"server": ([h.seconds * 1e6 for h in per["A"]], [h.seconds * 1e6 for h in per["B"]])}
    title = "cryptoshim A/B from captures: A %s and B %s, %s" % (a.text, b.text, kind.upper())
    span = [min(h.start for h in hs), max(h.start for h in hs)]
    notes = ["captures: %s (%d TCP segments, %.1f s of traffic)" % (
                 ", ".join(os.path.basename(p) for p in args.files), segs,
                 (span[1] - span[0]) * 1e-9),
             "server time on the wire, as captured: %s" % (
                 "ClientHello to the server's last record before the client's next flight"
                 if kind == "tls" else "the client's key-exchange init to the server's reply")]
    for s, ep in (("A", a), ("B", b)):
        n_other = sum(1 for h in hs if h.label == s and h.kind != kind)
        notes.append("%s %s: %d %s handshakes%s; not used: %s" % (
            s, ep.text, len(per[s]), kind.upper(),
            " (and %d of the other protocol)" % n_other if n_other else "",
            _unused_text(unused, s)))
        notes.append("%s negotiated: %s" % (s, handshakes.negotiated(per[s], kind)))
    notes.append("connections to neither endpoint (other port or address): %d"
                 % unused.get((None, "other port"), 0))
    return abstats.write_report(outdir, title, metrics, "server", notes, rows, args.seed)
