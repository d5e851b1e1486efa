#!/usr/bin/env bash
# Write amplification (splits included), load throughput and regions per RegionServer of RLSM
# and the default engine on multi-region tables, side by side in one mini cluster on HDFS with 3
# datanodes and 3 RegionServers.
#   bench/scripts/multi-region.sh [user MB per table, default 64] [flush MB, default 4]
#                                 [pre-split regions, default 6] [runs] [max file MB, default 16]
# runs: comma-separated among default-presplit,rlsm-presplit,default-autosplit,rlsm-autosplit
# (default: the two pre-split runs). Prints a Markdown table and writes
# docs/bench-data/multi-region-<MB>mb-<runs>.csv.
# (org.apache.hadoop.hbase.rlsm.bench.cluster.MultiRegionWriteBench in bench/cluster.)
set -euo pipefail
cd "$(dirname "$0")/../.."
MB=${1:-64}
FLUSH=${2:-4}
REGIONS=${3:-6}
RUNS=${4:-default-presplit,rlsm-presplit}
MAXFILE=${5:-16}
bin/install-deps
# shellcheck source=bin/rlsm-env.sh
source bin/rlsm-env.sh
rlsm_cluster_bench 6g "MB|done|split round|Exception|ERROR" MultiRegionWriteBench "$MB" "$FLUSH" "$REGIONS" \
  "docs/bench-data/multi-region-${MB}mb-${RUNS//,/_}.csv" "$RUNS" "$MAXFILE"
