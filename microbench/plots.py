#!/usr/bin/env python3
"""The SVG charts of docs/benchmarks.md, drawn from the committed results in microbench/results/.

    plots.py            draw every chart into docs/img/ (needs matplotlib: pip install matplotlib)
    plots.py --check    without matplotlib: exit 1 if a chart is missing, is not shown in docs/benchmarks.md, or
                        was drawn from a result file whose bytes have changed since (or from other files)

Each SVG carries, in an XML comment after its header, the SHA-256 of every result file it was drawn from, so the
check works in a fresh clone, where file times say nothing. Drawing is deterministic (no date, fixed element ids),
so redrawing unchanged results leaves the files byte for byte as they were.
"""
import hashlib
import json
import os
import re
import xml.etree.ElementTree
import statistics
import sys

import ratios

HERE = os.path.dirname(os.path.abspath(__file__))
RESULTS = os.path.join(HERE, "results")
DOCS = os.path.join(os.path.dirname(HERE), "docs")
IMG = os.path.join(DOCS, "img")
BENCHMARKS_PAGE = os.path.join(DOCS, "benchmarks.md")
SOURCE_LINE = re.compile(r"^weir-chart-source ([^ ]+) sha256=([0-9a-f]{64})$")

# Ratio bars against Netty 4.2, one chart per area: every Weir-default / Netty-default pairing in these JMH files.
RATIO_AREAS = {
    "common": ["2026-11-26-common-quiet.json"],
    "buffer": ["2026-11-26-buffer-quiet.json"],
    "transport": ["2026-11-26-pipeline-outbound-quiet.json", "2026-11-26-transport-quiet.json"],
    "http": ["2026-11-26-http-codec-quiet.json", "2026-11-26-http-method-one-array.json"],
    "http2-hpack": ["2026-11-26-hpack.json"],
    "websocket": ["2026-11-26-websocket-frames-quiet.json"],
    "tls": ["2026-11-26-tls-wrap-echo-quiet.json", "2026-11-26-openssl-handshake-hybrid-quiet.json"],
    "grpc": ["2026-11-26-grpc-unary-stream-coalesced-quiet.json"],
}
H2LOAD = "2026-11-26-h2load-quiet.txt"
CPU_AT_RATE = "2026-11-29-cpu-at-rate-5rounds-warmup-churn.txt"
TLS_HANDSHAKES = {"JDK 17": "2026-11-26-tls-handshake-quiet-jdk17.json",
                  "JDK 25": "2026-11-26-tls-handshake-quiet-jdk25.json"}


def charts():
    """(chart name, result files it is drawn from, drawing function) of every chart."""
    out = [(f"ratios-{area}", files, lambda plt, files=files, area=area: draw_ratios(plt, area, files))
           for area, files in RATIO_AREAS.items()]
    out.append(("h2load", [H2LOAD], lambda plt: draw_h2load(plt, H2LOAD)))
    out.append(("cpu-at-rate", [CPU_AT_RATE], lambda plt: draw_cpu_at_rate(plt, CPU_AT_RATE)))
    out.append(("tls-handshakes", list(TLS_HANDSHAKES.values()), lambda plt: draw_tls_handshakes(plt)))
    return out


def sha256(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def result(file):
    return os.path.join(RESULTS, file)


# ---- the check (no matplotlib) ----

def recorded_sources(svg_path):
    """{file: sha256} recorded in a chart's header comment."""
    with open(svg_path, encoding="utf-8") as f:
        head = f.read(8192)
    comment = re.search(r"<!--(.*?)-->", head, re.S)
    found = {}
    if comment:
        for line in comment.group(1).splitlines():
            m = SOURCE_LINE.match(line.strip())
            if m:
                found[m.group(1)] = m.group(2)
    return found


def check():
    problems = []
    page = open(BENCHMARKS_PAGE, encoding="utf-8").read() if os.path.exists(BENCHMARKS_PAGE) else ""
    for name, files, _ in charts():
        svg = os.path.join(IMG, name + ".svg")
        if not os.path.exists(svg):
            problems.append(f"{name}.svg is missing")
            continue
        try:
            # A browser shows nothing of an SVG that is not well-formed XML (a "--" inside a comment, say).
            xml.etree.ElementTree.parse(svg)
        except xml.etree.ElementTree.ParseError as e:
            problems.append(f"{name}.svg is not well-formed XML: {e}")
        if f"img/{name}.svg" not in page:
            problems.append(f"docs/benchmarks.md does not show img/{name}.svg")
        recorded = recorded_sources(svg)
        if sorted(recorded) != sorted(files):
            problems.append(f"{name}.svg was drawn from {sorted(recorded)}, the script now draws it from {sorted(files)}")
            continue
        for file in files:
            if not os.path.exists(result(file)):
                problems.append(f"{name}.svg: its result file {file} is not committed")
            elif sha256(result(file)) != recorded[file]:
                problems.append(f"{name}.svg is older than {file} (its SHA-256 changed)")
    if problems:
        print("Charts out of date: fix docs/benchmarks.md, or run python3 microbench/plots.py (pip install matplotlib)"
              " and commit docs/img/:")
        for p in problems:
            print("  " + p)
        return 1
    print(f"{len(charts())} charts in docs/img/ match their result files")
    return 0


# ---- drawing ----

WEIR, NETTY, OTHER, JDK = "#1f6f8b", "#c8553d", "#8a8a8a", "#e0a458"


def draw_ratios(plt, area, files):
    by_label = {}
    for file in files:   # a later file's row replaces an earlier one's (a re-run of one benchmark)
        for cls, case, wv, other, ov, params, mode, w, o, unit, ratio in ratios.pairs(ratios.load(result(file))):
            if other == "netty" and wv == "" and ov == "":
                by_label[f"{cls.replace('Benchmark', '')} {case}" + (f" [{params}]" if params else "")] = ratio
    rows = sorted(by_label.items(), reverse=True)
    fig, ax = plt.subplots(figsize=(9, 0.8 + 0.24 * len(rows)))
    colors = [WEIR if r >= 1 else NETTY for _, r in rows]
    # Bars grow from 1.0 (parity) to the ratio, right when Weir is faster, left when it is slower.
    ax.barh(range(len(rows)), [r - 1 for _, r in rows], color=colors, left=1)
    ax.set_yticks(range(len(rows)), [label for label, _ in rows], fontsize=7)
    ax.set_xscale("log")
    ticks = [t for t in (0.25, 0.5, 0.75, 1, 1.5, 2, 3, 5, 10, 20, 50, 100, 200, 500)
             if min(r for _, r in rows) / 1.5 <= t <= max(r for _, r in rows) * 1.5]
    ax.set_xticks(ticks, [f"{t:g}" for t in ticks])
    ax.minorticks_off()
    ax.axvline(1.0, color="black", linewidth=0.8)
    for i, (_, r) in enumerate(rows):
        ax.text(r, i, f" {r:.2f}", va="center", fontsize=6)
    ax.set_xlabel("Weir ÷ Netty 4.2 (above 1: Weir faster; log scale)")
    ax.set_title(f"{area}: Weir against Netty 4.2, same JMH run ({', '.join(files)})", fontsize=8)
    ax.set_ylim(-0.6, len(rows) - 0.4)
    return fig


def table_rows(file, header_word, width):
    """The whitespace-split rows of width fields under the first line that starts with header_word in a harness's
    text output, up to the first line of another width."""
    with open(result(file)) as f:
        lines = f.read().splitlines()
    start = next(i for i, l in enumerate(lines) if l.split()[:1] == [header_word])
    for line in lines[start + 1:]:
        fields = line.split()
        if len(fields) != width:
            return
        yield fields


def h2load_medians(file):
    """{server: (req/s, CPU µs per request)} from the medians table of an h2load-compare output."""
    return {f[0]: (float(f[1].replace(",", "")), float(f[3])) for f in table_rows(file, "server", 5)}


def draw_h2load(plt, file):
    medians = h2load_medians(file)
    servers = list(medians)
    colors = [WEIR if s.startswith("weir") else NETTY if s.startswith("netty") else OTHER for s in servers]
    fig, (left, right) = plt.subplots(1, 2, figsize=(9, 3.2))
    left.bar(servers, [medians[s][0] / 1000 for s in servers], color=colors)
    left.set_ylabel("thousand requests/s (more is better)")
    right.bar(servers, [medians[s][1] for s in servers], color=colors)
    right.set_ylabel("server CPU µs per request (less is better)")
    for ax in (left, right):
        ax.tick_params(axis="x", labelsize=7)
        for p in ax.patches:
            ax.annotate(f"{p.get_height():,.0f}" if p.get_height() >= 1000 else f"{p.get_height():.3g}", (p.get_x() + p.get_width() / 2, p.get_height()), ha="center",
                        va="bottom", fontsize=7)
    fig.suptitle(f"h2load -t1 -c16 -m100, h2c, one loop per server, medians ({file})", fontsize=8)
    fig.tight_layout()
    return fig


def cpu_at_rate_medians(file):
    """[(transport, rate, weir CPU, netty CPU, weir p99, netty p99)] from the table closing a cpu-at-rate output."""
    return [(f[0], int(f[1]), float(f[2]), float(f[3]), float(f[7]), float(f[8]))
            for f in table_rows(file, "transport", 10)]


def draw_cpu_at_rate(plt, file):
    rows = cpu_at_rate_medians(file)
    labels = [f"{t}\n{rate // 1000}k req/s" for t, rate, *_ in rows]
    x = range(len(rows))
    fig, (left, right) = plt.subplots(1, 2, figsize=(9, 3.2))
    for ax, (wi, ni), ylabel in ((left, (2, 3), "server CPU µs per request (less is better)"),
                                 (right, (4, 5), "p99 latency µs (less is better)")):
        ax.bar([i - 0.2 for i in x], [r[wi] for r in rows], width=0.4, color=WEIR, label="Weir")
        ax.bar([i + 0.2 for i in x], [r[ni] for r in rows], width=0.4, color=NETTY, label="Netty 4.2")
        ax.set_xticks(list(x), labels, fontsize=7)
        ax.set_ylabel(ylabel, fontsize=8)
        ax.legend(fontsize=7)
    fig.suptitle(f"Fixed request rates, 50 connections, one loop per server, medians of 5 rounds ({file})", fontsize=8)
    fig.tight_layout()
    return fig


def handshake_scores(file):
    """{(engine, framework): {case: handshakes per second}} of one TLS handshake JMH file."""
    out = {}
    for e in ratios.load(result(file)):
        cls, _, method = e["benchmark"].rpartition(".")
        framework, _ = ratios.split(method)
        params = e.get("params") or {}
        key = params.get("keyType", params.get("key", "?")).replace("_", "-")
        case = f"{key}\n{params.get('protocol', '?').replace('TLSv', 'TLS ')}"
        engine = "OpenSSL" if cls.endswith("OpenSslHandshakeBenchmark") else "JDK"
        per_second = ratios.median_score(e) * (1000 if e["primaryMetric"]["scoreUnit"] == "ops/ms" else 1)
        out.setdefault((engine, framework), {})[case] = per_second
    return out


def draw_tls_handshakes(plt):
    series = [(("OpenSSL", "weir"), "Weir, OpenSSL engine", WEIR), (("OpenSSL", "netty"), "Netty, OpenSSL engine", NETTY),
              (("JDK", "weir"), "Weir, JDK engine", "#7fb7c9"), (("JDK", "netty"), "Netty, JDK engine", "#e6a595"),
              (("JDK", "jdk"), "bare JDK SSLEngine", OTHER)]
    fig, axes = plt.subplots(1, len(TLS_HANDSHAKES), figsize=(9, 3.4), sharey=True)
    for ax, (jdk, file) in zip(axes, TLS_HANDSHAKES.items()):
        scores = handshake_scores(file)
        cases = sorted(next(iter(scores.values())))
        width = 0.8 / len(series)
        for n, (key, label, color) in enumerate(series):
            values = [scores.get(key, {}).get(c, 0) for c in cases]
            ax.bar([i - 0.4 + width * (n + 0.5) for i in range(len(cases))], values, width=width, color=color,
                   label=label)
        ax.set_xticks(range(len(cases)), cases, fontsize=7)
        ax.set_yscale("log")
        ax.set_yticks([200, 500, 1000, 2000, 5000], ["200", "500", "1000", "2000", "5000"])
        ax.minorticks_off()
        ax.set_title(f"{jdk} ({file})", fontsize=7)
    axes[0].set_ylabel("full handshakes/s, one thread (log scale)", fontsize=8)
    fig.legend(*axes[0].get_legend_handles_labels(), fontsize=7, loc="lower center", ncol=len(series))
    fig.suptitle("TLS full handshakes per engine (X25519)", fontsize=8)
    fig.tight_layout(rect=(0, 0.08, 1, 1))
    return fig


def draw():
    try:
        import matplotlib
    except ImportError:
        raise SystemExit("plots.py: drawing needs matplotlib (pip install matplotlib); --check does not")
    matplotlib.use("svg")
    import matplotlib.pyplot as plt
    plt.rcParams["svg.hashsalt"] = "weir"       # fixed element ids: unchanged results redraw identical files
    plt.rcParams["svg.fonttype"] = "none"       # text stays text: smaller files, searchable labels
    plt.rcParams["font.size"] = 8
    os.makedirs(IMG, exist_ok=True)
    for name, files, draw_one in charts():
        fig = draw_one(plt)
        svg = os.path.join(IMG, name + ".svg")
        fig.savefig(svg, format="svg", bbox_inches="tight", metadata={"Date": None, "Creator": "microbench/plots.py"})
        plt.close(fig)
        stamp(svg, files)
        print(f"docs/img/{name}.svg  <- {', '.join(files)}")
    return 0


def stamp(svg, files):
    """Puts the result files' hashes in a comment right after the SVG's XML declaration."""
    with open(svg, encoding="utf-8") as f:
        text = f.read()
    lines = "\n".join(f"weir-chart-source {file} sha256={sha256(result(file))}" for file in files)
    comment = f"<!-- drawn by microbench/plots.py from microbench/results/, checked by its check mode\n{lines}\n-->\n"
    declaration_end = text.index("?>") + 3 if text.startswith("<?xml") else 0
    with open(svg, "w", encoding="utf-8") as f:
        f.write(text[:declaration_end] + comment + text[declaration_end:])


def main(argv):
    args = argv[1:]
    if args == ["--check"]:
        return check()
    if args:
        print(__doc__, file=sys.stderr)
        return 2
    return draw()


if __name__ == "__main__":
    sys.exit(main(sys.argv))
