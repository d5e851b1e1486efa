package org.apache.hadoop.hbase.regionserver;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;

import java.io.IOException;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellComparator;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.HBaseClassTestRule;
import org.apache.hadoop.hbase.HBaseTestingUtility;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.RegionInfoBuilder;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.io.hfile.HFile;
import org.apache.hadoop.hbase.regionserver.compactions.CompactionContext;
import org.apache.hadoop.hbase.regionserver.throttle.NoLimitThroughputController;
import org.apache.hadoop.hbase.rlsm.RlsmTestRows;
import org.apache.hadoop.hbase.rlsm.compaction.CompactionPlan;
import org.apache.hadoop.hbase.testclassification.MediumTests;
import org.apache.hadoop.hbase.testclassification.RegionServerTests;
import org.junit.AfterClass;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.experimental.categories.Category;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * HBase selects a compaction holding the store's read lock and its compacting-files monitor
 * ({@code HStore.requestCompaction}), which a flush commit waits for (it asks
 * {@code needsCompaction} and adds its file under them). RLSM's selection therefore reads no data
 * block: not for a range-append that places Level-0 rows into partitions and gaps, not for a
 * split at a partition's median row, not for a major compaction (HBase's
 * {@link HFile#DATABLOCK_READ_COUNT}, which counts cache hits too; a local region has no other
 * reader). The rows are read when the compaction runs, and the store serves the same cells after.
 */
@Category({ MediumTests.class, RegionServerTests.class })
public class TestRlsmSelectionReadsNoData {
  @ClassRule
  public static final HBaseClassTestRule CLASS_RULE =
    HBaseClassTestRule.forClass(TestRlsmSelectionReadsNoData.class);

  private static final Logger LOG = LoggerFactory.getLogger(TestRlsmSelectionReadsNoData.class);
  private static final HBaseTestingUtility UTIL = new HBaseTestingUtility();

  /** Kinds of the plans selected so far, a range-append only when it placed rows. */
  private final Set<CompactionPlan.Kind> selected = EnumSet.noneOf(CompactionPlan.Kind.class);

  @AfterClass
  public static void cleanUp() throws IOException {
    UTIL.cleanupTestDir();
  }

  /** Selects as HBase does, counting the data blocks read, then runs what was selected. */
  private void selectAndRun(HRegion r) throws IOException {
    HStore store = r.getStore(RlsmLayouts.F);
    long before = HFile.DATABLOCK_READ_COUNT.sum();
    Optional<CompactionContext> context = store.requestCompaction();
    long read = HFile.DATABLOCK_READ_COUNT.sum() - before;
    if (!context.isPresent()) {
      assertEquals("data blocks read by a selection that found nothing", 0, read);
      return;
    }
    CompactionPlan plan = ((RlsmCompactionContext) context.get()).plan();
    assertNotNull(plan);
    LOG.info("selected {}: {} data blocks read", plan, read);
    assertEquals("data blocks read while selecting " + plan, 0, read);
    if (plan.kind() != CompactionPlan.Kind.APPEND || !plan.appendedVictims().isEmpty()) {
      selected.add(plan.kind());
    }
    r.compact(context.get(), store, NoLimitThroughputController.INSTANCE);
  }

  private void settle(HRegion r) throws IOException {
    HStore store = r.getStore(RlsmLayouts.F);
    for (int i = 0; i < 50 && store.getStoreEngine().needsCompaction(List.of()); i++) {
      selectAndRun(r);
    }
  }

  private static List<Cell> cells(HRegion r) throws IOException {
    return RlsmTestRows.cells(r, new Scan());
  }

  @Test
  public void selectionReadsNoDataBlock() throws IOException {
    TableDescriptor td = RlsmLayouts.smallPartitions("selection_reads");
    RegionInfo info = RegionInfoBuilder.newBuilder(td.getTableName()).build();
    HRegion r = HBaseTestingUtility.createRegionAndWAL(info,
      UTIL.getDataTestDir("selection_reads"), UTIL.getConfiguration(), td);
    try {
      RlsmLayouts.load(r, 6, this::settle);
      assertTrue("range-appends that place rows and index splits were selected: " + selected,
        selected.containsAll(EnumSet.of(CompactionPlan.Kind.APPEND, CompactionPlan.Kind.SPLIT)));
      assertTrue("several partitions",
        ((RlsmStoreFileManager) r.getStore(RlsmLayouts.F).getStoreEngine().getStoreFileManager())
          .state().partitions.size() >= 4);

      List<Cell> expected = cells(r);
      r.getStore(RlsmLayouts.F).triggerMajorCompaction();
      selectAndRun(r);
      assertTrue("a major compaction was selected: " + selected,
        selected.contains(CompactionPlan.Kind.MAJOR));
      List<Cell> after = cells(r);
      assertEquals("cells after the major compaction", expected.size(), after.size());
      for (int i = 0; i < expected.size(); i++) {
        assertEquals("cell " + i, 0,
          CellComparator.getInstance().compare(expected.get(i), after.get(i)));
        assertTrue("value of cell " + i, CellUtil.matchingValue(expected.get(i), after.get(i)));
      }
    } finally {
      HBaseTestingUtility.closeRegionAndWAL(r);
    }
  }
}
