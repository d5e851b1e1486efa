package org.apache.hadoop.hbase.rlsm.engine;

import static org.apache.hadoop.hbase.rlsm.RlsmTestRows.row;
import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertTrue;

import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.Locale;
import java.util.Random;
import org.apache.hadoop.hbase.HBaseClassTestRule;
import org.apache.hadoop.hbase.HBaseTestingUtility;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.Durability;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.regionserver.HStore;
import org.apache.hadoop.hbase.rlsm.RlsmMiniClusterRule;
import org.apache.hadoop.hbase.rlsm.RlsmTwinTables;
import org.apache.hadoop.hbase.testclassification.LargeTests;
import org.apache.hadoop.hbase.testclassification.RegionServerTests;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.experimental.categories.Category;

/**
 * The heap an open RLSM store pins grows with its blocks, not its rows: a region of many small
 * rows is opened (table enabled) and closed (disabled) and the heap in use after full collections
 * is compared, with a default-engine twin measured the same way for reference. An engine that
 * builds a per-row in-memory index at open (about 55 bytes per row: hash-index arrays, keys and
 * a sorted row view) pins far more than the bound; an engine that pages its index and Blooms
 * through HBase's BlockCache pins a few bytes per row at most (HFile: about 2.5). The bound,
 * {@value #BOUND_BYTES_PER_ROW} bytes per row, leaves room for the noise of a heap reading of a
 * whole mini cluster (a few MB) at the default {@value #DEFAULT_ROWS} rows. The mini cluster runs
 * in this JVM, so the JVM's heap is the RegionServer's. {@code -Drlsm.heap.rows} changes the size.
 */
@Category({ LargeTests.class, RegionServerTests.class })
public class TestRlsmPinnedHeap {
  @ClassRule
  public static final HBaseClassTestRule CLASS_RULE =
    HBaseClassTestRule.forClass(TestRlsmPinnedHeap.class);

  private static final int DEFAULT_ROWS = 300_000;
  private static final int BOUND_BYTES_PER_ROW = 16;
  private static final int MEASUREMENTS = 3;
  private static final byte[] F = Bytes.toBytes("f");
  private static final byte[] Q = Bytes.toBytes("q");

  @ClassRule(order = 1)
  public static final RlsmMiniClusterRule CLUSTER = new RlsmMiniClusterRule(1);
  private static final HBaseTestingUtility util = CLUSTER.util();

  /** Heap in use after full collections (System.gc() is a blocking full collection by default). */
  private static long heapAfterGc() {
    for (int i = 0; i < 3; i++) {
      System.gc();
    }
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }

  /** Median over {@value #MEASUREMENTS} close/open cycles of heap(open) - heap(closed). */
  private static long pinnedBytes(TableName tn) throws Exception {
    Admin admin = util.getAdmin();
    long[] pinned = new long[MEASUREMENTS];
    for (int m = 0; m < MEASUREMENTS; m++) {
      admin.disableTable(tn);
      long closed = heapAfterGc();
      admin.enableTable(tn);
      pinned[m] = heapAfterGc() - closed;
    }
    Arrays.sort(pinned);
    return pinned[MEASUREMENTS / 2];
  }

  private static void load(TableName tn, int rows) throws Exception {
    try (BufferedMutator m = util.getConnection().getBufferedMutator(tn)) {
      for (int i = 0; i < rows; i++) {
        m.mutate(new Put(row(i)).setDurability(Durability.SKIP_WAL).addColumn(F, Q,
          Bytes.toBytes(i)));
      }
    }
  }

  @Test
  public void openStorePinsHeapByBlocksNotRows() throws Exception {
    int rows = Integer.getInteger("rlsm.heap.rows", DEFAULT_ROWS);
    RlsmTwinTables twins = RlsmTwinTables.create(util, "heap", cf -> cf, F);
    load(twins.rlsm, rows);
    load(twins.dflt, rows);
    twins.flushAndMajorCompact();

    long dflt = pinnedBytes(twins.dflt);
    long rlsm = pinnedBytes(twins.rlsm);
    HStore store = util.getHBaseCluster().getRegions(twins.rlsm).get(0).getStore(F);
    System.out.printf(Locale.ROOT,
      "pinned heap for %d rows: rlsm %d B (%.1f B/row), default %d B (%.1f B/row); rlsm store "
        + "reports %d files, static index %d B, static Bloom %d B, root-level index %d B%n",
      rows, rlsm, (double) rlsm / rows, dflt, (double) dflt / rows, store.getStorefilesCount(),
      store.getTotalStaticIndexSize(), store.getTotalStaticBloomSize(),
      store.getStorefilesRootLevelIndexSize());

    // The store serves after the cycles: sampled rows read back.
    Random rnd = new Random(rows);
    try (Table t = util.getConnection().getTable(twins.rlsm)) {
      for (int n = 0; n < 200; n++) {
        int i = rnd.nextInt(rows);
        assertArrayEquals("row " + i, Bytes.toBytes(i), t.get(new Get(row(i))).getValue(F, Q));
      }
    }
    long bound = (long) BOUND_BYTES_PER_ROW * rows;
    assertTrue(String.format(Locale.ROOT,
      "an open RLSM region of %d rows pins %d bytes of heap (%.1f per row; bound %d per row, "
        + "default engine %.1f per row)", rows, rlsm, (double) rlsm / rows, BOUND_BYTES_PER_ROW,
      (double) dflt / rows), rlsm <= bound);
  }
}
