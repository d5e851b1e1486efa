#!/usr/bin/env bash
# Draws the scale benchmark's write amplification against store size as a PNG with gnuplot
# (installed by bin/install-deps --bench): one line per engine, from the per-size CSVs that
# bench/scripts/scale.sh writes (docs/bench-data/scale-<MB>mb.csv), sizes in ascending order.
#   bench/scripts/plot-scale.sh <out.png> [csv...]   (default: every docs/bench-data/scale-*mb.csv)
set -euo pipefail
cd "$(dirname "$0")/../.."
PNG=$1
shift
command -v gnuplot >/dev/null || { echo "gnuplot missing: run bin/install-deps --bench" >&2; exit 1; }
if [ $# -eq 0 ]; then
  set -- docs/bench-data/scale-*mb.csv
fi
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
# one data file per engine: user MB, write amplification, sorted by size
for csv in "$@"; do
  awk -F, 'NR > 1 { print $2, $5 >> ("'"$TMP"'/" $1 ".dat") }' "$csv"
done
plot=""
for dat in "$TMP"/*.dat; do
  sort -n -o "$dat" "$dat"
  engine=$(basename "$dat" .dat)
  plot+="${plot:+, }\"$dat\" with linespoints title \"$engine\""
done
gnuplot <<GP
set terminal pngcairo size 900,600
set output "$PNG"
set title "write amplification against store size (16 MB flushes, one region)"
set xlabel "user data (MB)"
set ylabel "store bytes written / user bytes"
set logscale x 2
set yrange [0:*]
set key top left
set grid
plot $plot
GP
echo "wrote $PNG"
