package org.apache.hadoop.hbase.rlsm.compaction;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.util.Arrays;
import java.util.Comparator;
import java.util.Random;
import java.util.function.IntFunction;
import org.junit.Test;

public class TestQuickselectPartitioner {
  /** Comparisons allowed per element: BFPRT with groups of five stays well under this. */
  private static final int C = 40;

  private static void check(String name, Integer[] input) {
    for (int k : new int[] { 0, input.length / 2, input.length - 1 }) {
      Integer[] a = input.clone();
      Integer[] sorted = input.clone();
      Arrays.sort(sorted);
      QuickselectPartitioner<Integer> qs = new QuickselectPartitioner<>(Comparator.naturalOrder());
      Integer got = qs.select(a, a.length, k);
      assertEquals(name + " k=" + k, sorted[k], got);
      assertTrue(name + " k=" + k + ": " + qs.comparisons() + " comparisons for n=" + a.length,
        qs.comparisons() <= (long) C * a.length);
      Integer[] b = a.clone();
      Arrays.sort(b);
      assertTrue("a permutation of the input", Arrays.equals(b, sorted));
    }
  }

  private static Integer[] make(int n, IntFunction<Integer> f) {
    Integer[] a = new Integer[n];
    for (int i = 0; i < n; i++) {
      a[i] = f.apply(i);
    }
    return a;
  }

  @Test
  public void adversarialInputsStayLinear() {
    Random rnd = new Random(1);
    for (int n : new int[] { 1, 2, 5, 6, 11, 100, 1000, 100_000 }) {
      check("sorted", make(n, i -> i));
      check("reversed", make(n, i -> n - i));
      check("all equal", make(n, i -> 7));
      check("many duplicates", make(n, i -> rnd.nextInt(3)));
      check("random", make(n, i -> rnd.nextInt()));
      check("organ pipe", make(n, i -> Math.min(i, n - i)));
    }
  }

  @Test(expected = IllegalArgumentException.class)
  public void rankOutOfRangeIsRefused() {
    new QuickselectPartitioner<Integer>(Comparator.naturalOrder()).select(new Integer[] { 1 }, 1,
      1);
  }
}
