#!/usr/bin/python3
"""Server CPU time from /proc: a server process and all its descendants
(nginx's workers, sshd's per-connection children), read around each block
of handshakes so that the difference is the CPU the block cost the server.

A process's own time is utime+stime of /proc/PID/stat (all its threads,
dead ones included) and its reaped children's cutime+cstime; the kernel
keeps these in nanoseconds and rounds them down to clock ticks (10 ms) when
read, so where the threads' exact run times (/proc/PID/task/*/schedstat,
nanoseconds) add up to the ticks they are used instead. Standard library
only; read-only."""
import os

TICK = 1.0 / os.sysconf("SC_CLK_TCK")


class Unreadable(RuntimeError):
    """A process whose CPU time cannot be read; one sentence."""


def _stat(pid):
    """(ppid, own seconds, reaped children's seconds, threads) of pid from
    /proc/PID/stat; raises OSError when it is gone or hidden."""
    with open("/proc/%d/stat" % pid) as f:
        data = f.read()
    w = data[data.rindex(")") + 2:].split()  # fields from 3 (state) on
    ppid = int(w[1])
    own = (int(w[11]) + int(w[12])) * TICK
    kids = (int(w[13]) + int(w[14])) * TICK
    return ppid, own, kids, int(w[17])


def _exact(pid, own):
    """The run time of pid's live threads from schedstat (seconds) when it
    accounts for `own` (the ticks, rounded down), else own: a thread that
    ended took its time out of the schedstat files."""
    total = 0
    try:
        for tid in os.listdir("/proc/%d/task" % pid):
            with open("/proc/%d/task/%s/schedstat" % (pid, tid)) as f:
                total += int(f.read().split()[0])
    except (OSError, ValueError, IndexError):
        return own
    exact = total * 1e-9
    return exact if own <= exact < own + TICK * 1.5 else own


def _children_map():
    """{ppid: [pid, ...]} of every process visible in /proc."""
    kids = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % name) as f:
                data = f.read()
        except OSError:
            continue
        ppid = int(data[data.rindex(")") + 2:].split()[1])
        kids.setdefault(ppid, []).append(int(name))
    return kids


def check(pid):
    """Raises Unreadable unless pid's CPU time can be read here."""
    try:
        _stat(pid)
    except FileNotFoundError:
        raise Unreadable("process %d does not exist" % pid) from None
    except (OSError, ValueError, IndexError) as e:
        raise Unreadable("the CPU time of process %d cannot be read (%s)" % (
            pid, (getattr(e, "strerror", None) or str(e)).lower())) from None


def tree_seconds(pid):
    """CPU seconds used so far by pid, its live descendants and every
    descendant already reaped. Raises Unreadable when pid is gone."""
    try:
        _ppid, own, kids, _n = _stat(pid)
    except (OSError, ValueError, IndexError):
        check(pid)
        raise Unreadable("process %d went away" % pid)
    total = _exact(pid, own) + kids
    cmap = _children_map()
    todo = list(cmap.get(pid, []))
    while todo:
        p = todo.pop()
        try:
            _pp, own, kids, _n = _stat(p)
        except (OSError, ValueError, IndexError):
            continue  # ended between the listing and now: its parent has it
        total += _exact(p, own) + kids
        todo += cmap.get(p, [])
    return total


def ancestors_first(pids):
    """Of pids, the ones no other of them descends from (the server's master
    among its workers), in order."""
    pids = list(pids)
    out = []
    for p in pids:
        q, seen = p, 0
        inner = False
        while seen < 64:
            try:
                q = _stat(q)[0]
            except (OSError, ValueError, IndexError):
                break
            if q in pids:
                inner = True
                break
            if q <= 1:
                break
            seen += 1
        if not inner:
            out.append(p)
    return out


def descends(pid, root):
    """True when pid is root or one of its descendants."""
    for _ in range(64):
        if pid == root:
            return True
        try:
            pid = _stat(pid)[0]
        except (OSError, ValueError, IndexError):
            return False
        if pid <= 1:
            return False
    return False


class Meter:
    """CPU of one side's server tree, read around each block."""

    def __init__(self, pid, how):
        self.pid, self.how = pid, how
        self.last = None

    def read(self):
        """CPU seconds of the tree now."""
        self.last = tree_seconds(self.pid)
        return self.last
