#!/usr/bin/python3
"""Statistics and report for the A/B harness: percentiles, the B/A ratio of
medians with a bootstrap 95% interval, the verdict, and the Markdown, CSV
and gnuplot outputs. Standard library only."""
import math
import os
import random
import shutil
import subprocess


def percentile(sorted_vals, q):
    """Nearest-rank percentile (q in 0..100) of an ascending list."""
    if not sorted_vals:
        return float("nan")
    k = max(1, math.ceil(q / 100.0 * len(sorted_vals)))
    return sorted_vals[k - 1]


def median(vals):
    """Median of a list (mean of the two middle values when even)."""
    s = sorted(vals)
    n = len(s)
    if n == 0:
        return float("nan")
    return s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2.0


def summary(vals):
    """dict n, median, p90, p99 of a list of samples."""
    s = sorted(vals)
    return {"n": len(s), "median": median(s), "p90": percentile(s, 90),
            "p99": percentile(s, 99)}


def resampled_median(sorted_vals, rng):
    """The median of one bootstrap resample (n draws with replacement) of an
    ascending list, in O(1): the k-th smallest of n uniform draws on [0, 1)
    is Beta(k, n + 1 - k) distributed and the next one lies above it as the
    smallest of the n - k draws left, so the resample's middle order
    statistics are drawn directly and mapped to the values they index."""
    n = len(sorted_vals)
    if n == 1:
        return sorted_vals[0]
    k = (n + 1) // 2
    u = rng.betavariate(k, n + 1 - k)
    lo = sorted_vals[min(n - 1, int(u * n))]
    if n % 2:
        return lo
    u2 = u + (1.0 - u) * rng.betavariate(1, n - k)
    return (lo + sorted_vals[min(n - 1, int(u2 * n))]) / 2.0


def _block_median(groups, rng):
    """The median of one block-bootstrap resample: as many blocks as there
    are, drawn with replacement, their samples pooled."""
    pool = []
    for _ in range(len(groups)):
        pool += groups[rng.randrange(len(groups))]
    return median(pool)


def _groups(vals, blocks):
    """vals split by their block ids (in order of first appearance)."""
    out = {}
    for v, blk in zip(vals, blocks):
        out.setdefault(blk, []).append(v)
    return list(out.values())


def bootstrap_ratio(a, b, iterations=2000, seed=1, blocks=None):
    """B/A ratio of medians and its bootstrap 95% interval (percentile
    method, A and B resampled independently). With blocks, (block ids of a,
    block ids of b), and at least 5 blocks a side, whole blocks are resampled:
    handshakes of one block share the machine's state of that moment (drift,
    other load), and resampling them one by one would make the interval too
    narrow."""
    rng = random.Random(seed)
    ga = _groups(a, blocks[0]) if blocks else []
    gb = _groups(b, blocks[1]) if blocks else []
    by_block = min(len(ga), len(gb)) >= 5
    sa, sb = sorted(a), sorted(b)
    ratios = []
    for _ in range(iterations):
        if by_block:
            ma, mb = _block_median(ga, rng), _block_median(gb, rng)
        else:
            ma, mb = resampled_median(sa, rng), resampled_median(sb, rng)
        if ma > 0:
            ratios.append(mb / ma)
    ratios.sort()
    lo = ratios[int(0.025 * (len(ratios) - 1))]
    hi = ratios[int(math.ceil(0.975 * (len(ratios) - 1)))]
    return median(b) / median(a), lo, hi


def blocks_of(rows):
    """{metric: (block ids of A's samples, of B's)} from CSV rows (side,
    block, index, metric, us), in the rows' order; a metric with a sample
    outside any block (None) gets None."""
    out = {}
    for side, blk, _idx, metric, _us in rows:
        out.setdefault(metric, ([], []))[0 if side == "A" else 1].append(blk)
    return {m: (None if None in ba + bb else (ba, bb)) for m, (ba, bb) in out.items()}


def verdict(lo, hi):
    """'faster' when the whole interval is below 1, 'slower' when above,
    else 'no difference'."""
    if hi < 1.0:
        return "faster"
    if lo > 1.0:
        return "slower"
    return "no difference"


def write_csv(path, rows):
    """Raw samples, one per line: side,block,index,metric,microseconds."""
    with open(path, "w") as f:
        f.write("side,block,index,metric,microseconds\n")
        for side, block, index, metric, us in rows:
            f.write("%s,%s,%d,%s,%.1f\n" % (side, "" if block is None else block, index, metric, us))


def _ecdf_file(path, vals):
    """Writes "value_ms fraction" lines of the empirical CDF."""
    s = sorted(vals)
    with open(path, "w") as f:
        for i, v in enumerate(s):
            f.write("%.4f %.5f\n" % (v / 1000.0, (i + 1) / len(s)))


def plot(outdir, title, metrics):
    """Empirical CDFs of A and B for each metric (name -> (a_us, b_us)) in
    plot.png and plot.svg. Returns the list of files written ([] when
    gnuplot is missing or fails)."""
    gp = shutil.which("gnuplot")
    if not gp or not metrics:
        return []
    names = list(metrics)
    for name in names:
        a, b = metrics[name]
        _ecdf_file(os.path.join(outdir, "%s-a.dat" % name), a)
        _ecdf_file(os.path.join(outdir, "%s-b.dat" % name), b)
    outputs = []
    for term, ext in (("pngcairo size 1000,%d" % (380 * len(names)), "png"),
                      ("svg size 1000,%d" % (380 * len(names)), "svg")):
        out = "plot.%s" % ext
        # noenhanced before the title: "s_server" must not become a subscript.
        lines = ["set terminal %s" % term, "set output '%s'" % out, "set termoption noenhanced",
                 "set multiplot layout %d,1 title '%s'" % (len(names), title.replace("'", "")),
                 "set grid", "set key bottom right", "set ylabel 'fraction of handshakes'",
                 "set yrange [0:1]"]
        for name in names:
            a, b = metrics[name]
            hi = percentile(sorted(a + b), 99) / 1000.0 * 1.15
            lines += ["set xlabel '%s latency (ms)'" % name, "set xrange [0:%.4f]" % hi,
                      "plot '%s-a.dat' using 1:2 with steps lw 2 title 'A (without shim)', "
                      "'%s-b.dat' using 1:2 with steps lw 2 title 'B (with shim)'" % (name, name)]
        lines.append("unset multiplot")
        script = os.path.join(outdir, "plot-%s.gp" % ext)
        with open(script, "w") as f:
            f.write("\n".join(lines) + "\n")
        r = subprocess.run([gp, os.path.basename(script)], cwd=outdir,
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if r.returncode != 0 and ext == "png":  # no cairo: libgd's png terminal
            lines[0] = "set terminal png size 1000,%d" % (380 * len(names))
            with open(script, "w") as f:
                f.write("\n".join(lines) + "\n")
            r = subprocess.run([gp, os.path.basename(script)], cwd=outdir,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if r.returncode == 0:
            outputs.append(os.path.join(outdir, out))
    return outputs


def fmt_ms(us):
    """Microseconds as milliseconds with three decimals."""
    return "-" if us != us else "%.3f" % (us / 1000.0)


def markdown(title, metrics, primary, result, notes, blocks=None, extra=None):
    """The report: one table per metric, the ratio line and the verdict
    (blocks: blocks_of() of the samples, for the intervals; extra: more
    lines before the verdict, the server CPU's)."""
    out = ["# %s" % title, ""]
    for name, (a, b) in metrics.items():
        sa, sb = summary(a), summary(b)
        out += ["## %s latency%s" % (name, " (decides the verdict)" if name == primary else ""), "",
                "| side | n | median ms | p90 ms | p99 ms |",
                "| --- | ---: | ---: | ---: | ---: |",
                "| A (without shim) | %d | %s | %s | %s |" % (sa["n"], fmt_ms(sa["median"]), fmt_ms(sa["p90"]), fmt_ms(sa["p99"])),
                "| B (with shim) | %d | %s | %s | %s |" % (sb["n"], fmt_ms(sb["median"]), fmt_ms(sb["p90"]), fmt_ms(sb["p99"])),
                ""]
        if a and b:
            r, lo, hi = bootstrap_ratio(a, b, blocks=(blocks or {}).get(name))
            out += ["B/A ratio of medians: **%.3f** (95%% bootstrap interval %.3f .. %.3f): %s" %
                    (r, lo, hi, verdict(lo, hi)), ""]
    out += extra or []
    ratio, lo, hi = result
    words = {"faster": "B (with shim) is faster", "slower": "B (with shim) is slower",
             "no difference": "no difference between A and B"}
    out += ["**Verdict** (%s latency): **%s** (B/A %.3f, 95%% interval %.3f .. %.3f)." %
            (primary, words[verdict(lo, hi)], ratio, lo, hi), ""]
    if notes:
        out += ["## Run", ""] + ["- %s" % n for n in notes] + [""]
    return "\n".join(out)


def write_report(outdir, title, metrics, primary, notes, rows, seed=1, extra=None):
    """Writes samples.csv (rows), report.md and the plots for metrics (name ->
    (a_us, b_us)) with primary deciding the verdict; prints the report and
    the files. Returns the exit status: 1 when B is slower, else 0."""
    blocks = blocks_of(rows)
    result = bootstrap_ratio(*metrics[primary], seed=seed, blocks=blocks.get(primary))
    write_csv(os.path.join(outdir, "samples.csv"), rows)
    md = markdown(title, metrics, primary, result, notes, blocks, extra)
    plots = plot(outdir, title, metrics)
    with open(os.path.join(outdir, "report.md"), "w") as f:
        f.write(md)
    print(md)
    names = ["report.md", "samples.csv"] + [os.path.basename(p) for p in plots]
    print("Files: %s" % ", ".join(os.path.join(outdir, n) for n in names))
    return 1 if verdict(result[1], result[2]) == "slower" else 0
