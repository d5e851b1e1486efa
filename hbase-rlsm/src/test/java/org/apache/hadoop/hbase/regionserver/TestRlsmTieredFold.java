package org.apache.hadoop.hbase.regionserver;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.HBaseClassTestRule;
import org.apache.hadoop.hbase.HBaseTestingUtility;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.RegionInfoBuilder;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.regionserver.compactions.CompactionContext;
import org.apache.hadoop.hbase.regionserver.throttle.NoLimitThroughputController;
import org.apache.hadoop.hbase.rlsm.RlsmTables;
import org.apache.hadoop.hbase.rlsm.RlsmTestRows;
import org.apache.hadoop.hbase.rlsm.compaction.CompactionPlan;
import org.apache.hadoop.hbase.rlsm.compaction.RlsmCompactionConfig;
import org.apache.hadoop.hbase.testclassification.MediumTests;
import org.apache.hadoop.hbase.testclassification.RegionServerTests;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.AfterClass;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.experimental.categories.Category;

/**
 * The segment bound's fold of only the newest segments (docs/architecture.md, "Segment bound"),
 * on a local RLSM region and a default-engine twin given the same puts and deletes: a partition
 * with a large oldest segment receives small flushes of overwrites and deletes of its rows, with
 * a bound of 4 segments, so every append folds; the oldest segment is never rewritten, the folds
 * keep the delete markers that mask its rows (a marker dropped by a fold would bring a deleted row
 * back from it), user scans equal the twin's after every append, the store counts the folded
 * segments' bytes ({@code rlsmFoldedBytes}), and a major compaction then purges the markers as
 * HBase's does.
 */
@Category({ MediumTests.class, RegionServerTests.class })
public class TestRlsmTieredFold {
  @ClassRule
  public static final HBaseClassTestRule CLASS_RULE =
    HBaseClassTestRule.forClass(TestRlsmTieredFold.class);

  private static final HBaseTestingUtility UTIL = new HBaseTestingUtility();
  private static final byte[] F = Bytes.toBytes("f");
  private static final byte[] Q = Bytes.toBytes("q");
  private static final int ROWS = 600;

  @AfterClass
  public static void cleanUp() throws IOException {
    UTIL.cleanupTestDir();
  }

  private static HRegion region(String name, boolean rlsm) throws IOException {
    TableName tn = TableName.valueOf(name);
    ColumnFamilyDescriptorBuilder cf = rlsm
      ? RlsmTables.familyBuilder(F).setConfiguration(RlsmCompactionConfig.MAX_SEGMENTS_KEY, "4")
      : ColumnFamilyDescriptorBuilder.newBuilder(F);
    TableDescriptorBuilder tb = TableDescriptorBuilder.newBuilder(tn).setColumnFamily(cf.build());
    TableDescriptor td = rlsm ? RlsmTables.configure(tb).build() : tb.build();
    return HBaseTestingUtility.createRegionAndWAL(RegionInfoBuilder.newBuilder(tn).build(),
      UTIL.getDataTestDir(name), UTIL.getConfiguration(), td);
  }

  private static void put(HRegion[] regions, int row, long ts, String value) throws IOException {
    for (HRegion r : regions) {
      r.put(new Put(RlsmTestRows.row(row)).addColumn(F, Q, ts,
        Bytes.toBytes(value + "x".repeat(100))));
    }
  }

  private static void flush(HRegion[] regions) throws IOException {
    for (HRegion r : regions) {
      r.flush(true);
    }
  }

  /** Cells of a scan, raw (delete markers and every version) or as a user sees them. */
  private static List<Cell> cells(HRegion r, boolean raw) throws IOException {
    return RlsmTestRows.cells(r, new Scan().setRaw(raw).readAllVersions());
  }

  private static void assertSameCells(String what, List<Cell> expected, List<Cell> actual) {
    assertEquals(what + ": cell count", expected.size(), actual.size());
    for (int i = 0; i < expected.size(); i++) {
      Cell e = expected.get(i);
      Cell a = actual.get(i);
      assertTrue(what + ": cell " + i + " " + e + " / " + a,
        CellUtil.equals(e, a) && e.getTimestamp() == a.getTimestamp()
          && e.getType() == a.getType() && CellUtil.matchingValue(e, a));
    }
  }

  private static List<HStoreFile> oldestSegments(HStore store) {
    List<HStoreFile> out = new ArrayList<>();
    for (RlsmStoreFileManager.Partition p : ((RlsmStoreFileManager) store.getStoreEngine()
      .getStoreFileManager()).state().partitions) {
      out.add(p.segments.get(0));
    }
    return out;
  }

  /** Bytes of the Level-1 segments the settles' appends folded, from the files themselves. */
  private static long folded;

  /** Runs the store's compactions as HBase would; returns the plans. */
  private static List<CompactionPlan> settle(HRegion r) throws IOException {
    HStore store = r.getStore(F);
    List<CompactionPlan> plans = new ArrayList<>();
    for (int i = 0; i < 50 && store.getStoreEngine().needsCompaction(List.of()); i++) {
      Optional<CompactionContext> context = store.requestCompaction();
      if (!context.isPresent()) {
        break;
      }
      CompactionPlan plan = ((RlsmCompactionContext) context.get()).plan();
      plans.add(plan);
      for (HStoreFile f : store.getStorefiles()) {
        String name = f.getPath().getName();
        if (plan.kind() == CompactionPlan.Kind.APPEND && plan.inputs().containsKey(name)
          && !plan.appendedVictims().contains(name)) {
          folded += f.getReader().length();
        }
      }
      r.compact(context.get(), store, NoLimitThroughputController.INSTANCE);
    }
    return plans;
  }

  @Test
  public void foldKeepsTheOldestSegmentAndTheMarkersMaskingIt() throws IOException {
    HRegion rlsm = region("tiered_fold_rlsm", true);
    HRegion twin = region("tiered_fold_twin", false);
    HRegion[] both = { rlsm, twin };
    try {
      // the base: three flushes of 200 rows each, appended into one partition of one segment
      long ts = 1;
      for (int f = 0; f < 3; f++) {
        for (int i = f * 200; i < (f + 1) * 200; i++) {
          put(both, i, ts, "base" + i);
        }
        flush(both);
      }
      settle(rlsm);
      HStore store = rlsm.getStore(F);
      List<HStoreFile> base = oldestSegments(store);
      assertEquals("one partition", 1, base.size());

      Random rnd = new Random(7);
      int partialFolds = 0;
      for (int round = 0; round < 12; round++) {
        ts++;
        for (int f = 0; f < 3; f++) {
          for (int k = 0; k < 5; k++) {
            int i = rnd.nextInt(ROWS);
            put(both, i, ts, "r" + round + "f" + f + "-" + i);
          }
          int gone = rnd.nextInt(ROWS);
          for (HRegion r : both) {
            r.delete(new Delete(RlsmTestRows.row(gone), ts));
          }
          flush(both);
        }
        for (CompactionPlan plan : settle(rlsm)) {
          assertFalse("a fold at the bound drops no delete marker: " + plan, plan.dropDeletes());
          boolean folded = plan.inputs().keySet().stream()
            .anyMatch(n -> !plan.appendedVictims().contains(n));
          if (folded && plan.referenced().contains(base.get(0).getPath().getName())) {
            partialFolds++;
          }
        }
        assertEquals("round " + round + ": the oldest segment as it was", base,
          oldestSegments(store));
        assertSameCells("round " + round + ", user scan", cells(twin, false),
          cells(rlsm, false));
      }
      assertTrue("appends folded newest segments and kept the oldest: " + partialFolds,
        partialFolds > 0);
      RlsmStoreStats stats = ((RlsmStoreEngine) store.getStoreEngine()).getStats();
      assertTrue("segments were folded: " + folded, folded > 0);
      assertEquals("rlsmFoldedBytes: the folded segments' bytes", folded, stats.getFoldedBytes());
      assertTrue("delete markers kept until a major compaction",
        cells(rlsm, true).stream().anyMatch(CellUtil::isDelete));

      rlsm.compact(true);
      // HBase's default policy takes at most hbase.hstore.compaction.max (10) files at once and
      // then compacts a major only once they fit into one selection
      for (int i = 0; i < 10 && twin.getStore(F).getStorefilesCount() > 1; i++) {
        twin.compact(true);
      }
      twin.compact(true);
      assertSameCells("raw scan after a major compaction", cells(twin, true), cells(rlsm, true));
    } finally {
      HBaseTestingUtility.closeRegionAndWAL(rlsm);
      HBaseTestingUtility.closeRegionAndWAL(twin);
    }
  }
}
