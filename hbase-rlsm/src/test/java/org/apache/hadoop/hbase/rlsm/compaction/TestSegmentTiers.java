package org.apache.hadoop.hbase.rlsm.compaction;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.HBaseClassTestRule;
import org.apache.hadoop.hbase.testclassification.RegionServerTests;
import org.apache.hadoop.hbase.testclassification.SmallTests;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.experimental.categories.Category;

/**
 * The segment bound's fold over many appends to one partition (the planner's single-plan cases
 * are in testdata/compaction-planner): the bound holds after every append, and the bytes each
 * appended byte costs in rewrites grow with the logarithm-like binomial schedule, not with the
 * partition.
 */
@Category({ SmallTests.class, RegionServerTests.class })
public class TestSegmentTiers {
  @ClassRule
  public static final HBaseClassTestRule CLASS_RULE =
    HBaseClassTestRule.forClass(TestSegmentTiers.class);

  /** One partition under appends of equal size, as the planner folds it at the bound. */
  private static final class Partition {
    final int bound;
    final List<Long> bytes = new ArrayList<>();
    /** Per segment: the most times any byte in it was rewritten by a fold. */
    final List<Integer> rewrites = new ArrayList<>();
    long appended;
    long rewritten;

    Partition(int bound) {
      this.bound = bound;
    }

    void append(long size) {
      appended += size;
      if (bytes.size() + 1 <= bound) {
        bytes.add(size);
        rewrites.add(0);
        return;
      }
      long[] b = bytes.stream().mapToLong(Long::longValue).toArray();
      int from = SegmentTiers.foldFrom(b, bound - 1, 0, 1.0);
      long folded = 0;
      int most = 0;
      while (bytes.size() > from) {
        folded += bytes.remove(bytes.size() - 1);
        most = Math.max(most, rewrites.remove(rewrites.size() - 1));
      }
      rewritten += folded;
      bytes.add(folded + size);
      rewrites.add(most + 1);
      assertTrue("segments " + bytes.size() + " within the bound " + bound,
        bytes.size() <= bound);
    }

    int mostRewrites() {
      return rewrites.stream().mapToInt(Integer::intValue).max().orElse(0);
    }
  }

  private static long binomial(int n, int k) {
    long c = 1;
    for (int i = 1; i <= k; i++) {
      c = c * (n - k + i) / i;
    }
    return c;
  }

  /**
   * Equal appends into a bound of K segments: the first C(K + m, m) appended bytes are each
   * rewritten at most m times (the binomial schedule), where a fold of the whole partition at the
   * bound rewrites every byte once per K - 1 appends.
   */
  @Test
  public void equalAppendsFollowTheBinomialSchedule() {
    for (int bound : new int[] { 4, 32 }) {
      for (int m = 1; m <= 3; m++) {
        Partition p = new Partition(bound);
        long appends = binomial(bound + m, m);
        for (long i = 0; i < appends; i++) {
          p.append(1000);
        }
        assertEquals("bound " + bound + ", " + appends + " appends: most rewrites of a byte", m,
          p.mostRewrites());
        assertTrue("bound " + bound + ", " + appends + " appends: " + p.rewritten
          + " bytes rewritten for " + p.appended, p.rewritten < m * p.appended);
      }
    }
  }

  /**
   * A large old segment stays out of every fold until the appends after it add up to its size,
   * so what the appends cost does not grow with it; a whole fold would rewrite it every K - 1
   * appends.
   */
  @Test
  public void largeOldSegmentIsNotRewrittenBySmallAppends() {
    Partition p = new Partition(32);
    long base = 1_000_000;
    p.append(base);
    for (int i = 0; i < 10_000; i++) {
      p.append(1);
    }
    assertEquals("the oldest segment as it was", base, (long) p.bytes.get(0));
    assertTrue(p.rewritten + " bytes rewritten for 10000 appended",
      p.rewritten < 3 * (p.appended - base));
  }

  @Test
  public void foldStopsAtTheFirstOlderSegmentLargerThanItsTake() {
    long[] staircase = { 800, 100, 10, 10 };
    assertEquals(2, SegmentTiers.foldFrom(staircase, 3, 0, 1.0));
    assertEquals(1, SegmentTiers.foldFrom(staircase, 3, 100, 1.0));
    assertEquals(0, SegmentTiers.foldFrom(staircase, 3, 700, 1.0));
    // under the bound already: nothing is forced, only what the tiers take in
    assertEquals(4, SegmentTiers.foldFrom(staircase, 4, 0, 0.5));
    assertEquals(2, SegmentTiers.foldFrom(staircase, 4, 10, 1.0));
    // a bound of one kept segment folds all but the oldest, or it too when small enough
    assertEquals(1, SegmentTiers.foldFrom(staircase, 1, 0, 1.0));
    assertEquals(0, SegmentTiers.foldFrom(staircase, 1, 0, 8.0));
  }
}
