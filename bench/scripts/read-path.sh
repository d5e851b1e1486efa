#!/usr/bin/env bash
# The read path of RLSM against the default engine, side by side in one mini cluster: pinned heap
# of an open region, region open time, Gets/s (uniform, Zipfian), short scans/s (YCSB E shape),
# full-scan rows/s and on-disk bytes, once per compression, in alternating rounds.
#   bench/scripts/read-path.sh [rows, default 200000] [value bytes per row, 1000]
#                              [compressions, NONE,GZ] [rounds, 3] [seconds per phase, 15]
#                              [flush MB, 4] [RLSM segment bound, 0: the engine's default]
# Prints a Markdown table of medians with RLSM / default ratios, targets and verdicts, and writes
# every round to docs/bench-data/read-path-<rows>r-<bytes>b-<compressions>.csv.
# (org.apache.hadoop.hbase.rlsm.bench.cluster.ReadPathBench in bench/cluster.)
set -euo pipefail
cd "$(dirname "$0")/../.."
ROWS=${1:-200000}
VALUE=${2:-1000}
COMPRESSIONS=${3:-NONE,GZ}
ROUNDS=${4:-3}
SECONDS_PER_PHASE=${5:-15}
FLUSH=${6:-4}
BOUND=${7:-0}
SUFFIX=""
[ "$BOUND" = 0 ] || SUFFIX="-seg$BOUND"
bin/install-deps
# shellcheck source=bin/rlsm-env.sh
source bin/rlsm-env.sh
rlsm_cluster_bench 6g "read-path|Exception|ERROR" ReadPathBench "$ROWS" "$VALUE" "$COMPRESSIONS" \
  "$ROUNDS" "$SECONDS_PER_PHASE" "$FLUSH" \
  "docs/bench-data/read-path-${ROWS}r-${VALUE}b-${COMPRESSIONS//,/_}${SUFFIX}.csv" "$BOUND"
