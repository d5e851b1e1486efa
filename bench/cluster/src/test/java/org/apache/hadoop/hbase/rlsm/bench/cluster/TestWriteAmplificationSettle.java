package org.apache.hadoop.hbase.rlsm.bench.cluster;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.hadoop.hbase.HBaseClassTestRule;
import org.apache.hadoop.hbase.HBaseTestingUtility;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.coprocessor.ObserverContext;
import org.apache.hadoop.hbase.coprocessor.RegionCoprocessor;
import org.apache.hadoop.hbase.coprocessor.RegionCoprocessorEnvironment;
import org.apache.hadoop.hbase.coprocessor.RegionObserver;
import org.apache.hadoop.hbase.regionserver.HRegion;
import org.apache.hadoop.hbase.regionserver.HStore;
import org.apache.hadoop.hbase.regionserver.InternalScanner;
import org.apache.hadoop.hbase.regionserver.RlsmStoreEngine;
import org.apache.hadoop.hbase.regionserver.ScanType;
import org.apache.hadoop.hbase.regionserver.Store;
import org.apache.hadoop.hbase.regionserver.StoreFile;
import org.apache.hadoop.hbase.regionserver.compactions.CompactionLifeCycleTracker;
import org.apache.hadoop.hbase.regionserver.compactions.CompactionRequest;
import org.apache.hadoop.hbase.rlsm.RlsmMiniClusterRule;
import org.apache.hadoop.hbase.testclassification.MediumTests;
import org.apache.hadoop.hbase.testclassification.MiscTests;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.BeforeClass;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.experimental.categories.Category;

/**
 * The write-amplification harness ({@link WriteAmplificationBench}) on an RLSM table: its tables
 * ask for compactions, not splits, after flushes, and its settling does not end while a
 * compaction is being selected or runs. A coprocessor holds the compaction at both points, so
 * the test sees each state for certain, whatever the machine's speed.
 */
@Category({ MediumTests.class, MiscTests.class })
public class TestWriteAmplificationSettle {
  @ClassRule
  public static final HBaseClassTestRule CLASS_RULE =
    HBaseClassTestRule.forClass(TestWriteAmplificationSettle.class);

  // HBase's stepping split policy, as the delegate, would want to split any non-empty store
  @ClassRule(order = 1)
  public static final RlsmMiniClusterRule CLUSTER =
    new RlsmMiniClusterRule(1, conf -> conf.setLong("hbase.increasing.policy.initial.size", 1));
  private static final byte[] F = Bytes.toBytes("f");
  /** Hang guard only. */
  private static final long MINUTES = 5;

  private static HBaseTestingUtility util;

  /** Holds an armed compaction after its selection (selection lock held) and before it writes. */
  public static final class HoldCompaction implements RegionCoprocessor, RegionObserver {
    static volatile CountDownLatch selected;
    static volatile CountDownLatch selectionReleased;
    static volatile CountDownLatch writing;
    static volatile CountDownLatch writeReleased;

    static void arm() {
      selected = new CountDownLatch(1);
      selectionReleased = new CountDownLatch(1);
      writing = new CountDownLatch(1);
      writeReleased = new CountDownLatch(1);
    }

    @Override
    public Optional<RegionObserver> getRegionObserver() {
      return Optional.of(this);
    }

    @Override
    public void postCompactSelection(ObserverContext<RegionCoprocessorEnvironment> c, Store store,
      List<? extends StoreFile> selection, CompactionLifeCycleTracker tracker,
      CompactionRequest request) {
      hold(selected, selectionReleased);
    }

    @Override
    public InternalScanner preCompact(ObserverContext<RegionCoprocessorEnvironment> c,
      Store store, InternalScanner scanner, ScanType scanType, CompactionLifeCycleTracker tracker,
      CompactionRequest request) {
      hold(writing, writeReleased);
      return scanner;
    }

    private static void hold(CountDownLatch reached, CountDownLatch released) {
      if (reached == null || released == null) {
        return;
      }
      reached.countDown();
      try {
        released.await(MINUTES, TimeUnit.MINUTES);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  @BeforeClass
  public static void setUp() {
    util = CLUSTER.util();
  }

  @Test
  public void compactsAfterFlushesAndSettlesOnlyWhenTheCompactionCommitted() throws Exception {
    TableName tn = TableName.valueOf("settle");
    util.getAdmin().createTable(TableDescriptorBuilder
      .newBuilder(WriteAmplificationBench.descriptor(tn, "rlsm-index", 64L << 20))
      .setCoprocessor(HoldCompaction.class.getName()).build());
    HRegion region = util.getHBaseCluster().getRegions(tn).get(0);
    HStore store = region.getStore(F);
    try (Table t = util.getConnection().getTable(tn)) {
      // files of several blocks, so that HBase's split point (a file's middle block) exists
      for (int flush = 0; flush < 4; flush++) {
        List<Put> puts = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
          puts.add(new Put(WriteAmplificationBench.rowKey(flush * 10_000L + i)).addColumn(F,
            Bytes.toBytes("field0"), new byte[100]));
        }
        t.put(puts);
        region.flush(true);
      }
    }
    assertEquals(4, store.getStorefilesCount());
    // a flush then asks for a compaction (MemStoreFlusher requests a split instead when the
    // region's policy wants one)
    assertFalse("the harness's table wants a split", region.checkSplit().isPresent());
    assertFalse(WriteAmplificationBench.settled(util, tn));

    HoldCompaction.arm();
    util.getHBaseCluster().getRegionServer(0).getCompactSplitThread()
      .requestSystemCompaction(region, store, "test");
    assertTrue(HoldCompaction.selected.await(MINUTES, TimeUnit.MINUTES));
    // Selection done, its files not yet marked compacting, nothing reported to the region yet.
    // The answer is read on another thread, which may block on the store's selection lock: the
    // selection is let go once the thread has answered or blocks there.
    AtomicBoolean settled = new AtomicBoolean();
    Thread reader = new Thread(() -> settled.set(WriteAmplificationBench.settled(util, tn)));
    reader.start();
    while (reader.isAlive() && reader.getState() != Thread.State.BLOCKED) {
      Thread.onSpinWait();
    }
    HoldCompaction.selectionReleased.countDown();
    reader.join(TimeUnit.MINUTES.toMillis(MINUTES));
    assertFalse("settled while a compaction was being selected", settled.get());

    assertTrue(HoldCompaction.writing.await(MINUTES, TimeUnit.MINUTES));
    assertFalse("settled while a compaction runs", WriteAmplificationBench.settled(util, tn));
    HoldCompaction.writeReleased.countDown();

    WriteAmplificationBench.settle(util, tn);
    assertTrue(WriteAmplificationBench.settled(util, tn));
    RlsmStoreEngine engine = (RlsmStoreEngine) store.getStoreEngine();
    assertEquals(1, engine.getStats().getCompactions());
    assertEquals(1, engine.getStats().getPartitions());
  }
}
