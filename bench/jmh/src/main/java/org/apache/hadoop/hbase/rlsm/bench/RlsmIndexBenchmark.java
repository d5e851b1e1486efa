package org.apache.hadoop.hbase.rlsm.bench;

import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.rlsm.compaction.QuickselectPartitioner;
import org.apache.hadoop.hbase.rlsm.file.RlsmFileReader;
import org.apache.hadoop.hbase.rlsm.file.RlsmFileWriter;
import org.apache.hadoop.hbase.rlsm.format.FileRole;
import org.apache.hadoop.hbase.rlsm.index.BloomFilter;
import org.apache.hadoop.hbase.rlsm.index.RangeTree;
import org.apache.hadoop.hbase.rlsm.index.SortedRowView;
import org.apache.hadoop.hbase.util.Bytes;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * RLSM index structures: the Level-0 Bloom filter probe (rows present and absent), the split
 * median of a partition's row keys by the compaction's linear-time selection
 * ({@code QuickselectPartitioner}) against a full sort, a Level-1 range-tree point lookup, and
 * building the sorted row view of a 60 MB Level-0 file from its hash index.
 */
public class RlsmIndexBenchmark {
  @State(Scope.Benchmark)
  public static class Bloom {
    @Param({ "1000000" })
    public int bloomRows;

    BloomFilter filter;
    byte[][] present;
    byte[][] absent;
    int i;

    @Setup(Level.Trial)
    public void setUp() {
      filter = BloomFilter.create(bloomRows, 0.01);
      present = new byte[bloomRows][];
      absent = new byte[bloomRows][];
      for (int r = 0; r < bloomRows; r++) {
        present[r] = YcsbRows.rowKey(r);
        absent[r] = YcsbRows.rowKey(bloomRows + (long) r);
        filter.add(present[r]);
      }
    }

    byte[] next(byte[][] keys) {
      i = i + 1 == keys.length ? 0 : i + 1;
      return keys[i];
    }
  }

  @Benchmark
  @BenchmarkMode(Mode.AverageTime)
  @OutputTimeUnit(TimeUnit.NANOSECONDS)
  public boolean bloomProbePresent(Bloom b) {
    byte[] k = b.next(b.present);
    return b.filter.mightContain(k, 0, k.length);
  }

  @Benchmark
  @BenchmarkMode(Mode.AverageTime)
  @OutputTimeUnit(TimeUnit.NANOSECONDS)
  public boolean bloomProbeAbsent(Bloom b) {
    byte[] k = b.next(b.absent);
    return b.filter.mightContain(k, 0, k.length);
  }

  @State(Scope.Benchmark)
  public static class Keys {
    @Param({ "200000" })
    public int partitionRows;

    byte[][] keys;

    @Setup(Level.Trial)
    public void setUp() {
      keys = new byte[partitionRows][];
      for (int r = 0; r < partitionRows; r++) {
        keys[r] = YcsbRows.rowKey(r);
      }
      byte[][] sorted = keys.clone();
      Arrays.sort(sorted, Bytes.BYTES_COMPARATOR);
      byte[] median = new QuickselectPartitioner<byte[]>(Bytes.BYTES_COMPARATOR)
        .select(keys.clone(), partitionRows, partitionRows / 2);
      if (!Arrays.equals(median, sorted[partitionRows / 2])) {
        throw new IllegalStateException("quickselect disagrees with sort");
      }
    }
  }

  @Benchmark
  @BenchmarkMode(Mode.AverageTime)
  @OutputTimeUnit(TimeUnit.MILLISECONDS)
  public byte[] medianBySort(Keys k) {
    byte[][] a = k.keys.clone();
    Arrays.sort(a, Bytes.BYTES_COMPARATOR);
    return a[a.length / 2];
  }

  @Benchmark
  @BenchmarkMode(Mode.AverageTime)
  @OutputTimeUnit(TimeUnit.MILLISECONDS)
  public byte[] medianByQuickselect(Keys k) {
    byte[][] a = k.keys.clone();
    return new QuickselectPartitioner<byte[]>(Bytes.BYTES_COMPARATOR).select(a, a.length,
      a.length / 2);
  }

  /** Level-1 partitions: disjoint key ranges cut from sorted keys, and keys to look up. */
  @State(Scope.Benchmark)
  public static class Ranges {
    @Param({ "1000" })
    public int partitions;

    RangeTree<byte[][]> tree;
    byte[][] probes;
    int i;

    @Setup(Level.Trial)
    public void setUp() {
      int perPartition = 100;
      byte[][] keys = new byte[partitions * perPartition][];
      for (int r = 0; r < keys.length; r++) {
        keys[r] = YcsbRows.rowKey(r);
      }
      Arrays.sort(keys, Bytes.BYTES_COMPARATOR);
      List<byte[][]> ranges = new ArrayList<>(partitions);
      for (int p = 0; p < partitions; p++) {
        int first = p * perPartition;
        ranges.add(new byte[][] { keys[first], keys[first + perPartition - 2] });
      }
      tree = new RangeTree<>(ranges, r -> r[0], r -> r[1]);
      probes = keys.clone();
      Collections.shuffle(Arrays.asList(probes), new Random(6));
    }
  }

  /** One point lookup: the partition holding a key (one key in 100 falls in a gap). */
  @Benchmark
  @BenchmarkMode(Mode.AverageTime)
  @OutputTimeUnit(TimeUnit.NANOSECONDS)
  public byte[][] rangeTreeLookup(Ranges r) {
    r.i = r.i + 1 == r.probes.length ? 0 : r.i + 1;
    return r.tree.find(r.probes[r.i]);
  }

  @State(Scope.Benchmark)
  public static class File60 {
    @Param({ "60" })
    public int fileMb;

    FileSystem fs;
    Path path;
    RlsmFileReader reader;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
      fs = FileSystem.getLocal(new Configuration()).getRaw();
      path = new Path(System.getProperty("java.io.tmpdir"),
        "rlsm-jmh-view-" + ProcessHandle.current().pid());
      Random rnd = new Random(9);
      try (RlsmFileWriter w = new RlsmFileWriter(fs, path, YcsbRows.FAMILY, FileRole.FLUSH, 0.01)) {
        for (long r = 0; w.getDataBytes() < (long) fileMb << 20; r++) {
          List<Cell> cells = YcsbRows.record(r, r + 1, rnd);
          Cell[] a = cells.toArray(new Cell[0]);
          w.appendRow(a, 0, a.length);
        }
        w.finish(1);
      }
      reader = RlsmFileReader.open(fs, path);
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
      reader.close();
      fs.delete(path, false);
    }
  }

  @Benchmark
  @BenchmarkMode(Mode.AverageTime)
  @OutputTimeUnit(TimeUnit.MILLISECONDS)
  public SortedRowView sortedRowViewBuild(File60 f) {
    return new SortedRowView(f.reader.index());
  }
}
