package org.apache.hadoop.hbase.regionserver;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.HBaseClassTestRule;
import org.apache.hadoop.hbase.HBaseTestingUtility;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.PrivateCellUtil;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.IsolationLevel;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.RegionInfoBuilder;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.rlsm.RlsmTables;
import org.apache.hadoop.hbase.rlsm.RlsmTestRows;
import org.apache.hadoop.hbase.rlsm.compaction.RlsmCompactionConfig;
import org.apache.hadoop.hbase.testclassification.MediumTests;
import org.apache.hadoop.hbase.testclassification.RegionServerTests;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.experimental.categories.Category;

import org.apache.hbase.thirdparty.com.google.common.collect.Iterables;

/**
 * A short scan (YCSB E's shape: a start row and a few rows) on a store of many Level-1
 * partitions creates scanners only on Level-0 and the one partition it reaches, forwards and
 * reversed; a Get creates scanners only on the segments of its partition whose Bloom filter may
 * hold its row; reads of one partition share one file object; a full scan keeps segments shared
 * by partitions inside each partition's range on the merged heap, without a scanner wrapping each
 * such segment. Counted from the scanners HBase's
 * StoreScanner holds, not timed.
 */
@Category({ MediumTests.class, RegionServerTests.class })
public class TestRlsmScanReach {
  @ClassRule
  public static final HBaseClassTestRule CLASS_RULE =
    HBaseClassTestRule.forClass(TestRlsmScanReach.class);

  private static final HBaseTestingUtility UTIL = new HBaseTestingUtility();
  private static final byte[] F = Bytes.toBytes("f");
  private static final int ROWS = 1000;
  private static HRegion region;
  /** Partitions of up to 4 segments, some shared by two partitions ({@link RlsmLayouts}). */
  private static HRegion layered;

  @BeforeClass
  public static void buildPartitions() throws IOException {
    ColumnFamilyDescriptorBuilder cf = RlsmTables.familyBuilder(F)
      .setConfiguration(RlsmCompactionConfig.SPLIT_BYTES_KEY, Long.toString(16 * 1024))
      .setConfiguration(RlsmCompactionConfig.MERGE_BYTES_KEY, "0");
    TableDescriptor td = RlsmTables
      .configure(TableDescriptorBuilder.newBuilder(TableName.valueOf("reach")))
      .setColumnFamily(cf.build()).build();
    RegionInfo info = RegionInfoBuilder.newBuilder(td.getTableName()).build();
    region = HBaseTestingUtility.createRegionAndWAL(info, UTIL.getDataTestDir("reach"),
      UTIL.getConfiguration(), td);
    byte[] value = new byte[100];
    for (int round = 0; round < 4; round++) {
      for (int i = 0; i < ROWS; i++) {
        region.put(new Put(RlsmTestRows.row(i)).addColumn(F, Bytes.toBytes("q" + round), value));
      }
      region.flush(true);
      for (int c = 0; c < 50 && store().getStoreEngine().needsCompaction(List.of()); c++) {
        region.compact(false);
      }
    }
    assertTrue("partitions: " + state().partitions, state().partitions.size() >= 4);
    TableDescriptor layers = RlsmLayouts.smallPartitions("reach_layered");
    layered = HBaseTestingUtility.createRegionAndWAL(
      RegionInfoBuilder.newBuilder(layers.getTableName()).build(),
      UTIL.getDataTestDir("reach_layered"), UTIL.getConfiguration(), layers);
    RlsmLayouts.load(layered, 6);
  }

  @AfterClass
  public static void closeRegion() throws IOException {
    HBaseTestingUtility.closeRegionAndWAL(region);
    HBaseTestingUtility.closeRegionAndWAL(layered);
    UTIL.cleanupTestDir();
  }

  private static HStore store() {
    return region.getStore(F);
  }

  private static RlsmStoreFileManager.State state() {
    return state(region);
  }

  private static RlsmStoreFileManager.State state(HRegion r) {
    return ((RlsmStoreFileManager) r.getStore(F).getStoreEngine().getStoreFileManager()).state();
  }

  /**
   * Reads {@code rows} rows through the store's scanner and returns the scanner creations it
   * caused: one per plain file scanner, the segment scanners each partition chain opened.
   */
  private static int[] shortScan(Scan scan, int rows, List<String> seen) throws IOException {
    long readPt = region.getReadPoint(IsolationLevel.READ_COMMITTED);
    try (StoreScanner s = (StoreScanner) store().getScanner(scan, null, readPt)) {
      List<Cell> cells = new ArrayList<>();
      for (int i = 0; i < rows; i++) {
        cells.clear();
        s.next(cells);
        seen.add(Bytes.toString(CellUtil.cloneRow(cells.get(0))));
      }
      int chains = 0;
      int segmentScanners = 0;
      int partitions = 0;
      int files = 0;
      for (KeyValueScanner k : s.getAllScannersForTesting()) {
        if (k instanceof RlsmChainScanner) {
          chains++;
          partitions += ((RlsmChainScanner) k).partitionsOpened();
          segmentScanners += ((RlsmChainScanner) k).segmentScannersOpened();
        } else if (k.isFileScanner()) {
          files++;
        }
      }
      return new int[] { chains, partitions, segmentScanners, files };
    }
  }

  private static void assertReachesOnlyItsPartition(Scan scan, RlsmStoreFileManager.Partition p,
    List<String> expectedRows) throws IOException {
    RlsmStoreFileManager.State st = state();
    List<String> seen = new ArrayList<>();
    int[] n = shortScan(scan, expectedRows.size(), seen);
    assertEquals(expectedRows, seen);
    assertEquals("partition chains", 1, n[0]);
    assertEquals("partitions opened", 1, n[1]);
    assertEquals("segment scanners", p.segments.size(), n[2]);
    assertEquals("Level-0 scanners", st.level0.size(), n[3]);
  }

  private static List<String> rows(int from, int step, int count) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      out.add(Bytes.toString(RlsmTestRows.row(from + step * i)));
    }
    return out;
  }

  /**
   * The first loaded row at or above {@code key} ({@code up}), or the last at or below it: a
   * partition's bound need not be a row (a split from row quantiles starts its upper half at
   * the successor of a row).
   */
  private static int index(byte[] key, boolean up) {
    for (int i = 0; i < ROWS; i++) {
      int j = up ? i : ROWS - 1 - i;
      int c = Bytes.compareTo(RlsmTestRows.row(j), key);
      if (up ? c >= 0 : c <= 0) {
        return j;
      }
    }
    throw new AssertionError(Bytes.toStringBinary(key));
  }

  /** The chain scanner of a store scanner just created for {@code scan}. */
  private static RlsmChainScanner chainOf(StoreScanner s) {
    RlsmChainScanner chain = null;
    for (KeyValueScanner k : s.getAllScannersForTesting()) {
      if (k instanceof RlsmChainScanner) {
        assertNull("one chain", chain);
        chain = (RlsmChainScanner) k;
      }
    }
    assertNotNull("a chain in " + s.getAllScannersForTesting(), chain);
    return chain;
  }

  /** A partition of at least two segments. */
  private static RlsmStoreFileManager.Partition deepPartition() {
    for (RlsmStoreFileManager.Partition p : state(layered).partitions) {
      if (p.segments.size() >= 2) {
        return p;
      }
    }
    throw new AssertionError("no partition of two segments: " + state(layered).partitions);
  }

  @Test
  public void aGetCreatesScannersOnlyOnSegmentsThatMayHoldItsRow() throws IOException {
    RlsmStoreFileManager.Partition p = deepPartition();
    // a row inside the partition's range that was never written
    byte[] absent = Bytes.add(p.low, new byte[1]);
    assertTrue(Bytes.compareTo(absent, p.high) < 0);
    Get get = new Get(absent);
    Scan scan = new Scan(get);
    int bloomPasses = 0;
    for (HStoreFile seg : p.segments) {
      bloomPasses += seg.getReader().passesBloomFilter(scan, null) ? 1 : 0;
    }
    assertTrue("the Bloom filters exclude the row from some of " + p,
      bloomPasses < p.segments.size());
    // the store's scanners as HBase's StoreScanner drives them: its per-file checks, then a seek
    List<KeyValueScanner> scanners = layered.getStore(F).getScanners(true, true, false, null,
      absent, true, absent, true, layered.getReadPoint(IsolationLevel.READ_COMMITTED), false);
    try {
      RlsmChainScanner chain = null;
      for (KeyValueScanner k : scanners) {
        if (k instanceof RlsmChainScanner) {
          assertNull("one chain", chain);
          chain = (RlsmChainScanner) k;
        }
      }
      assertNotNull("a chain in " + scanners, chain);
      assertTrue(chain.shouldUseScanner(scan, layered.getStore(F), Long.MIN_VALUE));
      chain.seek(PrivateCellUtil.createFirstOnRow(absent));
      assertEquals("partitions opened", 1, chain.partitionsOpened());
      assertEquals("segment scanners", bloomPasses, chain.segmentScannersOpened());
    } finally {
      scanners.forEach(KeyValueScanner::close);
    }
    assertTrue(layered.get(get).isEmpty());
    assertFalse(layered.get(new Get(p.low)).isEmpty());
  }

  @Test
  public void readsOfOnePartitionShareItsFiles() {
    RlsmStoreFileManager.Partition p = deepPartition();
    StoreFileManager files = layered.getStore(F).getStoreEngine().getStoreFileManager();
    List<HStoreFile> first = new ArrayList<>(files.getFilesForScan(p.low, true, p.low, true,
      false));
    List<HStoreFile> second = new ArrayList<>(files.getFilesForScan(p.high, true, p.high, true,
      false));
    assertEquals(state(layered).level0.size() + 1, first.size());
    assertEquals(first.size(), second.size());
    for (int i = 0; i < first.size(); i++) {
      assertSame("file " + i + " of two Gets in one partition", first.get(i), second.get(i));
    }
    assertSame("full scans", Iterables.getLast(files.getFilesForScan(HConstants.EMPTY_START_ROW,
      true, HConstants.EMPTY_END_ROW, false, false)), Iterables.getLast(files.getFilesForScan(
        HConstants.EMPTY_START_ROW, true, HConstants.EMPTY_END_ROW, false, false)));
  }

  /**
   * Segments shared by partitions are read by HBase's own scanner, with the partition's range
   * checked on the merged heap (one row comparison per cell), never through a wrapper scanner
   * per segment (two comparisons per cell and segment, and a call layer); only partitions with
   * such a segment check the range at all.
   */
  @Test
  public void aFullScanKeepsSharedSegmentsInRangeWithoutWrappers() throws IOException {
    int shared = 0;
    int bounded = 0;
    int segments = 0;
    for (RlsmStoreFileManager.Partition p : state(layered).partitions) {
      boolean any = false;
      for (HStoreFile seg : p.segments) {
        segments++;
        Cell first = seg.getFirstKey().get();
        Cell last = seg.getLastKey().get();
        if (
          Bytes.compareTo(CellUtil.cloneRow(first), p.low) < 0
            || Bytes.compareTo(CellUtil.cloneRow(last), p.high) > 0
        ) {
          shared++;
          any = true;
        }
      }
      bounded += any ? 1 : 0;
    }
    assertTrue("segments shared by partitions (index splits): " + shared, shared > 0);
    assertTrue("partitions without shared segments", bounded < state(layered).partitions.size());
    long readPt = layered.getReadPoint(IsolationLevel.READ_COMMITTED);
    try (StoreScanner s = (StoreScanner) layered.getStore(F).getScanner(new Scan(), null, readPt)) {
      RlsmChainScanner chain = chainOf(s);
      List<Cell> cells = new ArrayList<>();
      int wrapped = 0;
      while (s.next(cells)) {
        cells.clear();
        for (KeyValueScanner open : chain.openScanners()) {
          wrapped += open instanceof RlsmRangeScanner ? 1 : 0;
        }
      }
      assertEquals("partitions opened", state(layered).partitions.size(),
        chain.partitionsOpened());
      assertEquals("segment scanners", segments, chain.segmentScannersOpened());
      assertEquals("partitions checking their range", bounded, chain.boundedPartitionsOpened());
      assertEquals("wrapped segment scanners seen while scanning", 0, wrapped);
    }
  }

  @Test
  public void aForwardShortScanOpensOnlyThePartitionOfItsStartRow() throws IOException {
    RlsmStoreFileManager.Partition p = state().partitions.get(1);
    int from = index(p.low, true);
    assertTrue(index(p.high, false) - from >= 5);
    assertReachesOnlyItsPartition(new Scan().withStartRow(p.low).setLimit(5), p,
      rows(from, 1, 5));
  }

  @Test
  public void aReversedShortScanOpensOnlyThePartitionOfItsStartRow() throws IOException {
    List<RlsmStoreFileManager.Partition> parts = state().partitions;
    RlsmStoreFileManager.Partition p = parts.get(parts.size() - 2);
    int from = index(p.high, false);
    assertTrue(from - index(p.low, true) >= 5);
    assertReachesOnlyItsPartition(new Scan().withStartRow(p.high).setReversed(true).setLimit(5),
      p, rows(from, -1, 5));
  }
}
