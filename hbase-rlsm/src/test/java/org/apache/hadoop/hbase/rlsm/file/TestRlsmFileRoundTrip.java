package org.apache.hadoop.hbase.rlsm.file;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.HBaseClassTestRule;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.rlsm.format.FileRole;
import org.apache.hadoop.hbase.rlsm.format.RlsmFileFormat;
import org.apache.hadoop.hbase.rlsm.index.RowHash;
import org.apache.hadoop.hbase.rlsm.index.SortedRowView;
import org.apache.hadoop.hbase.testclassification.IOTests;
import org.apache.hadoop.hbase.testclassification.SmallTests;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.experimental.categories.Category;

@Category({ SmallTests.class, IOTests.class })
public class TestRlsmFileRoundTrip {
  @ClassRule
  public static final HBaseClassTestRule CLASS_RULE =
    HBaseClassTestRule.forClass(TestRlsmFileRoundTrip.class);

  private static void assertSameCells(List<Cell> want, KeyValue[] got) {
    assertEquals(want.size(), got.length);
    for (int i = 0; i < got.length; i++) {
      assertTrue("cell " + i, RlsmFileFixture.sameCell(want.get(i), got[i]));
    }
  }

  @Test
  public void everyRowReadsBackExactly() throws Exception {
    RlsmFileFixture fx = new RlsmFileFixture("roundtrip");
    TreeMap<byte[], List<Cell>> rows = RlsmFileFixture.randomRows(new Random(1), 3000);
    Path p = fx.write("f1", rows, FileRole.FLUSH, 0.01, 777);
    assertTrue(RlsmFileFormat.isRlsmFile(fx.fs, p));
    try (RlsmFileReader r = RlsmFileReader.open(fx.fs, p)) {
      assertEquals(777, r.trailer().maxSequenceId());
      assertEquals(FileRole.FLUSH, r.trailer().role());
      assertEquals(3000, r.trailer().rowCount());
      long cells = rows.values().stream().mapToLong(List::size).sum();
      assertEquals(cells, r.trailer().cellCount());
      long maxMvcc = rows.values().stream().flatMap(List::stream)
        .mapToLong(Cell::getSequenceId).max().getAsLong();
      assertEquals(maxMvcc, r.trailer().maxMemstoreTs());
      assertArrayEquals(rows.firstKey(), r.firstRow());
      assertArrayEquals(rows.lastKey(), r.lastRow());
      assertArrayEquals(RlsmFileFixture.FAMILY, r.family());
      for (Map.Entry<byte[], List<Cell>> e : rows.entrySet()) {
        assertSameCells(e.getValue(), r.readRow(e.getKey(), 0, e.getKey().length));
      }
      assertNull(r.readRow(Bytes.toBytes("absent-row-xyz"), 0, 14));
      // Records are stored in hash order.
      for (int i = 1; i < r.index().size(); i++) {
        byte[] a = r.index().row(i - 1);
        byte[] b = r.index().row(i);
        int c = Integer.compareUnsigned(RowHash.hash(a), RowHash.hash(b));
        assertTrue(c < 0 || (c == 0 && Bytes.compareTo(a, b) < 0));
      }
      SortedRowView view = r.sortedView();
      int pos = 0;
      for (byte[] row : rows.keySet()) {
        assertArrayEquals(row, r.index().row(view.entry(pos++)));
      }
      r.verifyData();
    }
  }

  @Test
  public void rowsAppendedInAnyOrderGiveTheSameFile() throws Exception {
    RlsmFileFixture fx = new RlsmFileFixture("anyorder");
    TreeMap<byte[], List<Cell>> rows = RlsmFileFixture.randomRows(new Random(11), 500);
    Path sorted = fx.write("sorted", rows, FileRole.FLUSH, 0.01, 3);
    List<List<Cell>> shuffled = new java.util.ArrayList<>(rows.values());
    java.util.Collections.shuffle(shuffled, new Random(12));
    Path any = new Path(fx.dir, "any");
    RlsmFileWriter w = new RlsmFileWriter(fx.fs, any, RlsmFileFixture.FAMILY, FileRole.FLUSH, 0.01);
    for (List<Cell> cells : shuffled) {
      w.appendRow(cells.toArray(new Cell[0]), 0, cells.size());
    }
    w.finish(3);
    try (RlsmFileReader a = RlsmFileReader.open(fx.fs, sorted);
      RlsmFileReader b = RlsmFileReader.open(fx.fs, any)) {
      assertEquals(a.trailer().data().length(), b.trailer().data().length());
      assertEquals(a.trailer().data().crc(), b.trailer().data().crc());
      assertArrayEquals(a.firstRow(), b.firstRow());
      assertArrayEquals(a.lastRow(), b.lastRow());
      assertEquals(a.trailer().cellCount(), b.trailer().cellCount());
    }
    RlsmFileWriter dup =
      new RlsmFileWriter(fx.fs, new Path(fx.dir, "dup"), RlsmFileFixture.FAMILY, FileRole.FLUSH, 0);
    List<Cell> one = rows.firstEntry().getValue();
    dup.appendRow(one.toArray(new Cell[0]), 0, one.size());
    dup.appendRow(one.toArray(new Cell[0]), 0, one.size());
    try {
      dup.finish(1);
      org.junit.Assert.fail("a row added twice must be refused");
    } catch (IllegalStateException e) {
      assertTrue(e.getMessage().contains("added twice"));
    }
  }

  @Test
  public void familyAndColumnDeletesExtendTheTimeRangeToZero() throws Exception {
    RlsmFileFixture fx = new RlsmFileFixture("timerange");
    byte[] row = Bytes.toBytes("r");
    TreeMap<byte[], List<Cell>> rows = new TreeMap<>(Bytes.BYTES_COMPARATOR);
    KeyValue put = new KeyValue(row, RlsmFileFixture.FAMILY, Bytes.toBytes("q"), 500L,
      Bytes.toBytes("v"));
    rows.put(row, List.of(put));
    Path plain = fx.write("plain", rows, FileRole.FLUSH, 0.01, 1);
    KeyValue family = new KeyValue(row, RlsmFileFixture.FAMILY, null, 900L,
      KeyValue.Type.DeleteFamily);
    rows.put(row, List.of(family, put));
    Path masked = fx.write("masked", rows, FileRole.FLUSH, 0.01, 1);
    try (RlsmFileReader a = RlsmFileReader.open(fx.fs, plain);
      RlsmFileReader b = RlsmFileReader.open(fx.fs, masked)) {
      assertEquals(500L, a.trailer().minTimestamp());
      assertEquals(0L, b.trailer().minTimestamp());
      assertEquals(900L, b.trailer().maxTimestamp());
    }
  }

  @Test
  public void emptyFileIsValid() throws Exception {
    RlsmFileFixture fx = new RlsmFileFixture("empty");
    Path p = fx.write("empty", new TreeMap<>(Bytes.BYTES_COMPARATOR), FileRole.FLUSH, 0.01, 5);
    try (RlsmFileReader r = RlsmFileReader.open(fx.fs, p)) {
      assertEquals(0, r.trailer().rowCount());
      assertNull(r.firstRow());
      assertNull(r.bloom());
      assertFalse(r.mightContain(Bytes.toBytes("x"), 0, 1));
      assertEquals(5, r.trailer().maxSequenceId());
      assertEquals(0, r.sortedView().size());
    }
  }

  @Test
  public void segmentWithoutBloomUsesIndexForMembership() throws Exception {
    RlsmFileFixture fx = new RlsmFileFixture("nobloom");
    TreeMap<byte[], List<Cell>> rows = RlsmFileFixture.randomRows(new Random(2), 100);
    Path p = fx.write("seg", rows, FileRole.SEGMENT, 0, 9);
    try (RlsmFileReader r = RlsmFileReader.open(fx.fs, p)) {
      assertNull(r.bloom());
      assertEquals(FileRole.SEGMENT, r.trailer().role());
      for (byte[] row : rows.keySet()) {
        assertTrue(r.mightContain(row, 0, row.length));
      }
      assertFalse(r.mightContain(Bytes.toBytes("zzz-not-there"), 0, 13));
    }
  }
}
