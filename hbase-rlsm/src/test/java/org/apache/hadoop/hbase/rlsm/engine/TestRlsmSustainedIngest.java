package org.apache.hadoop.hbase.rlsm.engine;

import static org.apache.hadoop.hbase.rlsm.RlsmTestRows.row;
import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hbase.HBaseClassTestRule;
import org.apache.hadoop.hbase.HBaseTestingUtility;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.regionserver.HRegion;
import org.apache.hadoop.hbase.regionserver.HStore;
import org.apache.hadoop.hbase.regionserver.RlsmStoreProbe;
import org.apache.hadoop.hbase.rlsm.RlsmMiniClusterRule;
import org.apache.hadoop.hbase.rlsm.RlsmTables;
import org.apache.hadoop.hbase.rlsm.RlsmTestCluster;
import org.apache.hadoop.hbase.rlsm.compaction.RlsmCompactionConfig;
import org.apache.hadoop.hbase.testclassification.LargeTests;
import org.apache.hadoop.hbase.testclassification.RegionServerTests;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.experimental.categories.Category;

/**
 * Compaction scheduling under sustained ingest (docs/architecture.md, "Compaction scheduling"):
 * writer threads load random rows over the whole key space, one flush's worth per round, so
 * every range-append adds a segment to every partition; the test flushes the region through the
 * client at each checkpoint (HBase's user flush, which requests a compaction when the store asks
 * for one) and the writers load the next round while that compaction work runs.
 * Once the compactions HBase queued have run, every partition holds at most
 * {@code hbase.rlsm.partition.max.segments} segments and flushes are not blocked (Level-0 below
 * {@code hbase.hstore.blockingStoreFiles}). Writers and checkpoints meet at latches; the only
 * timeouts are hang guards.
 */
@Category({ LargeTests.class, RegionServerTests.class })
public class TestRlsmSustainedIngest {
  @ClassRule
  public static final HBaseClassTestRule CLASS_RULE =
    HBaseClassTestRule.forClass(TestRlsmSustainedIngest.class);

  @ClassRule(order = 1)
  public static final RlsmMiniClusterRule CLUSTER = new RlsmMiniClusterRule(1);
  private static final HBaseTestingUtility util = CLUSTER.util();

  private static final byte[] F = Bytes.toBytes("f");
  private static final byte[] Q = Bytes.toBytes("q");
  private static final int MAX_SEGMENTS = 4;
  private static final int BLOCKING_FILES = 8;
  private static final int KEY_SPACE = 20_000;
  private static final int WRITERS = 2;
  /** Rows written (by all writers together) between two checkpoint flushes. */
  private static final int ROWS_PER_FLUSH = 2_000;
  private static final int CHECKPOINTS = Integer.getInteger("rlsm.ingest.checkpoints", 18);

  private static byte[] value(int i) {
    return Bytes.toBytes("v" + i + "-" + "x".repeat(60));
  }

  @Test
  public void boundsHoldUnderSustainedIngest() throws Exception {
    TableName tn = TableName.valueOf("sustained");
    ColumnFamilyDescriptorBuilder cf = RlsmTables.familyBuilder(F)
      .setConfiguration(RlsmCompactionConfig.MAX_SEGMENTS_KEY, Integer.toString(MAX_SEGMENTS))
      .setConfiguration(RlsmCompactionConfig.SPLIT_BYTES_KEY, Long.toString(100 * 1024))
      .setConfiguration("hbase.hstore.blockingStoreFiles", Integer.toString(BLOCKING_FILES));
    util.getAdmin().createTable(RlsmTables.configure(TableDescriptorBuilder.newBuilder(tn))
      .setColumnFamily(cf.build()).build());
    HRegion region = util.getHBaseCluster().getRegions(tn).get(0);
    HStore store = region.getStore(F);

    // Round c: every writer loads its share of one flush, counts down loaded[c] and waits for
    // flushed[c]; the test flushes, releases the writers into round c + 1 (so they load while
    // the compactions of round c run) and then checks the store once those compactions ran.
    CountDownLatch[] loaded = new CountDownLatch[CHECKPOINTS];
    CountDownLatch[] flushed = new CountDownLatch[CHECKPOINTS];
    for (int i = 0; i < CHECKPOINTS; i++) {
      loaded[i] = new CountDownLatch(WRITERS);
      flushed[i] = new CountDownLatch(1);
    }
    ExecutorService pool = Executors.newFixedThreadPool(WRITERS);
    List<Future<?>> writers = new ArrayList<>();
    for (int w = 0; w < WRITERS; w++) {
      int seed = w;
      writers.add(pool.submit(() -> {
        Random rnd = new Random(seed);
        try (Table t = util.getConnection().getTable(tn)) {
          for (int c = 0; c < CHECKPOINTS; c++) {
            for (int n = 0; n < ROWS_PER_FLUSH / WRITERS; n += 100) {
              List<Put> batch = new ArrayList<>();
              for (int k = 0; k < 100; k++) {
                int i = rnd.nextInt(KEY_SPACE);
                batch.add(new Put(row(i)).addColumn(F, Q, value(i)));
              }
              t.put(batch);
            }
            loaded[c].countDown();
            RlsmTestCluster.awaitLatch(flushed[c]);
          }
        }
        return null;
      }));
    }
    try {
      for (int c = 0; c < CHECKPOINTS; c++) {
        RlsmTestCluster.awaitLatch(loaded[c]);
        util.getAdmin().flushRegion(region.getRegionInfo().getRegionName());
        flushed[c].countDown();
        util.waitFor(RlsmTestCluster.HANG_GUARD_MS, () -> RlsmStoreProbe.compactionsIdle(region));
        int deepest = RlsmStoreProbe.deepestPartition(store);
        int level0 = RlsmStoreProbe.level0Files(store);
        String at = "checkpoint " + c + ": deepest partition " + deepest + " segments (bound "
          + MAX_SEGMENTS + "), Level-0 " + level0 + " files (blocking " + BLOCKING_FILES + ")";
        System.out.println(at);
        assertTrue(at, deepest <= MAX_SEGMENTS);
        assertTrue(at, level0 < BLOCKING_FILES);
        assertFalse(at + ": HBase would block flushes", store.hasTooManyStoreFiles());
      }
    } finally {
      for (CountDownLatch l : flushed) {
        l.countDown(); // a failed checkpoint must not leave writers waiting
      }
      for (Future<?> w : writers) {
        w.get(RlsmTestCluster.HANG_GUARD_MINUTES, TimeUnit.MINUTES);
      }
      pool.shutdown();
    }
    try (Table t = util.getConnection().getTable(tn)) {
      for (int i = 0; i < KEY_SPACE; i += 97) {
        byte[] v = t.get(new Get(row(i))).getValue(F, Q);
        if (v != null) {
          assertArrayEquals(value(i), v);
        }
      }
    }
  }
}
