#!/usr/bin/env python3
"""Prints Weir/Netty and Weir/JDK ratios from a JMH JSON result (java -jar microbenchmarks.jar -rf json).

Benchmark methods are named weir<Case>, netty<Case> and jdk<Case> (see AbstractMicrobenchmark); rows with
the same class, case and parameters are paired. Each score is the median of every measured iteration of
every fork (less sensitive to a noisy neighbour on a shared machine than JMH's mean). A ratio above 1.0
means Weir is faster, whatever the mode: throughput is divided Weir/other, time per operation other/Weir.

usage: ratios.py RESULT.json [--markdown]
"""
import json
import re
import statistics
import sys

PREFIXES = ("weir", "netty", "jdk")


def median_score(entry):
    raw = entry["primaryMetric"].get("rawData")
    if raw:
        values = [v for fork in raw for v in fork]
        if values:
            return statistics.median(values)
    return entry["primaryMetric"]["score"]


def split(name):
    for p in PREFIXES:
        if name.startswith(p) and len(name) > len(p) and name[len(p)].isupper():
            return p, name[len(p):]
    return None, name


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    markdown = "--markdown" in argv
    try:
        with open(argv[1]) as f:
            results = json.load(f)
    except (OSError, ValueError) as e:
        print(f"ratios.py: cannot read JMH results from {argv[1]}: {e} (did the run fail?)", file=sys.stderr)
        return 1
    rows = {}
    for e in results:
        cls, _, method = e["benchmark"].rpartition(".")
        impl, case = split(method)
        if impl is None:
            continue
        params = ",".join(f"{k}={v}" for k, v in sorted((e.get("params") or {}).items()))
        key = (cls.rpartition(".")[2], case, params, e["mode"])
        rows.setdefault(key, {})[impl] = (median_score(e), e["primaryMetric"]["scoreUnit"])

    def ratio(mode, weir, other):
        if weir is None or other is None or weir[0] == 0 or other[0] == 0:
            return None
        higher_is_better = mode == "thrpt"
        return weir[0] / other[0] if higher_is_better else other[0] / weir[0]

    header = ["benchmark", "case", "params", "mode", "weir", "netty", "jdk", "unit", "weir/netty", "weir/jdk"]
    table = []
    for (cls, case, params, mode), impls in sorted(rows.items()):
        w, n, j = impls.get("weir"), impls.get("netty"), impls.get("jdk")
        unit = (w or n or j)[1]
        rn, rj = ratio(mode, w, n), ratio(mode, w, j)
        fmt = lambda s: "-" if s is None else f"{s[0]:.4g}"
        table.append([cls, case, params or "-", mode, fmt(w), fmt(n), fmt(j), unit,
                      "-" if rn is None else f"{rn:.2f}", "-" if rj is None else f"{rj:.2f}"])
    if markdown:
        print("| " + " | ".join(header) + " |")
        print("|" + "---|" * len(header))
        for r in table:
            print("| " + " | ".join(r) + " |")
    else:
        widths = [max(len(str(x)) for x in col) for col in zip(header, *table)]
        for r in [header] + table:
            print("  ".join(str(x).ljust(w) for x, w in zip(r, widths)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
