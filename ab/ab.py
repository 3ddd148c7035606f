#!/usr/bin/python3
"""cryptoshim ab tls|nginx|ssh|pcap: A/B handshake latency, without (A) and with the shim (B).

Three forms: harness-started servers (`ab tls|nginx|ssh`: one server binary
and configuration run twice), running endpoints (`ab tls|ssh --a HOST:PORT
--b HOST:PORT`: live.py) and captures (`ab pcap FILE... --a --b`: abpcap.py).
Harness-started servers run side by side on 127.0.0.1; handshakes alternate between them
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

# No __pycache__ beside the scripts (a source tree, or /usr/share when
# installed from the package, which must leave nothing dpkg does not know).
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import abpcap  # noqa: E402
import abstats  # noqa: E402
import capture as capture_mod  # noqa: E402
import live  # noqa: E402
import load  # noqa: E402
import loadreport  # noqa: E402
import proccpu  # noqa: E402
import pcap_latency  # noqa: E402
import pcapread  # noqa: E402
import servers  # noqa: E402
import sshkex  # noqa: E402
from capture import Capture  # noqa: E402

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


class Missing(Exception):
    """What the run needs is absent; the message is one sentence."""


class Interrupted(Exception):
    """The harness got SIGINT, SIGTERM or SIGHUP."""

    def __init__(self, signum):
        super().__init__(signum)
        self.signum = signum


def on_signal(signum, _frame):
    """First signal: ignore any further one (so the clean-up is not cut
    short) and unwind through run()'s clean-up."""
    for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(s, signal.SIG_IGN)
    raise Interrupted(signum)


def executable(prog):
    """Path of prog if it can be run (a name is looked up on PATH), else None."""
    if not prog:
        return None
    if "/" not in prog:
        return shutil.which(prog)
    return prog if os.path.isfile(prog) and os.access(prog, os.X_OK) else None


def preflight(args):
    """Before anything starts: every program the mode needs is there and the
    run can capture; raises Missing naming everything absent in one sentence."""
    need = []  # (program, what it is, how to get it)
    if args.a:  # running endpoints or captures: no server to start, capture optional
        if args.mode == "tls" and not args.client_path:
            raise Missing("ab-tls-client not found (make builds it beside build/cryptoshim).")
        return
    if args.mode in ("tls", "nginx"):
        if args.openssl == "openssl":
            need.append(("openssl", "openssl", "Debian package openssl"))
        else:
            need.append((args.openssl, args.openssl,
                         "make openssl35 fetches OpenSSL 3.5" if "openssl35" in args.openssl
                         else "the --openssl given"))
    if args.mode == "nginx":
        need.append((args.nginx, "nginx", "Debian package nginx"))
    if args.mode == "ssh":
        need += [(args.sshd, "sshd", "Debian package openssh-server"),
                 (args.ssh_cmd[0], "ssh", "Debian package openssh-client"),
                 ("ssh-keygen", "ssh-keygen", "Debian package openssh-client")]
    if not args.no_capture:
        need.append((args.tcpdump or "tcpdump", "tcpdump",
                     "Debian package tcpdump, or --no-capture for client-side latency only"))
    missing = ["%s (%s)" % (what, how) for prog, what, how in need if not executable(prog)]
    if missing:
        raise Missing("not installed: %s." % ", ".join(missing))
    if args.mode == "ssh" and os.geteuid() != 0:
        raise Missing("ab ssh needs root: sshd with privilege separation runs only as root.")
    if not args.no_capture and os.geteuid() != 0:
        raise Missing("capturing on loopback with tcpdump needs root: run as root or pass "
                      "--no-capture (client-side latency only).")
    if not shutil.which("gnuplot"):
        print("cryptoshim ab: gnuplot is not installed (Debian package gnuplot-nox): "
              "no plots, the report and CSV are still written.", file=sys.stderr)


class Parser(argparse.ArgumentParser):
    """argparse with one-line errors (exit status 2) instead of the usage."""

    def error(self, message):
        """Prints one line and exits with status 2."""
        self.exit(2, "cryptoshim ab: %s (cryptoshim ab --help)\n" % message)


def parse_args(argv):
    p = Parser(prog="cryptoshim ab", description=__doc__.splitlines()[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("mode", choices=("tls", "nginx", "ssh", "pcap"))
    p.add_argument("files", nargs="*", metavar="FILE", help="pcap: capture files (pcap or pcapng)")
    p.add_argument("--a", metavar="HOST:PORT", help="tls/ssh/pcap: a running server, side A "
                   "(no server is started; pcap: *:PORT for any address)")
    p.add_argument("--b", metavar="HOST:PORT",
                   help="tls/ssh/pcap: the running server B (with the shim)")
    p.add_argument("--sni", help="tls --a/--b: server name sent (default: the host name given, "
                                 "none for an address)")
    p.add_argument("--cafile", help="tls --a/--b: verify the chain against this CA file")
    p.add_argument("--verify-name", help="tls --a/--b: the name the certificate must carry "
                                         "(default: the SNI name or the host)")
    p.add_argument("--client-cert", help="tls --a/--b: client certificate (PEM, chain)")
    p.add_argument("--client-key", help="tls --a/--b: the client certificate's key (PEM)")
    p.add_argument("--ciphersuites", help="tls --a/--b: TLS 1.3 cipher suites for the client")
    p.add_argument("--interface", help="tls/ssh --a/--b: capture on this interface "
                                       "(default: the one routing to the targets)")
    p.add_argument("--kind", choices=("tls", "ssh"), help="pcap: only this protocol "
                                                           "(default: what the captures hold)")
    p.add_argument("-n", "--handshakes", type=int, default=200, help="handshakes per side (200)")
    p.add_argument("--block", type=int, default=10, help="handshakes per block (10)")
    p.add_argument("--out", help="output directory (default ./ab-MODE-TIME)")
    p.add_argument("--cpu", choices=sorted(CPU_PRESETS), default="native",
                   help="CPU preset for both sides (haswell: OPENSSL_ia32cap and CRYPTOSHIM_CPU)")
    p.add_argument("--preload", choices=("server", "client", "both"), default="server",
                   help="which processes of side B run with the shim: its server (default), "
                        "its client (both servers stock), or both")
    p.add_argument("--kernels", help="CRYPTOSHIM_KERNELS for side B (e.g. portable)")
    p.add_argument("--b-env", action="append", default=[], metavar="VAR=VALUE",
                   help="extra environment for side B (its preloaded processes)")
    p.add_argument("--env", action="append", default=[], metavar="VAR=VALUE",
                   help="extra environment for both sides")
    p.add_argument("--no-capture", action="store_true", help="client-side latency only")
    p.add_argument("--metric", choices=("server", "client", "cpu", "capacity"),
                   help="what decides the verdict: server or client latency (server when "
                        "captured); under load cpu (server CPU per handshake, the default where "
                        "measured), capacity (handshakes/s) or client (median latency)")
    p.add_argument("--concurrency", metavar="N[,N...]",
                   help="load: closed loop, N handshakes in flight for each block (a list runs "
                        "each level)")
    p.add_argument("--rate", metavar="R[,R...]|auto",
                   help="load: open loop, R new handshakes per second (latency from each one's "
                        "scheduled start); auto: fractions of A's closed-loop capacity")
    p.add_argument("--block-seconds", type=float, default=2.0,
                   help="load: duration of each block (2)")
    p.add_argument("--rounds", type=int, default=5,
                   help="load: rounds per level, each one A and one B block (5)")
    p.add_argument("--max-seconds", type=int, default=600,
                   help="load: refuse a plan longer than this (600)")
    p.add_argument("--no-pin", action="store_true",
                   help="load, harness-started: let the servers and the client run on any CPU "
                        "(default: both servers on the last CPU, the client on the others)")
    p.add_argument("--a-pid", type=int, metavar="PID",
                   help="--a/--b: the process of server A (CPU per handshake; default: the one "
                        "listening on A's port)")
    p.add_argument("--b-pid", type=int, metavar="PID", help="--a/--b: the process of server B")
    p.add_argument("--cert", default="rsa3072", choices=servers.CERT_KINDS, metavar="KIND",
                   help="tls/nginx: %s (rsa3072; ML-DSA needs OpenSSL 3.5+)"
                        % "|".join(servers.CERT_KINDS))
    p.add_argument("--verify", action="store_true",
                   help="tls/nginx: a CA and a leaf signed by it (both of --cert's kind); the "
                        "client verifies the chain and the host name (SSL_VERIFY_PEER)")
    p.add_argument("--tls", choices=("1.2", "1.3"), default="1.3", help="tls/nginx: version (1.3)")
    p.add_argument("--groups", help="tls/nginx: key exchange groups, colon-separated (client "
                   "side; tls: server too), e.g. x25519, X25519MLKEM768, SecP256r1MLKEM768; "
                   "ML-KEM groups need OpenSSL 3.5+: without --openssl, tls takes the newest "
                   "build/openssl3* there is")
    p.add_argument("--ciphers", help="tls/nginx: TLS 1.2 cipher list for the client")
    p.add_argument("--openssl", default="openssl",
                   help="tls: openssl binary for s_server; an unpacked build's (build/openssl35 "
                        "...) libssl serves the client too (default: the system's, or the newest "
                        "3.5+ build when --groups or --cert needs it)")
    p.add_argument("--client", help="tls/nginx: the ab-tls-client binary")
    p.add_argument("--nginx", default="/usr/sbin/nginx")
    p.add_argument("--sshd", help="ssh: the sshd, or an unpacked OpenSSH tree (build/openssh10: "
                   "its sshd and ssh client through its loader); default /usr/sbin/sshd, "
                   "build/openssh10 for --hostkey ed25519")
    p.add_argument("--tcpdump", help="tcpdump binary (default: tcpdump on PATH)")
    p.add_argument("--hostkey", default="3072",
                   help="ssh: RSA host key bits, or ed25519 (3072)")
    p.add_argument("--hostkey-alg", help="ssh: rsa-sha2-256|rsa-sha2-512 (rsa-sha2-512), "
                   "ssh-ed25519 for an Ed25519 host key")
    p.add_argument("--kex", help="ssh: group14|group16|group18|gex, an OpenSSH KEX name, or "
                   "default (the server's own list: harness-started logins only); group16, "
                   "default with --hostkey ed25519")
    p.add_argument("--kex-only", action="store_true",
                   help="ssh (harness-started): key exchanges up to the server's reply instead of "
                        "logins (what --a/--b measures)")
    p.add_argument("--lib", help="libcryptoshim.so (set by `cryptoshim ab`)")
    p.add_argument("--cryptoshim", help="the cryptoshim CLI (set by `cryptoshim ab`)")
    p.add_argument("--bindir", help="directory of the cryptoshim CLI (set by `cryptoshim ab`)")
    p.add_argument("--seed", type=int, default=1, help="bootstrap seed")
    a = p.parse_args(argv)
    if a.handshakes < 2 or a.block < 1:
        p.error("need --handshakes >= 2 and --block >= 1")
    if a.verify and a.mode == "ssh":
        p.error("--verify is for tls and nginx (ssh checks its host key through known_hosts)")
    if bool(a.a) != bool(a.b):
        p.error("--a and --b go together (two running endpoints)")
    if a.mode == "pcap" and not a.a:
        p.error("ab pcap needs --a HOST:PORT and --b HOST:PORT")
    if a.a and a.mode == "nginx":
        p.error("for a running nginx use ab tls --a HOST:PORT --b HOST:PORT")
    if a.files and a.mode != "pcap":
        p.error("unexpected arguments: %s" % " ".join(a.files))
    if a.a and a.preload != "server":
        p.error("--preload is for harness-started servers (running endpoints are what they are)")
    a.load = bool(a.concurrency or a.rate)
    if a.load and a.mode == "pcap":
        p.error("--concurrency and --rate are for tls, nginx and ssh (a capture is what it is)")
    if a.load and a.preload != "server":
        p.error("under load the figure is the server's: --preload client/both has no meaning")
    if a.load and a.metric == "server":
        p.error("under load there is no server latency from the wire: --metric cpu, capacity "
                "or client")
    if not a.load and a.metric in ("capacity", "cpu"):
        p.error("--metric %s is for a run under load (--concurrency or --rate); one handshake "
                "at a time, the server's CPU is reported beside the latency" % a.metric)
    if (a.a_pid or a.b_pid) and not a.a:
        p.error("--a-pid and --b-pid go with --a and --b (running endpoints)")
    if a.load:
        a.no_capture = True  # latency under load is the client's
    if a.hostkey != "ed25519" and not (a.hostkey.isdigit() and int(a.hostkey) >= 1024):
        p.error("--hostkey takes RSA bits (1024 or more) or ed25519, not %r" % a.hostkey)
    if not a.hostkey_alg:
        a.hostkey_alg = "ssh-ed25519" if a.hostkey == "ed25519" else "rsa-sha2-512"
    if not a.kex:
        a.kex = ("default" if a.hostkey == "ed25519" and not (a.a or a.kex_only or a.load)
                 else "group16")
    if a.kex == "default" and (a.a or a.kex_only or a.load):
        p.error("--kex default is for harness-started logins (the key-exchange client offers "
                "one named KEX: group14|group16|group18|gex or an OpenSSH KEX name)")
    a.ssh_kex = SSH_KEX.get(a.kex, a.kex)
    # Servers run in a work directory: make given paths absolute.
    for name in ("openssl", "client", "nginx", "sshd", "tcpdump", "lib", "cryptoshim", "bindir",
                 "cafile", "client_cert", "client_key"):
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
            raise Missing("expected VAR=VALUE, got %r" % s)
        out[k] = v
    return out


# Counter files of the run, in the output directory: B's server, B's client,
# and A's client (a canary: it appears only if the shim got into A's client).
STATS_FILES = {"server": "b.stats", "client": "b-client.stats", "a-client": "a-client.stats"}


def side_envs(args, outdir):
    """Environments of the A and B servers, the A and B clients, and the
    shared one (tcpdump): all the same except that B's preloaded processes
    (--preload: its server, its client or both) run with the shim and count
    its calls (B's server in b.stats, B's client in b-client.stats). When
    B's client is preloaded, A's client names a-client.stats too, which only
    the shim would create."""
    base = {k: v for k, v in os.environ.items()
            if not k.startswith("CRYPTOSHIM_") and k not in ("LD_PRELOAD", "OPENSSL_ia32cap")}
    base.update(CPU_PRESETS[args.cpu])
    base.update(env_pairs(args.env))

    def shimmed(stats):
        env = dict(base)
        env["LD_PRELOAD"] = args.lib
        env["CRYPTOSHIM_STATS"] = os.path.join(outdir, stats)
        if args.kernels:
            env["CRYPTOSHIM_KERNELS"] = args.kernels
        env.update(env_pairs(args.b_env))
        return env

    a = dict(base)
    b = shimmed(STATS_FILES["server"]) if args.preload in ("server", "both") else dict(base)
    client_a = dict(base)
    client_b = dict(base)
    if args.preload in ("client", "both"):
        client_b = shimmed(STATS_FILES["client"])
        client_a["CRYPTOSHIM_STATS"] = os.path.join(outdir, STATS_FILES["a-client"])
    # Every process of this run (servers, their children, tcpdump, clients)
    # carries the output directory: tests find leftovers by it.
    for env in (a, b, client_a, client_b, base):
        env["CS_AB_RUN"] = outdir
    return a, b, {"A": client_a, "B": client_b}, base


# The unpacked OpenSSL builds (under the CLI's directory) whose libssl.so.3
# ab-tls-client can run with, newest first. 4.0 is libssl.so.4: the client,
# linked against the system's libssl.so.3, cannot use it.
CLIENT_OPENSSL_BUILDS = ("openssl36", "openssl35")


def needs_openssl35(args):
    """Why the run needs OpenSSL 3.5 or later (ML-KEM groups, an ML-DSA
    certificate of a harness-started server), or None."""
    groups = [g for g in (args.groups or "").split(":") if g]
    mlkem = [g for g in groups if "mlkem" in g.lower()]
    if mlkem:
        return "--groups %s" % ":".join(mlkem)
    if not args.a and args.cert.startswith("mldsa"):
        return "--cert %s" % args.cert
    return None


def pick_openssl(args):
    """For tls without --openssl where the system's OpenSSL 3.0 cannot serve
    the run (needs_openssl35): the newest unpacked 3.5+ build beside the CLI,
    whose libssl the client (and s_server) then use; raises Missing naming
    what to do when there is none. Returns a note for the report, or None."""
    why = needs_openssl35(args)
    if args.mode != "tls" or args.openssl != "openssl" or not why:
        return None
    for name in CLIENT_OPENSSL_BUILDS:
        path = os.path.join(args.bindir or "", name, "bin", "openssl")
        if args.bindir and executable(path):
            args.openssl = os.path.abspath(path)
            note = "%s needs OpenSSL 3.5 or later (the system's is 3.0): %s from %s" % (
                why, "the client runs with libssl" if args.a else "s_server and the client run",
                os.path.join(args.bindir, name))
            print("cryptoshim ab: %s" % note, file=sys.stderr)
            return note
    raise Missing("%s needs OpenSSL 3.5 or later for the client%s; the system's is 3.0 and no "
                  "unpacked build was found (%s under %s: make deps fetches them), or pass "
                  "--openssl DIR/bin/openssl of an unpacked 3.5/3.6 tree" % (
                      why, "" if args.a else " and s_server",
                      " or ".join(CLIENT_OPENSSL_BUILDS), args.bindir or "the CLI's directory"))


def resolve_sshd(args):
    """ab ssh (harness-started): the sshd to run and the ssh client beside it.
    An unpacked OpenSSH tree (--sshd DIR, or build/openssh10 by default for
    an Ed25519 host key: OpenSSH signs Ed25519 through libcrypto only from
    10.3) runs its sshd and its ssh through its loader; else Debian's. Sets
    args.sshd, args.ssh_tree and args.ssh_cmd; raises Missing when the tree
    an Ed25519 host key needs is absent."""
    args.ssh_tree, args.ssh_cmd = None, ["ssh"]
    if args.mode != "ssh" or args.a:
        return
    given = args.sshd
    if not given and args.hostkey == "ed25519":
        tree = os.path.join(args.bindir or "build", "openssh10")
        if not servers.openssh_tree(tree):
            why = ""
            if os.path.exists(os.path.join(tree, ".missing")):
                with open(os.path.join(tree, ".missing"), errors="replace") as f:
                    why = " (%s)" % " ".join(f.read().split())
            raise Missing("--hostkey ed25519 runs OpenSSH 10.3 or later (it signs Ed25519 through "
                          "libcrypto; Debian 12's 9.2 does not), from %s, which is missing%s: make "
                          "openssh10 unpacks it, or --sshd /usr/sbin/sshd measures Debian 12's "
                          "sshd" % (tree, why))
        given = tree
    tree = servers.openssh_tree(given) if given else None
    if tree:
        args.ssh_tree = tree
        args.sshd = os.path.join(tree, "root", "usr", "sbin", "sshd")
        args.ssh_cmd = [os.path.join(tree, "bin", "run"),
                        os.path.join(tree, "root", "usr", "bin", "ssh")]
    else:
        args.sshd = given or "/usr/sbin/sshd"


def find_client(args, required=True):
    """The ab-tls-client binary: --client, beside the CLI, or installed (None
    when absent and not required)."""
    cands = [args.client] if args.client else []
    if args.bindir:
        cands += [os.path.join(args.bindir, "ab-tls-client"),
                  os.path.join(args.bindir, "..", "libexec", "cryptoshim", "ab-tls-client"),
                  os.path.join(args.bindir, "..", "lib", "cryptoshim", "ab-tls-client")]
    for c in cands:
        if c and os.access(c, os.X_OK):
            return c
    if not required:
        return None
    raise Missing("ab-tls-client not found (make builds it beside build/cryptoshim)")


def tls_block(args, ctx, port, count, env):
    """count handshakes against port with ab-tls-client (through the same
    libssl as the server when --openssl names an unpacked tree), verifying
    the server's chain against ctx's CA with --verify; list of us."""
    prefix, extra = servers.unpacked_openssl(args.openssl)
    if extra:
        env = dict(env, **extra)
    cmd = prefix + [ctx["client"], "127.0.0.1", str(port), str(count), "--tls", args.tls]
    if ctx.get("cafile"):
        cmd += ["--cafile", ctx["cafile"]]
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
    """count timed `ssh` logins against port (with --kex-only, key exchanges
    up to the server's reply, as against running endpoints); list of us."""
    out = []
    if args.kex_only:
        for _ in range(count):
            try:
                out.append(sshkex.one_exchange("127.0.0.1", port, ssh_ctx["kex"],
                                               args.hostkey_alg)[0])
            except sshkex.KexError as e:
                raise RuntimeError("SSH key exchange on port %d failed: %s" % (port, e)) from None
        return out
    for _ in range(count):
        cmd = servers.ssh_client_cmd(port, ssh_ctx["userkey"], ssh_ctx["known_hosts"],
                                     ssh_ctx["kex"], args.hostkey_alg, ssh=args.ssh_cmd)
        t0 = time.perf_counter()
        r = subprocess.run(cmd, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, text=True, timeout=60)
        t1 = time.perf_counter()
        if r.returncode != 0:
            raise RuntimeError("ssh login on port %d failed: %s" % (port, r.stderr.strip()))
        out.append((t1 - t0) * 1e6)
    return out


def ssh_version(args):
    """"OpenSSH_X.Yp1, OpenSSL ..." of the ssh client of an unpacked tree
    (ssh -V), or "" when it does not say."""
    r = subprocess.run(args.ssh_cmd + ["-V"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True)
    return r.stdout.strip().splitlines()[0] if r.stdout.strip() else ""


def ssh_negotiated(args, ssh_ctx, port, env):
    """One login with ssh -v (the warm-up): records in NEGOTIATED what the
    client saw negotiated (KEX and host key algorithm)."""
    cmd = servers.ssh_client_cmd(port, ssh_ctx["userkey"], ssh_ctx["known_hosts"],
                                 ssh_ctx["kex"], args.hostkey_alg, ssh=args.ssh_cmd, verbose=True)
    r = subprocess.run(cmd, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE, text=True, timeout=60)
    if r.returncode != 0:
        raise RuntimeError("ssh login on port %d failed: %s" % (port, " | ".join(
            ln for ln in r.stderr.splitlines() if not ln.startswith("debug1:"))[-300:]))
    seen = [ln.split("kex: ", 1)[1] for ln in r.stderr.splitlines()
            if "kex: algorithm:" in ln or "kex: host key algorithm:" in ln]
    if seen:
        NEGOTIATED[port] = ", ".join(seen)


def make_servers(args, work, env_a, env_b):
    """Builds the A and B servers for the mode, plus what the client needs."""
    ctx = {}
    if args.mode in ("tls", "nginx"):
        if args.verify:
            cert, key, ctx["cafile"] = servers.make_chain(work, args.cert, args.openssl)
        else:
            cert, key = servers.make_cert(work, args.cert, args.openssl)
        if args.mode == "tls":
            mk = lambda side, env: servers.TlsServer(side, work, env, args.openssl, cert, key,
                                                     args.groups)
        else:
            conns = max(256, load.max_inflight()[0] + 64) if args.load else 256
            mk = lambda side, env: servers.NginxServer(side, work, env, args.nginx, cert, key,
                                                       conns)
        ctx["client"] = find_client(args)
        ctx["desc"] = "%s, %s certificate%s, TLS %s%s" % (
            "openssl s_server" if args.mode == "tls" else "nginx", args.cert,
            " signed by a %s CA, verified by the client" % args.cert if args.verify else "",
            args.tls, ", groups %s" % args.groups if args.groups else "")
    else:
        if os.geteuid() != 0:
            raise Missing("ab ssh: sshd with privilege separation needs root")
        hostkey, userkey, authorized = servers.ssh_keys(work, args.hostkey)
        kex = None if args.kex == "default" else SSH_KEX.get(args.kex, args.kex)
        mk = lambda side, env: servers.SshServer(side, work, env, args.sshd, hostkey, authorized,
                                                 kex, args.hostkey_alg, args.ssh_tree)
        ctx.update(userkey=userkey, kex=kex, hostkey=hostkey,
                   known_hosts=os.path.join(work, "known_hosts"),
                   desc="sshd%s, %s host key (%s), %s%s" % (
                       " " + ssh_version(args) if args.ssh_tree else "",
                       "Ed25519" if args.hostkey == "ed25519" else "RSA-%s" % args.hostkey,
                       args.hostkey_alg, kex or "the server's default key exchange",
                       ", key exchange only (no login)" if args.kex_only else ""))
    if args.preload != "server":
        ctx["desc"] += ", shim in B's %s" % ("client" if args.preload == "client"
                                             else "server and client")
    return mk("A", env_a), mk("B", env_b), ctx


def write_known_hosts(ctx, ports):
    """known_hosts naming the host key for both servers' ports."""
    with open(ctx["hostkey"] + ".pub") as f:
        typ, blob = f.read().split()[:2]
    with open(ctx["known_hosts"], "w") as f:
        for p in ports:
            f.write("[127.0.0.1]:%d %s %s\n" % (p, typ, blob))


def shim_stats(args, path):
    """Rows of `cryptoshim stats` for a counter file (empty when unavailable)."""
    if not args.cryptoshim or not os.path.exists(path):
        return []
    r = subprocess.run([args.cryptoshim, "stats", path], stdout=subprocess.PIPE,
                       stderr=subprocess.DEVNULL, text=True)
    return r.stdout.strip().splitlines()[1:] if r.returncode == 0 else []


def run(args):
    stamp = time.strftime("%Y%m%d-%H%M%S")
    outdir = os.path.abspath(args.out or "ab-%s-%s" % (args.mode, stamp))
    os.makedirs(outdir, exist_ok=True)
    if args.mode == "pcap":
        return abpcap.run(args, outdir)
    if args.load:
        args.levels = load.plan(args)  # refused before anything starts
    if args.a:
        servers.PID_LOG = os.path.join(outdir, "pids")
        if os.path.exists(servers.PID_LOG):
            os.unlink(servers.PID_LOG)
        try:
            return live.run(args, outdir)
        finally:
            servers.stop_all()  # tcpdump, whatever happened
    if not args.lib or not os.path.exists(args.lib):
        raise Missing("libcryptoshim.so not found (--lib)")
    for name in STATS_FILES.values():
        if os.path.exists(os.path.join(outdir, name)):
            os.unlink(os.path.join(outdir, name))
    work = tempfile.mkdtemp(prefix="cryptoshim-ab-")
    servers.PID_LOG = os.path.join(outdir, "pids")
    if os.path.exists(servers.PID_LOG):
        os.unlink(servers.PID_LOG)
    try:
        return (measure_load if args.load else measure)(args, outdir, work)
    finally:
        # Whatever happened (error, signal): every process this run started
        # is stopped by its pid, its process group with it.
        servers.stop_all()
        shutil.rmtree(work, ignore_errors=True)


def measure(args, outdir, work):
    """The run proper: servers, capture, alternating blocks, report. Returns
    the exit status; raises on errors (the caller stops what was started)."""
    env_a, env_b, clients, env_client = side_envs(args, outdir)
    srv_a, srv_b, ctx = make_servers(args, work, env_a, env_b)
    capture = None
    samples = {"A": [], "B": []}  # (block, us)
    cpu = {"A": [], "B": []}  # (block, server CPU s, handshakes)
    notes = []
    try:
        for s in (srv_a, srv_b):
            s.start()
        print("cryptoshim ab: A (without the shim) on port %d, B (with it in its %s) on port %d; "
              "%d handshakes each" % (srv_a.port, {"server": "server", "client": "client",
                                                   "both": "server and client"}[args.preload],
                                      srv_b.port, args.handshakes), file=sys.stderr)
        if args.mode == "ssh":
            write_known_hosts(ctx, [srv_a.port, srv_b.port])
        if not args.no_capture:
            capture = Capture(os.path.join(outdir, "capture.pcap"),
                              executable(args.tcpdump or "tcpdump"), env_client, "lo",
                              capture_mod.port_filter([srv_a.port, srv_b.port]))
            capture.start()
        # Warm-up (not recorded): one handshake each, so caches and page-ins
        # do not land in the first block.
        do = (lambda side, port, n: tls_block(args, ctx, port, n, clients[side])) \
            if args.mode != "ssh" else \
            (lambda side, port, n: ssh_block(args, ctx, port, n, clients[side]))
        warm_t = time.time()
        for side, s in (("A", srv_a), ("B", srv_b)):
            if args.mode == "ssh" and not args.kex_only:
                ssh_negotiated(args, ctx, s.port, clients[side])
            else:
                do(side, s.port, 1)
        nblocks = (args.handshakes + args.block - 1) // args.block
        meters = {"A": proccpu.Meter(srv_a.proc.pid, ""), "B": proccpu.Meter(srv_b.proc.pid, "")}
        t_start = time.monotonic()
        for i in range(nblocks):
            k = min(args.block, args.handshakes - i * args.block)
            order = (("A", srv_a), ("B", srv_b)) if i % 2 == 0 else (("B", srv_b), ("A", srv_a))
            for side, s in order:
                c0 = meters[side].read()
                samples[side] += [(i, us) for us in do(side, s.port, k)]
                cpu[side].append((i, meters[side].read() - c0, k))
        elapsed = time.monotonic() - t_start
        if capture:
            notes += ["tcpdump: " + "; ".join(capture.stop())]
    finally:
        try:
            if capture:
                capture.stop()
        finally:
            for s in (srv_b, srv_a):
                s.stop()
    # Server-side latency from the wire, in connection order per port (the
    # warm-up connection first, dropped).
    server_lat = {"A": [], "B": []}
    if capture:
        by_port = {srv_a.port: "A", srv_b.port: "B"}
        for port, t, lat in pcap_latency.latencies("ssh" if args.mode == "ssh" else "tls",
                                                   capture.path, [srv_a.port, srv_b.port]):
            if t >= warm_t * 1e9:
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
    # With both servers stock, the wire shows the same server on both sides:
    # the client's latency is what the shim can change.
    primary = args.metric or ("server" if have_server and args.preload != "client" else "client")
    if primary not in metrics:
        raise Missing("no %s-side samples" % primary)
    blocks = abstats.blocks_of(rows)
    result = abstats.bootstrap_ratio(*metrics[primary], seed=args.seed, blocks=blocks.get(primary))
    ver = abstats.verdict(result[1], result[2])
    abstats.write_csv(os.path.join(outdir, "samples.csv"), rows)
    stats_path = {which: os.path.join(outdir, name) for which, name in STATS_FILES.items()}
    title = "cryptoshim A/B: %s" % ctx["desc"]
    notes = ["%d handshakes per side in blocks of %d, alternating (A B, B A, ...), %.1f s" %
             (args.handshakes, args.block, elapsed),
             "CPU preset: %s %s" % (args.cpu, " ".join("%s=%s" % kv for kv in CPU_PRESETS[args.cpu].items())),
             "B: LD_PRELOAD=%s%s in its %s" % (
                 args.lib, " CRYPTOSHIM_KERNELS=%s" % args.kernels if args.kernels else "",
                 {"server": "server (both clients stock)", "client": "client (both servers stock)",
                  "both": "server and its client"}[args.preload])] + \
            (["client verifies: SSL_VERIFY_PEER, the leaf against the CA %s, host localhost"
              % os.path.basename(ctx["cafile"])] if ctx.get("cafile") else []) + [
             "server ports: A %d, B %d" % (srv_a.port, srv_b.port)] + \
            ["negotiated with %s: %s" % (side, NEGOTIATED[s.port])
             for side, s in (("A", srv_a), ("B", srv_b)) if s.port in NEGOTIATED] + [
             "server-side samples A %d, B %d (of %d each)" % (len(srv_a_us), len(srv_b_us), args.handshakes)] + notes + \
            ([args.openssl_note] if getattr(args, "openssl_note", None) else [])
    # B's server keeps the line the default mode always printed.
    for which, who in (("server", "B"), ("client", "B's client"), ("a-client", "A's client")):
        if which == "server" and args.preload == "client":
            continue
        if which != "server" and args.preload == "server":
            continue
        rows_ = shim_stats(args, stats_path[which])
        if rows_:
            notes.append("shim calls in %s (operation kernel bits calls): " % who +
                         "; ".join(r.replace("\t", " ") for r in rows_))
        else:
            notes.append("shim calls in %s: none counted%s" % (
                who, " (no counter file: the shim was not loaded)"
                if not os.path.exists(stats_path[which]) else ""))
    notes.append("server CPU: utime+stime of each server's process and its children "
                 "(/proc/PID/stat, exact run times from schedstat), read around each block: "
                 "A pid %d, B pid %d" % (srv_a.proc.pid, srv_b.proc.pid))
    md = abstats.markdown(title, metrics, primary, result, notes, blocks,
                          loadreport.cpu_section(cpu))
    plots = abstats.plot(outdir, title, metrics)
    with open(os.path.join(outdir, "report.md"), "w") as f:
        f.write(md)
    print(md)
    print("Files: %s" % ", ".join(os.path.join(outdir, n) for n in
                                  ["report.md", "samples.csv"] + [os.path.basename(p) for p in plots]))
    return 1 if ver == "slower" else 0


def measure_load(args, outdir, work):
    """A run under load on harness-started servers: both started, blocks of
    --block-seconds alternating A and B per level, the server CPU read
    around each block; returns the exit status."""
    env_a, env_b, clients, _env = side_envs(args, outdir)
    srv_a, srv_b, ctx = make_servers(args, work, env_a, env_b)
    negotiated = {}
    server_cpus, client_cpus = load.placement(args)
    try:
        for s in (srv_a, srv_b):
            s.cpus = server_cpus
            s.start()
        if client_cpus and args.mode == "ssh":
            os.sched_setaffinity(0, client_cpus)  # the SSH client's threads are the harness's
        port = {"A": srv_a.port, "B": srv_b.port}
        print("cryptoshim ab: A (without the shim) on port %d, B (with it) on port %d; under "
              "load: %s, %d rounds of %g s blocks" % (
                  srv_a.port, srv_b.port, ", ".join(loadreport.level_name(lv) if lv[1] != "auto"
                                                    else "rate auto" for lv in args.levels),
                  args.rounds, args.block_seconds), file=sys.stderr)
        if args.mode == "ssh":
            write_known_hosts(ctx, [srv_a.port, srv_b.port])
            runner = load.SshLoad(lambda side: "127.0.0.1", ctx["kex"], args.hostkey_alg,
                                  negotiated)
        else:
            prefix, extra = servers.unpacked_openssl(args.openssl)
            opts = ["--tls", args.tls]
            for flag, val in (("--cafile", ctx.get("cafile")), ("--groups", args.groups),
                              ("--ciphers", args.ciphers)):
                if val:
                    opts += [flag, val]
            runner = load.TlsLoad(
                lambda side: (prefix + [ctx["client"], "127.0.0.1", str(port[side])], opts,
                              extra), lambda side: clients[side], negotiated, client_cpus)
        # Warm-up (not counted): a short closed loop each, so page-ins and
        # the servers' first allocations land in no block.
        for side in "AB":
            runner.block(side, ("closed", 1), -1, 0.2, 2.0, 1,
                         **({"port": port[side]} if args.mode == "ssh" else {}))
        meters = {"A": proccpu.Meter(srv_a.proc.pid, ""), "B": proccpu.Meter(srv_b.proc.pid, "")}
        t0 = time.monotonic()
        blocks, levels = load.run_blocks(args, args.levels, runner, meters, port)
        elapsed = time.monotonic() - t0
    finally:
        for s in (srv_b, srv_a):
            s.stop()
    title = "cryptoshim A/B under load: %s" % ctx["desc"]
    notes = ["%d rounds per level, each a %g s block of A and of B, alternating (A B, B A, ...), "
             "%.1f s in all" % (args.rounds, args.block_seconds, elapsed),
             "load client: %s" % ("ab-tls-client's load loop (one thread, non-blocking sockets)"
                                  if args.mode != "ssh" else
                                  "sshkex.py key exchanges on threads (no login)"),
             "server CPU: utime+stime of the server's process and its children (/proc/PID/stat, "
             "exact run times from schedstat), read around each block: A pid %d, B pid %d"
             % (srv_a.proc.pid, srv_b.proc.pid),
             ("CPUs: both servers on CPU %s, the load client on %s (--no-pin: anywhere)" % (
                 ",".join(map(str, sorted(server_cpus))), ",".join(map(str, sorted(client_cpus))))
              if server_cpus else "CPUs: servers and client anywhere (%s)" % (
                  "--no-pin" if args.no_pin else "one CPU")),
             "CPU preset: %s" % args.cpu,
             "B: LD_PRELOAD=%s%s in its server" % (
                 args.lib, " CRYPTOSHIM_KERNELS=%s" % args.kernels if args.kernels else ""),
             "server ports: A %d, B %d" % (srv_a.port, srv_b.port), loadreport.machine_note()]
    if getattr(args, "openssl_note", None):
        notes.append(args.openssl_note)
    notes += ["negotiated with %s: %s" % (s, negotiated[s]) for s in "AB" if s in negotiated]
    rows = shim_stats(args, os.path.join(outdir, STATS_FILES["server"]))
    notes.append("shim calls in B (operation kernel bits calls): " +
                 "; ".join(r.replace("\t", " ") for r in rows) if rows else
                 "shim calls in B: none counted")
    return loadreport.write(outdir, title, blocks, levels, notes, args.metric)


def describe(e):
    """One line for an error from the run (no traceback, no errno form)."""
    if isinstance(e, subprocess.TimeoutExpired):
        cmd = e.cmd[0] if isinstance(e.cmd, (list, tuple)) else str(e.cmd).split()[0]
        return "%s did not finish within %d s" % (os.path.basename(cmd), e.timeout)
    if isinstance(e, OSError):
        what = e.filename if e.filename else "a system call"
        return "%s: %s" % (what, (e.strerror or str(e)).lower())
    if isinstance(e, pcapread.CaptureError):
        return str(e)
    return " ".join(str(e).split()) if isinstance(e, RuntimeError) else "%s: %s" % (
        type(e).__name__, e)


def main(argv):
    # SIGINT (Ctrl-C), SIGTERM (timeout, kill) and SIGHUP unwind through
    # run()'s clean-up: every server and tcpdump is stopped by its pid.
    # Set before anything starts, and even where the caller ignored SIGINT
    # (a background job of a script).
    for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(s, on_signal)
    try:
        args = parse_args(argv)
        args.client_path = find_client(args, required=False)
        args.openssl_note = pick_openssl(args)
        resolve_sshd(args)
        preflight(args)
        return run(args)
    except Interrupted as e:
        print("cryptoshim ab: stopped by %s; every server it started is stopped" %
              signal.Signals(e.signum).name, file=sys.stderr)
        return 128 + e.signum
    except Missing as e:
        print("cryptoshim ab: %s" % e, file=sys.stderr)
        return 2
    except Exception as e:  # one line, never a traceback
        print("cryptoshim ab: %s" % describe(e), file=sys.stderr)
        return 2
    finally:
        servers.stop_all()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
