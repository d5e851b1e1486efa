package org.apache.hadoop.hbase.rlsm.bench.cluster;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.HBaseTestingUtility;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.RegionInfoBuilder;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.io.hfile.BlockCache;
import org.apache.hadoop.hbase.io.hfile.BlockCacheFactory;
import org.apache.hadoop.hbase.io.hfile.CacheStats;
import org.apache.hadoop.hbase.io.hfile.HFile;
import org.apache.hadoop.hbase.regionserver.HRegion;
import org.apache.hadoop.hbase.regionserver.HStore;
import org.apache.hadoop.hbase.regionserver.RegionScanner;
import org.apache.hadoop.hbase.regionserver.RlsmStoreEngine;
import org.apache.hadoop.hbase.regionserver.RlsmStoreStats;
import org.apache.hadoop.hbase.rlsm.RlsmTables;
import org.apache.hadoop.hbase.rlsm.compaction.RlsmCompactionConfig;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * What one read costs, counted rather than timed: the read-path benchmark's rows (10 fields of
 * 100 printable bytes, scattered keys) loaded into local regions sharing one on-heap BlockCache,
 * flushed every given number of rows and compacted until settled, once for HBase's default
 * engine and once per RLSM segment bound given, then per Get, short scan (YCSB E: start row and
 * 1..100 rows) and full scan: data blocks read ({@link HFile#DATABLOCK_READ_COUNT}, cache hits
 * included), Bloom chunk lookups (Bloom checks), BlockCache lookups, bytes allocated and CPU time
 * of the reading thread (a ratio within one run, not a throughput). For RLSM also the layout
 * (partitions, segments, deepest partition) and the bytes its compactions wrote per byte flushed,
 * the write side of the segment bound's trade-off. Run by {@code bench/scripts/read-costs.sh}.
 *
 * <p>Arguments: rows (40,000), rows per flush (1,000), partition split bytes (16 MB),
 * comma-separated segment bounds ({@code hbase.rlsm.partition.max.segments}, 32), rounds (1).
 * With more than one round every region is loaded first and each round measures all of them,
 * starting with a different engine each time, so that JIT warm-up and the machine's load fall on
 * every engine alike; each round prints its own rows. The system properties {@code rc.gets} (3,000)
 * and {@code rc.scans} (500) set the Gets and short scans per measurement, longer for a profile.
 */
public final class ReadCostBench {
  private static final byte[] F = Bytes.toBytes("f");
  private static final int FIELDS = 10;
  private static final int GETS = Integer.getInteger("rc.gets", 3000);
  private static final int SHORT_SCANS = Integer.getInteger("rc.scans", 500);
  private static final com.sun.management.ThreadMXBean THREADS =
    (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

  private ReadCostBench() {
  }

  public static void main(String[] args) throws Exception {
    int rows = args.length > 0 ? Integer.parseInt(args[0]) : 40_000;
    int flushRows = args.length > 1 ? Integer.parseInt(args[1]) : 1_000;
    long splitBytes = args.length > 2 ? Long.parseLong(args[2]) : 16L << 20;
    String bounds = args.length > 3 ? args[3] : "32";
    int rounds = args.length > 4 ? Integer.parseInt(args[4]) : 1;
    HBaseTestingUtility util = new HBaseTestingUtility();
    Configuration conf = util.getConfiguration();
    conf.setFloat("hfile.block.cache.size", 0.3f);
    BlockCache cache = BlockCacheFactory.createBlockCache(conf);
    System.out.printf("read costs: %d rows, a flush every %d rows, %d MB partition splits%n",
      rows, flushRows, splitBytes >> 20);
    System.out.println("| engine | layout | operation | data blocks | Bloom checks "
      + "| cache lookups | allocated B | CPU us |");
    System.out.println("|---|---|---|---|---|---|---|---|");
    List<HRegion> regions = new ArrayList<>();
    List<String> layouts = new ArrayList<>();
    List<String> engines = new ArrayList<>();
    engines.add("default");
    for (String b : bounds.split(",")) {
      engines.add("rlsm-" + b.trim());
    }
    for (String engine : engines) {
      ColumnFamilyDescriptorBuilder cf = ColumnFamilyDescriptorBuilder.newBuilder(F);
      TableDescriptorBuilder tb =
        TableDescriptorBuilder.newBuilder(TableName.valueOf(engine.replace('-', '_')));
      if (engine.startsWith("rlsm")) {
        cf = RlsmTables.familyBuilder(F)
          .setConfiguration(RlsmCompactionConfig.SPLIT_BYTES_KEY, Long.toString(splitBytes))
          .setConfiguration(RlsmCompactionConfig.MAX_SEGMENTS_KEY, engine.substring(5));
        RlsmTables.configure(tb);
      }
      TableDescriptor td = tb.setColumnFamily(cf.build()).build();
      HRegion r = HBaseTestingUtility.createRegionAndWAL(
        RegionInfoBuilder.newBuilder(td.getTableName()).build(), util.getDataTestDir(engine),
        conf, td, cache);
      regions.add(r);
      load(r, rows, flushRows);
      layouts.add(layout(r.getStore(F)));
      if (rounds == 1) {
        measure(r, engine, layouts.get(0), rows, cache.getStats());
        HBaseTestingUtility.closeRegionAndWAL(r);
        regions.clear();
        layouts.clear();
      }
    }
    for (int round = 0; round < rounds && !regions.isEmpty(); round++) {
      for (int k = 0; k < regions.size(); k++) {
        int e = (k + round) % regions.size();
        measure(regions.get(e), engines.get(e) + " (round " + (round + 1) + ")", layouts.get(e),
          rows, cache.getStats());
      }
    }
    for (HRegion r : regions) {
      HBaseTestingUtility.closeRegionAndWAL(r);
    }
    util.cleanupTestDir();
  }

  private static void load(HRegion r, int rows, int flushRows) throws Exception {
    Random rnd = new Random(42);
    for (int i = 0; i < rows; i++) {
      Put p = new Put(ReadPathBench.row(i));
      for (int f = 0; f < FIELDS; f++) {
        byte[] v = new byte[100];
        for (int b = 0; b < v.length; b++) {
          v[b] = (byte) (' ' + rnd.nextInt(95));
        }
        p.addColumn(F, Bytes.toBytes("field" + f), v);
      }
      r.put(p);
      if ((i + 1) % flushRows == 0 || i == rows - 1) {
        r.flush(true);
        for (int c = 0; c < 100 && r.getStore(F).needsCompaction(); c++) {
          r.compact(false);
        }
      }
    }
  }

  /** Store files, compaction bytes per flushed byte, and for RLSM the Level-1 layout. */
  private static String layout(HStore store) {
    String files = store.getStorefiles().size() + " files";
    if (!(store.getStoreEngine() instanceof RlsmStoreEngine)) {
      return String.format(Locale.ROOT, "%s; compactions rewrote %.2f B per flushed B", files,
        compactedPerFlushed(store));
    }
    RlsmStoreStats s = ((RlsmStoreEngine) store.getStoreEngine()).getStats();
    return String.format(Locale.ROOT, "%s: %d partitions, %d segments, deepest %d; "
      + "compactions wrote %.2f B per flushed B", files, s.getPartitions(), s.getSegments(),
      s.getDeepestPartition(), compactedPerFlushed(store));
  }

  /**
   * Bytes the store's compactions wrote per byte its flushes wrote: RLSM's own counters, or for
   * HBase's engines the cell bytes HBase counts (about the file bytes of uncompressed files).
   */
  static double compactedPerFlushed(HStore store) {
    if (!(store.getStoreEngine() instanceof RlsmStoreEngine)) {
      return (store.getCompactedCellsSize() + store.getMajorCompactedCellsSize())
        / (double) store.getFlushedCellsSize();
    }
    RlsmStoreStats s = ((RlsmStoreEngine) store.getStoreEngine()).getStats();
    long compacted = s.getAppendBytes() + s.getManifestBytes() + s.getSplitBytes()
      + s.getMergeBytes() + s.getCleanupBytes() + s.getMajorBytes();
    return compacted / (double) s.getFlushBytes();
  }

  private static void measure(HRegion r, String engine, String layout, int rows, CacheStats cs)
    throws Exception {
    fullScan(r); // warms the cache: every count below is of cached blocks
    Random g = new Random(7);
    long[] before = counters(cs);
    for (int i = 0; i < GETS; i++) {
      r.get(new Get(ReadPathBench.row(Math.floorMod(g.nextLong(), rows))));
    }
    print(engine, layout, "Get", GETS, before, counters(cs));
    Random s = new Random(9);
    before = counters(cs);
    List<Cell> cells = new ArrayList<>();
    for (int i = 0; i < SHORT_SCANS; i++) {
      int limit = 1 + s.nextInt(100);
      Scan scan = new Scan().withStartRow(ReadPathBench.row(Math.floorMod(s.nextLong(), rows)))
        .setLimit(limit);
      try (RegionScanner rs = r.getScanner(scan)) {
        for (int n = 0; n < limit; n++) {
          cells.clear();
          if (!rs.next(cells)) {
            break;
          }
        }
      }
    }
    print(engine, layout, "short scan", SHORT_SCANS, before, counters(cs));
    before = counters(cs);
    fullScan(r);
    print(engine, layout, "full scan", 1, before, counters(cs));
  }

  private static void fullScan(HRegion r) throws Exception {
    List<Cell> cells = new ArrayList<>();
    try (RegionScanner rs = r.getScanner(new Scan())) {
      boolean more;
      do {
        cells.clear();
        more = rs.next(cells);
      } while (more);
    }
  }

  private static long[] counters(CacheStats cs) {
    return new long[] { HFile.DATABLOCK_READ_COUNT.sum(),
      cs.getBloomChunkHitCount() + cs.getBloomChunkMissCount(),
      cs.getHitCount() + cs.getMissCount(), THREADS.getCurrentThreadAllocatedBytes(),
      THREADS.getCurrentThreadCpuTime() };
  }

  private static void print(String engine, String layout, String op, int ops, long[] a,
    long[] b) {
    System.out.printf(Locale.ROOT, "| %s | %s | %s | %.2f | %.2f | %.2f | %.0f | %.1f |%n",
      engine, layout, op, (b[0] - a[0]) / (double) ops, (b[1] - a[1]) / (double) ops,
      (b[2] - a[2]) / (double) ops, (b[3] - a[3]) / (double) ops, (b[4] - a[4]) / 1e3 / ops);
  }
}
