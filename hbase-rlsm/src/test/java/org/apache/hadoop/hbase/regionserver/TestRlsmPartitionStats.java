package org.apache.hadoop.hbase.regionserver;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.hbase.HBaseClassTestRule;
import org.apache.hadoop.hbase.HBaseTestingUtility;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.RegionInfoBuilder;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.io.compress.Compression;
import org.apache.hadoop.hbase.io.hfile.HFile;
import org.apache.hadoop.hbase.rlsm.RlsmTestRows;
import org.apache.hadoop.hbase.rlsm.compaction.PartitionSummary;
import org.apache.hadoop.hbase.rlsm.compaction.RlsmCompactionConfig;
import org.apache.hadoop.hbase.rlsm.compaction.RowStats;
import org.apache.hadoop.hbase.rlsm.index.RowQuantiles;
import org.apache.hadoop.hbase.testclassification.MediumTests;
import org.apache.hadoop.hbase.testclassification.RegionServerTests;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.AfterClass;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.experimental.categories.Category;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Partition statistics come from file-info, not rows: after range-appends, links, index splits
 * (segments shared by two partitions) and clean-ups, every partition's recorded statistics equal
 * what reading its segments' rows gives (entries and distinct rows exactly: a merged sketch equals
 * the sketch of the union; the exact checks have splits read their rows,
 * {@code hbase.rlsm.partition.split.read.rows}), and a reopened region answers the planner's
 * questions without reading one data block (HBase's {@link HFile#DATABLOCK_READ_COUNT}, which
 * counts cache hits too), uncompressed and with GZ. With the default, an index split reads no
 * data block either (its segments' row quantiles), and its halves' statistics are estimates
 * near the rows'.
 */
@Category({ MediumTests.class, RegionServerTests.class })
public class TestRlsmPartitionStats {
  @ClassRule
  public static final HBaseClassTestRule CLASS_RULE =
    HBaseClassTestRule.forClass(TestRlsmPartitionStats.class);

  private static final Logger LOG = LoggerFactory.getLogger(TestRlsmPartitionStats.class);
  private static final HBaseTestingUtility UTIL = new HBaseTestingUtility();
  private static final byte[] F = RlsmLayouts.F;

  @AfterClass
  public static void cleanUp() throws IOException {
    UTIL.cleanupTestDir();
  }

  private static RlsmStoreFileManager files(HRegion r) {
    return (RlsmStoreFileManager) r.getStore(F).getStoreEngine().getStoreFileManager();
  }

  /** The planner's questions a region answers after open: priority, work, summaries. */
  private static List<PartitionSummary> plannerView(HRegion r) {
    HStore store = r.getStore(F);
    store.getCompactPriority();
    store.getStoreEngine().needsCompaction(List.of());
    return files(r).state().partitionSummaries();
  }

  @Test
  public void statisticsAreRecordedAndOpenReadsNoDataBlock() throws IOException {
    checkStatisticsAndOpen("partition_stats", Compression.Algorithm.NONE);
  }

  /**
   * With {@code COMPRESSION => 'GZ'} every block is compressed, the load-on-open section too:
   * summaries read from rows at open would decompress the whole store (docs/benchmarks.md, read
   * path: region open), where the default engine's open reads no data block.
   */
  @Test
  public void compressedStoreOpenReadsNoDataBlock() throws IOException {
    checkStatisticsAndOpen("partition_stats_gz", Compression.Algorithm.GZ);
  }

  /** {@code td} with its splits reading their rows: exact halves' statistics. */
  private static TableDescriptor splitsReadRows(TableDescriptor td) {
    return TableDescriptorBuilder.newBuilder(td)
      .modifyColumnFamily(ColumnFamilyDescriptorBuilder.newBuilder(td.getColumnFamily(F))
        .setConfiguration(RlsmCompactionConfig.SPLIT_READ_ROWS_KEY, "true").build())
      .build();
  }

  /**
   * Index splits by the segments' row quantiles, as by default: no data block read by any split,
   * and every partition's recorded entries and distinct rows off its rows' by at most what the
   * estimate allows: at each of its two bounds, a bucket of each segment (the rows of a bucket
   * that straddles the bound are not known on either side).
   */
  @Test
  public void quantileSplitsReadNoDataBlock() throws IOException {
    String table = "partition_stats_quantiles";
    TableDescriptor td = RlsmLayouts.smallPartitions(table);
    RegionInfo info = RegionInfoBuilder.newBuilder(td.getTableName()).build();
    HRegion r = HBaseTestingUtility.createRegionAndWAL(info, UTIL.getDataTestDir(table),
      UTIL.getConfiguration(), td);
    int[] splits = { 0 };
    RlsmLayouts.load(r, 6, region -> {
      for (int i = 0; i < 50 && region.getStore(F).getStoreEngine().needsCompaction(List.of());
        i++) {
        RlsmStoreFileManager.State before = files(region).state();
        long reads = HFile.DATABLOCK_READ_COUNT.sum();
        region.compact(false);
        long read = HFile.DATABLOCK_READ_COUNT.sum() - reads;
        RlsmStoreFileManager.State after = files(region).state();
        if (
          after.partitions.size() == before.partitions.size() + 1
            && segments(after).equals(segments(before))
        ) {
          splits[0]++;
          assertEquals("data blocks an index split read: " + after.partitions, 0, read);
        }
      }
    });
    assertTrue("the load split partitions by index", splits[0] > 0);
    assertWithinQuantileBound(r);
    HBaseTestingUtility.closeRegionAndWAL(r);
  }

  /**
   * Every partition's recorded entries and distinct rows are off its rows' by at most a bucket
   * of each segment at each of its two bounds (an index split's estimate from the quantiles).
   */
  private static void assertWithinQuantileBound(HRegion r) throws IOException {
    for (RlsmStoreFileManager.Partition p : files(r).state().partitions) {
      RowStats recorded = p.summary().stats();
      RowStats read = p.readSummary().stats();
      long bound = 0;
      for (HStoreFile seg : p.segments) {
        RowQuantiles q = RlsmFiles.quantiles(seg);
        assertTrue(seg + " records row quantiles", q != null && !q.buckets().isEmpty());
        bound += 2 * q.buckets().get(0).rows();
      }
      LOG.info("partition {}: recorded {}, read {}, bound {}", p, recorded, read, bound);
      assertTrue(p + " entries " + recorded + " vs " + read + ", bound " + bound,
        Math.abs(recorded.entries() - read.entries()) <= bound);
      assertTrue(p + " distinct rows " + recorded + " vs " + read + ", bound " + bound,
        Math.abs(recorded.distinctRows() - read.distinctRows()) <= bound);
    }
  }

  /**
   * Range-appends divide the partitions above the split size ({@code
   * hbase.rlsm.partition.split.in.append}): each round flushes the three files of the Level-0
   * trigger and runs one compaction, a range-append, so a split waiting for a compaction of its
   * own never runs, as under sustained ingest. The partitions still stay near the split size;
   * the appends that divide read no more data blocks than the files they rewrite hold (their
   * halves come from the quantiles), every partition's statistics stay within the quantiles'
   * bound, and a scan returns every row's newest value.
   */
  @Test
  public void appendsDivideOversizedPartitions() throws IOException {
    String table = "partition_stats_append_splits";
    TableDescriptor base = RlsmLayouts.smallPartitions(table);
    TableDescriptor td = TableDescriptorBuilder.newBuilder(base)
      .modifyColumnFamily(ColumnFamilyDescriptorBuilder.newBuilder(base.getColumnFamily(F))
        .setConfiguration(RlsmCompactionConfig.SPLIT_IN_APPEND_KEY, "true").build())
      .build();
    RegionInfo info = RegionInfoBuilder.newBuilder(td.getTableName()).build();
    HRegion r = HBaseTestingUtility.createRegionAndWAL(info, UTIL.getDataTestDir(table),
      UTIL.getConfiguration(), td);
    int rounds = 8;
    int[] divided = { 0 };
    RlsmLayouts.load(r, rounds, region -> {
      RlsmStoreFileManager.State before = files(region).state();
      region.compact(false);
      RlsmStoreFileManager.State after = files(region).state();
      System.out.println("after an append: " + after.partitions.size() + " partitions, "
        + after.level0.size() + " Level-0 files");
      assertEquals("Level-0 after the append", 0, after.level0.size());
      if (after.partitions.size() > before.partitions.size() + 1) {
        divided[0]++;
      }
    });
    assertTrue("appends divided partitions", divided[0] > 0);
    long splitBytes = Long.parseLong(
      td.getColumnFamily(F).getConfigurationValue(RlsmCompactionConfig.SPLIT_BYTES_KEY));
    for (PartitionSummary p : plannerView(r)) {
      // a partition above the split size halves at the next append, and one round's rows
      // land on it in between
      assertTrue(p + ": " + p.bytes() + " bytes, split size " + splitBytes,
        p.bytes() <= 3 * splitBytes);
    }
    assertWithinQuantileBound(r);
    RlsmLayouts.assertNewestValues(r, rounds);
    HBaseTestingUtility.closeRegionAndWAL(r);
  }

  private static Set<String> segments(RlsmStoreFileManager.State state) {
    Set<String> all = new HashSet<>();
    state.partitions.forEach(p -> p.segments.forEach(f -> all.add(f.getPath().getName())));
    return all;
  }

  private void checkStatisticsAndOpen(String table, Compression.Algorithm compression)
    throws IOException {
    TableDescriptor td = splitsReadRows(RlsmLayouts.smallPartitions(table, compression));
    RegionInfo info = RegionInfoBuilder.newBuilder(td.getTableName()).build();
    HRegion r = HBaseTestingUtility.createRegionAndWAL(info, UTIL.getDataTestDir(table),
      UTIL.getConfiguration(), td);
    assertEquals(compression,
      r.getStore(F).getColumnFamilyDescriptor().getCompressionType());
    RlsmLayouts.load(r, 6);
    for (HStoreFile f : r.getStore(F).getStorefiles()) {
      assertEquals(f + " compression", compression,
        f.getReader().getHFileReader().getFileContext().getCompression());
    }
    RlsmStoreFileManager.State state = files(r).state();
    assertTrue("several partitions: " + state.partitions, state.partitions.size() >= 4);
    List<RowStats> before = new ArrayList<>();
    for (RlsmStoreFileManager.Partition p : state.partitions) {
      RowStats recorded = p.summary().stats();
      RowStats read = p.readSummary().stats();
      LOG.info("partition {}: recorded {}, read {}", p, recorded, read);
      assertEquals(p + " entries", read.entries(), recorded.entries());
      assertEquals(p + " distinct rows", read.distinctRows(), recorded.distinctRows());
      assertTrue(p + " bytes " + recorded.bytes() + " vs " + read.bytes(),
        Math.abs(recorded.bytes() - read.bytes()) <= read.bytes() / 4);
      before.add(recorded);
    }
    if (compression == Compression.Algorithm.NONE) {
      // the split size counts file bytes: compressed files of the same rows split later
      assertTrue("an index split left segments shared by two partitions",
        RlsmLayouts.sharesSegments(state));
    }

    r.close();
    long reads = HFile.DATABLOCK_READ_COUNT.sum();
    r = HRegion.openHRegion(r, null);
    List<PartitionSummary> after = plannerView(r);
    assertEquals("data blocks read by region open and planning", 0,
      HFile.DATABLOCK_READ_COUNT.sum() - reads);
    assertEquals(before.size(), after.size());
    for (int i = 0; i < after.size(); i++) {
      assertEquals(before.get(i).toString(), after.get(i).stats().toString());
    }
    HBaseTestingUtility.closeRegionAndWAL(r);
  }

  /**
   * A range-append that widens a partition holding segments shared with its neighbour (rows
   * falling between an index split's halves, or past the last partition) records the
   * partition's statistics in its manifest: after every compaction every partition's are
   * recorded, and the question a flush commit asks ({@code needsCompaction}, on the flusher
   * thread while the region may be over its blocking memstore size) reads no data block. Before,
   * such a partition had none recorded and that question read all of its rows.
   */
  @Test
  public void widenedSharedPartitionKeepsRecordedStatistics() throws IOException {
    String table = "partition_stats_widened";
    TableDescriptor td = splitsReadRows(RlsmLayouts.smallPartitions(table));
    RegionInfo info = RegionInfoBuilder.newBuilder(td.getTableName()).build();
    HRegion r = HBaseTestingUtility.createRegionAndWAL(info, UTIL.getDataTestDir(table),
      UTIL.getConfiguration(), td);
    int[] widenedShared = { 0 };
    RlsmLayouts.Settling checked = region -> {
      HStore store = region.getStore(F);
      for (int i = 0; i < 50 && store.getStoreEngine().needsCompaction(List.of()); i++) {
        RlsmStoreFileManager.State before = files(region).state();
        region.compact(false);
        RlsmStoreFileManager.State after = files(region).state();
        widenedShared[0] += widenedShared(before, after);
        for (RlsmStoreFileManager.Partition p : after.partitions) {
          assertTrue(p + " has recorded statistics", p.recorded);
        }
        long reads = HFile.DATABLOCK_READ_COUNT.sum();
        store.getStoreEngine().needsCompaction(List.of());
        store.getCompactPriority();
        assertEquals("data blocks read by a flush commit's questions after " + after.partitions,
          0, HFile.DATABLOCK_READ_COUNT.sum() - reads);
        for (RlsmStoreFileManager.Partition p : after.partitions) {
          RowStats recorded = p.summary().stats();
          RowStats read = p.readSummary().stats();
          assertEquals(p + " entries", read.entries(), recorded.entries());
          assertEquals(p + " distinct rows", read.distinctRows(), recorded.distinctRows());
        }
      }
    };
    // even rows until partitions split by index, then the odd rows between them: an odd row
    // next to a split's median falls between the halves and widens one of them
    byte[] pad = Bytes.toBytes("x".repeat(100));
    for (int round = 0; round < 3; round++) {
      for (int f = 0; f < 3; f++) {
        for (int i = 2 * f + (round < 1 ? 0 : 1); i < 2400; i += 6) {
          r.put(new Put(RlsmTestRows.row(i)).addColumn(F, RlsmLayouts.Q,
            Bytes.add(RlsmTestRows.value(i), Bytes.toBytes("/" + round), pad)));
        }
        r.flush(true);
      }
      checked.settle(r);
    }
    LOG.info("partitions widened over shared segments: {}", widenedShared[0]);
    assertTrue("the load widened a partition over shared segments", widenedShared[0] > 0);
    HBaseTestingUtility.closeRegionAndWAL(r);
  }

  /**
   * Partitions of {@code after} that keep every segment of a partition of {@code before} that
   * shared one with a neighbour, over a wider range.
   */
  private static int widenedShared(RlsmStoreFileManager.State before,
    RlsmStoreFileManager.State after) {
    int n = 0;
    for (RlsmStoreFileManager.Partition old : before.partitions) {
      boolean shared = old.segments.stream().anyMatch(seg -> before.partitions.stream()
        .anyMatch(o -> o != old && o.segments.contains(seg)));
      for (RlsmStoreFileManager.Partition p : after.partitions) {
        boolean wider = Bytes.compareTo(p.low, old.low) <= 0
          && Bytes.compareTo(p.high, old.high) >= 0
          && !(Bytes.equals(p.low, old.low) && Bytes.equals(p.high, old.high));
        if (shared && wider && p.segments.containsAll(old.segments)) {
          n++;
        }
      }
    }
    return n;
  }
}
