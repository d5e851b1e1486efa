#!/usr/bin/env bash
# The scale benchmark: the same YCSB-like insert load (WriteAmplificationBench: random row keys,
# 10 columns of 100 bytes) at increasing sizes into RLSM and, in the same run, HBase's default
# engine, the default engine with in-memory compaction (IN_MEMORY_COMPACTION => ADAPTIVE) and the
# stripe engine. Per size and engine: write amplification (store bytes ever committed / user
# bytes), load time and throughput, time to settle the compaction backlog, the most store files
# and segments per partition, flush stalls (time blocked at the RegionServer's memstore limit,
# writes refused as too busy, the client's longest stall), and a user major compaction's time,
# bytes and peak heap.
#   bench/scripts/scale.sh [sizes in MB, comma-separated, default 1024,4096,16384] [flush MB, 16]
#                          [engines, default rlsm-index,default,default-imc,stripe]
#                          [major compaction after settling: true|false, default true]
# Progress goes to stderr (one line per engine every 10 s, and per size); each size writes
# docs/bench-data/scale-<MB>mb.csv and its timeline (samples every 10 s: files, segments,
# stalls, heap) scale-<MB>mb-timeline.csv, and the run writes docs/bench-data/scale.csv (all
# sizes, size_mb first). Each size is a fresh mini cluster in its own JVM; archived files are
# counted and deleted as they arrive and each engine's table is dropped after its run, so a
# size needs about 2x its user data of disk (one engine's live store and a major compaction).
set -euo pipefail
cd "$(dirname "$0")/../.."
SIZES=${1:-1024,4096,16384}
FLUSH=${2:-16}
ENGINES=${3:-rlsm-index,default,default-imc,stripe}
MAJOR=${4:-true}
bin/install-deps
# shellcheck source=bin/rlsm-env.sh
source bin/rlsm-env.sh
out=docs/bench-data/scale.csv
first=1
for mb in ${SIZES//,/ }; do
  echo "scale: $mb MB, flush $FLUSH MB, engines $ENGINES ($(date -u +%H:%M:%S))" >&2
  csv="docs/bench-data/scale-${mb}mb.csv"
  rlsm_cluster_bench 6g "MB|done|Exception|ERROR" WriteAmplificationBench "$mb" "$FLUSH" \
    "$csv" "$ENGINES" "$MAJOR"
  if [ "$first" = 1 ]; then
    { printf 'size_mb,flush_mb,'; head -1 "$csv"; } > "$out"
    first=0
  fi
  tail -n +2 "$csv" | sed "s/^/$mb,$FLUSH,/" >> "$out"
done
echo "scale: done, $out ($(date -u +%H:%M:%S))" >&2
