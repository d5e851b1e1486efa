#!/usr/bin/env bash
# ulfs against the kernel file system on the same disk (docs/benchmarks.md), side by side in one
# run: random 4 KB and 64 KB preads and sequential 4 KB and 64 KB appends each followed by hsync,
# through ulfs (io_uring and POSIX backends), Hadoop's LocalFileSystem (checksummed, preads only)
# and RawLocalFileSystem, and a plain FileChannel. JMH benchmark UlfsIoBenchmark (bench/jmh);
# what each case means: docs/benchmark-methods.md; results: docs/benchmarks.md.
#
#   bench/scripts/ulfs-io.sh                     everything, JMH's short defaults (~25 min)
#   bench/scripts/ulfs-io.sh -wi 3 -i 5 -r 3s     any JMH option (longer iterations, ...)
#   bench/scripts/ulfs-io.sh -p dataset=resident -p target=ulfs-uring,filechannel   a subset
#   ULFS_IO_DIR=/mnt/disk/ulfs-io bench/scripts/ulfs-io.sh   files (and the ulfs image) elsewhere
#   ULFS_IO_CASES=append bench/scripts/ulfs-io.sh   only the appends (hsync and hflush); the
#                          results go to docs/bench-data/ulfs-io-append.{csv,png} (pread: the reads)
#
# The first run writes the read files (64 MiB and 1 GiB, each once in the ulfs image and once as
# a kernel file) and the 8 GiB sparse ulfs image under $ULFS_IO_DIR (default
# bench/jmh/target/ulfs-io); later runs reuse them. The cold dataset drops the kernel page cache
# before every iteration (root only; it fails otherwise). Fails as a whole when a target cannot
# measure what its name says (io_uring unavailable, no O_DIRECT, no real hsync).
#
# Prints a Markdown table with ratios to the FileChannel and Hadoop local baselines; writes
# docs/bench-data/ulfs-io.csv and docs/bench-data/ulfs-io.png.
set -euo pipefail
cd "$(dirname "$0")/../.."
DIR=${ULFS_IO_DIR:-bench/jmh/target/ulfs-io}
OUT=docs/bench-data
CASES=${ULFS_IO_CASES:-}
NAME=ulfs-io${CASES:+-$CASES}
bin/install-deps --bench
mkdir -p "$DIR" "$OUT"
rm -f "$DIR/ulfs-counters.csv" "$DIR/loadavg.txt"
# Load average every 20 s while the benchmark runs (the machine is shared).
(while sleep 20; do cut -d' ' -f1 /proc/loadavg; done) >"$DIR/loadavg.txt" &
sampler=$!
trap 'kill "$sampler" 2>/dev/null || true' EXIT
info="Run $(date -u +%FT%TZ) on commit $(git rev-parse --short HEAD), kernel $(uname -r),"
info+=" $(nproc) cores, files on $(df --output=source "$DIR" | tail -1)"
info+=" ($(findmnt -no FSTYPE -T "$DIR")), load average at start $(cut -d' ' -f1-3 /proc/loadavg)."
echo "$info"
bench/jmh/run.sh "UlfsIoBenchmark${CASES:+.$CASES}" -p dir="$DIR" "$@" | tee "$DIR/jmh.log"
cp bench/jmh/target/jmh-result.json "$DIR/jmh-result.json"
{
  echo "$info"
  python3 bench/scripts/ulfs-io-report.py "$DIR/jmh-result.json" "$DIR/ulfs-counters.csv" \
    "$OUT/$NAME.csv" "$OUT/$NAME.png" "$DIR/loadavg.txt"
} | tee "$DIR/table.md"
echo "ulfs-io: table in $DIR/table.md, $OUT/$NAME.csv, $OUT/$NAME.png"
