#!/usr/bin/python3
"""The report of an A/B run under load: per level (closed-loop concurrency
or open-loop rate) handshakes per second, server CPU per handshake and
latency percentiles per side with B/A ratios and 95% intervals
(loadstats.paired_ratio over rounds), the verdict and the metric that
decided it; blocks.csv, samples.csv, the latency CDF at the deciding level
(plot.png/svg) and latency against offered rate (load.png/svg)."""
import os
import shutil
import subprocess

import abstats
import loadstats

# metric -> (what it is called, more is better)
METRICS = {"cpu": ("server CPU per handshake", False),
           "capacity": ("handshakes per second", True),
           "client": ("median latency under load", False)}


def machine_note():
    """The CPU model, CPUs and load average, for a report's notes."""
    info = {}
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                k, _sep, v = line.partition(":")
                info.setdefault(k.strip(), v.strip())
    except OSError:
        pass
    model = "%s (family %s, model %s)" % (info.get("model name", "unknown CPU"),
                                          info.get("cpu family", "?"), info.get("model", "?"))
    return "machine: %s, %d CPUs, load average %.2f at the end" % (
        model, os.cpu_count() or 0, os.getloadavg()[0])


def level_name(level):
    """'concurrency 16' or 'rate 400/s'."""
    kind, v = level
    return "concurrency %d" % v if kind == "closed" else "rate %g/s" % v


def capacity_of(blocks, side):
    """The side's best mean closed-loop handshakes per second over the
    concurrency levels run so far (0 when none)."""
    best = 0.0
    levels = {b.level for b in blocks if b.level[0] == "closed"}
    for lev in levels:
        rates = [b.rate() for b in blocks if b.level == lev and b.side == side]
        if rates:
            best = max(best, sum(rates) / len(rates))
    return best


def _pairs(blocks, level, fig):
    """[(A's figure, B's figure)] per round of level; fig(block) -> number."""
    by = {}
    for b in blocks:
        if b.level == level:
            by.setdefault(b.round, {})[b.side] = fig(b)
    return [(r["A"], r["B"]) for _k, r in sorted(by.items()) if "A" in r and "B" in r]


def summarize(blocks, levels):
    """{level: {"A"/"B": side figures, "capacity"/"cpu"/"client": (ratio, lo,
    hi)}} for each level."""
    out = {}
    for lev in levels:
        row = {}
        for side in "AB":
            bs = [b for b in blocks if b.level == lev and b.side == side]
            lat = [x for b in bs for x in b.lat]
            ok = sum(b.ok for b in bs)
            cpu = [b.cpu for b in bs]
            fails = {}
            for b in bs:
                for k, v in b.fail.items():
                    fails[k] = fails.get(k, 0) + v
            row[side] = {"rate": sum(b.rate() for b in bs) / len(bs) if bs else 0.0,
                         "ok": ok, "lat": lat, "pct": loadstats.percentiles(lat),
                         "cpu": (sum(cpu) * 1e3 / ok) if ok and None not in cpu else None,
                         "fails": fails}
        row["capacity"] = loadstats.paired_ratio(_pairs(blocks, lev, lambda b: b.rate()))
        row["cpu"] = loadstats.paired_ratio(_pairs(blocks, lev, lambda b: b.cpu_per_hs()))
        row["client"] = loadstats.paired_ratio(_pairs(
            blocks, lev, lambda b: abstats.median(b.lat) if b.lat else None))
        out[lev] = row
    return out


def deciding(levels, summary, metric):
    """(metric, level) that decide: the highest concurrency (else the highest
    rate); the metric asked for, else server CPU per handshake where both
    sides were measured, else handshakes per second (closed loop), else the
    median latency under load. Raises RuntimeError for a metric the run
    cannot give."""
    closed = [lv for lv in levels if lv[0] == "closed"]
    level = max(closed) if closed else max(levels)
    row = summary[level]
    have_cpu = row["A"]["cpu"] is not None and row["B"]["cpu"] is not None
    if metric is None:
        metric = "cpu" if have_cpu else "capacity" if closed else "client"
    if metric == "cpu" and not have_cpu:
        raise RuntimeError("--metric cpu: the server CPU of both sides was not measured")
    if metric == "capacity" and not closed:
        raise RuntimeError("--metric capacity needs a closed loop (--concurrency)")
    if metric not in METRICS:
        raise RuntimeError("--metric %s is not a figure of a run under load (cpu, capacity, "
                           "client)" % metric)
    return metric, level


def _f(v, fmt="%.3f"):
    return "-" if v is None or v != v else fmt % v


def _ratio(r):
    return "%s (%s .. %s)" % (_f(r[0]), _f(r[1]), _f(r[2]))


def _table(heads, rows, left=0):
    """Markdown table lines: the heads, the first `left` columns
    left-aligned and the others right-aligned, then the rows (lists of cell
    strings)."""
    line = lambda cells: "| " + " | ".join(cells) + " |"
    return [line(heads), line(["---"] * left + ["---:"] * (len(heads) - left))] + \
        [line(r) for r in rows]


def cpu_section(cpu):
    """Report lines for the server CPU of a run one handshake at a time:
    cpu {side: [(block, cpu seconds, handshakes)]} (a side may be missing),
    per side the CPU per handshake and B/A over the blocks paired in order
    (A's block i with B's block i, neighbours in time), with its interval."""
    if not cpu.get("A") or not cpu.get("B"):
        return []
    per = {s: sum(c for _b, c, _n in cpu[s]) * 1e3 / max(1, sum(n for _b, _c, n in cpu[s]))
           for s in "AB"}
    pairs = [(ca / na, cb / nb) for (_x, ca, na), (_y, cb, nb) in zip(cpu["A"], cpu["B"])
             if na and nb]
    r = loadstats.paired_ratio(pairs)
    rows = [[who, "%d" % sum(n for _b, _c, n in cpu[s]), _f(per[s])]
            for s, who in (("A", "A (without shim)"), ("B", "B (with shim)"))]
    return ["## Server CPU per handshake", ""] + \
        _table(["side", "handshakes", "CPU ms/handshake"], rows, 1) + ["",
            "B/A ratio of CPU per handshake: **%s** (95%% interval %s .. %s, t over %d block "
            "pairs): %s" % (_f(r[0]), _f(r[1]), _f(r[2]), len(pairs),
                            loadstats.verdict(r[1], r[2], False)), ""]


def markdown(title, summary, levels, metric, level, notes):
    """The report text."""
    out = ["# %s" % title, ""]
    closed = [lv for lv in levels if lv[0] == "closed"]
    opened = [lv for lv in levels if lv[0] == "open"]
    rates = lambda r: [_f(r["A"]["rate"], "%.1f"), _f(r["B"]["rate"], "%.1f")]
    cpus = lambda r: [_f(r["A"]["cpu"]), _f(r["B"]["cpu"]), _ratio(r["cpu"])]
    if closed:
        out += ["## Capacity and server CPU (closed loop)", ""] + _table(
            ["concurrency", "A handshakes/s", "B handshakes/s", "B/A (95% interval)",
             "A CPU ms/handshake", "B CPU ms/handshake", "B/A (95% interval)"],
            [["%d" % lv[1]] + rates(summary[lv]) + [_ratio(summary[lv]["capacity"])] +
             cpus(summary[lv]) for lv in closed]) + [""]
    if opened:
        out += ["## Open loop (offered rate)", ""] + _table(
            ["offered/s", "A handshakes/s", "B handshakes/s", "A CPU ms/handshake",
             "B CPU ms/handshake", "CPU B/A (95% interval)"],
            [["%g" % lv[1]] + rates(summary[lv]) + cpus(summary[lv]) for lv in opened]) + [""]
    out += ["## Latency under load (client: %s)" % "; ".join(
                (["closed loop from connect() to handshake complete"] if closed else []) +
                (["open loop from each handshake's scheduled start"] if opened else [])), ""]
    rows = []
    for lv in levels:
        r = summary[lv]
        for side in "AB":
            s = r[side]
            fails = ", ".join("%d %s" % (v, k) for k, v in sorted(s["fails"].items()))
            rows.append([level_name(lv), side, "%d" % s["ok"], fails or "0"] +
                        [abstats.fmt_ms(p) for p in s["pct"][:3]] +
                        [_ratio(r["client"]) if side == "B" else ""])
    out += _table(["level", "side", "handshakes", "failed", "p50 ms", "p90 ms", "p99 ms",
                   "p50 B/A (95% interval)"], rows, 2) + [""]
    ratio, lo, hi = summary[level][metric]
    name, more_better = METRICS[metric]
    v = loadstats.verdict(lo, hi, more_better)
    words = {"faster": "B (with shim) is faster", "slower": "B (with shim) is slower",
             "no difference": "no difference between A and B"}
    out += ["**Verdict** (%s at %s): **%s** (B/A %s, 95%% interval %s .. %s)." % (
        name, level_name(level), words[v], _f(ratio), _f(lo), _f(hi)), ""]
    if notes:
        out += ["## Run", ""] + ["- %s" % n for n in notes] + [""]
    return "\n".join(out), v


def write_csv(outdir, blocks):
    """blocks.csv (one line per block) and samples.csv (one per handshake:
    side, block, index, level, microseconds)."""
    with open(os.path.join(outdir, "blocks.csv"), "w") as f:
        f.write("side,level,round,seconds,completed,failed,handshakes_per_s,cpu_s,"
                "cpu_ms_per_handshake\n")
        for b in blocks:
            f.write("%s,%s,%d,%g,%d,%d,%.2f,%s,%s\n" % (
                b.side, level_name(b.level).replace(" ", "="), b.round, b.seconds, b.ok, b.failed,
                b.rate(), _f(b.cpu, "%.4f").replace("-", ""),
                _f(b.cpu_per_hs(), "%.4f").replace("-", "")))
    with open(os.path.join(outdir, "samples.csv"), "w") as f:
        f.write("side,block,index,metric,microseconds\n")
        for i, b in enumerate(blocks):
            for k, us in enumerate(b.lat):
                f.write("%s,%d,%d,%s,%.1f\n" % (b.side, i, k, level_name(b.level).replace(" ", "="),
                                                us))


def plot_rates(outdir, title, summary, levels):
    """load.png and load.svg: p50 and p99 latency of A and B against the
    offered rate (open loop) or the rate achieved (closed loop). Returns the
    files written ([] without gnuplot)."""
    gp = shutil.which("gnuplot")
    if not gp:
        return []
    for side in "AB":
        pts = sorted((lv[1] if lv[0] == "open" else summary[lv][side]["rate"],
                      summary[lv][side]["pct"]) for lv in levels)
        with open(os.path.join(outdir, "load-%s.dat" % side.lower()), "w") as f:
            for x, (p50, _p90, p99) in pts:
                if p50 == p50:
                    f.write("%.2f %.4f %.4f\n" % (x, p50 / 1000.0, p99 / 1000.0))
    outputs = []
    for term, ext in (("pngcairo size 1000,500", "png"), ("svg size 1000,500", "svg")):
        lines = ["set terminal %s" % term, "set output 'load.%s'" % ext,
                 "set termoption noenhanced", "set title '%s'" % title.replace("'", ""),
                 "set grid", "set key top left", "set logscale y",
                 "set xlabel 'offered rate (handshakes/s; closed loop: rate achieved)'",
                 "set ylabel 'client latency (ms)'",
                 "plot 'load-a.dat' using 1:2 with linespoints lw 2 lc 1 title 'A p50', "
                 "'load-a.dat' using 1:3 with linespoints lw 1 dt 2 lc 1 title 'A p99', "
                 "'load-b.dat' using 1:2 with linespoints lw 2 lc 2 title 'B p50', "
                 "'load-b.dat' using 1:3 with linespoints lw 1 dt 2 lc 2 title 'B p99'"]
        script = os.path.join(outdir, "load-%s.gp" % ext)
        with open(script, "w") as f:
            f.write("\n".join(lines) + "\n")
        r = subprocess.run([gp, os.path.basename(script)], cwd=outdir, stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, text=True)
        if r.returncode != 0 and ext == "png":
            lines[0] = "set terminal png size 1000,500"
            with open(script, "w") as f:
                f.write("\n".join(lines) + "\n")
            r = subprocess.run([gp, os.path.basename(script)], cwd=outdir,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if r.returncode == 0:
            outputs.append(os.path.join(outdir, "load.%s" % ext))
    return outputs


def write(outdir, title, blocks, levels, notes, metric=None):
    """Writes report.md, the CSVs and plots, prints the report; returns the
    exit status (1 when B is slower by the deciding metric, else 0)."""
    summary = summarize(blocks, levels)
    metric, level = deciding(levels, summary, metric)
    md, v = markdown(title, summary, levels, metric, level, notes)
    write_csv(outdir, blocks)
    a, b = summary[level]["A"]["lat"], summary[level]["B"]["lat"]
    plots = abstats.plot(outdir, title + " (%s)" % level_name(level), {"load": (a, b)}) \
        if a and b else []
    plots += plot_rates(outdir, title, summary, levels)
    with open(os.path.join(outdir, "report.md"), "w") as f:
        f.write(md)
    print(md)
    names = ["report.md", "blocks.csv", "samples.csv"] + [os.path.basename(p) for p in plots]
    print("Files: %s" % ", ".join(os.path.join(outdir, n) for n in names))
    return 1 if v == "slower" else 0
