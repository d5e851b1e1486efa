#!/usr/bin/env bash
# Read miss-ratio curves of the ulfs page-cache policies (lru, lru-level, arc, lsm-arc) and
# Belady's OPT on traces of a real HBase workload: a mini cluster on ulfs:///hbase loads an RLSM
# table sequentially, then (a second run, same sizes) randomly, each followed by Zipfian gets;
# every page access is recorded (fs.ulfs.cache.trace) and replayed by ulfs-cachesim.
#   bench/scripts/cache-mrc.sh [rows, default 100000] [value bytes, 1000] [gets, 100000]
# Writes docs/bench-data/cache-mrc-{seq,random}.csv and .png, prints the CSVs.
# (org.apache.hadoop.hbase.rlsm.bench.cluster.CacheTraceBench in bench/cluster.)
set -euo pipefail
cd "$(dirname "$0")/../.."
ROWS=${1:-100000}
VALUE=${2:-1000}
GETS=${3:-100000}
bin/install-deps --bench
# shellcheck source=bin/rlsm-env.sh
source bin/rlsm-env.sh
# Builds hbase-rlsm with its native library (libulfsjni.so, ulfs-cachesim) too.
rlsm_module_classpath bench/cluster
SIM="$RLSM_NATIVE_DIR/ulfs-cachesim"
WORK=bench/cluster/target/cache-mrc
mkdir -p docs/bench-data "$WORK"
for MODE in seq random; do
  rlsm_cluster_bench 3g "Exception|ERROR" CacheTraceBench "$MODE" "$ROWS" "$VALUE" "$GETS" \
    "$WORK/$MODE.trace" "$WORK/$MODE.img"
  # cache sizes from 1/64 to 1x of the data loaded
  DATA_MB=$(( ROWS * VALUE / 1048576 + 1 ))
  SIZES=""
  for DIV in 64 32 16 8 4 2 1; do
    SIZES="$SIZES,$(( DATA_MB * 1048576 / DIV ))"
  done
  "$SIM" "$WORK/$MODE.trace" "docs/bench-data/cache-mrc-$MODE.csv" "${SIZES#,}" --ablate
  bench/scripts/plot-mrc.sh "docs/bench-data/cache-mrc-$MODE.csv" \
    "docs/bench-data/cache-mrc-$MODE.png" "RLSM on ulfs, $MODE load, Zipfian gets"
  cat "docs/bench-data/cache-mrc-$MODE.csv"
done
