#!/usr/bin/env bash
# Write amplification of the default, stripe and RLSM (index and rewrite split) engines on the
# same YCSB-like load, side by side in one mini cluster on this machine.
#   bench/scripts/write-amp.sh [user MB, default 160] [flush MB, default 4] [engines]
# engines: comma-separated among default,stripe,rlsm-index,rlsm-rewrite,rlsm-index-skiplist
# Prints a Markdown table and writes docs/bench-data/write-amp-<MB>mb-<engines>.csv.
# (org.apache.hadoop.hbase.rlsm.bench.cluster.WriteAmplificationBench in bench/cluster.)
set -euo pipefail
cd "$(dirname "$0")/../.."
MB=${1:-160}
FLUSH=${2:-4}
ENGINES=${3:-default,stripe,rlsm-index,rlsm-rewrite}
bin/install-deps
# shellcheck source=bin/rlsm-env.sh
source bin/rlsm-env.sh
rlsm_cluster_bench 6g "MB|done|Exception|ERROR" WriteAmplificationBench "$MB" "$FLUSH" \
  "docs/bench-data/write-amp-${MB}mb-${ENGINES//,/_}.csv" "$ENGINES"
