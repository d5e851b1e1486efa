#!/usr/bin/env bash
# Draws the miss-ratio curves of one ulfs-cachesim CSV as a PNG with gnuplot (installed by
# bin/install-deps --bench): read miss ratio against cache size, one line per policy.
#   bench/scripts/plot-mrc.sh <mrc.csv> <out.png> [title]
set -euo pipefail
CSV=$1
PNG=$2
TITLE=${3:-read miss-ratio curves}
command -v gnuplot >/dev/null || { echo "gnuplot missing: run bin/install-deps --bench" >&2; exit 1; }
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
# one data file per policy: cache MB, miss ratio
for P in lru lru-level arc lsm-arc opt; do
  awk -F, -v p="$P" 'NR > 1 && $1 == p { printf "%.3f %s\n", $3 / 1048576, $6 }' "$CSV" \
    > "$TMP/$P.dat"
done
gnuplot <<GP
set terminal pngcairo size 900,600
set output "$PNG"
set title "$TITLE"
set xlabel "cache size (MB)"
set ylabel "read miss ratio"
set logscale x 2
set yrange [0:*]
set key top right
set grid
plot "$TMP/lru.dat" with linespoints title "LRU", \
     "$TMP/lru-level.dat" with linespoints title "LRULevel", \
     "$TMP/arc.dat" with linespoints title "ARC", \
     "$TMP/lsm-arc.dat" with linespoints title "LSM-ARC", \
     "$TMP/opt.dat" with linespoints dashtype 2 title "OPT"
GP
echo "wrote $PNG"
