package org.apache.hadoop.hbase.rlsm.index;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.HBaseClassTestRule;
import org.apache.hadoop.hbase.rlsm.file.RlsmFileFixture;
import org.apache.hadoop.hbase.rlsm.file.RlsmFileReader;
import org.apache.hadoop.hbase.rlsm.format.FileRole;
import org.apache.hadoop.hbase.testclassification.IOTests;
import org.apache.hadoop.hbase.testclassification.SmallTests;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.experimental.categories.Category;

@Category({ SmallTests.class, IOTests.class })
public class TestSortedRowView {
  @ClassRule
  public static final HBaseClassTestRule CLASS_RULE =
    HBaseClassTestRule.forClass(TestSortedRowView.class);

  @Test
  public void viewIsSortedAndBoundsMatchANavigableSet() throws Exception {
    RlsmFileFixture fx = new RlsmFileFixture("view");
    TreeMap<byte[], List<Cell>> rows = RlsmFileFixture.randomRows(new Random(7), 2000);
    Path p = fx.write("v", rows, FileRole.FLUSH, 0.01, 1);
    List<byte[]> sorted = new ArrayList<>(rows.keySet());
    try (RlsmFileReader r = RlsmFileReader.open(fx.fs, p)) {
      SortedRowView view = r.sortedView();
      assertEquals(sorted.size(), view.size());
      for (int i = 0; i < sorted.size(); i++) {
        assertArrayEquals(sorted.get(i), r.index().row(view.entry(i)));
        assertEquals(i, view.position(view.entry(i)));
      }
      Random rnd = new Random(8);
      for (int i = 0; i < 5000; i++) {
        byte[] key = new byte[rnd.nextInt(5)];
        rnd.nextBytes(key);
        byte[] ceil = rows.ceilingKey(key);
        int pos = view.lowerBound(key, 0, key.length);
        if (ceil == null) {
          assertEquals(view.size(), pos);
        } else {
          assertArrayEquals(ceil, r.index().row(view.entry(pos)));
        }
        byte[] lower = rows.lowerKey(key);
        int before = view.lastBefore(key, 0, key.length);
        if (lower == null) {
          assertEquals(-1, before);
        } else {
          assertArrayEquals(lower, r.index().row(view.entry(before)));
        }
      }
    }
  }
}
