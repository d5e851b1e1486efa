package org.apache.hadoop.hbase.regionserver;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.InnerStoreCellComparator;
import org.apache.hadoop.hbase.PrivateCellUtil;
import org.apache.hadoop.hbase.rlsm.bench.YcsbRows;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Memstore write throughput, hash memstore against HBase's DefaultMemStore (skip list), for
 * YCSB-like rows. {@code insert}: each operation adds one new record (10 cells, random row key)
 * to an empty memstore that grows to {@code records} rows. {@code update}: each operation writes
 * one field of a random existing record into a memstore preloaded with all records. Both go
 * through {@code MemStore.add(Iterable, MemStoreSizing)}, as HStore does for a Put, with MSLAB as
 * configured (HBase's default is on). Lives in HBase's package for its package-private sizing
 * class. Scores are operations (records or updates) per second.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class RlsmMemStoreBenchmark {
  static final int RECORDS = 50_000;

  @State(Scope.Benchmark)
  public static class Data {
    @Param({ "hash", "default" })
    public String memstore;

    @Param({ "true" })
    public boolean mslab;

    Configuration conf;
    List<List<Cell>> records;
    List<List<Cell>> updates;

    @Setup(Level.Trial)
    public void setUp() {
      conf = HBaseConfiguration.create();
      conf.setBoolean(MemStoreLAB.USEMSLAB_KEY, mslab);
      // What a RegionServer does at start when MSLAB is on: a pool of 2 MB chunks (here up to
      // 512 MB, so that pooled chunks of closed memstores do not crowd the 3 GB heap).
      ChunkCreator.initialize(MemStoreLAB.CHUNK_SIZE_DEFAULT, false, 512L << 20, 1.0f, 0f, null,
        MemStoreLAB.INDEX_CHUNK_SIZE_PERCENTAGE_DEFAULT);
      records = YcsbRows.records(RECORDS, 1);
      Random rnd = new Random(2);
      updates = new ArrayList<>(RECORDS);
      for (int i = 0; i < RECORDS; i++) {
        byte[] row = YcsbRows.rowKey(rnd.nextInt(RECORDS));
        updates.add(List.of(YcsbRows.cell(row, rnd.nextInt(YcsbRows.FIELDS), RECORDS + 1 + i,
          rnd)));
      }
    }

    MemStore newMemStore() {
      return "hash".equals(memstore)
        ? new RlsmHashMemStore(conf, InnerStoreCellComparator.INNER_STORE_COMPARATOR, null)
        : new DefaultMemStore(conf, InnerStoreCellComparator.INNER_STORE_COMPARATOR, null);
    }
  }

  /** A fresh memstore per invocation; for updates preloaded with every record. */
  @State(Scope.Thread)
  public static class Target {
    MemStore ms;
    MemStoreSizing sizing;

    void fresh(Data d, boolean preload) {
      ms = d.newMemStore();
      sizing = new NonThreadSafeMemStoreSizing();
      if (preload) {
        for (List<Cell> r : d.records) {
          ms.add(r, sizing);
        }
      }
    }

    @TearDown(Level.Invocation)
    public void close() {
      ms.close(); // returns MSLAB chunks to the pool
    }
  }

  @State(Scope.Thread)
  public static class Empty extends Target {
    @Setup(Level.Invocation)
    public void setUp(Data d) {
      fresh(d, false);
    }
  }

  @State(Scope.Thread)
  public static class Loaded extends Target {
    @Setup(Level.Invocation)
    public void setUp(Data d) {
      fresh(d, true);
    }
  }

  @Benchmark
  @OperationsPerInvocation(RECORDS)
  public long insert(Data d, Empty t) {
    for (List<Cell> r : d.records) {
      t.ms.add(r, t.sizing);
    }
    return t.sizing.getDataSize();
  }

  /** A memstore loaded with every record once per iteration, and new records to insert. */
  @State(Scope.Thread)
  public static class Scanning {
    MemStore ms;
    List<List<Cell>> fresh;
    Random rnd = new Random(4);
    int next;

    @Setup(Level.Trial)
    public void generate() {
      fresh = new ArrayList<>(RECORDS);
      for (int i = 0; i < RECORDS; i++) {
        fresh.add(YcsbRows.record(RECORDS + i, 2L * RECORDS + i, rnd));
      }
    }

    @Setup(Level.Iteration)
    public void load(Data d) {
      ms = d.newMemStore();
      MemStoreSizing sizing = new NonThreadSafeMemStoreSizing();
      for (List<Cell> r : d.records) {
        ms.add(r, sizing);
      }
      next = 0;
    }

    @TearDown(Level.Iteration)
    public void close() {
      ms.close();
    }
  }

  /**
   * A YCSB workload-E step against a growing memstore: insert one new record, then scan 10
   * records (100 cells) from a random key. For the hash memstore every scan after an insert
   * first adds the new row to its row index (a skip list of rows). Score: microseconds per
   * insert+scan.
   */
  @Benchmark
  @BenchmarkMode(Mode.AverageTime)
  @OutputTimeUnit(TimeUnit.MICROSECONDS)
  public int insertThenScan(Scanning s) throws IOException {
    s.ms.add(s.fresh.get(s.next), null);
    s.next = s.next + 1 == s.fresh.size() ? 0 : s.next + 1;
    int cells = 0;
    for (KeyValueScanner scanner : s.ms.getScanners(Long.MAX_VALUE)) {
      scanner.seek(PrivateCellUtil.createFirstOnRow(YcsbRows.rowKey(s.rnd.nextInt(2 * RECORDS))));
      for (int i = 0; i < 10 * YcsbRows.FIELDS && scanner.next() != null; i++) {
        cells++;
      }
      scanner.close();
    }
    return cells;
  }

  @Benchmark
  @OperationsPerInvocation(RECORDS)
  public long update(Data d, Loaded t) {
    for (List<Cell> u : d.updates) {
      t.ms.add(u, t.sizing);
    }
    return t.sizing.getDataSize();
  }
}
