#!/usr/bin/python3
"""A/B under load (`cryptoshim ab tls|nginx|ssh ... --concurrency N` or
`--rate R`): blocks of fixed duration against A and against B, alternating
(A B, then B A, ...), each block either a closed loop (N handshakes in
flight, a new one as soon as one ends) or an open loop (R new handshakes per
second on a fixed schedule, latency from each one's scheduled start). The
server's CPU (its process and children, /proc) is read around each block.
TLS load comes from ab-tls-client's load loop (C); SSH load from sshkex.py
key exchanges on threads.

Every run is bounded: at most MAX_INFLIGHT_PER_CPU handshakes in flight per
CPU, MAX_BLOCK_HANDSHAKES per block, the whole plan within --max-seconds,
targets on loopback only (127.0.0.0/8, ::1)."""
import ipaddress
import os
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor, wait as futures_wait

import listener
import loadreport
import proccpu
import servers
import sshkex

MAX_INFLIGHT_PER_CPU = 256
MAX_BLOCK_HANDSHAKES = 200000
MAX_RATE = 50000.0
# Rates of `--rate auto`, as fractions of A's closed-loop capacity.
AUTO_FRACTIONS = (0.25, 0.5, 0.75, 1.0, 1.25)


class LoadError(RuntimeError):
    """A load plan or target that cannot be run; one sentence (exit 2)."""


def _numbers(text, what, conv):
    """Comma-separated positive numbers of text; raises LoadError."""
    out = []
    for w in text.split(","):
        try:
            v = conv(w)
        except ValueError:
            raise LoadError("%s %r: expected a positive number or a list like 1,4,16" %
                            (what, text)) from None
        if v <= 0:
            raise LoadError("%s %r: expected positive numbers" % (what, text))
        out.append(v)
    return out


def max_inflight():
    """(handshakes in flight this machine allows, why): MAX_INFLIGHT_PER_CPU
    per CPU, within the file descriptors the client may open."""
    import resource
    cpus = len(os.sched_getaffinity(0))
    fds = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    by_cpu = MAX_INFLIGHT_PER_CPU * cpus
    limit = min(by_cpu, max(1, fds - 64))
    return limit, "%d per CPU, %d CPUs; %d file descriptors" % (MAX_INFLIGHT_PER_CPU, cpus, fds)


def plan(args):
    """The levels of the run, [("closed", N) ...] then [("open", R) ...]
    (("open", "auto") for --rate auto); raises LoadError when the plan is
    too large for this machine or for --max-seconds."""
    levels = []
    limit, why = max_inflight()
    if args.concurrency:
        for n in _numbers(args.concurrency, "--concurrency", int):
            if n > limit:
                raise LoadError("--concurrency %d is too large for this machine: at most %d "
                                "handshakes in flight (%s)" % (n, limit, why))
            levels.append(("closed", n))
    if args.rate == "auto":
        if not args.concurrency:
            raise LoadError("--rate auto needs --concurrency: the rates are fractions of A's "
                            "closed-loop capacity")
        levels += [("open", "auto")]
    elif args.rate:
        for r in _numbers(args.rate, "--rate", float):
            if r > MAX_RATE or r * args.block_seconds > MAX_BLOCK_HANDSHAKES:
                raise LoadError("--rate %g is too large for this machine: at most %g handshakes "
                                "per second and %d per block" % (r, MAX_RATE, MAX_BLOCK_HANDSHAKES))
            levels.append(("open", r))
    if args.rounds < 2:
        raise LoadError("--rounds must be at least 2 (each round is one A and one B block)")
    if not 0.2 <= args.block_seconds <= 60:
        raise LoadError("--block-seconds must be between 0.2 and 60")
    nlev = len(levels) - 1 + (len(AUTO_FRACTIONS) if levels[-1] == ("open", "auto") else 1)
    planned = nlev * args.rounds * 2 * (args.block_seconds + 0.5)
    if planned > args.max_seconds:
        raise LoadError("the plan takes about %.0f s (%d levels x %d rounds x 2 blocks of %g s), "
                        "more than --max-seconds %d" % (planned, nlev, args.rounds,
                                                        args.block_seconds, args.max_seconds))
    return levels


def check_loopback(label, addr):
    """Raises LoadError unless addr is a loopback address: load is only
    generated against this machine."""
    try:
        ok = ipaddress.ip_address(addr.split("%")[0]).is_loopback
    except ValueError:
        ok = False
    if not ok:
        raise LoadError("%s %s is not a loopback address: load runs only against this machine "
                        "(127.0.0.0/8 or ::1)" % (label, addr))


def meter_for(label, port, pid):
    """(proccpu.Meter or None, how it was found or why not) for the server
    on port: the PID given (checked readable and, where /proc shows the
    listener, the listener or its ancestor), else the listening process
    found by port. Raises LoadError for a PID that cannot be used."""
    seen = listener.listeners(port)
    if pid is not None:
        try:
            proccpu.check(pid)
        except proccpu.Unreadable as e:
            raise LoadError("--%s-pid %d: %s" % (label.lower(), pid, e)) from None
        if seen and not any(proccpu.descends(p, pid) for p in seen):
            raise LoadError("--%s-pid %d does not listen on port %d (listening: pid %s)" % (
                label.lower(), pid, port, ", ".join(map(str, seen))))
        return proccpu.Meter(pid, "pid %d (given) and its children" % pid), None
    roots = proccpu.ancestors_first(seen)
    if len(roots) == 1:
        return proccpu.Meter(roots[0], "pid %d (listening on port %d) and its children" % (
            roots[0], port)), None
    if not roots:
        return None, ("no process seen listening on port %d (another user's? give --%s-pid)"
                      % (port, label.lower()))
    return None, "several processes listen on port %d (%s): give --%s-pid" % (
        port, ", ".join(map(str, roots)), label.lower())


class Block:
    """One block of one side: its level, round, duration, the handshakes
    (latencies in us of those that completed, start times), failures by
    reason, and the server CPU seconds it cost (None when not measured)."""

    def __init__(self, side, level, rnd, seconds):
        self.side, self.level, self.round, self.seconds = side, level, rnd, seconds
        self.lat, self.ends, self.fail = [], [], {}
        self.cpu = None
        self.frozen = False

    @property
    def ok(self):
        return len(self.lat)

    @property
    def failed(self):
        return sum(self.fail.values())

    def rate(self):
        """Handshakes completed per second within the block's duration."""
        return sum(1 for e in self.ends if e <= self.seconds * 1e6) / self.seconds

    def cpu_per_hs(self):
        """Server CPU milliseconds per completed handshake, or None."""
        return None if self.cpu is None or not self.ok else self.cpu * 1e3 / self.ok


def placement(args):
    """(CPUs for both servers, CPUs for the load client), or (None, None):
    with two CPUs or more and without --no-pin, the servers A and B share
    the last CPU of this process's set and the client gets the others. A
    server's CPU per handshake depends on the CPU it runs on (what shares
    its core and caches): unpinned, A and B can land on different CPUs for
    a whole run and their ratio moves from run to run by several times the
    interval."""
    cpus = sorted(os.sched_getaffinity(0))
    if args.no_pin or len(cpus) < 2:
        return None, None
    return {cpus[-1]}, set(cpus[:-1])


def _tracked(cmd, env, timeout, cpus=None):
    """Runs cmd as a recorded process (servers.spawn: its own process group,
    ended with the harness, on cpus when given) and returns (status, stdout,
    stderr); stops it when the timeout passes or anything goes wrong."""
    proc = servers.spawn(cmd, cpus=cpus, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        raise RuntimeError("ab-tls-client did not finish within %d s" % timeout) from None
    finally:
        servers.stop_process(proc)
    return proc.returncode, out, err


class TlsLoad:
    """Blocks of TLS handshakes from ab-tls-client's load loop. cmd(side)
    gives (argv head up to the port, options, extra environment); env(side)
    the client's environment."""

    def __init__(self, cmd, env, negotiated, cpus=None):
        self.cmd, self.env, self.negotiated, self.cpus = cmd, env, negotiated, cpus

    def block(self, side, level, rnd, seconds, drain, inflight):
        head, opts, extra = self.cmd(side)
        kind, value = level
        count = MAX_BLOCK_HANDSHAKES
        opts = opts + ["--seconds", "%g" % seconds, "--drain", "%g" % drain]
        if kind == "closed":
            opts += ["--concurrency", str(value)]
        else:
            opts += ["--rate", "%g" % value, "--max-inflight", str(inflight)]
            count = min(count, int(value * seconds) + 1)
        rc, out, err = _tracked(head + [str(count)] + opts, dict(self.env(side), **extra),
                                seconds + drain + 30, self.cpus)
        if rc != 0:
            raise RuntimeError("ab-tls-client (load) failed against %s: %s" % (
                side, " ".join(err.split())[:300]))
        b = Block(side, level, rnd, seconds)
        for line in out.splitlines():
            w = line.split(None, 2)
            if w[0] == "ok":
                b.lat.append(float(w[2]))
                b.ends.append(float(w[1]) + float(w[2]))
            elif w[0] == "fail":
                why = w[2] if len(w) > 2 else "failed"
                b.fail[why] = b.fail.get(why, 0) + 1
        for line in err.splitlines():
            if line.startswith("negotiated: "):
                self.negotiated[side] = line[len("negotiated: "):]
        return b


class SshLoad:
    """Blocks of SSH key exchanges (sshkex.py, no login) on threads: closed
    loop, N threads each starting its next exchange when one ends; open
    loop, exchanges submitted on schedule to a pool of at most `inflight`
    threads (a late one waits in line; its latency counts from its
    scheduled start)."""

    def __init__(self, addr, kex, hostkey_alg, negotiated):
        self.addr, self.kex, self.alg, self.negotiated = addr, kex, hostkey_alg, negotiated

    def _one(self, side, port, t0, sched, b, lock, limit):
        try:
            _us, _lport, ident = sshkex.one_exchange(self.addr(side), port, self.kex, self.alg,
                                                     timeout=limit)
        except (sshkex.KexError, OSError) as e:
            why = str(e) if isinstance(e, sshkex.KexError) else (e.strerror or str(e)).lower()
            with lock:
                if not b.frozen:
                    b.fail[why] = b.fail.get(why, 0) + 1
            return
        end = time.monotonic() - t0
        with lock:
            if b.frozen:  # ended after the block was counted as unfinished
                return
            b.lat.append((end - sched) * 1e6)
            b.ends.append(end * 1e6)
            self.negotiated[side] = "%s, %s %s" % (ident, self.kex, self.alg)

    def block(self, side, level, rnd, seconds, drain, inflight, port):
        kind, value = level
        b, lock = Block(side, level, rnd, seconds), threading.Lock()
        limit = max(1.0, min(20.0, seconds + drain))
        t0 = time.monotonic()
        if kind == "closed":
            def worker():
                while time.monotonic() - t0 < seconds:
                    self._one(side, port, t0, time.monotonic() - t0, b, lock, limit)
            threads = [threading.Thread(target=worker, daemon=True) for _ in range(value)]
            for t in threads:
                t.start()
            for t in threads:
                t.join(max(0.0, t0 + seconds + drain + limit - time.monotonic()))
            left = sum(t.is_alive() for t in threads)
        else:
            pool = ThreadPoolExecutor(max_workers=min(inflight, 256))
            futs, k = [], 0
            while True:
                sched = k / value
                if sched >= seconds or k >= MAX_BLOCK_HANDSHAKES:
                    break
                delay = t0 + sched - time.monotonic()
                if delay > 0:
                    time.sleep(delay)
                futs.append(pool.submit(self._one, side, port, t0, sched, b, lock, limit))
                k += 1
            done, pending = futures_wait(futs, timeout=max(0.0, t0 + seconds + drain -
                                                                time.monotonic()))
            pool.shutdown(wait=False, cancel_futures=True)
            left = len(pending)
        with lock:
            b.frozen = True
            if left:
                b.fail["unfinished"] = b.fail.get("unfinished", 0) + left
        return b


def _settle(meter, limit=1.0):
    """Reads the meter until two readings 50 ms apart agree (the server's
    children of the block have ended and been reaped), at most limit s."""
    end = time.monotonic() + limit
    last = meter.read()
    while time.monotonic() < end:
        time.sleep(0.05)
        now = meter.read()
        if abs(now - last) < 1e-4:
            return now
        last = now
    return last


def run_blocks(args, levels, runner, meters, port_of):
    """Every level's rounds, A and B alternating; list of Blocks. `runner`
    is a TlsLoad or SshLoad; meters {side: Meter or None}."""
    blocks = []
    inflight, _why = max_inflight()
    drain = max(2.0, args.block_seconds)
    done_levels = []
    for level in levels:
        todo = [level]
        if level == ("open", "auto"):
            cap = loadreport.capacity_of(blocks, "A")
            if not cap:
                raise RuntimeError("--rate auto: A completed no handshake in the closed loop")
            todo = [("open", round(cap * f, 1)) for f in AUTO_FRACTIONS]
        for lev in todo:
            done_levels.append(lev)
            for rnd in range(args.rounds):
                for side in ("A", "B") if rnd % 2 == 0 else ("B", "A"):
                    m = meters.get(side)
                    c0 = _settle(m) if m else None
                    kw = {"port": port_of[side]} if isinstance(runner, SshLoad) else {}
                    b = runner.block(side, lev, rnd, args.block_seconds, drain, inflight, **kw)
                    if m:
                        b.cpu = _settle(m) - c0
                    blocks.append(b)
                    print("cryptoshim ab: %s %s round %d: %d handshakes, %.0f/s%s" % (
                        side, loadreport.level_name(lev), rnd + 1, b.ok, b.rate(),
                        ", %.3f ms CPU each" % b.cpu_per_hs() if b.cpu_per_hs() else ""),
                        file=sys.stderr)
    return blocks, done_levels
