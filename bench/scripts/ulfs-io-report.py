#!/usr/bin/env python3
"""Turns the JMH result of UlfsIoBenchmark (bench/scripts/ulfs-io.sh) into a Markdown table with
ratios to the FileChannel and Hadoop local file system baselines, a CSV and a PNG plot.

  ulfs-io-report.py <jmh-result.json> <ulfs-counters.csv> <out.csv> <out.png> <loadavg.txt>

Throughput comes from the Throughput trials (one thread, ops/s), latencies from the SampleTime
trials. The Hadoop local baseline is LocalFileSystem (checksummed) for preads and
RawLocalFileSystem for appends: LocalFileSystem's streams have no real hsync.
"""
import csv
import json
import os
import statistics
import subprocess
import sys

TARGETS = ["ulfs-uring", "ulfs-posix", "local", "rawlocal", "filechannel"]
# (benchmark method, dataset, KB per operation, label)
GROUPS = [
    ("pread", "resident", 4, "pread 4 KB, resident"),
    ("pread", "resident", 64, "pread 64 KB, resident"),
    ("pread", "exceeds", 4, "pread 4 KB, exceeds"),
    ("pread", "exceeds", 64, "pread 64 KB, exceeds"),
    ("pread", "cold", 4, "pread 4 KB, cold"),
    ("pread", "cold", 64, "pread 64 KB, cold"),
    ("appendHsync", "-", 4, "append 4 KB + hsync"),
    ("appendHsync", "-", 64, "append 64 KB + hsync"),
    ("appendHflush", "-", 4, "append 4 KB + hflush"),
    ("appendHflush", "-", 64, "append 64 KB + hflush"),
]
COLUMNS = ["op", "dataset", "io_kb", "target", "ops_per_s", "mb_per_s", "p50_us", "p90_us",
           "p99_us", "p999_us", "samples", "ops_vs_filechannel", "ops_vs_localfs", "p99_vs_filechannel",
           "ulfs_dev_reads_per_op", "ulfs_dev_read_kb_per_op", "ulfs_dev_writes_per_op",
           "ulfs_dev_flushes_per_op"]


def load_results(path):
    """{(method, dataset, io KB, target): {"thrpt": ops/s, "sample": percentiles + n}}"""
    out = {}
    for r in json.load(open(path)):
        method = r["benchmark"].rsplit(".", 1)[1]
        p = r["params"]
        key = (method, p.get("dataset", "-"), int(p["ioKb"]), p["target"])
        m = r["primaryMetric"]
        entry = out.setdefault(key, {})
        if r["mode"] == "thrpt":
            scale = {"ops/us": 1e6, "ops/ms": 1e3, "ops/s": 1.0}[m["scoreUnit"]]
            entry["thrpt"] = m["score"] * scale
        elif r["mode"] == "sample":
            scale = {"us/op": 1.0, "ms/op": 1e3, "ns/op": 1e-3}[m["scoreUnit"]]
            pct = {k: v * scale for k, v in m["scorePercentiles"].items()}
            n = sum(c for fork in m["rawDataHistogram"] for it in fork for _, c in it)
            entry["sample"] = dict(pct, n=n)
    return out


def load_counters(path):
    """{(method, dataset, io KB, target): counters of the SampleTime trial} (ulfs only)"""
    out = {}
    try:
        for row in csv.DictReader(open(path)):
            if row["mode"] == "sample":
                key = (row["benchmark"], row["dataset"], int(row["io_kb"]), row["target"])
                out[key] = {k: int(v) for k, v in row.items() if k not in
                            ("benchmark", "mode", "target", "dataset", "io_kb")}
    except FileNotFoundError:
        pass
    return out


def ratio(a, b):
    return a / b if a is not None and b else None


def rows(results, counters):
    for method, dataset, kb, label in GROUPS:
        group = {t: results.get((method, dataset, kb, t)) for t in TARGETS}
        if not any(group.values()):
            continue
        base_fc = group.get("filechannel") or {}
        base_lfs = group.get("rawlocal" if method.startswith("append") else "local") or {}
        for t in TARGETS:
            e = group[t]
            if not e:
                continue
            s = e.get("sample", {})
            ops = e.get("thrpt")
            c = counters.get((method, dataset, kb, t))
            dev = {}
            if c and c["ops"]:
                dev = {"ulfs_dev_reads_per_op": c["dev_reads"] / c["ops"],
                       "ulfs_dev_read_kb_per_op": c["dev_read_bytes"] / 1024 / c["ops"],
                       "ulfs_dev_writes_per_op": c["dev_writes"] / c["ops"],
                       "ulfs_dev_flushes_per_op": c["dev_flushes"] / c["ops"]}
            yield {
                "op": method, "dataset": dataset, "io_kb": kb, "label": label, "target": t,
                "ops_per_s": ops, "mb_per_s": ops * kb * 1024 / 1e6 if ops else None,
                "p50_us": s.get("50.0"), "p90_us": s.get("90.0"), "p99_us": s.get("99.0"),
                "p999_us": s.get("99.9"), "samples": s.get("n"),
                "ops_vs_filechannel": ratio(ops, base_fc.get("thrpt")),
                "ops_vs_localfs": ratio(ops, base_lfs.get("thrpt")),
                "p99_vs_filechannel": ratio(s.get("99.0"),
                                            (base_fc.get("sample") or {}).get("99.0")),
                **dev,
            }


def fmt(v, digits=3):
    if v is None:
        return ""
    if isinstance(v, int):
        return str(v)
    # integers from 10^(digits-1) up, so 999.6 prints as 1000, not 1e+03
    return f"{v:.{digits}g}" if abs(v) < 10 ** (digits - 1) else f"{v:.0f}"


def markdown(all_rows, load):
    print("Load average during the run (1-minute, sampled every 20 s): " + load + "\n")
    print("| operation | target | ops/s | MB/s | p50 µs | p90 µs | p99 µs | p99.9 µs | samples "
          "| ops/s ×FileChannel | ops/s ×LocalFS | p99 ×FileChannel | ulfs device I/O per op |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in all_rows:
        dev = ""
        if r.get("ulfs_dev_reads_per_op") is not None:
            dev = (f"{fmt(r['ulfs_dev_reads_per_op'], 2)} reads, "
                   f"{fmt(r['ulfs_dev_read_kb_per_op'], 2)} KB")
            if r["op"].startswith("append"):
                dev = (f"{fmt(r['ulfs_dev_writes_per_op'], 2)} writes, "
                       f"{fmt(r['ulfs_dev_flushes_per_op'], 2)} flushes")
        ratios = [fmt(r[k]) + "x" if r[k] is not None else ""
                  for k in ("ops_vs_filechannel", "ops_vs_localfs", "p99_vs_filechannel")]
        print(f"| {r['label']} | {r['target']} | {fmt(r['ops_per_s'], 4)} | {fmt(r['mb_per_s'])} "
              f"| {fmt(r['p50_us'])} | {fmt(r['p90_us'])} | {fmt(r['p99_us'])} "
              f"| {fmt(r['p999_us'])} | {fmt(r['samples'])} | " + " | ".join(ratios)
              + f" | {dev} |")


def write_csv(all_rows, path):
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=COLUMNS, extrasaction="ignore")
        w.writeheader()
        for r in all_rows:
            w.writerow({k: (f"{v:.6g}" if isinstance(v, float) else v)
                        for k, v in r.items() if k != "label"})


def plot(all_rows, png, dat):
    """Three panels, operations on the x axis, one bar per target: ops/s, p50 and p99 (log)."""
    labels = [g[3] for g in GROUPS if any(r["label"] == g[3] for r in all_rows)]
    targets = [t for t in TARGETS if any(r["target"] == t for r in all_rows)]
    by = {(r["label"], r["target"]): r for r in all_rows}
    panels = [("ops_per_s", "operations / s (higher is better)"),
              ("p50_us", "p50 latency, µs (lower is better)"),
              ("p99_us", "p99 latency, µs (lower is better)")]
    with open(dat, "w") as f:
        for metric, _ in panels:
            f.write("label " + " ".join(targets) + "\n")
            for lab in labels:
                vals = [by.get((lab, t), {}).get(metric) for t in targets]
                f.write('"' + lab + '" ' + " ".join(
                    "NaN" if v is None else f"{v:.6g}" for v in vals) + "\n")
            f.write("\n\n")
    script = f"""
set terminal pngcairo size 1400,1300 font ",10"
set output "{png}"
set multiplot layout {len(panels)},1 title "ulfs vs the kernel file system on the same disk \\
(one thread, log scales; LocalFileSystem has no real hsync, so no append bars)"
set style data histogram
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set logscale y
set grid ytics
set key outside right top vertical
set xtics rotate by -15 scale 0
set datafile missing "NaN"
"""
    for i, (_, ylabel) in enumerate(panels):
        script += (f'set ylabel "{ylabel}"\n'
                   f'plot for [i=2:{len(targets) + 1}] "{dat}" index {i} '
                   f'using i:xtic(1) title columnheader(i)\n')
    script += "unset multiplot\n"
    subprocess.run(["gnuplot"], input=script.encode(), check=True)


def load_summary(path):
    try:
        vals = [float(x) for x in open(path).read().split()]
    except FileNotFoundError:
        vals = []
    if not vals:
        return "not recorded"
    return (f"min {min(vals):.1f}, median {statistics.median(vals):.1f}, max {max(vals):.1f} "
            f"({len(vals)} samples, 2 cores)")


def main():
    if len(sys.argv) != 6:
        sys.exit(__doc__)
    res_json, counters_csv, out_csv, out_png, loadavg = sys.argv[1:]
    all_rows = list(rows(load_results(res_json), load_counters(counters_csv)))
    if not all_rows:
        sys.exit(f"no UlfsIoBenchmark results in {res_json}")
    markdown(all_rows, load_summary(loadavg))
    write_csv(all_rows, out_csv)
    # gnuplot's data beside the counters (the run's scratch directory), not beside the PNG
    plot(all_rows, out_png, os.path.join(os.path.dirname(counters_csv), "ulfs-io-plot.dat"))


if __name__ == "__main__":
    main()
