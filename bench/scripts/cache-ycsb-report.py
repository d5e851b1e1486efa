#!/usr/bin/env python3
"""Tables of bench/scripts/cache-ycsb.sh: YCSB results and ulfs cache counters per policy as a CSV
and a Markdown table with ratios to LRU; or the read miss ratios of ulfs-cachesim CSVs.

  cache-ycsb-report.py <work-dir> <out.csv> <records> <ops> <cache-bytes> <threads> <rounds>
                       <policy>...
  cache-ycsb-report.py --mrc <mrc.csv>...

<work-dir> holds, per policy P, round R and workload W of $WORKLOADS (default "b c"), P-rR-W.txt
(YCSB's standard output) and P-rR.cache (the server's last log line with the ulfs cache counters, written when a ulfs file
system closes or the device unmounts: the counters of the run phase).
"""
import csv
import os
import re
import sys

POLICY_NAMES = {"lru": "LRU", "lru-level": "LRULevel", "arc": "ARC", "lsm-arc": "LSM-ARC",
                "opt": "OPT"}
# Store-file kinds in the unmount line (UlfsCacheStats.toString); the rest is WAL, other, tmp.
STORE_KINDS = ("l0", "l1_segment", "manifest")
COLUMNS = ["policy", "workload", "round", "records", "operations", "cache_bytes", "threads",
           "throughput_ops", "read_ops", "read_avg_us", "read_p50_us", "read_p95_us",
           "read_p99_us", "update_p99_us", "run_hits", "run_misses", "run_hit_ratio",
           "store_hits", "store_misses", "store_hit_ratio", "prefetch_issued", "prefetch_used",
           "evictions"]
WORKLOADS = os.environ.get("WORKLOADS", "b c").split()


def ycsb(path):
  """{(section, metric): value} of a YCSB standard output file."""
  out = {}
  with open(path) as f:
    for line in f:
      parts = [p.strip() for p in line.split(",")]
      if len(parts) == 3 and parts[0].startswith("["):
        out[(parts[0].strip("[]"), parts[1])] = parts[2]
  if ("OVERALL", "Throughput(ops/sec)") not in out:
    sys.exit(f"{path}: no [OVERALL] throughput line (did the YCSB run fail?)")
  return out


def counters(path):
  """(hits, misses, store hits, store misses, prefetch issued, prefetch used, evictions) from
  the unmount log line."""
  with open(path) as f:
    line = f.read()
  m = re.search(r"hits/misses (.*?);", line)
  if not m:
    sys.exit(f"{path}: no ulfs cache counters in the server log")
  kinds = {k: (int(h), int(x)) for k, h, x in re.findall(r"(\w+) (\d+)/(\d+)", m.group(1))}
  hits = sum(h for h, _ in kinds.values())
  misses = sum(x for _, x in kinds.values())
  sh = sum(kinds.get(k, (0, 0))[0] for k in STORE_KINDS)
  sm = sum(kinds.get(k, (0, 0))[1] for k in STORE_KINDS)
  pf = re.search(r"prefetch (\d+) issued (\d+) used", line)
  ev = re.search(r"; evictions (.*?);", line)
  evictions = sum(int(n) for n in re.findall(r" (\d+)", ev.group(1))) if ev else 0
  return hits, misses, sh, sm, int(pf.group(1)) if pf else 0, int(pf.group(2)) if pf else 0, \
      evictions


def ratio(a, b):
  return a / b if b else 0.0


def throughput_report(work, out_csv, records, ops, cache, threads, rounds, policies):
  rows = []
  for r, p in ((r, p) for r in range(1, rounds + 1) for p in policies):
    hits, misses, sh, sm, pfi, pfu, ev = counters(f"{work}/{p}-r{r}.cache")
    for w in WORKLOADS:
      y = ycsb(f"{work}/{p}-r{r}-{w}.txt")
      rows.append({
          "policy": p, "workload": w.upper(), "round": r, "records": records, "operations": ops,
          "cache_bytes": cache, "threads": threads,
          "throughput_ops": float(y[("OVERALL", "Throughput(ops/sec)")]),
          "read_ops": int(y.get(("READ", "Operations"), 0)),
          "read_avg_us": float(y.get(("READ", "AverageLatency(us)"), 0)),
          "read_p50_us": int(y.get(("READ", "50thPercentileLatency(us)"), 0)),
          "read_p95_us": int(y.get(("READ", "95thPercentileLatency(us)"), 0)),
          "read_p99_us": int(y.get(("READ", "99thPercentileLatency(us)"), 0)),
          "update_p99_us": int(y.get(("UPDATE", "99thPercentileLatency(us)"), 0)),
          "run_hits": hits, "run_misses": misses,
          "run_hit_ratio": round(ratio(hits, hits + misses), 4),
          "store_hits": sh, "store_misses": sm,
          "store_hit_ratio": round(ratio(sh, sh + sm), 4), "prefetch_issued": pfi,
          "prefetch_used": pfu, "evictions": ev})
  with open(out_csv, "w", newline="") as f:
    wr = csv.DictWriter(f, fieldnames=COLUMNS)
    wr.writeheader()
    wr.writerows(rows)
  # Means over the rounds; the rounds' own throughputs are shown too.
  agg = {}
  for r in rows:
    agg.setdefault((r["policy"], r["workload"]), []).append(r)

  def mean(rs, col):
    return sum(x[col] for x in rs) / len(rs)

  print("| policy | workload | ops/s (mean; rounds) | / LRU | read p50 / p95 / p99 (µs, mean) "
        f"| store-file hit ratio ({'+'.join(w.upper() for w in WORKLOADS)}) | store misses / LRU's "
        "| prefetched pages (used) |")
  print("|---|---|---|---|---|---|---|---|")
  for (p, w), rs in agg.items():
    b = agg.get(("lru", w))
    tput = mean(rs, "throughput_ops")
    rel = f"{ratio(tput, mean(b, 'throughput_ops')):.2f}" if b else "-"
    mrel = f"{ratio(mean(rs, 'store_misses'), mean(b, 'store_misses')):.2f}" if b else "-"
    each = ", ".join(f"{x['throughput_ops']:.0f}" for x in rs)
    hit = ratio(sum(x["store_hits"] for x in rs),
                sum(x["store_hits"] + x["store_misses"] for x in rs))
    print(f"| {POLICY_NAMES[p]} | {w} | {tput:.0f} ({each}) | {rel} "
          f"| {mean(rs, 'read_p50_us'):.0f} / {mean(rs, 'read_p95_us'):.0f} / "
          f"{mean(rs, 'read_p99_us'):.0f} | {hit:.3f} | {mrel} "
          f"| {mean(rs, 'prefetch_issued'):.0f} ({mean(rs, 'prefetch_used'):.0f}) |")
  print(f"wrote {out_csv}")


def mrc_report(paths):
  for path in paths:
    by_size = {}
    with open(path) as f:
      for r in csv.DictReader(f):
        by_size.setdefault(int(r["cache_bytes"]), {})[r["policy"]] = float(r["read_miss_ratio"])
    pols = [p for p in POLICY_NAMES if any(p in v for v in by_size.values())]
    print(f"\n{path}: read miss ratio")
    print("| cache (MiB) | " + " | ".join(POLICY_NAMES[p] for p in pols)
          + " | LSM-ARC / ARC | ARC / LRU | LSM-ARC / OPT |")
    print("|---" * (len(pols) + 4) + "|")
    for size in sorted(by_size):
      v = by_size[size]
      cells = " | ".join(f"{v[p]:.3f}" for p in pols)
      print(f"| {size / 1048576:g} | {cells} | {ratio(v['lsm-arc'], v['arc']):.2f} "
            f"| {ratio(v['arc'], v['lru']):.2f} | {ratio(v['lsm-arc'], v['opt']):.2f} |")


if __name__ == "__main__":
  if len(sys.argv) >= 3 and sys.argv[1] == "--mrc":
    mrc_report(sys.argv[2:])
  elif len(sys.argv) >= 9:
    a = sys.argv
    throughput_report(a[1], a[2], int(a[3]), int(a[4]), int(a[5]), int(a[6]), int(a[7]), a[8:])
  else:
    sys.exit(__doc__)
