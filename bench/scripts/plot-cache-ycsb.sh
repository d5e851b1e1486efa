#!/usr/bin/env bash
# Draws a CSV of bench/scripts/cache-ycsb-report.py as a PNG with gnuplot (installed by
# bin/install-deps --bench): mean throughput per policy and workload (left) and the store-file
# hit ratio per policy (right), means over the rounds.
#   bench/scripts/plot-cache-ycsb.sh <cache-ycsb.csv> <out.png> [title]
set -euo pipefail
CSV=$1
PNG=$2
TITLE=${3:-YCSB throughput per ulfs cache policy}
command -v gnuplot >/dev/null || { echo "gnuplot missing: run bin/install-deps --bench" >&2; exit 1; }
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
# columns: policy, workload, ..., throughput_ops (8), ..., store_hit_ratio (20)
awk -F, 'NR > 1 { k = $1 " " $2; n[k]++; t[k] += $8; h[$1] += $20; m[$1]++
                  if (!($2 in seen)) { seen[$2] = 1; ws = ws " " $2 }
                  if (!($1 in pseen)) { pseen[$1] = 1; ps = ps " " $1 } }
  END { split(ws, W, " "); printf "policy"; for (i = 1; i in W; i++) printf " %s", W[i]
        printf " hit\n"; split(ps, P, " ")
        for (j = 1; j in P; j++) { printf "%s", P[j]
          for (i = 1; i in W; i++) printf " %.1f", t[P[j] " " W[i]] / n[P[j] " " W[i]]
          printf " %.4f\n", h[P[j]] / m[P[j]] } }' "$CSV" > "$TMP/means.dat"
NW=$(($(head -1 "$TMP/means.dat" | wc -w) - 2))
gnuplot <<GP
set terminal pngcairo size 1100,500
set output "$PNG"
set multiplot layout 1,2 title "$TITLE"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set grid ytics
set yrange [0:*]
set key top left autotitle columnheader
set title "throughput (ops/s, mean of rounds)"
plot for [i=2:$((NW + 1))] "$TMP/means.dat" using i:xtic(1) title columnheader(i)
set title "store-file hit ratio"
set yrange [0:1]
unset key
plot "$TMP/means.dat" using $((NW + 2)):xtic(1) linecolor 3
unset multiplot
GP
echo "wrote $PNG"
