#!/usr/bin/python3
"""The servers the A/B harness compares, each started from a generated
configuration on 127.0.0.1 and stopped by its own pid: `openssl s_server`,
nginx and sshd. Also key/certificate generation and the SSH client login."""
import ctypes
import os
import pwd
import shutil
import signal
import socket
import subprocess
import time


_GIVEN_PORTS = set()

# Every process spawn() started and stop_process() has not stopped yet.
_LIVE = []
# When set, spawn() appends "PID PROGRAM" for each process it starts (the
# harness puts it in the output directory; tests check none is left).
PID_LOG = None
_LIBC = ctypes.CDLL(None, use_errno=True)
_PR_SET_PDEATHSIG = 1


def _die_with_parent(parent, cpus=None):
    """Child side of spawn(), before exec: SIGTERM when the harness exits,
    however it exits (even SIGKILL), and exit now if it already has; run
    only on cpus when given (its children inherit it)."""
    _LIBC.prctl(_PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
    if os.getppid() != parent:
        os._exit(1)
    if cpus:
        os.sched_setaffinity(0, cpus)


def spawn(cmd, cpus=None, **kw):
    """Starts a daemon the harness must stop: in its own session and process
    group (stop_process signals the whole group: nginx's workers too), tied to
    the harness's life, and recorded until it is stopped; cpus (a set of CPU
    numbers) confines it and its children."""
    parent = os.getpid()
    proc = subprocess.Popen(cmd, start_new_session=True,
                            preexec_fn=lambda: _die_with_parent(parent, cpus), **kw)
    _LIVE.append(proc)
    if PID_LOG:
        with open(PID_LOG, "a") as f:
            f.write("%d %s\n" % (proc.pid, os.path.basename(cmd[0])))
    return proc


def _signal_group(proc, sig):
    """Sends sig to proc's process group; False when nothing is left in it."""
    try:
        os.killpg(proc.pid, sig)
        return True
    except (ProcessLookupError, PermissionError):
        return False


def stop_process(proc, sig=signal.SIGTERM, grace=5.0):
    """Stops a spawn()ed process and its group: sig, then SIGKILL after grace
    seconds. Harmless when it is already gone; never raises for that."""
    if proc in _LIVE:
        _LIVE.remove(proc)
    if proc.poll() is None:
        _signal_group(proc, sig)
        try:
            proc.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            _signal_group(proc, signal.SIGKILL)
            proc.wait()
    # The leader is gone; anything left in its group (a worker) goes too.
    _signal_group(proc, signal.SIGKILL)


def stop_all():
    """Stops every process spawn() started that is still recorded, newest
    first."""
    while _LIVE:
        stop_process(_LIVE[-1])


def free_port():
    """A TCP port on 127.0.0.1 that is free right now and was not handed out
    before by this process (two servers are set up before either listens)."""
    for _ in range(100):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        if port not in _GIVEN_PORTS:
            _GIVEN_PORTS.add(port)
            return port
    raise RuntimeError("no free port found")


def wait_port(port, proc, limit=15.0):
    """Waits (bounded) until something accepts on port; raises if the
    process died or the time ran out."""
    end = time.monotonic() + limit
    while time.monotonic() < end:
        if proc.poll() is not None:
            raise RuntimeError("server exited with status %d" % proc.returncode)
        with socket.socket() as s:
            s.settimeout(0.2)
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.05)
    raise RuntimeError("nothing listening on port %d after %.0fs" % (port, limit))


def run(cmd, **kw):
    """Runs a setup command, raising with its output when it fails."""
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, **kw)
    if r.returncode != 0:
        raise RuntimeError("%s failed:\n%s" % (" ".join(cmd), r.stdout))
    return r.stdout


def make_cert(workdir, kind, openssl="openssl"):
    """Self-signed CN=localhost certificate of kind rsa2048|rsa3072|rsa4096,
    ecdsa-p256, ed25519 (or mldsa44|65|87 with an OpenSSL 3.5 binary);
    returns (cert, key)."""
    cert, key = os.path.join(workdir, "%s.crt" % kind), os.path.join(workdir, "%s.key" % kind)
    newkey = _newkey(kind)
    try:
        run([openssl, "req", "-x509"] + newkey + ["-nodes", "-days", "2",
             "-subj", "/CN=localhost", "-keyout", key, "-out", cert])
    except RuntimeError:
        _no_mldsa(kind, newkey, openssl)
        raise
    return cert, key


# Certificate kinds (--cert) and the `openssl req` options that make their key.
CERT_KINDS = ("rsa2048", "rsa3072", "rsa4096", "ecdsa-p256", "ed25519",
              "mldsa44", "mldsa65", "mldsa87")


def _newkey(kind):
    """`openssl req` options (-newkey and its parameters) of a certificate
    kind; ed25519 and ML-DSA sign without a separate digest."""
    if kind in ("rsa2048", "rsa3072", "rsa4096"):
        return ["-newkey", "rsa:%s" % kind[3:]]
    if kind == "ecdsa-p256":
        return ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256"]
    if kind == "ed25519":
        return ["-newkey", "ed25519"]
    if kind in ("mldsa44", "mldsa65", "mldsa87"):
        return ["-newkey", "ML-DSA-%s" % kind[5:]]
    raise ValueError("unknown certificate kind %s" % kind)


def _no_mldsa(kind, newkey, openssl):
    """After a failed key generation: for ML-DSA, raises the sentence that
    says which OpenSSL it needs (else returns, and the caller re-raises)."""
    if kind.startswith("mldsa"):
        raise RuntimeError("%s cannot make %s keys: ML-DSA needs OpenSSL 3.5 or later "
                           "(--openssl build/openssl35/bin/openssl; make openssl35 fetches it)"
                           % (openssl, newkey[-1])) from None


def make_chain(workdir, kind, openssl="openssl"):
    """A CA of kind (its own self-signed certificate, CN=cryptoshim-ab-ca)
    and a CN=localhost leaf of the same kind signed by it, for a client that
    verifies (subjectAltName localhost, serverAuth); returns (cert, key, cafile)."""
    cakey, ca = os.path.join(workdir, "ca-%s.key" % kind), os.path.join(workdir, "ca-%s.crt" % kind)
    key, cert = os.path.join(workdir, "leaf-%s.key" % kind), os.path.join(workdir, "leaf-%s.crt" % kind)
    csr, ext = os.path.join(workdir, "leaf-%s.csr" % kind), os.path.join(workdir, "leaf.ext")
    newkey = _newkey(kind)
    with open(ext, "w") as f:
        f.write("basicConstraints=critical,CA:FALSE\nkeyUsage=critical,digitalSignature\n"
                "extendedKeyUsage=serverAuth\nsubjectAltName=DNS:localhost\n")
    try:
        run([openssl, "req", "-x509"] + newkey + ["-nodes", "-days", "2",
             "-subj", "/CN=cryptoshim-ab-ca", "-keyout", cakey, "-out", ca,
             "-addext", "basicConstraints=critical,CA:TRUE",
             "-addext", "keyUsage=critical,keyCertSign"])
    except RuntimeError:
        _no_mldsa(kind, newkey, openssl)
        raise
    run([openssl, "req", "-new"] + newkey + ["-nodes", "-subj", "/CN=localhost",
         "-keyout", key, "-out", csr])
    run([openssl, "x509", "-req", "-in", csr, "-CA", ca, "-CAkey", cakey, "-days", "2",
         "-extfile", ext, "-out", cert])
    return cert, key, ca


class Server:
    """A daemon of one side (A or B): command, environment, log, pid."""

    def __init__(self, side, workdir, env):
        self.side, self.workdir, self.env = side, workdir, env
        self.port = free_port()
        self.proc = None
        self.cpus = None  # CPUs it may run on (None: any)

    def command(self):
        raise NotImplementedError

    def start(self):
        """Starts the server (recorded for stop_all() before it is waited
        for) and waits until it listens; raises with its log if it exits."""
        self.log = os.path.join(self.workdir, "server-%s.log" % self.side)
        cmd = self.command()
        with open(self.log, "w") as log:
            self.proc = spawn(cmd, cpus=self.cpus, env=self.env, stdin=subprocess.DEVNULL,
                              stdout=log, stderr=subprocess.STDOUT, cwd=self.workdir)
        try:
            wait_port(self.port, self.proc)
        except RuntimeError as e:
            with open(self.log, errors="replace") as f:
                tail = " | ".join(line.strip() for line in f.readlines()[-3:] if line.strip())
            raise RuntimeError("server %s (%s) did not start: %s%s" % (
                self.side, os.path.basename(cmd[0]), e,
                ": " + tail if tail else "")) from None

    def stop(self):
        """Stops the server and its process group by its pid: TERM, then
        KILL after 5 s."""
        if self.proc is not None:
            stop_process(self.proc)


class TlsServer(Server):
    """`openssl s_server -www` with the given certificate and groups."""

    def __init__(self, side, workdir, env, openssl, cert, key, groups):
        super().__init__(side, workdir, env)
        self.openssl, self.cert, self.key, self.groups = openssl, cert, key, groups

    def command(self):
        cmd = [self.openssl, "s_server", "-accept", "127.0.0.1:%d" % self.port,
               "-cert", self.cert, "-key", self.key, "-www", "-quiet", "-num_tickets", "0"]
        if self.groups:
            cmd += ["-groups", self.groups]
        return cmd


class NginxServer(Server):
    """Debian's nginx (master and one worker) from a generated config."""

    def __init__(self, side, workdir, env, nginx, cert, key, connections=256):
        super().__init__(side, workdir, env)
        self.nginx, self.cert, self.key = nginx, cert, key
        self.connections = connections
        self.prefix = os.path.join(workdir, "nginx-%s" % side)

    def command(self):
        os.makedirs(os.path.join(self.prefix, "logs"), exist_ok=True)
        conf = os.path.join(self.prefix, "nginx.conf")
        with open(conf, "w") as f:
            f.write(nginx_conf(self.prefix, self.port, self.cert, self.key,
                               connections=self.connections))
        return [self.nginx, "-p", self.prefix, "-c", conf]


def nginx_conf(prefix, port, cert, key, dhparam=None, connections=256):
    """A minimal HTTPS nginx configuration on 127.0.0.1:port, not daemonized,
    with all its files under prefix (no session reuse: full handshakes);
    dhparam (a PEM file) enables TLS 1.2 DHE; connections: the worker's
    worker_connections (a run under load raises it)."""
    user = "user nobody nogroup;\n" if os.geteuid() == 0 else ""
    temp = "".join("    %s_temp_path %s/%s;\n" % (t, prefix, t)
                   for t in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    dh = "        ssl_dhparam %s;\n" % dhparam if dhparam else ""
    return f"""{user}daemon off;
master_process on;
worker_processes 1;
pid {prefix}/nginx.pid;
error_log {prefix}/logs/error.log warn;
env CRYPTOSHIM_STATS;
env CRYPTOSHIM_KERNELS;
env CRYPTOSHIM_DISABLE;
env CRYPTOSHIM_CPU;
env OPENSSL_ia32cap;
events {{ worker_connections {connections}; }}
http {{
    access_log off;
{temp}    server {{
        listen 127.0.0.1:{port} ssl;
        server_name localhost;
        ssl_certificate {cert};
        ssl_certificate_key {key};
        ssl_protocols TLSv1.2 TLSv1.3;
        ssl_session_cache off;
        ssl_session_tickets off;
{dh}        location / {{ return 200 "cryptoshim nginx test\\n"; }}
    }}
}}
"""


class SshServer(Server):
    """An sshd in the foreground from a generated config (as OpenSSH's regress
    suite runs it), privilege separation and sandbox as shipped: Debian's, or
    (tree) an unpacked OpenSSH tree's through its loader (openssh_tree)."""

    def __init__(self, side, workdir, env, sshd, hostkey, authorized, kex, hostkey_alg,
                 tree=None):
        super().__init__(side, workdir, env)
        self.sshd, self.hostkey, self.authorized = sshd, hostkey, authorized
        self.kex, self.hostkey_alg, self.tree = kex, hostkey_alg, tree

    def command(self):
        conf = os.path.join(self.workdir, "sshd_config-%s" % self.side)
        helpers = tree_helpers(self.tree, self.workdir) if self.tree else None
        with open(conf, "w") as f:
            f.write(sshd_conf(self.port, self.hostkey, self.authorized, self.kex,
                              self.hostkey_alg, os.path.join(self.workdir, "sshd-%s.pid" % self.side),
                              helpers))
        os.makedirs("/run/sshd", mode=0o755, exist_ok=True)
        if self.tree:
            return [os.path.join(self.tree, "bin", "run"),
                    os.path.join(self.tree, "root", "usr", "sbin", "sshd"), "-D", "-e", "-f", conf]
        return [self.sshd, "-D", "-e", "-f", conf]


def openssh_tree(path):
    """The unpacked OpenSSH tree (bin/run, root/usr/sbin/sshd, root/usr/bin/ssh)
    that path names (the tree itself or its sshd), or None when it is not one."""
    path = os.path.abspath(path)
    for tree in (path, os.path.join(os.path.dirname(path), "..", "..", "..")):
        tree = os.path.normpath(tree)
        if all(os.path.exists(os.path.join(tree, *p)) for p in
               (("bin", "run"), ("root", "usr", "sbin", "sshd"), ("root", "usr", "bin", "ssh"))):
            return tree
    return None


def tree_helpers(tree, workdir):
    """sshd execs sshd-session and sshd-auth by absolute path, which in an
    unpacked tree would run them on the system's libraries: two wrapper
    scripts in workdir run them through the tree's loader. Returns
    (session, auth) paths."""
    out = []
    for name in ("sshd-session", "sshd-auth"):
        path = os.path.join(workdir, name)
        with open(path, "w") as f:
            f.write("#!/bin/sh\nexec %s %s \"$@\"\n" % (
                os.path.join(tree, "bin", "run"),
                os.path.join(tree, "root", "usr", "lib", "openssh", name)))
        os.chmod(path, 0o755)
        out.append(path)
    return tuple(out)


def sshd_conf(port, hostkey, authorized, kex, hostkey_alg, pidfile, helpers=None,
              loglevel="ERROR"):
    """sshd_config for 127.0.0.1:port, public-key login only; kex None keeps
    the server's default key exchange; helpers: (sshd-session, sshd-auth)
    of an unpacked tree (tree_helpers). Also the config of the sshd test
    suites (tests/bats/helpers/sshd.bash, loglevel VERBOSE)."""
    kex_line = "KexAlgorithms %s\n" % kex if kex else ""
    paths = "SshdSessionPath %s\nSshdAuthPath %s\n" % helpers if helpers else ""
    return f"""ListenAddress 127.0.0.1:{port}
HostKey {hostkey}
PidFile {pidfile}
AuthorizedKeysFile {authorized}
StrictModes no
PermitRootLogin prohibit-password
PubkeyAuthentication yes
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
{kex_line}HostKeyAlgorithms {hostkey_alg}
{paths}MaxStartups 200
MaxSessions 50
LogLevel {loglevel}
Subsystem sftp /usr/lib/openssh/sftp-server
"""


def ssh_keys(workdir, hostkey):
    """Host key (hostkey: RSA bits, or "ed25519") and an Ed25519 user key,
    all from the system's ssh-keygen; returns (hostkey, userkey,
    authorized_keys)."""
    if hostkey == "ed25519":
        path, opts = os.path.join(workdir, "ssh_host_ed25519_key"), ["-t", "ed25519"]
    else:
        path = os.path.join(workdir, "ssh_host_rsa%s_key" % hostkey)
        opts = ["-t", "rsa", "-b", str(hostkey)]
    userkey = os.path.join(workdir, "id_user")
    for p, args in ((path, opts), (userkey, ["-t", "ed25519"])):
        if not os.path.exists(p):
            run(["ssh-keygen", "-q", "-N", "", "-C", "cryptoshim-ab", "-f", p] + args)
    authorized = os.path.join(workdir, "authorized_keys")
    with open(userkey + ".pub") as src, open(authorized, "w") as dst:
        dst.write(src.read())
    return path, userkey, authorized


def ssh_client_cmd(port, userkey, known_hosts, kex, hostkey_alg, command="true", ssh=("ssh",),
                   verbose=False):
    """The `ssh` command line (ssh: the client's command prefix) of one
    public-key login that runs command; kex None offers the client's
    default key exchanges; verbose (-v) prints what was negotiated."""
    return list(ssh) + ["-F", "/dev/null", "-p", str(port), "-i", userkey,
            "-o", "IdentitiesOnly=yes", "-o", "BatchMode=yes",
            "-o", "UserKnownHostsFile=%s" % known_hosts, "-o", "StrictHostKeyChecking=yes"] + \
        (["-o", "KexAlgorithms=%s" % kex] if kex else []) + \
        ["-o", "HostKeyAlgorithms=%s" % hostkey_alg,
         "-o", "ControlMaster=no", "-o", "ConnectTimeout=10"] + (["-v"] if verbose else []) + \
        ["%s@127.0.0.1" % pwd.getpwuid(os.getuid()).pw_name, command]


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
