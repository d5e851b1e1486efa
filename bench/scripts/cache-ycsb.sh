#!/usr/bin/env bash
# YCSB against the standalone RLSM server on ulfs with each page-cache policy (lru, lru-level,
# arc, lsm-arc), the cache smaller than the data, side by side in one run:
#   bench/scripts/cache-ycsb.sh [records, default 60000] [operations per workload, 20000]
#                               [cache MiB, 16] [client threads, 4]
# 1. Random load (YCSB insertorder=hashed) into a fresh server on a fresh ulfs image, stopped
#    cleanly (memstores flushed); the stopped data directory is copied once per policy, so every
#    policy starts from the same files.
# 2. Per policy: start on the copy with that policy and cache size, YCSB B then C (same operation
#    counts, Zipfian), stop; throughput, read latency percentiles and the ulfs cache counters of
#    the run phase go to docs/bench-data/cache-ycsb.csv. ROUNDS (default 2) repeats step 2, the
#    policies taking turns, since throughput on a shared machine is noisy.
# 3. Traces: the run phase (B then C) once more after the random load and once after a
#    sequential load (insertorder=ordered), with fs.ulfs.cache.trace on; ulfs-cachesim replays
#    each through every policy and OPT at cache sizes from 1/8 to 8x the benchmark's cache, and
#    plot-mrc.sh draws them: docs/bench-data/cache-ycsb-mrc-{seq,random}.{csv,png}.
# HBase's block cache keeps only index and Bloom blocks (family setting
# hbase.block.data.cacheonread=false), so data blocks are read through the ulfs page cache.
# Ports: RLSM_ZK_PORT / RLSM_MASTER_PORT / RLSM_RS_PORT (defaults 22281 / 22200 / 22220).
# POLICIES="lru lsm-arc" runs a subset. Work files: hbase-rlsm/target/cache-ycsb/.
set -euo pipefail
cd "$(dirname "$0")/../.."
RECORDS=${1:-60000}
OPS=${2:-20000}
CACHE_MB=${3:-16}
THREADS=${4:-4}
POLICIES=${POLICIES:-lru lru-level arc lsm-arc}
ROUNDS=${ROUNDS:-2}
CACHE_BYTES=$((CACHE_MB * 1048576))
export RLSM_FS=ulfs
export RLSM_ZK_PORT=${RLSM_ZK_PORT:-22281}
export RLSM_MASTER_PORT=${RLSM_MASTER_PORT:-22200}
export RLSM_RS_PORT=${RLSM_RS_PORT:-22220}
export RLSM_MASTER_INFO_PORT=${RLSM_MASTER_INFO_PORT:--1}
export RLSM_RS_INFO_PORT=${RLSM_RS_INFO_PORT:--1}
export RLSM_ULFS_BYTES=${RLSM_ULFS_BYTES:-4294967296}
# shellcheck source=bin/rlsm-env.sh
source bin/rlsm-env.sh
WORK="$RLSM_MODULE/target/cache-ycsb"
OUT=docs/bench-data
SIM="$RLSM_NATIVE_DIR/ulfs-cachesim"
STAT="$RLSM_NATIVE_DIR/ulfs-stat"
WL=bench/ycsb/workloads

log() { echo "[$(date -u +%H:%M:%S)] $*"; }

bin/install-deps --bench >/dev/null
# The engine with its native library and the client tools (bin/create-table), when not built yet.
rlsm_module_classpath hbase-rlsm-tools
rm -rf "$WORK"
mkdir -p "$WORK" "$OUT"
log "load average: $(cut -d' ' -f1-3 /proc/loadavg); records $RECORDS, operations $OPS per" \
  "workload, cache $CACHE_MB MiB, $THREADS threads, policies: $POLICIES, $ROUNDS rounds"

# start_server DIR POLICY TRACE: the standalone server on DIR's ulfs image.
start_server() {
  local opts="-Drlsm.ulfs.cache.policy=$2 -Drlsm.ulfs.cache.bytes=$CACHE_BYTES"
  opts="$opts -Drlsm.ulfs.cache.trace=$3 -Drlsm.memstore.flush.size=4194304"
  RLSM_HOME_DATA="$1" RLSM_JAVA_OPTS="$opts" bin/hbase-start >/dev/null
}

stop_server() {
  RLSM_HOME_DATA="$1" bin/hbase-stop >/dev/null
}

# load MODE ORDER: a fresh server, the table, YCSB load, clean stop -> $WORK/load-MODE.
load() {
  local dir="$WORK/load-$1"
  log "load ($1, insertorder=$2): starting a fresh server"
  start_server "$dir" lru ""
  RLSM_HOME_DATA="$dir" bin/create-table usertable family --engine rlsm \
    --conf hbase.block.data.cacheonread=false >/dev/null
  RLSM_HOME_DATA="$dir" bench/ycsb/ycsb load -P "$WL/workloadb" -p recordcount="$RECORDS" \
    -p insertorder="$2" -threads "$THREADS" > "$WORK/load-$1.txt" 2>"$WORK/load-$1.err"
  log "load ($1): $(grep -F '[OVERALL], Throughput' "$WORK/load-$1.txt"); stopping"
  stop_server "$dir"
  log "load ($1): image $("$STAT" "$dir/ulfs.img" | grep -F 'data blocks')"
}

# run_phase DIR INSERTORDER POLICY TRACE TAG: copy of the loaded data, YCSB B then C (keys as
# loaded), clean stop.
run_phase() {
  local src="$1" order="$2" policy="$3" trace="$4" tag="$5"
  local dir="$WORK/$tag"
  cp -a --sparse=always "$src" "$dir"
  rm -f "$dir/hbase-master.pid" "$dir"/logs/*
  log "$tag: starting ($policy, cache $CACHE_MB MiB${trace:+, tracing})"
  start_server "$dir" "$policy" "$trace"
  for w in b c; do
    RLSM_HOME_DATA="$dir" bench/ycsb/ycsb run -P "$WL/workload$w" -p recordcount="$RECORDS" \
      -p insertorder="$order" -p operationcount="$OPS" -p measurementtype=hdrhistogram \
      -p hdrhistogram.percentiles=50,95,99 -threads "$THREADS" \
      > "$WORK/$tag-$w.txt" 2>"$WORK/$tag-$w.err"
    log "$tag: workload $w $(grep -F '[OVERALL], Throughput' "$WORK/$tag-$w.txt")"
    # A run that reads keys it did not load (or fails) would time Bloom-filter misses.
    if grep -E 'Return=[^O]' "$WORK/$tag-$w.txt"; then
      echo "cache-ycsb: $WORK/$tag-$w.txt: operations did not all return OK" >&2
      exit 1
    fi
  done
  stop_server "$dir"
  # The counters since the mount: logged when a ulfs file system closes or the device unmounts.
  grep -E 'Closing ulfs file system|Unmounting ulfs device' "$dir/logs/hbase-master.log" \
    | tail -n 1 > "$WORK/$tag.cache"
  log "$tag: $(sed 's/.*: cache policy/cache policy/' "$WORK/$tag.cache")"
}

load random hashed
for ((r = 1; r <= ROUNDS; r++)); do
  for p in $POLICIES; do
    run_phase "$WORK/load-random" hashed "$p" "" "$p-r$r"
  done
done
# shellcheck disable=SC2086
python3 bench/scripts/cache-ycsb-report.py "$WORK" "$OUT/cache-ycsb.csv" "$RECORDS" "$OPS" \
  "$CACHE_BYTES" "$THREADS" "$ROUNDS" $POLICIES

# Traces of the run phase; the policy does not change which pages HBase asks for.
run_phase "$WORK/load-random" hashed lru "$WORK/random.trace" trace-random
load seq ordered
run_phase "$WORK/load-seq" ordered lru "$WORK/seq.trace" trace-seq
SIZES=""
for f in 8 4 2; do SIZES="$SIZES,$((CACHE_BYTES / f))"; done
for f in 1 2 4 8; do SIZES="$SIZES,$((CACHE_BYTES * f))"; done
for MODE in random seq; do
  log "replaying the $MODE-load trace ($(du -h "$WORK/$MODE.trace" | cut -f1))"
  "$SIM" "$WORK/$MODE.trace" "$OUT/cache-ycsb-mrc-$MODE.csv" "${SIZES#,}"
  bench/scripts/plot-mrc.sh "$OUT/cache-ycsb-mrc-$MODE.csv" "$OUT/cache-ycsb-mrc-$MODE.png" \
    "YCSB B then C on RLSM/ulfs after a $MODE load ($RECORDS records)"
done
python3 bench/scripts/cache-ycsb-report.py --mrc "$OUT/cache-ycsb-mrc-random.csv" \
  "$OUT/cache-ycsb-mrc-seq.csv"
log "done; load average: $(cut -d' ' -f1-3 /proc/loadavg)"
