/**
 * JMH microbenchmarks of the RLSM index structures (run by {@code bench/jmh/run.sh}; results in
 * docs/benchmarks.md): {@link org.apache.hadoop.hbase.rlsm.bench.RlsmIndexBenchmark} measures the
 * split median by quickselect against a sort, range-tree lookups, Bloom probes and building the
 * sorted row view; {@link org.apache.hadoop.hbase.rlsm.bench.YcsbRows} makes the YCSB-like rows
 * (key {@code user<n>}, ten 100-byte fields) that these and the memstore benchmarks share.
 *
 * <p>Invariant: every benchmark returns its result to JMH, so the JIT cannot remove the measured
 * work; inputs are built in {@code @Setup}, outside
 * the measurement.
 */
package org.apache.hadoop.hbase.rlsm.bench;
