#!/usr/bin/python3
"""Which local process listens on a TCP port, and whether it has the shim
loaded: /proc/net/tcp{,6} for the listening socket's inode, /proc/PID/fd for
its owner, /proc/PID/maps for libcryptoshim.so. Read-only; gives up quietly
(None) where /proc cannot tell (another user's process, a remote target)."""
import os


def _listen_inodes(port):
    """Inodes of the sockets listening on port (any local address)."""
    out = set()
    for name in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            with open(name) as f:
                next(f, None)
                for line in f:
                    w = line.split()
                    if len(w) > 9 and w[3] == "0A" and int(w[1].rsplit(":", 1)[1], 16) == port:
                        out.add(w[9])
        except (OSError, ValueError):
            continue
    return out


def listeners(port):
    """Pids of the processes holding a socket listening on port (sorted)."""
    inodes = _listen_inodes(port)
    if not inodes:
        return []
    want = {"socket:[%s]" % i for i in inodes}
    pids = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            for fd in os.listdir("/proc/%s/fd" % pid):
                if os.readlink("/proc/%s/fd/%s" % (pid, fd)) in want:
                    pids.append(int(pid))
                    break
        except OSError:
            continue
    return sorted(pids)


def describe(port):
    """One phrase: the listening processes on port and whether each has
    libcryptoshim.so mapped, or None when none is visible here."""
    parts = []
    for pid in listeners(port):
        try:
            with open("/proc/%d/comm" % pid) as f:
                comm = f.read().strip()
            with open("/proc/%d/maps" % pid) as f:
                shim = any("libcryptoshim" in line for line in f)
        except OSError:
            continue
        parts.append("%s pid %d %s" % (comm, pid, "with libcryptoshim.so loaded" if shim
                                        else "without the shim"))
    return ", ".join(parts) or None
