#!/usr/bin/python3
"""cryptoshim ab tls|nginx|ssh [options]: A/B handshake latency of one server
binary and configuration run without the shim (A) and with it (B).

Both servers run side by side on 127.0.0.1; handshakes alternate between them
in small blocks (A B, then B A, ...) so drift hits both. Client-side latency
comes from ab-tls-client (connect to handshake complete) or timed `ssh`
logins; server-side latency from a tcpdump capture on loopback. The report
(report.md, samples.csv, plot.png, plot.svg) goes to --out. Exit status: 0,
1 when B is slower beyond the 95% interval, 2 on errors."""
import argparse
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import abstats  # noqa: E402
import pcap_latency  # noqa: E402
import servers  # noqa: E402

# CPU presets: environment for both sides (and the client) that makes
# OpenSSL and the shim take an older CPU's code paths.
CPU_PRESETS = {
    "native": {},
    # Haswell: AVX2 and BMI2 but no ADX (OPENSSL_ia32cap word 2 bit 19) and
    # no AVX-512.
    "haswell": {"OPENSSL_ia32cap": "~0x0:~0x80000", "CRYPTOSHIM_CPU": "-adx"},
}

# What the TLS client saw negotiated, per server port.
NEGOTIATED = {}

SSH_KEX = {
    "group14": "diffie-hellman-group14-sha256",
    "group16": "diffie-hellman-group16-sha512",
    "group18": "diffie-hellman-group18-sha512",
    "gex": "diffie-hellman-group-exchange-sha256",
}


def parse_args(argv):
    p = argparse.ArgumentParser(prog="cryptoshim ab", description=__doc__.splitlines()[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("mode", choices=("tls", "nginx", "ssh"))
    p.add_argument("-n", "--handshakes", type=int, default=200, help="handshakes per side (200)")
    p.add_argument("--block", type=int, default=10, help="handshakes per block (10)")
    p.add_argument("--out", help="output directory (default ./ab-MODE-TIME)")
    p.add_argument("--cpu", choices=sorted(CPU_PRESETS), default="native",
                   help="CPU preset for both sides (haswell: OPENSSL_ia32cap and CRYPTOSHIM_CPU)")
    p.add_argument("--kernels", help="CRYPTOSHIM_KERNELS for side B (e.g. portable)")
    p.add_argument("--b-env", action="append", default=[], metavar="VAR=VALUE",
                   help="extra environment for side B")
    p.add_argument("--env", action="append", default=[], metavar="VAR=VALUE",
                   help="extra environment for both sides")
    p.add_argument("--no-capture", action="store_true", help="client-side latency only")
    p.add_argument("--metric", choices=("server", "client"),
                   help="latency that decides the verdict (server when captured)")
    p.add_argument("--cert", default="rsa3072",
                   help="tls/nginx: rsa2048|rsa3072|rsa4096|mldsa44|mldsa65|mldsa87 (rsa3072)")
    p.add_argument("--tls", choices=("1.2", "1.3"), default="1.3", help="tls/nginx: version (1.3)")
    p.add_argument("--groups", help="tls/nginx: key exchange groups (client side; tls: server too)")
    p.add_argument("--ciphers", help="tls/nginx: TLS 1.2 cipher list for the client")
    p.add_argument("--openssl", default="openssl", help="tls: openssl binary for s_server")
    p.add_argument("--client", help="tls/nginx: the ab-tls-client binary")
    p.add_argument("--nginx", default="/usr/sbin/nginx")
    p.add_argument("--sshd", default="/usr/sbin/sshd")
    p.add_argument("--hostkey", type=int, default=3072, help="ssh: RSA host key bits (3072)")
    p.add_argument("--hostkey-alg", default="rsa-sha2-512", help="ssh: rsa-sha2-256|rsa-sha2-512")
    p.add_argument("--kex", default="group16",
                   help="ssh: group14|group16|group18|gex or an OpenSSH KEX name (group16)")
    p.add_argument("--lib", help="libcryptoshim.so (set by `cryptoshim ab`)")
    p.add_argument("--cryptoshim", help="the cryptoshim CLI (set by `cryptoshim ab`)")
    p.add_argument("--bindir", help="directory of the cryptoshim CLI (set by `cryptoshim ab`)")
    p.add_argument("--seed", type=int, default=1, help="bootstrap seed")
    a = p.parse_args(argv)
    if a.handshakes < 2 or a.block < 1:
        p.error("need --handshakes >= 2 and --block >= 1")
    # Servers run in a work directory: make given paths absolute.
    for name in ("openssl", "client", "nginx", "sshd", "lib", "cryptoshim", "bindir"):
        v = getattr(a, name)
        if v and "/" in v:
            setattr(a, name, os.path.abspath(v))
    return a


def env_pairs(pairs):
    """['VAR=VALUE', ...] -> dict."""
    out = {}
    for s in pairs:
        k, sep, v = s.partition("=")
        if not sep or not k:
            raise SystemExit("cryptoshim ab: expected VAR=VALUE, got %r" % s)
        out[k] = v
    return out


def side_envs(args, outdir):
    """Environments of A and B: the same except B preloads the shim and
    counts its calls in outdir/b.stats."""
    base = {k: v for k, v in os.environ.items()
            if not k.startswith("CRYPTOSHIM_") and k not in ("LD_PRELOAD", "OPENSSL_ia32cap")}
    base.update(CPU_PRESETS[args.cpu])
    base.update(env_pairs(args.env))
    a = dict(base)
    b = dict(base)
    b["LD_PRELOAD"] = args.lib
    b["CRYPTOSHIM_STATS"] = os.path.join(outdir, "b.stats")
    if args.kernels:
        b["CRYPTOSHIM_KERNELS"] = args.kernels
    b.update(env_pairs(args.b_env))
    return a, b, base


def find_client(args):
    """The ab-tls-client binary: --client, beside the CLI, or installed."""
    cands = [args.client] if args.client else []
    if args.bindir:
        cands += [os.path.join(args.bindir, "ab-tls-client"),
                  os.path.join(args.bindir, "..", "lib", "cryptoshim", "ab-tls-client")]
    for c in cands:
        if c and os.access(c, os.X_OK):
            return c
    raise SystemExit("cryptoshim ab: ab-tls-client not found (make builds it beside build/cryptoshim)")


class Capture:
    """tcpdump on loopback for the given ports, into a pcap file."""

    def __init__(self, path, ports):
        self.path, self.ports, self.proc = path, ports, None
        self.err = path + ".log"

    def start(self):
        tcpdump = shutil.which("tcpdump") or "/usr/bin/tcpdump"
        if not os.access(tcpdump, os.X_OK):
            raise RuntimeError("tcpdump not installed")
        flt = "tcp and (%s)" % " or ".join("port %d" % p for p in self.ports)
        cmd = [tcpdump, "-i", "lo", "-n", "-s", "0", "-B", "16384", "--immediate-mode",
               "--time-stamp-precision", "nano", "-w", self.path]
        if os.geteuid() == 0:
            cmd += ["-Z", "root"]
        errf = open(self.err, "w")
        self.proc = subprocess.Popen(cmd + [flt], stdin=subprocess.DEVNULL,
                                     stdout=subprocess.DEVNULL, stderr=errf)
        errf.close()
        end = time.monotonic() + 10
        while time.monotonic() < end:  # bounded wait for "listening on lo"
            with open(self.err) as f:
                if "listening on" in f.read():
                    time.sleep(0.2)
                    return
            if self.proc.poll() is not None:
                break
            time.sleep(0.05)
        self.stop()
        with open(self.err) as f:
            raise RuntimeError("tcpdump did not start: %s" % f.read().strip())

    def stop(self):
        """Stops tcpdump by its pid (SIGINT flushes the file); returns its
        summary lines."""
        if self.proc is not None and self.proc.poll() is None:
            time.sleep(0.3)
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        with open(self.err) as f:
            return [line.strip() for line in f if "packets" in line]


def unpacked_openssl(openssl):
    """For an OpenSSL run from an unpacked tree through its own loader (the
    build/openssl35 wrapper: BIN/../root), the command prefix and environment
    that run another program with that tree's libssl; else ([], {})."""
    path = shutil.which(openssl) or openssl
    root = os.path.join(os.path.dirname(os.path.abspath(path)), "..", "root")
    libdir = os.path.join(root, "usr", "lib", "x86_64-linux-gnu")
    loader = os.path.join(libdir, "ld-linux-x86-64.so.2")
    if not os.path.exists(loader):
        return [], {}
    return [loader, "--library-path", libdir], {
        "OPENSSL_CONF": os.path.join(root, "usr", "lib", "ssl", "openssl.cnf"),
        "OPENSSL_MODULES": os.path.join(libdir, "ossl-modules")}


def tls_block(args, client, port, count, env):
    """count handshakes against port with ab-tls-client (through the same
    libssl as the server when --openssl names an unpacked tree); list of us."""
    prefix, extra = unpacked_openssl(args.openssl)
    if extra:
        env = dict(env, **extra)
    cmd = prefix + [client, "127.0.0.1", str(port), str(count), "--tls", args.tls]
    if args.groups:
        cmd += ["--groups", args.groups]
    if args.ciphers:
        cmd += ["--ciphers", args.ciphers]
    r = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                       timeout=60 + 10 * count)
    if r.returncode != 0:
        raise RuntimeError("ab-tls-client failed on port %d: %s" % (port, r.stderr.strip()))
    for line in r.stderr.splitlines():
        if line.startswith("negotiated: "):
            NEGOTIATED[port] = line[len("negotiated: "):]
    return [float(x) for x in r.stdout.split()]


def ssh_block(args, ssh_ctx, port, count, env):
    """count timed `ssh` logins against port; list of us."""
    out = []
    for _ in range(count):
        cmd = servers.ssh_client_cmd(port, ssh_ctx["userkey"], ssh_ctx["known_hosts"],
                                     ssh_ctx["kex"], args.hostkey_alg)
        t0 = time.perf_counter()
        r = subprocess.run(cmd, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, text=True, timeout=60)
        t1 = time.perf_counter()
        if r.returncode != 0:
            raise RuntimeError("ssh login on port %d failed: %s" % (port, r.stderr.strip()))
        out.append((t1 - t0) * 1e6)
    return out


def make_servers(args, work, env_a, env_b):
    """Builds the A and B servers for the mode, plus what the client needs."""
    ctx = {}
    if args.mode in ("tls", "nginx"):
        cert, key = servers.make_cert(work, args.cert, args.openssl)
        if args.mode == "tls":
            mk = lambda side, env: servers.TlsServer(side, work, env, args.openssl, cert, key,
                                                     args.groups)
        else:
            mk = lambda side, env: servers.NginxServer(side, work, env, args.nginx, cert, key)
        ctx["client"] = find_client(args)
        ctx["desc"] = "%s, %s certificate, TLS %s%s" % (
            "openssl s_server" if args.mode == "tls" else "nginx", args.cert, args.tls,
            ", groups %s" % args.groups if args.groups else "")
    else:
        if os.geteuid() != 0:
            raise SystemExit("cryptoshim ab ssh: sshd with privilege separation needs root")
        hostkey, userkey, authorized = servers.ssh_keys(work, args.hostkey)
        kex = SSH_KEX.get(args.kex, args.kex)
        mk = lambda side, env: servers.SshServer(side, work, env, args.sshd, hostkey, authorized,
                                                 kex, args.hostkey_alg)
        ctx.update(userkey=userkey, kex=kex, hostkey=hostkey,
                   known_hosts=os.path.join(work, "known_hosts"),
                   desc="sshd, RSA-%d host key (%s), %s" % (args.hostkey, args.hostkey_alg, kex))
    return mk("A", env_a), mk("B", env_b), ctx


def write_known_hosts(ctx, ports):
    """known_hosts naming the host key for both servers' ports."""
    with open(ctx["hostkey"] + ".pub") as f:
        typ, blob = f.read().split()[:2]
    with open(ctx["known_hosts"], "w") as f:
        for p in ports:
            f.write("[127.0.0.1]:%d %s %s\n" % (p, typ, blob))


def shim_stats(args, path):
    """Rows of `cryptoshim stats` for B's counters (empty when unavailable)."""
    if not args.cryptoshim or not os.path.exists(path):
        return []
    r = subprocess.run([args.cryptoshim, "stats", path], stdout=subprocess.PIPE,
                       stderr=subprocess.DEVNULL, text=True)
    return r.stdout.strip().splitlines()[1:] if r.returncode == 0 else []


def run(args):
    stamp = time.strftime("%Y%m%d-%H%M%S")
    outdir = os.path.abspath(args.out or "ab-%s-%s" % (args.mode, stamp))
    os.makedirs(outdir, exist_ok=True)
    if not args.lib or not os.path.exists(args.lib):
        raise SystemExit("cryptoshim ab: libcryptoshim.so not found (--lib)")
    if os.path.exists(os.path.join(outdir, "b.stats")):
        os.unlink(os.path.join(outdir, "b.stats"))
    work = tempfile.mkdtemp(prefix="cryptoshim-ab-")
    env_a, env_b, env_client = side_envs(args, outdir)
    srv_a, srv_b, ctx = make_servers(args, work, env_a, env_b)
    capture = None
    samples = {"A": [], "B": []}  # (block, us)
    started = []
    notes = []
    try:
        for s in (srv_a, srv_b):
            s.start()
            started.append(s)
        if args.mode == "ssh":
            write_known_hosts(ctx, [srv_a.port, srv_b.port])
        if not args.no_capture:
            capture = Capture(os.path.join(outdir, "capture.pcap"), [srv_a.port, srv_b.port])
            capture.start()
        # Warm-up (not recorded): one handshake each, so caches and page-ins
        # do not land in the first block.
        do = (lambda port, n: tls_block(args, ctx["client"], port, n, env_client)) \
            if args.mode != "ssh" else (lambda port, n: ssh_block(args, ctx, port, n, env_client))
        warm_t = time.time()
        for s in (srv_a, srv_b):
            do(s.port, 1)
        nblocks = (args.handshakes + args.block - 1) // args.block
        t_start = time.monotonic()
        for i in range(nblocks):
            k = min(args.block, args.handshakes - i * args.block)
            order = (("A", srv_a), ("B", srv_b)) if i % 2 == 0 else (("B", srv_b), ("A", srv_a))
            for side, s in order:
                samples[side] += [(i, us) for us in do(s.port, k)]
        elapsed = time.monotonic() - t_start
        if capture:
            notes += ["tcpdump: " + "; ".join(capture.stop())]
    finally:
        if capture:
            capture.stop()
        for s in started:
            s.stop()
    # Server-side latency from the wire, in connection order per port (the
    # warm-up connection first, dropped).
    server_lat = {"A": [], "B": []}
    if capture:
        by_port = {srv_a.port: "A", srv_b.port: "B"}
        for port, t, lat in pcap_latency.latencies("ssh" if args.mode == "ssh" else "tls",
                                                   capture.path, [srv_a.port, srv_b.port]):
            if t >= warm_t:
                server_lat[by_port[port]].append(lat)
        for side in "AB":
            server_lat[side] = server_lat[side][1:]
    rows, metrics = [], {}
    client_a = [us for _, us in samples["A"]]
    client_b = [us for _, us in samples["B"]]
    for side in "AB":
        for idx, (blk, us) in enumerate(samples[side]):
            rows.append((side, blk, idx, "client", us))
        blocks = [blk for blk, _ in samples[side]]
        aligned = len(server_lat[side]) == len(blocks)
        for idx, lat in enumerate(server_lat[side]):
            if lat is not None:
                rows.append((side, blocks[idx] if aligned else None, idx, "server", lat * 1e6))
    srv_a_us = [r[4] for r in rows if r[0] == "A" and r[3] == "server"]
    srv_b_us = [r[4] for r in rows if r[0] == "B" and r[3] == "server"]
    have_server = min(len(srv_a_us), len(srv_b_us)) >= max(2, int(0.8 * args.handshakes))
    if srv_a_us and srv_b_us:
        metrics["server"] = (srv_a_us, srv_b_us)
    metrics["client"] = (client_a, client_b)
    primary = args.metric or ("server" if have_server else "client")
    if primary not in metrics:
        raise SystemExit("cryptoshim ab: no %s-side samples" % primary)
    result = abstats.bootstrap_ratio(*metrics[primary], seed=args.seed)
    ver = abstats.verdict(result[1], result[2])
    abstats.write_csv(os.path.join(outdir, "samples.csv"), rows)
    stats_rows = shim_stats(args, env_b["CRYPTOSHIM_STATS"])
    title = "cryptoshim A/B: %s" % ctx["desc"]
    notes = ["%d handshakes per side in blocks of %d, alternating (A B, B A, ...), %.1f s" %
             (args.handshakes, args.block, elapsed),
             "CPU preset: %s %s" % (args.cpu, " ".join("%s=%s" % kv for kv in CPU_PRESETS[args.cpu].items())),
             "B: LD_PRELOAD=%s%s" % (args.lib, " CRYPTOSHIM_KERNELS=%s" % args.kernels if args.kernels else ""),
             "server ports: A %d, B %d" % (srv_a.port, srv_b.port)] + \
            ["negotiated with %s: %s" % (side, NEGOTIATED[s.port])
             for side, s in (("A", srv_a), ("B", srv_b)) if s.port in NEGOTIATED] + [
             "server-side samples A %d, B %d (of %d each)" % (len(srv_a_us), len(srv_b_us), args.handshakes)] + notes
    if stats_rows:
        notes.append("shim calls in B (operation kernel bits calls): " +
                     "; ".join(r.replace("\t", " ") for r in stats_rows))
    else:
        notes.append("shim calls in B: none counted")
    md = abstats.markdown(title, metrics, primary, result, notes)
    plots = abstats.plot(outdir, title, metrics)
    with open(os.path.join(outdir, "report.md"), "w") as f:
        f.write(md)
    print(md)
    print("Files: %s" % ", ".join(os.path.join(outdir, n) for n in
                                  ["report.md", "samples.csv"] + [os.path.basename(p) for p in plots]))
    shutil.rmtree(work, ignore_errors=True)
    return 1 if ver == "slower" else 0


def main(argv):
    args = parse_args(argv)
    # A TERM (e.g. from timeout) unwinds through run()'s finally: every
    # server and tcpdump is stopped by its pid.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    try:
        return run(args)
    except (RuntimeError, OSError, subprocess.TimeoutExpired) as e:
        print("cryptoshim ab: %s" % e, file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
