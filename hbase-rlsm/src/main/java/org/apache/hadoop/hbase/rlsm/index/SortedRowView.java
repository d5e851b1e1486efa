package org.apache.hadoop.hbase.rlsm.index;

import java.util.Arrays;

/**
 * The rows of one immutable file in key order: built once per file (an index sort of its hash
 * index, no data read) and cached, so a scan reads records in key order instead of sorting the
 * file's data per scan as the RLSM paper did (docs/design.md "Reads and scans").
 */
public final class SortedRowView {
  private final HashIndex index;
  private final int[] order; // position -> index entry
  private final int[] rank; // index entry -> position

  public SortedRowView(HashIndex index) {
    this.index = index;
    Integer[] boxed = new Integer[index.size()];
    for (int i = 0; i < boxed.length; i++) {
      boxed[i] = i;
    }
    Arrays.sort(boxed, index::compareRows);
    this.order = new int[boxed.length];
    this.rank = new int[boxed.length];
    for (int i = 0; i < boxed.length; i++) {
      order[i] = boxed[i];
      rank[boxed[i]] = i;
    }
  }

  /** Sorted position of index entry {@code entry}. */
  public int position(int entry) {
    return rank[entry];
  }

  public int size() {
    return order.length;
  }

  /** The index entry at sorted position {@code pos}. */
  public int entry(int pos) {
    return order[pos];
  }

  /** First position whose row is {@code >= key}; {@link #size()} when none. */
  public int lowerBound(byte[] key, int off, int len) {
    int lo = 0;
    int hi = order.length;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (index.compareRow(order[mid], key, off, len) < 0) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  /** First position whose row is {@code > key}; {@link #size()} when none. */
  public int upperBound(byte[] key, int off, int len) {
    int lo = 0;
    int hi = order.length;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (index.compareRow(order[mid], key, off, len) <= 0) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  /** Last position whose row is {@code < key}; -1 when none. */
  public int lastBefore(byte[] key, int off, int len) {
    return lowerBound(key, off, len) - 1;
  }
}
