package org.apache.hadoop.hbase.regionserver;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellComparator;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.HBaseClassTestRule;
import org.apache.hadoop.hbase.HBaseCommonTestingUtility;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.PrivateCellUtil;
import org.apache.hadoop.hbase.io.hfile.CacheConfig;
import org.apache.hadoop.hbase.io.hfile.HFileContext;
import org.apache.hadoop.hbase.io.hfile.HFileContextBuilder;
import org.apache.hadoop.hbase.testclassification.RegionServerTests;
import org.apache.hadoop.hbase.testclassification.SmallTests;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.experimental.categories.Category;

import org.apache.hbase.thirdparty.com.google.common.collect.ImmutableList;

/**
 * The chain scanner over real HFile segments against a model: every cell of a partition's
 * segments inside the partition's range, in key order. The layout has gaps between partitions,
 * segment cells outside their partition (superseded copies that must stay hidden), a segment
 * shared by two partitions, and partitions with nothing in range (one in the middle, one last).
 */
@Category({ SmallTests.class, RegionServerTests.class })
public class TestRlsmChainScanner {
  @ClassRule
  public static final HBaseClassTestRule CLASS_RULE =
    HBaseClassTestRule.forClass(TestRlsmChainScanner.class);

  private static final byte[] F = Bytes.toBytes("f");
  private static final HBaseCommonTestingUtility UTIL = new HBaseCommonTestingUtility();
  private static final CellComparator CMP = CellComparator.getInstance();
  private static Configuration conf;
  private static FileSystem fs;
  private static CacheConfig cacheConf;
  private static final List<HStoreFile> FILES = new ArrayList<>();
  private static List<RlsmStoreFileManager.Partition> layout;

  private static String row(int i) {
    return String.format("r%02d", i);
  }

  private static KeyValue cell(int row, String q, long ts, long seqId) {
    KeyValue kv = new KeyValue(Bytes.toBytes(row(row)), F, Bytes.toBytes(q), ts,
      Bytes.toBytes(row(row) + "/" + q + "@" + ts));
    kv.setSequenceId(seqId);
    return kv;
  }

  /**
   * An HFile of {@code cells} written by HBase's StoreFileWriter, opened as a store file; HBase
   * accepts only hexadecimal store file names.
   */
  private static HStoreFile segment(String name, List<KeyValue> cells) throws IOException {
    Path p = new Path(UTIL.getDataTestDir("segments"), name);
    HFileContext ctx = new HFileContextBuilder().withBlockSize(256).withIncludesMvcc(true).build();
    StoreFileWriter w = new StoreFileWriter.Builder(conf, cacheConf, fs).withFilePath(p)
      .withBloomType(BloomType.ROW).withMaxKeyCount(cells.size()).withFileContext(ctx).build();
    List<KeyValue> sorted = new ArrayList<>(cells);
    sorted.sort(CMP);
    long maxSeq = 0;
    for (KeyValue kv : sorted) {
      w.append(kv);
      maxSeq = Math.max(maxSeq, kv.getSequenceId());
    }
    w.appendMetadata(maxSeq, false);
    w.close();
    HStoreFile sf = new HStoreFile(fs, p, conf, cacheConf, BloomType.ROW, true);
    sf.initReader();
    FILES.add(sf);
    return sf;
  }

  /** One cell per row in [from, to], qualifier q, timestamp ts. */
  private static List<KeyValue> rows(int from, int to, String q, long ts) {
    List<KeyValue> out = new ArrayList<>();
    for (int i = from; i <= to; i++) {
      out.add(cell(i, q, ts, 0));
    }
    return out;
  }

  private static RlsmStoreFileManager.Partition partition(int low, int high, HStoreFile... segs) {
    return new RlsmStoreFileManager.Partition(Bytes.toBytes(row(low)), Bytes.toBytes(row(high)),
      ImmutableList.copyOf(segs), null);
  }

  @BeforeClass
  public static void writeSegments() throws IOException {
    conf = UTIL.getConfiguration();
    fs = FileSystem.getLocal(conf);
    cacheConf = new CacheConfig(conf);
    HStoreFile a = segment("a", rows(5, 25, "a", 10)); // rows outside [10, 19] are superseded
    List<KeyValue> b = rows(12, 12, "b", 20);
    b.addAll(rows(15, 15, "b", 20));
    HStoreFile bSeg = segment("b", b);
    HStoreFile c = segment("c", Arrays.asList(cell(25, "c", 5, 0), cell(45, "c", 5, 0)));
    HStoreFile d = segment("d", rows(50, 59, "d", 30));
    HStoreFile e = segment("e", rows(0, 99, "e", 40)); // shared by two partitions
    List<KeyValue> f = rows(70, 72, "f1", 50);
    f.addAll(rows(70, 72, "f2", 50));
    HStoreFile fSeg = segment("f", f);
    layout = Arrays.asList(partition(10, 19, a, bSeg), partition(30, 39, c),
      partition(50, 59, d, e), partition(70, 79, e, fSeg), partition(90, 95, c));
  }

  @AfterClass
  public static void closeSegments() throws IOException {
    for (HStoreFile f : FILES) {
      f.closeStoreFile(false);
    }
    UTIL.cleanupTestDir();
  }

  /** The model: each partition's segment cells inside its range, ascending. */
  private static List<Cell> expected(List<RlsmStoreFileManager.Partition> parts, long readPt)
    throws IOException {
    List<Cell> out = new ArrayList<>();
    for (RlsmStoreFileManager.Partition p : parts) {
      for (HStoreFile seg : p.segments) {
        StoreFileScanner s = seg.getPreadScanner(false, Long.MAX_VALUE, 0, false);
        try {
          s.seek(PrivateCellUtil.createFirstOnRow(HConstants.EMPTY_START_ROW));
          for (Cell c = s.next(); c != null; c = s.next()) {
            boolean inside = CMP.compareRows(c, p.low, 0, p.low.length) >= 0
              && CMP.compareRows(c, p.high, 0, p.high.length) <= 0;
            if (inside && c.getSequenceId() <= readPt) {
              out.add(c);
            }
          }
        } finally {
          s.close();
        }
      }
    }
    out.sort(CMP);
    return out;
  }

  private static List<Cell> expected() throws IOException {
    return expected(layout, Long.MAX_VALUE);
  }

  /** Reversed scan order: rows descending, cells of a row ascending. */
  private static List<Cell> reversed(List<Cell> cells) {
    List<Cell> out = new ArrayList<>(cells);
    out.sort(Comparator.<Cell, Cell> comparing(c -> c, (x, y) -> -CMP.compareRows(x, y))
      .thenComparing((x, y) -> CMP.compare(x, y)));
    return out;
  }

  private static RlsmChainScanner scanner(List<RlsmStoreFileManager.Partition> parts,
    long readPt) {
    return (RlsmChainScanner) new RlsmPartitionChain(parts).getPreadScanner(true, readPt, 0,
      false);
  }

  private static RlsmChainScanner scanner() {
    return scanner(layout, Long.MAX_VALUE);
  }

  private static List<String> drain(KeyValueScanner s) throws IOException {
    List<String> out = new ArrayList<>();
    for (Cell c = s.next(); c != null; c = s.next()) {
      out.add(show(c));
    }
    return out;
  }

  private static String show(Cell c) {
    return c == null ? null
      : CellUtil.getCellKeyAsString(c) + "=" + Bytes.toString(CellUtil.cloneValue(c));
  }

  private static List<String> show(List<Cell> cells) {
    List<String> out = new ArrayList<>();
    cells.forEach(c -> out.add(show(c)));
    return out;
  }

  private static Cell firstOn(int row) {
    return PrivateCellUtil.createFirstOnRow(Bytes.toBytes(row(row)));
  }

  /** The first model cell at or after {@code key}, as the scanner must show it. */
  private static String firstAtOrAfter(List<Cell> model, Cell key) {
    for (Cell c : model) {
      if (CMP.compare(c, key) >= 0) {
        return show(c);
      }
    }
    return null;
  }

  @Test
  public void forwardScanConcatenatesPartitionsInKeyOrder() throws IOException {
    try (KeyValueScanner s = scanner()) {
      s.seek(PrivateCellUtil.createFirstOnRow(HConstants.EMPTY_START_ROW));
      List<String> got = drain(s);
      assertEquals(show(expected()), got);
      assertEquals(10 + 2 + 20 + 10 + 6, got.size());
    }
  }

  @Test
  public void reversedScanRunsBackwardsThroughPartitions() throws IOException {
    try (KeyValueScanner s = scanner()) {
      assertTrue(s.seekToLastRow()); // the last partition holds nothing in range
      assertEquals(show(reversed(expected())), drain(s));
    }
  }

  @Test
  public void seeksLandInTheRightPartitionFromGapsAndEnds() throws IOException {
    List<Cell> model = expected();
    for (int row : new int[] { 0, 10, 19, 22, 31, 45, 50, 65, 72, 79, 80, 99 }) {
      try (KeyValueScanner s = scanner()) {
        s.seek(firstOn(row));
        assertEquals("seek to " + row(row), firstAtOrAfter(model, firstOn(row)), show(s.peek()));
      }
    }
  }

  @Test
  public void reseeksCrossGapsAndABackwardSeekReopens() throws IOException {
    List<Cell> model = expected();
    try (RlsmChainScanner s = scanner()) {
      s.seek(firstOn(11));
      for (int row : new int[] { 15, 22, 55, 60, 71, 72 }) {
        s.reseek(firstOn(row));
        assertEquals("reseek to " + row(row), firstAtOrAfter(model, firstOn(row)), show(s.peek()));
      }
      assertFalse(s.reseek(firstOn(80)));
      assertNull(s.peek());
      // back behind where the heaps are: the partition is opened afresh
      assertTrue(s.seek(firstOn(16)));
      assertEquals(firstAtOrAfter(model, firstOn(16)), show(s.peek()));
      assertTrue(s.requestSeek(firstOn(51), true, true));
      assertEquals(firstAtOrAfter(model, firstOn(51)), show(s.peek()));
    }
  }

  @Test
  public void backwardSeeksAndPreviousRowsCrossGapsAndEmptyPartitions() throws IOException {
    try (KeyValueScanner s = scanner()) {
      assertTrue(s.backwardSeek(firstOn(85)));
      assertEquals("r79", Bytes.toString(CellUtil.cloneRow(s.peek())));
      assertTrue(s.seekToPreviousRow(firstOn(70)));
      assertEquals("r59", Bytes.toString(CellUtil.cloneRow(s.peek())));
      assertTrue(s.seekToPreviousRow(firstOn(50))); // partition [r30, r39] holds nothing
      assertEquals("r19", Bytes.toString(CellUtil.cloneRow(s.peek())));
      assertTrue(s.backwardSeek(firstOn(15)));
      assertEquals("r15", Bytes.toString(CellUtil.cloneRow(s.peek())));
      assertFalse(s.seekToPreviousRow(firstOn(10)));
      assertNull(s.peek());
      // forwards again after running out backwards
      assertTrue(s.seek(firstOn(40)));
      assertEquals("r50", Bytes.toString(CellUtil.cloneRow(s.peek())));
    }
  }

  @Test
  public void aShortScanOpensOnlyThePartitionItReaches() throws IOException {
    try (RlsmChainScanner s = scanner()) {
      assertEquals(0, s.partitionsOpened());
      s.seek(firstOn(12));
      for (int i = 0; i < 5; i++) {
        s.next();
      }
      assertEquals(1, s.partitionsOpened());
      assertEquals(2, s.segmentScannersOpened());
      drain(s);
      assertEquals(layout.size(), s.partitionsOpened());
    }
  }

  @Test
  public void theScannerHoldsEverySegmentUntilClosed() throws IOException {
    List<HStoreFile> segments = new ArrayList<>();
    layout.forEach(p -> segments.addAll(p.segments));
    for (HStoreFile f : segments) {
      assertFalse(f.isReferencedInReads());
    }
    RlsmChainScanner s = scanner();
    s.seek(firstOn(12)); // only the first partition is open, yet every segment is held
    for (HStoreFile f : segments) {
      assertTrue(f + " held", f.isReferencedInReads());
    }
    s.close();
    s.close();
    for (HStoreFile f : segments) {
      assertFalse(f + " released", f.isReferencedInReads());
    }
  }

  @Test
  public void cellsAboveTheReadPointStayHidden() throws IOException {
    List<KeyValue> early = rows(1, 3, "m", 60);
    early.forEach(kv -> kv.setSequenceId(5));
    List<KeyValue> late = rows(1, 3, "m", 70);
    late.forEach(kv -> kv.setSequenceId(100));
    HStoreFile x = segment("a0", early);
    List<KeyValue> both = new ArrayList<>(late);
    both.addAll(rows(6, 7, "n", 70));
    both.forEach(kv -> kv.setSequenceId(100));
    both.add(cell(8, "n", 60, 5));
    HStoreFile y = segment("a1", both);
    List<RlsmStoreFileManager.Partition> parts =
      Arrays.asList(partition(1, 3, x, y), partition(6, 8, y));
    try (KeyValueScanner s = scanner(parts, 50)) {
      s.seek(PrivateCellUtil.createFirstOnRow(HConstants.EMPTY_START_ROW));
      List<String> got = drain(s);
      assertEquals(show(expected(parts, 50)), got);
      assertEquals(4, got.size());
    }
    try (KeyValueScanner s = scanner(parts, Long.MAX_VALUE)) {
      s.seek(PrivateCellUtil.createFirstOnRow(HConstants.EMPTY_START_ROW));
      assertEquals(3 + 3 + 2 + 1, drain(s).size());
    }
  }
}
