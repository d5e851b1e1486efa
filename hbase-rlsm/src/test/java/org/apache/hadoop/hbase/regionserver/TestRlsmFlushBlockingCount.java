package org.apache.hadoop.hbase.regionserver;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.io.IOException;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.hadoop.hbase.HBaseClassTestRule;
import org.apache.hadoop.hbase.HBaseTestingUtility;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.RegionInfoBuilder;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.regionserver.compactions.CompactionContext;
import org.apache.hadoop.hbase.regionserver.throttle.ThroughputController;
import org.apache.hadoop.hbase.rlsm.RlsmTables;
import org.apache.hadoop.hbase.rlsm.RlsmTestRows;
import org.apache.hadoop.hbase.rlsm.compaction.CompactionPlan;
import org.apache.hadoop.hbase.testclassification.MediumTests;
import org.apache.hadoop.hbase.testclassification.RegionServerTests;
import org.junit.AfterClass;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.experimental.categories.Category;

/**
 * HBase's flusher delays a region's flush while a store holds more than
 * {@code hbase.hstore.blockingStoreFiles} files ({@code HStore.hasTooManyStoreFiles}), and the
 * region then refuses writes as too busy once its memstore is full. RLSM runs one compaction per
 * store at a time, and a range-append takes every Level-0 file: the files it reads leave Level-0
 * when it commits, so they do not count toward the limit while it runs; files flushed meanwhile
 * do. A compaction that fails gives its inputs back to the count. The running compaction is held
 * in its throughput controller by a latch; the store serves every row throughout.
 */
@Category({ MediumTests.class, RegionServerTests.class })
public class TestRlsmFlushBlockingCount {
  @ClassRule
  public static final HBaseClassTestRule CLASS_RULE =
    HBaseClassTestRule.forClass(TestRlsmFlushBlockingCount.class);

  private static final HBaseTestingUtility UTIL = new HBaseTestingUtility();
  private static final int BLOCKING = 3;
  private static final int ROWS_PER_FLUSH = 200;

  @AfterClass
  public static void cleanUp() throws IOException {
    UTIL.cleanupTestDir();
  }

  /** Holds the compaction at its first cell until released, or fails it there. */
  private static final class HoldingController implements ThroughputController {
    final CountDownLatch entered = new CountDownLatch(1);
    final CountDownLatch release = new CountDownLatch(1);
    private final boolean fail;
    private volatile boolean stopped;

    HoldingController(boolean fail) {
      this.fail = fail;
    }

    @Override
    public void setup(RegionServerServices server) {
    }

    @Override
    public void start(String name) {
    }

    @Override
    public long control(String name, long size) throws InterruptedException {
      entered.countDown();
      release.await();
      if (fail) {
        throw new InterruptedException("failing the compaction on purpose");
      }
      return 0;
    }

    @Override
    public void finish(String name) {
    }

    @Override
    public void stop(String why) {
      stopped = true;
    }

    @Override
    public boolean isStopped() {
      return stopped;
    }
  }

  private int flushes;

  private void flush(HRegion r) throws IOException {
    int base = flushes++ * ROWS_PER_FLUSH;
    for (int i = 0; i < ROWS_PER_FLUSH; i++) {
      r.put(new Put(RlsmTestRows.row(base + i)).addColumn(RlsmLayouts.F, RlsmLayouts.Q,
        RlsmTestRows.value(base + i)));
    }
    r.flush(true);
  }

  private static int level0(HStore store) {
    return ((RlsmStoreFileManager) store.getStoreEngine().getStoreFileManager()).state().level0
      .size();
  }

  @Test
  public void runningCompactionInputsDoNotBlockFlushes() throws Exception {
    TableDescriptor td = RlsmTables.configure(
      TableDescriptorBuilder.newBuilder(TableName.valueOf("flush_blocking_count")))
      .setColumnFamily(RlsmTables.familyBuilder(RlsmLayouts.F)
        .setConfiguration(HStore.BLOCKING_STOREFILES_KEY, Integer.toString(BLOCKING)).build())
      .build();
    RegionInfo info = RegionInfoBuilder.newBuilder(td.getTableName()).build();
    HRegion r = HBaseTestingUtility.createRegionAndWAL(info,
      UTIL.getDataTestDir("flush_blocking_count"), UTIL.getConfiguration(), td);
    ExecutorService pool = Executors.newSingleThreadExecutor();
    try {
      HStore store = r.getStore(RlsmLayouts.F);
      for (int i = 0; i <= BLOCKING; i++) {
        flush(r);
      }
      assertEquals(BLOCKING + 1, store.getStorefilesCount());
      assertTrue("Level-0 over the limit blocks flushes", store.hasTooManyStoreFiles());

      // a compaction that fails: its inputs count again
      HoldingController failing = new HoldingController(true);
      Future<Boolean> failed = run(pool, r, store, failing);
      failing.entered.await();
      assertEquals("inputs of the running compaction", 0, store.getStorefilesCount());
      failing.release.countDown();
      assertFalse("the failed compaction", failed.get());
      assertEquals("after the failure", BLOCKING + 1, store.getStorefilesCount());
      assertTrue(store.hasTooManyStoreFiles());

      // a compaction held while flushes go on: only the files flushed meanwhile count
      HoldingController held = new HoldingController(false);
      Future<Boolean> done = run(pool, r, store, held);
      held.entered.await();
      for (int i = 0; i < BLOCKING; i++) {
        flush(r);
      }
      assertEquals("every flushed file is in Level-0", 2 * BLOCKING + 1, level0(store));
      assertEquals("files no compaction reads", BLOCKING, store.getStorefilesCount());
      assertFalse("the running compaction's inputs do not block flushes",
        store.hasTooManyStoreFiles());
      assertEquals("rows served while it runs", flushes * ROWS_PER_FLUSH, rows(r));
      held.release.countDown();
      assertTrue("the compaction ran", done.get());
      assertEquals("its inputs left Level-0", BLOCKING, level0(store));
      assertEquals(BLOCKING, store.getStorefilesCount());
      assertEquals("rows after it", flushes * ROWS_PER_FLUSH, rows(r));
    } finally {
      pool.shutdownNow();
      HBaseTestingUtility.closeRegionAndWAL(r);
    }
  }

  /** Selects as HBase does (an append of every Level-0 file) and runs it on {@code pool}. */
  private static Future<Boolean> run(ExecutorService pool, HRegion r, HStore store,
    ThroughputController controller) throws IOException {
    Optional<CompactionContext> context = store.requestCompaction();
    assertTrue("a compaction was selected", context.isPresent());
    CompactionPlan plan = ((RlsmCompactionContext) context.get()).plan();
    assertEquals(CompactionPlan.Kind.APPEND, plan.kind());
    assertEquals("it reads every Level-0 file", level0(store), plan.inputs().size());
    return pool.submit(() -> r.compact(context.get(), store, controller));
  }

  private static int rows(HRegion r) throws IOException {
    return RlsmTestRows.cells(r, new Scan()).size();
  }
}
