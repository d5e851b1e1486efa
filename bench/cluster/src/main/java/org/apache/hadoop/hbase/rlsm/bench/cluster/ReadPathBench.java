package org.apache.hadoop.hbase.rlsm.bench.cluster;

import java.lang.management.ManagementFactory;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseTestingUtility;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Durability;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.io.compress.Compression;
import org.apache.hadoop.hbase.regionserver.DisabledRegionSplitPolicy;
import org.apache.hadoop.hbase.regionserver.HRegion;
import org.apache.hadoop.hbase.rlsm.RlsmTables;
import org.apache.hadoop.hbase.rlsm.bench.cluster.ReadPathReport.Metric;
import org.apache.hadoop.hbase.rlsm.compaction.RlsmCompactionConfig;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * The read path of RLSM against HBase's default engine, side by side in one mini cluster: the same
 * rows loaded into an RLSM table and a default-engine table with the same family settings (once
 * per compression given), compactions settled, then rounds that alternate which engine goes
 * first, each measuring per engine: the heap its open region pins (heap after GC with the table
 * enabled minus disabled), region open time (enable), Gets/s with uniform and Zipfian keys, short
 * scans/s (YCSB E: random start row, limit 1..100), full-scan rows/s, and on-disk bytes of the
 * store. Throughput phases run for a fixed time each with {@value #THREADS} client threads.
 * Run by {@code bench/scripts/read-path.sh}; method in docs/benchmark-methods.md.
 *
 * <p>Arguments: rows (default 200,000), bytes of value per row (1,000, as 10 columns), a
 * comma-separated compression list (NONE,GZ), rounds (3), seconds per throughput phase (15),
 * flush size in MB (4), output CSV path, and RLSM's bound on segments per partition
 * ({@code hbase.rlsm.partition.max.segments}; 0 or absent: the engine's default).
 */
public final class ReadPathBench {
  private static final byte[] F = Bytes.toBytes("f");
  private static final int FIELDS = 10;
  private static final int THREADS = 4;
  private static final String[] ENGINES = { "rlsm", "default" };

  private final HBaseTestingUtility util;
  private final long rows;
  private final int valueBytes;
  private final int seconds;
  private final long flushBytes;
  private final ReadPathReport report = new ReadPathReport();

  private ReadPathBench(HBaseTestingUtility util, long rows, int valueBytes, int seconds,
    long flushBytes) {
    this.util = util;
    this.rows = rows;
    this.valueBytes = valueBytes;
    this.seconds = seconds;
    this.flushBytes = flushBytes;
  }

  public static void main(String[] args) throws Exception {
    long rows = args.length > 0 ? Long.parseLong(args[0]) : 200_000;
    int valueBytes = args.length > 1 ? Integer.parseInt(args[1]) : 1000;
    List<String> compressions =
      Arrays.asList((args.length > 2 ? args[2] : "NONE,GZ").toUpperCase(Locale.ROOT).split(","));
    int rounds = args.length > 3 ? Integer.parseInt(args[3]) : 3;
    int seconds = args.length > 4 ? Integer.parseInt(args[4]) : 15;
    long flushMb = args.length > 5 ? Long.parseLong(args[5]) : 4;
    String csv = args.length > 6 ? args[6] : "read-path.csv";
    int segmentBound = args.length > 7 ? Integer.parseInt(args[7]) : 0;
    HBaseTestingUtility util = new HBaseTestingUtility();
    Configuration conf = util.getConfiguration();
    if (segmentBound > 0) {
      conf.setInt(RlsmCompactionConfig.MAX_SEGMENTS_KEY, segmentBound);
    }
    conf.setBoolean("hbase.table.sanity.checks", false);
    conf.setInt("hbase.hstore.blockingStoreFiles", 1000);
    util.startMiniCluster(1);
    ReadPathBench bench = new ReadPathBench(util, rows, valueBytes, seconds, flushMb << 20);
    try {
      for (String c : compressions) {
        bench.run(c, rounds);
      }
    } finally {
      util.shutdownMiniCluster();
    }
    bench.report.writeCsv(Paths.get(csv));
    System.out.printf("%nread path: %d rows, %d B values, %d rounds, %d s phases, %d MB flushes,"
      + " RLSM segment bound %s%n", rows, valueBytes, rounds, seconds, flushMb,
      segmentBound > 0 ? segmentBound : "default");
    bench.report.printTable(System.out, compressions);
  }

  private static void progress(String fmt, Object... args) {
    System.err.printf(Locale.ROOT, "read-path: " + fmt + "%n", args);
  }

  /** Row key of record {@code i}: YCSB's {@code user} + hashed number, so keys are scattered. */
  static byte[] row(long i) {
    return Bytes.toBytes(
      String.format(Locale.ROOT, "user%019d", ZipfianIndex.mix(i) & Long.MAX_VALUE));
  }

  private void run(String compression, int rounds) throws Exception {
    TableName[] tables = new TableName[ENGINES.length];
    for (int e = 0; e < ENGINES.length; e++) {
      tables[e] = create(ENGINES[e], compression);
      load(tables[e], compression);
    }
    for (int e = 0; e < ENGINES.length; e++) {
      util.getAdmin().flush(tables[e]);
      long start = System.nanoTime();
      WriteAmplificationBench.settle(util, tables[e]);
      HRegion region = util.getHBaseCluster().getRegions(tables[e]).get(0);
      // Files replaced by compactions stay in the store directory until HBase's discharger
      // archives them (every 2 minutes): archive them now, so the directory holds live data.
      region.getStore(F).closeAndArchiveCompactedFiles();
      long bytes = WriteAmplificationBench.size(util.getTestFileSystem(),
        region.getRegionFileSystem().getStoreDir("f"));
      progress("%s %s settled in %.0f s: %d store files of %.1f MB, store directory %.1f MB",
        compression, ENGINES[e], (System.nanoTime() - start) / 1e9,
        region.getStore(F).getStorefiles().size(), region.getStore(F).getStorefilesSize() / 1e6,
        bytes / 1e6);
      report.add(compression, ENGINES[e], 0, Metric.DISK_MB, bytes / 1e6);
    }
    for (int round = 1; round <= rounds; round++) {
      for (int k = 0; k < ENGINES.length; k++) {
        // Alternate which engine goes first, so drift in the machine's load spreads over both.
        int e = (k + round) % ENGINES.length;
        measure(compression, ENGINES[e], tables[e], round);
      }
    }
    for (TableName tn : tables) {
      util.deleteTable(tn);
    }
  }

  private TableName create(String engine, String compression) throws Exception {
    TableName tn = TableName.valueOf("rp_" + engine + "_" + compression.toLowerCase(Locale.ROOT));
    ColumnFamilyDescriptorBuilder cf = ColumnFamilyDescriptorBuilder.newBuilder(F)
      .setCompressionType(Compression.getCompressionAlgorithmByName(
        compression.toLowerCase(Locale.ROOT)));
    TableDescriptorBuilder tb = TableDescriptorBuilder.newBuilder(tn)
      .setMemStoreFlushSize(flushBytes).setSplitEnabled(false).setMergeEnabled(false)
      .setRegionSplitPolicyClassName(DisabledRegionSplitPolicy.class.getName());
    if (engine.equals("rlsm")) {
      RlsmTables.configure(cf);
      RlsmTables.configure(tb);
    }
    util.getAdmin().createTable(tb.setColumnFamily(cf.build()).build());
    return tn;
  }

  /** The same rows for every table: printable ASCII values as YCSB writes them. */
  private void load(TableName tn, String compression) throws Exception {
    Random rnd = new Random(42);
    int fieldBytes = Math.max(1, valueBytes / FIELDS);
    long start = System.nanoTime();
    long last = start;
    try (BufferedMutator m = util.getConnection().getBufferedMutator(tn)) {
      for (long i = 0; i < rows; i++) {
        Put p = new Put(row(i)).setDurability(Durability.SKIP_WAL);
        for (int f = 0; f < FIELDS; f++) {
          byte[] v = new byte[fieldBytes];
          for (int b = 0; b < v.length; b++) {
            v[b] = (byte) (' ' + rnd.nextInt(95));
          }
          p.addColumn(F, Bytes.toBytes("field" + f), v);
        }
        m.mutate(p);
        if (System.nanoTime() - last > 10_000_000_000L) {
          last = System.nanoTime();
          progress("%s loading %s: %d / %d rows", compression, tn, i, rows);
        }
      }
    }
    progress("%s loaded %s: %d rows in %.0f s", compression, tn, rows,
      (System.nanoTime() - start) / 1e9);
  }

  private void measure(String compression, String engine, TableName tn, int round)
    throws Exception {
    Admin admin = util.getAdmin();
    admin.disableTable(tn);
    double closed = heapAfterGcMb();
    long start = System.nanoTime();
    admin.enableTable(tn);
    double openS = (System.nanoTime() - start) / 1e9;
    double pinned = heapAfterGcMb() - closed;
    report.add(compression, engine, round, Metric.OPEN_S, openS);
    report.add(compression, engine, round, Metric.PINNED_HEAP_MB, pinned);
    Random seeds = new Random(round);
    ZipfianIndex zipf = new ZipfianIndex(rows);
    double uniform = gets(tn, rnd -> Math.floorMod(rnd.nextLong(), rows), seeds.nextLong());
    report.add(compression, engine, round, Metric.GETS_UNIFORM, uniform);
    double zipfian = gets(tn, zipf::next, seeds.nextLong());
    report.add(compression, engine, round, Metric.GETS_ZIPFIAN, zipfian);
    double shortScans = shortScans(tn, seeds.nextLong());
    report.add(compression, engine, round, Metric.SHORT_SCANS, shortScans);
    double fullScan = fullScan(tn);
    report.add(compression, engine, round, Metric.FULL_SCAN_ROWS, fullScan);
    progress("%s round %d %s: pinned %.1f MB, open %.2f s, gets %.0f/s uniform %.0f/s zipfian,"
      + " short scans %.0f/s, full scan %.0f rows/s", compression, round, engine, pinned, openS,
      uniform, zipfian, shortScans, fullScan);
  }

  /** Heap in use after full collections, in MB (the mini cluster runs in this JVM). */
  private static double heapAfterGcMb() throws InterruptedException {
    for (int i = 0; i < 3; i++) {
      System.gc();
      Thread.sleep(200);
    }
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed() / 1e6;
  }

  /** Picks a record number from a thread's own random source. */
  private interface KeyChooser {
    long next(Random rnd);
  }

  private double gets(TableName tn, KeyChooser keys, long seed) throws Exception {
    return timed(tn, seed, (t, rnd) -> {
      Result r = t.get(new Get(row(keys.next(rnd))));
      if (r.isEmpty()) {
        throw new IllegalStateException("a loaded row is missing from " + tn);
      }
      return 1;
    });
  }

  private double shortScans(TableName tn, long seed) throws Exception {
    return timed(tn, seed, (t, rnd) -> {
      int limit = 1 + rnd.nextInt(100);
      Scan s = new Scan().withStartRow(row(Math.floorMod(rnd.nextLong(), rows))).setLimit(limit)
        .setCaching(limit);
      try (ResultScanner rs = t.getScanner(s)) {
        while (rs.next() != null) {
          // Reading every row is the work measured.
        }
      }
      return 1;
    });
  }

  /** One operation of a throughput phase, returning how many operations it counts as. */
  private interface Op {
    long run(Table t, Random rnd) throws Exception;
  }

  /** Runs {@code op} on {@value #THREADS} threads for the phase's seconds; operations/s. */
  private double timed(TableName tn, long seed, Op op) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(THREADS);
    long deadline = System.nanoTime() + seconds * 1_000_000_000L;
    long start = System.nanoTime();
    try {
      List<Future<Long>> parts = new ArrayList<>();
      for (int i = 0; i < THREADS; i++) {
        Random rnd = new Random(seed + i);
        parts.add(pool.submit(() -> {
          long n = 0;
          try (Table t = util.getConnection().getTable(tn)) {
            while (System.nanoTime() < deadline) {
              n += op.run(t, rnd);
            }
          }
          return n;
        }));
      }
      long total = 0;
      for (Future<Long> f : parts) {
        total += f.get();
      }
      return total / ((System.nanoTime() - start) / 1e9);
    } finally {
      pool.shutdownNow();
    }
  }

  /** Rows/s of one scan from the first row, stopped at the end or after the phase's seconds. */
  private double fullScan(TableName tn) throws Exception {
    long start = System.nanoTime();
    long deadline = start + seconds * 1_000_000_000L;
    long n = 0;
    try (Table t = util.getConnection().getTable(tn);
      ResultScanner rs = t.getScanner(new Scan().setCaching(1000))) {
      while (rs.next() != null) {
        n++;
        if ((n & 1023) == 0 && System.nanoTime() > deadline) {
          break;
        }
      }
    }
    return n / ((System.nanoTime() - start) / 1e9);
  }
}
