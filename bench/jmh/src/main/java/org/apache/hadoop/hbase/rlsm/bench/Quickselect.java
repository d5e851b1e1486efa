package org.apache.hadoop.hbase.rlsm.bench;

import java.util.Comparator;
import java.util.Random;

/**
 * Expected linear-time selection (three-way quickselect with random pivots), the alternative to a
 * full sort for finding a partition's split median. Benchmark-only: the compaction planner's own
 * selection was not committed when this module was written.
 */
public final class Quickselect {
  private Quickselect() {
  }

  /** Rearranges {@code a} so that {@code a[k]} is the k-th smallest element, and returns it. */
  public static <T> T select(T[] a, int k, Comparator<? super T> cmp, Random rnd) {
    int lo = 0;
    int hi = a.length - 1;
    while (lo < hi) {
      T pivot = a[lo + rnd.nextInt(hi - lo + 1)];
      // Invariant: a[lo..lt) < pivot, a[lt..i) == pivot, a(gt..hi] > pivot.
      int lt = lo;
      int gt = hi;
      int i = lo;
      while (i <= gt) {
        int c = cmp.compare(a[i], pivot);
        if (c < 0) {
          swap(a, lt++, i++);
        } else if (c > 0) {
          swap(a, i, gt--);
        } else {
          i++;
        }
      }
      if (k < lt) {
        hi = lt - 1;
      } else if (k > gt) {
        lo = gt + 1;
      } else {
        return a[k];
      }
    }
    return a[k];
  }

  private static <T> void swap(T[] a, int i, int j) {
    T t = a[i];
    a[i] = a[j];
    a[j] = t;
  }
}
