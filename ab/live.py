#!/usr/bin/python3
"""`cryptoshim ab tls|ssh --a HOST:PORT --b HOST:PORT`: A/B handshake latency
of two servers that are already running (typically the same service twice,
one instance with the shim preloaded). The harness starts no server.

Handshakes alternate between A and B in blocks as in the harness-started
run. Client latency: ab-tls-client (connect to handshake complete) or the
key-exchange client of sshkex.py (connect to the server's KEX reply, no
login). Server latency from the wire: tcpdump on the interface that routes
to the targets with a filter on both endpoints, each connection paired to
its sample by the client's port. When the capture cannot start (not root,
no tcpdump, tcpdump fails) the client latency decides and the report says
why."""
import os
import shutil
import socket
import subprocess
import sys
import time

import abstats
import capture
import endpoint
import handshakes
import listener
import load
import loadreport
import pcapread
import servers
import sshkex


class TargetError(RuntimeError):
    """A target that does not answer as the mode needs; one sentence."""


def _tls_cmd(args, client, ep):
    """The ab-tls-client command line (prefix, argv, extra environment) for
    one endpoint, without the count."""
    prefix, extra = servers.unpacked_openssl(args.openssl)
    opts = ["--tls", args.tls, "--ports", "1"]
    sni = args.sni if args.sni is not None else ("" if _is_address(ep.host) else ep.host)
    opts += ["--sni", sni]
    for flag, val in (("--groups", args.groups), ("--ciphers", args.ciphers),
                      ("--ciphersuites", args.ciphersuites), ("--cafile", args.cafile),
                      ("--verify-name", args.verify_name), ("--cert", args.client_cert),
                      ("--key", args.client_key)):
        if val:
            opts += [flag, val]
    if args.verify and not args.cafile:
        opts += ["--default-ca", "1"]
    if (args.cafile or args.verify) and not sni and not args.verify_name:
        opts += ["--verify-name", ep.host]
    return prefix + [client, ep.connect_addr(), str(ep.port)], opts, extra


def _is_address(host):
    """True when host is an IPv4 or IPv6 literal."""
    for fam in (socket.AF_INET, socket.AF_INET6):
        try:
            socket.inet_pton(fam, host)
            return True
        except OSError:
            pass
    return False


def tls_block(args, client, ep, count, env, negotiated):
    """count TLS handshakes with ep; list of (us, local port). Raises
    TargetError with the client's reason when one fails."""
    head, opts, extra = _tls_cmd(args, client, ep)
    r = subprocess.run(head + [str(count)] + opts, env=dict(env, **extra), stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True, timeout=60 + 10 * count)
    if r.returncode != 0:
        why = [ln for ln in r.stderr.splitlines()
               if ln.startswith(("handshake failed", "certificate verification failed", "connect",
                                 "bad value", "bad host"))]
        why = [w[len("handshake failed: "):] if w.startswith("handshake failed: ") else w
               for w in dict.fromkeys(why)]
        raise TargetError("TLS handshake with %s (%s) failed: %s" % (
            ep.label, ep.text, "; ".join(why) or " ".join(r.stderr.split())[:200]))
    for line in r.stderr.splitlines():
        if line.startswith("negotiated: "):
            negotiated[ep.label] = line[len("negotiated: "):]
    out = []
    for line in r.stdout.splitlines():
        us, port = line.split()
        out.append((float(us), int(port)))
    return out


def ssh_block(args, ep, count, negotiated):
    """count SSH key exchanges with ep; list of (us, local port)."""
    out = []
    for _ in range(count):
        try:
            us, lport, ident = sshkex.one_exchange(ep.connect_addr(), ep.port, args.ssh_kex,
                                                   args.hostkey_alg)
        except sshkex.KexError as e:
            raise TargetError("SSH key exchange with %s (%s) failed: %s" % (ep.label, ep.text, e))
        except OSError as e:
            raise TargetError("SSH key exchange with %s (%s) failed: %s" % (
                ep.label, ep.text, (e.strerror or str(e)).lower()))
        negotiated[ep.label] = "%s, %s %s" % (ident, args.ssh_kex, args.hostkey_alg)
        out.append((us, lport))
    return out


def sniff_banner(ep, timeout=0.5):
    """What the server sends first without being asked (SSH servers send
    their identification line; TLS servers send nothing), b"" if nothing."""
    try:
        with socket.create_connection((ep.connect_addr(), ep.port), timeout=5) as s:
            s.settimeout(timeout)
            try:
                return s.recv(64)
            except socket.timeout:
                return b""
    except OSError:
        return b""


def start_capture(args, eps, outdir, env):
    """(Capture or None, notes): tcpdump on the interface routing to the
    targets; None with the reason when it cannot start."""
    if args.tcpdump and "/" in args.tcpdump:
        tcpdump = args.tcpdump if os.access(args.tcpdump, os.X_OK) else None
    else:
        tcpdump = shutil.which(args.tcpdump or "tcpdump")
    why = None
    if args.no_capture:
        why = "--no-capture"
    elif os.geteuid() != 0:
        why = "not root (tcpdump needs root to capture)"
    elif not tcpdump:
        why = "tcpdump is not installed (Debian package tcpdump)"
    if why:
        return None, why
    iface, where = (args.interface, "the interface given (--interface)") if args.interface \
        else endpoint.capture_interface(eps)
    flt = endpoint.bpf_filter(eps)
    cap = capture.Capture(os.path.join(outdir, "capture.pcap"), tcpdump, env, iface, flt)
    try:
        cap.start()
    except RuntimeError as e:
        return None, str(e)
    return cap, "tcpdump on %s, %s, filter `%s`" % (iface, where, flt)


def remote_any(eps):
    """True when an endpoint is not an address of this machine's loopback."""
    for ep in eps:
        try:
            load.check_loopback(ep.label, ep.connect_addr())
        except load.LoadError:
            return True
    return False


def pair_server_times(analysis, samples):
    """Server times (us) per side in sample order, each connection paired to
    its client sample by the client's local port; [None] where unpaired."""
    by_key = {}
    for h in analysis.handshakes:
        by_key.setdefault((h.label, h.cport), []).append(h)
    out = {}
    for side, rows in samples.items():
        out[side] = []
        for _blk, _us, port in rows:
            q = by_key.get((side, port))
            out[side].append(q.pop(0).seconds * 1e6 if q else None)
    return out


def run(args, outdir):
    """The run proper against args.a and args.b; returns the exit status or
    raises (BadEndpoint, TargetError, RuntimeError) with one sentence."""
    a = endpoint.resolve("A", args.a)
    b = endpoint.resolve("B", args.b)
    endpoint.check_distinct(a, b)
    eps = (a, b)
    if args.load:
        args.levels = load.plan(args)  # refused before any handshake
        for ep in eps:
            load.check_loopback("%s (%s)" % (ep.label, ep.text), ep.connect_addr())
    # The servers' CPU: from their PIDs (given, or the listener of the port)
    # when /proc shows them; a PID given that cannot be used is an error.
    meters = {ep.label: load.meter_for(ep.label, ep.port,
                                       getattr(args, "%s_pid" % ep.label.lower()))
              for ep in eps} if not remote_any(eps) else {ep.label: (None, "remote")
                                                         for ep in eps}
    for ep in eps:
        endpoint.reachable(ep)
    remote = any(endpoint.interface_to(ep.connect_addr()) != "lo" for ep in eps)
    for ep in eps:
        first = sniff_banner(ep)
        if args.mode == "tls" and first.startswith(b"SSH-"):
            raise TargetError("%s (%s) is an SSH server, not TLS (it sent %r)" % (
                ep.label, ep.text, first.split(b"\r")[0][:40].decode("ascii", "replace")))
        if args.mode == "ssh" and first and not first.startswith(b"SSH-"):
            raise TargetError("%s (%s) is not an SSH server (it sent %r first)" % (
                ep.label, ep.text, first[:20]))
    env = {k: v for k, v in os.environ.items() if k not in ("LD_PRELOAD",)
           and not k.startswith("CRYPTOSHIM_")}
    env["CS_AB_RUN"] = outdir
    negotiated = {}
    if args.load:
        return run_load(args, outdir, eps, env, negotiated, meters)
    if args.mode == "tls":
        client = args.client_path
        do = lambda ep, n: tls_block(args, client, ep, n, env, negotiated)
    else:
        do = lambda ep, n: ssh_block(args, ep, n, negotiated)
    # Warm-up (not recorded), which also proves each target speaks the
    # protocol with these options before anything is captured.
    for ep in eps:
        do(ep, 1)
    cap, cap_note = start_capture(args, eps, outdir, env)
    if cap is None:
        print("cryptoshim ab: no capture (%s): client-side latency only" % cap_note,
              file=sys.stderr)
    print("cryptoshim ab: A %s, B %s; %d handshakes each" % (a.text, b.text, args.handshakes),
          file=sys.stderr)
    samples = {"A": [], "B": []}  # (block, us, local port)
    cpu = {s: [] for s in "AB" if meters[s][0]}  # (block, server CPU s, handshakes)
    counters = []
    try:
        nblocks = (args.handshakes + args.block - 1) // args.block
        t_start = time.monotonic()
        for i in range(nblocks):
            k = min(args.block, args.handshakes - i * args.block)
            for ep in (eps if i % 2 == 0 else eps[::-1]):
                m = meters[ep.label][0]
                c0 = m.read() if m else None
                samples[ep.label] += [(i, us, port) for us, port in do(ep, k)]
                if m:
                    cpu[ep.label].append((i, m.read() - c0, k))
        elapsed = time.monotonic() - t_start
    finally:
        if cap:
            counters = cap.stop()
    server = {"A": [], "B": []}
    unused, on_wire = None, {}
    if cap:
        an = handshakes.analyse(pcapread.map_file(cap.path),
                                [(ep.label, ep.packed, ep.port) for ep in eps], args.mode)
        server = pair_server_times(an, samples)
        unused = an.unused
        on_wire = {s: handshakes.negotiated([h for h in an.handshakes if h.label == s], args.mode)
                   for s in "AB"}
    rows = []
    for side in "AB":
        for idx, (blk, us, _port) in enumerate(samples[side]):
            rows.append((side, blk, idx, "client", us))
        for idx, us in enumerate(server[side]):
            if us is not None:
                rows.append((side, samples[side][idx][0], idx, "server", us))
    metrics = {}
    srv = {s: [u for u in server[s] if u is not None] for s in "AB"}
    if srv["A"] and srv["B"]:
        metrics["server"] = (srv["A"], srv["B"])
    metrics["client"] = ([u for _, u, _ in samples["A"]], [u for _, u, _ in samples["B"]])
    enough = min(len(srv["A"]), len(srv["B"])) >= max(2, int(0.8 * args.handshakes))
    primary = args.metric or ("server" if enough else "client")
    if primary not in metrics:
        raise RuntimeError("no %s-side samples (the capture paired no handshake)" % primary)
    what = "TLS %s" % args.tls if args.mode == "tls" else "SSH %s, %s" % (args.ssh_kex,
                                                                           args.hostkey_alg)
    title = "cryptoshim A/B: running endpoints A %s and B %s, %s" % (a.text, b.text, what)
    notes = ["running endpoints (the harness started no server): A %s (%s), B %s (%s)" % (
                 a.text, ", ".join(x for _f, x in a.addrs),
                 b.text, ", ".join(x for _f, x in b.addrs)),
             "%d handshakes per side in blocks of %d, alternating (A B, B A, ...), %.1f s"
             % (args.handshakes, args.block, elapsed),
             "client: %s" % ("ab-tls-client (connect to handshake complete, full handshakes)"
                             if args.mode == "tls" else
                             "sshkex.py key exchange, connect to the server's KEX reply "
                             "(no login)"),
             ]
    for ep in eps:
        who = listener.describe(ep.port) if not remote else None
        notes.append("%s's server: %s" % (ep.label, who or "not visible from here (remote, or "
                                          "another user's process)"))
        m, why = meters[ep.label]
        notes.append("%s's server CPU: %s" % (ep.label, m.how if m else "not measured (%s)" % why))
    notes += ["negotiated with %s: %s" % (s, negotiated[s]) for s in "AB" if s in negotiated]
    if getattr(args, "openssl_note", None):
        notes.append(args.openssl_note)
    if cap:
        notes.append("capture: %s" % cap_note)
        notes.append("server latency on the wire %s" % (
            "at this machine's NIC: network round trips are included, the same for A and B"
            if remote else "on this machine (loopback or a local address)"))
        notes.append("tcpdump: " + "; ".join(counters))
        notes += ["on the wire, %s negotiated: %s" % (s, on_wire[s]) for s in "AB"]
        notes.append("server-side samples A %d, B %d (of %d each)" % (
            len(srv["A"]), len(srv["B"]), args.handshakes))
        if unused and any(unused.values()):
            notes.append("connections not used: " + "; ".join(
                "%s %s %d" % (lab or "-", why, n) for (lab, why), n in sorted(
                    unused.items(), key=lambda kv: (kv[0][0] or "", kv[0][1])) if n))
        if primary == "client":
            notes.append("client latency decides (--metric)" if args.metric else
                         "client latency decides: fewer than 80% of the handshakes were "
                         "measured on the wire")
    else:
        notes.append("no capture (%s): client-side latency only" % cap_note)
    return abstats.write_report(outdir, title, metrics, primary, notes, rows, args.seed,
                                loadreport.cpu_section(cpu))


def run_load(args, outdir, eps, env, negotiated, found):
    """The run under load against the two endpoints (loopback only, checked
    by the caller), found {side: load.meter_for()} the server CPU meter of
    each (its PID given or the process listening on its port); blocks
    alternate A and B per level. Returns the exit status."""
    meters, why = {}, {}
    for ep in eps:
        m, reason = found[ep.label]
        if m:
            meters[ep.label] = m
        else:
            why[ep.label] = reason
            print("cryptoshim ab: %s: server CPU not measured: %s" % (ep.label, reason),
                  file=sys.stderr)
    by = {ep.label: ep for ep in eps}
    if args.mode == "tls":
        def cmd(side):
            head, opts, extra = _tls_cmd(args, args.client_path, by[side])
            return head, opts, extra
        runner = load.TlsLoad(cmd, lambda side: env, negotiated)
    else:
        runner = load.SshLoad(lambda side: by[side].connect_addr(), args.ssh_kex,
                              args.hostkey_alg, negotiated)
    port = {ep.label: ep.port for ep in eps}
    print("cryptoshim ab: A %s, B %s under load: %d rounds of %g s blocks per level" % (
        eps[0].text, eps[1].text, args.rounds, args.block_seconds), file=sys.stderr)
    t0 = time.monotonic()
    blocks, levels = load.run_blocks(args, args.levels, runner, meters, port)
    elapsed = time.monotonic() - t0
    what = "TLS %s" % args.tls if args.mode == "tls" else "SSH %s, %s" % (args.ssh_kex,
                                                                           args.hostkey_alg)
    title = "cryptoshim A/B under load: running endpoints A %s and B %s, %s" % (
        eps[0].text, eps[1].text, what)
    notes = ["running endpoints (the harness started no server): A %s, B %s" % (
                 eps[0].text, eps[1].text),
             "%d rounds per level, each a %g s block of A and of B, alternating (A B, B A, "
             "...), %.1f s in all" % (args.rounds, args.block_seconds, elapsed),
             "load client: %s" % ("ab-tls-client's load loop (one thread, non-blocking sockets)"
                                  if args.mode == "tls" else
                                  "sshkex.py key exchanges on threads (no login)")]
    for ep in eps:
        m = meters.get(ep.label)
        notes.append("%s's server CPU: %s" % (ep.label, m.how if m else
                                               "not measured (%s)" % why[ep.label]))
        notes.append("%s's server: %s" % (ep.label, listener.describe(ep.port) or
                                          "not visible from here"))
    notes += ["negotiated with %s: %s" % (s, negotiated[s]) for s in "AB" if s in negotiated]
    if getattr(args, "openssl_note", None):
        notes.append(args.openssl_note)
    notes.append(loadreport.machine_note())
    return loadreport.write(outdir, title, blocks, levels, notes, args.metric)
