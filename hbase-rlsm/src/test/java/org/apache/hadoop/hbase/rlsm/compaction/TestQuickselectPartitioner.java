package org.apache.hadoop.hbase.rlsm.compaction;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.util.Arrays;
import java.util.Comparator;
import java.util.Random;
import java.util.function.IntFunction;
import org.apache.hadoop.hbase.HBaseClassTestRule;
import org.apache.hadoop.hbase.testclassification.RegionServerTests;
import org.apache.hadoop.hbase.testclassification.SmallTests;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.experimental.categories.Category;

/** Random inputs against a sort; the fixed cases are in testdata/quickselect. */
@Category({ SmallTests.class, RegionServerTests.class })
public class TestQuickselectPartitioner {
  @ClassRule
  public static final HBaseClassTestRule CLASS_RULE =
    HBaseClassTestRule.forClass(TestQuickselectPartitioner.class);

  /** Comparisons allowed per element: BFPRT with groups of five stays well under this. */
  private static final int C = 40;

  /**
   * Element {@code k} of {@code input} in ascending order, selected from a copy, after checking
   * that the selection stayed within the comparison bound and left a permutation of the input.
   */
  static Integer select(String name, Integer[] input, int k) {
    Integer[] a = input.clone();
    QuickselectPartitioner<Integer> qs = new QuickselectPartitioner<>(Comparator.naturalOrder());
    Integer got = qs.select(a, a.length, k);
    assertTrue(name + " k=" + k + ": " + qs.comparisons() + " comparisons for n=" + a.length,
      qs.comparisons() <= (long) C * a.length);
    Integer[] sortedInput = input.clone();
    Arrays.sort(sortedInput);
    Arrays.sort(a);
    assertTrue("a permutation of the input", Arrays.equals(a, sortedInput));
    return got;
  }

  private static void check(String name, Integer[] input) {
    Integer[] sorted = input.clone();
    Arrays.sort(sorted);
    for (int k : new int[] { 0, input.length / 2, input.length - 1 }) {
      assertEquals(name + " k=" + k, sorted[k], select(name, input, k));
    }
  }

  static Integer[] make(int n, IntFunction<Integer> f) {
    Integer[] a = new Integer[n];
    for (int i = 0; i < n; i++) {
      a[i] = f.apply(i);
    }
    return a;
  }

  @Test
  public void randomInputsStayLinear() {
    Random rnd = new Random(1);
    for (int n : new int[] { 1, 2, 5, 6, 11, 100, 1000, 100_000 }) {
      check("many duplicates", make(n, i -> rnd.nextInt(3)));
      check("random", make(n, i -> rnd.nextInt()));
    }
  }
}
