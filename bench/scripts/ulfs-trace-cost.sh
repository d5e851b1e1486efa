#!/usr/bin/env bash
# What the page-access trace (fs.ulfs.cache.trace, docs/format/ulfs-trace.md) costs: ulfs-bench
# with and without a trace, ROUNDS (default 3) rounds alternating, in one run; the file fits the
# ulfs cache, so random preads are cache hits and the trace's own cost is not hidden by the disk.
#   bench/scripts/ulfs-trace-cost.sh [file-MiB=64] [cache-MiB=128] [posix|io_uring]
# Writes docs/bench-data/ulfs-trace-cost.csv (round, trace, test, ops/s, p50 us, p99 us) and
# prints the ratios traced / untraced per test (medians of the rounds). Work files:
# hbase-rlsm/target/ulfs-trace-cost/.
set -euo pipefail
cd "$(dirname "$0")/../.."
# shellcheck source=bin/rlsm-env.sh
source bin/rlsm-env.sh
FILE_MB=${1:-64}
CACHE_MB=${2:-128}
BACKEND=${3:-io_uring}
ROUNDS=${ROUNDS:-3}
WORK="$RLSM_MODULE/target/ulfs-trace-cost"
OUT=docs/bench-data/ulfs-trace-cost.csv
BENCH="$RLSM_NATIVE_DIR/ulfs-bench"
[ -x "$BENCH" ] || rlsm_module_classpath hbase-rlsm >/dev/null
rm -rf "$WORK"
mkdir -p "$WORK"
echo "round,trace,test,ops_per_s,p50_us,p99_us" > "$OUT"
for ((r = 1; r <= ROUNDS; r++)); do
  for trace in off on; do
    args=("$WORK" "$FILE_MB" "$CACHE_MB" "$BACKEND")
    [ "$trace" = on ] && args+=("$WORK/trace.bin")
    "$BENCH" "${args[@]}" > "$WORK/r$r-$trace.txt"
    # the ulfs lines: "<system> <test words> N ops/s M MB/s p50 X us p99 Y us ..."
    grep '^ulfs/' "$WORK/r$r-$trace.txt" | sed -E \
      's/^[^ ]+ +(.*[^ ]) +([0-9]+) ops\/s .* p50 +([0-9.]+) us +p99 +([0-9.]+) us.*/\1,\2,\3,\4/' \
      | sed "s/^/$r,$trace,/" >> "$OUT"
    [ "$trace" = on ] && echo "round $r: trace $(du -h "$WORK/trace.bin" | cut -f1)"
  done
done
python3 - "$OUT" <<'PY'
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1])))
tests = dict.fromkeys(r["test"] for r in rows)
print("| test | ops/s untraced | ops/s traced | traced / untraced | p50 µs untraced / traced |")
print("|---|---|---|---|---|")
for t in tests:
  def med(trace, col):
    return statistics.median(float(r[col]) for r in rows if r["test"] == t and r["trace"] == trace)
  off, on = med("off", "ops_per_s"), med("on", "ops_per_s")
  print(f"| {t} | {off:.0f} | {on:.0f} | {on / off:.2f} | {med('off', 'p50_us'):.1f} / {med('on', 'p50_us'):.1f} |")
PY
