#!/usr/bin/env bash
# Write amplification of the default, stripe and RLSM (index and rewrite split) engines on the
# same YCSB-like load, side by side in one mini cluster on this machine.
#   bench/scripts/write-amp.sh [user MB, default 160] [flush MB, default 4] [engines]
# engines: comma-separated among default,stripe,rlsm-index,rlsm-rewrite,rlsm-index-skiplist
# Prints a Markdown table and writes docs/bench-data/write-amp-<MB>mb-<engines>.csv.
set -euo pipefail
cd "$(dirname "$0")/../.."
MB=${1:-160}
FLUSH=${2:-4}
ENGINES=${3:-default,stripe,rlsm-index,rlsm-rewrite}
bin/install-deps
mvn -B -ntp -q -pl hbase-rlsm -am test-compile -DskipTests
CP_FILE=hbase-rlsm/target/cp-test.txt
mvn -B -ntp -q -pl hbase-rlsm dependency:build-classpath -Dmdep.includeScope=test \
  -Dmdep.outputFile="$(pwd)/$CP_FILE"
mkdir -p docs/bench-data
source bin/rlsm-env.sh >/dev/null 2>&1 || true
FLAGS="--add-opens=java.base/java.lang=ALL-UNNAMED --add-opens=java.base/java.lang.reflect=ALL-UNNAMED --add-opens=java.base/java.nio=ALL-UNNAMED --add-opens=java.base/sun.nio.ch=ALL-UNNAMED --add-opens=java.base/jdk.internal.ref=ALL-UNNAMED --add-exports=java.base/jdk.internal.misc=ALL-UNNAMED --add-opens=java.base/java.util=ALL-UNNAMED --add-opens=java.base/java.util.concurrent=ALL-UNNAMED -Dorg.apache.hbase.thirdparty.io.netty.tryReflectionSetAccessible=true"
# shellcheck disable=SC2086
java -Xmx6g $FLAGS -Dlog4j.configuration=file:hbase-rlsm/src/test/resources/log4j.properties \
  -cp "hbase-rlsm/target/test-classes:hbase-rlsm/target/classes:$(cat $CP_FILE)" \
  org.apache.hadoop.hbase.rlsm.bench.WriteAmplificationBench "$MB" "$FLUSH" \
  "docs/bench-data/write-amp-${MB}mb-${ENGINES//,/_}.csv" "$ENGINES" 2> >(grep -E "MB|done|Exception|ERROR" >&2)
