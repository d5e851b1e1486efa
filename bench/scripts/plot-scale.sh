#!/usr/bin/env bash
# Draws the scale benchmark's write amplification against store size as a PNG with gnuplot
# (installed by bin/install-deps --bench): one line per engine, from the per-size CSVs that
# bench/scripts/scale.sh writes (docs/bench-data/scale-<MB>mb.csv), sizes in ascending order;
# and next to it (<out>-files.png) the most store files each engine held during the load, from
# the CSVs that have that column.
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
# plot TITLE YLABEL COLUMN OUT: one line per engine of COLUMN (by header name) against user MB
plot() {
  local title="$1" ylabel="$2" column="$3" out="$4" csv dat engine lines=""
  rm -f "$TMP"/*.dat
  for csv in "${CSVS[@]}"; do
    awk -F, -v col="$column" -v dir="$TMP" '
      NR == 1 { for (i = 1; i <= NF; i++) if ($i == col) c = i; next }
      c { print $2, $c >> (dir "/" $1 ".dat") }' "$csv"
  done
  for dat in "$TMP"/*.dat; do
    [ -e "$dat" ] || { echo "no CSV has the column $column" >&2; return 1; }
    sort -n -o "$dat" "$dat"
    engine=$(basename "$dat" .dat)
    lines+="${lines:+, }\"$dat\" with linespoints title \"$engine\""
  done
  gnuplot <<GP
set terminal pngcairo size 900,600
set output "$out"
set title "$title"
set xlabel "user data (MB)"
set ylabel "$ylabel"
set logscale x 2
set yrange [0:*]
set key top left
set grid
plot $lines
GP
  echo "wrote $out"
}
CSVS=("$@")
plot "write amplification against store size (16 MB flushes, one region)" \
  "store bytes written / user bytes" write_amp "$PNG"
plot "most store files during the load (16 MB flushes, one region)" "store files" max_files \
  "${PNG%.png}-files.png"
