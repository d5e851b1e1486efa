#!/usr/bin/env bash
# What one read costs on RLSM and on the default engine, counted (data blocks, Bloom checks,
# BlockCache lookups, bytes allocated, CPU time of the reading thread per Get, short scan and full
# scan), with RLSM's layout and compaction bytes per flushed byte for each segment bound given:
#   bench/scripts/read-costs.sh [rows, default 40000] [rows per flush, 1000]
#                               [partition split bytes, 16777216] [segment bounds, 32]
#                               [rounds, 1: one engine after the other; more: all loaded first,
#                                then each round measures every engine, starting with another]
# Prints a Markdown table. (org.apache.hadoop.hbase.rlsm.bench.cluster.ReadCostBench in
# bench/cluster; local regions, no mini cluster.)
set -euo pipefail
cd "$(dirname "$0")/../.."
bin/install-deps
# shellcheck source=bin/rlsm-env.sh
source bin/rlsm-env.sh
rlsm_cluster_bench 3g "read costs|Exception|ERROR" ReadCostBench "${1:-40000}" "${2:-1000}" \
  "${3:-16777216}" "${4:-32}" "${5:-1}"
