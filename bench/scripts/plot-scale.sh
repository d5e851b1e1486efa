#!/usr/bin/env bash
# Draws the scale benchmark's results as PNGs with gnuplot (installed by
# bin/install-deps --bench), one line per engine:
#   bench/scripts/plot-scale.sh <out.png> [csv...]
#     write amplification against store size from the per-size CSVs that bench/scripts/scale.sh
#     writes (default: every docs/bench-data/scale-<MB>mb.csv), and next to it
#     (<out>-files.png) the most store files each engine held during the load, from the CSVs
#     that have that column;
#   bench/scripts/plot-scale.sh --timeline <out.png> <timeline.csv>
#     one run's samples against time (load, then settling; each engine from its own start):
#     store files (<out>.png), files counted against hbase.hstore.blockingStoreFiles
#     (<out>-blocking.png) and RLSM's deepest partition in segments (<out>-deepest.png).
set -euo pipefail
cd "$(dirname "$0")/../.."
TIMELINE=0
if [ "${1:-}" = "--timeline" ]; then
  TIMELINE=1
  shift
fi
PNG=$1
shift
command -v gnuplot >/dev/null || { echo "gnuplot missing: run bin/install-deps --bench" >&2; exit 1; }
if [ $# -eq 0 ]; then
  [ "$TIMELINE" = 0 ] || { echo "--timeline needs a timeline CSV" >&2; exit 1; }
  set -- docs/bench-data/scale-*mb.csv
fi
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
# plot TITLE XLABEL XCOLUMN YLABEL YCOLUMN LOGX OUT CSV...: one line per engine (the first
# column) of YCOLUMN against XCOLUMN (both by header name), in XCOLUMN's order; LOGX 1 draws
# the x axis in powers of 2
plot() {
  local title="$1" xlabel="$2" xcolumn="$3" ylabel="$4" ycolumn="$5" logx="$6" out="$7"
  local csv dat engine lines="" style=lines
  [ "$logx" = 0 ] || style=linespoints
  shift 7
  rm -f "$TMP"/*.dat
  for csv in "$@"; do
    awk -F, -v xc="$xcolumn" -v yc="$ycolumn" -v dir="$TMP" '
      NR == 1 { for (i = 1; i <= NF; i++) { if ($i == xc) x = i; if ($i == yc) y = i }; next }
      x && y { print $x, $y >> (dir "/" $1 ".dat") }' "$csv"
  done
  for dat in "$TMP"/*.dat; do
    [ -e "$dat" ] || { echo "no CSV has the columns $xcolumn and $ycolumn" >&2; return 1; }
    sort -n -o "$dat" "$dat"
    engine=$(basename "$dat" .dat)
    lines+="${lines:+, }\"$dat\" with $style title \"$engine\""
  done
  gnuplot <<GP
set terminal pngcairo size 900,600
set output "$out"
set title "$title"
set xlabel "$xlabel"
set ylabel "$ylabel"
$([ "$logx" = 1 ] && echo "set logscale x 2")
set yrange [0:*]
set key top left
set grid
plot $lines
GP
  echo "wrote $out"
}
if [ "$TIMELINE" = 1 ]; then
  run="$(basename "$1" -timeline.csv)"
  plot "store files, $run" "seconds since the engine's load began" t_s "store files" \
    store_files 0 "$PNG" "$1"
  plot "files counted against the blocking count, $run" "seconds since the engine's load began" \
    t_s "blocking files" blocking_files 0 "${PNG%.png}-blocking.png" "$1"
  plot "deepest partition (segments), $run" "seconds since the engine's load began" t_s \
    "segments" deepest 0 "${PNG%.png}-deepest.png" "$1"
  exit 0
fi
plot "write amplification against store size (16 MB flushes, one region)" "user data (MB)" \
  user_mb "store bytes written / user bytes" write_amp 1 "$PNG" "$@"
plot "most store files during the load (16 MB flushes, one region)" "user data (MB)" user_mb \
  "store files" max_files 1 "${PNG%.png}-files.png" "$@"
