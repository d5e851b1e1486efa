# Plots of bench/scripts/ycsb-compare.sh from the report's data files (CompareReport):
#   gnuplot -e "dir='RESULTS_DIR'; out='docs/ycsb-NAME'" bench/scripts/ycsb-compare.gp
# writes OUT-throughput.png (ops/s per phase), OUT-p99.png (p99 latency per phase and operation)
# and OUT-writeamp.png (store-file and OS write amplification of the whole run), one bar per
# engine; the data files have a header row naming the engines.
set terminal pngcairo size 1000,500 noenhanced font ",10"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set boxwidth 0.9
set grid ytics
set key top left
set xtics rotate by -30
set yrange [0:*]
engines = system("head -1 " . dir . "/plot-throughput.dat | wc -w") - 1

set output out . "-throughput.png"
set title "YCSB throughput per phase (higher is better)"
set ylabel "operations/s"
plot for [i=2:engines+1] dir."/plot-throughput.dat" using i:xtic(1) title columnheader(i)

set output out . "-p99.png"
set title "YCSB p99 latency per phase and operation (lower is better)"
set ylabel "ms"
set logscale y
set yrange [*:*]
plot for [i=2:engines+1] dir."/plot-latency.dat" using i:xtic(1) title columnheader(i)
unset logscale y
set yrange [0:*]

set output out . "-writeamp.png"
set title "Write amplification of the whole run (lower is better)"
set ylabel "bytes written / user byte"
unset xtics
set xtics
plot dir."/plot-writeamp.dat" using 2:xtic(1) title "store files committed", \
     "" using 3 title "server process, OS write_bytes"
