#!/usr/bin/env bash
# Builds bench/jmh (and the engine it measures, with its native library) and runs the JMH
# microbenchmarks.
#
#   bench/jmh/run.sh                      all benchmarks but UlfsIoBenchmark, short settings
#                                         (a few minutes; bench/scripts/ulfs-io.sh runs that one)
#   bench/jmh/run.sh RlsmMemStoreBenchmark  only those matching a regexp
#   bench/jmh/run.sh -f 3 -wi 5 -i 10 -r 5s  longer runs: any JMH option overrides the defaults
#   bench/jmh/run.sh -p snapshotMb=128     change a @Param
#
# Results: JMH's table on stdout, and JSON in bench/jmh/target/jmh-result.json.
set -euo pipefail
cd "$(dirname "$0")/../.."
# shellcheck source=bin/rlsm-env.sh
source bin/rlsm-env.sh
rlsm_module_classpath bench/jmh
# Short defaults (one fork, 2 warm-up and 3 measured iterations of 2 s); JMH refuses an option
# given twice, so each default is dropped when the command line sets that option.
defaults=(-f 1 -wi 2 -i 3 -w 2s -r 2s)
opts=()
for ((k = 0; k < ${#defaults[@]}; k += 2)); do
  if ! printf '%s\n' "$@" | grep -qx -- "${defaults[k]}"; then
    opts+=("${defaults[k]}" "${defaults[k + 1]}")
  fi
done
# UlfsIoBenchmark runs only when named (bench/scripts/ulfs-io.sh does): it needs root for its
# cold case, and about half an hour.
if ! printf '%s\n' "$@" | grep -q UlfsIo; then
  opts+=(-e UlfsIoBenchmark)
fi
exec "$RLSM_JAVA" -Xmx2g -cp "$CP" org.openjdk.jmh.Main "${opts[@]}" -foe true \
  -jvmArgsAppend "-Xmx3g ${RLSM_JDK17_FLAGS[*]}" \
  -rf json -rff bench/jmh/target/jmh-result.json "$@"
