#!/usr/bin/env python3
"""Weir/Netty and Weir/JDK ratios from JMH JSON results, and the ratio rows of docs/benchmarks.md from committed results.

    ratios.py RESULT.json [--markdown]    the ratio table of one JMH JSON result (java -jar ... -rf json)
    ratios.py --docs [--markdown]         every ratio row of docs/benchmarks.md listed in
                                          microbench/results/benchmark-rows.json, re-derived from the committed
                                          file it names, with the command that produced it; the exit status is 1
                                          if a row's file is not committed, if the value the manifest quotes is
                                          not what the file gives (at the quoted precision), or if
                                          docs/benchmarks.md does not show the quoted numbers together in one
                                          table row or paragraph

Benchmark methods are named weir<Case>, netty<Case> and jdk<Case> (see AbstractMicrobenchmark); a configuration
other than a framework's default is a suffix after an underscore (nettyPingPong_busyWait,
weirPingPong_pollSpinOff). Rows with the same class, case and parameters are paired: Weir's default with each
other framework's default, Weir's default with each Netty variant, and each Weir variant with Netty's default.
Each score is the median of every measured iteration of every fork (less sensitive to a noisy neighbour on a
shared machine than JMH's mean). A ratio above 1.0 means Weir is faster, whatever the mode: throughput is
divided Weir/other, time per operation other/Weir.
"""
import json
from collections import Counter
import os
import re
import statistics
import sys

PREFIXES = ("weir", "netty", "jdk")
RESULTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "results")
MANIFEST = os.path.join(RESULTS, "benchmark-rows.json")
DOCS_PAGE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "docs", "benchmarks.md")
NUMBER = re.compile(r"\d+(?:\.\d+)?")


def median_score(entry):
    raw = entry["primaryMetric"].get("rawData")
    if raw:
        values = [v for fork in raw for v in fork]
        if values:
            return statistics.median(values)
    return entry["primaryMetric"]["score"]


def split(name):
    """(framework, case) of a method name; the case keeps a variant suffix (PingPong_busyWait)."""
    for p in PREFIXES:
        if name.startswith(p) and len(name) > len(p) and name[len(p)].isupper():
            return p, name[len(p):]
    return None, name


def split_variant(case):
    """(case, variant) of a case: ('PingPong', 'busyWait') for PingPong_busyWait, ('PingPong', '') without."""
    base, _, variant = case.partition("_")
    return base, variant


def params_of(entry):
    return ",".join(f"{k}={v}" for k, v in sorted((entry.get("params") or {}).items()))


def load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        raise SystemExit(f"ratios.py: cannot read JMH results from {path}: {e} (did the run fail?)")


def pairs(entries):
    """Rows (class, case, weir variant, other impl, other variant, params, mode, weir score, other score, unit,
    ratio) of every pairing in entries; ratio above 1.0 means Weir is faster."""
    rows = {}
    for e in entries:
        cls, _, method = e["benchmark"].rpartition(".")
        impl, case = split(method)
        if impl is None:
            continue
        base, variant = split_variant(case)
        key = (cls.rpartition(".")[2], base, params_of(e), e["mode"])
        rows.setdefault(key, {})[(impl, variant)] = (median_score(e), e["primaryMetric"]["scoreUnit"])
    out = []
    for (cls, case, params, mode), impls in sorted(rows.items()):
        combos = []
        for (impl, variant) in sorted(impls):
            if impl == "weir":
                continue
            if variant == "":
                combos.append(("", impl, ""))
                combos.extend((wv, impl, "") for (i, wv) in sorted(impls) if i == "weir" and wv)
            elif impl == "netty":
                combos.append(("", impl, variant))
        for weir_variant, other, other_variant in combos:
            w, o = impls.get(("weir", weir_variant)), impls.get((other, other_variant))
            if w is None or o is None or w[0] == 0 or o[0] == 0:
                continue
            ratio = w[0] / o[0] if mode == "thrpt" else o[0] / w[0]
            out.append((cls, case, weir_variant, other, other_variant, params, mode, w[0], o[0], w[1], ratio))
    return out


def print_table(header, table, markdown):
    if markdown:
        print("| " + " | ".join(header) + " |")
        print("|" + "---|" * len(header))
        for r in table:
            print("| " + " | ".join(str(x) for x in r) + " |")
    else:
        widths = [max(len(str(x)) for x in col) for col in zip(header, *table)]
        for r in [header] + table:
            print("  ".join(str(x).ljust(w) for x, w in zip(r, widths)))


def label(framework, variant):
    return framework + (f" ({variant})" if variant else "")


def result_table(path, markdown):
    header = ["benchmark", "case", "params", "mode", "weir", "vs", "weir score", "other score", "unit", "ratio"]
    table = []
    for cls, case, wv, other, ov, params, mode, w, o, unit, ratio in pairs(load(path)):
        table.append([cls, case, params or "-", mode, label("weir", wv), label(other, ov), f"{w:.4g}", f"{o:.4g}",
                      unit, f"{ratio:.2f}"])
    print_table(header, table, markdown)


def jmh_cell(path, sel):
    """The ratio of one JMH pairing, formatted: sel has benchmark, case, and optionally params ("*": the range
    over every parameter set) or params_re (the range over the parameter sets the regex matches in full, as
    "kind=heap,size=256"), weir and other (variants), vs (netty or jdk)."""
    found = []
    for cls, case, wv, other, ov, params, mode, w, o, unit, ratio in pairs(load(path)):
        if "params_re" in sel:
            params_match = re.fullmatch(sel["params_re"], params) is not None
        else:
            params_match = sel.get("params", "") in ("*", params)
        if (cls == sel["benchmark"] and case == sel["case"] and params_match
                and wv == sel.get("weir", "") and other == sel.get("vs", "netty") and ov == sel.get("other", "")):
            found.append(ratio)
    if (sel.get("params") == "*" or "params_re" in sel) and found:
        return f"{min(found):.2f}–{max(found):.2f}"
    if len(found) != 1:
        raise SystemExit(f"ratios.py: {os.path.basename(path)} holds {len(found)} rows for {sel}")
    return f"{found[0]:.2f}"


def text_cell(path, sel):
    """A number from a harness's text output: field `field` (0-based, whitespace-split) of the first line matching
    the regex `line` after the first line containing `after` (if given), the first group of regex `capture` in
    that line, or with `divide` ([numerator, denominator] fields) the ratio of two of its fields."""
    with open(path) as f:
        lines = f.read().splitlines()
    if "after" in sel:
        idx = next((i for i, l in enumerate(lines) if sel["after"] in l), None)
        if idx is None:
            raise SystemExit(f"ratios.py: {os.path.basename(path)} has no line containing {sel['after']!r}")
        lines = lines[idx + 1:]
    for line in lines:
        if re.search(sel["line"], line):
            if "capture" in sel:
                return re.search(sel["capture"], line).group(1)
            if "divide" in sel:
                fields = [float(line.split()[i].replace(",", "")) for i in sel["divide"]]
                return f"{fields[0] / fields[1]:.2f}"
            return f'{float(line.split()[sel["field"]].replace(",", "")):.2f}'
    raise SystemExit(f"ratios.py: {os.path.basename(path)} has no line matching {sel['line']!r}")


def passages(path):
    """The page as passages in which a row's numbers must appear together: each table row alone, otherwise the
    paragraphs between blank lines; each passage as the multiset of numbers it holds."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    out, paragraph = [], []
    for line in lines + [""]:
        if line.lstrip().startswith("|"):
            out.append(Counter(NUMBER.findall(line)))
        elif line.strip():
            paragraph.append(line)
            continue
        if paragraph:
            out.append(Counter(NUMBER.findall(" ".join(paragraph))))
            paragraph = []
    return out


def agrees(derived, quoted):
    """Whether every number the manifest quotes is the derived one at the quoted precision (285 for 285.49)."""
    d, q = NUMBER.findall(derived), NUMBER.findall(quoted)
    if len(d) != len(q):
        return False
    for dv, qv in zip(d, q):
        decimals = len(qv.partition(".")[2])
        if abs(float(dv) - float(qv)) > 0.5 * 10 ** -decimals + 0.005:
            return False
    return True


def report(title, lines):
    if lines:
        print()
        print(title)
        for line in lines:
            print("  " + line)


def docs_rows(markdown):
    with open(MANIFEST) as f:
        manifest = json.load(f)
    page = passages(DOCS_PAGE)
    header = ["docs/benchmarks.md row", "derived", "docs say", "file"]
    table = []
    commands = {}
    missing = []
    unshown = []
    for row in manifest:
        quoted = row["docs"]
        wanted = Counter(NUMBER.findall(quoted))
        if not any(all(numbers[n] >= k for n, k in wanted.items()) for numbers in page):
            unshown.append(row)
        path = os.path.join(RESULTS, row["file"]) if row.get("file") else None
        if path is None or not os.path.exists(path):
            missing.append(row)
            continue
        cells = [jmh_cell(path, c["jmh"]) if "jmh" in c else text_cell(path, c["text"]) for c in row["cells"]]
        table.append([row["row"], " / ".join(cells), quoted, row["file"]])
        commands.setdefault(row["file"], row["command"])
    print_table(header, table, markdown)
    print()
    print("Commands that produced each file:")
    for file, command in commands.items():
        print(f"  {file}: {command}")
    differing = [r for r in table if not agrees(r[1], r[2])]
    report("Rows with no committed result file yet (re-run and commit to back them):",
           [f"{row['row']}  (docs: {row['docs']}; {row.get('command', 'no command recorded')})" for row in missing])
    report("Rows whose quoted value differs from what their file gives:",
           [f"{row}: docs {says}, {file} {derived}" for row, derived, says, file in differing])
    report("Rows docs/benchmarks.md does not show (all their numbers in one table row or paragraph):",
           [f"{row['row']}: {row['docs']}" for row in unshown])
    return 1 if missing or differing or unshown else 0


def main(argv):
    markdown = "--markdown" in argv
    args = [a for a in argv[1:] if a != "--markdown"]
    if args == ["--docs"]:
        return docs_rows(markdown)
    if len(args) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    result_table(args[0], markdown)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
