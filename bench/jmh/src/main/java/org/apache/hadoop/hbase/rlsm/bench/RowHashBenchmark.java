package org.apache.hadoop.hbase.rlsm.bench;

import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hbase.rlsm.index.RowHash;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

import org.apache.hbase.thirdparty.com.google.common.hash.HashFunction;
import org.apache.hbase.thirdparty.com.google.common.hash.Hashing;

/**
 * The row sketch's hash of one YCSB row key (the first 64 bits of MurmurHash3 x64 128), which
 * every flush and compaction computes once per row: {@code RowHash.murmur3x64h1}, which allocates
 * nothing, against Guava's {@code Hashing.murmur3_128()} (a hasher and a hash code per call),
 * which the sketch used before. Both give the same value ({@code TestRowSketch}).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class RowHashBenchmark {
  private static final int KEYS = 4096;
  private final HashFunction guava = Hashing.murmur3_128();
  private byte[][] keys;
  private int i;

  @Setup(Level.Trial)
  public void setUp() {
    keys = new byte[KEYS][];
    for (int k = 0; k < KEYS; k++) {
      keys[k] = YcsbRows.rowKey(k * 7919L);
    }
  }

  private byte[] next() {
    i = (i + 1) & (KEYS - 1);
    return keys[i];
  }

  @Benchmark
  public long rowHash() {
    byte[] k = next();
    return RowHash.murmur3x64h1(k, 0, k.length);
  }

  @Benchmark
  public long guavaMurmur3() {
    byte[] k = next();
    return guava.hashBytes(k, 0, k.length).asLong();
  }
}
