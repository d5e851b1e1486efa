package org.apache.hadoop.hbase.rlsm.compaction;

import java.util.Comparator;

/**
 * Linear-time selection of the k-th smallest element (the RLSM paper's median for partition
 * splits, docs/design.md "Load balancing"): Blum-Floyd-Pratt-Rivest-Tarjan median of medians with a
 * three-way partition, so the worst case is O(n) comparisons even for sorted, reversed or all-equal
 * input, and no full sort is ever done. Reorders the array in place.
 */
public final class QuickselectPartitioner<T> {
  private final Comparator<? super T> cmp;
  private long comparisons;

  public QuickselectPartitioner(Comparator<? super T> cmp) {
    this.cmp = cmp;
  }

  /** Comparisons made so far (for the linear-bound tests and the benchmark). */
  public long comparisons() {
    return comparisons;
  }

  private int compare(T a, T b) {
    comparisons++;
    return cmp.compare(a, b);
  }

  /** Returns the element of rank {@code k} (0-based) of {@code a[0..n)}. */
  public T select(T[] a, int n, int k) {
    if (k < 0 || k >= n) {
      throw new IllegalArgumentException("Expected 0 <= k < " + n + " but was " + k);
    }
    int lo = 0;
    int hi = n; // exclusive
    while (true) {
      if (hi - lo <= 5) {
        insertionSort(a, lo, hi);
        return a[k];
      }
      T pivot = medianOfMedians(a, lo, hi);
      // Three-way partition: [lo, lt) < pivot, [lt, gt) == pivot, [gt, hi) > pivot.
      int lt = lo;
      int gt = hi;
      int i = lo;
      while (i < gt) {
        int c = compare(a[i], pivot);
        if (c < 0) {
          swap(a, lt++, i++);
        } else if (c > 0) {
          swap(a, i, --gt);
        } else {
          i++;
        }
      }
      if (k < lt) {
        hi = lt;
      } else if (k >= gt) {
        lo = gt;
      } else {
        return a[k];
      }
    }
  }

  /** Median of the medians of groups of five; moves group medians to the front of the range. */
  private T medianOfMedians(T[] a, int lo, int hi) {
    int m = lo;
    for (int g = lo; g < hi; g += 5) {
      int end = Math.min(g + 5, hi);
      insertionSort(a, g, end);
      swap(a, m++, g + (end - g - 1) / 2);
    }
    int count = m - lo;
    return count == 1 ? a[lo] : select(a, lo, m, lo + (count - 1) / 2);
  }

  /** Selection restricted to {@code a[lo, hi)}, rank {@code k} absolute. */
  private T select(T[] a, int lo, int hi, int k) {
    T[] copy = java.util.Arrays.copyOfRange(a, lo, hi);
    return select(copy, copy.length, k - lo);
  }

  private void insertionSort(T[] a, int lo, int hi) {
    for (int i = lo + 1; i < hi; i++) {
      T x = a[i];
      int j = i - 1;
      while (j >= lo && compare(a[j], x) > 0) {
        a[j + 1] = a[j];
        j--;
      }
      a[j + 1] = x;
    }
  }

  private static <T> void swap(T[] a, int i, int j) {
    T t = a[i];
    a[i] = a[j];
    a[j] = t;
  }
}
