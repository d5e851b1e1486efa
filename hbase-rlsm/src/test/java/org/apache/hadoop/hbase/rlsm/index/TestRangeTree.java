package org.apache.hadoop.hbase.rlsm.index;

import static org.junit.Assert.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.hbase.HBaseClassTestRule;
import org.apache.hadoop.hbase.testclassification.IOTests;
import org.apache.hadoop.hbase.testclassification.SmallTests;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.experimental.categories.Category;

/** Random lookups against a linear search; the fixed cases are in testdata/range-tree. */
@Category({ SmallTests.class, IOTests.class })
public class TestRangeTree {
  @ClassRule
  public static final HBaseClassTestRule CLASS_RULE =
    HBaseClassTestRule.forClass(TestRangeTree.class);

  private static byte[] k(int v) {
    return Bytes.toBytes(String.format("%05d", v));
  }

  @Test
  public void pointLookupsMatchALinearSearch() {
    Random rnd = new Random(3);
    List<int[]> ranges = new ArrayList<>();
    int at = 0;
    for (int i = 0; i < 500; i++) {
      at += 1 + rnd.nextInt(20);
      int end = at + rnd.nextInt(30);
      ranges.add(new int[] { at, end });
      at = end;
    }
    RangeTree<int[]> t = new RangeTree<>(ranges, r -> k(r[0]), r -> k(r[1]));
    for (int key = 0; key <= at + 10; key++) {
      int[] want = null;
      for (int[] r : ranges) {
        if (r[0] <= key && key <= r[1]) {
          want = r;
        }
      }
      assertEquals("key " + key, want, t.find(k(key)));
    }
    for (int q = 0; q < 2000; q++) {
      int a = rnd.nextInt(at + 10);
      int b = a + rnd.nextInt(200);
      List<int[]> want = new ArrayList<>();
      for (int[] r : ranges) {
        if (r[1] >= a && r[0] <= b) {
          want.add(r);
        }
      }
      assertEquals(want, t.overlapping(k(a), k(b)));
    }
    assertEquals(ranges.size(), t.overlapping(new byte[0], new byte[0]).size());
  }
}
