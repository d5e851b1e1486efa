package org.apache.hadoop.hbase.rlsm.index;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.HBaseClassTestRule;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.rlsm.file.RlsmFileFixture;
import org.apache.hadoop.hbase.rlsm.file.RlsmFileReader;
import org.apache.hadoop.hbase.rlsm.format.FileRole;
import org.apache.hadoop.hbase.testclassification.IOTests;
import org.apache.hadoop.hbase.testclassification.SmallTests;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.experimental.categories.Category;

@Category({ SmallTests.class, IOTests.class })
public class TestHashIndex {
  @ClassRule
  public static final HBaseClassTestRule CLASS_RULE =
    HBaseClassTestRule.forClass(TestHashIndex.class);

  /** Finds distinct rows with the same 32-bit hash (birthday search, deterministic seed). */
  private static List<byte[][]> collidingPairs(int wanted) {
    Map<Integer, byte[]> seen = new HashMap<>();
    List<byte[][]> pairs = new ArrayList<>();
    for (long i = 0; pairs.size() < wanted; i++) {
      byte[] row = Bytes.toBytes("user" + i);
      byte[] prev = seen.putIfAbsent(RowHash.hash(row), row);
      if (prev != null) {
        pairs.add(new byte[][] { prev, row });
      }
    }
    return pairs;
  }

  private static KeyValue cell(byte[] row, String v) {
    KeyValue kv = new KeyValue(row, RlsmFileFixture.FAMILY, Bytes.toBytes("q"), 1L,
      Bytes.toBytes(v));
    kv.setSequenceId(1);
    return kv;
  }

  @Test
  public void fullHashCollisionsAreToldApartByRow() throws Exception {
    List<byte[][]> pairs = collidingPairs(5);
    TreeMap<byte[], List<Cell>> rows = new TreeMap<>(Bytes.BYTES_COMPARATOR);
    for (int i = 0; i < pairs.size(); i++) {
      byte[][] pair = pairs.get(i);
      assertEquals(RowHash.hash(pair[0]), RowHash.hash(pair[1]));
      assertNotEquals(Bytes.toString(pair[0]), Bytes.toString(pair[1]));
      rows.put(pair[0], List.of(cell(pair[0], "first" + i)));
      if (i % 2 == 0) { // odd pairs keep only one row: the other must be a miss, not a hit
        rows.put(pair[1], List.of(cell(pair[1], "second" + i)));
      }
    }
    for (int i = 0; i < 2000; i++) {
      byte[] row = Bytes.toBytes("filler" + i);
      rows.put(row, List.of(cell(row, "x")));
    }
    RlsmFileFixture fx = new RlsmFileFixture("collide");
    Path p = fx.write("c", rows, FileRole.SEGMENT, 0, 1);
    try (RlsmFileReader r = RlsmFileReader.open(fx.fs, p)) {
      for (int i = 0; i < pairs.size(); i++) {
        byte[][] pair = pairs.get(i);
        KeyValue[] a = r.readRow(pair[0], 0, pair[0].length);
        assertArrayEquals(Bytes.toBytes("first" + i), CellUtil.cloneValue(a[0]));
        KeyValue[] b = r.readRow(pair[1], 0, pair[1].length);
        if (i % 2 == 0) {
          assertNotNull(b);
          assertArrayEquals(Bytes.toBytes("second" + i), CellUtil.cloneValue(b[0]));
        } else {
          assertNull("colliding absent row must miss", b);
        }
      }
    }
  }

  @Test
  public void lookupsAgreeWithAMapForManySizes() throws Exception {
    RlsmFileFixture fx = new RlsmFileFixture("sizes");
    for (int n : new int[] { 1, 2, 3, 17, 64, 1000, 5000 }) {
      TreeMap<byte[], List<Cell>> rows = RlsmFileFixture.randomRows(new Random(n), n);
      Path p = fx.write("s" + n, rows, FileRole.SEGMENT, 0, 1);
      try (RlsmFileReader r = RlsmFileReader.open(fx.fs, p)) {
        HashIndex idx = r.index();
        assertEquals(n, idx.size());
        for (byte[] row : rows.keySet()) {
          int e = idx.find(row, 0, row.length);
          assertTrue(e >= 0);
          assertArrayEquals(row, idx.row(e));
        }
        Random miss = new Random(-n);
        for (int i = 0; i < 1000; i++) {
          byte[] row = new byte[26 + miss.nextInt(4)]; // longer than any stored row
          miss.nextBytes(row);
          assertEquals(-1, idx.find(row, 0, row.length));
        }
      }
    }
  }
}
