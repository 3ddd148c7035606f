#!/usr/bin/python3
"""Statistics of A/B under load, from blocks of fixed duration that
alternate A B, B A, ...: each round (one A block and one B block next to
each other) gives a B/A ratio per figure (handshakes per second, server CPU
per handshake, latency percentile); the run's ratio is their geometric mean
with a 95% interval from Student's t on the log ratios (few rounds, so no
bootstrap: t's wider quantiles keep the interval honest with 3-10 rounds).
Standard library only."""
import math

import abstats

# Student's t, two-sided 95% (0.975 quantile), by degrees of freedom.
_T975 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306,
         9: 2.262, 10: 2.228, 11: 2.201, 12: 2.179, 13: 2.160, 14: 2.145, 15: 2.131,
         16: 2.120, 17: 2.110, 18: 2.101, 19: 2.093, 20: 2.086, 25: 2.060, 30: 2.042,
         40: 2.021, 60: 2.000, 120: 1.980}


def t975(df):
    """The 0.975 quantile of Student's t with df degrees of freedom (the
    nearest tabulated df not above it; 1.96 past 120)."""
    if df > 120:
        return 1.96
    return _T975[max(k for k in _T975 if k <= df)]


def paired_ratio(pairs):
    """(ratio, lo, hi) of B over A from [(a, b)] per round: the geometric
    mean of b/a and its t interval; nan where a round has no positive value
    on a side, and an interval of nan with fewer than two rounds."""
    logs = [math.log(b / a) for a, b in pairs if a and b and a > 0 and b > 0]
    if not logs:
        return float("nan"), float("nan"), float("nan")
    m = sum(logs) / len(logs)
    if len(logs) < 2:
        return math.exp(m), float("nan"), float("nan")
    sd = math.sqrt(sum((x - m) ** 2 for x in logs) / (len(logs) - 1))
    h = t975(len(logs) - 1) * sd / math.sqrt(len(logs))
    return math.exp(m), math.exp(m - h), math.exp(m + h)


def verdict(lo, hi, higher_is_better):
    """'faster', 'slower' or 'no difference' for B, from the interval of
    B/A: for a figure where more is better (handshakes per second), an
    interval entirely above 1 is faster; where less is (CPU, latency), below."""
    if lo != lo or hi != hi:
        return "no difference"
    if hi < 1.0:
        return "slower" if higher_is_better else "faster"
    if lo > 1.0:
        return "faster" if higher_is_better else "slower"
    return "no difference"


def percentiles(lat_us):
    """(p50, p90, p99) of latencies in microseconds (nan when none)."""
    s = sorted(lat_us)
    return (abstats.percentile(s, 50), abstats.percentile(s, 90), abstats.percentile(s, 99))
