#!/usr/bin/env bash
# What ingest costs on each engine, counted on the thread that does the work: CPU time and bytes
# allocated per MB of memstore data for the puts, the flush and the compactions after it
# (IngestCostBench: the scale benchmark's tables and rows in local regions, all work on the
# calling thread, engines in turn each round):
#   bench/scripts/ingest-cost.sh [flush MB, default 16] [rounds (flushes per engine), 16]
#                                [engines, default,rlsm-index]
# Prints a Markdown table of totals and writes docs/bench-data/ingest-cost-<MB>mb-<rounds>r.csv
# (one line per engine and round). Extra JVM options (a JFR recording, for one) go in
# RLSM_JAVA_OPTS.
set -euo pipefail
cd "$(dirname "$0")/../.."
bin/install-deps
# shellcheck source=bin/rlsm-env.sh
source bin/rlsm-env.sh
rlsm_cluster_bench 4g "ingest cost|Exception|ERROR" IngestCostBench "${1:-16}" "${2:-16}" \
  "${3:-default,rlsm-index}"
