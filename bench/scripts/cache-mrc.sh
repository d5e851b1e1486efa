#!/usr/bin/env bash
# Read miss-ratio curves of the ulfs page-cache policies (lru, lru-level, arc, lsm-arc) and
# Belady's OPT on traces of a real HBase workload: a mini cluster on ulfs:///hbase loads an RLSM
# table sequentially, then (a second run, same sizes) randomly, each followed by Zipfian gets;
# every page access is recorded (fs.ulfs.cache.trace) and replayed by ulfs-cachesim.
#   bench/scripts/cache-mrc.sh [rows, default 100000] [value bytes, 1000] [gets, 100000]
# Writes docs/bench-data/cache-mrc-{seq,random}.csv and .png, prints the CSVs.
set -euo pipefail
cd "$(dirname "$0")/../.."
ROWS=${1:-100000}
VALUE=${2:-1000}
GETS=${3:-100000}
bin/install-deps --bench
mvn -B -ntp -q -pl hbase-rlsm -am test-compile -DskipTests
CP_FILE=hbase-rlsm/target/cp-test.txt
mvn -B -ntp -q -pl hbase-rlsm dependency:build-classpath -Dmdep.includeScope=test \
  -Dmdep.outputFile="$(pwd)/$CP_FILE"
SIM=hbase-rlsm/target/native/ulfs-cachesim
WORK=hbase-rlsm/target/cache-mrc
mkdir -p docs/bench-data "$WORK"
FLAGS="--add-opens=java.base/java.lang=ALL-UNNAMED --add-opens=java.base/java.lang.reflect=ALL-UNNAMED --add-opens=java.base/java.nio=ALL-UNNAMED --add-opens=java.base/sun.nio.ch=ALL-UNNAMED --add-opens=java.base/jdk.internal.ref=ALL-UNNAMED --add-exports=java.base/jdk.internal.misc=ALL-UNNAMED --add-opens=java.base/java.util=ALL-UNNAMED --add-opens=java.base/java.util.concurrent=ALL-UNNAMED -Dorg.apache.hbase.thirdparty.io.netty.tryReflectionSetAccessible=true"
for MODE in seq random; do
  # shellcheck disable=SC2086
  java -Xmx3g $FLAGS -Dlog4j.configuration=file:hbase-rlsm/src/test/resources/log4j.properties \
    -Djava.library.path=hbase-rlsm/target/native \
    -cp "hbase-rlsm/target/test-classes:hbase-rlsm/target/classes:$(cat $CP_FILE)" \
    org.apache.hadoop.hbase.rlsm.bench.CacheTraceBench "$MODE" "$ROWS" "$VALUE" "$GETS" \
    "$WORK/$MODE.trace" "$WORK/$MODE.img" 2> >(grep -E "Exception|ERROR" >&2)
  # cache sizes from 1/64 to 1x of the data loaded
  DATA_MB=$(( ROWS * VALUE / 1048576 + 1 ))
  SIZES=""
  for DIV in 64 32 16 8 4 2 1; do
    SIZES="$SIZES,$(( DATA_MB * 1048576 / DIV ))"
  done
  "$SIM" "$WORK/$MODE.trace" "docs/bench-data/cache-mrc-$MODE.csv" "${SIZES#,}" --ablate
  bench/scripts/plot-mrc.sh "docs/bench-data/cache-mrc-$MODE.csv" \
    "docs/bench-data/cache-mrc-$MODE.png" "RLSM on ulfs, $MODE load, Zipfian gets"
  cat "docs/bench-data/cache-mrc-$MODE.csv"
done
