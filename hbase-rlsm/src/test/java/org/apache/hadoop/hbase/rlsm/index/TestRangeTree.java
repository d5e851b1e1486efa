package org.apache.hadoop.hbase.rlsm.index;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.fail;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.Test;

public class TestRangeTree {
  private static byte[] k(int v) {
    return Bytes.toBytes(String.format("%05d", v));
  }

  private static RangeTree<int[]> tree(int[][] ranges) {
    List<int[]> l = new ArrayList<>(List.of(ranges));
    return new RangeTree<>(l, r -> k(r[0]), r -> k(r[1]));
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

  @Test
  public void gapsFloorAndHigher() {
    RangeTree<int[]> t = tree(new int[][] { { 1, 8 }, { 10, 17 } });
    assertNull(t.find(k(9)));
    assertNull(t.find(k(0)));
    assertNull(t.find(k(18)));
    assertEquals(1, t.floor(k(9))[0]);
    assertEquals(10, t.higher(k(9))[0]);
    assertNull(t.higher(k(10)));
  }

  @Test
  public void overlappingOrInvertedRangesAreRefused() {
    for (int[][] bad : new int[][][] { { { 1, 8 }, { 8, 9 } }, { { 5, 1 } }, { { 1, 2 },
      { 1, 3 } } }) {
      try {
        tree(bad);
        fail("accepted " + java.util.Arrays.deepToString(bad));
      } catch (IllegalArgumentException e) {
        // expected
      }
    }
  }
}
