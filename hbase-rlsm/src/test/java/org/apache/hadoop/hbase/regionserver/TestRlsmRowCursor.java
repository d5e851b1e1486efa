package org.apache.hadoop.hbase.regionserver;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.HBaseClassTestRule;
import org.apache.hadoop.hbase.HBaseTestingUtility;
import org.apache.hadoop.hbase.PrivateCellUtil;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.RegionInfoBuilder;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.io.Reference;
import org.apache.hadoop.hbase.io.hfile.CacheConfig;
import org.apache.hadoop.hbase.io.hfile.HFile;
import org.apache.hadoop.hbase.rlsm.RlsmTables;
import org.apache.hadoop.hbase.rlsm.RlsmTestRows;
import org.apache.hadoop.hbase.testclassification.MediumTests;
import org.apache.hadoop.hbase.testclassification.RegionServerTests;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.AfterClass;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.experimental.categories.Category;

/**
 * The row cursor of partition summaries and planner row sources over HBase-read files: each row
 * once, in order, however many cells (columns, versions) a row holds, clipped to the range; and
 * an interrupted thread (HBase interrupts its compaction threads at shutdown) stops reading.
 */
@Category({ MediumTests.class, RegionServerTests.class })
public class TestRlsmRowCursor {
  @ClassRule
  public static final HBaseClassTestRule CLASS_RULE =
    HBaseClassTestRule.forClass(TestRlsmRowCursor.class);

  private static final HBaseTestingUtility UTIL = new HBaseTestingUtility();
  private static final byte[] F = Bytes.toBytes("f");
  private static final int ROWS = 500;
  private static final int COLUMNS = 7;

  @AfterClass
  public static void cleanUp() throws IOException {
    UTIL.cleanupTestDir();
  }

  /** An empty local region of table {@code name} with one RLSM family. */
  private static HRegion emptyRegion(String name, ColumnFamilyDescriptor family)
    throws IOException {
    TableDescriptor td = RlsmTables.configure(TableDescriptorBuilder
      .newBuilder(TableName.valueOf(name))).setColumnFamily(family).build();
    RegionInfo info = RegionInfoBuilder.newBuilder(td.getTableName()).build();
    return HBaseTestingUtility.createRegionAndWAL(info, UTIL.getDataTestDir(name),
      UTIL.getConfiguration(), td);
  }

  private static HRegion region(String name) throws IOException {
    HRegion r = emptyRegion(name, RlsmTables.familyBuilder(F).setMaxVersions(3).build());
    for (int version = 1; version <= 3; version++) {
      for (int i = 0; i < ROWS; i++) {
        Put p = new Put(RlsmTestRows.row(i));
        for (int c = 0; c < COLUMNS; c++) {
          p.addColumn(F, Bytes.toBytes("q" + c), version, RlsmTestRows.value(i));
        }
        r.put(p);
      }
    }
    r.flush(true);
    return r;
  }

  private static HStoreFile hfileBacked(HRegion r) {
    for (HStoreFile f : r.getStore(F).getStorefiles()) {
      if (!(f instanceof RlsmStoreFile) && f.getReader().getEntries() > 0) {
        return f;
      }
    }
    throw new AssertionError("no HFile-backed file with cells in " + r.getStore(F).getStorefiles());
  }

  @Test
  public void eachRowOnceInRange() throws IOException {
    HRegion r = region("row_cursor_rows");
    try {
      HStoreFile f = hfileBacked(r);
      try (RlsmRowCursor c = RlsmRowCursor.open(f, null, null)) {
        for (int i = 0; i < ROWS; i++) {
          assertArrayEquals("row " + i, RlsmTestRows.row(i), c.next());
        }
        assertNull(c.next());
      }
      try (RlsmRowCursor c = RlsmRowCursor.open(f, RlsmTestRows.row(100), RlsmTestRows.row(199))) {
        int n = 0;
        for (byte[] row = c.next(); row != null; row = c.next()) {
          assertArrayEquals(RlsmTestRows.row(100 + n), row);
          n++;
        }
        assertEquals(100, n);
      }
      // a clipped range whose low lies above its high holds no row
      try (RlsmRowCursor c = RlsmRowCursor.open(f, RlsmTestRows.row(300), RlsmTestRows.row(200))) {
        assertNull(c.next());
      }
    } finally {
      HBaseTestingUtility.closeRegionAndWAL(r);
    }
  }

  @Test
  public void interruptedThreadStopsReading() throws IOException {
    HRegion r = region("row_cursor_interrupt");
    try {
      HStoreFile f = hfileBacked(r);
      try (RlsmRowCursor c = RlsmRowCursor.open(f, null, null)) {
        c.next();
        Thread.currentThread().interrupt();
        try {
          c.next();
          fail("an interrupted thread read on");
        } catch (InterruptedIOException e) {
          assertTrue("the interrupt flag stays set", Thread.currentThread().isInterrupted());
        }
      } finally {
        Thread.interrupted();
      }
      assertFalse(Thread.currentThread().isInterrupted());
    } finally {
      HBaseTestingUtility.closeRegionAndWAL(r);
    }
  }

  /**
   * Reading every row of a file (the compaction's layout step, a partition summary) reads each
   * data block about as often as a plain scan of its cells does, not once per row: the reseek
   * past each row stays inside the block it is in. Rows far wider than a block are skipped and,
   * like every row, returned once.
   */
  @Test
  public void readsEachBlockAboutOnceAndSkipsWideRows() throws IOException {
    HRegion r =
      emptyRegion("row_cursor_blocks", RlsmTables.familyBuilder(F).setBlocksize(4096).build());
    try {
      int rows = 2000;
      for (int i = 0; i < rows; i++) {
        Put p = new Put(RlsmTestRows.row(i));
        int columns = i % 250 == 7 ? 300 : 3; // a few rows spanning several blocks
        for (int c = 0; c < columns; c++) {
          p.addColumn(F, Bytes.toBytes("q" + c), RlsmTestRows.value(i));
        }
        r.put(p);
      }
      r.flush(true);
      HStoreFile f = hfileBacked(r);
      long before = HFile.DATABLOCK_READ_COUNT.sum();
      StoreFileScanner plain = f.getPreadScanner(false, Long.MAX_VALUE, 0, false);
      try {
        plain.seek(PrivateCellUtil.createFirstOnRow(new byte[0]));
        while (plain.next() != null) {
          plain.shipped();
        }
      } finally {
        plain.close();
      }
      long scanReads = HFile.DATABLOCK_READ_COUNT.sum() - before;
      before = HFile.DATABLOCK_READ_COUNT.sum();
      try (RlsmRowCursor c = RlsmRowCursor.open(f, null, null)) {
        for (int i = 0; i < rows; i++) {
          assertArrayEquals("row " + i, RlsmTestRows.row(i), c.next());
        }
        assertNull(c.next());
      }
      long cursorReads = HFile.DATABLOCK_READ_COUNT.sum() - before;
      assertTrue("a file of several blocks: " + scanReads, scanReads > 20);
      assertTrue("data blocks read by the cursor " + cursorReads + ", by a scan " + scanReads,
        cursorReads <= 2 * scanReads);
    } finally {
      HBaseTestingUtility.closeRegionAndWAL(r);
    }
  }

  /** The rows {@code c} yields, in order. */
  private static List<byte[]> drain(RlsmRowCursor c) throws IOException {
    List<byte[]> out = new ArrayList<>();
    for (byte[] row = c.next(); row != null; row = c.next()) {
      out.add(row);
    }
    return out;
  }

  /** Asserts that {@code half} yields exactly rows {@code from} to {@code to - 1} in a range. */
  private static void assertRows(String what, HStoreFile half, byte[] low, byte[] high, int from,
    int to) throws IOException {
    try (RlsmRowCursor c = RlsmRowCursor.open(half, low, high)) {
      List<byte[]> rows = drain(c);
      assertEquals(what + ": rows", Math.max(0, to - from), rows.size());
      for (int i = from; i < to; i++) {
        assertArrayEquals(what + ": row " + i, RlsmTestRows.row(i), rows.get(i - from));
      }
    }
  }

  /**
   * The half of {@code f} a daughter region reads: a reference file written where a split writes
   * it ({@code <table>/<daughter>/<family>/<file>.<parent>}) and opened as HBase opens one.
   */
  private static HStoreFile half(HStoreFile f, Reference ref, String daughter)
    throws IOException {
    FileSystem fs = f.getPath().getFileSystem(UTIL.getConfiguration());
    Path family = f.getPath().getParent();
    Path parent = family.getParent();
    Path refPath = new Path(new Path(new Path(parent.getParent(), daughter), family.getName()),
      f.getPath().getName() + "." + parent.getName());
    ref.write(fs, refPath);
    HStoreFile half =
      new HStoreFile(fs, refPath, UTIL.getConfiguration(), CacheConfig.DISABLED, BloomType.NONE,
        true);
    half.initReader();
    return half;
  }

  /**
   * A daughter's half of a split parent's file (the compaction's layout step reads them gap by
   * gap) yields only its own rows for any range, and a range past a bottom half's split row
   * yields none: HBase's half reader refuses that seek when the half is empty and lands on the
   * half's last row otherwise, below the range.
   */
  @Test
  public void halfFilesYieldTheirRowsInAnyRange() throws IOException {
    HRegion r = region("row_cursor_halves");
    try {
      HStoreFile f = hfileBacked(r);
      byte[] mid = RlsmTestRows.row(250);
      HStoreFile bottom = half(f, Reference.createBottomReference(mid), "d0");
      HStoreFile top = half(f, Reference.createTopReference(mid), "d1");
      HStoreFile emptyBottom = half(f, Reference.createBottomReference(RlsmTestRows.row(0)), "d2");
      try {
        assertRows("bottom, all", bottom, null, null, 0, 250);
        assertRows("bottom, across the split", bottom, RlsmTestRows.row(200),
          RlsmTestRows.row(400), 200, 250);
        assertRows("bottom, at the split", bottom, mid, null, 0, 0);
        assertRows("bottom, past the split", bottom, RlsmTestRows.row(300),
          RlsmTestRows.row(400), 0, 0);
        assertRows("top, all", top, null, null, 250, ROWS);
        assertRows("top, below the split", top, RlsmTestRows.row(100), RlsmTestRows.row(199), 0,
          0);
        assertRows("top, across the split", top, RlsmTestRows.row(200), RlsmTestRows.row(299),
          250, 300);
        assertRows("empty bottom, all", emptyBottom, null, null, 0, 0);
        assertRows("empty bottom, a gap past the split", emptyBottom, RlsmTestRows.row(10),
          RlsmTestRows.row(20), 0, 0);
      } finally {
        bottom.closeStoreFile(true);
        top.closeStoreFile(true);
        emptyBottom.closeStoreFile(true);
      }
    } finally {
      HBaseTestingUtility.closeRegionAndWAL(r);
    }
  }
}
