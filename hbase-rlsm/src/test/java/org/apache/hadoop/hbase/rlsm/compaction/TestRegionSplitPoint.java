package org.apache.hadoop.hbase.rlsm.compaction;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;

import org.apache.hadoop.hbase.HBaseClassTestRule;
import org.apache.hadoop.hbase.testclassification.RegionServerTests;
import org.apache.hadoop.hbase.testclassification.SmallTests;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.experimental.categories.Category;

/** {@link RegionSplitPoint}: the boundary nearest the byte midpoint, inside the region. */
@Category({ SmallTests.class, RegionServerTests.class })
public class TestRegionSplitPoint {
  @ClassRule
  public static final HBaseClassTestRule CLASS_RULE =
    HBaseClassTestRule.forClass(TestRegionSplitPoint.class);

  private static final byte[] OPEN = new byte[0];

  private static byte[][] lows(String... s) {
    byte[][] out = new byte[s.length][];
    for (int i = 0; i < s.length; i++) {
      out[i] = Bytes.toBytes(s[i]);
    }
    return out;
  }

  private static String choose(byte[][] lows, long[] bytes, String start, String end) {
    byte[] r = RegionSplitPoint.nearestMidpoint(lows, bytes, Bytes.toBytes(start),
      Bytes.toBytes(end));
    return r == null ? null : Bytes.toString(r);
  }

  @Test
  public void equalPartitionsSplitInTheMiddle() {
    assertEquals("c", choose(lows("a", "b", "c", "d"), new long[] { 10, 10, 10, 10 }, "", ""));
  }

  @Test
  public void bytesNotCountsDecide() {
    // 100 | 10 10 10: the boundary after the big partition is nearest half of 130
    assertEquals("b", choose(lows("a", "b", "c", "d"), new long[] { 100, 10, 10, 10 }, "", ""));
    // 10 10 10 | 100
    assertEquals("d", choose(lows("a", "b", "c", "d"), new long[] { 10, 10, 10, 100 }, "", ""));
  }

  @Test
  public void tiesGoToTheLowerBoundary() {
    // of 30 bytes, 10 lie below b and 20 below c: both 5 from the midpoint, the lower wins
    assertEquals("b", choose(lows("a", "b", "c"), new long[] { 10, 10, 10 }, "", ""));
  }

  @Test
  public void fewerThanTwoPartitionsHaveNoBoundary() {
    assertNull(RegionSplitPoint.nearestMidpoint(lows("a"), new long[] { 5 }, OPEN, OPEN));
    assertNull(RegionSplitPoint.nearestMidpoint(lows(), new long[0], OPEN, OPEN));
  }

  @Test
  public void boundariesOutsideTheRegionAreSkipped() {
    // the region starts at "c": splitting there would leave an empty daughter
    assertEquals("d", choose(lows("a", "c", "d", "e"), new long[] { 50, 1, 1, 1 }, "c", ""));
    // the region ends at "d"
    assertEquals("b", choose(lows("a", "b", "d"), new long[] { 1, 1, 100 }, "", "d"));
    assertNull(choose(lows("c", "d"), new long[] { 1, 1 }, "d", ""));
  }
}
