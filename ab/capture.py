#!/usr/bin/python3
"""The A/B harness's packet capture: tcpdump on an interface with a BPF
filter, writing a pcap file with nanosecond timestamps."""
import os
import signal
import subprocess
import time

import servers


def port_filter(ports):
    """tcpdump filter: TCP to or from any of the ports."""
    return "tcp and (%s)" % " or ".join("port %d" % p for p in ports)


class Capture:
    """tcpdump on one interface (loopback by default) with a BPF filter, into
    a pcap file; started and stopped by its pid (servers.spawn)."""

    def __init__(self, path, tcpdump, env, iface, flt):
        self.path, self.proc, self.iface, self.flt = path, None, iface, flt
        self.tcpdump, self.env = tcpdump, env
        self.err = path + ".log"

    def start(self):
        """Starts tcpdump and waits (bounded) until it listens; raises
        RuntimeError with its message when it does not start."""
        tcpdump, flt = self.tcpdump, self.flt
        cmd = [tcpdump, "-i", self.iface, "-n", "-s", "0", "-B", "16384", "--immediate-mode",
               "--time-stamp-precision", "nano", "-w", self.path]
        if os.geteuid() == 0:
            cmd += ["-Z", "root"]
        with open(self.err, "w") as errf:
            self.proc = servers.spawn(cmd + [flt], stdin=subprocess.DEVNULL, env=self.env,
                                      stdout=subprocess.DEVNULL, stderr=errf)
        end = time.monotonic() + 10
        while time.monotonic() < end:  # bounded wait for "listening on IFACE"
            with open(self.err) as f:
                if "listening on" in f.read():
                    time.sleep(0.2)
                    return
            if self.proc.poll() is not None:
                break
            time.sleep(0.05)
        self.stop()
        with open(self.err, errors="replace") as f:
            msg = " | ".join(line.strip() for line in f if line.strip())
        raise RuntimeError("tcpdump did not start%s" % (": " + msg if msg else ""))

    def stop(self):
        """Stops tcpdump by its pid (SIGINT flushes the file); returns its
        summary lines."""
        if self.proc is not None:
            if self.proc.poll() is None:
                time.sleep(0.3)
            servers.stop_process(self.proc, signal.SIGINT, 10.0)
        try:
            with open(self.err, errors="replace") as f:
                return [line.strip() for line in f if "packets" in line]
        except OSError:
            return []
